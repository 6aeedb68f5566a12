// Sets of dtypes. Kernels declare at registration which dtypes their first
// tensor input may have, so that a program asking a kernel for a dtype it
// lacks is refused when the method loads, naming the op and the dtype, not
// halfway through an execution. Kernels use the same sets to pick the C++
// types they instantiate, so the declaration and the code say the same thing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/scalar_type.h"

namespace ember {

// Bit i is set when ScalarType code i is in the set.
using DtypeMask = uint64_t;

constexpr DtypeMask dtype_bit(ScalarType type) {
  return DtypeMask{1} << static_cast<unsigned>(type);
}

constexpr bool mask_contains(DtypeMask mask, ScalarType type) {
  return (mask & dtype_bit(type)) != 0;
}

// The families torch's dtype dispatch speaks of; combine with |.
constexpr DtypeMask kBoolTypes = dtype_bit(ScalarType::Bool);
constexpr DtypeMask kIntTypes = dtype_bit(ScalarType::Byte) | dtype_bit(ScalarType::Char) |
                                dtype_bit(ScalarType::Short) | dtype_bit(ScalarType::Int) |
                                dtype_bit(ScalarType::Long);
constexpr DtypeMask kFloatTypes = dtype_bit(ScalarType::Float) | dtype_bit(ScalarType::Double) |
                                  dtype_bit(ScalarType::Half) | dtype_bit(ScalarType::BFloat16);
constexpr DtypeMask kIntAndBoolTypes = kIntTypes | kBoolTypes;
constexpr DtypeMask kRealTypes = kIntTypes | kFloatTypes;
constexpr DtypeMask kAllTypes = kRealTypes | kBoolTypes;
// ComplexFloat and ComplexDouble: kernels that handle them say so explicitly
// (ComplexHalf has none).
constexpr DtypeMask kComplexTypes =
    dtype_bit(ScalarType::ComplexFloat) | dtype_bit(ScalarType::ComplexDouble);
constexpr DtypeMask kAllAndComplexTypes = kAllTypes | kComplexTypes;
constexpr DtypeMask kFloatAndComplexTypes = kFloatTypes | kComplexTypes;

// Writes the set's dtype names ("Float, Double, ...") into buf; returns buf.
const char* format_dtype_mask(DtypeMask mask, char* buf, size_t size);

}  // namespace ember
