// ember::sdpa_cached.out on the f32 attention family's row operations: the
// LLM decode's attention over its KV cache. A task is one (batch, KV head,
// query): the query heads sharing that KV head (grouped-query attention) go
// through the cache together, so each key and value row is read from memory
// once for all of them, with an online softmax over chunks of keys as the
// portable kernel has. Anything but float32 contiguous, well-formed operands
// goes to the portable kernel, which reports the error in its own words.
#include <cmath>

#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/portable/llm_ops.h"
#include "runtime/core/thread_pool.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels::optimized {
namespace {

// Keys a chunk scores at once, and query heads a task runs together: the
// scores (kChunk x kGroup floats, 16 KiB) stay on the task's stack.
constexpr int64_t kChunk = 256;
constexpr int64_t kGroup = 16;

bool well_formed(const Tensor& q, const Tensor& k_cache, const Tensor& v_cache, const Tensor& pos,
                 Tensor& out) {
  for (const Tensor* t : {&q, &k_cache, &v_cache, static_cast<const Tensor*>(&out)}) {
    if (t->scalar_type() != ScalarType::Float || t->dim() != 4 || !t->is_contiguous_dim_order()) {
      return false;
    }
  }
  const int64_t batch = q.size(0), heads = q.size(1), seq = q.size(2), capacity = k_cache.size(2);
  if (k_cache.size(0) != batch || v_cache.size(0) != batch || k_cache.size(3) != q.size(3) ||
      v_cache.size(1) != k_cache.size(1) || v_cache.size(2) != capacity ||
      k_cache.size(1) <= 0 || heads % k_cache.size(1) != 0 ||
      pos.scalar_type() != ScalarType::Long || pos.numel() != seq ||
      !pos.is_contiguous_dim_order()) {
    return false;
  }
  const int64_t* positions = pos.const_data_ptr<int64_t>();
  for (int64_t s = 0; s < seq; ++s) {
    if (positions[s] < 0 || positions[s] >= capacity) return false;
  }
  const int64_t sizes[4] = {batch, heads, seq, v_cache.size(3)};
  return out.resize(Span<const int64_t>(sizes, 4)) == Error::Ok;
}

// Shapes and pointers of one call.
struct Cached {
  int64_t heads, seq, d, dv, kv_heads, capacity, group;
  const float* q;
  const float* k;
  const float* v;
  const int64_t* positions;
  float* out;
  float scale;
};

// Query heads [h0, h0 + n) (n <= kGroup) of KV head kvh at query s of batch b.
void attend(const F32AttentionConfig& rows, const Cached& c, int64_t b, int64_t kvh, int64_t s,
            int64_t h0, int64_t n) {
  float scores[kGroup][kChunk];
  float running_max[kGroup], running_sum[kGroup];
  const float* query[kGroup];
  float* output[kGroup];
  for (int64_t g = 0; g < n; ++g) {
    const int64_t row = (b * c.heads + h0 + g) * c.seq + s;
    query[g] = c.q + row * c.d;
    output[g] = c.out + row * c.dv;
    for (int64_t j = 0; j < c.dv; ++j) output[g][j] = 0.0f;
    running_max[g] = -INFINITY;
    running_sum[g] = 0.0f;
  }
  const float* keys = c.k + (b * c.kv_heads + kvh) * c.capacity * c.d;
  const float* values = c.v + (b * c.kv_heads + kvh) * c.capacity * c.dv;
  const int64_t length = c.positions[s] + 1;
  for (int64_t c0 = 0; c0 < length; c0 += kChunk) {
    const int64_t len = length - c0 < kChunk ? length - c0 : kChunk;
    rows.scores(static_cast<size_t>(n), query, keys + c0 * c.d, static_cast<size_t>(len),
                static_cast<size_t>(c.d), c.scale, &scores[0][0], kChunk);
    for (int64_t g = 0; g < n; ++g) {
      const float chunk_max = rows.row_max(scores[g], static_cast<size_t>(len));
      const float new_max = chunk_max > running_max[g] ? chunk_max : running_max[g];
      float sum = 0.0f;
      if (std::isfinite(new_max)) {
        sum = rows.exp_row(scores[g], static_cast<size_t>(len), new_max);
      } else {  // an infinite or NaN score: exp_row's max must be finite
        for (int64_t t = 0; t < len; ++t) {
          scores[g][t] = std::exp(scores[g][t] - new_max);
          sum += scores[g][t];
        }
      }
      const float rescale = std::exp(running_max[g] - new_max);
      running_sum[g] = running_sum[g] * rescale + sum;
      running_max[g] = new_max;
      rows.scale_row(output[g], static_cast<size_t>(c.dv), rescale);
    }
    rows.accumulate(static_cast<size_t>(n), output, values + c0 * c.dv, static_cast<size_t>(len),
                    static_cast<size_t>(c.dv), &scores[0][0], kChunk);
  }
  for (int64_t g = 0; g < n; ++g) {
    rows.scale_row(output[g], static_cast<size_t>(c.dv), 1.0f / running_sum[g]);
  }
}

void sdpa_cached_out(KernelContext& ctx, const Tensor& q, const Tensor& k_cache,
                     const Tensor& v_cache, const Tensor& pos, double scale, Tensor& out) {
  if (!well_formed(q, k_cache, v_cache, pos, out)) {
    portable::sdpa_cached_out(ctx, q, k_cache, v_cache, pos, scale, out);
    return;
  }
  Cached c;
  c.heads = q.size(1);
  c.seq = q.size(2);
  c.d = q.size(3);
  c.dv = v_cache.size(3);
  c.kv_heads = k_cache.size(1);
  c.capacity = k_cache.size(2);
  c.group = c.heads / c.kv_heads;
  c.q = q.const_data_ptr<float>();
  c.k = k_cache.const_data_ptr<float>();
  c.v = v_cache.const_data_ptr<float>();
  c.positions = pos.const_data_ptr<int64_t>();
  c.out = out.mutable_data_ptr<float>();
  c.scale = static_cast<float>(scale);
  const F32AttentionConfig& rows = f32_attention_config();
  const int64_t splits = (c.group + kGroup - 1) / kGroup;  // query-head runs of a KV head
  const int64_t tasks = q.size(0) * c.kv_heads * splits * c.seq;
  parallel_for(ctx.thread_pool(), tasks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      const int64_t s = task % c.seq;
      const int64_t split = (task / c.seq) % splits;
      const int64_t kvh = (task / (c.seq * splits)) % c.kv_heads;
      const int64_t b = task / (c.seq * splits * c.kv_heads);
      const int64_t first = split * kGroup;
      const int64_t n = c.group - first < kGroup ? c.group - first : kGroup;
      attend(rows, c, b, kvh, s, kvh * c.group + first, n);
    }
  });
}

}  // namespace

EMBER_REGISTER_OPTIMIZED_KERNEL("ember::sdpa_cached.out", sdpa_cached_out, kAllTypes);

}  // namespace ember::kernels::optimized
