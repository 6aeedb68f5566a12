// ember::sdpa_cached.out on the f32 attention family's row operations: the
// LLM decode's attention over its KV cache. A task is one (batch, KV head,
// query): the query heads sharing that KV head (grouped-query attention) go
// through the cache together, so each key and value row is read from memory
// once for all of them, with an online softmax over chunks of keys as the
// portable kernel has. Where those tasks are too few for the threads (a
// decode step of SmolLM2: 3 KV heads on 2 threads, one thread doing two),
// each task's keys are split into parts run apart and merged after, as
// flash-decoding does. Anything but float32 contiguous, well-formed operands
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
// A task's keys are split only into parts of at least this many keys (a
// part's merge costs a pass over its outputs), and only while every part
// but the first has its outputs in a stack array of this many floats.
constexpr int64_t kMinPartKeys = 64;
constexpr int64_t kMaxPartFloats = 4096;
constexpr int64_t kMaxParts = 8;

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

// One task: query heads [h0, h0 + n) (n <= kGroup) of KV head kvh at query s
// of batch b.
struct Task {
  int64_t b, kvh, s, h0, n;
};

Task task_at(const Cached& c, int64_t splits, int64_t task) {
  const int64_t s = task % c.seq;
  const int64_t split = (task / c.seq) % splits;
  const int64_t kvh = (task / (c.seq * splits)) % c.kv_heads;
  const int64_t b = task / (c.seq * splits * c.kv_heads);
  const int64_t first = split * kGroup;
  const int64_t n = c.group - first < kGroup ? c.group - first : kGroup;
  return Task{b, kvh, s, kvh * c.group + first, n};
}

// The row of q and of out that query head h0 + g of the task reads and writes.
int64_t query_row(const Cached& c, const Task& t, int64_t g) {
  return (t.b * c.heads + t.h0 + g) * c.seq + t.s;
}

