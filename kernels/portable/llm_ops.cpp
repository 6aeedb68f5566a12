// Kernels of the LLM operators (see llm_ops.h): ember::qlinear,
// ember::qembedding, ember::sdpa_cached, and the fused ember::rms_norm,
// ember::rope and ember::swiglu.
#include "kernels/portable/llm_ops.h"

#include <cmath>
#include <cstring>

#include "kernels/portable/util/kernel_util.h"
#include "runtime/core/half.h"
#include "runtime/core/thread_pool.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace portable {

size_t quant_block_bytes(int64_t bits) {
  return bits == 4 ? kQ4_1BlockBytes : bits == 8 ? kQ8_0BlockBytes : 0;
}

namespace {

// Checks blocks [n, k / 32, block bytes] (uint8, contiguous) against bits and
// k; returns n, or -1 after failing ctx.
int64_t check_blocks(KernelContext& ctx, const char* op, const Tensor& blocks, int64_t bits,
                     int64_t k) {
  const size_t block = quant_block_bytes(bits);
  if (block == 0) {
    ctx.fail(Error::InvalidArgument, "%s: bits must be 4 (Q4_1) or 8 (Q8_0), got %lld", op,
             static_cast<long long>(bits));
    return -1;
  }
  if (blocks.scalar_type() != ScalarType::Byte || blocks.dim() != 3 ||
      blocks.size(2) != static_cast<int64_t>(block) || !blocks.is_contiguous_dim_order()) {
    ctx.fail(Error::InvalidArgument, "%s: weights must be contiguous uint8 [n, k / 32, %zu]", op,
             block);
    return -1;
  }
  if (k >= 0 && blocks.size(1) * static_cast<int64_t>(kQuantGroup) != k) {
    ctx.fail(Error::InvalidArgument, "%s: %lld inputs per row, the weights have %lld", op,
             static_cast<long long>(k),
             static_cast<long long>(blocks.size(1) * static_cast<int64_t>(kQuantGroup)));
    return -1;
  }
  return blocks.size(0);
}

}  // namespace

void dequantize_row_block(int64_t bits, const uint8_t* blocks, size_t n, size_t nb, size_t r,
                          size_t b, float* w) {
  const size_t block = quant_block_bytes(bits);
  const size_t first = r - r % kQuantPanelRows, lane = r % kQuantPanelRows;
  const size_t h = n - first < kQuantPanelRows ? n - first : kQuantPanelRows;
  const uint8_t* at = blocks + first * nb * block + b * h * block;
  uint16_t d_bits;
  std::memcpy(&d_bits, at + 2 * lane, 2);
  const float d = Half::to_float(d_bits);
  if (bits == 4) {
    uint16_t m_bits;
    std::memcpy(&m_bits, at + 2 * h + 2 * lane, 2);
    const float m = Half::to_float(m_bits);
    for (size_t c = 0; c < 4; ++c) {
      const uint8_t* q = at + 4 * h + c * 4 * h + 4 * lane;
      for (size_t i = 0; i < 4; ++i) {
        w[8 * c + i] = d * static_cast<float>(q[i] & 0x0F) + m;
        w[8 * c + 4 + i] = d * static_cast<float>(q[i] >> 4) + m;
      }
    }
  } else {
    for (size_t c = 0; c < 8; ++c) {
      const uint8_t* q = at + 2 * h + c * 4 * h + 4 * lane;
      for (size_t i = 0; i < 4; ++i) w[4 * c + i] = d * static_cast<float>(static_cast<int8_t>(q[i]));
    }
  }
}

namespace {

// y[i, j] for i < m and output columns j in [begin, end).
void qlinear_columns(int64_t bits, size_t m, size_t n, size_t k, const float* x, const uint8_t* w,
                     size_t begin, size_t end, float* y) {
  float weights[kQuantGroup];
  for (size_t j = begin; j < end; ++j) {
    for (size_t i = 0; i < m; ++i) y[i * n + j] = 0.0f;
    for (size_t b = 0; b * kQuantGroup < k; ++b) {
      dequantize_row_block(bits, w, n, k / kQuantGroup, j, b, weights);
      for (size_t i = 0; i < m; ++i) {
        const float* xb = x + i * k + b * kQuantGroup;
        float sum = 0.0f;
        for (size_t t = 0; t < kQuantGroup; ++t) sum += xb[t] * weights[t];
        y[i * n + j] += sum;
      }
    }
  }
}

}  // namespace

void qlinear_reference(int64_t bits, size_t m, size_t n, size_t k, const float* x,
                       const uint8_t* w, float* y) {
  qlinear_columns(bits, m, n, k, x, w, 0, n, y);
}

