// POSIX file loaders. Like the PAL, this is platform code; bare-metal builds
// use BufferDataLoader over flash instead.
#include "runtime/executor/file_data_loader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "runtime/core/log.h"
#include "runtime/executor/streamed_block.h"

namespace ember {
namespace {

Result<size_t> open_and_size(const char* path, int* fd_out) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    EMBER_LOG(Error, "cannot open %s: %s", path, std::strerror(errno));
    return Error::AccessFailed;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    EMBER_LOG(Error, "%s is %s, not a .pte program file", path,
              S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
    ::close(fd);
    return Error::AccessFailed;
  }
  *fd_out = fd;
  return static_cast<size_t>(st.st_size);
}

bool in_bounds(size_t offset, size_t size, size_t total) {
  return offset <= total && size <= total - offset;
}

void free_aligned(void*, void* data, size_t) { std::free(data); }

}  // namespace

Result<FileDataLoader> FileDataLoader::from(const char* path) {
  int fd = -1;
  EMBER_ASSIGN_OR_RETURN(const size_t size, open_and_size(path, &fd));
  return FileDataLoader(fd, size);
}

FileDataLoader::FileDataLoader(FileDataLoader&& other) noexcept
    : fd_(other.fd_), file_size_(other.file_size_) {
  other.fd_ = -1;
}

FileDataLoader::~FileDataLoader() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

Result<FreeableBuffer> FileDataLoader::load(size_t offset, size_t size) {
  if (!in_bounds(offset, size, file_size_)) {
    EMBER_LOG(Error, "load of [%zu, +%zu) is past the end of the file (%zu bytes)", offset, size,
              file_size_);
    return Error::InvalidArgument;
  }
  if (size == 0) {
    return FreeableBuffer(nullptr, 0, nullptr);
  }
  void* data = allocate_streamed_block(size);
  if (data == nullptr) {
    return Error::MemoryAllocationFailed;
  }
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd_, static_cast<uint8_t*>(data) + done, size - done,
                              static_cast<off_t>(offset + done));
    if (n <= 0) {
      if (n < 0 && errno == EINTR) {
        continue;
      }
      std::free(data);
      EMBER_LOG(Error, "read failed at offset %zu", offset + done);
      return Error::AccessFailed;
    }
    done += static_cast<size_t>(n);
  }
  return FreeableBuffer(data, size, free_aligned);
}

Result<MmapDataLoader> MmapDataLoader::from(const char* path) {
  int fd = -1;
  EMBER_ASSIGN_OR_RETURN(const size_t size, open_and_size(path, &fd));
  void* base = nullptr;
  if (size > 0) {
    base = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  }
  ::close(fd);
  if (base == MAP_FAILED) {
    EMBER_LOG(Error, "cannot mmap %s: %s", path, std::strerror(errno));
    return Error::AccessFailed;
  }
  return MmapDataLoader(base, size);
}

MmapDataLoader::MmapDataLoader(MmapDataLoader&& other) noexcept
    : base_(other.base_), file_size_(other.file_size_) {
  other.base_ = nullptr;
}

MmapDataLoader::~MmapDataLoader() {
  if (base_ != nullptr) {
    ::munmap(base_, file_size_);
  }
}

Result<FreeableBuffer> MmapDataLoader::load(size_t offset, size_t size) {
  if (!in_bounds(offset, size, file_size_)) {
    EMBER_LOG(Error, "load of [%zu, +%zu) is past the end of the file (%zu bytes)", offset, size,
              file_size_);
    return Error::InvalidArgument;
  }
  // Page-aligned base: any offset the format aligns stays aligned.
  return FreeableBuffer(static_cast<const uint8_t*>(base_) + offset, size, nullptr);
}

}  // namespace ember
