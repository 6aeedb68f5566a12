#include "runtime/kernel/kernel_registry.h"

#include <cstring>

#include "runtime/core/log.h"

namespace ember {
namespace {

// Static storage: registration runs before main and must not allocate.
constexpr size_t kMaxKernels = 2048;
KernelEntry g_kernels[kMaxKernels];
size_t g_num_kernels = 0;

}  // namespace

Error register_kernel(const KernelEntry& entry) {
  for (size_t i = 0; i < g_num_kernels; ++i) {
    if (std::strcmp(g_kernels[i].name, entry.name) == 0) {
      g_kernels[i] = entry;
      return Error::Ok;
    }
  }
  if (g_num_kernels == kMaxKernels) {
    EMBER_LOG(Error, "kernel registry is full; cannot register %s", entry.name);
    return Error::MemoryAllocationFailed;
  }
  g_kernels[g_num_kernels++] = entry;
  return Error::Ok;
}

const KernelEntry* find_kernel(const char* name) {
  for (size_t i = 0; i < g_num_kernels; ++i) {
    if (std::strcmp(g_kernels[i].name, name) == 0) {
      return &g_kernels[i];
    }
  }
  return nullptr;
}

size_t num_registered_kernels() { return g_num_kernels; }

const KernelEntry* registered_kernel(size_t index) {
  return index < g_num_kernels ? &g_kernels[index] : nullptr;
}

}  // namespace ember
