// The f32 elementwise binary family: y = clamp(a op b) for add, sub, mul, div
// (and their reversed forms), max and min, over equal vectors, a vector and a number, or
// rows against one repeating vector (a per-channel operand), one microkernel
// per form, op and ISA (scalar.cpp, avx2.cpp, neon.cpp). vbinary.cpp adds a
// broadcast plan that maps any broadcast onto those forms.
//
// This header is included by files compiled with ISA flags, so it must
// define no inline function (see f32_gemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::kernels::optimized {

enum class F32BinaryOp : uint8_t {
  Add = 0,
  Sub,   // a - b
  Mul,
  Div,   // a / b
  RSub,  // b - a
  RDiv,  // b / a
  Max,   // NaN when either is NaN (torch.maximum), else a > b ? a : b
  Min,   // NaN when either is NaN (torch.minimum), else a < b ? a : b
};
constexpr size_t kF32BinaryOpCount = 8;

// The op with its operands swapped: a op b == b reversed(op) a.
F32BinaryOp f32_binary_op_reversed(F32BinaryOp op);
const char* f32_binary_op_name(F32BinaryOp op);

// The clamp fused into every microkernel's output; -inf / +inf for none. A
// NaN result stays NaN.
struct F32VBinaryParams {
  float min;
  float max;
};

// y[i] = clamp(a[i] op b[i]) for i < n.
using F32VBinaryUkernelFn = void (*)(size_t n, const float* a, const float* b, float* y,
                                     const F32VBinaryParams* params);
// y[i] = clamp(a[i] op b) for i < n.
using F32VBinaryScalarUkernelFn = void (*)(size_t n, const float* a, float b, float* y,
                                           const F32VBinaryParams* params);
// Rows of c contiguous elements against one vector of c:
// y[r * c + j] = clamp(a[r * c + j] op b[j]) for r < rows, j < c. One call
// for many short rows (NHWC data against a per-channel vector), where a call
// per row would cost as much as the row.
using F32VBinaryRowsUkernelFn = void (*)(size_t rows, size_t c, const float* a, const float* b,
                                         float* y, const F32VBinaryParams* params);

// In every form y may be a (or b where b has y's extent), never a partial
// overlap.
struct F32VBinaryConfig {
  const char* name;            // "scalar", "avx2", "neon"
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  F32VBinaryUkernelFn vv[kF32BinaryOpCount];  // indexed by F32BinaryOp
  F32VBinaryScalarUkernelFn vs[kF32BinaryOpCount];
  F32VBinaryRowsUkernelFn rows[kF32BinaryOpCount];
};

// The table of one form (vv, vs, rows) of every op, in F32BinaryOp order, for
// the variants' configs: a macro, so that this header defines no function.
#define EMBER_F32_VBINARY_OPS(form)                                                   \
  {                                                                                   \
    form<F32BinaryOp::Add>, form<F32BinaryOp::Sub>, form<F32BinaryOp::Mul>,           \
        form<F32BinaryOp::Div>, form<F32BinaryOp::RSub>, form<F32BinaryOp::RDiv>,     \
        form<F32BinaryOp::Max>, form<F32BinaryOp::Min>,                               \
  }

size_t f32_vbinary_num_variants();
const F32VBinaryConfig& f32_vbinary_variant(size_t index);
bool f32_vbinary_variant_supported(const F32VBinaryConfig& config);
const F32VBinaryConfig& f32_vbinary_config();

// --- broadcasting ---

constexpr int kF32BinaryMaxDims = 8;

// y = a op b over an output of `dims` dims walked in its memory order (y
// contiguous), a and b read through strides in elements (0 along a dim an
// operand repeats, any other value to read a permuted or strided operand).
// Dims that a, b and y step through alike are merged and size-1 dims
// dropped, so that the innermost dim is as long as it can be.
struct F32BinaryPlan {
  int dims = 0;
  size_t sizes[kF32BinaryMaxDims] = {};
  ptrdiff_t a_strides[kF32BinaryMaxDims] = {};
  ptrdiff_t b_strides[kF32BinaryMaxDims] = {};
  size_t numel = 0;
};

// Fills `plan` for an output of `dims` <= kF32BinaryMaxDims dims; false when
// dims is out of range.
bool f32_binary_plan(int dims, const size_t* sizes, const ptrdiff_t* a_strides,
                     const ptrdiff_t* b_strides, F32BinaryPlan* plan);

// Output elements [begin, end) (in y's memory order) of the planned op, with
// `config`'s microkernels: rows where both operands advance run vv, rows
// where one repeats run vs, and runs of whole rows against one repeating
// vector run `rows`. Ranges may split rows anywhere, so threads can take
// equal shares. Allocates nothing.
void f32_vbinary_run(const F32VBinaryConfig& config, F32BinaryOp op, const F32BinaryPlan& plan,
                     const float* a, const float* b, float* y, size_t begin, size_t end,
                     const F32VBinaryParams& params);

}  // namespace ember::kernels::optimized
