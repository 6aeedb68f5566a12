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

// fill_ with a 0-d tensor is a copy (a cast, unchecked), not a Scalar fill:
// torch.zeros(3, dtype=torch.int8).fill_(torch.tensor(300)) is 44 where
// fill_(300) raises; fill_(torch.tensor(nan)) of int32 is INT32_MIN.
TEST(DtypeConsistency, FillWithTensorCastsLikeCopy) {
  struct Case {
    ScalarType value_type;
    double value;
    ScalarType out_type;
    double expect;
  };
  const Case cases[] = {
      {ScalarType::Long, 300, ScalarType::Char, 44},
      {ScalarType::Float, kNaN, ScalarType::Int, INT32_MIN},
      {ScalarType::Float, kNaN, ScalarType::Long, static_cast<double>(INT64_MIN)},
      {ScalarType::Float, -1.5, ScalarType::Byte, 255},
      {ScalarType::Float, 70000.0, ScalarType::Byte, 112},
      {ScalarType::Double, 3e9, ScalarType::Int, INT32_MIN},
      {ScalarType::Float, 70000.0, ScalarType::Half, INFINITY},
      {ScalarType::Float, 2.7, ScalarType::Bool, 1},
      {ScalarType::Bool, 1, ScalarType::Float, 1},
  };
  for (const Case& c : cases) {
    OwnedTensor value = make(c.value_type, {}, {c.value});
    OwnedTensor self(c.out_type, {3});
    OwnedTensor out(c.out_type, {3});
    ASSERT_FALSE(KernelCall().tensor(self.tensor()).tensor(value.tensor()).tensor(out.tensor())
                     .run("aten::fill.Tensor_out").failed())
        << scalar_type_name(c.out_type);
    EXPECT_EQ(values_of(out), (Values{c.expect, c.expect, c.expect}))
        << scalar_type_name(c.value_type) << " " << c.value << " -> "
        << scalar_type_name(c.out_type);
  }
  // The Scalar overload stays checked.
  OwnedTensor self(ScalarType::Char, {3});
  OwnedTensor out(ScalarType::Char, {3});
  EXPECT_TRUE(KernelCall().tensor(self.tensor()).integer(300).tensor(out.tensor())
                  .run("aten::fill.Scalar_out").failed());
}

// ------------------------------------------------------------------ scalar operands

// A half tensor filled with 0.3 holds half(0.3); comparing it with 0.3 casts
// 0.3 to half too, so it is equal (torch.full((3,), 0.3, dtype=torch.half) ==
// 0.3 is all True). eq used to compare with 0.3f and answer False, disagreeing
// with full's own conversion. The same holds for a 0-d float tensor operand.
TEST(DtypeConsistency, HalfComparesWithAScalarInHalf) {
  for (ScalarType type : {ScalarType::Half, ScalarType::BFloat16}) {
    OwnedTensor x(type, {3});
    ASSERT_FALSE(KernelCall().ints({3}).real(0.3).tensor(x.tensor()).run("aten::full.out")
                     .failed());
    OwnedTensor eq(ScalarType::Bool, {3});
    ASSERT_FALSE(KernelCall().tensor(x.tensor()).real(0.3).tensor(eq.tensor())
                     .run("aten::eq.Scalar_out").failed());
    EXPECT_EQ(values_of(eq), (Values{1, 1, 1})) << scalar_type_name(type);
    OwnedTensor lt(ScalarType::Bool, {3});
    ASSERT_FALSE(KernelCall().tensor(x.tensor()).real(0.3).tensor(lt.tensor())
                     .run("aten::lt.Scalar_out").failed());
    EXPECT_EQ(values_of(lt), (Values{0, 0, 0})) << scalar_type_name(type);
    OwnedTensor zero_dim = make(ScalarType::Float, {}, {0.3});
    OwnedTensor eq_t(ScalarType::Bool, {3});
    ASSERT_FALSE(KernelCall().tensor(x.tensor()).tensor(zero_dim.tensor()).tensor(eq_t.tensor())
                     .run("aten::eq.Tensor_out").failed());
    EXPECT_EQ(values_of(eq_t), (Values{1, 1, 1})) << scalar_type_name(type);
  }
}

