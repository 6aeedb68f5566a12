// Unary math ops. Transcendental ops read any dtype and compute in Float (or
// the input's float type); the rest keep the input's dtype.
#include <cmath>
#include <complex>
#include <type_traits>

#include "kernels/portable/util/elementwise_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// An op that computes in floating point: integer and bool inputs give Float.
template <typename Fn>
void float_op(KernelContext& ctx, const char* op, const Tensor& in, Tensor& out, Fn fn) {
  unary_op<kFloatTypes>(ctx, op, in, out, Promotion::kIntToFloat, [fn](auto) { return fn; });
}

// An op that keeps the input's dtype, for the given dtype families.
template <DtypeMask kSet, typename Fn>
void same_type_op(KernelContext& ctx, const char* op, const Tensor& in, Tensor& out, Fn fn) {
  unary_op<kSet>(ctx, op, in, out, Promotion::kDefault, [fn](auto) { return fn; });
}

// Rounding ops are the identity on integers.
template <typename Fn>
void rounding_op(KernelContext& ctx, const char* op, const Tensor& in, Tensor& out, Fn fn) {
  same_type_op<kRealTypes>(ctx, op, in, out, [fn](auto x) {
    if constexpr (std::is_floating_point_v<decltype(x)>) {
      return fn(x);
    } else {
      return x;
    }
  });
}

// The same for an op torch also defines on complex tensors (complex in,
// complex out, by std::complex's functions).
template <typename Fn>
void float_or_complex_op(KernelContext& ctx, const char* op, const Tensor& in, Tensor& out,
                         Fn fn) {
  unary_op<kFloatTypes | kComplexTypes>(ctx, op, in, out, Promotion::kIntToFloat,
                                        [fn](auto) { return fn; });
}

// Defines a kernel `name_out` computing `expr` of `x` in floating point.
#define EMBER_FLOAT_UNARY(name, expr)                                       \
  void name##_out(KernelContext& ctx, const Tensor& self, Tensor& out) {    \
    float_op(ctx, #name ".out", self, out, [](auto x) {                     \
      using M = decltype(x);                                                \
      return static_cast<M>(expr);                                          \
    });                                                                     \
  }

// ... and one whose `expr` also holds for complex x.
#define EMBER_FLOAT_COMPLEX_UNARY(name, expr)                               \
  void name##_out(KernelContext& ctx, const Tensor& self, Tensor& out) {    \
    float_or_complex_op(ctx, #name ".out", self, out, [](auto x) {          \
      using M = decltype(x);                                                \
      return static_cast<M>(expr);                                          \
    });                                                                     \
  }

// expm1, log1p and log2 of a complex x by their definitions (std::complex
// has no such functions).
template <typename M>
M expm1_of(M x) {
  if constexpr (is_complex_v<M>) {
    return std::exp(x) - M(1);
  } else {
    return std::expm1(x);
  }
}
template <typename M>
M log1p_of(M x) {
  if constexpr (is_complex_v<M>) {
    return std::log(M(1) + x);
  } else {
    return std::log1p(x);
  }
}
template <typename M>
M log2_of(M x) {
  if constexpr (is_complex_v<M>) {
    return std::log(x) / static_cast<typename M::value_type>(0.69314718055994530942);
  } else {
    return std::log2(x);
  }
}

