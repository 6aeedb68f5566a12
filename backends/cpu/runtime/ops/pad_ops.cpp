// Pad: constant padding (F.pad's "constant" mode, aten.constant_pad_nd):
// out[o] = in[o - before] where that lies inside in, else the fill value.
// Negative pads crop. The value may be plain or channels-last (in and out
// alike): the op works on the dims in memory order, so a pad between two
// NHWC convolutions (TF-style "same" padding) costs no layout conversion.
// Float32, or int8 codes between int8 convolutions (the fill then is the
// code of the pad value, which the exporter computes: ops_quant.py).
// Split over output rows (all memory dims but the innermost); each row is
// fill, one contiguous run of its source row, fill.
#include <cstdint>
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
  size_t element = sizeof(float);  // or 1: int8 codes, value an integer code
  int64_t rows = 0;

  void fill(uint8_t* o, int64_t from, int64_t to) const {
    if (element == 1) {
      std::memset(o + from, static_cast<int8_t>(value), static_cast<size_t>(to - from));
      return;
    }
    float* f = reinterpret_cast<float*>(o);
    for (int64_t c = from; c < to; ++c) f[c] = value;
  }

  void run(const ExecState& state) const override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(state.data[in]);
    uint8_t* dst = reinterpret_cast<uint8_t*>(state.data[out]);
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
        uint8_t* o = dst + static_cast<size_t>(r * width) * element;
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
          fill(o, 0, width);
          continue;
        }
        fill(o, 0, c0);
        std::memcpy(o + static_cast<size_t>(c0) * element,
                    src + static_cast<size_t>(src_row * in_width + c0 - before[dim - 1]) * element,
                    static_cast<size_t>(c1 - c0) * element);
        fill(o, c1, width);
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
  const bool int8 = in.dtype == DataType::Int8;
  // An int8 fill is a code: an integer in [-128, 127].
  const float value = params->value();
  const bool value_ok = !int8 || (value >= -128.0f && value <= 127.0f &&
                                  value == static_cast<float>(static_cast<int>(value)));
  if ((in.dtype != DataType::Float32 && !int8) || out.dtype != in.dtype || !value_ok ||
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
  made->value = value;
  made->element = int8 ? 1 : sizeof(float);
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
  }
  if (!ok) {
    EMBER_LOG(Error, "cpu backend: pad sizes do not add up");
    delete made;
    return Error::InvalidProgram;
  }
  // Trailing dims without padding join the dim before them, so that a row
  // is as long as it can be: an NHWC image padded in H and W has rows of W
  // C values, not one row per pixel (whose index arithmetic cost more than
  // copying its C values).
  while (made->dim > 1 && made->before[made->dim - 1] == 0 &&
         made->in_sizes[made->dim - 1] == made->out_sizes[made->dim - 1]) {
    const int64_t inner = made->in_sizes[--made->dim];
    made->in_sizes[made->dim - 1] *= inner;
    made->out_sizes[made->dim - 1] *= inner;
    made->before[made->dim - 1] *= inner;
  }
  for (int m = 0; m < made->dim - 1; ++m) made->rows *= made->out_sizes[m];
  if (out.numel == 0) made->rows = 0;
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
