#include "backends/cpu/runtime/ops/conv_chain.h"

#include <algorithm>
#include <new>

#include "runtime/core/thread_pool.h"

namespace ember::cpu {
namespace {

using kernels::optimized::F32DwconvUkernelFn;
using kernels::optimized::F32RowActivation;
using kernels::optimized::f32_dwconv_pixel_step;
using kernels::optimized::f32_dwconv_row_pointers;
using kernels::optimized::f32_dwconv_ukernel;

// What one step of a band may keep in cache: the expanded rows it reads and
// the depthwise rows it writes, well inside the smallest L2 the project
// meets (1 MiB on Zen 4), so that the weights and the output stay there too.
constexpr size_t kStepBytes = 384 * 1024;
// A chain pays for itself when the depthwise convolution's input would not
// stay in L2 between the ops; below that the ops' own splits over threads
// (M tiles, no halo rows computed twice) win.
constexpr size_t kMinChainBytes = 1024 * 1024;

size_t align_floats(size_t floats) { return (floats + 15) / 16 * 16; }

// A pointwise ConvOp's GEMM over `pixels` pixels of `a` into `c`, serial:
// the chain splits the rows.
void run_pointwise(const ConvOp& op, const float* a, size_t pixels, float* c,
                   const F32RowActivation& activation) {
  f32_gemm(*op.gemm,
           packed_gemm_problem(pixels, static_cast<size_t>(op.s.in_c),
                               static_cast<size_t>(op.s.out_c), a, op.packed, op.bias, op.act,
                               activation, c),
           nullptr);
}

}  // namespace

size_t ConvChainOp::ring_floats() const {
  if (expand == nullptr) return 0;
  return static_cast<size_t>(ring_rows * depthwise->s.in_w * depthwise->s.in_c);
}

size_t ConvChainOp::thread_bytes() const {
  const size_t pointers = f32_dwconv_row_pointers(depthwise->dw_shape);
  return (align_floats(ring_floats()) + align_floats(depthwise_floats())) * sizeof(float) +
         (pointers + 8) * sizeof(const float*);
}

size_t ConvChainOp::temp_bytes(size_t num_threads) const {
  return std::max<size_t>(num_threads, 1) * thread_bytes();
}

void ConvChainOp::run(const ExecState& state) const {
  const ConvShape& d = depthwise->s;
  const int64_t rows = d.batch * d.out_h;
  const size_t threads = state.pool != nullptr ? state.pool->num_threads() : 1;
  const int64_t bands =
      std::min<int64_t>(static_cast<int64_t>(std::min(threads, max_threads)), rows);
  auto band = [&](size_t t) {
    const int64_t begin = rows * static_cast<int64_t>(t) / bands;
    const int64_t end = rows * static_cast<int64_t>(t + 1) / bands;
    run_band(state, begin, end, static_cast<char*>(state.op_temp) + t * thread_bytes());
  };
  if (bands <= 1) {
    band(0);
  } else {
    state.pool->run(static_cast<size_t>(bands), band);
  }
}

void ConvChainOp::run_band(const ExecState& state, int64_t begin, int64_t end,
                           void* temp) const {
  const ConvShape& d = depthwise->s;
  const int64_t c = d.out_c;
  const size_t row_floats = static_cast<size_t>(d.in_w * c);
  float* ring = static_cast<float*>(temp);
  float* dw_rows = ring + align_floats(ring_floats());
  const float** pointers =
      reinterpret_cast<const float**>(dw_rows + align_floats(depthwise_floats()));

  const float* input = state.data[expand != nullptr ? expand->x : depthwise->x];
  float* out = state.data[project->out];
  const OutputHook hook{&project->act, out,
                        project->act.residual ? state.data[project->residual] : nullptr};
  const F32RowActivation project_activation = hook.row();

  const F32DwconvShape& shape = depthwise->dw_shape;
  const F32DwconvUkernelFn ukernel = f32_dwconv_ukernel(*depthwise->dw, d.taps());
  F32DwconvParams dw_params;
  dw_params.min = depthwise->act.low;
  dw_params.max = depthwise->act.high;
  const size_t step = f32_dwconv_pixel_step(shape);
  const int64_t columns = (d.out_w - 1) * d.stride_w + d.kw;

  // The expanded rows [have_lo, have_hi) of image have_n are in the ring, row
  // iy in slot iy % ring_rows.
  int64_t have_n = -1, have_lo = 0, have_hi = 0;
  auto expand_rows = [&](int64_t n, int64_t from, int64_t to) {
    while (from < to) {
      const int64_t slot = from % ring_rows;
      const int64_t count = std::min(to - from, ring_rows - slot);
      const size_t first_pixel = static_cast<size_t>((n * d.in_h + from) * d.in_w);
      run_pointwise(*expand, input + first_pixel * static_cast<size_t>(expand->s.in_c),
                    static_cast<size_t>(count * d.in_w),
                    ring + static_cast<size_t>(slot) * row_floats, F32RowActivation{});
      from += count;
    }
  };

  for (int64_t row = begin; row < end;) {
    const int64_t n = row / d.out_h, oy0 = row % d.out_h;
    const int64_t count = std::min({rows_per_step, d.out_h - oy0, end - row});
    const int64_t lo = std::max<int64_t>(0, oy0 * d.stride_h - d.pad_h);
    const int64_t hi = std::min<int64_t>(
        d.in_h, (oy0 + count - 1) * d.stride_h - d.pad_h + (d.kh - 1) * d.dil_h + 1);
    if (expand != nullptr && lo < hi) {
      // The rows the last step expanded from lo on are still in the ring.
      const int64_t from = have_n == n && lo >= have_lo && lo <= have_hi ? have_hi : lo;
      expand_rows(n, from, hi);
      have_n = n, have_lo = lo, have_hi = std::max(from, hi);
    }
    auto row_at = [&](int64_t iy) -> const float* {
      if (expand != nullptr) return ring + static_cast<size_t>(iy % ring_rows) * row_floats;
      return input + static_cast<size_t>(n * d.in_h + iy) * row_floats;
    };
    for (int64_t oy = oy0; oy < oy0 + count; ++oy) {
      // The indirection of one output row (f32_dwconv_indirection's layout
      // with dilation 1 along the row: kh pointers per input column, the
      // columns neighbouring pixels share written once).
      const float* bases[16];
      for (int64_t ky = 0; ky < d.kh; ++ky) {
        const int64_t iy = oy * d.stride_h + ky * d.dil_h - d.pad_h;
        bases[ky] = iy >= 0 && iy < d.in_h ? row_at(iy) : nullptr;
      }
      for (int64_t col = 0; col < columns; ++col) {
        const int64_t ix = col - d.pad_w;
        const bool inside = ix >= 0 && ix < d.in_w;
        for (int64_t ky = 0; ky < d.kh; ++ky) {
          pointers[col * d.kh + ky] =
              inside && bases[ky] != nullptr ? bases[ky] + ix * c : depthwise->zero;
        }
      }
      ukernel(static_cast<size_t>(d.taps()), static_cast<size_t>(c),
              static_cast<size_t>(d.out_w), pointers, step, 0, depthwise->zero,
              depthwise->packed, dw_rows + static_cast<size_t>((oy - oy0) * d.out_w * c),
              static_cast<size_t>(c), &dw_params);
    }
    const size_t first_pixel = static_cast<size_t>((n * d.out_h + oy0) * d.out_w);
    run_pointwise(*project, dw_rows, static_cast<size_t>(count * d.out_w),
                  out + first_pixel * static_cast<size_t>(project->s.out_c), project_activation);
    row += count;
  }
}

ConvChainOp* fuse_conv_chain(const ConvOp* expand, const ConvOp* depthwise,
                             const ConvOp* project, size_t threads) {
  using Path = ConvOp::Path;
  const ConvShape& d = depthwise->s;
  // The kernels the chain calls, on the data the ops would give each other;
  // the row indirection is built for dilation 1 along rows and strides
  // within the kernel (neighbouring pixels share columns).
  const bool fits =
      depthwise->path == Path::Depthwise && !depthwise->act.needs_hook() && d.dil_w == 1 &&
      d.stride_w <= d.kw && d.kh <= 16 && project->path == Path::Pointwise &&
      project->x == depthwise->out && project->s.batch == d.batch &&
      project->s.in_h == d.out_h && project->s.in_w == d.out_w &&
      (expand == nullptr ||
       (expand->path == Path::Pointwise && !expand->act.needs_hook() &&
        expand->out == depthwise->x && expand->s.batch == d.batch && expand->s.out_h == d.in_h &&
        expand->s.out_w == d.in_w));
  const size_t dw_input_bytes = static_cast<size_t>(d.in_h * d.in_w * d.in_c) * sizeof(float);
  if (!fits || dw_input_bytes < kMinChainBytes || d.out_h == 0 || d.out_w == 0) return nullptr;

  ConvChainOp* chain = new (std::nothrow) ConvChainOp();
  if (chain == nullptr) return nullptr;
  chain->expand = expand;
  chain->depthwise = depthwise;
  chain->project = project;
  chain->max_threads = std::max<size_t>(threads, 1);
  // The most output rows per step whose expanded and depthwise rows fit the
  // step's share of the cache (at least one).
  const size_t in_row = static_cast<size_t>(d.in_w * d.in_c) * sizeof(float);
  const size_t out_row = static_cast<size_t>(d.out_w * d.out_c) * sizeof(float);
  for (int64_t r = 1; r <= d.out_h; ++r) {
    const int64_t span =
        std::min<int64_t>(d.in_h, (r - 1) * d.stride_h + (d.kh - 1) * d.dil_h + 1);
    const size_t bytes = (expand != nullptr ? static_cast<size_t>(span) * in_row : 0) +
                         static_cast<size_t>(r) * out_row;
    if (r > 1 && bytes > kStepBytes) break;
    chain->rows_per_step = r;
    chain->ring_rows = span;
  }
  return chain;
}

}  // namespace ember::cpu
