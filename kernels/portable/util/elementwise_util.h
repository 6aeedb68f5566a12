// Elementwise kernels: PyTorch's type promotion (result_type), broadcasting and
// the loop that maps a function over broadcast operands into `out` (the element
// rules are in dtype_rules.h); the op files only say what one element is.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

#include "kernels/portable/util/dtype_rules.h"
#include "kernels/portable/util/elementwise_loop.h"
#include "kernels/portable/util/kernel_util.h"
#include "runtime/core/half.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {

// ---------------------------------------------------------------------------
// Type promotion

// PyTorch's result_type over the operands of one op: tensors with dims decide
// the type; 0-d tensors and then Python scalars only raise its category
// (bool < integer < float). A float scalar counts as Float, an int as Long.
class ResultType {
 public:
  void add(const Tensor& t) { (t.dim() == 0 ? zero_dim_ : dim_).add(t.scalar_type()); }
  void add(const Scalar& s) {
    wrapped_.add(s.is_complex()    ? ScalarType::ComplexFloat
                 : s.is_floating() ? ScalarType::Float
                                   : (s.is_bool() ? ScalarType::Bool : ScalarType::Long));
  }
  // False when some operand's dtype does not promote (e.g. quantized types).
  bool get(ScalarType* out) const {
    const State r = combine(dim_, combine(zero_dim_, wrapped_));
    *out = r.type;
    return r.set && r.ok;
  }

 private:
  struct State {
    bool set = false;
    bool ok = true;
    ScalarType type = ScalarType::Bool;
    void add(ScalarType t) {
      if (!set) {
        set = true;
        type = t;
        ok = ok && promote_types(t, t, &type);
      } else {
        ok = ok && promote_types(type, t, &type);
      }
    }
  };
  // c10's combine_categories: `higher` wins unless `lower` is of a higher
  // category (or `higher` is Bool). A complex `lower` makes a float `higher`
  // complex (float32 with a complex128 0-d tensor is complex64).
  static State combine(const State& higher, const State& lower) {
    if (!higher.set) return lower;
    if (!lower.set || !higher.ok || !lower.ok) {
      State r = higher;
      r.ok = higher.ok && lower.ok;
      return r;
    }
    if (is_complex_type(higher.type)) return higher;
    if (is_complex_type(lower.type)) {
      State r = lower;
      if (is_floating_type(higher.type)) r.type = to_complex_type(higher.type == ScalarType::BFloat16 ? ScalarType::Float : higher.type);
      return r;
    }
    if (is_floating_type(higher.type)) return higher;
    if (higher.type == ScalarType::Bool || is_floating_type(lower.type)) {
      State r = higher;
      r.add(lower.type);
      return r;
    }
    return higher;
  }

  State dim_, zero_dim_, wrapped_;
};

// ---------------------------------------------------------------------------
// Broadcasting

struct Shape {
  int64_t sizes[kTensorDimensionLimit];
  int dim = 0;
  Span<const int64_t> span() const { return {sizes, static_cast<size_t>(dim)}; }
};

// The broadcast shape of the non-null tensors; false when they do not broadcast.
inline bool broadcast_shape(std::initializer_list<const Tensor*> tensors, Shape* out) {
  out->dim = 0;
  for (const Tensor* t : tensors) {
    if (t != nullptr && t->dim() > out->dim) out->dim = t->dim();
  }
  for (int d = 0; d < out->dim; ++d) out->sizes[d] = 1;
  for (const Tensor* t : tensors) {
    if (t == nullptr) continue;
    const int lead = out->dim - t->dim();
    for (int d = 0; d < t->dim(); ++d) {
      const int64_t size = t->size(d);
      int64_t& merged = out->sizes[lead + d];
      if (size == merged || size == 1) continue;
      if (merged != 1) return false;
      merged = size;
    }
  }
  return true;
}

// Whether `in` broadcasts to exactly `out`'s shape.
inline bool broadcasts_to(const Tensor& in, const Tensor& out) {
  if (in.dim() > out.dim()) return false;
  const int lead = out.dim() - in.dim();
  for (int d = 0; d < in.dim(); ++d) {
    if (in.size(d) != 1 && in.size(d) != out.size(lead + d)) return false;
  }
  return true;
}

