// 2-D pooling over [C, H, W] or [N, C, H, W]: max_pool2d_with_indices,
// avg_pool2d and _adaptive_avg_pool2d, with PyTorch's output-size rules
// (ceil_mode, padding, dilation) and window conventions.
#include <optional>

#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "kernels/portable/util/pool_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

using Pool2d = nn::Pooling<2>;

// ---------------------------------------------------------------------------
// max_pool2d_with_indices: indices are flat (h * W + w) within each plane.
// A NaN is taken over any number, and a later NaN over an earlier one, which
// is the order PyTorch's CPU kernel compares in.

template <typename T>
void max_pool(const Pool2d& p, const T* in, T* out, int64_t* indices) {
  using Acc = acc_t<T>;
  const int64_t H = p.in[0], W = p.in[1], OH = p.out[0], OW = p.out[1];
  for (int64_t c = 0; c < p.planes; ++c) {
    const T* src = in + c * H * W;
    for (int64_t y = 0; y < OH; ++y) {
      int64_t h0 = y * p.stride[0] - p.pad[0];
      const int64_t h1 = h0 + (p.k[0] - 1) * p.dil[0] + 1;
      while (h0 < 0) h0 += p.dil[0];
      for (int64_t x = 0; x < OW; ++x) {
        int64_t w0 = x * p.stride[1] - p.pad[1];
        const int64_t w1 = w0 + (p.k[1] - 1) * p.dil[1] + 1;
        while (w0 < 0) w0 += p.dil[1];
        Acc best = nn::lowest_value<T>();
        int64_t best_i = h0 * W + w0;
        for (int64_t ih = h0; ih < h1 && ih < H; ih += p.dil[0]) {
          for (int64_t iw = w0; iw < w1 && iw < W; iw += p.dil[1]) {
            const Acc v = static_cast<Acc>(src[ih * W + iw]);
            if (v > best || is_nan(v)) {
              best = v;
              best_i = ih * W + iw;
            }
          }
        }
        const int64_t o = (c * OH + y) * OW + x;
        out[o] = static_cast<T>(best);
        indices[o] = best_i;
      }
    }
  }
}

void max_pool2d_with_indices_out(KernelContext& ctx, const Tensor& self, IntArrayRef kernel_size,
                                 IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                 bool ceil_mode, Tensor& out, Tensor& indices) {
  nn::max_pool_with_indices_out<2>(
      ctx, "max_pool2d_with_indices.out", self, kernel_size, stride, padding, dilation,
      ceil_mode, out, indices,
      [](const Pool2d& p, const auto* in, auto* o, int64_t* idx) { max_pool(p, in, o, idx); });
}

// ---------------------------------------------------------------------------
// avg_pool2d. The window is clipped to the padded input for count_include_pad
// and to the input itself for the sum; divisor_override replaces both.

template <typename T>
void avg_pool(const Pool2d& p, const T* in, T* out, bool count_include_pad,
              std::optional<int64_t> divisor_override) {
  using Acc = acc_t<T>;
  const int64_t H = p.in[0], W = p.in[1], OH = p.out[0], OW = p.out[1];
  for (int64_t c = 0; c < p.planes; ++c) {
    const T* src = in + c * H * W;
    for (int64_t y = 0; y < OH; ++y) {
      const nn::AvgRange rh = nn::avg_range(y, p.k[0], p.stride[0], p.pad[0], H);
      for (int64_t x = 0; x < OW; ++x) {
        const nn::AvgRange rw = nn::avg_range(x, p.k[1], p.stride[1], p.pad[1], W);
        const int64_t o = (c * OH + y) * OW + x;
        if (rh.lo >= rh.hi || rw.lo >= rw.hi) {
          out[o] = static_cast<T>(0);
          continue;
        }
        Acc sum = 0;
        for (int64_t ih = rh.lo; ih < rh.hi; ++ih) {
          for (int64_t iw = rw.lo; iw < rw.hi; ++iw) sum += static_cast<Acc>(src[ih * W + iw]);
        }
        const int64_t divisor = divisor_override.has_value() ? *divisor_override
                                : count_include_pad ? (rh.end - rh.start) * (rw.end - rw.start)
                                                    : (rh.hi - rh.lo) * (rw.hi - rw.lo);
        out[o] = static_cast<T>(sum / static_cast<Acc>(divisor));
      }
    }
  }
}

void avg_pool2d_out(KernelContext& ctx, const Tensor& self, IntArrayRef kernel_size,
                    IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                    bool count_include_pad, std::optional<int64_t> divisor_override,
                    Tensor& out) {
  nn::avg_pool_out<2>(ctx, "avg_pool2d.out", self, kernel_size, stride, padding, ceil_mode,
                      divisor_override, out, [&](const Pool2d& p, const auto* in, auto* o) {
                        avg_pool(p, in, o, count_include_pad, divisor_override);
                      });
}

// ---------------------------------------------------------------------------
// _adaptive_avg_pool2d: output cell i covers input [floor(i*I/O), ceil((i+1)*I/O)).

template <typename T>
void adaptive_avg_pool(const Pool2d& p, const T* in, T* out) {
  using Acc = acc_t<T>;
  const int64_t H = p.in[0], W = p.in[1], OH = p.out[0], OW = p.out[1];
  for (int64_t c = 0; c < p.planes; ++c) {
    const T* src = in + c * H * W;
    for (int64_t y = 0; y < OH; ++y) {
      const int64_t hs = y * H / OH;
      const int64_t he = ((y + 1) * H + OH - 1) / OH;
      for (int64_t x = 0; x < OW; ++x) {
        const int64_t ws = x * W / OW;
        const int64_t we = ((x + 1) * W + OW - 1) / OW;
        Acc sum = 0;
        for (int64_t ih = hs; ih < he; ++ih) {
          for (int64_t iw = ws; iw < we; ++iw) sum += static_cast<Acc>(src[ih * W + iw]);
        }
        out[(c * OH + y) * OW + x] =
            static_cast<T>(sum / static_cast<Acc>((he - hs) * (we - ws)));
      }
    }
  }
}

void adaptive_avg_pool2d_out(KernelContext& ctx, const Tensor& self, IntArrayRef output_size,
                             Tensor& out) {
  nn::adaptive_avg_pool_out<2>(
      ctx, "_adaptive_avg_pool2d.out", self, output_size, out,
      [](const Pool2d& p, const auto* in, auto* o) { adaptive_avg_pool(p, in, o); });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::max_pool2d_with_indices.out", max_pool2d_with_indices_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::avg_pool2d.out", avg_pool2d_out, kFloatTypes | dtype_bit(ScalarType::Long));
EMBER_REGISTER_KERNEL("aten::_adaptive_avg_pool2d.out", adaptive_avg_pool2d_out, kFloatTypes);

}  // namespace ember::kernels
