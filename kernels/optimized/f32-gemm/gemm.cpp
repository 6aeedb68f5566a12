// The f32 GEMM driver: variant selection, packing, cache blocking and the
// split over the thread pool. Compiled without ISA flags; only the
// microkernels it calls through F32GemmConfig use AVX2 or NEON.
//
// Loop order, per task (a range of (batch, N block, M chunk) tiles):
//   for each K block of kc:          pack B's kc x nc block into nr-wide panels
//     for each row tile of mr rows:  (in L2), reused by every row tile; copy
//       for each panel of nr:        the tile's mr x kc slice of A into
//         microkernel                contiguous rows (in L1), reused by every
//                                    panel of the block.
// This is Goto's loop nest with the roles of the caches turned round: the B
// block (128 KiB on AVX2) is what L2 holds, A's micro-slice what L1 holds, so
// no MC block of A is kept in L2 (BLIS's zen3 MC = 144 plays the part our nc
// plays). The order needs two bounded buffers per task and nothing else.
//
// Memory: the buffers live on the task's stack (136 KiB at most, whatever
// the problem). The heap is never touched, and temp memory from the caller
// (ctx.allocate_temp, which Method does not size for kernels today) is only
// an optimisation: B packed once for all threads when they split M. A path
// that reads B unpacked is kept for m <= 8 only (GEMV, 4 rows per pass),
// where it is the fast one: a packed panel would serve too few rows, so B is
// streamed in memory order instead.
#include <cstdint>
#include <cstring>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "runtime/kernel/kernel_context.h"

namespace ember::kernels::optimized {

// Defined by the variant files CMake compiles for this architecture.
extern const F32GemmConfig kF32GemmScalarConfig;
#if defined(__x86_64__)
extern const F32GemmConfig kF32GemmAvx512Config;
extern const F32GemmConfig kF32GemmAvx2Config;
#endif
#if defined(__aarch64__)
extern const F32GemmConfig kF32GemmNeonConfig;
#endif
#if defined(__wasm_simd128__)
extern const F32GemmConfig kF32GemmWasmSimdConfig;
#endif

namespace {

const F32GemmConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kF32GemmAvx512Config,
    &kF32GemmAvx2Config,
#endif
#if defined(__aarch64__)
    &kF32GemmNeonConfig,
#endif
#if defined(__wasm_simd128__)
    &kF32GemmWasmSimdConfig,
#endif
    &kF32GemmScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

// Below this many flops (2 m n k) a problem stays on the calling thread: waking
// a worker costs microseconds, as much as the whole product.
constexpr size_t kMinParallelFlops = size_t{1} << 20;

// Up to this many rows B is streamed (kF32GemvMaxRows rows per pass) rather
// than packed: a packed panel would serve one or two row tiles only, and
// packing, which does not overlap the arithmetic, would cost as much as them.
constexpr size_t kGemvMaxM = 8;

// Weights packed once are read in K blocks of up to this many rows.
constexpr size_t kPackedWeightsMaxKc = 1024;

// Packed weights up to this size are one N block when threads share the
// work and there are row tiles enough: each thread then takes its own rows
// across all of B rather than its own columns of every row (see f32_gemm).
// At 1 MiB, ResNet-50's 196x1024x256 layers ran 1.45x faster at 2 threads
// than at 1, with each thread reading all of B; split by columns, ResNet-50
// at 2 threads took 4% less time and ViT (384x384 weights) 3% less.
constexpr size_t kRowSplitMaxWeightBytes = size_t{512} << 10;

// Up to this many panels per block a row tile reads A where it lies.
constexpr size_t kMaxPanelsReadingAInPlace = 2;

size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
size_t round_up(size_t a, size_t b) { return ceil_div(a, b) * b; }
size_t min_of(size_t a, size_t b) { return a < b ? a : b; }

// Brings the packed weights a task reads next into L2 while it computes on the
// current ones, a few lines per microkernel call: a layer's weights come from
// DRAM, and in a small-M problem (the 7x7 layers of a ResNet) the first row
// tile over a block would otherwise wait on every line of it, the hardware
// prefetcher fetching only as fast as that tile consumes.
struct WeightPrefetch {
  const char* next = nullptr;      // in the current range
  const char* range_end = nullptr;
  size_t range_bytes = 0;
  size_t ranges_left = 0;          // after the current one
  size_t range_stride = 0;         // bytes from one range's start to the next
  size_t bytes_per_step = 0;

