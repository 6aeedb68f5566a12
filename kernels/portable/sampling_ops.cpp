// Pooling and sampling outside core ATen: adaptive_max_pool2d/3d,
// fractional_max_pool2d/3d (with the random samples passed in, so a program
// is deterministic), grid_sampler_3d and _upsample_bilinear2d_aa (bilinear
// with an antialiasing filter when downscaling). Windows, coordinates and
// tie rules are PyTorch's CPU kernels'.
#include <cmath>
#include <limits>
#include <optional>

#include "kernels/portable/util/elementwise_util.h"
#include "kernels/portable/util/grid_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// The last `spatial` dims of an input of rank spatial + 1 (unbatched) or
// spatial + 2, as planes of extent[0] x ... voxels.
struct Planes {
  int64_t batch = 1, channels = 1;
  int64_t in[3] = {1, 1, 1};
  int64_t out[3] = {1, 1, 1};
  int spatial = 2;
  bool batched = true;
  int64_t in_plane() const { return in[0] * in[1] * in[2]; }
  int64_t out_plane() const { return out[0] * out[1] * out[2]; }
};

bool read_planes(KernelContext& ctx, const char* op, const Tensor& self, int spatial,
                 IntArrayRef output_size, Planes* p) {
  if (self.dim() != spatial + 1 && self.dim() != spatial + 2) {
    ctx.fail(Error::InvalidArgument, "%s: expected a %d-D or %d-D input, got %d-D", op,
             spatial + 1, spatial + 2, self.dim());
    return false;
  }
  if (output_size.size() != static_cast<size_t>(spatial)) {
    ctx.fail(Error::InvalidArgument, "%s: output_size must have %d values", op, spatial);
    return false;
  }
  p->spatial = spatial;
  p->batched = self.dim() == spatial + 2;
  p->batch = p->batched ? self.size(0) : 1;
  p->channels = self.size(p->batched ? 1 : 0);
  const int first = self.dim() - spatial;
  for (int i = 0; i < spatial; ++i) {
    p->in[3 - spatial + i] = self.size(first + i);
    p->out[3 - spatial + i] = output_size[i];
    if (output_size[i] < 0 || self.size(first + i) <= 0) {
      ctx.fail(Error::InvalidArgument, "%s: empty spatial dims or a negative output size", op);
      return false;
    }
  }
  return check_contiguous(ctx, op, self);
}

bool resize_pooled(KernelContext& ctx, const char* op, const Tensor& self, const Planes& p,
                   Tensor& out) {
  int64_t sizes[5];
  int rank = 0;
  for (int d = 0; d < self.dim() - p.spatial; ++d) sizes[rank++] = self.size(d);
  for (int i = 3 - p.spatial; i < 3; ++i) sizes[rank++] = p.out[i];
  return check_contiguous(ctx, op, out) &&
         resize_output(ctx, out, Span<const int64_t>(sizes, rank), op);
}

// Max over a window, keeping the first strict maximum or the last NaN (torch:
// "val > max || isnan(val)"); the index is into the input plane.
template <typename T>
void window_max(const T* plane, const Planes& p, const int64_t* lo, const int64_t* hi, T* value,
                int64_t* index) {
  using M = opmath_t<T>;
  M best = -std::numeric_limits<M>::infinity();
  if constexpr (!is_float_v<T>) best = std::numeric_limits<M>::lowest();
  int64_t at = (lo[0] * p.in[1] + lo[1]) * p.in[2] + lo[2];
  for (int64_t t = lo[0]; t < hi[0]; ++t) {
    for (int64_t y = lo[1]; y < hi[1]; ++y) {
      for (int64_t x = lo[2]; x < hi[2]; ++x) {
        const int64_t i = (t * p.in[1] + y) * p.in[2] + x;
        const M v = static_cast<M>(plane[i]);
        if (v > best || is_nan(v)) {
          best = v;
          at = i;
        }
      }
    }
  }
  *value = convert<T>(best);
  *index = at;
}

