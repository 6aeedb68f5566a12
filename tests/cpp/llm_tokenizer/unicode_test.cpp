// UTF-8 decoding, character classes and the lossy (U+FFFD) conversion.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "extension/llm/tokenizer/unicode.h"

namespace ember {
namespace llm {
namespace {

Utf8Step decode(const std::string& bytes) {
  return decode_utf8(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

std::string lossy(const std::string& bytes) {
  std::string out;
  EXPECT_EQ(append_utf8_lossy(bytes, true, &out), 0u);
  return out;
}

const std::string kReplacement = "\xEF\xBF\xBD";

TEST(Utf8, DecodesValidSequences) {
  EXPECT_EQ(decode("A").code_point, 0x41u);
  EXPECT_EQ(decode("\xC3\xA9").code_point, 0xE9u);
  EXPECT_EQ(decode("\xC3\xA9").length, 2u);
  EXPECT_EQ(decode("\xE2\x82\xAC").code_point, 0x20ACu);
  EXPECT_EQ(decode("\xF0\x9F\x98\x80").code_point, 0x1F600u);
  EXPECT_EQ(decode("\xF4\x8F\xBF\xBF").code_point, 0x10FFFFu);
}

TEST(Utf8, InvalidSequencesGiveTheirMaximalSubpart) {
  struct Case {
    const char* bytes;
    uint32_t length;
    bool truncated;
  };
  const Case cases[] = {
      {"\x80", 1, false},              // a continuation byte alone
      {"\xC0\x80", 1, false},          // overlong lead
      {"\xE0\x80\x80", 1, false},      // overlong three-byte form
      {"\xED\xA0\x80", 1, false},      // a surrogate
      {"\xF4\x90\x80\x80", 1, false},  // past U+10FFFF
      {"\xF5\x80", 1, false},
      {"\xE2\x82" "A", 2, false},      // cut short by an ASCII byte
      {"\xE2\x82", 2, true},           // cut short by the end
      {"\xF0\x9F\x98", 3, true},
  };
  for (const Case& c : cases) {
    const Utf8Step step = decode(c.bytes);
    EXPECT_EQ(step.code_point, kInvalidCodePoint) << c.bytes;
    EXPECT_EQ(step.length, c.length) << c.bytes;
    EXPECT_EQ(step.truncated, c.truncated) << c.bytes;
  }
}

TEST(Utf8, CharClassesFollowOnigurumaAndUnicode) {
  EXPECT_EQ(char_class('a'), CharClass::Letter);
  EXPECT_EQ(char_class('Z'), CharClass::Letter);
  EXPECT_EQ(char_class('7'), CharClass::Number);
  EXPECT_EQ(char_class(' '), CharClass::Space);
  for (uint32_t c = 0x09; c <= 0x0D; ++c) EXPECT_EQ(char_class(c), CharClass::Space);
  EXPECT_EQ(char_class(0x1C), CharClass::Other);  // Python's isspace() says yes; \s does not
  EXPECT_EQ(char_class('!'), CharClass::Other);
  EXPECT_EQ(char_class('\''), CharClass::Other);
  EXPECT_EQ(char_class(0x85), CharClass::Space);
  EXPECT_EQ(char_class(0xA0), CharClass::Space);
  EXPECT_EQ(char_class(0x3000), CharClass::Space);
  EXPECT_EQ(char_class(0x2028), CharClass::Space);
  EXPECT_EQ(char_class(0x200B), CharClass::Other);  // zero width space is a format character
  EXPECT_EQ(char_class(0xE9), CharClass::Letter);
  EXPECT_EQ(char_class(0x4E2D), CharClass::Letter);
  EXPECT_EQ(char_class(0x0663), CharClass::Number);  // Arabic-Indic digit three
  EXPECT_EQ(char_class(0xBD), CharClass::Number);    // one half
  EXPECT_EQ(char_class(0x216B), CharClass::Number);  // Roman numeral twelve
  EXPECT_EQ(char_class(0x0301), CharClass::Other);   // a combining mark is not a letter
  EXPECT_EQ(char_class(0x1F600), CharClass::Other);
  EXPECT_EQ(char_class(0x10FFFF), CharClass::Other);
  EXPECT_EQ(char_class(kInvalidCodePoint), CharClass::Other);
}

TEST(Utf8, LossyReplacesEachMaximalSubpart) {
  EXPECT_EQ(lossy("plain"), "plain");
  EXPECT_EQ(lossy("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(lossy("\xE2\x82" "A"), kReplacement + "A");
  EXPECT_EQ(lossy("\xED\xA0\x80"), kReplacement + kReplacement + kReplacement);
  EXPECT_EQ(lossy("\xF0\x80"), kReplacement + kReplacement);
  EXPECT_EQ(lossy("a\xF0\x9F\x98"), "a" + kReplacement);
  EXPECT_EQ(lossy("\xFF\xFE"), kReplacement + kReplacement);
}

TEST(Utf8, LossyHoldsBackOnlyAnUnfinishedCharacter) {
  std::string out;
  EXPECT_EQ(append_utf8_lossy("ab\xF0\x9F", false, &out), 2u);
  EXPECT_EQ(out, "ab");
  out.clear();
  EXPECT_EQ(append_utf8_lossy("ab\xF0\x41", false, &out), 0u);  // cannot complete: replaced now
  EXPECT_EQ(out, "ab" + kReplacement + "A");
}

// Converting in chunks, holding back unfinished characters, gives what
// converting everything at once gives.
TEST(Utf8, ChunkedLossyEqualsWhole) {
  std::mt19937 rng(12);
  const std::string alphabet[] = {"a", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\x80", "\xE2", "\xF0\x9F", "\xFF"};
  for (int trial = 0; trial < 500; ++trial) {
    std::string bytes;
    const int pieces = static_cast<int>(rng() % 12);
    for (int i = 0; i < pieces; ++i) bytes += alphabet[rng() % 8];
    std::string chunked;
    std::string pending;
    size_t pos = 0;
    while (pos < bytes.size()) {
      const size_t n = 1 + rng() % 3;
      pending += bytes.substr(pos, n);
      pos += n;
      const size_t held = append_utf8_lossy(pending, false, &chunked);
      pending.erase(0, pending.size() - held);
    }
    append_utf8_lossy(pending, true, &chunked);
    EXPECT_EQ(chunked, lossy(bytes));
  }
}

}  // namespace
}  // namespace llm
}  // namespace ember
