// Tester for the int8 GEMM family: every variant this CPU supports (not only
// the selected one), through the family's drivers (weights packed once, A
// gathered per tile, threads), against a plain reference computed in int64:
// the qs8 GEMM (static requantization), the qd8-f32 GEMM (per-row dynamic
// zero points and scales, float out) and the indirect GEMM (convolutions with
// padding, strides, dilation and batches), on edge sizes: 1, odd and prime
// M, N and K, K not a multiple of any k-group, N around every panel width,
// K long enough that a tile holds fewer rows.
//
// Tolerances: int8 outputs equal the float-emulating reference exactly
// (float(acc) * scale in float, rounded half to even, as every variant
// computes it; acc is exact) and are within 1 LSB of the double one. qd8-f32:
// |ours - exact| <= 4 * 2^-24 * (|acc * a_scale * w_scale| + |bias|): the
// conversion of acc, two products and an add each round once.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "extension/threadpool/worker_pool.h"
#include "kernels/optimized/qs8-gemm/qs8_gemm.h"
#include "runtime/kernel/kernel_context.h"
#include "tests/cpp/kernels/optimized/int8_test_util.h"

namespace ember::kernels::optimized {
namespace {

using testing::random_float;
using testing::random_int32;
using testing::random_int8;
using testing::requant_double;
using testing::requant_float;

std::vector<const Qs8GemmConfig*> supported_variants() {
  std::vector<const Qs8GemmConfig*> out;
  for (size_t i = 0; i < qs8_gemm_num_variants(); ++i) {
    const Qs8GemmConfig& v = qs8_gemm_variant(i);
    if (qs8_gemm_variant_supported(v)) out.push_back(&v);
  }
  return out;
}

// Packed weights in a buffer aligned as the pack functions want.
struct Packed {
  std::vector<uint64_t> storage;
  void* data(size_t bytes) {
    storage.assign((bytes + 7) / 8, 0);
    return storage.data();
  }
};

struct GemmCase {
  int m, n, k;
  int a_zero = 3;
  int c_zero = -5;
  int c_min = -128;
  int c_max = 127;
  int w_lo = -127;  // weights' range (symmetric int8 by default)
  int a_lo = -128;
  int a_hi = 127;
  bool bias = true;
  bool threads = false;
  bool workspace = false;  // A gathered once into a workspace (the case must use one)
};

// A workspace for the problem when the case asks for one: asserts the
// driver would use it, so that a case meant to test it cannot pass without.
struct Workspace {
  std::vector<uint64_t> storage;
  void* data = nullptr;
  size_t bytes = 0;
  void make(bool wanted, size_t size) {
    if (!wanted) return;
    ASSERT_GT(size, 0u) << "the case has one N block: no workspace to test";
    storage.assign((size + 7) / 8, 0);
    data = storage.data();
    bytes = size;
  }
};

std::string describe(const GemmCase& c) {
  char buf[200];
  std::snprintf(buf, sizeof(buf),
                "m %d n %d k %d a_zero %d c_zero %d clamp [%d, %d] w_lo %d a [%d, %d] bias %d "
                "threads %d workspace %d",
                c.m, c.n, c.k, c.a_zero, c.c_zero, c.c_min, c.c_max, c.w_lo, c.a_lo, c.a_hi,
                c.bias, c.threads, c.workspace);
  return buf;
}

// Requantization scales that spread the outputs over the int8 range: about
// 127 / (the typical magnitude of acc), varied per channel.
std::vector<float> spread_scales(int n, int k, uint32_t seed) {
  std::vector<float> s = random_float(static_cast<size_t>(n), seed, 0.5f, 2.0f);
  const float typical = 60.0f * 70.0f * std::sqrt(static_cast<float>(k > 0 ? k : 1));
  for (float& x : s) x *= 100.0f / typical;
  return s;
}

void check_qs8_gemm(const Qs8GemmConfig& cfg, const GemmCase& c, ThreadPool* pool) {
  SCOPED_TRACE(std::string(cfg.name) + ": " + describe(c));
  const size_t m = c.m, n = c.n, k = c.k;
  const uint32_t seed = static_cast<uint32_t>(c.m * 131 + c.n * 17 + c.k);
  // A with a padded row stride, to test lda != k.
  const size_t lda = k + 3;
  const std::vector<int8_t> a = random_int8(m * lda, seed, c.a_lo, c.a_hi);
  // B as a linear layer holds it: [n, k].
  const std::vector<int8_t> w = random_int8(n * k, seed + 1, c.w_lo, 127);
  const std::vector<int32_t> bias = random_int32(n, seed + 2, -50000, 50000);
  const std::vector<float> scale = spread_scales(c.n, c.k, seed + 3);

  Qs8Weights weights;
  weights.data = w.data();
  weights.kc = k;
  weights.n = n;
  weights.k_stride = 1;
  weights.n_stride = static_cast<ptrdiff_t>(k);
  Packed packed;
  void* pw = packed.data(qs8_gemm_packed_size(cfg, 1, k, n));
  qs8_gemm_pack_weights(cfg, weights, c.bias ? bias.data() : nullptr, c.a_zero, scale.data(), pw);

  const size_t ldc = n + 2;
  std::vector<int8_t> out(m * ldc, 77);
  Qs8GemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = a.data();
  p.lda = lda;
  p.packed_w = pw;
  p.c = out.data();
  p.ldc = ldc;
  p.requant = {c.c_zero, c.c_min, c.c_max};
  Workspace ws;
  ws.make(c.workspace, qs8_gemm_a_workspace_bytes(cfg, m, n, 1, k, false));
  p.a_workspace = ws.data;
  p.a_workspace_bytes = ws.bytes;
  KernelContext ctx(nullptr, pool);
  ASSERT_TRUE(qs8_gemm(cfg, p, &ctx));

  int reported = 0;
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j) {
      int64_t acc = c.bias ? bias[j] : 0;
      for (size_t q = 0; q < k; ++q) {
        acc += (static_cast<int64_t>(a[i * lda + q]) - c.a_zero) * w[j * k + q];
      }
      const int got = out[i * ldc + j];
      const int want = requant_float(acc, scale[j], c.c_zero, c.c_min, c.c_max);
      const int exact = requant_double(acc, scale[j], c.c_zero, c.c_min, c.c_max);
      if ((got != want || std::abs(got - exact) > 1) && reported++ < 5) {
        ADD_FAILURE() << "c[" << i << "][" << j << "] = " << got << ", want " << want
                      << " (exact " << exact << ", acc " << acc << ")";
      }
    }
    // The padding between rows is untouched.
    for (size_t j = n; j < ldc; ++j) ASSERT_EQ(out[i * ldc + j], 77) << "row " << i;
  }
}

