// The C ABI's error reporting: a status code returned, and a one-line
// message per thread that ember_last_error() reads. Every entry point checks
// its arguments and turns runtime Errors into statuses here.
#pragma once

#include "ember/ember.h"
#include "runtime/core/error.h"

namespace ember::c_api {

// Records the message (printf-style) for this thread and returns `status`.
ember_status fail(ember_status status, const char* format, ...) __attribute__((format(printf, 2, 3)));

// The status for a runtime Error (the codes are the same numbers).
ember_status to_status(Error error);

// Records "`what`: <runtime message>" for a runtime failure and returns its
// status. `detail` is the runtime's reason (a Module's last_error, or the
// thread's last logged error when null or empty).
ember_status fail_runtime(Error error, const char* what, const char* detail = nullptr);

const char* last_error();

}  // namespace ember::c_api

// Refuses a null argument with a message naming the function and the argument.
#define EMBER_C_REQUIRE(ptr, function)                                              \
  do {                                                                              \
    if ((ptr) == nullptr) {                                                         \
      return ::ember::c_api::fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", \
                                  function, #ptr);                                  \
    }                                                                               \
  } while (0)
