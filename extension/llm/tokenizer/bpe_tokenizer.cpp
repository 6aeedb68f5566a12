#include "extension/llm/tokenizer/bpe_tokenizer.h"

#include <algorithm>
#include <cstring>

#include "extension/llm/tokenizer/byte_reader.h"
#include "extension/llm/tokenizer/gguf_reader.h"
#include "extension/llm/tokenizer/gguf_tokenizer.h"
#include "extension/llm/tokenizer/tokenizer_file.h"
#include "runtime/core/log.h"

namespace ember {
namespace llm {
namespace {

constexpr uint64_t kEmptyKey = ~uint64_t{0};
// Words longer than this are merged every time rather than cached (long words
// rarely repeat), and the cache starts over when it holds this many words.
constexpr size_t kMaxCachedWordBytes = 64;
constexpr size_t kMaxCachedWords = size_t{1} << 16;

uint64_t pair_key(int32_t left, int32_t right) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(left)) << 32) | static_cast<uint32_t>(right);
}

uint64_t hash_key(uint64_t key) { return key * 0x9E3779B97F4A7C15ull; }

// Hugging Face's merge order: lowest rank first, then leftmost.
bool later_candidate(uint32_t rank_a, int32_t pos_a, uint32_t rank_b, int32_t pos_b) {
  return rank_a != rank_b ? rank_a > rank_b : pos_a > pos_b;
}

bool id_in_range(int32_t id, size_t vocab_size, bool optional) {
  if (id == kNoToken) return optional;
  return id >= 0 && static_cast<size_t>(id) < vocab_size;
}

}  // namespace

Result<std::unique_ptr<BpeTokenizer>> BpeTokenizer::load(const char* path) {
  EMBER_ASSIGN_OR_RETURN(const MappedFile bytes, map_file(path, "tokenizer"));
  if (bytes.size() < 4) {
    EMBER_LOG(Error, "tokenizer: %s is too short to be a GGUF or Ember tokenizer file", path);
    return Error::InvalidArgument;
  }
  const char* magic = static_cast<const char*>(bytes.data());
  if (std::memcmp(magic, "GGUF", 4) == 0) {
    EMBER_ASSIGN_OR_RETURN(GgufMetadata metadata, GgufMetadata::parse(bytes.data(), bytes.size()));
    EMBER_ASSIGN_OR_RETURN(TokenizerData data, tokenizer_data_from_gguf(metadata));
    return create(std::move(data));
  }
  if (std::memcmp(magic, kTokenizerFileMagic, 4) == 0) {
    EMBER_ASSIGN_OR_RETURN(TokenizerData data, parse_tokenizer_file(bytes.data(), bytes.size()));
    return create(std::move(data));
  }
  EMBER_LOG(Error, "tokenizer: %s is neither a GGUF nor an Ember tokenizer file (magic)", path);
  return Error::InvalidArgument;
}

Result<std::unique_ptr<BpeTokenizer>> BpeTokenizer::create(TokenizerData data) {
  std::unique_ptr<BpeTokenizer> tokenizer(new BpeTokenizer(std::move(data)));
  EMBER_TRY(tokenizer->build());
  return tokenizer;
}

