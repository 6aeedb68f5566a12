// Tester for the f32 GEMM family: every variant this CPU supports (not only
// the selected one) against the portable kernel, on edge sizes, addmm
// epilogues, broadcast shapes, threads and temp memory; then the registered
// aten ops, which must match portable for every dtype.
//
// Tolerance (f32): |ours - portable| <= (2K + 4) * 2^-24 * (|alpha| * sum_k |a_ik b_kj| +
// |beta * self_ij|). Each side's dot product is within K * 2^-24 * sum |a b| of
// the exact one whatever order it adds in (the standard bound), and the
// epilogue rounds at most twice more.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "extension/threadpool/worker_pool.h"
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/portable/matmul_ops.h"
#include "runtime/executor/memory_allocator.h"
#include "tests/cpp/tensor_factory.h"

namespace ember::kernels::optimized {
namespace {

using ::ember::testing::KernelCall;
using ::ember::testing::OwnedTensor;

// How self is shaped relative to the [batch,] m x n result.
enum class SelfKind {
  Full,        // [batch,] m, n
  Row,         // [n]: a bias
  RowKeepdim,  // [1, n]
  Column,      // [m, 1]
  Scalar,      // []
  One,         // [1]
  Transposed,  // [m, n] stored column-major (dim order 1, 0)
  BatchRow,    // [batch, 1, n] (batched problems only)
};

const char* self_kind_name(SelfKind k) {
  switch (k) {
    case SelfKind::Full: return "full";
    case SelfKind::Row: return "row";
    case SelfKind::RowKeepdim: return "row1";
    case SelfKind::Column: return "column";
    case SelfKind::Scalar: return "scalar";
    case SelfKind::One: return "one";
    case SelfKind::Transposed: return "transposed";
    case SelfKind::BatchRow: return "batch-row";
  }
  return "?";
}

struct Case {
  int32_t batch;  // 0: a 2-D problem (addmm), else baddbmm
  int32_t m, n, k;
  float alpha = 1.0f;
  float beta = 0.0f;
  SelfKind self = SelfKind::Full;
  bool nan_self = false;  // fill self with NaN (with beta == 0 it must not show)
};

std::string describe(const Case& c) {
  char buf[160];
  std::snprintf(buf, sizeof(buf), "batch %d m %d n %d k %d alpha %g beta %g self %s%s", c.batch,
                c.m, c.n, c.k, c.alpha, c.beta, self_kind_name(c.self),
                c.nan_self ? " (NaN)" : "");
  return buf;
}

void fill_random(OwnedTensor& t, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.tensor().numel(); ++i) p[i] = dist(gen);
}

OwnedTensor make_self(const Case& c) {
  const int32_t b = c.batch;
  std::vector<int32_t> sizes;
  std::vector<uint8_t> order;
  switch (c.self) {
    case SelfKind::Full:
      sizes = b > 0 ? std::vector<int32_t>{b, c.m, c.n} : std::vector<int32_t>{c.m, c.n};
      break;
    case SelfKind::Row: sizes = {c.n}; break;
    case SelfKind::RowKeepdim: sizes = {1, c.n}; break;
    case SelfKind::Column: sizes = {c.m, 1}; break;
    case SelfKind::Scalar: sizes = {}; break;
    case SelfKind::One: sizes = {1}; break;
    case SelfKind::Transposed:
      sizes = {c.m, c.n};
      order = {1, 0};
      break;
    case SelfKind::BatchRow: sizes = {b, 1, c.n}; break;
  }
  OwnedTensor t(ScalarType::Float, sizes, TensorShapeDynamism::Static, order);
  if (c.nan_self) {
    float* p = t.data<float>();
    for (int64_t i = 0; i < t.tensor().numel(); ++i) p[i] = std::numeric_limits<float>::quiet_NaN();
  } else {
    fill_random(t, 7u + static_cast<uint32_t>(c.m * 31 + c.n));
  }
  return t;
}

// self's strides broadcast to [batch, m, n] (0 where it repeats).
void broadcast_strides(const Tensor& self, int rank, const int64_t* sizes, ptrdiff_t* strides) {
  const int lead = 3 - self.dim();
  for (int d = 0; d < 3; ++d) {
    const int sd = d - lead;
    strides[d] = (d < 3 - rank || sd < 0 || self.size(sd) == 1 || sizes[d] == 1)
                     ? 0
                     : static_cast<ptrdiff_t>(self.stride(sd));
  }
}

// Checks `got` against the portable result `want` with the K-scaled bound.
void expect_close(const Case& c, const float* got, const float* want, const float* a,
                  const float* b, const Tensor& self) {
  const int32_t nb = c.batch > 0 ? c.batch : 1;
  const int64_t sizes[3] = {nb, c.m, c.n};
  ptrdiff_t ss[3];
  broadcast_strides(self, c.batch > 0 ? 3 : 2, sizes, ss);
  const float* sp = self.const_data_ptr<float>();
  const double unit = std::ldexp(1.0, -24);
  int reported = 0;
  for (int32_t bi = 0; bi < nb; ++bi) {
    for (int32_t i = 0; i < c.m; ++i) {
      for (int32_t j = 0; j < c.n; ++j) {
        double mag = 0;
        for (int32_t p = 0; p < c.k; ++p) {
          mag += std::fabs(static_cast<double>(a[(static_cast<int64_t>(bi) * c.m + i) * c.k + p]) *
                           b[(static_cast<int64_t>(bi) * c.k + p) * c.n + j]);
        }
        mag *= std::fabs(c.alpha);
        if (c.beta != 0.0f) mag += std::fabs(c.beta * sp[bi * ss[0] + i * ss[1] + j * ss[2]]);
        const double tol = (2.0 * c.k + 4.0) * unit * mag;
        const int64_t idx = (static_cast<int64_t>(bi) * c.m + i) * c.n + j;
        const double g = got[idx];
        const double w = want[idx];
        const bool ok = (std::isnan(g) && std::isnan(w)) || std::fabs(g - w) <= tol;
        if (!ok && reported++ < 5) {
          ADD_FAILURE() << describe(c) << ": [" << bi << "," << i << "," << j << "] got " << g
                        << " portable " << w << " tolerance " << tol;
        }
      }
    }
  }
}

Scalar scalar_of(const EValue& v) { return Scalar{&v}; }

// Runs `c` through `config`'s driver directly and through portable, and
// compares. ctx gives threads and temp memory (or neither). `packed`: B
// packed once by f32_gemm_pack_weights (one B for every batch); the result
// clamped to [low, high] in the epilogue (and the reference after it).
void check_variant(const F32GemmConfig& config, const Case& c, KernelContext* ctx,
                   bool packed = false, float low = -std::numeric_limits<float>::infinity(),
                   float high = std::numeric_limits<float>::infinity()) {
  SCOPED_TRACE(std::string(config.name) + ": " + describe(c) + (packed ? " packed" : "") +
               " clamp [" + std::to_string(low) + ", " + std::to_string(high) + "]");
  const bool batched = c.batch > 0;
  const int32_t nb = batched ? c.batch : 1;
  const std::vector<int32_t> as = batched ? std::vector<int32_t>{c.batch, c.m, c.k}
                                          : std::vector<int32_t>{c.m, c.k};
  const std::vector<int32_t> bs = batched ? std::vector<int32_t>{c.batch, c.k, c.n}
                                          : std::vector<int32_t>{c.k, c.n};
  const std::vector<int32_t> os = batched ? std::vector<int32_t>{c.batch, c.m, c.n}
                                          : std::vector<int32_t>{c.m, c.n};
  OwnedTensor a(ScalarType::Float, as), b(ScalarType::Float, bs);
  OwnedTensor want(ScalarType::Float, os), got(ScalarType::Float, os);
  fill_random(a, 1u + static_cast<uint32_t>(c.m * 7 + c.k));
  fill_random(b, 2u + static_cast<uint32_t>(c.n * 5 + c.k));
  OwnedTensor self = make_self(c);
  // Garbage in the output must not leak into the result.
  for (int64_t i = 0; i < got.tensor().numel(); ++i) got.data<float>()[i] = 1e30f;

  KernelContext ref_ctx;
  const EValue alpha(static_cast<double>(c.alpha)), beta(static_cast<double>(c.beta));
  if (batched) {
    portable::baddbmm_out(ref_ctx, self.tensor(), a.tensor(), b.tensor(), scalar_of(beta),
                          scalar_of(alpha), want.tensor());
  } else {
    portable::addmm_out(ref_ctx, self.tensor(), a.tensor(), b.tensor(), scalar_of(beta),
                        scalar_of(alpha), want.tensor());
  }
  ASSERT_FALSE(ref_ctx.failed()) << ref_ctx.message();
  for (int64_t i = 0; i < want.tensor().numel(); ++i) {
    float& v = want.data<float>()[i];
    v = v < low ? low : (v > high ? high : v);
  }

  F32GemmProblem p;
  p.batch = static_cast<size_t>(nb);
  p.m = static_cast<size_t>(c.m);
  p.n = static_cast<size_t>(c.n);
  p.k = static_cast<size_t>(c.k);
  p.a = a.data<float>();
  p.lda = p.k;
  p.a_batch_stride = p.m * p.k;
  p.b = b.data<float>();
  p.ldb = p.n;
  p.b_batch_stride = p.k * p.n;
  p.c = got.data<float>();
  p.ldc = p.n;
  p.c_batch_stride = p.m * p.n;
  p.alpha = c.alpha;
  p.beta = c.beta;
  const int64_t sizes[3] = {nb, c.m, c.n};
  ptrdiff_t ss[3];
  broadcast_strides(self.tensor(), batched ? 3 : 2, sizes, ss);
  p.self = self.data<float>();
  p.self_batch_stride = ss[0];
  p.self_row_stride = ss[1];
  p.self_col_stride = ss[2];
  p.clamp_min = low;
  p.clamp_max = high;
  std::vector<float> packed_b;
  if (packed) {
    // One B shared by the batches: copy batch 0's into the others.
    for (int32_t bi = 1; bi < nb; ++bi) {
      std::memcpy(b.data<float>() + bi * p.k * p.n, b.data<float>(), p.k * p.n * sizeof(float));
    }
    packed_b.assign(f32_gemm_packed_weights_size(config, p.k, p.n) + 1, 1e30f);
    f32_gemm_pack_weights(config, p.k, p.n, b.data<float>(), p.n, packed_b.data());
    // Past the packed size: untouched.
    EXPECT_EQ(packed_b.back(), 1e30f);
    p.packed_b = packed_b.data();
    p.b = nullptr;
    if (batched) {
      // The reference, again with the shared B.
      KernelContext again;
      portable::baddbmm_out(again, self.tensor(), a.tensor(), b.tensor(), scalar_of(beta),
                            scalar_of(alpha), want.tensor());
      for (int64_t i = 0; i < want.tensor().numel(); ++i) {
        float& v = want.data<float>()[i];
        v = v < low ? low : (v > high ? high : v);
      }
    }
  }
  f32_gemm(config, p, ctx);
  if (ctx != nullptr) ASSERT_FALSE(ctx->failed()) << ctx->message();

  expect_close(c, got.data<float>(), want.data<float>(), a.data<float>(), b.data<float>(),
               self.tensor());
}

// The contexts every variant runs under: serial; a 2-thread pool; the pool
// plus temp memory (B packed once for all threads).
class Contexts {
 public:
  Contexts() : pool_(2), temp_memory_(16 << 20), temp_(temp_memory_.data(), temp_memory_.size()) {}
  template <typename F>
  void for_each(F&& f) {
    f(static_cast<KernelContext*>(nullptr));
    KernelContext pooled(nullptr, &pool_);
    f(&pooled);
    temp_.reset();
    KernelContext with_temp(&temp_, &pool_);
    f(&with_temp);
  }

