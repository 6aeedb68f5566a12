// Kernel-level tests of the dtype rules: each case is a conversion on which two
// kernels (or a kernel and torch) used to give different answers before the
// rules were defined once in dtype_rules.h. Expected values are torch 2.13's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "runtime/core/half.h"
#include "runtime/core/scalar_type.h"
#include "tests/cpp/tensor_factory.h"

namespace ember {
namespace {

using testing::KernelCall;
using testing::make;
using testing::OwnedTensor;
using testing::Values;
using testing::values_of;

const double kNaN = std::nan("");

// ------------------------------------------------------------------ casts

// torch.tensor([-2147483649., 4294967301., 3e9, -1.5, nan], dtype=torch.float64).to(uint8 / int8
// / int32): uint8 goes through int64, int8 through int32. _to_copy used to send
// uint8 through int32 too (giving 0, 0, ...).
TEST(DtypeConsistency, DoubleToUint8GoesThroughInt64) {
  OwnedTensor in = make(ScalarType::Double, {5}, {-2147483649.0, 4294967301.0, 3e9, -1.5, kNaN});
  const struct {
    ScalarType type;
    Values expect;
  } cases[] = {
      {ScalarType::Byte, {255, 5, 0, 255, 0}},
      {ScalarType::Char, {0, 0, 0, -1, 0}},
      {ScalarType::Int, {INT32_MIN, INT32_MIN, INT32_MIN, -1, INT32_MIN}},
  };
  for (const auto& c : cases) {
    OwnedTensor out(c.type, {5});
    ASSERT_FALSE(KernelCall().tensor(in.tensor()).boolean(false).none().tensor(out.tensor())
                     .run("aten::_to_copy.out").failed());
    EXPECT_EQ(values_of(out), c.expect) << scalar_type_name(c.type);
    // The reduction's dtype= cast is the same conversion.
    OwnedTensor first = make(ScalarType::Double, {1}, {-2147483649.0});
    OwnedTensor sum(c.type, {});
    ASSERT_FALSE(KernelCall().tensor(first.tensor()).none().boolean(false)
                     .integer(static_cast<int64_t>(c.type)).tensor(sum.tensor())
                     .run("aten::sum.IntList_out").failed());
    EXPECT_EQ(values_of(sum), (Values{c.expect[0]}))
        << scalar_type_name(c.type);
  }
}

// sum/cumsum with dtype= convert every element first:
// torch.sum(torch.tensor([2.7, nan, 1.9]), dtype=torch.int32) is -2147483645;
// torch.cumsum(torch.tensor([2.7, 3e9, 1.9]), 0, dtype=torch.int32) is
// [2, -2147483646, -2147483645]; with dtype=torch.uint8 and [-1.5, 300.7, inf]
// it is [255, 43, 43].
TEST(DtypeConsistency, ReductionsCastTheirInputLikeTo) {
  OwnedTensor in = make(ScalarType::Float, {3}, {2.7, kNaN, 1.9});
  OwnedTensor sum(ScalarType::Int, {});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).none().boolean(false)
                   .integer(static_cast<int64_t>(ScalarType::Int)).tensor(sum.tensor())
                   .run("aten::sum.IntList_out").failed());
  EXPECT_EQ(values_of(sum), (Values{-2147483645.0}));

  OwnedTensor big = make(ScalarType::Float, {3}, {2.7, 3e9, 1.9});
  OwnedTensor cum(ScalarType::Int, {3});
  ASSERT_FALSE(KernelCall().tensor(big.tensor()).integer(0)
                   .integer(static_cast<int64_t>(ScalarType::Int)).tensor(cum.tensor())
                   .run("aten::cumsum.out").failed());
  EXPECT_EQ(values_of(cum), (Values{2, -2147483646.0, -2147483645.0}));

