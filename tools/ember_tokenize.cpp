// ember_tokenize: look inside a tokenizer (a GGUF file or an Ember .tokenizer
// file) from the shell: encode text, decode ids, format a chat, convert a GGUF
// into a .tokenizer file, time encoding.
//
//   ember_tokenize model.gguf --text "Hello world"          ids on one line
//   ember_tokenize model.gguf --text "Hello" --pieces        one token a line
//   ember_tokenize model.gguf --decode 19556,905
//   ember_tokenize model.gguf --chat user:Hi --generation-prompt
//   ember_tokenize model.gguf --write model.tokenizer
//   ember_tokenize model.gguf --text-file corpus.txt --bench 20
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "extension/llm/tokenizer/bpe_tokenizer.h"
#include "extension/llm/tokenizer/byte_level.h"
#include "extension/llm/tokenizer/tokenizer_file.h"
#include "runtime/core/log.h"

using namespace ember;
using namespace ember::llm;

namespace {

void usage() {
  std::fprintf(stderr,
               "usage: ember_tokenize FILE [--text TEXT | --text-file PATH] [--no-special] [--pieces]\n"
               "                           [--bench N]\n"
               "       ember_tokenize FILE --decode ID,ID,...\n"
               "       ember_tokenize FILE --chat ROLE:CONTENT [--chat ...] [--generation-prompt]\n"
               "       ember_tokenize FILE --info\n"
               "       ember_tokenize FILE --write OUT.tokenizer\n"
               "FILE is a GGUF file or an Ember .tokenizer file.\n");
}

bool read_file(const char* path, std::string* out) {
  std::FILE* file = std::fopen(path, "rb");
  if (file == nullptr) return false;
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0) out->append(buffer, n);
  const bool ok = std::ferror(file) == 0;
  std::fclose(file);
  return ok;
}

bool write_file(const char* path, const std::string& bytes) {
  std::FILE* file = std::fopen(path, "wb");
  if (file == nullptr) return false;
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  return std::fclose(file) == 0 && ok;
}

// A token's bytes as GPT-2's alphabet spells them ("Ġworld").
void print_piece(const BpeTokenizer& tokenizer, int32_t id) {
  const std::string spelled = byte_level_encode(tokenizer.token_bytes(id));
  std::printf("%d\t%s%s\n", id, spelled.c_str(), tokenizer.is_special(id) ? "\t(special)" : "");
}

int print_ids(const std::vector<int32_t>& ids) {
  for (size_t i = 0; i < ids.size(); ++i) std::printf(i == 0 ? "%d" : " %d", ids[i]);
  std::printf("\n");
  return 0;
}

bool parse_ids(const char* text, std::vector<int32_t>* ids) {
  const char* p = text;
  while (*p != '\0') {
    char* end = nullptr;
    const long value = std::strtol(p, &end, 10);
    if (end == p || value < INT32_MIN || value > INT32_MAX) return false;
    ids->push_back(static_cast<int32_t>(value));
    p = end;
    while (*p == ',' || *p == ' ') ++p;
  }
  return true;
}

