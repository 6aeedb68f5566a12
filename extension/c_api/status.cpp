#include "extension/c_api/status.h"

#include <cstdarg>
#include <cstdio>

#include "runtime/core/log.h"

namespace ember::c_api {
namespace {
// Per thread (ember.h promises it): threads never read each other's messages.
thread_local char g_message[1024] = {};
}  // namespace

ember_status fail(ember_status status, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vsnprintf(g_message, sizeof(g_message), format, args);
  va_end(args);
  return status;
}

ember_status to_status(Error error) {
  switch (error) {
    case Error::Ok:
      return EMBER_OK;
    case Error::EndOfMethod:  // internal to the executor; never a caller's answer
      return EMBER_ERROR_INTERNAL;
    default:
      return static_cast<ember_status>(error);
  }
}

ember_status fail_runtime(Error error, const char* what, const char* detail) {
  if (detail == nullptr || detail[0] == '\0') detail = last_error_message();
  const ember_status status = to_status(error == Error::Ok ? Error::Internal : error);
  if (detail[0] == '\0') return fail(status, "%s: %s", what, error_name(error));
  return fail(status, "%s: %s (%s)", what, detail, error_name(error));
}

const char* last_error() { return g_message; }

}  // namespace ember::c_api
