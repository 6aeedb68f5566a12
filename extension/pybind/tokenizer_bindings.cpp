// ember._C.Tokenizer and ember._C.StreamDecoder: the byte-level BPE tokenizer
// (extension/llm/tokenizer) for Python; python/ember/llm/tokenizer.py wraps
// them as ember.llm.Tokenizer.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "extension/llm/tokenizer/bpe_tokenizer.h"
#include "extension/llm/tokenizer/stream_decoder.h"
#include "extension/llm/tokenizer/tokenizer_file.h"
#include "extension/llm/tokenizer/unicode.h"
#include "runtime/core/log.h"

namespace py = pybind11;
using namespace ember;
using namespace ember::llm;

namespace {

[[noreturn]] void raise_error(const std::string& what, Error error) {
  std::string message = what + ": " + error_name(error);
  const char* detail = last_error_message();
  if (detail != nullptr && detail[0] != '\0') message += ": " + std::string(detail);
  throw py::value_error(message);
}

py::object optional_id(int32_t id) { return id == kNoToken ? py::none() : py::object(py::int_(id)); }

std::string lossy(const std::string& bytes) {
  std::string text;
  append_utf8_lossy(bytes, /*final_chunk=*/true, &text);
  return text;
}

class PyTokenizer {
 public:
  explicit PyTokenizer(const std::string& path) {
    clear_last_error_message();
    Result<std::unique_ptr<BpeTokenizer>> loaded = BpeTokenizer::load(path.c_str());
    if (!loaded.ok()) raise_error("cannot load tokenizer " + path, loaded.error());
    tokenizer_ = std::move(loaded.get());
  }

  const BpeTokenizer* get() const { return tokenizer_.get(); }

  std::vector<int32_t> encode(const std::string& text, bool allow_special) {
    std::vector<int32_t> ids;
    {
      py::gil_scoped_release release;
      tokenizer_->encode(text, allow_special, &ids);
    }
    return ids;
  }

  std::string decode_bytes(const std::vector<int32_t>& ids, bool skip_special) const {
    clear_last_error_message();
    Result<std::string> bytes = tokenizer_->decode(ids, skip_special);
    if (!bytes.ok()) raise_error("cannot decode", bytes.error());
    return std::move(bytes.get());
  }

  py::bytes token_bytes(int32_t id) const {
    if (id < 0 || static_cast<size_t>(id) >= tokenizer_->vocab_size()) {
      throw py::value_error("token id " + std::to_string(id) + " is out of range");
    }
    return py::bytes(tokenizer_->token_bytes(id));
  }

  std::string apply_chat_template(const std::vector<std::pair<std::string, std::string>>& messages,
                                  bool add_generation_prompt) const {
    std::vector<ChatMessage> chat;
    chat.reserve(messages.size());
    for (const auto& [role, content] : messages) chat.push_back({role, content});
    clear_last_error_message();
    Result<std::string> text = tokenizer_->apply_chat_template(chat, add_generation_prompt);
    if (!text.ok()) raise_error("cannot apply the chat template", text.error());
    return std::move(text.get());
  }

  py::object chat_template_kind() const {
    const ChatTemplate* recognised = tokenizer_->chat_template();
    if (recognised == nullptr) return py::none();
    return py::str(chat_template_kind_name(recognised->kind));
  }

 private:
  std::unique_ptr<BpeTokenizer> tokenizer_;
};

class PyStreamDecoder {
 public:
  PyStreamDecoder(const PyTokenizer& tokenizer, bool skip_special) : decoder_(tokenizer.get(), skip_special) {}

  std::string push(int32_t id) {
    clear_last_error_message();
    Result<std::string> text = decoder_.push(id);
    if (!text.ok()) raise_error("cannot decode", text.error());
    return std::move(text.get());
  }
  std::string flush() { return decoder_.flush(); }
  size_t pending() const { return decoder_.pending(); }

 private:
  StreamDecoder decoder_;
};

}  // namespace

void register_tokenizer_bindings(py::module_& m) {
  py::class_<PyTokenizer>(m, "Tokenizer")
      .def(py::init<const std::string&>(), py::arg("path"))
      .def("encode", &PyTokenizer::encode, py::arg("text"), py::arg("allow_special") = true)
      .def(
          "decode_bytes",
          [](const PyTokenizer& self, const std::vector<int32_t>& ids, bool skip_special) {
            return py::bytes(self.decode_bytes(ids, skip_special));
          },
          py::arg("ids"), py::arg("skip_special") = false)
      .def(
          "decode",
          [](const PyTokenizer& self, const std::vector<int32_t>& ids, bool skip_special) {
            return lossy(self.decode_bytes(ids, skip_special));
          },
          py::arg("ids"), py::arg("skip_special") = false)
      .def("token_bytes", &PyTokenizer::token_bytes, py::arg("id"))
      .def(
          "token_id",
          [](const PyTokenizer& self, const py::bytes& bytes) { return optional_id(self.get()->token_id(bytes)); },
          py::arg("token"))
      .def("is_special", [](const PyTokenizer& self, int32_t id) { return self.get()->is_special(id); })
      .def("apply_chat_template", &PyTokenizer::apply_chat_template, py::arg("messages"),
           py::arg("add_generation_prompt") = false)
      .def("serialize", [](const PyTokenizer& self) { return py::bytes(serialize_tokenizer_file(self.get()->data())); })
      .def_property_readonly("vocab_size", [](const PyTokenizer& self) { return self.get()->vocab_size(); })
      .def_property_readonly("bos_id", [](const PyTokenizer& self) { return optional_id(self.get()->bos_id()); })
      .def_property_readonly("eos_id", [](const PyTokenizer& self) { return optional_id(self.get()->eos_id()); })
      .def_property_readonly("pad_id", [](const PyTokenizer& self) { return optional_id(self.get()->pad_id()); })
      .def_property_readonly("unk_id", [](const PyTokenizer& self) { return optional_id(self.get()->unk_id()); })
      .def_property_readonly("add_bos", [](const PyTokenizer& self) { return self.get()->add_bos(); })
      .def_property_readonly("add_eos", [](const PyTokenizer& self) { return self.get()->add_eos(); })
      .def_property_readonly("pre_tokenizer",
                             [](const PyTokenizer& self) { return pre_tokenizer_name(self.get()->pre_tokenizer()); })
      .def_property_readonly("chat_template", [](const PyTokenizer& self) { return self.get()->chat_template_source(); })
      .def_property_readonly("chat_template_kind", &PyTokenizer::chat_template_kind);

  py::class_<PyStreamDecoder>(m, "StreamDecoder")
      .def(py::init<const PyTokenizer&, bool>(), py::arg("tokenizer"), py::arg("skip_special") = false,
           py::keep_alive<1, 2>())
      .def("push", &PyStreamDecoder::push, py::arg("id"))
      .def("flush", &PyStreamDecoder::flush)
      .def_property_readonly("pending", &PyStreamDecoder::pending);

  m.def("unicode_tables_version", []() { return std::string(unicode_tables_version()); });
}