// Resizes `out` to the broadcast shape of the non-null inputs; fails the
// kernel when they do not broadcast or `out` cannot take that shape.
inline bool resize_to_broadcast(KernelContext& ctx, const char* op, Tensor& out,
                                std::initializer_list<const Tensor*> inputs) {
  Shape shape;
  if (!broadcast_shape(inputs, &shape)) {
    ctx.fail(Error::InvalidArgument, "%s: input shapes do not broadcast", op);
    return false;
  }
  return resize_output(ctx, out, shape.span(), op);
}

// Calls fn(out_index, in_index) for every element of `out`, where the indices
// are element offsets into each tensor's data (inputs broadcast to `out`'s
// shape). Works through strides, so any dim order is accepted. Callers have
// checked that every input broadcasts to `out`.
template <size_t N, typename Fn>
void for_each_broadcast_element(const Tensor& out, const std::array<const Tensor*, N>& inputs,
                                Fn&& fn) {
  const int64_t numel = out.numel();
  if (numel == 0) return;
  int64_t idx[N > 0 ? N : 1] = {};

  // Common case: every input has out's layout or is a single element, so one
  // linear index serves all.
  bool linear = true;
  int64_t step[N > 0 ? N : 1] = {};
  for (size_t k = 0; k < N; ++k) {
    const Tensor& in = *inputs[k];
    bool same = in.dim() == out.dim();
    for (int d = 0; same && d < out.dim(); ++d) {
      same = in.size(d) == out.size(d) && (out.size(d) == 1 || in.stride(d) == out.stride(d));
    }
    step[k] = same ? 1 : 0;
    linear = linear && (same || in.numel() == 1);
  }
  if (linear) {
    for (int64_t i = 0; i < numel; ++i) {
      for (size_t k = 0; k < N; ++k) idx[k] = i * step[k];
      fn(i, static_cast<const int64_t*>(idx));
    }
    return;
  }

  // General case: an odometer over out's dims, innermost dim in the inner loop.
  // A broadcast dim has stride 0 in the input.
  const int rank = out.dim();
  int64_t in_strides[N > 0 ? N : 1][kTensorDimensionLimit] = {};
  for (size_t k = 0; k < N; ++k) {
    const Tensor& in = *inputs[k];
    const int lead = rank - in.dim();
    for (int d = lead; d < rank; ++d) {
      in_strides[k][d] = in.size(d - lead) == 1 ? 0 : in.stride(d - lead);
    }
  }
  int64_t counter[kTensorDimensionLimit] = {};
  int64_t base[N > 0 ? N : 1] = {};
  int64_t out_base = 0;
  const int64_t inner = out.size(rank - 1);
  const int64_t out_inner_stride = out.stride(rank - 1);
  for (int64_t done = 0; done < numel; done += inner) {
    for (int64_t j = 0; j < inner; ++j) {
      for (size_t k = 0; k < N; ++k) idx[k] = base[k] + j * in_strides[k][rank - 1];
      fn(out_base + j * out_inner_stride, static_cast<const int64_t*>(idx));
    }
    for (int d = rank - 2; d >= 0; --d) {
      if (++counter[d] < out.size(d)) {
        out_base += out.stride(d);
        for (size_t k = 0; k < N; ++k) base[k] += in_strides[k][d];
        break;
      }
      counter[d] = 0;
      out_base -= (out.size(d) - 1) * out.stride(d);
      for (size_t k = 0; k < N; ++k) base[k] -= (out.size(d) - 1) * in_strides[k][d];
    }
  }
}

// ---------------------------------------------------------------------------
// Converting loads for kernels that read an operand element by element in
// another dtype (search, fill and linalg kernels); elementwise ops go through
// map_elementwise (elementwise_loop.h), which converts whole blocks.

template <typename C>
using LoadFn = opmath_t<C> (*)(const void* data, int64_t index);

template <typename C, typename T>
opmath_t<C> load_as(const void* data, int64_t index) {
  return static_cast<opmath_t<C>>(convert<C>(static_cast<const T*>(data)[index]));
}

