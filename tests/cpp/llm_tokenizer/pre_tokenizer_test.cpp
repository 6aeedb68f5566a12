// The pre-tokenizers, on cases where each rule of the regex decides.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "extension/llm/tokenizer/pre_tokenizer.h"

namespace ember {
namespace llm {
namespace {

std::vector<std::string> split(PreTokenizerKind kind, const std::string& text) {
  std::vector<Word> words;
  pre_tokenize(kind, text, &words);
  std::vector<std::string> out;
  for (const Word& word : words) out.push_back(text.substr(word.offset, word.length));
  return out;
}

using Words = std::vector<std::string>;

TEST(PreTokenizer, Gpt2Words) {
  const auto gpt2 = [](const std::string& text) { return split(PreTokenizerKind::Gpt2, text); };
  EXPECT_EQ(gpt2("Hello world"), (Words{"Hello", " world"}));
  EXPECT_EQ(gpt2("Hello  world"), (Words{"Hello", " ", " world"}));  // the last space joins the word
  EXPECT_EQ(gpt2("a\tb"), (Words{"a", "\t", "b"}));                  // a tab is not the optional space
  EXPECT_EQ(gpt2("a \n\nb"), (Words{"a", " \n", "\n", "b"}));
  EXPECT_EQ(gpt2("end   "), (Words{"end", "   "}));                   // a run at the end stays whole
  EXPECT_EQ(gpt2("don't"), (Words{"don", "'t"}));
  EXPECT_EQ(gpt2("they'll we've I'm"), (Words{"they", "'ll", " we", "'ve", " I", "'m"}));
  EXPECT_EQ(gpt2("DON'T"), (Words{"DON", "'", "T"}));                 // contractions are lower case only
  EXPECT_EQ(gpt2("x 123 y"), (Words{"x", " 123", " y"}));
  EXPECT_EQ(gpt2("a1b"), (Words{"a", "1", "b"}));
  EXPECT_EQ(gpt2("f(x) = {y};"), (Words{"f", "(", "x", ")", " =", " {", "y", "};"}));
  EXPECT_EQ(gpt2("?'s"), (Words{"?'", "s"}));                         // the apostrophe joins the punctuation
  EXPECT_EQ(gpt2("'sx"), (Words{"'s", "x"}));
  EXPECT_EQ(gpt2("caf\xC3\xA9 na\xC3\xAFve"), (Words{"caf\xC3\xA9", " na\xC3\xAFve"}));
  EXPECT_EQ(gpt2("\xC2\xA0" "a"), (Words{"\xC2\xA0", "a"}));          // no-break space: whitespace, not " ?"
  EXPECT_EQ(gpt2("e\xCC\x81"), (Words{"e", "\xCC\x81"}));            // a combining mark is "other"
  EXPECT_EQ(gpt2(""), (Words{}));
}

TEST(PreTokenizer, SmolLmIsolatesEachNumberCharacter) {
  const auto smollm = [](const std::string& text) { return split(PreTokenizerKind::SmolLm, text); };
  EXPECT_EQ(smollm("a 12"), (Words{"a", " ", "1", "2"}));
  EXPECT_EQ(smollm("  1"), (Words{"  ", "1"}));  // the run before a digit ends its segment
  EXPECT_EQ(smollm("x\xC2\xB2 y"), (Words{"x", "\xC2\xB2", " y"}));  // superscript two is a number
  EXPECT_EQ(smollm("v1.2"), (Words{"v", "1", ".", "2"}));
  EXPECT_EQ(smollm("Hello world"), (Words{"Hello", " world"}));
}

// Whatever the bytes, the words cover the text in order with nothing left out.
TEST(PreTokenizer, WordsCoverAnyBytes) {
  std::mt19937 rng(7);
  const std::string pieces[] = {"a", " ", "  ", "\t", "\n", "1", "'", "'s", "!", "\xC3\xA9", "\xE2\x82\xAC",
                                "\xF0\x9F\x98\x80", "\x80", "\xE2\x82", "\xFF", "\xC2\xA0", "\xE3\x80\x80"};
  for (const PreTokenizerKind kind : {PreTokenizerKind::Gpt2, PreTokenizerKind::SmolLm}) {
    for (int trial = 0; trial < 1000; ++trial) {
      std::string text;
      const int count = static_cast<int>(rng() % 20);
      for (int i = 0; i < count; ++i) text += pieces[rng() % (sizeof(pieces) / sizeof(pieces[0]))];
      std::vector<Word> words;
      pre_tokenize(kind, text, &words);
      size_t pos = 0;
      for (const Word& word : words) {
        ASSERT_EQ(word.offset, pos);
        ASSERT_GT(word.length, 0u);
        pos += word.length;
      }
      ASSERT_EQ(pos, text.size());
    }
  }
}

TEST(PreTokenizer, Names) {
  PreTokenizerKind kind;
  ASSERT_TRUE(pre_tokenizer_from_name("smollm", &kind));
  EXPECT_EQ(kind, PreTokenizerKind::SmolLm);
  ASSERT_TRUE(pre_tokenizer_from_name("gpt2", &kind));
  EXPECT_EQ(kind, PreTokenizerKind::Gpt2);
  EXPECT_FALSE(pre_tokenizer_from_name("llama3", &kind));
  EXPECT_STREQ(pre_tokenizer_name(PreTokenizerKind::SmolLm), "smollm");
}

}  // namespace
}  // namespace llm
}  // namespace ember
