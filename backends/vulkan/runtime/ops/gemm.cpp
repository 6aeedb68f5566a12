// The product ops on gemm.comp / gemv.comp (gemm_common.glsl) and
// dwconv.comp: Linear (the weight [k, n] read in place), MatMul (both
// operands runtime values read through their strides), Conv2d (weights
// packed once at init as [group][kh, kw, in / group][out / group] for the
// implicit GEMM, or [kh, kw, C] for a depthwise one). With the program's
// weights=float16, Linear and Conv2d weights are stored as halves (the _f16w
// shader variants). Checks as the CPU backend's factories.
#include <cstring>

#include "backends/cpu/runtime/ops/op_util.h"
#include "backends/cpu/runtime/ops/view_util.h"
#include "backends/vulkan/runtime/ops/ops.h"

namespace ember::vulkan {
namespace {

// A product with at most this many rows of A runs gemv.comp (an output
// column per invocation) instead of 64 x 64 tiles that would be mostly empty.
constexpr uint64_t kMaxGemvRows = 8;

struct Product {
  uint64_t m, n, k, batch;
  int64_t a_offset, a_strides[3];  // batch, row, col
  int64_t b_offset, b_strides[3];
  uint64_t c_batch, c_row;
  uint64_t bias_batch = 0;
  bool has_bias = false, has_residual = false;
  Epilogue epilogue;
};

Params product_params(const Product& g) {
  Params p;
  p.u(g.m).u(g.n).u(g.k).u(g.batch);
  p.i(g.a_offset).i(g.a_strides[0]).i(g.a_strides[1]).i(g.a_strides[2]);
  p.i(g.b_offset).i(g.b_strides[0]).i(g.b_strides[1]).i(g.b_strides[2]);
  p.u(g.c_batch).u(g.c_row).u((g.has_bias ? 1u : 0u) | (g.has_residual ? 2u : 0u));
  p.u(g.epilogue.activation).f(g.epilogue.low).f(g.epilogue.high).u(g.bias_batch).u(0);
  return p;
}

// The variant of `shader` that reads its weights as halves.
Shader half_variant(Shader shader) {
  switch (shader) {
    case Shader::gemm: return Shader::gemm_f16w;
    case Shader::gemm_rows: return Shader::gemm_rows_f16w;
    case Shader::conv2d: return Shader::conv2d_f16w;
    case Shader::conv2d_transposed: return Shader::conv2d_transposed_f16w;
    case Shader::dwconv2d: return Shader::dwconv2d_f16w;
    default: return shader;
  }
}

// `tiled` (gemm, conv2d, conv2d_transposed), or gemm_rows for a plain
// product of few rows; with `half`, the variant reading half weights.
Error dispatch_product(Encoder& enc, const Product& g, Params& p, Shader tiled, bool half,
                       std::initializer_list<BufferRef> bindings) {
  if (g.m == 0 || g.n == 0 || g.batch == 0) return Error::Ok;
  if (tiled == Shader::gemm && g.m <= kMaxGemvRows) {
    return enc.dispatch(half ? half_variant(Shader::gemm_rows) : Shader::gemm_rows, bindings, p,
                        groups_for(g.n, 64), groups_for(g.m, 4), static_cast<uint32_t>(g.batch));
  }
  return enc.dispatch(half ? half_variant(tiled) : tiled, bindings, p, groups_for(g.n, 64),
                      groups_for(g.m, 64), static_cast<uint32_t>(g.batch));
}

// A Linear's or Conv2d's values (input, an optional residual that lies as
// the output does, output) and its weight, a constant.
bool read_weighted(Encoder& enc, const cpu_fb::Op* op, uint32_t weight, cpu::OpValues* v) {
  return cpu::read_op_values(enc.build(), op, 1, 2, v) && cpu::residual_fits(enc.build(), *v) &&
         weight < enc.build().num_values && enc.value(weight).kind == ValueKind::Constant;
}

// No bias (-1), or a constant of n elements.
bool bias_fits(Encoder& enc, int32_t bias, int64_t n) {
  return bias < 0 || (static_cast<uint32_t>(bias) < enc.build().num_values &&
                      enc.value(bias).kind == ValueKind::Constant &&
                      enc.value(bias).numel == static_cast<size_t>(n));
}

Result<BufferRef> optional_ref(Encoder& enc, int64_t id, const BufferRef& otherwise) {
  if (id < 0) return otherwise;
  return enc.ref(static_cast<uint32_t>(id));
}

// Conv weights for the implicit GEMM: [group][(ky * kw + kx) * cg + ic][o]
// from PyTorch's [out, in / groups, kh, kw] (dims: groups, cg, og, kh, kw,
// transposed: then from [in, out / groups, kh, kw]).
void pack_conv(const PackJob& job, uint8_t* dst) {
  const float* w = reinterpret_cast<const float*>(job.src);
  float* out = reinterpret_cast<float*>(dst);
  const int64_t groups = job.dims[0], cg = job.dims[1], og = job.dims[2], kh = job.dims[3],
                kw = job.dims[4];
  const bool transposed = job.dims[5] != 0;
  for (int64_t g = 0; g < groups; ++g) {
    for (int64_t ky = 0; ky < kh; ++ky) {
      for (int64_t kx = 0; kx < kw; ++kx) {
        for (int64_t ic = 0; ic < cg; ++ic) {
          const int64_t k = (ky * kw + kx) * cg + ic;
          for (int64_t o = 0; o < og; ++o) {
            const int64_t src = transposed ? (((g * cg + ic) * og + o) * kh + ky) * kw + kx
                                           : (((g * og + o) * cg + ic) * kh + ky) * kw + kx;
            out[(g * kh * kw * cg + k) * og + o] = w[src];
          }
        }
      }
    }
  }
}

// Depthwise weights [C, 1, kh, kw] as [kh, kw, C] (dims: C, kh, kw).
void pack_depthwise(const PackJob& job, uint8_t* dst) {
  const float* w = reinterpret_cast<const float*>(job.src);
  float* out = reinterpret_cast<float*>(dst);
  const int64_t c = job.dims[0], taps = job.dims[1] * job.dims[2];
  for (int64_t ch = 0; ch < c; ++ch) {
    for (int64_t t = 0; t < taps; ++t) out[t * c + ch] = w[ch * taps + t];
  }
}

int64_t conv_param(const flatbuffers::Vector<int32_t>* v, size_t i, int32_t fallback) {
  if (v == nullptr || v->size() == 0) return fallback;
  return v->Get(static_cast<flatbuffers::uoffset_t>(v->size() > i ? i : 0));
}

}  // namespace

Error encode_linear(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::Linear* params = op->params_as_Linear();
  cpu::OpValues v;
  if (params == nullptr || !read_weighted(enc, op, params->weight(), &v)) {
    return Error::InvalidProgram;
  }
  const ValueInfo& x = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  const ValueInfo& w = enc.value(params->weight());
  const bool has_bias = params->bias() >= 0;
  if (w.dim != 2 || x.dim < 1 || out.dim < 1 || x.layout != Layout::Plain ||
      out.layout != Layout::Plain || x.dtype != DataType::Float32 || w.dtype != DataType::Float32 ||
      x.sizes[x.dim - 1] != w.sizes[0] || out.sizes[out.dim - 1] != w.sizes[1] ||
      x.numel / static_cast<size_t>(w.sizes[0] > 0 ? w.sizes[0] : 1) !=
          out.numel / static_cast<size_t>(w.sizes[1] > 0 ? w.sizes[1] : 1)) {
    return Error::InvalidProgram;
  }
  if (!bias_fits(enc, params->bias(), w.sizes[1])) return Error::InvalidProgram;
  Product g{};
  g.k = static_cast<uint64_t>(w.sizes[0]);
  g.n = static_cast<uint64_t>(w.sizes[1]);
  g.m = g.k > 0 ? x.numel / g.k : 0;
  g.batch = 1;
  g.a_strides[1] = static_cast<int64_t>(g.k);
  g.a_strides[2] = 1;
  g.b_strides[1] = static_cast<int64_t>(g.n);
  g.b_strides[2] = 1;
  g.c_row = g.n;
  g.has_bias = has_bias;
  g.has_residual = v.num_in > 1;
  if (!read_epilogue(op, &g.epilogue)) return Error::InvalidProgram;
  const bool half = enc.half_weights();
  Result<BufferRef> rx = enc.ref(v.in[0]);
  Result<BufferRef> rw = half ? enc.packed(params->weight(), w.numel * 4, nullptr, {}, true)
                              : enc.ref(params->weight());
  Result<BufferRef> ro = enc.ref(v.out);
  if (!rx.ok() || !rw.ok() || !ro.ok()) return Error::InvalidProgram;
  Result<BufferRef> rb = optional_ref(enc, has_bias ? params->bias() : -1, ro.get());
  Result<BufferRef> rr =
      optional_ref(enc, g.has_residual ? static_cast<int64_t>(v.in[1]) : -1, ro.get());
  if (!rb.ok() || !rr.ok()) return Error::InvalidProgram;
  Params p = product_params(g);
  return dispatch_product(enc, g, p, Shader::gemm, half,
                          {rx.get(), rw.get(), rb.get(), rr.get(), ro.get()});
}

Error encode_matmul(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::MatMul* params = op->params_as_MatMul();
  cpu::OpValues v;
  if (params == nullptr || !cpu::read_op_values(enc.build(), op, 2, 2, &v)) {
    return Error::InvalidProgram;
  }
  const ValueInfo& out = enc.value(v.out);
  if (out.dtype != DataType::Float32 || out.layout != Layout::Plain || out.dim < 2) {
    return Error::InvalidProgram;
  }
  Product g{};
  g.m = static_cast<uint64_t>(out.sizes[out.dim - 2]);
  g.n = static_cast<uint64_t>(out.sizes[out.dim - 1]);
  g.batch = g.m * g.n > 0 ? out.numel / (g.m * g.n) : 0;
  int64_t k = params->k();
  if (params->a_strides() == nullptr) {
    const ValueInfo& a = enc.value(v.in[0]);
    k = a.dim >= 1 ? a.sizes[a.dim - 1] : -1;
  }
  if (k < 0 || k > (int64_t{1} << 31)) return Error::InvalidProgram;
  g.k = static_cast<uint64_t>(k);
  g.c_batch = g.m * g.n;
  g.c_row = g.n;
  cpu::BuildContext::clamp_bounds(op, &g.epilogue.low, &g.epilogue.high);
  const int64_t batch = static_cast<int64_t>(g.batch), m = static_cast<int64_t>(g.m),
                n = static_cast<int64_t>(g.n);
  if (g.batch > 0 && k > 0 &&
      (!cpu::matmul_operand(enc.value(v.in[0]), params->a_strides(), params->a_offset(), batch,
                            m, k, &g.a_offset, g.a_strides) ||
       !cpu::matmul_operand(enc.value(v.in[1]), params->b_strides(), params->b_offset(), batch,
                            k, n, &g.b_offset, g.b_strides))) {
    return Error::InvalidProgram;
  }
  Result<BufferRef> ra = enc.ref(v.in[0]);
  Result<BufferRef> rb = enc.ref(v.in[1]);
  Result<BufferRef> ro = enc.ref(v.out);
  if (!ra.ok() || !rb.ok() || !ro.ok()) return Error::InvalidProgram;
  Params p = product_params(g);
  return dispatch_product(enc, g, p, Shader::gemm, false,
                          {ra.get(), rb.get(), ro.get(), ro.get(), ro.get()});
}

Error encode_conv2d(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::Conv2d* params = op->params_as_Conv2d();
  cpu::OpValues v;
  if (params == nullptr || !read_weighted(enc, op, params->weight(), &v)) {
    return Error::InvalidProgram;
  }
  const ValueInfo& x = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  const ValueInfo& w = enc.value(params->weight());
  if (x.layout != Layout::NHWC || out.layout != Layout::NHWC || x.dim != 4 || out.dim != 4 ||
      w.dim != 4 || x.dtype != DataType::Float32 || out.dtype != DataType::Float32 ||
      w.dtype != DataType::Float32) {
    return Error::InvalidProgram;
  }
  const int64_t batch = x.sizes[0], in_c = x.sizes[1], in_h = x.sizes[2], in_w = x.sizes[3];
  const int64_t out_c = out.sizes[1], out_h = out.sizes[2], out_w = out.sizes[3];
  const int64_t groups = params->groups();
  const int64_t sh = conv_param(params->stride(), 0, 1), sw = conv_param(params->stride(), 1, 1);
  const int64_t ph = conv_param(params->padding(), 0, 0), pw = conv_param(params->padding(), 1, 0);
  const int64_t dh = conv_param(params->dilation(), 0, 1),
                dw = conv_param(params->dilation(), 1, 1);
  if (groups < 1 || in_c % groups != 0 || out_c % groups != 0) return Error::InvalidProgram;
  const int64_t kh = w.sizes[2], kw = w.sizes[3];
  const bool transposed = params->transposed();
  const int64_t oph = transposed ? conv_param(params->output_padding(), 0, 0) : 0;
  const int64_t opw = transposed ? conv_param(params->output_padding(), 1, 0) : 0;
  const int64_t cg = in_c / groups, og = out_c / groups;
  auto extent = [&](int64_t in, int64_t pad, int64_t dil, int64_t k, int64_t stride,
                    int64_t out_pad) {
    return transposed ? (in - 1) * stride - 2 * pad + dil * (k - 1) + out_pad + 1
                      : (in + 2 * pad - dil * (k - 1) - 1) / stride + 1;
  };
  const int64_t w_out = transposed ? w.sizes[1] : w.sizes[0];
  const int64_t w_in = transposed ? w.sizes[0] : w.sizes[1];
  if (w_out != (transposed ? og : out_c) || w_in != (transposed ? in_c : cg) || oph < 0 ||
      opw < 0 || out.sizes[0] != batch || sh < 1 || sw < 1 || dh < 1 || dw < 1 || ph < 0 ||
      pw < 0 || out_h != extent(in_h, ph, dh, kh, sh, oph) ||
      out_w != extent(in_w, pw, dw, kw, sw, opw)) {
    return Error::InvalidProgram;
  }
  const bool has_bias = params->bias() >= 0;
  if (!bias_fits(enc, params->bias(), out_c)) return Error::InvalidProgram;
  Epilogue epilogue;
  if (!read_epilogue(op, &epilogue)) return Error::InvalidProgram;
  const bool has_residual = v.num_in > 1;
  Result<BufferRef> rx = enc.ref(v.in[0]);
  Result<BufferRef> ro = enc.ref(v.out);
  if (!rx.ok() || !ro.ok()) return Error::InvalidProgram;
  Result<BufferRef> rb = optional_ref(enc, has_bias ? params->bias() : -1, ro.get());
  Result<BufferRef> rr = optional_ref(enc, has_residual ? static_cast<int64_t>(v.in[1]) : -1, ro.get());
  if (!rb.ok() || !rr.ok()) return Error::InvalidProgram;
  const uint64_t weight_bytes = w.numel * sizeof(float);
  const bool half = enc.half_weights();
  if (!transposed && cg == 1 && og == 1) {
    Result<BufferRef> rw = enc.packed(params->weight(), weight_bytes, pack_depthwise,
                                      {out_c, kh, kw}, half);
    if (!rw.ok()) return rw.error();
    Params p;
    p.u(out.numel).u(out_c).u(in_h).u(in_w).u(out_h).u(out_w).u(kh).u(kw).u(sh).u(sw).u(ph)
        .u(pw).u(dh).u(dw).u((has_bias ? 1u : 0u) | (has_residual ? 2u : 0u))
        .u(epilogue.activation).f(epilogue.low).f(epilogue.high);
    if (out.numel == 0) return Error::Ok;
    return enc.dispatch(half ? half_variant(Shader::dwconv2d) : Shader::dwconv2d,
                        {rx.get(), rw.get(), rb.get(), rr.get(), ro.get()}, p,
                        grid_groups(enc, out.numel, 256));
  }
  Result<BufferRef> rw = enc.packed(params->weight(), weight_bytes, pack_conv,
                                    {groups, cg, og, kh, kw, transposed ? 1 : 0}, half);
  if (!rw.ok()) return rw.error();
  Product g{};
  g.m = static_cast<uint64_t>(batch * out_h * out_w);
  g.n = static_cast<uint64_t>(og);
  g.k = static_cast<uint64_t>(kh * kw * cg);
  g.batch = static_cast<uint64_t>(groups);
  g.b_strides[0] = kh * kw * cg * og;
  g.b_strides[1] = og;
  g.b_strides[2] = 1;
  g.c_batch = static_cast<uint64_t>(og);
  g.c_row = static_cast<uint64_t>(out_c);
  g.bias_batch = static_cast<uint64_t>(og);
  g.has_bias = has_bias;
  g.has_residual = has_residual;
  g.epilogue = epilogue;
  // A pointwise convolution is a plain product over the pixels.
  const bool pointwise = !transposed && kh == 1 && kw == 1 && sh == 1 && sw == 1 && ph == 0 &&
                         pw == 0 && groups == 1;
  g.a_strides[1] = in_c;
  g.a_strides[2] = 1;
  Params p = product_params(g);
  p.u(in_h).u(in_w).u(in_c).u(out_h).u(out_w).u(kh).u(kw).u(sh).u(sw).u(ph).u(pw).u(dh).u(dw)
      .u(cg).u(0).u(0);
  const Shader shader = pointwise    ? Shader::gemm
                        : transposed ? Shader::conv2d_transposed
                                     : Shader::conv2d;
  return dispatch_product(enc, g, p, shader, half,
                          {rx.get(), rw.get(), rb.get(), rr.get(), ro.get()});
}

}  // namespace ember::vulkan
