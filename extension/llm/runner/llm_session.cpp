#include "extension/llm/runner/llm_session.h"

#include <algorithm>
#include <cstring>

#include "runtime/core/log.h"

namespace ember {
namespace llm {
namespace {

// The Int a constant method returns.
Result<int64_t> constant(Module& module, const char* name) {
  const Error err = module.run(name, Span<const EValue>());
  EMBER_CHECK_OR_RETURN(err == Error::Ok, Error::InvalidProgram,
                        "the program has no constant method %s: export it with `ember llm "
                        "export`", name);
  Result<Method*> method = module.method(name);
  EMBER_CHECK_OR_RETURN(method.ok() && method.get()->num_outputs() == 1 &&
                            method.get()->output(0).is_int(),
                        Error::InvalidProgram, "constant method %s does not return an int", name);
  return method.get()->output(0).to_int();
}

}  // namespace

Result<std::unique_ptr<LlmSession>> LlmSession::load(const char* path, size_t num_threads) {
  ModuleOptions options;
  options.num_threads = num_threads;
  // Read into memory rather than mapped: a decode step streams every weight,
  // and the file loader's memory can take huge pages where the page cache's
  // cannot (file_data_loader.cpp).
  options.load_mode = ModuleOptions::LoadMode::File;
  return load(path, options);
}

Result<std::unique_ptr<LlmSession>> LlmSession::load(const char* path,
                                                     const ModuleOptions& options) {
  EMBER_ASSIGN_OR_RETURN(std::unique_ptr<Module> module, Module::load(path, options));
  std::unique_ptr<LlmSession> session(new LlmSession());
  LlmMetadata& m = session->metadata_;
  EMBER_ASSIGN_OR_RETURN(m.max_context, constant(*module, "get_max_context_len"));
  EMBER_ASSIGN_OR_RETURN(m.max_prefill, constant(*module, "get_max_seq_len"));
  EMBER_ASSIGN_OR_RETURN(m.vocab_size, constant(*module, "get_vocab_size"));
  EMBER_ASSIGN_OR_RETURN(m.bos_id, constant(*module, "get_bos_id"));
  EMBER_ASSIGN_OR_RETURN(m.eos_id, constant(*module, "get_eos_id"));
  EMBER_CHECK_OR_RETURN(m.max_context > 0 && m.max_prefill > 0 && m.vocab_size > 0,
                        Error::InvalidProgram, "%s: the model's limits are not positive", path);
  Result<Method*> forward = module->method("forward");
  EMBER_CHECK_OR_RETURN(forward.ok() && forward.get()->num_inputs() == 2 &&
                            forward.get()->num_outputs() == 1,
                        Error::InvalidProgram,
                        "%s: forward must take (tokens, input_pos) and return logits", path);
  session->module_ = std::move(module);
  session->tokens_.resize(static_cast<size_t>(m.max_prefill));
  session->positions_.resize(static_cast<size_t>(m.max_prefill));
  session->logits_.resize(static_cast<size_t>(m.vocab_size));
  return session;
}

Error LlmSession::reset() {
  position_ = 0;
  return module_->reset_state();
}

Result<const float*> LlmSession::forward(Span<const int32_t> tokens) {
  EMBER_CHECK_OR_RETURN(tokens.size() > 0, Error::InvalidArgument, "no tokens to run");
  EMBER_CHECK_OR_RETURN(static_cast<int64_t>(tokens.size()) <= remaining(), Error::InvalidArgument,
                        "%zu tokens do not fit: the context holds %lld and %lld are used",
                        tokens.size(), static_cast<long long>(metadata_.max_context),
                        static_cast<long long>(position_));
  Result<Method*> method = module_->method("forward");
  if (!method.ok()) return method.error();
  for (size_t done = 0; done < tokens.size();) {
    const size_t n = std::min(tokens.size() - done, static_cast<size_t>(metadata_.max_prefill));
    for (size_t i = 0; i < n; ++i) {
      const int32_t id = tokens[done + i];
      EMBER_CHECK_OR_RETURN(id >= 0 && id < metadata_.vocab_size, Error::InvalidArgument,
                            "token %d is outside the vocabulary (%lld)", id,
                            static_cast<long long>(metadata_.vocab_size));
      tokens_[i] = id;
      positions_[i] = position_ + static_cast<int64_t>(i);
    }
    int32_t token_sizes[2] = {1, static_cast<int32_t>(n)};
    int32_t pos_sizes[1] = {static_cast<int32_t>(n)};
    uint8_t order[2] = {0, 1};
    int32_t strides[2] = {static_cast<int32_t>(n), 1};
    int32_t pos_strides[1] = {1};
    Tensor token_tensor(ScalarType::Long, 2, token_sizes, order, strides, tokens_.data(),
                        n * sizeof(int64_t));
    Tensor pos_tensor(ScalarType::Long, 1, pos_sizes, order, pos_strides, positions_.data(),
                      n * sizeof(int64_t));
    const EValue inputs[2] = {EValue(&token_tensor), EValue(&pos_tensor)};
    const Error err = module_->run("forward", Span<const EValue>(inputs, 2));
    if (err != Error::Ok) {
      EMBER_LOG(Error, "forward failed: %s", module_->last_error());
      return err;
    }
    position_ += static_cast<int64_t>(n);
    done += n;
  }
  const EValue& out = method.get()->output(0);
  EMBER_CHECK_OR_RETURN(out.is_tensor() && out.to_tensor().scalar_type() == ScalarType::Float &&
                            out.to_tensor().numel() >= metadata_.vocab_size,
                        Error::InvalidProgram, "forward did not return float logits");
  const float* logits = out.to_tensor().const_data_ptr<float>() +
                        (out.to_tensor().numel() - metadata_.vocab_size);
  std::memcpy(logits_.data(), logits, logits_.size() * sizeof(float));
  return logits_.data();
}

}  // namespace llm
}  // namespace ember
