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
// Each generated token with the text it completes (whole UTF-8, possibly
// empty); the text held back at the end comes last with token -1. Returns
// false to stop.
using TokenTextCallback = std::function<bool(int32_t token, const std::string& piece)>;

class TextRunner {
 public:
  // The tokenizer path defaults to the program's with a .tokenizer suffix.
  static Result<std::unique_ptr<TextRunner>> load(const char* program, const char* tokenizer,
                                                  size_t num_threads);
  static Result<std::unique_ptr<TextRunner>> load(const char* program, const char* tokenizer,
                                                  const ModuleOptions& options);

  // Continues `prompt` (with the tokenizer's bos when it adds one).
  Result<GenerationStats> complete(const std::string& prompt, const GenerationConfig& config,
                                   const TextCallback& on_text);
  // One chat turn: the user's message (and, on the first turn, the system
  // prompt) in the chat template, then the assistant's reply.
  Result<GenerationStats> chat(const std::string& message, const std::string& system,
                               const GenerationConfig& config, const TextCallback& on_text);
  // The same, token by token (the C ABI's callback; it may stop generation).
  Result<GenerationStats> complete(const std::string& prompt, const GenerationConfig& config,
                                   const TokenTextCallback& on_token);
  Result<GenerationStats> chat(const std::string& message, const std::string& system,
                               const GenerationConfig& config, const TokenTextCallback& on_token);
  // Continues token ids (not formatted), streaming their text.
  Result<GenerationStats> generate(const std::vector<int32_t>& prompt,
                                   const GenerationConfig& config,
                                   const TokenTextCallback& on_token);
  // A new conversation.
  Error reset();

  LlmSession& session() { return *session_; }
  BpeTokenizer& tokenizer() { return *tokenizer_; }

 private:
  TextRunner() = default;
  Result<GenerationStats> run(const std::vector<int32_t>& prompt, const GenerationConfig& config,
                              const TokenTextCallback& on_token);
  // The chat turn's text in the template.
  Result<std::string> chat_text(const std::string& message, const std::string& system);

  std::unique_ptr<LlmSession> session_;
  std::unique_ptr<BpeTokenizer> tokenizer_;
  std::vector<int32_t> history_;
  bool chatting_ = false;
};

}  // namespace llm
}  // namespace ember
