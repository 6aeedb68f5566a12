// What the pooling variants share: the window of an output pixel, clipped to
// the image, and the rounding of an average.
#pragma once

#include "kernels/cortex_m/s8_kernels.h"

namespace ember::cortex_m {

struct PoolWindow {
  int32_t y0, y1, x0, x1;  // [y0, y1) x [x0, x1), inside the image
  int32_t count;           // the divisor of an average
};

inline PoolWindow pool_window(const PoolShape& s, int32_t oy, int32_t ox) {
  const int32_t top = oy * s.stride_h - s.pad_h;
  const int32_t left = ox * s.stride_w - s.pad_w;
  PoolWindow w;
  w.y0 = top < 0 ? 0 : top;
  w.x0 = left < 0 ? 0 : left;
  w.y1 = top + s.kernel_h > s.in_h ? s.in_h : top + s.kernel_h;
  w.x1 = left + s.kernel_w > s.in_w ? s.in_w : left + s.kernel_w;
  if (s.count_include_pad) {
    // PyTorch counts pads within the padded image, not beyond it.
    const int32_t bottom = top + s.kernel_h > s.in_h + s.pad_h ? s.in_h + s.pad_h : top + s.kernel_h;
    const int32_t right = left + s.kernel_w > s.in_w + s.pad_w ? s.in_w + s.pad_w : left + s.kernel_w;
    w.count = (bottom - top) * (right - left);
  } else {
    w.count = (w.y1 - w.y0) * (w.x1 - w.x0);
  }
  return w;
}

// sum / count rounded half away from zero (TFLite's average pool).
inline int32_t rounded_average(int32_t sum, int32_t count) {
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

}  // namespace ember::cortex_m
