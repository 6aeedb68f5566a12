// The int8 GEMM driver's tiling, for the other GEMM families that gather A
// as qs8-gemm does (qd8-f32-qb4w-gemm): A's rows gathered per row tile into a
// variant's operand format, tiles split over the thread pool, a callback per
// tile and panel. For drivers only (compiled without ISA flags): it includes
// FunctionRef, whose inline code a variant file must not carry.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/qs8-gemm/qs8_gemm.h"
#include "runtime/core/function_ref.h"

namespace ember::kernels::optimized {

// What the tiling needs of a variant: its tile, its k-group and how it wants
// A's values (qs8_gemm.h).
struct Qs8Tiling {
  uint32_t mr;
  uint32_t nr;
  uint32_t kr;
  Qs8AFormat a_format;
  Qs8PackAFn pack_a = nullptr;  // the variant's own gather, if it has one
  uint32_t kpad = 0;            // K's padding per tap; 0: kr
};

Qs8Tiling qs8_gemm_tiling(const Qs8GemmConfig& config);
// Whether a K of ks taps of kc fits the tiling (kQs8GemmMaxK, the A buffer).
bool qs8_tiling_supports(const Qs8Tiling& tiling, size_t ks, size_t kc);

// tile(mr, nr, a, panel, i, j): the mr x nr tile of C at (i, j), from the
// tile's rows of A gathered at `a` (mr rows of round_up(k, kr) values) and
// the packed panel of columns [j, j + nr) at `panel`.
using Qs8TileFn = FunctionRef<void(size_t mr, size_t nr, const void* a, const uint8_t* panel,
                                   size_t i, size_t j)>;

// Calls `tile` for every tile of an m x n product with A [m, k] (rows lda
// apart) and ceil(n / nr) packed panels of panel_bytes each, split over
// ctx's thread pool (ctx may be null). Allocates nothing. The caller checks
// qs8_tiling_supports first.
// The float-output drivers' row hook over a finished mr x nr tile of C.
inline void apply_to_tile(const F32RowActivation& activation, size_t mr, size_t nr, float* c,
                          size_t ldc) {
  if (activation.fn == nullptr) return;
  for (size_t r = 0; r < mr; ++r) activation.fn(nr, c + r * ldc, activation.params);
}

void qs8_gemm_tiles(const Qs8Tiling& tiling, size_t m, size_t n, size_t k, const int8_t* a,
                    size_t lda, size_t panel_bytes, const void* packed_w, KernelContext* ctx,
                    Qs8TileFn tile);

}  // namespace ember::kernels::optimized
