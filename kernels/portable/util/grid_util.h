// Grid sampling's coordinate rules (grid_sampler_2d and _3d), as PyTorch's
// GridSampler.h defines them: a grid coordinate in [-1, 1] unnormalized to a
// pixel position, then clipped (border padding) or reflected (reflection).
#pragma once

#include <cmath>
#include <cstdint>

namespace ember::kernels::grid {

template <typename A>
A unnormalize(A coord, int64_t size, bool align_corners) {
  return align_corners ? (coord + 1) / 2 * static_cast<A>(size - 1)
                       : ((coord + 1) * static_cast<A>(size) - 1) / 2;
}

template <typename A>
A clip(A v, int64_t size) {
  const A hi = static_cast<A>(size - 1);
  // NaN maps to 0 rather than propagating into an index.
  return !(v > 0) ? A(0) : (v > hi ? hi : v);
}

template <typename A>
A reflect(A v, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return A(0);
  const A lo = static_cast<A>(twice_low) / 2;
  const A span = static_cast<A>(twice_high - twice_low) / 2;
  v = std::fabs(v - lo);
  const A extra = std::fmod(v, span);
  const int64_t flips = static_cast<int64_t>(std::floor(v / span));
  return flips % 2 == 0 ? extra + lo : span - extra + lo;
}

template <typename A>
A source_coord(A coord, int64_t size, int64_t padding, bool align_corners) {
  A v = unnormalize(coord, size, align_corners);
  if (padding == 1) {
    v = clip(v, size);
  } else if (padding == 2) {
    v = align_corners ? reflect(v, 0, 2 * (size - 1)) : reflect(v, -1, 2 * size - 1);
    v = clip(v, size);
  }
  return v;
}

// A pixel position (not a grid coordinate) with the padding applied: what
// bicubic sampling reads each of its 4 x 4 taps through.
template <typename A>
A padded_coord(A v, int64_t size, int64_t padding, bool align_corners) {
  if (padding == 1) {
    v = clip(v, size);
  } else if (padding == 2) {
    v = align_corners ? reflect(v, 0, 2 * (size - 1)) : reflect(v, -1, 2 * size - 1);
    v = clip(v, size);
  }
  return v;
}

// Keys' cubic convolution weights (A = -0.75) of the 4 taps around t in [0, 1).
template <typename A>
void cubic_weights(A t, A* w) {
  const A a = A(-0.75);
  auto near = [a](A x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
  auto far = [a](A x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
  w[0] = far(t + 1);
  w[1] = near(t);
  w[2] = near(1 - t);
  w[3] = far(2 - t);
}

}  // namespace ember::kernels::grid
