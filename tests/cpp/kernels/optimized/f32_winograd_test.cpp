// Tester for the f32 Winograd family, F(4x4, 3x3) and F(2x2, 3x3): every
// variant this CPU supports, through the driver (weights transformed and
// packed, a GEMM per point, threads), against a direct convolution in double
// on edge sizes: outputs not a multiple of the tile, 1x1 and
// smaller-than-a-tile images,
// channel counts around the 8- and 16-lane blocks and the GEMM's panel
// widths (8, 16, 32), padding 0 to 2, batches, bias or none, fused clamps.
//
// Tolerance: |ours - direct| <= 2e-5 * (|bias| + sum |x w|). The transforms
// scale inputs by up to 5 and outputs by up to 8 before the GEMM's rounding,
// so Winograd's error is a small multiple of the direct sum's (Lavin and
// Gray report 1e-6-scale relative error for F(4x4, 3x3) in float); 2e-5
// leaves room without hiding a wrong coefficient, which is off by O(1).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "extension/threadpool/worker_pool.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/f32-winograd/f32_winograd.h"

namespace ember::kernels::optimized {
namespace {

struct Case {
  size_t batch, in_c, out_c, h, w, pad;
  bool bias = true;
  float low = -std::numeric_limits<float>::infinity();
  float high = std::numeric_limits<float>::infinity();
};

std::string describe(const Case& c) {
  char buf[160];
  std::snprintf(buf, sizeof(buf), "n %zu ci %zu co %zu in %zux%zu pad %zu bias %d clamp [%g, %g]",
                c.batch, c.in_c, c.out_c, c.h, c.w, c.pad, c.bias, c.low, c.high);
  return buf;
}

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

void check(const F32WinogradConfig& config, size_t tile, const Case& c, ThreadPool* pool) {
  SCOPED_TRACE(std::string(config.name) + " F(" + std::to_string(tile) + "x" +
               std::to_string(tile) + "): " + describe(c) + (pool ? " (2 threads)" : ""));
  const size_t oh = c.h + 2 * c.pad - 2, ow = c.w + 2 * c.pad - 2;
  const F32WinogradShape s{c.batch, c.h, c.w, c.in_c, c.out_c, c.pad, c.pad, oh, ow, tile};
  const std::vector<float> x = random_floats(c.batch * c.h * c.w * c.in_c, 1u + c.in_c);  // NHWC
  const std::vector<float> wt = random_floats(c.out_c * c.in_c * 9, 2u + c.out_c);       // OIHW
  const std::vector<float> b = random_floats(c.out_c, 3u);

  const F32GemmConfig& gemm = f32_gemm_config();
  std::vector<float> packed(f32_winograd_packed_weights_size(gemm, s));
  std::vector<float> scratch(c.in_c * c.out_c);
  f32_winograd_pack_weights(gemm, s, wt.data(), scratch.data(), packed.data());
  std::vector<float> temp(f32_winograd_temp_floats(s));
  const float sentinel = 12345.0f;
  std::vector<float> y(c.batch * oh * ow * c.out_c + 1, sentinel);
  f32_winograd_conv(config, gemm, s, x.data(), packed.data(), c.bias ? b.data() : nullptr, c.low,
                    c.high, y.data(), temp.data(), pool);
  EXPECT_EQ(y.back(), sentinel) << "wrote past the output";

  size_t bad = 0;
  for (size_t n = 0; n < c.batch; ++n) {
    for (size_t oy = 0; oy < oh; ++oy) {
      for (size_t ox = 0; ox < ow; ++ox) {
        for (size_t co = 0; co < c.out_c; ++co) {
          double sum = c.bias ? b[co] : 0.0, mag = std::fabs(sum);
          for (size_t ky = 0; ky < 3; ++ky) {
            for (size_t kx = 0; kx < 3; ++kx) {
              const size_t iy = oy + ky - c.pad, ix = ox + kx - c.pad;
              if (iy >= c.h || ix >= c.w) continue;  // unsigned: padding wraps round
              for (size_t ci = 0; ci < c.in_c; ++ci) {
                const double p = static_cast<double>(x[((n * c.h + iy) * c.w + ix) * c.in_c + ci]) *
                                 wt[((co * c.in_c + ci) * 3 + ky) * 3 + kx];
                sum += p;
                mag += std::fabs(p);
              }
            }
          }
          const double want = std::fmin(std::fmax(sum, c.low), c.high);
          const float got = y[((n * oh + oy) * ow + ox) * c.out_c + co];
          if (std::fabs(got - want) > 2e-5 * mag + 1e-30 && ++bad <= 5) {
            ADD_FAILURE() << "at n " << n << " y " << oy << " x " << ox << " c " << co << ": got "
                          << got << ", want " << want << " (sum of |products| " << mag << ")";
          }
        }
      }
    }
  }
  EXPECT_EQ(bad, 0u);
}

const Case kCases[] = {
    {1, 8, 8, 4, 4, 1},     {1, 8, 16, 6, 6, 0},    {1, 3, 5, 1, 1, 1},
    {1, 1, 1, 3, 3, 0},     {1, 13, 17, 7, 9, 1},   {2, 16, 24, 9, 5, 1},
    {1, 9, 7, 10, 11, 2},   {1, 32, 32, 16, 16, 1}, {1, 64, 40, 30, 22, 1},
    {2, 24, 8, 13, 13, 0},  {1, 8, 33, 5, 17, 1},   {1, 31, 47, 9, 9, 1},
    {1, 48, 65, 8, 10, 1},  {1, 17, 15, 6, 7, 0},
    {1, 16, 16, 12, 12, 1, true, 0.0f, 6.0f},
    {1, 16, 16, 12, 12, 1, false, 0.0f, std::numeric_limits<float>::infinity()},
};

TEST(F32Winograd, EveryVariantMatchesDirectConvolution) {
  WorkerPool pool(2);
  size_t tested = 0;
  for (size_t vi = 0; vi < f32_winograd_num_variants(); ++vi) {
    const F32WinogradConfig& config = f32_winograd_variant(vi);
    if (!f32_winograd_variant_supported(config)) continue;
    ++tested;
    for (size_t tile : {4, 2}) {
      for (const Case& c : kCases) {
        check(config, tile, c, nullptr);
        check(config, tile, c, &pool);
      }
    }
  }
  EXPECT_GE(tested, 1u);
}

TEST(F32Winograd, NaNPassesTheClamp) {
  for (size_t tile : {4, 2}) {
    const F32WinogradShape s{1, 4, 4, 8, 8, 1, 1, 4, 4, tile};
    const F32GemmConfig& gemm = f32_gemm_config();
    std::vector<float> x(4 * 4 * 8, 1.0f);
    x[5 * 8 + 3] = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> wt = random_floats(8 * 8 * 9, 7u);
    std::vector<float> packed(f32_winograd_packed_weights_size(gemm, s));
    std::vector<float> scratch(64), temp(f32_winograd_temp_floats(s)), y(4 * 4 * 8);
    f32_winograd_pack_weights(gemm, s, wt.data(), scratch.data(), packed.data());
    f32_winograd_conv(f32_winograd_config(), gemm, s, x.data(), packed.data(), nullptr, 0.0f,
                      6.0f, y.data(), temp.data(), nullptr);
    // Output (1, 1) reads input (1, 1), the NaN.
    EXPECT_TRUE(std::isnan(y[(1 * 4 + 1) * 8])) << "F(" << tile << "x" << tile << ")";
  }
}

TEST(F32Winograd, TileForTheShape) {
  // F(4x4) on wide images with channels and weights that stay in cache.
  EXPECT_EQ(f32_winograd_tile_for({1, 56, 56, 64, 64, 1, 1, 56, 56}), 4u);
  EXPECT_EQ(f32_winograd_tile_for({1, 28, 28, 128, 128, 1, 1, 28, 28}), 4u);
  // F(2x2) where F(4x4)'s weights would be too large (9 MiB, 36 MiB) or the
  // image too small for 4x4 tiles.
  EXPECT_EQ(f32_winograd_tile_for({1, 14, 14, 256, 256, 1, 1, 14, 14}), 2u);
  EXPECT_EQ(f32_winograd_tile_for({1, 7, 7, 512, 512, 1, 1, 7, 7}), 2u);
  EXPECT_EQ(f32_winograd_tile_for({1, 7, 7, 64, 64, 1, 1, 7, 7}), 2u);
  // Neither: a 4x4 image, 3 channels in, 64 MiB of F(2x2) weights.
  EXPECT_EQ(f32_winograd_tile_for({1, 4, 4, 64, 64, 1, 1, 4, 4}), 0u);
  EXPECT_EQ(f32_winograd_tile_for({1, 56, 56, 3, 64, 1, 1, 56, 56}), 0u);
  EXPECT_EQ(f32_winograd_tile_for({1, 14, 14, 1024, 1024, 1, 1, 14, 14}), 0u);
}

}  // namespace
}  // namespace ember::kernels::optimized
