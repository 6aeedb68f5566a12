// Pooling ops on channels-last data: max and average pooling over windows
// (PyTorch's padding, dilation, ceil_mode, count_include_pad and
// divisor_override rules) and adaptive average pooling (the mean over the
// spatial dims is a Reduce, reduce_ops.cpp). Channels are innermost, so every
// loop runs over contiguous channels; output rows split across threads.
#include <cstring>
#include <limits>
#include <new>

#include "backends/cpu/runtime/ops/op_util.h"

namespace ember::cpu {
namespace {

int32_t param(const flatbuffers::Vector<int32_t>* v, size_t i, int32_t fallback) {
  if (v == nullptr || v->size() == 0) return fallback;
  // One value stands for both dims, as PyTorch's int lists allow.
  return v->Get(static_cast<flatbuffers::uoffset_t>(v->size() > i ? i : 0));
}

// PyTorch's pooling output size (pooling_output_shape): with ceil_mode, the
// last window must start inside the input or its left padding.
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  const int64_t span = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  // Floor division: in ceil mode a window larger than the input still gives
  // one output (EfficientNet's final AvgPool2d(1280, ceil_mode=True)).
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

struct PoolShape {
  int64_t batch, c, in_h, in_w, out_h, out_w;
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
};

// Every channel of one output pixel: the max over the window (NaN wins, as
// in PyTorch, for floats), or the sum divided by `divisor`. T: float, or
// int8 codes (a quantized max pool: the code of the max is the max code).
template <typename T>
void max_pixel(const PoolShape& s, const T* in, int64_t n, int64_t oy, int64_t ox, T* o) {
  const int64_t c = s.c;
  bool first = true;
  for (int64_t ky = 0; ky < s.kh; ++ky) {
    const int64_t iy = oy * s.sh - s.ph + ky * s.dh;
    if (iy < 0 || iy >= s.in_h) continue;
    for (int64_t kx = 0; kx < s.kw; ++kx) {
      const int64_t ix = ox * s.sw - s.pw + kx * s.dw;
      if (ix < 0 || ix >= s.in_w) continue;
      const T* src = in + ((n * s.in_h + iy) * s.in_w + ix) * c;
      if (first) {
        std::memcpy(o, src, static_cast<size_t>(c) * sizeof(T));
        first = false;
        continue;
      }
      for (int64_t ch = 0; ch < c; ++ch) {
        const T v = src[ch];
        o[ch] = (v > o[ch] || v != v) ? v : o[ch];
      }
    }
  }
  // A window wholly in the padding (PyTorch's size rules prevent it): -inf.
  if (first) {
    for (int64_t ch = 0; ch < c; ++ch) o[ch] = std::numeric_limits<T>::lowest();
  }
}

class Pool2dOp final : public CpuOp {
 public:
  uint32_t x, out;
  PoolShape s;
  bool max;
  bool int8 = false;  // a max pool of int8 codes
  bool count_include_pad;
  int64_t divisor_override;
  float low, high;

  void run(const ExecState& state) const override {
    if (int8) {
      run_int8(reinterpret_cast<const int8_t*>(state.data[x]),
               reinterpret_cast<int8_t*>(state.data[out]), state.pool);
      return;
    }
    const float* in = state.data[x];
    float* o = state.data[out];
    parallel_for(state.pool, s.batch * s.out_h, 1, [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; ++row) {
        const int64_t n = row / s.out_h, oy = row % s.out_h;
        for (int64_t ox = 0; ox < s.out_w; ++ox) {
          float* dst = o + (row * s.out_w + ox) * s.c;
          if (max) {
            max_pixel(s, in, n, oy, ox, dst);
          } else {
            average_pixel(in, n, oy, ox, dst);
          }
          clamp_in_place(dst, static_cast<size_t>(s.c), low, high);
        }
      }
    });
  }

 private:
  void run_int8(const int8_t* in, int8_t* o, ThreadPool* pool) const {
    parallel_for(pool, s.batch * s.out_h, 1, [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; ++row) {
        const int64_t n = row / s.out_h, oy = row % s.out_h;
        for (int64_t ox = 0; ox < s.out_w; ++ox) {
          max_pixel(s, in, n, oy, ox, o + (row * s.out_w + ox) * s.c);
        }
      }
    });
  }

