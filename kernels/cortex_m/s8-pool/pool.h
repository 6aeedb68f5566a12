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

// Calls fn(window, image, out) for every output pixel: `image` the pixel's
// image (its first pixel), `out` the pixel's output channels.
template <typename Fn>
inline void for_each_window(const PoolShape& s, const int8_t* input, int8_t* output, Fn&& fn) {
  const size_t image = static_cast<size_t>(s.in_h) * s.in_w * s.channels;
  for (int32_t n = 0; n < s.batches; ++n) {
    for (int32_t oy = 0; oy < s.out_h; ++oy) {
      for (int32_t ox = 0; ox < s.out_w; ++ox) {
        fn(pool_window(s, oy, ox), input + n * image,
           output + ((static_cast<size_t>(n) * s.out_h + oy) * s.out_w + ox) * s.channels);
      }
    }
  }
}

// Channel c of pixel (y, x) of an image.
inline const int8_t* at(const PoolShape& s, const int8_t* image, int32_t y, int32_t x, int32_t c) {
  return image + (static_cast<size_t>(y) * s.in_w + x) * s.channels + c;
}

// The largest code of channel c in a window (-128 for an empty one).
inline int32_t window_max(const PoolShape& s, const int8_t* image, const PoolWindow& w, int32_t c) {
  int32_t best = -128;
  for (int32_t y = w.y0; y < w.y1; ++y) {
    for (int32_t x = w.x0; x < w.x1; ++x) {
      const int32_t v = *at(s, image, y, x, c);
      best = v > best ? v : best;
    }
  }
  return best;
}

// sum / count rounded half away from zero (TFLite's average pool).
inline int32_t rounded_average(int32_t sum, int32_t count) {
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

}  // namespace ember::cortex_m