void qlinear_out(KernelContext& ctx, const Tensor& x, const Tensor& blocks, int64_t bits,
                 Tensor& out) {
  constexpr const char* kOp = "qlinear";
  EMBER_KERNEL_CHECK(ctx, x.scalar_type() == ScalarType::Float && out.scalar_type() == ScalarType::Float,
                     "%s: x and out must be float32", kOp);
  EMBER_KERNEL_CHECK(ctx, x.dim() >= 1 && x.is_contiguous_dim_order(), "%s: x must be contiguous",
                     kOp);
  const int64_t k = x.size(x.dim() - 1);
  const int64_t n = check_blocks(ctx, kOp, blocks, bits, k);
  if (n < 0) return;
  int64_t sizes[kTensorDimensionLimit];
  for (int d = 0; d + 1 < x.dim(); ++d) sizes[d] = x.size(d);
  sizes[x.dim() - 1] = n;
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, x.dim()), kOp)) return;
  const size_t m = k > 0 ? static_cast<size_t>(x.numel() / k) : 0;
  const float* xd = x.const_data_ptr<float>();
  const uint8_t* wd = blocks.const_data_ptr<uint8_t>();
  float* yd = out.mutable_data_ptr<float>();
  // Output columns split over the pool; each task writes its own columns.
  parallel_for(ctx.thread_pool(), n, 16, [&](int64_t begin, int64_t end) {
    qlinear_columns(bits, m, static_cast<size_t>(n), static_cast<size_t>(k), xd, wd,
                    static_cast<size_t>(begin), static_cast<size_t>(end), yd);
  });
}

// ember::sdpa_cached.out(q [B, H, S, D], k_cache [B, KV, C, D], v_cache
// [B, KV, C, Dv], pos [S], scale, *, out [B, H, S, Dv]): query s sees cache
// rows 0..pos[s]; head h reads KV head h / (H / KV). Rows past the largest
// position are never read.
void sdpa_cached_out(KernelContext& ctx, const Tensor& q, const Tensor& k_cache,
                     const Tensor& v_cache, const Tensor& pos, double scale, Tensor& out) {
  constexpr const char* kOp = "sdpa_cached";
  EMBER_KERNEL_CHECK(ctx, q.scalar_type() == ScalarType::Float &&
                              k_cache.scalar_type() == ScalarType::Float &&
                              v_cache.scalar_type() == ScalarType::Float &&
                              out.scalar_type() == ScalarType::Float,
                     "%s: q, the caches and out must be float32", kOp);
  EMBER_KERNEL_CHECK(ctx, q.dim() == 4 && k_cache.dim() == 4 && v_cache.dim() == 4,
                     "%s: q and the caches must be 4-D", kOp);
  EMBER_KERNEL_CHECK(ctx, q.is_contiguous_dim_order() && k_cache.is_contiguous_dim_order() &&
                              v_cache.is_contiguous_dim_order(),
                     "%s: q and the caches must be contiguous", kOp);
  const int64_t batch = q.size(0), heads = q.size(1), seq = q.size(2), d = q.size(3);
  const int64_t kv_heads = k_cache.size(1), capacity = k_cache.size(2), dv = v_cache.size(3);
  EMBER_KERNEL_CHECK(ctx, k_cache.size(0) == batch && v_cache.size(0) == batch &&
                              v_cache.size(1) == kv_heads && v_cache.size(2) == capacity &&
                              k_cache.size(3) == d && kv_heads > 0 && heads % kv_heads == 0,
                     "%s: q [%lld, %lld, ., %lld] does not match the caches [%lld, %lld, %lld, %lld]",
                     kOp, static_cast<long long>(batch), static_cast<long long>(heads),
                     static_cast<long long>(d), static_cast<long long>(k_cache.size(0)),
                     static_cast<long long>(kv_heads), static_cast<long long>(capacity),
                     static_cast<long long>(k_cache.size(3)));
  EMBER_KERNEL_CHECK(ctx, pos.scalar_type() == ScalarType::Long && pos.numel() == seq &&
                              pos.is_contiguous_dim_order(),
                     "%s: pos must be int64 with one position per query", kOp);
  const int64_t* positions = pos.const_data_ptr<int64_t>();
  for (int64_t s = 0; s < seq; ++s) {
    EMBER_KERNEL_CHECK(ctx, positions[s] >= 0 && positions[s] < capacity,
                       "%s: position %lld is outside the cache (capacity %lld)", kOp,
                       static_cast<long long>(positions[s]), static_cast<long long>(capacity));
  }
  const int64_t sizes[4] = {batch, heads, seq, dv};
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, 4), kOp)) return;
  const float* qd = q.const_data_ptr<float>();
  const float* kd = k_cache.const_data_ptr<float>();
  const float* vd = v_cache.const_data_ptr<float>();
  float* od = out.mutable_data_ptr<float>();
  const int64_t group = heads / kv_heads;
  const float factor = static_cast<float>(scale);
  // One task per (batch, head, query); scores for up to the cache's length
  // live on the stack in chunks, with an online softmax across chunks.
  parallel_for(ctx.thread_pool(), batch * heads * seq, 4, [&](int64_t begin, int64_t end) {
    constexpr int64_t kChunk = 256;
    float scores[kChunk];
    for (int64_t task = begin; task < end; ++task) {
      const int64_t s = task % seq, h = (task / seq) % heads, b = task / (seq * heads);
      const float* qrow = qd + ((b * heads + h) * seq + s) * d;
      const int64_t kvh = h / group;
      const float* keys = kd + (b * kv_heads + kvh) * capacity * d;
      const float* values = vd + (b * kv_heads + kvh) * capacity * dv;
      float* orow = od + ((b * heads + h) * seq + s) * dv;
      for (int64_t j = 0; j < dv; ++j) orow[j] = 0.0f;
      float running_max = -INFINITY, running_sum = 0.0f;
      const int64_t length = positions[s] + 1;
      for (int64_t c0 = 0; c0 < length; c0 += kChunk) {
        const int64_t n = length - c0 < kChunk ? length - c0 : kChunk;
        float chunk_max = -INFINITY;
        for (int64_t t = 0; t < n; ++t) {
          const float* key = keys + (c0 + t) * d;
          float dot = 0.0f;
          for (int64_t j = 0; j < d; ++j) dot += qrow[j] * key[j];
          scores[t] = dot * factor;
          chunk_max = scores[t] > chunk_max ? scores[t] : chunk_max;
        }
        const float new_max = chunk_max > running_max ? chunk_max : running_max;
        const float rescale = std::exp(running_max - new_max);
        running_sum *= rescale;
        for (int64_t j = 0; j < dv; ++j) orow[j] *= rescale;
        for (int64_t t = 0; t < n; ++t) {
          const float p = std::exp(scores[t] - new_max);
          running_sum += p;
          const float* value = values + (c0 + t) * dv;
          for (int64_t j = 0; j < dv; ++j) orow[j] += p * value[j];
        }
        running_max = new_max;
      }
      const float inv = 1.0f / running_sum;
      for (int64_t j = 0; j < dv; ++j) orow[j] *= inv;
    }
  });
}

}  // namespace portable

