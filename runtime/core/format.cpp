#include "runtime/core/format.h"

#include <cstdint>

namespace ember {
namespace {

// The output buffer, filled up to its last byte, which stays for the NUL.
struct Out {
  char* buf;
  size_t size;
  size_t n = 0;
  void put(char c) {
    if (n + 1 < size) buf[n++] = c;
  }
  void put(const char* s, size_t max) {
    for (size_t i = 0; i < max && s[i] != '\0'; ++i) put(s[i]);
  }
};

void put_unsigned(Out& out, uint64_t v, unsigned base) {
  char digits[24];
  int n = 0;
  do {
    const unsigned d = static_cast<unsigned>(v % base);
    digits[n++] = static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10);
    v /= base;
  } while (v != 0);
  while (n > 0) out.put(digits[--n]);
}

void put_signed(Out& out, int64_t v) {
  if (v < 0) {
    out.put('-');
    put_unsigned(out, 0 - static_cast<uint64_t>(v), 10);
  } else {
    put_unsigned(out, static_cast<uint64_t>(v), 10);
  }
}

// %g with six significant digits, enough for a message: 1.5, 1e+30, -inf.
void put_double(Out& out, double v) {
  if (v != v) return out.put("nan", 3);
  if (v < 0) {
    out.put('-');
    v = -v;
  }
  if (v > 1.7976931348623157e308) return out.put("inf", 3);
  int exp10 = 0;
  if (v != 0) {
    while (v >= 10) v /= 10, ++exp10;
    while (v < 1) v *= 10, --exp10;
  }
  // Six significant digits, rounded; trailing zeros dropped.
  uint64_t digits = static_cast<uint64_t>(v * 100000 + 0.5);
  if (digits >= 1000000) digits /= 10, ++exp10;
  const bool scientific = exp10 < -4 || exp10 >= 6;
  char text[8];
  for (int i = 5; i >= 0; --i) text[i] = static_cast<char>('0' + digits % 10), digits /= 10;
  int last = 5;
  while (last > 0 && text[last] == '0') --last;
  if (scientific) {
    out.put(text[0]);
    if (last > 0) {
      out.put('.');
      out.put(text + 1, static_cast<size_t>(last));
    }
    out.put('e');
    out.put(exp10 < 0 ? '-' : '+');
    if (exp10 < 0) exp10 = -exp10;
    if (exp10 < 10) out.put('0');
    put_unsigned(out, static_cast<uint64_t>(exp10), 10);
    return;
  }
  if (exp10 < 0) {
    out.put('0');
    out.put('.');
    for (int i = -1; i > exp10; --i) out.put('0');
    out.put(text, static_cast<size_t>(last + 1));
    return;
  }
  for (int i = 0; i <= (exp10 > last ? exp10 : last); ++i) {
    if (i == exp10 + 1) out.put('.');
    out.put(i <= 5 ? text[i] : '0');
  }
}

}  // namespace

size_t vformat(char* buf, size_t size, const char* format, va_list args) {
  Out out{buf, size};
  for (const char* p = format; *p != '\0'; ++p) {
    if (*p != '%') {
      out.put(*p);
      continue;
    }
    const char* start = p++;
    size_t precision = SIZE_MAX;
    if (*p == '.') {
      ++p;
      if (*p == '*') {
        const int given = va_arg(args, int);
        precision = given < 0 ? SIZE_MAX : static_cast<size_t>(given);
        ++p;
      } else {
        precision = 0;
        while (*p >= '0' && *p <= '9') precision = precision * 10 + static_cast<size_t>(*p++ - '0');
      }
    }
    int longs = 0;
    bool size_t_arg = false;
    while (*p == 'l') ++longs, ++p;
    if (*p == 'z') size_t_arg = true, ++p;
    switch (*p) {
      case 'd':
      case 'i':
        put_signed(out, longs >= 2   ? va_arg(args, long long)
                        : longs == 1 ? va_arg(args, long)
                        : size_t_arg ? static_cast<int64_t>(va_arg(args, size_t))
                                     : va_arg(args, int));
        break;
      case 'u':
      case 'x': {
        const uint64_t v = longs >= 2   ? va_arg(args, unsigned long long)
                           : longs == 1 ? va_arg(args, unsigned long)
                           : size_t_arg ? va_arg(args, size_t)
                                        : va_arg(args, unsigned);
        put_unsigned(out, v, *p == 'x' ? 16 : 10);
        break;
      }
      case 'p':
        out.put("0x", 2);
        put_unsigned(out, reinterpret_cast<uintptr_t>(va_arg(args, void*)), 16);
        break;
      case 'c':
        out.put(static_cast<char>(va_arg(args, int)));
        break;
      case 's': {
        const char* s = va_arg(args, const char*);
        out.put(s != nullptr ? s : "(null)", precision);
        break;
      }
      case 'g':
        put_double(out, va_arg(args, double));
        break;
      case '%':
        out.put('%');
        break;
      default:  // not a conversion this knows: copy it through
        for (const char* q = start; q <= p && *q != '\0'; ++q) out.put(*q);
        if (*p == '\0') --p;
        break;
    }
  }
  if (size > 0) buf[out.n] = '\0';
  return out.n;
}

size_t format(char* buf, size_t size, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  const size_t n = vformat(buf, size, fmt, args);
  va_end(args);
  return n;
}

}  // namespace ember
