// int8 add and mul for WebAssembly SIMD128 (neon.cpp's structure): 16
// elements per step in four i32x4 vectors, the arithmetic of qs8_vbinary.h;
// a partial step goes through zero-padded stack buffers.
//
// SIMD128 has no FMA, and std::fma compiles to a software routine (the
// scalar variant under WebAssembly ran 35x slower than AVX2). add's
// fma(a', a_mult, float(b' * b_mult)) is computed in f64x2 instead, exactly:
// a' * a_mult (|a'| <= 255, a 24-bit multiplier) is exact in double, and the
// sum of two multiples of 2^(e - 23), e the lesser multiplier's exponent,
// below 2^(e' + 9), e' the greater's, has at most |e - e'| + 33 bits, so
// it is exact in double while the multipliers' exponents differ by at most
// 20; its one rounding to float is then fma's. Operand scales further apart
// than 2^20 take the scalar variant.
#include <wasm_simd128.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-vbinary/blocks_body.h"
#include "kernels/optimized/qs8-vbinary/qs8_vbinary.h"

namespace ember::kernels::optimized {

extern const Qs8VBinaryConfig kQs8VBinaryScalarConfig;

namespace {

constexpr int kMaxExponentGap = 20;

// The 16 bytes at p as four i32x4, in order.
inline void widen(const int8_t* p, v128_t (&out)[4]) {
  const v128_t v = wasm_v128_load(p);
  const v128_t lo = wasm_i16x8_extend_low_i8x16(v);
  const v128_t hi = wasm_i16x8_extend_high_i8x16(v);
  out[0] = wasm_i32x4_extend_low_i16x8(lo);
  out[1] = wasm_i32x4_extend_high_i16x8(lo);
  out[2] = wasm_i32x4_extend_low_i16x8(hi);
  out[3] = wasm_i32x4_extend_high_i16x8(hi);
}

// fma(a, a_mult, b) for four lanes, through f64x2 (exact: top of the file).
inline v128_t fused_add(v128_t a, v128_t a_mult, v128_t b) {
  const v128_t a_hi = wasm_i64x2_shuffle(a, a, 1, 0);
  const v128_t b_hi = wasm_i64x2_shuffle(b, b, 1, 0);
  const v128_t lo = wasm_f64x2_add(wasm_f64x2_mul(wasm_f64x2_convert_low_i32x4(a), a_mult),
                                   wasm_f64x2_promote_low_f32x4(b));
  const v128_t hi = wasm_f64x2_add(wasm_f64x2_mul(wasm_f64x2_convert_low_i32x4(a_hi), a_mult),
                                   wasm_f64x2_promote_low_f32x4(b_hi));
  return wasm_i64x2_shuffle(wasm_f32x4_demote_f64x2_zero(lo), wasm_f32x4_demote_f64x2_zero(hi),
                            0, 2);
}

template <Qs8BinaryOp Op>
void block(const int8_t* a, const int8_t* b, int8_t* y, const Qs8BinaryParams* p) {
  v128_t av[4], bv[4];
  widen(a, av);
  widen(b, bv);
  const v128_t lo = wasm_f32x4_splat(static_cast<float>(p->out_min - p->out_zero));
  const v128_t hi = wasm_f32x4_splat(static_cast<float>(p->out_max - p->out_zero));
  const v128_t a_zero = wasm_i32x4_splat(p->a_zero);
  const v128_t b_zero = wasm_i32x4_splat(p->b_zero);
  const v128_t out_zero = wasm_i32x4_splat(p->out_zero);
  v128_t q[4];
  for (int j = 0; j < 4; ++j) {
    const v128_t da = wasm_i32x4_sub(av[j], a_zero);
    const v128_t db = wasm_i32x4_sub(bv[j], b_zero);
    v128_t v;
    if (Op == Qs8BinaryOp::Add) {
      const v128_t b_term =
          wasm_f32x4_mul(wasm_f32x4_convert_i32x4(db), wasm_f32x4_splat(p->b_mult));
      v = fused_add(da, wasm_f64x2_splat(p->a_mult), b_term);
    } else {
      v = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_mul(da, db)),
                         wasm_f32x4_splat(p->a_mult));
    }
    v = wasm_f32x4_pmin(hi, wasm_f32x4_pmax(lo, v));
    // Round half to even, then an exact conversion.
    q[j] = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(v)), out_zero);
  }
  wasm_v128_store(y, wasm_i8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(q[0], q[1]),
                                             wasm_i16x8_narrow_i32x4(q[2], q[3])));
}

// Whether add's double sum is exact for these multipliers.
bool exact_in_double(const Qs8BinaryParams* p) {
  int ea = 0, eb = 0;
  std::frexp(p->a_mult, &ea);
  std::frexp(p->b_mult, &eb);
  return std::abs(ea - eb) <= kMaxExponentGap;
}

template <Qs8BinaryOp Op>
struct Block {
  const Qs8BinaryParams* p;
  explicit Block(const Qs8BinaryParams* params) : p(params) {}
  void operator()(const int8_t* a, const int8_t* b, int8_t* y) const { block<Op>(a, b, y, p); }
};

template <Qs8BinaryOp Op>
void vv(size_t n, const int8_t* a, const int8_t* b, int8_t* y, const Qs8BinaryParams* p) {
  if (Op == Qs8BinaryOp::Add && !exact_in_double(p)) {
    return kQs8VBinaryScalarConfig.vv[static_cast<size_t>(Op)](n, a, b, y, p);
  }
  vv_blocks<Block<Op>>(n, a, b, y, p);
}

template <Qs8BinaryOp Op>
void vs(size_t n, const int8_t* a, int8_t b, int8_t* y, const Qs8BinaryParams* p) {
  if (Op == Qs8BinaryOp::Add && !exact_in_double(p)) {
    return kQs8VBinaryScalarConfig.vs[static_cast<size_t>(Op)](n, a, b, y, p);
  }
  vs_blocks<Block<Op>>(n, a, b, y, p);
}

}  // namespace

extern const Qs8VBinaryConfig kQs8VBinaryWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd, {vv<Qs8BinaryOp::Add>, vv<Qs8BinaryOp::Mul>},
    {vs<Qs8BinaryOp::Add>, vs<Qs8BinaryOp::Mul>},
};

}  // namespace ember::kernels::optimized