// add/sub/remainder cast a Python number to half first; mul/div read it in
// float (PyTorch's original_scalar_value<opmath_t>):
//   torch.tensor([1024.], dtype=torch.half) + 0.5001          -> 1024 (not 1025)
//   torch.tensor([2.82], dtype=torch.half) * 0.3109           -> 0.876953125
//   torch.remainder(torch.tensor([7.97], dtype=torch.half), 0.5232) -> 0.1171875
TEST(DtypeConsistency, HalfScalarOperandsAreReadPerOp) {
  OwnedTensor x = make(ScalarType::Half, {1}, {1024.0});
  OwnedTensor sum(ScalarType::Half, {1});
  ASSERT_FALSE(KernelCall().tensor(x.tensor()).real(0.5001).integer(1).tensor(sum.tensor())
                   .run("aten::add.Scalar_out").failed());
  EXPECT_EQ(values_of(sum), (Values{1024.0}));

  OwnedTensor y = make(ScalarType::Half, {1}, {2.82});
  OwnedTensor prod(ScalarType::Half, {1});
  ASSERT_FALSE(KernelCall().tensor(y.tensor()).real(0.3109).tensor(prod.tensor())
                   .run("aten::mul.Scalar_out").failed());
  EXPECT_EQ(values_of(prod), (Values{0.876953125}));
  // A one-element float tensor as the second operand is read the same way.
  OwnedTensor s = make(ScalarType::Float, {}, {0.3109});
  OwnedTensor prod_t(ScalarType::Half, {1});
  ASSERT_FALSE(KernelCall().tensor(y.tensor()).tensor(s.tensor()).tensor(prod_t.tensor())
                   .run("aten::mul.out").failed());
  EXPECT_EQ(values_of(prod_t), (Values{0.876953125}));

  OwnedTensor z = make(ScalarType::Half, {1}, {7.97});
  OwnedTensor rem(ScalarType::Half, {1});
  ASSERT_FALSE(KernelCall().tensor(z.tensor()).real(0.5232).tensor(rem.tensor())
                   .run("aten::remainder.Scalar_out").failed());
  EXPECT_EQ(values_of(rem), (Values{0.1171875}));
}

// alpha is checked and cast to the dtype: add(int8, int8, alpha=300) raises;
// torch.add(torch.full((64,), 3.7, dtype=torch.half), torch.full((64,), 3.46,
// dtype=torch.half), alpha=1.7967) is 9.921875 (with a float alpha: 9.9140625).
TEST(DtypeConsistency, AlphaIsCheckedAndCast) {
  OwnedTensor a = make(ScalarType::Char, {2}, {1, 2});
  OwnedTensor out(ScalarType::Char, {2});
  EXPECT_TRUE(KernelCall().tensor(a.tensor()).tensor(a.tensor()).integer(300)
                  .tensor(out.tensor()).run("aten::add.out").failed());
  OwnedTensor u = make(ScalarType::Byte, {2}, {1, 2});
  OwnedTensor uout(ScalarType::Byte, {2});
  ASSERT_FALSE(KernelCall().tensor(u.tensor()).tensor(u.tensor()).integer(-1)
                   .tensor(uout.tensor()).run("aten::add.out").failed());
  EXPECT_EQ(values_of(uout), (Values{0, 0}));  // -1 is 255 as a uint8
  OwnedTensor h = make(ScalarType::Half, {2}, {1, 2});
  OwnedTensor hout(ScalarType::Half, {2});
  EXPECT_TRUE(KernelCall().tensor(h.tensor()).tensor(h.tensor()).real(70000.0)
                  .tensor(hout.tensor()).run("aten::add.out").failed());

  OwnedTensor x = make(ScalarType::Half, {1}, {3.7});
  OwnedTensor y = make(ScalarType::Half, {1}, {3.46});
  OwnedTensor r(ScalarType::Half, {1});
  ASSERT_FALSE(KernelCall().tensor(x.tensor()).tensor(y.tensor()).real(1.7967)
                   .tensor(r.tensor()).run("aten::add.out").failed());
  EXPECT_EQ(values_of(r), (Values{9.921875}));
}

