// The int8 GEMM driver: variant selection, weight packing, the indirection
// buffer, A's per-tile gather into the variant's operand format, cache
// blocking and the split over the thread pool. Compiled without ISA flags;
// only the microkernels it calls through Qs8GemmConfig use AVX2, VNNI or
// NEON.
//
// Loop order, per task (an N block of panels and a range of row tiles):
//   for each row tile of <= mr rows:   gather the tile's rows (or taps) into
//     pack_a                           the A buffer (on the task's stack, in
//     for each panel of the N block:   L1), then run the tile across the
//       microkernel (all of K)         block's panels, whose weights (at most
//                                      kBlockBytes together) stay in L2.
// With more than one N block and a workspace from the caller, A is gathered
// once, up front, instead of once per block (a_workspace). While a task runs
// one block, its microkernel calls fetch the next block's weights into L2, a
// slice each (Qs8WeightPrefetch).
// K is never blocked: a tile's sums stay in registers over all of K, so no
// int32 partial sums pass through memory; the A buffer bounds K instead
// (kAPackBytes, kQs8GemmMaxK), and the tile has fewer rows when K is long.
#include <cmath>
#include <cstring>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-gemm/qs8_gemm.h"
#include "kernels/optimized/qs8-gemm/qs8_gemm_tiling.h"
#include "runtime/kernel/kernel_context.h"

