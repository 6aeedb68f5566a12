// int8 GEMM microkernels for WebAssembly SIMD128 (4x8 tile, k-pairs): the
// AVX2 variant's arithmetic at 128 bits. A gathered as int16, B's bytes
// sign-extended to int16 as they are loaded, and i32x4.dot_i16x8_s (pmaddwd
// on x86, smull + addp on Arm) sums each k-pair of products into int32
// lanes. Exact: a pair of int16 products is at most 2 * 255 * 128 in
// magnitude. 8 accumulators, two B vectors and A's splat pair fit the 16
// vector registers an engine has on x86-64.
#include <wasm_simd128.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-gemm/qs8_gemm.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kMr = 4;
constexpr size_t kNr = 8;
constexpr size_t kKr = 2;

// A panel's parts (qs8_gemm.h): the head, the weights, the tail.
struct Panel {
  const int32_t* head;
  const int8_t* w;
  const float* tail;
  Panel(const void* panel, size_t kp)
      : head(static_cast<const int32_t*>(panel)),
        w(static_cast<const int8_t*>(panel) + kNr * sizeof(int32_t)),
        tail(reinterpret_cast<const float*>(w + kp * kNr)) {}
};

// acc[i][0..2) += the products of all kp values of row i (int16, rows kp
// apart) with the panel's k-pairs: per pair, the 8 columns' 16 bytes widened
// to two int16 vectors, the row's pair splat, a dot and an add per vector.
template <size_t MR>
__attribute__((always_inline)) inline void accumulate(size_t kp, const int16_t* a,
                                                      const int8_t* w, v128_t (&acc)[MR][2]) {
  const int16_t* rows[MR];
  for (size_t i = 0; i < MR; ++i) rows[i] = a + i * kp;
  for (size_t k = 0; k < kp; k += kKr, w += kNr * kKr) {
    const v128_t b = wasm_v128_load(w);
    const v128_t b0 = wasm_i16x8_extend_low_i8x16(b);
    const v128_t b1 = wasm_i16x8_extend_high_i8x16(b);
    for (size_t i = 0; i < MR; ++i) {
      const v128_t av = wasm_v128_load32_splat(rows[i] + k);
      acc[i][0] = wasm_i32x4_add(acc[i][0], wasm_i32x4_dot_i16x8(av, b0));
      acc[i][1] = wasm_i32x4_add(acc[i][1], wasm_i32x4_dot_i16x8(av, b1));
    }
  }
}

template <size_t MR>
void qs8_tile(size_t nr, size_t kp, const int16_t* a, const void* panel, int8_t* c,
              size_t c_stride, const Qs8RequantParams* params) {
  const Panel p(panel, kp);
  v128_t acc[MR][2];
  const v128_t h0 = wasm_v128_load(p.head);
  const v128_t h1 = wasm_v128_load(p.head + 4);
  for (size_t i = 0; i < MR; ++i) {
    acc[i][0] = h0;
    acc[i][1] = h1;
  }
  accumulate<MR>(kp, a, p.w, acc);

  const v128_t s0 = wasm_v128_load(p.tail);
  const v128_t s1 = wasm_v128_load(p.tail + 4);
  const v128_t low = wasm_f32x4_splat(static_cast<float>(params->min - params->zero));
  const v128_t high = wasm_f32x4_splat(static_cast<float>(params->max - params->zero));
  const v128_t zero = wasm_i32x4_splat(params->zero);
  for (size_t i = 0; i < MR; ++i) {
    // Scale, clamp (bounds less the zero point: integers, so clamping before
    // rounding is the same), round half to even (f32x4.nearest, then an
    // exact conversion), add the zero point; the narrowings only narrow.
    v128_t f0 = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc[i][0]), s0);
    v128_t f1 = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc[i][1]), s1);
    f0 = wasm_f32x4_pmin(wasm_f32x4_pmax(f0, low), high);
    f1 = wasm_f32x4_pmin(wasm_f32x4_pmax(f1, low), high);
    const v128_t q0 = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(f0)), zero);
    const v128_t q1 = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(f1)), zero);
    const v128_t w16 = wasm_i16x8_narrow_i32x4(q0, q1);
    const v128_t bytes = wasm_i8x16_narrow_i16x8(w16, w16);
    int8_t* dst = c + i * c_stride;
    if (nr == kNr) {
      wasm_v128_store64_lane(dst, bytes, 0);
    } else {
      int8_t buf[16];
      wasm_v128_store(buf, bytes);
      std::memcpy(dst, buf, nr);
    }
  }
}

