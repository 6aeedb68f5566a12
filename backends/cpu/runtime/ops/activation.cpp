#include "backends/cpu/runtime/ops/activation.h"

#include <cmath>

#include "backends/cpu/runtime/ops/ops.h"
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
  const auto* a = static_cast<const OutputActivation*>(params);
  a->ukernel(n, data, data, &a->params);
}

}  // namespace

bool OutputActivation::read(const cpu_fb::Op* op) {
  BuildContext::clamp_bounds(op, &low, &high);
  const cpu_fb::Activation* activation = op->activation();
  if (activation == nullptr) return true;
  opt::F32UnaryOp kind;
  if (!unary_op_of(activation->op(), &kind)) {
    EMBER_LOG(Error, "cpu backend: fused activation %d is unknown",
              static_cast<int>(activation->op()));
    return false;
  }
  ukernel = opt::f32_vunary_config().ukernel[static_cast<size_t>(kind)];
  // The clamp applies after the activation: it moves into the activation.
  params.min = low;
  params.max = high;
  if (activation->op() == cpu_fb::UnaryOp::Relu && !(params.min > 0.0f)) params.min = 0.0f;
  low = -INFINITY;
  high = INFINITY;
  return true;
}

opt::F32RowActivation OutputActivation::row() const {
  opt::F32RowActivation r;
  if (ukernel != nullptr) {
    r.fn = apply;
    r.params = this;
  }
  return r;
}

}  // namespace ember::cpu
