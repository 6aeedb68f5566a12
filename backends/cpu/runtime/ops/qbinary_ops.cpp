// Qs8Binary: add or mul of two int8 values of the same sizes and layout,
// each with its own quantization, requantized to the output's (qs8-vbinary):
// a residual add of a quantized network, with a fused relu as its clamp.
#include <new>

#include "backends/cpu/runtime/ops/qs8_util.h"
#include "kernels/optimized/qs8-vbinary/qs8_vbinary.h"

namespace ember::cpu {
namespace {

using kernels::optimized::F32BinaryPlan;
using kernels::optimized::Qs8BinaryOp;
using kernels::optimized::Qs8BinaryParams;
using kernels::optimized::qs8_vbinary_config;
using kernels::optimized::qs8_vbinary_run;

class Qs8BinaryCpuOp final : public CpuOp {
 public:
  uint32_t a, b, out;
  Qs8BinaryOp op;
  Qs8BinaryParams params;
  F32BinaryPlan plan;

  void run(const ExecState& state) const override {
    const int8_t* x = reinterpret_cast<const int8_t*>(state.data[a]);
    const int8_t* y = reinterpret_cast<const int8_t*>(state.data[b]);
    int8_t* o = reinterpret_cast<int8_t*>(state.data[out]);
    parallel_for(state.pool, static_cast<int64_t>(plan.numel), 16384,
                 [&](int64_t begin, int64_t end) {
                   qs8_vbinary_run(qs8_vbinary_config(), op, plan, x, y, o,
                                   static_cast<size_t>(begin), static_cast<size_t>(end), params);
                 });
  }
};

}  // namespace

Result<CpuOp*> make_qs8_binary(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Qs8Binary* p = op->params_as_Qs8Binary();
  OpValues v;
  if (p == nullptr || !read_op_values(ctx, op, 2, 2, &v)) return Error::InvalidProgram;
  const ValueInfo& a = ctx.values[v.in[0]];
  const ValueInfo& b = ctx.values[v.in[1]];
  const ValueInfo& out = ctx.values[v.out];
  const bool add = p->op() == cpu_fb::BinaryOp::Add;
  const double sc = p->output_scale();
  if (!is_int8(a) || !is_int8(b) || !is_int8(out) || !same_sizes(a, out) || !same_sizes(b, out) ||
      a.layout != out.layout || b.layout != out.layout ||
      (!add && p->op() != cpu_fb::BinaryOp::Mul) || !(sc > 0.0) || !std::isfinite(sc) ||
      !(p->a_scale() > 0.0f) || !(p->b_scale() > 0.0f) ||
      !valid_int8_range(p->out_min(), p->out_max(), p->output_zero()) || p->a_zero() < -128 ||
      p->a_zero() > 127 || p->b_zero() < -128 || p->b_zero() > 127) {
    EMBER_LOG(Error, "cpu backend: Qs8Binary's values or parameters are bad");
    return Error::InvalidProgram;
  }
  Qs8BinaryCpuOp* made = new (std::nothrow) Qs8BinaryCpuOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->a = v.in[0];
  made->b = v.in[1];
  made->out = v.out;
  made->op = add ? Qs8BinaryOp::Add : Qs8BinaryOp::Mul;
  made->params.a_zero = p->a_zero();
  made->params.b_zero = p->b_zero();
  made->params.a_mult =
      static_cast<float>(add ? p->a_scale() / sc : double{p->a_scale()} * p->b_scale() / sc);
  made->params.b_mult = static_cast<float>(p->b_scale() / sc);
  made->params.out_zero = p->output_zero();
  made->params.out_min = p->out_min();
  made->params.out_max = p->out_max();
  // Same sizes and layout: one run over the elements.
  const size_t sizes[1] = {out.numel};
  const ptrdiff_t strides[1] = {1};
  kernels::optimized::f32_binary_plan(1, sizes, strides, strides, &made->plan);
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
