// The f32 attention family: out = softmax(q @ k^T * scale + mask) @ v, tiled
// as FlashAttention tiles it: per (batch, head, query tile), key/value blocks
// one at a time with an online softmax, so the full q_len x kv_len score
// matrix never exists. Both products run on the f32 GEMM family's
// microkernel; the variants (scalar.cpp, avx2.cpp, neon.cpp) supply the row
// operations of the softmax (max, exp and sum, scale) and the transposing
// pack of K.
//
// This header is included by files compiled with ISA flags (-mavx2 -mfma), so
// it must define no inline function (see f32_gemm.h).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace ember {

class ThreadPool;

namespace kernels::optimized {

struct F32GemmConfig;

// --- the problem ---

// One attention over [batch, heads] pairs. Every operand is read or written
// in place through element strides over (batch, head, row), its last dim
// contiguous: q [b, h, i, d], k [b, h, j, d], v [b, h, j, e], out [b, h, i, e]
// (so a head split or merge costs no copy). The optional mask, additive
// (float) or bool (masked_fill's: a score it drops becomes masked_score), is
// read through strides over (b, h, i, j), 0 where it broadcasts. Strides may
// be 0 (a broadcast batch or head). out must not overlap the inputs.
struct F32AttentionProblem {
  size_t batch = 1;
  size_t heads = 1;
  size_t q_len = 0;
  size_t kv_len = 0;
  size_t head_dim = 0;    // d: q and k
  size_t v_head_dim = 0;  // e: v and out
  const float* q = nullptr;
  ptrdiff_t q_strides[3] = {};
  const float* k = nullptr;
  ptrdiff_t k_strides[3] = {};
  const float* v = nullptr;
  ptrdiff_t v_strides[3] = {};
  const float* mask = nullptr;  // additive; null: none
  const uint8_t* bool_mask = nullptr;  // nonzero is true; null: none; not with `mask`
  bool bool_mask_keeps = true;      // the bool mask's value that keeps a score
  float masked_score = -INFINITY;   // a score the bool mask drops
  ptrdiff_t mask_strides[4] = {};  // either mask's
  float* out = nullptr;
  ptrdiff_t out_strides[3] = {};
  float scale = 1.0f;
  // Query i attends to keys j <= i only (torch's tril, top-left aligned);
  // key blocks wholly above the diagonal are skipped, not computed.
  bool causal = false;
  // A query whose every key is masked (-inf) gets 0, as torch's math
  // scaled_dot_product_attention gives; otherwise NaN, as a plain softmax.
  bool safe_softmax = false;
};

// --- variants ---

struct F32AttentionConfig {
  const char* name;            // "scalar", "avx2", "neon"
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  // The largest of x[0, n), n >= 1.
  float (*row_max)(const float* x, size_t n);
  // x[i] = exp(x[i] - max) for i < n (max >= every x[i], finite); returns the
  // sum of the new x[i].
  float (*exp_row)(float* x, size_t n, float max);
  // x[i] *= s for i < n.
  void (*scale_row)(float* x, size_t n, float s);
  // K^T packed for the GEMM microkernel: rows [0, n) of k (row stride ldk,
  // d contiguous floats each) into ceil(n / nr) panels of d x nr floats,
  // panel p holding k rows [p*nr, p*nr + nr) as columns, zero past row n.
  void (*pack_kt)(size_t n, size_t d, const float* k, size_t ldk, size_t nr, float* packed);
  // The rows of attention over a KV cache (ember::sdpa_cached,
  // sdpa_cached_op.cpp), a chunk of keys and the queries sharing a KV head a
  // call: out[g * ld + t] = scale * (q[g] . keys[t]) for g < nq, t < len
  // (keys: len rows of d floats), and y[g][i] += sum over t < len of
  // p[g * ld + t] * values[t * dv + i] for g < nq, i < dv.
  void (*scores)(size_t nq, const float* const* q, const float* keys, size_t len, size_t d,
                 float scale, float* out, size_t ld);
  void (*accumulate)(size_t nq, float* const* y, const float* values, size_t len, size_t dv,
                     const float* p, size_t ld);
};

// The variants compiled for this architecture, best first, supported by the
// CPU or not (tests run every supported one).
size_t f32_attention_num_variants();
const F32AttentionConfig& f32_attention_variant(size_t index);
bool f32_attention_variant_supported(const F32AttentionConfig& config);
// The best variant cpu_features() allows, chosen on the first call and kept.
const F32AttentionConfig& f32_attention_config();

// --- the attention ---

// Temp bytes f32_attention needs for `problem` run with up to `num_threads`
// threads (one buffer per thread: packed K^T and V blocks, a score tile).
size_t f32_attention_temp_bytes(const F32GemmConfig& gemm, const F32AttentionProblem& problem,
                                size_t num_threads);

// Runs `problem`: the products on `gemm`'s microkernel, the softmax rows on
// `config`'s. `temp` (64-byte aligned) holds f32_attention_temp_bytes(gemm,
// problem, threads) bytes for the pool's thread count (1 without a pool).
// Work is split over (batch, head, query tile). Allocates nothing.
void f32_attention(const F32AttentionConfig& config, const F32GemmConfig& gemm,
                   const F32AttentionProblem& problem, ThreadPool* pool, void* temp);

}  // namespace kernels::optimized
}  // namespace ember
