// The weight-only quantized GEMM family: y[m, n] = sum_k x[m, k] * W[n, k]
// with x float and W in Ember's 4-bit (Q4_1) or 8-bit (Q8_0) blocks of 32
// weights along k, in panels of 16 rows (kernels/portable/llm_ops.h has the
// format). The weights are read in place, as the .pte stores them, and never
// expanded to a float copy of the matrix:
// - decode (m == 1) runs a GEMV microkernel over one panel at a time: a SIMD
//   lane per output row, so each input's 16 codes are one vector multiplied
//   by that input broadcast, and no sum runs across lanes;
// - prefill (m > 1) unpacks one panel of NR output columns by KC inputs at a
//   time into a small float buffer on the task's stack and runs the f32-gemm
//   microkernel over every row of x on it, so each weight is unpacked once
//   per KC block and used m times.
// One set of microkernels per ISA (scalar.cpp, avx2.cpp, avx512.cpp,
// neon.cpp), chosen once from the CPU; the SIMD ones take whole panels of 16
// rows, the driver (qgemm.cpp) gives a last partial panel to the scalar ones.
//
// This header is included by files compiled with ISA flags, so it must
// define no inline function (see f32_gemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember {

class ThreadPool;

namespace kernels::optimized {

struct F32GemmConfig;

// y[r] = sum_k x[k] W[r][k] for the h <= 16 rows of one panel (`panel`: its
// first block; nb blocks of h rows follow). xsum[b] is the sum of x's block
// b (Q4_1 adds m * xsum).
using F32QGemvUkernelFn = void (*)(size_t nb, const float* x, const float* xsum,
                                   const uint8_t* panel, size_t h, float* y);
// One 32-input block of x in 22-bit fixed point, as the integer GEMV reads it:
// x[j] = scale * (65536 * digit[2][j] + 256 * digit[1][j] + digit[0][j]),
// each digit in [-128, 127] and scale a power of two with |x[j]| < 2^22
// scale, so the rounding is at most 2^-23 of the block's largest |x|, float's
// own rounding of a block's sum (to_digits in qgemm.cpp).
struct F32QDigits {
  int8_t digit[3][32];
  int32_t digit_sum[3];  // of each digit over the block (Q8_0's signed codes)
  float scale;
};
// y[r] for the 16 rows of one panel from x's digits: integer dot products
// of the codes with each digit (AVX512-VNNI's vpdpbusd: 64 byte products an
// instruction, where the float GEMV spends a conversion and an FMA on 16),
// combined in float per block.
using F32QGemvDigitsUkernelFn = void (*)(size_t nb, const F32QDigits* x, const float* xsum,
                                         const uint8_t* panel, float* y);
// Dequantizes nb blocks of rows r0 .. r0 + rows - 1 of one panel of h rows
// (`blocks`: the first block to unpack) into out[p * nr + j] = W[r0 + j][p].
using F32QUnpackFn = void (*)(size_t nb, const uint8_t* blocks, size_t h, size_t r0,
                              size_t rows, size_t nr, float* out);

struct F32QGemmConfig {
  const char* name;            // "scalar", "avx2", "avx512", "avx512vnni", "neon"
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  F32QGemvUkernelFn gemv_q4_1;
  F32QGemvUkernelFn gemv_q8_0;
  F32QUnpackFn unpack_q4_1;
  F32QUnpackFn unpack_q8_0;
  // The GEMVs on x's digits, where the variant has them (null: the float
  // GEMVs); the driver falls back to those for x it cannot write in digits.
  F32QGemvDigitsUkernelFn gemv_q4_1_digits = nullptr;
  F32QGemvDigitsUkernelFn gemv_q8_0_digits = nullptr;
};

// Rows per panel of the weight format: what the SIMD microkernels take.
constexpr size_t kF32QPanelRows = 16;
// The floats of one unpacked panel block (KC inputs x NR columns, 32 KiB)
// on the task's stack: it stays in L1 while every row tile of x runs on it.
// KC is the largest multiple of 32 that fits for the gemm variant's NR, at
// most kF32QGemmMaxKc.
constexpr size_t kF32QGemmPanelFloats = 8192;
constexpr size_t kF32QGemmMaxKc = 512;
// The widest panel the driver unpacks (the f32-gemm NR of every variant:
// 32 for AVX-512); a wider NR runs the GEMV per row instead.
constexpr size_t kF32QGemmMaxNr = 32;
// The longest row of x the GEMV keeps block sums of on its stack.
constexpr size_t kF32QGemmMaxK = 32768;
// The longest row of x the GEMV keeps digits of on its stack (28 KiB); a
// longer one runs the float GEMV.
constexpr size_t kF32QGemmMaxDigitsK = 8192;

size_t f32_qgemm_num_variants();
const F32QGemmConfig& f32_qgemm_variant(size_t index);
bool f32_qgemm_variant_supported(const F32QGemmConfig& config);
const F32QGemmConfig& f32_qgemm_config();

struct F32QGemmProblem {
  int bits = 4;  // 4: Q4_1, 8: Q8_0
  size_t m = 0;
  size_t n = 0;
  size_t k = 0;  // a multiple of 32, at most kF32QGemmMaxK
  const float* x = nullptr;  // [m, k] row-major
  const uint8_t* w = nullptr;  // [n, k / 32] blocks, in panels
  float* y = nullptr;  // [m, n] row-major
};

// Bytes of one block for `bits` (20 for 4, 34 for 8; 0 otherwise).
size_t f32_qgemm_block_bytes(int bits);

// Runs `problem` with `config`'s microkernels, and `gemm`'s microkernel for
// m > 1, split over `pool` (null: serial). Allocates nothing.
void f32_qgemm(const F32QGemmConfig& config, const F32GemmConfig& gemm,
               const F32QGemmProblem& problem, ThreadPool* pool);

}  // namespace kernels::optimized
}  // namespace ember
