// 3-D pooling over [C, D, H, W] or [N, C, D, H, W]: max_pool3d_with_indices,
// avg_pool3d and _adaptive_avg_pool3d, with the same output-size rules and
// window conventions as the 2-D kernels in pool_ops.cpp.
#include <optional>

#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "kernels/portable/util/pool_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

using Pool3d = nn::Pooling<3>;

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
  nn::max_pool_with_indices_out<3>(
      ctx, "max_pool3d_with_indices.out", self, kernel_size, stride, padding, dilation,
      ceil_mode, out, indices,
      [](const Pool3d& p, const auto* in, auto* o, int64_t* idx) { max_pool(p, in, o, idx); });
}

// ---------------------------------------------------------------------------
// avg_pool3d: the window is clipped to the padded input for
// count_include_pad and to the input itself for the sum.

template <typename T>
void avg_pool(const Pool3d& p, const T* in, T* out, bool count_include_pad,
              std::optional<int64_t> divisor_override) {
  using Acc = acc_t<T>;
  const int64_t in_plane = p.in[0] * p.in[1] * p.in[2];
  int64_t o = 0;
  for (int64_t c = 0; c < p.planes; ++c) {
    const T* src = in + c * in_plane;
    for (int64_t z = 0; z < p.out[0]; ++z) {
      const nn::AvgRange rd = nn::avg_range(z, p.k[0], p.stride[0], p.pad[0], p.in[0]);
      for (int64_t y = 0; y < p.out[1]; ++y) {
        const nn::AvgRange rh = nn::avg_range(y, p.k[1], p.stride[1], p.pad[1], p.in[1]);
        for (int64_t x = 0; x < p.out[2]; ++x, ++o) {
          const nn::AvgRange rw = nn::avg_range(x, p.k[2], p.stride[2], p.pad[2], p.in[2]);
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
  nn::avg_pool_out<3>(ctx, "avg_pool3d.out", self, kernel_size, stride, padding, ceil_mode,
                      divisor_override, out, [&](const Pool3d& p, const auto* in, auto* o) {
                        avg_pool(p, in, o, count_include_pad, divisor_override);
                      });
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
  nn::adaptive_avg_pool_out<3>(
      ctx, "_adaptive_avg_pool3d.out", self, output_size, out,
      [](const Pool3d& p, const auto* in, auto* o) { adaptive_avg_pool(p, in, o); });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::max_pool3d_with_indices.out", max_pool3d_with_indices_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::avg_pool3d.out", avg_pool3d_out, kFloatTypes | dtype_bit(ScalarType::Long));
EMBER_REGISTER_KERNEL("aten::_adaptive_avg_pool3d.out", adaptive_avg_pool3d_out, kFloatTypes);

}  // namespace ember::kernels