  // `ranges` runs of `floats`, `stride` floats apart from `first` (a block's
  // panels), spread over `steps` microkernel calls.
  void start(const float* first, size_t floats, size_t ranges, size_t stride, size_t steps) {
    if (first == nullptr || floats == 0 || ranges == 0) return;
    next = reinterpret_cast<const char*>(first);
    range_bytes = floats * sizeof(float);
    range_end = next + range_bytes;
    ranges_left = ranges - 1;
    range_stride = stride * sizeof(float);
    const size_t lines = ranges * ((range_bytes + 63) / 64);
    bytes_per_step = (steps > 0 ? (lines + steps - 1) / steps : lines) * 64;
  }
  // The next call's slice, in its epilogue (the microkernel issues it); a
  // slice ends where a range does.
  void slice(F32GemmEpilogue* ep) {
    if (next == range_end && ranges_left > 0) {
      next = range_end - range_bytes + range_stride;
      range_end = next + range_bytes;
      --ranges_left;
    }
    ep->prefetch = next;
    next = static_cast<size_t>(range_end - next) > bytes_per_step ? next + bytes_per_step
                                                                  : range_end;
    ep->prefetch_end = next;
  }
};

// The packed weights a task reads after the block it is on: the first panel
// of its next (batch, N block) and how many panels that has; none when the
// task ends there or the weights are not packed once.
struct NextBlock {
  const float* panel0 = nullptr;
  size_t panels = 0;
};

// How a problem is cut up; the same for every task.
struct Plan {
  size_t kc = 0;        // K block (balanced: blocks differ by at most one)
  size_t k_blocks = 0;
  size_t nc = 0;        // N block, a multiple of nr
  size_t n_blocks = 0;
  size_t m_tiles = 0;   // row tiles of mr rows
  size_t m_chunks = 1;  // row-tile ranges per (batch, N block): tiles of the split
  // B of every batch packed once into temp memory (ceil(n / nr) panels of
  // k x nr each per batch), or null: each task packs its own blocks.
  const float* prepacked = nullptr;
  size_t prepacked_panel_stride = 0;
  size_t prepacked_batch_stride = 0;

