#include "backends/cpu/runtime/ops/activation.h"

#include <cmath>

#include "backends/cpu/runtime/ops/ops.h"
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"
#include "runtime/core/log.h"

namespace ember::cpu {

namespace opt = kernels::optimized;

bool unary_op_of(cpu_fb::UnaryOp op, opt::F32UnaryOp* out) {
  switch (op) {
    case cpu_fb::UnaryOp::Relu:
    case cpu_fb::UnaryOp::Clamp: *out = opt::F32UnaryOp::Clamp; return true;
    case cpu_fb::UnaryOp::Gelu: *out = opt::F32UnaryOp::Gelu; return true;
    case cpu_fb::UnaryOp::GeluTanh: *out = opt::F32UnaryOp::GeluTanh; return true;
    case cpu_fb::UnaryOp::Silu: *out = opt::F32UnaryOp::Silu; return true;
    case cpu_fb::UnaryOp::Sigmoid: *out = opt::F32UnaryOp::Sigmoid; return true;
    case cpu_fb::UnaryOp::Tanh: *out = opt::F32UnaryOp::Tanh; return true;
    case cpu_fb::UnaryOp::HardSwish: *out = opt::F32UnaryOp::HardSwish; return true;
    case cpu_fb::UnaryOp::HardSigmoid: *out = opt::F32UnaryOp::HardSigmoid; return true;
    case cpu_fb::UnaryOp::Exp: *out = opt::F32UnaryOp::Exp; return true;
    case cpu_fb::UnaryOp::Neg: *out = opt::F32UnaryOp::Neg; return true;
    case cpu_fb::UnaryOp::Sqrt: *out = opt::F32UnaryOp::Sqrt; return true;
    case cpu_fb::UnaryOp::Rsqrt: *out = opt::F32UnaryOp::Rsqrt; return true;
    case cpu_fb::UnaryOp::Abs: *out = opt::F32UnaryOp::Abs; return true;
  }
  return false;
}
namespace {

void apply(size_t n, float* data, const void* params) {
  const auto* hook = static_cast<const OutputHook*>(params);
  const OutputActivation& a = *hook->act;
  if (a.residual) a.add(n, data, hook->residual + (data - hook->out), data, &a.add_params);
  if (a.ukernel != nullptr) a.ukernel(n, data, data, &a.params);
}

}  // namespace

bool OutputActivation::read(const cpu_fb::Clamp* clamp, const cpu_fb::Activation* activation,
                            bool has_residual) {
  low = clamp != nullptr ? clamp->min() : -INFINITY;
  high = clamp != nullptr ? clamp->max() : INFINITY;
  residual = has_residual;
  opt::F32UnaryOp kind = opt::F32UnaryOp::Clamp;
  if (activation != nullptr && !unary_op_of(activation->op(), &kind)) {
    EMBER_LOG(Error, "cpu backend: fused activation %d is unknown",
              static_cast<int>(activation->op()));
    return false;
  }
  if (activation == nullptr && !residual) return true;  // the epilogue clamps
  // The clamp applies after the residual and the activation: it moves from
  // the epilogue into the activation, or into the residual add without one.
  if (activation != nullptr) {
    ukernel = opt::f32_vunary_config().ukernel[static_cast<size_t>(kind)];
    params.min = low;
    params.max = high;
    if (activation->op() == cpu_fb::UnaryOp::Relu && !(params.min > 0.0f)) params.min = 0.0f;
  }
  if (residual) {
    add = opt::f32_vbinary_config().vv[static_cast<size_t>(opt::F32BinaryOp::Add)];
    add_params.min = activation != nullptr ? -INFINITY : low;
    add_params.max = activation != nullptr ? INFINITY : high;
  }
  low = -INFINITY;
  high = INFINITY;
  return true;
}

opt::F32RowActivation OutputHook::row() const {
  opt::F32RowActivation r;
  if (act->needs_hook()) {
    r.fn = apply;
    r.params = this;
    r.read_ahead = residual;
    r.origin = out;
  }
  return r;
}

opt::F32GemmProblem packed_gemm_problem(size_t m, size_t k, size_t n, const float* a,
                                        const float* packed, const float* bias,
                                        const OutputActivation& act,
                                        const opt::F32RowActivation& activation, float* c) {
  opt::F32GemmProblem p;
  p.m = m;
  p.k = k;
  p.n = n;
  p.a = a;
  p.lda = k;
  p.packed_b = packed;
  p.c = c;
  p.ldc = n;
  if (bias != nullptr) {
    p.beta = 1.0f;
    p.self = bias;
    p.self_row_stride = 0;
    p.self_col_stride = 1;
  }
  p.clamp_min = act.low;
  p.clamp_max = act.high;
  p.activation = activation;
  return p;
}

}  // namespace ember::cpu
