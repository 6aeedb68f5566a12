// Resampling of [N, C, H, W] images: upsample_nearest2d and
// upsample_bilinear2d (the .vec forms, sized by output_size or scale_factors)
// and grid_sampler_2d, with PyTorch's source-index conventions.
#include <cmath>
#include <optional>

#include "kernels/portable/util/grid_util.h"
#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

using DoubleList = Span<const double>;
using grid::source_coord;

// The input seen as `planes` images of h x w, resampled to oh x ow.
struct Resample {
  int64_t planes = 0;
  int64_t h = 0, w = 0;
  int64_t oh = 0, ow = 0;
  std::optional<double> scale_h, scale_w;  // the scale_factors, when given
};

// Reads the input shape and the output size, which comes from exactly one of
// output_size and scale_factors (the latter truncated, as PyTorch does).
bool read_resample(KernelContext& ctx, const char* op, const Tensor& in,
                   std::optional<IntArrayRef> output_size, std::optional<DoubleList> scales,
                   Resample* r) {
  if (in.dim() != 4) {
    ctx.fail(Error::InvalidArgument, "%s: expected a 4-D input, got %d-D", op, in.dim());
    return false;
  }
  if (!check_contiguous(ctx, op, in)) return false;
  r->h = in.size(2);
  r->w = in.size(3);
  r->planes = in.size(0) * in.size(1);
  if (r->h <= 0 || r->w <= 0 || in.size(1) <= 0) {
    ctx.fail(Error::InvalidArgument, "%s: only the batch dim may be empty", op);
    return false;
  }
  if (output_size.has_value() == scales.has_value()) {
    ctx.fail(Error::InvalidArgument, "%s: give exactly one of output_size and scale_factors", op);
    return false;
  }
  if (output_size.has_value()) {
    if (output_size->size() != 2) {
      ctx.fail(Error::InvalidArgument, "%s: output_size must have 2 values, got %zu", op,
               output_size->size());
      return false;
    }
    r->oh = (*output_size)[0];
    r->ow = (*output_size)[1];
  } else {
    if (scales->size() != 2) {
      ctx.fail(Error::InvalidArgument, "%s: scale_factors must have 2 values, got %zu", op,
               scales->size());
      return false;
    }
    const double sh = (*scales)[0], sw = (*scales)[1];
    // Bounded so that the size computation cannot overflow.
    if (!(sh > 0 && sw > 0 && sh * r->h < 1e12 && sw * r->w < 1e12)) {
      ctx.fail(Error::InvalidArgument, "%s: scale_factors must be positive and finite", op);
      return false;
    }
    r->oh = static_cast<int64_t>(static_cast<double>(r->h) * sh);
    r->ow = static_cast<int64_t>(static_cast<double>(r->w) * sw);
    r->scale_h = sh;
    r->scale_w = sw;
  }
  if (r->oh <= 0 || r->ow <= 0) {
    ctx.fail(Error::InvalidArgument, "%s: output size must be positive, got %lldx%lld", op,
             static_cast<long long>(r->oh), static_cast<long long>(r->ow));
    return false;
  }
  return true;
}

bool resize_resampled(KernelContext& ctx, const char* op, const Tensor& in, int64_t oh,
                      int64_t ow, Tensor& out) {
  if (!nn::check_same_dtype(ctx, op, in, "input", out, "out") ||
      !check_contiguous(ctx, op, out)) {
    return false;
  }
  const int64_t sizes[4] = {in.size(0), in.size(1), oh, ow};
  return resize_output(ctx, out, Span<const int64_t>(sizes, 4), op);
}

// PyTorch's compute_scales_value: 1/scale when a scale factor was given,
// otherwise in/out.
template <typename A>
A scale_value(std::optional<double> scale, int64_t in, int64_t out) {
  return scale.has_value() && *scale > 0 ? static_cast<A>(1.0 / *scale)
                                         : static_cast<A>(in) / static_cast<A>(out);
}

// ---------------------------------------------------------------------------
// upsample_nearest2d: src = min(floor(dst * scale), in - 1), in float.

