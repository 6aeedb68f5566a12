// Integer and floating-point bit ops outside core ATen: gcd, lcm, the
// bitwise shifts, fmax and fmin (NaN-ignoring maximum/minimum), ldexp, frexp.
#include <climits>
#include <cmath>
#include <complex>
#include <type_traits>

#include "kernels/portable/util/elementwise_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// |v| without the undefined negation of the most negative value: that wraps
// to itself, as c10's std::abs does on two's complement.
template <typename T>
T wrapping_abs(T v) {
  if constexpr (std::is_signed_v<T>) {
    return v < 0 ? wrapping_neg(v) : v;
  } else {
    return v;
  }
}

template <typename T>
T gcd_integer(T a, T b) {
  a = wrapping_abs(a);
  b = wrapping_abs(b);
  // On the unsigned magnitudes, so that a wrapped INT_MIN still divides.
  using U = std::make_unsigned_t<T>;
  U x = static_cast<U>(a), y = static_cast<U>(b);
  while (x != 0) {
    const U c = x;
    x = static_cast<U>(y % x);
    y = c;
  }
  return static_cast<T>(y);
}

void gcd_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  binary_op<kIntTypes>(ctx, "gcd.out", self, other, out, Promotion::kDefault, [](auto tag) {
    using T = typename decltype(tag)::type;
    return [](T a, T b) { return gcd_integer(a, b); };
  });
}

void lcm_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  binary_op<kIntTypes>(ctx, "lcm.out", self, other, out, Promotion::kDefault, [](auto tag) {
    using T = typename decltype(tag)::type;
    return [](T a, T b) {
      const T g = gcd_integer(a, b);
      if (g == 0) return T(0);
      using U = std::make_unsigned_t<T>;
      const T q = static_cast<T>(static_cast<U>(wrapping_abs(a)) / static_cast<U>(g));
      return wrapping_abs(wrapping_mul(q, b));
    };
  });
}

// torch: a shift by a negative amount or by the width or more gives 0 to the
// left, and the sign (every bit shifted out) to the right.
template <typename T>
T shift_left(T a, T b) {
  constexpr int kBits = sizeof(T) * CHAR_BIT;
  using S = std::make_signed_t<T>;
  using U = std::make_unsigned_t<T>;
  if (static_cast<S>(b) < 0 || static_cast<int64_t>(b) >= kBits) return T(0);
  return static_cast<T>(static_cast<U>(a) << static_cast<int>(b));
}

template <typename T>
T shift_right(T a, T b) {
  constexpr int kMax = sizeof(T) * CHAR_BIT - (std::is_signed_v<T> ? 1 : 0);
  using S = std::make_signed_t<T>;
  if (static_cast<S>(b) < 0 || static_cast<int64_t>(b) >= kMax) {
    return std::is_signed_v<T> ? static_cast<T>(a < 0 ? -1 : 0) : T(0);
  }
  return static_cast<T>(a >> static_cast<int>(b));
}

template <bool kLeft>
void shift(KernelContext& ctx, const char* op, const Operand& a, const Operand& b, Tensor& out) {
  binary_op<kIntTypes>(ctx, op, a, b, out, Promotion::kDefault, [](auto tag) {
    using T = typename decltype(tag)::type;
    return [](T x, T y) { return kLeft ? shift_left(x, y) : shift_right(x, y); };
  });
}

void left_shift_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  shift<true>(ctx, "bitwise_left_shift.Tensor_out", self, other, out);
}
void left_shift_ts_out(KernelContext& ctx, const Tensor& self, Scalar other, Tensor& out) {
  shift<true>(ctx, "bitwise_left_shift.Tensor_Scalar_out", self, other, out);
}
void left_shift_st_out(KernelContext& ctx, Scalar self, const Tensor& other, Tensor& out) {
  shift<true>(ctx, "bitwise_left_shift.Scalar_Tensor_out", self, other, out);
}
void right_shift_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  shift<false>(ctx, "bitwise_right_shift.Tensor_out", self, other, out);
}
void right_shift_ts_out(KernelContext& ctx, const Tensor& self, Scalar other, Tensor& out) {
  shift<false>(ctx, "bitwise_right_shift.Tensor_Scalar_out", self, other, out);
}
void right_shift_st_out(KernelContext& ctx, Scalar self, const Tensor& other, Tensor& out) {
  shift<false>(ctx, "bitwise_right_shift.Scalar_Tensor_out", self, other, out);
}

