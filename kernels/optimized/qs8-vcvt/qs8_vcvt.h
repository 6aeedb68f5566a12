// The int8 conversion family: float -> int8 quantization and int8 -> float
// dequantization, per tensor and per token (a scale and zero point per row,
// chosen from the row's range as PyTorch's choose_qparams_per_token_asymmetric
// chooses them), with PyTorch's rounding; one file per ISA (scalar.cpp,
// avx2.cpp, avx512.cpp, neon.cpp). The rounding is the op's own, bit for bit:
//  - quantize_per_tensor: clamp(round_half_even(x * inv_scale) + zero), the
//    product in float with inv_scale = float(1.0 / scale) (torch multiplies a
//    float tensor by a Python float in float);
//  - quantize_per_token: clamp(round_half_even(x * (1.0 / scale) + zero)),
//    in double: its scales are float64 tensors, which promote the product,
//    and the zero point is added before rounding;
//  - dequantize (either): float(q - zero) * scale, one rounding (a double
//    product of two floats is exact, so float64 scales change nothing).
// NaN quantizes to the clamp's low end on every variant (torch leaves the
// conversion of NaN undefined).
//
// Included by files compiled with ISA flags: defines no inline function (see
// f32-gemm/f32_gemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember {

class ThreadPool;

namespace kernels::optimized {

struct Qs8QuantizeParams {
  float inv_scale = 1.0f;  // float(1.0 / scale)
  int32_t zero = 0;
  int32_t min = -128;  // quant_min, quant_max within [-128, 127]
  int32_t max = 127;
};

// y[i] = clamp(round_half_even(x[i] * inv_scale) + zero, min, max), the
// product in float.
using F32ToQs8UkernelFn = void (*)(size_t n, const float* x, int8_t* y,
                                   const Qs8QuantizeParams* params);
// y[i] = clamp(round_half_even(double(x[i]) * inv_scale + zero), min, max),
// in double (per-token quantization).
using F32ToQs8DoubleUkernelFn = void (*)(size_t n, const float* x, int8_t* y, double inv_scale,
                                         int32_t zero, int32_t min, int32_t max);
// y[i] = float(x[i] - zero) * scale.
using Qs8ToF32UkernelFn = void (*)(size_t n, const int8_t* x, float* y, int32_t zero,
                                   float scale);
// The least and greatest of x[0..n), n >= 1 (NaNs: unspecified).
using F32MinMaxUkernelFn = void (*)(size_t n, const float* x, float* min, float* max);

struct Qs8VcvtConfig {
  const char* name;            // "scalar", "avx2", "avx512", "neon"
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  F32ToQs8UkernelFn quantize;
  F32ToQs8DoubleUkernelFn quantize_double;
  Qs8ToF32UkernelFn dequantize;
  F32MinMaxUkernelFn minmax;
};

size_t qs8_vcvt_num_variants();
const Qs8VcvtConfig& qs8_vcvt_variant(size_t index);
bool qs8_vcvt_variant_supported(const Qs8VcvtConfig& config);
const Qs8VcvtConfig& qs8_vcvt_config();

// --- per tensor (a split over `pool` for long tensors; null: serial) ---

void qs8_quantize(const Qs8VcvtConfig& config, size_t n, const float* x, int8_t* y,
                  const Qs8QuantizeParams& params, ThreadPool* pool);
void qs8_dequantize(const Qs8VcvtConfig& config, size_t n, const int8_t* x, float* y,
                    int32_t zero, float scale, ThreadPool* pool);

// --- per token: rows of `cols` values, row r at x + r * ldx ---

// PyTorch's choose_qparams_per_token_asymmetric for int8 (qmin -128, qmax
// 127), each step in float32 as torch computes it: from the row's min and
// max widened to include 0, scale = max(range / 255, FLT_EPSILON) and the
// zero point from whichever end's error is the smaller, clamped and rounded
// half to even. cols >= 1.
void qs8_choose_qparams_per_token(const Qs8VcvtConfig& config, size_t rows, size_t cols,
                                  const float* x, size_t ldx, float* scale, int32_t* zero);
// quantize_per_token with those qparams: y[r][i] = clamp(round_half_even(
// double(x[r][i]) * (1.0 / double(scale[r])) + zero[r]), -128, 127).
void qs8_quantize_per_token(const Qs8VcvtConfig& config, size_t rows, size_t cols,
                            const float* x, size_t ldx, const float* scale, const int32_t* zero,
                            int8_t* y, size_t ldy);
// Both, row by row while the row is in cache: what a dynamically quantized
// linear layer does to its input before qd8_f32_gemm. Rows split over `pool`.
void qs8_quantize_rows_dynamic(const Qs8VcvtConfig& config, size_t rows, size_t cols,
                               const float* x, size_t ldx, float* scale, int32_t* zero,
                               int8_t* y, size_t ldy, ThreadPool* pool);

}  // namespace kernels::optimized
}  // namespace ember
