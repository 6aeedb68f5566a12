// Qs8Convert: float <-> int8 per tensor on qs8-vcvt, where a quantized
// subgraph starts (the model's float input) and ends (its float output), and
// around the float ops inside it that have no int8 form.
#include <new>

#include "backends/cpu/runtime/ops/qs8_util.h"
#include "kernels/optimized/qs8-vcvt/qs8_vcvt.h"

namespace ember::cpu {
namespace {

using kernels::optimized::Qs8QuantizeParams;
using kernels::optimized::qs8_dequantize;
using kernels::optimized::qs8_quantize;
using kernels::optimized::qs8_vcvt_config;

class Qs8ConvertOp final : public CpuOp {
 public:
  uint32_t in, out;
  size_t n;
  bool quantize;
  Qs8QuantizeParams params;  // quantize
  float scale;               // dequantize

  void run(const ExecState& state) const override {
    if (quantize) {
      qs8_quantize(qs8_vcvt_config(), n, state.data[in], reinterpret_cast<int8_t*>(state.data[out]),
                   params, state.pool);
    } else {
      qs8_dequantize(qs8_vcvt_config(), n, reinterpret_cast<const int8_t*>(state.data[in]),
                     state.data[out], params.zero, scale, state.pool);
    }
  }
};

}  // namespace

Result<CpuOp*> make_qs8_convert(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Qs8Convert* p = op->params_as_Qs8Convert();
  OpValues v;
  if (p == nullptr || !read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  const DataType from = p->quantize() ? DataType::Float32 : DataType::Int8;
  const DataType to = p->quantize() ? DataType::Int8 : DataType::Float32;
  if (in.dtype != from || out.dtype != to || !same_sizes(in, out) || in.layout != out.layout ||
      !(p->scale() > 0.0) || !std::isfinite(p->scale()) || p->qmin() < -128 || p->qmax() > 127 ||
      p->qmin() > p->qmax() || p->zero_point() < -128 || p->zero_point() > 127) {
    EMBER_LOG(Error, "cpu backend: Qs8Convert has bad values or parameters");
    return Error::InvalidProgram;
  }
  Qs8ConvertOp* made = new (std::nothrow) Qs8ConvertOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->in = v.in[0];
  made->out = v.out;
  made->n = in.numel;
  made->quantize = p->quantize();
  // torch multiplies by the reciprocal in double, rounded to float.
  made->params.inv_scale = static_cast<float>(1.0 / p->scale());
  made->params.zero = p->zero_point();
  made->params.min = p->qmin();
  made->params.max = p->qmax();
  made->scale = static_cast<float>(p->scale());
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
