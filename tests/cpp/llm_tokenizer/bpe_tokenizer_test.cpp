// BpeTokenizer on the tiny vocabulary: merge order, added tokens, bytes
// without a token, decoding, the checks of create(), and loading from files.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "extension/llm/tokenizer/bpe_tokenizer.h"
#include "extension/llm/tokenizer/gguf_tokenizer.h"
#include "extension/llm/tokenizer/stream_decoder.h"
#include "extension/llm/tokenizer/tokenizer_file.h"
#include "tokenizer_fixtures.h"

namespace ember {
namespace llm {
namespace {

using Ids = std::vector<int32_t>;
using testing::kTinySpecialId;
using testing::kTinyUserId;
using testing::tiny_data;

std::unique_ptr<BpeTokenizer> make(TokenizerData data) {
  Result<std::unique_ptr<BpeTokenizer>> tokenizer = BpeTokenizer::create(std::move(data));
  EXPECT_TRUE(tokenizer.ok());
  return tokenizer.ok() ? std::move(tokenizer.get()) : nullptr;
}

std::string write_temp(const std::string& name, const std::string& bytes) {
  const std::string path = ::testing::TempDir() + name;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  EXPECT_NE(file, nullptr);
  std::fwrite(bytes.data(), 1, bytes.size(), file);
  std::fclose(file);
  return path;
}

TEST(BpeTokenizer, MergesByRank) {
  auto tokenizer = make(tiny_data());
  EXPECT_EQ(tokenizer->encode("hello world"), (Ids{259, 264}));
  EXPECT_EQ(tokenizer->encode("hello"), (Ids{259}));
  EXPECT_EQ(tokenizer->encode("aaa"), (Ids{265, 'a'}));  // equal ranks: the leftmost pair first
  EXPECT_EQ(tokenizer->encode("aaaa"), (Ids{265, 265}));
  EXPECT_EQ(tokenizer->encode("hel"), (Ids{256, 'l'}));
  EXPECT_EQ(tokenizer->encode("\xE2\x82\xAC"), (Ids{268}));
  EXPECT_EQ(tokenizer->encode(""), (Ids{}));
}

TEST(BpeTokenizer, CachedWordsGiveTheSameIds) {
  auto tokenizer = make(tiny_data());
  const std::string text = "hello world hello aaa world hello";
  const Ids first = tokenizer->encode(text);
  EXPECT_EQ(tokenizer->encode(text), first);
  // Past the cache's capacity it starts over, and still gives the same ids.
  std::string flood;
  for (int i = 0; i < 70000; ++i) flood += " w" + std::to_string(i * 7919) + "x";
  tokenizer->encode(flood);
  EXPECT_EQ(tokenizer->encode(text), first);
}

TEST(BpeTokenizer, AddedTokens) {
  auto tokenizer = make(tiny_data());
  EXPECT_EQ(tokenizer->encode("<|s|>hello<u>", true), (Ids{kTinySpecialId, 259, kTinyUserId}));
  // Without special tokens, <|s|> is text; the user-defined <u> still matches.
  EXPECT_EQ(tokenizer->encode("<|s|>hello<u>", false), (Ids{'<', '|', 's', '|', '>', 259, kTinyUserId}));
  EXPECT_EQ(tokenizer->encode("<|s|<|s|>>", true), (Ids{'<', '|', 's', '|', kTinySpecialId, '>'}));
  EXPECT_TRUE(tokenizer->is_special(kTinySpecialId));
  EXPECT_FALSE(tokenizer->is_special(kTinyUserId));
  EXPECT_FALSE(tokenizer->is_special(-1));
}

TEST(BpeTokenizer, LongestAddedTokenWins) {
  TokenizerData data = tiny_data();
  data.tokens.push_back("<|s|>x");
  data.types.push_back(TokenType::Control);
  const auto longer = static_cast<int32_t>(data.tokens.size() - 1);
  data.added_tokens.push_back({longer, "<|s|>x", true});
  auto tokenizer = make(std::move(data));
  EXPECT_EQ(tokenizer->encode("<|s|>x<|s|>y"), (Ids{longer, kTinySpecialId, 'y'}));
}

// Special and plain added tokens are found in one leftmost-longest pass; a
// special token that is not allowed stays text and hides the plain tokens
// inside it. The expected ids are what Hugging Face tokenizers 0.23 gives for
// this vocabulary (with encode_special_tokens for allow_special = false).
TEST(BpeTokenizer, AddedTokensOverlapAsInHuggingFace) {
  TokenizerData data = tiny_data();
  data.tokens.push_back("<|s");
  data.types.push_back(TokenType::UserDefined);
  const auto prefix = static_cast<int32_t>(data.tokens.size() - 1);
  data.added_tokens.push_back({prefix, "<|s", false});
  auto tokenizer = make(std::move(data));
  EXPECT_EQ(tokenizer->encode("<|s|>", true), (Ids{kTinySpecialId}));
  EXPECT_EQ(tokenizer->encode("<|s<|s|>", true), (Ids{prefix, kTinySpecialId}));
  EXPECT_EQ(tokenizer->encode("<|s|>", false), (Ids{'<', '|', 's', '|', '>'}));
  EXPECT_EQ(tokenizer->encode("<|s<|s|>", false), (Ids{prefix, '<', '|', 's', '|', '>'}));
  EXPECT_EQ(tokenizer->encode("<|sx", false), (Ids{prefix, 'x'}));
}

TEST(BpeTokenizer, BytesWithoutATokenAreDropped) {
  TokenizerData data = tiny_data();
  data.tokens['x'] = "xx";  // no token is the byte 'x' any more
  auto tokenizer = make(std::move(data));
  // Dropped inside a word, its neighbours still merge, as in Hugging Face.
  EXPECT_EQ(tokenizer->encode("hexllo"), (Ids{259}));
  EXPECT_EQ(tokenizer->encode("x"), (Ids{}));
}

TEST(BpeTokenizer, DecodesBytes) {
  auto tokenizer = make(tiny_data());
  const std::string text = "hello <|s|> world \xE2\x82\xAC!";
  const Ids ids = tokenizer->encode(text);
  EXPECT_EQ(tokenizer->decode(ids).get(), text);
  EXPECT_EQ(tokenizer->decode(ids, /*skip_special=*/true).get(), "hello  world \xE2\x82\xAC!");
  EXPECT_EQ(tokenizer->decode({static_cast<int32_t>(tokenizer->vocab_size())}).error(), Error::InvalidArgument);
  EXPECT_EQ(tokenizer->decode({-1}).error(), Error::InvalidArgument);
  EXPECT_EQ(tokenizer->token_id("hello"), 259);
  EXPECT_EQ(tokenizer->token_id("nope"), kNoToken);
}

// Any bytes, valid UTF-8 or not, come back from decode(encode(bytes)).
TEST(BpeTokenizer, RoundTripsAnyBytes) {
  auto tokenizer = make(tiny_data());
  std::mt19937 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    std::string bytes(rng() % 40, '\0');
    for (char& c : bytes) c = static_cast<char>(rng() % 4 == 0 ? rng() : "hello wrd a\n"[rng() % 12]);
    EXPECT_EQ(tokenizer->decode(tokenizer->encode(bytes, false)).get(), bytes);
  }
}

TEST(BpeTokenizer, CreateChecksTheData) {
  {
    TokenizerData data = tiny_data();
    data.tokens[259] = "hellO";  // "hell" + "o" no longer makes a token
    EXPECT_EQ(BpeTokenizer::create(std::move(data)).error(), Error::InvalidArgument);
  }
  {
    TokenizerData data = tiny_data();
    data.merges.emplace_back(0, 100000);
    EXPECT_EQ(BpeTokenizer::create(std::move(data)).error(), Error::InvalidArgument);
  }
  {
    TokenizerData data = tiny_data();
    data.eos_id = 100000;
    EXPECT_EQ(BpeTokenizer::create(std::move(data)).error(), Error::InvalidArgument);
  }
  {
    TokenizerData data = tiny_data();
    data.added_tokens.push_back({1, "", true});
    EXPECT_EQ(BpeTokenizer::create(std::move(data)).error(), Error::InvalidArgument);
  }
  {
    TokenizerData data = tiny_data();
    data.types.pop_back();
    EXPECT_EQ(BpeTokenizer::create(std::move(data)).error(), Error::InvalidArgument);
  }
  EXPECT_EQ(BpeTokenizer::create(TokenizerData{}).error(), Error::InvalidArgument);
}

TEST(StreamDecoder, GivesOnlyCompleteCharacters) {
  auto tokenizer = make(tiny_data());
  StreamDecoder stream(tokenizer.get());
  EXPECT_EQ(stream.push('h').get(), "h");
  EXPECT_EQ(stream.push(0xE2).get(), "");
  EXPECT_EQ(stream.push(0x82).get(), "");
  EXPECT_EQ(stream.pending(), 2u);
  EXPECT_EQ(stream.push(0xAC).get(), "\xE2\x82\xAC");
  EXPECT_EQ(stream.push(267).get(), "");  // the first two bytes of the euro sign in one token
  EXPECT_EQ(stream.push('A').get(), "\xEF\xBF\xBD" "A");  // a character that cannot finish
  EXPECT_EQ(stream.push(0xF0).get(), "");
  EXPECT_EQ(stream.flush(), "\xEF\xBF\xBD");
  EXPECT_EQ(stream.pending(), 0u);
  EXPECT_EQ(stream.push(-3).error(), Error::InvalidArgument);
}

TEST(StreamDecoder, SkipsSpecialTokensWhenAsked) {
  auto tokenizer = make(tiny_data());
  StreamDecoder stream(tokenizer.get(), /*skip_special=*/true);
  EXPECT_EQ(stream.push(kTinySpecialId).get(), "");
  EXPECT_EQ(stream.push(kTinyUserId).get(), "<u>");
}

// Streaming the ids of any text, one at a time, gives the text back.
TEST(StreamDecoder, StreamedEqualsDecoded) {
  auto tokenizer = make(tiny_data());
  const std::string text = "hello \xE2\x82\xAC\xE2\x82\xAC world \xF0\x9F\x98\x80 aaa \xE4\xB8\xAD\xE6\x96\x87";
  StreamDecoder stream(tokenizer.get());
  std::string streamed;
  for (const int32_t id : tokenizer->encode(text)) streamed += stream.push(id).get();
  streamed += stream.flush();
  EXPECT_EQ(streamed, text);
}

TEST(ChatTemplate, RecognisesSmolLm2AndChatMl) {
  ChatTemplate recognised;
  ASSERT_TRUE(recognise_chat_template(testing::smollm2_chat_template(), &recognised));
  EXPECT_EQ(recognised.kind, ChatTemplateKind::ChatMlDefaultSystem);
  EXPECT_EQ(recognised.default_system, "You are a helpful AI assistant named SmolLM, trained by Hugging Face");
  // The same template with \n escapes instead of newlines, and a final newline.
  std::string escaped;
  for (const char* p = testing::smollm2_chat_template(); *p != '\0'; ++p) {
    if (*p == '\n') {
      escaped += "\\n";
    } else {
      escaped += *p;
    }
  }
  ASSERT_TRUE(recognise_chat_template(escaped + "\n", &recognised));
  EXPECT_EQ(recognised.kind, ChatTemplateKind::ChatMlDefaultSystem);
  const char* chatml =
      "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + "
      "'<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
  ASSERT_TRUE(recognise_chat_template(chatml, &recognised));
  EXPECT_EQ(recognised.kind, ChatTemplateKind::ChatMl);
}

TEST(ChatTemplate, RefusesOtherTemplates) {
  ChatTemplate recognised;
  EXPECT_FALSE(recognise_chat_template("{{ bos_token }}{% for m in messages %}[INST] {{ m['content'] }}{% endfor %}",
                                       &recognised));
  std::string changed = testing::smollm2_chat_template();
  changed.replace(changed.rfind("assistant"), 9, "assistent");  // the generation prompt
  EXPECT_FALSE(recognise_chat_template(changed, &recognised));
  // A default system prompt that is not a plain literal is not taken apart.
  std::string quoted = testing::smollm2_chat_template();
  quoted.replace(quoted.find("SmolLM,"), 7, "' + x + '");
  EXPECT_FALSE(recognise_chat_template(quoted, &recognised));
}

TEST(ChatTemplate, FormatsConversations) {
  ChatTemplate recognised;
  ASSERT_TRUE(recognise_chat_template(testing::smollm2_chat_template(), &recognised));
  const std::string system =
      "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n";
  EXPECT_EQ(format_chat(recognised, {{"user", "Hi"}}, true),
            system + "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
  EXPECT_EQ(format_chat(recognised, {{"system", "Be brief."}, {"user", "Hi"}, {"assistant", "Hello"}}, false),
            "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"
            "<|im_start|>assistant\nHello<|im_end|>\n");
  EXPECT_EQ(format_chat(recognised, {}, true), "<|im_start|>assistant\n");
}

TEST(ChatTemplate, TokenizerRefusesUnknownOrMissingTemplates) {
  TokenizerData none = tiny_data();
  EXPECT_EQ(make(std::move(none))->apply_chat_template({{"user", "Hi"}}, true).error(), Error::NotFound);
  TokenizerData unknown = tiny_data();
  unknown.chat_template = "{{ messages }}";
  auto tokenizer = make(std::move(unknown));
  EXPECT_EQ(tokenizer->chat_template(), nullptr);
  EXPECT_EQ(tokenizer->apply_chat_template({{"user", "Hi"}}, true).error(), Error::NotSupported);
  TokenizerData known = tiny_data();
  known.chat_template = testing::smollm2_chat_template();
  EXPECT_TRUE(make(std::move(known))->apply_chat_template({{"user", "Hi"}}, true).ok());
}

TEST(TokenizerFile, RoundTrips) {
  TokenizerData data = tiny_data();
  data.chat_template = testing::smollm2_chat_template();
  data.add_bos = true;
  data.pre_tokenizer = PreTokenizerKind::SmolLm;
  const std::string bytes = serialize_tokenizer_file(data);
  Result<TokenizerData> parsed = parse_tokenizer_file(bytes.data(), bytes.size());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->tokens, data.tokens);
  EXPECT_EQ(parsed->types, data.types);
  EXPECT_EQ(parsed->merges, data.merges);
  ASSERT_EQ(parsed->added_tokens.size(), data.added_tokens.size());
  EXPECT_EQ(parsed->added_tokens[1].text, "<u>");
  EXPECT_FALSE(parsed->added_tokens[1].special);
  EXPECT_EQ(parsed->pre_tokenizer, PreTokenizerKind::SmolLm);
  EXPECT_EQ(parsed->bos_id, data.bos_id);
  EXPECT_EQ(parsed->pad_id, kNoToken);
  EXPECT_TRUE(parsed->add_bos);
  EXPECT_FALSE(parsed->add_eos);
  EXPECT_EQ(parsed->chat_template, data.chat_template);
  EXPECT_EQ(serialize_tokenizer_file(parsed.get()), bytes);
}

TEST(TokenizerFile, EveryTruncationIsAnError) {
  const std::string bytes = serialize_tokenizer_file(tiny_data());
  for (size_t size = 0; size < bytes.size(); ++size) {
    const std::string cut = bytes.substr(0, size);
    EXPECT_FALSE(parse_tokenizer_file(cut.data(), cut.size()).ok()) << "cut at " << size;
  }
  const std::string longer = bytes + "x";
  EXPECT_EQ(parse_tokenizer_file(longer.data(), longer.size()).error(), Error::InvalidArgument);
  std::string newer = bytes;
  newer[4] = 2;
  EXPECT_EQ(parse_tokenizer_file(newer.data(), newer.size()).error(), Error::NotSupported);
}

// Corrupted files are refused or, when they still parse and pass create(),
// give a tokenizer that encodes and decodes without fault.
TEST(TokenizerFile, CorruptionIsRefusedOrHarmless) {
  const std::string bytes = serialize_tokenizer_file(tiny_data());
  std::mt19937 rng(11);
  int usable = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::string bad = bytes;
    for (int i = 0; i < 3; ++i) bad[rng() % bad.size()] = static_cast<char>(rng());
    Result<TokenizerData> parsed = parse_tokenizer_file(bad.data(), bad.size());
    if (!parsed.ok()) continue;
    Result<std::unique_ptr<BpeTokenizer>> tokenizer = BpeTokenizer::create(std::move(parsed.get()));
    if (!tokenizer.ok()) continue;
    ++usable;
    const Ids ids = tokenizer.get()->encode("hello <|s|> world \xE2\x82\xAC aaa");
    EXPECT_TRUE(tokenizer.get()->decode(ids).ok());
  }
  EXPECT_GT(usable, 0);
}

TEST(BpeTokenizerLoad, FromGgufAndTokenizerFiles) {
  const std::string gguf = write_temp("tiny.gguf", testing::tiny_gguf("smollm", testing::smollm2_chat_template()));
  Result<std::unique_ptr<BpeTokenizer>> from_gguf = BpeTokenizer::load(gguf.c_str());
  ASSERT_TRUE(from_gguf.ok());
  BpeTokenizer& tokenizer = *from_gguf.get();
  EXPECT_EQ(tokenizer.vocab_size(), tiny_data().tokens.size());
  EXPECT_EQ(tokenizer.pre_tokenizer(), PreTokenizerKind::SmolLm);
  EXPECT_EQ(tokenizer.bos_id(), kTinySpecialId);
  EXPECT_EQ(tokenizer.token_bytes(' '), " ");  // spelled "Ġ" in the GGUF
  EXPECT_EQ(tokenizer.encode("hello world <|s|>"), (Ids{259, 264, ' ', kTinySpecialId}));
  ASSERT_NE(tokenizer.chat_template(), nullptr);

  const std::string file = write_temp("tiny.tokenizer", serialize_tokenizer_file(tokenizer.data()));
  Result<std::unique_ptr<BpeTokenizer>> from_file = BpeTokenizer::load(file.c_str());
  ASSERT_TRUE(from_file.ok());
  EXPECT_EQ(from_file.get()->encode("hello world <|s|> 12"), tokenizer.encode("hello world <|s|> 12"));
  EXPECT_EQ(from_file.get()->data().merges, tokenizer.data().merges);
}

TEST(BpeTokenizerLoad, RefusesWhatItCannotRead) {
  EXPECT_FALSE(BpeTokenizer::load("/nonexistent/model.gguf").ok());
  EXPECT_EQ(BpeTokenizer::load(write_temp("junk.bin", "not a tokenizer").c_str()).error(), Error::InvalidArgument);
  EXPECT_EQ(BpeTokenizer::load(write_temp("empty.bin", "").c_str()).error(), Error::InvalidArgument);
  EXPECT_EQ(BpeTokenizer::load(write_temp("llama3.gguf", testing::tiny_gguf("llama3")).c_str()).error(),
            Error::NotSupported);
  testing::GgufBuilder sentencepiece;
  sentencepiece.add_string("tokenizer.ggml.model", "llama");
  EXPECT_EQ(BpeTokenizer::load(write_temp("spm.gguf", sentencepiece.finish()).c_str()).error(), Error::NotSupported);
  testing::GgufBuilder bad_merge;
  bad_merge.add_string("tokenizer.ggml.model", "gpt2");
  bad_merge.add_string("tokenizer.ggml.pre", "gpt2");
  bad_merge.add_strings("tokenizer.ggml.tokens", {"a", "b", "ab"});
  bad_merge.add_strings("tokenizer.ggml.merges", {"a c"});
  EXPECT_EQ(BpeTokenizer::load(write_temp("merge.gguf", bad_merge.finish()).c_str()).error(),
            Error::InvalidArgument);
}

// A corrupted GGUF is refused at one of the steps, or gives a tokenizer that
// works; none of them faults.
TEST(BpeTokenizerLoad, CorruptedGgufIsRefusedOrHarmless) {
  const std::string gguf = testing::tiny_gguf("gpt2");
  std::mt19937 rng(17);
  for (int trial = 0; trial < 300; ++trial) {
    std::string bad = gguf;
    for (int i = 0; i < 2; ++i) bad[rng() % bad.size()] = static_cast<char>(rng());
    Result<GgufMetadata> metadata = GgufMetadata::parse(bad.data(), bad.size());
    if (!metadata.ok()) continue;
    Result<TokenizerData> data = tokenizer_data_from_gguf(metadata.get());
    if (!data.ok()) continue;
    Result<std::unique_ptr<BpeTokenizer>> tokenizer = BpeTokenizer::create(std::move(data.get()));
    if (!tokenizer.ok()) continue;
    EXPECT_TRUE(tokenizer.get()->decode(tokenizer.get()->encode("hello <|s|> world")).ok());
  }
}

}  // namespace
}  // namespace llm
}  // namespace ember