void check_qd8_gemm(const Qs8GemmConfig& cfg, const GemmCase& c, ThreadPool* pool) {
  SCOPED_TRACE(std::string(cfg.name) + " qd8: " + describe(c));
  const size_t m = c.m, n = c.n, k = c.k;
  const uint32_t seed = static_cast<uint32_t>(c.m * 7 + c.n * 131 + c.k * 3);
  const size_t lda = k;
  const std::vector<int8_t> a = random_int8(m * lda, seed, c.a_lo, c.a_hi);
  // B as [k, n] this time: k_stride n, n_stride 1.
  const std::vector<int8_t> w = random_int8(k * n, seed + 1, c.w_lo, 127);
  const std::vector<float> w_scale = random_float(n, seed + 2, 0.001f, 0.02f);
  const std::vector<float> bias = random_float(n, seed + 3, -2.0f, 2.0f);
  const std::vector<int32_t> a_zero = random_int32(m, seed + 4, -128, 127);
  const std::vector<float> a_scale = random_float(m, seed + 5, 0.001f, 0.1f);

  Qs8Weights weights;
  weights.data = w.data();
  weights.kc = k;
  weights.n = n;
  weights.k_stride = static_cast<ptrdiff_t>(n);
  weights.n_stride = 1;
  Packed packed;
  void* pw = packed.data(qd8_gemm_packed_size(cfg, 1, k, n));
  qd8_gemm_pack_weights(cfg, weights, w_scale.data(), c.bias ? bias.data() : nullptr, pw);

  std::vector<float> out(m * n, 0.0f);
  Qd8F32GemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = a.data();
  p.lda = lda;
  p.a_zero = a_zero.data();
  p.a_scale = a_scale.data();
  p.packed_w = pw;
  p.c = out.data();
  p.ldc = n;
  const bool clamp = c.c_min > -128;
  if (clamp) p.params = {-0.5f, 0.75f};
  Workspace ws;
  ws.make(c.workspace, qs8_gemm_a_workspace_bytes(cfg, m, n, 1, k, true));
  p.a_workspace = ws.data;
  p.a_workspace_bytes = ws.bytes;
  KernelContext ctx(nullptr, pool);
  ASSERT_TRUE(qd8_f32_gemm(cfg, p, &ctx));

  int reported = 0;
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j) {
      int64_t acc = 0;
      for (size_t q = 0; q < k; ++q) {
        acc += (static_cast<int64_t>(a[i * lda + q]) - a_zero[i]) * w[q * n + j];
      }
      const double b = c.bias ? bias[j] : 0.0;
      const double prod = static_cast<double>(acc) * a_scale[i] * w_scale[j];
      double want = prod + b;
      if (clamp) want = want < -0.5 ? -0.5 : (want > 0.75 ? 0.75 : want);
      const double tol = 4.0 * std::ldexp(1.0, -24) * (std::fabs(prod) + std::fabs(b));
      const double got = out[i * n + j];
      if (!(std::fabs(got - want) <= tol) && reported++ < 5) {
        ADD_FAILURE() << "c[" << i << "][" << j << "] = " << got << ", want " << want
                      << " (tol " << tol << ", acc " << acc << ")";
      }
    }
  }
}

