// A small printf for the runtime's messages, so that the core needs no libc
// printf (which costs a microcontroller 10-30 KB of flash). It knows the
// conversions the runtime's messages use: d i u x c s p g and %%, with the
// length modifiers l ll z and a precision for s (%.64s, %.*s). Anything else
// is copied through as written.
#pragma once

#include <cstdarg>
#include <cstddef>

namespace ember {

// Writes at most size - 1 characters and a terminating NUL (size > 0);
// returns the characters written, not counting the NUL.
size_t vformat(char* buf, size_t size, const char* format, va_list args);
size_t format(char* buf, size_t size, const char* format, ...)
    __attribute__((format(printf, 3, 4)));

}  // namespace ember
