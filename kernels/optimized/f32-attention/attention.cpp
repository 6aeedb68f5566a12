// The f32 attention driver: variant selection, blocking and the split over
// the thread pool. Compiled without ISA flags; the microkernels it calls
// through F32GemmConfig and F32AttentionConfig carry them.
//
// Per query tile (at most kMaxQTile rows of one (batch, head)):
//   for each key/value block of at most kKvBlock keys:
//     S = scale * Q K^T + mask        GEMM microkernel, K^T packed in panels
//     per row: m' = max(m, max S), P = exp(S - m'), l = l e^(m - m') + sum P
//     O = O e^(m - m') + P V          GEMM microkernel, V packed in panels
//   O /= l
// O is the output itself (rows in place through its strides), S one tile of
// at most kMaxQTile x kKvBlock floats: the full score matrix never exists.
// Packing K^T and V costs about as much as one product with them, so a
// task packs a head's blocks once for all its query tiles when they fit in
// kHeadCacheBytes (sequences up to ~500 at head dim 64), else per tile.
#include <cmath>
#include <cstring>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "runtime/core/thread_pool.h"

namespace ember::kernels::optimized {

extern const F32AttentionConfig kF32AttentionScalarConfig;
#if defined(__x86_64__)
extern const F32AttentionConfig kF32AttentionAvx512Config;
extern const F32AttentionConfig kF32AttentionAvx2Config;
#endif
#if defined(__aarch64__)
extern const F32AttentionConfig kF32AttentionNeonConfig;
#endif
#if defined(__wasm_simd128__)
extern const F32AttentionConfig kF32AttentionWasmSimdConfig;
#endif

namespace {

const F32AttentionConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kF32AttentionAvx512Config,
    &kF32AttentionAvx2Config,
#endif
#if defined(__aarch64__)
    &kF32AttentionNeonConfig,
#endif
#if defined(__wasm_simd128__)
    &kF32AttentionWasmSimdConfig,
#endif
    &kF32AttentionScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

// Query rows per tile: the score tile (kMaxQTile x kKvBlock floats, 64 KiB)
// stays in L2 between the two products.
constexpr size_t kMaxQTile = 64;
// Keys per block: long enough that the P V product's k loop runs long.
constexpr size_t kKvBlock = 256;
// A head's packed K^T and V kept for all of a task's query tiles up to this.
constexpr size_t kHeadCacheBytes = 256 * 1024;
// Below this many flops (2 L S (d + e) per head, both products) an attention
// stays on the calling thread: waking a worker costs microseconds, as much as
// the whole problem (as kMinParallelFlops in the GEMM driver).
constexpr double kMinParallelFlops = double(size_t{1} << 20);

size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
size_t round_up(size_t a, size_t b) { return ceil_div(a, b) * b; }
size_t min_of(size_t a, size_t b) { return a < b ? a : b; }

struct Plan {
  size_t mr = 0, nr = 0;
  size_t q_tiles = 0;    // per (batch, head)
  size_t kv_block = 0;   // keys per block (balanced: blocks differ by at most one tile)
  size_t kv_blocks = 0;
  size_t kt_floats = 0;  // one block's packed K^T: ceil(kv_block / nr) panels of d x nr
  size_t v_floats = 0;   // one block's packed V: ceil(e / nr) panels of kv_block x nr
  bool cache_head = false;
  size_t s_stride = 0;   // row stride of the score tile
  size_t pack_floats = 0, s_floats = 0, thread_floats = 0;
};

Plan make_plan(const F32GemmConfig& gemm, const F32AttentionProblem& p) {
  Plan plan;
  plan.mr = gemm.mr;
  plan.nr = gemm.nr;
  plan.q_tiles = ceil_div(p.q_len, kMaxQTile);
  plan.kv_blocks = p.kv_len > 0 ? ceil_div(p.kv_len, kKvBlock) : 0;
  plan.kv_block = plan.kv_blocks > 0 ? ceil_div(p.kv_len, plan.kv_blocks) : 0;
  plan.kt_floats = round_up(plan.kv_block, plan.nr) * p.head_dim;
  plan.v_floats = plan.kv_block * round_up(p.v_head_dim, plan.nr);
  const size_t block_floats = round_up(plan.kt_floats + plan.v_floats, 16);
  plan.cache_head = plan.kv_blocks <= 1 ||
                    plan.kv_blocks * block_floats * sizeof(float) <= kHeadCacheBytes;
  plan.pack_floats = (plan.cache_head ? plan.kv_blocks : 1) * block_floats;
  plan.s_stride = round_up(plan.kv_block, plan.nr);
  plan.s_floats = round_up(kMaxQTile * plan.s_stride + 3 * kMaxQTile, 16);
  plan.thread_floats = plan.pack_floats + plan.s_floats;
  return plan;
}

// One task's state: its buffer and which head's blocks it holds packed.
struct Worker {
  const F32AttentionConfig& cfg;
  const F32GemmConfig& gemm;
  const F32AttentionProblem& p;
  const Plan& plan;
  float* buffer;
  size_t packed_head = SIZE_MAX;  // b * heads + h of the blocks packed
  size_t packed_blocks = 0;       // cache_head: blocks [0, packed_blocks) packed
  size_t packed_block = SIZE_MAX; // otherwise: the one block packed

