// The extended header that follows a program's first 8 bytes (magic "eh00"):
// where the flatbuffer ends and the data segments start.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"

namespace ember {

struct ExtendedHeader {
  static constexpr size_t kOffset = 8;       // after root offset + identifier
  static constexpr size_t kNumHeadBytes = 64;  // enough bytes to parse any known header
  static constexpr size_t kMinimumLength = 24;  // magic, length, program_size, segment base

  uint64_t program_size = 0;
  uint64_t segment_base_offset = 0;
  uint64_t segment_data_size = 0;  // 0 when the header predates the field

  // NotFound when the bytes carry no header (then the whole file is the
  // flatbuffer); InvalidProgram when the header is malformed.
  static Result<ExtendedHeader> parse(const void* data, size_t size);
};

}  // namespace ember
