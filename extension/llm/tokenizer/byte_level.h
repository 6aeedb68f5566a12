// GPT-2's byte-level alphabet: the 256 printable characters that byte-level BPE
// vocabularies (GGUF's "gpt2" model, Hugging Face's ByteLevel) spell bytes
// with, "Ġ" for the space byte and so on.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ember {
namespace llm {

// The code point that spells `byte`.
uint32_t byte_level_char(uint8_t byte);

// Replaces each character of `spelled` by the byte it spells. Returns false
// (leaving *out unspecified) when a character is not in the alphabet or the
// text is not valid UTF-8.
bool byte_level_decode(std::string_view spelled, std::string* out);

// Spells raw bytes in the alphabet (for showing tokens).
std::string byte_level_encode(std::string_view bytes);

}  // namespace llm
}  // namespace ember
