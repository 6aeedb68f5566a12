// The constants of Ember's f32 exp, expm1 and erf approximations, shared by
// every variant of every family that evaluates them (f32-vunary, f32-softmax),
// so that scalar, AVX2 and NEON agree on the algorithm and differ only in
// rounding (FMA or not).
//
// Data only: included by files compiled with ISA flags, so it must define no
// function (see f32_gemm.h).
#pragma once

#include <cstdint>

namespace ember::kernels::optimized::vmath {

// exp(x) = 2^n * exp(t), n = round(x * log2(e)), t = x - n * ln2 in
// [-ln2/2, ln2/2] (Cody-Waite: ln2 = kLn2Hi + kLn2Lo, kLn2Hi with 15
// significant bits, so n * kLn2Hi is exact for |n| < 512 even without FMA).
constexpr float kLog2e = 0x1.715476p+0f;
constexpr float kLn2Hi = 0x1.62E4p-1f;
constexpr float kLn2Lo = 0x1.7F7D1Cp-20f;
// Adding then subtracting 1.5 * 2^23 rounds to the nearest integer (|v| < 2^22).
constexpr float kRoundMagic = 0x1.8p23f;
// The same plus 127: the float's low mantissa bits then hold n + 127, and
// shifting its bits left by 23 gives 2^n directly (valid for n >= -126).
constexpr float kRoundMagicBiased = 0x1.8000FEp23f;

// exp(t) ~= 1 + t * (c1 + t * (c2 + ... + t * c6)) on [-ln2/2, ln2/2]:
// minimax for the relative error (LP fit, then rounded to float), 1.7e-8
// (0.14 ULP) with these float coefficients, before the rounding of the
// evaluation.
constexpr float kExpC1 = 0x1.0p+0f;
constexpr float kExpC2 = 0x1.FFFFFCp-2f;
constexpr float kExpC3 = 0x1.55541Ap-3f;
constexpr float kExpC4 = 0x1.555822p-5f;
constexpr float kExpC5 = 0x1.126782p-7f;
constexpr float kExpC6 = 0x1.6AE71Ep-10f;

// expm1(t) ~= t + t^2 * (d2 + t * (d3 + ... + t * d6)) on [-ln2/2, ln2/2],
// for tanh: relative error 1.7e-8 with these coefficients. Small |t| keeps
// its full relative accuracy, which exp(t) - 1 would lose.
constexpr float kExpm1D2 = 0x1.FFFFFEp-2f;
constexpr float kExpm1D3 = 0x1.5554B0p-3f;
constexpr float kExpm1D4 = 0x1.555674p-5f;
constexpr float kExpm1D5 = 0x1.122768p-7f;
constexpr float kExpm1D6 = 0x1.6BEBE6p-10f;

// The general exp clamps x to [kExpMinX, kExpMaxX]: below, the result
// rounds to 0; above, it overflows to inf (2^n is applied as two factors, so
// that n in [-150, 128] needs no special case).
constexpr float kExpMinX = -104.0f;
constexpr float kExpMaxX = 88.75f;
// exp(x) for x below this is under 2^-126: the single-factor exp (sigmoid,
// softmax) flushes it to 0, as XNNPACK does.
constexpr float kExpDenormCutoff = -0x1.5D58A0p+6f;  // ln(2^-126) = -87.3365

// tanh(|x|) = -expm1(-2|x|) / (2 + expm1(-2|x|)); from this |x| on, tanh
// rounds to 1 (1 - tanh(x) < 2^-25 from 9.0109).
constexpr float kTanhSaturation = 9.02f;

// GELU: erf(x / sqrt(2)) ~= x * P(x^2) / Q(x^2), P of degree 5 and Q of
// degree 5 with Q(0) = 1, on [0, 5.6] (iterated LP fit for the absolute
// error: 3.2e-8 with these float coefficients). From kGeluSaturation on,
// erf(x / sqrt(2)) rounds to 1 and is taken as exactly 1, so that
// gelu(x) = -0 for very negative x rather than x times a rounding error.
constexpr float kGeluP0 = 0x1.988450p-1f;
constexpr float kGeluP1 = 0x1.18B802p-4f;
constexpr float kGeluP2 = 0x1.3407B0p-7f;
constexpr float kGeluP3 = 0x1.6A2DAAp-12f;
constexpr float kGeluP4 = 0x1.A9CA62p-17f;
constexpr float kGeluP5 = 0x1.7D794Ap-25f;
constexpr float kGeluQ1 = 0x1.029F7Cp-2f;
constexpr float kGeluQ2 = 0x1.D91E00p-6f;
constexpr float kGeluQ3 = 0x1.F3C3E2p-10f;
constexpr float kGeluQ4 = 0x1.395F46p-14f;
constexpr float kGeluQ5 = 0x1.3D0BAAp-20f;
constexpr float kGeluSaturation = 0x1.62B9DCp+2f;  // 5.5426

// GELU, tanh form: 0.5 x (1 + tanh(u)) = x * sigmoid(2u), with
// 2u = x * (kGeluTanhC0 + kGeluTanhC1 * x^2) = 2 sqrt(2/pi) (x + 0.044715 x^3).
constexpr float kGeluTanhC0 = 0x1.988454p+0f;
constexpr float kGeluTanhC1 = 0x1.2444F2p-4f;

}  // namespace ember::kernels::optimized::vmath
