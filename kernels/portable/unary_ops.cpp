// Unary math ops. Transcendental ops read any dtype and compute in Float (or
// the input's float type); the rest keep the input's dtype.
#include <cmath>
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

// Defines a kernel `name_out` computing `expr` of `x` in floating point.
#define EMBER_FLOAT_UNARY(name, expr)                                       \
  void name##_out(KernelContext& ctx, const Tensor& self, Tensor& out) {    \
    float_op(ctx, #name ".out", self, out, [](auto x) {                     \
      using M = decltype(x);                                                \
      return static_cast<M>(expr);                                          \
    });                                                                     \
  }

EMBER_FLOAT_UNARY(exp, std::exp(x))
EMBER_FLOAT_UNARY(expm1, std::expm1(x))
EMBER_FLOAT_UNARY(log, std::log(x))
EMBER_FLOAT_UNARY(log1p, std::log1p(x))
EMBER_FLOAT_UNARY(log2, std::log2(x))
EMBER_FLOAT_UNARY(log10, std::log10(x))
EMBER_FLOAT_UNARY(sqrt, std::sqrt(x))
EMBER_FLOAT_UNARY(rsqrt, M(1) / std::sqrt(x))
EMBER_FLOAT_UNARY(reciprocal, M(1) / x)
EMBER_FLOAT_UNARY(sin, std::sin(x))
EMBER_FLOAT_UNARY(cos, std::cos(x))
EMBER_FLOAT_UNARY(tan, std::tan(x))
EMBER_FLOAT_UNARY(asin, std::asin(x))
EMBER_FLOAT_UNARY(acos, std::acos(x))
EMBER_FLOAT_UNARY(atan, std::atan(x))
EMBER_FLOAT_UNARY(sinh, std::sinh(x))
EMBER_FLOAT_UNARY(cosh, std::cosh(x))
EMBER_FLOAT_UNARY(tanh, std::tanh(x))
EMBER_FLOAT_UNARY(asinh, std::asinh(x))
EMBER_FLOAT_UNARY(acosh, std::acosh(x))
EMBER_FLOAT_UNARY(atanh, std::atanh(x))
EMBER_FLOAT_UNARY(erf, std::erf(x))
EMBER_FLOAT_UNARY(sigmoid, M(1) / (M(1) + std::exp(-x)))
#undef EMBER_FLOAT_UNARY

// torch has no negation of bool tensors.
void neg_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  same_type_op<kRealTypes>(ctx, "neg.out", self, out, [](auto x) { return wrapping_neg(x); });
}

void abs_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
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
  unary_predicate_op<kAllTypes>(ctx, "logical_not.out", self, out, [](auto) {
    return [](auto x) { return x == decltype(x)(0); };
  });
}

void isnan_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  if (!check_out_dtype(ctx, "isnan.out", ScalarType::Bool, out)) return;
  unary_predicate_op<kAllTypes>(ctx, "isnan.out", self, out, [](auto) {
    return [](auto x) {
      if constexpr (std::is_floating_point_v<decltype(x)>) {
        return static_cast<bool>(std::isnan(x));
      } else {
        return false;
      }
    };
  });
}

void isinf_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  if (!check_out_dtype(ctx, "isinf.out", ScalarType::Bool, out)) return;
  unary_predicate_op<kAllTypes>(ctx, "isinf.out", self, out, [](auto) {
    return [](auto x) {
      if constexpr (std::is_floating_point_v<decltype(x)>) {
        return static_cast<bool>(std::isinf(x));
      } else {
        return false;
      }
    };
  });
}

}  // namespace

EMBER_REGISTER_STRIDED_KERNEL("aten::exp.out", exp_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::expm1.out", expm1_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::log.out", log_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::log1p.out", log1p_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::log2.out", log2_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::log10.out", log10_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sqrt.out", sqrt_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::rsqrt.out", rsqrt_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::reciprocal.out", reciprocal_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sin.out", sin_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::cos.out", cos_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::tan.out", tan_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::asin.out", asin_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::acos.out", acos_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::atan.out", atan_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sinh.out", sinh_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::cosh.out", cosh_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::tanh.out", tanh_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::asinh.out", asinh_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::acosh.out", acosh_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::atanh.out", atanh_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::erf.out", erf_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sigmoid.out", sigmoid_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::neg.out", neg_out, kRealTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::abs.out", abs_out, kRealTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sign.out", sign_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::floor.out", floor_out, kRealTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::ceil.out", ceil_out, kRealTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::trunc.out", trunc_out, kRealTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::round.out", round_out, kRealTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::round.decimals_out", round_decimals_out, kFloatTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_not.out", bitwise_not_out, kIntAndBoolTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::logical_not.out", logical_not_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::isnan.out", isnan_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::isinf.out", isinf_out, kAllTypes);

}  // namespace ember::kernels
