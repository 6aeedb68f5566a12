// The Vulkan backend's op encoders: one per op kind of the blob, each
// checking the op's values and parameters as the CPU backend's factory does
// (a malformed blob fails at init, never reads out of bounds on the GPU)
// and adding its dispatches, parameters and packed constants to the plan.
#pragma once

#include "backends/vulkan/runtime/plan.h"

namespace ember::vulkan {

using EncodeFn = Error (*)(Encoder& enc, const cpu_fb::Op* op);

// The encoder of an op kind; null for a kind this backend does not run.
EncodeFn encoder_for(cpu_fb::OpParams type);

Error encode_unary(Encoder& enc, const cpu_fb::Op* op);
Error encode_binary(Encoder& enc, const cpu_fb::Op* op);
Error encode_to_layout(Encoder& enc, const cpu_fb::Op* op);
Error encode_reshape(Encoder& enc, const cpu_fb::Op* op);
Error encode_permute(Encoder& enc, const cpu_fb::Op* op);
Error encode_concat(Encoder& enc, const cpu_fb::Op* op);
Error encode_pad(Encoder& enc, const cpu_fb::Op* op);
Error encode_embedding(Encoder& enc, const cpu_fb::Op* op);
Error encode_linear(Encoder& enc, const cpu_fb::Op* op);
Error encode_matmul(Encoder& enc, const cpu_fb::Op* op);
Error encode_conv2d(Encoder& enc, const cpu_fb::Op* op);
Error encode_pool2d(Encoder& enc, const cpu_fb::Op* op);
Error encode_adaptive_avg_pool2d(Encoder& enc, const cpu_fb::Op* op);
Error encode_softmax(Encoder& enc, const cpu_fb::Op* op);
Error encode_layer_norm(Encoder& enc, const cpu_fb::Op* op);
Error encode_reduce(Encoder& enc, const cpu_fb::Op* op);
Error encode_attention(Encoder& enc, const cpu_fb::Op* op);
Error encode_qlinear(Encoder& enc, const cpu_fb::Op* op);

// A copy through strides on both sides (copy.comp), the body of every
// layout op: for each index of `sizes`, dst[dst_offset + i . dst_strides] =
// src[src_offset + (i - before) . src_strides], or `fill` where i - before
// leaves [0, src_sizes) along some dim (with `padded`). Dims that both
// sides walk as one are merged first.
struct CopySpec {
  int rank = 0;
  int64_t sizes[cpu::kMaxDims] = {};
  int64_t src_strides[cpu::kMaxDims] = {};
  int64_t dst_strides[cpu::kMaxDims] = {};
  int64_t before[cpu::kMaxDims] = {};
  int64_t src_sizes[cpu::kMaxDims] = {};
  int64_t src_offset = 0, dst_offset = 0;
  bool padded = false;
  float fill = 0.0f;
};
Error encode_copy(Encoder& enc, const BufferRef& src, const BufferRef& dst, const CopySpec& spec);

// The epilogue of the product ops (gemm_common.glsl): the flags word (1
// bias, 2 residual), the activation code and the clamp, from the op's
// Activation and Clamp; false (logged) for an unknown activation.
struct Epilogue {
  uint32_t activation = 0xffffffffu;
  float low = -INFINITY, high = INFINITY;
};
bool read_epilogue(const cpu_fb::Op* op, Epilogue* out);

}  // namespace ember::vulkan