int64_t nearest_index(int64_t dst, int64_t in, int64_t out, float scale) {
  if (in == out) return dst;
  if (out == 2 * in) return dst >> 1;
  const int64_t i = static_cast<int64_t>(std::floor(static_cast<float>(dst) * scale));
  return i < in - 1 ? i : in - 1;
}

template <typename T>
void upsample_nearest(const Resample& r, const T* in, T* out) {
  const float sh = scale_value<float>(r.scale_h, r.h, r.oh);
  const float sw = scale_value<float>(r.scale_w, r.w, r.ow);
  for (int64_t c = 0; c < r.planes; ++c) {
    const T* src = in + c * r.h * r.w;
    T* dst = out + c * r.oh * r.ow;
    for (int64_t y = 0; y < r.oh; ++y) {
      const int64_t iy = nearest_index(y, r.h, r.oh, sh);
      for (int64_t x = 0; x < r.ow; ++x) {
        dst[y * r.ow + x] = src[iy * r.w + nearest_index(x, r.w, r.ow, sw)];
      }
    }
  }
}

void upsample_nearest2d_vec_out(KernelContext& ctx, const Tensor& input,
                                std::optional<IntArrayRef> output_size,
                                std::optional<DoubleList> scale_factors, Tensor& out) {
  const char* op = "upsample_nearest2d.vec_out";
  Resample r;
  if (!read_resample(ctx, op, input, output_size, scale_factors, &r) ||
      !resize_resampled(ctx, op, input, r.oh, r.ow, out)) {
    return;
  }
  const ScalarType type = input.scalar_type();
  if (type == ScalarType::Byte) {
    upsample_nearest<uint8_t>(r, input.const_data_ptr<uint8_t>(), out.mutable_data_ptr<uint8_t>());
    return;
  }
  EMBER_SWITCH_FLOAT_TYPES(type, return fail_dtype(ctx, op, type),
    upsample_nearest<CTYPE>(r, input.const_data_ptr<CTYPE>(), out.mutable_data_ptr<CTYPE>()));
}

// ---------------------------------------------------------------------------
// upsample_bilinear2d: PyTorch's area_pixel_compute_source_index, computed in
// the op math type (double for double, float otherwise).

template <typename A>
A area_scale(bool align_corners, int64_t in, int64_t out, std::optional<double> scale) {
  if (align_corners) {
    return out > 1 ? static_cast<A>(in - 1) / static_cast<A>(out - 1) : A(0);
  }
  return scale_value<A>(scale, in, out);
}

template <typename A>
void linear_weights(A scale, int64_t dst, int64_t in, bool align_corners, int64_t* i0,
                    int64_t* i1, A* l0, A* l1) {
  A src;
  if (align_corners) {
    src = scale * static_cast<A>(dst);
  } else {
    src = scale * (static_cast<A>(dst) + A(0.5)) - A(0.5);
    if (src < 0) src = 0;
  }
  *i0 = static_cast<int64_t>(src);
  if (*i0 > in - 1) *i0 = in - 1;
  *i1 = *i0 + (*i0 < in - 1 ? 1 : 0);
  *l1 = src - static_cast<A>(*i0);
  if (*l1 > A(1)) *l1 = A(1);
  *l0 = A(1) - *l1;
}

template <typename T>
void upsample_bilinear(const Resample& r, bool align_corners, const T* in, T* out) {
  using A = acc_t<T>;
  const A sh = area_scale<A>(align_corners, r.h, r.oh, r.scale_h);
  const A sw = area_scale<A>(align_corners, r.w, r.ow, r.scale_w);
  for (int64_t c = 0; c < r.planes; ++c) {
    const T* src = in + c * r.h * r.w;
    T* dst = out + c * r.oh * r.ow;
    for (int64_t y = 0; y < r.oh; ++y) {
      int64_t y0, y1;
      A ly0, ly1;
      linear_weights(sh, y, r.h, align_corners, &y0, &y1, &ly0, &ly1);
      for (int64_t x = 0; x < r.ow; ++x) {
        int64_t x0, x1;
        A lx0, lx1;
        linear_weights(sw, x, r.w, align_corners, &x0, &x1, &lx0, &lx1);
        const A v = ly0 * (lx0 * static_cast<A>(src[y0 * r.w + x0]) +
                           lx1 * static_cast<A>(src[y0 * r.w + x1])) +
                    ly1 * (lx0 * static_cast<A>(src[y1 * r.w + x0]) +
                           lx1 * static_cast<A>(src[y1 * r.w + x1]));
        dst[y * r.ow + x] = static_cast<T>(v);
      }
    }
  }
}

