// Error codes returned by every fallible runtime call (the runtime has no exceptions).
#pragma once

#include <cstdint>

namespace ember {

enum class Error : uint32_t {
  Ok = 0x00,
  Internal = 0x01,
  InvalidState = 0x02,
  EndOfMethod = 0x03,

  NotSupported = 0x10,
  NotImplemented = 0x11,
  InvalidArgument = 0x12,
  InvalidType = 0x13,
  OperatorMissing = 0x14,

  NotFound = 0x20,
  MemoryAllocationFailed = 0x21,
  AccessFailed = 0x22,
  InvalidProgram = 0x23,

  DelegateInvalidCompatibility = 0x30,
  DelegateMemoryAllocationFailed = 0x31,
  DelegateInvalidHandle = 0x32,
};

// A short stable name, e.g. "InvalidProgram", for logs and messages.
const char* error_name(Error error);

}  // namespace ember

#define EMBER_CONCAT_INNER_(a, b) a##b
#define EMBER_CONCAT_(a, b) EMBER_CONCAT_INNER_(a, b)

// Returns the error from the enclosing function if `expr` is not Ok.
#define EMBER_TRY(expr)                           \
  do {                                            \
    const ::ember::Error ember_try_err_ = (expr); \
    if (ember_try_err_ != ::ember::Error::Ok) {   \
      return ember_try_err_;                      \
    }                                             \
  } while (0)