template <int kSpatial>
void adaptive_max_pool(KernelContext& ctx, const char* op, const Tensor& self,
                       IntArrayRef output_size, Tensor& out, Tensor& indices) {
  Planes p;
  if (!read_planes(ctx, op, self, kSpatial, output_size, &p) ||
      !check_out_dtype(ctx, op, self.scalar_type(), out) ||
      !check_out_dtype(ctx, op, ScalarType::Long, indices) || !resize_pooled(ctx, op, self, p, out) ||
      !resize_pooled(ctx, op, self, p, indices)) {
    return;
  }
  switch_dtype<kRealTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = self.const_data_ptr<T>();
    T* dst = out.mutable_data_ptr<T>();
    int64_t* idx = indices.mutable_data_ptr<int64_t>();
    for (int64_t plane = 0; plane < p.batch * p.channels; ++plane) {
      const T* in = src + plane * p.in_plane();
      int64_t o = plane * p.out_plane();
      for (int64_t t = 0; t < p.out[0]; ++t) {
        for (int64_t y = 0; y < p.out[1]; ++y) {
          for (int64_t x = 0; x < p.out[2]; ++x, ++o) {
            const int64_t pos[3] = {t, y, x};
            int64_t lo[3], hi[3];
            for (int i = 0; i < 3; ++i) {
              // floor(i * in / out) and ceil((i + 1) * in / out)
              lo[i] = pos[i] * p.in[i] / p.out[i];
              hi[i] = ((pos[i] + 1) * p.in[i] + p.out[i] - 1) / p.out[i];
            }
            window_max(in, p, lo, hi, dst + o, idx + o);
          }
        }
      }
    }
  });
}

void adaptive_max_pool2d_out(KernelContext& ctx, const Tensor& self, IntArrayRef output_size,
                             Tensor& out, Tensor& indices) {
  adaptive_max_pool<2>(ctx, "adaptive_max_pool2d.out", self, output_size, out, indices);
}
void adaptive_max_pool3d_out(KernelContext& ctx, const Tensor& self, IntArrayRef output_size,
                             Tensor& out, Tensor& indices) {
  adaptive_max_pool<3>(ctx, "adaptive_max_pool3d.out", self, output_size, out, indices);
}

// torch's generate_intervals: the window starts for one dim from a sample
// u in [0, 1); the last window ends at the edge. Computed in the input's
// dtype as torch does: for Half and BFloat16 c10's operators round every
// step (alpha, i + u, each product) to that dtype, and so does this (in
// float the windows would differ: relative errors of 0.05 to 0.15).
template <typename T>
int64_t interval_start(T sample, int64_t in, int64_t out, int64_t pool, int64_t i) {
  if (i == out - 1) return in - pool;
  const T alpha = static_cast<T>(static_cast<T>(in - pool) / static_cast<T>(out - 1));
  const T shifted = static_cast<T>(static_cast<T>(i) + sample);
  return static_cast<int64_t>(static_cast<int>(static_cast<T>(shifted * alpha)) -
                              static_cast<int>(static_cast<T>(sample * alpha)));
}

template <int kSpatial>
void fractional_max_pool(KernelContext& ctx, const char* op, const Tensor& self,
                         IntArrayRef kernel_size, IntArrayRef output_size,
                         const Tensor& random_samples, Tensor& out, Tensor& indices) {
  Planes p;
  if (!read_planes(ctx, op, self, kSpatial, output_size, &p) ||
      !check_out_dtype(ctx, op, self.scalar_type(), out) ||
      !check_out_dtype(ctx, op, ScalarType::Long, indices)) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, kernel_size.size() == static_cast<size_t>(kSpatial),
                     "%s: kernel_size must have %d values", op, kSpatial);
  int64_t pool[3] = {1, 1, 1};
  for (int i = 0; i < kSpatial; ++i) {
    pool[3 - kSpatial + i] = kernel_size[i];
    const int d = 3 - kSpatial + i;
    EMBER_KERNEL_CHECK(ctx, pool[d] > 0 && p.out[d] > 0 && p.out[d] + pool[d] - 1 <= p.in[d],
                       "%s: output size + kernel size - 1 must fit the input", op);
  }
  EMBER_KERNEL_CHECK(ctx, random_samples.scalar_type() == self.scalar_type() &&
                              random_samples.dim() == 3 && random_samples.size(0) == p.batch &&
                              random_samples.size(1) == p.channels &&
                              random_samples.size(2) == kSpatial,
                     "%s: random_samples must be [N, C, %d] of the input's dtype", op, kSpatial);
  if (!check_contiguous(ctx, op, random_samples) || !resize_pooled(ctx, op, self, p, out) ||
      !resize_pooled(ctx, op, self, p, indices)) {
    return;
  }
  switch_dtype<kFloatTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = self.const_data_ptr<T>();
    const T* samples = random_samples.const_data_ptr<T>();
    T* dst = out.mutable_data_ptr<T>();
    int64_t* idx = indices.mutable_data_ptr<int64_t>();
    for (int64_t plane = 0; plane < p.batch * p.channels; ++plane) {
      // 2-D samples are (w, h); 3-D samples are (t, h, w).
      const T* u = samples + plane * kSpatial;
      T sample[3] = {T(0), T(0), T(0)};
      if (kSpatial == 2) {
        sample[2] = u[0];
        sample[1] = u[1];
      } else {
        sample[0] = u[0];
        sample[1] = u[1];
        sample[2] = u[2];
      }
      const T* in = src + plane * p.in_plane();
      int64_t o = plane * p.out_plane();
      for (int64_t t = 0; t < p.out[0]; ++t) {
        for (int64_t y = 0; y < p.out[1]; ++y) {
          for (int64_t x = 0; x < p.out[2]; ++x, ++o) {
            const int64_t pos[3] = {t, y, x};
            int64_t lo[3], hi[3];
            for (int i = 0; i < 3; ++i) {
              lo[i] = 3 - i > kSpatial
                          ? 0
                          : interval_start<T>(sample[i], p.in[i], p.out[i], pool[i], pos[i]);
              hi[i] = lo[i] + pool[i];
            }
            window_max(in, p, lo, hi, dst + o, idx + o);
          }
        }
      }
    }
  });
}

