// allocate_streamed_block: the heap blocks for weights and planned arenas,
// 64-byte aligned below 2 MiB and 2 MiB aligned (huge-page candidates) from
// 2 MiB up, usable over their whole size.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "runtime/executor/streamed_block.h"

namespace ember {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

void expect_block(size_t size, size_t alignment) {
  auto* block = static_cast<uint8_t*>(allocate_streamed_block(size));
  ASSERT_NE(block, nullptr) << size;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % alignment, 0u) << size;
  std::memset(block, 0x5a, size);  // every byte is the caller's (ASan checks the bounds)
  EXPECT_EQ(block[size - 1], 0x5a);
  std::free(block);
}

TEST(StreamedBlock, SmallBlocksAreCacheLineAlignedLargeOnesHugePageAligned) {
  expect_block(1, 64);
  expect_block(100, 64);
  expect_block(kHugePage - 1, 64);
  expect_block(kHugePage, kHugePage);
  expect_block(kHugePage * 3 + 17, kHugePage);
}

TEST(StreamedBlock, AnImpossibleSizeIsNullNotAWrappedSize) {
  EXPECT_EQ(allocate_streamed_block(SIZE_MAX), nullptr);
  EXPECT_EQ(allocate_streamed_block(SIZE_MAX - kHugePage + 2), nullptr);
}

}  // namespace
}  // namespace ember