 private:
  WorkerPool pool_;
  std::vector<uint8_t> temp_memory_;
  MemoryAllocator temp_;
};

Contexts& contexts() {
  static Contexts c;
  return c;
}

// The variants to test: all compiled in that this CPU can run.
std::vector<const F32GemmConfig*> supported_variants() {
  std::vector<const F32GemmConfig*> out;
  for (size_t i = 0; i < f32_gemm_num_variants(); ++i) {
    const F32GemmConfig& v = f32_gemm_variant(i);
    if (f32_gemm_variant_supported(v)) out.push_back(&v);
  }
  return out;
}

TEST(CpuFeatures, DetectionAndSelection) {
  char buf[128];
  const CpuFeatures hw = detect_cpu_features();
  std::printf("cpu features: %s\n", format_cpu_features(hw, buf, sizeof(buf)));
  std::printf("f32 gemm variant: %s; supported:", f32_gemm_config().name);
  for (const F32GemmConfig* v : supported_variants()) std::printf(" %s", v->name);
  std::printf("\n");
  // The selected variant is one the CPU runs, and the scalar one always is.
  EXPECT_TRUE(f32_gemm_variant_supported(f32_gemm_config()));
  EXPECT_EQ(std::string(f32_gemm_variant(f32_gemm_num_variants() - 1).name), "scalar");
#if defined(__x86_64__)
  if (hw.has(kCpuAvx2)) EXPECT_TRUE(hw.has(kCpuOsYmm)) << "AVX2 CPU whose OS keeps no YMM state";
  // Every AVX-512 CPU has AVX2 and FMA, so the AVX2 variants run on it too.
  if (hw.has(kCpuAvx512)) EXPECT_TRUE(hw.has(kCpuAvx2 | kCpuFma));
#endif
#if defined(__aarch64__)
  EXPECT_TRUE(hw.has(kCpuNeon));
#endif
}

TEST(CpuFeatures, EnvironmentOnlyRemovesFeatures) {
  CpuFeatures all;
  all.bits = kCpuAvx2 | kCpuFma | kCpuF16c | kCpuOsYmm;
  EXPECT_EQ(restrict_cpu_features(all, "scalar", nullptr).bits, 0u);
  EXPECT_EQ(restrict_cpu_features(all, "avx2", nullptr).bits, all.bits);
  EXPECT_EQ(restrict_cpu_features(all, nullptr, "0x3").bits, kCpuAvx2 | kCpuFma);
  EXPECT_EQ(restrict_cpu_features(all, "", "").bits, all.bits);
  // Unknown values are ignored (with a message), never widen.
  EXPECT_EQ(restrict_cpu_features(all, "avx9", "zz").bits, all.bits);
  CpuFeatures zmm;
  zmm.bits = all.bits | kCpuAvx512 | kCpuOsZmm | kCpuAvx512Vnni | kCpuAvxVnni;
  EXPECT_EQ(restrict_cpu_features(zmm, "avx512", nullptr).bits, zmm.bits);
  EXPECT_EQ(restrict_cpu_features(zmm, "avx2", nullptr).bits, all.bits | kCpuAvxVnni);
  CpuFeatures arm;
  arm.bits = kCpuNeon | kCpuDotprod | kCpuI8mm;
  EXPECT_EQ(restrict_cpu_features(arm, "neon", nullptr).bits, kCpuNeon);
  EXPECT_EQ(restrict_cpu_features(arm, nullptr, "0xffffffff").bits, arm.bits);
}

TEST(F32Gemm, PackingZeroPadsThePanelTail) {
  // 3 x 5 block of a 3 x 7 matrix into nr = 4 panels: columns 4 and 5..7 padding.
  float b[21];
  for (int i = 0; i < 21; ++i) b[i] = static_cast<float>(i + 1);
  float packed[2 * 12];
  std::memset(packed, 0xff, sizeof(packed));
  f32_gemm_pack_b(3, 5, 4, b, 7, packed, 12);
  const float want[24] = {1, 2, 3, 4, 8, 9, 10, 11, 15, 16, 17, 18,
                          5, 0, 0, 0, 12, 0, 0, 0, 19, 0, 0, 0};
  for (int i = 0; i < 24; ++i) EXPECT_EQ(packed[i], want[i]) << i;
}

// Every M, K in 1..17 and N in 1..25: all row and column tails (AVX-512's
// 17 to 24 columns take a tile of their own), unpacked (M <= mr) and packed
// paths, for a plain product.
TEST(F32Gemm, AllSmallSizesMatchPortable) {
  for (const F32GemmConfig* v : supported_variants()) {
    for (int32_t m = 1; m <= 17; ++m) {
      for (int32_t n = 1; n <= 25; ++n) {
        for (int32_t k = 1; k <= 17; ++k) {
          check_variant(*v, Case{0, m, n, k}, nullptr);
        }
      }
    }
  }
}

TEST(F32Gemm, AddmmEpilogues) {
  const int32_t dims[] = {1, 2, 5, 6, 7, 8, 9, 13, 16, 17, 24};
  const float coefs[][2] = {{1.0f, 1.0f}, {0.5f, 2.0f}, {-1.5f, 0.0f}, {0.0f, 1.0f},
                            {1.0f, -0.25f}};
  const SelfKind kinds[] = {SelfKind::Full,   SelfKind::Row,    SelfKind::RowKeepdim,
                            SelfKind::Column, SelfKind::Scalar, SelfKind::One,
                            SelfKind::Transposed};
  for (const F32GemmConfig* v : supported_variants()) {
    for (int32_t m : dims) {
      for (int32_t n : dims) {
        for (int32_t k : {1, 3, 17}) {
          for (const auto& ab : coefs) {
            for (SelfKind s : kinds) {
              check_variant(*v, Case{0, m, n, k, ab[0], ab[1], s}, nullptr);
            }
          }
        }
      }
    }
  }
}

TEST(F32Gemm, BetaZeroIgnoresNanInSelf) {
  for (const F32GemmConfig* v : supported_variants()) {
    for (const Case& c : {Case{0, 7, 19, 5, 1.0f, 0.0f, SelfKind::Full, true},
                          Case{0, 13, 33, 300, 2.0f, 0.0f, SelfKind::Row, true},
                          Case{0, 1, 40, 9, 1.0f, 0.0f, SelfKind::Full, true},
                          Case{2, 9, 17, 20, -1.0f, 0.0f, SelfKind::Full, true}}) {
      contexts().for_each([&](KernelContext* ctx) { check_variant(*v, c, ctx); });
    }
    // And with beta != 0 the NaNs do show, as in portable.
    check_variant(*v, Case{0, 7, 19, 5, 1.0f, 1.0f, SelfKind::Full, true}, nullptr);
  }
}

// Several K blocks (kc = 256), several N blocks (nc), odd sizes, the sizes of
// models, each serial, with 2 threads, and with 2 threads and temp memory.
TEST(F32Gemm, LargerAndOddSizes) {
  const Case cases[] = {
      {0, 1, 1000, 3},
      {0, 1, 3, 1000},
      {0, 1000, 1, 3},
      {0, 97, 129, 65},
      {0, 65, 97, 129},
      {0, 256, 256, 256, 1.0f, 1.0f, SelfKind::Row},
      {0, 49, 300, 600, 0.5f, 2.0f, SelfKind::Full},
      {0, 7, 531, 1000, 1.0f, 1.0f, SelfKind::Column},
      {0, 300, 20, 600, -1.0f, 0.5f, SelfKind::Transposed},
      {0, 1, 300, 513, 1.0f, 1.0f, SelfKind::Row},
      {0, 5, 1030, 70},
      {0, 130, 7, 2},
      // Streamed B (m <= 8) over several column blocks and row passes.
      {0, 3, 2100, 30, 0.5f, 1.0f, SelfKind::Transposed},
      {0, 8, 1500, 41, 1.0f, 2.0f, SelfKind::Full},
      {0, 7, 4099, 5, 1.0f, 1.0f, SelfKind::Column},
  };
  for (const F32GemmConfig* v : supported_variants()) {
    for (const Case& c : cases) {
      contexts().for_each([&](KernelContext* ctx) { check_variant(*v, c, ctx); });
    }
  }
}

TEST(F32Gemm, Batched) {
  const Case cases[] = {
      {3, 13, 37, 300, 1.0f, 1.0f, SelfKind::Full},
      {3, 13, 37, 30, 0.5f, -1.0f, SelfKind::BatchRow},
      {4, 6, 16, 16, 1.0f, 1.0f, SelfKind::Row},
      {5, 64, 64, 64, 1.0f, 0.0f, SelfKind::Full},
      {2, 1, 130, 40, 2.0f, 1.0f, SelfKind::Column},
  };
  for (const F32GemmConfig* v : supported_variants()) {
    for (const Case& c : cases) {
      contexts().for_each([&](KernelContext* ctx) { check_variant(*v, c, ctx); });
    }
  }
}

TEST(F32Gemm, EmptyInnerDimension) {
  for (const F32GemmConfig* v : supported_variants()) {
    check_variant(*v, Case{0, 3, 5, 0}, nullptr);
    check_variant(*v, Case{0, 3, 5, 0, 2.0f, 0.5f, SelfKind::Row}, nullptr);
    check_variant(*v, Case{2, 3, 5, 0, 1.0f, 0.0f, SelfKind::Full, true}, nullptr);
  }
}

// B packed once (f32_gemm_pack_weights) and a fused clamp: every path of the
// driver (small m, K blocks, N blocks, threads) reads the packed panels.
TEST(F32Gemm, PackedWeightsAndClamp) {
  const Case cases[] = {
      {0, 1, 1000, 300, 1.0f, 1.0f, SelfKind::Row},
      {0, 3, 17, 5},
      {0, 8, 33, 70, 1.0f, 1.0f, SelfKind::Row},
      {0, 9, 16, 16},
      {0, 97, 129, 65, 1.0f, 1.0f, SelfKind::Row},
      {0, 300, 20, 600, -1.0f, 0.5f, SelfKind::Full},
      {0, 49, 300, 600, 0.5f, 2.0f, SelfKind::Row},
      {0, 1000, 24, 16, 1.0f, 1.0f, SelfKind::Row},
      {3, 13, 37, 300, 1.0f, 1.0f, SelfKind::Full},
      // Packed B is K-blocked only past 1024 (AVX2): K blocks of 550 with
      // 3 panels each, whose A slice is read in place (too big to copy).
      {0, 50, 70, 1100, 1.0f, 1.0f, SelfKind::Row},
      {0, 7, 100, 2100},
      // Threads split the rows over all of B (even or many row tiles, B up
      // to 1 MiB): a pointwise conv's shape, and one of two K blocks.
      {0, 196, 576, 96, 1.0f, 1.0f, SelfKind::Row},
      {0, 200, 130, 1100, 1.0f, 1.0f, SelfKind::Row},
  };
  const float clamps[][2] = {{-std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::infinity()},
                             {0.0f, std::numeric_limits<float>::infinity()},
                             {0.0f, 0.5f},
                             {-0.25f, 0.25f}};
  for (const F32GemmConfig* v : supported_variants()) {
    for (const Case& c : cases) {
      for (const auto& clamp : clamps) {
        contexts().for_each(
            [&](KernelContext* ctx) { check_variant(*v, c, ctx, true, clamp[0], clamp[1]); });
      }
    }
    // The clamp alone, on the packing path, and all small sizes packed.
    check_variant(*v, Case{0, 40, 50, 30}, nullptr, false, 0.0f, 0.5f);
    for (int32_t m = 1; m <= 13; m += 3) {
      for (int32_t n = 1; n <= 17; ++n) {
        for (int32_t k = 1; k <= 17; k += 4) {
          check_variant(*v, Case{0, m, n, k}, nullptr, true, 0.0f, 0.5f);
        }
      }
    }
  }
}

TEST(F32Gemm, ClampLetsNanThrough) {
  for (const F32GemmConfig* v : supported_variants()) {
    // NaN in A reaches whole rows of C; the clamp keeps it NaN.
    const size_t m = 7, n = 19, k = 5;
    std::vector<float> a(m * k, 0.5f), b(k * n, 1.0f), c(m * n, 0.0f);
    a[3 * k + 1] = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> packed(f32_gemm_packed_weights_size(*v, k, n));
    f32_gemm_pack_weights(*v, k, n, b.data(), n, packed.data());
    F32GemmProblem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.a = a.data();
    p.lda = k;
    p.packed_b = packed.data();
    p.c = c.data();
    p.ldc = n;
    p.clamp_min = 0.0f;
    p.clamp_max = 1.0f;
    f32_gemm(*v, p, nullptr);
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < n; ++j) {
        if (i == 3) {
          EXPECT_TRUE(std::isnan(c[i * n + j])) << v->name << " " << i << "," << j;
        } else {
          EXPECT_EQ(c[i * n + j], 1.0f) << v->name << " " << i << "," << j;
        }
      }
    }
  }
}

