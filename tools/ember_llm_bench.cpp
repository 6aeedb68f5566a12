// ember_llm_bench: token-level speed of an LLM program, without a tokenizer
// or Python: prefill a prompt of fixed random ids, decode greedily, print one
// JSON line (prefill and decode tokens/s, time to first token, peak RSS).
// bench/llm_bench.py runs it for the Ember rows of the LLM table.
//
//   ember_llm_bench model.pte [--prompt-tokens 128] [--decode-tokens 64]
//                   [--threads N] [--rounds 3]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backends/cpu/runtime/cpu_backend.h"
#include "extension/llm/runner/generator.h"
#include "runtime/core/log.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ember_llm_bench MODEL.pte [--prompt-tokens N] "
                         "[--decode-tokens N] [--threads N] [--rounds N]\n");
    return 2;
  }
  int prompt_tokens = 128, decode_tokens = 64, rounds = 3;
  size_t threads = 1;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (arg == "--prompt-tokens") prompt_tokens = value;
    else if (arg == "--decode-tokens") decode_tokens = value;
    else if (arg == "--threads") threads = static_cast<size_t>(value);
    else if (arg == "--rounds") rounds = value;
    else {
      std::fprintf(stderr, "ember_llm_bench: unknown argument %s\n", arg.c_str());
      return 2;
    }
  }
  ember::cpu::register_cpu_backend();
  auto session = ember::llm::LlmSession::load(argv[1], threads);
  if (!session.ok()) {
    std::fprintf(stderr, "ember_llm_bench: cannot load %s: %s\n", argv[1],
                 ember::last_error_message());
    return 1;
  }
  ember::llm::LlmSession& s = *session.get();
  // Fixed pseudo-random ids (a linear congruential stream), the same every run.
  std::vector<int32_t> prompt(static_cast<size_t>(prompt_tokens));
  uint64_t state = 12345;
  for (int32_t& id : prompt) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    id = static_cast<int32_t>((state >> 33) % static_cast<uint64_t>(s.metadata().vocab_size));
  }
  ember::llm::GenerationConfig config;
  config.max_new_tokens = decode_tokens + 1;
  config.ignore_eos = true;  // timed, not read: a fixed number of tokens
  double best_prefill = 0, best_decode = 0, best_first = 1e30;
  for (int r = 0; r < rounds; ++r) {
    if (s.reset() != ember::Error::Ok) return 1;
    auto sampler = ember::llm::Sampler::create(config.sampler,
                                               static_cast<size_t>(s.metadata().vocab_size));
    std::vector<int32_t> history;
    auto stats = ember::llm::generate(
        s, ember::Span<const int32_t>(prompt.data(), prompt.size()), config, sampler.get(),
        [](int32_t) { return true; }, &history);
    if (!stats.ok()) {
      std::fprintf(stderr, "ember_llm_bench: %s\n", ember::last_error_message());
      return 1;
    }
    if (stats->prefill_tokens_per_s() > best_prefill) best_prefill = stats->prefill_tokens_per_s();
    if (stats->decode_tokens_per_s() > best_decode) best_decode = stats->decode_tokens_per_s();
    if (stats->first_token_ms < best_first) best_first = stats->first_token_ms;
  }
  std::printf("{\"prefill\": %.2f, \"decode\": %.2f, \"first_token_ms\": %.2f, \"rss\": %zu}\n",
              best_prefill, best_decode, best_first, ember::llm::peak_rss_bytes());
  return 0;
}
