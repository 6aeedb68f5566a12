// 2-D pooling over [C, H, W] or [N, C, H, W]: max_pool2d_with_indices,
// avg_pool2d and _adaptive_avg_pool2d, with PyTorch's output-size rules
// (ceil_mode, padding, dilation) and window conventions.
#include <optional>

#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// The input seen as `planes` images of h x w; outputs are oh x ow per plane.
struct Pool2d {
  int64_t planes = 0;
  int64_t h = 0, w = 0;
  int64_t oh = 0, ow = 0;
  int64_t k[2] = {1, 1};
  int64_t stride[2] = {1, 1};
  int64_t pad[2] = {0, 0};
  int64_t dil[2] = {1, 1};
};

// Accepts [C, H, W] or [N, C, H, W]; only the batch may be empty.
bool read_input(KernelContext& ctx, const char* op, const Tensor& in, Pool2d* p) {
  if (in.dim() != 3 && in.dim() != 4) {
    ctx.fail(Error::InvalidArgument, "%s: expected a 3-D or 4-D input, got %d-D", op, in.dim());
    return false;
  }
  for (int d = in.dim() - 3; d < in.dim(); ++d) {
    if (in.size(d) == 0) {
      ctx.fail(Error::InvalidArgument, "%s: only the batch dim may be empty", op);
      return false;
    }
  }
  if (!check_contiguous(ctx, op, in)) return false;
  p->planes = in.numel() / (in.size(-1) * in.size(-2));
  p->h = in.size(-2);
  p->w = in.size(-1);
  return true;
}

// PyTorch's pooling_output_shape: in ceil mode the last window must still
// start inside the input or the left padding.
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  const int64_t span = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  // Floor division: span may be negative when the window is larger than the input.
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

bool read_window(KernelContext& ctx, const char* op, IntArrayRef kernel_size, IntArrayRef stride,
                 IntArrayRef padding, IntArrayRef dilation, bool ceil_mode, Pool2d* p) {
  static const int64_t kZeros[2] = {0, 0};
  static const int64_t kOnes[2] = {1, 1};
  if (!nn::expand_int_list(ctx, op, "kernel_size", kernel_size, 2, nullptr, p->k) ||
      !nn::expand_int_list(ctx, op, "stride", stride, 2, p->k, p->stride) ||
      !nn::expand_int_list(ctx, op, "padding", padding, 2, kZeros, p->pad) ||
      !nn::expand_int_list(ctx, op, "dilation", dilation, 2, kOnes, p->dil)) {
    return false;
  }
  if (!nn::all_at_least(p->k, 2, 1) || !nn::all_at_least(p->stride, 2, 1) ||
      !nn::all_at_least(p->dil, 2, 1) || !nn::all_at_least(p->pad, 2, 0)) {
    ctx.fail(Error::InvalidArgument,
             "%s: kernel_size, stride and dilation must be positive, padding non-negative", op);
    return false;
  }
  // Otherwise a window could lie entirely in the padding.
  if (p->pad[0] > p->k[0] / 2 || p->pad[1] > p->k[1] / 2) {
    ctx.fail(Error::InvalidArgument, "%s: padding must be at most half of the kernel size", op);
    return false;
  }
  p->oh = pooled_size(p->h, p->k[0], p->pad[0], p->stride[0], p->dil[0], ceil_mode);
  p->ow = pooled_size(p->w, p->k[1], p->pad[1], p->stride[1], p->dil[1], ceil_mode);
  if (p->oh < 1 || p->ow < 1) {
    ctx.fail(Error::InvalidArgument, "%s: input %lldx%lld is too small for the window", op,
             static_cast<long long>(p->h), static_cast<long long>(p->w));
    return false;
  }
  return true;
}

// Resizes `out` to the input's shape with H, W replaced by (oh, ow).
bool resize_pooled(KernelContext& ctx, const char* op, const Tensor& in, int64_t oh, int64_t ow,
                   Tensor& out) {
  if (!check_contiguous(ctx, op, out)) return false;
  int64_t sizes[4];
  for (int d = 0; d < in.dim(); ++d) sizes[d] = in.size(d);
  sizes[in.dim() - 2] = oh;
  sizes[in.dim() - 1] = ow;
  return resize_output(ctx, out, Span<const int64_t>(sizes, in.dim()), op);
}

