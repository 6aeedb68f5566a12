// MemoryAllocator: a bump allocator over a caller-supplied buffer. The runtime
// never calls malloc; everything it needs at init comes from one of these.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember {

class MemoryAllocator {
 public:
  MemoryAllocator(void* base, size_t size) : base_(static_cast<uint8_t*>(base)), size_(size) {}
  virtual ~MemoryAllocator() = default;

  // Null when the request does not fit; alignment must be a power of two.
  virtual void* allocate(size_t size, size_t alignment = alignof(std::max_align_t)) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
      return nullptr;
    }
    const uintptr_t start = reinterpret_cast<uintptr_t>(base_) + used_;
    const uintptr_t aligned = (start + alignment - 1) & ~(static_cast<uintptr_t>(alignment) - 1);
    const size_t padding = aligned - start;
    if (padding > size_ - used_ || size > size_ - used_ - padding) {
      return nullptr;
    }
    used_ += padding + size;
    return reinterpret_cast<void*>(aligned);
  }

  template <typename T>
  T* allocate_array(size_t count) {
    if (count > SIZE_MAX / sizeof(T)) {
      return nullptr;
    }
    return static_cast<T*>(allocate(count * sizeof(T), alignof(T)));
  }

  virtual void reset() { used_ = 0; }
  size_t used() const { return used_; }
  size_t capacity() const { return size_; }

 private:
  uint8_t* base_;
  size_t size_;
  size_t used_ = 0;
};

}  // namespace ember
