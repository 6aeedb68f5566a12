// Reduce: sum, mean or max over a set of dims that lie next to each other in
// the input's memory order (the last dims of a plain value, H and W of an
// NHWC one, ...), as one [outer, size, inner] reduction on the f32-reduce
// kernels, split across the pool by outputs. The output is plain; the
// factory checks that the kept dims come out in the same order as memory
// holds them.
#include <new>

#include "backends/cpu/runtime/ops/memory_order.h"
#include "backends/cpu/runtime/ops/op_util.h"
#include "kernels/optimized/f32-reduce/f32_reduce.h"

namespace ember::cpu {
namespace {

namespace opt = kernels::optimized;

constexpr size_t kMinWork = 16384;  // input elements per thread at least

class ReduceOp final : public CpuOp {
 public:
  uint32_t in = 0, out = 0;
  opt::F32ReduceOp op = opt::F32ReduceOp::Sum;
  size_t outer = 1, size = 1, inner = 1;
  const opt::F32ReduceConfig* config = nullptr;

  void run(const ExecState& state) const override {
    const float* x = state.data[in];
    float* y = state.data[out];
    const size_t outputs = outer * inner;
    if (outputs == 0) return;
    const size_t per_output = size > 0 ? size : 1;
    const int64_t min_outputs = static_cast<int64_t>((kMinWork + per_output - 1) / per_output);
    parallel_for(state.pool, static_cast<int64_t>(outputs), min_outputs, [&](int64_t b, int64_t e) {
      opt::f32_reduce(*config, op, size, inner, x, y, static_cast<size_t>(b),
                      static_cast<size_t>(e));
    });
  }
};

}  // namespace

Result<CpuOp*> make_reduce(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Reduce* params = op->params_as_Reduce();
  OpValues v;
  if (params == nullptr || !read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  // Which logical dims are reduced (none listed: all of them).
  bool reduced[kMaxDims] = {};
  const auto* dims = params->dims();
  const size_t num_dims = dims != nullptr ? dims->size() : 0;
  for (size_t i = 0; i < num_dims; ++i) {
    int d = dims->Get(static_cast<flatbuffers::uoffset_t>(i));
    if (d < 0) d += in.dim;
    if (d < 0 || d >= in.dim) {
      EMBER_LOG(Error, "cpu backend: reduce over dim %d of a rank-%d value",
                dims->Get(static_cast<flatbuffers::uoffset_t>(i)), in.dim);
      return Error::InvalidProgram;
    }
    reduced[d] = true;
  }
  if (num_dims == 0) {
    for (int d = 0; d < in.dim; ++d) reduced[d] = true;
  }
  // The output's sizes: in's with the reduced dims dropped (or 1 with keepdim).
  int32_t want[kMaxDims];
  int want_dim = 0;
  for (int d = 0; d < in.dim; ++d) {
    if (!reduced[d]) {
      want[want_dim++] = in.sizes[d];
    } else if (params->keepdim()) {
      want[want_dim++] = 1;
    }
  }
  bool ok = out.layout == Layout::Plain && out.dim == want_dim;
  for (int d = 0; ok && d < want_dim; ++d) ok = out.sizes[d] == want[d];
  // In memory order, the reduced dims (of size > 1) must form one block, and
  // the kept dims (of size > 1) must keep their logical order.
  int order[kMaxDims];
  memory_order(in, order);
  size_t outer = 1, size = 1, inner = 1;
  int phase = 0;  // 0: before the block, 1: in it, 2: after it
  int last_kept = -1;
  for (int p = 0; ok && p < in.dim; ++p) {
    const int d = order[p];
    const size_t extent = static_cast<size_t>(in.sizes[d]);
    if (extent == 1) continue;
    if (reduced[d]) {
      if (phase == 2) ok = false;
      phase = 1;
      size *= extent;
    } else {
      if (phase == 1) phase = 2;
      (phase == 0 ? outer : inner) *= extent;
      if (d < last_kept) ok = false;
      last_kept = d;
    }
  }
  if (!ok) {
    EMBER_LOG(Error, "cpu backend: reduce dims are not one block in memory, or the output is "
                     "not the reduced shape");
    return Error::InvalidProgram;
  }
  ReduceOp* made = new (std::nothrow) ReduceOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->in = v.in[0];
  made->out = v.out;
  made->op = params->max() ? opt::F32ReduceOp::Max
                           : (params->mean() ? opt::F32ReduceOp::Mean : opt::F32ReduceOp::Sum);
  made->outer = outer;
  made->size = size;
  made->inner = inner;
  made->config = &opt::f32_reduce_config();
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