  OwnedTensor odd = make(ScalarType::Float, {3}, {-1.5, 300.7, INFINITY});
  OwnedTensor cum8(ScalarType::Byte, {3});
  ASSERT_FALSE(KernelCall().tensor(odd.tensor()).integer(0)
                   .integer(static_cast<int64_t>(ScalarType::Byte)).tensor(cum8.tensor())
                   .run("aten::cumsum.out").failed());
  EXPECT_EQ(values_of(cum8), (Values{255, 43, 43}));
}

// ------------------------------------------------------------------ stored scalars

// full, masked_fill, constant_pad_nd and scatter's value all take the number
// through c10's checked_convert. constant_pad_nd and scatter used a second
// check that refused -1 for uint8 and let 1e39 overflow a float to inf.
TEST(DtypeConsistency, StoredScalarsAreCheckedTheSameEverywhere) {
  struct Case {
    ScalarType type;
    bool is_int;
    double value;
    bool fits;
    double stored;
  };
  const Case cases[] = {
      {ScalarType::Byte, true, -1, true, 255},    // torch.full((2,), -1, dtype=torch.uint8)
      {ScalarType::Byte, true, -256, false, 0},
      {ScalarType::Byte, false, -1.0, false, 0},  // only an int wraps
      {ScalarType::Char, true, 300, false, 0},
      {ScalarType::Char, false, 2.7, true, 2},
      {ScalarType::Int, false, kNaN, false, 0},
      {ScalarType::Float, false, 1e39, false, 0},
      {ScalarType::Float, false, INFINITY, true, INFINITY},
      {ScalarType::Half, false, 70000.0, false, 0},
      {ScalarType::Half, false, 65504.0, true, 65504},
      {ScalarType::BFloat16, false, 70000.0, true, 70144},
      {ScalarType::Bool, false, kNaN, true, 1},
  };
  for (const Case& c : cases) {
    auto scalar = [&](KernelCall& call) -> KernelCall& {
      return c.is_int ? call.integer(static_cast<int64_t>(c.value)) : call.real(c.value);
    };
    const char* what = scalar_type_name(c.type);
    OwnedTensor full(c.type, {2});
    KernelCall f;
    f.ints({2});
    scalar(f).tensor(full.tensor());
    EXPECT_EQ(f.run("aten::full.out").failed(), !c.fits) << what << " " << c.value;

    OwnedTensor self = make(c.type, {2}, {0, 0});
    OwnedTensor mask = make(ScalarType::Bool, {2}, {1, 1});
    OwnedTensor masked(c.type, {2});
    KernelCall m;
    m.tensor(self.tensor()).tensor(mask.tensor());
    scalar(m).tensor(masked.tensor());
    EXPECT_EQ(m.run("aten::masked_fill.Scalar_out").failed(), !c.fits) << what << " " << c.value;

    OwnedTensor padded(c.type, {3});
    KernelCall p;
    p.tensor(self.tensor()).ints({1, 0});
    scalar(p).tensor(padded.tensor());
    EXPECT_EQ(p.run("aten::constant_pad_nd.out").failed(), !c.fits) << what << " " << c.value;

    OwnedTensor index = make(ScalarType::Long, {1}, {1});
    OwnedTensor scattered(c.type, {2});
    KernelCall s;
    s.tensor(self.tensor()).integer(0).tensor(index.tensor());
    scalar(s).tensor(scattered.tensor());
    EXPECT_EQ(s.run("aten::scatter.value_out").failed(), !c.fits) << what << " " << c.value;

    if (c.fits) {
      EXPECT_EQ(values_of(full), (Values{c.stored, c.stored})) << what;
      EXPECT_EQ(values_of(masked), (Values{c.stored, c.stored})) << what;
      EXPECT_EQ(values_of(padded), (Values{c.stored, 0, 0})) << what;
      EXPECT_EQ(values_of(scattered), (Values{0, c.stored})) << what;
    }
  }
}

}  // namespace
}  // namespace ember
