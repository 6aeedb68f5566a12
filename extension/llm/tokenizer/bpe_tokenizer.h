// Byte-level BPE tokenizer (GPT-2's scheme, as GGUF's "gpt2" model and Hugging
// Face's ByteLevel BPE run it): added tokens are matched whole first, the rest
// of the text is cut into words by the pre-tokenizer, and each word's bytes are
// merged by rank. Gives the ids Hugging Face `tokenizers` gives for the same
// vocabulary, merges and pre-tokenizer.
//
// Not thread-safe: encode keeps a cache of words it has seen. Use one
// tokenizer per thread (loading one takes tens of milliseconds).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "extension/llm/tokenizer/chat_template.h"
#include "extension/llm/tokenizer/tokenizer_data.h"
#include "runtime/core/result.h"

namespace ember {
namespace llm {

class BpeTokenizer {
 public:
  // Loads a GGUF file or an Ember tokenizer file (tokenizer_file.h), told
  // apart by their magic.
  static Result<std::unique_ptr<BpeTokenizer>> load(const char* path);
  // Checks `data` (ids in range, every merge's result in the vocabulary,
  // added tokens not empty) and builds the lookup tables.
  static Result<std::unique_ptr<BpeTokenizer>> create(TokenizerData data);

  // The ids of `text`. With allow_special, special added tokens written in the
  // text (<|im_start|>) become their ids; without, they are encoded as plain
  // text (Hugging Face's encode_special_tokens). A byte the vocabulary has no
  // token for is dropped, as Hugging Face's BPE without an unknown token does.
  std::vector<int32_t> encode(std::string_view text, bool allow_special = true);
  void encode(std::string_view text, bool allow_special, std::vector<int32_t>* ids);

  // The bytes `ids` stand for (InvalidArgument for an id out of range). With
  // skip_special, special added tokens contribute nothing.
  Result<std::string> decode(const std::vector<int32_t>& ids, bool skip_special = false) const;

  size_t vocab_size() const { return data_.tokens.size(); }
  // The bytes of one token; `id` must be in range.
  const std::string& token_bytes(int32_t id) const { return data_.tokens[static_cast<size_t>(id)]; }
  bool is_special(int32_t id) const;
  // The id of the token whose bytes are `bytes`, or kNoToken.
  int32_t token_id(std::string_view bytes) const;

  int32_t bos_id() const { return data_.bos_id; }
  int32_t eos_id() const { return data_.eos_id; }
  int32_t pad_id() const { return data_.pad_id; }
  int32_t unk_id() const { return data_.unk_id; }
  bool add_bos() const { return data_.add_bos; }
  bool add_eos() const { return data_.add_eos; }
  PreTokenizerKind pre_tokenizer() const { return data_.pre_tokenizer; }
  const TokenizerData& data() const { return data_; }

  // The chat template's Jinja source (empty if the file has none), and the
  // conversation it renders: NotFound without a template, NotSupported for a
  // template Ember does not recognise (both logged).
  const std::string& chat_template_source() const { return data_.chat_template; }
  Result<std::string> apply_chat_template(const std::vector<ChatMessage>& messages,
                                          bool add_generation_prompt) const;
  // The recognised template, or nullptr.
  const ChatTemplate* chat_template() const { return chat_template_ok_ ? &chat_template_ : nullptr; }

 private:
  explicit BpeTokenizer(TokenizerData data) : data_(std::move(data)) {}
  Error build();

  void encode_ordinary(std::string_view text, std::vector<int32_t>* ids);
  void encode_word(std::string_view word, std::vector<int32_t>* ids);
  void merge_word(std::string_view word, std::vector<int32_t>* ids);

  struct MergeEntry {
    uint64_t key;  // left id << 32 | right id; kEmptyKey marks a free slot
    uint32_t rank;
    int32_t merged;
  };
  const MergeEntry* find_merge(int32_t left, int32_t right) const;

  struct Symbol {
    int32_t id;
    int32_t prev;
    int32_t next;
  };
  struct Candidate {
    uint32_t rank;
    int32_t position;
    int32_t merged;
  };

  TokenizerData data_;
  std::unordered_map<std::string, int32_t> id_of_bytes_;
  int32_t byte_token_[256];
  std::vector<MergeEntry> merge_table_;  // open addressing, power-of-two size
  uint64_t merge_mask_ = 0;
  std::vector<uint8_t> special_flag_;   // per id: a special added token
  std::vector<AddedToken> added_tokens_;  // longest first
  bool added_first_byte_[256];            // a byte some added token starts with
  ChatTemplate chat_template_;
  bool chat_template_ok_ = false;

  // Scratch reused across calls, and the word cache (ids of words seen,
  // packed into one array).
  std::vector<Word> words_;
  std::vector<Symbol> symbols_;
  std::vector<Candidate> heap_;
  struct CachedWord {
    uint32_t offset;
    uint32_t count;
  };
  std::unordered_map<std::string, CachedWord> cache_;
  std::vector<int32_t> cache_ids_;
};

}  // namespace llm
}  // namespace ember
