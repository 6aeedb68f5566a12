// Reads the size-prefixed structs callers pass (ember.h, "Versioning"): a
// caller built against an older header passes a shorter struct, whose
// missing fields keep their defaults; one built against a newer header
// passes a longer one, accepted only when the fields this library does not
// know are zero (their defaults).
#pragma once

#include <cstdint>
#include <cstring>

#include "extension/c_api/status.h"

namespace ember::c_api {

// `*out` holds the defaults on entry; `given` may be null (the defaults).
template <typename T>
ember_status read_struct(const T* given, const char* type_name, const char* init_macro, T* out) {
  if (given == nullptr) return EMBER_OK;
  const uint32_t size = given->struct_size;
  if (size < sizeof(uint32_t)) {
    return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s.struct_size is %u: initialise it with %s",
                type_name, size, init_macro);
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(given);
  for (size_t i = sizeof(T); i < size; ++i) {
    if (bytes[i] != 0) {
      return fail(EMBER_ERROR_NOT_SUPPORTED,
                  "%s: byte %zu is set, but this libember (ABI %d.%d) knows only the first %zu "
                  "bytes of it: the application needs a newer libember",
                  type_name, i, EMBER_ABI_VERSION_MAJOR, EMBER_ABI_VERSION_MINOR, sizeof(T));
    }
  }
  std::memcpy(out, given, size < sizeof(T) ? size : sizeof(T));
  out->struct_size = sizeof(T);
  return EMBER_OK;
}

// Writes what the library fills in (statistics) up to the caller's size.
template <typename T>
ember_status write_struct(const T& value, const char* type_name, const char* init_macro, T* out) {
  if (out == nullptr) return EMBER_OK;
  const uint32_t size = out->struct_size;
  if (size < sizeof(uint32_t)) {
    return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s.struct_size is %u: initialise it with %s",
                type_name, size, init_macro);
  }
  // The caller's struct_size stays: it is the caller's, not ours.
  std::memcpy(reinterpret_cast<unsigned char*>(out) + sizeof(uint32_t),
              reinterpret_cast<const unsigned char*>(&value) + sizeof(uint32_t),
              (size < sizeof(T) ? size : sizeof(T)) - sizeof(uint32_t));
  return EMBER_OK;
}

}  // namespace ember::c_api
