// The Conv2d op on channels-last data, weights packed once at init for the
// variant that runs. A 1x1 stride-1 convolution is one GEMM over the pixels;
// a depthwise one runs the dwconv microkernels over an indirection buffer of
// input rows; any other is an indirect GEMM (Dukhan's indirect convolution:
// per output pixel and tap a pointer to the input pixel's channels, no im2col
// copy), as is a transposed one (taps off the stride's grid point at zeros).
// A 3x3 stride-1 convolution over a wide enough image is Winograd's F(4x4,
// 3x3), a quarter of the multiply-adds, or F(2x2, 3x3) where F(4x4)'s
// weights would be too large (kernels/optimized/f32-winograd).
// Clamps, activations and residuals are applied as each tile is finished.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>

#include "backends/cpu/runtime/ops/conv_op.h"

namespace ember::cpu {

ConvOp::~ConvOp() {
  delete_floats(packed);
  delete_floats(zero);
  delete[] indirection;
}

void ConvOp::run(const ExecState& state) const {
  const float* in = state.data[x];
  float* o = state.data[out];
  const OutputHook hook{&act, o, act.residual ? state.data[residual] : nullptr};
  switch (path) {
    case Path::Pointwise:
      f32_gemm(*gemm,
               packed_gemm_problem(static_cast<size_t>(s.pixels()), static_cast<size_t>(s.in_c),
                                   static_cast<size_t>(s.out_c), in, packed, bias, act,
                                   hook.row(), o),
               state.kernel_context);
      break;
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
        p.clamp_min = act.low;
        p.clamp_max = act.high;
        p.activation = hook.row();
        f32_igemm(*gemm, p, state.kernel_context);
      }
      break;
    }
    case Path::Rows: {
      float* padded = static_cast<float*>(state.op_temp);
      pad_input(in, padded, state.pool);
      F32IgemmProblem p;
      p.m = static_cast<size_t>(s.pixels());
      p.n = static_cast<size_t>(s.out_c);
      p.kc = static_cast<size_t>(s.kw * s.in_c);
      p.ks = static_cast<size_t>(s.kh);
      p.indirection = indirection;
      p.a_offset = reinterpret_cast<uintptr_t>(padded);
      p.zero = zero;
      p.packed_b = packed;
      p.bias = bias;
      p.c = o;
      p.ldc = static_cast<size_t>(s.out_c);
      p.clamp_min = act.low;
      p.clamp_max = act.high;
      p.activation = hook.row();
      f32_igemm(*gemm, p, state.kernel_context);
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
          p.clamp_min = act.low;
          p.clamp_max = act.high;
          p.activation = hook.row();
          f32_gemm(*gemm, p, state.kernel_context);
        }
      }
      break;
    }
    case Path::Winograd:
      f32_winograd_conv(*winograd, *gemm, wino_shape, in, packed, bias, act.low, act.high, o,
                        static_cast<float*>(state.op_temp), state.pool, hook.row());
      break;
    case Path::Depthwise: {
      F32DwconvParams params;
      params.min = act.low;
      params.max = act.high;
      params.activation = hook.row();
      f32_dwconv(*dw, dw_shape, indirection, zero, packed, in, o, params, state.pool);
      break;
    }
  }
}

bool ConvOp::absorb_pad(uint32_t x_id, int64_t in_h, int64_t in_w, int64_t top, int64_t left,
                        float fill) {
  if (path != Path::Depthwise || fill != 0.0f || std::signbit(fill) ||
      !f32_dwconv_unpadded_input(dw_shape, in_h, in_w, top, left, &dw_shape)) {
    return false;
  }
  x = x_id;
  s.in_h = in_h, s.in_w = in_w, s.pad_h += top, s.pad_w += left;  // what the chains read
  f32_dwconv_indirection(dw_shape, zero, indirection);
  return true;
}

