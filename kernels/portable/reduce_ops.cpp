// Reductions: sum, mean, prod, amax/amin, any/all, argmax/argmin, max/min
// along a dim, var and var_mean, and logsumexp. All follow PyTorch's
// rules for dim lists (None or [] = all dims), keepdim, dtype= and empty inputs.
#include <cmath>
#include <optional>

#include "kernels/portable/util/dtype_rules.h"
#include "kernels/portable/util/elementwise_loop.h"
#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

using nn::DimMask;
using nn::ReducePlan;

// Calls f(x) for every input element, read as T, that the result at `base`
// folds. An input of another dtype is converted to T (convert<T>) a block at
// a time, so a reduction is compiled once per T rather than once per pair of
// input and output dtypes.
template <typename T, typename F>
void for_each_as(const ReducePlan& plan, const Tensor& in, int64_t base, F&& f) {
  const ScalarType in_type = in.scalar_type();
  const char* src = static_cast<const char*>(in.const_data_ptr());
  if (in_type == dtype_of_v<T>) {
    plan.for_each_run(base, [&](int64_t off, int64_t stride, int64_t n) {
      const T* p = reinterpret_cast<const T*>(src) + off;
      for (int64_t i = 0; i < n; ++i) f(p[i * stride]);
    });
    return;
  }
  const int64_t esize = static_cast<int64_t>(in.element_size());
  constexpr int64_t kBlock = 512 / sizeof(T);
  alignas(16) T block[kBlock];
  plan.for_each_run(base, [&](int64_t off, int64_t stride, int64_t n) {
    for (int64_t j = 0; j < n; j += kBlock) {
      const int64_t m = n - j < kBlock ? n - j : kBlock;
      convert_elements(in_type, src + (off + j * stride) * esize, stride, dtype_of_v<T>, block, 1,
                       m);
      for (int64_t i = 0; i < m; ++i) f(block[i]);
    }
  });
}

// Folds each group of input elements, read as T, into one result:
// out[o] = finish(step(...step(init, x0)..., xn)).
template <typename T, typename OUT, typename Acc, typename Step, typename Finish>
void fold(const ReducePlan& plan, const Tensor& in, Tensor& out, Acc init, Step step,
          Finish finish) {
  OUT* dst = out.mutable_data_ptr<OUT>();
  for (int64_t o = 0; o < plan.outer_numel(); ++o) {
    Acc acc = init;
    for_each_as<T>(plan, in, plan.base_offset(o), [&](T v) { acc = step(acc, v); });
    dst[o] = finish(acc);
  }
}

// Checks dims and out, and resizes out; fills `mask`.
bool setup(KernelContext& ctx, const char* op, const Tensor& in, std::optional<IntArrayRef> dims,
           bool empty_means_all, bool keepdim, Tensor& out, DimMask* mask) {
  return nn::make_dim_mask(ctx, op, in.dim(), dims, empty_means_all, mask) &&
         nn::prepare_reduction_output(ctx, op, in, *mask, keepdim, out);
}

// ---------------------------------------------------------------------------
// sum, mean, prod: the input is first converted to the result dtype, as
// PyTorch does for dtype= (sum of float [2.7, NaN] with dtype=int32 adds 2 and
// INT32_MIN), and folded in that type's accumulator.

enum class Fold { Sum, Mean, Prod };

template <Fold kind, typename OUT>
void arith_fold(const ReducePlan& plan, const Tensor& in, Tensor& out) {
  using Acc = acc_t<OUT>;
  const Acc count = static_cast<Acc>(plan.inner_numel());
  fold<OUT, OUT>(
      plan, in, out, Acc(kind == Fold::Prod ? 1 : 0),
      [](Acc a, OUT v) {
        const Acc x = static_cast<Acc>(v);
        return kind == Fold::Prod ? wrapping_mul(a, x) : wrapping_add(a, x);
      },
      [count](Acc a) {
        if constexpr (kind == Fold::Mean) {
          return convert<OUT>(a / count);  // an empty mean is 0/0 = NaN
        } else {
          return convert<OUT>(a);
        }
      });
}

