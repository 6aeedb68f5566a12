// Ops built on the f32 GEMM and depthwise families (kernels/optimized/
// f32-gemm, f32-dwconv), weights packed once at init for the variant that
// runs: Linear (x @ W + bias, W stored [in, out]) and Conv2d on channels-last
// data. A 1x1 stride-1 convolution is one GEMM over the pixels; a depthwise
// one runs the dwconv microkernels over an indirection buffer of input rows;
// any other is an indirect GEMM (Dukhan's indirect convolution: per output
// pixel and tap a pointer to the input pixel's channels, no im2col copy), as
// is a transposed one (taps off the stride's grid point at zeros). A 3x3
// stride-1 convolution over a wide enough image is Winograd's F(4x4, 3x3),
// a quarter of the multiply-adds (kernels/optimized/f32-winograd).
// Fused clamps are applied in the kernels' epilogues.
#include <cstdlib>
#include <cstring>
#include <new>

#include "backends/cpu/runtime/ops/op_util.h"
#include "kernels/optimized/f32-dwconv/f32_dwconv.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/f32-winograd/f32_winograd.h"

namespace ember::cpu {
namespace {

using kernels::optimized::F32DwconvConfig;
using kernels::optimized::F32DwconvParams;
using kernels::optimized::F32DwconvShape;
using kernels::optimized::F32ConvShape;
using kernels::optimized::F32GemmConfig;
using kernels::optimized::F32GemmProblem;
using kernels::optimized::F32IgemmProblem;
using kernels::optimized::f32_dwconv;
using kernels::optimized::f32_dwconv_config;
using kernels::optimized::f32_dwconv_indirection;
using kernels::optimized::f32_dwconv_indirection_size;
using kernels::optimized::f32_dwconv_pack_weights;
using kernels::optimized::f32_dwconv_packed_size;
using kernels::optimized::f32_gemm;
using kernels::optimized::f32_gemm_config;
using kernels::optimized::f32_gemm_pack_weights;
using kernels::optimized::f32_gemm_packed_weights_size;
using kernels::optimized::f32_igemm;
using kernels::optimized::f32_igemm_conv_indirection;
using kernels::optimized::f32_igemm_deconv_indirection;
using kernels::optimized::f32_igemm_indirection_size;
using kernels::optimized::F32WinogradConfig;
using kernels::optimized::F32WinogradShape;
using kernels::optimized::f32_winograd_config;
using kernels::optimized::f32_winograd_conv;
using kernels::optimized::f32_winograd_pack_weights;
using kernels::optimized::f32_winograd_packed_weights_size;
using kernels::optimized::f32_winograd_pays;
using kernels::optimized::f32_winograd_temp_floats;

// Backend-owned float arrays, 64-byte aligned (a cache line, any vector).
float* new_floats(size_t n) {
  return static_cast<float*>(::operator new[](n > 0 ? n * sizeof(float) : 1,
                                              std::align_val_t{64}, std::nothrow));
}
void delete_floats(float* p) {
  if (p != nullptr) ::operator delete[](p, std::align_val_t{64});
}

class LinearOp final : public CpuOp {
 public:
  uint32_t x, out;
  const float* bias = nullptr;
  float* packed = nullptr;  // W packed for `config` at init
  const F32GemmConfig* config = nullptr;
  size_t m, k, n;
  float low, high;

  ~LinearOp() override { delete_floats(packed); }
  size_t owned_bytes() const override {
    return f32_gemm_packed_weights_size(*config, k, n) * sizeof(float);
  }

