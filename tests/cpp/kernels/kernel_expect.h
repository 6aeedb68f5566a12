// What the kernel tests whose expected values were pasted from PyTorch share:
// the inputs those values were generated from, the dtype lists they run over,
// outputs the kernel must resize, per-dtype tolerances and the checks.
// Those tests live in ember::testing, where these names (and tensor_factory.h's)
// need no using-declarations and the dtype lists shadow ember's DtypeMask
// constants of the same names.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/core/span.h"
#include "tests/cpp/tensor_factory.h"

namespace ember::testing {

using Call = KernelCall;
// A Span, not a vector, so that case tables at namespace scope can name the
// lists below without depending on another variable's dynamic initialization.
using DTypes = Span<const ScalarType>;

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

inline constexpr ScalarType kFloatTypes[] = {ScalarType::Float, ScalarType::Double,
                                             ScalarType::Half, ScalarType::BFloat16};
inline constexpr ScalarType kFloatDoubleTypes[] = {ScalarType::Float, ScalarType::Double};
inline constexpr ScalarType kIntTypes[] = {ScalarType::Int, ScalarType::Long};
inline constexpr ScalarType kSignedTypes[] = {ScalarType::Float, ScalarType::Double,
                                              ScalarType::Half, ScalarType::BFloat16,
                                              ScalarType::Char, ScalarType::Short,
                                              ScalarType::Int, ScalarType::Long};

inline int64_t numel_of(const Sizes& shape) {
  int64_t n = 1;
  for (int32_t s : shape) n *= s;
  return n;
}

// ((i * 37) % 17 - 8) * scale + offset for i < n: the inputs the pasted values
// were generated from. Products with a power-of-two scale are exact, so these
// are torch's float64 inputs bit for bit (a fused multiply-add included).
inline Values seq(int64_t n, double scale, double offset = 0) {
  Values v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<double>((i * 37) % 17 - 8) * scale + offset;
  return v;
}

// first, first + 1, ..., n values.
inline Values ramp(int64_t n, double first = 0) {
  Values v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = first + static_cast<double>(i);
  return v;
}

// An output the kernel must resize: `rank` dims, room for `cap` elements.
inline OwnedTensor dyn_out(ScalarType dt, int rank, int32_t cap = 1 << 12) {
  Sizes s(static_cast<size_t>(rank), 1);
  if (rank > 0) s[0] = cap;
  return OwnedTensor(dt, s, TensorShapeDynamism::DynamicBound);
}

// Optional arguments of a call: None where a case gives no value.
inline void integer_or_none(Call& call, const std::optional<int64_t>& v) {
  if (v) {
    call.integer(*v);
  } else {
    call.none();
  }
}
inline void ints_or_none(Call& call, const std::optional<std::vector<int64_t>>& v) {
  if (v) {
    call.ints(*v);
  } else {
    call.none();
  }
}
inline void doubles_or_none(Call& call, const std::optional<std::vector<double>>& v) {
  if (v) {
    call.doubles(*v);
  } else {
    call.none();
  }
}
inline void tensor_or_none(Call& call, Tensor* t) {
  if (t != nullptr) {
    call.tensor(*t);
  } else {
    call.none();
  }
}

// Relative tolerances; integers must match exactly.
inline double tol(ScalarType dt) {
  switch (dt) {
    case ScalarType::Float: return 1e-5;
    case ScalarType::Double: return 1e-12;
    case ScalarType::Half: return 4e-3;
    case ScalarType::BFloat16: return 2e-2;
    default: return 0;
  }
}
// Grid coordinates such as 1.4 round in 16-bit types, which moves the sample.
inline double grid_tol(ScalarType dt) {
  return dt == ScalarType::BFloat16 ? 0.15 : dt == ScalarType::Half ? 2e-2 : tol(dt);
}
inline double var_tol(ScalarType dt) {
  return dt == ScalarType::BFloat16 ? 3e-2 : dt == ScalarType::Half ? 1e-2 : tol(dt);
}

// Checks that the call succeeded and `out` holds `want` (NaN matches NaN),
// within `tolerance` scaled by max(1, |want|).
inline void expect_ok(const KernelContext& ctx, OwnedTensor& out, const Sizes& shape,
                      const Values& want, double tolerance) {
  const char* dt = scalar_type_name(out.tensor().scalar_type());
  ASSERT_FALSE(ctx.failed()) << dt << ": " << ctx.message();
  Sizes got_shape(out.tensor().sizes().begin(), out.tensor().sizes().end());
  ASSERT_EQ(got_shape, shape) << dt;
  const Values got = values_of(out);
  ASSERT_EQ(got.size(), want.size()) << dt;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << dt << " at " << i;
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << dt << " at " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], tolerance * std::fmax(1.0, std::fabs(want[i])))
          << dt << " at " << i;
    }
  }
}

// Checks that the call failed with a message naming `op_name`.
inline void expect_fail(const KernelContext& ctx, const char* op_name) {
  ASSERT_TRUE(ctx.failed());
  EXPECT_NE(std::strstr(ctx.message(), op_name), nullptr) << ctx.message();
}

}  // namespace ember::testing