// Loads as an operand of an op computing in C; null for dtypes the portable
// kernels do not compute with.
// Complex operands load only into an op computing in a complex type, or in
// Bool (as "non-zero": the logical ops).
template <typename C>
LoadFn<C> get_load_fn(ScalarType type) {
  if constexpr (is_complex_v<C> || std::is_same_v<C, bool>) {
    EMBER_SWITCH_ALL_AND_COMPLEX_TYPES(type, return nullptr, return &load_as<C, CTYPE>)
  } else {
    EMBER_SWITCH_ALL_TYPES(type, return nullptr, return &load_as<C, CTYPE>)
  }
  return nullptr;
}

// A Scalar operand as a 0-d tensor of the compute type, so that an op on a
// tensor and a number runs the same loop as one on two tensors.
template <typename CTYPE>
class ScalarOperand {
 public:
  explicit ScalarOperand(CTYPE value)
      : value_(value), tensor_(CppTypeToScalarType<CTYPE>::value, 0, nullptr, nullptr, nullptr,
                               &value_, sizeof(CTYPE)) {}
  ScalarOperand(const ScalarOperand&) = delete;
  ScalarOperand& operator=(const ScalarOperand&) = delete;
  const Tensor& tensor() const { return tensor_; }

 private:
  CTYPE value_;
  Tensor tensor_;
};

// ---------------------------------------------------------------------------
// Dtype dispatch

template <typename T>
struct TypeTag {
  using type = T;
};

template <DtypeMask kSet, typename T>
constexpr bool in_dtype_set() {
  return mask_contains(kSet, CppTypeToScalarType<T>::value);
}

// Calls fn(TypeTag<CTYPE>{}) for the C++ type of `type` if it is in kSet;
// otherwise fails the kernel. Returns whether fn ran.
template <DtypeMask kSet, typename Fn>
bool switch_dtype(KernelContext& ctx, const char* op, ScalarType type, Fn&& fn) {
  bool ran = false;
  EMBER_SWITCH_ALL_AND_COMPLEX_TYPES(type, break, if constexpr (in_dtype_set<kSet, CTYPE>()) {
    fn(TypeTag<CTYPE>{});
    ran = true;
  })
  if (!ran) fail_dtype(ctx, op, type);
  return ran;
}

// Fails unless a result of type `result` may be written to `out` (torch.can_cast).
inline bool check_can_cast(KernelContext& ctx, const char* op, ScalarType result,
                           const Tensor& out) {
  if (!can_cast(result, out.scalar_type())) {
    ctx.fail(Error::InvalidArgument, "%s: result type %s can't be cast to the output dtype %s", op,
             scalar_type_name(result), scalar_type_name(out.scalar_type()));
    return false;
  }
  return true;
}

// Whether a str argument equals `s`.
inline bool string_equals(StringView view, const char* s) {
  size_t i = 0;
  for (; s[i] != '\0'; ++i) {
    if (i >= view.size() || view[i] != s[i]) return false;
  }
  return i == view.size();
}

// ---------------------------------------------------------------------------
// Op drivers: validation, promotion, resizing and dispatch shared by the ops

// A binary op's operand: a tensor or a Scalar.
struct Operand {
  Operand(const Tensor& t) : tensor(&t) {}  // NOLINT: implicit by design
  Operand(const Scalar& s) : scalar(&s) {}  // NOLINT
  const Tensor* tensor = nullptr;
  const Scalar* scalar = nullptr;
};

// How an op's compute (and result) dtype follows from its operands' result_type.
enum class Promotion {
  kDefault,     // the promoted type
  kIntToFloat,  // integers and Bool compute in Float (true division, atan2, exp, ...)
};

