// The 4-bit grouped-weight GEMM's driver: variant selection and weight
// packing; the tiling and threads are qs8-gemm's (qs8_gemm_tiling.h).
// Compiled without ISA flags.
#include <cstring>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qd8-f32-qb4w-gemm/qd8_f32_qb4w_gemm.h"
#include "kernels/optimized/qs8-gemm/qs8_gemm_tiling.h"

namespace ember::kernels::optimized {

extern const Qb4wGemmConfig kQb4wGemmScalarConfig;
#if defined(__x86_64__)
extern const Qb4wGemmConfig kQb4wGemmAvx512VnniConfig;
extern const Qb4wGemmConfig kQb4wGemmAvxVnniConfig;
extern const Qb4wGemmConfig kQb4wGemmAvx2Config;
#endif
#if defined(__aarch64__)
extern const Qb4wGemmConfig kQb4wGemmNeonDotConfig;
extern const Qb4wGemmConfig kQb4wGemmNeonConfig;
#endif

namespace {

const Qb4wGemmConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kQb4wGemmAvx512VnniConfig,
    &kQb4wGemmAvxVnniConfig,
    &kQb4wGemmAvx2Config,
#endif
#if defined(__aarch64__)
    &kQb4wGemmNeonDotConfig,
    &kQb4wGemmNeonConfig,
#endif
    &kQb4wGemmScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

Qs8Tiling tiling_of(const Qb4wGemmConfig& c) { return {c.mr, c.nr, c.kr, c.a_format}; }

size_t group_bytes(const Qb4wGemmConfig& c, size_t group) {
  return c.nr * sizeof(float) + group * c.nr / 2;
}

}  // namespace

size_t qb4w_gemm_num_variants() { return kNumVariants; }

const Qb4wGemmConfig& qb4w_gemm_variant(size_t index) { return *kVariants[index]; }

bool qb4w_gemm_variant_supported(const Qb4wGemmConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const Qb4wGemmConfig& qb4w_gemm_config() {
  static const Qb4wGemmConfig* const chosen = [] {
    for (const Qb4wGemmConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kQb4wGemmScalarConfig;
  }();
  return *chosen;
}

bool qb4w_gemm_supports(const Qb4wGemmConfig& config, size_t k, size_t group) {
  return group != 0 && group % 16 == 0 && k % group == 0 &&
         qs8_tiling_supports(tiling_of(config), 1, k);
}

size_t qb4w_gemm_panel_bytes(const Qb4wGemmConfig& config, size_t k, size_t group) {
  const size_t groups = group != 0 ? k / group : 0;
  return 2 * config.nr * sizeof(float) + groups * group_bytes(config, group);
}

size_t qb4w_gemm_packed_size(const Qb4wGemmConfig& config, size_t k, size_t n, size_t group) {
  return (n + config.nr - 1) / config.nr * qb4w_gemm_panel_bytes(config, k, group);
}

bool qb4w_gemm_pack_weights(const Qb4wGemmConfig& config, const Qb4wWeights& w,
                            const float* bias, void* packed) {
  if (!qb4w_gemm_supports(config, w.k, w.group)) return false;
  for (size_t n = 0; n < w.n; ++n) {
    for (size_t k = 0; k < w.k; ++k) {
      const int v = w.data[static_cast<ptrdiff_t>(k) * w.k_stride +
                           static_cast<ptrdiff_t>(n) * w.n_stride];
      if (v < -8 || v > 7) return false;
    }
  }
  const size_t nr = config.nr, kr = config.kr;
  const size_t groups = w.k / w.group;
  const size_t half = nr * kr / 2;  // bytes per k-group
  uint8_t* panel = static_cast<uint8_t*>(packed);
  for (size_t n0 = 0; n0 < w.n; n0 += nr, panel += qb4w_gemm_panel_bytes(config, w.k, w.group)) {
    float* corr = reinterpret_cast<float*>(panel);
    float* bias_out = corr + nr;
    // Value v of k-group q (column v / kr, k = q * kr + v % kr), 0 past n.
    auto value = [&](size_t q, size_t v) -> int {
      const size_t col = n0 + v / kr;
      if (col >= w.n) return 0;
      return w.data[static_cast<ptrdiff_t>(q * kr + v % kr) * w.k_stride +
                    static_cast<ptrdiff_t>(col) * w.n_stride];
    };
    double corr_sum[64] = {};
    uint8_t* g_out = panel + 2 * nr * sizeof(float);
    for (size_t b = 0; b < groups; ++b, g_out += group_bytes(config, w.group)) {
      float* scale = reinterpret_cast<float*>(g_out);
      uint8_t* bytes = g_out + nr * sizeof(float);
      for (size_t j = 0; j < nr; ++j) {
        const size_t col = n0 + j;
        const float s = col < w.n ? w.scale[col * groups + b] : 0.0f;
        // 16 * w is what the kernels multiply by: the scale they apply is
        // s / 16 (exact, a power of two).
        scale[j] = s / 16.0f;
        int sum = 0;
        for (size_t k = b * w.group; k < (b + 1) * w.group && col < w.n; ++k) {
          sum += w.data[static_cast<ptrdiff_t>(k) * w.k_stride +
                        static_cast<ptrdiff_t>(col) * w.n_stride];
        }
        corr_sum[j] += static_cast<double>(s) * sum;
      }
      const size_t q0 = b * w.group / kr;
      for (size_t q = q0; q < q0 + w.group / kr; ++q, bytes += half) {
        for (size_t j = 0; j < half; ++j) {
          const unsigned lo = static_cast<unsigned>(value(q, j)) & 0xFu;
          const unsigned hi = static_cast<unsigned>(value(q, j + half)) & 0xFu;
          bytes[j] = static_cast<uint8_t>(lo | (hi << 4));
        }
      }
    }
    for (size_t j = 0; j < nr; ++j) {
      corr[j] = static_cast<float>(corr_sum[j]);
      bias_out[j] = bias != nullptr && n0 + j < w.n ? bias[n0 + j] : 0.0f;
    }
  }
  return true;
}

bool qd8_f32_qb4w_gemm(const Qb4wGemmConfig& cfg, const Qb4wGemmProblem& p, KernelContext* ctx) {
  if (!qb4w_gemm_supports(cfg, p.k, p.group)) return false;
  qs8_gemm_tiles(tiling_of(cfg), p.m, p.n, p.k, p.a, p.lda,
                 qb4w_gemm_panel_bytes(cfg, p.k, p.group), p.packed_w, ctx,
                 [&](size_t mr, size_t nr, const void* a, const uint8_t* panel, size_t i,
                     size_t j) {
                   float* c = p.c + i * p.ldc + j;
                   cfg.gemm(mr, nr, p.k, p.group, a, panel, c, p.ldc, p.a_zero + i,
                            p.a_scale + i, &p.params);
                   apply_to_tile(p.activation, mr, nr, c, p.ldc);
                 });
  return true;
}

}  // namespace ember::kernels::optimized
