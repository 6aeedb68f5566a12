// Row-wise ops: Softmax (softmax.comp) along any dim in the value's own
// layout, LayerNorm / RMS norm (layer_norm.comp) over the trailing dims,
// Reduce (reduce.comp) over dims that form one block in memory order. The
// checks and the [outer, size, inner] views are the CPU backend's.
#include "backends/cpu/runtime/ops/memory_order.h"
#include "backends/cpu/runtime/ops/op_util.h"
#include "backends/vulkan/runtime/ops/ops.h"

namespace ember::vulkan {
namespace {

// Reduced dims longer than this get a workgroup per output.
constexpr uint64_t kMaxRowPerInvocation = 256;

uint32_t row_groups(const Encoder& enc, uint64_t rows) {
  const uint64_t limit = enc.device().max_group_count[0];
  return static_cast<uint32_t>(rows < limit ? rows : limit);
}

}  // namespace

Error encode_softmax(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::Softmax* params = op->params_as_Softmax();
  cpu::OpValues v;
  if (params == nullptr || !cpu::read_op_values(enc.build(), op, 1, 1, &v)) {
    return Error::InvalidProgram;
  }
  const ValueInfo& in = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  const int dim = params->dim() < 0 ? params->dim() + in.dim : params->dim();
  if (!cpu::same_sizes(in, out) || in.layout != out.layout || dim < 0 || dim >= in.dim ||
      in.dtype != DataType::Float32 || out.dtype != DataType::Float32) {
    EMBER_LOG(Error, "vulkan backend: softmax over dim %d of a rank-%d value, or output unlike "
                     "input", params->dim(), in.dim);
    return Error::InvalidProgram;
  }
  uint64_t outer = 1, inner = 1;
  const uint64_t size = static_cast<uint64_t>(in.sizes[dim]);
  int order[cpu::kMaxDims];
  cpu::memory_order(in, order);
  bool after = false;
  for (int p = 0; p < in.dim; ++p) {
    if (order[p] == dim) {
      after = true;
    } else {
      (after ? inner : outer) *= static_cast<uint64_t>(in.sizes[order[p]]);
    }
  }
  const uint64_t rows = outer * inner;
  if (rows == 0 || size == 0) return Error::Ok;
  Result<BufferRef> x = enc.ref(v.in[0]);
  Result<BufferRef> y = enc.ref(v.out);
  if (!x.ok() || !y.ok()) return Error::InvalidProgram;
  Params p;
  p.u(rows).u(size).u(inner).u(params->log() ? 1 : 0);
  return enc.dispatch(Shader::softmax, {x.get(), y.get()}, p, row_groups(enc, rows));
}

Error encode_layer_norm(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::LayerNorm* params = op->params_as_LayerNorm();
  cpu::OpValues v;
  if (params == nullptr || !cpu::read_op_values(enc.build(), op, 1, 1, &v)) {
    return Error::InvalidProgram;
  }
  const ValueInfo& in = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  const int k = params->normalized_dims();
  if (!cpu::same_sizes(in, out) || in.layout != Layout::Plain || out.layout != Layout::Plain ||
      in.dtype != DataType::Float32 || out.dtype != DataType::Float32 || k < 1 || k > in.dim ||
      !(params->eps() >= 0.0f)) {
    EMBER_LOG(Error, "vulkan backend: layer norm over %d dims of a rank-%d value (plain, "
                     "eps >= 0)", k, in.dim);
    return Error::InvalidProgram;
  }
  uint64_t n = 1;
  for (int d = in.dim - k; d < in.dim; ++d) n *= static_cast<uint64_t>(in.sizes[d]);
  const int32_t weight = params->weight(), bias = params->rms() ? -1 : params->bias();
  for (const int32_t id : {weight, bias}) {
    if (id < 0) continue;
    if (static_cast<size_t>(id) >= enc.build().num_values || enc.value(id).numel != n ||
        enc.value(id).layout != Layout::Plain || enc.value(id).dtype != DataType::Float32) {
      EMBER_LOG(Error, "vulkan backend: layer norm parameter %d is not %llu plain floats", id,
                static_cast<unsigned long long>(n));
      return Error::InvalidProgram;
    }
  }
  const uint64_t rows = n > 0 ? in.numel / n : 0;
  if (rows == 0) return Error::Ok;
  Result<BufferRef> x = enc.ref(v.in[0]);
  Result<BufferRef> y = enc.ref(v.out);
  if (!x.ok() || !y.ok()) return Error::InvalidProgram;
  Result<BufferRef> w = weight >= 0 ? enc.ref(static_cast<uint32_t>(weight)) : Result<BufferRef>(y.get());
  Result<BufferRef> b = bias >= 0 ? enc.ref(static_cast<uint32_t>(bias)) : Result<BufferRef>(y.get());
  if (!w.ok() || !b.ok()) return Error::InvalidProgram;
  Params p;
  p.u(rows).u(n).f(params->eps()).u(params->rms() ? 1 : 0)
      .u((weight >= 0 ? 1u : 0u) | (bias >= 0 ? 2u : 0u));
  return enc.dispatch(Shader::layer_norm, {x.get(), w.get(), b.get(), y.get()}, p,
                      row_groups(enc, rows));
}

Error encode_reduce(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::Reduce* params = op->params_as_Reduce();
  cpu::OpValues v;
  if (params == nullptr || !cpu::read_op_values(enc.build(), op, 1, 1, &v)) {
    return Error::InvalidProgram;
  }
  const ValueInfo& in = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  size_t outer, size, inner;
  if (in.dtype != DataType::Float32 || out.dtype != DataType::Float32 ||
      !cpu::reduce_geometry(in, out, params, &outer, &size, &inner)) {
    return Error::InvalidProgram;
  }
  const uint64_t outputs = outer * inner;
  if (outputs == 0) return Error::Ok;
  Result<BufferRef> x = enc.ref(v.in[0]);
  Result<BufferRef> y = enc.ref(v.out);
  if (!x.ok() || !y.ok()) return Error::InvalidProgram;
  Params p;
  p.u(outer).u(size).u(inner).u(params->max() ? 2 : (params->mean() ? 1 : 0));
  if (size > kMaxRowPerInvocation) {
    return enc.dispatch(Shader::reduce_rows, {x.get(), y.get()}, p, row_groups(enc, outputs));
  }
  return enc.dispatch(Shader::reduce_columns, {x.get(), y.get()}, p,
                      grid_groups(enc, outputs, 64));
}

}  // namespace ember::vulkan
