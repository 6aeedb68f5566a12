// The LLM entry points of the C ABI in a build without the LLM runner
// (EMBER_C_LLM=OFF: a web page that classifies images has no use for the
// runner and tokenizer, which would be a third of its module). The ABI stays
// whole, so a caller links the same way; every call reports that the build
// left the runner out.
#include "extension/c_api/status.h"

struct ember_llm {};

namespace {

ember_status unavailable(const char* function) {
  return ember::c_api::fail(EMBER_ERROR_NOT_SUPPORTED,
                            "%s: this libember was built without the LLM runner (EMBER_C_LLM=OFF)",
                            function);
}

}  // namespace

extern "C" {

ember_status ember_llm_load(const char*, const char*, const ember_load_options*, ember_llm** out) {
  if (out != nullptr) *out = nullptr;
  return unavailable("ember_llm_load");
}

void ember_llm_destroy(ember_llm* llm) { delete llm; }

ember_status ember_llm_get(const ember_llm*, int32_t, int64_t*) {
  return unavailable("ember_llm_get");
}

ember_status ember_llm_generate(ember_llm*, const char*, const ember_generate_options*,
                                ember_token_callback, void*, ember_generate_stats*) {
  return unavailable("ember_llm_generate");
}

ember_status ember_llm_chat(ember_llm*, const char*, const char*, const ember_generate_options*,
                            ember_token_callback, void*, ember_generate_stats*) {
  return unavailable("ember_llm_chat");
}

ember_status ember_llm_generate_tokens(ember_llm*, const int32_t*, size_t,
                                       const ember_generate_options*, ember_token_callback, void*,
                                       ember_generate_stats*) {
  return unavailable("ember_llm_generate_tokens");
}

ember_status ember_llm_reset(ember_llm*) { return unavailable("ember_llm_reset"); }

}  // extern "C"
