// Ops built on the f32 GEMM family (kernels/optimized/f32-gemm): Linear
// (x @ W + bias, W stored [in, out]) and Conv2d on channels-last data: a
// 1x1 stride-1 convolution is one GEMM over the pixels; any other is a GEMM
// per tile of output pixels over a small im2col of that tile (never of the
// whole image); depthwise convolution runs directly, channels innermost.
#include <cstring>
#include <new>

#include "backends/cpu/runtime/ops/op_util.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"

namespace ember::cpu {
namespace {

using kernels::optimized::F32GemmProblem;
using kernels::optimized::f32_gemm;
using kernels::optimized::f32_gemm_config;

class LinearOp final : public CpuOp {
 public:
  uint32_t x, weight, bias, out;
  bool has_bias;
  size_t m, k, n;
  float low, high;

  void run(const ExecState& state) const override {
    F32GemmProblem p;
    p.m = m;
    p.k = k;
    p.n = n;
    p.a = state.data[x];
    p.lda = k;
    p.b = state.data[weight];
    p.ldb = n;
    p.c = state.data[out];
    p.ldc = n;
    if (has_bias) {
      p.beta = 1.0f;
      p.self = state.data[bias];
      p.self_row_stride = 0;
      p.self_col_stride = 1;
    }
    f32_gemm(f32_gemm_config(), p, state.kernel_context);
    clamp_in_place(state.data[out], m * n, low, high);
  }
};

// Conv2d geometry, in NHWC terms.
struct ConvShape {
  int64_t batch, in_c, in_h, in_w, out_c, out_h, out_w, kh, kw;
  int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w, groups;
  int64_t in_per_group() const { return in_c / groups; }
  int64_t out_per_group() const { return out_c / groups; }
  int64_t pixels() const { return batch * out_h * out_w; }
};

// Rows of output pixels one GEMM call covers in the tiled path: the tile's
// im2col (rows x kh*kw*in_per_group floats) stays in L2.
constexpr int64_t kTileRows = 64;

class ConvOp final : public CpuOp {
 public:
  uint32_t x, out;
  ConvShape s;
  float* packed = nullptr;  // per group: [kh * kw * in_per_group, out_per_group]
  const float* bias = nullptr;
  float low, high;
  bool pointwise;  // 1x1, stride 1, no padding, one group
  bool depthwise;  // one input and one output channel per group

  ~ConvOp() override { delete[] packed; }
  size_t owned_bytes() const override {
    return static_cast<size_t>(s.kh * s.kw * s.in_per_group() * s.out_c) * sizeof(float);
  }
  size_t temp_bytes(size_t threads) const override {
    if (pointwise || depthwise) return 0;
    return threads * static_cast<size_t>(kTileRows * s.kh * s.kw * s.in_per_group()) *
           sizeof(float);
  }

  void run(const ExecState& state) const override {
    const float* in = state.data[x];
    float* o = state.data[out];
    if (depthwise) {
      run_depthwise(state, in, o);
    } else if (pointwise) {
      gemm(in, s.in_c, s.pixels(), 0, o, state.kernel_context);
    } else {
      run_tiled(state, in, o);
    }
    clamp_in_place(o, static_cast<size_t>(s.pixels() * s.out_c), low, high);
  }

 private:
  // out[rows, g * out_per_group ...] = a[rows, K] @ packed[g] + bias.
  void gemm(const float* a, int64_t lda, int64_t rows, int64_t g, float* o,
            KernelContext* ctx) const {
    const int64_t k = s.kh * s.kw * s.in_per_group();
    F32GemmProblem p;
    p.m = static_cast<size_t>(rows);
    p.k = static_cast<size_t>(k);
    p.n = static_cast<size_t>(s.out_per_group());
    p.a = a;
    p.lda = static_cast<size_t>(lda);
    p.b = packed + g * k * s.out_per_group();
    p.ldb = p.n;
    p.c = o + g * s.out_per_group();
    p.ldc = static_cast<size_t>(s.out_c);
    if (bias != nullptr) {
      p.beta = 1.0f;
      p.self = bias + g * s.out_per_group();
      p.self_row_stride = 0;
      p.self_col_stride = 1;
    }
    f32_gemm(f32_gemm_config(), p, ctx);
  }

