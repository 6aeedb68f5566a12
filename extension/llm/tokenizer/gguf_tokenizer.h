// The tokenizer a GGUF file describes (tokenizer.ggml.* keys and
// tokenizer.chat_template), for the byte-level BPE model ("gpt2").
#pragma once

#include "extension/llm/tokenizer/gguf_reader.h"
#include "extension/llm/tokenizer/tokenizer_data.h"
#include "runtime/core/result.h"

namespace ember {
namespace llm {

// NotSupported for another tokenizer model (SentencePiece "llama", ...) or a
// pre-tokenizer this library does not implement; InvalidArgument for
// inconsistent metadata (a merge naming an unknown token, ids out of range).
Result<TokenizerData> tokenizer_data_from_gguf(const GgufMetadata& metadata);

}  // namespace llm
}  // namespace ember