EMBER_FLOAT_COMPLEX_UNARY(exp, std::exp(x))
EMBER_FLOAT_COMPLEX_UNARY(expm1, expm1_of(x))
EMBER_FLOAT_COMPLEX_UNARY(log, std::log(x))
EMBER_FLOAT_COMPLEX_UNARY(log1p, log1p_of(x))
EMBER_FLOAT_COMPLEX_UNARY(log2, log2_of(x))
EMBER_FLOAT_COMPLEX_UNARY(log10, std::log10(x))
EMBER_FLOAT_COMPLEX_UNARY(sqrt, std::sqrt(x))
EMBER_FLOAT_COMPLEX_UNARY(rsqrt, M(1) / std::sqrt(x))
EMBER_FLOAT_COMPLEX_UNARY(reciprocal, M(1) / x)
EMBER_FLOAT_COMPLEX_UNARY(sin, std::sin(x))
EMBER_FLOAT_COMPLEX_UNARY(cos, std::cos(x))
EMBER_FLOAT_COMPLEX_UNARY(tan, std::tan(x))
EMBER_FLOAT_COMPLEX_UNARY(asin, std::asin(x))
EMBER_FLOAT_COMPLEX_UNARY(acos, std::acos(x))
EMBER_FLOAT_COMPLEX_UNARY(atan, std::atan(x))
EMBER_FLOAT_COMPLEX_UNARY(sinh, std::sinh(x))
EMBER_FLOAT_COMPLEX_UNARY(cosh, std::cosh(x))
EMBER_FLOAT_COMPLEX_UNARY(tanh, std::tanh(x))
EMBER_FLOAT_COMPLEX_UNARY(asinh, std::asinh(x))
EMBER_FLOAT_COMPLEX_UNARY(acosh, std::acosh(x))
EMBER_FLOAT_COMPLEX_UNARY(atanh, std::atanh(x))
EMBER_FLOAT_UNARY(erf, std::erf(x))
EMBER_FLOAT_COMPLEX_UNARY(sigmoid, M(1) / (M(1) + std::exp(-x)))
#undef EMBER_FLOAT_UNARY
#undef EMBER_FLOAT_COMPLEX_UNARY

// torch has no negation of bool tensors.
void neg_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  same_type_op<kRealTypes | kComplexTypes>(ctx, "neg.out", self, out,
                                           [](auto x) { return wrapping_neg(x); });
}

// A complex |z| (std::abs: hypot, no overflow) is real: Float for ComplexFloat.
void complex_abs(KernelContext& ctx, const char* op, const Tensor& self, Tensor& out) {
  if (!check_out_dtype(ctx, op, to_real_type(self.scalar_type()), out) ||
      !resize_output(ctx, out, self.sizes(), op)) {
    return;
  }
  switch_dtype<kComplexTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    map_elementwise<typename C::value_type, C>(ctx, op, [](C z) { return std::abs(z); }, out,
                                               self);
  });
}

void abs_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  if (is_complex_type(self.scalar_type())) return complex_abs(ctx, "abs.out", self, out);
  same_type_op<kRealTypes>(ctx, "abs.out", self, out, [](auto x) {
    using M = decltype(x);
    if constexpr (std::is_floating_point_v<M>) {
      return std::fabs(x);
    } else if constexpr (std::is_signed_v<M>) {
      return x < 0 ? wrapping_neg(x) : x;
    } else {
      return x;
    }
  });
}

// -1, 0 or 1; NaN gives 0 like c10's sign.
void sign_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  same_type_op<kAllTypes>(ctx, "sign.out", self, out, [](auto x) {
    using M = decltype(x);
    if constexpr (std::is_same_v<M, bool>) {
      return x;
    } else if constexpr (std::is_unsigned_v<M>) {
      return static_cast<M>(x != 0);
    } else {
      return static_cast<M>((M(0) < x) - (x < M(0)));
    }
  });
}

// sgn: sign for real tensors, z / |z| (0 at 0) for complex ones.
void sgn_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  if (!is_complex_type(self.scalar_type())) return sign_out(ctx, self, out);
  same_type_op<kComplexTypes>(ctx, "sgn.out", self, out, [](auto z) {
    using C = decltype(z);
    const typename C::value_type r = std::abs(z);
    return r == 0 ? C(0) : z / r;
  });
}