// Copies the NHWC input into the Rows path's padded image, zeros around it.
void ConvOp::pad_input(const float* in, float* padded, ThreadPool* pool) const {
  const int64_t hp = padded_h(), wp = padded_w(), c = s.in_c;
  const size_t row_floats = static_cast<size_t>(wp * c);
  parallel_for(pool, s.batch * hp, 16, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t y = r % hp - s.pad_h;
      float* dst = padded + static_cast<size_t>(r) * row_floats;
      if (y < 0 || y >= s.in_h) {
        std::memset(dst, 0, row_floats * sizeof(float));
        continue;
      }
      const size_t edge = static_cast<size_t>(s.pad_w * c);
      const size_t inner = static_cast<size_t>(s.in_w * c);
      std::memset(dst, 0, edge * sizeof(float));
      std::memcpy(dst + edge, in + static_cast<size_t>((r / hp * s.in_h + y)) * inner,
                  inner * sizeof(float));
      std::memset(dst + edge + inner, 0, edge * sizeof(float));
    }
  });
}

namespace {

F32WinogradShape winograd_shape(const ConvShape& s, size_t tile) {
  auto z = [](int64_t v) { return static_cast<size_t>(v); };
  return F32WinogradShape{z(s.batch), z(s.in_h),  z(s.in_w),  z(s.in_c), z(s.out_c),
                          z(s.pad_h), z(s.pad_w), z(s.out_h), z(s.out_w), tile};
}

// The Winograd tile for a dense 3x3 stride-1 convolution, 0 for the
// indirect GEMM: f32_winograd_tile_for's choice. EMBER_CPU_WINOGRAD=0 turns
// the path off, =4 or =2 forces that tile wherever the shape allows it (to
// compare the paths).
size_t winograd_tile(const ConvShape& s) {
  static const int forced = [] {
    const char* env = std::getenv("EMBER_CPU_WINOGRAD");
    return env == nullptr ? -1 : std::atoi(env);
  }();
  const bool dense_3x3 = !s.transposed && s.groups == 1 && s.kh == 3 && s.kw == 3 &&
                         s.stride_h == 1 && s.stride_w == 1 && s.dil_h == 1 && s.dil_w == 1 &&
                         s.pad_h <= 2 && s.pad_w <= 2;
  if (!dense_3x3 || forced == 0) return 0;
  if (forced == 2 || forced == 4) return static_cast<size_t>(forced);
  return f32_winograd_tile_for(winograd_shape(s, 4));
}

}  // namespace