Error BpeTokenizer::build() {
  const size_t vocab_size = data_.tokens.size();
  EMBER_CHECK_OR_RETURN(vocab_size > 0 && vocab_size <= static_cast<size_t>(INT32_MAX), Error::InvalidArgument,
                        "tokenizer: a vocabulary of %zu tokens", vocab_size);
  EMBER_CHECK_OR_RETURN(data_.types.empty() || data_.types.size() == vocab_size, Error::InvalidArgument,
                        "tokenizer: %zu token types for %zu tokens", data_.types.size(), vocab_size);
  EMBER_CHECK_OR_RETURN(id_in_range(data_.bos_id, vocab_size, true) && id_in_range(data_.eos_id, vocab_size, true) &&
                            id_in_range(data_.pad_id, vocab_size, true) && id_in_range(data_.unk_id, vocab_size, true),
                        Error::InvalidArgument, "tokenizer: a bos/eos/pad/unk id is out of range");

  id_of_bytes_.reserve(vocab_size);
  for (size_t id = 0; id < vocab_size; ++id) {
    id_of_bytes_[data_.tokens[id]] = static_cast<int32_t>(id);  // a repeated token: the last id
  }
  for (int byte = 0; byte < 256; ++byte) {
    const char c = static_cast<char>(byte);
    byte_token_[byte] = token_id(std::string_view(&c, 1));
  }

  size_t table_size = 16;
  while (table_size < 2 * data_.merges.size()) table_size *= 2;
  merge_table_.assign(table_size, MergeEntry{kEmptyKey, 0, 0});
  merge_mask_ = table_size - 1;
  std::string merged;
  for (size_t rank = 0; rank < data_.merges.size(); ++rank) {
    const auto [left, right] = data_.merges[rank];
    EMBER_CHECK_OR_RETURN(id_in_range(left, vocab_size, false) && id_in_range(right, vocab_size, false),
                          Error::InvalidArgument, "tokenizer: merge %zu names a token out of range", rank);
    merged = data_.tokens[static_cast<size_t>(left)];
    merged += data_.tokens[static_cast<size_t>(right)];
    const int32_t merged_id = token_id(merged);
    EMBER_CHECK_OR_RETURN(merged_id != kNoToken, Error::InvalidArgument,
                          "tokenizer: merge %zu (%d + %d) makes a token the vocabulary lacks", rank, left, right);
    const uint64_t key = pair_key(left, right);
    uint64_t slot = (hash_key(key) >> 20) & merge_mask_;
    while (merge_table_[slot].key != kEmptyKey && merge_table_[slot].key != key) slot = (slot + 1) & merge_mask_;
    // A repeated pair keeps its last rank, as Hugging Face's merge map does.
    merge_table_[slot] = MergeEntry{key, static_cast<uint32_t>(rank), merged_id};
  }

  special_flag_.assign(vocab_size, 0);
  std::memset(added_first_byte_, 0, sizeof(added_first_byte_));
  for (const AddedToken& token : data_.added_tokens) {
    EMBER_CHECK_OR_RETURN(id_in_range(token.id, vocab_size, false) && !token.text.empty(), Error::InvalidArgument,
                          "tokenizer: added token %d is empty or out of range", token.id);
    if (token.special) special_flag_[static_cast<size_t>(token.id)] = 1;
    added_first_byte_[static_cast<unsigned char>(token.text[0])] = true;
    added_tokens_.push_back(token);
  }
  std::stable_sort(added_tokens_.begin(), added_tokens_.end(),
                   [](const AddedToken& a, const AddedToken& b) { return a.text.size() > b.text.size(); });

  chat_template_ok_ = !data_.chat_template.empty() && recognise_chat_template(data_.chat_template, &chat_template_);
  return Error::Ok;
}

const BpeTokenizer::MergeEntry* BpeTokenizer::find_merge(int32_t left, int32_t right) const {
  const uint64_t key = pair_key(left, right);
  uint64_t slot = (hash_key(key) >> 20) & merge_mask_;
  while (true) {
    const MergeEntry& entry = merge_table_[slot];
    if (entry.key == key) return &entry;
    if (entry.key == kEmptyKey) return nullptr;
    slot = (slot + 1) & merge_mask_;
  }
}

int32_t BpeTokenizer::token_id(std::string_view bytes) const {
  const auto it = id_of_bytes_.find(std::string(bytes));
  return it == id_of_bytes_.end() ? kNoToken : it->second;
}

bool BpeTokenizer::is_special(int32_t id) const {
  return id >= 0 && static_cast<size_t>(id) < special_flag_.size() && special_flag_[static_cast<size_t>(id)] != 0;
}

std::vector<int32_t> BpeTokenizer::encode(std::string_view text, bool allow_special) {
  std::vector<int32_t> ids;
  encode(text, allow_special, &ids);
  return ids;
}

void BpeTokenizer::encode(std::string_view text, bool allow_special, std::vector<int32_t>* ids) {
  ids->clear();
  ids->reserve(text.size() / 3 + 1);
  // Added tokens in one leftmost-longest pass, as Hugging Face's
  // AddedVocabulary finds them; a special one that is not allowed stays part
  // of the text around it (and hides the tokens inside it, as there).
  size_t gap_start = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    if (!added_first_byte_[static_cast<unsigned char>(text[pos])]) {
      ++pos;
      continue;
    }
    const AddedToken* match = nullptr;
    for (const AddedToken& token : added_tokens_) {
      if (text.size() - pos >= token.text.size() &&
          std::memcmp(text.data() + pos, token.text.data(), token.text.size()) == 0) {
        match = &token;
        break;
      }
    }
    if (match == nullptr) {
      ++pos;
      continue;
    }
    if (match->special && !allow_special) {
      pos += match->text.size();
      continue;
    }
    if (pos > gap_start) encode_ordinary(text.substr(gap_start, pos - gap_start), ids);
    ids->push_back(match->id);
    pos += match->text.size();
    gap_start = pos;
  }
  if (text.size() > gap_start) encode_ordinary(text.substr(gap_start), ids);
}

void BpeTokenizer::encode_ordinary(std::string_view text, std::vector<int32_t>* ids) {
  words_.clear();
  pre_tokenize(data_.pre_tokenizer, text, &words_);
  for (const Word& word : words_) encode_word(text.substr(word.offset, word.length), ids);
}

