// Tester for the f32 depthwise convolution family: every variant this CPU
// supports (not only the selected one), through the family's driver (weights
// packed, indirection buffer, threads), against the portable convolution on
// edge sizes: channel counts around every tile width, 3x3 and 5x5 (unrolled
// kernels) and other windows (looped), strides, padding, dilation, batches,
// fused clamps.
//
// Tolerance (f32): |ours - portable| <= (taps + 2) * 2^-24 * (|bias| +
// sum |x w|): both sides add the same products, in different orders.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "extension/threadpool/worker_pool.h"
#include "kernels/optimized/f32-dwconv/f32_dwconv.h"
#include "tests/cpp/tensor_factory.h"

namespace ember::kernels::optimized {
namespace {

using ::ember::testing::KernelCall;
using ::ember::testing::OwnedTensor;

struct Case {
  int32_t batch, channels, h, w, kh, kw;
  int32_t stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0, dil_h = 1, dil_w = 1;
  bool bias = true;
  float low = -std::numeric_limits<float>::infinity();
  float high = std::numeric_limits<float>::infinity();
};

std::string describe(const Case& c) {
  char buf[200];
  std::snprintf(buf, sizeof(buf),
                "n %d c %d in %dx%d k %dx%d stride %d,%d pad %d,%d dil %d,%d bias %d clamp [%g, %g]",
                c.batch, c.channels, c.h, c.w, c.kh, c.kw, c.stride_h, c.stride_w, c.pad_h,
                c.pad_w, c.dil_h, c.dil_w, c.bias, c.low, c.high);
  return buf;
}

void fill_random(float* p, size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (size_t i = 0; i < n; ++i) p[i] = dist(gen);
}

int32_t extent(int32_t in, int32_t pad, int32_t dil, int32_t k, int32_t stride) {
  return (in + 2 * pad - dil * (k - 1) - 1) / stride + 1;
}

void check_variant(const F32DwconvConfig& config, const Case& c, ThreadPool* pool) {
  SCOPED_TRACE(std::string(config.name) + ": " + describe(c) + (pool ? " (2 threads)" : ""));
  const int32_t oh = extent(c.h, c.pad_h, c.dil_h, c.kh, c.stride_h);
  const int32_t ow = extent(c.w, c.pad_w, c.dil_w, c.kw, c.stride_w);
  ASSERT_GT(oh, 0);
  ASSERT_GT(ow, 0);
  OwnedTensor x(ScalarType::Float, {c.batch, c.channels, c.h, c.w});
  OwnedTensor w(ScalarType::Float, {c.channels, 1, c.kh, c.kw});
  OwnedTensor b(ScalarType::Float, {c.channels});
  OwnedTensor want(ScalarType::Float, {c.batch, c.channels, oh, ow});
  fill_random(x.data<float>(), static_cast<size_t>(x.tensor().numel()), 1u + c.channels);
  fill_random(w.data<float>(), static_cast<size_t>(w.tensor().numel()), 2u + c.kh * c.kw);
  fill_random(b.data<float>(), static_cast<size_t>(c.channels), 3u);

  KernelCall call;
  call.tensor(x.tensor()).tensor(w.tensor());
  if (c.bias) {
    call.tensor(b.tensor());
  } else {
    call.none();
  }
  KernelContext ref = call.ints({c.stride_h, c.stride_w})
                          .ints({c.pad_h, c.pad_w})
                          .ints({c.dil_h, c.dil_w})
                          .boolean(false)
                          .ints({0, 0})
                          .integer(c.channels)
                          .tensor(want.tensor())
                          .run("aten::convolution.out");
  ASSERT_FALSE(ref.failed()) << ref.message();

  // The input channels-last, the output's garbage must not show.
  const size_t hw = static_cast<size_t>(c.h) * c.w, ohw = static_cast<size_t>(oh) * ow;
  const size_t ch = static_cast<size_t>(c.channels);
  std::vector<float> nhwc(static_cast<size_t>(c.batch) * hw * ch);
  const float* xp = x.data<float>();
  for (size_t n = 0; n < static_cast<size_t>(c.batch); ++n) {
    for (size_t k = 0; k < ch; ++k) {
      for (size_t p = 0; p < hw; ++p) nhwc[(n * hw + p) * ch + k] = xp[(n * ch + k) * hw + p];
    }
  }
  std::vector<float> got(static_cast<size_t>(c.batch) * ohw * ch, 1e30f);

  const F32DwconvShape shape{static_cast<size_t>(c.batch), ch,
                             static_cast<size_t>(c.h),     static_cast<size_t>(c.w),
                             static_cast<size_t>(oh),      static_cast<size_t>(ow),
                             static_cast<size_t>(c.kh),    static_cast<size_t>(c.kw),
                             static_cast<size_t>(c.stride_h), static_cast<size_t>(c.stride_w),
                             static_cast<size_t>(c.pad_h), static_cast<size_t>(c.pad_w),
                             static_cast<size_t>(c.dil_h), static_cast<size_t>(c.dil_w)};
  const size_t taps = static_cast<size_t>(c.kh * c.kw);
  std::vector<float> packed(f32_dwconv_packed_size(config, taps, ch), 1e30f);
  f32_dwconv_pack_weights(config, shape.kh, shape.kw, ch, w.data<float>(),
                          c.bias ? b.data<float>() : nullptr, packed.data());
  std::vector<float> zero(ch, 0.0f);
  std::vector<const float*> indirection(f32_dwconv_indirection_size(shape));
  f32_dwconv_indirection(shape, zero.data(), indirection.data());
  F32DwconvParams params;
  params.min = c.low;
  params.max = c.high;
  f32_dwconv(config, shape, indirection.data(), zero.data(), packed.data(), nhwc.data(),
             got.data(), params, pool);

  const double unit = std::ldexp(1.0, -24);
  const float* wp = w.data<float>();
  const float* bp = b.data<float>();
  const float* want_p = want.data<float>();
  int reported = 0;
  for (size_t n = 0; n < static_cast<size_t>(c.batch); ++n) {
    for (size_t k = 0; k < ch; ++k) {
      for (size_t p = 0; p < ohw; ++p) {
        // The bound: |bias| + sum of |x w| over the window (|x| <= 1).
        double mag = c.bias ? std::fabs(bp[k]) : 0.0;
        for (size_t t = 0; t < taps; ++t) mag += std::fabs(wp[k * taps + t]);
        const double tol = (static_cast<double>(taps) + 2.0) * unit * mag;
        float want_v = want_p[(n * ch + k) * ohw + p];
        want_v = std::fmin(std::fmax(want_v, c.low), c.high);
        const double g = got[(n * ohw + p) * ch + k];
        if (!(std::fabs(g - want_v) <= tol) && reported++ < 5) {
          ADD_FAILURE() << "image " << n << " channel " << k << " pixel " << p << ": got " << g
                        << " portable " << want_v << " tolerance " << tol;
        }
      }
    }
  }
}

std::vector<const F32DwconvConfig*> supported_variants() {
  std::vector<const F32DwconvConfig*> out;
  for (size_t i = 0; i < f32_dwconv_num_variants(); ++i) {
    const F32DwconvConfig& v = f32_dwconv_variant(i);
    if (f32_dwconv_variant_supported(v)) out.push_back(&v);
  }
  return out;
}

TEST(F32Dwconv, SelectionAndVariants) {
  std::printf("f32 dwconv variant: %s; supported:", f32_dwconv_config().name);
  for (const F32DwconvConfig* v : supported_variants()) std::printf(" %s", v->name);
  std::printf("\n");
  EXPECT_TRUE(f32_dwconv_variant_supported(f32_dwconv_config()));
  EXPECT_EQ(std::string(f32_dwconv_variant(f32_dwconv_num_variants() - 1).name), "scalar");
}

TEST(F32Dwconv, PackingPutsBiasThenTapsColumnByColumn) {
  // 2x3 window, 5 channels, scalar-agnostic: read back through the layout.
  for (const F32DwconvConfig* v : supported_variants()) {
    const size_t tile = v->channel_tile, kh = 2, kw = 3, taps = 6, ch = 5;
    std::vector<float> w(ch * taps), b(ch);
    for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i + 1);
    for (size_t i = 0; i < ch; ++i) b[i] = -static_cast<float>(i + 1);
    std::vector<float> packed(f32_dwconv_packed_size(*v, taps, ch), 99.0f);
    f32_dwconv_pack_weights(*v, kh, kw, ch, w.data(), b.data(), packed.data());
    for (size_t c = 0; c < (ch + tile - 1) / tile * tile; ++c) {
      const float* t0 = packed.data() + (c / tile) * tile * (taps + 1);
      EXPECT_EQ(t0[c % tile], c < ch ? b[c] : 0.0f) << v->name << " bias " << c;
      for (size_t kx = 0; kx < kw; ++kx) {
        for (size_t ky = 0; ky < kh; ++ky) {
          const float want = c < ch ? w[c * taps + ky * kw + kx] : 0.0f;
          EXPECT_EQ(t0[(1 + kx * kh + ky) * tile + c % tile], want)
              << v->name << " channel " << c << " tap " << ky << "," << kx;
        }
      }
    }
  }
}

// Channel counts on both sides of every tile width (4, 8, 16, 32) and its
// halves with the unrolled 3x3 and 5x5 kernels, padded and strided as
// MobileNets use them (144: MobileNetV2's 4.5 tiles of 32).
TEST(F32Dwconv, ChannelTailsMatchPortable) {
  for (const F32DwconvConfig* v : supported_variants()) {
    for (int32_t ch : {1,  2,  3,  4,  5,  7,  8,  9,  12, 15, 16, 17, 23, 24,
                       31, 32, 33, 40, 47, 48, 49, 63, 64, 65, 80, 144}) {
      check_variant(*v, Case{1, ch, 6, 7, 3, 3, 1, 1, 1, 1}, nullptr);
      check_variant(*v, Case{1, ch, 9, 8, 3, 3, 2, 2, 1, 1}, nullptr);
      check_variant(*v, Case{1, ch, 7, 9, 5, 5, 1, 1, 2, 2}, nullptr);
    }
  }
}

TEST(F32Dwconv, GeometriesMatchPortable) {
  const Case cases[] = {
      // Unpadded, one output pixel, a window as large as the input.
      {1, 19, 3, 3, 3, 3},
      {1, 19, 5, 5, 5, 5, 1, 1, 0, 0},
      // Windows with no unrolled kernel: looped taps.
      {1, 21, 6, 6, 2, 2},
      {2, 18, 8, 7, 1, 3, 1, 2, 0, 1},
      {1, 33, 9, 9, 7, 7, 2, 2, 3, 3},
      {1, 5, 4, 4, 1, 1},
      {1, 17, 11, 5, 4, 2, 3, 1, 1, 0},
      // Dilation (no shared columns), strides past the window, asymmetric.
      {1, 20, 10, 11, 3, 3, 1, 1, 2, 2, 2, 2},
      {1, 16, 12, 12, 3, 3, 1, 1, 3, 1, 3, 1},
      {1, 24, 13, 13, 3, 3, 4, 4, 1, 1},
      {2, 35, 9, 10, 3, 3, 2, 1, 1, 0},
      // A row wider than the shared columns of one pixel, batches, no bias.
      {3, 16, 4, 40, 3, 3, 1, 1, 1, 1, 1, 1, false},
      {2, 9, 5, 5, 5, 5, 2, 2, 2, 2, 1, 1, false},
  };
  for (const F32DwconvConfig* v : supported_variants()) {
    for (const Case& c : cases) check_variant(*v, c, nullptr);
  }
}

TEST(F32Dwconv, ClampsAndThreads) {
  WorkerPool pool(2);
  for (const F32DwconvConfig* v : supported_variants()) {
    for (ThreadPool* tp : {static_cast<ThreadPool*>(nullptr), static_cast<ThreadPool*>(&pool)}) {
      Case relu6{1, 37, 13, 12, 3, 3, 1, 1, 1, 1};
      relu6.low = 0.0f;
      relu6.high = 6.0f * 0.1f;  // tight enough that both bounds bite
      check_variant(*v, relu6, tp);
      Case relu{2, 16, 8, 8, 5, 5, 2, 2, 2, 2};
      relu.low = 0.0f;
      check_variant(*v, relu, tp);
      check_variant(*v, Case{1, 96, 14, 14, 3, 3, 2, 2, 1, 1}, tp);
    }
  }
}

TEST(F32Dwconv, NanPassesTheClamp) {
  for (const F32DwconvConfig* v : supported_variants()) {
    const size_t ch = 19;
    const F32DwconvShape shape{1, ch, 3, 3, 1, 1, 3, 3, 1, 1, 0, 0, 1, 1};
    std::vector<float> w(ch * 9, 1.0f), in(ch * 9, 0.5f), out(ch, 0.0f), zero(ch, 0.0f);
    in[4 * ch + 3] = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> packed(f32_dwconv_packed_size(*v, 9, ch));
    f32_dwconv_pack_weights(*v, 3, 3, ch, w.data(), nullptr, packed.data());
    std::vector<const float*> ind(f32_dwconv_indirection_size(shape));
    f32_dwconv_indirection(shape, zero.data(), ind.data());
    F32DwconvParams params;
    params.min = 0.0f;
    params.max = 1.0f;
    f32_dwconv(*v, shape, ind.data(), zero.data(), packed.data(), in.data(), out.data(), params,
               nullptr);
    for (size_t c = 0; c < ch; ++c) {
      if (c == 3) {
        EXPECT_TRUE(std::isnan(out[c])) << v->name;
      } else {
        EXPECT_EQ(out[c], 1.0f) << v->name << " " << c;
      }
    }
  }
}

}  // namespace
}  // namespace ember::kernels::optimized
