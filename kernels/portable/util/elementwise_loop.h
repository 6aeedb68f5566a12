// The elementwise loop engine. An op's element function is compiled into one
// tight loop per dtype combination, over contiguous runs only; everything
// else (broadcasting, strides, dim orders, dtypes other than the compute
// dtype) is handled once, for every op, by the type-erased driver in
// elementwise_loop.cpp, which hands the loop either the tensors' own memory or
// small blocks it has gathered and converted. This is what keeps the portable
// library small: a per-op-per-dtype copy of the broadcasting and conversion
// code used to make up most of its 12 MB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

#include "kernels/portable/util/dtype_rules.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_context.h"

namespace ember::kernels {

// The most tensor inputs one elementwise call may have.
constexpr size_t kMaxElementwiseInputs = 4;

// out[i] = fn(in0[i], in1[i], ...) for i in [0, n): every pointer is to n
// contiguous elements of its compute type; `fn` points at the element function.
using ElementwiseBody = void (*)(const void* fn, void* out, const void* const* in, int64_t n);

// One elementwise call, type-erased. `in_compute[k]` is the C++ type input k
// is read as (inputs of other dtypes are converted to it first) and
// `out_compute` the type the body writes (converted to out's dtype after).
struct ElementwiseCall {
  Tensor* out;
  ScalarType out_compute;
  const Tensor* const* inputs;
  const ScalarType* in_compute;
  size_t num_inputs;
  ElementwiseBody body;
  const void* fn;
};

// Runs the call over every element of `out` (inputs broadcast to its shape,
// any strides and dim order). Fails the kernel and returns false when an input
// does not broadcast to `out` or a dtype has no conversion (complex to real).
bool run_elementwise(KernelContext& ctx, const char* op, const ElementwiseCall& call);

// Converts n elements of dtype `from`, `src_stride` elements apart (0: one
// value repeated), to elements of dtype `to` `dst_stride` apart, by
// convert<To, From> (dtype_rules.h). The one table of dtype pairs the
// portable kernels have. False when either dtype has no element type here.
bool convert_elements(ScalarType from, const void* src, int64_t src_stride, ScalarType to,
                      void* dst, int64_t dst_stride, int64_t n);

namespace detail {

template <typename OUT, typename... IN, typename Fn, size_t... I>
void elementwise_body_impl(const Fn& fn, OUT* out, const void* const* in, int64_t n,
                           std::index_sequence<I...>) {
  const std::tuple<const IN*...> ptrs{static_cast<const IN*>(in[I])...};
  for (int64_t i = 0; i < n; ++i) {
    out[i] = convert<OUT>(fn(static_cast<opmath_t<IN>>(std::get<I>(ptrs)[i])...));
  }
}

template <typename Fn, typename OUT, typename... IN>
void elementwise_body(const void* fn, void* out, const void* const* in, int64_t n) {
  elementwise_body_impl<OUT, IN...>(*static_cast<const Fn*>(fn), static_cast<OUT*>(out), in, n,
                                    std::index_sequence_for<IN...>{});
}

}  // namespace detail

// out[i] = fn(in0[i], in1[i], ...) over broadcast inputs. Input k is read as
// opmath_t<IN_CTYPES[k]> after conversion to IN_CTYPES[k] (TensorIterator
// casts every operand to the op's compute dtype first, so a float 0-d tensor
// added to a half tensor is rounded to half); fn's result is rounded to
// OUT_CTYPE and then converted to out's dtype. Fails the kernel and returns
// false when an input does not broadcast to `out` or a dtype has no conversion.
template <typename OUT_CTYPE, typename... IN_CTYPES, typename Fn, typename... Tensors>
bool map_elementwise(KernelContext& ctx, const char* op, Fn fn, Tensor& out,
                     const Tensors&... inputs) {
  static_assert(sizeof...(IN_CTYPES) == sizeof...(Tensors), "one C++ type per input");
  static_assert(sizeof...(Tensors) <= kMaxElementwiseInputs, "too many inputs");
  const Tensor* const ins[sizeof...(Tensors) > 0 ? sizeof...(Tensors) : 1] = {&inputs...};
  const ScalarType compute[sizeof...(Tensors) > 0 ? sizeof...(Tensors) : 1] = {
      CppTypeToScalarType<IN_CTYPES>::value...};
  const ElementwiseCall call{&out,
                             CppTypeToScalarType<OUT_CTYPE>::value,
                             ins,
                             compute,
                             sizeof...(Tensors),
                             &detail::elementwise_body<Fn, OUT_CTYPE, IN_CTYPES...>,
                             &fn};
  return run_elementwise(ctx, op, call);
}

}  // namespace ember::kernels