template <Fold kind>
void arith_reduce(KernelContext& ctx, const char* op, const Tensor& in,
                  std::optional<IntArrayRef> dims, bool keepdim, std::optional<int64_t> dtype,
                  Tensor& out) {
  DimMask mask = 0;
  if (!nn::check_dtype_arg(ctx, op, dtype, out) ||
      !setup(ctx, op, in, dims, /*empty_means_all=*/true, keepdim, out, &mask)) {
    return;
  }
  const ReducePlan plan(in, mask);
  const ScalarType out_type = out.scalar_type();
  if (is_complex_type(in.scalar_type()) || is_complex_type(out_type)) {
    // Complex in, complex out (torch refuses a complex input with a real dtype=).
    EMBER_KERNEL_CHECK(ctx, is_complex_type(in.scalar_type()) && is_complex_type(out_type),
                       "%s: a complex reduction needs complex input and output, not %s and %s", op,
                       scalar_type_name(in.scalar_type()), scalar_type_name(out_type));
    EMBER_SWITCH_COMPLEX_TYPES(out_type, return fail_dtype(ctx, op, out_type),
                               arith_fold<kind, CTYPE>(plan, in, out));
    return;
  }
  if constexpr (kind == Fold::Mean) {
    // Without dtype=, PyTorch cannot infer a mean's type from an integer input.
    EMBER_KERNEL_CHECK(ctx, dtype.has_value() || is_floating_type(in.scalar_type()),
                       "%s: input dtype %s is not floating point; pass dtype=", op,
                       scalar_type_name(in.scalar_type()));
    EMBER_KERNEL_CHECK(ctx, mask_contains(kAllTypes, in.scalar_type()),
                       "%s: dtype %s is not supported", op, scalar_type_name(in.scalar_type()));
    EMBER_SWITCH_FLOAT_TYPES(out_type, return fail_dtype(ctx, op, out_type),
                             arith_fold<kind, CTYPE>(plan, in, out));
  } else {
    EMBER_KERNEL_CHECK(ctx, mask_contains(kAllTypes, in.scalar_type()),
                       "%s: dtype %s is not supported", op, scalar_type_name(in.scalar_type()));
    EMBER_SWITCH_ALL_TYPES(out_type, return fail_dtype(ctx, op, out_type),
                           arith_fold<kind, CTYPE>(plan, in, out));
  }
}

void sum_dim_out(KernelContext& ctx, const Tensor& self, std::optional<IntArrayRef> dim,
                 bool keepdim, std::optional<int64_t> dtype, Tensor& out) {
  arith_reduce<Fold::Sum>(ctx, "sum.IntList_out", self, dim, keepdim, dtype, out);
}

void sum_out(KernelContext& ctx, const Tensor& self, std::optional<int64_t> dtype, Tensor& out) {
  arith_reduce<Fold::Sum>(ctx, "sum.out", self, std::nullopt, false, dtype, out);
}

void mean_dim_out(KernelContext& ctx, const Tensor& self, std::optional<IntArrayRef> dim,
                  bool keepdim, std::optional<int64_t> dtype, Tensor& out) {
  arith_reduce<Fold::Mean>(ctx, "mean.out", self, dim, keepdim, dtype, out);
}

void mean_dtype_out(KernelContext& ctx, const Tensor& self, std::optional<int64_t> dtype,
                    Tensor& out) {
  arith_reduce<Fold::Mean>(ctx, "mean.dtype_out", self, std::nullopt, false, dtype, out);
}

void prod_int_out(KernelContext& ctx, const Tensor& self, int64_t dim, bool keepdim,
                  std::optional<int64_t> dtype, Tensor& out) {
  const int64_t dims[] = {dim};
  arith_reduce<Fold::Prod>(ctx, "prod.int_out", self, IntArrayRef(dims, 1), keepdim, dtype, out);
}

void prod_out(KernelContext& ctx, const Tensor& self, std::optional<int64_t> dtype, Tensor& out) {
  arith_reduce<Fold::Prod>(ctx, "prod.out", self, std::nullopt, false, dtype, out);
}

// ---------------------------------------------------------------------------
// amax, amin: NaN wins, as in PyTorch.