std::vector<GemmCase> edge_cases() {
  std::vector<GemmCase> cases;
  // Every tile height and panel width around each variant's (4, 6, 12, 16,
  // 32 rows; 4, 16, 24, 32 columns), K around every k-group (1, 2, 4, 16) and
  // 64-byte gather block (AMX's K step).
  for (int m : {1, 2, 3, 5, 7, 12, 13, 17, 25, 32, 33}) {
    for (int n : {1, 3, 4, 8, 15, 16, 17, 20, 24, 31, 32, 33, 47, 56, 64, 65}) {
      for (int k : {1, 2, 3, 4, 5, 15, 16, 17, 33, 63, 64, 65, 67, 128}) {
        // A spread that keeps the suite fast: all M x N at two K, all K at two N.
        if (k != 17 && k != 67 && n != 17 && n != 33) continue;
        cases.push_back({m, n, k});
      }
    }
  }
  // Larger than the blocking: many N blocks and row tiles, long and prime K.
  cases.push_back({97, 131, 257});
  cases.push_back({64, 600, 500});
  cases.push_back({30, 40, 1021});
  cases.push_back({49, 64, 4608});
  return cases;
}

TEST(Qs8Gemm, EveryVariantMatchesReferenceOnEdgeSizes) {
  for (const Qs8GemmConfig* cfg : supported_variants()) {
    for (const GemmCase& c : edge_cases()) check_qs8_gemm(*cfg, c, nullptr);
  }
}

