// f32 GEMM microkernels for WebAssembly SIMD128 (4x8 tile, "loadsplat"):
// per k, two vectors of the B panel and each A value loaded as a splat
// (v128.load32_splat: one vbroadcastss on x86), 8 accumulators. SIMD128 has
// no FMA: a multiply and an add per product.
//
// The tile is sized for V8 on x86-64, which maps the vectors to 16 XMM
// registers and keeps one as scratch: 8 sums, 2 B vectors, the splat and the
// product fit. A 6x8 tile (12 sums), or a k loop unrolled by two (the
// compiler then loads the second B row early: 4 B vectors live), spills in
// the hot loop. On a Zen 5 under Node 20 (ember_gemm_bench --packed): 6x8
// 35-38 GFLOP/s, this tile 52-64, against ~69 that the core's two multiply
// and two add pipes allow at 4 lanes. The loop runs at the front end's limit
// (31 instructions for 16 vector flops), so where V8 places it moves the rate
// within that range.
#include <wasm_simd128.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/simd/wasm_math.h"

namespace ember::kernels::optimized {
namespace {

using wasm::clamp;
using wasm::load;
using wasm::madd;
using wasm::splat;
using wasm::store;

constexpr size_t kMr = 4;
constexpr size_t kNr = 8;

// Self's 8 values of one row, read through its column stride.
inline void load_self_row(const float* self, ptrdiff_t col_stride, v128_t* s0, v128_t* s1) {
  if (col_stride == 1) {
    *s0 = load(self);
    *s1 = load(self + 4);
  } else if (col_stride == 0) {
    *s0 = wasm_v128_load32_splat(self);
    *s1 = *s0;
  } else {
    float row[kNr];
    for (size_t j = 0; j < kNr; ++j) row[j] = self[static_cast<ptrdiff_t>(j) * col_stride];
    *s0 = load(row);
    *s1 = load(row + 4);
  }
}

// Writes an MR x 8 tile of sums (nr columns of it) to C as `flags` say.
template <size_t MR>
__attribute__((always_inline)) inline void store_tile(const v128_t* acc0, const v128_t* acc1,
                                                      size_t nr, float* c, size_t c_stride,
                                                      uint32_t flags,
                                                      const F32GemmEpilogue* epilogue) {
  if (nr != kNr) {
    // N tail: the sums go through memory to the plain epilogue, which writes
    // only nr columns.
    float sums[MR][kNr];
    for (size_t i = 0; i < MR; ++i) {
      store(sums[i], acc0[i]);
      store(sums[i] + 4, acc1[i]);
    }
    f32_gemm_store_tile(MR, nr, &sums[0][0], kNr, c, c_stride, flags, epilogue);
    return;
  }
  const bool final_block = (flags & kF32GemmFinal) != 0;
  const bool scale = final_block && epilogue->alpha != 1.0f;
  const bool add_self = final_block && epilogue->beta != 0.0f;
  const v128_t alpha = splat(final_block ? epilogue->alpha : 1.0f);
  const v128_t beta = splat(add_self ? epilogue->beta : 0.0f);
  const bool clamped = final_block && (epilogue->clamp_min != -__builtin_inff() ||
                                       epilogue->clamp_max != __builtin_inff());
  const v128_t low = splat(final_block ? epilogue->clamp_min : 0.0f);
  const v128_t high = splat(final_block ? epilogue->clamp_max : 0.0f);
  for (size_t i = 0; i < MR; ++i) {
    float* c_row = c + i * c_stride;
    v128_t v0 = acc0[i];
    v128_t v1 = acc1[i];
    if (flags & kF32GemmAccumulate) {
      v0 = wasm_f32x4_add(v0, load(c_row));
      v1 = wasm_f32x4_add(v1, load(c_row + 4));
    }
    if (scale) {
      v0 = wasm_f32x4_mul(alpha, v0);
      v1 = wasm_f32x4_mul(alpha, v1);
    }
    if (add_self) {
      v128_t s0, s1;
      load_self_row(epilogue->self + static_cast<ptrdiff_t>(i) * epilogue->self_row_stride,
                    epilogue->self_col_stride, &s0, &s1);
      v0 = madd(beta, s0, v0);
      v1 = madd(beta, s1, v1);
    }
    if (clamped) {
      v0 = clamp(v0, low, high);
      v1 = clamp(v1, low, high);
    }
    store(c_row, v0);
    store(c_row + 4, v1);
  }
}

// acc += A's MR values at column k (splats) times one 8-wide row of the panel.
template <size_t MR>
__attribute__((always_inline)) inline void k_step(const float* const* a_rows, size_t k,
                                                  const float* w, v128_t* acc0, v128_t* acc1) {
  const v128_t b0 = load(w);
  const v128_t b1 = load(w + 4);
  for (size_t i = 0; i < MR; ++i) {
    const v128_t av = wasm_v128_load32_splat(a_rows[i] + k);
    acc0[i] = madd(av, b0, acc0[i]);
    acc1[i] = madd(av, b1, acc1[i]);
  }
}

template <size_t MR>
void tile(size_t nr, size_t kc, const float* a, size_t a_stride, const float* w, float* c,
          size_t c_stride, uint32_t flags, const F32GemmEpilogue* epilogue) {
  const float* a_rows[MR];
  for (size_t i = 0; i < MR; ++i) a_rows[i] = a + i * a_stride;
  v128_t acc0[MR];
  v128_t acc1[MR];
  for (size_t i = 0; i < MR; ++i) {
    acc0[i] = splat(0.0f);
    acc1[i] = splat(0.0f);
  }
#pragma clang loop unroll(disable)  // see the top of the file
  for (size_t k = 0; k < kc; ++k, w += kNr) k_step<MR>(a_rows, k, w, acc0, acc1);
  store_tile<MR>(acc0, acc1, nr, c, c_stride, flags, epilogue);
}

void ukernel_4x8(size_t mr, size_t nr, size_t kc, const float* a, size_t a_stride,
                 const float* w, float* c, size_t c_stride, uint32_t flags,
                 const F32GemmEpilogue* epilogue) {
  switch (mr) {
    case 4: return tile<4>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 3: return tile<3>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 2: return tile<2>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    default: return tile<1>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
  }
}

// Indirect tile: as tile<MR>, A's rows read through ks pointers each (one
// per tap), kc floats per pointer, the sums written once (no K blocks).
template <size_t MR>
void itile(size_t nr, size_t kc, size_t ks, const float* const* a, size_t mr_stride,
           size_t a_offset, const float* zero, const float* w, float* c, size_t c_stride,
           const F32GemmEpilogue* epilogue) {
  v128_t acc0[MR];
  v128_t acc1[MR];
  for (size_t i = 0; i < MR; ++i) {
    acc0[i] = splat(0.0f);
    acc1[i] = splat(0.0f);
  }
  for (size_t p = 0; p < ks; ++p) {
    const float* a_rows[MR];
    for (size_t i = 0; i < MR; ++i) {
      a_rows[i] = a[i] != zero ? reinterpret_cast<const float*>(
                                     reinterpret_cast<uintptr_t>(a[i]) + a_offset)
                               : zero;
    }
    a += mr_stride;
#pragma clang loop unroll(disable)  // see the top of the file
    for (size_t k = 0; k < kc; ++k, w += kNr) k_step<MR>(a_rows, k, w, acc0, acc1);
  }
  store_tile<MR>(acc0, acc1, nr, c, c_stride, kF32GemmFinal, epilogue);
}

void igemm_4x8(size_t mr, size_t nr, size_t kc, size_t ks, const float* const* a,
               size_t mr_stride, size_t a_offset, const float* zero, const float* w, float* c,
               size_t c_stride, const F32GemmEpilogue* epilogue) {
  switch (mr) {
    case 4: return itile<4>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 3: return itile<3>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 2: return itile<2>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    default: return itile<1>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
  }
}

// GEMV: R rows' sums over a block of columns stay on the stack (8 KiB, in
// L1) while B is read four rows at a time in memory order; A's four values
// per row are splat from memory.
constexpr size_t kGemvSums = 2048;

template <size_t R>
void gemv_rows(size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
               float* c, size_t ldc, const F32GemmEpilogue* epilogue) {
  constexpr size_t kBlock = kGemvSums / R / 4 * 4;
  float sums[R][kBlock];
  for (size_t j0 = 0; j0 < n; j0 += kBlock) {
    const size_t nb = n - j0 < kBlock ? n - j0 : kBlock;
    const size_t nv = nb / 4 * 4;
    for (size_t r = 0; r < R; ++r) {
      for (size_t j = 0; j < nb; ++j) sums[r][j] = 0.0f;
    }
    const float* bj = b + j0;
    size_t p = 0;
    for (; p + 4 <= k; p += 4) {
      const float* b0 = bj + p * ldb;
      const float* b1 = b0 + ldb;
      const float* b2 = b1 + ldb;
      const float* b3 = b2 + ldb;
      for (size_t r = 0; r < R; ++r) {
        const float* ar = a + r * lda + p;
        const v128_t a0 = wasm_v128_load32_splat(ar);
        const v128_t a1 = wasm_v128_load32_splat(ar + 1);
        const v128_t a2 = wasm_v128_load32_splat(ar + 2);
        const v128_t a3 = wasm_v128_load32_splat(ar + 3);
        for (size_t j = 0; j < nv; j += 4) {
          v128_t s = load(sums[r] + j);
          s = madd(load(b0 + j), a0, s);
          s = madd(load(b1 + j), a1, s);
          s = madd(load(b2 + j), a2, s);
          s = madd(load(b3 + j), a3, s);
          store(sums[r] + j, s);
        }
        for (size_t j = nv; j < nb; ++j) {
          sums[r][j] += ar[0] * b0[j] + ar[1] * b1[j] + ar[2] * b2[j] + ar[3] * b3[j];
        }
      }
    }
    for (; p < k; ++p) {
      const float* b0 = bj + p * ldb;
      for (size_t r = 0; r < R; ++r) {
        const float ar = a[r * lda + p];
        const v128_t a0 = splat(ar);
        for (size_t j = 0; j < nv; j += 4) {
          store(sums[r] + j, madd(a0, load(b0 + j), load(sums[r] + j)));
        }
        for (size_t j = nv; j < nb; ++j) sums[r][j] += ar * b0[j];
      }
    }
    F32GemmEpilogue e = *epilogue;
    if (e.beta != 0.0f) e.self += static_cast<ptrdiff_t>(j0) * e.self_col_stride;
    f32_gemm_store_tile(R, nb, &sums[0][0], kBlock, c + j0, ldc, kF32GemmFinal, &e);
  }
}

void gemv(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
          float* c, size_t ldc, const F32GemmEpilogue* epilogue) {
  switch (m) {
    case 1: return gemv_rows<1>(n, k, a, lda, b, ldb, c, ldc, epilogue);
    case 2: return gemv_rows<2>(n, k, a, lda, b, ldb, c, ldc, epilogue);
    case 3: return gemv_rows<3>(n, k, a, lda, b, ldb, c, ldc, epilogue);
    default: return gemv_rows<4>(n, k, a, lda, b, ldb, c, ldc, epilogue);
  }
}

}  // namespace

// kc = 256 makes a micro-panel 8 KiB and A's slice 6 KiB (L1); nc = 128
// makes the packed B block 128 KiB (L2).
extern const F32GemmConfig kF32GemmWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd, ukernel_4x8, kMr, kNr, /*kc=*/256, /*nc=*/128, gemv, igemm_4x8,
};

}  // namespace ember::kernels::optimized
