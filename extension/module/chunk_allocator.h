// ChunkAllocator: a method allocator for Module that starts with one block
// sized from the program and, when a request does not fit (a backend's
// handle, layout twins), adds another block from the heap. Used only while a
// method initialises, so it never re-initialises a method and never allocates
// while one executes. A heap-free application sizes its own MemoryAllocator
// from `used()` after one load. An optional cap bounds the heap it reserves
// (ModuleOptions::max_memory_bytes): a request past it fails, as it would on
// a device with that much memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include "runtime/executor/memory_allocator.h"

namespace ember {

class ChunkAllocator final : public MemoryAllocator {
 public:
  // `max_reserved_bytes` 0: no cap.
  explicit ChunkAllocator(size_t first_block_bytes, size_t max_reserved_bytes = 0)
      : MemoryAllocator(nullptr, 0), max_reserved_(max_reserved_bytes) {
    add_block(first_block_bytes);
  }

  void* allocate(size_t size, size_t alignment = alignof(std::max_align_t)) override {
    if (!blocks_.empty()) {
      if (void* p = blocks_.back()->allocate(size, alignment)) {
        used_ += blocks_.back()->used() - last_block_used_;
        last_block_used_ = blocks_.back()->used();
        return p;
      }
    }
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 || size > SIZE_MAX / 2) {
      return nullptr;
    }
    if (!add_block(size + alignment > kMinBlockBytes ? size + alignment : kMinBlockBytes) &&
        !add_block(size + alignment)) {
      return nullptr;
    }
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

  // False when the block would pass the cap or the heap has no room.
  bool add_block(size_t bytes) {
    if (bytes == 0) bytes = kMinBlockBytes;
    if (max_reserved_ != 0 && (bytes > max_reserved_ || reserved_ > max_reserved_ - bytes)) {
      return false;
    }
    uint8_t* block = new (std::nothrow) uint8_t[bytes];
    if (block == nullptr) return false;
    storage_.emplace_back(block);
    blocks_.push_back(std::make_unique<MemoryAllocator>(block, bytes));
    reserved_ += bytes;
    last_block_used_ = 0;
    return true;
  }

  size_t max_reserved_;
  std::vector<std::unique_ptr<uint8_t[]>> storage_;
  std::vector<std::unique_ptr<MemoryAllocator>> blocks_;
  size_t used_ = 0;
  size_t reserved_ = 0;
  size_t last_block_used_ = 0;
};

}  // namespace ember