  // Where block kb of head bh lies packed (K^T, then V), packing it if needed.
  const float* block(size_t bh, size_t kb, size_t j0, size_t bc, const float* k, const float* v) {
    const size_t block_floats = round_up(plan.kt_floats + plan.v_floats, 16);
    if (bh != packed_head) {
      packed_head = bh;
      packed_blocks = 0;
      packed_block = SIZE_MAX;
    }
    float* slot = buffer + (plan.cache_head ? kb * block_floats : 0);
    const bool packed = plan.cache_head ? kb < packed_blocks : kb == packed_block;
    if (!packed) {
      // Blocks are visited in order from 0, so the cache fills in order.
      cfg.pack_kt(bc, p.head_dim, k + static_cast<ptrdiff_t>(j0) * p.k_strides[2],
                  static_cast<size_t>(p.k_strides[2]), plan.nr, slot);
      f32_gemm_pack_b(bc, p.v_head_dim, plan.nr, v + static_cast<ptrdiff_t>(j0) * p.v_strides[2],
                      static_cast<size_t>(p.v_strides[2]), slot + plan.kt_floats, bc * plan.nr);
      if (plan.cache_head) {
        packed_blocks = kb + 1;
      } else {
        packed_block = kb;
      }
    }
    return slot;
  }

  // masked_fill on the score tile: rows [i0, i0 + rows) x keys [j0, j0 + bc)
  // of s (row stride ls) where the mask drops them.
  void apply_bool_mask(const uint8_t* keep, size_t i0, size_t rows, size_t j0, size_t bc, float* s,
                       size_t ls) const {
    for (size_t r = 0; r < rows; ++r) {
      const uint8_t* mask_row = keep + static_cast<ptrdiff_t>(i0 + r) * p.mask_strides[2] +
                             static_cast<ptrdiff_t>(j0) * p.mask_strides[3];
      float* row = s + r * ls;
      for (size_t j = 0; j < bc; ++j) {
        if ((mask_row[static_cast<ptrdiff_t>(j) * p.mask_strides[3]] != 0) != p.bool_mask_keeps) {
          row[j] = p.masked_score;
        }
      }
    }
  }

