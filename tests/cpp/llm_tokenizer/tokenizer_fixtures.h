// Small tokenizers for the tokenizer tests: a vocabulary of the 256 bytes plus
// a few merges and added tokens, as TokenizerData and as GGUF bytes.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "extension/llm/tokenizer/byte_level.h"
#include "extension/llm/tokenizer/tokenizer_data.h"

namespace ember {
namespace llm {
namespace testing {

// Writes GGUF metadata (header and key-value pairs, no tensors).
class GgufBuilder {
 public:
  void add_string(const std::string& key, const std::string& value) {
    this->key(key, 8);
    string(value);
  }
  void add_u32(const std::string& key, uint32_t value) {
    this->key(key, 4);
    raw(&value, 4);
  }
  void add_i32(const std::string& key, int32_t value) {
    this->key(key, 5);
    raw(&value, 4);
  }
  void add_u64(const std::string& key, uint64_t value) {
    this->key(key, 10);
    raw(&value, 8);
  }
  void add_f32(const std::string& key, float value) {
    this->key(key, 6);
    raw(&value, 4);
  }
  void add_bool(const std::string& key, bool value) {
    this->key(key, 7);
    const uint8_t byte = value ? 1 : 0;
    raw(&byte, 1);
  }
  void add_strings(const std::string& key, const std::vector<std::string>& values) {
    this->key(key, 9);
    const uint32_t type = 8;
    const uint64_t count = values.size();
    raw(&type, 4);
    raw(&count, 8);
    for (const std::string& value : values) string(value);
  }
  void add_i32s(const std::string& key, const std::vector<int32_t>& values) {
    this->key(key, 9);
    const uint32_t type = 5;
    const uint64_t count = values.size();
    raw(&type, 4);
    raw(&count, 8);
    for (const int32_t value : values) raw(&value, 4);
  }
  // Appends bytes as they are (for malformed files).
  void raw(const void* data, size_t size) { body_.append(static_cast<const char*>(data), size); }
  void key(const std::string& name, uint32_t type) {
    string(name);
    raw(&type, 4);
    ++count_;
  }

  std::string finish(uint32_t version = 3) const {
    std::string out = "GGUF";
    const uint64_t tensors = 0;
    out.append(reinterpret_cast<const char*>(&version), 4);
    out.append(reinterpret_cast<const char*>(&tensors), 8);
    out.append(reinterpret_cast<const char*>(&count_), 8);
    return out + body_;
  }

 private:
  void string(const std::string& value) {
    const uint64_t length = value.size();
    raw(&length, 8);
    body_ += value;
  }
  std::string body_;
  uint64_t count_ = 0;
};

// The tiny vocabulary: ids 0..255 are the bytes; then the merges below, each
// making the next id; then the added tokens.
inline const std::vector<std::pair<std::string, std::string>>& tiny_merges() {
  static const std::vector<std::pair<std::string, std::string>> merges = {
      {"h", "e"},    {"l", "l"},  {"he", "ll"}, {"hell", "o"}, {" ", "w"}, {"o", "r"},
      {" w", "or"},  {"l", "d"},  {" wor", "ld"}, {"a", "a"},  {" ", " "}, {"\xE2", "\x82"},
      {"\xE2\x82", "\xAC"},
  };
  return merges;
}
constexpr int32_t kTinySpecialId = 256 + 13;  // "<|s|>", a control token
constexpr int32_t kTinyUserId = 256 + 14;     // "<u>", user-defined

inline TokenizerData tiny_data() {
  TokenizerData data;
  for (int byte = 0; byte < 256; ++byte) data.tokens.push_back(std::string(1, static_cast<char>(byte)));
  for (const auto& [left, right] : tiny_merges()) data.tokens.push_back(left + right);
  data.tokens.push_back("<|s|>");
  data.tokens.push_back("<u>");
  data.types.assign(data.tokens.size(), TokenType::Normal);
  data.types[kTinySpecialId] = TokenType::Control;
  data.types[kTinyUserId] = TokenType::UserDefined;
  const auto id_of = [&](const std::string& bytes) {
    for (size_t id = 0; id < data.tokens.size(); ++id) {
      if (data.tokens[id] == bytes) return static_cast<int32_t>(id);
    }
    return kNoToken;
  };
  for (const auto& [left, right] : tiny_merges()) data.merges.emplace_back(id_of(left), id_of(right));
  data.added_tokens.push_back({kTinySpecialId, "<|s|>", true});
  data.added_tokens.push_back({kTinyUserId, "<u>", false});
  data.pre_tokenizer = PreTokenizerKind::Gpt2;
  data.bos_id = kTinySpecialId;
  data.eos_id = kTinySpecialId;
  return data;
}

// The same tokenizer as a GGUF file: tokens spelled in GPT-2's byte alphabet,
// merges as "left right".
inline std::string tiny_gguf(const std::string& pre = "gpt2", const std::string& chat_template = "") {
  const TokenizerData data = tiny_data();
  std::vector<std::string> spelled;
  std::vector<int32_t> types;
  for (size_t id = 0; id < data.tokens.size(); ++id) {
    const bool literal = data.types[id] == TokenType::Control || data.types[id] == TokenType::UserDefined;
    spelled.push_back(literal ? data.tokens[id] : byte_level_encode(data.tokens[id]));
    types.push_back(static_cast<int32_t>(data.types[id]));
  }
  std::vector<std::string> merges;
  for (const auto& [left, right] : tiny_merges()) merges.push_back(byte_level_encode(left) + " " + byte_level_encode(right));
  GgufBuilder builder;
  builder.add_string("general.architecture", "llama");
  builder.add_string("tokenizer.ggml.model", "gpt2");
  builder.add_string("tokenizer.ggml.pre", pre);
  builder.add_strings("tokenizer.ggml.tokens", spelled);
  builder.add_i32s("tokenizer.ggml.token_type", types);
  builder.add_strings("tokenizer.ggml.merges", merges);
  builder.add_u32("tokenizer.ggml.bos_token_id", kTinySpecialId);
  builder.add_u32("tokenizer.ggml.eos_token_id", kTinySpecialId);
  builder.add_bool("tokenizer.ggml.add_bos_token", false);
  if (!chat_template.empty()) builder.add_string("tokenizer.chat_template", chat_template);
  return builder.finish();
}

// SmolLM2-135M-Instruct's chat template, as its GGUF carries it.
inline const char* smollm2_chat_template() {
  return "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}"
         "{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face"
         "<|im_end|>\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + "
         "'<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}"
         "{% endif %}";
}

}  // namespace testing
}  // namespace llm
}  // namespace ember
