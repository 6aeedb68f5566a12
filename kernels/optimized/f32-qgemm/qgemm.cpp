// The quantized GEMM family's variant table, start-up choice and driver.
// Compiled without ISA flags; only the microkernels use AVX2, AVX-512 or NEON.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"
#include "runtime/core/thread_pool.h"

namespace ember::kernels::optimized {

extern const F32QGemmConfig kF32QGemmScalarConfig;
#if defined(__x86_64__)
extern const F32QGemmConfig kF32QGemmAvx512VnniConfig;
extern const F32QGemmConfig kF32QGemmAvx512Config;
extern const F32QGemmConfig kF32QGemmAvx2Config;
#endif
#if defined(__aarch64__)
extern const F32QGemmConfig kF32QGemmNeonConfig;
#endif

namespace {

const F32QGemmConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kF32QGemmAvx512VnniConfig,
    &kF32QGemmAvx512Config,
    &kF32QGemmAvx2Config,
#endif
#if defined(__aarch64__)
    &kF32QGemmNeonConfig,
#endif
    &kF32QGemmScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

// Panels per GEMV task: 32 output rows, enough to amortise a task.
constexpr int64_t kGemvChunkPanels = 2;

// The weight's panels: where panel `first` / 16 starts and how many rows it has.
struct Panels {
  const uint8_t* w;
  size_t n, nb, block, row_bytes;

  explicit Panels(const F32QGemmProblem& p)
      : w(p.w), n(p.n), nb(p.k / 32), block(f32_qgemm_block_bytes(p.bits)),
        row_bytes(nb * block) {}

