// 3-D pooling over [C, D, H, W] or [N, C, D, H, W]: max_pool3d_with_indices,
// avg_pool3d and _adaptive_avg_pool3d, with the same output-size rules and
// window conventions as the 2-D kernels in pool_ops.cpp.
#include <optional>

#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// The input seen as `planes` volumes of in[0] x in[1] x in[2].
struct Pool3d {
  int64_t planes = 0;
  int64_t in[3] = {0, 0, 0};
  int64_t out[3] = {0, 0, 0};
  int64_t k[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t pad[3] = {0, 0, 0};
  int64_t dil[3] = {1, 1, 1};
};

bool read_input(KernelContext& ctx, const char* op, const Tensor& in, Pool3d* p) {
  if (in.dim() != 4 && in.dim() != 5) {
    ctx.fail(Error::InvalidArgument, "%s: expected a 4-D or 5-D input, got %d-D", op, in.dim());
    return false;
  }
  for (int d = in.dim() - 4; d < in.dim(); ++d) {
    if (in.size(d) == 0) {
      ctx.fail(Error::InvalidArgument, "%s: only the batch dim may be empty", op);
      return false;
    }
  }
  if (!check_contiguous(ctx, op, in)) return false;
  for (int i = 0; i < 3; ++i) p->in[i] = in.size(in.dim() - 3 + i);
  p->planes = in.numel() / (p->in[0] * p->in[1] * p->in[2]);
  return true;
}

// PyTorch's pooling_output_shape (see pool_ops.cpp).
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  const int64_t span = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

bool read_window(KernelContext& ctx, const char* op, IntArrayRef kernel_size, IntArrayRef stride,
                 IntArrayRef padding, IntArrayRef dilation, bool ceil_mode, Pool3d* p) {
  static const int64_t kZeros[3] = {0, 0, 0};
  static const int64_t kOnes[3] = {1, 1, 1};
  if (!nn::expand_int_list(ctx, op, "kernel_size", kernel_size, 3, nullptr, p->k) ||
      !nn::expand_int_list(ctx, op, "stride", stride, 3, p->k, p->stride) ||
      !nn::expand_int_list(ctx, op, "padding", padding, 3, kZeros, p->pad) ||
      !nn::expand_int_list(ctx, op, "dilation", dilation, 3, kOnes, p->dil)) {
    return false;
  }
  if (!nn::all_at_least(p->k, 3, 1) || !nn::all_at_least(p->stride, 3, 1) ||
      !nn::all_at_least(p->dil, 3, 1) || !nn::all_at_least(p->pad, 3, 0)) {
    ctx.fail(Error::InvalidArgument,
             "%s: kernel_size, stride and dilation must be positive, padding non-negative", op);
    return false;
  }
  for (int i = 0; i < 3; ++i) {
    if (p->pad[i] > p->k[i] / 2) {
      ctx.fail(Error::InvalidArgument, "%s: padding must be at most half of the kernel size", op);
      return false;
    }
    // Bounded so that window arithmetic cannot overflow.
    if (p->k[i] > (int64_t{1} << 31) || p->stride[i] > (int64_t{1} << 31) ||
        p->dil[i] > (int64_t{1} << 31)) {
      ctx.fail(Error::InvalidArgument, "%s: window parameters are too large", op);
      return false;
    }
    p->out[i] = pooled_size(p->in[i], p->k[i], p->pad[i], p->stride[i], p->dil[i], ceil_mode);
    if (p->out[i] < 1) {
      ctx.fail(Error::InvalidArgument, "%s: input is too small for the window", op);
      return false;
    }
  }
  return true;
}

bool resize_pooled(KernelContext& ctx, const char* op, const Tensor& in, const int64_t* o,
                   Tensor& out) {
  if (!check_contiguous(ctx, op, out)) return false;
  int64_t sizes[5];
  for (int d = 0; d < in.dim(); ++d) sizes[d] = in.size(d);
  for (int i = 0; i < 3; ++i) sizes[in.dim() - 3 + i] = o[i];
  return resize_output(ctx, out, Span<const int64_t>(sizes, in.dim()), op);
}

// ---------------------------------------------------------------------------
// max_pool3d_with_indices: indices are flat (d * H * W + h * W + w) within
// each plane; NaN wins, as in the 2-D kernel.

template <typename T>
void max_pool(const Pool3d& p, const T* in, T* out, int64_t* indices) {
  using Acc = acc_t<T>;
  const int64_t in_plane = p.in[0] * p.in[1] * p.in[2];
  int64_t o = 0;
  for (int64_t c = 0; c < p.planes; ++c) {
    const T* src = in + c * in_plane;
    for (int64_t z = 0; z < p.out[0]; ++z) {
      int64_t d0 = z * p.stride[0] - p.pad[0];
      const int64_t d1 = d0 + (p.k[0] - 1) * p.dil[0] + 1;
      while (d0 < 0) d0 += p.dil[0];
      for (int64_t y = 0; y < p.out[1]; ++y) {
        int64_t h0 = y * p.stride[1] - p.pad[1];
        const int64_t h1 = h0 + (p.k[1] - 1) * p.dil[1] + 1;
        while (h0 < 0) h0 += p.dil[1];
        for (int64_t x = 0; x < p.out[2]; ++x, ++o) {
          int64_t w0 = x * p.stride[2] - p.pad[2];
          const int64_t w1 = w0 + (p.k[2] - 1) * p.dil[2] + 1;
          while (w0 < 0) w0 += p.dil[2];
          Acc best = nn::lowest_value<T>();
          int64_t best_i = (d0 * p.in[1] + h0) * p.in[2] + w0;
          for (int64_t id = d0; id < d1 && id < p.in[0]; id += p.dil[0]) {
            for (int64_t ih = h0; ih < h1 && ih < p.in[1]; ih += p.dil[1]) {
              for (int64_t iw = w0; iw < w1 && iw < p.in[2]; iw += p.dil[2]) {
                const int64_t i = (id * p.in[1] + ih) * p.in[2] + iw;
                const Acc v = static_cast<Acc>(src[i]);
                if (v > best || is_nan(v)) {
                  best = v;
                  best_i = i;
                }
              }
            }
          }
          out[o] = static_cast<T>(best);
          indices[o] = best_i;
        }
      }
    }
  }
}

void max_pool3d_with_indices_out(KernelContext& ctx, const Tensor& self, IntArrayRef kernel_size,
                                 IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                 bool ceil_mode, Tensor& out, Tensor& indices) {
  const char* op = "max_pool3d_with_indices.out";
  Pool3d p;
  if (!read_input(ctx, op, self, &p) ||
      !read_window(ctx, op, kernel_size, stride, padding, dilation, ceil_mode, &p) ||
      !nn::check_same_dtype(ctx, op, self, "self", out, "out")) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, indices.scalar_type() == ScalarType::Long,
                     "%s: indices must be Long, not %s", op,
                     scalar_type_name(indices.scalar_type()));
  if (!resize_pooled(ctx, op, self, p.out, out) ||
      !resize_pooled(ctx, op, self, p.out, indices)) {
    return;
  }
  EMBER_SWITCH_REAL_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    max_pool<CTYPE>(p, self.const_data_ptr<CTYPE>(), out.mutable_data_ptr<CTYPE>(),
                    indices.mutable_data_ptr<int64_t>()));
}

