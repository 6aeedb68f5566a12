#include "tools/npy.h"

#include <cstdio>
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

}  // namespace

bool read_npy(const std::string& path, NpyArray* array, std::string* error) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    *error = "cannot open " + path;
    return false;
  }
  std::vector<uint8_t> bytes;
  uint8_t chunk[65536];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), f)) > 0) bytes.insert(bytes.end(), chunk, chunk + n);
  std::fclose(f);
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) {
    *error = path + " is not a .npy file";
    return false;
  }
  const int major = bytes[6];
  size_t header_len, header_start;
  if (major == 1) {
    header_len = bytes[8] | bytes[9] << 8;
    header_start = 10;
  } else {
    if (bytes.size() < 12) { *error = path + ": truncated header"; return false; }
    header_len = bytes[8] | bytes[9] << 8 | bytes[10] << 16 | static_cast<size_t>(bytes[11]) << 24;
    header_start = 12;
  }
  if (header_start + header_len > bytes.size()) {
    *error = path + ": truncated header";
    return false;
  }
  const std::string header(bytes.begin() + header_start, bytes.begin() + header_start + header_len);
  const std::string descr = dict_value(header, "descr");
  bool found = false;
  for (const auto& d : kDescrs) {
    if (descr.find(d.descr) != std::string::npos) {
      array->dtype = d.dtype;
      found = true;
    }
  }
  if (!found) {
    *error = path + ": unsupported dtype " + descr;
    return false;
  }
  if (dict_value(header, "fortran_order").find("True") != std::string::npos) {
    *error = path + ": Fortran-ordered arrays are not supported";
    return false;
  }
  const std::string shape = dict_value(header, "shape");
  array->shape.clear();
  size_t numel = 1;
  for (const char* p = shape.c_str(); *p;) {
    if (*p >= '0' && *p <= '9') {
      char* end;
      const long v = std::strtol(p, &end, 10);
      array->shape.push_back(static_cast<int32_t>(v));
      numel *= static_cast<size_t>(v);
      p = end;
    } else {
      ++p;
    }
  }
  const size_t nbytes = numel * element_size(array->dtype);
  const size_t data_start = header_start + header_len;
  if (bytes.size() - data_start < nbytes) {
    *error = path + ": data is shorter than its shape says";
    return false;
  }
  array->data.assign(bytes.begin() + data_start, bytes.begin() + data_start + nbytes);
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