// fmax/fmin: the other operand when one is NaN (NaN only when both are).
template <bool kMax>
void fextremum(KernelContext& ctx, const char* op, const Tensor& self, const Tensor& other,
               Tensor& out) {
  binary_op<kAllTypes>(ctx, op, self, other, out, Promotion::kDefault, [](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [](M a, M b) -> M {
      if constexpr (std::is_floating_point_v<M>) {
        return kMax ? std::fmax(a, b) : std::fmin(a, b);
      } else {
        return (kMax ? a > b : a < b) ? a : b;
      }
    };
  });
}

void fmax_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  fextremum<true>(ctx, "fmax.out", self, other, out);
}
void fmin_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  fextremum<false>(ctx, "fmin.out", self, other, out);
}

// ldexp(x, e) = x * 2^e, which torch computes as mul(x, pow(2.0, e)): a float
// result, its dtype the promotion of x and 2^e's (Float for an integer e).
void ldexp_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  const char* op = "ldexp.out";
  if (!is_floating_type(out.scalar_type()) && !is_complex_type(out.scalar_type())) {
    ctx.fail(Error::InvalidArgument, "%s: expected a floating out, got %s", op,
             scalar_type_name(out.scalar_type()));
    return;
  }
  if (!resize_to_broadcast(ctx, op, out, {&self, &other})) return;
  if (is_complex_type(out.scalar_type())) {
    switch_dtype<kComplexTypes>(ctx, op, out.scalar_type(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using C = std::complex<double>;
      map_elementwise<T, C, C>(
          ctx, op, [](C x, C e) { return x * std::exp(e * 0.69314718055994530942); }, out, self,
          other);
    });
    return;
  }
  switch_dtype<kFloatTypes>(ctx, op, out.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    map_elementwise<T, double, double>(
        ctx, op, [](double x, double e) { return x * std::exp2(e); }, out, self, other);
  });
}

void frexp_out(KernelContext& ctx, const Tensor& self, Tensor& mantissa, Tensor& exponent) {
  const char* op = "frexp.Tensor_out";
  if (!check_out_dtype(ctx, op, self.scalar_type(), mantissa) ||
      !check_out_dtype(ctx, op, ScalarType::Int, exponent) ||
      !resize_output(ctx, mantissa, self.sizes(), op) ||
      !resize_output(ctx, exponent, self.sizes(), op)) {
    return;
  }
  switch_dtype<kFloatTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    if (!map_elementwise<T, T>(
            ctx, op, [](M x) { int e; return static_cast<M>(std::frexp(x, &e)); }, mantissa,
            self)) {
      return;
    }
    map_elementwise<int32_t, T>(
        ctx, op,
        [](M x) {
          int e = 0;
          if (std::isfinite(x)) std::frexp(x, &e);
          return static_cast<int32_t>(e);
        },
        exponent, self);
  });
}

}  // namespace

EMBER_REGISTER_STRIDED_KERNEL("aten::gcd.out", gcd_out, kIntTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::lcm.out", lcm_out, kIntTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_left_shift.Tensor_out", left_shift_out, kIntTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_left_shift.Tensor_Scalar_out", left_shift_ts_out,
                              kIntTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_left_shift.Scalar_Tensor_out", left_shift_st_out,
                              kIntTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::__lshift__.Tensor_out", left_shift_out, kIntTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::__lshift__.Scalar_out", left_shift_ts_out, kIntTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_right_shift.Tensor_out", right_shift_out, kIntTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_right_shift.Tensor_Scalar_out", right_shift_ts_out,
                              kIntTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_right_shift.Scalar_Tensor_out", right_shift_st_out,
                              kIntTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::__rshift__.Tensor_out", right_shift_out, kIntTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::__rshift__.Scalar_out", right_shift_ts_out, kIntTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::fmax.out", fmax_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::fmin.out", fmin_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::ldexp.out", ldexp_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::frexp.Tensor_out", frexp_out, kFloatTypes);

}  // namespace ember::kernels