// ---------------------------------------------------------------------------
// avg_pool3d: the window is clipped to the padded input for
// count_include_pad and to the input itself for the sum.

struct Range {
  int64_t start, end;  // clipped to the padded input
  int64_t lo, hi;      // clipped to the input
};

Range window(int64_t o, int64_t k, int64_t stride, int64_t pad, int64_t in) {
  Range r;
  r.start = o * stride - pad;
  r.end = r.start + k < in + pad ? r.start + k : in + pad;
  r.lo = r.start > 0 ? r.start : 0;
  r.hi = r.end < in ? r.end : in;
  return r;
}

template <typename T>
void avg_pool(const Pool3d& p, const T* in, T* out, bool count_include_pad,
              std::optional<int64_t> divisor_override) {
  using Acc = acc_t<T>;
  const int64_t in_plane = p.in[0] * p.in[1] * p.in[2];
  int64_t o = 0;
  for (int64_t c = 0; c < p.planes; ++c) {
    const T* src = in + c * in_plane;
    for (int64_t z = 0; z < p.out[0]; ++z) {
      const Range rd = window(z, p.k[0], p.stride[0], p.pad[0], p.in[0]);
      for (int64_t y = 0; y < p.out[1]; ++y) {
        const Range rh = window(y, p.k[1], p.stride[1], p.pad[1], p.in[1]);
        for (int64_t x = 0; x < p.out[2]; ++x, ++o) {
          const Range rw = window(x, p.k[2], p.stride[2], p.pad[2], p.in[2]);
          if (rd.lo >= rd.hi || rh.lo >= rh.hi || rw.lo >= rw.hi) {
            out[o] = static_cast<T>(0);
            continue;
          }
          Acc sum = 0;
          for (int64_t id = rd.lo; id < rd.hi; ++id) {
            for (int64_t ih = rh.lo; ih < rh.hi; ++ih) {
              for (int64_t iw = rw.lo; iw < rw.hi; ++iw) {
                sum += static_cast<Acc>(src[(id * p.in[1] + ih) * p.in[2] + iw]);
              }
            }
          }
          const int64_t divisor =
              divisor_override.has_value() ? *divisor_override
              : count_include_pad
                  ? (rd.end - rd.start) * (rh.end - rh.start) * (rw.end - rw.start)
                  : (rd.hi - rd.lo) * (rh.hi - rh.lo) * (rw.hi - rw.lo);
          out[o] = static_cast<T>(sum / static_cast<Acc>(divisor));
        }
      }
    }
  }
}

