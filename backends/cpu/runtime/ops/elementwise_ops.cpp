// Elementwise ops: Binary (add, sub, mul, div, max, min of two values, or of a value
// and a number, with any broadcast and either operand the smaller) and Unary
// (activations), each with an optional fused clamp, on the f32-vbinary and
// f32-vunary kernels, split across the pool in contiguous chunks of the
// output.
#include <cmath>
#include <new>

#include "backends/cpu/runtime/ops/activation.h"
#include "backends/cpu/runtime/ops/memory_order.h"
#include "backends/cpu/runtime/ops/op_util.h"
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"

namespace ember::cpu {
namespace {

namespace opt = kernels::optimized;

// Output elements per thread at least: below this waking a thread costs
// more than it saves. Transcendental activations cost ~10x an add per
// element, so they split sooner.
constexpr int64_t kMinChunkCheap = 8192;
constexpr int64_t kMinChunkTranscendental = 1024;

class BinaryOp final : public CpuOp {
 public:
  opt::F32BinaryOp op;
  uint32_t a = 0, b = 0, out = 0;
  bool has_scalar = false;
  float scalar = 0;  // b when has_scalar
  opt::F32BinaryPlan plan;
  opt::F32VBinaryParams params;
  const opt::F32VBinaryConfig* config = nullptr;

  void run(const ExecState& state) const override {
    const float* pa = state.data[a];
    const float* pb = has_scalar ? &scalar : state.data[b];
    float* po = state.data[out];
    parallel_for(state.pool, static_cast<int64_t>(plan.numel), kMinChunkCheap,
                 [&](int64_t begin, int64_t end) {
                   opt::f32_vbinary_run(*config, op, plan, pa, pb, po, static_cast<size_t>(begin),
                                        static_cast<size_t>(end), params);
                 });
  }
};

class UnaryOp final : public CpuOp {
 public:
  opt::F32VUnaryUkernelFn ukernel = nullptr;
  uint32_t in = 0, out = 0;
  opt::F32VUnaryParams params;
  int64_t numel = 0;
  int64_t min_chunk = kMinChunkCheap;

  void run(const ExecState& state) const override {
    const float* x = state.data[in];
    float* y = state.data[out];
    parallel_for(state.pool, numel, min_chunk, [&](int64_t begin, int64_t end) {
      ukernel(static_cast<size_t>(end - begin), x + begin, y + begin, &params);
    });
  }
};

bool binary_op_of(cpu_fb::BinaryOp op, opt::F32BinaryOp* out) {
  switch (op) {
    case cpu_fb::BinaryOp::Add: *out = opt::F32BinaryOp::Add; return true;
    case cpu_fb::BinaryOp::Sub: *out = opt::F32BinaryOp::Sub; return true;
    case cpu_fb::BinaryOp::Mul: *out = opt::F32BinaryOp::Mul; return true;
    case cpu_fb::BinaryOp::Div: *out = opt::F32BinaryOp::Div; return true;
    case cpu_fb::BinaryOp::Max: *out = opt::F32BinaryOp::Max; return true;
    case cpu_fb::BinaryOp::Min: *out = opt::F32BinaryOp::Min; return true;
  }
  return false;
}

}  // namespace

Result<CpuOp*> make_binary(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Binary* params = op->params_as_Binary();
  OpValues v;
  const size_t inputs = params != nullptr && params->has_scalar() ? 1 : 2;
  if (params == nullptr || !read_op_values(ctx, op, inputs, inputs, &v)) {
    return Error::InvalidProgram;
  }
  opt::F32BinaryOp kernel_op;
  if (!binary_op_of(params->op(), &kernel_op)) {
    EMBER_LOG(Error, "cpu backend: binary op %d is unknown", static_cast<int>(params->op()));
    return Error::InvalidProgram;
  }
  const ValueInfo& out = ctx.values[v.out];
  int order[kMaxDims];
  memory_order(out, order);
  size_t sizes[kMaxDims];
  ptrdiff_t a_strides[kMaxDims], b_strides[kMaxDims];
  for (int p = 0; p < out.dim; ++p) {
    sizes[p] = static_cast<size_t>(out.sizes[order[p]]);
    b_strides[p] = 0;
  }
  if (!broadcast_strides(ctx.values[v.in[0]], out, order, a_strides) ||
      (inputs == 2 && !broadcast_strides(ctx.values[v.in[1]], out, order, b_strides))) {
    EMBER_LOG(Error, "cpu backend: binary operands do not broadcast to the output");
    return Error::InvalidProgram;
  }
  BinaryOp* made = new (std::nothrow) BinaryOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->op = kernel_op;
  made->a = v.in[0];
  made->out = v.out;
  made->has_scalar = inputs == 1;
  made->scalar = params->scalar();
  made->b = inputs == 2 ? v.in[1] : 0;
  made->config = &opt::f32_vbinary_config();
  BuildContext::clamp_bounds(op, &made->params.min, &made->params.max);
  opt::f32_binary_plan(out.dim, sizes, a_strides, b_strides, &made->plan);
  return static_cast<CpuOp*>(made);
}

Result<CpuOp*> make_unary(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Unary* params = op->params_as_Unary();
  OpValues v;
  if (params == nullptr || !read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  if (!same_sizes(in, out) || in.layout != out.layout) {
    EMBER_LOG(Error, "cpu backend: unary input and output differ in shape or layout");
    return Error::InvalidProgram;
  }
  opt::F32UnaryOp kernel_op;
  if (!unary_op_of(params->op(), &kernel_op)) {
    EMBER_LOG(Error, "cpu backend: unary op %d is unknown", static_cast<int>(params->op()));
    return Error::NotSupported;
  }
  UnaryOp* made = new (std::nothrow) UnaryOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->ukernel = opt::f32_vunary_config().ukernel[static_cast<size_t>(kernel_op)];
  made->in = v.in[0];
  made->out = v.out;
  made->numel = static_cast<int64_t>(out.numel);
  BuildContext::clamp_bounds(op, &made->params.min, &made->params.max);
  if (params->op() == cpu_fb::UnaryOp::Relu && !(made->params.min > 0.0f)) made->params.min = 0.0f;
  switch (kernel_op) {
    case opt::F32UnaryOp::Clamp:
    case opt::F32UnaryOp::HardSwish:
    case opt::F32UnaryOp::HardSigmoid:
    case opt::F32UnaryOp::Neg:
    case opt::F32UnaryOp::Abs:
      break;
    default:
      made->min_chunk = kMinChunkTranscendental;
  }
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
