// The f32 binary family's variant table, start-up choice and broadcast plan.
// Compiled without ISA flags; only the microkernels it calls through
// F32VBinaryConfig use AVX2 or NEON.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"
#include "kernels/optimized/f32-vbinary/plan_rows.h"

namespace ember::kernels::optimized {

extern const F32VBinaryConfig kF32VBinaryScalarConfig;
#if defined(__x86_64__)
extern const F32VBinaryConfig kF32VBinaryAvx2Config;
#endif
#if defined(__aarch64__)
extern const F32VBinaryConfig kF32VBinaryNeonConfig;
#endif
#if defined(__wasm_simd128__)
extern const F32VBinaryConfig kF32VBinaryWasmSimdConfig;
#endif

namespace {

const F32VBinaryConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kF32VBinaryAvx2Config,
#endif
#if defined(__aarch64__)
    &kF32VBinaryNeonConfig,
#endif
#if defined(__wasm_simd128__)
    &kF32VBinaryWasmSimdConfig,
#endif
    &kF32VBinaryScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

size_t min_of(size_t a, size_t b) { return a < b ? a : b; }

float apply(F32BinaryOp op, float a, float b) {
  switch (op) {
    case F32BinaryOp::Add: return a + b;
    case F32BinaryOp::Sub: return a - b;
    case F32BinaryOp::Mul: return a * b;
    case F32BinaryOp::Div: return a / b;
    case F32BinaryOp::RSub: return b - a;
    case F32BinaryOp::RDiv: return b / a;
    case F32BinaryOp::Max: return a != a || b != b ? a + b : (a > b ? a : b);
    case F32BinaryOp::Min: return a != a || b != b ? a + b : (a < b ? a : b);
  }
  return a;
}

// One row of n elements, a and b advancing by their innermost strides.
void run_row(const F32VBinaryConfig& cfg, F32BinaryOp op, size_t n, const float* a,
             ptrdiff_t as, const float* b, ptrdiff_t bs, float* y, const F32VBinaryParams& p) {
  if (as == 1 && bs == 1) {
    cfg.vv[static_cast<size_t>(op)](n, a, b, y, &p);
  } else if (as == 1 && bs == 0) {
    cfg.vs[static_cast<size_t>(op)](n, a, *b, y, &p);
  } else if (as == 0 && bs == 1) {
    cfg.vs[static_cast<size_t>(f32_binary_op_reversed(op))](n, b, *a, y, &p);
  } else {
    // Permuted or strided operands: rare (the CPU backend converts layouts
    // instead), so a plain loop.
    for (size_t i = 0; i < n; ++i) {
      const ptrdiff_t k = static_cast<ptrdiff_t>(i);
      const float v = apply(op, a[k * as], b[k * bs]);
      y[i] = v < p.min ? p.min : (v > p.max ? p.max : v);
    }
  }
}

}  // namespace

F32BinaryOp f32_binary_op_reversed(F32BinaryOp op) {
  switch (op) {
    case F32BinaryOp::Sub: return F32BinaryOp::RSub;
    case F32BinaryOp::Div: return F32BinaryOp::RDiv;
    case F32BinaryOp::RSub: return F32BinaryOp::Sub;
    case F32BinaryOp::RDiv: return F32BinaryOp::Div;
    default: return op;
  }
}

const char* f32_binary_op_name(F32BinaryOp op) {
  switch (op) {
    case F32BinaryOp::Add: return "add";
    case F32BinaryOp::Sub: return "sub";
    case F32BinaryOp::Mul: return "mul";
    case F32BinaryOp::Div: return "div";
    case F32BinaryOp::RSub: return "rsub";
    case F32BinaryOp::RDiv: return "rdiv";
    case F32BinaryOp::Max: return "max";
    case F32BinaryOp::Min: return "min";
  }
  return "?";
}

size_t f32_vbinary_num_variants() { return kNumVariants; }

const F32VBinaryConfig& f32_vbinary_variant(size_t index) { return *kVariants[index]; }

bool f32_vbinary_variant_supported(const F32VBinaryConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const F32VBinaryConfig& f32_vbinary_config() {
  static const F32VBinaryConfig* const chosen = [] {
    for (const F32VBinaryConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kF32VBinaryScalarConfig;
  }();
  return *chosen;
}

bool f32_binary_plan(int dims, const size_t* sizes, const ptrdiff_t* a_strides,
                     const ptrdiff_t* b_strides, F32BinaryPlan* plan) {
  if (dims < 0 || dims > kF32BinaryMaxDims) return false;
  *plan = F32BinaryPlan{};
  plan->numel = 1;
  for (int d = 0; d < dims; ++d) plan->numel *= sizes[d];
  if (plan->numel == 0) return true;
  int n = 0;
  for (int d = 0; d < dims; ++d) {
    if (sizes[d] == 1) continue;  // steps nothing
    // Merge into the previous dim when stepping it once equals stepping this
    // one through its whole extent, for both operands (y is contiguous).
    if (n > 0 && plan->a_strides[n - 1] == a_strides[d] * static_cast<ptrdiff_t>(sizes[d]) &&
        plan->b_strides[n - 1] == b_strides[d] * static_cast<ptrdiff_t>(sizes[d])) {
      plan->sizes[n - 1] *= sizes[d];
      plan->a_strides[n - 1] = a_strides[d];
      plan->b_strides[n - 1] = b_strides[d];
      continue;
    }
    plan->sizes[n] = sizes[d];
    plan->a_strides[n] = a_strides[d];
    plan->b_strides[n] = b_strides[d];
    ++n;
  }
  if (n == 0) {  // one element
    plan->sizes[0] = 1;
    plan->a_strides[0] = 1;
    plan->b_strides[0] = 1;
    n = 1;
  }
  plan->dims = n;
  return true;
}

void f32_vbinary_run(const F32VBinaryConfig& cfg, F32BinaryOp op, const F32BinaryPlan& plan,
                     const float* a, const float* b, float* y, size_t begin, size_t end,
                     const F32VBinaryParams& params) {
  if (end > plan.numel) end = plan.numel;
  if (begin >= end) return;
  const int d = plan.dims;
  const size_t inner = plan.sizes[d - 1];
  const ptrdiff_t as = plan.a_strides[d - 1];
  const ptrdiff_t bs = plan.b_strides[d - 1];
  PlanRows at(plan, begin);
  // Whole rows against one repeating vector: the next-outer dim steps one
  // operand by a row and the other not at all (NHWC data and a per-channel
  // vector, a bias), either way round.
  const bool contiguous_inner = d >= 2 && as == 1 && bs == 1;
  const ptrdiff_t row = static_cast<ptrdiff_t>(inner);
  const bool b_repeats =
      contiguous_inner && plan.a_strides[d - 2] == row && plan.b_strides[d - 2] == 0;
  const bool a_repeats =
      contiguous_inner && plan.b_strides[d - 2] == row && plan.a_strides[d - 2] == 0;
  const bool repeating_rows = a_repeats || b_repeats;
  const F32BinaryOp rows_op = b_repeats ? op : f32_binary_op_reversed(op);
  const auto rows_fn = cfg.rows[static_cast<size_t>(rows_op)];
  size_t i = begin;
  size_t j = begin % inner;
  while (i < end) {
    size_t step = min_of(inner - j, end - i);
    if (repeating_rows && j == 0 && end - i >= 2 * inner) {
      // As many whole rows as remain in this run of the next-outer dim.
      const size_t rows = min_of((end - i) / inner, plan.sizes[d - 2] - at.index[d - 2]);
      if (b_repeats) {
        rows_fn(rows, inner, a + at.a_off, b + at.b_off, y + i, &params);
      } else {
        rows_fn(rows, inner, b + at.b_off, a + at.a_off, y + i, &params);
      }
      step = rows * inner;
      // The walk moves by `rows` rows: all but the last now, the last below.
      at.skip_within_outer(rows - 1);
    } else {
      run_row(cfg, op, step, a + at.a_off + static_cast<ptrdiff_t>(j) * as, as,
              b + at.b_off + static_cast<ptrdiff_t>(j) * bs, bs, y + i, params);
    }
    i += step;
    j += step;
    if (j >= inner && i < end) {
      j = 0;
      at.next();
    }
  }
}

}  // namespace ember::kernels::optimized