// ---------------------------------------------------------------------------
// max_pool2d_with_indices: indices are flat (h * W + w) within each plane.
// A NaN is taken over any number, and a later NaN over an earlier one, which
// is the order PyTorch's CPU kernel compares in.

template <typename T>
void max_pool(const Pool2d& p, const T* in, T* out, int64_t* indices) {
  using Acc = acc_t<T>;
  for (int64_t c = 0; c < p.planes; ++c) {
    const T* src = in + c * p.h * p.w;
    for (int64_t y = 0; y < p.oh; ++y) {
      int64_t h0 = y * p.stride[0] - p.pad[0];
      const int64_t h1 = h0 + (p.k[0] - 1) * p.dil[0] + 1;
      while (h0 < 0) h0 += p.dil[0];
      for (int64_t x = 0; x < p.ow; ++x) {
        int64_t w0 = x * p.stride[1] - p.pad[1];
        const int64_t w1 = w0 + (p.k[1] - 1) * p.dil[1] + 1;
        while (w0 < 0) w0 += p.dil[1];
        Acc best = nn::lowest_value<T>();
        int64_t best_i = h0 * p.w + w0;
        for (int64_t ih = h0; ih < h1 && ih < p.h; ih += p.dil[0]) {
          for (int64_t iw = w0; iw < w1 && iw < p.w; iw += p.dil[1]) {
            const Acc v = static_cast<Acc>(src[ih * p.w + iw]);
            if (v > best || is_nan(v)) {
              best = v;
              best_i = ih * p.w + iw;
            }
          }
        }
        const int64_t o = (c * p.oh + y) * p.ow + x;
        out[o] = static_cast<T>(best);
        indices[o] = best_i;
      }
    }
  }
}

void max_pool2d_with_indices_out(KernelContext& ctx, const Tensor& self, IntArrayRef kernel_size,
                                 IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                 bool ceil_mode, Tensor& out, Tensor& indices) {
  const char* op = "max_pool2d_with_indices.out";
  Pool2d p;
  if (!read_input(ctx, op, self, &p) ||
      !read_window(ctx, op, kernel_size, stride, padding, dilation, ceil_mode, &p) ||
      !nn::check_same_dtype(ctx, op, self, "self", out, "out")) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, indices.scalar_type() == ScalarType::Long,
                     "%s: indices must be Long, not %s", op,
                     scalar_type_name(indices.scalar_type()));
  if (!resize_pooled(ctx, op, self, p.oh, p.ow, out) ||
      !resize_pooled(ctx, op, self, p.oh, p.ow, indices)) {
    return;
  }
  EMBER_SWITCH_REAL_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    max_pool<CTYPE>(p, self.const_data_ptr<CTYPE>(), out.mutable_data_ptr<CTYPE>(),
                    indices.mutable_data_ptr<int64_t>()));
}

// ---------------------------------------------------------------------------
// avg_pool2d. The window is clipped to the padded input for count_include_pad
// and to the input itself for the sum; divisor_override replaces both.

template <typename T>
void avg_pool(const Pool2d& p, const T* in, T* out, bool count_include_pad,
              std::optional<int64_t> divisor_override) {
  using Acc = acc_t<T>;
  for (int64_t c = 0; c < p.planes; ++c) {
    const T* src = in + c * p.h * p.w;
    for (int64_t y = 0; y < p.oh; ++y) {
      const int64_t h0 = y * p.stride[0] - p.pad[0];
      const int64_t h1 = h0 + p.k[0] < p.h + p.pad[0] ? h0 + p.k[0] : p.h + p.pad[0];
      const int64_t hs = h0 > 0 ? h0 : 0, he = h1 < p.h ? h1 : p.h;
      for (int64_t x = 0; x < p.ow; ++x) {
        const int64_t w0 = x * p.stride[1] - p.pad[1];
        const int64_t w1 = w0 + p.k[1] < p.w + p.pad[1] ? w0 + p.k[1] : p.w + p.pad[1];
        const int64_t ws = w0 > 0 ? w0 : 0, we = w1 < p.w ? w1 : p.w;
        const int64_t o = (c * p.oh + y) * p.ow + x;
        if (hs >= he || ws >= we) {
          out[o] = static_cast<T>(0);
          continue;
        }
        Acc sum = 0;
        for (int64_t ih = hs; ih < he; ++ih) {
          for (int64_t iw = ws; iw < we; ++iw) sum += static_cast<Acc>(src[ih * p.w + iw]);
        }
        const int64_t divisor = divisor_override.has_value() ? *divisor_override
                                : count_include_pad         ? (h1 - h0) * (w1 - w0)
                                                            : (he - hs) * (we - ws);
        out[o] = static_cast<T>(sum / static_cast<Acc>(divisor));
      }
    }
  }
}