  void run_tiled(const ExecState& state, const float* in, float* o) const {
    const int64_t cg = s.in_per_group();
    const int64_t k = s.kh * s.kw * cg;
    const int64_t tiles = (s.pixels() + kTileRows - 1) / kTileRows;
    const int64_t tasks = tiles * s.groups;
    const int64_t threads = state.pool != nullptr ? static_cast<int64_t>(state.pool->num_threads()) : 1;
    // One im2col buffer per chunk of tasks; parallel_for makes at most one chunk per thread.
    const int64_t chunks = threads < tasks ? threads : tasks;
    float* const temp = static_cast<float*>(state.op_temp);
    parallel_for(state.pool, tasks, 1, [&](int64_t begin, int64_t end) {
      // parallel_for gave this range to chunk i, begin = tasks * i / chunks.
      const int64_t chunk = (begin * chunks + tasks - 1) / tasks;
      float* cols = temp + chunk * kTileRows * k;
      for (int64_t t = begin; t < end; ++t) {
        const int64_t g = t / tiles;
        const int64_t p0 = (t % tiles) * kTileRows;
        const int64_t rows = s.pixels() - p0 < kTileRows ? s.pixels() - p0 : kTileRows;
        for (int64_t r = 0; r < rows; ++r) gather(in, p0 + r, g, cols + r * k);
        gemm(cols, k, rows, g, o + p0 * s.out_c, nullptr);
      }
    });
  }

  // The receptive field of output pixel `p` for group g, as k floats
  // ordered (kh, kw, channel), zeros where it falls in the padding.
  void gather(const float* in, int64_t p, int64_t g, float* col) const {
    const int64_t cg = s.in_per_group();
    const int64_t n = p / (s.out_h * s.out_w);
    const int64_t oy = p / s.out_w % s.out_h;
    const int64_t ox = p % s.out_w;
    for (int64_t ky = 0; ky < s.kh; ++ky) {
      const int64_t iy = oy * s.stride_h - s.pad_h + ky * s.dil_h;
      for (int64_t kx = 0; kx < s.kw; ++kx, col += cg) {
        const int64_t ix = ox * s.stride_w - s.pad_w + kx * s.dil_w;
        if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) {
          std::memset(col, 0, static_cast<size_t>(cg) * sizeof(float));
        } else {
          std::memcpy(col, in + ((n * s.in_h + iy) * s.in_w + ix) * s.in_c + g * cg,
                      static_cast<size_t>(cg) * sizeof(float));
        }
      }
    }
  }

