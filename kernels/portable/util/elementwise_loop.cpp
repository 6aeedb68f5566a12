#include "kernels/portable/util/elementwise_loop.h"

#include <cstring>

#include "kernels/portable/util/kernel_util.h"

namespace ember::kernels {
namespace {

template <typename To, typename From>
void convert_run(const void* src, int64_t src_stride, void* dst, int64_t dst_stride, int64_t n) {
  const From* s = static_cast<const From*>(src);
  To* d = static_cast<To*>(dst);
  if (src_stride == 1 && dst_stride == 1) {
    for (int64_t i = 0; i < n; ++i) d[i] = convert<To>(s[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i) d[i * dst_stride] = convert<To>(s[i * src_stride]);
}

template <typename To>
bool convert_to(ScalarType from, const void* src, int64_t src_stride, void* dst,
                int64_t dst_stride, int64_t n) {
  EMBER_SWITCH_ALL_AND_COMPLEX_TYPES(from, return false,
                                     convert_run<To, CTYPE>(src, src_stride, dst, dst_stride, n);
                                     return true)
  return false;
}

bool is_element_type(ScalarType t) { return mask_contains(kAllAndComplexTypes, t); }

// TensorIterator reads a complex operand only into a complex computation, or
// as "non-zero" into a Bool one (the logical ops).
bool can_load(ScalarType from, ScalarType compute) {
  if (!is_element_type(from)) return false;
  return !is_complex_type(from) || is_complex_type(compute) || compute == ScalarType::Bool;
}

bool broadcasts_to_out(const Tensor& in, const Tensor& out) {
  if (in.dim() > out.dim()) return false;
  const int lead = out.dim() - in.dim();
  for (int d = 0; d < in.dim(); ++d) {
    if (in.size(d) != 1 && in.size(d) != out.size(lead + d)) return false;
  }
  return true;
}

constexpr size_t kMaxOperands = kMaxElementwiseInputs + 1;  // out is operand 0
// Bytes of each operand's staging block: at most 2.5 KB of stack for a call,
// which a microcontroller's stack can take, and 128 floats per block.
constexpr size_t kBlockBytes = 512;

// The call's iteration space after reordering and merging dims: `sizes` from
// outermost to innermost, and each operand's element stride per dim (0 where
// it broadcasts).
struct Layout {
  int rank = 0;
  int64_t sizes[kTensorDimensionLimit];
  int64_t strides[kMaxOperands][kTensorDimensionLimit];
};

// Dims in out's memory order (largest stride outermost), size-1 dims dropped,
// then adjacent dims merged wherever every operand steps through them as one:
// a dense call becomes a single run, whatever its dim order.
void build_layout(const Tensor& out, const Tensor* const* inputs, size_t num_operands,
                  Layout* layout) {
  int order[kTensorDimensionLimit];
  int rank = 0;
  for (int d = 0; d < out.dim(); ++d) {
    if (out.size(d) != 1) order[rank++] = d;
  }
  for (int i = 1; i < rank; ++i) {  // insertion sort: stable, rank <= 16
    const int d = order[i];
    int j = i;
    for (; j > 0 && out.stride(order[j - 1]) < out.stride(d); --j) order[j] = order[j - 1];
    order[j] = d;
  }
  layout->rank = 0;
  for (int i = 0; i < rank; ++i) {
    const int d = order[i];
    int64_t strides[kMaxOperands];
    strides[0] = out.stride(d);
    for (size_t k = 1; k < num_operands; ++k) {
      const Tensor& in = *inputs[k - 1];
      const int id = d - (out.dim() - in.dim());
      strides[k] = (id < 0 || in.size(id) == 1) ? 0 : in.stride(id);
    }
    const int last = layout->rank - 1;
    bool merge = last >= 0;
    for (size_t k = 0; merge && k < num_operands; ++k) {
      merge = layout->strides[k][last] == strides[k] * out.size(d);
    }
    if (merge) {
      layout->sizes[last] *= out.size(d);
      for (size_t k = 0; k < num_operands; ++k) layout->strides[k][last] = strides[k];
    } else {
      layout->sizes[layout->rank] = out.size(d);
      for (size_t k = 0; k < num_operands; ++k) layout->strides[k][layout->rank] = strides[k];
      ++layout->rank;
    }
  }
  if (layout->rank == 0) {  // a single element
    layout->rank = 1;
    layout->sizes[0] = 1;
    for (size_t k = 0; k < num_operands; ++k) layout->strides[k][0] = 0;
  }
}

// How the body reaches an operand: the tensor's own memory, a block filled
// once for the whole call (a value broadcast everywhere), or a block filled
// (converted, gathered, or scattered for out) for each run.
enum class Access : uint8_t { kDirect, kConstant, kStaged };

}  // namespace

bool convert_elements(ScalarType from, const void* src, int64_t src_stride, ScalarType to,
                      void* dst, int64_t dst_stride, int64_t n) {
  EMBER_SWITCH_ALL_AND_COMPLEX_TYPES(
      to, return false, return convert_to<CTYPE>(from, src, src_stride, dst, dst_stride, n))
  return false;
}

bool run_elementwise(KernelContext& ctx, const char* op, const ElementwiseCall& call) {
  Tensor& out = *call.out;
  const size_t num_operands = call.num_inputs + 1;
  for (size_t k = 0; k < call.num_inputs; ++k) {
    if (!broadcasts_to_out(*call.inputs[k], out)) {
      ctx.fail(Error::InvalidArgument, "%s: an input does not broadcast to the output shape", op);
      return false;
    }
  }
  for (size_t k = 0; k < call.num_inputs; ++k) {
    const ScalarType t = call.inputs[k]->scalar_type();
    if (!can_load(t, call.in_compute[k])) {
      fail_dtype(ctx, op, is_element_type(t) ? out.scalar_type() : t);
      return false;
    }
  }
  if (!is_element_type(out.scalar_type())) {
    fail_dtype(ctx, op, out.scalar_type());
    return false;
  }
  if (out.numel() == 0) return true;

  Layout layout;
  build_layout(out, call.inputs, num_operands, &layout);
  const int inner = layout.rank - 1;
  const int64_t row = layout.sizes[inner];

  ScalarType dtype[kMaxOperands], compute[kMaxOperands];
  size_t esize[kMaxOperands];
  char* base[kMaxOperands];
  dtype[0] = out.scalar_type();
  compute[0] = call.out_compute;
  base[0] = static_cast<char*>(out.mutable_data_ptr());
  for (size_t k = 1; k < num_operands; ++k) {
    dtype[k] = call.inputs[k - 1]->scalar_type();
    compute[k] = call.in_compute[k - 1];
    base[k] = const_cast<char*>(static_cast<const char*>(call.inputs[k - 1]->const_data_ptr()));
  }
  size_t widest = 1;
  Access access[kMaxOperands];
  bool all_direct = true;
  for (size_t k = 0; k < num_operands; ++k) {
    esize[k] = element_size(dtype[k]);
    const size_t compute_size = element_size(compute[k]);
    widest = compute_size > widest ? compute_size : widest;
    bool constant = true;
    for (int d = 0; d < layout.rank; ++d) constant = constant && layout.strides[k][d] == 0;
    if (dtype[k] == compute[k] && layout.strides[k][inner] == 1) {
      access[k] = Access::kDirect;
    } else {
      access[k] = (k > 0 && constant) ? Access::kConstant : Access::kStaged;
      all_direct = false;
    }
  }
  // Direct runs go whole; staged ones a block at a time.
  const int64_t block = all_direct ? row : static_cast<int64_t>(kBlockBytes / widest);
  alignas(16) unsigned char staging[kMaxOperands][kBlockBytes];
  for (size_t k = 1; k < num_operands; ++k) {
    if (access[k] == Access::kConstant) {
      convert_elements(dtype[k], base[k], 0, compute[k], staging[k], 1, row < block ? row : block);
    }
  }

  int64_t counter[kTensorDimensionLimit] = {};
  int64_t offset[kMaxOperands] = {};
  const void* in_ptrs[kMaxElementwiseInputs];
  for (;;) {
    for (int64_t j = 0; j < row; j += block) {
      const int64_t n = row - j < block ? row - j : block;
      for (size_t k = 1; k < num_operands; ++k) {
        const int64_t s = layout.strides[k][inner];
        char* at = base[k] + static_cast<int64_t>(esize[k]) * (offset[k] + j * s);
        if (access[k] == Access::kDirect) {
          in_ptrs[k - 1] = at;
        } else {
          if (access[k] == Access::kStaged) {
            convert_elements(dtype[k], at, s, compute[k], staging[k], 1, n);
          }
          in_ptrs[k - 1] = staging[k];
        }
      }
      const int64_t out_stride = layout.strides[0][inner];
      char* out_at = base[0] + static_cast<int64_t>(esize[0]) * (offset[0] + j * out_stride);
      if (access[0] == Access::kDirect) {
        call.body(call.fn, out_at, in_ptrs, n);
      } else {
        call.body(call.fn, staging[0], in_ptrs, n);
        convert_elements(compute[0], staging[0], 1, dtype[0], out_at, out_stride, n);
      }
    }
    // Odometer over the outer dims.
    int d = inner - 1;
    for (; d >= 0; --d) {
      for (size_t k = 0; k < num_operands; ++k) offset[k] += layout.strides[k][d];
      if (++counter[d] < layout.sizes[d]) break;
      for (size_t k = 0; k < num_operands; ++k) offset[k] -= layout.strides[k][d] * layout.sizes[d];
      counter[d] = 0;
    }
    if (d < 0) return true;
  }
}

}  // namespace ember::kernels
