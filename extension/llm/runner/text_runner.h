// Text in, text out: an LlmSession with its tokenizer (extension/llm/
// tokenizer), streaming each piece of text as soon as it is whole UTF-8, in
// plain completion or in chat turns formatted by the model's chat template
// (the caches keep the conversation, so a turn prefills only its own tokens).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "extension/llm/runner/generator.h"
#include "extension/llm/runner/llm_session.h"
#include "extension/llm/tokenizer/bpe_tokenizer.h"

namespace ember {
namespace llm {

using TextCallback = std::function<void(const std::string& piece)>;

class TextRunner {
 public:
  // The tokenizer path defaults to the program's with a .tokenizer suffix.
  static Result<std::unique_ptr<TextRunner>> load(const char* program, const char* tokenizer,
                                                  size_t num_threads);

  // Continues `prompt` (with the tokenizer's bos when it adds one).
  Result<GenerationStats> complete(const std::string& prompt, const GenerationConfig& config,
                                   const TextCallback& on_text);
  // One chat turn: the user's message (and, on the first turn, the system
  // prompt) in the chat template, then the assistant's reply.
  Result<GenerationStats> chat(const std::string& message, const std::string& system,
                               const GenerationConfig& config, const TextCallback& on_text);
  // A new conversation.
  Error reset();

  LlmSession& session() { return *session_; }
  BpeTokenizer& tokenizer() { return *tokenizer_; }

 private:
  TextRunner() = default;
  Result<GenerationStats> run(const std::vector<int32_t>& prompt, const GenerationConfig& config,
                              const TextCallback& on_text);

  std::unique_ptr<LlmSession> session_;
  std::unique_ptr<BpeTokenizer> tokenizer_;
  std::vector<int32_t> history_;
  bool chatting_ = false;
};

}  // namespace llm
}  // namespace ember
