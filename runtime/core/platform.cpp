#include "runtime/core/platform.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace ember {

uint64_t pal_time_ns() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

void pal_emit_log(LogLevel level, const char* file, int line, const char* message) {
  static const char kLevel[] = {'D', 'I', 'E', 'F'};
  std::fprintf(stderr, "%c ember %s:%d] %s\n", kLevel[static_cast<int>(level)], file, line,
               message);
}

void pal_abort(const char* why) {
  std::fprintf(stderr, "ember: fatal: %s\n", why);
  std::abort();
}

}  // namespace ember
