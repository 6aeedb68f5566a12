// Reading the untrusted files the tokenizer loads (GGUF, .tokenizer): a whole
// file mapped into memory, and little-endian reads from it that check every
// length against the bytes left.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "runtime/core/result.h"
#include "runtime/executor/file_data_loader.h"

namespace ember {
namespace llm {

class ByteReader {
 public:
  ByteReader(const void* data, size_t size) : data_(static_cast<const uint8_t*>(data)), size_(size) {}

  size_t remaining() const { return size_ - pos_; }
  size_t position() const { return pos_; }

  bool bytes(void* out, size_t n) {
    if (remaining() < n) return false;
    std::memcpy(out, data_ + pos_, n);  // hosts are little-endian, as both formats are
    pos_ += n;
    return true;
  }
  template <typename T>
  bool read(T* value) {
    return bytes(value, sizeof(T));
  }
  bool skip(uint64_t n) {
    if (n > remaining()) return false;
    pos_ += static_cast<size_t>(n);
    return true;
  }
  // A length of type Length, then that many bytes.
  template <typename Length>
  bool string(std::string* out) {
    Length length = 0;
    if (!read(&length) || length > remaining()) return false;
    out->assign(reinterpret_cast<const char*>(data_ + pos_), static_cast<size_t>(length));
    pos_ += static_cast<size_t>(length);
    return true;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// A file mapped read-only, whole, for as long as this lives.
struct MappedFile {
  MmapDataLoader loader;
  FreeableBuffer bytes;

  const void* data() const { return bytes.data(); }
  size_t size() const { return bytes.size(); }
};

// Maps `path`; logs why not (with `what`, the kind of file, in the message).
Result<MappedFile> map_file(const char* path, const char* what);

}  // namespace llm
}  // namespace ember
