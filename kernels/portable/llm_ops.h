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
//   Q4_1 (bits 4): fp16 d, fp16 m, 16 bytes; byte j: weight j (low nibble),
//                  weight j + 16 (high nibble); w = d * q + m.
//   Q8_0 (bits 8): fp16 d, 32 int8; w = d * q.
constexpr size_t kQuantGroup = 32;
constexpr size_t kQ4_1BlockBytes = 20;
constexpr size_t kQ8_0BlockBytes = 34;
// Bytes of one block for `bits`, 0 for a bits value with no format.
size_t quant_block_bytes(int64_t bits);

// y[i, n] = sum_k x[i, k] * W[n, k] for i < m, n < n_out, W one row of
// k / 32 blocks per output, rows w_row_bytes apart. Plain loops in float:
// the reference the optimized kernels are tested against.
void qlinear_reference(int64_t bits, size_t m, size_t n_out, size_t k, const float* x,
                       const uint8_t* w, size_t w_row_bytes, float* y);

// ember::qlinear.out(x [..., k], blocks uint8 [n, k / 32, block], bits, *, out [..., n]).
void qlinear_out(KernelContext& ctx, const Tensor& x, const Tensor& blocks, int64_t bits,
                 Tensor& out);

}  // namespace ember::kernels::portable
