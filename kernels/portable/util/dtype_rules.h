// The dtype rules every kernel shares, defined once and matched to PyTorch eager (x86):
// element conversion, Python-scalar conversion and its overflow check, opmath types.
#pragma once

// Why here and not in runtime/kernel: these are kernel semantics (what one
// element becomes), not part of the registry or call contract; the runtime
// never converts elements. Optimized and quantized kernels include this header
// so that they agree with the portable reference by construction.
//
// Quantized kernels: quantize is not a cast. PyTorch rounds value / scale to
// nearest even and clamps to [quant_min, quant_max] before the integer cast;
// define that rule here too, next to the cast it must not be confused with.
//
// Every rule below was measured on torch 2.13 (x86-64, AVX2) with the probes
// quoted next to it. Where PyTorch's answer depends on the code path (tensor
// size, vectorized body vs scalar tail), the rule follows the path that large
// tensors take and the comment says so.

#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "runtime/core/half.h"
#include "runtime/core/scalar_type.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {

// ---------------------------------------------------------------------------
// Element types

template <typename T>
constexpr bool is_reduced_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// Float, Double, Half, BFloat16.
template <typename T>
constexpr bool is_float_v = std::is_floating_point_v<T> || is_reduced_float_v<T>;

template <typename T>
constexpr ScalarType dtype_of_v = CppTypeToScalarType<T>::value;

// std::complex<float> (ComplexFloat) and std::complex<double> (ComplexDouble).
template <typename T>
struct is_complex : std::false_type {};
template <typename V>
struct is_complex<std::complex<V>> : std::true_type {};
template <typename T>
constexpr bool is_complex_v = is_complex<T>::value;

// The type one element is computed in (at::opmath_type): the 16-bit floats
// compute in float and round once when stored; every other type computes in
// itself (so integer arithmetic wraps at the dtype's width, as in PyTorch).
template <typename T>
using opmath_t = std::conditional_t<is_reduced_float_v<T>, float, T>;

// The type sums, products and dot products accumulate in: opmath for floats
// (half and bfloat16 sums accumulate in float: cumsum of half [2048, 1, 1, 1]
// is [2048, 2048, 2050, 2052], not [2048, 2048, 2048, 2048]); int64 for
// integers and Bool, which PyTorch's reductions also use, so a partial sum
// does not wrap before the final narrowing (sum of int8 [100, 100] with
// dtype=int8 is -56).
template <typename T>
using acc_t = std::conditional_t<is_float_v<T> || is_complex_v<T>, opmath_t<T>, int64_t>;

// ---------------------------------------------------------------------------
// NaN

// True for a NaN of any floating dtype; integers and Bool have none.
template <typename T>
bool is_nan(T v) {
  if constexpr (is_reduced_float_v<T>) {
    const float f = static_cast<float>(v);
    return f != f;
  } else if constexpr (std::is_floating_point_v<T>) {
    return v != v;
  } else {
    return false;
  }
}

// ---------------------------------------------------------------------------
// Element conversion

// A float or double as one of the five integer dtypes, as PyTorch's casts give
// it on x86 (c10::convert, i.e. static_cast compiled to cvttss2si/cvttsd2si):
//  - truncation toward zero when the value is in range;
//  - int8, int16 and int32 convert through a 32-bit conversion and then wrap,
//    so 300.7 -> int8 is 44 and 70000.0 -> int16 is 4464;
//  - int64, and uint8 (which c10 routes through int64 on purpose, see
//    static_cast_with_inter_type<uint8_t>), use a 64-bit conversion, so
//    -1.5 -> uint8 is 255 and the double 4294967301.0 -> uint8 is 5;
//  - NaN, +-inf and values outside the conversion's range give its "integer
//    indefinite" value, INT32_MIN or INT64_MIN, before the wrap: NaN -> int32
//    is INT32_MIN, NaN -> int8 and uint8 are 0, 3e9 -> int64 is 3000000000.
// Any value gives a defined result; there is no undefined behaviour.
template <typename To, typename From>
To float_to_integer(From v) {
  static_assert(std::is_floating_point_v<From>, "widen 16-bit floats to float first");
  static_assert(std::is_integral_v<To> && !std::is_same_v<To, bool> && sizeof(To) <= 8,
                "an integer dtype");
  if constexpr (sizeof(To) == 8 || std::is_same_v<To, uint8_t>) {
    // [-2^63, 2^63) holds every value that truncates into int64; false for NaN.
    const bool in_range = v >= From(-0x1p63) && v < From(0x1p63);
    return static_cast<To>(in_range ? static_cast<int64_t>(v)
                                    : std::numeric_limits<int64_t>::min());
  } else {
    // (-2^31 - 1, 2^31) holds every value that truncates into int32.
    const bool in_range = static_cast<double>(v) > -2147483649.0 && v < From(2147483648.0);
    return static_cast<To>(in_range ? static_cast<int32_t>(v)
                                    : std::numeric_limits<int32_t>::min());
  }
}