  // Query rows [i0, i1) of head bh = (b, h).
  void run_tile(size_t bh, size_t i0, size_t i1) {
    const size_t b = bh / p.heads, h = bh % p.heads;
    const ptrdiff_t bi = static_cast<ptrdiff_t>(b), hi = static_cast<ptrdiff_t>(h);
    const float* q = p.q + bi * p.q_strides[0] + hi * p.q_strides[1];
    const float* k = p.k + bi * p.k_strides[0] + hi * p.k_strides[1];
    const float* v = p.v + bi * p.v_strides[0] + hi * p.v_strides[1];
    float* out = p.out + bi * p.out_strides[0] + hi * p.out_strides[1];
    const ptrdiff_t mask_at = bi * p.mask_strides[0] + hi * p.mask_strides[1];
    const float* mask = p.mask != nullptr ? p.mask + mask_at : nullptr;
    const uint8_t* bool_mask = p.bool_mask != nullptr ? p.bool_mask + mask_at : nullptr;
    const ptrdiff_t qs = p.q_strides[2], os = p.out_strides[2];
    const size_t d = p.head_dim, e = p.v_head_dim, mr = plan.mr, nr = plan.nr;
    const size_t rows = i1 - i0;
    const size_t ls = plan.s_stride;
    float* s = buffer + plan.pack_floats;
    float* m = s + kMaxQTile * ls;
    float* l = m + kMaxQTile;
    float* corr = l + kMaxQTile;
    for (size_t r = 0; r < rows; ++r) {
      m[r] = -INFINITY;
      l[r] = 0.0f;
    }
    // Row tiles of equal height, as the GEMM driver cuts them.
    const size_t tiles = ceil_div(rows, mr);
    F32GemmEpilogue score_ep{p.scale, mask != nullptr ? 1.0f : 0.0f, nullptr,
                             mask != nullptr ? p.mask_strides[2] : 0,
                             mask != nullptr ? p.mask_strides[3] : 0};
    const F32GemmEpilogue plain_ep{1.0f, 0.0f, nullptr, 0, 0};

    for (size_t kb = 0; kb < plan.kv_blocks; ++kb) {
      const size_t j0 = kb * plan.kv_block;
      const size_t bc = min_of(plan.kv_block, p.kv_len - j0);
      if (p.causal && j0 >= i1) break;  // every later key is above the diagonal
      const float* kt = block(bh, kb, j0, bc, k, v);
      const float* vp = kt + plan.kt_floats;
      const size_t s_panels = ceil_div(bc, nr);

      // S = scale * Q K^T (+ mask), row tile by row tile.
      for (size_t t = 0; t < tiles; ++t) {
        const size_t r0 = t * rows / tiles;
        const size_t mr_cur = (t + 1) * rows / tiles - r0;
        const float* a = q + static_cast<ptrdiff_t>(i0 + r0) * qs;
        for (size_t pq = 0; pq < s_panels; ++pq) {
          if (mask != nullptr) {
            score_ep.self = mask + static_cast<ptrdiff_t>(i0 + r0) * p.mask_strides[2] +
                            static_cast<ptrdiff_t>(j0 + pq * nr) * p.mask_strides[3];
          }
          gemm.ukernel(mr_cur, min_of(nr, bc - pq * nr), d, a, static_cast<size_t>(qs),
                       kt + pq * d * nr, s + r0 * ls + pq * nr, ls, kF32GemmFinal, &score_ep);
        }
      }
      if (bool_mask != nullptr) apply_bool_mask(bool_mask, i0, rows, j0, bc, s, ls);

      // The online softmax, row by row. Keys past the diagonal (causal) and
      // rows with nothing unmasked yet get P = 0.
      for (size_t r = 0; r < rows; ++r) {
        const size_t i = i0 + r;
        float* row = s + r * ls;
        size_t valid = bc;
        if (p.causal) valid = i >= j0 ? min_of(bc, i - j0 + 1) : 0;
        corr[r] = 1.0f;
        const float row_max = valid > 0 ? cfg.row_max(row, valid) : -INFINITY;
        const float m_new = row_max > m[r] ? row_max : m[r];
        if (m_new == -INFINITY) {
          std::memset(row, 0, bc * sizeof(float));
          continue;
        }
        const float sum = cfg.exp_row(row, valid, m_new);
        if (valid < bc) std::memset(row + valid, 0, (bc - valid) * sizeof(float));
        const float c = m[r] == -INFINITY ? 0.0f : std::exp(m[r] - m_new);
        l[r] = l[r] * c + sum;
        m[r] = m_new;
        corr[r] = c;
      }

      // O = O * corr + P V (the first block writes O outright).
      if (kb > 0) {
        for (size_t r = 0; r < rows; ++r) {
          if (corr[r] != 1.0f) {
            cfg.scale_row(out + static_cast<ptrdiff_t>(i0 + r) * os, e, corr[r]);
          }
        }
      }
      const uint32_t flags = kb > 0 ? kF32GemmAccumulate : 0u;
      for (size_t t = 0; t < tiles; ++t) {
        const size_t r0 = t * rows / tiles;
        const size_t mr_cur = (t + 1) * rows / tiles - r0;
        float* c = out + static_cast<ptrdiff_t>(i0 + r0) * os;
        for (size_t pe = 0; pe * nr < e; ++pe) {
          gemm.ukernel(mr_cur, min_of(nr, e - pe * nr), bc, s + r0 * ls, ls, vp + pe * bc * nr,
                       c + pe * nr, static_cast<size_t>(os), flags, &plain_ep);
        }
      }
    }
    // 1 / l: a row with every key masked has l = 0 (its P V is 0) and ends
    // NaN, as a plain softmax does, or stays 0 under a safe softmax.
    for (size_t r = 0; r < rows; ++r) {
      if (l[r] == 0.0f && p.safe_softmax) continue;
      cfg.scale_row(out + static_cast<ptrdiff_t>(i0 + r) * os, e, 1.0f / l[r]);
    }
  }

