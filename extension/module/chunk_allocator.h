// ChunkAllocator: a method allocator for Module that starts with one block
// sized from the program and, when a request does not fit (a backend's
// handle, layout twins), adds another block from the heap. Used only while a
// method initialises, so it never re-initialises a method and never allocates
// while one executes. A heap-free application sizes its own MemoryAllocator
// from `used()` after one load.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/executor/memory_allocator.h"

namespace ember {

class ChunkAllocator final : public MemoryAllocator {
 public:
  explicit ChunkAllocator(size_t first_block_bytes) : MemoryAllocator(nullptr, 0) {
    add_block(first_block_bytes);
  }

  void* allocate(size_t size, size_t alignment = alignof(std::max_align_t)) override {
    if (void* p = blocks_.back()->allocate(size, alignment)) {
      used_ += blocks_.back()->used() - last_block_used_;
      last_block_used_ = blocks_.back()->used();
      return p;
    }
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 || size > SIZE_MAX / 2) {
      return nullptr;
    }
    add_block(size + alignment > kMinBlockBytes ? size + alignment : kMinBlockBytes);
    return allocate(size, alignment);
  }
  // The method owns pointers into every block: nothing is ever given back.
  void reset() override {}

  // Bytes handed out, padding included.
  size_t used_bytes() const { return used_; }
  // Bytes reserved from the heap.
  size_t reserved_bytes() const { return reserved_; }

 private:
  static constexpr size_t kMinBlockBytes = 16 * 1024;

  void add_block(size_t bytes) {
    if (bytes == 0) bytes = kMinBlockBytes;
    storage_.emplace_back(new uint8_t[bytes]);
    blocks_.push_back(std::make_unique<MemoryAllocator>(storage_.back().get(), bytes));
    reserved_ += bytes;
    last_block_used_ = 0;
  }

  std::vector<std::unique_ptr<uint8_t[]>> storage_;
  std::vector<std::unique_ptr<MemoryAllocator>> blocks_;
  size_t used_ = 0;
  size_t reserved_ = 0;
  size_t last_block_used_ = 0;
};

}  // namespace ember