// The task's outputs over keys [k0, k1) before the softmax's division:
// output[g] = sum of exp(score - running_max[g]) v, running_sum[g] = sum of
// those exps.
void attend_keys(const F32AttentionConfig& rows, const Cached& c, const Task& t, int64_t k0,
                 int64_t k1, float* const* output, float* running_max, float* running_sum) {
  float scores[kGroup][kChunk];
  const float* query[kGroup];
  const int64_t n = t.n;
  for (int64_t g = 0; g < n; ++g) {
    query[g] = c.q + query_row(c, t, g) * c.d;
    for (int64_t j = 0; j < c.dv; ++j) output[g][j] = 0.0f;
    running_max[g] = -INFINITY;
    running_sum[g] = 0.0f;
  }
  const float* keys = c.k + (t.b * c.kv_heads + t.kvh) * c.capacity * c.d;
  const float* values = c.v + (t.b * c.kv_heads + t.kvh) * c.capacity * c.dv;
  for (int64_t c0 = k0; c0 < k1; c0 += kChunk) {
    const int64_t len = k1 - c0 < kChunk ? k1 - c0 : kChunk;
    rows.scores(static_cast<size_t>(n), query, keys + c0 * c.d, static_cast<size_t>(len),
                static_cast<size_t>(c.d), c.scale, &scores[0][0], kChunk);
    for (int64_t g = 0; g < n; ++g) {
      const float chunk_max = rows.row_max(scores[g], static_cast<size_t>(len));
      const float new_max = chunk_max > running_max[g] ? chunk_max : running_max[g];
      float sum = 0.0f;
      if (std::isfinite(new_max)) {
        sum = rows.exp_row(scores[g], static_cast<size_t>(len), new_max);
      } else {  // an infinite or NaN score: exp_row's max must be finite
        for (int64_t j = 0; j < len; ++j) {
          scores[g][j] = std::exp(scores[g][j] - new_max);
          sum += scores[g][j];
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
}

// The task's output rows in `out`.
void output_rows(const Cached& c, const Task& t, float** output) {
  for (int64_t g = 0; g < t.n; ++g) {
    output[g] = c.out + query_row(c, t, g) * c.dv;
  }
}

// The whole task, softmax division included.
void attend(const F32AttentionConfig& rows, const Cached& c, const Task& t) {
  float* output[kGroup];
  float running_max[kGroup], running_sum[kGroup];
  output_rows(c, t, output);
  attend_keys(rows, c, t, 0, c.positions[t.s] + 1, output, running_max, running_sum);
  for (int64_t g = 0; g < t.n; ++g) {
    rows.scale_row(output[g], static_cast<size_t>(c.dv), 1.0f / running_sum[g]);
  }
}

// Query heads a task runs at most, and the floats the parts of `tasks` tasks
// keep beside the output: each task's first part's maxima and sums, every
// other part's outputs, maxima and sums.
int64_t task_rows(const Cached& c) { return c.group < kGroup ? c.group : kGroup; }
int64_t part_floats(const Cached& c, int64_t tasks, int64_t parts) {
  return tasks * 2 * task_rows(c) + tasks * (parts - 1) * task_rows(c) * (c.dv + 2);
}

// Parts of its keys each task is split into: 1 where the tasks keep the
// threads busy, or where the keys are too few or the parts' outputs too many.
int64_t key_parts(const Cached& c, int64_t tasks, int64_t threads) {
  if (threads <= 1 || tasks >= 2 * threads || tasks % threads == 0) return 1;
  int64_t shortest = c.capacity;
  for (int64_t s = 0; s < c.seq; ++s) {
    shortest = c.positions[s] + 1 < shortest ? c.positions[s] + 1 : shortest;
  }
  int64_t parts = (2 * threads + tasks - 1) / tasks;
  parts = parts < kMaxParts ? parts : kMaxParts;
  parts = parts < shortest / kMinPartKeys ? parts : shortest / kMinPartKeys;
  while (parts > 1 && part_floats(c, tasks, parts) > kMaxPartFloats) --parts;
  return parts > 1 ? parts : 1;
}

// The tasks with their keys in `parts` parts: part 0 of a task writes its
// sums to the output rows, the others to `spill`; then each task's parts
// merge. A task whose parts saw an infinite or NaN score runs again whole,
// so that such scores come out as the unsplit kernel gives them.
// Not inlined: its stack array is reserved only when tasks are split.
__attribute__((noinline)) void attend_in_parts(const F32AttentionConfig& rows, const Cached& c,
                                               KernelContext& ctx, int64_t splits, int64_t tasks,
                                               int64_t parts) {
  float spill[kMaxPartFloats];
  const int64_t r = task_rows(c);
  // Where part `part` of `task` keeps its outputs, maxima and sums.
  auto part_state = [&](int64_t task, int64_t part, float** output, float** max, float** sum) {
    const Task t = task_at(c, splits, task);
    if (part == 0) {
      output_rows(c, t, output);
      *max = spill + task * 2 * r;
      *sum = *max + r;
      return t;
    }
    float* base = spill + tasks * 2 * r + (task * (parts - 1) + part - 1) * r * (c.dv + 2);
    *max = base;
    *sum = base + r;
    for (int64_t g = 0; g < t.n; ++g) output[g] = base + 2 * r + g * c.dv;
    return t;
  };
  parallel_for(ctx.thread_pool(), tasks * parts, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const int64_t task = i / parts, part = i % parts;
      float* output[kGroup];
      float *max = nullptr, *sum = nullptr;
      const Task t = part_state(task, part, output, &max, &sum);
      const int64_t length = c.positions[t.s] + 1;
      attend_keys(rows, c, t, length * part / parts, length * (part + 1) / parts, output, max,
                  sum);
    }
  });
  for (int64_t task = 0; task < tasks; ++task) {
    float* output[kMaxParts][kGroup];  // part 0's: the output rows
    float* max[kMaxParts];
    float* sum[kMaxParts];
    Task t{};
    bool finite = true;
    for (int64_t part = 0; part < parts; ++part) {
      t = part_state(task, part, output[part], &max[part], &sum[part]);
      for (int64_t g = 0; g < t.n; ++g) {
        finite = finite && std::isfinite(max[part][g]) && std::isfinite(sum[part][g]);
      }
    }
    if (!finite) {
      attend(rows, c, t);
      continue;
    }
    for (int64_t g = 0; g < t.n; ++g) {
      float merged_max = max[0][g];
      for (int64_t part = 1; part < parts; ++part) {
        merged_max = max[part][g] > merged_max ? max[part][g] : merged_max;
      }
      float total = 0.0f;
      for (int64_t part = 0; part < parts; ++part) {
        const float w = std::exp(max[part][g] - merged_max);
        total += w * sum[part][g];
        if (part == 0) {
          rows.scale_row(output[0][g], static_cast<size_t>(c.dv), w);
        } else {
          for (int64_t j = 0; j < c.dv; ++j) output[0][g][j] += w * output[part][g][j];
        }
      }
      rows.scale_row(output[0][g], static_cast<size_t>(c.dv), 1.0f / total);
    }
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
  const int64_t threads =
      ctx.thread_pool() != nullptr ? static_cast<int64_t>(ctx.thread_pool()->num_threads()) : 1;
  const int64_t parts = key_parts(c, tasks, threads);
  if (parts > 1) {
    attend_in_parts(rows, c, ctx, splits, tasks, parts);
    return;
  }
  parallel_for(ctx.thread_pool(), tasks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) attend(rows, c, task_at(c, splits, task));
  });
}

}  // namespace

EMBER_REGISTER_OPTIMIZED_KERNEL("ember::sdpa_cached.out", sdpa_cached_out, kAllTypes);

}  // namespace ember::kernels::optimized