bool ConvOp::prepare(const float* weight) {
  const int64_t cg = s.in_per_group(), og = s.out_per_group();
  const int64_t taps = s.taps();
  // Zeros for padding taps: C floats, or a whole kernel row of the Rows path.
  const size_t zero_floats = static_cast<size_t>(path == Path::Rows ? s.kw * s.in_c : s.in_c);
  zero = new_floats(zero_floats);
  if (zero == nullptr) return false;
  std::memset(zero, 0, zero_floats * sizeof(float));

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
    gemm = &f32_gemm_config();
    winograd = &f32_winograd_config();
    packed_floats = f32_winograd_packed_weights_size(*gemm, wino_shape);
    packed = new_floats(packed_floats);
    float* scratch = new_floats(wino_shape.in_c * wino_shape.out_c);
    if (packed != nullptr && scratch != nullptr) {
      f32_winograd_pack_weights(*gemm, wino_shape, weight, scratch, packed);
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
  if (path == Path::Rows) {
    // Per tile of mr output pixels and per kernel row ky, each pixel's first
    // tap in the padded image (byte offsets; the missing rows of a last
    // partial tile read zeros). The weights' (ky, kx, ci) order is the
    // padded image's order along a row.
    const size_t m = static_cast<size_t>(s.pixels()), mr = gemm->mr, kh = static_cast<size_t>(s.kh);
    indirection_size = f32_igemm_indirection_size(*gemm, m, kh);
    indirection = new (std::nothrow) const float*[indirection_size > 0 ? indirection_size : 1];
    if (indirection == nullptr) return false;
    for (size_t i = 0; i < indirection_size; ++i) indirection[i] = zero;
    const int64_t hp = padded_h(), wp = padded_w();
    for (size_t p = 0; p < m; ++p) {
      const int64_t n = static_cast<int64_t>(p) / (s.out_h * s.out_w);
      const int64_t oy = static_cast<int64_t>(p) / s.out_w % s.out_h;
      const int64_t ox = static_cast<int64_t>(p) % s.out_w;
      for (size_t ky = 0; ky < kh; ++ky) {
        const int64_t y = oy * s.stride_h + static_cast<int64_t>(ky) * s.dil_h;
        const int64_t pixel = (n * hp + y) * wp + ox * s.stride_w;
        indirection[(p / mr) * mr * kh + ky * mr + p % mr] =
            reinterpret_cast<const float*>(static_cast<uintptr_t>(pixel * s.in_c) * sizeof(float));
      }
    }
    return true;
  }

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

namespace {

// Input channels up to which a convolution takes the Rows path: an RGB or
// RGBA stem, whose C taps per pointer would leave the GEMM's k loop too short.
constexpr int64_t kRowsMaxChannels = 4;


int32_t param(const flatbuffers::Vector<int32_t>* v, size_t i, int32_t fallback) {
  return v != nullptr && v->size() > i ? v->Get(static_cast<flatbuffers::uoffset_t>(i)) : fallback;
}


}  // namespace

Result<ConvOp*> build_conv(const BuildContext& ctx, const cpu_fb::Conv2d* params,
                           const cpu_fb::Clamp* clamp, const cpu_fb::Activation* activation,
                           uint32_t x_id, const ValueInfo& x, uint32_t out_id,
                           const ValueInfo& out, int64_t residual) {
  if (params == nullptr || params->weight() >= ctx.num_values) {
    return refuse("a convolution without parameters or a weight");
  }
  const float* weight = ctx.constant(params->weight());
  if (weight == nullptr) return refuse("the convolution's weight is not a constant");
  if (x.layout != Layout::NHWC || out.layout != Layout::NHWC || x.dim != 4 || out.dim != 4) {
    return refuse("a convolution takes and gives channels-last 4-D values");
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
    return refuse("a %d-D weight, or %lld groups that do not divide %lld input and %lld output "
                  "channels", w.dim, static_cast<long long>(s.groups),
                  static_cast<long long>(s.in_c), static_cast<long long>(s.out_c));
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
    return refuse("the convolution's weight, strides, padding and dilation do not give its "
                  "output size");
  }
  const float* bias = nullptr;
  if (params->bias() >= 0) {
    bias = ctx.constant(static_cast<uint32_t>(params->bias()));
    if (bias == nullptr || ctx.values[params->bias()].numel != static_cast<size_t>(s.out_c)) {
      return refuse("the convolution's bias is not a constant of %lld floats",
                    static_cast<long long>(s.out_c));
    }
  }
  ConvOp* made = new (std::nothrow) ConvOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->x = x_id;
  made->out = out_id;
  made->residual = residual >= 0 ? static_cast<uint32_t>(residual) : 0;
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
  } else if (const size_t tile = winograd_tile(s); tile != 0) {
    made->path = ConvOp::Path::Winograd;
    made->wino_shape = winograd_shape(s, tile);
  } else if (s.kh == 1 && s.kw == 1 && s.stride_h == 1 && s.stride_w == 1 && s.pad_h == 0 &&
             s.pad_w == 0 && s.groups == 1) {
    made->path = ConvOp::Path::Pointwise;
  } else if (s.groups == 1 && s.in_c <= kRowsMaxChannels && s.kw > 1 && s.dil_w == 1) {
    made->path = ConvOp::Path::Rows;
  } else {
    made->path = ConvOp::Path::Indirect;
  }
  if (!made->act.read(clamp, activation, residual >= 0)) {
    delete made;
    return Error::InvalidProgram;  // read() logged why
  }
  if (!made->prepare(weight)) {
    delete made;
    return Error::MemoryAllocationFailed;
  }
  return made;
}

Result<CpuOp*> make_conv2d(const BuildContext& ctx, const cpu_fb::Op* op) {
  OpValues v;
  if (!read_op_values(ctx, op, 1, 2, &v) || !residual_fits(ctx, v)) return Error::InvalidProgram;
  Result<ConvOp*> made = build_conv(ctx, op->params_as_Conv2d(), op->clamp(), op->activation(),
                                    v.in[0], ctx.values[v.in[0]], v.out, ctx.values[v.out],
                                    v.num_in > 1 ? static_cast<int64_t>(v.in[1]) : -1);
  if (!made.ok()) return made.error();
  return static_cast<CpuOp*>(made.get());
}


}  // namespace ember::cpu
