#include "runtime/core/scalar_type.h"

namespace ember {

bool is_valid_scalar_type(int value) {
  return (value >= 0 && value <= 17) ||
         (value >= 22 && value <= 29);
}

size_t element_size(ScalarType type) {
  switch (type) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Bool:
    case ScalarType::QInt8:
    case ScalarType::QUInt8:
    case ScalarType::QUInt4x2:
    case ScalarType::QUInt2x4:
    case ScalarType::Float8_e5m2:
    case ScalarType::Float8_e4m3fn:
    case ScalarType::Float8_e5m2fnuz:
    case ScalarType::Float8_e4m3fnuz:
      return 1;
    case ScalarType::Short:
    case ScalarType::Half:
    case ScalarType::BFloat16:
    case ScalarType::Bits16:
    case ScalarType::UInt16:
      return 2;
    case ScalarType::Int:
    case ScalarType::Float:
    case ScalarType::QInt32:
    case ScalarType::UInt32:
    case ScalarType::ComplexHalf:
      return 4;
    case ScalarType::Long:
    case ScalarType::Double:
    case ScalarType::UInt64:
    case ScalarType::ComplexFloat:
      return 8;
    case ScalarType::ComplexDouble:
      return 16;
  }
  return 0;
}

const char* scalar_type_name(ScalarType type) {
  switch (type) {
    case ScalarType::Byte: return "Byte";
    case ScalarType::Char: return "Char";
    case ScalarType::Short: return "Short";
    case ScalarType::Int: return "Int";
    case ScalarType::Long: return "Long";
    case ScalarType::Half: return "Half";
    case ScalarType::Float: return "Float";
    case ScalarType::Double: return "Double";
    case ScalarType::ComplexHalf: return "ComplexHalf";
    case ScalarType::ComplexFloat: return "ComplexFloat";
    case ScalarType::ComplexDouble: return "ComplexDouble";
    case ScalarType::Bool: return "Bool";
    case ScalarType::QInt8: return "QInt8";
    case ScalarType::QUInt8: return "QUInt8";
    case ScalarType::QInt32: return "QInt32";
    case ScalarType::BFloat16: return "BFloat16";
    case ScalarType::QUInt4x2: return "QUInt4x2";
    case ScalarType::QUInt2x4: return "QUInt2x4";
    case ScalarType::Bits16: return "Bits16";
    case ScalarType::Float8_e5m2: return "Float8_e5m2";
    case ScalarType::Float8_e4m3fn: return "Float8_e4m3fn";
    case ScalarType::Float8_e5m2fnuz: return "Float8_e5m2fnuz";
    case ScalarType::Float8_e4m3fnuz: return "Float8_e4m3fnuz";
    case ScalarType::UInt16: return "UInt16";
    case ScalarType::UInt32: return "UInt32";
    case ScalarType::UInt64: return "UInt64";
  }
  return "Invalid";
}

bool is_floating_type(ScalarType type) {
  return type == ScalarType::Float || type == ScalarType::Double ||
         type == ScalarType::Half || type == ScalarType::BFloat16;
}

bool is_complex_type(ScalarType type) {
  return type == ScalarType::ComplexHalf || type == ScalarType::ComplexFloat ||
         type == ScalarType::ComplexDouble;
}

ScalarType to_real_type(ScalarType type) {
  switch (type) {
    case ScalarType::ComplexHalf: return ScalarType::Half;
    case ScalarType::ComplexFloat: return ScalarType::Float;
    case ScalarType::ComplexDouble: return ScalarType::Double;
    default: return type;
  }
}

ScalarType to_complex_type(ScalarType type) {
  switch (type) {
    case ScalarType::Half: return ScalarType::ComplexHalf;
    case ScalarType::Double: return ScalarType::ComplexDouble;
    default: return is_complex_type(type) ? type : ScalarType::ComplexFloat;
  }
}

bool is_integral_type(ScalarType type, bool include_bool) {
  switch (type) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
    case ScalarType::UInt16:
    case ScalarType::UInt32:
    case ScalarType::UInt64:
      return true;
    case ScalarType::Bool:
      return include_bool;
    default:
      return false;
  }
}

namespace {
// Rank of each promotable type in PyTorch's promotion lattice, in the order of
// c10's _promoteTypesLookup rows: u1 i1 i2 i4 i8 f2 f4 f8 b1 bf16.
int promotion_index(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return 0;
    case ScalarType::Char: return 1;
    case ScalarType::Short: return 2;
    case ScalarType::Int: return 3;
    case ScalarType::Long: return 4;
    case ScalarType::Half: return 5;
    case ScalarType::Float: return 6;
    case ScalarType::Double: return 7;
    case ScalarType::Bool: return 8;
    case ScalarType::BFloat16: return 9;
    default: return -1;
  }
}
}  // namespace

bool promote_types(ScalarType a, ScalarType b, ScalarType* out) {
  using S = ScalarType;
  constexpr S u1 = S::Byte, i1 = S::Char, i2 = S::Short, i4 = S::Int, i8 = S::Long,
              f2 = S::Half, f4 = S::Float, f8 = S::Double, b1 = S::Bool, bf = S::BFloat16;
  // c10::promoteTypes restricted to the types the portable kernels compute in.
  static const S kTable[10][10] = {
      /*        u1  i1  i2  i4  i8  f2  f4  f8  b1  bf */
      /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, u1, bf},
      /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, i1, bf},
      /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, i2, bf},
      /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, i4, bf},
      /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, i8, bf},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, f2, f4},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, f4, f4},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
      /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, b1, bf},
      /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, bf, bf},
  };
  if (is_complex_type(a) || is_complex_type(b)) {
    // c10: the complex type whose parts are the promoted parts, so
    // ComplexFloat with Double is ComplexDouble and with Half ComplexFloat.
    ScalarType parts;
    if (!promote_types(to_real_type(a), to_real_type(b), &parts)) return false;
    *out = to_complex_type(parts == ScalarType::BFloat16 ? ScalarType::Float : parts);
    return true;
  }
  const int ia = promotion_index(a);
  const int ib = promotion_index(b);
  if (ia < 0 || ib < 0) {
    return false;
  }
  *out = kTable[ia][ib];
  return true;
}

bool can_cast(ScalarType from, ScalarType to) {
  // torch.can_cast: no complex -> real, no float -> integral, no non-bool -> bool.
  if (is_complex_type(from) && !is_complex_type(to)) {
    return false;
  }
  if (is_floating_type(from) && is_integral_type(to, /*include_bool=*/true)) {
    return false;
  }
  if (from != ScalarType::Bool && to == ScalarType::Bool) {
    return false;
  }
  return true;
}

}  // namespace ember