template <typename T, bool kMax>
void extreme_fold(const ReducePlan& plan, const Tensor& in, Tensor& out) {
  using Acc = acc_t<T>;
  fold<T, T>(
      plan, in, out, static_cast<Acc>(kMax ? nn::lowest_value<T>() : nn::highest_value<T>()),
      [](Acc a, T v) {
        const Acc x = static_cast<Acc>(v);
        if (is_nan(a) || is_nan(x)) return is_nan(a) ? a : x;
        return (kMax ? x > a : x < a) ? x : a;
      },
      [](Acc a) { return static_cast<T>(a); });
}

template <bool kMax>
void extreme_reduce(KernelContext& ctx, const char* op, const Tensor& in, IntArrayRef dim,
                    bool keepdim, Tensor& out) {
  DimMask mask = 0;
  if (!nn::check_same_dtype(ctx, op, in, "self", out, "out") ||
      !setup(ctx, op, in, dim, /*empty_means_all=*/true, keepdim, out, &mask) ||
      !nn::check_nonempty_reduction(ctx, op, in, mask)) {
    return;
  }
  const ReducePlan plan(in, mask);
  EMBER_SWITCH_ALL_TYPES(in.scalar_type(), return fail_dtype(ctx, op, in.scalar_type()),
                         extreme_fold<CTYPE, kMax>(plan, in, out));
}

void amax_out(KernelContext& ctx, const Tensor& self, IntArrayRef dim, bool keepdim,
              Tensor& out) {
  extreme_reduce<true>(ctx, "amax.out", self, dim, keepdim, out);
}

void amin_out(KernelContext& ctx, const Tensor& self, IntArrayRef dim, bool keepdim,
              Tensor& out) {
  extreme_reduce<false>(ctx, "amin.out", self, dim, keepdim, out);
}

// max(x) and min(x) over all elements: amax/amin with every dim reduced.
void max_unary_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  extreme_reduce<true>(ctx, "max.unary_out", self, IntArrayRef(), /*keepdim=*/false, out);
}

void min_unary_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  extreme_reduce<false>(ctx, "min.unary_out", self, IntArrayRef(), /*keepdim=*/false, out);
}

// ---------------------------------------------------------------------------
// any, all: true for non-zero (NaN included). The result is Bool, or Byte
// (PyTorch keeps uint8 for uint8 inputs and accepts a uint8 out for any input).

template <typename OUT, bool kAny>
void logical_fold(const ReducePlan& plan, const Tensor& in, Tensor& out) {
  fold<bool, OUT>(
      plan, in, out, !kAny,
      [](bool a, bool x) {
        return kAny ? (a || x) : (a && x);
      },
      [](bool a) { return static_cast<OUT>(a); });
}

template <bool kAny>
void logical_reduce(KernelContext& ctx, const char* op, const Tensor& in,
                    std::optional<IntArrayRef> dims, bool keepdim, Tensor& out) {
  DimMask mask = 0;
  // An explicit empty list means "no dims" here, unlike sum's.
  if (!setup(ctx, op, in, dims, /*empty_means_all=*/false, keepdim, out, &mask)) return;
  const ReducePlan plan(in, mask);
  const ScalarType out_type = out.scalar_type();
  EMBER_KERNEL_CHECK(ctx, mask_contains(kAllAndComplexTypes, in.scalar_type()),
                     "%s: dtype %s is not supported", op, scalar_type_name(in.scalar_type()));
  switch (out_type) {
    case ScalarType::Bool: logical_fold<bool, kAny>(plan, in, out); break;
    case ScalarType::Byte: logical_fold<uint8_t, kAny>(plan, in, out); break;
    default:
      return ctx.fail(Error::InvalidArgument, "%s: out must be Bool or Byte, not %s", op,
                      scalar_type_name(out_type));
  }
}

