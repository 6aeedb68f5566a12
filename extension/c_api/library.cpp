// The library-wide entry points: versions, status and dtype names, logging,
// the option structs' defaults.
#include <cstring>

#include "extension/c_api/status.h"
#include "runtime/core/log.h"
#include "runtime/core/scalar_type.h"

#ifndef EMBER_VERSION_STRING
#error "EMBER_VERSION_STRING is defined by extension/c_api/CMakeLists.txt"
#endif

extern "C" {

uint32_t ember_abi_version(void) {
  return (static_cast<uint32_t>(EMBER_ABI_VERSION_MAJOR) << 16) | EMBER_ABI_VERSION_MINOR;
}

const char* ember_version(void) { return EMBER_VERSION_STRING; }

const char* ember_last_error(void) { return ember::c_api::last_error(); }

const char* ember_status_name(ember_status status) {
  if (status == EMBER_ERROR_BUFFER_TOO_SMALL) return "BufferTooSmall";
  // The runtime's EndOfMethod never reaches a caller (status.cpp maps it).
  if (status == static_cast<ember_status>(ember::Error::EndOfMethod)) return "Unknown";
  return ember::error_name(static_cast<ember::Error>(status));  // "Unknown" for the rest
}

size_t ember_dtype_size(ember_dtype dtype) {
  if (!ember::is_valid_scalar_type(dtype)) return 0;
  return ember::element_size(static_cast<ember::ScalarType>(dtype));
}

ember_status ember_set_log_level(int32_t level) {
  static constexpr ember::LogLevel kLevels[] = {ember::LogLevel::Debug, ember::LogLevel::Info,
                                                ember::LogLevel::Error, ember::LogLevel::Fatal};
  if (level < EMBER_LOG_DEBUG || level > EMBER_LOG_NONE) {
    return ember::c_api::fail(EMBER_ERROR_INVALID_ARGUMENT,
                              "ember_set_log_level: level %d is not an EMBER_LOG_* value", level);
  }
  ember::set_log_threshold(kLevels[level]);
  return EMBER_OK;
}

void ember_load_options_init(ember_load_options* options) {
  if (options == nullptr) return;
  const ember_load_options defaults = EMBER_LOAD_OPTIONS_INIT;
  *options = defaults;
}

void ember_generate_options_init(ember_generate_options* options) {
  if (options == nullptr) return;
  const ember_generate_options defaults = EMBER_GENERATE_OPTIONS_INIT;
  *options = defaults;
}

}  // extern "C"