// The compute dtype of `a op b`; fails the kernel when there is none.
inline bool binary_result_type(KernelContext& ctx, const char* op, const Operand& a,
                               const Operand& b, Promotion promotion, ScalarType* result) {
  ResultType rt;
  for (const Operand* x : {&a, &b}) {
    if (x->tensor != nullptr) {
      rt.add(*x->tensor);
    } else {
      rt.add(*x->scalar);
    }
  }
  if (!rt.get(result)) {
    const ScalarType bad = a.tensor != nullptr ? a.tensor->scalar_type() : b.tensor->scalar_type();
    ctx.fail(Error::NotSupported, "%s: dtypes %s and %s do not promote", op,
             scalar_type_name(bad),
             scalar_type_name(b.tensor != nullptr ? b.tensor->scalar_type() : bad));
    return false;
  }
  if (promotion == Promotion::kIntToFloat && !is_floating_type(*result) &&
      !is_complex_type(*result)) {
    *result = ScalarType::Float;
  }
  return true;
}

// The compute dtype of a unary op on `in`.
inline ScalarType unary_result_type(const Tensor& in, Promotion promotion) {
  if (promotion == Promotion::kIntToFloat && !is_floating_type(in.scalar_type()) &&
      !is_complex_type(in.scalar_type())) {
    return ScalarType::Float;
  }
  return in.scalar_type();
}

// How a binary op reads a Scalar second operand (and a one-element tensor
// second operand); rules 1 and 2 in dtype_rules.h. The readings differ only
// when the op computes in Half or BFloat16.
enum class ScalarRead {
  kCast,    // cast to the compute dtype, like every operand (add, sub, ==, ...)
  kOpmath,  // the original value in opmath (mul, div, floor_divide)
};

namespace detail {

// Runs fn over a and b, where at most one is a Scalar (read as a 0-d operand
// of the compute type).
template <typename OUT_CTYPE, typename CTYPE, typename Fn>
bool map_binary(KernelContext& ctx, const char* op, Fn fn, const Operand& a, const Operand& b,
                Tensor& out, ScalarRead read) {
  using M = opmath_t<CTYPE>;
  if constexpr (is_reduced_float_v<CTYPE>) {
    // Only Half and BFloat16 read a second operand in opmath differently from
    // their own dtype: the number stays a float in the element function.
    if (read == ScalarRead::kOpmath && b.scalar != nullptr) {
      const M s = scalar_to_opmath<CTYPE>(*b.scalar);
      return map_elementwise<OUT_CTYPE, CTYPE>(
          ctx, op, [&fn, s](M x) { return fn(x, s); }, out, *a.tensor);
    }
    // TensorIterator::is_scalar(2): a one-element second operand (a 0-d
    // float tensor next to a half one) is read like a Scalar.
    if (read == ScalarRead::kOpmath && a.tensor != nullptr && b.tensor != nullptr &&
        b.tensor->numel() == 1) {
      const LoadFn<float> load = get_load_fn<float>(b.tensor->scalar_type());
      if (load != nullptr && broadcasts_to(*b.tensor, out)) {
        const M s = load(b.tensor->const_data_ptr(), 0);
        return map_elementwise<OUT_CTYPE, CTYPE>(
            ctx, op, [&fn, s](M x) { return fn(x, s); }, out, *a.tensor);
      }
    }
  }
  if (a.tensor != nullptr && b.tensor != nullptr) {
    return map_elementwise<OUT_CTYPE, CTYPE, CTYPE>(ctx, op, fn, out, *a.tensor, *b.tensor);
  }
  // PyTorch reads only a second operand in opmath; a first one is always cast
  // (the two readings differ only for Half and BFloat16, handled above).
  if (a.tensor != nullptr) {
    const ScalarOperand<CTYPE> s(convert<CTYPE>(read == ScalarRead::kOpmath
                                                    ? scalar_to_opmath<CTYPE>(*b.scalar)
                                                    : scalar_to_operand<CTYPE>(*b.scalar)));
    return map_elementwise<OUT_CTYPE, CTYPE, CTYPE>(ctx, op, fn, out, *a.tensor, s.tensor());
  }
  const ScalarOperand<CTYPE> s(convert<CTYPE>(scalar_to_operand<CTYPE>(*a.scalar)));
  return map_elementwise<OUT_CTYPE, CTYPE, CTYPE>(ctx, op, fn, out, s.tensor(), *b.tensor);
}

inline bool resize_binary(KernelContext& ctx, const char* op, const Operand& a, const Operand& b,
                          Tensor& out) {
  return resize_to_broadcast(ctx, op, out, {a.tensor, b.tensor});
}

}  // namespace detail