  void run(const ExecState& state) const override {
    F32GemmProblem p;
    p.m = m;
    p.k = k;
    p.n = n;
    p.a = state.data[x];
    p.lda = k;
    p.packed_b = packed;
    p.c = state.data[out];
    p.ldc = n;
    if (bias != nullptr) {
      p.beta = 1.0f;
      p.self = bias;
      p.self_row_stride = 0;
      p.self_col_stride = 1;
    }
    p.clamp_min = low;
    p.clamp_max = high;
    f32_gemm(*config, p, state.kernel_context);
  }
};

// Conv2d geometry, in NHWC terms.
struct ConvShape {
  int64_t batch, in_c, in_h, in_w, out_c, out_h, out_w, kh, kw;
  int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w, groups;
  int64_t in_per_group() const { return in_c / groups; }
  int64_t out_per_group() const { return out_c / groups; }
  int64_t pixels() const { return batch * out_h * out_w; }
  int64_t taps() const { return kh * kw; }
  bool transposed = false;  // conv_transpose: weight [in_c, out_per_group, kh, kw]
};

class ConvOp final : public CpuOp {
 public:
  // Blocks: a transposed conv whose kernel equals its stride (U-Net's 2x2
  // stride 2), no padding or dilation: each input pixel writes its own
  // kh x kw block of outputs, one GEMM per tap over every input row.
  enum class Path { Pointwise, Indirect, Depthwise, Blocks, Winograd };

  uint32_t x, out;
  ConvShape s;
  Path path;
  float low, high;
  const float* bias = nullptr;  // in the blob
  float* packed = nullptr;      // weights for the path's kernel
  size_t packed_floats = 0;
  float* zero = nullptr;        // padding taps read these zeros
  const float** indirection = nullptr;
  size_t indirection_size = 0;
  const F32GemmConfig* gemm = nullptr;
  const F32DwconvConfig* dw = nullptr;
  F32DwconvShape dw_shape{};
  const F32WinogradConfig* winograd = nullptr;
  F32WinogradShape wino_shape{};

  ~ConvOp() override {
    delete_floats(packed);
    delete_floats(zero);
    delete[] indirection;
  }
  size_t temp_bytes(size_t num_threads) const override {
    (void)num_threads;
    return path == Path::Winograd ? f32_winograd_temp_floats(wino_shape) * sizeof(float) : 0;
  }
  size_t owned_bytes() const override {
    return (packed_floats + static_cast<size_t>(s.in_c)) * sizeof(float) +
           indirection_size * sizeof(float*);
  }

  void run(const ExecState& state) const override {
    const float* in = state.data[x];
    float* o = state.data[out];
    switch (path) {
      case Path::Pointwise: {
        F32GemmProblem p;
        p.m = static_cast<size_t>(s.pixels());
        p.k = static_cast<size_t>(s.in_c);
        p.n = static_cast<size_t>(s.out_c);
        p.a = in;
        p.lda = p.k;
        p.packed_b = packed;
        p.c = o;
        p.ldc = p.n;
        if (bias != nullptr) {
          p.beta = 1.0f;
          p.self = bias;
          p.self_row_stride = 0;
          p.self_col_stride = 1;
        }
        p.clamp_min = low;
        p.clamp_max = high;
        f32_gemm(*gemm, p, state.kernel_context);
        break;
      }
      case Path::Indirect: {
        const int64_t cg = s.in_per_group(), og = s.out_per_group();
        const size_t group_floats = packed_floats / static_cast<size_t>(s.groups);
        for (int64_t g = 0; g < s.groups; ++g) {
          F32IgemmProblem p;
          p.m = static_cast<size_t>(s.pixels());
          p.n = static_cast<size_t>(og);
          p.kc = static_cast<size_t>(cg);
          p.ks = static_cast<size_t>(s.taps());
          p.indirection = indirection;
          // The buffer holds byte offsets into the input; the group's
          // channels start g * cg floats into each pixel.
          p.a_offset = reinterpret_cast<uintptr_t>(in + g * cg);
          p.zero = zero;
          p.packed_b = packed + static_cast<size_t>(g) * group_floats;
          p.bias = bias != nullptr ? bias + g * og : nullptr;
          p.c = o + g * og;
          p.ldc = static_cast<size_t>(s.out_c);
          p.clamp_min = low;
          p.clamp_max = high;
          f32_igemm(*gemm, p, state.kernel_context);
        }
        break;
      }
      case Path::Blocks: {
        const int64_t cg = s.in_per_group(), og = s.out_per_group();
        const size_t group_floats =
            packed_floats / static_cast<size_t>(s.groups * s.taps());
        for (int64_t t = 0; t < s.taps(); ++t) {
          const int64_t ky = t / s.kw, kx = t % s.kw;
          for (int64_t g = 0; g < s.groups; ++g) {
            // Batch b = input row (n, iy), which lands on output row
            // (n, iy * kh + ky) = b * kh + ky; pixel ix on column ix * kw + kx.
            F32GemmProblem p;
            p.batch = static_cast<size_t>(s.batch * s.in_h);
            p.m = static_cast<size_t>(s.in_w);
            p.k = static_cast<size_t>(cg);
            p.n = static_cast<size_t>(og);
            p.a = in + g * cg;
            p.lda = static_cast<size_t>(s.in_c);
            p.a_batch_stride = static_cast<size_t>(s.in_w * s.in_c);
            p.packed_b = packed + static_cast<size_t>(t * s.groups + g) * group_floats;
            p.c = o + (ky * s.out_w + kx) * s.out_c + g * og;
            p.ldc = static_cast<size_t>(s.kw * s.out_c);
            p.c_batch_stride = static_cast<size_t>(s.kh * s.out_w * s.out_c);
            if (bias != nullptr) {
              p.beta = 1.0f;
              p.self = bias + g * og;
              p.self_col_stride = 1;
            }
            p.clamp_min = low;
            p.clamp_max = high;
            f32_gemm(*gemm, p, state.kernel_context);
          }
        }
        break;
      }
      case Path::Winograd:
        f32_winograd_conv(*winograd, *gemm, wino_shape, in, packed, bias, low, high, o,
                          static_cast<float*>(state.op_temp), state.pool);
        break;
      case Path::Depthwise: {
        F32DwconvParams params;
        params.min = low;
        params.max = high;
        f32_dwconv(*dw, dw_shape, indirection, zero, packed, in, o, params, state.pool);
        break;
      }
    }
  }

