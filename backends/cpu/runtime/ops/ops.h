// The CPU backend's ops: one factory per op kind, each checking its values
// and parameters against the blob and preparing what runs need (packed
// weights, geometry). A factory fails with a message rather than building an
// op that could read or write out of bounds.
#pragma once

#include <cmath>

#include "backends/cpu/runtime/delegate.h"
#include "backends/cpu/schema/cpu_delegate_generated.h"
#include "runtime/core/result.h"

namespace ember::cpu {

// What a factory reads: the delegate's values and the blob's constants.
struct BuildContext {
  const ValueInfo* values;
  size_t num_values;
  const cpu_fb::Graph* graph;

  // The data of value `v` when it is a constant, else null.
  const float* constant(uint32_t v) const;
  // A fused clamp's bounds (none: -inf, +inf).
  static void clamp_bounds(const cpu_fb::Op* op, float* low, float* high) {
    *low = op->clamp() != nullptr ? op->clamp()->min() : -INFINITY;
    *high = op->clamp() != nullptr ? op->clamp()->max() : INFINITY;
  }
};

// The graph of a blob: verified (identifier ECP1, the flatbuffer's offsets)
// and 16-byte aligned, else DelegateInvalidCompatibility; `who` starts the
// message.
Result<const cpu_fb::Graph*> verify_graph(const FreeableBuffer& blob, const char* who);

// Reads and checks a blob's values into out[0, num_values) (the graph's
// count): sizes, layouts, kinds, dtypes, constants' sizes, scratch bounds;
// `who` starts each message. The Vulkan backend, whose blobs have this
// format, reads them with it too.
Error read_value_infos(const cpu_fb::Graph* graph, ValueInfo* out, size_t num_values,
                       const char* who);

// A Reduce op's input as [outer, size, inner] in memory order: the reduced
// dims one block, the kept ones in their logical order, the output the
// reduced shape; false (logged) otherwise. The Vulkan backend's too.
bool reduce_geometry(const ValueInfo& in, const ValueInfo& out, const cpu_fb::Reduce* params,
                     size_t* outer, size_t* size, size_t* inner);

// A Pool2d op's window: its kernel, stride, padding and dilation, PyTorch's
// checks passed and its rules giving the planned output size; false
// (logged) otherwise. The Vulkan backend's too.
struct Pool2dGeometry {
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
};
bool pool2d_geometry(const ValueInfo& in, const ValueInfo& out, const cpu_fb::Pool2d* params,
                     Pool2dGeometry* g);

Result<CpuOp*> make_linear(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_conv2d(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_binary(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_unary(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_to_layout(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_reshape(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_softmax(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_layer_norm(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_pool2d(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_adaptive_avg_pool2d(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_reduce(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_permute(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_concat(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_embedding(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_matmul(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_attention(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_pad(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_qlinear(const BuildContext& ctx, const cpu_fb::Op* op);
// int8 (qconvert_ops.cpp, qconv_ops.cpp, qgemm_ops.cpp, qbinary_ops.cpp).
Result<CpuOp*> make_qs8_convert(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_qs8_conv2d(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_qs8_linear(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_qs8_binary(const BuildContext& ctx, const cpu_fb::Op* op);
Result<CpuOp*> make_qd8_linear(const BuildContext& ctx, const cpu_fb::Op* op);
// Makes `follower` read the per-token quantization of an earlier Qd8Linear,
// `source`, of the same input instead of repeating it (both made by
// make_qd8_linear, source run first); false, and nothing changed, when they
// read different inputs or memory runs out.
bool share_qd8_rows(CpuOp* source, CpuOp* follower);

// Applies a fused clamp to n floats (nothing when the bounds are infinite).
void clamp_in_place(float* data, size_t n, float low, float high);

}  // namespace ember::cpu