  size_t rows(size_t first) const { return std::min(kF32QPanelRows, n - first); }
  // Block b of the panel whose first row is `first`.
  const uint8_t* block_at(size_t first, size_t b) const {
    return w + first * row_bytes + b * rows(first) * block;
  }
};

// Rounds to the nearest integer a float of magnitude under 2^22, in float
// arithmetic (which the compiler vectorizes, where lrintf is a call).
constexpr float kRoundMagic = 12582912.0f;  // 1.5 * 2^23

// Block b of x in digits (F32QDigits); false when the block has an infinity
// or a NaN (which must reach y as the float GEMV carries them), or a largest
// |x| under 2^-100, whose scale would leave float's range.
bool to_digits(const float* x, F32QDigits* out) {
  float largest = 0.0f;
  bool finite = true;  // apart: std::max drops a NaN
  for (size_t j = 0; j < 32; ++j) {
    const float magnitude = std::fabs(x[j]);
    finite &= magnitude <= std::numeric_limits<float>::max();
    largest = std::max(largest, magnitude);
  }
  if (!finite) return false;
  if (largest == 0.0f) {
    std::memset(out, 0, sizeof(*out));
    return true;
  }
  if (largest < 0x1p-100f) return false;
  int e;
  std::frexp(largest, &e);  // largest < 2^e
  out->scale = std::ldexp(1.0f, e - 22);
  const float inverse = std::ldexp(1.0f, 22 - e);
  int32_t sum[3] = {0, 0, 0};
  for (size_t j = 0; j < 32; ++j) {
    const int32_t v = static_cast<int32_t>((x[j] * inverse + kRoundMagic) - kRoundMagic);
    const int32_t d0 = static_cast<int8_t>(static_cast<uint8_t>(v & 0xFF));
    const int32_t r = (v - d0) / 256;
    const int32_t d1 = static_cast<int8_t>(static_cast<uint8_t>(r & 0xFF));
    const int32_t d2 = (r - d1) / 256;
    out->digit[0][j] = static_cast<int8_t>(d0);
    out->digit[1][j] = static_cast<int8_t>(d1);
    out->digit[2][j] = static_cast<int8_t>(d2);
    sum[0] += d0;
    sum[1] += d1;
    sum[2] += d2;
  }
  for (int d = 0; d < 3; ++d) out->digit_sum[d] = sum[d];
  return true;
}

// Every panel of the weight, split over the pool: whole(w, y) on each panel
// of 16 rows (w: its first block, y: its first output), the scalar GEMV on a
// last partial one.
template <typename Whole>
void for_each_panel(const F32QGemmProblem& p, const float* xsum, ThreadPool* pool, Whole whole) {
  const Panels panels(p);
  const F32QGemvUkernelFn partial =
      p.bits == 4 ? kF32QGemmScalarConfig.gemv_q4_1 : kF32QGemmScalarConfig.gemv_q8_0;
  const int64_t count = static_cast<int64_t>((p.n + kF32QPanelRows - 1) / kF32QPanelRows);
  const int64_t chunks = (count + kGemvChunkPanels - 1) / kGemvChunkPanels;
  parallel_for(pool, chunks, 1, [&](int64_t begin, int64_t end) {
    const int64_t last = std::min(count, end * kGemvChunkPanels);
    for (int64_t panel = begin * kGemvChunkPanels; panel < last; ++panel) {
      const size_t first = static_cast<size_t>(panel) * kF32QPanelRows;
      const size_t h = panels.rows(first);
      const uint8_t* w = panels.block_at(first, 0);
      if (h < kF32QPanelRows) {
        partial(panels.nb, p.x, xsum, w, h, p.y + first);
      } else {
        whole(w, p.y + first);
      }
    }
  });
}

// x's digits and the GEMV on them; false (y untouched) when a block of x has
// none. A frame of its own (not inlined), so that the float GEMV's calls do
// not reserve the digits' 28 KiB of stack.
__attribute__((noinline)) bool gemv_on_digits(F32QGemvDigitsUkernelFn on_digits,
                                              const F32QGemmProblem& p, const float* xsum,
                                              ThreadPool* pool) {
  F32QDigits digits[kF32QGemmMaxDigitsK / 32];
  const size_t nb = p.k / 32;
  for (size_t b = 0; b < nb; ++b) {
    if (!to_digits(p.x + b * 32, &digits[b])) return false;
  }
  for_each_panel(p, xsum, pool,
                 [&](const uint8_t* w, float* y) { on_digits(nb, digits, xsum, w, y); });
  return true;
}

void gemv(const F32QGemmConfig& cfg, const F32QGemmProblem& p, ThreadPool* pool) {
  const size_t nb = p.k / 32;
  float xsum[kF32QGemmMaxK / 32];
  for (size_t b = 0; b < nb; ++b) {
    float s = 0.0f;
    for (size_t j = 0; j < 32; ++j) s += p.x[b * 32 + j];
    xsum[b] = s;
  }
  const bool q4 = p.bits == 4;
  const F32QGemvDigitsUkernelFn on_digits = q4 ? cfg.gemv_q4_1_digits : cfg.gemv_q8_0_digits;
  if (on_digits != nullptr && p.k <= kF32QGemmMaxDigitsK &&
      gemv_on_digits(on_digits, p, xsum, pool)) {
    return;
  }
  const F32QGemvUkernelFn whole = q4 ? cfg.gemv_q4_1 : cfg.gemv_q8_0;
  for_each_panel(p, xsum, pool, [&](const uint8_t* w, float* y) {
    whole(nb, p.x, xsum, w, kF32QPanelRows, y);
  });
}

void gemm(const F32QGemmConfig& cfg, const F32GemmConfig& g, const F32QGemmProblem& p,
          ThreadPool* pool) {
  const Panels panels(p);
  const bool q4 = p.bits == 4;
  const F32QUnpackFn whole = q4 ? cfg.unpack_q4_1 : cfg.unpack_q8_0;
  const F32QUnpackFn partial =
      q4 ? kF32QGemmScalarConfig.unpack_q4_1 : kF32QGemmScalarConfig.unpack_q8_0;
  const size_t nr = g.nr, mr = g.mr;
  const size_t kc_max = std::min(kF32QGemmMaxKc, kF32QGemmPanelFloats / nr / 32 * 32);
  const int64_t tiles = static_cast<int64_t>((p.n + nr - 1) / nr);
  F32GemmEpilogue epilogue{1.0f, 0.0f, nullptr, 0, 0};
  parallel_for(pool, tiles, 1, [&](int64_t begin, int64_t end) {
    alignas(64) float panel[kF32QGemmPanelFloats];
    for (int64_t t = begin; t < end; ++t) {
      const size_t n0 = static_cast<size_t>(t) * nr;
      const size_t cols = std::min(nr, p.n - n0);
      for (size_t k0 = 0; k0 < p.k; k0 += kc_max) {
        const size_t kc = std::min(kc_max, p.k - k0);
        if (cols < nr) {
          for (size_t q = 0; q < kc; ++q) {
            for (size_t j = cols; j < nr; ++j) panel[q * nr + j] = 0.0f;
          }
        }
        // The tile's columns from each weight panel they cross.
        for (size_t row = n0; row < n0 + cols;) {
          const size_t first = row - row % kF32QPanelRows, h = panels.rows(first);
          const size_t rows = std::min(first + h, n0 + cols) - row;
          const bool full = h == kF32QPanelRows && rows == kF32QPanelRows;
          (full ? whole : partial)(kc / 32, panels.block_at(first, k0 / 32), h, row - first, rows,
                                   nr, panel + (row - n0));
          row += rows;
        }
        const uint32_t flags = (k0 > 0 ? kF32GemmAccumulate : 0u) |
                               (k0 + kc >= p.k ? kF32GemmFinal : 0u);
        for (size_t i0 = 0; i0 < p.m; i0 += mr) {
          g.ukernel(std::min(mr, p.m - i0), cols, kc, p.x + i0 * p.k + k0, p.k, panel,
                    p.y + i0 * p.n + n0, p.n, flags, &epilogue);
        }
      }
    }
  });
}

}  // namespace

size_t f32_qgemm_num_variants() { return kNumVariants; }

const F32QGemmConfig& f32_qgemm_variant(size_t index) { return *kVariants[index]; }

bool f32_qgemm_variant_supported(const F32QGemmConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const F32QGemmConfig& f32_qgemm_config() {
  static const F32QGemmConfig* const chosen = [] {
    for (const F32QGemmConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kF32QGemmScalarConfig;
  }();
  return *chosen;
}

size_t f32_qgemm_block_bytes(int bits) { return bits == 4 ? 20 : bits == 8 ? 34 : 0; }

void f32_qgemm(const F32QGemmConfig& config, const F32GemmConfig& gemm_config,
               const F32QGemmProblem& problem, ThreadPool* pool) {
  if (problem.m == 0 || problem.n == 0) return;
  if (problem.k == 0) {
    for (size_t i = 0; i < problem.m * problem.n; ++i) problem.y[i] = 0.0f;
    return;
  }
  if (problem.m == 1 || gemm_config.nr > kF32QGemmMaxNr) {
    // One row, or a gemm variant whose panels are wider than the driver
    // unpacks: the GEMV, row by row.
    F32QGemmProblem row = problem;
    row.m = 1;
    for (size_t i = 0; i < problem.m; ++i) {
      row.x = problem.x + i * problem.k;
      row.y = problem.y + i * problem.n;
      gemv(config, row, pool);
    }
  } else {
    gemm(config, gemm_config, problem, pool);
  }
}

}  // namespace ember::kernels::optimized
