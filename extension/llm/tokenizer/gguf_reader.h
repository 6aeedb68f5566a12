// A reader for the metadata of a GGUF file (llama.cpp's model format, v2 and
// v3): the header and the key-value pairs, which hold the tokenizer. Tensor
// descriptions and data are not read. The file is untrusted: every length and
// count is checked against the bytes that remain, so a malformed file gives an
// error, never a crash or a huge allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/core/result.h"

namespace ember {
namespace llm {

enum class GgufType : uint32_t {
  Uint8 = 0,
  Int8 = 1,
  Uint16 = 2,
  Int16 = 3,
  Uint32 = 4,
  Int32 = 5,
  Float32 = 6,
  Bool = 7,
  String = 8,
  Array = 9,
  Uint64 = 10,
  Int64 = 11,
  Float64 = 12,
};

const char* gguf_type_name(GgufType type);

// One metadata value. Scalars keep their number in `integer` (all integer
// types and bool; a UINT64 past INT64_MAX sets out_of_range) or `number`
// (floats). Arrays of strings, integers and floats keep their elements unless
// they are longer than any tokenizer's (kept is then false); an array of
// arrays keeps only its length.
struct GgufValue {
  GgufType type = GgufType::Uint8;
  GgufType element_type = GgufType::Uint8;  // for arrays
  int64_t integer = 0;
  double number = 0.0;
  bool out_of_range = false;
  std::string string;
  uint64_t array_length = 0;
  bool kept = true;
  std::vector<std::string> strings;
  std::vector<int64_t> integers;
  std::vector<double> numbers;
};

class GgufMetadata {
 public:
  // Reads the header and metadata of the file at `path` (mapped, not copied).
  static Result<GgufMetadata> read_file(const char* path);
  // Parses [data, data + size), which starts with the GGUF header.
  static Result<GgufMetadata> parse(const void* data, size_t size);

  uint32_t version() const { return version_; }
  uint64_t tensor_count() const { return tensor_count_; }
  size_t size() const { return entries_.size(); }
  const std::pair<std::string, GgufValue>& entry(size_t i) const { return entries_[i]; }

  // The value of `key`, or nullptr.
  const GgufValue* find(std::string_view key) const;

  // Typed accessors: NotFound when the key is absent (logged only when
  // `required`), InvalidArgument when it has another type or does not fit.
  Result<std::string> get_string(std::string_view key, bool required = true) const;
  Result<int64_t> get_integer(std::string_view key, bool required = true) const;
  Result<bool> get_bool(std::string_view key, bool required = true) const;
  // An array of strings (moves nothing: the metadata keeps its copy).
  Result<const std::vector<std::string>*> get_strings(std::string_view key, bool required = true) const;
  Result<const std::vector<int64_t>*> get_integers(std::string_view key, bool required = true) const;

 private:
  uint32_t version_ = 0;
  uint64_t tensor_count_ = 0;
  std::vector<std::pair<std::string, GgufValue>> entries_;
};

}  // namespace llm
}  // namespace ember
