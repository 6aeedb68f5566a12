#include "extension/llm/tokenizer/gguf_reader.h"

#include <limits>

#include "extension/llm/tokenizer/byte_reader.h"
#include "runtime/core/log.h"

namespace ember {
namespace llm {
namespace {

constexpr uint32_t kGgufMagic = 0x46554747;  // "GGUF" little-endian
// Arrays of arrays are legal GGUF but nothing a tokenizer needs; nesting past
// this depth is refused so that a hostile file cannot exhaust the stack.
constexpr int kMaxArrayDepth = 4;
// Arrays longer than this are walked past and not kept (a tokenizer's are
// about 10^5): a hostile length cannot make the reader hold several times the
// file's size in memory.
constexpr uint64_t kMaxKeptArrayLength = uint64_t{1} << 24;

bool is_valid_type(uint32_t type) { return type <= static_cast<uint32_t>(GgufType::Float64); }

// Bytes of a scalar of `type` (strings and arrays: their smallest encoding).
size_t encoded_size(GgufType type) {
  switch (type) {
    case GgufType::Uint8: case GgufType::Int8: case GgufType::Bool: return 1;
    case GgufType::Uint16: case GgufType::Int16: return 2;
    case GgufType::Uint32: case GgufType::Int32: case GgufType::Float32: return 4;
    case GgufType::Uint64: case GgufType::Int64: case GgufType::Float64: return 8;
    case GgufType::String: return 8;
    case GgufType::Array: return 12;
  }
  return 1;
}

bool is_integer_type(GgufType type) {
  switch (type) {
    case GgufType::Uint8: case GgufType::Int8: case GgufType::Uint16: case GgufType::Int16:
    case GgufType::Uint32: case GgufType::Int32: case GgufType::Uint64: case GgufType::Int64:
    case GgufType::Bool:
      return true;
    default:
      return false;
  }
}

// Reads one integer or bool of `type`; sets *out_of_range for a UINT64 that
// an int64_t cannot hold.
bool read_integer(ByteReader* reader, GgufType type, int64_t* out, bool* out_of_range) {
  switch (type) {
    case GgufType::Uint8: { uint8_t v; if (!reader->read(&v)) return false; *out = v; return true; }
    case GgufType::Int8: { int8_t v; if (!reader->read(&v)) return false; *out = v; return true; }
    case GgufType::Bool: {
      uint8_t v;
      if (!reader->read(&v)) return false;
      *out = v != 0;
      return true;
    }
    case GgufType::Uint16: { uint16_t v; if (!reader->read(&v)) return false; *out = v; return true; }
    case GgufType::Int16: { int16_t v; if (!reader->read(&v)) return false; *out = v; return true; }
    case GgufType::Uint32: { uint32_t v; if (!reader->read(&v)) return false; *out = v; return true; }
    case GgufType::Int32: { int32_t v; if (!reader->read(&v)) return false; *out = v; return true; }
    case GgufType::Int64: { int64_t v; if (!reader->read(&v)) return false; *out = v; return true; }
    case GgufType::Uint64: {
      uint64_t v;
      if (!reader->read(&v)) return false;
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        *out_of_range = true;
        *out = std::numeric_limits<int64_t>::max();
      } else {
        *out = static_cast<int64_t>(v);
      }
      return true;
    }
    default:
      return false;
  }
}

bool read_float(ByteReader* reader, GgufType type, double* out) {
  if (type == GgufType::Float32) {
    float v;
    if (!reader->read(&v)) return false;
    *out = v;
    return true;
  }
  return reader->read(out);
}

Error malformed(const ByteReader& reader, const char* what) {
  EMBER_LOG(Error, "GGUF: malformed metadata at byte %zu: %s", reader.position(), what);
  return Error::InvalidArgument;
}

Error read_value(ByteReader* reader, GgufType type, int depth, GgufValue* value);

Error read_array(ByteReader* reader, int depth, GgufValue* value) {
  uint32_t element_type = 0;
  uint64_t length = 0;
  if (!reader->read(&element_type) || !reader->read(&length)) return malformed(*reader, "array cut off");
  if (!is_valid_type(element_type)) return malformed(*reader, "unknown array element type");
  const auto type = static_cast<GgufType>(element_type);
  value->element_type = type;
  value->array_length = length;
  // Each element takes at least encoded_size bytes: a length the rest of the
  // file cannot hold is refused before anything is allocated for it.
  if (length > reader->remaining() / encoded_size(type)) return malformed(*reader, "array longer than the file");
  const auto count = static_cast<size_t>(length);
  if (length > kMaxKeptArrayLength && type != GgufType::Array) {
    value->kept = false;
    if (type != GgufType::String) {
      reader->skip(length * encoded_size(type));  // fits: checked above
      return Error::Ok;
    }
    std::string skipped;
    for (size_t i = 0; i < count; ++i) {
      if (!reader->string<uint64_t>(&skipped)) return malformed(*reader, "string cut off");
    }
    return Error::Ok;
  }
  if (type == GgufType::String) {
    value->strings.resize(count);
    for (size_t i = 0; i < count; ++i) {
      if (!reader->string<uint64_t>(&value->strings[i])) return malformed(*reader, "string cut off");
    }
  } else if (is_integer_type(type)) {
    value->integers.resize(count);
    for (size_t i = 0; i < count; ++i) {
      if (!read_integer(reader, type, &value->integers[i], &value->out_of_range)) {
        return malformed(*reader, "array cut off");
      }
    }
  } else if (type == GgufType::Float32 || type == GgufType::Float64) {
    value->numbers.resize(count);
    for (size_t i = 0; i < count; ++i) {
      if (!read_float(reader, type, &value->numbers[i])) return malformed(*reader, "array cut off");
    }
  } else {  // arrays of arrays: walked past, not kept
    if (depth >= kMaxArrayDepth) return malformed(*reader, "arrays nested too deep");
    for (size_t i = 0; i < count; ++i) {
      GgufValue inner;
      EMBER_TRY(read_value(reader, GgufType::Array, depth + 1, &inner));
    }
  }
  return Error::Ok;
}

Error read_value(ByteReader* reader, GgufType type, int depth, GgufValue* value) {
  value->type = type;
  if (type == GgufType::String) {
    if (!reader->string<uint64_t>(&value->string)) return malformed(*reader, "string cut off");
    return Error::Ok;
  }
  if (type == GgufType::Array) return read_array(reader, depth, value);
  if (type == GgufType::Float32 || type == GgufType::Float64) {
    if (!read_float(reader, type, &value->number)) return malformed(*reader, "value cut off");
    return Error::Ok;
  }
  if (!read_integer(reader, type, &value->integer, &value->out_of_range)) {
    return malformed(*reader, "value cut off");
  }
  return Error::Ok;
}

}  // namespace

const char* gguf_type_name(GgufType type) {
  switch (type) {
    case GgufType::Uint8: return "uint8";
    case GgufType::Int8: return "int8";
    case GgufType::Uint16: return "uint16";
    case GgufType::Int16: return "int16";
    case GgufType::Uint32: return "uint32";
    case GgufType::Int32: return "int32";
    case GgufType::Float32: return "float32";
    case GgufType::Bool: return "bool";
    case GgufType::String: return "string";
    case GgufType::Array: return "array";
    case GgufType::Uint64: return "uint64";
    case GgufType::Int64: return "int64";
    case GgufType::Float64: return "float64";
  }
  return "?";
}

Result<GgufMetadata> GgufMetadata::read_file(const char* path) {
  EMBER_ASSIGN_OR_RETURN(const MappedFile file, map_file(path, "GGUF"));
  return parse(file.data(), file.size());
}

Result<GgufMetadata> GgufMetadata::parse(const void* data, size_t size) {
  ByteReader reader(data, size);
  uint32_t magic = 0;
  GgufMetadata metadata;
  if (!reader.read(&magic) || magic != kGgufMagic) {
    EMBER_LOG(Error, "GGUF: not a GGUF file (no GGUF magic)");
    return Error::InvalidArgument;
  }
  if (!reader.read(&metadata.version_)) return malformed(reader, "header cut off");
  if (metadata.version_ != 2 && metadata.version_ != 3) {
    EMBER_LOG(Error, "GGUF: version %u is not supported (only 2 and 3)", metadata.version_);
    return Error::NotSupported;
  }
  uint64_t kv_count = 0;
  if (!reader.read(&metadata.tensor_count_) || !reader.read(&kv_count)) {
    return malformed(reader, "header cut off");
  }
  // A pair takes at least 12 bytes (key length, value type): checked before
  // reserving room for them.
  if (kv_count > reader.remaining() / 12) return malformed(reader, "more pairs than the file holds");
  metadata.entries_.resize(static_cast<size_t>(kv_count));
  for (auto& [key, value] : metadata.entries_) {
    uint32_t type = 0;
    if (!reader.string<uint64_t>(&key)) return malformed(reader, "key cut off");
    if (!reader.read(&type)) return malformed(reader, "value type cut off");
    if (!is_valid_type(type)) return malformed(reader, "unknown value type");
    EMBER_TRY(read_value(&reader, static_cast<GgufType>(type), 0, &value));
  }
  return metadata;
}

const GgufValue* GgufMetadata::find(std::string_view key) const {
  for (const auto& [name, value] : entries_) {
    if (name == key) return &value;
  }
  return nullptr;
}

namespace {

// The value of `key` if it has `type` (and `element_type`, for arrays).
Result<const GgufValue*> typed(const GgufMetadata& metadata, std::string_view key, bool required,
                               bool (*accepts)(const GgufValue&), const char* expected) {
  const GgufValue* value = metadata.find(key);
  if (value == nullptr) {
    if (required) EMBER_LOG(Error, "GGUF: no %.*s", static_cast<int>(key.size()), key.data());
    return Error::NotFound;
  }
  if (!accepts(*value)) {
    EMBER_LOG(Error, "GGUF: %.*s is a %s, not %s", static_cast<int>(key.size()), key.data(),
              gguf_type_name(value->type), expected);
    return Error::InvalidArgument;
  }
  return value;
}

}  // namespace

Result<std::string> GgufMetadata::get_string(std::string_view key, bool required) const {
  EMBER_ASSIGN_OR_RETURN(const GgufValue* value,
                         typed(*this, key, required, [](const GgufValue& v) { return v.type == GgufType::String; },
                               "a string"));
  return value->string;
}

Result<int64_t> GgufMetadata::get_integer(std::string_view key, bool required) const {
  EMBER_ASSIGN_OR_RETURN(const GgufValue* value,
                         typed(*this, key, required,
                               [](const GgufValue& v) { return is_integer_type(v.type) && v.type != GgufType::Bool; },
                               "an integer"));
  if (value->out_of_range) {
    EMBER_LOG(Error, "GGUF: %.*s is out of range", static_cast<int>(key.size()), key.data());
    return Error::InvalidArgument;
  }
  return value->integer;
}

Result<bool> GgufMetadata::get_bool(std::string_view key, bool required) const {
  EMBER_ASSIGN_OR_RETURN(const GgufValue* value,
                         typed(*this, key, required, [](const GgufValue& v) { return v.type == GgufType::Bool; },
                               "a bool"));
  return value->integer != 0;
}

Result<const std::vector<std::string>*> GgufMetadata::get_strings(std::string_view key, bool required) const {
  EMBER_ASSIGN_OR_RETURN(const GgufValue* value,
                         typed(*this, key, required,
                               [](const GgufValue& v) {
                                 return v.type == GgufType::Array && v.element_type == GgufType::String;
                               },
                               "an array of strings"));
  if (!value->kept) {
    EMBER_LOG(Error, "GGUF: %.*s is too long to read", static_cast<int>(key.size()), key.data());
    return Error::NotSupported;
  }
  return &value->strings;
}

Result<const std::vector<int64_t>*> GgufMetadata::get_integers(std::string_view key, bool required) const {
  EMBER_ASSIGN_OR_RETURN(const GgufValue* value,
                         typed(*this, key, required,
                               [](const GgufValue& v) {
                                 return v.type == GgufType::Array && is_integer_type(v.element_type) &&
                                        v.element_type != GgufType::Bool;
                               },
                               "an array of integers"));
  if (!value->kept) {
    EMBER_LOG(Error, "GGUF: %.*s is too long to read", static_cast<int>(key.size()), key.data());
    return Error::NotSupported;
  }
  if (value->out_of_range) {
    EMBER_LOG(Error, "GGUF: %.*s holds a value out of range", static_cast<int>(key.size()), key.data());
    return Error::InvalidArgument;
  }
  return &value->integers;
}

}  // namespace llm
}  // namespace ember