  size_t num_tiles(size_t batch) const { return batch * n_blocks * m_chunks; }
};

// Rows [begin, end) of one (batch, N block): all of its K blocks.
void run_block(const F32GemmConfig& cfg, const F32GemmProblem& p, const Plan& plan, size_t bi,
               size_t jb, size_t row_begin, size_t row_end, float* pack, float* a_pack,
               const NextBlock& next_block) {
  const size_t mr = cfg.mr;
  const size_t nr = cfg.nr;
  const size_t j0 = jb * plan.nc;
  const size_t n_cur = min_of(plan.nc, p.n - j0);
  const size_t panels = ceil_div(n_cur, nr);
  const float* a = p.a + bi * p.a_batch_stride;
  const float* b = p.b + bi * p.b_batch_stride;
  float* c = p.c + bi * p.c_batch_stride;
  F32GemmEpilogue ep{p.alpha, p.beta, nullptr, p.self_row_stride, p.self_col_stride,
                     p.clamp_min, p.clamp_max};
  const float* self = p.beta != 0.0f ? p.self + static_cast<ptrdiff_t>(bi) * p.self_batch_stride
                                     : nullptr;

  for (size_t kb = 0; kb < plan.k_blocks; ++kb) {
    const size_t k0 = kb * plan.kc;
    const size_t kc = min_of(plan.kc, p.k - k0);
    const uint32_t flags = (kb > 0 ? kF32GemmAccumulate : 0u) |
                           (kb + 1 == plan.k_blocks ? kF32GemmFinal : 0u);
    // Where panel q of this block starts.
    const float* panel0 = nullptr;
    size_t panel_stride = 0;
    if (plan.prepacked != nullptr) {
      panel0 = plan.prepacked + bi * plan.prepacked_batch_stride +
               (j0 / nr) * plan.prepacked_panel_stride + k0 * nr;
      panel_stride = plan.prepacked_panel_stride;
    } else {
      f32_gemm_pack_b(kc, n_cur, nr, b + k0 * p.ldb + j0, p.ldb, pack, kc * nr);
      panel0 = pack;
      panel_stride = kc * nr;
    }

    // Each tile's A slice (mr_cur x kc) is copied into contiguous rows, which
    // then stay in L1 for all of the block's panels: read in place, A's rows
    // are mr short runs far apart, which the hardware prefetcher does not
    // follow, and the copy reads them with many misses in flight. Not copied
    // when the tile's rows are whole rows of a dense A (one K block, lda ==
    // k: the tile is one contiguous run, which the prefetcher follows), for
    // one or two panels (a projection conv's N of 16 or 24: the copy would be
    // read as often as written), nor when it would not fit the buffer.
    const bool contiguous = plan.k_blocks == 1 && p.lda == p.k;
    const bool copy_a = !contiguous && panels > kMaxPanelsReadingAInPlace &&
                        mr * kc <= kF32GemmMaxAPackFloats;

    // Row tiles of equal height (differing by at most one row) rather than
    // full ones and a remainder: a tile of 1 to 3 rows has too few
    // accumulators to hide the FMA latency (49 rows: 4x6 + 5x5 rather than
    // 8x6 + 1, about 6% less time).
    const size_t rows = row_end - row_begin;
    const size_t tiles = ceil_div(rows, mr);
    // Packed weights: while on this K block, fetch the next one of the same
    // panels, or, on the last, the first K block of the task's next N block.
    WeightPrefetch ahead;
    if (plan.prepacked != nullptr) {
      const size_t stride = plan.prepacked_panel_stride;
      if (kb + 1 < plan.k_blocks) {
        ahead.start(panel0 + kc * nr, min_of(plan.kc, p.k - k0 - kc) * nr, panels, stride,
                    tiles * panels);
      } else {
        ahead.start(next_block.panel0, min_of(plan.kc, p.k) * nr, next_block.panels, stride,
                    tiles * panels);
      }
    }
    // With no weights to fetch, the last K block fetches what the row hook
    // will read after the next tile (its residual), while this one computes.
    const bool read_ahead = ahead.next == nullptr && (flags & kF32GemmFinal) != 0 &&
                            p.activation.fn != nullptr && p.activation.read_ahead != nullptr;
    for (size_t t = 0; t < tiles; ++t) {
      const size_t i = row_begin + t * rows / tiles;
      const size_t mr_cur = row_begin + (t + 1) * rows / tiles - i;
      const size_t next_i = i + mr_cur;
      const size_t next_mr = t + 1 < tiles ? row_begin + (t + 2) * rows / tiles - next_i : 0;
      if (read_ahead) {
        ahead = WeightPrefetch();
        ahead.start(p.activation.read_ahead + (c + next_i * p.ldc + j0 - p.activation.origin),
                    n_cur, next_mr, p.ldc, panels);
      }
      const float* a_tile = a + i * p.lda + k0;
      size_t a_stride = p.lda;
      if (copy_a) {
        for (size_t r = 0; r < mr_cur; ++r) {
          std::memcpy(a_pack + r * kc, a + (i + r) * p.lda + k0, kc * sizeof(float));
        }
        a_tile = a_pack;
        a_stride = kc;
      }
      float* c_row = c + i * p.ldc;
      for (size_t q = 0; q < panels; ++q) {
        const size_t j = j0 + q * nr;
        const size_t nr_cur = min_of(nr, p.n - j);
        const float* w = panel0 + q * panel_stride;
        // While panel q runs, fetch row q of the next tile's A slice, so the
        // copy at the start of that tile does not wait on memory.
        if (copy_a && q < next_mr) {
          const char* next = reinterpret_cast<const char*>(a + (next_i + q) * p.lda + k0);
          for (size_t off = 0; off < kc * sizeof(float); off += 64) __builtin_prefetch(next + off);
        }
        if (self != nullptr) {
          ep.self = self + static_cast<ptrdiff_t>(i) * p.self_row_stride +
                    static_cast<ptrdiff_t>(j) * p.self_col_stride;
        }
        ahead.slice(&ep);
        cfg.ukernel(mr_cur, nr_cur, kc, a_tile, a_stride, w, c_row + j, p.ldc, flags, &ep);
      }
      if (p.activation.fn != nullptr && (flags & kF32GemmFinal) != 0) {
        if (n_cur == p.ldc) {
          // Whole rows, one after another: one call for the tile.
          p.activation.fn(mr_cur * n_cur, c_row, p.activation.params);
        } else {
          for (size_t r = 0; r < mr_cur; ++r) {
            p.activation.fn(n_cur, c_row + r * p.ldc + j0, p.activation.params);
          }
        }
      }
    }
  }
}

// Tiles [begin, end), tile t = ((batch * n_blocks) + N block) * m_chunks + M
// chunk: consecutive tiles of one (batch, N block) merge into one row range,
// so its B blocks are packed once per task.
void run_tiles(const F32GemmConfig& cfg, const F32GemmProblem& p, const Plan& plan, size_t begin,
               size_t end) {
  // The task's packing buffer, on its stack: bounded (128 KiB) whatever the
  // problem, and never from the heap. Left uninitialized; only the part a
  // block packs is read.
  alignas(64) float pack[kF32GemmMaxPackFloats];
  alignas(64) float a_pack[kF32GemmMaxAPackFloats];
  size_t t = begin;
  while (t < end) {
    const size_t per_batch = plan.n_blocks * plan.m_chunks;
    const size_t bi = t / per_batch;
    const size_t jb = (t % per_batch) / plan.m_chunks;
    const size_t mc0 = t % plan.m_chunks;
    const size_t mc1 = min_of(plan.m_chunks, mc0 + (end - t));
    t += mc1 - mc0;
    const size_t rt0 = mc0 * plan.m_tiles / plan.m_chunks;
    const size_t rt1 = mc1 * plan.m_tiles / plan.m_chunks;
    const size_t row_begin = rt0 * cfg.mr;
    const size_t row_end = min_of(rt1 * cfg.mr, p.m);
    NextBlock next_block;
    if (plan.prepacked != nullptr && t < end) {
      const size_t next_bi = t / per_batch;
      const size_t next_jb = (t % per_batch) / plan.m_chunks;
      if (next_bi != bi || next_jb != jb) {
        const size_t next_j0 = next_jb * plan.nc;
        next_block.panel0 = plan.prepacked + next_bi * plan.prepacked_batch_stride +
                            (next_j0 / cfg.nr) * plan.prepacked_panel_stride;
        next_block.panels = ceil_div(min_of(plan.nc, p.n - next_j0), cfg.nr);
      }
    }
    if (row_begin < row_end) run_block(cfg, p, plan, bi, jb, row_begin, row_end, pack, a_pack,
                                       next_block);
  }
}

// k == 0: the product is zero, C = alpha * 0 + beta * self.
void run_empty_k(const F32GemmProblem& p) {
  const float zero_row[1] = {0.0f};
  for (size_t bi = 0; bi < p.batch; ++bi) {
    F32GemmEpilogue ep{p.alpha, p.beta, nullptr, p.self_row_stride, p.self_col_stride,
                       p.clamp_min, p.clamp_max};
    for (size_t i = 0; i < p.m; ++i) {
      if (p.beta != 0.0f) {
        ep.self = p.self + static_cast<ptrdiff_t>(bi) * p.self_batch_stride +
                  static_cast<ptrdiff_t>(i) * p.self_row_stride;
      }
      float* c = p.c + bi * p.c_batch_stride + i * p.ldc;
      for (size_t j = 0; j < p.n; ++j) {
        F32GemmEpilogue e = ep;
        if (e.self != nullptr) e.self += static_cast<ptrdiff_t>(j) * p.self_col_stride;
        f32_gemm_store_tile(1, 1, zero_row, 1, c + j, 1, kF32GemmFinal, &e);
      }
      if (p.activation.fn != nullptr) p.activation.fn(p.n, c, p.activation.params);
    }
  }
}

// m <= kF32GemvMaxRows (a matrix-vector product, or a few, as in a linear
// layer at decode): too few row tiles to pay for packing a panel, so the GEMV
// microkernel streams B in memory order instead, once for all m rows.
// Threads split the columns (and batches).
void run_gemv(const F32GemmConfig& cfg, const F32GemmProblem& p, KernelContext* ctx,
              size_t threads) {
  // Column chunks: one per thread where there is one batch, 64-column
  // aligned so that the chunks' B rows start on cache lines together.
  size_t chunks = 1;
  if (threads > 1 && p.batch < threads) {
    chunks = min_of(threads, ceil_div(p.n, 64));
  }
  const size_t width = round_up(ceil_div(p.n, chunks), 64);
  chunks = ceil_div(p.n, width);
  auto run = [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      const size_t bi = t / chunks;
      const size_t j0 = (t % chunks) * width;
      F32GemmEpilogue ep{p.alpha, p.beta, nullptr, p.self_row_stride, p.self_col_stride,
                         p.clamp_min, p.clamp_max};
      if (p.beta != 0.0f) {
        ep.self = p.self + static_cast<ptrdiff_t>(bi) * p.self_batch_stride +
                  static_cast<ptrdiff_t>(j0) * p.self_col_stride;
      }
      for (size_t i = 0; i < p.m; i += kF32GemvMaxRows) {
        F32GemmEpilogue row_ep = ep;
        if (p.beta != 0.0f) row_ep.self += static_cast<ptrdiff_t>(i) * p.self_row_stride;
        const size_t rows = min_of(kF32GemvMaxRows, p.m - i);
        const size_t cols = min_of(width, p.n - j0);
        float* c = p.c + bi * p.c_batch_stride + i * p.ldc + j0;
        cfg.gemv(rows, cols, p.k, p.a + bi * p.a_batch_stride + i * p.lda, p.lda,
                 p.b + bi * p.b_batch_stride + j0, p.ldb, c, p.ldc, &row_ep);
        if (p.activation.fn != nullptr) {
          for (size_t r = 0; r < rows; ++r) p.activation.fn(cols, c + r * p.ldc, p.activation.params);
        }
      }
    }
  };
  const size_t tasks = p.batch * chunks;
  if (threads <= 1 || tasks <= 1) {
    run(0, tasks);
    return;
  }
  ctx->parallel_for(static_cast<int64_t>(tasks), 1, [&](int64_t begin, int64_t end) {
    run(static_cast<size_t>(begin), static_cast<size_t>(end));
  });
}

// f32_gemm_pack_b for panels NR wide (NR = 0: nr, known at run time only).
// Row by row, so that B is read in memory order (whole runs of nc floats) and
// the prefetcher keeps up; the writes go to panels in L1/L2.
template <size_t NR>
void pack_rows(size_t kc, size_t nc, const float* b, size_t ldb, float* packed,
               size_t panel_stride, size_t nr = NR) {
  const size_t width = NR != 0 ? NR : nr;
  const size_t full = nc / width;
  const size_t tail = nc - full * width;
  for (size_t k = 0; k < kc; ++k) {
    const float* src = b + k * ldb;
    float* dst = packed + k * width;
    for (size_t q = 0; q < full; ++q) {
      std::memcpy(dst + q * panel_stride, src + q * width, width * sizeof(float));
    }
    if (tail != 0) {
      float* d = dst + full * panel_stride;
      std::memcpy(d, src + full * width, tail * sizeof(float));
      std::memset(d + tail, 0, (width - tail) * sizeof(float));
    }
  }
}

}  // namespace

