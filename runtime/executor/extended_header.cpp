#include "runtime/executor/extended_header.h"

#include <cstring>

#include "runtime/core/log.h"

namespace ember {
namespace {

uint32_t read_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

uint64_t read_u64(const uint8_t* p) {
  return static_cast<uint64_t>(read_u32(p)) | static_cast<uint64_t>(read_u32(p + 4)) << 32;
}

}  // namespace

Result<ExtendedHeader> ExtendedHeader::parse(const void* data, size_t size) {
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  if (size < kOffset + 8 || std::memcmp(bytes + kOffset, "eh00", 4) != 0) {
    return Error::NotFound;
  }
  const uint8_t* header = bytes + kOffset;
  const uint32_t length = read_u32(header + 4);
  EMBER_CHECK_OR_RETURN(length >= kMinimumLength, Error::InvalidProgram,
                        "extended header length %u is below the minimum %zu", length,
                        kMinimumLength);
  EMBER_CHECK_OR_RETURN(kOffset + length <= size && kOffset + 24 <= size, Error::InvalidProgram,
                        "extended header (%u bytes) is truncated", length);
  ExtendedHeader result;
  result.program_size = read_u64(header + 8);
  result.segment_base_offset = read_u64(header + 16);
  // Fields are added by growing the length; read only what this header has.
  if (length >= 32) {
    result.segment_data_size = read_u64(header + 24);
  }
  return result;
}

}  // namespace ember
