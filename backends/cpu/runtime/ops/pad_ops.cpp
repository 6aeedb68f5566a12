// Pad: constant padding (F.pad's "constant" mode, aten.constant_pad_nd):
// out[o] = in[o - before] where that lies inside in, else the fill value.
// Negative pads crop. The value may be plain or channels-last (in and out
// alike): the op works on the dims in memory order, so a pad between two
// NHWC convolutions (TF-style "same" padding) costs no layout conversion.
// Split over output rows (all memory dims but the innermost); each row is
// fill, one contiguous run of its source row, fill.
#include <cstring>
#include <new>

#include "backends/cpu/runtime/ops/memory_order.h"
#include "backends/cpu/runtime/ops/op_util.h"

namespace ember::cpu {
namespace {

class PadOp final : public CpuOp {
 public:
  uint32_t in, out;
  int dim = 0;
  int64_t in_sizes[kMaxDims] = {};
  int64_t out_sizes[kMaxDims] = {};
  int64_t before[kMaxDims] = {};  // per dim in memory order; negative crops
  float value = 0.0f;
  int64_t rows = 0;

  void run(const ExecState& state) const override {
    const float* src = state.data[in];
    float* dst = state.data[out];
    const int64_t width = out_sizes[dim - 1];
    const int64_t in_width = in_sizes[dim - 1];
    // Columns [c0, c1) of each output row come from the source row.
    int64_t c0 = before[dim - 1] > 0 ? before[dim - 1] : 0;
    int64_t c1 = before[dim - 1] + in_width;
    if (c1 > width) c1 = width;
    if (c0 > c1) c0 = c1;
    const int64_t min_rows = width > 0 ? (4096 + width - 1) / width : 1;
    parallel_for(state.pool, rows, min_rows, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        float* o = dst + r * width;
        // The source row: each outer index shifted by its dim's pad.
        int64_t rest = r, src_row = 0, scale = 1;
        bool inside = c1 > c0;
        for (int d = dim - 2; d >= 0 && inside; --d) {
          const int64_t i = rest % out_sizes[d] - before[d];
          rest /= out_sizes[d];
          inside = i >= 0 && i < in_sizes[d];
          src_row += i * scale;
          scale *= in_sizes[d];
        }
        if (!inside) {
          for (int64_t c = 0; c < width; ++c) o[c] = value;
          continue;
        }
        for (int64_t c = 0; c < c0; ++c) o[c] = value;
        std::memcpy(o + c0, src + src_row * in_width + (c0 - before[dim - 1]),
                    static_cast<size_t>(c1 - c0) * sizeof(float));
        for (int64_t c = c1; c < width; ++c) o[c] = value;
      }
    });
  }
};

}  // namespace

Result<CpuOp*> make_pad(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Pad* params = op->params_as_Pad();
  OpValues v;
  if (params == nullptr || !read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  const auto* pads = params->pads();
  // pads: (before, after) pairs from the last dim backwards, as torch has them.
  if (in.dtype != DataType::Float32 || out.dtype != DataType::Float32 ||
      in.layout != out.layout || in.dim != out.dim ||
      in.dim < 1 || pads == nullptr || pads->size() % 2 != 0 ||
      pads->size() > 2 * static_cast<size_t>(in.dim)) {
    EMBER_LOG(Error, "cpu backend: malformed pad");
    return Error::InvalidProgram;
  }
  PadOp* made = new (std::nothrow) PadOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->in = v.in[0];
  made->out = v.out;
  made->dim = in.dim;
  made->value = params->value();
  made->rows = 1;
  bool ok = true;
  int order[kMaxDims];
  memory_order(in, order);
  for (int m = 0; m < in.dim; ++m) {
    const int d = order[m];  // the logical dim at memory position m
    const size_t pair = static_cast<size_t>(in.dim - 1 - d);  // pads pair of dim d
    int64_t lo = 0, hi = 0;
    if (2 * pair < pads->size()) {
      lo = pads->Get(static_cast<flatbuffers::uoffset_t>(2 * pair));
      hi = pads->Get(static_cast<flatbuffers::uoffset_t>(2 * pair + 1));
    }
    made->in_sizes[m] = in.sizes[d];
    made->out_sizes[m] = out.sizes[d];
    made->before[m] = lo;
    ok = ok && static_cast<int64_t>(in.sizes[d]) + lo + hi == out.sizes[d];
    if (m < in.dim - 1) made->rows *= out.sizes[d];
  }
  if (!ok) {
    EMBER_LOG(Error, "cpu backend: pad sizes do not add up");
    delete made;
    return Error::InvalidProgram;
  }
  if (out.numel == 0) made->rows = 0;
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