void f32_gemm_store_tile(size_t mr, size_t nr, const float* sums, size_t sums_stride, float* c,
                         size_t c_stride, uint32_t flags, const F32GemmEpilogue* epilogue) {
  for (size_t i = 0; i < mr; ++i) {
    const float* s = sums + i * sums_stride;
    float* c_row = c + i * c_stride;
    for (size_t j = 0; j < nr; ++j) {
      float v = s[j];
      if (flags & kF32GemmAccumulate) v += c_row[j];
      if (flags & kF32GemmFinal) {
        v = epilogue->alpha * v;
        if (epilogue->beta != 0.0f) {
          const float self = epilogue->self[static_cast<ptrdiff_t>(i) * epilogue->self_row_stride +
                                            static_cast<ptrdiff_t>(j) * epilogue->self_col_stride];
          v += epilogue->beta * self;
        }
        // Comparisons are false for NaN, which passes through.
        if (v < epilogue->clamp_min) v = epilogue->clamp_min;
        if (v > epilogue->clamp_max) v = epilogue->clamp_max;
      }
      c_row[j] = v;
    }
  }
}

void f32_gemm_pack_b(size_t kc, size_t nc, size_t nr, const float* b, size_t ldb, float* packed,
                     size_t panel_stride) {
  // The panel widths of the configs get copies of a constant size, which the
  // compiler inlines; a memcpy call per 64 bytes cost as much as the copy.
  switch (nr) {
    case 32: return pack_rows<32>(kc, nc, b, ldb, packed, panel_stride);
    case 16: return pack_rows<16>(kc, nc, b, ldb, packed, panel_stride);
    case 8: return pack_rows<8>(kc, nc, b, ldb, packed, panel_stride);
    default: return pack_rows<0>(kc, nc, b, ldb, packed, panel_stride, nr);
  }
}

