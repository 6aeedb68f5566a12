#include "backends/vulkan/runtime/plan.h"

#include "backends/vulkan/runtime/ops/ops.h"
#include "runtime/core/log.h"

namespace ember::vulkan {
namespace {

// Constants start on this boundary: minStorageBufferOffsetAlignment is at
// most 256 on every device (the Vulkan spec's limit).
constexpr uint64_t kConstantAlignment = 256;

}  // namespace

EncodeFn encoder_for(cpu_fb::OpParams type) {
  switch (type) {
    case cpu_fb::OpParams::Linear: return encode_linear;
    case cpu_fb::OpParams::MatMul: return encode_matmul;
    case cpu_fb::OpParams::Conv2d: return encode_conv2d;
    case cpu_fb::OpParams::Binary: return encode_binary;
    case cpu_fb::OpParams::Unary: return encode_unary;
    case cpu_fb::OpParams::Pool2d: return encode_pool2d;
    case cpu_fb::OpParams::AdaptiveAvgPool2d: return encode_adaptive_avg_pool2d;
    case cpu_fb::OpParams::Softmax: return encode_softmax;
    case cpu_fb::OpParams::LayerNorm: return encode_layer_norm;
    case cpu_fb::OpParams::Reduce: return encode_reduce;
    case cpu_fb::OpParams::Permute: return encode_permute;
    case cpu_fb::OpParams::Reshape: return encode_reshape;
    case cpu_fb::OpParams::Concat: return encode_concat;
    case cpu_fb::OpParams::Pad: return encode_pad;
    case cpu_fb::OpParams::Embedding: return encode_embedding;
    case cpu_fb::OpParams::Attention: return encode_attention;
    case cpu_fb::OpParams::ToLayout: return encode_to_layout;
    case cpu_fb::OpParams::QLinear: return encode_qlinear;
    default: return nullptr;
  }
}

uint32_t grid_groups(const Encoder& enc, uint64_t items, uint32_t local) {
  const uint64_t groups = (items + local - 1) / local;
  const uint64_t limit = enc.device().max_group_count[0];
  return static_cast<uint32_t>(groups < limit ? groups : limit);
}

Result<BufferRef> Encoder::add_constant(uint64_t bytes) {
  BufferRef ref;
  ref.region = Region::Constants;
  ref.offset = plan_->constant_bytes;
  ref.bytes = bytes;
  plan_->constant_bytes += (bytes + kConstantAlignment - 1) / kConstantAlignment * kConstantAlignment;
  return ref;
}

Result<BufferRef> Encoder::ref(uint32_t id) {
  if (id >= build_.num_values) return Error::InvalidProgram;
  const ValueInfo& v = build_.values[id];
  BufferRef ref;
  ref.region = Region::Arena;
  ref.bytes = value_bytes(v);
  switch (v.kind) {
    case ValueKind::Scratch:
      ref.offset = v.offset;
      return ref;
    case ValueKind::Input:
      ref.offset = plan_->input_offsets[v.index];
      return ref;
    case ValueKind::Output:
      ref.offset = plan_->output_offsets[v.index];
      return ref;
    case ValueKind::Constant: {
      BufferRef& known = plan_->constant_refs[id];
      if (known.bytes > 0) return known;
      Result<BufferRef> made = packed(id, ref.bytes, nullptr, {});
      if (!made.ok()) return made.error();
      known = made.get();
      return known;
    }
  }
  return Error::InvalidProgram;
}

Result<BufferRef> Encoder::packed(uint32_t id, uint64_t bytes, PackFn fn,
                                  std::initializer_list<int64_t> dims, bool half) {
  if (id >= build_.num_values || build_.values[id].kind != ValueKind::Constant) {
    return Error::InvalidProgram;
  }
  const uint64_t stored = half ? (bytes / 4 + 1) / 2 * 4 : bytes;
  Result<BufferRef> ref = add_constant(stored > 0 ? stored : 4);
  PackJob job{};
  job.fn = fn;
  job.half = half;
  job.src = reinterpret_cast<const uint8_t*>(build_.constant(id));
  job.offset = ref.get().offset;
  job.bytes = bytes;
  size_t i = 0;
  for (const int64_t d : dims) {
    if (i < 6) job.dims[i++] = d;
  }
  if (!plan_->packs.push(job)) return Error::MemoryAllocationFailed;
  return ref;
}

BufferRef Encoder::status() {
  plan_->uses_status = true;
  BufferRef ref;
  ref.region = Region::Arena;
  ref.offset = plan_->status_offset;
  ref.bytes = 4;
  return ref;
}

Error Encoder::dispatch(Shader shader, std::initializer_list<BufferRef> bindings,
                        const Params& params, uint32_t gx, uint32_t gy, uint32_t gz) {
  const uint32_t last = bindings.size() > 0 ? 1u << (bindings.size() - 1) : 0;
  return dispatch_writing(last, shader, bindings, params, gx, gy, gz);
}

Error Encoder::dispatch_writing(uint32_t writes, Shader shader,
                                std::initializer_list<BufferRef> bindings, const Params& params,
                                uint32_t gx, uint32_t gy, uint32_t gz) {
  if (params.overflowed() || bindings.size() > kTensorBindings) return Error::Internal;
  if (gx == 0 || gy == 0 || gz == 0) return Error::Ok;
  for (int i = 0; i < 3; ++i) {
    const uint32_t g = i == 0 ? gx : (i == 1 ? gy : gz);
    if (g > device_.max_group_count[i]) {
      EMBER_LOG(Error, "EmberVulkanBackend: op %u needs %u workgroups along %c, the device "
                       "takes %u", op_, g, "xyz"[i], device_.max_group_count[i]);
      return Error::NotSupported;
    }
  }
  DispatchInfo d{};
  d.shader = shader;
  size_t i = 0;
  for (const BufferRef& b : bindings) d.bindings[i++] = b;
  d.num_bindings = static_cast<uint32_t>(bindings.size());
  d.writes = writes;
  d.params = static_cast<uint32_t>(plan_->params.size());
  d.groups[0] = gx;
  d.groups[1] = gy;
  d.groups[2] = gz;
  d.op = op_;
  for (size_t w = 0; w < params.size(); ++w) {
    if (!plan_->params.push(params.words()[w])) return Error::MemoryAllocationFailed;
  }
  return plan_->dispatches.push(d) ? Error::Ok : Error::MemoryAllocationFailed;
}

namespace {

struct Range {
  uint64_t begin, end;
  bool overlaps(const Range& o) const { return begin < o.end && o.begin < end; }
};

bool overlaps_any(const Array<Range>& ranges, const Range& r) {
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (ranges[i].overlaps(r)) return true;
  }
  return false;
}

}  // namespace

bool plan_barriers(const DispatchInfo* dispatches, size_t n, bool* barrier) {
  Array<Range> reads, writes;  // arena bytes since the last barrier
  Array<Range>* fresh[2] = {&reads, &writes};
  for (size_t i = 0; i < n; ++i) {
    const DispatchInfo& d = dispatches[i];
    bool hazard = false;
    for (uint32_t b = 0; b < d.num_bindings && !hazard; ++b) {
      const BufferRef& ref = d.bindings[b];
      if (ref.region != Region::Arena) continue;  // weights and parameters are read only
      const Range r{ref.offset, ref.offset + ref.bytes};
      const bool written = (d.writes >> b) & 1u;
      hazard = overlaps_any(writes, r) || (written && overlaps_any(reads, r));
    }
    barrier[i] = hazard;
    if (hazard) {
      reads.clear();
      writes.clear();
    }
    for (uint32_t b = 0; b < d.num_bindings; ++b) {
      const BufferRef& ref = d.bindings[b];
      if (ref.region != Region::Arena) continue;
      if (!fresh[(d.writes >> b) & 1u]->push(Range{ref.offset, ref.offset + ref.bytes})) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace ember::vulkan
