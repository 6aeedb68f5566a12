// MemoryManager: all memory a method uses, supplied by the caller.
//  - method_allocator: the method's own tables (values, tensors, arg lists);
//  - planned_buffers: the arenas the exporter planned activations into, one per
//    program buffer, each at least the size recorded in the program;
//  - temp_allocator: optional scratch for kernels, reset after each kernel.
#pragma once

#include <cstdint>

#include "runtime/core/span.h"
#include "runtime/executor/memory_allocator.h"

namespace ember {

struct MemoryManager {
  MemoryAllocator* method_allocator = nullptr;
  Span<Span<uint8_t>> planned_buffers;
  MemoryAllocator* temp_allocator = nullptr;
};

}  // namespace ember
