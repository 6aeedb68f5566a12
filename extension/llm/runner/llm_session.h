// A language model program loaded for generation: the .pte that
// `ember llm export` writes (forward(tokens [1, S], input_pos [S]) -> logits
// of the last position, KV caches as mutable buffers, constant methods
// with the limits and special ids). Tracks the position the caches are
// filled to, feeds prompts in chunks of at most max_prefill tokens and
// refuses to run past the context.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "extension/module/module.h"
#include "runtime/core/result.h"
#include "runtime/core/span.h"

namespace ember {
namespace llm {

struct LlmMetadata {
  int64_t max_context = 0;  // KV cache capacity, in tokens
  int64_t max_prefill = 0;  // most tokens one forward call takes
  int64_t vocab_size = 0;
  int64_t bos_id = -1;
  int64_t eos_id = -1;
};

class LlmSession {
 public:
  static Result<std::unique_ptr<LlmSession>> load(const char* path, size_t num_threads);
  // With every Module option (the limits of programs the application does not trust).
  static Result<std::unique_ptr<LlmSession>> load(const char* path, const ModuleOptions& options);

  const LlmMetadata& metadata() const { return metadata_; }
  // Tokens in the caches so far.
  int64_t position() const { return position_; }
  // Room left in the context.
  int64_t remaining() const { return metadata_.max_context - position_; }

  // Runs `tokens` at the next positions (in chunks of max_prefill) and
  // returns the logits after the last one (vocab_size floats, valid until
  // the next call). InvalidArgument if they do not fit in the context.
  Result<const float*> forward(Span<const int32_t> tokens);
  // Empties the caches (a new conversation).
  Error reset();
  const char* last_error() const { return module_->last_error(); }
  Module& module() { return *module_; }

 private:
  LlmSession() = default;

  std::unique_ptr<Module> module_;
  LlmMetadata metadata_;
  int64_t position_ = 0;
  std::vector<int64_t> tokens_;     // one chunk's tokens, as int64
  std::vector<int64_t> positions_;  // and positions
  std::vector<float> logits_;
};

}  // namespace llm
}  // namespace ember
