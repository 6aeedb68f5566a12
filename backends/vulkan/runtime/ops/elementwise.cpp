// Unary and Binary (unary.comp, binary.comp): the same checks and the same
// memory-order walk as the CPU backend's elementwise ops, a broadcast
// operand read through zero strides.
#include <cmath>

#include "backends/cpu/runtime/ops/memory_order.h"
#include "backends/cpu/runtime/ops/op_util.h"
#include "backends/vulkan/runtime/ops/ops.h"

namespace ember::vulkan {
namespace {

constexpr uint32_t kLastUnaryOp = static_cast<uint32_t>(cpu_fb::UnaryOp::Abs);

// An activation code the shaders know, with relu (and clamp) folded into
// the bounds; false for an unknown code.
bool fold_activation(uint32_t code, uint32_t* activation, float* low) {
  if (code > kLastUnaryOp) return false;
  if (code == static_cast<uint32_t>(cpu_fb::UnaryOp::Relu)) *low = *low > 0.0f ? *low : 0.0f;
  const bool clamp_only = code == static_cast<uint32_t>(cpu_fb::UnaryOp::Relu) ||
                          code == static_cast<uint32_t>(cpu_fb::UnaryOp::Clamp);
  *activation = clamp_only ? 0xffffffffu : code;
  return true;
}

}  // namespace

bool read_epilogue(const cpu_fb::Op* op, Epilogue* out) {
  *out = Epilogue{};
  cpu::BuildContext::clamp_bounds(op, &out->low, &out->high);
  if (op->activation() == nullptr) return true;
  if (!fold_activation(static_cast<uint32_t>(op->activation()->op()), &out->activation,
                       &out->low)) {
    EMBER_LOG(Error, "vulkan backend: fused activation %d is unknown",
              static_cast<int>(op->activation()->op()));
    return false;
  }
  return true;
}

Error encode_unary(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::Unary* params = op->params_as_Unary();
  cpu::OpValues v;
  if (params == nullptr || !cpu::read_op_values(enc.build(), op, 1, 1, &v)) {
    return Error::InvalidProgram;
  }
  const ValueInfo& in = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  if (!cpu::same_sizes(in, out) || in.layout != out.layout || in.dtype != DataType::Float32 ||
      out.dtype != DataType::Float32) {
    EMBER_LOG(Error, "vulkan backend: unary input and output differ in shape, layout or dtype");
    return Error::InvalidProgram;
  }
  float low, high;
  cpu::BuildContext::clamp_bounds(op, &low, &high);
  uint32_t activation;
  if (!fold_activation(static_cast<uint32_t>(params->op()), &activation, &low)) {
    EMBER_LOG(Error, "vulkan backend: unary op %d is unknown", static_cast<int>(params->op()));
    return Error::NotSupported;
  }
  Result<BufferRef> x = enc.ref(v.in[0]);
  Result<BufferRef> y = enc.ref(v.out);
  if (!x.ok()) return x.error();
  if (!y.ok()) return y.error();
  Params p;
  p.u(out.numel).u(activation).f(low).f(high);
  return enc.dispatch(Shader::unary, {x.get(), y.get()}, p, grid_groups(enc, out.numel, 256));
}

Error encode_binary(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::Binary* params = op->params_as_Binary();
  cpu::OpValues v;
  const size_t inputs = params != nullptr && params->has_scalar() ? 1 : 2;
  if (params == nullptr || !cpu::read_op_values(enc.build(), op, inputs, inputs, &v)) {
    return Error::InvalidProgram;
  }
  if (static_cast<uint32_t>(params->op()) > static_cast<uint32_t>(cpu_fb::BinaryOp::Min)) {
    EMBER_LOG(Error, "vulkan backend: binary op %d is unknown", static_cast<int>(params->op()));
    return Error::InvalidProgram;
  }
  const ValueInfo& out = enc.value(v.out);
  for (size_t i = 0; i < inputs; ++i) {
    if (enc.value(v.in[i]).dtype != DataType::Float32) return Error::InvalidProgram;
  }
  if (out.dtype != DataType::Float32) return Error::InvalidProgram;
  int order[cpu::kMaxDims];
  cpu::memory_order(out, order);
  int64_t sizes[cpu::kMaxDims];
  ptrdiff_t a[cpu::kMaxDims], b[cpu::kMaxDims] = {};
  for (int p = 0; p < out.dim; ++p) sizes[p] = out.sizes[order[p]];
  if (!cpu::broadcast_strides(enc.value(v.in[0]), out, order, a) ||
      (inputs == 2 && !cpu::broadcast_strides(enc.value(v.in[1]), out, order, b))) {
    EMBER_LOG(Error, "vulkan backend: binary operands do not broadcast to the output");
    return Error::InvalidProgram;
  }
  // Merge dims that both operands walk as one (same-shape operands become
  // one run), dropping size-1 dims.
  int rank = 0;
  int64_t m_sizes[cpu::kMaxDims], m_a[cpu::kMaxDims], m_b[cpu::kMaxDims];
  for (int p = 0; p < out.dim; ++p) {
    if (sizes[p] == 1) continue;
    if (rank > 0 && m_a[rank - 1] == a[p] * sizes[p] && m_b[rank - 1] == b[p] * sizes[p]) {
      m_sizes[rank - 1] *= sizes[p];
      m_a[rank - 1] = a[p];
      m_b[rank - 1] = b[p];
    } else {
      m_sizes[rank] = sizes[p];
      m_a[rank] = a[p];
      m_b[rank] = b[p];
      ++rank;
    }
  }
  float low, high;
  cpu::BuildContext::clamp_bounds(op, &low, &high);
  Result<BufferRef> ra = enc.ref(v.in[0]);
  Result<BufferRef> rb = inputs == 2 ? enc.ref(v.in[1]) : enc.ref(v.in[0]);
  Result<BufferRef> ro = enc.ref(v.out);
  if (!ra.ok() || !rb.ok() || !ro.ok()) return Error::InvalidProgram;
  Params p;
  p.u(out.numel).u(static_cast<uint32_t>(params->op())).u(inputs == 1 ? 1 : 0)
      .f(params->scalar()).f(low).f(high).u(rank);
  for (int d = 0; d < rank; ++d) p.u(m_sizes[d]);
  p.to(15);
  for (int d = 0; d < rank; ++d) p.u(m_a[d]);
  p.to(23);
  for (int d = 0; d < rank; ++d) p.u(m_b[d]);
  p.to(31);
  return enc.dispatch(Shader::binary, {ra.get(), rb.get(), ro.get()}, p,
                      grid_groups(enc, out.numel, 256));
}

}  // namespace ember::vulkan