TEST(Qs8Gemm, ExtremeValuesStayExact) {
  // |a - a_zero| = 255 against weights of -128: the largest products, which a
  // saturating int16 sum (vpmaddubsw) would get wrong; clamps that bite.
  for (const Qs8GemmConfig* cfg : supported_variants()) {
    GemmCase c{13, 33, 203};
    c.w_lo = -128;
    c.a_lo = -128;
    c.a_hi = -120;
    c.a_zero = 127;
    check_qs8_gemm(*cfg, c, nullptr);
    c.a_lo = 120;
    c.a_hi = 127;
    c.a_zero = -128;
    check_qs8_gemm(*cfg, c, nullptr);
    // A fused relu (c_min = c_zero) and a narrow range; no bias.
    GemmCase r{17, 40, 77};
    r.c_zero = -20;
    r.c_min = -20;
    r.c_max = 50;
    r.bias = false;
    check_qs8_gemm(*cfg, r, nullptr);
  }
}

TEST(Qs8Gemm, LongKUsesShorterTiles) {
  // K long enough that the A buffer (128 KiB) holds fewer rows than a tile
  // has (4 to 14 rows at 1 or 2 bytes a value): the driver's shorter tiles.
  for (const Qs8GemmConfig* cfg : supported_variants()) {
    check_qs8_gemm(*cfg, {27, 35, 9000}, nullptr);
    check_qs8_gemm(*cfg, {40, 35, 20000}, nullptr);
    check_qs8_gemm(*cfg, {5, 20, kQs8GemmMaxK}, nullptr);
  }
}

TEST(Qs8Gemm, ThreadsSplitRowsAndColumns) {
  WorkerPool pool(2);
  for (const Qs8GemmConfig* cfg : supported_variants()) {
    // Many row tiles (split over M), few row tiles and wide N (split over N).
    for (const GemmCase& c : {GemmCase{203, 96, 160}, GemmCase{3, 700, 400},
                              GemmCase{128, 768, 129}}) {
      check_qs8_gemm(*cfg, c, &pool);
      check_qd8_gemm(*cfg, c, &pool);
    }
  }
}

TEST(Qs8Gemm, KTooLongIsRefused) {
  for (const Qs8GemmConfig* cfg : supported_variants()) {
    EXPECT_TRUE(qs8_gemm_supports(*cfg, 1, kQs8GemmMaxK));
    EXPECT_FALSE(qs8_gemm_supports(*cfg, 1, kQs8GemmMaxK + 1));
    EXPECT_FALSE(qs8_gemm_supports(*cfg, 9, kQs8GemmMaxK / 8));
    Qs8GemmProblem p;
    p.m = 1;
    p.n = 1;
    p.k = kQs8GemmMaxK + 1;
    EXPECT_FALSE(qs8_gemm(*cfg, p, nullptr));
  }
}

TEST(Qd8F32Gemm, EveryVariantMatchesReference) {
  for (const Qs8GemmConfig* cfg : supported_variants()) {
    for (const GemmCase& c : edge_cases()) check_qd8_gemm(*cfg, c, nullptr);
    GemmCase extreme{11, 19, 301};
    extreme.w_lo = -128;
    extreme.bias = false;
    extreme.c_min = -127;  // with the float clamp
    check_qd8_gemm(*cfg, extreme, nullptr);
  }
}

// --- the indirect GEMM ---

struct ConvCase {
  int batch, h, w, ci, co, kh, kw;
  int stride = 1, pad = 0, dil = 1;
  bool workspace = false;
};

int out_extent(int in, int pad, int dil, int k, int stride) {
  return (in + 2 * pad - dil * (k - 1) - 1) / stride + 1;
}

