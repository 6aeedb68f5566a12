#include "runtime/core/log.h"

#include <atomic>
#include <cstdarg>

#include "runtime/core/format.h"

namespace ember {
namespace {
std::atomic<LogLevel> g_threshold{LogLevel::Info};
// Per thread, so that programs loading on different threads never see (or
// tear) each other's messages.
thread_local char g_last_error[512] = {};
}  // namespace

const char* last_error_message() { return g_last_error; }
void clear_last_error_message() { g_last_error[0] = '\0'; }

LogLevel log_threshold() { return g_threshold.load(std::memory_order_relaxed); }
void set_log_threshold(LogLevel level) { g_threshold.store(level, std::memory_order_relaxed); }

void log_message(LogLevel level, const char* file, int line, const char* format, ...) {
  const bool keep = level >= LogLevel::Error;
  const LogLevel threshold = log_threshold();
  if (level < threshold && !keep) {
    return;
  }
  char buffer[512];
  va_list args;
  va_start(args, format);
  vformat(buffer, sizeof(buffer), format, args);
  va_end(args);
  if (keep) {
    ember::format(g_last_error, sizeof(g_last_error), "%s", buffer);
  }
  if (level >= threshold) {
    pal_emit_log(level, file, line, buffer);
  }
}

void log_location(LogLevel level, const char* file, int line) {
  log_message(level, file, line, "error at %s:%d", file, line);
}

}  // namespace ember