void any_dim_out(KernelContext& ctx, const Tensor& self, int64_t dim, bool keepdim, Tensor& out) {
  const int64_t dims[] = {dim};
  logical_reduce<true>(ctx, "any.out", self, IntArrayRef(dims, 1), keepdim, out);
}
void any_dims_out(KernelContext& ctx, const Tensor& self, std::optional<IntArrayRef> dim,
                  bool keepdim, Tensor& out) {
  logical_reduce<true>(ctx, "any.dims_out", self, dim, keepdim, out);
}
void any_all_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  logical_reduce<true>(ctx, "any.all_out", self, std::nullopt, false, out);
}
void all_dim_out(KernelContext& ctx, const Tensor& self, int64_t dim, bool keepdim, Tensor& out) {
  const int64_t dims[] = {dim};
  logical_reduce<false>(ctx, "all.out", self, IntArrayRef(dims, 1), keepdim, out);
}
void all_dims_out(KernelContext& ctx, const Tensor& self, std::optional<IntArrayRef> dim,
                  bool keepdim, Tensor& out) {
  logical_reduce<false>(ctx, "all.dims_out", self, dim, keepdim, out);
}
void all_all_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  logical_reduce<false>(ctx, "all.all_out", self, std::nullopt, false, out);
}

// ---------------------------------------------------------------------------
// argmax/argmin and max.dim/min.dim: the first extreme wins, and the first NaN
// beats any number.

template <typename T, bool kMax>
void arg_extreme(const ReducePlan& plan, const Tensor& in, T* values, int64_t* indices) {
  using Acc = acc_t<T>;
  const T* src = in.const_data_ptr<T>();
  for (int64_t o = 0; o < plan.outer_numel(); ++o) {
    Acc best = 0;
    int64_t best_k = 0;
    int64_t k = 0;
    plan.for_each(plan.base_offset(o), [&](int64_t i) {
      const Acc x = static_cast<Acc>(src[i]);
      const bool better = !is_nan(best) && (is_nan(x) || (kMax ? x > best : x < best));
      if (k == 0 || better) {
        best = x;
        best_k = k;
      }
      ++k;
    });
    if (values != nullptr) values[o] = static_cast<T>(best);
    indices[o] = best_k;
  }
}

template <bool kMax>
void argmax_like(KernelContext& ctx, const char* op, const Tensor& in, std::optional<int64_t> dim,
                 bool keepdim, Tensor& out) {
  EMBER_KERNEL_CHECK(ctx, out.scalar_type() == ScalarType::Long, "%s: out must be Long, not %s",
                     op, scalar_type_name(out.scalar_type()));
  DimMask mask = 0;
  if (dim.has_value()) {
    if (!nn::make_dim_mask(ctx, op, in.dim(), *dim, &mask)) return;
  } else if (!nn::make_dim_mask(ctx, op, in.dim(), std::nullopt, true, &mask)) {
    return;
  }
  if (!nn::check_nonempty_reduction(ctx, op, in, mask) ||
      !nn::prepare_reduction_output(ctx, op, in, mask, keepdim, out)) {
    return;
  }
  // dim=None reduces the flattened input, so indices count in row-major order.
  const ReducePlan plan(in, mask);
  EMBER_SWITCH_REAL_TYPES(in.scalar_type(), return fail_dtype(ctx, op, in.scalar_type()),
    arg_extreme<CTYPE, kMax>(plan, in, nullptr, out.mutable_data_ptr<int64_t>()));
}

void argmax_out(KernelContext& ctx, const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                Tensor& out) {
  argmax_like<true>(ctx, "argmax.out", self, dim, keepdim, out);
}
void argmin_out(KernelContext& ctx, const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                Tensor& out) {
  argmax_like<false>(ctx, "argmin.out", self, dim, keepdim, out);
}

template <bool kMax>
void extreme_dim(KernelContext& ctx, const char* op, const Tensor& in, int64_t dim, bool keepdim,
                 Tensor& values, Tensor& indices) {
  EMBER_KERNEL_CHECK(ctx, indices.scalar_type() == ScalarType::Long,
                     "%s: indices must be Long, not %s", op,
                     scalar_type_name(indices.scalar_type()));
  DimMask mask = 0;
  if (!nn::check_same_dtype(ctx, op, in, "self", values, "values") ||
      !nn::make_dim_mask(ctx, op, in.dim(), dim, &mask) ||
      !nn::check_nonempty_reduction(ctx, op, in, mask) ||
      !nn::prepare_reduction_output(ctx, op, in, mask, keepdim, values) ||
      !nn::prepare_reduction_output(ctx, op, in, mask, keepdim, indices)) {
    return;
  }
  const ReducePlan plan(in, mask);
  EMBER_SWITCH_ALL_TYPES(in.scalar_type(), return fail_dtype(ctx, op, in.scalar_type()),
    arg_extreme<CTYPE, kMax>(plan, in, values.mutable_data_ptr<CTYPE>(),
                             indices.mutable_data_ptr<int64_t>()));
}

