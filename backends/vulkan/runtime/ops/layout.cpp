// Layout ops, all one strided copy (copy.comp) or a few: ToLayout (plain <->
// channels-last), Reshape (a flat copy, nothing when in and out share
// memory), Permute (any view made dense), Concat (each input into its slice
// of the output), Pad (constant padding, any layout) and Embedding
// (embedding.comp). The checks are the CPU backend's.
#include "backends/cpu/runtime/ops/memory_order.h"
#include "backends/cpu/runtime/ops/op_util.h"
#include "backends/vulkan/runtime/ops/ops.h"

namespace ember::vulkan {
namespace {

bool is_float(const ValueInfo& v) { return v.dtype == DataType::Float32; }

Error refs(Encoder& enc, uint32_t a, uint32_t b, BufferRef* ra, BufferRef* rb) {
  Result<BufferRef> x = enc.ref(a);
  Result<BufferRef> y = enc.ref(b);
  if (!x.ok()) return x.error();
  if (!y.ok()) return y.error();
  *ra = x.get();
  *rb = y.get();
  return Error::Ok;
}

// Two channels-last values whose elements lie in the same memory order (the
// CPU backend's rule: same N and C, same spatial sizes once unit dims go).
bool same_channels_last_memory(const ValueInfo& a, const ValueInfo& b) {
  if (a.sizes[0] != b.sizes[0] || a.sizes[1] != b.sizes[1]) return false;
  int i = 2, j = 2;
  for (;;) {
    while (i < a.dim && a.sizes[i] == 1) ++i;
    while (j < b.dim && b.sizes[j] == 1) ++j;
    if (i == a.dim || j == b.dim) return i == a.dim && j == b.dim;
    if (a.sizes[i++] != b.sizes[j++]) return false;
  }
}

// A flat copy of `words` 32-bit words.
CopySpec flat(uint64_t words) {
  CopySpec spec;
  spec.rank = 1;
  spec.sizes[0] = static_cast<int64_t>(words);
  spec.src_strides[0] = spec.dst_strides[0] = 1;
  return spec;
}

}  // namespace

Error encode_copy(Encoder& enc, const BufferRef& src, const BufferRef& dst, const CopySpec& s) {
  CopySpec m;
  m.src_offset = s.src_offset;
  m.dst_offset = s.dst_offset;
  m.padded = s.padded;
  m.fill = s.fill;
  uint64_t n = 1;
  for (int d = 0; d < s.rank; ++d) n *= static_cast<uint64_t>(s.sizes[d]);
  if (n == 0) return Error::Ok;
  // Drop size-1 dims (not padded ones) and merge a dim into the one inside it
  // where both sides walk them as one run.
  for (int d = 0; d < s.rank; ++d) {
    const bool pads = s.padded && (s.before[d] != 0 || s.src_sizes[d] != s.sizes[d]);
    if (s.sizes[d] == 1 && !pads) {
      if (s.padded) m.src_offset += (0 - s.before[d]) * s.src_strides[d];
      continue;
    }
    const int r = m.rank;
    const bool merges = r > 0 && !pads &&
                        !(s.padded && (m.before[r - 1] != 0 || m.src_sizes[r - 1] != m.sizes[r - 1])) &&
                        m.src_strides[r - 1] == s.src_strides[d] * s.sizes[d] &&
                        m.dst_strides[r - 1] == s.dst_strides[d] * s.sizes[d];
    if (merges) {
      m.sizes[r - 1] *= s.sizes[d];
      m.src_sizes[r - 1] = m.sizes[r - 1];
      m.src_strides[r - 1] = s.src_strides[d];
      m.dst_strides[r - 1] = s.dst_strides[d];
    } else {
      m.sizes[r] = s.sizes[d];
      m.src_strides[r] = s.src_strides[d];
      m.dst_strides[r] = s.dst_strides[d];
      m.before[r] = s.before[d];
      m.src_sizes[r] = s.padded ? s.src_sizes[d] : s.sizes[d];
      m.rank = r + 1;
    }
  }
  Params p;
  p.u(n).u(m.rank).i(m.src_offset).u(m.dst_offset).u(m.padded ? 1 : 0).f(m.fill);
  for (int d = 0; d < m.rank; ++d) p.u(m.sizes[d]);
  p.to(14);
  for (int d = 0; d < m.rank; ++d) p.i(m.src_strides[d]);
  p.to(22);
  for (int d = 0; d < m.rank; ++d) p.u(m.dst_strides[d]);
  p.to(30);
  for (int d = 0; d < m.rank; ++d) p.i(m.before[d]);
  p.to(38);
  for (int d = 0; d < m.rank; ++d) p.i(m.src_sizes[d]);
  p.to(46);
  return enc.dispatch(Shader::copy, {src, dst}, p, grid_groups(enc, n, 256));
}

Error encode_to_layout(Encoder& enc, const cpu_fb::Op* op) {
  cpu::OpValues v;
  if (!cpu::read_op_values(enc.build(), op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  if (!cpu::same_sizes(in, out) || in.dim < 3 || in.layout == out.layout || !is_float(in) ||
      !is_float(out)) {
    return Error::InvalidProgram;
  }
  // Walk the output's memory order, reading the input through its strides.
  int order[cpu::kMaxDims];
  cpu::memory_order(out, order);
  int64_t in_strides[cpu::kMaxDims], out_strides[cpu::kMaxDims];
  cpu::logical_strides(in, in_strides);
  cpu::logical_strides(out, out_strides);
  CopySpec spec;
  spec.rank = out.dim;
  for (int p = 0; p < out.dim; ++p) {
    spec.sizes[p] = out.sizes[order[p]];
    spec.src_strides[p] = in_strides[order[p]];
    spec.dst_strides[p] = out_strides[order[p]];
  }
  BufferRef src, dst;
  EMBER_TRY(refs(enc, v.in[0], v.out, &src, &dst));
  return encode_copy(enc, src, dst, spec);
}

Error encode_reshape(Encoder& enc, const cpu_fb::Op* op) {
  cpu::OpValues v;
  if (!cpu::read_op_values(enc.build(), op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  if (in.numel != out.numel || in.dtype != out.dtype || in.layout != out.layout ||
      (in.layout == Layout::NHWC && !same_channels_last_memory(in, out))) {
    return Error::InvalidProgram;
  }
  BufferRef src, dst;
  EMBER_TRY(refs(enc, v.in[0], v.out, &src, &dst));
  // An alias (a view of unchanged data) shares its source's memory.
  if (src.region == dst.region && src.offset == dst.offset) return Error::Ok;
  return encode_copy(enc, src, dst, flat(value_bytes(in) / 4));
}

Error encode_permute(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::Permute* params = op->params_as_Permute();
  cpu::OpValues v;
  if (params == nullptr || !cpu::read_op_values(enc.build(), op, 1, 1, &v)) {
    return Error::InvalidProgram;
  }
  const ValueInfo& in = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  if (!is_float(in) || !is_float(out) || out.layout != Layout::Plain) return Error::InvalidProgram;
  CopySpec spec;
  spec.rank = out.dim;
  if (params->strides() != nullptr) {
    // Any view of the input's memory, whatever its layout.
    if (static_cast<int>(params->strides()->size()) != out.dim || params->offset() < 0) {
      return Error::InvalidProgram;
    }
    for (int d = 0; d < out.dim; ++d) {
      spec.src_strides[d] = params->strides()->Get(static_cast<flatbuffers::uoffset_t>(d));
      if (spec.src_strides[d] < 0 || spec.src_strides[d] > (int64_t{1} << 40)) {
        return Error::InvalidProgram;
      }
    }
    spec.src_offset = params->offset();
  } else {
    // A permutation of a plain input's dims.
    const auto* dims = params->dims();
    if (dims == nullptr || in.layout != Layout::Plain ||
        static_cast<int>(dims->size()) != in.dim || in.dim != out.dim) {
      return Error::InvalidProgram;
    }
    int64_t in_strides[cpu::kMaxDims];
    cpu::logical_strides(in, in_strides);
    bool seen[cpu::kMaxDims] = {};
    for (int d = 0; d < out.dim; ++d) {
      int32_t src = dims->Get(static_cast<flatbuffers::uoffset_t>(d));
      if (src < 0) src += in.dim;
      if (src < 0 || src >= in.dim || seen[src] || out.sizes[d] != in.sizes[src]) {
        return Error::InvalidProgram;
      }
      seen[src] = true;
      spec.src_strides[d] = in_strides[src];
    }
  }
  int64_t stride = 1;
  for (int d = out.dim - 1; d >= 0; --d) {
    spec.sizes[d] = out.sizes[d];
    spec.dst_strides[d] = stride;
    stride *= out.sizes[d];
  }
  // Every element read must lie inside the input.
  if (out.numel > 0) {
    int64_t last = spec.src_offset;
    for (int d = 0; d < out.dim; ++d) last += (out.sizes[d] - 1) * spec.src_strides[d];
    if (last >= static_cast<int64_t>(in.numel)) return Error::InvalidProgram;
  }
  BufferRef src, dst;
  EMBER_TRY(refs(enc, v.in[0], v.out, &src, &dst));
  return encode_copy(enc, src, dst, spec);
}

Error encode_concat(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::Concat* params = op->params_as_Concat();
  const auto* ins = op->inputs();
  const auto* outs = op->outputs();
  const cpu::BuildContext& ctx = enc.build();
  if (params == nullptr || ins == nullptr || ins->size() < 1 || outs == nullptr ||
      outs->size() != 1 || outs->Get(0) >= ctx.num_values) {
    return Error::InvalidProgram;
  }
  const uint32_t out_id = outs->Get(0);
  const ValueInfo& out = ctx.values[out_id];
  if ((out.kind != ValueKind::Scratch && out.kind != ValueKind::Output) || !is_float(out) ||
      out.layout != Layout::Plain || out.dim < 1) {
    return Error::InvalidProgram;
  }
  int dim = params->dim();
  if (dim < 0) dim += out.dim;
  if (dim < 0 || dim >= out.dim) return Error::InvalidProgram;
  int64_t out_strides[cpu::kMaxDims];
  cpu::logical_strides(out, out_strides);
  int64_t along = 0;
  for (size_t i = 0; i < ins->size(); ++i) {
    const uint32_t id = ins->Get(static_cast<flatbuffers::uoffset_t>(i));
    if (id >= ctx.num_values) return Error::InvalidProgram;
    const ValueInfo& in = ctx.values[id];
    bool ok = is_float(in) && in.layout == Layout::Plain && in.dim == out.dim;
    for (int d = 0; ok && d < out.dim; ++d) ok = d == dim || in.sizes[d] == out.sizes[d];
    if (!ok || along + in.sizes[dim] > out.sizes[dim]) return Error::InvalidProgram;
    CopySpec spec;
    spec.rank = in.dim;
    cpu::logical_strides(in, spec.src_strides);
    for (int d = 0; d < in.dim; ++d) {
      spec.sizes[d] = in.sizes[d];
      spec.dst_strides[d] = out_strides[d];
    }
    spec.dst_offset = along * out_strides[dim];
    BufferRef src, dst;
    EMBER_TRY(refs(enc, id, out_id, &src, &dst));
    EMBER_TRY(encode_copy(enc, src, dst, spec));
    along += in.sizes[dim];
  }
  return along == out.sizes[dim] ? Error::Ok : Error::InvalidProgram;
}

Error encode_pad(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::Pad* params = op->params_as_Pad();
  cpu::OpValues v;
  if (params == nullptr || !cpu::read_op_values(enc.build(), op, 1, 1, &v)) {
    return Error::InvalidProgram;
  }
  const ValueInfo& in = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  const auto* pads = params->pads();
  // pads: (before, after) pairs from the last dim backwards, as torch has them.
  if (!is_float(in) || !is_float(out) || in.layout != out.layout || in.dim != out.dim ||
      in.dim < 1 || pads == nullptr || pads->size() % 2 != 0 ||
      pads->size() > 2 * static_cast<size_t>(in.dim)) {
    EMBER_LOG(Error, "vulkan backend: malformed pad");
    return Error::InvalidProgram;
  }
  // Over memory order: the output contiguous, the input through its strides.
  int order[cpu::kMaxDims];
  cpu::memory_order(in, order);
  int64_t in_strides[cpu::kMaxDims], out_strides[cpu::kMaxDims];
  cpu::logical_strides(in, in_strides);
  cpu::logical_strides(out, out_strides);
  CopySpec spec;
  spec.rank = in.dim;
  spec.padded = true;
  spec.fill = params->value();
  for (int m = 0; m < in.dim; ++m) {
    const int d = order[m];
    const size_t pair = static_cast<size_t>(in.dim - 1 - d);
    int64_t lo = 0, hi = 0;
    if (2 * pair < pads->size()) {
      lo = pads->Get(static_cast<flatbuffers::uoffset_t>(2 * pair));
      hi = pads->Get(static_cast<flatbuffers::uoffset_t>(2 * pair + 1));
    }
    if (static_cast<int64_t>(in.sizes[d]) + lo + hi != out.sizes[d]) {
      EMBER_LOG(Error, "vulkan backend: pad sizes do not add up");
      return Error::InvalidProgram;
    }
    spec.sizes[m] = out.sizes[d];
    spec.src_sizes[m] = in.sizes[d];
    spec.before[m] = lo;
    spec.src_strides[m] = in_strides[d];
    spec.dst_strides[m] = out_strides[d];
  }
  BufferRef src, dst;
  EMBER_TRY(refs(enc, v.in[0], v.out, &src, &dst));
  return encode_copy(enc, src, dst, spec);
}

Error encode_embedding(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::Embedding* params = op->params_as_Embedding();
  cpu::OpValues v;
  if (params == nullptr || !cpu::read_op_values(enc.build(), op, 1, 2, &v)) {
    return Error::InvalidProgram;
  }
  const ValueInfo& idx = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  // A runtime table is input 1; otherwise `weight` names a constant.
  const bool runtime_table = v.num_in == 2;
  const uint32_t table = runtime_table ? v.in[1] : params->weight();
  if (table >= enc.build().num_values ||
      (!runtime_table && enc.value(table).kind != ValueKind::Constant) ||
      (idx.dtype != DataType::Int64 && idx.dtype != DataType::Int32) ||
      idx.layout != Layout::Plain || !is_float(out) || out.layout != Layout::Plain) {
    return Error::InvalidProgram;
  }
  const ValueInfo& w = enc.value(table);
  if (w.dim != 2 || !is_float(w) || w.layout != Layout::Plain || out.dim != idx.dim + 1 ||
      out.sizes[out.dim - 1] != w.sizes[1]) {
    return Error::InvalidProgram;
  }
  for (int d = 0; d < idx.dim; ++d) {
    if (out.sizes[d] != idx.sizes[d]) return Error::InvalidProgram;
  }
  BufferRef ri, rw, ro;
  EMBER_TRY(refs(enc, v.in[0], table, &ri, &rw));
  Result<BufferRef> o = enc.ref(v.out);
  if (!o.ok()) return o.error();
  ro = o.get();
  Params p;
  p.u(out.numel).u(w.sizes[1]).u(w.sizes[0]).u(idx.dtype == DataType::Int64 ? 1 : 0);
  if (out.numel == 0) return Error::Ok;
  return enc.dispatch_writing(0b1100, Shader::embedding, {ri, rw, ro, enc.status()}, p,
                              grid_groups(enc, out.numel, 256));
}

}  // namespace ember::vulkan
