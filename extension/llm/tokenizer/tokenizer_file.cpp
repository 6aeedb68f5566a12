#include "extension/llm/tokenizer/tokenizer_file.h"

#include <cstring>

#include "extension/llm/tokenizer/byte_reader.h"
#include "runtime/core/log.h"

namespace ember {
namespace llm {
namespace {

constexpr uint32_t kFlagAddBos = 1u << 0;
constexpr uint32_t kFlagAddEos = 1u << 1;

// A count of items of at least `item_size` bytes each that the rest holds.
bool read_count(ByteReader* reader, uint32_t* count, size_t item_size) {
  return reader->read(count) && *count <= reader->remaining() / item_size;
}

Error malformed(const ByteReader& reader, const char* what) {
  EMBER_LOG(Error, "tokenizer file: malformed at byte %zu: %s", reader.position(), what);
  return Error::InvalidArgument;
}

void put_u32(uint32_t value, std::string* out) { out->append(reinterpret_cast<const char*>(&value), 4); }
void put_i32(int32_t value, std::string* out) { out->append(reinterpret_cast<const char*>(&value), 4); }
void put_string(const std::string& value, std::string* out) {
  put_u32(static_cast<uint32_t>(value.size()), out);
  out->append(value);
}

}  // namespace

Result<TokenizerData> parse_tokenizer_file(const void* bytes, size_t size) {
  ByteReader reader(bytes, size);
  char magic[4];
  if (!reader.bytes(magic, 4) || std::memcmp(magic, kTokenizerFileMagic, 4) != 0) {
    EMBER_LOG(Error, "tokenizer file: no EMTK magic");
    return Error::InvalidArgument;
  }
  uint32_t version = 0;
  if (!reader.read<uint32_t>(&version)) return malformed(reader, "header cut off");
  if (version != kTokenizerFileVersion) {
    EMBER_LOG(Error, "tokenizer file: version %u is not supported (this build reads %u)", version,
              kTokenizerFileVersion);
    return Error::NotSupported;
  }
  TokenizerData data;
  uint32_t flags = 0;
  if (!reader.read<uint32_t>(&flags) || !reader.read<int32_t>(&data.bos_id) || !reader.read<int32_t>(&data.eos_id) ||
      !reader.read<int32_t>(&data.pad_id) || !reader.read<int32_t>(&data.unk_id)) {
    return malformed(reader, "header cut off");
  }
  if ((flags & ~(kFlagAddBos | kFlagAddEos)) != 0) return malformed(reader, "unknown flags");
  data.add_bos = (flags & kFlagAddBos) != 0;
  data.add_eos = (flags & kFlagAddEos) != 0;
  std::string pre;
  if (!reader.string<uint32_t>(&pre)) return malformed(reader, "pre-tokenizer name cut off");
  if (!pre_tokenizer_from_name(pre, &data.pre_tokenizer)) {
    EMBER_LOG(Error, "tokenizer file: pre-tokenizer '%s' is not supported", pre.c_str());
    return Error::NotSupported;
  }

  // Tokens: end offsets, then the bytes, then one type byte each.
  uint32_t vocab_size = 0;
  if (!read_count(&reader, &vocab_size, 5) || vocab_size == 0 || vocab_size > INT32_MAX) {
    return malformed(reader, "bad vocabulary size");
  }
  std::vector<uint32_t> ends(vocab_size);
  if (!reader.bytes(ends.data(), 4 * static_cast<size_t>(vocab_size))) return malformed(reader, "token offsets cut off");
  const size_t blob_start = reader.position();
  const uint8_t* base = static_cast<const uint8_t*>(bytes);
  for (uint32_t id = 1; id < vocab_size; ++id) {
    if (ends[id] < ends[id - 1]) return malformed(reader, "token offsets decrease");
  }
  if (ends.back() > reader.remaining()) return malformed(reader, "token bytes cut off");
  data.tokens.resize(vocab_size);
  uint32_t begin = 0;
  for (uint32_t id = 0; id < vocab_size; ++id) {
    data.tokens[id].assign(reinterpret_cast<const char*>(base + blob_start + begin), ends[id] - begin);
    begin = ends[id];
  }
  reader.skip(ends.back());  // fits: checked above
  std::vector<uint8_t> types(vocab_size);
  if (!reader.bytes(types.data(), vocab_size)) return malformed(reader, "token types cut off");
  data.types.reserve(vocab_size);
  for (const uint8_t type : types) {
    if (type > static_cast<uint8_t>(TokenType::Byte)) return malformed(reader, "unknown token type");
    data.types.push_back(static_cast<TokenType>(type));
  }

  uint32_t merge_count = 0;
  if (!read_count(&reader, &merge_count, 8)) return malformed(reader, "bad merge count");
  data.merges.resize(merge_count);
  for (auto& [left, right] : data.merges) {
    uint32_t a = 0;
    uint32_t b = 0;
    reader.read<uint32_t>(&a);  // fits: counted above
    reader.read<uint32_t>(&b);
    if (a >= vocab_size || b >= vocab_size) return malformed(reader, "merge names a token out of range");
    left = static_cast<int32_t>(a);
    right = static_cast<int32_t>(b);
  }

  uint32_t added_count = 0;
  if (!read_count(&reader, &added_count, 9)) return malformed(reader, "bad added-token count");
  data.added_tokens.resize(added_count);
  for (AddedToken& token : data.added_tokens) {
    uint32_t id = 0;
    uint8_t special = 0;
    if (!reader.read<uint32_t>(&id) || !reader.read<uint8_t>(&special) || !reader.string<uint32_t>(&token.text)) {
      return malformed(reader, "added token cut off");
    }
    if (id >= vocab_size || special > 1) return malformed(reader, "bad added token");
    token.id = static_cast<int32_t>(id);
    token.special = special != 0;
  }
  if (!reader.string<uint32_t>(&data.chat_template)) return malformed(reader, "chat template cut off");
  if (reader.remaining() != 0) return malformed(reader, "bytes after the end");
  return data;
}

std::string serialize_tokenizer_file(const TokenizerData& data) {
  std::string out(kTokenizerFileMagic, 4);
  put_u32(kTokenizerFileVersion, &out);
  put_u32((data.add_bos ? kFlagAddBos : 0) | (data.add_eos ? kFlagAddEos : 0), &out);
  put_i32(data.bos_id, &out);
  put_i32(data.eos_id, &out);
  put_i32(data.pad_id, &out);
  put_i32(data.unk_id, &out);
  put_string(pre_tokenizer_name(data.pre_tokenizer), &out);
  put_u32(static_cast<uint32_t>(data.tokens.size()), &out);
  uint32_t end = 0;
  for (const std::string& token : data.tokens) {
    end += static_cast<uint32_t>(token.size());
    put_u32(end, &out);
  }
  for (const std::string& token : data.tokens) out.append(token);
  for (size_t id = 0; id < data.tokens.size(); ++id) {
    out.push_back(static_cast<char>(data.types.empty() ? TokenType::Undefined : data.types[id]));
  }
  put_u32(static_cast<uint32_t>(data.merges.size()), &out);
  for (const auto& [left, right] : data.merges) {
    put_u32(static_cast<uint32_t>(left), &out);
    put_u32(static_cast<uint32_t>(right), &out);
  }
  put_u32(static_cast<uint32_t>(data.added_tokens.size()), &out);
  for (const AddedToken& token : data.added_tokens) {
    put_u32(static_cast<uint32_t>(token.id), &out);
    out.push_back(token.special ? 1 : 0);
    put_string(token.text, &out);
  }
  put_string(data.chat_template, &out);
  return out;
}

}  // namespace llm
}  // namespace ember
