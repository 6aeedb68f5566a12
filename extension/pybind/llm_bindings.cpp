// ember._C's LLM part: the sampler and a generation session
// (extension/llm), which python/ember/llm/runner.py wraps.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "extension/llm/runner/generator.h"
#include "extension/llm/runner/llm_session.h"
#include "extension/llm/sampler/sampler.h"
#include "runtime/core/log.h"

namespace py = pybind11;

namespace ember {
namespace {

[[noreturn]] void fail(const std::string& what, Error error) {
  std::string message = what + ": " + error_name(error);
  const char* detail = last_error_message();
  if (detail != nullptr && detail[0] != '\0') message += ": " + std::string(detail);
  throw py::value_error(message);
}

llm::SamplerConfig sampler_config(float temperature, int32_t top_k, float top_p,
                                  float repetition_penalty, uint64_t seed) {
  llm::SamplerConfig config;
  config.temperature = temperature;
  config.top_k = top_k;
  config.top_p = top_p;
  config.repetition_penalty = repetition_penalty;
  config.seed = seed;
  return config;
}

class PySampler {
 public:
  PySampler(size_t vocab_size, float temperature, int32_t top_k, float top_p,
            float repetition_penalty, uint64_t seed) {
    clear_last_error_message();
    Result<llm::Sampler> made = llm::Sampler::create(
        sampler_config(temperature, top_k, top_p, repetition_penalty, seed), vocab_size);
    if (!made.ok()) fail("invalid sampler settings", made.error());
    sampler_ = std::make_unique<llm::Sampler>(std::move(made.get()));
    vocab_size_ = vocab_size;
  }

  int32_t sample(py::array_t<float, py::array::c_style | py::array::forcecast> logits,
                 const std::vector<int32_t>& history) {
    if (static_cast<size_t>(logits.size()) != vocab_size_) {
      throw py::value_error("logits must have " + std::to_string(vocab_size_) + " entries");
    }
    std::vector<float> copy(logits.data(), logits.data() + logits.size());
    return sampler_->sample(copy.data(), Span<const int32_t>(history.data(), history.size()));
  }

 private:
  std::unique_ptr<llm::Sampler> sampler_;
  size_t vocab_size_ = 0;
};

class PySession {
 public:
  PySession(const std::string& path, size_t threads) {
    clear_last_error_message();
    Result<std::unique_ptr<llm::LlmSession>> loaded = llm::LlmSession::load(path.c_str(), threads);
    if (!loaded.ok()) fail("cannot load " + path, loaded.error());
    session_ = std::move(loaded.get());
  }

  py::dict metadata() const {
    const llm::LlmMetadata& m = session_->metadata();
    py::dict d;
    d["max_context"] = m.max_context;
    d["max_prefill"] = m.max_prefill;
    d["vocab_size"] = m.vocab_size;
    d["bos_id"] = m.bos_id;
    d["eos_id"] = m.eos_id;
    return d;
  }
  int64_t position() const { return session_->position(); }
  void reset() {
    const Error err = session_->reset();
    if (err != Error::Ok) fail("reset failed", err);
  }

  py::array_t<float> forward(const std::vector<int32_t>& tokens) {
    clear_last_error_message();
    Result<const float*> logits = [&] {
      py::gil_scoped_release release;
      return session_->forward(Span<const int32_t>(tokens.data(), tokens.size()));
    }();
    if (!logits.ok()) fail("forward failed", logits.error());
    const size_t n = static_cast<size_t>(session_->metadata().vocab_size);
    py::array_t<float> out(n);
    std::copy(logits.get(), logits.get() + n, out.mutable_data());
    return out;
  }

  // Returns (generated ids, stats dict); on_token(id) -> bool (False stops).
  py::tuple generate(const std::vector<int32_t>& prompt, int32_t max_new_tokens,
                     float temperature, int32_t top_k, float top_p, float repetition_penalty,
                     uint64_t seed, const std::vector<int32_t>& stop_ids,
                     const std::function<bool(int32_t)>& on_token) {
    clear_last_error_message();
    llm::GenerationConfig config;
    config.max_new_tokens = max_new_tokens;
    config.sampler = sampler_config(temperature, top_k, top_p, repetition_penalty, seed);
    config.stop_ids = stop_ids;
    Result<llm::Sampler> sampler =
        llm::Sampler::create(config.sampler, static_cast<size_t>(session_->metadata().vocab_size));
    if (!sampler.ok()) fail("invalid sampler settings", sampler.error());
    std::vector<int32_t> history;
    std::vector<int32_t> generated;
    Result<llm::GenerationStats> stats = [&] {
      py::gil_scoped_release release;
      return llm::generate(
          *session_, Span<const int32_t>(prompt.data(), prompt.size()), config, sampler.get(),
          [&](int32_t id) {
            generated.push_back(id);
            py::gil_scoped_acquire acquire;
            return on_token ? on_token(id) : true;
          },
          &history);
    }();
    if (!stats.ok()) fail("generation failed", stats.error());
    const llm::GenerationStats& s = stats.get();
    py::dict d;
    d["prompt_tokens"] = s.prompt_tokens;
    d["generated_tokens"] = s.generated_tokens;
    d["prefill_ms"] = s.prefill_ms;
    d["first_token_ms"] = s.first_token_ms;
    d["decode_ms"] = s.decode_ms;
    d["prefill_tokens_per_s"] = s.prefill_tokens_per_s();
    d["decode_tokens_per_s"] = s.decode_tokens_per_s();
    d["peak_rss_bytes"] = s.peak_rss_bytes;
    d["stop"] = std::string(llm::stop_reason_text(s.stop));
    return py::make_tuple(generated, d);
  }

 private:
  std::unique_ptr<llm::LlmSession> session_;
};

}  // namespace

void register_llm_bindings(py::module_& m) {
  py::class_<PySampler>(m, "Sampler")
      .def(py::init<size_t, float, int32_t, float, float, uint64_t>(), py::arg("vocab_size"),
           py::arg("temperature") = 0.0f, py::arg("top_k") = 0, py::arg("top_p") = 1.0f,
           py::arg("repetition_penalty") = 1.0f, py::arg("seed") = 0)
      .def("sample", &PySampler::sample);
  py::class_<PySession>(m, "LlmSession")
      .def(py::init<const std::string&, size_t>(), py::arg("path"), py::arg("threads") = 0)
      .def_property_readonly("metadata", &PySession::metadata)
      .def_property_readonly("position", &PySession::position)
      .def("reset", &PySession::reset)
      .def("forward", &PySession::forward)
      .def("generate", &PySession::generate);
}

}  // namespace ember
