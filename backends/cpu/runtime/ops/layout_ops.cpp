// Layout operations: ToLayout (NCHW <-> NHWC at the edges of convolution
// chains), Reshape (a copy: same elements, other sizes), Permute (any view
// materialised: a copy through strides), Concat and Embedding (rows of a
// constant table gathered by index).
#include <cstring>
#include <new>

#include "backends/cpu/runtime/ops/op_util.h"

namespace ember::cpu {
namespace {

// T: float, or int8_t for quantized values (the same blocked transpose).
template <typename T>
class ToLayoutOp final : public CpuOp {
 public:
  // Rank 3 and up: [N, C, spatial...] <-> [N, spatial..., C].
  ToLayoutOp(uint32_t in, uint32_t out, const ValueInfo& info, bool to_nhwc)
      : in_(in), out_(out), n_(info.sizes[0]), c_(info.sizes[1]), hw_(1), to_nhwc_(to_nhwc) {
    for (int d = 2; d < info.dim; ++d) hw_ *= info.sizes[d];
  }

  void run(const ExecState& state) const override {
    const T* src = reinterpret_cast<const T*>(state.data[in_]);
    T* dst = reinterpret_cast<T*>(state.data[out_]);
    const int64_t c = c_, hw = hw_;
    const bool to_nhwc = to_nhwc_;
    if (n_ == 0 || c == 0 || hw == 0) return;  // an empty batch: nothing to move
    if (to_nhwc && c == 3) return rgb_to_nhwc(src, dst, state);
    // Blocks of 32 pixels x 32 channels keep both sides' lines in cache.
    constexpr int64_t kBlock = 32;
    const int64_t pixel_blocks = (hw + kBlock - 1) / kBlock;
    parallel_for(state.pool, n_ * pixel_blocks, 4, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) {
        const int64_t n = t / pixel_blocks;
        const int64_t p0 = (t % pixel_blocks) * kBlock;
        const int64_t p1 = p0 + kBlock < hw ? p0 + kBlock : hw;
        const T* s = src + n * c * hw;
        T* d = dst + n * c * hw;
        for (int64_t c0 = 0; c0 < c; c0 += kBlock) {
          const int64_t c1 = c0 + kBlock < c ? c0 + kBlock : c;
          for (int64_t p = p0; p < p1; ++p) {
            for (int64_t ch = c0; ch < c1; ++ch) {
              if (to_nhwc) {
                d[p * c + ch] = s[ch * hw + p];
              } else {
                d[ch * hw + p] = s[p * c + ch];
              }
            }
          }
        }
      }
    });
  }

 private:
  // An RGB image into a network's first convolution: the blocked loop below
  // would run 3 channels per pixel through a loop of its own (3x slower).
  void rgb_to_nhwc(const T* src, T* dst, const ExecState& state) const {
    constexpr int64_t kChunk = 2048;  // pixels per task
    const int64_t hw = hw_, chunks = (hw + kChunk - 1) / kChunk;
    parallel_for(state.pool, n_ * chunks, 4, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) {
        const int64_t n = t / chunks, p0 = t % chunks * kChunk;
        const int64_t p1 = p0 + kChunk < hw ? p0 + kChunk : hw;
        const T* r = src + n * 3 * hw;
        const T* g = r + hw;
        const T* b = g + hw;
        T* d = dst + n * 3 * hw;
        for (int64_t p = p0; p < p1; ++p) {
          d[3 * p] = r[p];
          d[3 * p + 1] = g[p];
          d[3 * p + 2] = b[p];
        }
      }
    });
  }

  uint32_t in_, out_;
  int64_t n_, c_, hw_;
  bool to_nhwc_;
};

class CopyOp final : public CpuOp {
 public:
  CopyOp(uint32_t in, uint32_t out, size_t bytes) : in_(in), out_(out), bytes_(bytes) {}
  void run(const ExecState& state) const override {
    if (state.data[in_] != state.data[out_]) {
      std::memcpy(state.data[out_], state.data[in_], bytes_);
    }
  }

 private:
  uint32_t in_, out_;
  size_t bytes_;
};

// A view made dense: out[i0, ..., in-1] = src[offset + sum i_d * strides[d]].
// Dims are collapsed at init (size-1 dims dropped, dims adjacent in the
// source merged), so a slice or a head split copies whole runs.
class StridedCopyOp final : public CpuOp {
 public:
  uint32_t in, out;
  int dim = 0;  // after collapsing; the last dim is the run
  int64_t sizes[kMaxDims] = {};
  int64_t strides[kMaxDims] = {};
  int64_t offset = 0;
  int64_t numel = 0;

