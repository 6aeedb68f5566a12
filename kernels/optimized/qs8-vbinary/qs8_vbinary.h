// The int8 elementwise binary family: add and mul of two int8 tensors, each
// with its own scale and zero point, requantized to the output's (XNNPACK's
// qs8-vadd and qs8-vmul, in fp32); one microkernel per form, op and ISA
// (scalar.cpp, avx2.cpp, avx512.cpp, neon.cpp, wasmsimd.cpp), and
// f32-vbinary's broadcast plan for any shapes.
//
// In float, per element (a_mult, b_mult folded by the caller):
//   add: v = fma(float(a - a_zero), a_mult, float(b - b_zero) * b_mult),
//        a_mult = a_scale / out_scale, b_mult = b_scale / out_scale
//   mul: v = float((a - a_zero) * (b - b_zero)) * a_mult (the product exact),
//        a_mult = a_scale * b_scale / out_scale
//   y = clamp(round_half_even(v) + out_zero, out_min, out_max)
// Against PyTorch's reference (dequantize both, add or multiply in float,
// quantize) the result is within 1 LSB: both round the same real value,
// only in different places. A fused relu is out_min = out_zero.
//
// Included by files compiled with ISA flags: defines no inline function (see
// f32-gemm/f32_gemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/f32-vbinary/f32_vbinary.h"

namespace ember::kernels::optimized {

enum class Qs8BinaryOp : uint8_t { Add = 0, Mul = 1 };
constexpr size_t kQs8BinaryOpCount = 2;

struct Qs8BinaryParams {
  int32_t a_zero = 0;
  int32_t b_zero = 0;
  float a_mult = 1.0f;
  float b_mult = 1.0f;  // add only
  int32_t out_zero = 0;
  int32_t out_min = -128;
  int32_t out_max = 127;
};

// The params of op(b, a), which equals op(a, b): both ops commute, so
// swapping the operands swaps their qparams (mul's one multiplier stays).
Qs8BinaryParams qs8_binary_params_swapped(Qs8BinaryOp op, const Qs8BinaryParams& params);

// y[i] = op(a[i], b[i]) for i < n.
using Qs8VBinaryUkernelFn = void (*)(size_t n, const int8_t* a, const int8_t* b, int8_t* y,
                                     const Qs8BinaryParams* params);
// y[i] = op(a[i], b) for i < n.
using Qs8VBinaryScalarUkernelFn = void (*)(size_t n, const int8_t* a, int8_t b, int8_t* y,
                                           const Qs8BinaryParams* params);

// y may be a or b (where it has y's extent), never a partial overlap.
struct Qs8VBinaryConfig {
  const char* name;            // "scalar", "avx2", "avx512", "neon", "wasmsimd"
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  Qs8VBinaryUkernelFn vv[kQs8BinaryOpCount];  // indexed by Qs8BinaryOp
  Qs8VBinaryScalarUkernelFn vs[kQs8BinaryOpCount];
};

size_t qs8_vbinary_num_variants();
const Qs8VBinaryConfig& qs8_vbinary_variant(size_t index);
bool qs8_vbinary_variant_supported(const Qs8VBinaryConfig& config);
const Qs8VBinaryConfig& qs8_vbinary_config();

// Output elements [begin, end) (in y's memory order) of a op b over a
// broadcast plan made by f32_binary_plan (its sizes and strides are in
// elements, whatever their type): rows where both operands advance run vv,
// rows where one repeats run vs, strided rows a plain loop. Ranges may split
// rows anywhere, so threads can take equal shares. Allocates nothing.
void qs8_vbinary_run(const Qs8VBinaryConfig& config, Qs8BinaryOp op, const F32BinaryPlan& plan,
                     const int8_t* a, const int8_t* b, int8_t* y, size_t begin, size_t end,
                     const Qs8BinaryParams& params);

}  // namespace ember::kernels::optimized