void BpeTokenizer::encode_word(std::string_view word, std::vector<int32_t>* ids) {
  if (word.size() == 1) {
    const int32_t id = byte_token_[static_cast<unsigned char>(word[0])];
    if (id != kNoToken) ids->push_back(id);
    return;
  }
  if (word.size() > kMaxCachedWordBytes) {
    merge_word(word, ids);
    return;
  }
  std::string key(word);
  const auto hit = cache_.find(key);
  if (hit != cache_.end()) {
    const int32_t* cached = cache_ids_.data() + hit->second.offset;
    ids->insert(ids->end(), cached, cached + hit->second.count);
    return;
  }
  const size_t before = ids->size();
  merge_word(word, ids);
  if (cache_.size() >= kMaxCachedWords) {
    cache_.clear();
    cache_ids_.clear();
  }
  const auto offset = static_cast<uint32_t>(cache_ids_.size());
  cache_ids_.insert(cache_ids_.end(), ids->begin() + static_cast<std::ptrdiff_t>(before), ids->end());
  cache_.emplace(std::move(key), CachedWord{offset, static_cast<uint32_t>(ids->size() - before)});
}

// Hugging Face's Word::merge_all: candidates for every adjacent pair in a
// heap, lowest rank (then leftmost) first; a candidate whose pair has changed
// since it was pushed is dropped when popped.
void BpeTokenizer::merge_word(std::string_view word, std::vector<int32_t>* ids) {
  symbols_.clear();
  for (const char c : word) {
    const int32_t id = byte_token_[static_cast<unsigned char>(c)];
    if (id == kNoToken) continue;  // no token for this byte: dropped
    const auto index = static_cast<int32_t>(symbols_.size());
    symbols_.push_back(Symbol{id, index - 1, -1});
    if (index > 0) symbols_[static_cast<size_t>(index - 1)].next = index;
  }
  const auto later = [](const Candidate& a, const Candidate& b) {
    return later_candidate(a.rank, a.position, b.rank, b.position);
  };
  const auto push = [&](int32_t position, int32_t left, int32_t right) {
    const MergeEntry* merge = find_merge(left, right);
    if (merge == nullptr) return;
    heap_.push_back(Candidate{merge->rank, position, merge->merged});
    std::push_heap(heap_.begin(), heap_.end(), later);
  };
  heap_.clear();
  for (size_t i = 0; i + 1 < symbols_.size(); ++i) {
    push(static_cast<int32_t>(i), symbols_[i].id, symbols_[i + 1].id);
  }
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const Candidate top = heap_.back();
    heap_.pop_back();
    Symbol& symbol = symbols_[static_cast<size_t>(top.position)];
    if (symbol.id == kNoToken || symbol.next < 0) continue;
    const int32_t next_index = symbol.next;
    Symbol& next = symbols_[static_cast<size_t>(next_index)];
    // As Hugging Face checks it: the pair still merges into the same token.
    const MergeEntry* merge = find_merge(symbol.id, next.id);
    if (merge == nullptr || merge->merged != top.merged) continue;
    symbol.id = top.merged;
    symbol.next = next.next;
    next.id = kNoToken;
    if (symbol.next >= 0) symbols_[static_cast<size_t>(symbol.next)].prev = top.position;
    if (symbol.prev >= 0) push(symbol.prev, symbols_[static_cast<size_t>(symbol.prev)].id, symbol.id);
    if (symbol.next >= 0) push(top.position, symbol.id, symbols_[static_cast<size_t>(symbol.next)].id);
  }
  for (const Symbol& symbol : symbols_) {
    if (symbol.id != kNoToken) ids->push_back(symbol.id);
  }
}

Result<std::string> BpeTokenizer::decode(const std::vector<int32_t>& ids, bool skip_special) const {
  std::string out;
  for (const int32_t id : ids) {
    EMBER_CHECK_OR_RETURN(id >= 0 && static_cast<size_t>(id) < data_.tokens.size(), Error::InvalidArgument,
                          "tokenizer: id %d is out of range (vocabulary of %zu)", id, data_.tokens.size());
    if (skip_special && special_flag_[static_cast<size_t>(id)] != 0) continue;
    out += data_.tokens[static_cast<size_t>(id)];
  }
  return out;
}

Result<std::string> BpeTokenizer::apply_chat_template(const std::vector<ChatMessage>& messages,
                                                      bool add_generation_prompt) const {
  EMBER_CHECK_OR_RETURN(!data_.chat_template.empty(), Error::NotFound, "tokenizer: the file has no chat template");
  EMBER_CHECK_OR_RETURN(chat_template_ok_, Error::NotSupported,
                        "tokenizer: chat template not recognised (Ember formats ChatML, with or without a "
                        "default system prompt); it starts: %.100s",
                        data_.chat_template.c_str());
  return format_chat(chat_template_, messages, add_generation_prompt);
}

}  // namespace llm
}  // namespace ember