  void run(const ExecState& state) const override {
    if (numel == 0) return;
    const float* src = state.data[in] + offset;
    float* dst = state.data[out];
    const int64_t inner = sizes[dim - 1];
    const int64_t inner_stride = strides[dim - 1];
    const int64_t rows = numel / inner;
    // Chunks of at least ~16 KiB: less is not worth waking a thread.
    const int64_t min_rows = (4096 + inner - 1) / inner;
    parallel_for(state.pool, rows, min_rows, [&](int64_t begin, int64_t end) {
      // The source offset of row `begin`, then carried from row to row.
      int64_t index[kMaxDims] = {};
      int64_t at = 0;
      int64_t rest = begin;
      for (int d = dim - 2; d >= 0; --d) {
        index[d] = rest % sizes[d];
        rest /= sizes[d];
        at += index[d] * strides[d];
      }
      for (int64_t r = begin; r < end; ++r) {
        float* o = dst + r * inner;
        const float* s = src + at;
        if (inner_stride == 1) {
          std::memcpy(o, s, static_cast<size_t>(inner) * sizeof(float));
        } else if (inner_stride == 0) {
          for (int64_t i = 0; i < inner; ++i) o[i] = s[0];
        } else {
          for (int64_t i = 0; i < inner; ++i) o[i] = s[i * inner_stride];
        }
        for (int d = dim - 2; d >= 0; --d) {
          at += strides[d];
          if (++index[d] < sizes[d]) break;
          at -= index[d] * strides[d];
          index[d] = 0;
        }
      }
    });
  }
};

// out = cat(inputs, dim): per outer index, each input's run in turn.
class ConcatOp final : public CpuOp {
 public:
  static constexpr size_t kMaxInputs = 64;
  uint32_t ins[kMaxInputs];
  int64_t runs[kMaxInputs];  // elements per outer index, per input
  size_t num_in = 0;
  uint32_t out;
  int64_t outer = 0, out_run = 0;

  void run(const ExecState& state) const override {
    float* dst = state.data[out];
    const int64_t min_chunk = out_run > 0 ? (4096 + out_run - 1) / out_run : 1;
    parallel_for(state.pool, outer, min_chunk, [&](int64_t begin, int64_t end) {
      for (int64_t o = begin; o < end; ++o) {
        float* d = dst + o * out_run;
        for (size_t i = 0; i < num_in; ++i) {
          std::memcpy(d, state.data[ins[i]] + o * runs[i],
                      static_cast<size_t>(runs[i]) * sizeof(float));
          d += runs[i];
        }
      }
    });
  }
};

// out[..., :] = weight[index[...], :]. Indices are checked before any row is
// copied; an index out of range fails the call (its row is zeros). The table
// is a constant (read in place in the blob) or a runtime value (input 1).
class EmbeddingOp final : public CpuOp {
 public:
  uint32_t indices, out;
  const float* weight = nullptr;  // the constant table, else null
  uint32_t table = 0;             // the runtime table's value when weight is null
  int64_t rows = 0, width = 0, count = 0;
  bool wide_index = true;  // int64 indices, else int32

  int64_t index(const void* data, int64_t i) const {
    return wide_index ? static_cast<const int64_t*>(data)[i]
                      : static_cast<const int32_t*>(data)[i];
  }

  void run(const ExecState& state) const override {
    const void* idx = state.data[indices];
    float* dst = state.data[out];
    const float* weight = this->weight != nullptr ? this->weight : state.data[table];
    for (int64_t i = 0; i < count; ++i) {
      const int64_t row = index(idx, i);
      if (row < 0 || row >= rows) {
        state.kernel_context->fail(Error::InvalidArgument,
                                   "embedding: index %lld out of range for %lld rows",
                                   static_cast<long long>(row), static_cast<long long>(rows));
      }
    }
    const int64_t min_chunk = width > 0 ? (4096 + width - 1) / width : 1;
    parallel_for(state.pool, count, min_chunk, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const int64_t row = index(idx, i);
        float* o = dst + i * width;
        if (row < 0 || row >= rows) {
          std::memset(o, 0, static_cast<size_t>(width) * sizeof(float));
        } else {
          std::memcpy(o, weight + row * width, static_cast<size_t>(width) * sizeof(float));
        }
      }
    });
  }
};

bool is_float(const ValueInfo& v) { return v.dtype == DataType::Float32; }

}  // namespace