void fractional_max_pool2d_out(KernelContext& ctx, const Tensor& self, IntArrayRef kernel_size,
                               IntArrayRef output_size, const Tensor& random_samples,
                               Tensor& output, Tensor& indices) {
  fractional_max_pool<2>(ctx, "fractional_max_pool2d.output", self, kernel_size, output_size,
                         random_samples, output, indices);
}
void fractional_max_pool3d_out(KernelContext& ctx, const Tensor& self, IntArrayRef kernel_size,
                               IntArrayRef output_size, const Tensor& random_samples,
                               Tensor& output, Tensor& indices) {
  fractional_max_pool<3>(ctx, "fractional_max_pool3d.output", self, kernel_size, output_size,
                         random_samples, output, indices);
}

// --- grid_sampler_3d: input [N, C, D, H, W], grid [N, D', H', W', 3] of (x, y, z)

template <typename T>
void grid_sample_3d(const Tensor& input, const Tensor& grid, int64_t mode, int64_t padding,
                    bool align_corners, Tensor& out) {
  using A = acc_t<T>;
  const int64_t n = input.size(0), c = input.size(1);
  const int64_t d = input.size(2), h = input.size(3), w = input.size(4);
  const int64_t od = grid.size(1), oh = grid.size(2), ow = grid.size(3);
  const T* in = input.const_data_ptr<T>();
  const T* g = grid.const_data_ptr<T>();
  T* o = out.mutable_data_ptr<T>();
  const A far = static_cast<A>(1e15);
  auto inside = [&](int64_t z, int64_t y, int64_t x) {
    return z >= 0 && z < d && y >= 0 && y < h && x >= 0 && x < w;
  };
  const int64_t points = od * oh * ow;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t q = 0; q < points; ++q) {
      const T* gp = g + (b * points + q) * 3;
      const A ix = grid::source_coord(static_cast<A>(gp[0]), w, padding, align_corners);
      const A iy = grid::source_coord(static_cast<A>(gp[1]), h, padding, align_corners);
      const A iz = grid::source_coord(static_cast<A>(gp[2]), d, padding, align_corners);
      const bool bad = !(std::fabs(ix) < far) || !(std::fabs(iy) < far) || !(std::fabs(iz) < far);
      for (int64_t ch = 0; ch < c; ++ch) {
        const T* vol = in + (b * c + ch) * d * h * w;
        A v = 0;
        if (bad) {
          v = 0;
        } else if (mode == 1) {
          const int64_t x = static_cast<int64_t>(std::nearbyint(ix));
          const int64_t y = static_cast<int64_t>(std::nearbyint(iy));
          const int64_t z = static_cast<int64_t>(std::nearbyint(iz));
          if (inside(z, y, x)) v = static_cast<A>(vol[(z * h + y) * w + x]);
        } else {
          const int64_t x0 = static_cast<int64_t>(std::floor(ix));
          const int64_t y0 = static_cast<int64_t>(std::floor(iy));
          const int64_t z0 = static_cast<int64_t>(std::floor(iz));
          const A tx = ix - static_cast<A>(x0), ty = iy - static_cast<A>(y0),
                  tz = iz - static_cast<A>(z0);
          for (int k = 0; k < 8; ++k) {
            const int64_t x = x0 + (k & 1), y = y0 + ((k >> 1) & 1), z = z0 + ((k >> 2) & 1);
            const A wgt = ((k & 1) ? tx : 1 - tx) * (((k >> 1) & 1) ? ty : 1 - ty) *
                          (((k >> 2) & 1) ? tz : 1 - tz);
            if (inside(z, y, x)) v += wgt * static_cast<A>(vol[(z * h + y) * w + x]);
          }
        }
        o[(b * c + ch) * points + q] = static_cast<T>(v);
      }
    }
  }
}

