// Pre-tokenizers: how text is cut into words before BPE merges bytes inside
// each word. Written by hand from the regexes Hugging Face `tokenizers` runs,
// so no regex engine is needed at run time.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace ember {
namespace llm {

enum class PreTokenizerKind {
  // GPT-2's ByteLevel split:
  //   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
  Gpt2,
  // SmolLM's (llama.cpp's "smollm"; Hugging Face's Sequence[Digits(individual_digits),
  // ByteLevel]): every number character is a word of its own, and the text
  // between them is split as GPT-2 splits it.
  SmolLm,
};

// The kind llama.cpp names `name` (GGUF's tokenizer.ggml.pre), or false.
bool pre_tokenizer_from_name(std::string_view name, PreTokenizerKind* kind);
const char* pre_tokenizer_name(PreTokenizerKind kind);

// A word: a byte range of the text.
struct Word {
  size_t offset;
  size_t length;
};

// Appends the words of `text` to *words (in order; together they cover it).
// Bytes that are not valid UTF-8 count as characters of the "other" class.
void pre_tokenize(PreTokenizerKind kind, std::string_view text, std::vector<Word>* words);

}  // namespace llm
}  // namespace ember
