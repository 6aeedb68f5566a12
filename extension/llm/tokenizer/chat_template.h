// Chat formatting for the templates Ember recognises. GGUF files carry the
// chat template as Jinja source; rather than embed a Jinja interpreter, the
// source is matched against the known templates (ChatML and ChatML with a
// default system prompt, SmolLM2's) and formatted natively. Any other
// template is refused with a clear error.
#pragma once

#include <string>
#include <string_view>
#include <vector>


namespace ember {
namespace llm {

struct ChatMessage {
  std::string role;  // "system", "user", "assistant", ...
  std::string content;
};

enum class ChatTemplateKind {
  // <|im_start|>{role}\n{content}<|im_end|>\n per message.
  ChatMl,
  // The same, with a system message first when the conversation has none
  // (SmolLM2-Instruct's template).
  ChatMlDefaultSystem,
};

struct ChatTemplate {
  ChatTemplateKind kind = ChatTemplateKind::ChatMl;
  std::string default_system;  // for ChatMlDefaultSystem
};

// Recognises `jinja` into *out; false for a template Ember does not know.
bool recognise_chat_template(std::string_view jinja, ChatTemplate* out);

const char* chat_template_kind_name(ChatTemplateKind kind);

// What the template renders for `messages`; with `add_generation_prompt`, the
// header of the assistant's reply follows.
std::string format_chat(const ChatTemplate& chat_template, const std::vector<ChatMessage>& messages,
                        bool add_generation_prompt);

}  // namespace llm
}  // namespace ember