void grid_sampler_3d_out(KernelContext& ctx, const Tensor& input, const Tensor& grid,
                         int64_t interpolation_mode, int64_t padding_mode, bool align_corners,
                         Tensor& out) {
  const char* op = "grid_sampler_3d.out";
  EMBER_KERNEL_CHECK(ctx, input.dim() == 5 && grid.dim() == 5 && grid.size(4) == 3 &&
                              grid.size(0) == input.size(0),
                     "%s: expected input [N, C, D, H, W] and grid [N, D', H', W', 3]", op);
  EMBER_KERNEL_CHECK(ctx, interpolation_mode == 0 || interpolation_mode == 1,
                     "%s: interpolation_mode %lld is not 0 (bilinear) or 1 (nearest)", op,
                     static_cast<long long>(interpolation_mode));
  EMBER_KERNEL_CHECK(ctx, padding_mode >= 0 && padding_mode <= 2,
                     "%s: padding_mode %lld is not 0, 1 or 2", op,
                     static_cast<long long>(padding_mode));
  for (int dim = 2; dim < 5; ++dim) {
    EMBER_KERNEL_CHECK(ctx, input.size(dim) > 0, "%s: empty spatial dims", op);
  }
  if (!nn::check_same_dtype(ctx, op, input, "input", grid, "grid") ||
      !nn::check_same_dtype(ctx, op, input, "input", out, "out") ||
      !check_contiguous(ctx, op, input) || !check_contiguous(ctx, op, grid) ||
      !check_contiguous(ctx, op, out)) {
    return;
  }
  const int64_t sizes[5] = {input.size(0), input.size(1), grid.size(1), grid.size(2),
                            grid.size(3)};
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, 5), op)) return;
  EMBER_SWITCH_FLOAT_TYPES(input.scalar_type(), return fail_dtype(ctx, op, input.scalar_type()),
    grid_sample_3d<CTYPE>(input, grid, interpolation_mode, padding_mode, align_corners, out));
}

// --- _upsample_bilinear2d_aa ---------------------------------------------------

// One output pixel's taps along a dim: torch's _compute_weights_aa with the
// triangle filter, support 1 (scaled up when downsampling), weights normalized.
struct Taps {
  int64_t first = 0, count = 0;
};

template <typename M>
Taps aa_taps(int64_t i, int64_t in, M scale, M* weights, int64_t max_taps) {
  const M support = scale >= M(1) ? scale : M(1);
  const M center = scale * (static_cast<M>(i) + M(0.5));
  const M invscale = scale >= M(1) ? M(1) / scale : M(1);
  Taps t;
  t.first = std::max<int64_t>(static_cast<int64_t>(center - support + M(0.5)), 0);
  t.count = std::min<int64_t>(static_cast<int64_t>(center + support + M(0.5)), in) - t.first;
  if (t.count > max_taps) t.count = max_taps;
  M total = 0;
  for (int64_t j = 0; j < t.count; ++j) {
    const M x = std::fabs((static_cast<M>(j + t.first) - center + M(0.5)) * invscale);
    weights[j] = x < M(1) ? M(1) - x : M(0);
    total += weights[j];
  }
  if (total != M(0)) {
    for (int64_t j = 0; j < t.count; ++j) weights[j] /= total;
  }
  return t;
}

template <typename M>
M aa_scale(int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  if (align_corners) return out > 1 ? static_cast<M>(in - 1) / static_cast<M>(out - 1) : M(0);
  return scale.has_value() && *scale > 0 ? static_cast<M>(1.0 / *scale)
                                         : static_cast<M>(in) / static_cast<M>(out);
}

