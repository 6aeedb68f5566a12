// What a byte-level BPE tokenizer is made of, as its loaders (GGUF, Ember's
// own .tokenizer file) hand it to BpeTokenizer::create, which checks it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "extension/llm/tokenizer/pre_tokenizer.h"

namespace ember {
namespace llm {

// llama.cpp's token types (GGUF tokenizer.ggml.token_type).
enum class TokenType : uint8_t {
  Undefined = 0,
  Normal = 1,
  Unknown = 2,
  Control = 3,
  UserDefined = 4,
  Unused = 5,
  Byte = 6,
};

// A token matched whole in the text before BPE runs (Hugging Face's added
// tokens, all with normalized = false). `special` ones (control tokens:
// <|im_start|>, <|endoftext|>) become their id only when encode allows
// special tokens; the others (user-defined) always do.
struct AddedToken {
  int32_t id;
  std::string text;
  bool special;
};

constexpr int32_t kNoToken = -1;

struct TokenizerData {
  // What each id decodes to, as raw bytes (not spelled in GPT-2's alphabet).
  std::vector<std::string> tokens;
  std::vector<TokenType> types;  // empty, or one per token
  // Merge rules, best first: the ids of the left and right token. What they
  // merge into is the token whose bytes are both concatenated.
  std::vector<std::pair<int32_t, int32_t>> merges;
  std::vector<AddedToken> added_tokens;
  PreTokenizerKind pre_tokenizer = PreTokenizerKind::Gpt2;
  int32_t bos_id = kNoToken;
  int32_t eos_id = kNoToken;
  int32_t pad_id = kNoToken;
  int32_t unk_id = kNoToken;
  bool add_bos = false;
  bool add_eos = false;
  std::string chat_template;  // Jinja source, empty if none
};

}  // namespace llm
}  // namespace ember