void max_dim_out(KernelContext& ctx, const Tensor& self, int64_t dim, bool keepdim, Tensor& max,
                 Tensor& max_indices) {
  extreme_dim<true>(ctx, "max.dim_max", self, dim, keepdim, max, max_indices);
}
void min_dim_out(KernelContext& ctx, const Tensor& self, int64_t dim, bool keepdim, Tensor& min,
                 Tensor& min_indices) {
  extreme_dim<false>(ctx, "min.dim_min", self, dim, keepdim, min, min_indices);
}

// ---------------------------------------------------------------------------
// linalg_vector_norm: (sum |x|^p)^(1/p), with p = inf / -inf / 0 as the max,
// min and count of non-zeros, as torch.linalg.vector_norm defines them.

// |v| in the accumulator's type: a complex input's modulus, a real one's
// absolute value after the conversion to the output dtype.
template <typename Acc, typename OUT, typename IN>
Acc magnitude(IN v) {
  if constexpr (is_complex_v<IN>) {
    return static_cast<Acc>(std::abs(v));
  } else {
    return std::fabs(static_cast<Acc>(convert<OUT>(v)));
  }
}

// A real input is read as OUT (converted first, as torch does for dtype=); a
// complex one as itself.
template <typename IN, typename OUT>
void vector_norm_fold(const ReducePlan& plan, const Tensor& in, Tensor& out, double p) {
  using Acc = acc_t<OUT>;
  const bool is_inf = std::isinf(p);
  fold<IN, OUT>(
      plan, in, out, Acc(is_inf && p > 0 ? 0 : (is_inf ? INFINITY : 0)),
      [p, is_inf](Acc a, IN v) {
        const Acc x = magnitude<Acc, OUT>(v);
        if (is_inf) return p > 0 ? (x > a || std::isnan(x) ? x : a) : (x < a || std::isnan(x) ? x : a);
        if (p == 0) return a + (x != 0 ? Acc(1) : Acc(0));
        if (p == 1) return a + x;
        if (p == 2) return a + x * x;
        return a + static_cast<Acc>(std::pow(x, static_cast<Acc>(p)));
      },
      [p, is_inf](Acc a) {
        if (is_inf || p == 0 || p == 1) return static_cast<OUT>(a);
        if (p == 2) return static_cast<OUT>(std::sqrt(a));
        return static_cast<OUT>(std::pow(a, static_cast<Acc>(1.0 / p)));
      });
}

void linalg_vector_norm_out(KernelContext& ctx, const Tensor& self, Scalar ord,
                            std::optional<IntArrayRef> dim, bool keepdim,
                            std::optional<int64_t> dtype, Tensor& out) {
  const char* op = "linalg_vector_norm.out";
  DimMask mask = 0;
  EMBER_KERNEL_CHECK(ctx, is_floating_type(self.scalar_type()) || is_complex_type(self.scalar_type()),
                     "%s: input dtype %s is not floating point or complex", op,
                     scalar_type_name(self.scalar_type()));
  // A complex dtype= computes in that type; the norm itself is its real type.
  std::optional<int64_t> out_dtype = dtype;
  if (dtype.has_value() && *dtype >= 0 && *dtype <= 127 &&
      is_valid_scalar_type(static_cast<int>(*dtype)) &&
      is_complex_type(static_cast<ScalarType>(*dtype))) {
    out_dtype = static_cast<int64_t>(to_real_type(static_cast<ScalarType>(*dtype)));
  }
  if (!nn::check_dtype_arg(ctx, op, out_dtype, out) ||
      !setup(ctx, op, self, dim, /*empty_means_all=*/true, keepdim, out, &mask)) {
    return;
  }
  const double p = ord.to_double();
  EMBER_KERNEL_CHECK(ctx, !(p < 0 && self.numel() == 0), "%s: negative norm of an empty tensor",
                     op);
  const ReducePlan plan(self, mask);
  if (is_complex_type(self.scalar_type())) {
    // The norm of a complex tensor is real (torch: the input's real dtype).
    EMBER_SWITCH_COMPLEX_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
      using IN = CTYPE;
      EMBER_SWITCH_FLOAT_TYPES(out.scalar_type(), return fail_dtype(ctx, op, out.scalar_type()),
        vector_norm_fold<IN, CTYPE>(plan, self, out, p)));
    return;
  }
  EMBER_SWITCH_FLOAT_TYPES(out.scalar_type(), return fail_dtype(ctx, op, out.scalar_type()),
                           vector_norm_fold<CTYPE, CTYPE>(plan, self, out, p));
}