void upsample_bilinear2d_vec_out(KernelContext& ctx, const Tensor& input,
                                 std::optional<IntArrayRef> output_size, bool align_corners,
                                 std::optional<DoubleList> scale_factors, Tensor& out) {
  const char* op = "upsample_bilinear2d.vec_out";
  Resample r;
  if (!read_resample(ctx, op, input, output_size, scale_factors, &r) ||
      !resize_resampled(ctx, op, input, r.oh, r.ow, out)) {
    return;
  }
  // uint8 (which PyTorch rounds through fixed-point weights) is not supported.
  EMBER_SWITCH_FLOAT_TYPES(input.scalar_type(),
    return fail_dtype(ctx, op, input.scalar_type()),
    upsample_bilinear<CTYPE>(r, align_corners, input.const_data_ptr<CTYPE>(),
                             out.mutable_data_ptr<CTYPE>()));
}

// ---------------------------------------------------------------------------
// grid_sampler_2d: input [N, C, H, W], grid [N, Ho, Wo, 2] of (x, y) in
// [-1, 1]; interpolation 0 = bilinear, 1 = nearest; padding 0 = zeros,
// 1 = border, 2 = reflection.

// Bicubic: the grid point unnormalized but not padded (the padding applies
// to each of the 4 x 4 taps around it), cubic weights along x then y.
template <typename T, typename A = acc_t<T>>
A bicubic_tap_sum(const T* plane, int64_t h, int64_t w, const T* gp, int64_t padding,
                  bool align_corners) {
  const A ix = grid::unnormalize(static_cast<A>(gp[0]), w, align_corners);
  const A iy = grid::unnormalize(static_cast<A>(gp[1]), h, align_corners);
  if (!(std::fabs(ix) < A(1e15)) || !(std::fabs(iy) < A(1e15))) return A(0);
  const A x0 = std::floor(ix), y0 = std::floor(iy);
  A wx[4], wy[4];
  grid::cubic_weights(ix - x0, wx);
  grid::cubic_weights(iy - y0, wy);
  auto tap = [&](A x, A y) -> A {
    x = grid::padded_coord(x, w, padding, align_corners);
    y = grid::padded_coord(y, h, padding, align_corners);
    const int64_t xi = static_cast<int64_t>(x), yi = static_cast<int64_t>(y);
    return (xi >= 0 && xi < w && yi >= 0 && yi < h) ? static_cast<A>(plane[yi * w + xi]) : A(0);
  };
  A v = 0;
  for (int i = 0; i < 4; ++i) {
    A row = 0;
    for (int j = 0; j < 4; ++j) row += wx[j] * tap(x0 - 1 + j, y0 - 1 + i);
    v += wy[i] * row;
  }
  return v;
}

