// What the pooling kernels share at every rank (pool_ops.cpp: 2-D,
// pool3d_ops.cpp: 3-D, backward_ops.cpp: the 2-D gradients): the input seen
// as planes of N spatial dims, the window's arguments read and checked as
// PyTorch checks them, and PyTorch's output-size rule.
#pragma once

#include <cstdint>

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

}  // namespace ember::kernels::nn
