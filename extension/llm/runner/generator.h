// Token generation on an LlmSession: prefill the prompt, then sample and
// feed one token at a time until end-of-sequence, the token budget or the
// context limit, timing each phase. Works on token ids; the text runner
// (text_runner.h) adds the tokenizer.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "extension/llm/runner/llm_session.h"
#include "extension/llm/sampler/sampler.h"

namespace ember {
namespace llm {

enum class StopReason { EndOfSequence, MaxTokens, ContextFull, Stopped };
const char* stop_reason_text(StopReason reason);

struct GenerationConfig {
  int32_t max_new_tokens = 128;
  SamplerConfig sampler;
  // More ids that end generation besides the model's end-of-sequence.
  std::vector<int32_t> stop_ids;
  // Runs on past end-of-sequence (benchmarks time a fixed number of tokens).
  bool ignore_eos = false;
};

struct GenerationStats {
  int64_t prompt_tokens = 0;
  int64_t generated_tokens = 0;
  double prefill_ms = 0;        // the prompt's forward calls
  double first_token_ms = 0;    // from the start to the first sampled token
  double decode_ms = 0;         // every later token's forward call and sampling
  size_t peak_rss_bytes = 0;    // of the process, at the end
  StopReason stop = StopReason::MaxTokens;

  double prefill_tokens_per_s() const;
  double decode_tokens_per_s() const;
};

// Called with each new token; return false to stop.
using TokenCallback = std::function<bool(int32_t token)>;

// Generates after `prompt` (which must not be empty) on `session`, from
// the session's current position (a chat turn continues the caches). The
// sampler's history is the prompt and what it generated.
Result<GenerationStats> generate(LlmSession& session, Span<const int32_t> prompt,
                                 const GenerationConfig& config, Sampler& sampler,
                                 const TokenCallback& on_token, std::vector<int32_t>* history);

// The process's peak resident memory, in bytes (0 where unknown).
size_t peak_rss_bytes();

}  // namespace llm
}  // namespace ember