  void average_pixel(const float* in, int64_t n, int64_t oy, int64_t ox, float* o) const {
    // PyTorch's avg_pool2d: the window clipped to the padded input gives the
    // count with padding, clipped to the input the one without.
    int64_t y0 = oy * s.sh - s.ph, x0 = ox * s.sw - s.pw;
    int64_t y1 = y0 + s.kh < s.in_h + s.ph ? y0 + s.kh : s.in_h + s.ph;
    int64_t x1 = x0 + s.kw < s.in_w + s.pw ? x0 + s.kw : s.in_w + s.pw;
    const int64_t padded = (y1 - y0) * (x1 - x0);
    y0 = y0 > 0 ? y0 : 0;
    x0 = x0 > 0 ? x0 : 0;
    y1 = y1 < s.in_h ? y1 : s.in_h;
    x1 = x1 < s.in_w ? x1 : s.in_w;
    const int64_t divisor = divisor_override != 0 ? divisor_override
                            : count_include_pad   ? padded
                                                  : (y1 - y0) * (x1 - x0);
    const int64_t c = s.c;
    for (int64_t ch = 0; ch < c; ++ch) o[ch] = 0.0f;
    for (int64_t iy = y0; iy < y1; ++iy) {
      for (int64_t ix = x0; ix < x1; ++ix) {
        const float* src = in + ((n * s.in_h + iy) * s.in_w + ix) * c;
        for (int64_t ch = 0; ch < c; ++ch) o[ch] += src[ch];
      }
    }
    const float scale = 1.0f / static_cast<float>(divisor);
    for (int64_t ch = 0; ch < c; ++ch) o[ch] *= scale;
  }
};

// Adaptive average pooling: output cell (oy, ox) averages input rows
// [floor(oy * H / OH), ceil((oy + 1) * H / OH)) and likewise columns.
class AdaptiveAvgPoolOp final : public CpuOp {
 public:
  uint32_t x, out;
  PoolShape s;
  float low, high;

  void run(const ExecState& state) const override {
    const float* in = state.data[x];
    float* o = state.data[out];
    parallel_for(state.pool, s.batch * s.out_h, 1, [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; ++row) {
        const int64_t n = row / s.out_h, oy = row % s.out_h;
        const int64_t y0 = oy * s.in_h / s.out_h;
        const int64_t y1 = ((oy + 1) * s.in_h + s.out_h - 1) / s.out_h;
        for (int64_t ox = 0; ox < s.out_w; ++ox) {
          const int64_t x0 = ox * s.in_w / s.out_w;
          const int64_t x1 = ((ox + 1) * s.in_w + s.out_w - 1) / s.out_w;
          float* dst = o + (row * s.out_w + ox) * s.c;
          for (int64_t ch = 0; ch < s.c; ++ch) dst[ch] = 0.0f;
          for (int64_t iy = y0; iy < y1; ++iy) {
            for (int64_t ix = x0; ix < x1; ++ix) {
              const float* src = in + ((n * s.in_h + iy) * s.in_w + ix) * s.c;
              for (int64_t ch = 0; ch < s.c; ++ch) dst[ch] += src[ch];
            }
          }
          const float scale = 1.0f / static_cast<float>((y1 - y0) * (x1 - x0));
          for (int64_t ch = 0; ch < s.c; ++ch) dst[ch] *= scale;
          clamp_in_place(dst, static_cast<size_t>(s.c), low, high);
        }
      }
    });
  }
};

// The input and output of a 2-D pool: [N, C, H, W] channels-last values with
// the same N and C.
bool read_pool_values(const BuildContext& ctx, const cpu_fb::Op* op, OpValues* v,
                      PoolShape* s) {
  if (!read_op_values(ctx, op, 1, 1, v)) return false;
  const ValueInfo& x = ctx.values[v->in[0]];
  const ValueInfo& out = ctx.values[v->out];
  if (x.dim != 4 || out.dim != 4 || x.layout != Layout::NHWC || out.layout != Layout::NHWC ||
      x.sizes[0] != out.sizes[0] || x.sizes[1] != out.sizes[1]) {
    EMBER_LOG(Error, "cpu backend: a pool needs channels-last 4-D values of equal N and C");
    return false;
  }
  *s = PoolShape{};
  s->batch = x.sizes[0];
  s->c = x.sizes[1];
  s->in_h = x.sizes[2];
  s->in_w = x.sizes[3];
  s->out_h = out.sizes[2];
  s->out_w = out.sizes[3];
  return true;
}

}  // namespace

