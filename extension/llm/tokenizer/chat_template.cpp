#include "extension/llm/tokenizer/chat_template.h"

namespace ember {
namespace llm {
namespace {

// The Jinja sources recognised, as Hugging Face model repos and llama.cpp's
// converter write them. A newline inside their string literals may be written
// as a newline or as the escape \n; both are compared as a newline.
constexpr std::string_view kChatMlLoop =
    "{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}";
constexpr std::string_view kChatMlStart = "{% for message in messages %}";
// ChatMlDefaultSystem: kChatMlStart, this, the system prompt, kDefaultSystemEnd, kChatMlLoop.
constexpr std::string_view kDefaultSystemStart =
    "{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\n";
constexpr std::string_view kDefaultSystemEnd = "<|im_end|>\n' }}{% endif %}";

std::string normalise(std::string_view jinja) {
  std::string out;
  out.reserve(jinja.size());
  for (size_t i = 0; i < jinja.size(); ++i) {
    if (jinja[i] == '\\' && i + 1 < jinja.size() && jinja[i + 1] == 'n') {
      out.push_back('\n');
      ++i;
    } else {
      out.push_back(jinja[i]);
    }
  }
  // Jinja drops one newline at the end of a template.
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
}
bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// A system prompt that sits in a single-quoted Jinja literal as plain text.
bool is_plain_literal(std::string_view text) {
  return text.find('\'') == std::string_view::npos && text.find('\\') == std::string_view::npos &&
         text.find("{{") == std::string_view::npos && text.find("{%") == std::string_view::npos;
}

void append_message(std::string_view role, std::string_view content, std::string* out) {
  out->append("<|im_start|>");
  out->append(role);
  out->push_back('\n');
  out->append(content);
  out->append("<|im_end|>\n");
}

}  // namespace

bool recognise_chat_template(std::string_view jinja, ChatTemplate* out) {
  const std::string source = normalise(jinja);
  const std::string_view text = source;
  if (starts_with(text, kChatMlStart) && ends_with(text, kChatMlLoop)) {
    const std::string_view middle =
        text.substr(kChatMlStart.size(), text.size() - kChatMlStart.size() - kChatMlLoop.size());
    if (middle.empty()) {
      out->kind = ChatTemplateKind::ChatMl;
      out->default_system.clear();
      return true;
    }
    if (starts_with(middle, kDefaultSystemStart) && ends_with(middle, kDefaultSystemEnd) &&
        middle.size() >= kDefaultSystemStart.size() + kDefaultSystemEnd.size()) {
      const std::string_view system = middle.substr(
          kDefaultSystemStart.size(), middle.size() - kDefaultSystemStart.size() - kDefaultSystemEnd.size());
      if (is_plain_literal(system)) {
        out->kind = ChatTemplateKind::ChatMlDefaultSystem;
        out->default_system = std::string(system);
        return true;
      }
    }
  }
  return false;
}

const char* chat_template_kind_name(ChatTemplateKind kind) {
  switch (kind) {
    case ChatTemplateKind::ChatMl: return "chatml";
    case ChatTemplateKind::ChatMlDefaultSystem: return "chatml-default-system";
  }
  return "?";
}

std::string format_chat(const ChatTemplate& chat_template, const std::vector<ChatMessage>& messages,
                        bool add_generation_prompt) {
  std::string out;
  for (size_t i = 0; i < messages.size(); ++i) {
    if (i == 0 && chat_template.kind == ChatTemplateKind::ChatMlDefaultSystem && messages[0].role != "system") {
      append_message("system", chat_template.default_system, &out);
    }
    append_message(messages[i].role, messages[i].content, &out);
  }
  if (add_generation_prompt) out.append("<|im_start|>assistant\n");
  return out;
}

}  // namespace llm
}  // namespace ember
