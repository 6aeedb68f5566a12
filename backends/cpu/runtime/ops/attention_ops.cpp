// Attention: softmax(q @ k^T * scale + mask) @ v as one op, on the f32
// attention family (kernels/optimized/f32-attention), which tiles it without
// the full score matrix. q, k, v, the mask and the output are read and
// written in place through strides, so the head split before attention and
// the head merge after it are not copies.
#include <new>

#include "backends/cpu/runtime/ops/op_util.h"
#include "backends/cpu/runtime/ops/view_util.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"

namespace ember::cpu {
namespace {

using kernels::optimized::F32AttentionProblem;
using kernels::optimized::f32_attention;
using kernels::optimized::f32_attention_config;
using kernels::optimized::f32_attention_temp_bytes;
using kernels::optimized::f32_gemm_config;

class AttentionOp final : public CpuOp {
 public:
  // Pointers are offsets until run() adds each value's data.
  F32AttentionProblem problem;
  uint32_t q, k, v, mask, out;
  int64_t offsets[5];  // q, k, v, mask, out
  bool has_mask;
  bool bool_mask;

  size_t temp_bytes(size_t num_threads) const override {
    return f32_attention_temp_bytes(f32_gemm_config(), problem, num_threads) + 64;
  }

  void run(const ExecState& state) const override {
    F32AttentionProblem p = problem;
    p.q = state.data[q] + offsets[0];
    p.k = state.data[k] + offsets[1];
    p.v = state.data[v] + offsets[2];
    if (bool_mask) {
      p.bool_mask = reinterpret_cast<const uint8_t*>(state.data[mask]) + offsets[3];
    } else if (has_mask) {
      p.mask = state.data[mask] + offsets[3];
    }
    p.out = state.data[out] + offsets[4];
    f32_attention(f32_attention_config(), f32_gemm_config(), p, state.pool, state.op_temp);
  }
};

}  // namespace

Result<CpuOp*> make_attention(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Attention* params = op->params_as_Attention();
  OpValues v;
  if (params == nullptr || !read_op_values(ctx, op, 3, 4, &v)) return Error::InvalidProgram;
  const bool has_mask = params->has_mask();
  if (v.num_in != (has_mask ? 4u : 3u)) {
    return refuse("attention takes q, k, v%s", has_mask ? " and a mask" : "");
  }
  if (params->bool_mask() && !has_mask) return refuse("attention has a bool mask flag but no mask");
  // Sizes: batch, heads, q_len, kv_len, head_dim, v_head_dim.
  int64_t sizes[6];
  int64_t strides[5][4] = {};
  int64_t offsets[5];
  if (!read_longs(params->sizes(), 6, sizes) || !read_longs(params->offsets(), 5, offsets) ||
      !read_longs(params->q_strides(), 3, strides[0]) ||
      !read_longs(params->k_strides(), 3, strides[1]) ||
      !read_longs(params->v_strides(), 3, strides[2]) ||
      !read_longs(params->out_strides(), 3, strides[4]) ||
      (has_mask && !read_longs(params->mask_strides(), 4, strides[3]))) {
    EMBER_LOG(Error, "cpu backend: attention needs sizes, offsets and strides");
    return Error::InvalidProgram;
  }
  const int64_t b = sizes[0], h = sizes[1], l = sizes[2], s = sizes[3], d = sizes[4],
                e = sizes[5];
  // Each operand as [b, h, rows, cols], its last dim contiguous.
  const int64_t shapes[5][4] = {{b, h, l, d}, {b, h, s, d}, {b, h, s, e}, {b, h, l, s},
                                {b, h, l, e}};
  const uint32_t ids[5] = {v.in[0], v.in[1], v.in[2], has_mask ? v.in[3] : 0, v.out};
  for (int t = 0; t < 5; ++t) {
    if (t == 3 && !has_mask) continue;
    if (t != 3) strides[t][3] = 1;
    const ValueInfo& value = ctx.values[ids[t]];
    const DataType dtype = t == 3 && params->bool_mask() ? DataType::Bool : DataType::Float32;
    if (value.dtype != dtype || value.layout != Layout::Plain ||
        !view_in_bounds(value, offsets[t], shapes[t], strides[t], 4)) {
      EMBER_LOG(Error, "cpu backend: attention operand %d lies outside its value", t);
      return Error::InvalidProgram;
    }
  }
  // Threads write disjoint rows of out only if no two elements share a place.
  if (!view_non_overlapping(shapes[4], strides[4], 4)) {
    return refuse("the attention's output view writes an element twice");
  }
  AttentionOp* made = new (std::nothrow) AttentionOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  F32AttentionProblem& p = made->problem;
  p.batch = static_cast<size_t>(b);
  p.heads = static_cast<size_t>(h);
  p.q_len = static_cast<size_t>(l);
  p.kv_len = static_cast<size_t>(s);
  p.head_dim = static_cast<size_t>(d);
  p.v_head_dim = static_cast<size_t>(e);
  for (int i = 0; i < 3; ++i) {
    p.q_strides[i] = strides[0][i];
    p.k_strides[i] = strides[1][i];
    p.v_strides[i] = strides[2][i];
    p.out_strides[i] = strides[4][i];
  }
  for (int i = 0; i < 4; ++i) p.mask_strides[i] = strides[3][i];
  p.scale = params->scale();
  p.causal = params->causal();
  p.safe_softmax = params->safe_softmax();
  p.bool_mask_keeps = params->bool_mask_keeps();
  p.masked_score = params->masked_score();
  made->q = v.in[0];
  made->k = v.in[1];
  made->v = v.in[2];
  made->mask = has_mask ? v.in[3] : 0;
  made->out = v.out;
  made->has_mask = has_mask;
  made->bool_mask = params->bool_mask();
  for (int t = 0; t < 5; ++t) made->offsets[t] = offsets[t];
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
