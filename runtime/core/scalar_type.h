// ScalarType: tensor element types, numbered as on the wire (schema/scalar_type.fbs)
// and as in PyTorch's c10::ScalarType.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>

#include "runtime/core/half.h"

namespace ember {

enum class ScalarType : int8_t {
  Byte = 0,
  Char = 1,
  Short = 2,
  Int = 3,
  Long = 4,
  Half = 5,
  Float = 6,
  Double = 7,
  ComplexHalf = 8,
  ComplexFloat = 9,
  ComplexDouble = 10,
  Bool = 11,
  QInt8 = 12,
  QUInt8 = 13,
  QInt32 = 14,
  BFloat16 = 15,
  QUInt4x2 = 16,
  QUInt2x4 = 17,
  Bits16 = 22,
  Float8_e5m2 = 23,
  Float8_e4m3fn = 24,
  Float8_e5m2fnuz = 25,
  Float8_e4m3fnuz = 26,
  UInt16 = 27,
  UInt32 = 28,
  UInt64 = 29,
};

// True for the values above; a file may carry any byte.
bool is_valid_scalar_type(int value);
// Bytes per element (0 for an invalid type).
size_t element_size(ScalarType type);
// PyTorch's name, e.g. "Float", for messages.
const char* scalar_type_name(ScalarType type);

bool is_floating_type(ScalarType type);  // Half, BFloat16, Float, Double
bool is_complex_type(ScalarType type);   // ComplexHalf, ComplexFloat, ComplexDouble
// The type of a complex type's real and imaginary parts (Float for
// ComplexFloat); `type` itself for the others.
ScalarType to_real_type(ScalarType type);
// The complex type whose parts are `type` (ComplexFloat for Float and for the
// integer types, as torch.complex promotes them); `type` for a complex type.
ScalarType to_complex_type(ScalarType type);
bool is_integral_type(ScalarType type, bool include_bool);
// The type of a + b under PyTorch's promotion rules (both tensors of the same
// category). Returns false when there is none (e.g. quantized types).
bool promote_types(ScalarType a, ScalarType b, ScalarType* out);
// Whether a value of `from` may be written to an output of `to` (torch.can_cast).
bool can_cast(ScalarType from, ScalarType to);

// Maps a C++ element type to its ScalarType.
template <typename T>
struct CppTypeToScalarType;
#define EMBER_CPP_TO_SCALAR(cpp, st)                         \
  template <>                                                \
  struct CppTypeToScalarType<cpp> {                          \
    static constexpr ScalarType value = ScalarType::st;      \
  };
EMBER_CPP_TO_SCALAR(uint8_t, Byte)
EMBER_CPP_TO_SCALAR(int8_t, Char)
EMBER_CPP_TO_SCALAR(int16_t, Short)
EMBER_CPP_TO_SCALAR(int32_t, Int)
EMBER_CPP_TO_SCALAR(int64_t, Long)
EMBER_CPP_TO_SCALAR(Half, Half)
EMBER_CPP_TO_SCALAR(float, Float)
EMBER_CPP_TO_SCALAR(double, Double)
EMBER_CPP_TO_SCALAR(bool, Bool)
EMBER_CPP_TO_SCALAR(BFloat16, BFloat16)
EMBER_CPP_TO_SCALAR(std::complex<float>, ComplexFloat)
EMBER_CPP_TO_SCALAR(std::complex<double>, ComplexDouble)
#undef EMBER_CPP_TO_SCALAR

}  // namespace ember

// A selective build (docs/size.md) compiles its kernels with the mask of the
// dtypes its programs use, so that the other dtypes' code is never
// instantiated: their cases take the switch's unsupported path.
#if defined(EMBER_KERNEL_DTYPES_MASK)
#define EMBER_DTYPE_SELECTED_(type) \
  (((static_cast<uint64_t>(EMBER_KERNEL_DTYPES_MASK) >> static_cast<unsigned>(type)) & 1u) != 0)
#else
#define EMBER_DTYPE_SELECTED_(type) true
#endif

