// DataLoader: how a Program gets its bytes — from a file, an mmap or a buffer
// the application already holds.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"

namespace ember {

// Bytes handed out by a loader; frees them (if owned) when destroyed.
class FreeableBuffer final {
 public:
  using FreeFn = void (*)(void* context, void* data, size_t size);

  FreeableBuffer() = default;
  FreeableBuffer(const void* data, size_t size, FreeFn free_fn, void* context = nullptr)
      : data_(data), size_(size), free_fn_(free_fn), context_(context) {}
  FreeableBuffer(FreeableBuffer&& other) noexcept { *this = static_cast<FreeableBuffer&&>(other); }
  FreeableBuffer& operator=(FreeableBuffer&& other) noexcept {
    if (this != &other) {
      free();
      data_ = other.data_;
      size_ = other.size_;
      free_fn_ = other.free_fn_;
      context_ = other.context_;
      other.data_ = nullptr;
      other.size_ = 0;
      other.free_fn_ = nullptr;
    }
    return *this;
  }
  FreeableBuffer(const FreeableBuffer&) = delete;
  FreeableBuffer& operator=(const FreeableBuffer&) = delete;
  ~FreeableBuffer() { free(); }

  const void* data() const { return data_; }
  size_t size() const { return size_; }
  void free() {
    if (free_fn_ != nullptr && data_ != nullptr) {
      free_fn_(context_, const_cast<void*>(data_), size_);
    }
    data_ = nullptr;
    size_ = 0;
    free_fn_ = nullptr;
  }

 private:
  const void* data_ = nullptr;
  size_t size_ = 0;
  FreeFn free_fn_ = nullptr;
  void* context_ = nullptr;
};

class DataLoader {
 public:
  virtual ~DataLoader() = default;
  // Loads [offset, offset + size). The returned data is aligned to at least
  // alignof(std::max_align_t). Fails when the range is out of bounds.
  virtual Result<FreeableBuffer> load(size_t offset, size_t size) = 0;
  virtual Result<size_t> size() const = 0;
};

// Serves a buffer the application owns and keeps alive; no copies.
class BufferDataLoader final : public DataLoader {
 public:
  BufferDataLoader(const void* data, size_t size) : data_(static_cast<const uint8_t*>(data)), size_(size) {}
  Result<FreeableBuffer> load(size_t offset, size_t size) override {
    if (offset > size_ || size > size_ - offset) {
      return Error::InvalidArgument;
    }
    return FreeableBuffer(data_ + offset, size, nullptr);
  }
  Result<size_t> size() const override { return size_; }

 private:
  const uint8_t* data_;
  size_t size_;
};

}  // namespace ember
