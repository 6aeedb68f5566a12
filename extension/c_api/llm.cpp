// The LLM entry points of the C ABI (ember.h, "LLM generation"): the text
// runner when the program has a tokenizer, the bare session when it has none.
#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "extension/c_api/options.h"
#include "extension/c_api/program.h"
#include "extension/c_api/status.h"
#include "extension/llm/runner/text_runner.h"
#include "runtime/core/log.h"

struct ember_llm {
  std::unique_ptr<ember::llm::TextRunner> runner;   // with a tokenizer
  std::unique_ptr<ember::llm::LlmSession> session;  // without one
  std::vector<int32_t> history;                     // the bare session's tokens so far

  ember::llm::LlmSession& llm_session() { return runner ? runner->session() : *session; }
  const ember::llm::LlmSession& llm_session() const {
    return runner ? runner->session() : *session;
  }
};

namespace ember::c_api {
namespace {

ember_status generation_config(const ember_generate_options* given, const char* function,
                               llm::GenerationConfig* config) {
  ember_generate_options o = EMBER_GENERATE_OPTIONS_INIT;
  const ember_status status =
      read_struct(given, "ember_generate_options", "EMBER_GENERATE_OPTIONS_INIT", &o);
  if (status != EMBER_OK) return status;
  constexpr uint32_t kKnownFlags = EMBER_GENERATE_IGNORE_EOS;
  if ((o.flags & ~kKnownFlags) != 0 || o.reserved != 0) {
    return fail(EMBER_ERROR_NOT_SUPPORTED,
                "%s: ember_generate_options sets flags 0x%x / reserved %u that this libember "
                "(ABI %d.%d) does not know", function, o.flags & ~kKnownFlags, o.reserved,
                EMBER_ABI_VERSION_MAJOR, EMBER_ABI_VERSION_MINOR);
  }
  if (o.max_new_tokens < 0) {
    return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: max_new_tokens is %d", function,
                o.max_new_tokens);
  }
  config->max_new_tokens = o.max_new_tokens;
  config->sampler.temperature = o.temperature;
  config->sampler.top_k = o.top_k;
  config->sampler.top_p = o.top_p;
  config->sampler.repetition_penalty = o.repetition_penalty;
  config->sampler.seed = o.seed;
  config->ignore_eos = (o.flags & EMBER_GENERATE_IGNORE_EOS) != 0;
  return EMBER_OK;
}

// The C callback as the runner's; a null callback never stops.
llm::TokenTextCallback token_callback(ember_token_callback callback, void* user_data,
                                      bool has_text) {
  return [callback, user_data, has_text](int32_t token, const std::string& piece) {
    if (callback == nullptr) return true;
    return callback(user_data, token, has_text ? piece.c_str() : nullptr,
                    has_text ? piece.size() : 0) == 0;
  };
}

// Checks the arguments every generation call shares, then runs `generate`
// and reports its statistics.
template <typename Generate>
ember_status run_generation(ember_llm* llm, bool needs_tokenizer,
                            const ember_generate_options* options, ember_generate_stats* stats,
                            const char* function, const Generate& generate) {
  if (llm == nullptr) return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: llm is NULL", function);
  if (needs_tokenizer && !llm->runner) {
    return fail(EMBER_ERROR_INVALID_STATE,
                "%s: this llm was loaded without a tokenizer: use ember_llm_generate_tokens",
                function);
  }
  llm::GenerationConfig config;
  ember_status status = generation_config(options, function, &config);
  if (status != EMBER_OK) return status;
  if (stats != nullptr && stats->struct_size < sizeof(uint32_t)) {
    return fail(EMBER_ERROR_INVALID_ARGUMENT,
                "%s: ember_generate_stats.struct_size is %u: initialise it with "
                "EMBER_GENERATE_STATS_INIT", function, stats->struct_size);
  }
  clear_last_error_message();
  Result<llm::GenerationStats> result = generate(config);
  if (!result.ok()) {
    char what[128];
    std::snprintf(what, sizeof(what), "%s: generation failed", function);
    return fail_runtime(result.error(), what);
  }
  const llm::GenerationStats& s = result.get();
  ember_generate_stats out = EMBER_GENERATE_STATS_INIT;
  out.stop_reason = static_cast<int32_t>(s.stop);  // the same order as EMBER_STOP_*
  out.prompt_tokens = s.prompt_tokens;
  out.generated_tokens = s.generated_tokens;
  out.prefill_ms = s.prefill_ms;
  out.first_token_ms = s.first_token_ms;
  out.decode_ms = s.decode_ms;
  return write_struct(out, "ember_generate_stats", "EMBER_GENERATE_STATS_INIT", stats);
}

}  // namespace
}  // namespace ember::c_api

using ember::c_api::fail;

