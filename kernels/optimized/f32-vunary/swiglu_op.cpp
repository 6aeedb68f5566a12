// ember::swiglu.out (an LLM MLP's silu(gate) * up) on the vector-math
// families: SiLU into out, then out *= up, one chunk at a time so that the
// chunk is still in L1 for the multiply. The portable kernel's scalar exp
// made it the third most costly op of a SmolLM2 decode step. Anything but
// contiguous float32 of one size, or an out that is up's memory (SiLU would
// overwrite up before the multiply), goes to the portable kernel.
#include <cmath>

#include "kernels/optimized/f32-vbinary/f32_vbinary.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"
#include "kernels/portable/llm_ops.h"
#include "runtime/core/thread_pool.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels::optimized {
namespace {

// Floats a chunk: 16 KiB of out, gate and up each, within L1.
constexpr int64_t kChunk = 4096;
// Chunks a task: a decode step's rows (1536 floats) run on the calling
// thread, where waking the pool costs more than the row.
constexpr int64_t kChunksPerTask = 4;

bool fast(const Tensor& gate, const Tensor& up, const Tensor& out) {
  for (const Tensor* t : {&gate, &up, &out}) {
    if (t->scalar_type() != ScalarType::Float || !t->is_contiguous_dim_order()) return false;
  }
  return gate.dim() >= 1 && up.numel() == gate.numel() &&
         out.const_data_ptr() != up.const_data_ptr();
}

void swiglu_out(KernelContext& ctx, const Tensor& gate, const Tensor& up, Tensor& out) {
  if (!fast(gate, up, out) || out.resize(gate.sizes()) != Error::Ok) {
    portable::swiglu_out(ctx, gate, up, out);
    return;
  }
  const F32VUnaryUkernelFn silu =
      f32_vunary_config().ukernel[static_cast<size_t>(F32UnaryOp::Silu)];
  const F32VBinaryUkernelFn mul =
      f32_vbinary_config().vv[static_cast<size_t>(F32BinaryOp::Mul)];
  const F32VUnaryParams unary{-INFINITY, INFINITY};
  const F32VBinaryParams binary{-INFINITY, INFINITY};
  const float* g = gate.const_data_ptr<float>();
  const float* u = up.const_data_ptr<float>();
  float* y = out.mutable_data_ptr<float>();
  const int64_t n = gate.numel();
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  parallel_for(ctx.thread_pool(), chunks, kChunksPerTask, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      const int64_t i = c * kChunk;
      const size_t len = static_cast<size_t>(n - i < kChunk ? n - i : kChunk);
      silu(len, g + i, y + i, &unary);
      mul(len, y + i, u + i, y + i, &binary);
    }
  });
}

}  // namespace

EMBER_REGISTER_OPTIMIZED_KERNEL("ember::swiglu.out", swiglu_out, kAllTypes);

}  // namespace ember::kernels::optimized