bool pool2d_geometry(const ValueInfo& in, const ValueInfo& out, const cpu_fb::Pool2d* params,
                     Pool2dGeometry* g) {
  g->kh = param(params->kernel(), 0, 0);
  g->kw = param(params->kernel(), 1, 0);
  g->sh = param(params->stride(), 0, static_cast<int32_t>(g->kh));
  g->sw = param(params->stride(), 1, static_cast<int32_t>(g->kw));
  g->ph = param(params->padding(), 0, 0);
  g->pw = param(params->padding(), 1, 0);
  g->dh = param(params->dilation(), 0, 1);
  g->dw = param(params->dilation(), 1, 1);
  const bool max = params->op() == cpu_fb::PoolOp::Max;
  const bool ceil = params->ceil_mode();
  // PyTorch's own checks (pad at most half the window), and the output size
  // its rules give must be the planned one.
  if (in.dim != 4 || out.dim != 4 || g->kh < 1 || g->kw < 1 || g->sh < 1 || g->sw < 1 ||
      g->dh < 1 || g->dw < 1 || g->ph < 0 || g->pw < 0 || 2 * g->ph > (g->kh - 1) * g->dh + 1 ||
      2 * g->pw > (g->kw - 1) * g->dw + 1 || (!max && (g->dh != 1 || g->dw != 1)) ||
      params->divisor_override() < 0 ||
      out.sizes[2] != pooled_size(in.sizes[2], g->kh, g->ph, g->sh, g->dh, ceil) ||
      out.sizes[3] != pooled_size(in.sizes[3], g->kw, g->pw, g->sw, g->dw, ceil)) {
    EMBER_LOG(Error, "pool geometry does not give its output size");
    return false;
  }
  return true;
}

Result<CpuOp*> make_pool2d(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Pool2d* params = op->params_as_Pool2d();
  OpValues v;
  PoolShape s;
  Pool2dGeometry g;
  if (params == nullptr || !read_pool_values(ctx, op, &v, &s) ||
      !pool2d_geometry(ctx.values[v.in[0]], ctx.values[v.out], params, &g)) {
    return Error::InvalidProgram;
  }
  s.kh = g.kh, s.kw = g.kw, s.sh = g.sh, s.sw = g.sw, s.ph = g.ph, s.pw = g.pw, s.dh = g.dh,
  s.dw = g.dw;
  const bool max = params->op() == cpu_fb::PoolOp::Max;
  // int8 codes (a quantized max pool) in and out, or floats.
  const DataType dtype = ctx.values[v.in[0]].dtype;
  const bool int8 = dtype == DataType::Int8;
  if ((dtype != DataType::Float32 && !int8) || ctx.values[v.out].dtype != dtype ||
      (int8 && (!max || op->clamp() != nullptr))) {
    EMBER_LOG(Error, "cpu backend: a pool takes floats, or int8 codes for a max pool alone");
    return Error::InvalidProgram;
  }
  Pool2dOp* made = new (std::nothrow) Pool2dOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->x = v.in[0];
  made->out = v.out;
  made->s = s;
  made->max = max;
  made->int8 = int8;
  made->count_include_pad = params->count_include_pad();
  made->divisor_override = params->divisor_override();
  BuildContext::clamp_bounds(op, &made->low, &made->high);
  return static_cast<CpuOp*>(made);
}

Result<CpuOp*> make_adaptive_avg_pool2d(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::AdaptiveAvgPool2d* params = op->params_as_AdaptiveAvgPool2d();
  OpValues v;
  PoolShape s;
  if (params == nullptr || !read_pool_values(ctx, op, &v, &s)) return Error::InvalidProgram;
  // The output size is the planned value's; the parameter, when given, must agree.
  if (params->output_size() != nullptr && params->output_size()->size() > 0 &&
      (param(params->output_size(), 0, 0) != s.out_h ||
       param(params->output_size(), 1, 0) != s.out_w)) {
    return refuse("the adaptive pool's output size differs from its output's");
  }
  if ((s.out_h < 1 || s.out_w < 1 || s.in_h < 1 || s.in_w < 1) && s.batch * s.c > 0) {
    return refuse("an adaptive pool from %lldx%lld to %lldx%lld pixels",
                  static_cast<long long>(s.in_h), static_cast<long long>(s.in_w),
                  static_cast<long long>(s.out_h), static_cast<long long>(s.out_w));
  }
  AdaptiveAvgPoolOp* made = new (std::nothrow) AdaptiveAvgPoolOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->x = v.in[0];
  made->out = v.out;
  made->s = s;
  BuildContext::clamp_bounds(op, &made->low, &made->high);
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
