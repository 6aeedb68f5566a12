// f32 GEMM microkernels for WebAssembly SIMD128 (4x8 tile, "loadsplat":
// tile_body.h at 4 lanes with this file's k loop):
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
#include "kernels/optimized/f32-gemm/tile_body.h"

namespace ember::kernels::optimized {
namespace {

using wasm::load;
using wasm::madd;
using wasm::splat;
using wasm::store;
using W = wasm::Vec;

constexpr size_t kMr = 4;
constexpr size_t kNr = 8;

// The k loop: per k, A's MR values (splats) times one 8-wide row of the
// panel.
struct SplatKLoop {
  template <size_t MR>
  __attribute__((always_inline)) static const float* run(const float* const* a_rows,
                                                         size_t kc, const float* w,
                                                         v128_t* acc0, v128_t* acc1) {
#pragma clang loop unroll(disable)  // see the top of the file
    for (size_t k = 0; k < kc; ++k, w += kNr) {
      const v128_t b0 = load(w);
      const v128_t b1 = load(w + 4);
      for (size_t i = 0; i < MR; ++i) {
        const v128_t av = wasm_v128_load32_splat(a_rows[i] + k);
        acc0[i] = madd(av, b0, acc0[i]);
        acc1[i] = madd(av, b1, acc1[i]);
      }
    }
    return w;
  }
};

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
    "wasmsimd", kCpuWasmSimd, looped_ukernel<W, SplatKLoop, kMr>, kMr, kNr, /*kc=*/256,
    /*nc=*/128, gemv, looped_igemm<W, SplatKLoop, kMr>,
};

}  // namespace ember::kernels::optimized