// One element of dtype From as dtype To, as PyTorch's casts (to, copy_,
// type promotion) convert it:
//  - anything -> Bool is "!= 0" (NaN is true, -0.0 is false);
//  - Bool -> anything is 0 or 1;
//  - float -> integer: float_to_integer above;
//  - integer -> integer wraps modulo 2^bits (255 -> int8 is -1);
//  - integer -> float rounds to nearest even;
//  - anything -> Half/BFloat16 goes through float, rounding twice from double
//    or int64 as c10 does: the double 1 + 2^-11 + 2^-40 -> half is 1.0, and
//    the int64 2^32 + 2^24 + 1 -> bfloat16 is 2^32. Overflow gives inf
//    (65520.0 -> half is inf, 65519.0 is 65504), NaN stays NaN, subnormals
//    are kept and round to nearest even (2^-25 -> half is 0, 3 * 2^-25 is 2^-23);
//  - Half/BFloat16 -> anything goes through float (exact).
//  - complex -> real keeps the real part (torch warns and drops the
//    imaginary part), complex -> Bool is "either part != 0", real -> complex
//    has a zero imaginary part, and complex -> complex casts each part.
template <typename To, typename From>
To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_complex_v<To> && is_complex_v<From>) {
    using V = typename To::value_type;
    return To(static_cast<V>(v.real()), static_cast<V>(v.imag()));
  } else if constexpr (is_complex_v<From>) {
    if constexpr (std::is_same_v<To, bool>) {
      return v.real() != 0 || v.imag() != 0;
    } else {
      return convert<To>(v.real());
    }
  } else if constexpr (is_complex_v<To>) {
    return To(convert<typename To::value_type>(v), typename To::value_type(0));
  } else if constexpr (is_reduced_float_v<From>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (is_reduced_float_v<To>) {
    return To(convert<float>(v));
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    return float_to_integer<To>(v);
  } else {
    // integer -> narrower integer is modulo 2^bits (defined since C++20 and
    // what every supported compiler does before it); the rest round.
    return static_cast<To>(v);
  }
}

// ---------------------------------------------------------------------------
// Wrapping integer arithmetic: PyTorch's integer ops wrap on overflow, C++
// signed overflow is undefined, so integers compute in a wide-enough unsigned
// type. Floats (and Half/BFloat16, through float) compute as usual. Bool adds
// as "or" and multiplies as "and" (torch.add of two bool tensors is or).

template <typename T>
using wrap_unsigned_t =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <typename T>
constexpr bool is_wrapping_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <typename T>
T wrapping_add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (is_wrapping_int_v<T>) {
    using U = wrap_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return T(a + b);
  }
}

template <typename T>
T wrapping_sub(T a, T b) {
  if constexpr (is_wrapping_int_v<T>) {
    using U = wrap_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return T(a - b);
  }
}

template <typename T>
T wrapping_mul(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else if constexpr (is_wrapping_int_v<T>) {
    using U = wrap_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return T(a * b);
  }
}

template <typename T>
T wrapping_neg(T a) {
  return wrapping_sub(T(0), a);
}

// ---------------------------------------------------------------------------
// Python scalars (Scalar arguments)
//
// PyTorch converts a Python number to a tensor's dtype in three ways, and which
// one an argument gets is a property of the argument, not of the dtype:
//
//  1. As an operand of an elementwise op (add(x, 2.7), x == 0.3, remainder,
//     fmod, pow): the number becomes a wrapped 0-d tensor that is CAST to the
//     op's compute dtype, unchecked. int8 + 300 adds 44; half + 0.3 adds
//     half(0.3) = 0.30004883, so half(0.30004883) == 0.3 is true.
//     -> scalar_to_operand<T> (scalar_to<T>, widened to opmath).
//  2. A few kernels read the ORIGINAL number in opmath instead
//     (TensorIterator::original_scalar_value<opmath_t>): mul, div (every
//     rounding mode) and floor_divide when the number is the second operand,
//     and the coefficients of leaky_relu, elu, lerp's weight. half * 0.3
//     multiplies by 0.3f. -> scalar_to_opmath<T>. For every dtype but
//     Half/BFloat16 the two readings are the same value.
//  3. As a value a kernel stores, a bound or a coefficient (full, fill,
//     masked_fill, scatter's value, constant_pad_nd's value, clamp and
//     hardtanh bounds, add's alpha): Scalar::to<T>(), CHECKED by
//     c10::checked_convert, which raises "value cannot be converted to type T
//     without overflow". -> scalar_fits_type<T> first, then scalar_to<T>.
//     addmm's beta and alpha are Scalar::to<opmath_t>(): checked and read in
//     opmath (scalar_fits_type<opmath_t<T>>, scalar_to_opmath<T>).

// Whether `s` converts to T without overflow, by c10's checked_convert
// (overflows<T>):
//  - Bool accepts anything;
//  - floating types accept NaN and +-inf but no finite value beyond their
//    largest (1e39 fails for float, 65519.0 and 70000 fail for half; bfloat16
//    takes up to 3.3895314e38);
//  - integer types reject NaN, inf and values outside [lowest, max] (2.7 and
//    -1.5 are fine for int8 and truncate; 255.5 and -0.5 are not fine for
//    uint8); an INTEGER scalar may be negative for an unsigned type down to
//    -max, meaning its two's complement (-1 -> uint8 is 255, -256 fails).
// PyTorch skips this check when filling a one-element Half or BFloat16 tensor
// (torch.full((1,), 70000., dtype=torch.half) is inf, with 5 elements it
// raises); the kernels check for every size.
template <typename T>
bool scalar_fits_type(const Scalar& s) {
  if constexpr (is_complex_v<T>) {
    return s.is_complex() || scalar_fits_type<typename T::value_type>(s);
  } else if constexpr (std::is_same_v<T, bool>) {
    return true;
  } else if (s.is_complex()) {
    return false;  // c10: a complex number does not convert to a real type
  } else if constexpr (is_float_v<T>) {
    const double v = s.to_double();
    if (v != v || v == std::numeric_limits<double>::infinity() ||
        v == -std::numeric_limits<double>::infinity()) {
      return true;
    }
    const double max = std::is_same_v<T, Half>       ? 65504.0
                       : std::is_same_v<T, BFloat16> ? 3.3895313892515355e38
                                                      : static_cast<double>(
                                                            std::numeric_limits<T>::max());
    return v >= -max && v <= max;
  } else if (s.is_floating()) {
    const double v = s.to_double();  // NaN fails both comparisons
    return v >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
           v <= static_cast<double>(std::numeric_limits<T>::max());
  } else {
    const int64_t v = s.to_int();
    if constexpr (std::is_unsigned_v<T>) {
      const uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
      return magnitude <= std::numeric_limits<T>::max();
    } else {
      return v >= std::numeric_limits<T>::lowest() && v <= std::numeric_limits<T>::max();
    }
  }
}

// scalar_fits_type for a dtype known at run time; false for a dtype the
// kernels do not compute with.
inline bool scalar_fits(const Scalar& s, ScalarType type) {
  EMBER_SWITCH_ALL_AND_COMPLEX_TYPES(type, return false, return scalar_fits_type<CTYPE>(s))
  return false;
}

// `s` cast to T (rule 1 above; also the value rule 3 stores once checked):
// the number's own type (int64, double or bool) converted by `convert`, so a
// double never goes through EValue's int64 truncation.
template <typename T>
T scalar_to(const Scalar& s) {
  if (s.is_complex()) {
    return convert<T>(std::complex<double>(s.complex_part(0), s.complex_part(1)));
  }
  if (s.is_floating()) return convert<T>(s.to_double());
  if (s.is_bool()) return convert<T>(s.to_int() != 0);
  return convert<T>(s.to_int());
}

// `s` as an operand of an op computing in T: cast to T, then widened to T's
// opmath type (rule 1).
template <typename T>
opmath_t<T> scalar_to_operand(const Scalar& s) {
  return static_cast<opmath_t<T>>(scalar_to<T>(s));
}

// `s` read directly in T's opmath type, without the cast to T (rule 2).
template <typename T>
opmath_t<T> scalar_to_opmath(const Scalar& s) {
  return scalar_to<opmath_t<T>>(s);
}

// Writes `s`, checked and converted (rule 3), as one element of `type` into
// `bytes` (16 bytes of room), for kernels that move raw elements. False when
// it does not fit or the dtype is not one the kernels compute with.
inline bool scalar_to_element(const Scalar& s, ScalarType type, void* bytes) {
  bool ok = false;
  EMBER_SWITCH_ALL_AND_COMPLEX_TYPES(type, ok = false, {
    if (scalar_fits_type<CTYPE>(s)) {
      const CTYPE v = scalar_to<CTYPE>(s);
      std::memcpy(bytes, &v, sizeof(v));
      ok = true;
    }
  });
  return ok;
}

}  // namespace ember::kernels
