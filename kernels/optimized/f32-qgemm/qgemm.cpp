// The quantized GEMM family's variant table, start-up choice and driver.
// Compiled without ISA flags; only the microkernels use AVX2 or NEON.
#include <algorithm>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"
#include "runtime/core/thread_pool.h"

namespace ember::kernels::optimized {

extern const F32QGemmConfig kF32QGemmScalarConfig;
#if defined(__x86_64__)
extern const F32QGemmConfig kF32QGemmAvx2Config;
#endif
#if defined(__aarch64__)
extern const F32QGemmConfig kF32QGemmNeonConfig;
#endif

namespace {

const F32QGemmConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kF32QGemmAvx2Config,
#endif
#if defined(__aarch64__)
    &kF32QGemmNeonConfig,
#endif
    &kF32QGemmScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

// Output rows per GEMV task chunk: enough to amortise a task, a multiple of
// the microkernel's 4 rows.
constexpr int64_t kGemvChunk = 32;

void gemv(const F32QGemmConfig& cfg, const F32QGemmProblem& p, ThreadPool* pool) {
  const size_t nb = p.k / 32;
  const size_t row_bytes = nb * f32_qgemm_block_bytes(p.bits);
  const F32QGemvUkernelFn kernel = p.bits == 4 ? cfg.gemv_q4_1 : cfg.gemv_q8_0;
  float xsum[kF32QGemmMaxK / 32];
  for (size_t b = 0; b < nb; ++b) {
    float s = 0.0f;
    for (size_t j = 0; j < 32; ++j) s += p.x[b * 32 + j];
    xsum[b] = s;
  }
  const int64_t chunks = static_cast<int64_t>((p.n + kGemvChunk - 1) / kGemvChunk);
  parallel_for(pool, chunks, 1, [&](int64_t begin, int64_t end) {
    const size_t n_end = std::min(p.n, static_cast<size_t>(end) * kGemvChunk);
    for (size_t n0 = static_cast<size_t>(begin) * kGemvChunk; n0 < n_end;
         n0 += kF32QGemvMaxRows) {
      const size_t rows = std::min(kF32QGemvMaxRows, n_end - n0);
      kernel(nb, p.x, xsum, p.w + n0 * row_bytes, row_bytes, rows, p.y + n0);
    }
  });
}

void gemm(const F32QGemmConfig& cfg, const F32GemmConfig& g, const F32QGemmProblem& p,
          ThreadPool* pool) {
  const size_t nb = p.k / 32;
  const size_t row_bytes = nb * f32_qgemm_block_bytes(p.bits);
  const F32QUnpackFn unpack = p.bits == 4 ? cfg.unpack_q4_1 : cfg.unpack_q8_0;
  const size_t nr = g.nr, mr = g.mr;
  const size_t kc_max = std::min(kF32QGemmMaxKc, kF32QGemmPanelFloats / nr / 32 * 32);
  const int64_t panels = static_cast<int64_t>((p.n + nr - 1) / nr);
  F32GemmEpilogue epilogue{1.0f, 0.0f, nullptr, 0, 0};
  parallel_for(pool, panels, 1, [&](int64_t begin, int64_t end) {
    alignas(64) float panel[kF32QGemmPanelFloats];
    for (int64_t t = begin; t < end; ++t) {
      const size_t n0 = static_cast<size_t>(t) * nr;
      const size_t cols = std::min(nr, p.n - n0);
      for (size_t k0 = 0; k0 < p.k; k0 += kc_max) {
        const size_t kc = std::min(kc_max, p.k - k0);
        unpack(kc / 32, p.w + n0 * row_bytes + (k0 / 32) * f32_qgemm_block_bytes(p.bits),
               row_bytes, cols, nr, panel);
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