size_t f32_gemm_packed_weights_size(const F32GemmConfig& config, size_t k, size_t n) {
  return ceil_div(n, config.nr) * config.nr * k;
}

void f32_gemm_pack_weights(const F32GemmConfig& config, size_t k, size_t n, const float* b,
                           size_t ldb, float* packed) {
  f32_gemm_pack_b(k, n, config.nr, b, ldb, packed, k * config.nr);
}

size_t f32_igemm_indirection_size(const F32GemmConfig& config, size_t m, size_t ks) {
  return ceil_div(m, config.mr) * config.mr * ks;
}

void f32_igemm_conv_indirection(const F32GemmConfig& config, const F32ConvShape& s,
                                const float* zero, const float** indirection) {
  const size_t mr = config.mr;
  const size_t taps = s.kh * s.kw;
  const size_t m = s.batch * s.out_h * s.out_w;
  const size_t size = f32_igemm_indirection_size(config, m, taps);
  for (size_t i = 0; i < size; ++i) indirection[i] = zero;
  for (size_t p = 0; p < m; ++p) {
    const size_t n = p / (s.out_h * s.out_w);
    const size_t oy = p / s.out_w % s.out_h;
    const size_t ox = p % s.out_w;
    const float** tile = indirection + (p / mr) * mr * taps + p % mr;
    for (size_t ky = 0; ky < s.kh; ++ky) {
      // Unsigned: a row or column in the top or left padding wraps round to
      // a huge value, which the bounds test rejects too.
      const size_t iy = oy * s.stride_h + ky * s.dil_h - s.pad_h;
      for (size_t kx = 0; kx < s.kw; ++kx) {
        const size_t ix = ox * s.stride_w + kx * s.dil_w - s.pad_w;
        if (iy < s.in_h && ix < s.in_w) {
          tile[(ky * s.kw + kx) * mr] = reinterpret_cast<const float*>(
              ((n * s.in_h + iy) * s.in_w + ix) * s.in_pixel_stride * sizeof(float));
        }
      }
    }
  }
}