void floor_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  rounding_op(ctx, "floor.out", self, out, [](auto x) { return std::floor(x); });
}
void ceil_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  rounding_op(ctx, "ceil.out", self, out, [](auto x) { return std::ceil(x); });
}
void trunc_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  rounding_op(ctx, "trunc.out", self, out, [](auto x) { return std::trunc(x); });
}
// Halves round to even, as torch.round does (nearbyint in the default mode).
void round_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  rounding_op(ctx, "round.out", self, out, [](auto x) { return std::nearbyint(x); });
}

// Rounds to `decimals` digits the way ATen does: scale by 10^|decimals|,
// round, scale back (floats only, like torch).
void round_decimals_out(KernelContext& ctx, const Tensor& self, int64_t decimals, Tensor& out) {
  const bool negative = decimals < 0;
  const double ten_pow = std::pow(10.0, static_cast<double>(negative ? -decimals : decimals));
  unary_op<kFloatTypes>(ctx, "round.decimals_out", self, out, Promotion::kDefault, [&](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    const M scale = static_cast<M>(ten_pow);
    return [scale, negative](M x) {
      return negative ? std::nearbyint(x / scale) * scale : std::nearbyint(x * scale) / scale;
    };
  });
}

void bitwise_not_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  same_type_op<kIntAndBoolTypes>(ctx, "bitwise_not.out", self, out, [](auto x) {
    using M = decltype(x);
    if constexpr (std::is_same_v<M, bool>) {
      return !x;
    } else {
      return static_cast<M>(~x);
    }
  });
}

void logical_not_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  unary_predicate_op<kAllAndComplexTypes>(ctx, "logical_not.out", self, out, [](auto) {
    return [](auto x) { return x == decltype(x)(0); };
  });
}

void isnan_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  if (!check_out_dtype(ctx, "isnan.out", ScalarType::Bool, out)) return;
  unary_predicate_op<kAllAndComplexTypes>(ctx, "isnan.out", self, out, [](auto) {
    return [](auto x) {
      if constexpr (std::is_floating_point_v<decltype(x)>) {
        return static_cast<bool>(std::isnan(x));
      } else if constexpr (is_complex_v<decltype(x)>) {
        return std::isnan(x.real()) || std::isnan(x.imag());
      } else {
        return false;
      }
    };
  });
}

void isinf_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  if (!check_out_dtype(ctx, "isinf.out", ScalarType::Bool, out)) return;
  unary_predicate_op<kAllAndComplexTypes>(ctx, "isinf.out", self, out, [](auto) {
    return [](auto x) {
      if constexpr (std::is_floating_point_v<decltype(x)>) {
        return static_cast<bool>(std::isinf(x));
      } else if constexpr (is_complex_v<decltype(x)>) {
        return std::isinf(x.real()) || std::isinf(x.imag());
      } else {
        return false;
      }
    };
  });
}

}  // namespace

EMBER_REGISTER_STRIDED_KERNEL("aten::exp.out", exp_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::expm1.out", expm1_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::log.out", log_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::log1p.out", log1p_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::log2.out", log2_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::log10.out", log10_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sqrt.out", sqrt_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::rsqrt.out", rsqrt_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::reciprocal.out", reciprocal_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sin.out", sin_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::cos.out", cos_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::tan.out", tan_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::asin.out", asin_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::acos.out", acos_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::atan.out", atan_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sinh.out", sinh_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::cosh.out", cosh_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::tanh.out", tanh_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::asinh.out", asinh_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::acosh.out", acosh_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::atanh.out", atanh_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::erf.out", erf_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sigmoid.out", sigmoid_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::neg.out", neg_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::abs.out", abs_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sgn.out", sgn_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sign.out", sign_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::floor.out", floor_out, kRealTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::ceil.out", ceil_out, kRealTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::trunc.out", trunc_out, kRealTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::round.out", round_out, kRealTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::round.decimals_out", round_decimals_out, kFloatTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_not.out", bitwise_not_out, kIntAndBoolTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::logical_not.out", logical_not_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::isnan.out", isnan_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::isinf.out", isinf_out, kAllAndComplexTypes);

}  // namespace ember::kernels
