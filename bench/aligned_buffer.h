// A zeroed array on a 64-byte boundary for the microbenchmarks, as the runtime
// plans activations and the CPU backend holds packed weights: std::vector's
// 16-byte alignment splits AVX-512 loads over two cache lines (the f32 GEMM
// measured 15% slower than a model runs it).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace ember::bench {

template <typename T>
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(size_t n)
      : data_(static_cast<T*>(::operator new[](std::max<size_t>(n, 1) * sizeof(T),
                                               std::align_val_t{64}))),
        size_(n) {
    std::fill(data_.get(), data_.get() + n, T{});
  }
  T* data() { return data_.get(); }
  T* begin() { return data_.get(); }
  T* end() { return data_.get() + size_; }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(T* p) const { ::operator delete[](p, std::align_val_t{64}); }
  };
  std::unique_ptr<T[], Free> data_;
  size_t size_ = 0;
};

// The same boundary for std::vector (AlignedVector<float>), where a
// benchmark needs a vector's interface.
template <typename T>
struct Aligned64Allocator {
  using value_type = T;
  Aligned64Allocator() = default;
  template <typename U>
  Aligned64Allocator(const Aligned64Allocator<U>&) {}
  T* allocate(size_t n) {
    return static_cast<T*>(::operator new[](n * sizeof(T), std::align_val_t{64}));
  }
  void deallocate(T* p, size_t) { ::operator delete[](p, std::align_val_t{64}); }
  template <typename U>
  bool operator==(const Aligned64Allocator<U>&) const { return true; }
  template <typename U>
  bool operator!=(const Aligned64Allocator<U>&) const { return false; }
};

template <typename T>
using AlignedVector = std::vector<T, Aligned64Allocator<T>>;

}  // namespace ember::bench