namespace ember::kernels::optimized {

// Defined by the variant files CMake compiles for this architecture.
extern const Qs8GemmConfig kQs8GemmScalarConfig;
#if defined(__x86_64__)
extern const Qs8GemmConfig kQs8GemmAmxConfig;
extern const Qs8GemmConfig kQs8GemmAvx512VnniConfig;
extern const Qs8GemmConfig kQs8GemmAvxVnniConfig;
extern const Qs8GemmConfig kQs8GemmAvx2Config;
#endif
#if defined(__aarch64__)
extern const Qs8GemmConfig kQs8GemmNeonDotConfig;
extern const Qs8GemmConfig kQs8GemmNeonConfig;
#endif
#if defined(__wasm_simd128__)
extern const Qs8GemmConfig kQs8GemmWasmSimdConfig;
#endif

namespace {

const Qs8GemmConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kQs8GemmAmxConfig,
    &kQs8GemmAvx512VnniConfig,
    &kQs8GemmAvxVnniConfig,
    &kQs8GemmAvx2Config,
#endif
#if defined(__aarch64__)
    &kQs8GemmNeonDotConfig,
    &kQs8GemmNeonConfig,
#endif
#if defined(__wasm_simd128__)
    &kQs8GemmWasmSimdConfig,
#endif
    &kQs8GemmScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

// The A buffer of a task, on its stack: a row tile's gathered rows. 128 KiB
// holds 12 rows of K = 4608 (a 3x3 convolution over 512 channels) as int16,
// and AMX's 32 rows of K = 3072 (BERT's FFN down projection) as bytes.
constexpr size_t kAPackBytes = 128 * 1024;
// The packed weights of one N block: read by every row tile of a task, so
// they should stay in L2 (256 KiB: a quarter to an eighth of one today).
constexpr size_t kBlockBytes = 256 * 1024;
// Below this many multiply-adds a problem stays on the calling thread: waking
// a worker costs microseconds, as much as the whole product.
constexpr double kMinParallelMacs = 1 << 21;
// Most rows of a tile and columns of a panel of any variant.
constexpr size_t kMaxMr = 32;
constexpr size_t kMaxNr = 64;

size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
size_t round_up(size_t a, size_t b) { return ceil_div(a, b) * b; }
size_t min_of(size_t a, size_t b) { return a < b ? a : b; }

size_t a_value_bytes(const Qs8Tiling& t) { return t.a_format == Qs8AFormat::S16 ? 2 : 1; }

// Rows a tile may have with K padded to kp: the variant's mr where the A
// buffer holds that many rows, fewer for a long K; 0 when not even one fits.
size_t tile_rows(const Qs8Tiling& cfg, size_t kp) {
  const size_t row_bytes = kp * a_value_bytes(cfg);
  const size_t fit = row_bytes == 0 ? cfg.mr : kAPackBytes / row_bytes;
  return min_of(min_of(cfg.mr, kMaxMr), fit);
}

// Taps shorter than this are gathered a word at a time (pack_a).
constexpr size_t kSmallTap = 32;

// What K is padded to per tap.
size_t k_padding(const Qs8Tiling& cfg) { return cfg.kpad != 0 ? cfg.kpad : cfg.kr; }

size_t padded_k(const Qs8Tiling& cfg, size_t ks, size_t kc) {
  return ks * round_up(kc, k_padding(cfg));
}

// Gathers mr rows of A into `out` (row-major, kp values a row) in the
// variant's format: row i's tap p is the kc bytes at rows[p * tap_stride + i *
// row_stride] (plus a_offset unless it is `zero`), padded to kcp values with
// zeros (B's padded rows are zero, so any value would do).
void pack_a(const Qs8Tiling& cfg, size_t mr, size_t kc, size_t ks, const int8_t* const* rows,
            size_t tap_stride, size_t row_stride, size_t a_offset, const int8_t* zero,
            void* out) {
  const size_t kcp = round_up(kc, k_padding(cfg));
  if (cfg.pack_a != nullptr) {
    cfg.pack_a(mr, kc, kcp, ks, rows, tap_stride, row_stride, a_offset, zero, out);
    return;
  }
  const size_t kp = ks * kcp;
  for (size_t i = 0; i < mr; ++i) {
    for (size_t p = 0; p < ks; ++p) {
      const int8_t* src = rows[p * tap_stride + i * row_stride];
      if (src != zero) {
        src = reinterpret_cast<const int8_t*>(reinterpret_cast<uintptr_t>(src) + a_offset);
      }
      const size_t at = i * kp + p * kcp;
      // Plain loops the compiler vectorizes for the baseline ISA.
      switch (cfg.a_format) {
        case Qs8AFormat::S8: {
          int8_t* dst = static_cast<int8_t*>(out) + at;
          std::memcpy(dst, src, kc);
          for (size_t q = kc; q < kcp; ++q) dst[q] = 0;
          break;
        }
        case Qs8AFormat::U8: {
          uint8_t* dst = static_cast<uint8_t*>(out) + at;
          size_t q = 0;
          if (kc < kSmallTap) {
            // A stem's few bytes a tap (9 for 3x3 RGB rows): eight at a time
            // in a word, where the vectorized loop's set-up would cost more
            // than the copy.
            for (; q + 8 <= kc; q += 8) {
              uint64_t word;
              std::memcpy(&word, src + q, 8);
              word ^= 0x8080808080808080ull;
              std::memcpy(dst + q, &word, 8);
            }
          }
          for (; q < kc; ++q) dst[q] = static_cast<uint8_t>(src[q]) ^ 0x80u;
          for (q = kc; q < kcp; ++q) dst[q] = 0;
          break;
        }
        case Qs8AFormat::S16: {
          int16_t* dst = static_cast<int16_t*>(out) + at;
          for (size_t q = 0; q < kc; ++q) dst[q] = src[q];
          for (size_t q = kc; q < kcp; ++q) dst[q] = 0;
          break;
        }
      }
    }
  }
}

// Where a problem's rows come from: rows of A (direct) or taps through an
// indirection buffer.
struct RowSource {
  const int8_t* a = nullptr;  // direct: A and its row stride
  size_t lda = 0;
  const int8_t* const* indirection = nullptr;  // indirect: [m][ks] pointers
  size_t a_offset = 0;
  const int8_t* zero = nullptr;
  void* workspace = nullptr;  // room to gather all of A once (a_workspace)
  size_t workspace_bytes = 0;
};

// A problem's A read directly, row by row (Qs8GemmProblem, Qd8F32GemmProblem).
template <typename Problem>
RowSource direct_rows(const Problem& p) {
  RowSource src;
  src.a = p.a;
  src.lda = p.lda;
  src.workspace = p.a_workspace;
  src.workspace_bytes = p.a_workspace_bytes;
  return src;
}

// Gathers the mr rows of A from row i (rows or taps, as src has them) into
// `out` with pack_a.
void gather_rows(const Qs8Tiling& cfg, const RowSource& src, size_t i, size_t mr, size_t ks,
                 size_t kc, void* out) {
  if (src.indirection != nullptr) {
    pack_a(cfg, mr, kc, ks, src.indirection + i * ks, 1, ks, src.a_offset, src.zero, out);
    return;
  }
  const int8_t* row_ptrs[kMaxMr];
  for (size_t r = 0; r < mr; ++r) row_ptrs[r] = src.a + (i + r) * src.lda;
  pack_a(cfg, mr, kc, 1, row_ptrs, 0, 1, 0, nullptr, out);
}

// The cut of a problem into tasks, the same for every task.
struct Plan {
  size_t kp = 0;
  size_t panel_bytes = 0;
  size_t panels = 0;
  size_t per_block = 0;  // panels of an N block
  size_t n_blocks = 0;
  size_t rows = 0;       // most rows of a tile
  size_t m_tiles = 0;
  size_t m_chunks = 1;
};

size_t pool_threads(KernelContext* ctx) {
  ThreadPool* pool = ctx != nullptr ? ctx->thread_pool() : nullptr;
  return pool != nullptr ? pool->num_threads() : 1;
}

Plan make_plan(const Qs8Tiling& cfg, size_t m, size_t n, size_t ks, size_t kc,
               size_t panel_bytes, size_t threads) {
  Plan plan;
  plan.kp = padded_k(cfg, ks, kc);
  plan.panel_bytes = panel_bytes;
  plan.panels = ceil_div(n, cfg.nr);
  plan.rows = tile_rows(cfg, plan.kp);
  plan.m_tiles = ceil_div(m, plan.rows);
  const size_t fit = kBlockBytes / panel_bytes;
  plan.per_block = fit > 0 ? fit : 1;
  plan.n_blocks = ceil_div(plan.panels, plan.per_block);

  const double macs = static_cast<double>(m) * static_cast<double>(n) *
                      static_cast<double>(ks * kc);
  if (macs < kMinParallelMacs) threads = 1;
  if (threads > 1) {
    // Too few row tiles to share: narrower N blocks instead.
    if (plan.m_tiles < threads && plan.n_blocks < threads) {
      plan.n_blocks = min_of(plan.panels, threads);
    }
    // Rows split until the tasks divide evenly between the threads: static
    // chunking gives each thread a contiguous run of equal tasks.
    while (((plan.n_blocks * plan.m_chunks) % threads != 0 ||
            plan.n_blocks * plan.m_chunks < threads) &&
           plan.m_chunks < plan.m_tiles) {
      ++plan.m_chunks;
    }
  }
  plan.per_block = ceil_div(plan.panels, plan.n_blocks);
  plan.n_blocks = ceil_div(plan.panels, plan.per_block);
  return plan;
}

// Hands out the next N block's packed weights in equal slices, one per
// microkernel call of the current block (Qs8WeightPrefetch).
class PrefetchSlicer {
 public:
  PrefetchSlicer() = default;
  PrefetchSlicer(const uint8_t* begin, const uint8_t* end, size_t calls)
      : next_(begin), end_(end) {
    const size_t lines = (static_cast<size_t>(end - begin) + 63) / 64;
    step_ = (calls > 0 ? (lines + calls - 1) / calls : lines) * 64;
  }
  Qs8WeightPrefetch slice() {
    Qs8WeightPrefetch s;
    s.next = next_;
    next_ = static_cast<size_t>(end_ - next_) > step_ ? next_ + step_ : end_;
    s.end = next_;
    return s;
  }