// A result computed in half is rounded to half before it is written to a wider
// out=: torch.add(half [1024, 1], half [0.5, 1e-4], out=float32) is [1024, 1];
// torch.exp(half [1], out=float32) is 2.71875.
TEST(DtypeConsistency, ResultsRoundToTheComputeDtypeBeforeAWiderOut) {
  OwnedTensor a = make(ScalarType::Half, {2}, {1024.0, 1.0});
  OwnedTensor b = make(ScalarType::Half, {2}, {0.5, 1e-4});
  OwnedTensor out(ScalarType::Float, {2});
  ASSERT_FALSE(KernelCall().tensor(a.tensor()).tensor(b.tensor()).integer(1)
                   .tensor(out.tensor()).run("aten::add.out").failed());
  EXPECT_EQ(values_of(out), (Values{1024.0, 1.0}));
  OwnedTensor one = make(ScalarType::Half, {1}, {1.0});
  OwnedTensor e(ScalarType::Float, {1});
  ASSERT_FALSE(KernelCall().tensor(one.tensor()).tensor(e.tensor()).run("aten::exp.out").failed());
  EXPECT_EQ(values_of(e), (Values{2.71875}));
  // int8 arithmetic wraps in int8 even into an int32 out: 100 + 100 is -56.
  OwnedTensor i = make(ScalarType::Char, {1}, {100});
  OwnedTensor wide(ScalarType::Int, {1});
  ASSERT_FALSE(KernelCall().tensor(i.tensor()).tensor(i.tensor()).integer(1)
                   .tensor(wide.tensor()).run("aten::add.out").failed());
  EXPECT_EQ(values_of(wide), (Values{-56}));
}

// addmm reads beta and alpha as Scalar::to<opmath_t>: checked against int8 for
// int8 (alpha=300 raises), against float for half (alpha=70000 is fine and
// overflows the result to inf), and an integer tensor truncates a float one.
TEST(DtypeConsistency, AddmmCoefficientsAreCheckedInOpmath) {
  OwnedTensor i8 = make(ScalarType::Char, {1, 1}, {1});
  OwnedTensor i8out(ScalarType::Char, {1, 1});
  EXPECT_TRUE(KernelCall().tensor(i8.tensor()).tensor(i8.tensor()).tensor(i8.tensor())
                  .integer(1).integer(300).tensor(i8out.tensor()).run("aten::addmm.out")
                  .failed());
  OwnedTensor i32 = make(ScalarType::Int, {1, 1}, {1});
  OwnedTensor i32out(ScalarType::Int, {1, 1});
  ASSERT_FALSE(KernelCall().tensor(i32.tensor()).tensor(i32.tensor()).tensor(i32.tensor())
                   .integer(1).real(2.5).tensor(i32out.tensor()).run("aten::addmm.out")
                   .failed());
  EXPECT_EQ(values_of(i32out), (Values{3}));  // torch.addmm(a, a, a, alpha=2.5) for int32 ones
  OwnedTensor h = make(ScalarType::Half, {1, 1}, {1});
  OwnedTensor hout(ScalarType::Half, {1, 1});
  ASSERT_FALSE(KernelCall().tensor(h.tensor()).tensor(h.tensor()).tensor(h.tensor())
                   .integer(1).real(70000.0).tensor(hout.tensor()).run("aten::addmm.out")
                   .failed());
  EXPECT_EQ(values_of(hout), (Values{INFINITY}));
  OwnedTensor f = make(ScalarType::Float, {1, 1}, {1});
  OwnedTensor fout(ScalarType::Float, {1, 1});
  EXPECT_TRUE(KernelCall().tensor(f.tensor()).tensor(f.tensor()).tensor(f.tensor())
                  .integer(1).real(1e39).tensor(fout.tensor()).run("aten::addmm.out").failed());
}

}  // namespace
}  // namespace ember