  // Builds what the path needs from PyTorch's OIHW weights; false when out of memory.
  bool prepare(const float* weight);
};

F32WinogradShape winograd_shape(const ConvShape& s) {
  auto z = [](int64_t v) { return static_cast<size_t>(v); };
  return F32WinogradShape{z(s.batch), z(s.in_h), z(s.in_w),  z(s.in_c), z(s.out_c),
                          z(s.pad_h), z(s.pad_w), z(s.out_h), z(s.out_w)};
}

bool ConvOp::prepare(const float* weight) {
  const int64_t cg = s.in_per_group(), og = s.out_per_group();
  const int64_t taps = s.taps();
  zero = new_floats(static_cast<size_t>(s.in_c));
  if (zero == nullptr) return false;
  std::memset(zero, 0, static_cast<size_t>(s.in_c) * sizeof(float));

  if (path == Path::Blocks) {
    // Per tap and group, B = [ci, co] from the [in_c, og, kh, kw] weights.
    gemm = &f32_gemm_config();
    const size_t group_floats =
        f32_gemm_packed_weights_size(*gemm, static_cast<size_t>(cg), static_cast<size_t>(og));
    packed_floats = group_floats * static_cast<size_t>(s.groups * taps);
    packed = new_floats(packed_floats);
    float* b = new_floats(static_cast<size_t>(cg * og));
    if (packed == nullptr || b == nullptr) {
      delete_floats(b);
      return false;
    }
    for (int64_t t = 0; t < taps; ++t) {
      for (int64_t g = 0; g < s.groups; ++g) {
        for (int64_t ci = 0; ci < cg; ++ci) {
          for (int64_t j = 0; j < og; ++j) {
            b[ci * og + j] = weight[((g * cg + ci) * og + j) * taps + t];
          }
        }
        f32_gemm_pack_weights(*gemm, static_cast<size_t>(cg), static_cast<size_t>(og), b,
                              static_cast<size_t>(og),
                              packed + static_cast<size_t>(t * s.groups + g) * group_floats);
      }
    }
    delete_floats(b);
    return true;
  }
  if (path == Path::Winograd) {
    wino_shape = winograd_shape(s);
    gemm = &f32_gemm_config();
    winograd = &f32_winograd_config();
    packed_floats = f32_winograd_packed_weights_size(*gemm, wino_shape.in_c, wino_shape.out_c);
    packed = new_floats(packed_floats);
    float* scratch = new_floats(wino_shape.in_c * wino_shape.out_c);
    if (packed != nullptr && scratch != nullptr) {
      f32_winograd_pack_weights(*gemm, wino_shape.in_c, wino_shape.out_c, weight, scratch, packed);
    }
    delete_floats(scratch);
    return packed != nullptr && scratch != nullptr;
  }
  if (path == Path::Depthwise) {
    dw = &f32_dwconv_config();
    packed_floats = f32_dwconv_packed_size(*dw, static_cast<size_t>(taps),
                                           static_cast<size_t>(s.out_c));
    packed = new_floats(packed_floats);
    if (packed == nullptr) return false;
    f32_dwconv_pack_weights(*dw, static_cast<size_t>(s.kh), static_cast<size_t>(s.kw),
                            static_cast<size_t>(s.out_c), weight, bias, packed);
    dw_shape = F32DwconvShape{static_cast<size_t>(s.batch),  static_cast<size_t>(s.out_c),
                              static_cast<size_t>(s.in_h),   static_cast<size_t>(s.in_w),
                              static_cast<size_t>(s.out_h),  static_cast<size_t>(s.out_w),
                              static_cast<size_t>(s.kh),     static_cast<size_t>(s.kw),
                              static_cast<size_t>(s.stride_h), static_cast<size_t>(s.stride_w),
                              static_cast<size_t>(s.pad_h),  static_cast<size_t>(s.pad_w),
                              static_cast<size_t>(s.dil_h),  static_cast<size_t>(s.dil_w)};
    indirection_size = f32_dwconv_indirection_size(dw_shape);
    indirection = new (std::nothrow) const float*[indirection_size > 0 ? indirection_size : 1];
    if (indirection == nullptr) return false;
    f32_dwconv_indirection(dw_shape, zero, indirection);
    return true;
  }

  gemm = &f32_gemm_config();
  const size_t k = static_cast<size_t>(taps * cg);
  const size_t group_floats = f32_gemm_packed_weights_size(*gemm, k, static_cast<size_t>(og));
  packed_floats = group_floats * static_cast<size_t>(s.groups);
  packed = new_floats(packed_floats);
  // Per group, B = [(ky, kx, ci), co], then packed into the GEMM's panels.
  float* b = new_floats(k * static_cast<size_t>(og));
  if (packed == nullptr || b == nullptr) {
    delete_floats(b);
    return false;
  }
  for (int64_t g = 0; g < s.groups; ++g) {
    for (int64_t j = 0; j < og; ++j) {
      for (int64_t ci = 0; ci < cg; ++ci) {
        const float* w = s.transposed ? weight + ((g * cg + ci) * og + j) * taps
                                      : weight + ((g * og + j) * cg + ci) * taps;
        for (int64_t t = 0; t < taps; ++t) b[(t * cg + ci) * og + j] = w[t];
      }
    }
    f32_gemm_pack_weights(*gemm, k, static_cast<size_t>(og), b, static_cast<size_t>(og),
                          packed + static_cast<size_t>(g) * group_floats);
  }
  delete_floats(b);
  if (path == Path::Pointwise) return true;

  // Per tile of mr output pixels and per tap, the pixels' input pointers.
  indirection_size = f32_igemm_indirection_size(*gemm, static_cast<size_t>(s.pixels()),
                                                static_cast<size_t>(taps));
  indirection = new (std::nothrow) const float*[indirection_size > 0 ? indirection_size : 1];
  if (indirection == nullptr) return false;
  const F32ConvShape shape{static_cast<size_t>(s.batch),  static_cast<size_t>(s.in_h),
                           static_cast<size_t>(s.in_w),   static_cast<size_t>(s.in_c),
                           static_cast<size_t>(s.out_h),  static_cast<size_t>(s.out_w),
                           static_cast<size_t>(s.kh),     static_cast<size_t>(s.kw),
                           static_cast<size_t>(s.stride_h), static_cast<size_t>(s.stride_w),
                           static_cast<size_t>(s.pad_h),  static_cast<size_t>(s.pad_w),
                           static_cast<size_t>(s.dil_h),  static_cast<size_t>(s.dil_w)};
  if (s.transposed) {
    f32_igemm_deconv_indirection(*gemm, shape, zero, indirection);
  } else {
    f32_igemm_conv_indirection(*gemm, shape, zero, indirection);
  }
  return true;
}

// A dense 3x3 stride-1 convolution where F32 Winograd pays. EMBER_CPU_WINOGRAD=0
// turns the path off (to compare against the indirect GEMM).
bool winograd_applies(const ConvShape& s) {
  static const bool enabled = [] {
    const char* env = std::getenv("EMBER_CPU_WINOGRAD");
    return env == nullptr || std::strcmp(env, "0") != 0;
  }();
  return enabled && !s.transposed && s.groups == 1 && s.kh == 3 && s.kw == 3 &&
         s.stride_h == 1 && s.stride_w == 1 && s.dil_h == 1 && s.dil_w == 1 &&
         s.pad_h <= 2 && s.pad_w <= 2 && f32_winograd_pays(winograd_shape(s));
}

int32_t param(const flatbuffers::Vector<int32_t>* v, size_t i, int32_t fallback) {
  return v != nullptr && v->size() > i ? v->Get(static_cast<flatbuffers::uoffset_t>(i)) : fallback;
}

}  // namespace

Result<CpuOp*> make_linear(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Linear* params = op->params_as_Linear();
  OpValues v;
  if (params == nullptr || !read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& x = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  if (params->weight() >= ctx.num_values || ctx.constant(params->weight()) == nullptr) {
    return Error::InvalidProgram;
  }
  const ValueInfo& w = ctx.values[params->weight()];
  const bool has_bias = params->bias() >= 0;
  if (w.dim != 2 || x.dim < 1 || out.dim < 1 || x.layout != Layout::Plain ||
      out.layout != Layout::Plain ||
      x.sizes[x.dim - 1] != w.sizes[0] || out.sizes[out.dim - 1] != w.sizes[1] ||
      x.numel / static_cast<size_t>(w.sizes[0] > 0 ? w.sizes[0] : 1) !=
          out.numel / static_cast<size_t>(w.sizes[1] > 0 ? w.sizes[1] : 1)) {
    return Error::InvalidProgram;
  }
  if (has_bias && (static_cast<uint32_t>(params->bias()) >= ctx.num_values ||
                   ctx.constant(static_cast<uint32_t>(params->bias())) == nullptr ||
                   ctx.values[params->bias()].numel != static_cast<size_t>(w.sizes[1]))) {
    return Error::InvalidProgram;
  }
  LinearOp* made = new (std::nothrow) LinearOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->x = v.in[0];
  made->out = v.out;
  made->bias = has_bias ? ctx.constant(static_cast<uint32_t>(params->bias())) : nullptr;
  made->k = static_cast<size_t>(w.sizes[0]);
  made->n = static_cast<size_t>(w.sizes[1]);
  made->m = made->k > 0 ? x.numel / made->k : 0;
  BuildContext::clamp_bounds(op, &made->low, &made->high);
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

Result<CpuOp*> make_conv2d(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Conv2d* params = op->params_as_Conv2d();
  OpValues v;
  if (params == nullptr || !read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& x = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  const float* weight = ctx.constant(params->weight());
  if (weight == nullptr || x.layout != Layout::NHWC || out.layout != Layout::NHWC) {
    return Error::InvalidProgram;
  }
  const ValueInfo& w = ctx.values[params->weight()];
  ConvShape s{};
  s.batch = x.sizes[0];
  s.in_c = x.sizes[1];
  s.in_h = x.sizes[2];
  s.in_w = x.sizes[3];
  s.out_c = out.sizes[1];
  s.out_h = out.sizes[2];
  s.out_w = out.sizes[3];
  s.groups = params->groups();
  s.stride_h = param(params->stride(), 0, 1);
  s.stride_w = param(params->stride(), 1, 1);
  s.pad_h = param(params->padding(), 0, 0);
  s.pad_w = param(params->padding(), 1, 0);
  s.dil_h = param(params->dilation(), 0, 1);
  s.dil_w = param(params->dilation(), 1, 1);
  if (w.dim != 4 || s.groups < 1 || s.in_c % s.groups != 0 || s.out_c % s.groups != 0) {
    return Error::InvalidProgram;
  }
  s.kh = w.sizes[2];
  s.kw = w.sizes[3];
  s.transposed = params->transposed();
  const int64_t out_pad_h = s.transposed ? param(params->output_padding(), 0, 0) : 0;
  const int64_t out_pad_w = s.transposed ? param(params->output_padding(), 1, 0) : 0;
  const int64_t cg = s.in_per_group(), og = s.out_per_group();
  // The output size the geometry implies must be the one planned.
  auto extent = [&](int64_t in, int64_t pad, int64_t dil, int64_t k, int64_t stride,
                    int64_t out_pad) {
    return s.transposed ? (in - 1) * stride - 2 * pad + dil * (k - 1) + out_pad + 1
                        : (in + 2 * pad - dil * (k - 1) - 1) / stride + 1;
  };
  const int64_t w_out = s.transposed ? w.sizes[1] : w.sizes[0];
  const int64_t w_in = s.transposed ? w.sizes[0] : w.sizes[1];
  if (w_out != (s.transposed ? og : s.out_c) || w_in != (s.transposed ? s.in_c : cg) ||
      out_pad_h < 0 || out_pad_w < 0 || out.sizes[0] != s.batch || s.stride_h < 1 ||
      s.stride_w < 1 || s.dil_h < 1 || s.dil_w < 1 || s.pad_h < 0 || s.pad_w < 0 ||
      s.out_h != extent(s.in_h, s.pad_h, s.dil_h, s.kh, s.stride_h, out_pad_h) ||
      s.out_w != extent(s.in_w, s.pad_w, s.dil_w, s.kw, s.stride_w, out_pad_w)) {
    return Error::InvalidProgram;
  }
  const float* bias = nullptr;
  if (params->bias() >= 0) {
    bias = ctx.constant(static_cast<uint32_t>(params->bias()));
    if (bias == nullptr || ctx.values[params->bias()].numel != static_cast<size_t>(s.out_c)) {
      return Error::InvalidProgram;
    }
  }
  ConvOp* made = new (std::nothrow) ConvOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->x = v.in[0];
  made->out = v.out;
  made->s = s;
  made->bias = bias;
  if (s.transposed) {
    const bool blocks = s.kh == s.stride_h && s.kw == s.stride_w && s.pad_h == 0 &&
                        s.pad_w == 0 && s.dil_h == 1 && s.dil_w == 1 && out_pad_h == 0 &&
                        out_pad_w == 0;
    // Otherwise the indirect GEMM: taps off the stride's grid read zeros.
    made->path = blocks ? ConvOp::Path::Blocks : ConvOp::Path::Indirect;
  } else if (cg == 1 && og == 1) {
    made->path = ConvOp::Path::Depthwise;
  } else if (winograd_applies(s)) {
    made->path = ConvOp::Path::Winograd;
  } else if (s.kh == 1 && s.kw == 1 && s.stride_h == 1 && s.stride_w == 1 && s.pad_h == 0 &&
             s.pad_w == 0 && s.groups == 1) {
    made->path = ConvOp::Path::Pointwise;
  } else {
    made->path = ConvOp::Path::Indirect;
  }
  BuildContext::clamp_bounds(op, &made->low, &made->high);
  if (!made->prepare(weight)) {
    delete made;
    return Error::MemoryAllocationFailed;
  }
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