// --- the indirect GEMM, as a convolution against portable's ---

struct ConvCase {
  int32_t batch, in_c, h, w, out_c, kh, kw;
  int32_t stride = 1, pad = 0, dil = 1, groups = 1;
  bool bias = true;
  float low = -std::numeric_limits<float>::infinity();
  float high = std::numeric_limits<float>::infinity();
  bool transposed = false;  // conv_transpose: f32_igemm_deconv_indirection
  int32_t out_pad = 0;      // its output_padding
};

// Runs `c` as f32_igemm per group (weights packed [(ky, kx, ci), co], the
// indirection buffer of f32_igemm_conv_indirection) on channels-last data
// (or f32_igemm_deconv_indirection, transposed: weights [(ky, kx, ci), co]
// from PyTorch's [ci, co, ky, kx]) on channels-last data and compares with
// portable's aten::convolution. Tolerance: K + 2 roundings
// of |bias| + sum |x w| (|x| <= 1), K = kh * kw * in_c / groups.
void check_igemm(const F32GemmConfig& config, const ConvCase& c, KernelContext* ctx) {
  char buf[200];
  std::snprintf(buf, sizeof(buf),
                "%s: n %d in %d %dx%d out %d k %dx%d stride %d pad %d dil %d groups %d%s%s",
                config.name, c.batch, c.in_c, c.h, c.w, c.out_c, c.kh, c.kw, c.stride, c.pad,
                c.dil, c.groups, c.transposed ? " transposed" : "",
                ctx != nullptr ? " (ctx)" : "");
  SCOPED_TRACE(buf);
  auto extent = [&](int32_t in, int32_t k) {
    return c.transposed ? (in - 1) * c.stride - 2 * c.pad + c.dil * (k - 1) + c.out_pad + 1
                        : (in + 2 * c.pad - c.dil * (k - 1) - 1) / c.stride + 1;
  };
  const int32_t oh = extent(c.h, c.kh), ow = extent(c.w, c.kw);
  const int32_t cg = c.in_c / c.groups, og = c.out_c / c.groups;
  OwnedTensor x(ScalarType::Float, {c.batch, c.in_c, c.h, c.w});
  OwnedTensor wt(ScalarType::Float, c.transposed ? std::vector<int32_t>{c.in_c, og, c.kh, c.kw}
                                                 : std::vector<int32_t>{c.out_c, cg, c.kh, c.kw});
  OwnedTensor bias(ScalarType::Float, {c.out_c});
  OwnedTensor want(ScalarType::Float, {c.batch, c.out_c, oh, ow});
  fill_random(x, 11u + static_cast<uint32_t>(c.in_c));
  fill_random(wt, 12u + static_cast<uint32_t>(c.out_c));
  fill_random(bias, 13u);
  KernelCall call;
  call.tensor(x.tensor()).tensor(wt.tensor());
  if (c.bias) {
    call.tensor(bias.tensor());
  } else {
    call.none();
  }
  KernelContext ref = call.ints({c.stride, c.stride})
                          .ints({c.pad, c.pad})
                          .ints({c.dil, c.dil})
                          .boolean(c.transposed)
                          .ints({c.out_pad, c.out_pad})
                          .integer(c.groups)
                          .tensor(want.tensor())
                          .run("aten::convolution.out");
  ASSERT_FALSE(ref.failed()) << ref.message();

  const size_t hw = static_cast<size_t>(c.h) * c.w, ohw = static_cast<size_t>(oh) * ow;
  const size_t ic = static_cast<size_t>(c.in_c), oc = static_cast<size_t>(c.out_c);
  const size_t taps = static_cast<size_t>(c.kh * c.kw);
  std::vector<float> nhwc(static_cast<size_t>(c.batch) * hw * ic);
  for (size_t n = 0; n < static_cast<size_t>(c.batch); ++n) {
    for (size_t k = 0; k < ic; ++k) {
      for (size_t p = 0; p < hw; ++p) {
        nhwc[(n * hw + p) * ic + k] = x.data<float>()[(n * ic + k) * hw + p];
      }
    }
  }
  const size_t m = static_cast<size_t>(c.batch) * ohw;
  std::vector<float> got(m * oc, 1e30f);
  const F32ConvShape shape{static_cast<size_t>(c.batch), static_cast<size_t>(c.h),
                           static_cast<size_t>(c.w),     ic,
                           static_cast<size_t>(oh),      static_cast<size_t>(ow),
                           static_cast<size_t>(c.kh),    static_cast<size_t>(c.kw),
                           static_cast<size_t>(c.stride), static_cast<size_t>(c.stride),
                           static_cast<size_t>(c.pad),   static_cast<size_t>(c.pad),
                           static_cast<size_t>(c.dil),   static_cast<size_t>(c.dil)};
  std::vector<float> zero(ic, 0.0f);
  std::vector<const float*> indirection(f32_igemm_indirection_size(config, m, taps));
  if (c.transposed) {
    f32_igemm_deconv_indirection(config, shape, zero.data(), indirection.data());
  } else {
    f32_igemm_conv_indirection(config, shape, zero.data(), indirection.data());
  }
  const size_t k = taps * static_cast<size_t>(cg);
  // Weight of output channel co, its group's input channel ci, tap t.
  auto weight = [&](size_t co, size_t ci, size_t t) {
    const size_t g = co / static_cast<size_t>(og), j = co % static_cast<size_t>(og);
    return c.transposed
               ? wt.data<float>()[((g * cg + ci) * static_cast<size_t>(og) + j) * taps + t]
               : wt.data<float>()[(co * static_cast<size_t>(cg) + ci) * taps + t];
  };
  std::vector<float> b(k * static_cast<size_t>(og));
  std::vector<float> packed(f32_gemm_packed_weights_size(config, k, static_cast<size_t>(og)));
  for (int32_t g = 0; g < c.groups; ++g) {
    for (int32_t j = 0; j < og; ++j) {
      for (size_t ci = 0; ci < static_cast<size_t>(cg); ++ci) {
        for (size_t t = 0; t < taps; ++t) {
          b[(t * cg + ci) * og + j] = weight(static_cast<size_t>(g * og + j), ci, t);
        }
      }
    }
    f32_gemm_pack_weights(config, k, static_cast<size_t>(og), b.data(), static_cast<size_t>(og),
                          packed.data());
    F32IgemmProblem p;
    p.m = m;
    p.n = static_cast<size_t>(og);
    p.kc = static_cast<size_t>(cg);
    p.ks = taps;
    p.indirection = indirection.data();
    p.a_offset = reinterpret_cast<uintptr_t>(nhwc.data() + g * cg);
    p.zero = zero.data();
    p.packed_b = packed.data();
    p.bias = c.bias ? bias.data<float>() + g * og : nullptr;
    p.c = got.data() + g * og;
    p.ldc = oc;
    p.clamp_min = c.low;
    p.clamp_max = c.high;
    f32_igemm(config, p, ctx);
  }

  const double unit = std::ldexp(1.0, -24);
  int reported = 0;
  for (size_t n = 0; n < static_cast<size_t>(c.batch); ++n) {
    for (size_t co = 0; co < oc; ++co) {
      double mag = c.bias ? std::fabs(bias.data<float>()[co]) : 0.0;
      for (size_t ci = 0; ci < static_cast<size_t>(cg); ++ci) {
        for (size_t t = 0; t < taps; ++t) mag += std::fabs(weight(co, ci, t));
      }
      const double tol = (static_cast<double>(k) + 2.0) * unit * mag;
      for (size_t p = 0; p < ohw; ++p) {
        float w = want.data<float>()[(n * oc + co) * ohw + p];
        w = w < c.low ? c.low : (w > c.high ? c.high : w);
        const double g = got[(n * ohw + p) * oc + co];
        if (!(std::fabs(g - w) <= tol) && reported++ < 5) {
          ADD_FAILURE() << "image " << n << " channel " << co << " pixel " << p << ": got " << g
                        << " portable " << w << " tolerance " << tol;
        }
      }
    }
  }
}

