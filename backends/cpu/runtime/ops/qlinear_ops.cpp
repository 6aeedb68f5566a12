// QLinear: x @ W^T with W in 4-bit (Q4_1) or 8-bit (Q8_0) blocks, on the
// quantized GEMM family (kernels/optimized/f32-qgemm). The blocks are read in
// place from the delegate blob, as the .pte maps them: nothing is unpacked or
// copied at init, so the weights cost their quantized size once.
#include <new>

#include "backends/cpu/runtime/ops/op_util.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"

namespace ember::cpu {
namespace {

using kernels::optimized::F32QGemmProblem;
using kernels::optimized::f32_gemm_config;
using kernels::optimized::f32_qgemm;
using kernels::optimized::f32_qgemm_block_bytes;
using kernels::optimized::f32_qgemm_config;
using kernels::optimized::kF32QGemmMaxK;

class QLinearOp final : public CpuOp {
 public:
  uint32_t x, out;
  const uint8_t* weights;
  int bits;
  size_t m, n, k;

  void run(const ExecState& state) const override {
    F32QGemmProblem p;
    p.bits = bits;
    p.m = m;
    p.n = n;
    p.k = k;
    p.x = state.data[x];
    p.w = weights;
    p.y = state.data[out];
    f32_qgemm(f32_qgemm_config(), f32_gemm_config(), p, state.pool);
  }
};

}  // namespace

Result<CpuOp*> make_qlinear(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::QLinear* params = op->params_as_QLinear();
  OpValues v;
  if (params == nullptr || !read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& x = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  const float* weights = ctx.constant(params->weight());
  const size_t block = f32_qgemm_block_bytes(params->bits());
  if (weights == nullptr || block == 0 || params->n() <= 0 || params->k() <= 0 ||
      params->k() % 32 != 0 || static_cast<size_t>(params->k()) > kF32QGemmMaxK) {
    EMBER_LOG(Error, "cpu backend: QLinear has bad parameters");
    return Error::InvalidProgram;
  }
  const size_t n = static_cast<size_t>(params->n()), k = static_cast<size_t>(params->k());
  const size_t weight_bytes = ctx.values[params->weight()].numel * sizeof(float);
  if (weight_bytes < n * (k / 32) * block || x.dim < 1 || x.layout != Layout::Plain ||
      out.layout != Layout::Plain || x.dtype != DataType::Float32 ||
      static_cast<size_t>(x.sizes[x.dim - 1]) != k || out.dim < 1 ||
      static_cast<size_t>(out.sizes[out.dim - 1]) != n || x.numel / k != out.numel / n) {
    EMBER_LOG(Error, "cpu backend: QLinear's values do not match its weights");
    return Error::InvalidProgram;
  }
  QLinearOp* made = new (std::nothrow) QLinearOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->x = v.in[0];
  made->out = v.out;
  made->weights = reinterpret_cast<const uint8_t*>(weights);
  made->bits = params->bits();
  made->n = n;
  made->k = k;
  made->m = x.numel / k;
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
