#include "runtime/core/log.h"

#include <cstdarg>
#include <cstdio>

namespace ember {
namespace {
LogLevel g_threshold = LogLevel::Info;
}

LogLevel log_threshold() { return g_threshold; }
void set_log_threshold(LogLevel level) { g_threshold = level; }

void log_message(LogLevel level, const char* file, int line, const char* format, ...) {
  if (level < g_threshold) {
    return;
  }
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  pal_emit_log(level, file, line, buffer);
}

}  // namespace ember
