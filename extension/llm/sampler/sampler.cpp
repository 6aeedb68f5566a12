#include "extension/llm/sampler/sampler.h"

#include <algorithm>
#include <cmath>

#include "runtime/core/log.h"

namespace ember {
namespace llm {

Result<Sampler> Sampler::create(const SamplerConfig& config, size_t vocab_size) {
  EMBER_CHECK_OR_RETURN(vocab_size > 0 && vocab_size <= INT32_MAX, Error::InvalidArgument,
                        "sampler: vocabulary size %zu is out of range", vocab_size);
  EMBER_CHECK_OR_RETURN(!std::isnan(config.temperature), Error::InvalidArgument,
                        "sampler: temperature is NaN");
  EMBER_CHECK_OR_RETURN(config.top_k >= 0, Error::InvalidArgument,
                        "sampler: top_k must be >= 0, got %d", config.top_k);
  EMBER_CHECK_OR_RETURN(config.top_p > 0.0f && config.top_p <= 1.0f, Error::InvalidArgument,
                        "sampler: top_p must be in (0, 1], got %g",
                        static_cast<double>(config.top_p));
  EMBER_CHECK_OR_RETURN(config.repetition_penalty > 0.0f, Error::InvalidArgument,
                        "sampler: repetition_penalty must be > 0, got %g",
                        static_cast<double>(config.repetition_penalty));
  return Sampler(config, vocab_size);
}

Sampler::Sampler(const SamplerConfig& config, size_t vocab_size)
    : config_(config),
      vocab_size_(vocab_size),
      // SplitMix64's increment keeps a zero seed from a zero state.
      state_(config.seed + 0x9E3779B97F4A7C15ull),
      probs_(vocab_size),
      order_(vocab_size),
      seen_(vocab_size, 0) {}

double Sampler::next_uniform() {
  // SplitMix64: a full-period 64-bit stream, the top 53 bits as the fraction.
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1p-53;
}

int32_t Sampler::sample(float* logits, Span<const int32_t> history) {
  const size_t n = vocab_size_;
  if (config_.repetition_penalty != 1.0f) {
    const float penalty = config_.repetition_penalty;
    for (const int32_t id : history) {
      if (id < 0 || static_cast<size_t>(id) >= n || seen_[id]) continue;
      seen_[id] = 1;
      logits[id] = logits[id] > 0.0f ? logits[id] / penalty : logits[id] * penalty;
    }
    for (const int32_t id : history) {
      if (id >= 0 && static_cast<size_t>(id) < n) seen_[id] = 0;
    }
  }
  size_t best = 0;
  for (size_t i = 1; i < n; ++i) {
    if (logits[i] > logits[best]) best = i;  // the first of equal maxima
  }
  if (config_.temperature <= 0.0f || config_.top_k == 1) {
    return static_cast<int32_t>(best);
  }
  const float inv_t = 1.0f / config_.temperature;
  const double max = static_cast<double>(logits[best]) * inv_t;
  double total = 0.0;
  for (size_t i = 0; i < n; ++i) {
    logits[i] *= inv_t;
    const double p = std::exp(static_cast<double>(logits[i]) - max);
    probs_[i] = static_cast<float>(p);
    total += p;
  }
  // Candidates, most likely first (ties: lower id first), cut by top-k and
  // then by top-p over the renormalised mass of what top-k kept.
  size_t count = n;
  for (size_t i = 0; i < n; ++i) order_[i] = static_cast<int32_t>(i);
  auto more_likely = [this](int32_t a, int32_t b) {
    return probs_[a] > probs_[b] || (probs_[a] == probs_[b] && a < b);
  };
  const bool filtered = config_.top_k > 0 || config_.top_p < 1.0f;
  if (config_.top_k > 0 && static_cast<size_t>(config_.top_k) < n) {
    count = static_cast<size_t>(config_.top_k);
    std::partial_sort(order_.begin(), order_.begin() + count, order_.end(), more_likely);
  } else if (config_.top_p < 1.0f) {
    std::sort(order_.begin(), order_.end(), more_likely);
  }
  double mass = total;
  if (filtered) {
    mass = 0.0;
    for (size_t i = 0; i < count; ++i) mass += probs_[order_[i]];
  }
  if (config_.top_p < 1.0f) {
    const double target = static_cast<double>(config_.top_p) * mass;
    double kept = 0.0;
    size_t keep = 0;
    while (keep < count) {
      kept += probs_[order_[keep]];
      ++keep;
      if (kept >= target) break;
    }
    count = keep;
    mass = kept;
  }
  double r = next_uniform() * mass;
  for (size_t i = 0; i < count; ++i) {
    const int32_t id = filtered ? order_[i] : static_cast<int32_t>(i);
    r -= probs_[id];
    if (r < 0.0) return id;
  }
  // Rounding left a sliver of mass: the last candidate.
  return filtered ? order_[count - 1] : static_cast<int32_t>(n - 1);
}

}  // namespace llm
}  // namespace ember
