// Elementwise special functions: copysign, hypot, erfinv and signbit. Like
// atan2 and erf, the float-valued ones compute in the promoted float type
// (integers and Bool give Float); signbit is a predicate with a Bool result.
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kernels/portable/util/elementwise_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// --- copysign, hypot -----------------------------------------------------------

constexpr auto kCopysign = [](auto tag) {
  using M = opmath_t<typename decltype(tag)::type>;
  return [](M x, M y) { return std::copysign(x, y); };
};

void copysign_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  binary_op<kFloatTypes>(ctx, "copysign.out", self, other, out, Promotion::kIntToFloat, kCopysign);
}

void copysign_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other, Tensor& out) {
  binary_op<kFloatTypes>(ctx, "copysign.Scalar_out", self, other, out, Promotion::kIntToFloat,
                         kCopysign);
}

// torch defines hypot for floating dtypes only, so integer operands are not
// promoted to Float (they fail in switch_dtype, as torch rejects them).
void hypot_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  binary_op<kFloatTypes>(ctx, "hypot.out", self, other, out, Promotion::kDefault, [](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [](M x, M y) { return std::hypot(x, y); };
  });
}

// --- erfinv ----------------------------------------------------------------------

// A start for Newton's method on erfinv(a), `a` in (0, 1). Up to
// 1 - a ~ 1e-7 (float's range) it is Giles' single-precision approximation
// ("Approximating the erfinv function", GPU Computing Gems, 2011), good to a
// few float ulps. Closer to 1 that polynomial is used outside its range, so
// the start is the asymptotic erfc^-1(q) ~ sqrt(L - log(L) / 2) with
// L = -log(q sqrt(pi)), q = 1 - a, which is as close there.
double erfinv_initial(double a) {
  double w = -std::log((1.0 - a) * (1.0 + a));
  double p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else if (w < 16.0) {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  } else {
    constexpr double kSqrtPi = 1.7724538509055160;
    const double l = -std::log((1.0 - a) * kSqrtPi);
    return std::sqrt(l - 0.5 * std::log(l));
  }
  return p * a;
}

// erfinv in double: the start above refined by two Newton steps, each of
// which about squares the relative error (1e-7 -> 1e-14 -> rounding; within
// 5e-15 of torch over the whole range). Above 0.5 the equation solved is
// log(erfc(x)) = log(1 - a): 1 - a is exact there, where erf(x) would round
// to 1, and the logarithm is nearly linear in x, where erfc's steep convexity
// makes plain Newton creep in the far tail.
double erfinv_double(double y) {
  if (std::isnan(y)) return y;
  const double a = std::fabs(y);
  if (a > 1.0) return std::numeric_limits<double>::quiet_NaN();
  if (a == 1.0) return std::copysign(std::numeric_limits<double>::infinity(), y);
  if (a == 0.0) return y;  // keeps the sign of -0.0
  constexpr double kTwoOverSqrtPi = 1.1283791670955126;
  double x = erfinv_initial(a);
  for (int step = 0; step < 2; ++step) {
    const double slope = kTwoOverSqrtPi * std::exp(-x * x);
    if (a > 0.5) {
      const double e = std::erfc(x);
      x += (std::log(e) - std::log(1.0 - a)) * e / slope;
    } else {
      x -= (std::erf(x) - a) / slope;
    }
  }
  return std::copysign(x, y);
}

void erfinv_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  unary_op<kFloatTypes>(ctx, "erfinv.out", self, out, Promotion::kIntToFloat, [](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [](M x) { return static_cast<M>(erfinv_double(static_cast<double>(x))); };
  });
}

// --- signbit ---------------------------------------------------------------------

// True for negative values, -0.0 and NaNs with the sign bit set (std::signbit);
// unsigned integers and Bool are never negative.
void signbit_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  if (!check_out_dtype(ctx, "signbit.out", ScalarType::Bool, out)) return;
  unary_predicate_op<kAllTypes>(ctx, "signbit.out", self, out, [](auto) {
    return [](auto x) {
      using M = decltype(x);
      if constexpr (std::is_floating_point_v<M>) {
        // The sign bit read from the bits: GCC 12 fails to compile its own
        // vectorized std::signbit of a bfloat16 widened to float (an ICE).
        using Bits = std::conditional_t<sizeof(M) == 4, uint32_t, uint64_t>;
        Bits bits;
        std::memcpy(&bits, &x, sizeof(bits));
        return (bits >> (8 * sizeof(Bits) - 1)) != 0;
      } else if constexpr (std::is_signed_v<M>) {
        return x < 0;
      } else {
        return false;
      }
    };
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::copysign.out", copysign_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::copysign.Scalar_out", copysign_scalar_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::hypot.out", hypot_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::erfinv.out", erfinv_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::signbit.out", signbit_out, kAllTypes);

}  // namespace ember::kernels
