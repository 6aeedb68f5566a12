// What the CPU backend's GEMM-based ops (Linear, Conv2d) apply to their
// output on the way out, as each tile is finished: an optional residual
// added (the blob's second input), then the fused activation (Op.activation)
// and clamp (Op.clamp); and the blob's UnaryOp as an f32-vunary function.
#pragma once

#include <cmath>

#include "backends/cpu/schema/cpu_delegate_generated.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"
#include "kernels/optimized/row_activation.h"

namespace ember::cpu {

// The vunary function of a blob's unary op; false for an unknown one.
bool unary_op_of(cpu_fb::UnaryOp op, kernels::optimized::F32UnaryOp* out);

// Decided at init: the clamp the kernel's epilogue applies, or, when there is
// a residual or an activation, the steps the drivers' row hook runs instead
// (the residual add, then the activation with the clamp after it).
struct OutputActivation {
  float low = -INFINITY, high = INFINITY;  // the epilogue's clamp
  bool residual = false;
  kernels::optimized::F32VUnaryUkernelFn ukernel = nullptr;  // activation, or the clamp alone
  kernels::optimized::F32VUnaryParams params{-INFINITY, INFINITY};
  kernels::optimized::F32VBinaryUkernelFn add = nullptr;
  kernels::optimized::F32VBinaryParams add_params{};

  // Reads an activation and clamp (either may be null), with a residual or
  // not; false (logged) when the activation is unknown.
  bool read(const cpu_fb::Clamp* clamp, const cpu_fb::Activation* activation, bool has_residual);
  bool read(const cpu_fb::Op* op, bool has_residual) {
    return read(op->clamp(), op->activation(), has_residual);
  }
  bool needs_hook() const { return residual || ukernel != nullptr; }
};

// One run's row hook: the output's and the residual's data this run (the
// same layout, so an output float's offset locates its residual).
struct OutputHook {
  const OutputActivation* act;
  const float* out = nullptr;
  const float* residual = nullptr;

  // For the drivers; empty when act needs no hook. Points at this object,
  // which must outlive the kernel call.
  kernels::optimized::F32RowActivation row() const;
};

// The GEMM of a Linear or pointwise Conv2d: m rows of `a` (k floats each)
// times weights packed for f32_gemm (k x n) into `c`, the accumulators
// starting from `bias` (null: none), act's clamp, then `activation`.
kernels::optimized::F32GemmProblem packed_gemm_problem(
    size_t m, size_t k, size_t n, const float* a, const float* packed, const float* bias,
    const OutputActivation& act, const kernels::optimized::F32RowActivation& activation,
    float* c);

}  // namespace ember::cpu
