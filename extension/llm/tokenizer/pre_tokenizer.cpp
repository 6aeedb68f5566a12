#include "extension/llm/tokenizer/pre_tokenizer.h"

#include <array>

#include "extension/llm/tokenizer/unicode.h"

namespace ember {
namespace llm {
namespace {

struct Char {
  CharClass cls;
  uint32_t code_point;
  uint32_t length;
};

struct AsciiClasses {
  std::array<CharClass, 128> table{};
  AsciiClasses() {
    for (uint32_t c = 0; c < 128; ++c) table[c] = char_class(c);
  }
};

class Scanner {
 public:
  Scanner(std::string_view text, std::vector<Word>* words)
      : data_(reinterpret_cast<const unsigned char*>(text.data())), size_(text.size()), words_(words) {}

  Char at(size_t pos) const {
    static const AsciiClasses ascii;
    const unsigned char byte = data_[pos];
    if (byte < 0x80) return {ascii.table[byte], byte, 1};
    const Utf8Step step = decode_utf8(data_ + pos, size_ - pos);
    return {char_class(step.code_point), step.code_point, step.length};
  }

  size_t size() const { return size_; }
  void emit(size_t offset, size_t length) { words_->push_back({offset, length}); }

  // Length of 's 't 're 've 'm 'll 'd at `pos` (an apostrophe), else 0.
  size_t contraction(size_t pos, size_t end) const {
    if (pos + 1 >= end) return 0;
    const unsigned char a = data_[pos + 1];
    if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
    if (pos + 2 >= end) return 0;
    const unsigned char b = data_[pos + 2];
    if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return 3;
    return 0;
  }

  // GPT-2's regex over [begin, end), which the caller cut at character bounds.
  void split_gpt2(size_t begin, size_t end) {
    size_t i = begin;
    while (i < end) {
      const Char c = at(i);
      if (c.code_point == '\'') {
        const size_t n = contraction(i, end);
        if (n != 0) {
          emit(i, n);
          i += n;
          continue;
        }
      }
      // ` ?\p{L}+`, ` ?\p{N}+`, ` ?[^\s\p{L}\p{N}]+`: an optional U+0020, then a
      // run of one class.
      CharClass run_class = c.cls;
      size_t run_start = i;
      if (c.code_point == ' ' && i + 1 < end) {
        const Char next = at(i + 1);
        if (next.cls != CharClass::Space) {
          run_class = next.cls;
          run_start = i + 1;
        }
      }
      if (run_class != CharClass::Space) {
        size_t k = run_start;
        while (k < end) {
          const Char d = at(k);
          if (d.cls != run_class) break;
          k += d.length;
        }
        emit(i, k - i);
        i = k;
        continue;
      }
      // `\s+(?!\S)|\s+`: a whitespace run, less its last character when a
      // non-space follows it (that one joins the next word), unless it is the
      // run's only character.
      size_t k = i;
      size_t last = i;
      while (k < end) {
        const Char d = at(k);
        if (d.cls != CharClass::Space) break;
        last = k;
        k += d.length;
      }
      const size_t stop = (k == end || last == i) ? k : last;
      emit(i, stop - i);
      i = stop;
    }
  }

  // Each number character alone; GPT-2's split between them.
  void split_smollm() {
    size_t segment = 0;
    size_t i = 0;
    while (i < size_) {
      const Char c = at(i);
      if (c.cls == CharClass::Number) {
        split_gpt2(segment, i);
        emit(i, c.length);
        segment = i + c.length;
      }
      i += c.length;
    }
    split_gpt2(segment, size_);
  }

 private:
  const unsigned char* data_;
  size_t size_;
  std::vector<Word>* words_;
};

}  // namespace

bool pre_tokenizer_from_name(std::string_view name, PreTokenizerKind* kind) {
  if (name == "gpt2") {
    *kind = PreTokenizerKind::Gpt2;
    return true;
  }
  if (name == "smollm") {
    *kind = PreTokenizerKind::SmolLm;
    return true;
  }
  return false;
}

const char* pre_tokenizer_name(PreTokenizerKind kind) {
  switch (kind) {
    case PreTokenizerKind::Gpt2: return "gpt2";
    case PreTokenizerKind::SmolLm: return "smollm";
  }
  return "?";
}

void pre_tokenize(PreTokenizerKind kind, std::string_view text, std::vector<Word>* words) {
  Scanner scanner(text, words);
  if (kind == PreTokenizerKind::SmolLm) {
    scanner.split_smollm();
  } else {
    scanner.split_gpt2(0, text.size());
  }
}

}  // namespace llm
}  // namespace ember
