#include "extension/llm/tokenizer/gguf_tokenizer.h"

#include <string_view>
#include <unordered_map>

#include "extension/llm/tokenizer/byte_level.h"
#include "runtime/core/log.h"

namespace ember {
namespace llm {
namespace {

// An optional token id key: kNoToken when absent, an error when out of range.
Error read_token_id(const GgufMetadata& metadata, const char* key, size_t vocab_size, int32_t* id) {
  Result<int64_t> value = metadata.get_integer(key, /*required=*/false);
  if (value.error() == Error::NotFound) return Error::Ok;
  if (!value.ok()) return value.error();
  if (value.get() < 0 || static_cast<uint64_t>(value.get()) >= vocab_size) {
    EMBER_LOG(Error, "GGUF: %s = %lld is not a token id (vocabulary of %zu)", key,
              static_cast<long long>(value.get()), vocab_size);
    return Error::InvalidArgument;
  }
  *id = static_cast<int32_t>(value.get());
  return Error::Ok;
}

Error read_flag(const GgufMetadata& metadata, const char* key, bool* flag) {
  Result<bool> value = metadata.get_bool(key, /*required=*/false);
  if (value.error() == Error::NotFound) return Error::Ok;
  if (!value.ok()) return value.error();
  *flag = value.get();
  return Error::Ok;
}

}  // namespace

Result<TokenizerData> tokenizer_data_from_gguf(const GgufMetadata& metadata) {
  EMBER_ASSIGN_OR_RETURN(const std::string model, metadata.get_string("tokenizer.ggml.model"));
  if (model != "gpt2") {
    EMBER_LOG(Error, "GGUF: tokenizer model '%s' is not supported (only byte-level BPE, 'gpt2')",
              model.c_str());
    return Error::NotSupported;
  }
  TokenizerData data;
  EMBER_ASSIGN_OR_RETURN(const std::string pre, metadata.get_string("tokenizer.ggml.pre"));
  if (!pre_tokenizer_from_name(pre, &data.pre_tokenizer)) {
    EMBER_LOG(Error, "GGUF: pre-tokenizer '%s' is not supported (only 'smollm' and 'gpt2')", pre.c_str());
    return Error::NotSupported;
  }

  EMBER_ASSIGN_OR_RETURN(const std::vector<std::string>* tokens, metadata.get_strings("tokenizer.ggml.tokens"));
  const size_t vocab_size = tokens->size();
  if (vocab_size == 0 || vocab_size > static_cast<size_t>(INT32_MAX)) {
    EMBER_LOG(Error, "GGUF: a vocabulary of %zu tokens", vocab_size);
    return Error::InvalidArgument;
  }
  Result<const std::vector<int64_t>*> types = metadata.get_integers("tokenizer.ggml.token_type", false);
  if (!types.ok() && types.error() != Error::NotFound) return types.error();
  if (types.ok()) {
    if (types.get()->size() != vocab_size) {
      EMBER_LOG(Error, "GGUF: %zu token types for %zu tokens", types.get()->size(), vocab_size);
      return Error::InvalidArgument;
    }
    data.types.reserve(vocab_size);
    for (const int64_t type : *types.get()) {
      if (type < 0 || type > static_cast<int64_t>(TokenType::Byte)) {
        EMBER_LOG(Error, "GGUF: unknown token type %lld", static_cast<long long>(type));
        return Error::InvalidArgument;
      }
      data.types.push_back(static_cast<TokenType>(type));
    }
  }

  // Tokens are spelled in GPT-2's byte alphabet; one that is not (a control
  // token written literally) stands for its own UTF-8 bytes, as Hugging
  // Face's ByteLevel decoder reads it.
  data.tokens.resize(vocab_size);
  std::unordered_map<std::string_view, int32_t> id_of_spelling;
  id_of_spelling.reserve(vocab_size);
  for (size_t id = 0; id < vocab_size; ++id) {
    const std::string& spelled = (*tokens)[id];
    if (!byte_level_decode(spelled, &data.tokens[id])) data.tokens[id] = spelled;
    id_of_spelling[spelled] = static_cast<int32_t>(id);  // a repeated spelling: the last id, as a dict keeps
    if (!data.types.empty() && (data.types[id] == TokenType::Control || data.types[id] == TokenType::UserDefined)) {
      data.added_tokens.push_back({static_cast<int32_t>(id), spelled, data.types[id] == TokenType::Control});
    }
  }

  EMBER_ASSIGN_OR_RETURN(const std::vector<std::string>* merges, metadata.get_strings("tokenizer.ggml.merges"));
  data.merges.reserve(merges->size());
  for (size_t rank = 0; rank < merges->size(); ++rank) {
    const std::string_view merge = (*merges)[rank];
    const size_t space = merge.find(' ');
    if (space == std::string_view::npos || space == 0 || space + 1 == merge.size() ||
        merge.find(' ', space + 1) != std::string_view::npos) {
      EMBER_LOG(Error, "GGUF: merge %zu ('%.*s') is not two tokens separated by a space", rank,
                static_cast<int>(merge.size()), merge.data());
      return Error::InvalidArgument;
    }
    const auto left = id_of_spelling.find(merge.substr(0, space));
    const auto right = id_of_spelling.find(merge.substr(space + 1));
    if (left == id_of_spelling.end() || right == id_of_spelling.end()) {
      EMBER_LOG(Error, "GGUF: merge %zu ('%.*s') names a token not in the vocabulary", rank,
                static_cast<int>(merge.size()), merge.data());
      return Error::InvalidArgument;
    }
    data.merges.emplace_back(left->second, right->second);
  }

  EMBER_TRY(read_token_id(metadata, "tokenizer.ggml.bos_token_id", vocab_size, &data.bos_id));
  EMBER_TRY(read_token_id(metadata, "tokenizer.ggml.eos_token_id", vocab_size, &data.eos_id));
  EMBER_TRY(read_token_id(metadata, "tokenizer.ggml.padding_token_id", vocab_size, &data.pad_id));
  EMBER_TRY(read_token_id(metadata, "tokenizer.ggml.unknown_token_id", vocab_size, &data.unk_id));
  EMBER_TRY(read_flag(metadata, "tokenizer.ggml.add_bos_token", &data.add_bos));
  EMBER_TRY(read_flag(metadata, "tokenizer.ggml.add_eos_token", &data.add_eos));
  Result<std::string> chat_template = metadata.get_string("tokenizer.chat_template", false);
  if (chat_template.ok()) {
    data.chat_template = std::move(chat_template.get());
  } else if (chat_template.error() != Error::NotFound) {
    return chat_template.error();
  }
  return data;
}

}  // namespace llm
}  // namespace ember