// ---------------------------------------------------------------------------
// var and var_mean: two passes (mean, then squared deviations) for accuracy.
// The divisor is max(0, N - correction), so too few elements give inf or NaN
// as in PyTorch; an empty group has mean 0/0 = NaN.

// var_mean's mean is the running (Welford) mean that PyTorch computes there:
// it becomes NaN once an infinity is followed by another element, where sum / N
// would stay infinite.
template <typename T>
acc_t<T> running_mean(const ReducePlan& plan, const T* src, int64_t base) {
  using Acc = acc_t<T>;
  Acc mean = 0;
  int64_t k = 0;
  plan.for_each(base, [&](int64_t i) {
    mean += (static_cast<Acc>(src[i]) - mean) / static_cast<Acc>(++k);
  });
  return mean;
}

// A complex input's variance is real: the mean of |x - mean|^2, in the
// input's real dtype (`V`); its mean stays complex.
template <typename T, typename V = T>
void var_fold(const ReducePlan& plan, const Tensor& in, Tensor& var, Tensor* mean_out,
              double correction) {
  using Acc = acc_t<T>;
  using VarAcc = acc_t<V>;
  const T* src = in.const_data_ptr<T>();
  V* var_dst = var.mutable_data_ptr<V>();
  T* mean_dst = mean_out != nullptr ? mean_out->mutable_data_ptr<T>() : nullptr;
  const int64_t n = plan.inner_numel();
  const VarAcc divisor =
      static_cast<VarAcc>(std::fmax(0.0, static_cast<double>(n) - correction));
  for (int64_t o = 0; o < plan.outer_numel(); ++o) {
    const int64_t base = plan.base_offset(o);
    Acc sum = 0;
    plan.for_each(base, [&](int64_t i) { sum += static_cast<Acc>(src[i]); });
    const Acc mean = sum / static_cast<Acc>(n);
    VarAcc ssd = 0;
    plan.for_each(base, [&](int64_t i) {
      const Acc d = static_cast<Acc>(src[i]) - mean;
      if constexpr (is_complex_v<T>) {
        ssd += std::norm(d);
      } else {
        ssd += d * d;
      }
    });
    var_dst[o] = static_cast<V>(ssd / divisor);
    if (mean_dst != nullptr) {
      mean_dst[o] = static_cast<T>(n == 0 ? mean : running_mean(plan, src, base));
    }
  }
}

// The mean goes to `mean_out` too when it is given (var_mean).
void var_impl(KernelContext& ctx, const char* op, const Tensor& self,
              std::optional<IntArrayRef> dim, double correction, bool keepdim, Tensor& out,
              Tensor* mean_out) {
  DimMask mask = 0;
  const bool complex = is_complex_type(self.scalar_type());
  EMBER_KERNEL_CHECK(ctx, out.scalar_type() == (complex ? to_real_type(self.scalar_type())
                                                         : self.scalar_type()),
                     "%s: out dtype %s, expected %s for a %s input", op,
                     scalar_type_name(out.scalar_type()),
                     scalar_type_name(complex ? to_real_type(self.scalar_type())
                                              : self.scalar_type()),
                     scalar_type_name(self.scalar_type()));
  if ((mean_out != nullptr && !nn::check_same_dtype(ctx, op, self, "self", *mean_out, "mean")) ||
      !setup(ctx, op, self, dim, /*empty_means_all=*/true, keepdim, out, &mask) ||
      (mean_out != nullptr &&
       !nn::prepare_reduction_output(ctx, op, self, mask, keepdim, *mean_out))) {
    return;
  }
  const ReducePlan plan(self, mask);
  if (complex) {
    EMBER_SWITCH_COMPLEX_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
      var_fold<CTYPE, typename CTYPE::value_type>(plan, self, out, mean_out, correction));
    return;
  }
  EMBER_SWITCH_FLOAT_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
                           var_fold<CTYPE>(plan, self, out, mean_out, correction));
}

