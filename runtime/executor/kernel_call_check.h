// Load-time checks of a kernel call that the kernel's own argument check
// (KernelEntry::check_args: count and kinds of its parameters) leaves out:
// what the call passes after the parameters, and which outs it may write.
#pragma once

#include <cstddef>

#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember {

// Whether parameter `i` of `kernel` is an out: a Tensor&, or a last
// Tensor[] parameter of a kernel with no Tensor& (split_copy, unbind_copy).
// Assumes `args` passed check_args.
bool is_out_param(const KernelEntry& kernel, Span<EValue* const> args, size_t i);

// After its parameters a call passes the schema's returns, which alias its
// outs: Ember writes one value (the out, the Tensor[] out, or a list of the
// outs), ExecuTorch each out again. Anything else, a call with more values
// than the schema has, is refused; writes why into `why`. Boxed kernels
// (KernelEntry::num_params 0, the prim ops) check their own count. Assumes
// `args` passed check_args.
bool check_kernel_returns(const KernelEntry& kernel, Span<EValue* const> args, char* why,
                          size_t why_size);

}  // namespace ember