void avg_pool3d_out(KernelContext& ctx, const Tensor& self, IntArrayRef kernel_size,
                    IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                    bool count_include_pad, std::optional<int64_t> divisor_override,
                    Tensor& out) {
  const char* op = "avg_pool3d.out";
  Pool3d p;
  const int64_t ones[] = {1};
  if (!read_input(ctx, op, self, &p) ||
      !read_window(ctx, op, kernel_size, stride, padding, IntArrayRef(ones, 1), ceil_mode, &p) ||
      !nn::check_same_dtype(ctx, op, self, "self", out, "out")) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, !divisor_override.has_value() || *divisor_override != 0,
                     "%s: divisor_override must not be zero", op);
  if (!resize_pooled(ctx, op, self, p.out, out)) return;
  const ScalarType type = self.scalar_type();
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
// _adaptive_avg_pool3d: output cell i covers input [floor(i*I/O), ceil((i+1)*I/O)).

template <typename T>
void adaptive_avg_pool(const Pool3d& p, const T* in, T* out) {
  using Acc = acc_t<T>;
  const int64_t in_plane = p.in[0] * p.in[1] * p.in[2];
  int64_t o = 0;
  for (int64_t c = 0; c < p.planes; ++c) {
    const T* src = in + c * in_plane;
    for (int64_t z = 0; z < p.out[0]; ++z) {
      const int64_t ds = z * p.in[0] / p.out[0];
      const int64_t de = ((z + 1) * p.in[0] + p.out[0] - 1) / p.out[0];
      for (int64_t y = 0; y < p.out[1]; ++y) {
        const int64_t hs = y * p.in[1] / p.out[1];
        const int64_t he = ((y + 1) * p.in[1] + p.out[1] - 1) / p.out[1];
        for (int64_t x = 0; x < p.out[2]; ++x, ++o) {
          const int64_t ws = x * p.in[2] / p.out[2];
          const int64_t we = ((x + 1) * p.in[2] + p.out[2] - 1) / p.out[2];
          Acc sum = 0;
          for (int64_t id = ds; id < de; ++id) {
            for (int64_t ih = hs; ih < he; ++ih) {
              for (int64_t iw = ws; iw < we; ++iw) {
                sum += static_cast<Acc>(src[(id * p.in[1] + ih) * p.in[2] + iw]);
              }
            }
          }
          out[o] = static_cast<T>(sum / static_cast<Acc>((de - ds) * (he - hs) * (we - ws)));
        }
      }
    }
  }
}

void adaptive_avg_pool3d_out(KernelContext& ctx, const Tensor& self, IntArrayRef output_size,
                             Tensor& out) {
  const char* op = "_adaptive_avg_pool3d.out";
  Pool3d p;
  if (!read_input(ctx, op, self, &p) || !nn::check_same_dtype(ctx, op, self, "self", out, "out")) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, output_size.size() == 3, "%s: output_size must have 3 values, got %zu",
                     op, output_size.size());
  for (int i = 0; i < 3; ++i) {
    // Bounded so that (i + 1) * in cannot overflow.
    EMBER_KERNEL_CHECK(ctx, output_size[i] >= 0 && output_size[i] < (int64_t{1} << 31),
                       "%s: output_size must be non-negative", op);
    p.out[i] = output_size[i];
  }
  if (!resize_pooled(ctx, op, self, p.out, out)) return;
  EMBER_SWITCH_FLOAT_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    adaptive_avg_pool<CTYPE>(p, self.const_data_ptr<CTYPE>(), out.mutable_data_ptr<CTYPE>()));
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::max_pool3d_with_indices.out", max_pool3d_with_indices_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::avg_pool3d.out", avg_pool3d_out, kFloatTypes | dtype_bit(ScalarType::Long));
EMBER_REGISTER_KERNEL("aten::_adaptive_avg_pool3d.out", adaptive_avg_pool3d_out, kFloatTypes);

}  // namespace ember::kernels
