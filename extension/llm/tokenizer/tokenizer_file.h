// Ember's tokenizer file (.tokenizer): the vocabulary, merges, added tokens,
// special ids and chat template of a byte-level BPE tokenizer in about 1 MB,
// so that a .pte ships without the GGUF it came from. README.md beside this
// file describes the layout; python/ember/llm/tokenizer.py writes it too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "extension/llm/tokenizer/tokenizer_data.h"
#include "runtime/core/result.h"

namespace ember {
namespace llm {

constexpr char kTokenizerFileMagic[4] = {'E', 'M', 'T', 'K'};
constexpr uint32_t kTokenizerFileVersion = 1;

// Parses a whole file. Every count, offset and id is checked against the
// bytes and the vocabulary: a malformed file gives InvalidArgument (logged),
// a newer version NotSupported. Merges and added tokens are checked further
// by BpeTokenizer::create.
Result<TokenizerData> parse_tokenizer_file(const void* data, size_t size);

// The file for `data` (what ember.llm.tokenizer writes, byte for byte).
std::string serialize_tokenizer_file(const TokenizerData& data);

}  // namespace llm
}  // namespace ember
