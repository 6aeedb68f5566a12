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
// A reduction with one outer block and at most this many outputs per thread
// splits its reduced dim instead (each thread folds a run of rows into its
// own partial row, then one adds them): a mean over H and W of a few
// channels has too few outputs to share, and splitting the channels would
// have both threads read every cache line's neighbour.
constexpr size_t kMaxOutputsToSplitRows = 4096;

class ReduceOp final : public CpuOp {
 public:
  uint32_t in = 0, out = 0;
  opt::F32ReduceOp op = opt::F32ReduceOp::Sum;
  size_t outer = 1, size = 1, inner = 1;
  const opt::F32ReduceConfig* config = nullptr;
  // Partial rows the temp memory holds (temp_bytes, called once at init).
  mutable size_t partial_rows_ = 0;

  bool splits_rows(size_t threads) const {
    return threads > 1 && outer == 1 && inner <= kMaxOutputsToSplitRows &&
           size * inner >= 2 * kMinWork && size >= 2 * threads;
  }
  size_t temp_bytes(size_t num_threads) const override {
    partial_rows_ = splits_rows(num_threads) ? num_threads : 0;
    return partial_rows_ * inner * sizeof(float);
  }

  void run(const ExecState& state) const override {
    const float* x = state.data[in];
    float* y = state.data[out];
    const size_t outputs = outer * inner;
    if (outputs == 0) return;
    size_t threads = state.pool != nullptr ? state.pool->num_threads() : 1;
    if (threads > partial_rows_) threads = partial_rows_;  // the temp memory init planned
    if (splits_rows(threads) && state.op_temp != nullptr) return run_split_rows(state, threads);
    const size_t per_output = size > 0 ? size : 1;
    const int64_t min_outputs = static_cast<int64_t>((kMinWork + per_output - 1) / per_output);
    parallel_for(state.pool, static_cast<int64_t>(outputs), min_outputs, [&](int64_t b, int64_t e) {
      opt::f32_reduce(*config, op, size, inner, x, y, static_cast<size_t>(b),
                      static_cast<size_t>(e));
    });
  }

  void run_split_rows(const ExecState& state, size_t threads) const {
    const float* x = state.data[in];
    float* y = state.data[out];
    float* partial = static_cast<float*>(state.op_temp);
    const opt::F32ReduceOp fold = op == opt::F32ReduceOp::Max ? op : opt::F32ReduceOp::Sum;
    state.pool->run(threads, [&](size_t t) {
      const size_t k0 = t * size / threads, k1 = (t + 1) * size / threads;
      opt::f32_reduce(*config, fold, k1 - k0, inner, x + k0 * inner, partial + t * inner, 0,
                      inner);
    });
    const opt::F32VAccUkernelFn acc =
        op == opt::F32ReduceOp::Max ? config->vmax_acc : config->vadd_acc;
    for (size_t j = 0; j < inner; ++j) y[j] = partial[j];
    for (size_t t = 1; t < threads; ++t) acc(inner, partial + t * inner, y);
    if (op == opt::F32ReduceOp::Mean) {
      const float scale = 1.0f / static_cast<float>(size);
      for (size_t j = 0; j < inner; ++j) y[j] *= scale;
    }
  }
};

}  // namespace

bool reduce_geometry(const ValueInfo& in, const ValueInfo& out, const cpu_fb::Reduce* params,
                     size_t* outer, size_t* size, size_t* inner) {
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
      return false;
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
  *outer = *size = *inner = 1;
  int phase = 0;  // 0: before the block, 1: in it, 2: after it
  int last_kept = -1;
  for (int p = 0; ok && p < in.dim; ++p) {
    const int d = order[p];
    const size_t extent = static_cast<size_t>(in.sizes[d]);
    if (extent == 1) continue;
    if (reduced[d]) {
      if (phase == 2) ok = false;
      phase = 1;
      *size *= extent;
    } else {
      if (phase == 1) phase = 2;
      *(phase == 0 ? outer : inner) *= extent;
      if (d < last_kept) ok = false;
      last_kept = d;
    }
  }
  if (!ok) {
    EMBER_LOG(Error, "cpu backend: reduce dims are not one block in memory, or the output is "
                     "not the reduced shape");
    return false;
  }
  return true;
}

Result<CpuOp*> make_reduce(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Reduce* params = op->params_as_Reduce();
  OpValues v;
  if (params == nullptr || !read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  size_t outer, size, inner;
  if (!reduce_geometry(ctx.values[v.in[0]], ctx.values[v.out], params, &outer, &size, &inner)) {
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
