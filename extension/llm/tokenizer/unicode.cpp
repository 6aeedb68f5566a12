#include "extension/llm/tokenizer/unicode.h"

namespace ember {
namespace llm {
namespace {

#include "extension/llm/tokenizer/unicode_tables.inc"

constexpr uint32_t kMaxCodePoint = 0x10FFFF;

// Bounds of the second byte of a sequence led by `lead` (RFC 3629 table):
// they exclude overlong forms, surrogates and code points past U+10FFFF.
struct SecondByteRange {
  unsigned char low;
  unsigned char high;
};
SecondByteRange second_byte_range(unsigned char lead) {
  switch (lead) {
    case 0xE0: return {0xA0, 0xBF};
    case 0xED: return {0x80, 0x9F};
    case 0xF0: return {0x90, 0xBF};
    case 0xF4: return {0x80, 0x8F};
    default: return {0x80, 0xBF};
  }
}

}  // namespace

Utf8Step decode_utf8(const unsigned char* data, size_t size) {
  const unsigned char lead = data[0];
  if (lead < 0x80) return {lead, 1, false};
  uint32_t length;
  uint32_t code_point;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code_point = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code_point = lead & 0x0Fu;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code_point = lead & 0x07u;
  } else {
    return {kInvalidCodePoint, 1, false};  // continuation byte, C0, C1, F5..FF
  }
  const SecondByteRange second = second_byte_range(lead);
  for (uint32_t i = 1; i < length; ++i) {
    if (i >= size) return {kInvalidCodePoint, i, true};
    const unsigned char byte = data[i];
    const unsigned char low = i == 1 ? second.low : 0x80;
    const unsigned char high = i == 1 ? second.high : 0xBF;
    if (byte < low || byte > high) return {kInvalidCodePoint, i, false};
    code_point = (code_point << 6) | (byte & 0x3Fu);
  }
  return {code_point, length, false};
}

CharClass char_class(uint32_t code_point) {
  if (code_point > kMaxCodePoint) return CharClass::Other;
  const uint8_t* block = kClassBlocks[kClassBlockIndex[code_point / kClassBlockSize]];
  const uint32_t offset = code_point % kClassBlockSize;
  return static_cast<CharClass>((block[offset / 4] >> (2 * (offset % 4))) & 3u);
}

const char* unicode_tables_version() { return kUnicodeVersion; }

size_t append_utf8_lossy(std::string_view bytes, bool final_chunk, std::string* out) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t size = bytes.size();
  size_t run_start = 0;  // start of the valid bytes not yet copied
  size_t i = 0;
  while (i < size) {
    if (data[i] < 0x80) {
      ++i;
      continue;
    }
    const Utf8Step step = decode_utf8(data + i, size - i);
    if (step.code_point != kInvalidCodePoint) {
      i += step.length;
      continue;
    }
    out->append(bytes.data() + run_start, i - run_start);
    if (step.truncated && !final_chunk) return size - i;
    out->append("\xEF\xBF\xBD");
    i += step.length;
    run_start = i;
  }
  out->append(bytes.data() + run_start, size - run_start);
  return 0;
}

}  // namespace llm
}  // namespace ember
