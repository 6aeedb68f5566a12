#include "tools/npy.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ember::tools {
namespace {

struct DescrEntry {
  const char* descr;
  ScalarType dtype;
};
const DescrEntry kDescrs[] = {
    {"<f4", ScalarType::Float}, {"<f8", ScalarType::Double}, {"<f2", ScalarType::Half},
    {"|u1", ScalarType::Byte},  {"|i1", ScalarType::Char},   {"<i2", ScalarType::Short},
    {"<i4", ScalarType::Int},   {"<i8", ScalarType::Long},   {"|b1", ScalarType::Bool},
};

// Finds the value text after 'key': in the header dict.
std::string dict_value(const std::string& header, const char* key) {
  const std::string needle = std::string("'") + key + "':";
  const size_t at = header.find(needle);
  if (at == std::string::npos) return "";
  size_t start = at + needle.size();
  while (start < header.size() && header[start] == ' ') ++start;
  if (header[start] == '(') {
    return header.substr(start, header.find(')', start) - start + 1);
  }
  size_t end = header.find_first_of(",}", start);
  return header.substr(start, end - start);
}

// Little-endian unsigned integer of `n` bytes.
uint64_t read_le(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

bool read_file(const std::string& path, std::vector<uint8_t>* bytes, std::string* error) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    *error = "cannot open " + path;
    return false;
  }
  bytes->clear();
  uint8_t chunk[65536];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), f)) > 0) bytes->insert(bytes->end(), chunk, chunk + n);
  std::fclose(f);
  return true;
}

}  // namespace

bool parse_npy(const uint8_t* bytes, size_t size, const std::string& name, NpyArray* array,
               std::string* error) {
  if (size < 10 || std::memcmp(bytes, "\x93NUMPY", 6) != 0) {
    *error = name + " is not a .npy file";
    return false;
  }
  const int major = bytes[6];
  size_t header_len, header_start;
  if (major == 1) {
    header_len = bytes[8] | bytes[9] << 8;
    header_start = 10;
  } else {
    if (size < 12) { *error = name + ": truncated header"; return false; }
    header_len = bytes[8] | bytes[9] << 8 | bytes[10] << 16 | static_cast<size_t>(bytes[11]) << 24;
    header_start = 12;
  }
  if (header_start + header_len > size) {
    *error = name + ": truncated header";
    return false;
  }
  const std::string header(bytes + header_start, bytes + header_start + header_len);
  const std::string descr = dict_value(header, "descr");
  bool found = false;
  for (const auto& d : kDescrs) {
    if (descr.find(d.descr) != std::string::npos) {
      array->dtype = d.dtype;
      found = true;
    }
  }
  if (!found) {
    *error = name + ": unsupported dtype " + descr;
    return false;
  }
  if (dict_value(header, "fortran_order").find("True") != std::string::npos) {
    *error = name + ": Fortran-ordered arrays are not supported (save np.ascontiguousarray(a))";
    return false;
  }
  const std::string shape = dict_value(header, "shape");
  array->shape.clear();
  size_t numel = 1;
  for (const char* p = shape.c_str(); *p;) {
    if (*p >= '0' && *p <= '9') {
      char* end;
      const long v = std::strtol(p, &end, 10);
      // Sizes and element counts are int32 in the runtime's tensors.
      if (v > INT32_MAX || (v > 0 && numel > static_cast<size_t>(INT32_MAX) / static_cast<size_t>(v))) {
        *error = name + ": shape " + shape + " has more elements than a tensor can hold";
        return false;
      }
      array->shape.push_back(static_cast<int32_t>(v));
      numel *= static_cast<size_t>(v);
      p = end;
    } else {
      ++p;
    }
  }
  const size_t nbytes = numel * element_size(array->dtype);
  const size_t data_start = header_start + header_len;
  if (size - data_start < nbytes) {
    *error = name + ": data is shorter than its shape says";
    return false;
  }
  array->data.assign(bytes + data_start, bytes + data_start + nbytes);
  return true;
}