  // Depthwise: out[p, c] = bias[c] + sum over taps of in[tap(p), c] * w[tap, c],
  // channels innermost so the loop vectorises; rows of output split across threads.
  void run_depthwise(const ExecState& state, const float* in, float* o) const {
    const int64_t c = s.out_c;
    parallel_for(state.pool, s.batch * s.out_h, 1, [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; ++row) {
        const int64_t n = row / s.out_h;
        const int64_t oy = row % s.out_h;
        for (int64_t ox = 0; ox < s.out_w; ++ox) {
          float* dst = o + ((n * s.out_h + oy) * s.out_w + ox) * c;
          for (int64_t ch = 0; ch < c; ++ch) dst[ch] = bias != nullptr ? bias[ch] : 0.0f;
          for (int64_t ky = 0; ky < s.kh; ++ky) {
            const int64_t iy = oy * s.stride_h - s.pad_h + ky * s.dil_h;
            if (iy < 0 || iy >= s.in_h) continue;
            for (int64_t kx = 0; kx < s.kw; ++kx) {
              const int64_t ix = ox * s.stride_w - s.pad_w + kx * s.dil_w;
              if (ix < 0 || ix >= s.in_w) continue;
              const float* src = in + ((n * s.in_h + iy) * s.in_w + ix) * c;
              const float* w = packed + (ky * s.kw + kx) * c;
              for (int64_t ch = 0; ch < c; ++ch) dst[ch] += src[ch] * w[ch];
            }
          }
        }
      }
    });
  }
};

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
  if (w.dim != 2 || x.dim < 1 || x.layout != Layout::Plain || out.layout != Layout::Plain ||
      x.sizes[x.dim - 1] != w.sizes[0] || out.sizes[out.dim - 1] != w.sizes[1] ||
      x.numel / static_cast<size_t>(w.sizes[0] > 0 ? w.sizes[0] : 1) !=
          out.numel / static_cast<size_t>(w.sizes[1] > 0 ? w.sizes[1] : 1)) {
    return Error::InvalidProgram;
  }
  if (has_bias && (static_cast<uint32_t>(params->bias()) >= ctx.num_values ||
                   ctx.values[params->bias()].numel != static_cast<size_t>(w.sizes[1]))) {
    return Error::InvalidProgram;
  }
  LinearOp* made = new (std::nothrow) LinearOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->x = v.in[0];
  made->out = v.out;
  made->weight = params->weight();
  made->has_bias = has_bias;
  made->bias = has_bias ? static_cast<uint32_t>(params->bias()) : 0;
  made->k = static_cast<size_t>(w.sizes[0]);
  made->n = static_cast<size_t>(w.sizes[1]);
  made->m = made->k > 0 ? x.numel / made->k : 0;
  BuildContext::clamp_bounds(op, &made->low, &made->high);
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
  const int64_t cg = s.in_per_group(), og = s.out_per_group();
  // The output size the geometry implies must be the one planned.
  auto extent = [](int64_t in, int64_t pad, int64_t dil, int64_t k, int64_t stride) {
    return (in + 2 * pad - dil * (k - 1) - 1) / stride + 1;
  };
  if (w.sizes[0] != s.out_c || w.sizes[1] != cg || out.sizes[0] != s.batch || s.stride_h < 1 ||
      s.stride_w < 1 || s.dil_h < 1 || s.dil_w < 1 || s.pad_h < 0 || s.pad_w < 0 ||
      s.out_h != extent(s.in_h, s.pad_h, s.dil_h, s.kh, s.stride_h) ||
      s.out_w != extent(s.in_w, s.pad_w, s.dil_w, s.kw, s.stride_w)) {
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
  made->depthwise = cg == 1 && og == 1;
  made->pointwise = s.kh == 1 && s.kw == 1 && s.stride_h == 1 && s.stride_w == 1 &&
                    s.pad_h == 0 && s.pad_w == 0 && s.groups == 1;
  BuildContext::clamp_bounds(op, &made->low, &made->high);
  // Weights OIHW -> per group [(ky, kx, ci), co]; depthwise: [(ky, kx), c].
  const int64_t k = s.kh * s.kw * cg;
  made->packed = new (std::nothrow) float[static_cast<size_t>(k * s.out_c > 0 ? k * s.out_c : 1)];
  if (made->packed == nullptr) {
    delete made;
    return Error::MemoryAllocationFailed;
  }
  for (int64_t co = 0; co < s.out_c; ++co) {
    const int64_t g = co / og, j = co % og;
    for (int64_t ci = 0; ci < cg; ++ci) {
      for (int64_t ky = 0; ky < s.kh; ++ky) {
        for (int64_t kx = 0; kx < s.kw; ++kx) {
          const float value = weight[((co * cg + ci) * s.kh + ky) * s.kw + kx];
          if (made->depthwise) {
            made->packed[(ky * s.kw + kx) * s.out_c + co] = value;
          } else {
            made->packed[g * k * og + ((ky * s.kw + kx) * cg + ci) * og + j] = value;
          }
        }
      }
    }
  }
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
