// The file loaders against the file's bytes: FileDataLoader's two
// allocations (64-byte aligned, and 2 MiB aligned with huge-page advice for a
// range of 2 MiB or more) and MmapDataLoader's pointers into the mapping.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/executor/file_data_loader.h"

namespace ember {
namespace {

class FileDataLoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "ember_file_data_loader_test.bin";
    bytes_.resize((size_t{3} << 20) + 17);
    for (size_t i = 0; i < bytes_.size(); ++i) bytes_[i] = static_cast<uint8_t>(i * 131 + i / 4099);
    FILE* f = std::fopen(path_.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(std::fwrite(bytes_.data(), 1, bytes_.size(), f), bytes_.size());
    std::fclose(f);
  }
  void TearDown() override { std::remove(path_.c_str()); }

  // Loads [offset, offset + size) and compares it with the file's bytes.
  void expect_range(DataLoader& loader, size_t offset, size_t size) {
    Result<FreeableBuffer> buffer = loader.load(offset, size);
    ASSERT_TRUE(buffer.ok()) << "offset " << offset << " size " << size;
    ASSERT_EQ(buffer.get().size(), size);
    EXPECT_EQ(std::memcmp(buffer.get().data(), bytes_.data() + offset, size), 0)
        << "offset " << offset << " size " << size;
  }

  std::string path_;
  std::vector<uint8_t> bytes_;
};

TEST_F(FileDataLoaderTest, FileLoaderReadsSmallAndHugePageRanges) {
  Result<FileDataLoader> loader = FileDataLoader::from(path_.c_str());
  ASSERT_TRUE(loader.ok());
  EXPECT_EQ(loader.get().size().get(), bytes_.size());
  expect_range(loader.get(), 0, 100);
  expect_range(loader.get(), 4097, (size_t{2} << 20) - 1);  // just under the huge-page size
  expect_range(loader.get(), 5, size_t{2} << 20);           // exactly it
  expect_range(loader.get(), 3, bytes_.size() - 3);         // past it, to the end
  Result<FreeableBuffer> large = loader.get().load(0, bytes_.size());
  ASSERT_TRUE(large.ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(large.get().data()) % (size_t{2} << 20), 0u);
}

TEST_F(FileDataLoaderTest, MmapLoaderReadsTheSameBytes) {
  Result<MmapDataLoader> loader = MmapDataLoader::from(path_.c_str());
  ASSERT_TRUE(loader.ok());
  expect_range(loader.get(), 0, 100);
  expect_range(loader.get(), 3, bytes_.size() - 3);
}

TEST_F(FileDataLoaderTest, RangesPastTheEndFail) {
  Result<FileDataLoader> loader = FileDataLoader::from(path_.c_str());
  ASSERT_TRUE(loader.ok());
  EXPECT_EQ(loader.get().load(1, bytes_.size()).error(), Error::InvalidArgument);
  EXPECT_EQ(loader.get().load(bytes_.size() + 1, 0).error(), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember
