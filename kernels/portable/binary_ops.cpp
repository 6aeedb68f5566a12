// Binary arithmetic, bitwise and logical ops, Tensor and Scalar overloads.
// Broadcasting, promotion and dtype conversion live in elementwise_util.h;
// each op here only defines one element and its dtype rules.
#include <cmath>
#include <type_traits>

#include "kernels/portable/util/elementwise_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// --- element functions ------------------------------------------------------

// Integer division that truncates; INT_MIN / -1 wraps instead of trapping.
template <typename T>
T div_trunc_integer(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return wrapping_neg(a);
  }
  return static_cast<T>(a / b);
}

// Python's floor division on integers.
template <typename T>
T div_floor_integer(T a, T b) {
  const T q = div_trunc_integer(a, b);
  if constexpr (std::is_signed_v<T>) {
    if (b != T(-1) && a % b != 0 && ((a < 0) != (b < 0))) return static_cast<T>(q - 1);
  }
  return q;
}

// c10's div_floor_floating: floor(a / b) computed from fmod so that it agrees
// with remainder (a == b * floor_divide(a, b) + remainder(a, b)).
template <typename T>
T div_floor_float(T a, T b) {
  if (b == 0) return a / b;
  const T mod = std::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= T(1);
  if (div == 0) return std::copysign(T(0), a / b);
  T floordiv = std::floor(div);
  if (div - floordiv > T(0.5)) floordiv += T(1);
  return floordiv;
}

struct DivTrunc {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      return div_trunc_integer(a, b);
    } else {
      return std::trunc(a / b);
    }
  }
};

struct DivFloor {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      return div_floor_integer(a, b);
    } else {
      return div_floor_float(a, b);
    }
  }
};

// Python's %: the result takes the divisor's sign.
struct Remainder {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_signed_v<T> && std::is_integral_v<T>) {
      if (b == T(-1)) return T(0);
      const T r = static_cast<T>(a % b);
      return (r != 0 && (r < 0) != (b < 0)) ? static_cast<T>(r + b) : r;
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(a % b);
    } else {
      T mod = std::fmod(a, b);
      if (mod != 0 && (b < 0) != (mod < 0)) mod += b;
      return mod;
    }
  }
};

// C's fmod: the result takes the dividend's sign.
struct Fmod {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_signed_v<T>) {
        if (b == T(-1)) return T(0);
      }
      return static_cast<T>(a % b);
    } else {
      return std::fmod(a, b);
    }
  }
};

// Integer power by squaring; negative exponents follow c10's powi (only
// 1 and -1 have non-zero results).
template <typename T>
T pow_integer(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == 1) return T(1);
      if (base == -1) return (exp & 1) ? T(-1) : T(1);
      return T(0);
    }
  }
  T result = 1;
  while (exp != 0) {
    if (exp & 1) result = wrapping_mul(result, base);
    exp = static_cast<T>(exp / 2);
    base = wrapping_mul(base, base);
  }
  return result;
}

struct Pow {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      return pow_integer(a, b);
    } else {
      return std::pow(a, b);
    }
  }
};

// maximum/minimum propagate NaN from either side.
template <bool kMax>
struct Extremum {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a)) return a;
      if (std::isnan(b)) return b;
    }
    return (kMax ? a > b : a < b) ? a : b;
  }
};

// Wraps a stateless element functor as a make_fn for the op drivers.
template <typename Fn>
auto any_dtype(Fn fn) {
  return [fn](auto) { return fn; };
}

// --- add / sub / rsub -------------------------------------------------------

// torch rejects a float alpha for integer results, a bool alpha for non-bool
// results, and an alpha that overflows the result dtype (alpha.to<scalar_t>()
// is checked: add(int8, int8, alpha=300) raises).
bool check_alpha(KernelContext& ctx, const char* op, const Operand& a, const Operand& b,
                 const Scalar& alpha) {
  ScalarType common;
  if (!binary_result_type(ctx, op, a, b, Promotion::kDefault, &common)) return false;
  if (alpha.is_bool() && common != ScalarType::Bool) {
    ctx.fail(Error::InvalidArgument, "%s: a Boolean alpha is only supported for Boolean results",
             op);
    return false;
  }
  if (is_integral_type(common, /*include_bool=*/true) && alpha.is_floating()) {
    ctx.fail(Error::InvalidArgument, "%s: alpha must not be a floating point number for %s inputs",
             op, scalar_type_name(common));
    return false;
  }
  if (!scalar_fits(alpha, common)) {
    ctx.fail(Error::InvalidArgument, "%s: alpha cannot be converted to type %s without overflow",
             op, scalar_type_name(common));
    return false;
  }
  return true;
}

// a + alpha * b. alpha is cast to the compute dtype, and the product and sum are
// rounded once, as PyTorch's vectorized loop does for Half/BFloat16 (its
// scalar loop, which runs the last numel % 32 elements, also rounds the
// product to the dtype).
void add_impl(KernelContext& ctx, const char* op, const Operand& a, const Operand& b,
              const Scalar& alpha, Tensor& out) {
  if (!check_alpha(ctx, op, a, b, alpha)) return;
  binary_op<kAllAndComplexTypes>(ctx, op, a, b, out, Promotion::kDefault, [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    using M = opmath_t<CTYPE>;
    const M alpha_v = scalar_to_operand<CTYPE>(alpha);
    return [alpha_v](M x, M y) { return wrapping_add(x, wrapping_mul(alpha_v, y)); };
  });
}

// a - alpha * b; torch has no subtraction of bool tensors.
void sub_impl(KernelContext& ctx, const char* op, const Operand& a, const Operand& b,
              const Scalar& alpha, Tensor& out) {
  for (const Operand* x : {&a, &b}) {
    if (x->tensor != nullptr && x->tensor->scalar_type() == ScalarType::Bool) {
      ctx.fail(Error::InvalidArgument,
               "%s: subtraction with a bool tensor is not supported; use logical_xor or "
               "logical_not", op);
      return;
    }
  }
  if (!check_alpha(ctx, op, a, b, alpha)) return;
  binary_op<kRealTypes | kComplexTypes>(ctx, op, a, b, out, Promotion::kDefault, [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    using M = opmath_t<CTYPE>;
    const M alpha_v = scalar_to_operand<CTYPE>(alpha);
    return [alpha_v](M x, M y) { return wrapping_sub(x, wrapping_mul(alpha_v, y)); };
  });
}

void add_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Scalar alpha,
             Tensor& out) {
  add_impl(ctx, "add.out", self, other, alpha, out);
}
void add_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other, Scalar alpha,
                    Tensor& out) {
  add_impl(ctx, "add.Scalar_out", self, other, alpha, out);
}
void sub_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Scalar alpha,
             Tensor& out) {
  sub_impl(ctx, "sub.out", self, other, alpha, out);
}
void sub_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other, Scalar alpha,
                    Tensor& out) {
  sub_impl(ctx, "sub.Scalar_out", self, other, alpha, out);
}
// rsub(self, other) = other - alpha * self
void rsub_tensor_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Scalar alpha,
                     Tensor& out) {
  sub_impl(ctx, "rsub.Tensor_out", other, self, alpha, out);
}
void rsub_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other, Scalar alpha,
                     Tensor& out) {
  sub_impl(ctx, "rsub.Scalar_out", other, self, alpha, out);
}

// --- mul / div ----------------------------------------------------------------

// A Scalar (or one-element) second operand is read in opmath, not cast: half *
// 0.3 multiplies by 0.3f (dtype_rules.h, rule 2).
void mul_impl(KernelContext& ctx, const char* op, const Operand& a, const Operand& b,
              Tensor& out) {
  binary_op<kAllAndComplexTypes>(ctx, op, a, b, out, Promotion::kDefault,
                       any_dtype([](auto x, auto y) { return wrapping_mul(x, y); }),
                       ScalarRead::kOpmath);
}
void mul_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  mul_impl(ctx, "mul.out", self, other, out);
}
void mul_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other, Tensor& out) {
  mul_impl(ctx, "mul.Scalar_out", self, other, out);
}

// True division: integer inputs divide in Float. Like mul, a Scalar divisor
// is read in opmath.
void true_div(KernelContext& ctx, const char* op, const Operand& a, const Operand& b,
              Tensor& out) {
  binary_op<kFloatTypes | kComplexTypes>(ctx, op, a, b, out, Promotion::kIntToFloat,
                                         any_dtype([](auto x, auto y) { return x / y; }),
                                         ScalarRead::kOpmath);
}

// An integer op that must not divide by zero (torch raises ZeroDivisionError);
// floats follow IEEE. Integer results keep the promoted integer dtype. `read`
// is kOpmath for the divisions (div with a rounding mode, floor_divide) and
// kCast for remainder and fmod, as PyTorch's kernels differ there.
template <typename Fn>
void integer_division_op(KernelContext& ctx, const char* op, const Operand& a, const Operand& b,
                         Tensor& out, ScalarRead read, Fn fn) {
  bool by_zero = false;
  const bool ran = binary_op<kRealTypes>(ctx, op, a, b, out, Promotion::kDefault, [&](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [fn, &by_zero](M x, M y) -> M {
      if constexpr (std::is_integral_v<M>) {
        if (y == 0) {
          by_zero = true;
          return M(0);
        }
      }
      return fn(x, y);
    };
  }, read);
  if (ran && by_zero) {
    ctx.fail(Error::InvalidArgument, "%s: integer division by zero", op);
  }
}

void div_mode_impl(KernelContext& ctx, const char* op, const Operand& a, const Operand& b,
                   const std::optional<StringView>& mode, Tensor& out) {
  auto is = [&](const char* name) { return string_equals(*mode, name); };
  if (!mode.has_value()) {
    true_div(ctx, op, a, b, out);
  } else if (is("trunc")) {
    integer_division_op(ctx, op, a, b, out, ScalarRead::kOpmath, DivTrunc{});
  } else if (is("floor")) {
    integer_division_op(ctx, op, a, b, out, ScalarRead::kOpmath, DivFloor{});
  } else {
    ctx.fail(Error::InvalidArgument, "%s: rounding_mode must be 'trunc', 'floor' or None, not '%.*s'",
             op, static_cast<int>(mode->size()), mode->data());
  }
}

void div_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  true_div(ctx, "div.out", self, other, out);
}
void div_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other, Tensor& out) {
  true_div(ctx, "div.Scalar_out", self, other, out);
}
void div_out_mode(KernelContext& ctx, const Tensor& self, const Tensor& other,
                  std::optional<StringView> rounding_mode, Tensor& out) {
  div_mode_impl(ctx, "div.out_mode", self, other, rounding_mode, out);
}
void div_scalar_mode_out(KernelContext& ctx, const Tensor& self, Scalar other,
                         std::optional<StringView> rounding_mode, Tensor& out) {
  div_mode_impl(ctx, "div.Scalar_mode_out", self, other, rounding_mode, out);
}

void floor_divide_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  integer_division_op(ctx, "floor_divide.out", self, other, out, ScalarRead::kOpmath,
                      DivFloor{});
}
void floor_divide_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other, Tensor& out) {
  integer_division_op(ctx, "floor_divide.Scalar_out", self, other, out, ScalarRead::kOpmath,
                      DivFloor{});
}
void remainder_tensor_out(KernelContext& ctx, const Tensor& self, const Tensor& other,
                          Tensor& out) {
  integer_division_op(ctx, "remainder.Tensor_out", self, other, out, ScalarRead::kCast,
                      Remainder{});
}
void remainder_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other, Tensor& out) {
  integer_division_op(ctx, "remainder.Scalar_out", self, other, out, ScalarRead::kCast,
                      Remainder{});
}
void remainder_scalar_tensor_out(KernelContext& ctx, Scalar self, const Tensor& other,
                                 Tensor& out) {
  integer_division_op(ctx, "remainder.Scalar_Tensor_out", self, other, out, ScalarRead::kCast,
                      Remainder{});
}
void fmod_tensor_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  integer_division_op(ctx, "fmod.Tensor_out", self, other, out, ScalarRead::kCast, Fmod{});
}
void fmod_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other, Tensor& out) {
  integer_division_op(ctx, "fmod.Scalar_out", self, other, out, ScalarRead::kCast, Fmod{});
}

// --- pow, maximum, minimum, atan2 --------------------------------------------

void pow_impl(KernelContext& ctx, const char* op, const Operand& a, const Operand& b,
              Tensor& out) {
  binary_op<kRealTypes | kComplexTypes>(ctx, op, a, b, out, Promotion::kDefault,
                                        any_dtype(Pow{}));
}
void pow_tensor_tensor_out(KernelContext& ctx, const Tensor& self, const Tensor& exponent,
                           Tensor& out) {
  pow_impl(ctx, "pow.Tensor_Tensor_out", self, exponent, out);
}
void pow_tensor_scalar_out(KernelContext& ctx, const Tensor& self, Scalar exponent, Tensor& out) {
  constexpr const char* op = "pow.Tensor_Scalar_out";
  ScalarType common;
  if (!binary_result_type(ctx, op, self, exponent, Promotion::kDefault, &common)) return;
  EMBER_KERNEL_CHECK(ctx,
                     !is_integral_type(common, true) || !exponent.is_integral() ||
                         exponent.to_int() >= 0,
                     "%s: integers to negative integer powers are not allowed", op);
  pow_impl(ctx, op, self, exponent, out);
}
void pow_scalar_out(KernelContext& ctx, Scalar self, const Tensor& exponent, Tensor& out) {
  pow_impl(ctx, "pow.Scalar_out", self, exponent, out);
}

void maximum_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  binary_op<kAllTypes>(ctx, "maximum.out", self, other, out, Promotion::kDefault,
                       any_dtype(Extremum<true>{}));
}
void minimum_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  binary_op<kAllTypes>(ctx, "minimum.out", self, other, out, Promotion::kDefault,
                       any_dtype(Extremum<false>{}));
}

void atan2_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  binary_op<kFloatTypes>(ctx, "atan2.out", self, other, out, Promotion::kIntToFloat,
                         any_dtype([](auto y, auto x) { return std::atan2(y, x); }));
}

// --- bitwise and logical -------------------------------------------------------

template <typename Fn>
void bitwise_op(KernelContext& ctx, const char* op, const Operand& a, const Operand& b,
                Tensor& out, Fn fn) {
  binary_op<kIntAndBoolTypes>(ctx, op, a, b, out, Promotion::kDefault, [fn](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [fn](M x, M y) { return static_cast<M>(fn(x, y)); };
  });
}
constexpr auto kAnd = [](auto x, auto y) { return x & y; };
constexpr auto kOr = [](auto x, auto y) { return x | y; };
constexpr auto kXor = [](auto x, auto y) { return x ^ y; };

void bitwise_and_tensor_out(KernelContext& ctx, const Tensor& self, const Tensor& other,
                            Tensor& out) {
  bitwise_op(ctx, "bitwise_and.Tensor_out", self, other, out, kAnd);
}
void bitwise_and_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other, Tensor& out) {
  bitwise_op(ctx, "bitwise_and.Scalar_out", self, other, out, kAnd);
}
void bitwise_or_tensor_out(KernelContext& ctx, const Tensor& self, const Tensor& other,
                           Tensor& out) {
  bitwise_op(ctx, "bitwise_or.Tensor_out", self, other, out, kOr);
}
void bitwise_or_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other, Tensor& out) {
  bitwise_op(ctx, "bitwise_or.Scalar_out", self, other, out, kOr);
}
void bitwise_xor_tensor_out(KernelContext& ctx, const Tensor& self, const Tensor& other,
                            Tensor& out) {
  bitwise_op(ctx, "bitwise_xor.Tensor_out", self, other, out, kXor);
}
void bitwise_xor_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other, Tensor& out) {
  bitwise_op(ctx, "bitwise_xor.Scalar_out", self, other, out, kXor);
}

// Logical ops read any dtype as "non-zero" and write the bool result as
// out's dtype; there is no promotion.
template <typename Fn>
void logical_op(KernelContext& ctx, const char* op, const Tensor& a, const Tensor& b, Tensor& out,
                Fn fn) {
  if (!resize_to_broadcast(ctx, op, out, {&a, &b})) return;
  map_elementwise<bool, bool, bool>(ctx, op, fn, out, a, b);
}

void logical_and_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  logical_op(ctx, "logical_and.out", self, other, out, [](bool x, bool y) { return x && y; });
}
void logical_or_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  logical_op(ctx, "logical_or.out", self, other, out, [](bool x, bool y) { return x || y; });
}
void logical_xor_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  logical_op(ctx, "logical_xor.out", self, other, out, [](bool x, bool y) { return x != y; });
}

}  // namespace

EMBER_REGISTER_STRIDED_KERNEL("aten::add.out", add_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::add.Scalar_out", add_scalar_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sub.out", sub_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sub.Scalar_out", sub_scalar_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::rsub.Tensor_out", rsub_tensor_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::rsub.Scalar_out", rsub_scalar_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::mul.out", mul_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::mul.Scalar_out", mul_scalar_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::div.out", div_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::div.Scalar_out", div_scalar_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::div.out_mode", div_out_mode, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::div.Scalar_mode_out", div_scalar_mode_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::floor_divide.out", floor_divide_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::floor_divide.Scalar_out", floor_divide_scalar_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::remainder.Tensor_out", remainder_tensor_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::remainder.Scalar_out", remainder_scalar_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::remainder.Scalar_Tensor_out", remainder_scalar_tensor_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::fmod.Tensor_out", fmod_tensor_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::fmod.Scalar_out", fmod_scalar_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::pow.Tensor_Tensor_out", pow_tensor_tensor_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::pow.Tensor_Scalar_out", pow_tensor_scalar_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::pow.Scalar_out", pow_scalar_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::maximum.out", maximum_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::minimum.out", minimum_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::atan2.out", atan2_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_and.Tensor_out", bitwise_and_tensor_out, kIntAndBoolTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_and.Scalar_out", bitwise_and_scalar_out, kIntAndBoolTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_or.Tensor_out", bitwise_or_tensor_out, kIntAndBoolTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_or.Scalar_out", bitwise_or_scalar_out, kIntAndBoolTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_xor.Tensor_out", bitwise_xor_tensor_out, kIntAndBoolTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::bitwise_xor.Scalar_out", bitwise_xor_scalar_out, kIntAndBoolTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::logical_and.out", logical_and_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::logical_or.out", logical_or_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::logical_xor.out", logical_xor_out, kAllAndComplexTypes);

}  // namespace ember::kernels