TEST(F32Igemm, ConvolutionsMatchPortable) {
  const ConvCase cases[] = {
      // 3x3 same-padding, channels and outputs around the tile widths.
      {1, 5, 7, 6, 3, 3, 3, 1, 1},
      {1, 16, 9, 9, 16, 3, 3, 1, 1},
      {1, 17, 8, 11, 33, 3, 3, 1, 1},
      {2, 8, 6, 6, 9, 3, 3, 2, 1},
      // The stems: 7x7 stride 2 on 3 channels, 3x3 stride 2 on 3.
      {1, 3, 20, 18, 64, 7, 7, 2, 3},
      {1, 3, 15, 15, 32, 3, 3, 2, 1},
      // 1x1 stride 2 (ResNet's downsampling), unpadded 5x5, dilation.
      {1, 24, 10, 10, 40, 1, 1, 2, 0},
      {1, 6, 9, 9, 10, 5, 5, 1, 0},
      {1, 7, 11, 11, 12, 3, 3, 1, 2, 2},
      // Groups, no bias, several N blocks of a large K.
      {1, 24, 7, 7, 36, 3, 3, 1, 1, 1, 4},
      {2, 12, 5, 5, 12, 3, 3, 1, 1, 1, 3, false},
      {1, 160, 5, 5, 200, 3, 3, 1, 1},
  };
  WorkerPool pool(2);
  KernelContext pooled(nullptr, &pool);
  for (const F32GemmConfig* v : supported_variants()) {
    for (const ConvCase& c : cases) {
      check_igemm(*v, c, nullptr);
      check_igemm(*v, c, &pooled);
    }
    // Transposed: U-Net's 2x2 stride 2, 3x3 with padding and output_padding,
    // dilation, groups.
    ConvCase deconvs[] = {{1, 8, 5, 4, 6, 2, 2, 2},       {2, 5, 4, 6, 7, 3, 3, 2, 1},
                          {1, 6, 5, 5, 9, 3, 3, 1, 1},    {1, 4, 3, 7, 5, 4, 3, 3, 2, 2},
                          {1, 12, 4, 4, 8, 3, 3, 2, 1, 1, 4}, {1, 17, 6, 6, 33, 1, 1}};
    deconvs[1].out_pad = 1;
    deconvs[4].out_pad = 1;
    for (ConvCase& c : deconvs) {
      c.transposed = true;
      check_igemm(*v, c, nullptr);
      check_igemm(*v, c, &pooled);
    }
    ConvCase relu6{1, 10, 8, 8, 21, 3, 3, 1, 1};
    relu6.low = 0.0f;
    relu6.high = 0.6f;
    check_igemm(*v, relu6, nullptr);
    check_igemm(*v, relu6, &pooled);
  }
}

