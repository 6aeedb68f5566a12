// Fault injection for checking numerical checks: plants, over a registered
// kernel, one that runs it and then adds `delta` to every element of its
// floating-point outputs. The validator's tests plant one in the middle of a
// model and expect to be told that operator. One kernel at a time; restore
// before planting another. Not for production programs.
#pragma once

#include "runtime/core/error.h"

namespace ember {

// Error::NotFound when no kernel has that name, InvalidState when one is
// planted already.
Error perturb_kernel(const char* name, float delta);
// Puts the original kernel back (a no-op when none is planted).
void restore_perturbed_kernel();

}  // namespace ember