template <size_t MR>
void qd8_tile(size_t nr, size_t kp, const int16_t* a, const void* panel, float* c,
              size_t c_stride, const int32_t* row_zero, const float* row_scale,
              const Qd8F32Params* params) {
  const Panel p(panel, kp);
  v128_t acc[MR][2];
  const v128_t cs0 = wasm_v128_load(p.head);
  const v128_t cs1 = wasm_v128_load(p.head + 4);
  for (size_t i = 0; i < MR; ++i) {
    // The zero point's share, -zero * colsum, modulo 2^32.
    const v128_t nz = wasm_i32x4_splat(-row_zero[i]);
    acc[i][0] = wasm_i32x4_mul(cs0, nz);
    acc[i][1] = wasm_i32x4_mul(cs1, nz);
  }
  accumulate<MR>(kp, a, p.w, acc);

  const v128_t ws[2] = {wasm_v128_load(p.tail), wasm_v128_load(p.tail + 4)};
  const v128_t bs[2] = {wasm_v128_load(p.tail + kNr), wasm_v128_load(p.tail + kNr + 4)};
  const v128_t low = wasm_f32x4_splat(params->min);
  const v128_t high = wasm_f32x4_splat(params->max);
  for (size_t i = 0; i < MR; ++i) {
    const v128_t rs = wasm_f32x4_splat(row_scale[i]);
    float out[kNr];
    for (size_t v = 0; v < 2; ++v) {
      // float(acc) * row scale * weight scale + bias: four roundings, the
      // tester's bound (SIMD128 has no FMA to save one).
      v128_t f = wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc[i][v]), rs), ws[v]);
      f = wasm_f32x4_add(f, bs[v]);
      wasm_v128_store(out + 4 * v, wasm_f32x4_pmin(wasm_f32x4_pmax(f, low), high));
    }
    std::memcpy(c + i * c_stride, out, nr * sizeof(float));
  }
}

void qs8_ukernel(size_t mr, size_t nr, size_t kp, const void* a, const void* panel, int8_t* c,
                 size_t c_stride, const Qs8RequantParams* params) {
  const auto* as = static_cast<const int16_t*>(a);
  switch (mr) {
    case 4: return qs8_tile<4>(nr, kp, as, panel, c, c_stride, params);
    case 3: return qs8_tile<3>(nr, kp, as, panel, c, c_stride, params);
    case 2: return qs8_tile<2>(nr, kp, as, panel, c, c_stride, params);
    default: return qs8_tile<1>(nr, kp, as, panel, c, c_stride, params);
  }
}

void qd8_ukernel(size_t mr, size_t nr, size_t kp, const void* a, const void* panel, float* c,
                 size_t c_stride, const int32_t* row_zero, const float* row_scale,
                 const Qd8F32Params* params) {
  const auto* as = static_cast<const int16_t*>(a);
  switch (mr) {
    case 4: return qd8_tile<4>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params);
    case 3: return qd8_tile<3>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params);
    case 2: return qd8_tile<2>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params);
    default: return qd8_tile<1>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params);
  }
}

}  // namespace

extern const Qs8GemmConfig kQs8GemmWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd, kMr, kNr, kKr, Qs8AFormat::S16, /*a_shift=*/0,
    qs8_ukernel, qd8_ukernel,
};

}  // namespace ember::kernels::optimized
