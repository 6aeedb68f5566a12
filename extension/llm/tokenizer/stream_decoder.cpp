#include "extension/llm/tokenizer/stream_decoder.h"

#include "extension/llm/tokenizer/unicode.h"
#include "runtime/core/log.h"

namespace ember {
namespace llm {

Result<std::string> StreamDecoder::push(int32_t id) {
  EMBER_CHECK_OR_RETURN(id >= 0 && static_cast<size_t>(id) < tokenizer_->vocab_size(), Error::InvalidArgument,
                        "tokenizer: id %d is out of range (vocabulary of %zu)", id, tokenizer_->vocab_size());
  std::string text;
  if (skip_special_ && tokenizer_->is_special(id)) return text;
  pending_ += tokenizer_->token_bytes(id);
  const size_t held = append_utf8_lossy(pending_, /*final_chunk=*/false, &text);
  pending_.erase(0, pending_.size() - held);
  return text;
}

std::string StreamDecoder::flush() {
  std::string text;
  append_utf8_lossy(pending_, /*final_chunk=*/true, &text);
  pending_.clear();
  return text;
}

}  // namespace llm
}  // namespace ember
