#include "runtime/executor/streamed_block.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>

namespace ember {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

}  // namespace

void* allocate_streamed_block(size_t size) {
  const size_t align = size >= kHugePage ? kHugePage : 64;
  if (size > SIZE_MAX - align) return nullptr;
  const size_t rounded = (size + align - 1) / align * align;  // aligned_alloc's rule
  void* data = std::aligned_alloc(align, rounded);
#if defined(MADV_HUGEPAGE)
  if (data != nullptr && align == kHugePage) {
    ::madvise(data, rounded, MADV_HUGEPAGE);  // advice only: failing changes nothing
  }
#endif
  return data;
}

}  // namespace ember
