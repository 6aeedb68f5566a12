#include <cstring>

#include "runtime/backend/backend.h"
#include "runtime/core/log.h"

namespace ember {
namespace {

struct BackendEntry {
  const char* name;
  const BackendInterface* backend;
};

constexpr size_t kMaxBackends = 16;
BackendEntry g_backends[kMaxBackends];
size_t g_num_backends = 0;

}  // namespace

Error register_backend(const char* name, const BackendInterface* backend) {
  for (size_t i = 0; i < g_num_backends; ++i) {
    if (std::strcmp(g_backends[i].name, name) == 0) {
      EMBER_LOG(Error, "backend %s is already registered", name);
      return Error::InvalidArgument;
    }
  }
  if (g_num_backends == kMaxBackends) {
    EMBER_LOG(Error, "backend registry is full; cannot register %s", name);
    return Error::MemoryAllocationFailed;
  }
  g_backends[g_num_backends++] = {name, backend};
  return Error::Ok;
}

const BackendInterface* find_backend(const char* name) {
  for (size_t i = 0; i < g_num_backends; ++i) {
    if (std::strcmp(g_backends[i].name, name) == 0) {
      return g_backends[i].backend;
    }
  }
  return nullptr;
}

size_t num_registered_backends() { return g_num_backends; }

const char* registered_backend_name(size_t index) {
  return index < g_num_backends ? g_backends[index].name : nullptr;
}

}  // namespace ember