void avg_pool2d_out(KernelContext& ctx, const Tensor& self, IntArrayRef kernel_size,
                    IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                    bool count_include_pad, std::optional<int64_t> divisor_override,
                    Tensor& out) {
  const char* op = "avg_pool2d.out";
  Pool2d p;
  const int64_t ones[] = {1};
  if (!read_input(ctx, op, self, &p) ||
      !read_window(ctx, op, kernel_size, stride, padding, IntArrayRef(ones, 1), ceil_mode, &p) ||
      !nn::check_same_dtype(ctx, op, self, "self", out, "out")) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, !divisor_override.has_value() || *divisor_override != 0,
                     "%s: divisor_override must not be zero", op);
  if (!resize_pooled(ctx, op, self, p.oh, p.ow, out)) return;
  const ScalarType type = self.scalar_type();
  // PyTorch averages floats and Long (with integer division), no other integers.
  if (type == ScalarType::Long) {
    avg_pool<int64_t>(p, self.const_data_ptr<int64_t>(), out.mutable_data_ptr<int64_t>(),
                      count_include_pad, divisor_override);
    return;
  }
  EMBER_SWITCH_FLOAT_TYPES(type, return fail_dtype(ctx, op, type),
    avg_pool<CTYPE>(p, self.const_data_ptr<CTYPE>(), out.mutable_data_ptr<CTYPE>(),
                    count_include_pad, divisor_override));
}

// ---------------------------------------------------------------------------
// _adaptive_avg_pool2d: output cell i covers input [floor(i*I/O), ceil((i+1)*I/O)).

template <typename T>
void adaptive_avg_pool(const Pool2d& p, const T* in, T* out) {
  using Acc = acc_t<T>;
  for (int64_t c = 0; c < p.planes; ++c) {
    const T* src = in + c * p.h * p.w;
    for (int64_t y = 0; y < p.oh; ++y) {
      const int64_t hs = y * p.h / p.oh;
      const int64_t he = ((y + 1) * p.h + p.oh - 1) / p.oh;
      for (int64_t x = 0; x < p.ow; ++x) {
        const int64_t ws = x * p.w / p.ow;
        const int64_t we = ((x + 1) * p.w + p.ow - 1) / p.ow;
        Acc sum = 0;
        for (int64_t ih = hs; ih < he; ++ih) {
          for (int64_t iw = ws; iw < we; ++iw) sum += static_cast<Acc>(src[ih * p.w + iw]);
        }
        out[(c * p.oh + y) * p.ow + x] =
            static_cast<T>(sum / static_cast<Acc>((he - hs) * (we - ws)));
      }
    }
  }
}

void adaptive_avg_pool2d_out(KernelContext& ctx, const Tensor& self, IntArrayRef output_size,
                             Tensor& out) {
  const char* op = "_adaptive_avg_pool2d.out";
  Pool2d p;
  if (!read_input(ctx, op, self, &p) || !nn::check_same_dtype(ctx, op, self, "self", out, "out")) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, output_size.size() == 2, "%s: output_size must have 2 values, got %zu",
                     op, output_size.size());
  EMBER_KERNEL_CHECK(ctx, output_size[0] >= 0 && output_size[1] >= 0,
                     "%s: output_size must be non-negative", op);
  p.oh = output_size[0];
  p.ow = output_size[1];
  if (!resize_pooled(ctx, op, self, p.oh, p.ow, out)) return;
  EMBER_SWITCH_FLOAT_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    adaptive_avg_pool<CTYPE>(p, self.const_data_ptr<CTYPE>(), out.mutable_data_ptr<CTYPE>()));
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::max_pool2d_with_indices.out", max_pool2d_with_indices_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::avg_pool2d.out", avg_pool2d_out, kFloatTypes | dtype_bit(ScalarType::Long));
EMBER_REGISTER_KERNEL("aten::_adaptive_avg_pool2d.out", adaptive_avg_pool2d_out, kFloatTypes);

}  // namespace ember::kernels
