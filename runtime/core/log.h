// Logging: printf-style, formatted into a stack buffer (no heap), sent to the PAL.
#pragma once

#include "runtime/core/platform.h"

namespace ember {

// Minimum level that is emitted; Info by default, settable by applications.
LogLevel log_threshold();
void set_log_threshold(LogLevel level);

// The most recent Error-level message logged on this thread (empty if none),
// so that front ends (the Python binding, the CLI) can show why a load
// failed in one line. Errors of set_input and execute are the method's own
// (Method::last_error).
const char* last_error_message();
void clear_last_error_message();

void log_message(LogLevel level, const char* file, int line, const char* format, ...)
    __attribute__((format(printf, 4, 5)));
// A message compiled out (EMBER_LOG_STRINGS=0): logs where it was raised.
void log_location(LogLevel level, const char* file, int line);

}  // namespace ember

// EMBER_LOG_STRINGS=0 (size builds, docs/size.md) compiles every message out
// of the runtime: a log line then names only its source file and line, and no
// format string or argument is kept.
#ifndef EMBER_LOG_STRINGS
#define EMBER_LOG_STRINGS 1
#endif
#if defined(__FILE_NAME__)
#define EMBER_SOURCE_FILE_ __FILE_NAME__
#else
#define EMBER_SOURCE_FILE_ __FILE__
#endif

#if EMBER_LOG_STRINGS
#define EMBER_LOG(level, ...) \
  ::ember::log_message(::ember::LogLevel::level, EMBER_SOURCE_FILE_, __LINE__, __VA_ARGS__)
#else
#define EMBER_LOG(level, ...) \
  ::ember::log_location(::ember::LogLevel::level, EMBER_SOURCE_FILE_, __LINE__)
#endif

// Logs why and returns `error` from the enclosing function when `cond` is false.
#define EMBER_CHECK_OR_RETURN(cond, error, ...) \
  do {                                          \
    if (!(cond)) {                              \
      EMBER_LOG(Error, __VA_ARGS__);            \
      return (error);                           \
    }                                           \
  } while (0)