// Dtype dispatch: runs the statement with `CTYPE` bound to the C++ type of
// `type`, for the dtypes of the named family; other dtypes run `on_unsupported`.
#define EMBER_CASE_(enum_name, cpp, on_unsupported, ...)                    \
  case ::ember::ScalarType::enum_name:                                      \
    if constexpr (EMBER_DTYPE_SELECTED_(::ember::ScalarType::enum_name)) {   \
      using CTYPE = cpp;                                                    \
      __VA_ARGS__;                                                          \
    } else {                                                                \
      on_unsupported;                                                       \
    }                                                                       \
    break;
#define EMBER_INT_CASES_(u, ...)                 \
  EMBER_CASE_(Byte, uint8_t, u, __VA_ARGS__)     \
  EMBER_CASE_(Char, int8_t, u, __VA_ARGS__)      \
  EMBER_CASE_(Short, int16_t, u, __VA_ARGS__)    \
  EMBER_CASE_(Int, int32_t, u, __VA_ARGS__)      \
  EMBER_CASE_(Long, int64_t, u, __VA_ARGS__)
#define EMBER_FLOAT_CASES_(u, ...)                      \
  EMBER_CASE_(Float, float, u, __VA_ARGS__)             \
  EMBER_CASE_(Double, double, u, __VA_ARGS__)           \
  EMBER_CASE_(Half, ::ember::Half, u, __VA_ARGS__)      \
  EMBER_CASE_(BFloat16, ::ember::BFloat16, u, __VA_ARGS__)
#define EMBER_COMPLEX_CASES_(u, ...)                                     \
  EMBER_CASE_(ComplexFloat, std::complex<float>, u, __VA_ARGS__)         \
  EMBER_CASE_(ComplexDouble, std::complex<double>, u, __VA_ARGS__)

// Float, Double, Half, BFloat16.
#define EMBER_SWITCH_FLOAT_TYPES(type, on_unsupported, ...) \
  switch (type) {                                           \
    EMBER_FLOAT_CASES_(on_unsupported, __VA_ARGS__)         \
    default:                                                \
      on_unsupported;                                       \
  }
// Integers (not Bool).
#define EMBER_SWITCH_INT_TYPES(type, on_unsupported, ...) \
  switch (type) {                                         \
    EMBER_INT_CASES_(on_unsupported, __VA_ARGS__)         \
    default:                                              \
      on_unsupported;                                     \
  }
// Integers and floats (not Bool).
#define EMBER_SWITCH_REAL_TYPES(type, on_unsupported, ...) \
  switch (type) {                                          \
    EMBER_INT_CASES_(on_unsupported, __VA_ARGS__)          \
    EMBER_FLOAT_CASES_(on_unsupported, __VA_ARGS__)        \
    default:                                               \
      on_unsupported;                                      \
  }
// ComplexFloat, ComplexDouble (ComplexHalf has no kernels).
#define EMBER_SWITCH_COMPLEX_TYPES(type, on_unsupported, ...) \
  switch (type) {                                             \
    EMBER_COMPLEX_CASES_(on_unsupported, __VA_ARGS__)         \
    default:                                                  \
      on_unsupported;                                         \
  }
// Integers, floats and Bool.
#define EMBER_SWITCH_ALL_TYPES(type, on_unsupported, ...) \
  switch (type) {                                         \
    EMBER_INT_CASES_(on_unsupported, __VA_ARGS__)         \
    EMBER_FLOAT_CASES_(on_unsupported, __VA_ARGS__)       \
    EMBER_CASE_(Bool, bool, on_unsupported, __VA_ARGS__)  \
    default:                                              \
      on_unsupported;                                     \
  }
// Integers, floats, Bool and the complex types.
#define EMBER_SWITCH_ALL_AND_COMPLEX_TYPES(type, on_unsupported, ...) \
  switch (type) {                                                   \
    EMBER_INT_CASES_(on_unsupported, __VA_ARGS__)                   \
    EMBER_FLOAT_CASES_(on_unsupported, __VA_ARGS__)                 \
    EMBER_CASE_(Bool, bool, on_unsupported, __VA_ARGS__)            \
    EMBER_COMPLEX_CASES_(on_unsupported, __VA_ARGS__)               \
    default:                                                        \
      on_unsupported;                                               \
  }
