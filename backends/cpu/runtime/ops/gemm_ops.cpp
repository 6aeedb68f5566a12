// Linear on the f32 GEMM (kernels/optimized/f32-gemm): x @ W + bias, W
// stored [in, out] and packed once at init for the variant that runs; bias,
// clamp, activation and a residual applied as each tile is finished.
#include <new>

#include "backends/cpu/runtime/ops/activation.h"
#include "backends/cpu/runtime/ops/op_util.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"

namespace ember::cpu {
namespace {

using kernels::optimized::F32GemmConfig;
using kernels::optimized::F32GemmProblem;
using kernels::optimized::f32_gemm;
using kernels::optimized::f32_gemm_config;
using kernels::optimized::f32_gemm_pack_weights;
using kernels::optimized::f32_gemm_packed_weights_size;

class LinearOp final : public CpuOp {
 public:
  uint32_t x, out;
  uint32_t residual = 0;  // added to the output when act.residual
  const float* bias = nullptr;
  float* packed = nullptr;  // W packed for `config` at init
  const F32GemmConfig* config = nullptr;
  size_t m, k, n;
  OutputActivation act;

  ~LinearOp() override { delete_floats(packed); }
  size_t owned_bytes() const override {
    return f32_gemm_packed_weights_size(*config, k, n) * sizeof(float);
  }

  void run(const ExecState& state) const override {
    const OutputHook hook{&act, state.data[out], act.residual ? state.data[residual] : nullptr};
    f32_gemm(*config,
             packed_gemm_problem(m, k, n, state.data[x], packed, bias, act, hook.row(),
                                 state.data[out]),
             state.kernel_context);
  }
};


}  // namespace

Result<CpuOp*> make_linear(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Linear* params = op->params_as_Linear();
  OpValues v;
  if (params == nullptr) return refuse("a linear op without parameters");
  if (!read_op_values(ctx, op, 1, 2, &v) || !residual_fits(ctx, v)) return Error::InvalidProgram;
  const ValueInfo& x = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  if (params->weight() >= ctx.num_values || ctx.constant(params->weight()) == nullptr) {
    return refuse("the linear op's weight is not a constant");
  }
  const ValueInfo& w = ctx.values[params->weight()];
  const bool has_bias = params->bias() >= 0;
  // Rows: the leading dims' product (numel / k is 0 for any rows when k = 0,
  // a layer of no inputs, whose outputs are the bias alone).
  size_t x_rows = 1, out_rows = 1;
  for (int d = 0; d + 1 < x.dim; ++d) x_rows *= static_cast<size_t>(x.sizes[d]);
  for (int d = 0; d + 1 < out.dim; ++d) out_rows *= static_cast<size_t>(out.sizes[d]);
  if (w.dim != 2 || x.dim < 1 || out.dim < 1 || x.layout != Layout::Plain ||
      out.layout != Layout::Plain ||
      x.sizes[x.dim - 1] != w.sizes[0] || out.sizes[out.dim - 1] != w.sizes[1] ||
      x_rows != out_rows) {
    return refuse("a linear op's plain input (rank %d) and output (rank %d) must match its "
                  "[in, out] weight (rank %d)", x.dim, out.dim, w.dim);
  }
  if (has_bias && (static_cast<uint32_t>(params->bias()) >= ctx.num_values ||
                   ctx.constant(static_cast<uint32_t>(params->bias())) == nullptr ||
                   ctx.values[params->bias()].numel != static_cast<size_t>(w.sizes[1]))) {
    return refuse("the linear op's bias is not a constant of %d floats", w.sizes[1]);
  }
  LinearOp* made = new (std::nothrow) LinearOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->x = v.in[0];
  made->out = v.out;
  made->residual = v.num_in > 1 ? v.in[1] : 0;
  made->bias = has_bias ? ctx.constant(static_cast<uint32_t>(params->bias())) : nullptr;
  made->k = static_cast<size_t>(w.sizes[0]);
  made->n = static_cast<size_t>(w.sizes[1]);
  made->m = out_rows;
  if (!made->act.read(op, v.num_in > 1)) {
    delete made;
    return Error::InvalidProgram;  // read() logged why
  }
  made->config = &f32_gemm_config();
  made->packed = new_floats(f32_gemm_packed_weights_size(*made->config, made->k, made->n));
  if (made->packed == nullptr) {
    delete made;
    return Error::MemoryAllocationFailed;
  }
  f32_gemm_pack_weights(*made->config, made->k, made->n, ctx.constant(params->weight()),
                        made->n, made->packed);
  return static_cast<CpuOp*>(made);
}


}  // namespace ember::cpu
