// Attention as one dispatch (attention.comp): q, k, v, the mask (additive
// floats or bools) and the output read and written in place through their
// strides, checked as the CPU backend checks them (every element addressed
// lies in its value, no two output elements share a place).
#include "backends/cpu/runtime/ops/op_util.h"
#include "backends/cpu/runtime/ops/view_util.h"
#include "backends/vulkan/runtime/ops/ops.h"

namespace ember::vulkan {

// attention.comp keeps a q row in shared memory and an output row in
// registers, each at most this long.
constexpr int64_t kMaxHeadDim = 512;

Error encode_attention(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::Attention* params = op->params_as_Attention();
  cpu::OpValues v;
  if (params == nullptr || !cpu::read_op_values(enc.build(), op, 3, 4, &v)) {
    return Error::InvalidProgram;
  }
  const bool has_mask = params->has_mask();
  const bool bool_mask = params->bool_mask();
  if (v.num_in != (has_mask ? 4u : 3u) || (bool_mask && !has_mask)) return Error::InvalidProgram;
  int64_t sizes[6];
  int64_t strides[5][4] = {};
  int64_t offsets[5];
  if (!cpu::read_longs(params->sizes(), 6, sizes) || !cpu::read_longs(params->offsets(), 5, offsets) ||
      !cpu::read_longs(params->q_strides(), 3, strides[0]) ||
      !cpu::read_longs(params->k_strides(), 3, strides[1]) ||
      !cpu::read_longs(params->v_strides(), 3, strides[2]) ||
      !cpu::read_longs(params->out_strides(), 3, strides[4]) ||
      (has_mask && !cpu::read_longs(params->mask_strides(), 4, strides[3]))) {
    EMBER_LOG(Error, "vulkan backend: attention needs sizes, offsets and strides");
    return Error::InvalidProgram;
  }
  const int64_t b = sizes[0], h = sizes[1], l = sizes[2], s = sizes[3], d = sizes[4],
                e = sizes[5];
  const int64_t shapes[5][4] = {{b, h, l, d}, {b, h, s, d}, {b, h, s, e}, {b, h, l, s},
                                {b, h, l, e}};
  const uint32_t ids[5] = {v.in[0], v.in[1], v.in[2], has_mask ? v.in[3] : v.in[0], v.out};
  BufferRef refs[5];
  for (int t = 0; t < 5; ++t) {
    if (t == 3 && !has_mask) continue;
    if (t != 3) strides[t][3] = 1;
    const ValueInfo& value = enc.value(ids[t]);
    const DataType dtype = t == 3 && bool_mask ? DataType::Bool : DataType::Float32;
    if (value.dtype != dtype || value.layout != Layout::Plain ||
        !cpu::view_in_bounds(value, offsets[t], shapes[t], strides[t], 4)) {
      EMBER_LOG(Error, "vulkan backend: attention operand %d lies outside its value", t);
      return Error::InvalidProgram;
    }
  }
  if (!cpu::view_non_overlapping(shapes[4], strides[4], 4)) return Error::InvalidProgram;
  if (d > kMaxHeadDim || e > kMaxHeadDim) {
    EMBER_LOG(Error, "vulkan backend: attention head dims %lld and %lld, at most %lld",
              static_cast<long long>(d), static_cast<long long>(e),
              static_cast<long long>(kMaxHeadDim));
    return Error::NotSupported;
  }
  for (int t = 0; t < 5; ++t) {
    Result<BufferRef> r = enc.ref(ids[t]);
    if (!r.ok()) return r.error();
    refs[t] = r.get();
  }
  // The shader finds the mask's bytes from its binding's first word.
  if (bool_mask && refs[3].offset % 4 != 0) {
    EMBER_LOG(Error, "vulkan backend: an attention's bool mask starts off a 4-byte boundary");
    return Error::NotSupported;
  }
  const uint64_t rows = static_cast<uint64_t>(b * h * l);
  if (rows == 0 || e == 0) return Error::Ok;
  Params p;
  for (const int64_t size : sizes) p.u(size);
  p.f(params->scale()).u(params->causal() ? 1 : 0).u(has_mask ? 1 : 0);
  for (const int64_t offset : offsets) p.i(offset);
  for (int t : {0, 1, 2}) {
    for (int i = 0; i < 3; ++i) p.i(strides[t][i]);
  }
  for (int i = 0; i < 4; ++i) p.i(has_mask ? strides[3][i] : 0);
  for (int i = 0; i < 3; ++i) p.i(strides[4][i]);
  p.u(params->safe_softmax() ? 1 : 0).u(bool_mask ? 1 : 0).u(params->bool_mask_keeps() ? 1 : 0);
  p.f(params->masked_score());
  const uint64_t limit = enc.device().max_group_count[0];
  return enc.dispatch(Shader::attention, {refs[0], refs[1], refs[2], refs[3], refs[4]}, p,
                      static_cast<uint32_t>(rows < limit ? rows : limit));
}

}  // namespace ember::vulkan
