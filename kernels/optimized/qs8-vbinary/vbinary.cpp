// The int8 binary family's variant table, start-up choice and the walk over
// a broadcast plan. Compiled without ISA flags.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-vbinary/plan_rows.h"
#include "kernels/optimized/qs8-vbinary/qs8_vbinary.h"

namespace ember::kernels::optimized {

extern const Qs8VBinaryConfig kQs8VBinaryScalarConfig;
#if defined(__x86_64__)
extern const Qs8VBinaryConfig kQs8VBinaryAvx512Config;
extern const Qs8VBinaryConfig kQs8VBinaryAvx2Config;
#endif
#if defined(__aarch64__)
extern const Qs8VBinaryConfig kQs8VBinaryNeonConfig;
#endif
#if defined(__wasm_simd128__)
extern const Qs8VBinaryConfig kQs8VBinaryWasmSimdConfig;
#endif

namespace {

const Qs8VBinaryConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kQs8VBinaryAvx512Config,
    &kQs8VBinaryAvx2Config,
#endif
#if defined(__aarch64__)
    &kQs8VBinaryNeonConfig,
#endif
#if defined(__wasm_simd128__)
    &kQs8VBinaryWasmSimdConfig,
#endif
    &kQs8VBinaryScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

size_t min_of(size_t a, size_t b) { return a < b ? a : b; }

// One row of n outputs, a and b advancing by their innermost strides.
void run_row(const Qs8VBinaryConfig& cfg, Qs8BinaryOp op, size_t n, const int8_t* a,
             ptrdiff_t as, const int8_t* b, ptrdiff_t bs, int8_t* y, const Qs8BinaryParams& p,
             const Qs8BinaryParams& swapped) {
  const size_t o = static_cast<size_t>(op);
  if (as == 1 && bs == 1) {
    cfg.vv[o](n, a, b, y, &p);
  } else if (as == 1 && bs == 0) {
    cfg.vs[o](n, a, *b, y, &p);
  } else if (as == 0 && bs == 1) {
    cfg.vs[o](n, b, *a, y, &swapped);
  } else {
    // Permuted or strided operands (rare: the CPU backend converts layouts
    // instead): gathered in chunks into contiguous runs for vv.
    constexpr size_t kChunk = 256;
    int8_t ga[kChunk], gb[kChunk];
    for (size_t i0 = 0; i0 < n; i0 += kChunk) {
      const size_t len = min_of(kChunk, n - i0);
      for (size_t i = 0; i < len; ++i) {
        const ptrdiff_t k = static_cast<ptrdiff_t>(i0 + i);
        ga[i] = a[k * as];
        gb[i] = b[k * bs];
      }
      cfg.vv[o](len, ga, gb, y + i0, &p);
    }
  }
}

}  // namespace

Qs8BinaryParams qs8_binary_params_swapped(Qs8BinaryOp op, const Qs8BinaryParams& p) {
  Qs8BinaryParams s = p;
  s.a_zero = p.b_zero;
  s.b_zero = p.a_zero;
  if (op == Qs8BinaryOp::Add) {
    s.a_mult = p.b_mult;
    s.b_mult = p.a_mult;
  }
  return s;
}

size_t qs8_vbinary_num_variants() { return kNumVariants; }

const Qs8VBinaryConfig& qs8_vbinary_variant(size_t index) { return *kVariants[index]; }

bool qs8_vbinary_variant_supported(const Qs8VBinaryConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const Qs8VBinaryConfig& qs8_vbinary_config() {
  static const Qs8VBinaryConfig* const chosen = [] {
    for (const Qs8VBinaryConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kQs8VBinaryScalarConfig;
  }();
  return *chosen;
}

void qs8_vbinary_run(const Qs8VBinaryConfig& cfg, Qs8BinaryOp op, const F32BinaryPlan& plan,
                     const int8_t* a, const int8_t* b, int8_t* y, size_t begin, size_t end,
                     const Qs8BinaryParams& params) {
  if (end > plan.numel) end = plan.numel;
  if (begin >= end) return;
  const Qs8BinaryParams swapped = qs8_binary_params_swapped(op, params);
  const int d = plan.dims;
  const size_t inner = plan.sizes[d - 1];
  const ptrdiff_t as = plan.a_strides[d - 1];
  const ptrdiff_t bs = plan.b_strides[d - 1];
  PlanRows at(plan, begin);
  size_t i = begin;
  size_t j = begin % inner;
  while (i < end) {
    const size_t step = min_of(inner - j, end - i);
    const ptrdiff_t jj = static_cast<ptrdiff_t>(j);
    run_row(cfg, op, step, a + at.a_off + jj * as, as, b + at.b_off + jj * bs, bs, y + i, params,
            swapped);
    i += step;
    j = 0;
    at.next();
  }
}

}  // namespace ember::kernels::optimized
