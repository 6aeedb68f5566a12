// What a right-sized build registers (docs/size.md). A selective build (the
// EMBER_SELECT_* CMake options) generates a header listing the operators its
// programs call and, for each, the dtypes of the call's tensors; the kernel
// registration macros then register only those operators, restricted to those
// dtypes, and size the registry for them. Kernels of operators left out are
// never referenced, so the linker drops them. Without a generated header
// every kernel is registered.
#pragma once

#include <cstddef>

#include "runtime/kernel/dtype_mask.h"

namespace ember::selection {

struct SelectedOp {
  const char* name;
  DtypeMask dtypes;
};

}  // namespace ember::selection

#if defined(EMBER_SELECTED_KERNELS_HEADER)
// Defines kSelectedOps[] and kNumSelectedOps in ember::selection.
#include EMBER_SELECTED_KERNELS_HEADER
#endif

namespace ember::selection {

#if defined(EMBER_SELECTED_KERNELS_HEADER)
// One registry slot per selected operator name: optimized and portable
// kernels of one operator share a slot.
constexpr size_t kRegistryCapacity = kNumSelectedOps;
#else
// Every operator of the portable and optimized libraries, with room for the
// kernels that tests and applications add.
constexpr size_t kRegistryCapacity = 1280;
#endif

constexpr bool names_equal(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

#if defined(EMBER_SELECTED_KERNELS_HEADER)
// The selection's entry for operator `name` (null: left out).
constexpr const SelectedOp* find_selected_op(const char* name) {
  for (size_t i = 0; i < kNumSelectedOps; ++i) {
    if (names_equal(kSelectedOps[i].name, name)) return &kSelectedOps[i];
  }
  return nullptr;
}

// Whether a build registers operator `name`.
constexpr bool op_selected(const char* name) { return find_selected_op(name) != nullptr; }

// The dtypes a build registers operator `name` for: its calls' tensors'
// dtypes in a selective build.
constexpr DtypeMask op_dtypes(const char* name) {
  const SelectedOp* op = find_selected_op(name);
  return op != nullptr ? op->dtypes : 0;
}
#else
constexpr bool op_selected(const char*) { return true; }
constexpr DtypeMask op_dtypes(const char*) { return ~DtypeMask{0}; }
#endif

}  // namespace ember::selection