Result<CpuOp*> make_to_layout(const BuildContext& ctx, const cpu_fb::Op* op) {
  OpValues v;
  if (!read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  if (!same_sizes(in, out) || in.dim < 3 || in.layout == out.layout || in.dtype != out.dtype ||
      (in.dtype != DataType::Float32 && in.dtype != DataType::Int8)) {
    return refuse("a layout conversion takes and gives one rank-3+ float or int8 value in two "
                  "layouts");
  }
  const bool to_nhwc = out.layout == Layout::NHWC;
  CpuOp* made = in.dtype == DataType::Int8
                    ? static_cast<CpuOp*>(new (std::nothrow)
                                              ToLayoutOp<int8_t>(v.in[0], v.out, in, to_nhwc))
                    : static_cast<CpuOp*>(new (std::nothrow)
                                              ToLayoutOp<float>(v.in[0], v.out, in, to_nhwc));
  if (made == nullptr) return Error::MemoryAllocationFailed;
  return made;
}

// Two channels-last values whose elements lie in the same memory order: the
// same N and C, and the same spatial sizes once unit dims are dropped
// ([N, C, L] and [N, C, 1, L], a 1-D convolution's input and its 2-D form).
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

Result<CpuOp*> make_reshape(const BuildContext& ctx, const cpu_fb::Op* op) {
  OpValues v;
  if (!read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  if (in.numel != out.numel || in.dtype != out.dtype || in.layout != out.layout ||
      (in.layout == Layout::NHWC && !same_channels_last_memory(in, out))) {
    return refuse("a reshape changes the element count, dtype or memory order");
  }
  CpuOp* made = new (std::nothrow) CopyOp(v.in[0], v.out, in.numel * element_size(in.dtype));
  if (made == nullptr) return Error::MemoryAllocationFailed;
  return made;
}


Result<CpuOp*> make_permute(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Permute* params = op->params_as_Permute();
  OpValues v;
  if (params == nullptr || !read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  if (!is_float(in) || !is_float(out) || out.layout != Layout::Plain) {
    return refuse("a permute or strided view reads floats and gives a plain value");
  }
  int64_t strides[kMaxDims] = {};
  int64_t offset = 0;
  if (params->strides() != nullptr) {
    // Any view of the input's memory, whatever its layout.
    if (static_cast<int>(params->strides()->size()) != out.dim || params->offset() < 0) {
      return refuse("a strided view needs a stride per output dim and an offset >= 0");
    }
    for (int d = 0; d < out.dim; ++d) {
      strides[d] = params->strides()->Get(static_cast<flatbuffers::uoffset_t>(d));
      if (strides[d] < 0 || strides[d] > (int64_t{1} << 40)) {
        return refuse("a strided view's stride %lld is out of range",
                      static_cast<long long>(strides[d]));
      }
    }
    offset = params->offset();
  } else {
    // A permutation of a plain input's dims.
    const auto* dims = params->dims();
    if (dims == nullptr || in.layout != Layout::Plain || static_cast<int>(dims->size()) != in.dim ||
        in.dim != out.dim) {
      return refuse("a permute needs a plain input and one dim per input dim");
    }
    int64_t in_strides[kMaxDims] = {};
    int64_t stride = 1;
    for (int d = in.dim - 1; d >= 0; --d) {
      in_strides[d] = stride;
      stride *= in.sizes[d];
    }
    bool seen[kMaxDims] = {};
    for (int d = 0; d < out.dim; ++d) {
      int32_t src = dims->Get(static_cast<flatbuffers::uoffset_t>(d));
      if (src < 0) src += in.dim;
      if (src < 0 || src >= in.dim || seen[src] || out.sizes[d] != in.sizes[src]) {
        return refuse("the permute's dims are not a permutation giving the output's sizes");
      }
      seen[src] = true;
      strides[d] = in_strides[src];
    }
  }
  // Every element read must lie inside the input.
  if (out.numel > 0) {
    int64_t last = offset;
    for (int d = 0; d < out.dim; ++d) last += (out.sizes[d] - 1) * strides[d];
    if (last >= static_cast<int64_t>(in.numel)) {
      return refuse("the view reads past the end of its input");
    }
  }
  StridedCopyOp* made = new (std::nothrow) StridedCopyOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->in = v.in[0];
  made->out = v.out;
  made->offset = offset;
  made->numel = static_cast<int64_t>(out.numel);
  // Collapse: drop size-1 dims, merge a dim into the next where the source
  // walks them as one (stride[d] == stride[d + 1] * size[d + 1]).
  for (int d = 0; d < out.dim; ++d) {
    if (out.sizes[d] == 1) continue;
    const int n = made->dim;
    if (n > 0 && made->strides[n - 1] == strides[d] * out.sizes[d]) {
      made->sizes[n - 1] *= out.sizes[d];
      made->strides[n - 1] = strides[d];
    } else {
      made->sizes[n] = out.sizes[d];
      made->strides[n] = strides[d];
      made->dim = n + 1;
    }
  }
  if (made->dim == 0) {
    made->dim = 1;
    made->sizes[0] = 1;
    made->strides[0] = 1;
  }
  return static_cast<CpuOp*>(made);
}

Result<CpuOp*> make_concat(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Concat* params = op->params_as_Concat();
  const auto* ins = op->inputs();
  const auto* outs = op->outputs();
  if (params == nullptr || ins == nullptr || ins->size() < 1 ||
      ins->size() > ConcatOp::kMaxInputs || outs == nullptr || outs->size() != 1 ||
      outs->Get(0) >= ctx.num_values) {
    return refuse("a concat needs parameters, 1 to %zu inputs and one output",
                  ConcatOp::kMaxInputs);
  }
  const uint32_t out_id = outs->Get(0);
  const ValueInfo& out = ctx.values[out_id];
  if ((out.kind != ValueKind::Scratch && out.kind != ValueKind::Output) || !is_float(out) ||
      out.layout != Layout::Plain || out.dim < 1) {
    return refuse("a concat writes a plain float value of rank 1 or more");
  }
  int dim = params->dim();
  if (dim < 0) dim += out.dim;
  if (dim < 0 || dim >= out.dim) return refuse("concat along dim %d of rank %d", dim, out.dim);
  ConcatOp* made = new (std::nothrow) ConcatOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->out = out_id;
  made->num_in = ins->size();
  int64_t inner = 1;
  for (int d = dim + 1; d < out.dim; ++d) inner *= out.sizes[d];
  made->outer = 1;
  for (int d = 0; d < dim; ++d) made->outer *= out.sizes[d];
  made->out_run = static_cast<int64_t>(out.sizes[dim]) * inner;
  int64_t along = 0;
  bool ok = true;
  for (size_t i = 0; ok && i < made->num_in; ++i) {
    const uint32_t id = ins->Get(static_cast<flatbuffers::uoffset_t>(i));
    ok = id < ctx.num_values;
    if (!ok) break;
    const ValueInfo& in = ctx.values[id];
    ok = is_float(in) && in.layout == Layout::Plain && in.dim == out.dim;
    for (int d = 0; ok && d < out.dim; ++d) ok = d == dim || in.sizes[d] == out.sizes[d];
    if (!ok) break;
    made->ins[i] = id;
    made->runs[i] = static_cast<int64_t>(in.sizes[dim]) * inner;
    along += in.sizes[dim];
  }
  if (!ok || along != out.sizes[dim]) {
    delete made;
    return refuse("the concat's inputs are not plain floats of the output's sizes but along "
                  "dim %d, or do not add up to it", dim);
  }
  return static_cast<CpuOp*>(made);
}

Result<CpuOp*> make_embedding(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Embedding* params = op->params_as_Embedding();
  OpValues v;
  if (params == nullptr || !read_op_values(ctx, op, 1, 2, &v)) return Error::InvalidProgram;
  const ValueInfo& idx = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  // A runtime table is input 1; otherwise `weight` names a constant.
  const bool runtime_table = v.num_in == 2;
  const uint32_t table = runtime_table ? v.in[1] : params->weight();
  const float* weight = runtime_table ? nullptr : ctx.constant(table);
  if ((!runtime_table && weight == nullptr) || idx.dtype == DataType::Float32 ||
      idx.layout != Layout::Plain || !is_float(out) || out.layout != Layout::Plain) {
    return refuse("an embedding takes plain integer indices and a float table, constant or "
                  "an input, and gives plain floats");
  }
  const ValueInfo& w = ctx.values[table];
  // out = indices' sizes + [width].
  if (w.dim != 2 || !is_float(w) || w.layout != Layout::Plain || out.dim != idx.dim + 1 ||
      out.sizes[out.dim - 1] != w.sizes[1]) {
    return refuse("the embedding's table is not [rows, width] of its output's width");
  }
  for (int d = 0; d < idx.dim; ++d) {
    if (out.sizes[d] != idx.sizes[d]) return refuse("the embedding's output is not its indices' "
                                                    "sizes + [width]");
  }
  EmbeddingOp* made = new (std::nothrow) EmbeddingOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->indices = v.in[0];
  made->out = v.out;
  made->weight = weight;
  made->table = table;
  made->rows = w.sizes[0];
  made->width = w.sizes[1];
  made->count = static_cast<int64_t>(idx.numel);
  made->wide_index = idx.dtype == DataType::Int64;
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