// --- through the registry ---

const char* const kMatmulOps[] = {"aten::mm.out", "aten::bmm.out", "aten::addmm.out",
                                  "aten::baddbmm.out"};

TEST(OptimizedMatmul, OutranksPortableWithTheSameDtypes) {
  for (const char* name : kMatmulOps) {
    const KernelEntry* e = find_kernel(name);
    ASSERT_NE(e, nullptr) << name;
    EXPECT_EQ(e->rank, KernelRank::Optimized) << name;
    EXPECT_EQ(e->self_dtypes, kRealTypes | kComplexTypes) << name;
  }
}

OwnedTensor random_tensor(ScalarType dt, std::vector<int32_t> sizes, uint32_t seed) {
  OwnedTensor t(dt, sizes);
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> small(-3, 3);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  ::ember::testing::Values v(static_cast<size_t>(t.tensor().numel()));
  for (double& x : v) x = is_floating_type(dt) ? real(gen) : small(gen);
  ::ember::testing::set_values(t, v);
  return t;
}

// Runs op on (self?, a, b[, beta, alpha]) through the registry in `ctx` and
// through the portable function, returning both outputs.
struct OpResult {
  KernelContext ctx;
  ::ember::testing::Values got;
  ::ember::testing::Values want;
  Error want_error = Error::Ok;
};