void var_correction_out(KernelContext& ctx, const Tensor& self, std::optional<IntArrayRef> dim,
                        std::optional<Scalar> correction, bool keepdim, Tensor& out) {
  var_impl(ctx, "var.correction_out", self, dim, correction ? correction->to_double() : 1.0,
           keepdim, out, nullptr);
}

void var_out(KernelContext& ctx, const Tensor& self, std::optional<IntArrayRef> dim,
             bool unbiased, bool keepdim, Tensor& out) {
  var_impl(ctx, "var.out", self, dim, unbiased ? 1.0 : 0.0, keepdim, out, nullptr);
}

// Outs in schema order: out0 is the variance, out1 the mean.
void var_mean_correction_out(KernelContext& ctx, const Tensor& self,
                             std::optional<IntArrayRef> dim, std::optional<Scalar> correction,
                             bool keepdim, Tensor& out0, Tensor& out1) {
  var_impl(ctx, "var_mean.correction_out", self, dim,
           correction ? correction->to_double() : 1.0, keepdim, out0, &out1);
}

// ---------------------------------------------------------------------------
// logsumexp: max-shifted so that large inputs do not overflow. An infinite
// max is not subtracted (inf - inf would be NaN); the sum then carries it.

// Two folds over the input read in the accumulator's type (float or double):
// the max, then the shifted sum.
template <typename OUT>
void logsumexp_fold(const ReducePlan& plan, const Tensor& in, Tensor& out) {
  using Acc = acc_t<OUT>;
  OUT* dst = out.mutable_data_ptr<OUT>();
  for (int64_t o = 0; o < plan.outer_numel(); ++o) {
    const int64_t base = plan.base_offset(o);
    Acc m = -std::numeric_limits<Acc>::infinity();
    Acc sum = 0;
    for_each_as<Acc>(plan, in, base, [&](Acc x) { if (x > m) m = x; });
    if (std::isinf(m)) m = 0;
    for_each_as<Acc>(plan, in, base, [&](Acc x) { sum += std::exp(x - m); });
    dst[o] = static_cast<OUT>(std::log(sum) + m);
  }
}

void logsumexp_out(KernelContext& ctx, const Tensor& self, IntArrayRef dim, bool keepdim,
                   Tensor& out) {
  const char* op = "logsumexp.out";
  DimMask mask = 0;
  if (!setup(ctx, op, self, dim, /*empty_means_all=*/true, keepdim, out, &mask)) return;
  const ReducePlan plan(self, mask);
  const ScalarType out_type = out.scalar_type();
  EMBER_KERNEL_CHECK(ctx, mask_contains(kAllTypes, self.scalar_type()),
                     "%s: dtype %s is not supported", op, scalar_type_name(self.scalar_type()));
  EMBER_SWITCH_FLOAT_TYPES(out_type, return fail_dtype(ctx, op, out_type),
                           logsumexp_fold<CTYPE>(plan, self, out));
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::sum.IntList_out", sum_dim_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::max.unary_out", max_unary_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::linalg_vector_norm.out", linalg_vector_norm_out,
                      kFloatTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::min.unary_out", min_unary_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::sum.out", sum_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::mean.out", mean_dim_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::mean.dtype_out", mean_dtype_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::prod.int_out", prod_int_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::prod.out", prod_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::amax.out", amax_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::amin.out", amin_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::any.out", any_dim_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::any.dims_out", any_dims_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::any.all_out", any_all_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::all.out", all_dim_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::all.dims_out", all_dims_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::all.all_out", all_all_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::argmax.out", argmax_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::argmin.out", argmin_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::max.dim_max", max_dim_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::min.dim_min", min_dim_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::var.correction_out", var_correction_out, kFloatTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::var.out", var_out, kFloatTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::var_mean.correction_out", var_mean_correction_out,
                      kFloatTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::logsumexp.out", logsumexp_out, kAllTypes);

}  // namespace ember::kernels
