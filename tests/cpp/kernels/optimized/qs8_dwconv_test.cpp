// Tester for the int8 depthwise convolution family: every variant this CPU
// supports, through the driver (weights packed, indirection buffer, threads),
// against a plain int64 reference on channels-last data: channel counts
// around every tile width (4, 16, 32), 3x3 and 5x5 (unrolled) and other
// windows (looped; odd and even tap counts, since the x86 variants pair
// taps), strides, padding (which reads A's zero point), dilation, batches,
// clamps.
//
// Tolerance: equal to the float-emulating requantization of the exact sum
// (as the kernels compute it) and within 1 LSB of the double one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "extension/threadpool/worker_pool.h"
#include "kernels/optimized/qs8-dwconv/qs8_dwconv.h"
#include "tests/cpp/kernels/optimized/int8_test_util.h"

namespace ember::kernels::optimized {
namespace {

using testing::random_float;
using testing::random_int32;
using testing::random_int8;
using testing::requant_double;
using testing::requant_float;

struct Case {
  int batch, channels, h, w, kh, kw;
  int stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0, dil_h = 1, dil_w = 1;
  int a_zero = -3;
  Qs8RequantParams requant = {4, -128, 127};
};

std::string describe(const Case& c) {
  char buf[220];
  std::snprintf(buf, sizeof(buf),
                "n %d c %d in %dx%d k %dx%d stride %d,%d pad %d,%d dil %d,%d a_zero %d out "
                "zero %d clamp [%d, %d]",
                c.batch, c.channels, c.h, c.w, c.kh, c.kw, c.stride_h, c.stride_w, c.pad_h,
                c.pad_w, c.dil_h, c.dil_w, c.a_zero, c.requant.zero, c.requant.min,
                c.requant.max);
  return buf;
}

int extent(int in, int pad, int dil, int k, int stride) {
  return (in + 2 * pad - dil * (k - 1) - 1) / stride + 1;
}

// Checks the variant on the case; false when the variant leaves the shape to
// another (a direct variant and a window it does not handle).
bool check_variant(const Qs8DwconvConfig& cfg, const Case& c, ThreadPool* pool) {
  SCOPED_TRACE(std::string(cfg.name) + ": " + describe(c) + (pool ? " (2 threads)" : ""));
  const int oh = extent(c.h, c.pad_h, c.dil_h, c.kh, c.stride_h);
  const int ow = extent(c.w, c.pad_w, c.dil_w, c.kw, c.stride_w);
  EXPECT_GT(oh, 0);
  EXPECT_GT(ow, 0);
  if (oh <= 0 || ow <= 0) return false;
  const size_t ch = c.channels;
  const size_t taps = static_cast<size_t>(c.kh) * c.kw;
  const uint32_t seed = static_cast<uint32_t>(c.channels * 7 + c.kh * 3 + c.h);
  const std::vector<int8_t> x = random_int8(static_cast<size_t>(c.batch) * c.h * c.w * ch, seed);
  // PyTorch's [channels, 1, kh, kw], full int8 range.
  const std::vector<int8_t> w = random_int8(ch * taps, seed + 1);
  const std::vector<int32_t> bias = random_int32(ch, seed + 2, -20000, 20000);
  std::vector<float> scale = random_float(ch, seed + 3, 0.5f, 2.0f);
  for (float& s : scale) s *= 100.0f / (75.0f * 75.0f * std::sqrt(static_cast<float>(taps)));
  const std::vector<int8_t> zero(ch, static_cast<int8_t>(c.a_zero));

  Qs8DwconvShape shape{static_cast<size_t>(c.batch), ch, static_cast<size_t>(c.h),
                       static_cast<size_t>(c.w), static_cast<size_t>(oh),
                       static_cast<size_t>(ow), static_cast<size_t>(c.kh),
                       static_cast<size_t>(c.kw), static_cast<size_t>(c.stride_h),
                       static_cast<size_t>(c.stride_w), static_cast<size_t>(c.pad_h),
                       static_cast<size_t>(c.pad_w), static_cast<size_t>(c.dil_h),
                       static_cast<size_t>(c.dil_w)};
  if (!qs8_dwconv_variant_handles(cfg, shape)) return false;
  std::vector<uint32_t> packed((qs8_dwconv_packed_size(cfg, c.kh, c.kw, ch) + 3) / 4);
  qs8_dwconv_pack_weights(cfg, c.kh, c.kw, ch, w.data(), bias.data(), c.a_zero, scale.data(),
                          packed.data());
  std::vector<const int8_t*> indirection;
  if (qs8_dwconv_uses_indirection(cfg)) {
    indirection.resize(f32_dwconv_indirection_size(shape));
    qs8_dwconv_indirection(shape, zero.data(), indirection.data());
  }
  std::vector<int8_t> out(static_cast<size_t>(c.batch) * oh * ow * ch, 0);
  qs8_dwconv(cfg, shape, indirection.data(), zero.data(), packed.data(), x.data(), out.data(),
             c.requant, pool);

  int reported = 0;
  for (int b = 0; b < c.batch; ++b) {
    for (int oy = 0; oy < oh; ++oy) {
      for (int ox = 0; ox < ow; ++ox) {
        for (size_t k = 0; k < ch; ++k) {
          int64_t acc = bias[k];
          for (int ky = 0; ky < c.kh; ++ky) {
            for (int kx = 0; kx < c.kw; ++kx) {
              const int iy = oy * c.stride_h + ky * c.dil_h - c.pad_h;
              const int ix = ox * c.stride_w + kx * c.dil_w - c.pad_w;
              if (iy < 0 || iy >= c.h || ix < 0 || ix >= c.w) continue;
              const int v = x[((static_cast<size_t>(b) * c.h + iy) * c.w + ix) * ch + k];
              acc += static_cast<int64_t>(v - c.a_zero) * w[k * taps + ky * c.kw + kx];
            }
          }
          const size_t at = ((static_cast<size_t>(b) * oh + oy) * ow + ox) * ch + k;
          const Qs8RequantParams& r = c.requant;
          const int want = requant_float(acc, scale[k], r.zero, r.min, r.max);
          const int exact = requant_double(acc, scale[k], r.zero, r.min, r.max);
          const int got = out[at];
          if ((got != want || std::abs(got - exact) > 1) && reported++ < 5) {
            ADD_FAILURE() << "out[" << b << "][" << oy << "][" << ox << "][" << k
                          << "] = " << got << ", want " << want << " (exact " << exact
                          << ", acc " << acc << ")";
          }
        }
      }
    }
  }
  return true;
}

std::vector<const Qs8DwconvConfig*> supported_variants() {
  std::vector<const Qs8DwconvConfig*> out;
  for (size_t i = 0; i < qs8_dwconv_num_variants(); ++i) {
    const Qs8DwconvConfig& v = qs8_dwconv_variant(i);
    if (qs8_dwconv_variant_supported(v)) out.push_back(&v);
  }
  return out;
}

TEST(Qs8Dwconv, ChannelCountsAroundEveryTile) {
  for (const Qs8DwconvConfig* cfg : supported_variants()) {
    int ran = 0;
    for (int ch : {1, 3, 4, 5, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100}) {
      ran += check_variant(*cfg, {1, ch, 5, 6, 3, 3, 1, 1, 1, 1}, nullptr);
      ran += check_variant(*cfg, {1, ch, 7, 6, 5, 5, 2, 2, 2, 2}, nullptr);
    }
    EXPECT_GE(ran, 14) << cfg->name << " skipped the 3x3 cases";
  }
}

TEST(Qs8Dwconv, LoopedWindowsStridesAndDilation) {
  for (const Qs8DwconvConfig* cfg : supported_variants()) {
    int ran = 0;
    for (const Case& c : {
             Case{2, 24, 8, 9, 3, 3, 2, 1, 1, 0},        // stride 2 rows, batches
             Case{1, 40, 9, 9, 3, 3, 1, 1, 2, 2, 2, 2},  // dilation 2
             Case{1, 33, 6, 7, 2, 2, 1, 1, 0, 1},        // 2x2: even tap count, looped
             Case{1, 17, 8, 8, 1, 5, 1, 1, 0, 2},        // 1x5: odd, looped
             Case{1, 48, 9, 9, 7, 7, 1, 1, 3, 3},        // 7x7 (49 taps)
             Case{1, 20, 3, 3, 3, 3, 3, 3, 1, 1},        // stride past the window's reach
             Case{1, 96, 12, 12, 3, 3, 1, 1, 1, 1},      // MobileNet-like
             Case{1, 32, 3, 300, 3, 3, 1, 1, 1, 1},      // wider than a direct chunk
             Case{1, 33, 4, 601, 3, 3, 2, 1, 1, 1},      // stride 2 rows, three chunks and a tail
             Case{1, 9, 7, 7, 4, 4, 1, 1, 2, 1},         // 4 rows: a direct kernel's tallest
             Case{1, 18, 6, 40, 3, 9, 1, 1, 1, 4, 1, 3},  // wide dilated window, looped columns
             Case{1, 8, 4, 5, 3, 3, 1, 1, 4, 4},         // all padding in some rows
         }) {
      ran += check_variant(*cfg, c, nullptr);
    }
    EXPECT_GE(ran, 8) << cfg->name;  // a direct variant: the stride-1 windows of <= 4 rows
  }
}

TEST(Qs8Dwconv, ZeroPointsAndClamps) {
  for (const Qs8DwconvConfig* cfg : supported_variants()) {
    Case relu{1, 37, 6, 6, 3, 3, 1, 1, 1, 1};
    relu.a_zero = 127;  // inputs far from the zero point: |x - a_zero| up to 255
    relu.requant = {-10, -10, 127};
    check_variant(*cfg, relu, nullptr);
    Case narrow{1, 19, 5, 5, 5, 5, 1, 1, 2, 2};
    narrow.a_zero = -128;
    narrow.requant = {0, -6, 6};
    check_variant(*cfg, narrow, nullptr);
  }
}

TEST(Qs8Dwconv, ThreadsSplitRows) {
  WorkerPool pool(2);
  for (const Qs8DwconvConfig* cfg : supported_variants()) {
    EXPECT_TRUE(check_variant(*cfg, {2, 64, 14, 14, 3, 3, 1, 1, 1, 1}, &pool)) << cfg->name;
    check_variant(*cfg, {1, 35, 9, 10, 5, 5, 2, 2, 2, 2}, &pool);
  }
}

TEST(Qs8Dwconv, ChosenVariantHandlesTheShape) {
  for (size_t kh : {1, 3, 4, 5, 7}) {
    const Qs8DwconvShape shape{1, 16, 9, 9, 9 - kh + 1, 7, kh, 3, 1, 1, 0, 0, 1, 1};
    const Qs8DwconvConfig& chosen = qs8_dwconv_config(shape);
    EXPECT_TRUE(qs8_dwconv_variant_supported(chosen)) << chosen.name;
    EXPECT_TRUE(qs8_dwconv_variant_handles(chosen, shape)) << chosen.name << " kh " << kh;
  }
}

TEST(Qs8Dwconv, VariantsTested) {
  std::string names;
  for (const Qs8DwconvConfig* cfg : supported_variants()) names += std::string(" ") + cfg->name;
  EXPECT_FALSE(names.empty());
  std::printf("qs8-dwconv variants tested:%s\n", names.c_str());
}

}  // namespace
}  // namespace ember::kernels::optimized