namespace {

// ember::qembedding.out(blocks [rows, dim / 32, block], indices, bits, *, out [..., dim]).
void qembedding_out(KernelContext& ctx, const Tensor& blocks, const Tensor& indices, int64_t bits,
                    Tensor& out) {
  constexpr const char* kOp = "qembedding";
  const int64_t rows = portable::check_blocks(ctx, kOp, blocks, bits, -1);
  if (rows < 0) return;
  EMBER_KERNEL_CHECK(ctx, indices.scalar_type() == ScalarType::Long ||
                              indices.scalar_type() == ScalarType::Int,
                     "%s: indices must be int64 or int32", kOp);
  EMBER_KERNEL_CHECK(ctx, out.scalar_type() == ScalarType::Float, "%s: out must be float32", kOp);
  EMBER_KERNEL_CHECK(ctx, indices.dim() < kTensorDimensionLimit && indices.is_contiguous_dim_order(),
                     "%s: indices must be contiguous", kOp);
  const int64_t dim = blocks.size(1) * static_cast<int64_t>(portable::kQuantGroup);
  int64_t sizes[kTensorDimensionLimit];
  for (int d = 0; d < indices.dim(); ++d) sizes[d] = indices.size(d);
  sizes[indices.dim()] = dim;
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, indices.dim() + 1), kOp)) return;
  const size_t nb = static_cast<size_t>(blocks.size(1));
  const uint8_t* table = blocks.const_data_ptr<uint8_t>();
  float* y = out.mutable_data_ptr<float>();
  for (int64_t i = 0; i < indices.numel(); ++i) {
    const int64_t index = indices.scalar_type() == ScalarType::Long
                              ? indices.const_data_ptr<int64_t>()[i]
                              : indices.const_data_ptr<int32_t>()[i];
    EMBER_KERNEL_CHECK(ctx, index >= 0 && index < rows, "%s: index %lld is out of range [0, %lld)",
                       kOp, static_cast<long long>(index), static_cast<long long>(rows));
    for (int64_t b = 0; b < blocks.size(1); ++b) {
      portable::dequantize_row_block(bits, table, static_cast<size_t>(rows), nb,
                                     static_cast<size_t>(index), static_cast<size_t>(b),
                                     y + i * dim + b * static_cast<int64_t>(portable::kQuantGroup));
    }
  }
}

