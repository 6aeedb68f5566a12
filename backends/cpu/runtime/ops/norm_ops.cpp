// Row-wise normalisations: Softmax (and log-softmax) along any dim, in the
// value's own layout (the dim innermost in memory runs as contiguous rows,
// any other as inner-wide columns), and LayerNorm over the trailing dims
// (RMS norm with the rms flag), on the f32-softmax and f32-layernorm kernels.
// Rows are split across the pool.
#include <new>

#include "backends/cpu/runtime/ops/memory_order.h"
#include "backends/cpu/runtime/ops/op_util.h"
#include "kernels/optimized/f32-layernorm/f32_layernorm.h"
#include "kernels/optimized/f32-softmax/f32_softmax.h"

namespace ember::cpu {
namespace {

namespace opt = kernels::optimized;

// Elements per thread at least (softmax and norms read each element two or
// three times and compute an exp or a product per element).
constexpr size_t kMinWork = 4096;

size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

class SoftmaxOp final : public CpuOp {
 public:
  uint32_t in = 0, out = 0;
  bool log = false;
  // The tensor as [outer, size, inner] in memory order, size the softmax dim.
  size_t outer = 0, size = 0, inner = 0;
  const opt::F32SoftmaxConfig* config = nullptr;

  void run(const ExecState& state) const override {
    const float* x = state.data[in];
    float* y = state.data[out];
    if (outer == 0 || size == 0 || inner == 0) return;
    if (inner == 1) {
      const int64_t min_rows = static_cast<int64_t>(ceil_div(kMinWork, size));
      parallel_for(state.pool, static_cast<int64_t>(outer), min_rows, [&](int64_t b, int64_t e) {
        opt::f32_softmax_rows(*config, size, x, y, log, static_cast<size_t>(b),
                              static_cast<size_t>(e));
      });
      return;
    }
    // Tasks: (block, slice of at most kF32SoftmaxMaxColumns columns).
    const size_t slices = ceil_div(inner, opt::kF32SoftmaxMaxColumns);
    const size_t width = ceil_div(inner, slices);
    const int64_t min_tasks = static_cast<int64_t>(ceil_div(kMinWork, size * width));
    parallel_for(state.pool, static_cast<int64_t>(outer * slices), min_tasks,
                 [&](int64_t b, int64_t e) {
                   for (size_t t = static_cast<size_t>(b); t < static_cast<size_t>(e); ++t) {
                     const size_t j0 = (t % slices) * width;
                     const size_t j1 = j0 + width < inner ? j0 + width : inner;
                     opt::f32_softmax_columns(*config, size, inner, x, y, log, t / slices, j0, j1);
                   }
                 });
  }
};

class LayerNormOp final : public CpuOp {
 public:
  uint32_t in = 0, out = 0;
  int64_t weight = -1, bias = -1;  // value ids, -1 for none
  float eps = 0;
  bool rms = false;
  size_t rows = 0, n = 0;
  const opt::F32LayerNormConfig* config = nullptr;

  void run(const ExecState& state) const override {
    const float* x = state.data[in];
    float* y = state.data[out];
    const float* w = weight >= 0 ? state.data[weight] : nullptr;
    const float* b = bias >= 0 ? state.data[bias] : nullptr;
    if (rows == 0 || n == 0) return;
    const int64_t min_rows = static_cast<int64_t>(ceil_div(kMinWork, n));
    parallel_for(state.pool, static_cast<int64_t>(rows), min_rows, [&](int64_t begin, int64_t end) {
      opt::f32_layernorm_rows(*config, n, x, w, b, eps, rms, y, static_cast<size_t>(begin),
                              static_cast<size_t>(end));
    });
  }
};

// A weight or bias: -1 (none) or a plain value of n floats.
bool check_param(const BuildContext& ctx, int32_t id, size_t n, const char* what) {
  if (id < 0) return true;
  if (static_cast<size_t>(id) >= ctx.num_values || ctx.values[id].numel != n ||
      ctx.values[id].layout != Layout::Plain) {
    EMBER_LOG(Error, "cpu backend: layer norm %s (value %d) is not %zu plain floats", what, id, n);
    return false;
  }
  return true;
}

}  // namespace

Result<CpuOp*> make_softmax(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Softmax* params = op->params_as_Softmax();
  OpValues v;
  if (params == nullptr || !read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  const int dim = params->dim() < 0 ? params->dim() + in.dim : params->dim();
  if (!same_sizes(in, out) || in.layout != out.layout || dim < 0 || dim >= in.dim) {
    EMBER_LOG(Error, "cpu backend: softmax over dim %d of a rank-%d value, or output unlike input",
              params->dim(), in.dim);
    return Error::InvalidProgram;
  }
  SoftmaxOp* made = new (std::nothrow) SoftmaxOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->in = v.in[0];
  made->out = v.out;
  made->log = params->log();
  made->config = &opt::f32_softmax_config();
  made->outer = 1;
  made->size = static_cast<size_t>(in.sizes[dim]);
  made->inner = 1;
  int order[kMaxDims];
  memory_order(in, order);
  bool after = false;
  for (int p = 0; p < in.dim; ++p) {
    if (order[p] == dim) {
      after = true;
    } else {
      (after ? made->inner : made->outer) *= static_cast<size_t>(in.sizes[order[p]]);
    }
  }
  return static_cast<CpuOp*>(made);
}

Result<CpuOp*> make_layer_norm(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::LayerNorm* params = op->params_as_LayerNorm();
  OpValues v;
  if (params == nullptr) return refuse("a layer norm without parameters");
  if (!read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  const int k = params->normalized_dims();
  // Any eps: as in PyTorch, rows whose variance (mean square) + eps is
  // negative come out NaN, which the kernels' 1 / sqrt gives too.
  if (!same_sizes(in, out) || in.layout != Layout::Plain || out.layout != Layout::Plain || k < 1 ||
      k > in.dim) {
    return refuse("layer norm over %d dims of a rank-%d value (plain in and out, of one shape)", k,
                  in.dim);
  }
  size_t n = 1;
  for (int d = in.dim - k; d < in.dim; ++d) n *= static_cast<size_t>(in.sizes[d]);
  if (!check_param(ctx, params->weight(), n, "weight") ||
      (!params->rms() && !check_param(ctx, params->bias(), n, "bias"))) {
    return Error::InvalidProgram;
  }
  LayerNormOp* made = new (std::nothrow) LayerNormOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->in = v.in[0];
  made->out = v.out;
  made->weight = params->weight();
  made->bias = params->rms() ? -1 : params->bias();
  made->eps = params->eps();
  made->rms = params->rms();
  made->n = n;
  made->rows = n > 0 ? in.numel / n : 0;
  made->config = &opt::f32_layernorm_config();
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