void f32_igemm_deconv_indirection(const F32GemmConfig& config, const F32ConvShape& s,
                                  const float* zero, const float** indirection) {
  const size_t mr = config.mr;
  const size_t taps = s.kh * s.kw;
  const size_t m = s.batch * s.out_h * s.out_w;
  const size_t size = f32_igemm_indirection_size(config, m, taps);
  for (size_t i = 0; i < size; ++i) indirection[i] = zero;
  // The input coordinate output coordinate o reads at tap k, or SIZE_MAX.
  auto source = [](size_t o, size_t k, size_t pad, size_t dil, size_t stride, size_t in) {
    const size_t t = o + pad;
    if (t < k * dil) return ~size_t{0};
    const size_t scaled = t - k * dil;
    if (scaled % stride != 0 || scaled / stride >= in) return ~size_t{0};
    return scaled / stride;
  };
  for (size_t p = 0; p < m; ++p) {
    const size_t n = p / (s.out_h * s.out_w);
    const size_t oy = p / s.out_w % s.out_h;
    const size_t ox = p % s.out_w;
    const float** tile = indirection + (p / mr) * mr * taps + p % mr;
    for (size_t ky = 0; ky < s.kh; ++ky) {
      const size_t iy = source(oy, ky, s.pad_h, s.dil_h, s.stride_h, s.in_h);
      if (iy == ~size_t{0}) continue;
      for (size_t kx = 0; kx < s.kw; ++kx) {
        const size_t ix = source(ox, kx, s.pad_w, s.dil_w, s.stride_w, s.in_w);
        if (ix == ~size_t{0}) continue;
        tile[(ky * s.kw + kx) * mr] = reinterpret_cast<const float*>(
            ((n * s.in_h + iy) * s.in_w + ix) * s.in_pixel_stride * sizeof(float));
      }
    }
  }
}