OpResult run_op(const char* name, OwnedTensor* self, OwnedTensor& a, OwnedTensor& b,
                double beta, double alpha, KernelContext ctx, const std::vector<int32_t>& out_sizes) {
  const ScalarType dt = a.tensor().scalar_type();
  OwnedTensor got(dt, out_sizes), want(dt, out_sizes);
  OpResult r{ctx, {}, {}};
  KernelCall call;
  if (self != nullptr) call.tensor(self->tensor());
  call.tensor(a.tensor()).tensor(b.tensor());
  if (self != nullptr) call.real(beta).real(alpha);
  call.tensor(got.tensor()).run_in(name, r.ctx);

  KernelContext ref;
  const EValue be(beta), al(alpha);
  const std::string op(name);
  if (op == "aten::mm.out") portable::mm_out(ref, a.tensor(), b.tensor(), want.tensor());
  if (op == "aten::bmm.out") portable::bmm_out(ref, a.tensor(), b.tensor(), want.tensor());
  if (op == "aten::addmm.out") {
    portable::addmm_out(ref, self->tensor(), a.tensor(), b.tensor(), Scalar{&be}, Scalar{&al},
                        want.tensor());
  }
  if (op == "aten::baddbmm.out") {
    portable::baddbmm_out(ref, self->tensor(), a.tensor(), b.tensor(), Scalar{&be}, Scalar{&al},
                          want.tensor());
  }
  r.want_error = ref.error();
  if (!r.ctx.failed()) r.got = ::ember::testing::values_of(got);
  if (!ref.failed()) r.want = ::ember::testing::values_of(want);
  return r;
}

