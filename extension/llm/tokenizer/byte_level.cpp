#include "extension/llm/tokenizer/byte_level.h"

#include <array>

#include "extension/llm/tokenizer/unicode.h"

namespace ember {
namespace llm {
namespace {

// Bytes that are printable Latin-1 spell themselves; the other 68 take the
// code points from U+0100 on, in byte order (GPT-2's bytes_to_unicode).
bool spells_itself(uint32_t byte) {
  return (byte >= 0x21 && byte <= 0x7E) || (byte >= 0xA1 && byte <= 0xAC) || (byte >= 0xAE && byte <= 0xFF);
}

struct Alphabet {
  std::array<uint32_t, 256> char_of_byte{};
  std::array<int16_t, 0x144> byte_of_char{};  // every spelling is below U+0144
  Alphabet() {
    byte_of_char.fill(-1);
    uint32_t next = 0x100;
    for (uint32_t byte = 0; byte < 256; ++byte) {
      const uint32_t cp = spells_itself(byte) ? byte : next++;
      char_of_byte[byte] = cp;
      byte_of_char[cp] = static_cast<int16_t>(byte);
    }
  }
};

const Alphabet& alphabet() {
  static const Alphabet table;
  return table;
}

void append_code_point(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else {  // the alphabet stays below U+0800: two bytes
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

uint32_t byte_level_char(uint8_t byte) { return alphabet().char_of_byte[byte]; }

bool byte_level_decode(std::string_view spelled, std::string* out) {
  const Alphabet& table = alphabet();
  out->clear();
  const auto* data = reinterpret_cast<const unsigned char*>(spelled.data());
  size_t i = 0;
  while (i < spelled.size()) {
    const Utf8Step step = decode_utf8(data + i, spelled.size() - i);
    if (step.code_point >= table.byte_of_char.size()) return false;  // also kInvalidCodePoint
    const int16_t byte = table.byte_of_char[step.code_point];
    if (byte < 0) return false;
    out->push_back(static_cast<char>(byte));
    i += step.length;
  }
  return true;
}

std::string byte_level_encode(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) append_code_point(byte_level_char(static_cast<uint8_t>(c)), &out);
  return out;
}

}  // namespace llm
}  // namespace ember
