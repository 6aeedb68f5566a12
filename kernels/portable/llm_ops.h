// The portable kernels of the operators LLM programs add to core ATen
// (python/ember/llm/ops.py): weight-only quantized linear and embedding over
// Ember's block formats (Q4_1 and Q8_0, as GGUF stores them), and attention
// over a KV cache. Callable directly: the optimized quantized GEMM falls back
// to qlinear_out and its tester checks against qlinear_reference.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_context.h"

namespace ember::kernels::portable {

// Block formats: 32 weights along the input dim per block.
//   Q4_1 (bits 4): fp16 d, fp16 m, 32 4-bit codes q; w = d * q + m.
//   Q8_0 (bits 8): fp16 d, 32 int8 codes q; w = d * q.
// A weight [n, k] is uint8 [n, k / 32, block bytes], in panels of 16 rows
// (python/ember/llm/quant.py): panel p holds rows 16p .. 16p + h - 1 (h = 16
// but for a last panel of n % 16 rows) and starts at byte 16 p * (k / 32) *
// block; its block b (all h rows) at + b * h * block. One panel block:
//   Q4_1: d[h], m[h], then 4 chunks of h x 4 bytes: byte i of row r in chunk
//         c holds weight 8c + i (low nibble) and 8c + 4 + i (high nibble);
//   Q8_0: d[h], then 8 chunks of h x 4 int8: row r's weights 4c .. 4c + 3.
// A SIMD lane per row: the codes of 16 rows at one input are one vector.
constexpr size_t kQuantGroup = 32;
constexpr size_t kQuantPanelRows = 16;
constexpr size_t kQ4_1BlockBytes = 20;
constexpr size_t kQ8_0BlockBytes = 34;
// Bytes of one block for `bits`, 0 for a bits value with no format.
size_t quant_block_bytes(int64_t bits);

// The 32 weights of row r's block b of an [n, nb * 32] weight, in order.
void dequantize_row_block(int64_t bits, const uint8_t* blocks, size_t n, size_t nb, size_t r,
                          size_t b, float* w);

// y[i, j] = sum_k x[i, k] * W[j, k] for i < m, j < n, W [n, k] in panels.
// Plain loops in float: the reference the optimized kernels are tested
// against.
void qlinear_reference(int64_t bits, size_t m, size_t n, size_t k, const float* x,
                       const uint8_t* w, float* y);

// ember::qlinear.out(x [..., k], blocks uint8 [n, k / 32, block], bits, *, out [..., n]).
void qlinear_out(KernelContext& ctx, const Tensor& x, const Tensor& blocks, int64_t bits,
                 Tensor& out);

// ember::sdpa_cached.out(q [B, H, S, D], k_cache [B, KV, C, D], v_cache [B,
// KV, C, Dv], pos [S], scale, *, out [B, H, S, Dv]): attention over cache
// rows 0..pos[s] for query s, head h reading KV head h / (H / KV).
void sdpa_cached_out(KernelContext& ctx, const Tensor& q, const Tensor& k_cache,
                     const Tensor& v_cache, const Tensor& pos, double scale, Tensor& out);

// ember::swiglu.out(gate, up, *, out): silu(gate) * up, elementwise.
void swiglu_out(KernelContext& ctx, const Tensor& gate, const Tensor& up, Tensor& out);

}  // namespace ember::kernels::portable