TEST(OptimizedMatmul, FloatMatchesPortableWithAndWithoutPool) {
  WorkerPool pool(2);
  for (ThreadPool* tp : {static_cast<ThreadPool*>(nullptr), static_cast<ThreadPool*>(&pool)}) {
    SCOPED_TRACE(tp != nullptr ? "pool of 2" : "no pool");
    OwnedTensor a = random_tensor(ScalarType::Float, {97, 129}, 1);
    OwnedTensor b = random_tensor(ScalarType::Float, {129, 65}, 2);
    OwnedTensor bias = random_tensor(ScalarType::Float, {65}, 3);
    OwnedTensor a3 = random_tensor(ScalarType::Float, {3, 40, 300}, 4);
    OwnedTensor b3 = random_tensor(ScalarType::Float, {3, 300, 33}, 5);
    OwnedTensor s3 = random_tensor(ScalarType::Float, {3, 1, 33}, 6);
    // The bound of the tester above, with |a|, |b|, |self| <= 1.
    auto tol = [](int k) { return (2.0 * k + 4.0) * std::ldexp(1.0, -24) * (2.0 * k + 1.0); };
    struct Run {
      const char* name;
      OwnedTensor* self;
      OwnedTensor* a;
      OwnedTensor* b;
      std::vector<int32_t> out;
      int k;
    } runs[] = {
        {"aten::mm.out", nullptr, &a, &b, {97, 65}, 129},
        {"aten::addmm.out", &bias, &a, &b, {97, 65}, 129},
        {"aten::bmm.out", nullptr, &a3, &b3, {3, 40, 33}, 300},
        {"aten::baddbmm.out", &s3, &a3, &b3, {3, 40, 33}, 300},
    };
    for (Run& run : runs) {
      SCOPED_TRACE(run.name);
      OpResult r = run_op(run.name, run.self, *run.a, *run.b, 0.5, 2.0,
                          KernelContext(nullptr, tp), run.out);
      ASSERT_FALSE(r.ctx.failed()) << r.ctx.message();
      ASSERT_EQ(r.got.size(), r.want.size());
      for (size_t i = 0; i < r.got.size(); ++i) {
        ASSERT_NEAR(r.got[i], r.want[i], tol(run.k)) << i;
      }
    }
  }
}

