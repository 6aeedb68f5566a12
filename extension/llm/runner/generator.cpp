#include "extension/llm/runner/generator.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "runtime/core/log.h"

namespace ember {
namespace llm {
namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

const char* stop_reason_text(StopReason reason) {
  switch (reason) {
    case StopReason::EndOfSequence: return "end of sequence";
    case StopReason::MaxTokens: return "token limit reached";
    case StopReason::ContextFull: return "context full";
    case StopReason::Stopped: return "stopped";
  }
  return "";
}

double GenerationStats::prefill_tokens_per_s() const {
  return prefill_ms > 0 ? prompt_tokens * 1000.0 / prefill_ms : 0.0;
}

double GenerationStats::decode_tokens_per_s() const {
  // The first token comes out of the prefill; each later one costs a decode.
  return decode_ms > 0 && generated_tokens > 1 ? (generated_tokens - 1) * 1000.0 / decode_ms : 0.0;
}

size_t peak_rss_bytes() {
  // Linux's VmHWM is this program's own peak; ru_maxrss also counts what a
  // parent held when it forked the process (a Python benchmark's gigabyte).
  if (std::FILE* status = std::fopen("/proc/self/status", "r")) {
    char line[256];
    size_t kib = 0;
    while (std::fgets(line, sizeof(line), status) != nullptr) {
      if (std::sscanf(line, "VmHWM: %zu kB", &kib) == 1) break;
    }
    std::fclose(status);
    if (kib > 0) return kib * 1024;
  }
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<size_t>(usage.ru_maxrss) * 1024;  // Linux: kilobytes
}

Result<GenerationStats> generate(LlmSession& session, Span<const int32_t> prompt,
                                 const GenerationConfig& config, Sampler& sampler,
                                 const TokenCallback& on_token, std::vector<int32_t>* history) {
  EMBER_CHECK_OR_RETURN(prompt.size() > 0, Error::InvalidArgument, "the prompt has no tokens");
  EMBER_CHECK_OR_RETURN(static_cast<int64_t>(prompt.size()) <= session.remaining(),
                        Error::InvalidArgument,
                        "the prompt has %zu tokens; the context has room for %lld more",
                        prompt.size(), static_cast<long long>(session.remaining()));
  GenerationStats stats;
  stats.prompt_tokens = static_cast<int64_t>(prompt.size());
  history->insert(history->end(), prompt.begin(), prompt.end());
  const double start = now_ms();
  EMBER_ASSIGN_OR_RETURN(const float* logits, session.forward(prompt));
  stats.prefill_ms = now_ms() - start;
  std::vector<float> scratch(static_cast<size_t>(session.metadata().vocab_size));
  auto is_stop = [&](int32_t id) {
    return (!config.ignore_eos && id == session.metadata().eos_id) ||
           std::find(config.stop_ids.begin(), config.stop_ids.end(), id) != config.stop_ids.end();
  };
  double first_token_at = 0;
  stats.stop = StopReason::MaxTokens;
  for (int32_t step = 0; step < config.max_new_tokens; ++step) {
    std::copy(logits, logits + scratch.size(), scratch.begin());
    const int32_t token =
        sampler.sample(scratch.data(), Span<const int32_t>(history->data(), history->size()));
    if (step == 0) {
      first_token_at = now_ms();
      stats.first_token_ms = first_token_at - start;
    }
    history->push_back(token);
    ++stats.generated_tokens;
    if (!on_token(token)) {
      stats.stop = StopReason::Stopped;
      break;
    }
    if (is_stop(token)) {
      stats.stop = StopReason::EndOfSequence;
      break;
    }
    if (step + 1 == config.max_new_tokens) break;
    if (session.remaining() < 1) {
      stats.stop = StopReason::ContextFull;
      break;
    }
    const int32_t next[1] = {token};
    EMBER_ASSIGN_OR_RETURN(logits, session.forward(Span<const int32_t>(next, 1)));
  }
  // Decode time: after the first token, every forward of a sampled token.
  stats.decode_ms = stats.generated_tokens > 1 ? now_ms() - first_token_at : 0.0;
  stats.peak_rss_bytes = peak_rss_bytes();
  return stats;
}

}  // namespace llm
}  // namespace ember