void check_igemm(const Qs8GemmConfig& cfg, const ConvCase& c, ThreadPool* pool) {
  char what[160];
  std::snprintf(what, sizeof(what), "%s: n %d in %dx%dx%d co %d k %dx%d stride %d pad %d dil %d",
                cfg.name, c.batch, c.h, c.w, c.ci, c.co, c.kh, c.kw, c.stride, c.pad, c.dil);
  SCOPED_TRACE(what);
  const int oh = out_extent(c.h, c.pad, c.dil, c.kh, c.stride);
  const int ow = out_extent(c.w, c.pad, c.dil, c.kw, c.stride);
  ASSERT_GT(oh, 0);
  ASSERT_GT(ow, 0);
  const int a_zero = -7;
  const uint32_t seed = static_cast<uint32_t>(c.ci * 31 + c.co * 7 + c.kh);
  // NHWC input with a pixel stride wider than ci (a channel slice).
  const size_t pixel_stride = static_cast<size_t>(c.ci) + 5;
  const std::vector<int8_t> x =
      random_int8(static_cast<size_t>(c.batch) * c.h * c.w * pixel_stride, seed);
  // PyTorch's weight layout [co, ci, kh, kw].
  const size_t taps = static_cast<size_t>(c.kh) * c.kw;
  const std::vector<int8_t> w = random_int8(static_cast<size_t>(c.co) * c.ci * taps, seed + 1);
  const std::vector<int32_t> bias = random_int32(c.co, seed + 2, -3000, 3000);
  const std::vector<float> scale = spread_scales(c.co, c.ci * static_cast<int>(taps), seed + 3);
  const std::vector<int8_t> zero(static_cast<size_t>(c.ci), static_cast<int8_t>(a_zero));

  Qs8Weights weights;
  weights.data = w.data();
  weights.ks = taps;
  weights.kc = c.ci;
  weights.n = c.co;
  weights.tap_stride = 1;
  weights.k_stride = static_cast<ptrdiff_t>(taps);
  weights.n_stride = static_cast<ptrdiff_t>(c.ci * taps);
  Packed packed;
  void* pw = packed.data(qs8_gemm_packed_size(cfg, taps, c.ci, c.co));
  qs8_gemm_pack_weights(cfg, weights, bias.data(), a_zero, scale.data(), pw);

  Qs8ConvShape shape{static_cast<size_t>(c.batch), static_cast<size_t>(c.h),
                     static_cast<size_t>(c.w), pixel_stride, static_cast<size_t>(oh),
                     static_cast<size_t>(ow), static_cast<size_t>(c.kh),
                     static_cast<size_t>(c.kw), static_cast<size_t>(c.stride),
                     static_cast<size_t>(c.stride), static_cast<size_t>(c.pad),
                     static_cast<size_t>(c.pad), static_cast<size_t>(c.dil),
                     static_cast<size_t>(c.dil)};
  std::vector<const int8_t*> indirection(qs8_igemm_indirection_size(shape));
  qs8_igemm_conv_indirection(shape, zero.data(), indirection.data());

  const size_t m = static_cast<size_t>(c.batch) * oh * ow;
  std::vector<int8_t> out(m * c.co);
  Qs8IgemmProblem p;
  p.m = m;
  p.n = c.co;
  p.kc = c.ci;
  p.ks = taps;
  p.indirection = indirection.data();
  p.a_offset = reinterpret_cast<uintptr_t>(x.data());
  p.zero = zero.data();
  p.packed_w = pw;
  p.c = out.data();
  p.ldc = c.co;
  p.requant = {11, -100, 120};
  Workspace ws;
  ws.make(c.workspace, qs8_gemm_a_workspace_bytes(cfg, m, c.co, taps, c.ci, false));
  p.a_workspace = ws.data;
  p.a_workspace_bytes = ws.bytes;
  KernelContext ctx(nullptr, pool);
  ASSERT_TRUE(qs8_igemm(cfg, p, &ctx));

  int reported = 0;
  for (int b = 0; b < c.batch; ++b) {
    for (int oy = 0; oy < oh; ++oy) {
      for (int ox = 0; ox < ow; ++ox) {
        const size_t row = (static_cast<size_t>(b) * oh + oy) * ow + ox;
        for (int o = 0; o < c.co; ++o) {
          int64_t acc = bias[o];
          for (int ky = 0; ky < c.kh; ++ky) {
            const int iy = oy * c.stride + ky * c.dil - c.pad;
            if (iy < 0 || iy >= c.h) continue;  // padding: a_zero - a_zero
            for (int kx = 0; kx < c.kw; ++kx) {
              const int ix = ox * c.stride + kx * c.dil - c.pad;
              if (ix < 0 || ix >= c.w) continue;
              const int8_t* px = x.data() + ((static_cast<size_t>(b) * c.h + iy) * c.w + ix) *
                                                pixel_stride;
              for (int q = 0; q < c.ci; ++q) {
                acc += (static_cast<int64_t>(px[q]) - a_zero) *
                       w[(static_cast<size_t>(o) * c.ci + q) * taps + ky * c.kw + kx];
              }
            }
          }
          const int got = out[row * c.co + o];
          const int want = requant_float(acc, scale[o], 11, -100, 120);
          if (got != want && reported++ < 5) {
            ADD_FAILURE() << "pixel " << row << " channel " << o << ": " << got << ", want "
                          << want << " (acc " << acc << ")";
          }
        }
      }
    }
  }
}