template <typename T>
void grid_sample(const Tensor& input, const Tensor& grid, int64_t mode, int64_t padding,
                 bool align_corners, Tensor& out) {
  using A = acc_t<T>;
  const int64_t n = input.size(0), c = input.size(1), h = input.size(2), w = input.size(3);
  const int64_t oh = grid.size(1), ow = grid.size(2);
  const T* in = input.const_data_ptr<T>();
  const T* g = grid.const_data_ptr<T>();
  T* o = out.mutable_data_ptr<T>();
  // A coordinate far outside the image stays finite but must not overflow
  // an int64 index: such points read padding (zeros) anyway.
  const A kFar = static_cast<A>(1e15);
  auto in_bounds = [&](int64_t y, int64_t x) { return y >= 0 && y < h && x >= 0 && x < w; };
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t y = 0; y < oh; ++y) {
      for (int64_t x = 0; x < ow; ++x) {
        const T* gp = g + ((b * oh + y) * ow + x) * 2;
        const A ix = source_coord(static_cast<A>(gp[0]), w, padding, align_corners);
        const A iy = source_coord(static_cast<A>(gp[1]), h, padding, align_corners);
        const bool bad = !(std::fabs(ix) < kFar) || !(std::fabs(iy) < kFar);
        for (int64_t ch = 0; ch < c; ++ch) {
          const T* plane = in + (b * c + ch) * h * w;
          A v = 0;
          if (bad) {
            // NaN or huge coordinates (zeros padding only): nothing in bounds.
            v = 0;
          } else if (mode == 2) {
            v = bicubic_tap_sum(plane, h, w, gp, padding, align_corners);
          } else if (mode == 1) {
            const int64_t nx = static_cast<int64_t>(std::nearbyint(ix));
            const int64_t ny = static_cast<int64_t>(std::nearbyint(iy));
            if (in_bounds(ny, nx)) v = static_cast<A>(plane[ny * w + nx]);
          } else {
            const int64_t x0 = static_cast<int64_t>(std::floor(ix));
            const int64_t y0 = static_cast<int64_t>(std::floor(iy));
            const A tx = ix - static_cast<A>(x0), ty = iy - static_cast<A>(y0);
            const A wgt[4] = {(1 - tx) * (1 - ty), tx * (1 - ty), (1 - tx) * ty, tx * ty};
            const int64_t ys[4] = {y0, y0, y0 + 1, y0 + 1};
            const int64_t xs[4] = {x0, x0 + 1, x0, x0 + 1};
            for (int k = 0; k < 4; ++k) {
              if (in_bounds(ys[k], xs[k])) v += wgt[k] * static_cast<A>(plane[ys[k] * w + xs[k]]);
            }
          }
          o[((b * c + ch) * oh + y) * ow + x] = static_cast<T>(v);
        }
      }
    }
  }
}

void grid_sampler_2d_out(KernelContext& ctx, const Tensor& input, const Tensor& grid,
                         int64_t interpolation_mode, int64_t padding_mode, bool align_corners,
                         Tensor& out) {
  const char* op = "grid_sampler_2d.out";
  EMBER_KERNEL_CHECK(ctx, input.dim() == 4 && grid.dim() == 4,
                     "%s: expected 4-D input and grid, got %d-D and %d-D", op, input.dim(),
                     grid.dim());
  EMBER_KERNEL_CHECK(ctx, grid.size(3) == 2 && grid.size(0) == input.size(0),
                     "%s: grid must be [N, H_out, W_out, 2] with the input's batch size", op);
  EMBER_KERNEL_CHECK(ctx, input.size(2) > 0 && input.size(3) > 0,
                     "%s: input spatial dims must be non-empty", op);
  EMBER_KERNEL_CHECK(ctx, padding_mode >= 0 && padding_mode <= 2,
                     "%s: padding_mode %lld is not 0 (zeros), 1 (border) or 2 (reflection)", op,
                     static_cast<long long>(padding_mode));
  EMBER_KERNEL_CHECK(ctx, interpolation_mode >= 0 && interpolation_mode <= 2,
                     "%s: interpolation_mode %lld is not 0 (bilinear), 1 (nearest) or 2 (bicubic)",
                     op,
                     static_cast<long long>(interpolation_mode));
  if (!nn::check_same_dtype(ctx, op, input, "input", grid, "grid") ||
      !nn::check_same_dtype(ctx, op, input, "input", out, "out") ||
      !check_contiguous(ctx, op, input) || !check_contiguous(ctx, op, grid) ||
      !check_contiguous(ctx, op, out)) {
    return;
  }
  const int64_t sizes[4] = {input.size(0), input.size(1), grid.size(1), grid.size(2)};
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, 4), op)) return;
  EMBER_SWITCH_FLOAT_TYPES(input.scalar_type(),
    return fail_dtype(ctx, op, input.scalar_type()),
    grid_sample<CTYPE>(input, grid, interpolation_mode, padding_mode, align_corners, out));
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::upsample_nearest2d.vec_out", upsample_nearest2d_vec_out, kFloatTypes | dtype_bit(ScalarType::Byte));
EMBER_REGISTER_KERNEL("aten::upsample_bilinear2d.vec_out", upsample_bilinear2d_vec_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::grid_sampler_2d.out", grid_sampler_2d_out, kFloatTypes);

}  // namespace ember::kernels