extern "C" {

ember_status ember_llm_load(const char* program_path, const char* tokenizer_path,
                            const ember_load_options* options, ember_llm** out) {
  constexpr const char* kFn = "ember_llm_load";
  EMBER_C_REQUIRE(program_path, kFn);
  EMBER_C_REQUIRE(out, kFn);
  ember::ModuleOptions module_options;
  uint32_t flags = 0;
  ember_status status = ember::c_api::begin_load(options, kFn, &module_options, &flags);
  if (status != EMBER_OK) return status;
  std::unique_ptr<ember_llm> llm(new (std::nothrow) ember_llm());
  if (!llm) return fail(EMBER_ERROR_MEMORY_ALLOCATION_FAILED, "%s: out of memory", kFn);
  char what[512];
  std::snprintf(what, sizeof(what), "%s: cannot load %s", kFn, program_path);
  if (tokenizer_path != nullptr && tokenizer_path[0] == '\0') {
    auto session = ember::llm::LlmSession::load(program_path, module_options);
    if (!session.ok()) return ember::c_api::fail_runtime(session.error(), what);
    llm->session = std::move(session.get());
  } else {
    auto runner = ember::llm::TextRunner::load(program_path, tokenizer_path, module_options);
    if (!runner.ok()) return ember::c_api::fail_runtime(runner.error(), what);
    llm->runner = std::move(runner.get());
  }
  *out = llm.release();
  return EMBER_OK;
}

void ember_llm_destroy(ember_llm* llm) { delete llm; }

ember_status ember_llm_get(const ember_llm* llm, int32_t key, int64_t* out) {
  EMBER_C_REQUIRE(llm, "ember_llm_get");
  EMBER_C_REQUIRE(out, "ember_llm_get");
  const ember::llm::LlmSession& session = llm->llm_session();
  const ember::llm::LlmMetadata& m = session.metadata();
  switch (key) {
    case EMBER_LLM_VOCAB_SIZE: *out = m.vocab_size; return EMBER_OK;
    case EMBER_LLM_MAX_CONTEXT: *out = m.max_context; return EMBER_OK;
    case EMBER_LLM_MAX_PREFILL: *out = m.max_prefill; return EMBER_OK;
    case EMBER_LLM_BOS_ID: *out = m.bos_id; return EMBER_OK;
    case EMBER_LLM_EOS_ID: *out = m.eos_id; return EMBER_OK;
    case EMBER_LLM_POSITION: *out = session.position(); return EMBER_OK;
    default:
      return fail(EMBER_ERROR_INVALID_ARGUMENT, "ember_llm_get: %d is not an EMBER_LLM_* key", key);
  }
}

ember_status ember_llm_generate(ember_llm* llm, const char* prompt,
                                const ember_generate_options* options,
                                ember_token_callback callback, void* user_data,
                                ember_generate_stats* stats) {
  constexpr const char* kFn = "ember_llm_generate";
  EMBER_C_REQUIRE(prompt, kFn);
  return ember::c_api::run_generation(llm, true, options, stats, kFn, [&](const auto& config) {
    return llm->runner->complete(prompt, config,
                                 ember::c_api::token_callback(callback, user_data, true));
  });
}

ember_status ember_llm_chat(ember_llm* llm, const char* message, const char* system,
                            const ember_generate_options* options, ember_token_callback callback,
                            void* user_data, ember_generate_stats* stats) {
  constexpr const char* kFn = "ember_llm_chat";
  EMBER_C_REQUIRE(message, kFn);
  return ember::c_api::run_generation(llm, true, options, stats, kFn, [&](const auto& config) {
    return llm->runner->chat(message, system != nullptr ? system : "", config,
                             ember::c_api::token_callback(callback, user_data, true));
  });
}

ember_status ember_llm_generate_tokens(ember_llm* llm, const int32_t* prompt, size_t prompt_size,
                                       const ember_generate_options* options,
                                       ember_token_callback callback, void* user_data,
                                       ember_generate_stats* stats) {
  constexpr const char* kFn = "ember_llm_generate_tokens";
  EMBER_C_REQUIRE(prompt, kFn);
  if (prompt_size == 0) return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: the prompt is empty", kFn);
  const std::vector<int32_t> ids(prompt, prompt + prompt_size);
  return ember::c_api::run_generation(
      llm, false, options, stats, kFn,
      [&](const ember::llm::GenerationConfig& config) -> ember::Result<ember::llm::GenerationStats> {
        if (llm->runner) {
          return llm->runner->generate(ids, config,
                                       ember::c_api::token_callback(callback, user_data, true));
        }
        ember::llm::LlmSession& session = *llm->session;
        EMBER_ASSIGN_OR_RETURN(
            ember::llm::Sampler sampler,
            ember::llm::Sampler::create(config.sampler,
                                        static_cast<size_t>(session.metadata().vocab_size)));
        const ember::llm::TokenTextCallback on_token =
            ember::c_api::token_callback(callback, user_data, false);
        return ember::llm::generate(
            session, ember::Span<const int32_t>(ids.data(), ids.size()), config, sampler,
            [&](int32_t id) { return on_token(id, std::string()); }, &llm->history);
      });
}

ember_status ember_llm_reset(ember_llm* llm) {
  EMBER_C_REQUIRE(llm, "ember_llm_reset");
  ember::clear_last_error_message();
  const ember::Error err = llm->runner ? llm->runner->reset() : llm->session->reset();
  llm->history.clear();
  if (err != ember::Error::Ok) return ember::c_api::fail_runtime(err, "ember_llm_reset");
  return EMBER_OK;
}

}  // extern "C"
