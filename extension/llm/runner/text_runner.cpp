#include "extension/llm/runner/text_runner.h"

#include "extension/llm/tokenizer/stream_decoder.h"
#include "runtime/core/log.h"

namespace ember {
namespace llm {

namespace {

// The text-only callback as a token callback that never stops.
TokenTextCallback text_only(const TextCallback& on_text) {
  return [&on_text](int32_t, const std::string& piece) {
    if (!piece.empty()) on_text(piece);
    return true;
  };
}

}  // namespace

Result<std::unique_ptr<TextRunner>> TextRunner::load(const char* program, const char* tokenizer,
                                                     size_t num_threads) {
  ModuleOptions options;
  options.num_threads = num_threads;
  return load(program, tokenizer, options);
}

Result<std::unique_ptr<TextRunner>> TextRunner::load(const char* program, const char* tokenizer,
                                                     const ModuleOptions& options) {
  std::unique_ptr<TextRunner> runner(new TextRunner());
  EMBER_ASSIGN_OR_RETURN(runner->session_, LlmSession::load(program, options));
  std::string path;
  if (tokenizer != nullptr && tokenizer[0] != '\0') {
    path = tokenizer;
  } else {
    path = program;
    const size_t dot = path.rfind('.');
    const size_t slash = path.rfind('/');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) path.resize(dot);
    path += ".tokenizer";
  }
  Result<std::unique_ptr<BpeTokenizer>> loaded = BpeTokenizer::load(path.c_str());
  EMBER_CHECK_OR_RETURN(loaded.ok(), loaded.error(), "cannot load the tokenizer %s", path.c_str());
  runner->tokenizer_ = std::move(loaded.get());
  EMBER_CHECK_OR_RETURN(runner->tokenizer_->vocab_size() <=
                            static_cast<size_t>(runner->session_->metadata().vocab_size),
                        Error::InvalidArgument,
                        "the tokenizer has %zu tokens, the model only %lld",
                        runner->tokenizer_->vocab_size(),
                        static_cast<long long>(runner->session_->metadata().vocab_size));
  return runner;
}

Error TextRunner::reset() {
  history_.clear();
  chatting_ = false;
  return session_->reset();
}

Result<GenerationStats> TextRunner::run(const std::vector<int32_t>& prompt,
                                        const GenerationConfig& config,
                                        const TokenTextCallback& on_token) {
  EMBER_ASSIGN_OR_RETURN(Sampler sampler,
                         Sampler::create(config.sampler, static_cast<size_t>(
                                                             session_->metadata().vocab_size)));
  StreamDecoder decoder(tokenizer_.get(), /*skip_special=*/true);
  Result<GenerationStats> stats = llm::generate(
      *session_, Span<const int32_t>(prompt.data(), prompt.size()), config, sampler,
      [&](int32_t id) {
        Result<std::string> piece = decoder.push(id);
        return on_token(id, piece.ok() ? piece.get() : std::string());
      },
      &history_);
  const std::string tail = decoder.flush();
  if (!tail.empty()) on_token(-1, tail);
  return stats;
}

Result<GenerationStats> TextRunner::complete(const std::string& prompt,
                                             const GenerationConfig& config,
                                             const TextCallback& on_text) {
  return complete(prompt, config, text_only(on_text));
}

Result<GenerationStats> TextRunner::complete(const std::string& prompt,
                                             const GenerationConfig& config,
                                             const TokenTextCallback& on_token) {
  std::vector<int32_t> ids;
  if (tokenizer_->add_bos() && tokenizer_->bos_id() >= 0) ids.push_back(tokenizer_->bos_id());
  tokenizer_->encode(prompt, /*allow_special=*/true, &ids);
  return run(ids, config, on_token);
}

Result<GenerationStats> TextRunner::generate(const std::vector<int32_t>& prompt,
                                             const GenerationConfig& config,
                                             const TokenTextCallback& on_token) {
  return run(prompt, config, on_token);
}

Result<std::string> TextRunner::chat_text(const std::string& message, const std::string& system) {
  std::vector<ChatMessage> messages;
  if (!chatting_ && !system.empty()) messages.push_back({"system", system});
  messages.push_back({"user", message});
  // Later turns: the template's system default must not come back, so only
  // the first turn goes through the full template.
  std::string text;
  if (!chatting_) {
    EMBER_ASSIGN_OR_RETURN(text, tokenizer_->apply_chat_template(messages, true));
  } else {
    text = "\n<|im_start|>user\n" + message + "<|im_end|>\n<|im_start|>assistant\n";
  }
  chatting_ = true;
  return text;
}

Result<GenerationStats> TextRunner::chat(const std::string& message, const std::string& system,
                                         const GenerationConfig& config,
                                         const TextCallback& on_text) {
  return chat(message, system, config, text_only(on_text));
}

Result<GenerationStats> TextRunner::chat(const std::string& message, const std::string& system,
                                         const GenerationConfig& config,
                                         const TokenTextCallback& on_token) {
  EMBER_ASSIGN_OR_RETURN(std::string text, chat_text(message, system));
  std::vector<int32_t> ids = tokenizer_->encode(text, /*allow_special=*/true);
  return run(ids, config, on_token);
}

}  // namespace llm
}  // namespace ember
