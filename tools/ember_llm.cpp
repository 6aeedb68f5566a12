// ember_llm: generate text with a program from `ember llm export`.
//
//   ember_llm model.pte --prompt "Once upon a time" -n 128
//   ember_llm model.pte --chat [--system "You are terse."]    (one user turn per line)
//
// Streams the text as it is generated, then prints time to first token,
// prefill and decode tokens/s and peak memory on stderr.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "backends/cpu/runtime/cpu_backend.h"
#include "extension/llm/runner/text_runner.h"
#include "runtime/core/log.h"

namespace {

using ember::llm::GenerationConfig;
using ember::llm::GenerationStats;

void usage() {
  std::fprintf(stderr,
               "usage: ember_llm MODEL.pte (--prompt TEXT | --chat) [-n TOKENS] [--tokenizer PATH]\n"
               "         [--temperature T] [--top-k K] [--top-p P] [--repetition-penalty R]\n"
               "         [--seed S] [--threads N] [--system TEXT]\n");
}

void print_stats(const GenerationStats& s) {
  std::fprintf(stderr,
               "\n[%s] prompt %lld tokens, generated %lld; time to first token %.1f ms; prefill "
               "%.1f tokens/s, decode %.1f tokens/s; peak memory %.1f MiB\n",
               ember::llm::stop_reason_text(s.stop), static_cast<long long>(s.prompt_tokens),
               static_cast<long long>(s.generated_tokens), s.first_token_ms,
               s.prefill_tokens_per_s(), s.decode_tokens_per_s(),
               static_cast<double>(s.peak_rss_bytes) / (1 << 20));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage();
    return 2;
  }
  const char* program = argv[1];
  const char* tokenizer = nullptr;
  std::string prompt, system;
  bool chat = false, have_prompt = false;
  size_t threads = 0;
  GenerationConfig config;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "ember_llm: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--prompt") {
      prompt = value();
      have_prompt = true;
    } else if (arg == "--chat") {
      chat = true;
    } else if (arg == "--system") {
      system = value();
    } else if (arg == "-n" || arg == "--max-new-tokens") {
      config.max_new_tokens = std::atoi(value());
    } else if (arg == "--tokenizer") {
      tokenizer = value();
    } else if (arg == "--temperature") {
      config.sampler.temperature = std::strtof(value(), nullptr);
    } else if (arg == "--top-k") {
      config.sampler.top_k = std::atoi(value());
    } else if (arg == "--top-p") {
      config.sampler.top_p = std::strtof(value(), nullptr);
    } else if (arg == "--repetition-penalty") {
      config.sampler.repetition_penalty = std::strtof(value(), nullptr);
    } else if (arg == "--seed") {
      config.sampler.seed = std::strtoull(value(), nullptr, 10);
    } else if (arg == "--threads") {
      threads = static_cast<size_t>(std::atoi(value()));
    } else {
      std::fprintf(stderr, "ember_llm: unknown argument %s\n", arg.c_str());
      usage();
      return 2;
    }
  }
  if (!chat && !have_prompt) {
    usage();
    return 2;
  }
  ember::cpu::register_cpu_backend();
  auto loaded = ember::llm::TextRunner::load(program, tokenizer, threads);
  if (!loaded.ok()) {
    std::fprintf(stderr, "ember_llm: cannot load %s: %s (%s)\n", program,
                 ember::error_name(loaded.error()), ember::last_error_message());
    return 1;
  }
  ember::llm::TextRunner& runner = *loaded.get();
  auto print = [](const std::string& piece) {
    std::fwrite(piece.data(), 1, piece.size(), stdout);
    std::fflush(stdout);
  };
  auto report = [&](const ember::Result<GenerationStats>& stats) {
    if (!stats.ok()) {
      std::fprintf(stderr, "\nember_llm: generation failed: %s (%s)\n",
                   ember::error_name(stats.error()), ember::last_error_message());
      return false;
    }
    print_stats(stats.get());
    if (stats.get().stop == ember::llm::StopReason::ContextFull) {
      std::fprintf(stderr, "ember_llm: the context (%lld tokens) is full\n",
                   static_cast<long long>(runner.session().metadata().max_context));
    }
    return true;
  };
  if (!chat) {
    std::fwrite(prompt.data(), 1, prompt.size(), stdout);
    return report(runner.complete(prompt, config, print)) ? 0 : 1;
  }
  std::string line = prompt;
  bool first = true;
  while (have_prompt ? first : static_cast<bool>(std::getline(std::cin, line))) {
    if (!have_prompt) std::fprintf(stderr, "> ");
    if (line.empty() && !have_prompt) continue;
    if (!report(runner.chat(line, system, config, print))) return 1;
    if (runner.session().remaining() < 2) {
      std::fprintf(stderr, "ember_llm: the context is full; ending the chat\n");
      break;
    }
    first = false;
  }
  return 0;
}
