// Picks the next token from a language model's logits: greedy, or sampled
// with temperature, top-k and top-p (nucleus), after a repetition penalty,
// from a random stream that a seed fixes (the same seed, logits and history
// give the same tokens on every platform). The processors run in Hugging
// Face's order: repetition penalty, temperature, top-k, top-p.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/result.h"
#include "runtime/core/span.h"

namespace ember {
namespace llm {

struct SamplerConfig {
  float temperature = 0.0f;         // <= 0: greedy (the largest logit)
  int32_t top_k = 0;                // keep the k most likely tokens; 0: all
  float top_p = 1.0f;               // keep the fewest tokens whose mass reaches p; 1: all
  float repetition_penalty = 1.0f;  // > 1 discourages tokens already seen (CTRL's rule)
  uint64_t seed = 0;
};

class Sampler {
 public:
  // InvalidArgument (logged) for a vocabulary of 0 or a config out of range:
  // top_k < 0, top_p outside (0, 1], a penalty <= 0, a NaN anywhere.
  static Result<Sampler> create(const SamplerConfig& config, size_t vocab_size);

  // The next token. `logits` (vocab_size floats) is modified in place by the
  // penalty and the temperature; `history` holds the tokens so far (prompt
  // and generated) that the penalty applies to. Allocates nothing.
  int32_t sample(float* logits, Span<const int32_t> history);

  const SamplerConfig& config() const { return config_; }
  // A uniform number in [0, 1) from the sampler's stream (exposed for tests).
  double next_uniform();

 private:
  Sampler(const SamplerConfig& config, size_t vocab_size);

  SamplerConfig config_;
  size_t vocab_size_;
  uint64_t state_;
  std::vector<float> probs_;       // softmax, per token
  std::vector<int32_t> order_;     // candidate ids
  std::vector<uint8_t> seen_;      // per token: penalised this step
};

}  // namespace llm
}  // namespace ember