void print_info(const BpeTokenizer& tokenizer) {
  std::printf("vocabulary: %zu tokens, %zu merges, %zu added tokens\n", tokenizer.vocab_size(),
              tokenizer.data().merges.size(), tokenizer.data().added_tokens.size());
  std::printf("pre-tokenizer: %s\n", pre_tokenizer_name(tokenizer.pre_tokenizer()));
  std::printf("bos %d, eos %d, pad %d, unk %d (-1: none); add bos %d, add eos %d\n", tokenizer.bos_id(),
              tokenizer.eos_id(), tokenizer.pad_id(), tokenizer.unk_id(), tokenizer.add_bos(), tokenizer.add_eos());
  const ChatTemplate* chat = tokenizer.chat_template();
  if (tokenizer.chat_template_source().empty()) {
    std::printf("chat template: none\n");
  } else if (chat == nullptr) {
    std::printf("chat template: not recognised\n");
  } else {
    std::printf("chat template: %s\n", chat_template_kind_name(chat->kind));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    usage();
    return 2;
  }
  const char* path = argv[1];
  std::string text;
  bool have_text = false;
  bool allow_special = true;
  bool pieces = false;
  bool info = false;
  bool generation_prompt = false;
  int bench_runs = 0;
  const char* decode_arg = nullptr;
  const char* write_path = nullptr;
  std::vector<ChatMessage> chat;
  for (int i = 2; i < argc; ++i) {
    const char* arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (std::strcmp(arg, "--text") == 0 && has_value) {
      text = argv[++i];
      have_text = true;
    } else if (std::strcmp(arg, "--text-file") == 0 && has_value) {
      if (!read_file(argv[++i], &text)) {
        std::fprintf(stderr, "ember_tokenize: cannot read %s\n", argv[i]);
        return 1;
      }
      have_text = true;
    } else if (std::strcmp(arg, "--decode") == 0 && has_value) {
      decode_arg = argv[++i];
    } else if (std::strcmp(arg, "--chat") == 0 && has_value) {
      const char* message = argv[++i];
      const char* colon = std::strchr(message, ':');
      if (colon == nullptr) {
        std::fprintf(stderr, "ember_tokenize: --chat takes ROLE:CONTENT\n");
        return 2;
      }
      chat.push_back({std::string(message, colon), std::string(colon + 1)});
    } else if (std::strcmp(arg, "--write") == 0 && has_value) {
      write_path = argv[++i];
    } else if (std::strcmp(arg, "--bench") == 0 && has_value) {
      bench_runs = std::atoi(argv[++i]);
    } else if (std::strcmp(arg, "--no-special") == 0) {
      allow_special = false;
    } else if (std::strcmp(arg, "--pieces") == 0) {
      pieces = true;
    } else if (std::strcmp(arg, "--generation-prompt") == 0) {
      generation_prompt = true;
    } else if (std::strcmp(arg, "--info") == 0) {
      info = true;
    } else {
      usage();
      return 2;
    }
  }

  Result<std::unique_ptr<BpeTokenizer>> loaded = BpeTokenizer::load(path);
  if (!loaded.ok()) {
    std::fprintf(stderr, "ember_tokenize: cannot load %s: %s\n", path, last_error_message());
    return 1;
  }
  BpeTokenizer& tokenizer = *loaded.get();

  if (info) print_info(tokenizer);
  if (write_path != nullptr) {
    const std::string bytes = serialize_tokenizer_file(tokenizer.data());
    if (!write_file(write_path, bytes)) {
      std::fprintf(stderr, "ember_tokenize: cannot write %s\n", write_path);
      return 1;
    }
    std::printf("wrote %s (%zu bytes)\n", write_path, bytes.size());
  }
  if (decode_arg != nullptr) {
    std::vector<int32_t> ids;
    if (!parse_ids(decode_arg, &ids)) {
      std::fprintf(stderr, "ember_tokenize: --decode takes ids separated by commas\n");
      return 2;
    }
    Result<std::string> decoded = tokenizer.decode(ids);
    if (!decoded.ok()) {
      std::fprintf(stderr, "ember_tokenize: %s\n", last_error_message());
      return 1;
    }
    std::fwrite(decoded->data(), 1, decoded->size(), stdout);
    std::printf("\n");
  }
  if (!chat.empty()) {
    Result<std::string> formatted = tokenizer.apply_chat_template(chat, generation_prompt);
    if (!formatted.ok()) {
      std::fprintf(stderr, "ember_tokenize: %s\n", last_error_message());
      return 1;
    }
    text = formatted.get();
    have_text = true;
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::printf("\n");
  }
  if (!have_text) return 0;

  std::vector<int32_t> ids;
  if (bench_runs > 0) {
    // The first run fills the word cache, as a long-lived tokenizer's is.
    tokenizer.encode(text, allow_special, &ids);
    const auto start = std::chrono::steady_clock::now();
    for (int run = 0; run < bench_runs; ++run) tokenizer.encode(text, allow_special, &ids);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("encoded %zu bytes into %zu tokens %d times: %.1f MB/s\n", text.size(), ids.size(), bench_runs,
                static_cast<double>(text.size()) * bench_runs / seconds / 1e6);
    return 0;
  }
  tokenizer.encode(text, allow_special, &ids);
  if (!pieces) return print_ids(ids);
  for (const int32_t id : ids) print_piece(tokenizer, id);
  return 0;
}
