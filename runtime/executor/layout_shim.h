// Layout shims: row-major twins of tensors held in another dim order
// (channels-last, as ExecuTorch writes for a channels-last model), for kernels
// that index memory row-major. Built at method init from the method
// allocator; at run time the executor copies inputs into their twins before
// such a kernel runs and the twins of outs back after it, so every kernel sees
// the layout it was written for and no memory is allocated while executing.
#pragma once

#include <new>

#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/core/tensor.h"
#include "runtime/executor/features.h"
#include "runtime/executor/memory_allocator.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember {

struct LayoutShim {
  Tensor* original;  // the program's tensor, in its own dim order
  Tensor twin;       // the same elements, row-major; what the kernel sees
  EValue value;      // holds &twin, in the kernel's argument list
  bool output;       // copied back after the kernel
  bool fixed;        // a constant: copied once, at init
};

// Points each tensor argument of `args` that is not in the default dim order
// at a row-major twin (for kernels that are not strided). `is_constant` tells
// which values hold constant data, copied into their twins now. Sets `*shims`
// to the twins made (empty when none was needed).
template <typename IsConstant>
Error make_layout_shims(const KernelEntry& kernel, Span<EValue*> args, MemoryAllocator* alloc,
                        IsConstant is_constant, Span<LayoutShim>* shims);

// Before the kernel: copies each input into its twin.
void copy_into_twins(Span<LayoutShim> shims);
// After the kernel: resizes each out to its twin's sizes and copies it back.
Error copy_out_of_twins(Span<LayoutShim> shims);

namespace detail {
Error make_twin(Tensor* original, bool output, MemoryAllocator* alloc, LayoutShim* shim);
}  // namespace detail

template <typename IsConstant>
Error make_layout_shims(const KernelEntry& kernel, Span<EValue*> args, MemoryAllocator* alloc,
                        IsConstant is_constant, Span<LayoutShim>* shims) {
  *shims = {};
  if (kernel.strided) return Error::Ok;
  // The values after the kernel's parameters are the call's returns, which
  // the kernel never sees.
  if (args.size() > kernel.num_params) args = Span<EValue*>(args.data(), kernel.num_params);
  size_t count = 0;
  for (EValue* arg : args) {
    count += arg->is_tensor() && !arg->to_tensor().is_contiguous_dim_order();
  }
  if (count == 0) return Error::Ok;
  // A build for programs whose tensors are all row-major has no twins.
  if constexpr (!features::kDimOrders) return Error::NotSupported;
  LayoutShim* items = alloc->allocate_array<LayoutShim>(count);
  if (items == nullptr) return Error::MemoryAllocationFailed;
  size_t made = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i]->is_tensor() || args[i]->to_tensor().is_contiguous_dim_order()) continue;
    const bool output = i < 64 && (kernel.out_args >> i & 1) != 0;
    LayoutShim* shim = new (&items[made++]) LayoutShim();
    shim->fixed = !output && is_constant(args[i]);
    const Error err = detail::make_twin(&args[i]->to_tensor(), output, alloc, shim);
    if (err != Error::Ok) return err;
    args[i] = &shim->value;
  }
  *shims = Span<LayoutShim>(items, count);
  return Error::Ok;
}

}  // namespace ember
