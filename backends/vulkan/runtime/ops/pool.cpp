// Pool2d (max, average) and AdaptiveAvgPool2d on channels-last values
// (pool.comp), checked as the CPU backend checks them: PyTorch's geometry
// rules must give the planned output size.
#include "backends/cpu/runtime/ops/op_util.h"
#include "backends/vulkan/runtime/ops/ops.h"

namespace ember::vulkan {
namespace {

int64_t pool_param(const flatbuffers::Vector<int32_t>* v, size_t i, int64_t fallback) {
  if (v == nullptr || v->size() == 0) return fallback;
  return v->Get(static_cast<flatbuffers::uoffset_t>(v->size() > i ? i : 0));
}

// The op's input and output: 4-D channels-last floats of equal N and C.
bool read_pool(Encoder& enc, const cpu_fb::Op* op, cpu::OpValues* v, BufferRef* x,
               BufferRef* y) {
  if (!cpu::read_op_values(enc.build(), op, 1, 1, v)) return false;
  const ValueInfo& in = enc.value(v->in[0]);
  const ValueInfo& out = enc.value(v->out);
  if (in.dim != 4 || out.dim != 4 || in.layout != Layout::NHWC || out.layout != Layout::NHWC ||
      in.sizes[0] != out.sizes[0] || in.sizes[1] != out.sizes[1] ||
      in.dtype != DataType::Float32 || out.dtype != DataType::Float32) {
    EMBER_LOG(Error, "vulkan backend: a pool needs channels-last 4-D floats of equal N and C");
    return false;
  }
  Result<BufferRef> rx = enc.ref(v->in[0]);
  Result<BufferRef> ry = enc.ref(v->out);
  if (!rx.ok() || !ry.ok()) return false;
  *x = rx.get();
  *y = ry.get();
  return true;
}

Params pool_header(const ValueInfo& in, const ValueInfo& out, uint32_t mode) {
  Params p;
  p.u(out.numel).u(in.sizes[1]).u(in.sizes[2]).u(in.sizes[3]).u(out.sizes[2]).u(out.sizes[3])
      .u(mode);
  return p;
}

}  // namespace

Error encode_pool2d(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::Pool2d* params = op->params_as_Pool2d();
  cpu::OpValues v;
  BufferRef x, y;
  if (params == nullptr || !read_pool(enc, op, &v, &x, &y)) return Error::InvalidProgram;
  const ValueInfo& in = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  cpu::Pool2dGeometry g;
  if (!cpu::pool2d_geometry(in, out, params, &g)) return Error::InvalidProgram;
  const bool max = params->op() == cpu_fb::PoolOp::Max;
  float low, high;
  cpu::BuildContext::clamp_bounds(op, &low, &high);
  Params p = pool_header(in, out, max ? 0 : 1);
  p.u(g.kh).u(g.kw).u(g.sh).u(g.sw).u(g.ph).u(g.pw).u(g.dh).u(g.dw)
      .u(params->count_include_pad() ? 1 : 0)
      .i(params->divisor_override()).f(low).f(high);
  if (out.numel == 0) return Error::Ok;
  return enc.dispatch(Shader::pool2d, {x, y}, p, grid_groups(enc, out.numel, 256));
}

Error encode_adaptive_avg_pool2d(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::AdaptiveAvgPool2d* params = op->params_as_AdaptiveAvgPool2d();
  cpu::OpValues v;
  BufferRef x, y;
  if (params == nullptr || !read_pool(enc, op, &v, &x, &y)) return Error::InvalidProgram;
  const ValueInfo& in = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  if (params->output_size() != nullptr && params->output_size()->size() > 0 &&
      (pool_param(params->output_size(), 0, 0) != out.sizes[2] ||
       pool_param(params->output_size(), 1, 0) != out.sizes[3])) {
    return Error::InvalidProgram;
  }
  if (((out.sizes[2] < 1 || out.sizes[3] < 1) && out.sizes[0] * out.sizes[1] > 0) ||
      in.sizes[2] < 1 || in.sizes[3] < 1) {
    return Error::InvalidProgram;
  }
  float low, high;
  cpu::BuildContext::clamp_bounds(op, &low, &high);
  Params p = pool_header(in, out, 2);
  p.to(17).f(low).f(high);
  if (out.numel == 0) return Error::Ok;
  return enc.dispatch(Shader::pool2d, {x, y}, p, grid_groups(enc, out.numel, 256));
}

}  // namespace ember::vulkan