  // Tasks [begin, end): task t = (b * heads + h) * q_tiles + query tile.
  void run(size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      const size_t bh = t / plan.q_tiles;
      const size_t qt = t % plan.q_tiles;
      run_tile(bh, qt * p.q_len / plan.q_tiles, (qt + 1) * p.q_len / plan.q_tiles);
    }
  }
};

// No keys: softmax over nothing, and torch's matmul with an empty dim gives 0.
void zero_output(const F32AttentionProblem& p) {
  for (size_t b = 0; b < p.batch; ++b) {
    for (size_t h = 0; h < p.heads; ++h) {
      for (size_t i = 0; i < p.q_len; ++i) {
        float* row = p.out + static_cast<ptrdiff_t>(b) * p.out_strides[0] +
                     static_cast<ptrdiff_t>(h) * p.out_strides[1] +
                     static_cast<ptrdiff_t>(i) * p.out_strides[2];
        std::memset(row, 0, p.v_head_dim * sizeof(float));
      }
    }
  }
}

}  // namespace

size_t f32_attention_num_variants() { return kNumVariants; }

const F32AttentionConfig& f32_attention_variant(size_t index) { return *kVariants[index]; }

bool f32_attention_variant_supported(const F32AttentionConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const F32AttentionConfig& f32_attention_config() {
  static const F32AttentionConfig* const chosen = [] {
    for (const F32AttentionConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kF32AttentionScalarConfig;
  }();
  return *chosen;
}

size_t f32_attention_temp_bytes(const F32GemmConfig& gemm, const F32AttentionProblem& problem,
                                size_t num_threads) {
  const Plan plan = make_plan(gemm, problem);
  return (num_threads > 0 ? num_threads : 1) * plan.thread_floats * sizeof(float);
}

void f32_attention(const F32AttentionConfig& config, const F32GemmConfig& gemm,
                   const F32AttentionProblem& p, ThreadPool* pool, void* temp) {
  if (p.batch == 0 || p.heads == 0 || p.q_len == 0 || p.v_head_dim == 0) return;
  if (p.kv_len == 0) {
    zero_output(p);
    return;
  }
  const Plan plan = make_plan(gemm, p);
  const size_t tasks = p.batch * p.heads * plan.q_tiles;
  const double flops = 2.0 * static_cast<double>(p.batch * p.heads) *
                       static_cast<double>(p.q_len) * static_cast<double>(p.kv_len) *
                       static_cast<double>(p.head_dim + p.v_head_dim);
  const size_t threads =
      pool != nullptr && flops >= kMinParallelFlops ? pool->num_threads() : 1;
  const size_t chunks = min_of(threads, tasks);
  float* const base = static_cast<float*>(temp);
  if (chunks <= 1) {
    Worker w{config, gemm, p, plan, base};
    w.run(0, tasks);
    return;
  }
  // Chunk i takes tasks [i * tasks / chunks, ...): whole heads where the
  // heads divide evenly, so each head is packed by one thread only.
  pool->run(chunks, [&](size_t i) {
    Worker w{config, gemm, p, plan, base + i * plan.thread_floats};
    w.run(i * tasks / chunks, (i + 1) * tasks / chunks);
  });
}

}  // namespace ember::kernels::optimized