 private:
  const uint8_t* next_ = nullptr;
  const uint8_t* end_ = nullptr;
  size_t step_ = 0;
};

// Runs tasks [begin, end) of `plan`; tile(mr, nr, a_packed, panel, i, j,
// prefetch) computes the mr x nr tile of C at (i, j) from the gathered rows,
// passing `prefetch` on to the microkernel. `gathered`: all of A packed
// already (rows kp values apart), or null: each row tile is gathered into a
// buffer on the stack.
template <typename Tile>
void run_tasks(const Qs8Tiling& cfg, const Plan& plan, size_t m, size_t n, size_t ks,
               size_t kc, const RowSource& src, uint8_t* gathered, const uint8_t* packed_w,
               size_t begin, size_t end, Tile& tile) {
  // Left uninitialized: pack_a writes every value a tile reads.
  alignas(64) uint8_t a_buffer[kAPackBytes];
  const size_t row_bytes = plan.kp * a_value_bytes(cfg);
  for (size_t t = begin; t < end; ++t) {
    const size_t nb = t / plan.m_chunks;
    const size_t mc = t % plan.m_chunks;
    const size_t q0 = nb * plan.per_block;
    const size_t q1 = min_of(plan.panels, q0 + plan.per_block);
    const size_t rt0 = mc * plan.m_tiles / plan.m_chunks;
    const size_t rt1 = (mc + 1) * plan.m_tiles / plan.m_chunks;
    // The next task's panels (which follow these in memory), when it moves
    // on to other ones.
    PrefetchSlicer ahead;
    if (t + 1 < end && (t + 1) / plan.m_chunks != nb && q1 < plan.panels) {
      const size_t next_q1 = min_of(plan.panels, q1 + plan.per_block);
      ahead = PrefetchSlicer(packed_w + q1 * plan.panel_bytes,
                             packed_w + next_q1 * plan.panel_bytes, (rt1 - rt0) * (q1 - q0));
    }
    for (size_t rt = rt0; rt < rt1; ++rt) {
      // Tiles of equal height (differing by at most one row): a tile of one
      // or two rows has too few accumulators to hide the latency.
      const size_t i = rt * m / plan.m_tiles;
      const size_t mr = (rt + 1) * m / plan.m_tiles - i;
      void* a_packed = a_buffer;
      if (gathered != nullptr) {
        a_packed = gathered + i * row_bytes;
      } else {
        gather_rows(cfg, src, i, mr, ks, kc, a_packed);
      }
      for (size_t q = q0; q < q1; ++q) {
        const size_t j = q * cfg.nr;
        tile(mr, min_of(cfg.nr, n - j), a_packed, packed_w + q * plan.panel_bytes, i, j,
             ahead.slice());
      }
    }
  }
}

template <typename Tile>
void run(const Qs8Tiling& cfg, size_t m, size_t n, size_t ks, size_t kc, size_t panel_bytes,
         const RowSource& src, const void* packed_w, KernelContext* ctx, Tile tile) {
  const Plan plan = make_plan(cfg, m, n, ks, kc, panel_bytes, pool_threads(ctx));
  const uint8_t* w = static_cast<const uint8_t*>(packed_w);
  const size_t tasks = plan.n_blocks * plan.m_chunks;
  const bool serial =
      plan.m_chunks * plan.n_blocks <= 1 || ctx == nullptr || ctx->thread_pool() == nullptr;
  // With more than one N block every row tile would be gathered once per
  // block (12 times for BERT's FFN down projection): with room from the
  // caller, gather all of A once first.
  uint8_t* gathered = nullptr;
  const size_t row_bytes = plan.kp * a_value_bytes(cfg);
  if (src.workspace != nullptr && plan.n_blocks > 1 && src.workspace_bytes >= m * row_bytes) {
    gathered = static_cast<uint8_t*>(src.workspace);
    auto gather = [&](int64_t begin, int64_t end) {
      for (size_t rt = static_cast<size_t>(begin); rt < static_cast<size_t>(end); ++rt) {
        const size_t i = rt * m / plan.m_tiles;
        gather_rows(cfg, src, i, (rt + 1) * m / plan.m_tiles - i, ks, kc,
                    gathered + i * row_bytes);
      }
    };
    if (serial) {
      gather(0, static_cast<int64_t>(plan.m_tiles));
    } else {
      ctx->parallel_for(static_cast<int64_t>(plan.m_tiles), 1, gather);
    }
  }
  if (serial) {
    run_tasks(cfg, plan, m, n, ks, kc, src, gathered, w, 0, tasks, tile);
    return;
  }
  ctx->parallel_for(static_cast<int64_t>(tasks), 1, [&](int64_t begin, int64_t end) {
    run_tasks(cfg, plan, m, n, ks, kc, src, gathered, w, static_cast<size_t>(begin),
              static_cast<size_t>(end), tile);
  });
}

// Column sums of B and the packed weights of one panel (columns [n0, n0 +
// nr)), shared by both packings; returns where the panel's tail starts.
uint8_t* pack_panel(const Qs8Tiling& cfg, const Qs8Weights& w, size_t n0, int32_t* colsum,
                    uint8_t* panel) {
  const size_t nr = cfg.nr;
  const size_t kr = cfg.kr;
  const size_t kcp = round_up(w.kc, k_padding(cfg));
  int8_t* dst = reinterpret_cast<int8_t*>(panel + nr * sizeof(int32_t));
  for (size_t j = 0; j < nr; ++j) colsum[j] = 0;
  for (size_t p = 0; p < w.ks; ++p) {
    for (size_t g = 0; g < kcp; g += kr) {
      for (size_t j = 0; j < nr; ++j) {
        const size_t col = n0 + j;
        for (size_t r = 0; r < kr; ++r) {
          const size_t q = g + r;
          int8_t v = 0;
          if (col < w.n && q < w.kc) {
            v = w.data[static_cast<ptrdiff_t>(p) * w.tap_stride +
                       static_cast<ptrdiff_t>(q) * w.k_stride +
                       static_cast<ptrdiff_t>(col) * w.n_stride];
          }
          colsum[j] += v;
          *dst++ = v;
        }
      }
    }
  }
  return reinterpret_cast<uint8_t*>(dst);
}

}  // namespace

int8_t qs8_requantize(int32_t acc, float scale, const Qs8RequantParams& params) {
  float v = static_cast<float>(acc) * scale;
  const float low = static_cast<float>(params.min - params.zero);
  const float high = static_cast<float>(params.max - params.zero);
  v = v < low ? low : (v > high ? high : v);
  // nearbyint rounds half to even (the default rounding mode), as torch.round.
  return static_cast<int8_t>(static_cast<int32_t>(std::nearbyint(v)) + params.zero);
}

size_t qs8_gemm_num_variants() { return kNumVariants; }

const Qs8GemmConfig& qs8_gemm_variant(size_t index) { return *kVariants[index]; }

bool qs8_gemm_variant_supported(const Qs8GemmConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const Qs8GemmConfig& qs8_gemm_config() {
  static const Qs8GemmConfig* const chosen = [] {
    for (const Qs8GemmConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kQs8GemmScalarConfig;
  }();
  return *chosen;
}

const Qs8GemmConfig& qs8_gemm_config_for(size_t kc) {
  const Qs8GemmConfig& best = qs8_gemm_config();
  if (best.kpad == 0 || round_up(kc, best.kpad) * 3 <= kc * 4) return best;
  for (const Qs8GemmConfig* cfg : kVariants) {
    if (cfg->kpad == 0 && cpu_features().has(cfg->required_features)) return *cfg;
  }
  return kQs8GemmScalarConfig;
}

Qs8Tiling qs8_gemm_tiling(const Qs8GemmConfig& config) {
  return {config.mr, config.nr, config.kr, config.a_format, config.pack_a, config.kpad};
}

size_t qs8_gemm_padded_k(const Qs8GemmConfig& config, size_t ks, size_t kc) {
  return padded_k(qs8_gemm_tiling(config), ks, kc);
}

bool qs8_tiling_supports(const Qs8Tiling& tiling, size_t ks, size_t kc) {
  if (kc != 0 && ks > kQs8GemmMaxK / kc) return false;  // ks * kc > kQs8GemmMaxK
  return tiling.nr <= kMaxNr && tile_rows(tiling, padded_k(tiling, ks, kc)) > 0;
}

bool qs8_gemm_supports(const Qs8GemmConfig& config, size_t ks, size_t kc) {
  return qs8_tiling_supports(qs8_gemm_tiling(config), ks, kc);
}

void qs8_gemm_tiles(const Qs8Tiling& tiling, size_t m, size_t n, size_t k, const int8_t* a,
                    size_t lda, size_t panel_bytes, const void* packed_w, KernelContext* ctx,
                    Qs8TileFn tile) {
  if (m == 0 || n == 0) return;
  RowSource src;
  src.a = a;
  src.lda = lda;
  // The 4-bit microkernels issue no prefetches.
  run(tiling, m, n, 1, k, panel_bytes, src, packed_w, ctx,
      [&](size_t mr, size_t nr, const void* a_tile, const uint8_t* panel, size_t i, size_t j,
          const Qs8WeightPrefetch&) { tile(mr, nr, a_tile, panel, i, j); });
}

size_t qs8_gemm_panel_bytes(const Qs8GemmConfig& config, size_t ks, size_t kc) {
  // Head (int32), weights, tail (float), per column.
  return config.nr * (qs8_gemm_padded_k(config, ks, kc) + 2 * sizeof(int32_t));
}

size_t qs8_gemm_packed_size(const Qs8GemmConfig& config, size_t ks, size_t kc, size_t n) {
  return ceil_div(n, config.nr) * qs8_gemm_panel_bytes(config, ks, kc);
}

size_t qd8_gemm_panel_bytes(const Qs8GemmConfig& config, size_t ks, size_t kc) {
  return qs8_gemm_panel_bytes(config, ks, kc) + config.nr * sizeof(float);
}

size_t qd8_gemm_packed_size(const Qs8GemmConfig& config, size_t ks, size_t kc, size_t n) {
  return ceil_div(n, config.nr) * qd8_gemm_panel_bytes(config, ks, kc);
}

size_t qs8_gemm_a_workspace_bytes(const Qs8GemmConfig& config, size_t m, size_t n, size_t ks,
                                  size_t kc, bool float_output) {
  const Qs8Tiling tiling = qs8_gemm_tiling(config);
  if (m == 0 || n == 0 || !qs8_tiling_supports(tiling, ks, kc)) return 0;
  const size_t panel_bytes = float_output ? qd8_gemm_panel_bytes(config, ks, kc)
                                          : qs8_gemm_panel_bytes(config, ks, kc);
  const Plan plan = make_plan(tiling, m, n, ks, kc, panel_bytes, 1);
  return plan.n_blocks > 1 ? m * plan.kp * a_value_bytes(tiling) : 0;
}

void qs8_gemm_pack_weights(const Qs8GemmConfig& config, const Qs8Weights& weights,
                           const int32_t* bias, int32_t a_zero, const float* scale,
                           void* packed) {
  const size_t nr = config.nr;
  const size_t panel_bytes = qs8_gemm_panel_bytes(config, weights.ks, weights.kc);
  int32_t colsum[kMaxNr];
  uint8_t* out = static_cast<uint8_t*>(packed);
  // The factor the variant's shifted A adds per unit of column sum.
  const uint32_t zero_total = static_cast<uint32_t>(a_zero) + static_cast<uint32_t>(config.a_shift);
  for (size_t n0 = 0; n0 < weights.n; n0 += nr, out += panel_bytes) {
    float* tail = reinterpret_cast<float*>(
        pack_panel(qs8_gemm_tiling(config), weights, n0, colsum, out));
    int32_t* head = reinterpret_cast<int32_t*>(out);
    for (size_t j = 0; j < nr; ++j) {
      const size_t col = n0 + j;
      const bool real = col < weights.n;
      // Modulo 2^32, as the microkernels add: the sum they end with is exact
      // whenever it fits in int32.
      const uint32_t b = real && bias != nullptr ? static_cast<uint32_t>(bias[col]) : 0u;
      head[j] = static_cast<int32_t>(b - zero_total * static_cast<uint32_t>(colsum[j]));
      tail[j] = real ? scale[col] : 0.0f;
    }
  }
}

void qd8_gemm_pack_weights(const Qs8GemmConfig& config, const Qs8Weights& weights,
                           const float* w_scale, const float* bias, void* packed) {
  const size_t nr = config.nr;
  const size_t panel_bytes = qd8_gemm_panel_bytes(config, weights.ks, weights.kc);
  int32_t colsum[kMaxNr];
  uint8_t* out = static_cast<uint8_t*>(packed);
  for (size_t n0 = 0; n0 < weights.n; n0 += nr, out += panel_bytes) {
    float* tail = reinterpret_cast<float*>(
        pack_panel(qs8_gemm_tiling(config), weights, n0, colsum, out));
    int32_t* head = reinterpret_cast<int32_t*>(out);
    for (size_t j = 0; j < nr; ++j) {
      const size_t col = n0 + j;
      const bool real = col < weights.n;
      head[j] = colsum[j];
      tail[j] = real ? w_scale[col] : 0.0f;
      tail[nr + j] = real && bias != nullptr ? bias[col] : 0.0f;
    }
  }
}

bool qs8_gemm(const Qs8GemmConfig& cfg, const Qs8GemmProblem& p, KernelContext* ctx) {
  if (!qs8_gemm_supports(cfg, 1, p.k)) return false;
  if (p.m == 0 || p.n == 0) return true;
  const RowSource src = direct_rows(p);
  const size_t kp = qs8_gemm_padded_k(cfg, 1, p.k);
  run(qs8_gemm_tiling(cfg), p.m, p.n, 1, p.k, qs8_gemm_panel_bytes(cfg, 1, p.k), src, p.packed_w,
      ctx,
      [&](size_t mr, size_t nr, const void* a, const uint8_t* panel, size_t i, size_t j,
          const Qs8WeightPrefetch& prefetch) {
        Qs8RequantParams requant = p.requant;
        requant.prefetch = prefetch;
        cfg.gemm(mr, nr, kp, a, panel, p.c + i * p.ldc + j, p.ldc, &requant);
      });
  return true;
}

bool qd8_f32_gemm(const Qs8GemmConfig& cfg, const Qd8F32GemmProblem& p, KernelContext* ctx) {
  if (!qs8_gemm_supports(cfg, 1, p.k)) return false;
  if (p.m == 0 || p.n == 0) return true;
  const RowSource src = direct_rows(p);
  const size_t kp = qs8_gemm_padded_k(cfg, 1, p.k);
  run(qs8_gemm_tiling(cfg), p.m, p.n, 1, p.k, qd8_gemm_panel_bytes(cfg, 1, p.k), src, p.packed_w,
      ctx,
      [&](size_t mr, size_t nr, const void* a, const uint8_t* panel, size_t i, size_t j,
          const Qs8WeightPrefetch& prefetch) {
        float* c = p.c + i * p.ldc + j;
        Qd8F32Params params = p.params;
        params.prefetch = prefetch;
        cfg.gemm_qd8_f32(mr, nr, kp, a, panel, c, p.ldc, p.a_zero + i, p.a_scale + i, &params);
        apply_to_tile(p.activation, mr, nr, c, p.ldc);
      });
  return true;
}

bool qs8_igemm(const Qs8GemmConfig& cfg, const Qs8IgemmProblem& p, KernelContext* ctx) {
  if (!qs8_gemm_supports(cfg, p.ks, p.kc)) return false;
  if (p.m == 0 || p.n == 0) return true;
  RowSource src;
  src.indirection = p.indirection;
  src.a_offset = p.a_offset;
  src.zero = p.zero;
  src.workspace = p.a_workspace;
  src.workspace_bytes = p.a_workspace_bytes;
  const size_t kp = qs8_gemm_padded_k(cfg, p.ks, p.kc);
  run(qs8_gemm_tiling(cfg), p.m, p.n, p.ks, p.kc, qs8_gemm_panel_bytes(cfg, p.ks, p.kc), src,
      p.packed_w, ctx,
      [&](size_t mr, size_t nr, const void* a, const uint8_t* panel, size_t i, size_t j,
          const Qs8WeightPrefetch& prefetch) {
        Qs8RequantParams requant = p.requant;
        requant.prefetch = prefetch;
        cfg.gemm(mr, nr, kp, a, panel, p.c + i * p.ldc + j, p.ldc, &requant);
      });
  return true;
}

size_t qs8_igemm_indirection_size(const Qs8ConvShape& s) {
  return s.batch * s.out_h * s.out_w * s.kh * s.kw;
}

void qs8_igemm_conv_indirection(const Qs8ConvShape& s, const int8_t* zero,
                                const int8_t** indirection) {
  const size_t taps = s.kh * s.kw;
  for (size_t n = 0; n < s.batch; ++n) {
    for (size_t oy = 0; oy < s.out_h; ++oy) {
      for (size_t ox = 0; ox < s.out_w; ++ox) {
        const int8_t** row = indirection + ((n * s.out_h + oy) * s.out_w + ox) * taps;
        for (size_t ky = 0; ky < s.kh; ++ky) {
          // Unsigned: a row or column in the top or left padding wraps round
          // to a huge value, which the bounds test rejects too.
          const size_t iy = oy * s.stride_h + ky * s.dil_h - s.pad_h;
          for (size_t kx = 0; kx < s.kw; ++kx) {
            const size_t ix = ox * s.stride_w + kx * s.dil_w - s.pad_w;
            row[ky * s.kw + kx] =
                iy < s.in_h && ix < s.in_w
                    ? reinterpret_cast<const int8_t*>(((n * s.in_h + iy) * s.in_w + ix) *
                                                      s.in_pixel_stride)
                    : zero;
          }
        }
      }
    }
  }
}

}  // namespace ember::kernels::optimized