TEST(OptimizedMatmul, OtherDtypesAreExactlyPortable) {
  WorkerPool pool(2);
  for (ScalarType dt : {ScalarType::Double, ScalarType::Half, ScalarType::BFloat16,
                        ScalarType::Int, ScalarType::Long, ScalarType::Short, ScalarType::Byte,
                        ScalarType::Char}) {
    SCOPED_TRACE(scalar_type_name(dt));
    OwnedTensor a = random_tensor(dt, {9, 17}, 1);
    OwnedTensor b = random_tensor(dt, {17, 7}, 2);
    OwnedTensor bias = random_tensor(dt, {7}, 3);
    OwnedTensor a3 = random_tensor(dt, {2, 5, 6}, 4);
    OwnedTensor b3 = random_tensor(dt, {2, 6, 3}, 5);
    for (OpResult r : {run_op("aten::mm.out", nullptr, a, b, 1, 1, KernelContext(nullptr, &pool),
                              {9, 7}),
                       run_op("aten::addmm.out", &bias, a, b, 2, 3, KernelContext(nullptr, &pool),
                              {9, 7}),
                       run_op("aten::bmm.out", nullptr, a3, b3, 1, 1, KernelContext(), {2, 5, 3}),
                       run_op("aten::baddbmm.out", &a3, a3, b3, 0, 1, KernelContext(),
                              {2, 5, 3})}) {
      // baddbmm's self [2, 5, 6] does not broadcast to [2, 5, 3]: both fail.
      EXPECT_EQ(r.ctx.error(), r.want_error) << r.ctx.message();
      EXPECT_EQ(r.got, r.want);
    }
  }
}

TEST(OptimizedMatmul, LayoutsAndErrorsFallBackToPortable) {
  // A column-major operand: portable refuses it, and so does the registry.
  OwnedTensor at(ScalarType::Float, {4, 3}, TensorShapeDynamism::Static, {1, 0});
  OwnedTensor b = random_tensor(ScalarType::Float, {3, 5}, 1);
  OpResult r = run_op("aten::mm.out", nullptr, at, b, 1, 1, KernelContext(), {4, 5});
  EXPECT_TRUE(r.ctx.failed());
  EXPECT_EQ(r.ctx.error(), r.want_error);
  // Shapes that do not multiply, and a self that does not broadcast.
  OwnedTensor a = random_tensor(ScalarType::Float, {4, 4}, 2);
  r = run_op("aten::mm.out", nullptr, a, b, 1, 1, KernelContext(), {4, 5});
  EXPECT_TRUE(r.ctx.failed());
  EXPECT_EQ(r.ctx.error(), r.want_error);
  OwnedTensor a43 = random_tensor(ScalarType::Float, {4, 3}, 3);
  OwnedTensor bad_self = random_tensor(ScalarType::Float, {3}, 4);
  r = run_op("aten::addmm.out", &bad_self, a43, b, 0, 1, KernelContext(), {4, 5});
  EXPECT_TRUE(r.ctx.failed());
  EXPECT_EQ(r.ctx.error(), r.want_error);
}

TEST(OptimizedMatmul, OutMayBeSelf) {
  // addmm(self, a, b, out=self): each element's self is read before it is
  // written, as portable does; the GEMM would overwrite self with partial
  // sums first, so the kernel hands this case to portable.
  OwnedTensor a = random_tensor(ScalarType::Float, {20, 600}, 1);
  OwnedTensor b = random_tensor(ScalarType::Float, {600, 24}, 2);
  OwnedTensor self = random_tensor(ScalarType::Float, {20, 24}, 3);
  OwnedTensor copy = random_tensor(ScalarType::Float, {20, 24}, 3);
  OwnedTensor want(ScalarType::Float, {20, 24});
  KernelContext ref;
  const EValue one(1.0);
  portable::addmm_out(ref, copy.tensor(), a.tensor(), b.tensor(), Scalar{&one}, Scalar{&one},
                      want.tensor());
  KernelContext ctx;
  KernelCall()
      .tensor(self.tensor())
      .tensor(a.tensor())
      .tensor(b.tensor())
      .real(1.0)
      .real(1.0)
      .tensor(self.tensor())
      .run_in("aten::addmm.out", ctx);
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  EXPECT_EQ(::ember::testing::values_of(self), ::ember::testing::values_of(want));
}

}  // namespace
}  // namespace ember::kernels::optimized