void f32_igemm(const F32GemmConfig& cfg, const F32IgemmProblem& p, KernelContext* ctx) {
  if (p.m == 0 || p.n == 0) return;
  const size_t mr = cfg.mr;
  const size_t nr = cfg.nr;
  const size_t k = p.kc * p.ks;
  const size_t m_tiles = ceil_div(p.m, mr);
  const size_t panels = ceil_div(p.n, nr);
  // N blocks of panels whose weights (k * nr floats each) fit in half of a
  // 512 KiB L2 together: every row tile of a task then reads them from L2,
  // and a row tile's inputs, read once per panel, from L1.
  constexpr size_t kBlockFloats = 64 * 1024;
  const size_t per_block_max = k * nr >= kBlockFloats ? 1 : kBlockFloats / (k * nr);
  size_t n_blocks = ceil_div(panels, per_block_max);
  ThreadPool* pool = ctx != nullptr ? ctx->thread_pool() : nullptr;
  size_t threads = pool != nullptr ? pool->num_threads() : 1;
  const double flops = 2.0 * static_cast<double>(p.m) * static_cast<double>(p.n) *
                       static_cast<double>(k);
  if (flops < static_cast<double>(kMinParallelFlops)) threads = 1;
  // Rows split until the tasks divide evenly between the threads: static
  // chunking gives each thread a contiguous run of equal tasks.
  size_t m_chunks = 1;
  if (threads > 1) {
    // Too few row tiles to share: narrower N blocks instead.
    if (m_tiles < threads && n_blocks < threads) n_blocks = min_of(panels, threads);
    while (((n_blocks * m_chunks) % threads != 0 || n_blocks * m_chunks < threads) &&
           m_chunks < m_tiles) {
      ++m_chunks;
    }
  }
  const size_t per_block = ceil_div(panels, n_blocks);
  n_blocks = ceil_div(panels, per_block);
  F32GemmEpilogue ep{1.0f, p.bias != nullptr ? 1.0f : 0.0f, nullptr, 0, 1, p.clamp_min,
                     p.clamp_max};
  auto run = [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      const size_t nb = t / m_chunks;
      const size_t mc = t % m_chunks;
      const size_t q0 = nb * per_block;
      const size_t q1 = min_of(panels, q0 + per_block);
      const size_t rt0 = mc * m_tiles / m_chunks;
      const size_t rt1 = (mc + 1) * m_tiles / m_chunks;
      // The next task's panels, when it moves on to other ones (see
      // WeightPrefetch): they follow this task's in the packed weights.
      WeightPrefetch ahead;
      if (t + 1 < end && (t + 1) / m_chunks != nb && q1 < panels) {
        ahead.start(p.packed_b + q1 * k * nr, min_of(per_block, panels - q1) * k * nr, 1, 0,
                    (rt1 - rt0) * (q1 - q0));
      }
      for (size_t rt = rt0; rt < rt1; ++rt) {
        const size_t i = rt * mr;
        const size_t mr_cur = min_of(mr, p.m - i);
        const float* const* a = p.indirection + rt * mr * p.ks;
        for (size_t q = q0; q < q1; ++q) {
          const size_t j = q * nr;
          F32GemmEpilogue e = ep;
          if (p.bias != nullptr) e.self = p.bias + j;
          ahead.slice(&e);
          cfg.igemm(mr_cur, min_of(nr, p.n - j), p.kc, p.ks, a, mr, p.a_offset, p.zero,
                    p.packed_b + q * k * nr, p.c + i * p.ldc + j, p.ldc, &e);
        }
        if (p.activation.fn != nullptr && q0 < q1) {
          const size_t j0 = q0 * nr;
          const size_t cols = min_of(q1 * nr, p.n) - j0;
          if (cols == p.ldc) {
            p.activation.fn(mr_cur * cols, p.c + i * p.ldc, p.activation.params);
          } else {
            for (size_t r = 0; r < mr_cur; ++r) {
              p.activation.fn(cols, p.c + (i + r) * p.ldc + j0, p.activation.params);
            }
          }
        }
      }
    }
  };
  const size_t tasks = n_blocks * m_chunks;
  if (threads <= 1 || tasks <= 1) {
    run(0, tasks);
    return;
  }
  ctx->parallel_for(static_cast<int64_t>(tasks), 1, [&](int64_t begin, int64_t end) {
    run(static_cast<size_t>(begin), static_cast<size_t>(end));
  });
}

size_t f32_gemm_num_variants() { return kNumVariants; }

const F32GemmConfig& f32_gemm_variant(size_t index) { return *kVariants[index]; }