bool read_npy(const std::string& path, NpyArray* array, std::string* error) {
  std::vector<uint8_t> bytes;
  if (!read_file(path, &bytes, error)) return false;
  return parse_npy(bytes.data(), bytes.size(), path, array, error);
}

bool read_npz(const std::string& path, std::vector<std::pair<std::string, NpyArray>>* arrays,
              std::string* error) {
  std::vector<uint8_t> bytes;
  if (!read_file(path, &bytes, error)) return false;
  arrays->clear();
  // Walks the local file headers front to back (zip's layout: header, name,
  // extra field, data). np.savez writes sizes in the local headers and no
  // data descriptors, so the central directory is not needed.
  size_t at = 0;
  while (at + 4 <= bytes.size() && read_le(&bytes[at], 4) == 0x04034b50) {
    if (at + 30 > bytes.size()) break;
    const uint8_t* h = &bytes[at];
    const uint32_t flags = static_cast<uint32_t>(read_le(h + 6, 2));
    const uint32_t method = static_cast<uint32_t>(read_le(h + 8, 2));
    uint64_t packed = read_le(h + 18, 4);
    const size_t name_len = read_le(h + 26, 2), extra_len = read_le(h + 28, 2);
    if (at + 30 + name_len + extra_len > bytes.size()) break;
    std::string name(reinterpret_cast<const char*>(h + 30), name_len);
    const uint8_t* extra = h + 30 + name_len;
    // Zip64 (numpy uses it for large arrays): the real sizes are in extra field 0x0001.
    for (size_t e = 0; packed == 0xffffffffu && e + 4 <= extra_len;) {
      const uint64_t id = read_le(extra + e, 2), len = read_le(extra + e + 2, 2);
      if (id == 1 && len >= 16 && e + 4 + len <= extra_len) packed = read_le(extra + e + 12, 8);
      e += 4 + len;
    }
    const size_t data_at = at + 30 + name_len + extra_len;
    if (method != 0) {
      *error = path + ": " + name + " is compressed (np.savez_compressed); only np.savez archives "
               "are supported";
      return false;
    }
    if ((flags & 8) != 0) {
      *error = path + ": " + name + " was streamed (sizes after the data); not supported";
      return false;
    }
    if (packed > bytes.size() - data_at) {
      *error = path + ": " + name + " is truncated";
      return false;
    }
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0) {
      name.resize(name.size() - 4);
    }
    NpyArray array;
    if (!parse_npy(&bytes[data_at], static_cast<size_t>(packed), path + ":" + name, &array, error)) {
      return false;
    }
    arrays->emplace_back(name, std::move(array));
    at = data_at + static_cast<size_t>(packed);
  }
  if (arrays->empty()) {
    *error = path + " is not an .npz archive";
    return false;
  }
  return true;
}

bool write_npy(const std::string& path, ScalarType dtype, const std::vector<int32_t>& shape,
               const void* data, size_t nbytes, std::string* error) {
  const char* descr = nullptr;
  for (const auto& d : kDescrs) {
    if (d.dtype == dtype) descr = d.descr;
  }
  if (descr == nullptr) {
    *error = std::string("cannot write dtype ") + scalar_type_name(dtype) + " to .npy";
    return false;
  }
  std::string dims;
  for (int32_t s : shape) dims += std::to_string(s) + ",";
  if (shape.size() > 1) dims.pop_back();
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" +
                       dims + "), }";
  // Pad so that the data starts on a 64-byte boundary, as numpy does.
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    *error = "cannot write " + path;
    return false;
  }
  const uint8_t preamble[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                                static_cast<uint8_t>(header.size() & 0xff),
                                static_cast<uint8_t>(header.size() >> 8)};
  bool ok = std::fwrite(preamble, 1, 10, f) == 10 &&
            std::fwrite(header.data(), 1, header.size(), f) == header.size() &&
            std::fwrite(data, 1, nbytes, f) == nbytes;
  ok = std::fclose(f) == 0 && ok;
  if (!ok) *error = "failed writing " + path;
  return ok;
}

}  // namespace ember::tools