bool check_float(KernelContext& ctx, const char* op, const Tensor& a, Tensor& out) {
  if (a.scalar_type() != ScalarType::Float || out.scalar_type() != ScalarType::Float ||
      !a.is_contiguous_dim_order() || a.dim() < 1) {
    ctx.fail(Error::InvalidArgument, "%s: expects contiguous float32 tensors", op);
    return false;
  }
  return resize_output(ctx, out, a.sizes(), op);
}

// ember::rms_norm.out(x [..., n], weight [n], eps, *, out): x / rms(x) * weight
// per row, the sum of squares in double.
void rms_norm_out(KernelContext& ctx, const Tensor& x, const Tensor& weight, double eps,
                  Tensor& out) {
  constexpr const char* kOp = "rms_norm";
  if (!check_float(ctx, kOp, x, out)) return;
  const int64_t n = x.size(x.dim() - 1);
  EMBER_KERNEL_CHECK(ctx, weight.scalar_type() == ScalarType::Float && weight.numel() == n,
                     "%s: weight must be float32 with %lld elements", kOp,
                     static_cast<long long>(n));
  const float* xd = x.const_data_ptr<float>();
  const float* w = weight.const_data_ptr<float>();
  float* y = out.mutable_data_ptr<float>();
  const int64_t rows = n > 0 ? x.numel() / n : 0;
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = xd + r * n;
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i) sum += static_cast<double>(xr[i]) * xr[i];
    const float scale = 1.0f / std::sqrt(static_cast<float>(sum / static_cast<double>(n)) +
                                         static_cast<float>(eps));
    for (int64_t i = 0; i < n; ++i) y[r * n + i] = xr[i] * scale * w[i];
  }
}

// ember::rope.out(x [B, H, S, D], cos [S, D], sin [S, D], *, out): x * cos +
// rotate_half(x) * sin, rotate_half(x) = cat(-x[D/2:], x[:D/2]).
void rope_out(KernelContext& ctx, const Tensor& x, const Tensor& cos, const Tensor& sin,
              Tensor& out) {
  constexpr const char* kOp = "rope";
  if (!check_float(ctx, kOp, x, out)) return;
  EMBER_KERNEL_CHECK(ctx, x.dim() == 4 && x.size(3) % 2 == 0, "%s: x must be [B, H, S, D], D even",
                     kOp);
  const int64_t s = x.size(2), d = x.size(3), half = d / 2;
  EMBER_KERNEL_CHECK(ctx, cos.scalar_type() == ScalarType::Float &&
                              sin.scalar_type() == ScalarType::Float && cos.numel() == s * d &&
                              sin.numel() == s * d && cos.is_contiguous_dim_order() &&
                              sin.is_contiguous_dim_order(),
                     "%s: cos and sin must be contiguous float32 [S, D]", kOp);
  const float* xd = x.const_data_ptr<float>();
  const float* c = cos.const_data_ptr<float>();
  const float* sn = sin.const_data_ptr<float>();
  float* y = out.mutable_data_ptr<float>();
  const int64_t rows = x.numel() / d;
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = xd + r * d;
    const float* cr = c + (r % s) * d;
    const float* sr = sn + (r % s) * d;
    float* yr = y + r * d;
    for (int64_t i = 0; i < half; ++i) {
      yr[i] = xr[i] * cr[i] - xr[i + half] * sr[i];
      yr[i + half] = xr[i + half] * cr[i + half] + xr[i] * sr[i + half];
    }
  }
}

}  // namespace

void portable::swiglu_out(KernelContext& ctx, const Tensor& gate, const Tensor& up, Tensor& out) {
  constexpr const char* kOp = "swiglu";
  if (!check_float(ctx, kOp, gate, out)) return;
  EMBER_KERNEL_CHECK(ctx, up.scalar_type() == ScalarType::Float && up.numel() == gate.numel() &&
                              up.is_contiguous_dim_order(),
                     "%s: up must be float32 shaped as gate", kOp);
  const float* g = gate.const_data_ptr<float>();
  const float* u = up.const_data_ptr<float>();
  float* y = out.mutable_data_ptr<float>();
  for (int64_t i = 0; i < gate.numel(); ++i) y[i] = g[i] / (1.0f + std::exp(-g[i])) * u[i];
}

EMBER_REGISTER_KERNEL("ember::rms_norm.out", rms_norm_out, kAllTypes);
EMBER_REGISTER_KERNEL("ember::rope.out", rope_out, kAllTypes);
EMBER_REGISTER_KERNEL("ember::swiglu.out", portable::swiglu_out, kAllTypes);
EMBER_REGISTER_KERNEL("ember::qlinear.out", portable::qlinear_out, kAllTypes);
EMBER_REGISTER_KERNEL("ember::qembedding.out", qembedding_out, kAllTypes);
EMBER_REGISTER_KERNEL("ember::sdpa_cached.out", portable::sdpa_cached_out, kAllTypes);

}  // namespace ember::kernels