// Resamples dim `d` (stride `stride`, size `in` -> `out`) of `src` into `dst`,
// both contiguous with `outer` blocks before the dim.
template <typename T>
void resample_dim(const T* src, T* dst, int64_t outer, int64_t in, int64_t out, int64_t stride,
                  bool align_corners, std::optional<double> scale, opmath_t<T>* weights,
                  int64_t max_taps) {
  using M = opmath_t<T>;
  const M s = aa_scale<M>(in, out, align_corners, scale);
  for (int64_t i = 0; i < out; ++i) {
    const Taps t = aa_taps<M>(i, in, s, weights, max_taps);
    for (int64_t b = 0; b < outer; ++b) {
      for (int64_t k = 0; k < stride; ++k) {
        M acc = 0;
        for (int64_t j = 0; j < t.count; ++j) {
          acc += static_cast<M>(src[(b * in + t.first + j) * stride + k]) * weights[j];
        }
        dst[(b * out + i) * stride + k] = convert<T>(acc);
      }
    }
  }
}

int64_t max_aa_taps(int64_t in, int64_t out) {
  // ceil(support) * 2 + 1, support = in / out when downsampling.
  const int64_t support = out > 0 && in > out ? (in + out - 1) / out : 1;
  return support * 2 + 2;
}

void upsample_bilinear2d_aa_out(KernelContext& ctx, const Tensor& self, IntArrayRef output_size,
                                bool align_corners, std::optional<double> scales_h,
                                std::optional<double> scales_w, Tensor& out) {
  const char* op = "_upsample_bilinear2d_aa.out";
  EMBER_KERNEL_CHECK(ctx, self.dim() == 4 && output_size.size() == 2,
                     "%s: expected a 4-D input and two output sizes", op);
  const int64_t n = self.size(0) * self.size(1), h = self.size(2), w = self.size(3);
  const int64_t oh = output_size[0], ow = output_size[1];
  EMBER_KERNEL_CHECK(ctx, h > 0 && w > 0 && oh > 0 && ow > 0, "%s: sizes must be positive", op);
  if (!nn::check_same_dtype(ctx, op, self, "input", out, "out") ||
      !check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, out)) {
    return;
  }
  const int64_t sizes[4] = {self.size(0), self.size(1), oh, ow};
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, 4), op)) return;
  switch_dtype<kFloatTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const int64_t taps = std::max(max_aa_taps(h, oh), max_aa_taps(w, ow));
    M* weights = allocate_temp_array<M>(ctx, op, static_cast<size_t>(taps));
    T* middle = allocate_temp_array<T>(ctx, op, static_cast<size_t>(n * h * ow));
    if (weights == nullptr || middle == nullptr) return;
    const T* src = self.const_data_ptr<T>();
    T* dst = out.mutable_data_ptr<T>();
    // Width first, then height, as torch's separable kernel; a dim whose size
    // does not change is copied.
    if (ow != w) {
      resample_dim<T>(src, middle, n * h, w, ow, 1, align_corners, scales_w, weights, taps);
    } else {
      for (int64_t i = 0; i < n * h * w; ++i) middle[i] = src[i];
    }
    if (oh != h) {
      resample_dim<T>(middle, dst, n, h, oh, ow, align_corners, scales_h, weights, taps);
    } else {
      for (int64_t i = 0; i < n * h * ow; ++i) dst[i] = middle[i];
    }
  });
}

size_t upsample_aa_temp(Span<EValue* const> args) {
  const Tensor& self = args[0]->to_tensor();
  const Tensor& out = args[5]->to_tensor();
  if (self.dim() != 4 || out.dim() != 4) return 64;
  const size_t taps = static_cast<size_t>(
      std::max(max_aa_taps(self.size(2), out.size(2)), max_aa_taps(self.size(3), out.size(3))));
  return static_cast<size_t>(self.size(0) * self.size(1) * self.size(2) * out.size(3)) * 8 +
         taps * 8 + 128;
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::adaptive_max_pool2d.out", adaptive_max_pool2d_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::adaptive_max_pool3d.out", adaptive_max_pool3d_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::fractional_max_pool2d.output", fractional_max_pool2d_out,
                      kFloatTypes);
EMBER_REGISTER_KERNEL("aten::fractional_max_pool3d.output", fractional_max_pool3d_out,
                      kFloatTypes);
EMBER_REGISTER_KERNEL("aten::grid_sampler_3d.out", grid_sampler_3d_out, kFloatTypes);
EMBER_REGISTER_KERNEL_WITH_TEMP("aten::_upsample_bilinear2d_aa.out", upsample_bilinear2d_aa_out,
                                kFloatTypes, kAllTypes, upsample_aa_temp);

}  // namespace ember::kernels
