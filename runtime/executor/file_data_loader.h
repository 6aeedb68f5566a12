// Loaders backed by a file: FileDataLoader reads each range into aligned heap
// memory at load time (a range of 2 MiB or more into memory Linux may back
// with huge pages); MmapDataLoader maps the file and hands out pointers.
#pragma once

#include "runtime/executor/data_loader.h"

namespace ember {

class FileDataLoader final : public DataLoader {
 public:
  static Result<FileDataLoader> from(const char* path);
  FileDataLoader(FileDataLoader&& other) noexcept;
  FileDataLoader(const FileDataLoader&) = delete;
  ~FileDataLoader() override;

  Result<FreeableBuffer> load(size_t offset, size_t size) override;
  Result<size_t> size() const override { return file_size_; }

 private:
  FileDataLoader(int fd, size_t file_size) : fd_(fd), file_size_(file_size) {}
  int fd_ = -1;
  size_t file_size_ = 0;
};

class MmapDataLoader final : public DataLoader {
 public:
  static Result<MmapDataLoader> from(const char* path);
  MmapDataLoader(MmapDataLoader&& other) noexcept;
  MmapDataLoader(const MmapDataLoader&) = delete;
  ~MmapDataLoader() override;

  Result<FreeableBuffer> load(size_t offset, size_t size) override;
  Result<size_t> size() const override { return file_size_; }

 private:
  MmapDataLoader(void* base, size_t file_size) : base_(base), file_size_(file_size) {}
  void* base_ = nullptr;
  size_t file_size_ = 0;
};

}  // namespace ember
