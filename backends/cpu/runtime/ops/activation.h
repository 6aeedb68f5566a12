// Activations of the CPU backend's ops: the blob's UnaryOp as an f32-vunary
// function, and the fused activation a Linear or Conv2d applies to its output
// tiles (the blob's Op.activation, then Op.clamp).
#pragma once

#include <cmath>

#include "backends/cpu/schema/cpu_delegate_generated.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"
#include "kernels/optimized/row_activation.h"

namespace ember::cpu {

// The vunary function of a blob's unary op; false for an unknown one.
bool unary_op_of(cpu_fb::UnaryOp op, kernels::optimized::F32UnaryOp* out);

// What a GEMM-based op applies on the way out: clamp bounds for the
// kernel's epilogue, and an activation (with the clamp after it) when the
// op has one.
struct OutputActivation {
  float low = -INFINITY, high = INFINITY;  // the epilogue's clamp
  kernels::optimized::F32VUnaryUkernelFn ukernel = nullptr;
  kernels::optimized::F32VUnaryParams params{-INFINITY, INFINITY};

  // Reads op's activation and clamp; false (logged) when the activation is unknown.
  bool read(const cpu_fb::Op* op);
  // The drivers' hook: applies ukernel in place; empty without an activation.
  // Points at this object, which must outlive the calls.
  kernels::optimized::F32RowActivation row() const;
};

}  // namespace ember::cpu