bool f32_gemm_variant_supported(const F32GemmConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const F32GemmConfig& f32_gemm_config() {
  static const F32GemmConfig* const chosen = [] {
    for (const F32GemmConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kF32GemmScalarConfig;
  }();
  return *chosen;
}

void f32_gemm(const F32GemmConfig& cfg, const F32GemmProblem& p, KernelContext* ctx) {
  if (p.batch == 0 || p.m == 0 || p.n == 0) return;
  if (p.k == 0) {
    run_empty_k(p);
    return;
  }
  const size_t mr = cfg.mr;
  const size_t nr = cfg.nr;
  ThreadPool* pool = ctx != nullptr ? ctx->thread_pool() : nullptr;
  const double flops = 2.0 * static_cast<double>(p.batch) * static_cast<double>(p.m) *
                       static_cast<double>(p.n) * static_cast<double>(p.k);
  size_t threads = pool != nullptr ? pool->num_threads() : 1;
  if (flops < static_cast<double>(kMinParallelFlops)) threads = 1;

  // Packed weights are read panel by panel, as sequentially as the GEMV
  // reads B, and need no packing: the tiled path serves every m.
  if (p.m <= kGemvMaxM && p.packed_b == nullptr) {
    run_gemv(cfg, p, ctx, threads);
    return;
  }

  // The K block. Packed per task, B's block and A's slice must fit the
  // task's stack buffers. B packed once (a layer's weights) is read where it
  // lies, and K is cut only to keep a block of two panels (kc x 2 nr floats)
  // in L2: up to K = 1024 one K block, so no pass over C per block and no
  // copy of A, 3-7% faster on the 49- to 196-row GEMMs of the benchmark
  // models (ember_gemm_bench --packed).
  const size_t kc_max = p.packed_b != nullptr
                            ? kPackedWeightsMaxKc
                            : min_of(min_of(cfg.kc, kF32GemmMaxAPackFloats / mr),
                                     kF32GemmMaxPackFloats / nr);
  Plan plan;
  plan.k_blocks = ceil_div(p.k, kc_max);
  plan.kc = ceil_div(p.k, plan.k_blocks);
  plan.m_tiles = ceil_div(p.m, mr);
  // N blocks (balanced) of at most an L2 budget of kc * nc floats, at least
  // one panel: a short K gets wide blocks, one of which covers a pointwise
  // convolution's whole N, so the threads split its rows rather than its
  // columns. Narrower when A has too few row tiles to share between threads.
  const size_t block_floats = min_of(static_cast<size_t>(cfg.kc) * cfg.nc, kF32GemmMaxPackFloats);
  const size_t block_panels = block_floats / plan.kc / nr;
  const size_t nc_max = (block_panels > 0 ? block_panels : 1) * nr;
  size_t nc = min_of(nc_max, round_up(p.n, nr));
  if (p.packed_b != nullptr) {
    plan.prepacked = p.packed_b;
    plan.prepacked_panel_stride = p.k * nr;
    plan.prepacked_batch_stride = p.packed_b_batch_stride;
  }
  // Many row tiles and weights that fit: the threads split the rows, each
  // walking all of B. With one N block per thread instead, 2 threads ran
  // 11-28% slower on the pointwise convolutions of MobileNetV2 and ResNet-50
  // (196x576x96, 392x576x96, 784x512x128, 3136x144x24: ember_gemm_bench
  // --packed --threads 2). With few row tiles the columns win, even where the
  // rows share out evenly: each thread reading all of B costs more than the
  // rows save (MiniLM's 128x384x384, 11 tiles; the small Llama's 64x512x512,
  // 6 tiles, 9% slower end to end at 2 threads with the rows split).
  if (p.packed_b != nullptr && threads > 1 && p.batch < threads &&
      plan.m_tiles >= 8 * threads && p.k * p.n * sizeof(float) <= kRowSplitMaxWeightBytes) {
    nc = round_up(p.n, nr);
  }
  if (threads > 1 && p.batch < threads && plan.m_tiles < 2 * threads) {
    nc = min_of(nc, round_up(ceil_div(p.n, threads), nr));
  }
  plan.n_blocks = ceil_div(p.n, nc);
  plan.nc = round_up(ceil_div(p.n, plan.n_blocks), nr);
  plan.n_blocks = ceil_div(p.n, plan.nc);
  // Static chunking hands each thread a contiguous run of tiles; split M
  // until the tiles divide evenly between the threads (or are plentiful).
  if (threads > 1) {
    const size_t base = p.batch * plan.n_blocks;
    while ((base * plan.m_chunks) % threads != 0 && base * plan.m_chunks < 4 * threads &&
           plan.m_chunks < plan.m_tiles) {
      ++plan.m_chunks;
    }
  }

  // When M is split, every chunk would pack the same B blocks. With temp
  // memory from the caller, pack all of B once instead, spread over the
  // threads, and let the tasks share it read-only.
  if (plan.m_chunks > 1 && ctx != nullptr && plan.prepacked == nullptr) {
    const size_t n_panels = ceil_div(p.n, nr);
    const size_t panel_floats = p.k * nr;
    const double bytes = static_cast<double>(p.batch) * static_cast<double>(n_panels) *
                         static_cast<double>(panel_floats) * sizeof(float);
    float* buf = bytes < static_cast<double>(SIZE_MAX / 2)
                     ? static_cast<float*>(ctx->allocate_temp(static_cast<size_t>(bytes), 64))
                     : nullptr;
    if (buf != nullptr) {
      ctx->parallel_for(static_cast<int64_t>(p.batch * plan.n_blocks), 1,
                        [&](int64_t begin, int64_t end) {
                          for (size_t t = static_cast<size_t>(begin);
                               t < static_cast<size_t>(end); ++t) {
                            const size_t bi = t / plan.n_blocks;
                            const size_t j0 = (t % plan.n_blocks) * plan.nc;
                            f32_gemm_pack_b(p.k, min_of(plan.nc, p.n - j0), nr,
                                            p.b + bi * p.b_batch_stride + j0, p.ldb,
                                            buf + (bi * n_panels + j0 / nr) * panel_floats,
                                            panel_floats);
                          }
                                        });
      plan.prepacked = buf;
      plan.prepacked_panel_stride = panel_floats;
      plan.prepacked_batch_stride = n_panels * panel_floats;
    }
  }

  const size_t tiles = plan.num_tiles(p.batch);
  if (threads <= 1 || tiles <= 1) {
    run_tiles(cfg, p, plan, 0, tiles);
    return;
  }
  ctx->parallel_for(static_cast<int64_t>(tiles), 1, [&](int64_t begin, int64_t end) {
    run_tiles(cfg, p, plan, static_cast<size_t>(begin), static_cast<size_t>(end));
  });
}

}  // namespace ember::kernels::optimized
