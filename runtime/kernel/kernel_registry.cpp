#include "runtime/kernel/kernel_registry.h"

#include <cstring>

#include "runtime/core/format.h"
#include "runtime/core/log.h"

namespace ember {
namespace {

// Static storage, constant-initialized (ready before any registration runs):
// registration runs before main and must not allocate. One pointer per
// operator, to an entry the registering library keeps (in read-only memory
// for the registration macros), sized at build time for the selection.
constexpr size_t kMaxKernels = selection::kRegistryCapacity;
const KernelEntry* g_kernels[kMaxKernels > 0 ? kMaxKernels : 1];
size_t g_num_kernels = 0;

}  // namespace

Error register_kernel(const KernelEntry& entry) {
  for (size_t i = 0; i < g_num_kernels; ++i) {
    if (std::strcmp(g_kernels[i]->name, entry.name) == 0) {
      // Explicit ranks, not static-init order, decide between libraries.
      if (entry.rank >= g_kernels[i]->rank) {
        g_kernels[i] = &entry;
      }
      return Error::Ok;
    }
  }
  // A selection with no operator has no slot at all (the array's one
  // element only keeps the declaration legal).
  if (kMaxKernels == 0 || g_num_kernels >= kMaxKernels) {
    EMBER_LOG(Error, "kernel registry is full; cannot register %s", entry.name);
    return Error::MemoryAllocationFailed;
  }
  if constexpr (kMaxKernels > 0) g_kernels[g_num_kernels++] = &entry;
  return Error::Ok;
}

const KernelEntry* find_kernel(const char* name) {
  for (size_t i = 0; i < g_num_kernels; ++i) {
    if (std::strcmp(g_kernels[i]->name, name) == 0) {
      return g_kernels[i];
    }
  }
  return nullptr;
}

size_t num_registered_kernels() { return g_num_kernels; }

namespace {

bool fail_dtype(const KernelEntry& entry, ScalarType dtype, size_t arg, DtypeMask supported,
                char* why, size_t why_size) {
  char names[160];
  format(why, why_size, "%s has no kernel for dtype %s (argument %zu); it supports %s",
           entry.name, scalar_type_name(dtype), arg,
           format_dtype_mask(supported, names, sizeof(names)));
  return false;
}

// Checks every tensor in a value (a tensor, or a list's non-None items).
bool check_value_dtypes(const KernelEntry& entry, const EValue& value, size_t arg,
                        DtypeMask supported, char* why, size_t why_size) {
  if (value.is_tensor()) {
    const ScalarType dtype = value.to_tensor().scalar_type();
    return mask_contains(supported, dtype) ||
           fail_dtype(entry, dtype, arg, supported, why, why_size);
  }
  if (value.is_tensor_list() || value.is_optional_tensor_list()) {
    for (const Tensor* t : value.to_tensor_list()) {
      if (t != nullptr && !mask_contains(supported, t->scalar_type())) {
        return fail_dtype(entry, t->scalar_type(), arg, supported, why, why_size);
      }
    }
  }
  return true;
}

}  // namespace

bool check_kernel_dtypes(const KernelEntry& entry, Span<EValue* const> args, char* why,
                         size_t why_size) {
  const size_t self = static_cast<size_t>(entry.self_index);
  if (entry.self_index >= 0 && self < args.size() &&
      !check_value_dtypes(entry, *args[self], self, entry.self_dtypes, why, why_size)) {
    return false;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (!check_value_dtypes(entry, *args[i], i, entry.tensor_dtypes, why, why_size)) return false;
  }
  return true;
}

const KernelEntry* registered_kernel(size_t index) {
  return index < g_num_kernels ? g_kernels[index] : nullptr;
}

}  // namespace ember
