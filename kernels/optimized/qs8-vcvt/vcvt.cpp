// The int8 conversion family's driver: variant selection, the per-token
// qparams (plain C++, in float32 step by step as torch computes them) and
// the split over threads. Compiled without ISA flags.
#include <cfloat>
#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-vcvt/qs8_vcvt.h"
#include "runtime/core/thread_pool.h"

namespace ember::kernels::optimized {

extern const Qs8VcvtConfig kQs8VcvtScalarConfig;
#if defined(__x86_64__)
extern const Qs8VcvtConfig kQs8VcvtAvx512Config;
extern const Qs8VcvtConfig kQs8VcvtAvx2Config;
#endif
#if defined(__aarch64__)
extern const Qs8VcvtConfig kQs8VcvtNeonConfig;
#endif
#if defined(__wasm_simd128__)
extern const Qs8VcvtConfig kQs8VcvtWasmSimdConfig;
#endif

namespace {

const Qs8VcvtConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kQs8VcvtAvx512Config,
    &kQs8VcvtAvx2Config,
#endif
#if defined(__aarch64__)
    &kQs8VcvtNeonConfig,
#endif
#if defined(__wasm_simd128__)
    &kQs8VcvtWasmSimdConfig,
#endif
    &kQs8VcvtScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

// Elements per task of an elementwise split: below it a thread's wake-up
// costs more than the work.
constexpr int64_t kMinChunk = 16 * 1024;

// One row's qparams from its min and max (torch's
// _choose_qparams_per_token_asymmetric_impl, each line one of its tensor ops
// in float32).
void qparams_from_range(float min_val, float max_val, float* scale, int32_t* zero) {
  constexpr float kQmin = -128.0f;
  constexpr float kQmax = 127.0f;
  const float min_neg = min_val < 0.0f ? min_val : 0.0f;
  const float max_pos = max_val > 0.0f ? max_val : 0.0f;
  float s = (max_pos - min_neg) / (kQmax - kQmin);
  if (!(s >= FLT_EPSILON)) s = FLT_EPSILON;  // clamp(min=eps)
  const float descaled_min = min_neg / s;
  const float descaled_max = max_pos / s;
  const float error_from_min = kQmin + descaled_min;
  const float error_from_max = kQmax + descaled_max;
  float zp = error_from_min + error_from_max > 0.0f ? kQmin - descaled_min : kQmax - descaled_max;
  zp = zp < kQmin ? kQmin : (zp > kQmax ? kQmax : zp);
  *scale = s;
  *zero = static_cast<int32_t>(std::nearbyint(zp));  // round half to even
}

void quantize_row(const Qs8VcvtConfig& cfg, size_t cols, const float* x, float scale,
                  int32_t zero, int8_t* y) {
  cfg.quantize_double(cols, x, y, 1.0 / static_cast<double>(scale), zero, -128, 127);
}

}  // namespace

size_t qs8_vcvt_num_variants() { return kNumVariants; }

const Qs8VcvtConfig& qs8_vcvt_variant(size_t index) { return *kVariants[index]; }

bool qs8_vcvt_variant_supported(const Qs8VcvtConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const Qs8VcvtConfig& qs8_vcvt_config() {
  static const Qs8VcvtConfig* const chosen = [] {
    for (const Qs8VcvtConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kQs8VcvtScalarConfig;
  }();
  return *chosen;
}

void qs8_quantize(const Qs8VcvtConfig& cfg, size_t n, const float* x, int8_t* y,
                  const Qs8QuantizeParams& params, ThreadPool* pool) {
  parallel_for(pool, static_cast<int64_t>(n), kMinChunk, [&](int64_t begin, int64_t end) {
    cfg.quantize(static_cast<size_t>(end - begin), x + begin, y + begin, &params);
  });
}

void qs8_dequantize(const Qs8VcvtConfig& cfg, size_t n, const int8_t* x, float* y, int32_t zero,
                    float scale, ThreadPool* pool) {
  parallel_for(pool, static_cast<int64_t>(n), kMinChunk, [&](int64_t begin, int64_t end) {
    cfg.dequantize(static_cast<size_t>(end - begin), x + begin, y + begin, zero, scale);
  });
}

void qs8_choose_qparams_per_token(const Qs8VcvtConfig& cfg, size_t rows, size_t cols,
                                  const float* x, size_t ldx, float* scale, int32_t* zero) {
  for (size_t r = 0; r < rows; ++r) {
    float lo = 0.0f, hi = 0.0f;
    cfg.minmax(cols, x + r * ldx, &lo, &hi);
    qparams_from_range(lo, hi, scale + r, zero + r);
  }
}

void qs8_quantize_per_token(const Qs8VcvtConfig& cfg, size_t rows, size_t cols, const float* x,
                            size_t ldx, const float* scale, const int32_t* zero, int8_t* y,
                            size_t ldy) {
  for (size_t r = 0; r < rows; ++r) {
    quantize_row(cfg, cols, x + r * ldx, scale[r], zero[r], y + r * ldy);
  }
}

void qs8_quantize_rows_dynamic(const Qs8VcvtConfig& cfg, size_t rows, size_t cols,
                               const float* x, size_t ldx, float* scale, int32_t* zero,
                               int8_t* y, size_t ldy, ThreadPool* pool) {
  const int64_t min_rows = static_cast<int64_t>(kMinChunk / (cols > 0 ? cols : 1)) + 1;
  parallel_for(pool, static_cast<int64_t>(rows), min_rows, [&](int64_t begin, int64_t end) {
    for (size_t r = static_cast<size_t>(begin); r < static_cast<size_t>(end); ++r) {
      float lo = 0.0f, hi = 0.0f;
      cfg.minmax(cols, x + r * ldx, &lo, &hi);
      qparams_from_range(lo, hi, scale + r, zero + r);
      quantize_row(cfg, cols, x + r * ldx, scale[r], zero[r], y + r * ldy);
    }
  });
}

}  // namespace ember::kernels::optimized