// out = a op b, computed in the promoted dtype and written as out's dtype.
// `make_fn(TypeTag<CTYPE>{})` returns the element function over opmath_t<CTYPE>;
// it is called once per kernel call, so it can convert Scalar arguments.
// Returns whether the op ran (false after a failure).
template <DtypeMask kSet, typename MakeFn>
bool binary_op(KernelContext& ctx, const char* op, const Operand& a, const Operand& b, Tensor& out,
               Promotion promotion, MakeFn&& make_fn, ScalarRead read = ScalarRead::kCast) {
  ScalarType common;
  if (!binary_result_type(ctx, op, a, b, promotion, &common) ||
      !check_can_cast(ctx, op, common, out) || !detail::resize_binary(ctx, op, a, b, out)) {
    return false;
  }
  bool ok = false;
  switch_dtype<kSet>(ctx, op, common, [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    ok = detail::map_binary<CTYPE, CTYPE>(ctx, op, make_fn(tag), a, b, out, read);
  });
  return ok;
}

// out = a cmp b: compared in the promoted dtype, the bool result written as
// out's dtype (usually Bool).
template <DtypeMask kSet, typename MakeFn>
bool compare_op(KernelContext& ctx, const char* op, const Operand& a, const Operand& b,
                Tensor& out, MakeFn&& make_fn) {
  ScalarType common;
  if (!binary_result_type(ctx, op, a, b, Promotion::kDefault, &common) ||
      !detail::resize_binary(ctx, op, a, b, out)) {
    return false;
  }
  bool ok = false;
  switch_dtype<kSet>(ctx, op, common, [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    ok = detail::map_binary<bool, CTYPE>(ctx, op, make_fn(tag), a, b, out, ScalarRead::kCast);
  });
  return ok;
}

// Fails unless `out` has exactly dtype `expected` (torch's rule for ops that
// keep their input's dtype, e.g. neg, relu, clamp, where).
inline bool check_out_dtype(KernelContext& ctx, const char* op, ScalarType expected,
                            const Tensor& out) {
  if (out.scalar_type() != expected) {
    ctx.fail(Error::InvalidArgument, "%s: expected an output of dtype %s, got %s", op,
             scalar_type_name(expected), scalar_type_name(out.scalar_type()));
    return false;
  }
  return true;
}

// out = fn(in), computed in unary_result_type(in, promotion). As in torch, an
// op that keeps its dtype (kDefault) needs out of the same dtype; a float op
// may write any dtype the result casts to.
template <DtypeMask kSet, typename MakeFn>
bool unary_op(KernelContext& ctx, const char* op, const Tensor& in, Tensor& out,
              Promotion promotion, MakeFn&& make_fn) {
  const ScalarType compute = unary_result_type(in, promotion);
  const bool dtype_ok = promotion == Promotion::kDefault
                            ? check_out_dtype(ctx, op, compute, out)
                            : check_can_cast(ctx, op, compute, out);
  if (!dtype_ok || !resize_output(ctx, out, in.sizes(), op)) {
    return false;
  }
  bool ok = false;
  switch_dtype<kSet>(ctx, op, compute, [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    ok = map_elementwise<CTYPE, CTYPE>(ctx, op, make_fn(tag), out, in);
  });
  return ok;
}

// out = pred(in) for a predicate computed in in's dtype (isnan, logical_not, ...);
// the bool result is written as out's dtype (callers that need Bool check it).
template <DtypeMask kSet, typename MakeFn>
bool unary_predicate_op(KernelContext& ctx, const char* op, const Tensor& in, Tensor& out,
                        MakeFn&& make_fn) {
  if (!resize_output(ctx, out, in.sizes(), op)) return false;
  bool ok = false;
  switch_dtype<kSet>(ctx, op, in.scalar_type(), [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    ok = map_elementwise<bool, CTYPE>(ctx, op, make_fn(tag), out, in);
  });
  return ok;
}

}  // namespace ember::kernels