TEST(Qs8Igemm, EveryVariantMatchesReferenceConvolutions) {
  const ConvCase cases[] = {
      {1, 5, 5, 3, 8, 3, 3, 1, 1},       // 3 input channels (an image): kc % 4 != 0
      {2, 7, 6, 16, 17, 3, 3, 2, 1},     // batches, stride 2, odd N
      {1, 9, 9, 5, 33, 3, 3, 1, 2, 2},   // dilation
      {1, 6, 8, 8, 16, 5, 5, 1, 2},      // 5x5
      {1, 4, 4, 33, 7, 1, 1},            // pointwise
      {1, 3, 11, 2, 3, 1, 7, 1, 0, 1},   // a 1x7 window, tiny channels
      {1, 14, 14, 64, 64, 3, 3, 1, 1},   // many row tiles and panels
  };
  for (const Qs8GemmConfig* cfg : supported_variants()) {
    for (const ConvCase& c : cases) check_igemm(*cfg, c, nullptr);
  }
}

TEST(Qs8Igemm, ThreadsSplitTheWork) {
  WorkerPool pool(2);
  for (const Qs8GemmConfig* cfg : supported_variants()) {
    check_igemm(*cfg, {1, 16, 16, 32, 48, 3, 3, 1, 1}, &pool);
    check_igemm(*cfg, {1, 3, 3, 64, 200, 3, 3, 1, 1}, &pool);
  }
}

// Weights wider than one N block (256 KiB of panels): every row tile of A
// gathered once into the caller's workspace, serial and on two threads.
TEST(Qs8Gemm, AGatheredOnceIntoAWorkspace) {
  WorkerPool pool(2);
  for (const Qs8GemmConfig* cfg : supported_variants()) {
    // Small M (the reference's loops run under qemu too), K up to 3072.
    for (const GemmCase& base : {GemmCase{20, 2048, 512}, GemmCase{13, 700, 1021},
                                 GemmCase{16, 300, 3072}, GemmCase{5, 4000, 67}}) {
      GemmCase c = base;
      c.workspace = true;
      for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), static_cast<ThreadPool*>(&pool)}) {
        check_qs8_gemm(*cfg, c, p);
        check_qd8_gemm(*cfg, c, p);
      }
    }
    ConvCase conv{1, 4, 4, 256, 512, 3, 3, 1, 1};  // K = 2304 over 16 panels
    conv.workspace = true;
    check_igemm(*cfg, conv, nullptr);
    check_igemm(*cfg, conv, &pool);
  }
}

TEST(Qs8Gemm, ChosenVariantIsSupported) {
  EXPECT_TRUE(qs8_gemm_variant_supported(qs8_gemm_config()));
  // Every variant the CPU supports, and at least the scalar one, is tested.
  std::string names;
  for (const Qs8GemmConfig* cfg : supported_variants()) names += std::string(" ") + cfg->name;
  EXPECT_FALSE(names.empty());
  std::printf("qs8-gemm variants tested:%s\n", names.c_str());
}

}  // namespace
}  // namespace ember::kernels::optimized
