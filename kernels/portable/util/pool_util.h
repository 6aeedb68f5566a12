// What the pooling kernels share at every rank (pool_ops.cpp: 2-D,
// pool3d_ops.cpp: 3-D, backward_ops.cpp: the 2-D gradients): the input seen
// as planes of N spatial dims, the window's arguments read and checked as
// PyTorch checks them, PyTorch's output-size rule, and each forward op's
// checks and dtype dispatch around the rank's own loop.
#pragma once

#include <cstdint>
#include <optional>

#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"

namespace ember::kernels::nn {

// PyTorch's pooling_output_shape: in ceil mode the last window must still
// start inside the input or the left padding.
inline int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil,
                           bool ceil) {
  const int64_t span = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  // Floor division: span may be negative when the window is larger than the input.
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

// An input of `planes` volumes of in[0] x ... x in[N-1], pooled to out[], and
// the window over them.
template <int N>
struct Pooling {
  int64_t planes = 0;
  int64_t in[N] = {};
  int64_t out[N] = {};
  int64_t k[N] = {};
  int64_t stride[N] = {};
  int64_t pad[N] = {};
  int64_t dil[N] = {};
};

// Average pooling's window along one dim for output position o: clipped to
// the padded input (count_include_pad's divisor) and to the input (the sum).
struct AvgRange {
  int64_t start, end;  // clipped to the padded input
  int64_t lo, hi;      // clipped to the input
};

inline AvgRange avg_range(int64_t o, int64_t k, int64_t stride, int64_t pad, int64_t in) {
  AvgRange r;
  r.start = o * stride - pad;
  r.end = r.start + k < in + pad ? r.start + k : in + pad;
  r.lo = r.start > 0 ? r.start : 0;
  r.hi = r.end < in ? r.end : in;
  return r;
}

// Accepts an input of N + 1 or N + 2 dims ([C, ...] or [N, C, ...]) in which
// only the batch may be empty, contiguous; fills planes and in[].
template <int N>
bool read_pool_input(KernelContext& ctx, const char* op, const Tensor& in, Pooling<N>* p) {
  if (in.dim() != N + 1 && in.dim() != N + 2) {
    ctx.fail(Error::InvalidArgument, "%s: expected a %d-D or %d-D input, got %d-D", op, N + 1,
             N + 2, in.dim());
    return false;
  }
  for (int d = in.dim() - (N + 1); d < in.dim(); ++d) {
    if (in.size(d) == 0) {
      ctx.fail(Error::InvalidArgument, "%s: only the batch dim may be empty", op);
      return false;
    }
  }
  if (!check_contiguous(ctx, op, in)) return false;
  int64_t volume = 1;
  for (int i = 0; i < N; ++i) {
    p->in[i] = in.size(in.dim() - N + i);
    volume *= p->in[i];
  }
  p->planes = in.numel() / volume;
  return true;
}

// Reads kernel_size, stride (the kernel when empty), padding and dilation,
// checks them (padding at most half the kernel, or a window could lie in the
// padding alone; bounded so that window arithmetic cannot overflow) and sets
// out[] to the pooled sizes, each at least 1.
template <int N>
bool read_pool_window(KernelContext& ctx, const char* op, IntArrayRef kernel_size,
                      IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                      bool ceil_mode, Pooling<N>* p) {
  int64_t zeros[N], ones[N];
  for (int i = 0; i < N; ++i) zeros[i] = 0, ones[i] = 1;
  if (!expand_int_list(ctx, op, "kernel_size", kernel_size, N, nullptr, p->k) ||
      !expand_int_list(ctx, op, "stride", stride, N, p->k, p->stride) ||
      !expand_int_list(ctx, op, "padding", padding, N, zeros, p->pad) ||
      !expand_int_list(ctx, op, "dilation", dilation, N, ones, p->dil)) {
    return false;
  }
  constexpr int64_t kBig = int64_t{1} << 31;
  for (int i = 0; i < N; ++i) {
    if (p->k[i] < 1 || p->stride[i] < 1 || p->dil[i] < 1 || p->pad[i] < 0 ||
        p->pad[i] > p->k[i] / 2 || p->k[i] > kBig || p->stride[i] > kBig || p->dil[i] > kBig) {
      ctx.fail(Error::InvalidArgument,
               "%s: kernel_size, stride and dilation must be positive, padding at most half "
               "the kernel",
               op);
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

// Resizes `out` (contiguous) to the input's shape with the N spatial dims
// replaced by p.out.
template <int N>
bool resize_pooled(KernelContext& ctx, const char* op, const Tensor& in, const Pooling<N>& p,
                   Tensor& out) {
  if (!check_contiguous(ctx, op, out)) return false;
  int64_t sizes[N + 2];
  for (int d = 0; d < in.dim(); ++d) sizes[d] = in.size(d);
  for (int i = 0; i < N; ++i) sizes[in.dim() - N + i] = p.out[i];
  return resize_output(ctx, out, Span<const int64_t>(sizes, in.dim()), op);
}

// max_poolNd_with_indices.out: kernel(p, in, out, indices) pools one dtype
// (every real type).
template <int N, typename Kernel>
void max_pool_with_indices_out(KernelContext& ctx, const char* op, const Tensor& self,
                           IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                           IntArrayRef dilation, bool ceil_mode, Tensor& out, Tensor& indices,
                           Kernel kernel) {
  Pooling<N> p;
  if (!read_pool_input(ctx, op, self, &p) ||
      !read_pool_window(ctx, op, kernel_size, stride, padding, dilation, ceil_mode, &p) ||
      !check_same_dtype(ctx, op, self, "self", out, "out")) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, indices.scalar_type() == ScalarType::Long,
                     "%s: indices must be Long, not %s", op,
                     scalar_type_name(indices.scalar_type()));
  if (!resize_pooled(ctx, op, self, p, out) || !resize_pooled(ctx, op, self, p, indices)) return;
  EMBER_SWITCH_REAL_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    kernel(p, self.const_data_ptr<CTYPE>(), out.mutable_data_ptr<CTYPE>(),
           indices.mutable_data_ptr<int64_t>()));
}

// avg_poolNd.out: kernel(p, in, out) averages one dtype. PyTorch averages
// floats and Long (with integer division), no other integers.
template <int N, typename Kernel>
void avg_pool_out(KernelContext& ctx, const char* op, const Tensor& self, IntArrayRef kernel_size,
              IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
              std::optional<int64_t> divisor_override, Tensor& out, Kernel kernel) {
  Pooling<N> p;
  const int64_t ones[] = {1};
  if (!read_pool_input(ctx, op, self, &p) ||
      !read_pool_window(ctx, op, kernel_size, stride, padding, IntArrayRef(ones, 1), ceil_mode,
                        &p) ||
      !check_same_dtype(ctx, op, self, "self", out, "out")) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, !divisor_override.has_value() || *divisor_override != 0,
                     "%s: divisor_override must not be zero", op);
  if (!resize_pooled(ctx, op, self, p, out)) return;
  const ScalarType type = self.scalar_type();
  if (type == ScalarType::Long) {
    kernel(p, self.const_data_ptr<int64_t>(), out.mutable_data_ptr<int64_t>());
    return;
  }
  EMBER_SWITCH_FLOAT_TYPES(type, return fail_dtype(ctx, op, type),
    kernel(p, self.const_data_ptr<CTYPE>(), out.mutable_data_ptr<CTYPE>()));
}

// _adaptive_avg_poolNd.out: kernel(p, in, out) averages one float dtype over
// the cells output_size gives.
template <int N, typename Kernel>
void adaptive_avg_pool_out(KernelContext& ctx, const char* op, const Tensor& self,
                       IntArrayRef output_size, Tensor& out, Kernel kernel) {
  Pooling<N> p;
  if (!read_pool_input(ctx, op, self, &p) || !check_same_dtype(ctx, op, self, "self", out, "out")) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, output_size.size() == static_cast<size_t>(N),
                     "%s: output_size must have %d values, got %zu", op, N, output_size.size());
  for (int i = 0; i < N; ++i) {
    // Bounded so that (i + 1) * in cannot overflow.
    EMBER_KERNEL_CHECK(ctx, output_size[i] >= 0 && output_size[i] < (int64_t{1} << 31),
                       "%s: output_size must be non-negative", op);
    p.out[i] = output_size[i];
  }
  if (!resize_pooled(ctx, op, self, p, out)) return;
  EMBER_SWITCH_FLOAT_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    kernel(p, self.const_data_ptr<CTYPE>(), out.mutable_data_ptr<CTYPE>()));
}

}  // namespace ember::kernels::nn
