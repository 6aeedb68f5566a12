// Turns ids into text as a model generates them, one id at a time, giving only
// complete UTF-8: a character whose bytes are spread over several tokens (an
// emoji, CJK in byte-level BPE) comes out once its last byte has arrived.
#pragma once

#include <cstdint>
#include <string>

#include "extension/llm/tokenizer/bpe_tokenizer.h"
#include "runtime/core/result.h"

namespace ember {
namespace llm {

class StreamDecoder {
 public:
  // `tokenizer` must outlive the decoder. With skip_special, special added
  // tokens (<|im_end|>) print nothing.
  explicit StreamDecoder(const BpeTokenizer* tokenizer, bool skip_special = false)
      : tokenizer_(tokenizer), skip_special_(skip_special) {}

  // The text that `id` completes (often empty or one character; invalid
  // bytes become U+FFFD). InvalidArgument for an id out of range.
  Result<std::string> push(int32_t id);
  // What is still held back (an unfinished character, as U+FFFD); the
  // decoder is then empty again.
  std::string flush();
  // Bytes held back, waiting for the rest of a character.
  size_t pending() const { return pending_.size(); }

 private:
  const BpeTokenizer* tokenizer_;
  bool skip_special_;
  std::string pending_;
};

}  // namespace llm
}  // namespace ember
