// The platform abstraction layer: the only place the core touches the OS.
// A port to a new target (bare-metal, RTOS) reimplements platform.cpp.
#pragma once

#include <cstdint>

namespace ember {

enum class LogLevel : uint8_t { Debug, Info, Error, Fatal };

// Monotonic time in nanoseconds, for latency measurement and event tracing.
uint64_t pal_time_ns();

// Writes one already formatted log line.
void pal_emit_log(LogLevel level, const char* file, int line, const char* message);

// Stops the program; used only for broken invariants, never for bad input.
[[noreturn]] void pal_abort(const char* why);

}  // namespace ember
