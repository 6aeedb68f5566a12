// The GGUF metadata reader, on well-formed files and on every way of cutting
// or corrupting one.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "extension/llm/tokenizer/gguf_reader.h"
#include "tokenizer_fixtures.h"

namespace ember {
namespace llm {
namespace {

using testing::GgufBuilder;

std::string sample_file() {
  GgufBuilder builder;
  builder.add_string("general.architecture", "llama");
  builder.add_u32("llama.block_count", 30);
  builder.add_i32("answer", -42);
  builder.add_u64("big", ~uint64_t{0});
  builder.add_f32("llama.rope.freq_base", 100000.0f);
  builder.add_bool("tokenizer.ggml.add_bos_token", true);
  builder.add_strings("tokenizer.ggml.tokens", {"a", "b", "\xC4\xA0t"});
  builder.add_i32s("tokenizer.ggml.token_type", {1, 1, 3});
  return builder.finish();
}

TEST(GgufReader, ReadsEveryKind) {
  const std::string file = sample_file();
  Result<GgufMetadata> metadata = GgufMetadata::parse(file.data(), file.size());
  ASSERT_TRUE(metadata.ok());
  EXPECT_EQ(metadata->version(), 3u);
  EXPECT_EQ(metadata->size(), 8u);
  EXPECT_EQ(metadata->get_string("general.architecture").get(), "llama");
  EXPECT_EQ(metadata->get_integer("llama.block_count").get(), 30);
  EXPECT_EQ(metadata->get_integer("answer").get(), -42);
  EXPECT_FLOAT_EQ(static_cast<float>(metadata->find("llama.rope.freq_base")->number), 100000.0f);
  EXPECT_TRUE(metadata->get_bool("tokenizer.ggml.add_bos_token").get());
  const std::vector<std::string>& tokens = *metadata->get_strings("tokenizer.ggml.tokens").get();
  EXPECT_EQ(tokens, (std::vector<std::string>{"a", "b", "\xC4\xA0t"}));
  EXPECT_EQ(*metadata->get_integers("tokenizer.ggml.token_type").get(), (std::vector<int64_t>{1, 1, 3}));
}

TEST(GgufReader, TypedAccessorsRefuseOtherTypes) {
  const std::string file = sample_file();
  Result<GgufMetadata> metadata = GgufMetadata::parse(file.data(), file.size());
  ASSERT_TRUE(metadata.ok());
  EXPECT_EQ(metadata->get_integer("general.architecture").error(), Error::InvalidArgument);
  EXPECT_EQ(metadata->get_string("llama.block_count").error(), Error::InvalidArgument);
  EXPECT_EQ(metadata->get_bool("llama.block_count").error(), Error::InvalidArgument);
  EXPECT_EQ(metadata->get_integer("tokenizer.ggml.add_bos_token").error(), Error::InvalidArgument);
  EXPECT_EQ(metadata->get_strings("tokenizer.ggml.token_type").error(), Error::InvalidArgument);
  EXPECT_EQ(metadata->get_integer("big").error(), Error::InvalidArgument);  // past INT64_MAX
  EXPECT_EQ(metadata->get_string("missing", false).error(), Error::NotFound);
}

TEST(GgufReader, RefusesOtherFiles) {
  const std::string file = sample_file();
  std::string wrong_magic = file;
  wrong_magic[0] = 'X';
  EXPECT_EQ(GgufMetadata::parse(wrong_magic.data(), wrong_magic.size()).error(), Error::InvalidArgument);
  GgufBuilder builder;
  builder.add_u32("x", 1);
  for (const uint32_t version : {1u, 4u}) {
    const std::string other = builder.finish(version);
    EXPECT_EQ(GgufMetadata::parse(other.data(), other.size()).error(), Error::NotSupported);
  }
  const std::string version2 = builder.finish(2);
  EXPECT_TRUE(GgufMetadata::parse(version2.data(), version2.size()).ok());
}

// A file cut anywhere is an error, never a read past the end.
TEST(GgufReader, EveryTruncationIsAnError) {
  const std::string file = sample_file();
  for (size_t size = 0; size < file.size(); ++size) {
    const std::string cut = file.substr(0, size);  // its own allocation: ASan sees any overread
    EXPECT_FALSE(GgufMetadata::parse(cut.data(), cut.size()).ok()) << "cut at " << size;
  }
}

// Random corruption never crashes; lengths that claim more than the file are
// refused before anything is allocated for them.
TEST(GgufReader, CorruptionGivesAnErrorOrAValue) {
  const std::string file = sample_file();
  std::mt19937 rng(3);
  int refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string bad = file;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < flips; ++i) bad[rng() % bad.size()] = static_cast<char>(rng());
    refused += GgufMetadata::parse(bad.data(), bad.size()).ok() ? 0 : 1;
  }
  EXPECT_GT(refused, 0);
}

TEST(GgufReader, HugeCountsAreRefused) {
  GgufBuilder array;
  array.key("tokens", 9);
  const uint32_t type = 8;
  const uint64_t count = uint64_t{1} << 60;
  array.raw(&type, 4);
  array.raw(&count, 8);
  const std::string file = array.finish();
  EXPECT_EQ(GgufMetadata::parse(file.data(), file.size()).error(), Error::InvalidArgument);

  GgufBuilder pairs;
  std::string header = pairs.finish();
  const uint64_t many = ~uint64_t{0};
  header.replace(16, 8, reinterpret_cast<const char*>(&many), 8);  // kv count
  EXPECT_EQ(GgufMetadata::parse(header.data(), header.size()).error(), Error::InvalidArgument);

  GgufBuilder string;
  string.key("name", 8);
  const uint64_t length = ~uint64_t{0} - 4;
  string.raw(&length, 8);
  const std::string long_string = string.finish();
  EXPECT_EQ(GgufMetadata::parse(long_string.data(), long_string.size()).error(), Error::InvalidArgument);
}

TEST(GgufReader, DeepNestingIsRefused) {
  GgufBuilder builder;
  builder.key("nested", 9);
  const uint32_t array_type = 9;
  const uint64_t one = 1;
  for (int depth = 0; depth < 10; ++depth) {
    builder.raw(&array_type, 4);
    builder.raw(&one, 8);
  }
  const std::string file = builder.finish();
  EXPECT_EQ(GgufMetadata::parse(file.data(), file.size()).error(), Error::InvalidArgument);
}

TEST(GgufReader, NestedArraysAreWalkedPast) {
  GgufBuilder builder;
  builder.key("pairs", 9);
  const uint32_t array_type = 9;
  const uint32_t u8_type = 0;
  const uint64_t two = 2;
  builder.raw(&array_type, 4);
  builder.raw(&two, 8);
  for (int i = 0; i < 2; ++i) {
    builder.raw(&u8_type, 4);
    builder.raw(&two, 8);
    const uint8_t bytes[2] = {1, 2};
    builder.raw(bytes, 2);
  }
  builder.add_u32("after", 7);
  const std::string file = builder.finish();
  Result<GgufMetadata> metadata = GgufMetadata::parse(file.data(), file.size());
  ASSERT_TRUE(metadata.ok());
  EXPECT_EQ(metadata->find("pairs")->array_length, 2u);
  EXPECT_EQ(metadata->get_integer("after").get(), 7);
}

TEST(GgufReader, MissingFileIsAnError) {
  EXPECT_FALSE(GgufMetadata::read_file("/nonexistent/model.gguf").ok());
}

}  // namespace
}  // namespace llm
}  // namespace ember
