// Tests for the elementwise kernels (binary, compare, unary, activation and
// fill ops). Hand-written tests cover layouts, broadcasting, resizing and
// failure paths; the tables at the end hold cases computed by PyTorch 2.13
// through the same out-variants (see the generator note there).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/half.h"
#include "runtime/core/scalar_type.h"
#include "tests/cpp/tensor_factory.h"

namespace ember {
namespace {

using testing::KernelCall;
using testing::OwnedTensor;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// --- reading and writing any dtype as double ----------------------------------

void set_element(Tensor& t, int64_t offset, double v) {
  void* p = t.mutable_data_ptr();
  switch (t.scalar_type()) {
    case ScalarType::Byte: static_cast<uint8_t*>(p)[offset] = static_cast<uint8_t>(static_cast<int64_t>(v)); break;
    case ScalarType::Char: static_cast<int8_t*>(p)[offset] = static_cast<int8_t>(v); break;
    case ScalarType::Short: static_cast<int16_t*>(p)[offset] = static_cast<int16_t>(v); break;
    case ScalarType::Int: static_cast<int32_t*>(p)[offset] = static_cast<int32_t>(v); break;
    case ScalarType::Long: static_cast<int64_t*>(p)[offset] = static_cast<int64_t>(v); break;
    case ScalarType::Half: static_cast<Half*>(p)[offset] = Half(static_cast<float>(v)); break;
    case ScalarType::BFloat16: static_cast<BFloat16*>(p)[offset] = BFloat16(static_cast<float>(v)); break;
    case ScalarType::Float: static_cast<float*>(p)[offset] = static_cast<float>(v); break;
    case ScalarType::Double: static_cast<double*>(p)[offset] = v; break;
    case ScalarType::Bool: static_cast<bool*>(p)[offset] = v != 0; break;
    default: FAIL() << "unexpected dtype";
  }
}

double get_element(const Tensor& t, int64_t offset) {
  const void* p = t.const_data_ptr();
  switch (t.scalar_type()) {
    case ScalarType::Byte: return static_cast<const uint8_t*>(p)[offset];
    case ScalarType::Char: return static_cast<const int8_t*>(p)[offset];
    case ScalarType::Short: return static_cast<const int16_t*>(p)[offset];
    case ScalarType::Int: return static_cast<const int32_t*>(p)[offset];
    case ScalarType::Long: return static_cast<double>(static_cast<const int64_t*>(p)[offset]);
    case ScalarType::Half: return static_cast<float>(static_cast<const Half*>(p)[offset]);
    case ScalarType::BFloat16: return static_cast<float>(static_cast<const BFloat16*>(p)[offset]);
    case ScalarType::Float: return static_cast<const float*>(p)[offset];
    case ScalarType::Double: return static_cast<const double*>(p)[offset];
    case ScalarType::Bool: return static_cast<const bool*>(p)[offset] ? 1.0 : 0.0;
    default: ADD_FAILURE() << "unexpected dtype"; return 0;
  }
}

// Offset of the element at row-major logical index `i`, through the strides
// (so tensors in any dim order read and write logically).
int64_t offset_of(const Tensor& t, int64_t i) {
  int64_t offset = 0;
  for (int d = t.dim() - 1; d >= 0; --d) {
    offset += (i % t.size(d)) * t.stride(d);
    i /= t.size(d);
  }
  return offset;
}

void fill_logical(Tensor& t, const std::vector<double>& values) {
  ASSERT_EQ(static_cast<int64_t>(values.size()), t.numel());
  for (int64_t i = 0; i < t.numel(); ++i) set_element(t, offset_of(t, i), values[i]);
}

std::vector<double> logical_values(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(get_element(t, offset_of(t, i)));
  return out;
}

std::vector<int32_t> sizes_of(const Tensor& t) {
  return std::vector<int32_t>(t.sizes().begin(), t.sizes().end());
}

std::unique_ptr<OwnedTensor> make(ScalarType dtype, std::vector<int32_t> sizes,
                                  const std::vector<double>& values,
                                  std::vector<uint8_t> dim_order = {}) {
  auto t = std::make_unique<OwnedTensor>(dtype, std::move(sizes), TensorShapeDynamism::Static,
                                         std::move(dim_order));
  fill_logical(t->tensor(), values);
  return t;
}

// Equality within the precision of `dtype`; NaN matches NaN, infinities match exactly.
bool close(double actual, double expected, ScalarType dtype) {
  if (std::isnan(expected)) return std::isnan(actual);
  if (std::isinf(expected) || std::isinf(actual)) return actual == expected;
  double rel = 0;
  switch (dtype) {
    case ScalarType::Float: rel = 1e-5; break;
    case ScalarType::Double: rel = 1e-12; break;
    case ScalarType::Half: rel = 2e-3; break;
    case ScalarType::BFloat16: rel = 1.6e-2; break;
    default: return actual == expected;
  }
  return std::fabs(actual - expected) <= rel * (1 + std::fabs(expected));
}

// `precision` is the dtype the values were computed in (out's by default).
void expect_values(const Tensor& t, const std::vector<double>& expected,
                   ScalarType precision) {
  const std::vector<double> actual = logical_values(t);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_TRUE(close(actual[i], expected[i], precision))
        << "element " << i << ": got " << actual[i] << ", expected " << expected[i] << " ("
        << scalar_type_name(t.scalar_type()) << ")";
  }
}

void expect_values(const Tensor& t, const std::vector<double>& expected) {
  expect_values(t, expected, t.scalar_type());
}

// --- broadcasting, layouts and resizing ------------------------------------------

TEST(ElementwiseBroadcast, ColumnPlusRowFillsMatrix) {
  auto a = make(ScalarType::Float, {4, 1}, {1, 2, 3, 4});
  auto b = make(ScalarType::Float, {3}, {10, 20, 30});
  OwnedTensor out(ScalarType::Float, {4, 3});
  KernelContext ctx = KernelCall().tensor(a->tensor()).tensor(b->tensor()).integer(1).tensor(
      out.tensor()).run("aten::add.out");
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  expect_values(out.tensor(), {11, 21, 31, 12, 22, 32, 13, 23, 33, 14, 24, 34});
}

TEST(ElementwiseBroadcast, ZeroDimOperands) {
  auto a = make(ScalarType::Float, {}, {2.5});
  auto b = make(ScalarType::Float, {}, {4});
  OwnedTensor out(ScalarType::Float, {});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(b->tensor()).tensor(out.tensor())
                   .run("aten::mul.out").failed());
  expect_values(out.tensor(), {10});

  // A 0-d operand broadcasts against any shape.
  auto c = make(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  OwnedTensor out2(ScalarType::Float, {2, 2});
  ASSERT_FALSE(KernelCall().tensor(c->tensor()).tensor(a->tensor()).tensor(out2.tensor())
                   .run("aten::mul.out").failed());
  expect_values(out2.tensor(), {2.5, 5, 7.5, 10});
}

TEST(ElementwiseBroadcast, EmptyResultWritesNothing) {
  auto a = make(ScalarType::Float, {0, 3}, {});
  auto b = make(ScalarType::Float, {3}, {1, 2, 3});
  OwnedTensor out(ScalarType::Float, {0, 3});
  KernelContext ctx = KernelCall().tensor(a->tensor()).tensor(b->tensor()).integer(1).tensor(
      out.tensor()).run("aten::add.out");
  EXPECT_FALSE(ctx.failed()) << ctx.message();
  EXPECT_EQ(out.tensor().numel(), 0);
}

// Reference loop: out[i, j, k] = a[i, 0, k] * b[j, 0] + c[k] over [2, 3, 4].
TEST(ElementwiseBroadcast, ThreeOperandsAgainstReferenceLoop) {
  std::vector<double> av, bv, cv, condv;
  for (int i = 0; i < 8; ++i) av.push_back(i * 0.5 - 2);
  for (int i = 0; i < 3; ++i) bv.push_back(i + 1);
  for (int i = 0; i < 4; ++i) cv.push_back(-i);
  for (int i = 0; i < 12; ++i) condv.push_back(i % 3 == 0);
  auto a = make(ScalarType::Float, {2, 1, 4}, av);
  auto b = make(ScalarType::Float, {3, 1}, bv);
  auto cond = make(ScalarType::Bool, {3, 4}, condv);
  auto c = make(ScalarType::Float, {4}, cv);
  OwnedTensor prod(ScalarType::Float, {2, 3, 4});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(b->tensor()).tensor(prod.tensor())
                   .run("aten::mul.out").failed());
  OwnedTensor out(ScalarType::Float, {2, 3, 4});
  KernelContext ctx = KernelCall().tensor(cond->tensor()).tensor(prod.tensor()).tensor(
      c->tensor()).tensor(out.tensor()).run("aten::where.self_out");
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  std::vector<double> expected;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 4; ++k) {
        expected.push_back(condv[j * 4 + k] != 0 ? av[i * 4 + k] * bv[j] : cv[k]);
      }
    }
  }
  expect_values(out.tensor(), expected);
}

TEST(ElementwiseBroadcast, IncompatibleShapesFail) {
  auto a = make(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto b = make(ScalarType::Float, {2}, {1, 2});
  OwnedTensor out(ScalarType::Float, {2, 3});
  KernelContext ctx = KernelCall().tensor(a->tensor()).tensor(b->tensor()).integer(1).tensor(
      out.tensor()).run("aten::add.out");
  EXPECT_TRUE(ctx.failed());
  EXPECT_NE(std::string(ctx.message()).find("add.out"), std::string::npos) << ctx.message();
}

// Channels-last style layouts: every operand in dim order {1, 0}, then mixed
// with a contiguous operand and output (the strided path).
TEST(ElementwiseLayout, AnyDimOrderIsIndexedLogically) {
  const std::vector<double> av = {1, 2, 3, 4, 5, 6};
  const std::vector<double> bv = {10, 20, 30, 40, 50, 60};
  auto a = make(ScalarType::Float, {2, 3}, av, {1, 0});
  auto b = make(ScalarType::Float, {2, 3}, bv, {1, 0});
  OwnedTensor out(ScalarType::Float, {2, 3}, TensorShapeDynamism::Static, {1, 0});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(b->tensor()).integer(1)
                   .tensor(out.tensor()).run("aten::add.out").failed());
  expect_values(out.tensor(), {11, 22, 33, 44, 55, 66});
  // Memory order differs from logical order: element (0, 1) is at offset 2.
  EXPECT_EQ(out.data<float>()[2], 22.0f);

  auto c = make(ScalarType::Float, {2, 3}, bv);
  OwnedTensor mixed(ScalarType::Float, {2, 3});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(c->tensor()).integer(1)
                   .tensor(mixed.tensor()).run("aten::add.out").failed());
  expect_values(mixed.tensor(), {11, 22, 33, 44, 55, 66});

  auto row = make(ScalarType::Float, {3}, {100, 200, 300});
  OwnedTensor bcast(ScalarType::Float, {2, 3}, TensorShapeDynamism::Static, {1, 0});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(row->tensor()).integer(1)
                   .tensor(bcast.tensor()).run("aten::add.out").failed());
  expect_values(bcast.tensor(), {101, 202, 303, 104, 205, 306});
}

TEST(ElementwiseLayout, OutputMayAliasAnInput) {
  auto a = make(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto b = make(ScalarType::Float, {2}, {10, 20});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(b->tensor()).integer(1)
                   .tensor(a->tensor()).run("aten::add.out").failed());
  expect_values(a->tensor(), {11, 22, 13, 24});
}

TEST(ElementwiseResize, DynamicOutputTakesTheResultShape) {
  auto a = make(ScalarType::Float, {2, 1}, {1, 2});
  auto b = make(ScalarType::Float, {3}, {1, 2, 3});
  OwnedTensor out(ScalarType::Float, {4, 4}, TensorShapeDynamism::DynamicBound);
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(b->tensor()).tensor(out.tensor())
                   .run("aten::mul.out").failed());
  EXPECT_EQ(sizes_of(out.tensor()), (std::vector<int32_t>{2, 3}));
  expect_values(out.tensor(), {1, 2, 3, 2, 4, 6});

  OwnedTensor relu_out(ScalarType::Float, {8, 8}, TensorShapeDynamism::DynamicBound);
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(relu_out.tensor())
                   .run("aten::relu.out").failed());
  EXPECT_EQ(sizes_of(relu_out.tensor()), (std::vector<int32_t>{2, 1}));
}

TEST(ElementwiseResize, OutputThatCannotTakeTheShapeFails) {
  auto a = make(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  OwnedTensor wrong_static(ScalarType::Float, {3, 2});
  EXPECT_TRUE(KernelCall().tensor(a->tensor()).tensor(a->tensor()).tensor(wrong_static.tensor())
                  .run("aten::mul.out").failed());
  OwnedTensor wrong_rank(ScalarType::Float, {6}, TensorShapeDynamism::DynamicBound);
  EXPECT_TRUE(KernelCall().tensor(a->tensor()).tensor(wrong_rank.tensor())
                  .run("aten::exp.out").failed());
  // Room for 2 floats plus the helper's 64 spare bytes: too small for 6x6.
  auto big = make(ScalarType::Float, {6, 6}, std::vector<double>(36, 1.0));
  OwnedTensor small(ScalarType::Float, {1, 2}, TensorShapeDynamism::DynamicBound);
  EXPECT_TRUE(KernelCall().tensor(big->tensor()).tensor(small.tensor())
                  .run("aten::neg.out").failed());
}

// --- dtype rules and hand-computed values for the ops models use first --------------

TEST(ElementwiseBinary, AddWithAlphaAndPromotion) {
  auto a = make(ScalarType::Int, {3}, {1, 2, 3});
  auto b = make(ScalarType::Float, {3}, {0.5, 0.25, -1});
  OwnedTensor out(ScalarType::Float, {3});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(b->tensor()).integer(2)
                   .tensor(out.tensor()).run("aten::add.out").failed());
  expect_values(out.tensor(), {2, 2.5, 1});

  // A float Scalar promotes an integer tensor to Float; an int Scalar does not.
  OwnedTensor fout(ScalarType::Float, {3});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).real(0.5).integer(1).tensor(fout.tensor())
                   .run("aten::add.Scalar_out").failed());
  expect_values(fout.tensor(), {1.5, 2.5, 3.5});
  OwnedTensor iout(ScalarType::Int, {3});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).integer(5).integer(1).tensor(iout.tensor())
                   .run("aten::add.Scalar_out").failed());
  expect_values(iout.tensor(), {6, 7, 8});
  // ... so an Int output cannot hold int + 0.5.
  EXPECT_TRUE(KernelCall().tensor(a->tensor()).real(0.5).integer(1).tensor(iout.tensor())
                  .run("aten::add.Scalar_out").failed());
}

TEST(ElementwiseBinary, IntegerOverflowWraps) {
  const double int_max = std::numeric_limits<int32_t>::max();
  auto a = make(ScalarType::Int, {2}, {int_max, -int_max - 1});
  auto one = make(ScalarType::Int, {}, {1});
  OwnedTensor out(ScalarType::Int, {2});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(one->tensor()).integer(1)
                   .tensor(out.tensor()).run("aten::add.out").failed());
  expect_values(out.tensor(), {-int_max - 1, -int_max});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).integer(2).tensor(out.tensor())
                   .run("aten::mul.Scalar_out").failed());
  expect_values(out.tensor(), {-2, 0});
}

TEST(ElementwiseBinary, SubAndMulHalf) {
  auto a = make(ScalarType::Half, {2, 2}, {1, 2, 3, 4});
  auto b = make(ScalarType::Half, {2}, {0.5, 0.25});
  OwnedTensor sub(ScalarType::Half, {2, 2});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(b->tensor()).integer(1)
                   .tensor(sub.tensor()).run("aten::sub.out").failed());
  expect_values(sub.tensor(), {0.5, 1.75, 2.5, 3.75});
  OwnedTensor mul(ScalarType::BFloat16, {2, 2});
  auto c = make(ScalarType::BFloat16, {2, 2}, {1, 2, 3, 4});
  ASSERT_FALSE(KernelCall().tensor(c->tensor()).real(0.5).tensor(mul.tensor())
                   .run("aten::mul.Scalar_out").failed());
  expect_values(mul.tensor(), {0.5, 1, 1.5, 2});
}

TEST(ElementwiseBinary, IntegerTrueDivisionGivesFloat) {
  auto a = make(ScalarType::Long, {3}, {7, -7, 1});
  auto b = make(ScalarType::Long, {3}, {2, 2, 0});
  OwnedTensor out(ScalarType::Float, {3});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(b->tensor()).tensor(out.tensor())
                   .run("aten::div.out").failed());
  expect_values(out.tensor(), {3.5, -3.5, kInf});
  OwnedTensor long_out(ScalarType::Long, {3});
  EXPECT_TRUE(KernelCall().tensor(a->tensor()).tensor(b->tensor()).tensor(long_out.tensor())
                  .run("aten::div.out").failed());
}

TEST(ElementwiseBinary, RoundingDivisionKeepsIntegersAndRejectsZero) {
  auto a = make(ScalarType::Int, {4}, {7, -7, 7, -7});
  auto b = make(ScalarType::Int, {4}, {2, 2, -2, -2});
  OwnedTensor out(ScalarType::Int, {4});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(b->tensor()).string("trunc")
                   .tensor(out.tensor()).run("aten::div.out_mode").failed());
  expect_values(out.tensor(), {3, -3, -3, 3});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(b->tensor()).string("floor")
                   .tensor(out.tensor()).run("aten::div.out_mode").failed());
  expect_values(out.tensor(), {3, -4, -4, 3});

  auto zero = make(ScalarType::Int, {}, {0});
  KernelContext ctx = KernelCall().tensor(a->tensor()).tensor(zero->tensor()).string("floor")
                          .tensor(out.tensor()).run("aten::div.out_mode");
  EXPECT_TRUE(ctx.failed());
  EXPECT_NE(std::string(ctx.message()).find("division by zero"), std::string::npos);
  EXPECT_TRUE(KernelCall().tensor(a->tensor()).tensor(b->tensor()).string("round")
                  .tensor(out.tensor()).run("aten::div.out_mode").failed());
}

// torch traps (SIGFPE) on INT64_MIN / -1; the kernels wrap like the other
// integer overflows instead.
TEST(ElementwiseBinary, MostNegativeIntegerOverMinusOneDoesNotTrap) {
  const double min64 = static_cast<double>(std::numeric_limits<int64_t>::min());
  auto a = make(ScalarType::Long, {1}, {min64});
  auto m1 = make(ScalarType::Long, {1}, {-1});
  OwnedTensor out(ScalarType::Long, {1});
  for (const char* mode : {"trunc", "floor"}) {
    ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(m1->tensor()).string(mode)
                     .tensor(out.tensor()).run("aten::div.out_mode").failed());
    expect_values(out.tensor(), {min64});
  }
  for (const char* op : {"aten::remainder.Tensor_out", "aten::fmod.Tensor_out"}) {
    ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(m1->tensor()).tensor(out.tensor())
                     .run(op).failed());
    expect_values(out.tensor(), {0});
  }
}

TEST(ElementwiseCompare, EqScalarWritesBool) {
  auto a = make(ScalarType::Long, {4}, {0, 1, 2, 1});
  OwnedTensor out(ScalarType::Bool, {4});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).integer(1).tensor(out.tensor())
                   .run("aten::eq.Scalar_out").failed());
  expect_values(out.tensor(), {0, 1, 0, 1});
  // Compared in the promoted type: no Long equals 1.5.
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).real(1.5).tensor(out.tensor())
                   .run("aten::lt.Scalar_out").failed());
  expect_values(out.tensor(), {1, 1, 0, 1});
}

TEST(ElementwiseUnary, LogicalNotOfAnyDtype) {
  auto f = make(ScalarType::Float, {4}, {0, -0.0, 2, kNaN});
  OwnedTensor out(ScalarType::Bool, {4});
  ASSERT_FALSE(KernelCall().tensor(f->tensor()).tensor(out.tensor())
                   .run("aten::logical_not.out").failed());
  expect_values(out.tensor(), {1, 1, 0, 0});
  auto b = make(ScalarType::Bool, {2}, {1, 0});
  OwnedTensor bout(ScalarType::Bool, {2});
  ASSERT_FALSE(KernelCall().tensor(b->tensor()).tensor(bout.tensor())
                   .run("aten::logical_not.out").failed());
  expect_values(bout.tensor(), {0, 1});
}

TEST(ElementwiseUnary, FloatOpsOnIntegersGiveFloat) {
  auto a = make(ScalarType::Int, {3}, {0, 1, 4});
  OwnedTensor out(ScalarType::Float, {3});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(out.tensor()).run("aten::sqrt.out")
                   .failed());
  expect_values(out.tensor(), {0, 1, 2});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(out.tensor()).run("aten::rsqrt.out")
                   .failed());
  expect_values(out.tensor(), {kInf, 1, 0.5});
  OwnedTensor int_out(ScalarType::Int, {3});
  EXPECT_TRUE(KernelCall().tensor(a->tensor()).tensor(int_out.tensor()).run("aten::exp.out")
                  .failed());
}

TEST(ElementwiseUnary, SigmoidTanhExpHandleExtremes) {
  auto a = make(ScalarType::Float, {5}, {-1000, -1, 0, 1, 1000});
  OwnedTensor out(ScalarType::Float, {5});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(out.tensor()).run("aten::sigmoid.out")
                   .failed());
  expect_values(out.tensor(), {0, 1 / (1 + std::exp(1.0)), 0.5, 1 / (1 + std::exp(-1.0)), 1});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(out.tensor()).run("aten::tanh.out")
                   .failed());
  expect_values(out.tensor(), {-1, std::tanh(-1.0), 0, std::tanh(1.0), 1});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(out.tensor()).run("aten::exp.out")
                   .failed());
  expect_values(out.tensor(), {0, std::exp(-1.0), 1, std::exp(1.0), kInf});
}

TEST(ElementwiseActivation, ReluHardtanhClampKeepNaN) {
  auto a = make(ScalarType::Float, {4}, {-2, 0.5, 7, kNaN});
  OwnedTensor out(ScalarType::Float, {4});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).tensor(out.tensor()).run("aten::relu.out")
                   .failed());
  expect_values(out.tensor(), {0, 0.5, 7, kNaN});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).real(0).real(6).tensor(out.tensor())
                   .run("aten::hardtanh.out").failed());
  expect_values(out.tensor(), {0, 0.5, 6, kNaN});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).none().real(1).tensor(out.tensor())
                   .run("aten::clamp.out").failed());
  expect_values(out.tensor(), {-2, 0.5, 1, kNaN});
  EXPECT_TRUE(KernelCall().tensor(a->tensor()).none().none().tensor(out.tensor())
                  .run("aten::clamp.out").failed());
}

TEST(ElementwiseActivation, GeluBothApproximations) {
  auto a = make(ScalarType::Float, {3}, {-1, 0, 2});
  OwnedTensor out(ScalarType::Float, {3});
  auto gelu = [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); };
  auto gelu_tanh = [](double x) {
    return 0.5 * x * (1 + std::tanh(std::sqrt(2 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
  };
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).string("none").tensor(out.tensor())
                   .run("aten::gelu.out").failed());
  expect_values(out.tensor(), {gelu(-1), 0, gelu(2)});
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).string("tanh").tensor(out.tensor())
                   .run("aten::gelu.out").failed());
  expect_values(out.tensor(), {gelu_tanh(-1), 0, gelu_tanh(2)});
}

TEST(ElementwiseFill, FullLikeAndWhere) {
  auto a = make(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  OwnedTensor out(ScalarType::Long, {3, 3}, TensorShapeDynamism::DynamicBound);
  ASSERT_FALSE(KernelCall().tensor(a->tensor()).integer(-7).none().tensor(out.tensor())
                   .run("aten::full_like.out").failed());
  EXPECT_EQ(sizes_of(out.tensor()), (std::vector<int32_t>{2, 2}));
  expect_values(out.tensor(), {-7, -7, -7, -7});

  auto cond = make(ScalarType::Bool, {2, 1}, {1, 0});
  auto other = make(ScalarType::Float, {}, {-1});
  OwnedTensor w(ScalarType::Float, {2, 2});
  ASSERT_FALSE(KernelCall().tensor(cond->tensor()).tensor(a->tensor()).tensor(other->tensor())
                   .tensor(w.tensor()).run("aten::where.self_out").failed());
  expect_values(w.tensor(), {1, 2, -1, -1});
}

TEST(ElementwiseFill, FullTakesTheRequestedShape) {
  OwnedTensor out(ScalarType::Half, {4, 4}, TensorShapeDynamism::DynamicBound);
  ASSERT_FALSE(KernelCall().ints({3, 2}).real(0.5).tensor(out.tensor()).run("aten::full.out")
                   .failed());
  EXPECT_EQ(sizes_of(out.tensor()), (std::vector<int32_t>{3, 2}));
  expect_values(out.tensor(), std::vector<double>(6, 0.5));
  EXPECT_TRUE(KernelCall().ints({-1, 2}).real(0.5).tensor(out.tensor()).run("aten::full.out")
                  .failed());
  EXPECT_TRUE(KernelCall().ints({2}).real(0.5).tensor(out.tensor()).run("aten::full.out")
                  .failed());
}

TEST(ElementwiseDtype, UnsupportedDtypesFailCleanly) {
  OwnedTensor q(ScalarType::QInt8, {2});
  OwnedTensor f(ScalarType::Float, {2});
  OwnedTensor qout(ScalarType::QInt8, {2});
  KernelContext ctx = KernelCall().tensor(q.tensor()).tensor(f.tensor()).integer(1)
                          .tensor(f.tensor()).run("aten::add.out");
  EXPECT_TRUE(ctx.failed());
  EXPECT_EQ(ctx.error(), Error::NotSupported);
  EXPECT_TRUE(KernelCall().tensor(q.tensor()).tensor(f.tensor()).run("aten::exp.out").failed());
  EXPECT_TRUE(KernelCall().tensor(f.tensor()).tensor(qout.tensor()).run("aten::exp.out")
                  .failed());
  EXPECT_TRUE(KernelCall().tensor(q.tensor()).tensor(f.tensor()).run("aten::logical_not.out")
                  .failed());
  EXPECT_TRUE(KernelCall().tensor(f.tensor()).tensor(f.tensor()).tensor(qout.tensor())
                  .run("aten::eq.Tensor_out").failed());
  EXPECT_TRUE(KernelCall().ints({2}).integer(1).tensor(qout.tensor()).run("aten::full.out")
                  .failed());
}

TEST(ElementwiseDtype, OutputDtypeRulesFollowTorch) {
  auto i = make(ScalarType::Int, {2}, {1, -2});
  OwnedTensor f(ScalarType::Float, {2});
  // neg keeps its dtype, so out must match; exp's Float result may widen.
  EXPECT_TRUE(KernelCall().tensor(i->tensor()).tensor(f.tensor()).run("aten::neg.out").failed());
  OwnedTensor d(ScalarType::Double, {2});
  ASSERT_FALSE(KernelCall().tensor(i->tensor()).tensor(d.tensor()).run("aten::exp.out").failed());
  expect_values(d.tensor(), {std::exp(1.0f), std::exp(-2.0f)});
  // Comparisons may write any dtype.
  ASSERT_FALSE(KernelCall().tensor(i->tensor()).integer(1).tensor(f.tensor())
                   .run("aten::ge.Scalar_out").failed());
  expect_values(f.tensor(), {1, 0});
  // isnan writes Bool only.
  EXPECT_TRUE(KernelCall().tensor(f.tensor()).tensor(d.tensor()).run("aten::isnan.out")
                  .failed());
}

// --- cases computed by PyTorch ------------------------------------------------------
//
// Each case calls one out-variant with its arguments in schema order and
// compares with what torch.ops.aten.<op>.<overload>(..., out=...) wrote, or
// expects the kernel to fail where torch raised (the comment says why). The
// output starts with a different shape (it is dynamic, with room to spare),
// so every case also checks that the kernel resizes it. Tolerances follow the
// least precise float dtype involved (see close()). The cases were generated
// by a script (small random tensors per dtype, plus NaN/inf/overflow and
// error cases); to add one, compute it with torch and append it in the same
// form.

struct TensorSpec {
  ScalarType dtype;
  std::vector<int32_t> sizes;
  std::vector<double> values;
};

struct ArgSpec {
  enum class Kind { kTensor, kInt, kReal, kBool, kNone, kString, kInts };
  ArgSpec(TensorSpec t) : kind(Kind::kTensor), tensor(std::move(t)) {}  // NOLINT
  ArgSpec(Kind k) : kind(k) {}                                          // NOLINT
  Kind kind;
  TensorSpec tensor{};
  int64_t integer = 0;
  double real = 0;
  std::string string;
  std::vector<int64_t> ints;
};

struct Expected {
  Expected(TensorSpec t) : out(std::move(t)) {}  // NOLINT
  Expected(TensorSpec t, bool f) : out(std::move(t)), fails(f) {}
  TensorSpec out;
  bool fails = false;
};

struct TorchCase {
  const char* op;
  std::vector<ArgSpec> args;
  Expected expected;
};

TensorSpec T(ScalarType dtype, std::vector<int32_t> sizes, std::vector<double> values) {
  return {dtype, std::move(sizes), std::move(values)};
}
ArgSpec I(int64_t v) {
  ArgSpec a(ArgSpec::Kind::kInt);
  a.integer = v;
  return a;
}
ArgSpec R(double v) {
  ArgSpec a(ArgSpec::Kind::kReal);
  a.real = v;
  return a;
}
ArgSpec B(bool v) {
  ArgSpec a(ArgSpec::Kind::kBool);
  a.integer = v;
  return a;
}
ArgSpec S(const char* s) {
  ArgSpec a(ArgSpec::Kind::kString);
  a.string = s;
  return a;
}
ArgSpec L(std::vector<int64_t> v) {
  ArgSpec a(ArgSpec::Kind::kInts);
  a.ints = std::move(v);
  return a;
}
ArgSpec None() { return ArgSpec(ArgSpec::Kind::kNone); }
Expected Fails(ScalarType dtype, std::vector<int32_t> sizes) {
  return Expected(TensorSpec{dtype, std::move(sizes), {}}, true);
}

// The least precise float dtype among the tensors: a Float result written
// to a Double output is only as exact as Float.
ScalarType precision_of(const TorchCase& c) {
  auto rank = [](ScalarType t) {
    switch (t) {
      case ScalarType::BFloat16: return 0;
      case ScalarType::Half: return 1;
      case ScalarType::Float: return 2;
      case ScalarType::Double: return 3;
      default: return 4;
    }
  };
  ScalarType p = c.expected.out.dtype;
  if (rank(p) == 4) return p;
  for (const ArgSpec& a : c.args) {
    if (a.kind == ArgSpec::Kind::kTensor && rank(a.tensor.dtype) < rank(p)) p = a.tensor.dtype;
  }
  return p;
}

void run_case(const TorchCase& c) {
  std::vector<std::unique_ptr<OwnedTensor>> owned;
  KernelCall call;
  for (const ArgSpec& a : c.args) {
    switch (a.kind) {
      case ArgSpec::Kind::kTensor:
        owned.push_back(make(a.tensor.dtype, a.tensor.sizes, a.tensor.values));
        call.tensor(owned.back()->tensor());
        break;
      case ArgSpec::Kind::kInt: call.integer(a.integer); break;
      case ArgSpec::Kind::kReal: call.real(a.real); break;
      case ArgSpec::Kind::kBool: call.boolean(a.integer != 0); break;
      case ArgSpec::Kind::kNone: call.none(); break;
      case ArgSpec::Kind::kString: call.string(a.string.c_str()); break;
      case ArgSpec::Kind::kInts: call.ints(a.ints); break;
    }
  }
  // Start from a larger shape of the same rank so that the kernel must resize.
  std::vector<int32_t> start = c.expected.out.sizes;
  for (int32_t& s : start) s += 1;
  OwnedTensor out(c.expected.out.dtype, start, TensorShapeDynamism::DynamicBound);
  call.tensor(out.tensor());
  KernelContext ctx = call.run(c.op);
  if (c.expected.fails) {
    EXPECT_TRUE(ctx.failed()) << "torch raised, the kernel did not";
    EXPECT_NE(ctx.message()[0], '\0');
    return;
  }
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  EXPECT_EQ(sizes_of(out.tensor()), c.expected.out.sizes);
  expect_values(out.tensor(), c.expected.out.values, precision_of(c));
}

void run_cases(const std::vector<TorchCase>& cases) {
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(::testing::Message() << "case " << i << ": " << cases[i].op);
    run_case(cases[i]);
  }
}

// clang-format off
const std::vector<TorchCase>& binary_cases() {
  static const std::vector<TorchCase> cases = {
      {"aten::add.out", {T(ScalarType::Float, {2, 3}, {2.07, 1.55, -0.48, -1.45, 0.07, -0.57}), T(ScalarType::Float, {3}, {1.7, -1.18, -0.14}), I(1)}, T(ScalarType::Float, {2, 3}, {3.77, 0.37, -0.62, 0.25, -1.1099999, -0.71})},
      {"aten::mul.out", {T(ScalarType::Float, {2, 1}, {0.5, 2.45}), T(ScalarType::Float, {3}, {0.03, -1.31, 1.53})}, T(ScalarType::Float, {2, 3}, {0.015, -0.655, 0.765, 0.0735, -3.2094998, 3.7485})},
      {"aten::sub.out", {T(ScalarType::Float, {2, 3}, {0.71, -1.5, 2.46, 2.9, 1.86, 2.41}), T(ScalarType::Float, {2, 3}, {-1.14, 1.38, 2.39, 1.1, -0.17, -2.4}), I(1)}, T(ScalarType::Float, {2, 3}, {1.8499999, -2.88, 0.06999993, 1.8000001, 2.03, 4.8100004})},
      {"aten::maximum.out", {T(ScalarType::Float, {2, 3}, {-0.39, 0.67, 2.48, 2.8, -0.14, 2.19}), T(ScalarType::Float, {1, 3}, {-1.44, 1.83, 0.29})}, T(ScalarType::Float, {2, 3}, {-0.39, 1.83, 2.48, 2.8, 1.83, 2.19})},
      {"aten::minimum.out", {T(ScalarType::Float, {3}, {-2.92, 1.32, -0.61}), T(ScalarType::Float, {2, 3}, {1.95, 1.01, -2.99, -0.04, 2.21, -1.54})}, T(ScalarType::Float, {2, 3}, {-2.92, 1.01, -2.99, -2.92, 1.32, -1.54})},
      {"aten::div.out", {T(ScalarType::Float, {2, 3}, {-1.05, 2.22, -1.85, 0.41, -1.57, 2.81}), T(ScalarType::Float, {3}, {1.82, -0.31, -2.52})}, T(ScalarType::Float, {2, 3}, {-0.576923, -7.16129, 0.734127, 0.22527471, 5.064516, -1.1150794})},
      {"aten::add.out", {T(ScalarType::Int, {2, 3}, {0, 3, 2, -4, -1, 3}), T(ScalarType::Int, {3}, {-1, -4, 3}), I(1)}, T(ScalarType::Int, {2, 3}, {-1, -1, 5, -5, -5, 6})},
      {"aten::mul.out", {T(ScalarType::Int, {2, 1}, {0, 3}), T(ScalarType::Int, {3}, {-2, 4, 3})}, T(ScalarType::Int, {2, 3}, {0, 0, 0, -6, 12, 9})},
      {"aten::sub.out", {T(ScalarType::Int, {2, 3}, {4, -1, 2, -4, 4, 1}), T(ScalarType::Int, {2, 3}, {0, 4, -2, -1, -3, -2}), I(1)}, T(ScalarType::Int, {2, 3}, {4, -5, 4, -3, 7, 3})},
      {"aten::maximum.out", {T(ScalarType::Int, {2, 3}, {-3, -5, 4, 5, -1, 2}), T(ScalarType::Int, {1, 3}, {-4, -4, 5})}, T(ScalarType::Int, {2, 3}, {-3, -4, 5, 5, -1, 5})},
      {"aten::minimum.out", {T(ScalarType::Int, {3}, {-3, -3, -5}), T(ScalarType::Int, {2, 3}, {-4, 3, 5, 1, 3, -1})}, T(ScalarType::Int, {2, 3}, {-4, -3, -5, -3, -3, -5})},
      {"aten::div.out", {T(ScalarType::Int, {2, 3}, {3, -2, -2, 5, 4, 1}), T(ScalarType::Int, {3}, {4, -1, 2})}, T(ScalarType::Float, {2, 3}, {0.75, 2.0, -1.0, 1.25, -4.0, 0.5})},
      {"aten::add.out", {T(ScalarType::Half, {2, 3}, {-0.04, 0.85, 1.2, 2.89, -0.86, -1.05}), T(ScalarType::Half, {3}, {-2.31, 0.52, -0.99}), I(1)}, T(ScalarType::Half, {2, 3}, {-2.35, 1.37, 0.21, 0.58, -0.3398, -2.04})},
      {"aten::mul.out", {T(ScalarType::Half, {2, 1}, {-1.86, -2.9}), T(ScalarType::Half, {3}, {-1.37, 1.23, -0.77})}, T(ScalarType::Half, {2, 3}, {2.549, -2.29, 1.433, 3.975, -3.568, 2.232})},
      {"aten::sub.out", {T(ScalarType::Half, {2, 3}, {-1.98, -0.44, -2.63, 1.7, 2.13, -1.69}), T(ScalarType::Half, {2, 3}, {1.9, 0.81, 2.62, 0.61, -2.56, -2.25}), I(1)}, T(ScalarType::Half, {2, 3}, {-3.88, -1.25, -5.25, 1.09, 4.69, 0.5596})},
      {"aten::maximum.out", {T(ScalarType::Half, {2, 3}, {-1.87, 1.98, -2.28, -2.45, 2.0, -2.3}), T(ScalarType::Half, {1, 3}, {0.63, -1.83, 2.82})}, T(ScalarType::Half, {2, 3}, {0.63, 1.98, 2.82, 0.63, 2.0, 2.82})},
      {"aten::minimum.out", {T(ScalarType::Half, {3}, {1.31, -0.12, 1.36}), T(ScalarType::Half, {2, 3}, {-2.63, 1.08, 0.27, 0.72, 2.02, -2.58})}, T(ScalarType::Half, {2, 3}, {-2.63, -0.12, 0.27, 0.72, -0.12, -2.58})},
      {"aten::div.out", {T(ScalarType::Half, {2, 3}, {-2.57, -1.19, -0.38, -2.63, -0.2, 0.58}), T(ScalarType::Half, {3}, {1.2, -0.65, -1.44})}, T(ScalarType::Half, {2, 3}, {-2.14, 1.832, 0.2637, -2.191, 0.3076, -0.4028})},
      {"aten::add.out", {T(ScalarType::BFloat16, {2, 3}, {2.4375, -0.1796875, 2.40625, 0.41992188, 1.1875, -1.78125}), T(ScalarType::BFloat16, {3}, {1.6015625, 1.7265625, -2.046875}), I(1)}, T(ScalarType::BFloat16, {2, 3}, {4.03125, 1.546875, 0.359375, 2.015625, 2.90625, -3.828125})},
      {"aten::mul.out", {T(ScalarType::BFloat16, {2, 1}, {-2.03125, 0.1796875}), T(ScalarType::BFloat16, {3}, {-2.296875, 2.53125, 0.98828125})}, T(ScalarType::BFloat16, {2, 3}, {4.65625, -5.15625, -2.0, -0.41210938, 0.45507812, 0.17773438})},
      {"aten::sub.out", {T(ScalarType::BFloat16, {2, 3}, {-2.921875, 1.09375, 2.40625, 2.25, 2.515625, 0.890625}), T(ScalarType::BFloat16, {2, 3}, {-0.671875, 0.94921875, -2.078125, 1.140625, -0.25, -2.53125}), I(1)}, T(ScalarType::BFloat16, {2, 3}, {-2.25, 0.14453125, 4.5, 1.109375, 2.765625, 3.421875})},
      {"aten::maximum.out", {T(ScalarType::BFloat16, {2, 3}, {1.4296875, 0.26953125, -2.1875, 1.5703125, -0.10986328, 0.66015625}), T(ScalarType::BFloat16, {1, 3}, {1.0390625, 0.5390625, 2.34375})}, T(ScalarType::BFloat16, {2, 3}, {1.4296875, 0.5390625, 2.34375, 1.5703125, 0.5390625, 2.34375})},
      {"aten::minimum.out", {T(ScalarType::BFloat16, {3}, {2.125, -2.203125, -1.140625}), T(ScalarType::BFloat16, {2, 3}, {1.4921875, 1.96875, -2.515625, 0.5703125, 1.1875, -2.046875})}, T(ScalarType::BFloat16, {2, 3}, {1.4921875, -2.203125, -2.515625, 0.5703125, -2.203125, -2.046875})},
      {"aten::div.out", {T(ScalarType::BFloat16, {2, 3}, {-1.65625, -0.31054688, 1.2578125, 1.0390625, 2.25, -2.8125}), T(ScalarType::BFloat16, {3}, {2.234375, 0.40039062, 1.6328125})}, T(ScalarType::BFloat16, {2, 3}, {-0.7421875, -0.77734375, 0.76953125, 0.46484375, 5.625, -1.71875})},
      {"aten::add.out", {T(ScalarType::Double, {2, 3}, {1.25, -2.01, -2.62, 1.21, -0.32, 2.31}), T(ScalarType::Double, {3}, {2.45, 0.62, -3.0}), I(1)}, T(ScalarType::Double, {2, 3}, {3.7, -1.3899999999999997, -5.62, 3.66, 0.3, -0.69})},
      {"aten::mul.out", {T(ScalarType::Double, {2, 1}, {-2.77, -1.04}), T(ScalarType::Double, {3}, {2.03, -2.7, 1.94})}, T(ScalarType::Double, {2, 3}, {-5.623099999999999, 7.479000000000001, -5.3738, -2.1111999999999997, 2.8080000000000003, -2.0176})},
      {"aten::sub.out", {T(ScalarType::Double, {2, 3}, {2.85, -0.51, 0.29, 2.78, 2.87, 2.02}), T(ScalarType::Double, {2, 3}, {-2.22, -2.91, 2.7, -0.5, -2.98, -2.91}), I(1)}, T(ScalarType::Double, {2, 3}, {5.07, 2.4000000000000004, -2.41, 3.28, 5.85, 4.93})},
      {"aten::maximum.out", {T(ScalarType::Double, {2, 3}, {1.53, 2.88, 1.05, 0.67, -1.86, 0.65}), T(ScalarType::Double, {1, 3}, {-1.81, -1.19, 1.13})}, T(ScalarType::Double, {2, 3}, {1.53, 2.88, 1.13, 0.67, -1.19, 1.13})},
      {"aten::minimum.out", {T(ScalarType::Double, {3}, {-1.91, -0.15, 2.54}), T(ScalarType::Double, {2, 3}, {0.77, -2.87, 2.48, 1.8, -2.31, -1.46})}, T(ScalarType::Double, {2, 3}, {-1.91, -2.87, 2.48, -1.91, -2.31, -1.46})},
      {"aten::div.out", {T(ScalarType::Double, {2, 3}, {0.92, 1.9, 0.87, -2.31, -2.07, 2.11}), T(ScalarType::Double, {3}, {-2.75, -1.77, -1.44})}, T(ScalarType::Double, {2, 3}, {-0.33454545454545453, -1.0734463276836157, -0.6041666666666667, 0.84, 1.1694915254237288, -1.4652777777777777})},
      {"aten::add.out", {T(ScalarType::Long, {2, 3}, {0, 0, 4, -5, 4, 5}), T(ScalarType::Long, {3}, {2, 5, 2}), I(1)}, T(ScalarType::Long, {2, 3}, {2, 5, 6, -3, 9, 7})},
      {"aten::mul.out", {T(ScalarType::Long, {2, 1}, {5, 1}), T(ScalarType::Long, {3}, {0, 3, -3})}, T(ScalarType::Long, {2, 3}, {0, 15, -15, 0, 3, -3})},
      {"aten::sub.out", {T(ScalarType::Long, {2, 3}, {-2, 1, 4, -1, -5, -3}), T(ScalarType::Long, {2, 3}, {-3, -1, 0, 0, 0, -4}), I(1)}, T(ScalarType::Long, {2, 3}, {1, 2, 4, -1, -5, 1})},
      {"aten::maximum.out", {T(ScalarType::Long, {2, 3}, {0, 4, -5, -5, -1, -3}), T(ScalarType::Long, {1, 3}, {-3, 4, -1})}, T(ScalarType::Long, {2, 3}, {0, 4, -1, -3, 4, -1})},
      {"aten::minimum.out", {T(ScalarType::Long, {3}, {0, 1, 3}), T(ScalarType::Long, {2, 3}, {-3, -1, -4, 2, -2, -5})}, T(ScalarType::Long, {2, 3}, {-3, -1, -4, 0, -2, -5})},
      {"aten::div.out", {T(ScalarType::Long, {2, 3}, {-1, -3, 3, -4, -1, 1}), T(ScalarType::Long, {3}, {1, -1, 1})}, T(ScalarType::Float, {2, 3}, {-1.0, 3.0, 3.0, -4.0, 1.0, 1.0})},
      {"aten::add.out", {T(ScalarType::Byte, {2, 3}, {1, 1, 8, 7, 7, 5}), T(ScalarType::Byte, {3}, {5, 1, 7}), I(1)}, T(ScalarType::Byte, {2, 3}, {6, 2, 15, 12, 8, 12})},
      {"aten::mul.out", {T(ScalarType::Byte, {2, 1}, {1, 7}), T(ScalarType::Byte, {3}, {6, 0, 4})}, T(ScalarType::Byte, {2, 3}, {6, 0, 4, 42, 0, 28})},
      {"aten::sub.out", {T(ScalarType::Byte, {2, 3}, {5, 10, 2, 2, 10, 9}), T(ScalarType::Byte, {2, 3}, {6, 10, 1, 1, 1, 3}), I(1)}, T(ScalarType::Byte, {2, 3}, {255, 0, 1, 1, 9, 6})},
      {"aten::maximum.out", {T(ScalarType::Byte, {2, 3}, {3, 0, 6, 0, 1, 6}), T(ScalarType::Byte, {1, 3}, {8, 8, 4})}, T(ScalarType::Byte, {2, 3}, {8, 8, 6, 8, 8, 6})},
      {"aten::minimum.out", {T(ScalarType::Byte, {3}, {7, 7, 9}), T(ScalarType::Byte, {2, 3}, {10, 3, 6, 1, 5, 3})}, T(ScalarType::Byte, {2, 3}, {7, 3, 6, 1, 5, 3})},
      {"aten::div.out", {T(ScalarType::Byte, {2, 3}, {4, 9, 2, 6, 3, 5}), T(ScalarType::Byte, {3}, {1, 1, 1})}, T(ScalarType::Float, {2, 3}, {4.0, 9.0, 2.0, 6.0, 3.0, 5.0})},
      {"aten::add.out", {T(ScalarType::Char, {2, 3}, {3, 2, 5, -2, -4, 2}), T(ScalarType::Char, {3}, {1, -1, -2}), I(1)}, T(ScalarType::Char, {2, 3}, {4, 1, 3, -1, -5, 0})},
      {"aten::mul.out", {T(ScalarType::Char, {2, 1}, {5, -5}), T(ScalarType::Char, {3}, {-2, 4, -3})}, T(ScalarType::Char, {2, 3}, {-10, 20, -15, 10, -20, 15})},
      {"aten::sub.out", {T(ScalarType::Char, {2, 3}, {-4, -2, 2, 1, 0, 3}), T(ScalarType::Char, {2, 3}, {-3, -4, 4, 2, -3, 4}), I(1)}, T(ScalarType::Char, {2, 3}, {-1, 2, -2, -1, 3, -1})},
      {"aten::maximum.out", {T(ScalarType::Char, {2, 3}, {1, 5, 5, 1, 3, 2}), T(ScalarType::Char, {1, 3}, {5, 0, 2})}, T(ScalarType::Char, {2, 3}, {5, 5, 5, 5, 3, 2})},
      {"aten::minimum.out", {T(ScalarType::Char, {3}, {2, 5, 5}), T(ScalarType::Char, {2, 3}, {-2, 3, 4, -2, -5, 0})}, T(ScalarType::Char, {2, 3}, {-2, 3, 4, -2, -5, 0})},
      {"aten::div.out", {T(ScalarType::Char, {2, 3}, {0, 0, -5, 3, -3, -1}), T(ScalarType::Char, {3}, {4, -3, 1})}, T(ScalarType::Float, {2, 3}, {0.0, -0.0, -5.0, 0.75, 1.0, -1.0})},
      {"aten::add.out", {T(ScalarType::Short, {2, 3}, {4, -1, 2, -4, -4, 3}), T(ScalarType::Short, {3}, {-5, -4, -2}), I(1)}, T(ScalarType::Short, {2, 3}, {-1, -5, 0, -9, -8, 1})},
      {"aten::mul.out", {T(ScalarType::Short, {2, 1}, {-3, -5}), T(ScalarType::Short, {3}, {-1, -5, 2})}, T(ScalarType::Short, {2, 3}, {3, 15, -6, 5, 25, -10})},
      {"aten::sub.out", {T(ScalarType::Short, {2, 3}, {0, -3, -3, 5, 2, 0}), T(ScalarType::Short, {2, 3}, {3, 1, 3, 3, -5, 4}), I(1)}, T(ScalarType::Short, {2, 3}, {-3, -4, -6, 2, 7, -4})},
      {"aten::maximum.out", {T(ScalarType::Short, {2, 3}, {-4, 5, 3, 4, -4, 1}), T(ScalarType::Short, {1, 3}, {-2, -1, 3})}, T(ScalarType::Short, {2, 3}, {-2, 5, 3, 4, -1, 3})},
      {"aten::minimum.out", {T(ScalarType::Short, {3}, {4, 1, 2}), T(ScalarType::Short, {2, 3}, {1, 4, 4, -2, -5, 5})}, T(ScalarType::Short, {2, 3}, {1, 1, 2, -2, -5, 2})},
      {"aten::div.out", {T(ScalarType::Short, {2, 3}, {-5, -3, -1, 3, 4, -1}), T(ScalarType::Short, {3}, {1, -4, 2})}, T(ScalarType::Float, {2, 3}, {-5.0, 0.75, -0.5, 3.0, -1.0, -0.5})},
      {"aten::add.out", {T(ScalarType::Bool, {2, 3}, {0, 0, 1, 1, 0, 1}), T(ScalarType::Bool, {3}, {0, 1, 1}), I(1)}, T(ScalarType::Bool, {2, 3}, {0, 1, 1, 1, 1, 1})},
      {"aten::mul.out", {T(ScalarType::Bool, {2, 1}, {0, 1}), T(ScalarType::Bool, {3}, {1, 1, 1})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 1, 1, 1})},
      {"aten::sub.out", {T(ScalarType::Bool, {2, 3}, {0, 0, 0, 1, 0, 1}), T(ScalarType::Bool, {2, 3}, {0, 1, 1, 1, 1, 1}), I(1)}, Fails(ScalarType::Bool, {2, 3})},  // Subtraction, the `-` operator, with two bool tensors is not 
      {"aten::maximum.out", {T(ScalarType::Bool, {2, 3}, {0, 0, 1, 0, 1, 1}), T(ScalarType::Bool, {1, 3}, {0, 1, 0})}, T(ScalarType::Bool, {2, 3}, {0, 1, 1, 0, 1, 1})},
      {"aten::minimum.out", {T(ScalarType::Bool, {3}, {0, 1, 0}), T(ScalarType::Bool, {2, 3}, {1, 1, 0, 0, 0, 1})}, T(ScalarType::Bool, {2, 3}, {0, 1, 0, 0, 0, 0})},
      {"aten::div.out", {T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0}), T(ScalarType::Bool, {3}, {0, 0, 1})}, T(ScalarType::Float, {2, 3}, {kNaN, kNaN, 0.0, kNaN, kNaN, 0.0})},
      {"aten::add.out", {T(ScalarType::Float, {2, 3}, {1.69, -0.33, 1.54, -0.27, 1.74, -2.55}), T(ScalarType::Float, {3}, {-2.73, 2.61, -0.08}), R(2.5)}, T(ScalarType::Float, {2, 3}, {-5.135, 6.1949997, 1.3399999, -7.0950003, 8.264999, -2.75})},
      {"aten::add.out", {T(ScalarType::Int, {4}, {-5, 3, 5, 4}), T(ScalarType::Long, {4}, {4, -2, -2, -4}), I(3)}, T(ScalarType::Long, {4}, {7, -3, -1, -8})},
      {"aten::add.out", {T(ScalarType::Int, {4}, {5, 3, 3, 1}), T(ScalarType::Float, {4}, {0.04, 2.67, -2.13, 2.35}), I(1)}, T(ScalarType::Float, {4}, {5.04, 5.67, 0.8699999, 3.35})},
      {"aten::add.out", {T(ScalarType::Half, {4}, {-0.47, -2.5, -2.37, -2.62}), T(ScalarType::Float, {}, {-0.51}), I(1)}, T(ScalarType::Half, {4}, {-0.9795, -3.01, -2.879, -3.129})},
      {"aten::add.out", {T(ScalarType::Int, {4}, {-3, -5, 2, 1}), T(ScalarType::Long, {}, {5}), I(1)}, T(ScalarType::Int, {4}, {2, 0, 7, 6})},
      {"aten::add.out", {T(ScalarType::Int, {4}, {1, -5, 2, 0}), T(ScalarType::Double, {}, {1.34}), I(1)}, T(ScalarType::Double, {4}, {2.34, -3.66, 3.34, 1.34})},
      {"aten::add.out", {T(ScalarType::Bool, {4}, {1, 1, 1, 1}), T(ScalarType::Byte, {4}, {5, 2, 0, 3}), I(1)}, T(ScalarType::Byte, {4}, {6, 3, 1, 4})},
      {"aten::add.out", {T(ScalarType::Int, {4}, {0, -4, 4, -3}), T(ScalarType::Int, {4}, {-2, -5, -2, 5}), R(0.5)}, Fails(ScalarType::Int, {4})},  // For integral input tensors, argument alpha must not be a flo
      {"aten::add.out", {T(ScalarType::Float, {4}, {1.04, 2.63, -2.26, -2.96}), T(ScalarType::Float, {4}, {-0.79, -2.85, 0.63, 2.16}), B(true)}, Fails(ScalarType::Float, {4})},  // Boolean alpha only supported for Boolean results.
      {"aten::add.out", {T(ScalarType::Float, {3}, {-1.88, -2.33, -0.93}), T(ScalarType::Float, {3}, {2.76, -2.22, 2.8}), I(1)}, T(ScalarType::Double, {3}, {0.8799999952316284, -4.550000190734863, 1.869999885559082})},
      {"aten::add.out", {T(ScalarType::Float, {3}, {-0.83, -0.16, -1.24}), T(ScalarType::Float, {3}, {2.62, 2.75, 0.82}), I(1)}, Fails(ScalarType::Int, {3})},  // result type Float can't be cast to the desired output type I
      {"aten::add.out", {T(ScalarType::Float, {}, {-1.9}), T(ScalarType::Float, {}, {2.96}), I(1)}, T(ScalarType::Float, {}, {1.0600001})},
      {"aten::add.out", {T(ScalarType::Float, {0, 3}, {}), T(ScalarType::Float, {3}, {-2.38, 0.49, -2.06}), I(1)}, T(ScalarType::Float, {0, 3}, {})},
      {"aten::add.out", {T(ScalarType::Float, {2, 3}, {2.39, 2.67, 1.83, -1.1, -1.54, 1.53}), T(ScalarType::Float, {2}, {-1.25, -0.48}), I(1)}, Fails(ScalarType::Float, {2, 3})},  // The size of tensor a (3) must match the size of tensor b (2)
      {"aten::add.Scalar_out", {T(ScalarType::Float, {2, 3}, {-2.72, -2.21, -2.88, -2.53, -2.56, -0.48}), I(2), I(1)}, T(ScalarType::Float, {2, 3}, {-0.72, -0.21000004, -0.8800001, -0.53, -0.55999994, 1.52})},
      {"aten::add.Scalar_out", {T(ScalarType::Float, {2, 3}, {0.3, 1.45, -2.15, -0.47, 0.82, -2.49}), R(1.5), I(1)}, T(ScalarType::Float, {2, 3}, {1.8, 2.95, -0.6500001, 1.03, 2.32, -0.99})},
      {"aten::mul.Scalar_out", {T(ScalarType::Float, {2, 3}, {-0.33, -0.78, 2.69, -2.65, -0.55, -0.5}), I(3)}, T(ScalarType::Float, {2, 3}, {-0.99, -2.34, 8.07, -7.9500003, -1.6500001, -1.5})},
      {"aten::mul.Scalar_out", {T(ScalarType::Float, {2, 3}, {1.37, -1.08, -1.78, -1.24, -0.17, 2.7}), R(-0.5)}, T(ScalarType::Float, {2, 3}, {-0.685, 0.54, 0.89, 0.62, 0.085, -1.35})},
      {"aten::sub.Scalar_out", {T(ScalarType::Float, {4}, {1.78, -1.34, 0.35, 1.13}), I(2), I(2)}, T(ScalarType::Float, {4}, {-2.22, -5.34, -3.65, -2.87})},
      {"aten::div.Scalar_out", {T(ScalarType::Float, {4}, {1.77, -0.32, -0.61, 1.61}), I(4)}, T(ScalarType::Float, {4}, {0.4425, -0.08, -0.1525, 0.4025})},
      {"aten::add.Scalar_out", {T(ScalarType::Int, {2, 3}, {1, -3, -2, 2, 0, 3}), I(2), I(1)}, T(ScalarType::Int, {2, 3}, {3, -1, 0, 4, 2, 5})},
      {"aten::add.Scalar_out", {T(ScalarType::Int, {2, 3}, {-3, 0, 2, 5, 5, -4}), R(1.5), I(1)}, T(ScalarType::Float, {2, 3}, {-1.5, 1.5, 3.5, 6.5, 6.5, -2.5})},
      {"aten::mul.Scalar_out", {T(ScalarType::Int, {2, 3}, {2, -2, -1, -5, 2, 4}), I(3)}, T(ScalarType::Int, {2, 3}, {6, -6, -3, -15, 6, 12})},
      {"aten::mul.Scalar_out", {T(ScalarType::Int, {2, 3}, {2, -5, -2, -1, -4, 5}), R(-0.5)}, T(ScalarType::Float, {2, 3}, {-1.0, 2.5, 1.0, 0.5, 2.0, -2.5})},
      {"aten::sub.Scalar_out", {T(ScalarType::Int, {4}, {-1, 3, 4, -3}), I(2), I(2)}, T(ScalarType::Int, {4}, {-5, -1, 0, -7})},
      {"aten::div.Scalar_out", {T(ScalarType::Int, {4}, {1, 2, -4, 5}), I(4)}, T(ScalarType::Float, {4}, {0.25, 0.5, -1.0, 1.25})},
      {"aten::add.Scalar_out", {T(ScalarType::Byte, {2, 3}, {7, 3, 8, 6, 4, 10}), I(2), I(1)}, T(ScalarType::Byte, {2, 3}, {9, 5, 10, 8, 6, 12})},
      {"aten::add.Scalar_out", {T(ScalarType::Byte, {2, 3}, {0, 1, 4, 10, 0, 0}), R(1.5), I(1)}, T(ScalarType::Float, {2, 3}, {1.5, 2.5, 5.5, 11.5, 1.5, 1.5})},
      {"aten::mul.Scalar_out", {T(ScalarType::Byte, {2, 3}, {4, 6, 8, 9, 6, 7}), I(3)}, T(ScalarType::Byte, {2, 3}, {12, 18, 24, 27, 18, 21})},
      {"aten::mul.Scalar_out", {T(ScalarType::Byte, {2, 3}, {1, 4, 5, 4, 10, 3}), R(-0.5)}, T(ScalarType::Float, {2, 3}, {-0.5, -2.0, -2.5, -2.0, -5.0, -1.5})},
      {"aten::sub.Scalar_out", {T(ScalarType::Byte, {4}, {9, 1, 0, 1}), I(2), I(2)}, T(ScalarType::Byte, {4}, {5, 253, 252, 253})},
      {"aten::div.Scalar_out", {T(ScalarType::Byte, {4}, {4, 4, 8, 5}), I(4)}, T(ScalarType::Float, {4}, {1.0, 1.0, 2.0, 1.25})},
      {"aten::add.Scalar_out", {T(ScalarType::Half, {2, 3}, {-2.29, 2.16, 2.34, 1.57, -2.59, 2.17}), I(2), I(1)}, T(ScalarType::Half, {2, 3}, {-0.289, 4.16, 4.34, 3.57, -0.59, 4.17})},
      {"aten::add.Scalar_out", {T(ScalarType::Half, {2, 3}, {-1.3, -2.19, 0.14, -1.74, -2.37, 2.73}), R(1.5), I(1)}, T(ScalarType::Half, {2, 3}, {0.2002, -0.6895, 1.64, -0.2402, -0.869, 4.23})},
      {"aten::mul.Scalar_out", {T(ScalarType::Half, {2, 3}, {0.26, 1.45, 2.42, -1.33, -0.35, 0.41}), I(3)}, T(ScalarType::Half, {2, 3}, {0.7803, 4.35, 7.258, -3.99, -1.051, 1.2295})},
      {"aten::mul.Scalar_out", {T(ScalarType::Half, {2, 3}, {-2.17, -2.26, -2.28, -0.59, -0.19, 0.36}), R(-0.5)}, T(ScalarType::Half, {2, 3}, {1.085, 1.13, 1.14, 0.295, 0.095, -0.18})},
      {"aten::sub.Scalar_out", {T(ScalarType::Half, {4}, {-1.21, 0.79, 1.45, -1.69}), I(2), I(2)}, T(ScalarType::Half, {4}, {-5.21, -3.21, -2.55, -5.69})},
      {"aten::div.Scalar_out", {T(ScalarType::Half, {4}, {-0.07, 0.01, -0.04, 2.75}), I(4)}, T(ScalarType::Half, {4}, {-0.0175, 0.0025, -0.01, 0.6875})},
      {"aten::add.Scalar_out", {T(ScalarType::Bool, {2, 3}, {1, 1, 1, 0, 1, 1}), I(2), I(1)}, T(ScalarType::Long, {2, 3}, {3, 3, 3, 2, 3, 3})},
      {"aten::add.Scalar_out", {T(ScalarType::Bool, {2, 3}, {1, 0, 0, 0, 0, 1}), R(1.5), I(1)}, T(ScalarType::Float, {2, 3}, {2.5, 1.5, 1.5, 1.5, 1.5, 2.5})},
      {"aten::mul.Scalar_out", {T(ScalarType::Bool, {2, 3}, {0, 0, 1, 1, 1, 1}), I(3)}, T(ScalarType::Long, {2, 3}, {0, 0, 3, 3, 3, 3})},
      {"aten::mul.Scalar_out", {T(ScalarType::Bool, {2, 3}, {1, 0, 1, 0, 1, 0}), R(-0.5)}, T(ScalarType::Float, {2, 3}, {-0.5, -0.0, -0.5, -0.0, -0.5, -0.0})},
      {"aten::sub.Scalar_out", {T(ScalarType::Bool, {4}, {1, 1, 0, 1}), I(2), I(2)}, Fails(ScalarType::Bool, {4})},  // Subtraction, the `-` operator, with a bool tensor is not sup
      {"aten::div.Scalar_out", {T(ScalarType::Bool, {4}, {1, 0, 0, 1}), I(4)}, T(ScalarType::Float, {4}, {0.25, 0.0, 0.0, 0.25})},
      {"aten::add.Scalar_out", {T(ScalarType::Long, {2, 3}, {-3, 3, 0, -3, -2, -3}), I(2), I(1)}, T(ScalarType::Long, {2, 3}, {-1, 5, 2, -1, 0, -1})},
      {"aten::add.Scalar_out", {T(ScalarType::Long, {2, 3}, {2, 0, 1, 1, 2, 1}), R(1.5), I(1)}, T(ScalarType::Float, {2, 3}, {3.5, 1.5, 2.5, 2.5, 3.5, 2.5})},
      {"aten::mul.Scalar_out", {T(ScalarType::Long, {2, 3}, {-2, -2, 2, -2, 4, -5}), I(3)}, T(ScalarType::Long, {2, 3}, {-6, -6, 6, -6, 12, -15})},
      {"aten::mul.Scalar_out", {T(ScalarType::Long, {2, 3}, {1, -5, -2, 5, -4, -3}), R(-0.5)}, T(ScalarType::Float, {2, 3}, {-0.5, 2.5, 1.0, -2.5, 2.0, 1.5})},
      {"aten::sub.Scalar_out", {T(ScalarType::Long, {4}, {0, -5, 5, 5}), I(2), I(2)}, T(ScalarType::Long, {4}, {-4, -9, 1, 1})},
      {"aten::div.Scalar_out", {T(ScalarType::Long, {4}, {-3, -2, 4, -1}), I(4)}, T(ScalarType::Float, {4}, {-0.75, -0.5, 1.0, -0.25})},
      {"aten::add.Scalar_out", {T(ScalarType::Char, {3}, {1, 100, -100}), I(1000), I(1)}, T(ScalarType::Char, {3}, {-23, 76, -124})},
      {"aten::add.Scalar_out", {T(ScalarType::Byte, {3}, {1, 2, 3}), I(-1), I(1)}, T(ScalarType::Byte, {3}, {0, 1, 2})},
      {"aten::add.Scalar_out", {T(ScalarType::Float, {3}, {0.68, 1.23, 0.07}), B(true), I(1)}, T(ScalarType::Float, {3}, {1.6800001, 2.23, 1.07})},
      {"aten::mul.Scalar_out", {T(ScalarType::Bool, {3}, {1, 0, 1}), B(true)}, T(ScalarType::Bool, {3}, {1, 0, 1})},
      {"aten::mul.Scalar_out", {T(ScalarType::Int, {2}, {2, 3}), I(1099511627776)}, T(ScalarType::Int, {2}, {0, 0})},
      {"aten::rsub.Tensor_out", {T(ScalarType::Float, {2, 3}, {-0.25, 0.79, 0.1, 2.74, 2.73, 2.58}), T(ScalarType::Float, {3}, {2.6, 0.49, -0.06}), I(2)}, T(ScalarType::Float, {2, 3}, {3.1, -1.09, -0.26, -2.88, -4.9700003, -5.22})},
      {"aten::rsub.Tensor_out", {T(ScalarType::Int, {2, 3}, {2, -2, 0, -1, -5, -5}), T(ScalarType::Int, {3}, {-5, -3, 0}), I(2)}, T(ScalarType::Int, {2, 3}, {-9, 1, 0, -3, 7, 10})},
      {"aten::rsub.Scalar_out", {T(ScalarType::Long, {2}, {-5, -1}), I(1), I(2)}, T(ScalarType::Long, {2}, {11, 3})},
      {"aten::rsub.Scalar_out", {T(ScalarType::Half, {3}, {0.93, -2.16, 1.72}), R(1.5), I(1)}, T(ScalarType::Half, {3}, {0.57, 3.66, -0.2197})},
      {"aten::rsub.Scalar_out", {T(ScalarType::Bool, {3}, {0, 0, 1}), I(1), I(1)}, Fails(ScalarType::Bool, {3})},  // Subtraction, the `-` operator, with a bool tensor is not sup
      {"aten::div.out", {T(ScalarType::Float, {4}, {1.0, -1.0, 0.0, 5.0}), T(ScalarType::Float, {4}, {0.0, 0.0, 0.0, 2.0})}, T(ScalarType::Float, {4}, {kInf, -kInf, kNaN, 2.5})},
      {"aten::div.out", {T(ScalarType::Int, {4}, {7, -7, 7, -7}), T(ScalarType::Int, {4}, {2, 2, -2, -2})}, T(ScalarType::Float, {4}, {3.5, -3.5, -3.5, 3.5})},
      {"aten::div.out", {T(ScalarType::Int, {2}, {1, 0}), T(ScalarType::Int, {2}, {0, 0})}, T(ScalarType::Float, {2}, {kInf, kNaN})},
      {"aten::div.Scalar_out", {T(ScalarType::Long, {3}, {-2, 2, -2}), R(2.5)}, T(ScalarType::Float, {3}, {-0.8, 0.8, -0.8})},
      {"aten::div.out_mode", {T(ScalarType::Float, {2, 3}, {-0.96, -2.39, 2.3, 1.77, -1.06, -0.27}), T(ScalarType::Float, {3}, {-1.05, -2.83, -2.73}), S("trunc")}, T(ScalarType::Float, {2, 3}, {0.0, 0.0, -0.0, -1.0, 0.0, 0.0})},
      {"aten::div.out_mode", {T(ScalarType::Double, {2, 3}, {-0.79, -1.74, 0.15, -1.87, -1.79, 1.04}), T(ScalarType::Double, {3}, {1.41, -1.13, 2.16}), S("trunc")}, T(ScalarType::Double, {2, 3}, {-0.0, 1.0, 0.0, -1.0, 1.0, 0.0})},
      {"aten::div.out_mode", {T(ScalarType::Half, {2, 3}, {-1.47, -0.94, 1.27, -2.73, 2.61, -2.57}), T(ScalarType::Half, {3}, {-0.23, 1.35, -2.72}), S("trunc")}, T(ScalarType::Half, {2, 3}, {6.0, -0.0, -0.0, 11.0, 1.0, 0.0})},
      {"aten::div.out_mode", {T(ScalarType::BFloat16, {2, 3}, {1.8515625, 2.875, -0.24023438, -2.296875, -2.515625, -2.40625}), T(ScalarType::BFloat16, {3}, {1.59375, -0.51953125, 2.515625}), S("trunc")}, T(ScalarType::BFloat16, {2, 3}, {1.0, -5.0, -0.0, -1.0, 4.0, -0.0})},
      {"aten::div.out_mode", {T(ScalarType::Int, {2, 3}, {2, 4, -4, 1, 3, 1}), T(ScalarType::Int, {3}, {-5, -3, -2}), S("trunc")}, T(ScalarType::Int, {2, 3}, {0, -1, 2, 0, -1, 0})},
      {"aten::div.out_mode", {T(ScalarType::Long, {2, 3}, {2, -2, -3, -1, 0, 0}), T(ScalarType::Long, {3}, {1, -4, 3}), S("trunc")}, T(ScalarType::Long, {2, 3}, {2, 0, -1, -1, 0, 0})},
      {"aten::div.out_mode", {T(ScalarType::Char, {2, 3}, {-1, 4, 3, -2, -1, 2}), T(ScalarType::Char, {3}, {3, 4, 2}), S("trunc")}, T(ScalarType::Char, {2, 3}, {0, 1, 1, 0, 0, 1})},
      {"aten::div.out_mode", {T(ScalarType::Byte, {2, 3}, {8, 10, 4, 4, 3, 0}), T(ScalarType::Byte, {3}, {1, 9, 1}), S("trunc")}, T(ScalarType::Byte, {2, 3}, {8, 1, 4, 4, 0, 0})},
      {"aten::div.out_mode", {T(ScalarType::Short, {2, 3}, {-3, 1, -2, -2, -1, 5}), T(ScalarType::Short, {3}, {-5, 3, 3}), S("trunc")}, T(ScalarType::Short, {2, 3}, {0, 0, 0, 0, 0, 1})},
      {"aten::div.out_mode", {T(ScalarType::Int, {4}, {7, -7, 7, -7}), T(ScalarType::Int, {4}, {2, 2, -2, -2}), S("trunc")}, T(ScalarType::Int, {4}, {3, -3, -3, 3})},
      {"aten::div.out_mode", {T(ScalarType::Float, {6}, {5.0, -5.0, 5.0, -5.0, 1.0, -1.0}), T(ScalarType::Float, {6}, {3.0, 3.0, -3.0, -3.0, 0.0, 0.0}), S("trunc")}, T(ScalarType::Float, {6}, {1.0, -1.0, -1.0, 1.0, kInf, -kInf})},
      {"aten::div.out_mode", {T(ScalarType::Int, {2}, {1, 2}), T(ScalarType::Int, {2}, {1, 0}), S("trunc")}, Fails(ScalarType::Int, {2})},  // ZeroDivisionError
      {"aten::div.Scalar_mode_out", {T(ScalarType::Char, {2}, {5, -5}), R(2.5), S("trunc")}, T(ScalarType::Float, {2}, {2.0, -2.0})},
      {"aten::div.Scalar_mode_out", {T(ScalarType::Long, {3}, {5, -5, 6}), I(-2), S("trunc")}, T(ScalarType::Long, {3}, {-2, 2, -3})},
      {"aten::div.Scalar_mode_out", {T(ScalarType::Long, {3}, {5, -5, 6}), I(0), S("trunc")}, Fails(ScalarType::Long, {3})},  // ZeroDivisionError
      {"aten::div.out_mode", {T(ScalarType::Bool, {2}, {1, 1}), T(ScalarType::Bool, {2}, {1, 1}), S("trunc")}, Fails(ScalarType::Bool, {2})},  // "div_trunc_cpu" not implemented for 'Bool'
      {"aten::div.out_mode", {T(ScalarType::Float, {2, 3}, {2.83, 0.39, -1.62, 1.3, 0.28, -1.31}), T(ScalarType::Float, {3}, {1.44, 2.41, -2.61}), S("floor")}, T(ScalarType::Float, {2, 3}, {1.0, 0.0, 0.0, 0.0, 0.0, 0.0})},
      {"aten::div.out_mode", {T(ScalarType::Double, {2, 3}, {-1.15, -1.04, -0.76, -0.12, 0.49, -2.18}), T(ScalarType::Double, {3}, {-2.91, 0.03, -0.8}), S("floor")}, T(ScalarType::Double, {2, 3}, {0.0, -35.0, 0.0, 0.0, 16.0, 2.0})},
      {"aten::div.out_mode", {T(ScalarType::Half, {2, 3}, {0.81, 1.87, 2.26, -2.07, -1.94, 2.95}), T(ScalarType::Half, {3}, {-2.19, -1.76, 2.49}), S("floor")}, T(ScalarType::Half, {2, 3}, {-1.0, -2.0, 0.0, 0.0, 1.0, 1.0})},
      {"aten::div.out_mode", {T(ScalarType::BFloat16, {2, 3}, {-0.020019531, 1.6015625, 2.8125, -1.59375, -2.203125, -1.6015625}), T(ScalarType::BFloat16, {3}, {-0.69140625, 0.6484375, -2.203125}), S("floor")}, T(ScalarType::BFloat16, {2, 3}, {0.0, 2.0, -2.0, 2.0, -4.0, 0.0})},
      {"aten::div.out_mode", {T(ScalarType::Int, {2, 3}, {2, -4, 4, -5, 3, 4}), T(ScalarType::Int, {3}, {1, 2, 2}), S("floor")}, T(ScalarType::Int, {2, 3}, {2, -2, 2, -5, 1, 2})},
      {"aten::div.out_mode", {T(ScalarType::Long, {2, 3}, {-1, -5, -2, 3, 5, -3}), T(ScalarType::Long, {3}, {5, 2, 2}), S("floor")}, T(ScalarType::Long, {2, 3}, {-1, -3, -1, 0, 2, -2})},
      {"aten::div.out_mode", {T(ScalarType::Char, {2, 3}, {3, 0, -4, -1, -3, 4}), T(ScalarType::Char, {3}, {1, -2, 1}), S("floor")}, T(ScalarType::Char, {2, 3}, {3, 0, -4, -1, 1, 4})},
      {"aten::div.out_mode", {T(ScalarType::Byte, {2, 3}, {4, 6, 0, 3, 0, 5}), T(ScalarType::Byte, {3}, {3, 5, 7}), S("floor")}, T(ScalarType::Byte, {2, 3}, {1, 1, 0, 1, 0, 0})},
      {"aten::div.out_mode", {T(ScalarType::Short, {2, 3}, {5, 5, 5, -2, -1, 0}), T(ScalarType::Short, {3}, {5, -3, -1}), S("floor")}, T(ScalarType::Short, {2, 3}, {1, -2, -5, -1, 0, 0})},
      {"aten::div.out_mode", {T(ScalarType::Int, {4}, {7, -7, 7, -7}), T(ScalarType::Int, {4}, {2, 2, -2, -2}), S("floor")}, T(ScalarType::Int, {4}, {3, -4, -4, 3})},
      {"aten::div.out_mode", {T(ScalarType::Float, {6}, {5.0, -5.0, 5.0, -5.0, 1.0, -1.0}), T(ScalarType::Float, {6}, {3.0, 3.0, -3.0, -3.0, 0.0, 0.0}), S("floor")}, T(ScalarType::Float, {6}, {1.0, -2.0, -2.0, 1.0, kInf, -kInf})},
      {"aten::div.out_mode", {T(ScalarType::Int, {2}, {1, 2}), T(ScalarType::Int, {2}, {1, 0}), S("floor")}, Fails(ScalarType::Int, {2})},  // ZeroDivisionError
      {"aten::div.Scalar_mode_out", {T(ScalarType::Char, {2}, {5, -5}), R(2.5), S("floor")}, T(ScalarType::Float, {2}, {2.0, -2.0})},
      {"aten::div.Scalar_mode_out", {T(ScalarType::Long, {3}, {5, -5, 6}), I(-2), S("floor")}, T(ScalarType::Long, {3}, {-3, 2, -3})},
      {"aten::div.Scalar_mode_out", {T(ScalarType::Long, {3}, {5, -5, 6}), I(0), S("floor")}, Fails(ScalarType::Long, {3})},  // ZeroDivisionError
      {"aten::div.out_mode", {T(ScalarType::Bool, {2}, {1, 0}), T(ScalarType::Bool, {2}, {1, 0}), S("floor")}, Fails(ScalarType::Bool, {2})},  // "div_floor_cpu" not implemented for 'Bool'
      {"aten::div.out_mode", {T(ScalarType::Float, {2, 3}, {-0.88, -0.05, -2.63, -1.55, -2.93, 2.67}), T(ScalarType::Float, {3}, {-1.04, 1.93, -0.93}), None()}, T(ScalarType::Float, {2, 3}, {0.84615386, -0.025906736, 2.8279572, 1.4903846, -1.5181348, -2.8709679})},
      {"aten::div.out_mode", {T(ScalarType::Int, {2, 3}, {5, 1, -3, -2, 2, 1}), T(ScalarType::Int, {3}, {-3, 1, -1}), None()}, T(ScalarType::Float, {2, 3}, {-1.6666666, 1.0, 3.0, 0.6666667, 2.0, -1.0})},
      {"aten::div.Scalar_mode_out", {T(ScalarType::Int, {2}, {-3, 5}), I(3), None()}, T(ScalarType::Float, {2}, {-1.0, 1.6666666})},
      {"aten::floor_divide.out", {T(ScalarType::Float, {2, 3}, {-1.03, 2.92, 1.48, -0.7, -0.54, -1.42}), T(ScalarType::Float, {3}, {0.19, 1.41, 1.12})}, T(ScalarType::Float, {2, 3}, {-6.0, 2.0, 1.0, -4.0, -1.0, -2.0})},
      {"aten::remainder.Tensor_out", {T(ScalarType::Float, {2, 3}, {-0.22, -2.75, 2.53, -0.55, -0.66, -2.98}), T(ScalarType::Float, {3}, {-2.17, 2.21, 0.08})}, T(ScalarType::Float, {2, 3}, {-0.22, 1.6700001, 0.050000027, -0.55, 1.55, 0.059999913})},
      {"aten::fmod.Tensor_out", {T(ScalarType::Float, {2, 3}, {1.39, -2.11, -1.02, 2.04, 1.92, -1.52}), T(ScalarType::Float, {3}, {-2.87, 1.84, -1.99})}, T(ScalarType::Float, {2, 3}, {1.39, -0.26999986, -1.02, 2.04, 0.07999992, -1.52})},
      {"aten::floor_divide.out", {T(ScalarType::Double, {2, 3}, {1.73, 1.1, -1.99, -2.53, 2.57, 0.59}), T(ScalarType::Double, {3}, {0.72, -0.25, -2.1})}, T(ScalarType::Double, {2, 3}, {2.0, -5.0, 0.0, -4.0, -11.0, -1.0})},
      {"aten::remainder.Tensor_out", {T(ScalarType::Double, {2, 3}, {0.61, -1.49, 1.84, 1.4, -2.84, 2.59}), T(ScalarType::Double, {3}, {-2.78, -2.46, -1.24})}, T(ScalarType::Double, {2, 3}, {-2.17, -1.49, -0.6399999999999999, -1.38, -0.3799999999999999, -1.1300000000000001})},
      {"aten::fmod.Tensor_out", {T(ScalarType::Double, {2, 3}, {-2.1, -1.58, -0.87, 1.41, -0.57, -1.38}), T(ScalarType::Double, {3}, {-0.05, -0.64, -1.14})}, T(ScalarType::Double, {2, 3}, {-0.049999999999999975, -0.30000000000000004, -0.87, 0.009999999999999842, -0.57, -0.24})},
      {"aten::floor_divide.out", {T(ScalarType::Half, {2, 3}, {2.4, 0.3, 2.86, 1.64, 0.42, -1.43}), T(ScalarType::Half, {3}, {1.12, -0.26, 1.33})}, T(ScalarType::Half, {2, 3}, {2.0, -2.0, 2.0, 1.0, -2.0, -2.0})},
      {"aten::remainder.Tensor_out", {T(ScalarType::Half, {2, 3}, {-0.58, -0.02, -2.88, 1.44, -2.79, 1.08}), T(ScalarType::Half, {3}, {0.49, 1.66, -1.26})}, T(ScalarType::Half, {2, 3}, {0.4, 1.641, -0.3613, 0.4604, 0.5312, -0.1797})},
      {"aten::fmod.Tensor_out", {T(ScalarType::Half, {2, 3}, {1.12, -1.76, 0.18, -0.96, 2.87, 2.83}), T(ScalarType::Half, {3}, {-1.75, 0.4, -1.02})}, T(ScalarType::Half, {2, 3}, {1.12, -0.1602, 0.18, -0.96, 0.0698, 0.791})},
      {"aten::floor_divide.out", {T(ScalarType::Int, {2, 3}, {-2, 4, 5, 3, 5, 0}), T(ScalarType::Int, {3}, {-3, -3, 1})}, T(ScalarType::Int, {2, 3}, {0, -2, 5, -1, -2, 0})},
      {"aten::remainder.Tensor_out", {T(ScalarType::Int, {2, 3}, {-5, 4, -5, 4, -3, 0}), T(ScalarType::Int, {3}, {1, -1, 5})}, T(ScalarType::Int, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::fmod.Tensor_out", {T(ScalarType::Int, {2, 3}, {-1, 0, 2, 1, 4, 1}), T(ScalarType::Int, {3}, {-3, -5, -3})}, T(ScalarType::Int, {2, 3}, {-1, 0, 2, 1, 4, 1})},
      {"aten::floor_divide.out", {T(ScalarType::Long, {2, 3}, {4, -5, 2, -3, 0, -5}), T(ScalarType::Long, {3}, {2, 5, 5})}, T(ScalarType::Long, {2, 3}, {2, -1, 0, -2, 0, -1})},
      {"aten::remainder.Tensor_out", {T(ScalarType::Long, {2, 3}, {-1, 4, -2, -4, 3, 1}), T(ScalarType::Long, {3}, {-1, -3, 3})}, T(ScalarType::Long, {2, 3}, {0, -2, 1, 0, 0, 1})},
      {"aten::fmod.Tensor_out", {T(ScalarType::Long, {2, 3}, {-3, -4, 5, 5, -3, 4}), T(ScalarType::Long, {3}, {-4, 3, 5})}, T(ScalarType::Long, {2, 3}, {-3, -1, 0, 1, 0, 4})},
      {"aten::floor_divide.out", {T(ScalarType::Char, {2, 3}, {3, 4, 1, 1, -1, -1}), T(ScalarType::Char, {3}, {-1, -5, 1})}, T(ScalarType::Char, {2, 3}, {-3, -1, 1, -1, 0, -1})},
      {"aten::remainder.Tensor_out", {T(ScalarType::Char, {2, 3}, {-1, -1, 3, 3, 3, 0}), T(ScalarType::Char, {3}, {1, -2, 1})}, T(ScalarType::Char, {2, 3}, {0, -1, 0, 0, -1, 0})},
      {"aten::fmod.Tensor_out", {T(ScalarType::Char, {2, 3}, {-3, -5, 3, -3, 5, 4}), T(ScalarType::Char, {3}, {1, 1, 2})}, T(ScalarType::Char, {2, 3}, {0, 0, 1, 0, 0, 0})},
      {"aten::floor_divide.out", {T(ScalarType::Byte, {2, 3}, {0, 8, 6, 10, 9, 3}), T(ScalarType::Byte, {3}, {1, 5, 8})}, T(ScalarType::Byte, {2, 3}, {0, 1, 0, 10, 1, 0})},
      {"aten::remainder.Tensor_out", {T(ScalarType::Byte, {2, 3}, {2, 10, 3, 10, 5, 10}), T(ScalarType::Byte, {3}, {7, 1, 3})}, T(ScalarType::Byte, {2, 3}, {2, 0, 0, 3, 0, 1})},
      {"aten::fmod.Tensor_out", {T(ScalarType::Byte, {2, 3}, {9, 3, 4, 2, 6, 1}), T(ScalarType::Byte, {3}, {9, 7, 3})}, T(ScalarType::Byte, {2, 3}, {0, 3, 1, 2, 6, 1})},
      {"aten::floor_divide.out", {T(ScalarType::Int, {4}, {5, -5, 5, -5}), T(ScalarType::Int, {4}, {3, 3, -3, -3})}, T(ScalarType::Int, {4}, {1, -2, -2, 1})},
      {"aten::floor_divide.out", {T(ScalarType::Int, {1}, {5}), T(ScalarType::Int, {1}, {0})}, Fails(ScalarType::Int, {1})},  // ZeroDivisionError
      {"aten::floor_divide.out", {T(ScalarType::Half, {2}, {5.0, -5.0}), T(ScalarType::Half, {2}, {0.0, 0.0})}, T(ScalarType::Half, {2}, {kInf, -kInf})},
      {"aten::floor_divide.Scalar_out", {T(ScalarType::Long, {4}, {5, -5, 7, -7}), I(2)}, T(ScalarType::Long, {4}, {2, -3, 3, -4})},
      {"aten::floor_divide.Scalar_out", {T(ScalarType::Float, {4}, {5.0, -5.0, 7.0, -7.0}), R(-2.5)}, T(ScalarType::Float, {4}, {-2.0, 2.0, -3.0, 2.0})},
      {"aten::remainder.Tensor_out", {T(ScalarType::Float, {5}, {5.0, -5.0, 5.0, -5.0, 0.0}), T(ScalarType::Float, {5}, {3.0, 3.0, -3.0, -3.0, 0.0})}, T(ScalarType::Float, {5}, {2.0, 1.0, -1.0, -2.0, kNaN})},
      {"aten::remainder.Tensor_out", {T(ScalarType::Int, {4}, {5, -5, 5, -5}), T(ScalarType::Int, {4}, {3, 3, -3, -3})}, T(ScalarType::Int, {4}, {2, 1, -1, -2})},
      {"aten::remainder.Tensor_out", {T(ScalarType::Int, {1}, {5}), T(ScalarType::Int, {1}, {0})}, Fails(ScalarType::Int, {1})},  // ZeroDivisionError
      {"aten::remainder.Scalar_out", {T(ScalarType::Long, {4}, {5, -5, 7, -7}), I(3)}, T(ScalarType::Long, {4}, {2, 1, 1, 2})},
      {"aten::remainder.Scalar_out", {T(ScalarType::Float, {4}, {5.0, -5.0, 7.0, -7.0}), R(-2.5)}, T(ScalarType::Float, {4}, {0.0, -0.0, -0.5, -2.0})},
      {"aten::remainder.Scalar_Tensor_out", {I(5), T(ScalarType::Long, {2}, {3, -3})}, T(ScalarType::Long, {2}, {2, -1})},
      {"aten::remainder.Scalar_Tensor_out", {R(5.5), T(ScalarType::Int, {2}, {3, -3})}, T(ScalarType::Float, {2}, {2.5, -0.5})},
      {"aten::fmod.Tensor_out", {T(ScalarType::Float, {4}, {5.0, -5.0, 5.0, -5.0}), T(ScalarType::Float, {4}, {3.0, 3.0, -3.0, -3.0})}, T(ScalarType::Float, {4}, {2.0, -2.0, 2.0, -2.0})},
      {"aten::fmod.Tensor_out", {T(ScalarType::Int, {4}, {5, -5, 5, -5}), T(ScalarType::Int, {4}, {3, 3, -3, -3})}, T(ScalarType::Int, {4}, {2, -2, 2, -2})},
      {"aten::fmod.Tensor_out", {T(ScalarType::Int, {1}, {5}), T(ScalarType::Int, {1}, {0})}, Fails(ScalarType::Int, {1})},  // ZeroDivisionError
      {"aten::fmod.Scalar_out", {T(ScalarType::Long, {4}, {5, -5, 7, -7}), I(3)}, T(ScalarType::Long, {4}, {2, -2, 1, -1})},
      {"aten::fmod.Scalar_out", {T(ScalarType::Half, {4}, {5.0, -5.0, 7.0, -7.0}), R(2.5)}, T(ScalarType::Half, {4}, {0.0, -0.0, 2.0, -2.0})},
      {"aten::remainder.Tensor_out", {T(ScalarType::Bool, {2}, {0, 1}), T(ScalarType::Bool, {2}, {0, 0})}, Fails(ScalarType::Bool, {2})},  // "remainder_cpu" not implemented for 'Bool'
      {"aten::pow.Tensor_Tensor_out", {T(ScalarType::Float, {2, 3}, {2.14, 2.88, 0.58, 2.78, 2.79, 1.94}), T(ScalarType::Float, {3}, {2.64, -1.48, 2.29})}, T(ScalarType::Float, {2, 3}, {7.4523363, 0.20897728, 0.28724343, 14.868881, 0.2190311, 4.561062})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::Float, {4}, {1.64, 0.66, -2.46, -2.82}), I(2)}, T(ScalarType::Float, {4}, {2.6896, 0.43560004, 6.0516, 7.9523997})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::Float, {4}, {0.04, 1.0, 3.05, 1.55}), R(0.5)}, T(ScalarType::Float, {4}, {0.2, 1.0, 1.7464249, 1.2449899})},
      {"aten::pow.Tensor_Tensor_out", {T(ScalarType::Double, {2, 3}, {2.35, 1.91, 1.23, 2.65, 0.21, 1.45}), T(ScalarType::Double, {3}, {1.98, -2.24, 1.26})}, T(ScalarType::Double, {2, 3}, {5.42893156694003, 0.23468495947757279, 1.298017179328459, 6.8869484209277, 32.97833913542849, 1.5970690108507022})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::Double, {4}, {-1.03, -2.85, -0.16, 0.13}), I(2)}, T(ScalarType::Double, {4}, {1.0609, 8.1225, 0.0256, 0.016900000000000002})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::Double, {4}, {0.17, 2.26, 1.39, 0.02}), R(0.5)}, T(ScalarType::Double, {4}, {0.41231056256176607, 1.5033296378372907, 1.1789826122551597, 0.1414213562373095})},
      {"aten::pow.Tensor_Tensor_out", {T(ScalarType::Half, {2, 3}, {0.65, 0.42, 1.67, 0.23, 2.79, 2.55}), T(ScalarType::Half, {3}, {2.67, -1.11, 2.43})}, T(ScalarType::Half, {2, 3}, {0.3164, 2.621, 3.477, 0.01976, 0.32, 9.73})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::Half, {4}, {2.91, 1.59, -1.35, 1.03}), I(2)}, T(ScalarType::Half, {4}, {8.47, 2.527, 1.821, 1.062})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::Half, {4}, {2.38, 1.62, 1.22, 0.24}), R(0.5)}, T(ScalarType::Half, {4}, {1.543, 1.272, 1.1045, 0.49})},
      {"aten::pow.Tensor_Tensor_out", {T(ScalarType::BFloat16, {2, 3}, {0.4609375, 0.49023438, 1.4921875, 1.9609375, 2.3125, 0.24023438}), T(ScalarType::BFloat16, {3}, {1.9375, -2.734375, 0.33007812})}, T(ScalarType::BFloat16, {2, 3}, {0.22265625, 7.03125, 1.140625, 3.6875, 0.10107422, 0.625})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::BFloat16, {4}, {1.4609375, 0.7890625, 2.703125, -0.9296875}), I(2)}, T(ScalarType::BFloat16, {4}, {2.140625, 0.62109375, 7.3125, 0.86328125})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::BFloat16, {4}, {2.34375, 0.33007812, 2.234375, 3.25}), R(0.5)}, T(ScalarType::BFloat16, {4}, {1.53125, 0.57421875, 1.4921875, 1.8046875})},
      {"aten::pow.Tensor_Tensor_out", {T(ScalarType::Int, {2, 3}, {-1, 0, 1, 0, 0, 4}), T(ScalarType::Int, {3}, {5, 0, 5})}, T(ScalarType::Int, {2, 3}, {-1, 1, 1, 0, 1, 1024})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::Int, {4}, {3, -3, -5, 5}), I(3)}, T(ScalarType::Int, {4}, {27, -27, -125, 125})},
      {"aten::pow.Tensor_Tensor_out", {T(ScalarType::Long, {2, 3}, {-2, 4, -4, 1, -3, -1}), T(ScalarType::Long, {3}, {5, 1, 5})}, T(ScalarType::Long, {2, 3}, {-32, 4, -1024, 1, -3, -1})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::Long, {4}, {3, -3, 0, 5}), I(3)}, T(ScalarType::Long, {4}, {27, -27, 0, 125})},
      {"aten::pow.Tensor_Tensor_out", {T(ScalarType::Byte, {2, 3}, {2, 7, 8, 0, 8, 1}), T(ScalarType::Byte, {3}, {8, 5, 0})}, T(ScalarType::Byte, {2, 3}, {0, 167, 1, 0, 0, 1})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::Byte, {4}, {1, 1, 6, 9}), I(3)}, T(ScalarType::Byte, {4}, {1, 1, 216, 217})},
      {"aten::pow.Tensor_Tensor_out", {T(ScalarType::Char, {2, 3}, {1, 3, 1, 2, 4, 1}), T(ScalarType::Char, {3}, {-1, 0, 3})}, T(ScalarType::Char, {2, 3}, {1, 1, 1, 0, 1, 1})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::Char, {4}, {-5, -3, -3, -5}), I(3)}, T(ScalarType::Char, {4}, {-125, -27, -27, -125})},
      {"aten::pow.Tensor_Tensor_out", {T(ScalarType::Long, {4}, {2, 1, -1, -1}), T(ScalarType::Long, {4}, {-1, -2, -3, -2})}, T(ScalarType::Long, {4}, {0, 1, -1, 1})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::Long, {2}, {0, 4}), I(-1)}, Fails(ScalarType::Long, {2})},  // Integers to negative integer powers are not allowed.
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::Int, {2}, {2, 3}), I(40)}, T(ScalarType::Int, {2}, {0, 689956897})},
      {"aten::pow.Tensor_Scalar_out", {T(ScalarType::Int, {2}, {2, 3}), R(0.5)}, T(ScalarType::Float, {2}, {1.4142135, 1.7320508})},
      {"aten::pow.Tensor_Tensor_out", {T(ScalarType::Half, {2}, {-1.84, -0.52}), T(ScalarType::Double, {2}, {-2.63, -1.13})}, T(ScalarType::Double, {2}, {kNaN, kNaN})},
      {"aten::pow.Scalar_out", {I(2), T(ScalarType::Long, {3}, {0, 2, 3})}, T(ScalarType::Long, {3}, {1, 4, 8})},
      {"aten::pow.Scalar_out", {R(2.5), T(ScalarType::Long, {3}, {0, 2, 3})}, T(ScalarType::Float, {3}, {1.0, 6.25, 15.625})},
      {"aten::pow.Scalar_out", {I(2), T(ScalarType::Float, {3}, {0.5, 2.0, -1.0})}, T(ScalarType::Float, {3}, {1.4142135, 4.0, 0.5})},
      {"aten::pow.Tensor_Tensor_out", {T(ScalarType::Bool, {2}, {1, 1}), T(ScalarType::Bool, {2}, {0, 0})}, Fails(ScalarType::Bool, {2})},  // "pow" not implemented for 'Bool'
      {"aten::maximum.out", {T(ScalarType::Float, {3}, {1.0, kNaN, 2.0}), T(ScalarType::Float, {3}, {kNaN, 2.0, 1.0})}, T(ScalarType::Float, {3}, {kNaN, kNaN, 2.0})},
      {"aten::minimum.out", {T(ScalarType::Float, {3}, {1.0, kNaN, 2.0}), T(ScalarType::Float, {3}, {kNaN, 2.0, 1.0})}, T(ScalarType::Float, {3}, {kNaN, kNaN, 1.0})},
      {"aten::minimum.out", {T(ScalarType::Byte, {2}, {1, 5}), T(ScalarType::Char, {2}, {-1, 7})}, T(ScalarType::Short, {2}, {-1, 5})},
      {"aten::maximum.out", {T(ScalarType::Int, {2}, {0, -4}), T(ScalarType::Half, {2}, {-0.55, -0.36})}, T(ScalarType::Half, {2}, {0.0, -0.36})},
      {"aten::atan2.out", {T(ScalarType::Float, {2, 3}, {0.62, 0.72, -1.47, -1.14, 2.09, -0.28}), T(ScalarType::Float, {3}, {-1.92, -0.28, -1.42})}, T(ScalarType::Float, {2, 3}, {2.8292463, 1.9416876, -2.3388953, -2.6057816, 1.7039746, -2.946907})},
      {"aten::atan2.out", {T(ScalarType::Double, {2, 3}, {2.7, -2.62, -2.42, -2.84, -2.87, -0.58}), T(ScalarType::Double, {3}, {1.14, 2.38, -1.06})}, T(ScalarType::Double, {2, 3}, {1.1712808327955222, -0.8333613502745251, -1.983640231737481, -1.1890763580453168, -0.8784618921218663, -2.6409249287150574})},
      {"aten::atan2.out", {T(ScalarType::Half, {2, 3}, {1.74, 1.48, 1.17, -0.14, 2.15, 0.21}), T(ScalarType::Half, {3}, {-0.59, 1.7, 2.55})}, T(ScalarType::Half, {2, 3}, {1.897, 0.7163, 0.43, -2.908, 0.902, 0.08215})},
      {"aten::atan2.out", {T(ScalarType::Int, {2, 3}, {-5, 5, 3, -4, -4, 0}), T(ScalarType::Int, {3}, {0, -4, 2})}, T(ScalarType::Float, {2, 3}, {-1.5707964, 2.2455373, 0.98279375, -1.5707964, -2.3561945, 0.0})},
      {"aten::atan2.out", {T(ScalarType::Bool, {2, 3}, {0, 1, 0, 0, 0, 1}), T(ScalarType::Bool, {3}, {1, 0, 0})}, T(ScalarType::Float, {2, 3}, {0.0, 1.5707964, 0.0, 0.0, 0.0, 1.5707964})},
      {"aten::atan2.out", {T(ScalarType::Half, {2}, {-2.04, 1.68}), T(ScalarType::Long, {2}, {-3, 5})}, T(ScalarType::Half, {2}, {-2.545, 0.324})},
      {"aten::bitwise_and.Tensor_out", {T(ScalarType::Int, {2, 3}, {5, -2, 4, 0, -5, 2}), T(ScalarType::Int, {3}, {5, 5, 1})}, T(ScalarType::Int, {2, 3}, {5, 4, 0, 0, 1, 0})},
      {"aten::bitwise_or.Tensor_out", {T(ScalarType::Int, {2, 3}, {-5, -2, -2, 5, -1, 0}), T(ScalarType::Int, {3}, {-3, -2, 0})}, T(ScalarType::Int, {2, 3}, {-1, -2, -2, -3, -1, 0})},
      {"aten::bitwise_xor.Tensor_out", {T(ScalarType::Int, {2, 3}, {-2, -3, 1, 2, 0, 4}), T(ScalarType::Int, {3}, {-3, 1, 4})}, T(ScalarType::Int, {2, 3}, {3, -4, 5, -1, 1, 0})},
      {"aten::bitwise_and.Tensor_out", {T(ScalarType::Long, {2, 3}, {-5, -3, 4, -5, 5, 1}), T(ScalarType::Long, {3}, {-3, -3, -5})}, T(ScalarType::Long, {2, 3}, {-7, -3, 0, -7, 5, 1})},
      {"aten::bitwise_or.Tensor_out", {T(ScalarType::Long, {2, 3}, {-5, 0, 3, -5, -5, -5}), T(ScalarType::Long, {3}, {-4, 4, 4})}, T(ScalarType::Long, {2, 3}, {-1, 4, 7, -1, -1, -1})},
      {"aten::bitwise_xor.Tensor_out", {T(ScalarType::Long, {2, 3}, {-3, -3, 5, 1, -5, 1}), T(ScalarType::Long, {3}, {1, 4, 5})}, T(ScalarType::Long, {2, 3}, {-4, -7, 0, 0, -1, 4})},
      {"aten::bitwise_and.Tensor_out", {T(ScalarType::Byte, {2, 3}, {5, 3, 2, 5, 8, 3}), T(ScalarType::Byte, {3}, {8, 6, 1})}, T(ScalarType::Byte, {2, 3}, {0, 2, 0, 0, 0, 1})},
      {"aten::bitwise_or.Tensor_out", {T(ScalarType::Byte, {2, 3}, {2, 6, 9, 10, 5, 1}), T(ScalarType::Byte, {3}, {6, 6, 3})}, T(ScalarType::Byte, {2, 3}, {6, 6, 11, 14, 7, 3})},
      {"aten::bitwise_xor.Tensor_out", {T(ScalarType::Byte, {2, 3}, {7, 6, 3, 6, 3, 10}), T(ScalarType::Byte, {3}, {7, 6, 9})}, T(ScalarType::Byte, {2, 3}, {0, 0, 10, 1, 5, 3})},
      {"aten::bitwise_and.Tensor_out", {T(ScalarType::Char, {2, 3}, {-4, -1, -1, 3, 0, 3}), T(ScalarType::Char, {3}, {-5, 4, 4})}, T(ScalarType::Char, {2, 3}, {-8, 4, 4, 3, 0, 0})},
      {"aten::bitwise_or.Tensor_out", {T(ScalarType::Char, {2, 3}, {2, -2, -1, -5, 4, 0}), T(ScalarType::Char, {3}, {1, 5, -4})}, T(ScalarType::Char, {2, 3}, {3, -1, -1, -5, 5, -4})},
      {"aten::bitwise_xor.Tensor_out", {T(ScalarType::Char, {2, 3}, {3, -5, -3, 1, -5, 1}), T(ScalarType::Char, {3}, {1, 1, -4})}, T(ScalarType::Char, {2, 3}, {2, -6, 1, 0, -6, -3})},
      {"aten::bitwise_and.Tensor_out", {T(ScalarType::Short, {2, 3}, {2, 4, 2, -3, -3, 0}), T(ScalarType::Short, {3}, {2, 1, -3})}, T(ScalarType::Short, {2, 3}, {2, 0, 0, 0, 1, 0})},
      {"aten::bitwise_or.Tensor_out", {T(ScalarType::Short, {2, 3}, {4, -1, 3, -4, 0, 0}), T(ScalarType::Short, {3}, {-3, 5, 0})}, T(ScalarType::Short, {2, 3}, {-3, -1, 3, -3, 5, 0})},
      {"aten::bitwise_xor.Tensor_out", {T(ScalarType::Short, {2, 3}, {2, 5, 3, -5, -2, -1}), T(ScalarType::Short, {3}, {-3, 4, 0})}, T(ScalarType::Short, {2, 3}, {-1, 1, 3, 6, -6, -1})},
      {"aten::bitwise_and.Tensor_out", {T(ScalarType::Bool, {2, 3}, {1, 0, 1, 1, 0, 1}), T(ScalarType::Bool, {3}, {0, 1, 1})}, T(ScalarType::Bool, {2, 3}, {0, 0, 1, 0, 0, 1})},
      {"aten::bitwise_or.Tensor_out", {T(ScalarType::Bool, {2, 3}, {0, 1, 1, 1, 1, 0}), T(ScalarType::Bool, {3}, {0, 0, 0})}, T(ScalarType::Bool, {2, 3}, {0, 1, 1, 1, 1, 0})},
      {"aten::bitwise_xor.Tensor_out", {T(ScalarType::Bool, {2, 3}, {0, 1, 1, 1, 0, 0}), T(ScalarType::Bool, {3}, {1, 0, 0})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 0, 0, 0})},
      {"aten::bitwise_or.Tensor_out", {T(ScalarType::Byte, {2}, {1, 4}), T(ScalarType::Char, {2}, {2, -1})}, T(ScalarType::Short, {2}, {3, -1})},
      {"aten::bitwise_and.Scalar_out", {T(ScalarType::Long, {3}, {3, 5, 6}), I(6)}, T(ScalarType::Long, {3}, {2, 4, 6})},
      {"aten::bitwise_or.Scalar_out", {T(ScalarType::Byte, {3}, {1, 2, 4}), I(256)}, T(ScalarType::Byte, {3}, {1, 2, 4})},
      {"aten::bitwise_xor.Scalar_out", {T(ScalarType::Bool, {3}, {0, 1, 1}), B(true)}, T(ScalarType::Bool, {3}, {1, 0, 0})},
      {"aten::bitwise_and.Scalar_out", {T(ScalarType::Bool, {2}, {1, 0}), I(1)}, T(ScalarType::Long, {2}, {1, 0})},
      {"aten::bitwise_and.Tensor_out", {T(ScalarType::Float, {2}, {2.78, 2.13}), T(ScalarType::Float, {2}, {-0.55, 2.18})}, Fails(ScalarType::Float, {2})},  // "bitwise_and_cpu" not implemented for 'Float'
      {"aten::bitwise_and.Scalar_out", {T(ScalarType::Int, {2}, {-3, 0}), R(2.0)}, Fails(ScalarType::Int, {2})},  // "bitwise_and_cpu" not implemented for 'Float'
      {"aten::logical_and.out", {T(ScalarType::Bool, {2, 3}, {0, 0, 0, 1, 1, 0}), T(ScalarType::Bool, {3}, {0, 1, 0})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 1, 0})},
      {"aten::logical_and.out", {T(ScalarType::Float, {4}, {1.0, 0.0, kNaN, 0.0}), T(ScalarType::Int, {4}, {2, 2, 0, 0})}, T(ScalarType::Bool, {4}, {1, 0, 0, 0})},
      {"aten::logical_and.out", {T(ScalarType::Char, {3}, {1, 0, 1}), T(ScalarType::Bool, {3}, {0, 0, 0})}, T(ScalarType::Float, {3}, {0.0, 0.0, 0.0})},
      {"aten::logical_or.out", {T(ScalarType::Bool, {2, 3}, {0, 0, 0, 1, 1, 0}), T(ScalarType::Bool, {3}, {0, 0, 0})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 1, 1, 0})},
      {"aten::logical_or.out", {T(ScalarType::Float, {4}, {1.0, 0.0, kNaN, 0.0}), T(ScalarType::Int, {4}, {2, 2, 0, 0})}, T(ScalarType::Bool, {4}, {1, 1, 1, 0})},
      {"aten::logical_or.out", {T(ScalarType::Char, {3}, {5, -2, 4}), T(ScalarType::Bool, {3}, {0, 0, 1})}, T(ScalarType::Float, {3}, {1.0, 1.0, 1.0})},
      {"aten::logical_xor.out", {T(ScalarType::Bool, {2, 3}, {0, 0, 1, 0, 1, 0}), T(ScalarType::Bool, {3}, {0, 1, 1})}, T(ScalarType::Bool, {2, 3}, {0, 1, 0, 0, 0, 1})},
      {"aten::logical_xor.out", {T(ScalarType::Float, {4}, {1.0, 0.0, kNaN, 0.0}), T(ScalarType::Int, {4}, {2, 2, 0, 0})}, T(ScalarType::Bool, {4}, {0, 1, 1, 0})},
      {"aten::logical_xor.out", {T(ScalarType::Char, {3}, {2, 0, 4}), T(ScalarType::Bool, {3}, {0, 0, 0})}, T(ScalarType::Float, {3}, {1.0, 0.0, 1.0})},
  };
  return cases;
}

const std::vector<TorchCase>& compare_cases() {
  static const std::vector<TorchCase> cases = {
      {"aten::eq.Tensor_out", {T(ScalarType::Float, {2, 3}, {0.69, 0.52, -0.16, -0.48, 0.02, -0.19}), T(ScalarType::Float, {3}, {0.57, -0.39, -0.05})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::eq.Tensor_out", {T(ScalarType::Int, {2, 3}, {1, -2, 1, -2, -1, -2}), T(ScalarType::Int, {3}, {3, -3, 1})}, T(ScalarType::Bool, {2, 3}, {0, 0, 1, 0, 0, 0})},
      {"aten::eq.Tensor_out", {T(ScalarType::Half, {2, 3}, {0.6, 0.97, 0.07, 0.41, 0.2, -0.71}), T(ScalarType::Half, {3}, {-0.8, -0.85, 0.7})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::eq.Tensor_out", {T(ScalarType::BFloat16, {2, 3}, {-0.33984375, 0.12011719, -0.2890625, -0.36914062, 0.27929688, -0.58984375}), T(ScalarType::BFloat16, {3}, {0.10986328, -0.10986328, 0.040039062})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::eq.Tensor_out", {T(ScalarType::Double, {2, 3}, {-0.88, 0.84, 0.83, -0.81, 0.68, 0.42}), T(ScalarType::Double, {3}, {0.57, 0.25, 0.22})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::eq.Tensor_out", {T(ScalarType::Long, {2, 3}, {3, 3, -1, -2, 2, -1}), T(ScalarType::Long, {3}, {2, 3, -3})}, T(ScalarType::Bool, {2, 3}, {0, 1, 0, 0, 0, 0})},
      {"aten::eq.Tensor_out", {T(ScalarType::Byte, {2, 3}, {3, 9, 3, 3, 2, 8}), T(ScalarType::Byte, {3}, {7, 1, 1})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::eq.Tensor_out", {T(ScalarType::Char, {2, 3}, {-1, 1, 0, -3, -1, 1}), T(ScalarType::Char, {3}, {-1, 2, -3})}, T(ScalarType::Bool, {2, 3}, {1, 0, 0, 0, 0, 0})},
      {"aten::eq.Tensor_out", {T(ScalarType::Short, {2, 3}, {1, -1, 3, 1, -2, 3}), T(ScalarType::Short, {3}, {1, 1, 1})}, T(ScalarType::Bool, {2, 3}, {1, 0, 0, 1, 0, 0})},
      {"aten::eq.Tensor_out", {T(ScalarType::Bool, {2, 3}, {1, 1, 0, 1, 1, 1}), T(ScalarType::Bool, {3}, {0, 1, 0})}, T(ScalarType::Bool, {2, 3}, {0, 1, 1, 0, 1, 0})},
      {"aten::eq.Tensor_out", {T(ScalarType::Float, {4}, {1.0, kNaN, 2.0, -0.0}), T(ScalarType::Float, {4}, {1.0, kNaN, kNaN, 0.0})}, T(ScalarType::Bool, {4}, {1, 0, 0, 1})},
      {"aten::eq.Tensor_out", {T(ScalarType::Int, {3}, {1, 2, 3}), T(ScalarType::Float, {3}, {1.5, 2.0, 2.5})}, T(ScalarType::Bool, {3}, {0, 1, 0})},
      {"aten::eq.Tensor_out", {T(ScalarType::Half, {3}, {1.0, 2.0, 3.0}), T(ScalarType::Float, {}, {2.0})}, T(ScalarType::Bool, {3}, {0, 1, 0})},
      {"aten::eq.Tensor_out", {T(ScalarType::Bool, {2}, {1, 0}), T(ScalarType::Float, {2}, {1.0, 1.0})}, T(ScalarType::Bool, {2}, {1, 0})},
      {"aten::eq.Scalar_out", {T(ScalarType::Float, {4}, {1.0, kNaN, 2.0, 3.0}), I(2)}, T(ScalarType::Bool, {4}, {0, 0, 1, 0})},
      {"aten::eq.Scalar_out", {T(ScalarType::Int, {3}, {1, 2, 3}), R(1.5)}, T(ScalarType::Bool, {3}, {0, 0, 0})},
      {"aten::eq.Scalar_out", {T(ScalarType::Long, {3}, {1, 2, 3}), I(2)}, T(ScalarType::Bool, {3}, {0, 1, 0})},
      {"aten::eq.Scalar_out", {T(ScalarType::Byte, {2}, {1, 255}), I(-1)}, T(ScalarType::Bool, {2}, {0, 1})},
      {"aten::eq.Scalar_out", {T(ScalarType::Bool, {2}, {1, 0}), B(true)}, T(ScalarType::Bool, {2}, {1, 0})},
      {"aten::eq.Scalar_out", {T(ScalarType::BFloat16, {3}, {0.5, 1.0, 2.0}), R(1.0)}, T(ScalarType::Bool, {3}, {0, 1, 0})},
      {"aten::eq.Scalar_out", {T(ScalarType::Int, {3}, {1, 2, 3}), I(2)}, T(ScalarType::Float, {3}, {0.0, 1.0, 0.0})},
      {"aten::ne.Tensor_out", {T(ScalarType::Float, {2, 3}, {-0.48, -0.86, 0.36, -0.74, -0.7, -0.92}), T(ScalarType::Float, {3}, {-0.84, 0.4, 0.66})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::ne.Tensor_out", {T(ScalarType::Int, {2, 3}, {2, 0, 3, 2, 1, -1}), T(ScalarType::Int, {3}, {1, 3, -2})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::ne.Tensor_out", {T(ScalarType::Half, {2, 3}, {0.7, 0.79, 0.18, 0.9, 0.16, -0.1}), T(ScalarType::Half, {3}, {0.32, 0.99, 0.83})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::ne.Tensor_out", {T(ScalarType::BFloat16, {2, 3}, {0.58984375, -0.83984375, 0.23046875, -0.030029297, 0.25976562, 0.69140625}), T(ScalarType::BFloat16, {3}, {-0.51171875, 0.4609375, -0.76953125})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::ne.Tensor_out", {T(ScalarType::Double, {2, 3}, {-0.56, 0.59, -0.33, 0.63, -0.8, -0.71}), T(ScalarType::Double, {3}, {0.4, -0.91, 0.15})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::ne.Tensor_out", {T(ScalarType::Long, {2, 3}, {1, 1, 2, -3, -3, -3}), T(ScalarType::Long, {3}, {2, -2, 1})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::ne.Tensor_out", {T(ScalarType::Byte, {2, 3}, {9, 1, 6, 1, 5, 1}), T(ScalarType::Byte, {3}, {0, 9, 0})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::ne.Tensor_out", {T(ScalarType::Char, {2, 3}, {-2, -2, 2, -3, 0, -2}), T(ScalarType::Char, {3}, {2, 3, -3})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::ne.Tensor_out", {T(ScalarType::Short, {2, 3}, {2, -3, 1, 0, 1, -3}), T(ScalarType::Short, {3}, {3, -1, -3})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 0})},
      {"aten::ne.Tensor_out", {T(ScalarType::Bool, {2, 3}, {1, 0, 1, 1, 0, 1}), T(ScalarType::Bool, {3}, {1, 0, 1})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::ne.Tensor_out", {T(ScalarType::Float, {4}, {1.0, kNaN, 2.0, -0.0}), T(ScalarType::Float, {4}, {1.0, kNaN, kNaN, 0.0})}, T(ScalarType::Bool, {4}, {0, 1, 1, 0})},
      {"aten::ne.Tensor_out", {T(ScalarType::Int, {3}, {1, 2, 3}), T(ScalarType::Float, {3}, {1.5, 2.0, 2.5})}, T(ScalarType::Bool, {3}, {1, 0, 1})},
      {"aten::ne.Tensor_out", {T(ScalarType::Half, {3}, {1.0, 2.0, 3.0}), T(ScalarType::Float, {}, {2.0})}, T(ScalarType::Bool, {3}, {1, 0, 1})},
      {"aten::ne.Tensor_out", {T(ScalarType::Bool, {2}, {1, 0}), T(ScalarType::Float, {2}, {1.0, 1.0})}, T(ScalarType::Bool, {2}, {0, 1})},
      {"aten::ne.Scalar_out", {T(ScalarType::Float, {4}, {1.0, kNaN, 2.0, 3.0}), I(2)}, T(ScalarType::Bool, {4}, {1, 1, 0, 1})},
      {"aten::ne.Scalar_out", {T(ScalarType::Int, {3}, {1, 2, 3}), R(1.5)}, T(ScalarType::Bool, {3}, {1, 1, 1})},
      {"aten::ne.Scalar_out", {T(ScalarType::Long, {3}, {1, 2, 3}), I(2)}, T(ScalarType::Bool, {3}, {1, 0, 1})},
      {"aten::ne.Scalar_out", {T(ScalarType::Byte, {2}, {1, 255}), I(-1)}, T(ScalarType::Bool, {2}, {1, 0})},
      {"aten::ne.Scalar_out", {T(ScalarType::Bool, {2}, {1, 0}), B(true)}, T(ScalarType::Bool, {2}, {0, 1})},
      {"aten::ne.Scalar_out", {T(ScalarType::BFloat16, {3}, {0.5, 1.0, 2.0}), R(1.0)}, T(ScalarType::Bool, {3}, {1, 0, 1})},
      {"aten::ne.Scalar_out", {T(ScalarType::Int, {3}, {1, 2, 3}), I(2)}, T(ScalarType::Float, {3}, {1.0, 0.0, 1.0})},
      {"aten::lt.Tensor_out", {T(ScalarType::Float, {2, 3}, {-0.28, 0.46, 0.68, 0.84, -0.66, 0.35}), T(ScalarType::Float, {3}, {0.93, -0.88, 0.35})}, T(ScalarType::Bool, {2, 3}, {1, 0, 0, 1, 0, 0})},
      {"aten::lt.Tensor_out", {T(ScalarType::Int, {2, 3}, {3, -2, -1, 1, -1, -3}), T(ScalarType::Int, {3}, {1, 0, 2})}, T(ScalarType::Bool, {2, 3}, {0, 1, 1, 0, 1, 1})},
      {"aten::lt.Tensor_out", {T(ScalarType::Half, {2, 3}, {-0.65, -0.06, -0.18, 0.14, 0.02, -0.38}), T(ScalarType::Half, {3}, {-0.29, 0.68, -0.5})}, T(ScalarType::Bool, {2, 3}, {1, 1, 0, 0, 1, 0})},
      {"aten::lt.Tensor_out", {T(ScalarType::BFloat16, {2, 3}, {0.12011719, -0.98046875, 0.48046875, -0.33007812, -0.91015625, -0.43945312}), T(ScalarType::BFloat16, {3}, {-0.51953125, 0.91015625, -0.30078125})}, T(ScalarType::Bool, {2, 3}, {0, 1, 0, 0, 1, 1})},
      {"aten::lt.Tensor_out", {T(ScalarType::Double, {2, 3}, {-0.42, -0.28, 0.89, 0.27, 0.24, 0.43}), T(ScalarType::Double, {3}, {-0.22, -0.17, 0.3})}, T(ScalarType::Bool, {2, 3}, {1, 1, 0, 0, 0, 0})},
      {"aten::lt.Tensor_out", {T(ScalarType::Long, {2, 3}, {-3, 1, -2, 2, -1, -2}), T(ScalarType::Long, {3}, {-2, -2, 2})}, T(ScalarType::Bool, {2, 3}, {1, 0, 1, 0, 0, 1})},
      {"aten::lt.Tensor_out", {T(ScalarType::Byte, {2, 3}, {7, 6, 10, 9, 6, 0}), T(ScalarType::Byte, {3}, {6, 9, 6})}, T(ScalarType::Bool, {2, 3}, {0, 1, 0, 0, 1, 1})},
      {"aten::lt.Tensor_out", {T(ScalarType::Char, {2, 3}, {3, 2, 2, -3, -2, 0}), T(ScalarType::Char, {3}, {-3, -1, 2})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 1, 1})},
      {"aten::lt.Tensor_out", {T(ScalarType::Short, {2, 3}, {-2, 0, 1, 0, 1, 1}), T(ScalarType::Short, {3}, {3, -3, -3})}, T(ScalarType::Bool, {2, 3}, {1, 0, 0, 1, 0, 0})},
      {"aten::lt.Tensor_out", {T(ScalarType::Bool, {2, 3}, {1, 1, 1, 0, 0, 0}), T(ScalarType::Bool, {3}, {1, 0, 0})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 1, 0, 0})},
      {"aten::lt.Tensor_out", {T(ScalarType::Float, {4}, {1.0, kNaN, 2.0, -0.0}), T(ScalarType::Float, {4}, {1.0, kNaN, kNaN, 0.0})}, T(ScalarType::Bool, {4}, {0, 0, 0, 0})},
      {"aten::lt.Tensor_out", {T(ScalarType::Int, {3}, {1, 2, 3}), T(ScalarType::Float, {3}, {1.5, 2.0, 2.5})}, T(ScalarType::Bool, {3}, {1, 0, 0})},
      {"aten::lt.Tensor_out", {T(ScalarType::Half, {3}, {1.0, 2.0, 3.0}), T(ScalarType::Float, {}, {2.0})}, T(ScalarType::Bool, {3}, {1, 0, 0})},
      {"aten::lt.Tensor_out", {T(ScalarType::Bool, {2}, {1, 0}), T(ScalarType::Float, {2}, {1.0, 1.0})}, T(ScalarType::Bool, {2}, {0, 1})},
      {"aten::lt.Scalar_out", {T(ScalarType::Float, {4}, {1.0, kNaN, 2.0, 3.0}), I(2)}, T(ScalarType::Bool, {4}, {1, 0, 0, 0})},
      {"aten::lt.Scalar_out", {T(ScalarType::Int, {3}, {1, 2, 3}), R(1.5)}, T(ScalarType::Bool, {3}, {1, 0, 0})},
      {"aten::lt.Scalar_out", {T(ScalarType::Long, {3}, {1, 2, 3}), I(2)}, T(ScalarType::Bool, {3}, {1, 0, 0})},
      {"aten::lt.Scalar_out", {T(ScalarType::Byte, {2}, {1, 255}), I(-1)}, T(ScalarType::Bool, {2}, {1, 0})},
      {"aten::lt.Scalar_out", {T(ScalarType::Bool, {2}, {1, 0}), B(true)}, T(ScalarType::Bool, {2}, {0, 1})},
      {"aten::lt.Scalar_out", {T(ScalarType::BFloat16, {3}, {0.5, 1.0, 2.0}), R(1.0)}, T(ScalarType::Bool, {3}, {1, 0, 0})},
      {"aten::lt.Scalar_out", {T(ScalarType::Int, {3}, {1, 2, 3}), I(2)}, T(ScalarType::Float, {3}, {1.0, 0.0, 0.0})},
      {"aten::le.Tensor_out", {T(ScalarType::Float, {2, 3}, {-0.83, 0.45, 0.97, -0.2, 0.36, -0.37}), T(ScalarType::Float, {3}, {-0.57, 0.43, -1.0})}, T(ScalarType::Bool, {2, 3}, {1, 0, 0, 0, 1, 0})},
      {"aten::le.Tensor_out", {T(ScalarType::Int, {2, 3}, {3, 2, 1, 1, -3, -2}), T(ScalarType::Int, {3}, {-3, 1, 2})}, T(ScalarType::Bool, {2, 3}, {0, 0, 1, 0, 1, 1})},
      {"aten::le.Tensor_out", {T(ScalarType::Half, {2, 3}, {-0.6, -0.4, 0.38, -0.64, -0.05, 0.85}), T(ScalarType::Half, {3}, {0.26, -0.96, 0.83})}, T(ScalarType::Bool, {2, 3}, {1, 0, 1, 1, 0, 0})},
      {"aten::le.Tensor_out", {T(ScalarType::BFloat16, {2, 3}, {0.6015625, -0.76953125, -0.49023438, 0.31054688, 0.62890625, 0.2890625}), T(ScalarType::BFloat16, {3}, {-0.76953125, -0.69140625, 0.69921875})}, T(ScalarType::Bool, {2, 3}, {0, 1, 1, 0, 0, 1})},
      {"aten::le.Tensor_out", {T(ScalarType::Double, {2, 3}, {-0.92, -0.59, -0.48, -0.37, -0.27, 0.13}), T(ScalarType::Double, {3}, {0.7, 0.69, 0.92})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::le.Tensor_out", {T(ScalarType::Long, {2, 3}, {1, 2, 0, 2, 2, 0}), T(ScalarType::Long, {3}, {2, 0, -1})}, T(ScalarType::Bool, {2, 3}, {1, 0, 0, 1, 0, 0})},
      {"aten::le.Tensor_out", {T(ScalarType::Byte, {2, 3}, {8, 2, 3, 6, 9, 4}), T(ScalarType::Byte, {3}, {0, 2, 2})}, T(ScalarType::Bool, {2, 3}, {0, 1, 0, 0, 0, 0})},
      {"aten::le.Tensor_out", {T(ScalarType::Char, {2, 3}, {-1, -1, -1, 3, -1, 2}), T(ScalarType::Char, {3}, {-3, -1, 3})}, T(ScalarType::Bool, {2, 3}, {0, 1, 1, 0, 1, 1})},
      {"aten::le.Tensor_out", {T(ScalarType::Short, {2, 3}, {1, -3, -3, -1, -2, -2}), T(ScalarType::Short, {3}, {1, -1, -1})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::le.Tensor_out", {T(ScalarType::Bool, {2, 3}, {1, 0, 1, 1, 1, 1}), T(ScalarType::Bool, {3}, {1, 0, 1})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 0, 1})},
      {"aten::le.Tensor_out", {T(ScalarType::Float, {4}, {1.0, kNaN, 2.0, -0.0}), T(ScalarType::Float, {4}, {1.0, kNaN, kNaN, 0.0})}, T(ScalarType::Bool, {4}, {1, 0, 0, 1})},
      {"aten::le.Tensor_out", {T(ScalarType::Int, {3}, {1, 2, 3}), T(ScalarType::Float, {3}, {1.5, 2.0, 2.5})}, T(ScalarType::Bool, {3}, {1, 1, 0})},
      {"aten::le.Tensor_out", {T(ScalarType::Half, {3}, {1.0, 2.0, 3.0}), T(ScalarType::Float, {}, {2.0})}, T(ScalarType::Bool, {3}, {1, 1, 0})},
      {"aten::le.Tensor_out", {T(ScalarType::Bool, {2}, {1, 0}), T(ScalarType::Float, {2}, {1.0, 1.0})}, T(ScalarType::Bool, {2}, {1, 1})},
      {"aten::le.Scalar_out", {T(ScalarType::Float, {4}, {1.0, kNaN, 2.0, 3.0}), I(2)}, T(ScalarType::Bool, {4}, {1, 0, 1, 0})},
      {"aten::le.Scalar_out", {T(ScalarType::Int, {3}, {1, 2, 3}), R(1.5)}, T(ScalarType::Bool, {3}, {1, 0, 0})},
      {"aten::le.Scalar_out", {T(ScalarType::Long, {3}, {1, 2, 3}), I(2)}, T(ScalarType::Bool, {3}, {1, 1, 0})},
      {"aten::le.Scalar_out", {T(ScalarType::Byte, {2}, {1, 255}), I(-1)}, T(ScalarType::Bool, {2}, {1, 1})},
      {"aten::le.Scalar_out", {T(ScalarType::Bool, {2}, {1, 0}), B(true)}, T(ScalarType::Bool, {2}, {1, 1})},
      {"aten::le.Scalar_out", {T(ScalarType::BFloat16, {3}, {0.5, 1.0, 2.0}), R(1.0)}, T(ScalarType::Bool, {3}, {1, 1, 0})},
      {"aten::le.Scalar_out", {T(ScalarType::Int, {3}, {1, 2, 3}), I(2)}, T(ScalarType::Float, {3}, {1.0, 1.0, 0.0})},
      {"aten::gt.Tensor_out", {T(ScalarType::Float, {2, 3}, {-0.19, -0.34, -0.17, -0.8, 0.82, -0.05}), T(ScalarType::Float, {3}, {0.68, 0.95, -0.31})}, T(ScalarType::Bool, {2, 3}, {0, 0, 1, 0, 0, 1})},
      {"aten::gt.Tensor_out", {T(ScalarType::Int, {2, 3}, {0, -3, 2, 0, 0, -3}), T(ScalarType::Int, {3}, {-1, -1, 2})}, T(ScalarType::Bool, {2, 3}, {1, 0, 0, 1, 1, 0})},
      {"aten::gt.Tensor_out", {T(ScalarType::Half, {2, 3}, {0.37, -0.69, -0.67, 0.13, 0.61, 0.98}), T(ScalarType::Half, {3}, {-0.83, 0.62, -0.6})}, T(ScalarType::Bool, {2, 3}, {1, 0, 0, 1, 0, 1})},
      {"aten::gt.Tensor_out", {T(ScalarType::BFloat16, {2, 3}, {-0.55859375, -0.23046875, -0.80078125, 0.10986328, -0.41992188, 0.83984375}), T(ScalarType::BFloat16, {3}, {0.578125, 0.4296875, -0.5703125})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 1})},
      {"aten::gt.Tensor_out", {T(ScalarType::Double, {2, 3}, {-0.83, -0.56, 1.0, 0.17, -0.67, -0.62}), T(ScalarType::Double, {3}, {-0.77, 0.64, 0.71})}, T(ScalarType::Bool, {2, 3}, {0, 0, 1, 1, 0, 0})},
      {"aten::gt.Tensor_out", {T(ScalarType::Long, {2, 3}, {-3, 1, 0, 3, 2, -2}), T(ScalarType::Long, {3}, {-3, 0, 0})}, T(ScalarType::Bool, {2, 3}, {0, 1, 0, 1, 1, 0})},
      {"aten::gt.Tensor_out", {T(ScalarType::Byte, {2, 3}, {4, 3, 10, 0, 3, 9}), T(ScalarType::Byte, {3}, {2, 1, 3})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 0, 1, 1})},
      {"aten::gt.Tensor_out", {T(ScalarType::Char, {2, 3}, {0, 0, -1, 1, 3, -2}), T(ScalarType::Char, {3}, {-3, 1, 0})}, T(ScalarType::Bool, {2, 3}, {1, 0, 0, 1, 1, 0})},
      {"aten::gt.Tensor_out", {T(ScalarType::Short, {2, 3}, {-2, 1, 0, 2, 2, 0}), T(ScalarType::Short, {3}, {1, 0, 2})}, T(ScalarType::Bool, {2, 3}, {0, 1, 0, 1, 1, 0})},
      {"aten::gt.Tensor_out", {T(ScalarType::Bool, {2, 3}, {0, 1, 1, 1, 0, 1}), T(ScalarType::Bool, {3}, {0, 1, 1})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 1, 0, 0})},
      {"aten::gt.Tensor_out", {T(ScalarType::Float, {4}, {1.0, kNaN, 2.0, -0.0}), T(ScalarType::Float, {4}, {1.0, kNaN, kNaN, 0.0})}, T(ScalarType::Bool, {4}, {0, 0, 0, 0})},
      {"aten::gt.Tensor_out", {T(ScalarType::Int, {3}, {1, 2, 3}), T(ScalarType::Float, {3}, {1.5, 2.0, 2.5})}, T(ScalarType::Bool, {3}, {0, 0, 1})},
      {"aten::gt.Tensor_out", {T(ScalarType::Half, {3}, {1.0, 2.0, 3.0}), T(ScalarType::Float, {}, {2.0})}, T(ScalarType::Bool, {3}, {0, 0, 1})},
      {"aten::gt.Tensor_out", {T(ScalarType::Bool, {2}, {1, 0}), T(ScalarType::Float, {2}, {1.0, 1.0})}, T(ScalarType::Bool, {2}, {0, 0})},
      {"aten::gt.Scalar_out", {T(ScalarType::Float, {4}, {1.0, kNaN, 2.0, 3.0}), I(2)}, T(ScalarType::Bool, {4}, {0, 0, 0, 1})},
      {"aten::gt.Scalar_out", {T(ScalarType::Int, {3}, {1, 2, 3}), R(1.5)}, T(ScalarType::Bool, {3}, {0, 1, 1})},
      {"aten::gt.Scalar_out", {T(ScalarType::Long, {3}, {1, 2, 3}), I(2)}, T(ScalarType::Bool, {3}, {0, 0, 1})},
      {"aten::gt.Scalar_out", {T(ScalarType::Byte, {2}, {1, 255}), I(-1)}, T(ScalarType::Bool, {2}, {0, 0})},
      {"aten::gt.Scalar_out", {T(ScalarType::Bool, {2}, {1, 0}), B(true)}, T(ScalarType::Bool, {2}, {0, 0})},
      {"aten::gt.Scalar_out", {T(ScalarType::BFloat16, {3}, {0.5, 1.0, 2.0}), R(1.0)}, T(ScalarType::Bool, {3}, {0, 0, 1})},
      {"aten::gt.Scalar_out", {T(ScalarType::Int, {3}, {1, 2, 3}), I(2)}, T(ScalarType::Float, {3}, {0.0, 0.0, 1.0})},
      {"aten::ge.Tensor_out", {T(ScalarType::Float, {2, 3}, {0.93, 0.8, 0.64, -0.93, -0.7, -0.49}), T(ScalarType::Float, {3}, {0.57, 0.68, 0.17})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 0, 0, 0})},
      {"aten::ge.Tensor_out", {T(ScalarType::Int, {2, 3}, {2, 2, 3, 0, -3, 3}), T(ScalarType::Int, {3}, {-3, 1, 3})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 0, 1})},
      {"aten::ge.Tensor_out", {T(ScalarType::Half, {2, 3}, {0.83, -0.87, -0.74, -0.4, 0.52, -0.1}), T(ScalarType::Half, {3}, {0.72, 0.6, 0.74})}, T(ScalarType::Bool, {2, 3}, {1, 0, 0, 0, 0, 0})},
      {"aten::ge.Tensor_out", {T(ScalarType::BFloat16, {2, 3}, {-0.080078125, -0.25976562, -0.24023438, 0.060058594, -0.9296875, -0.8203125}), T(ScalarType::BFloat16, {3}, {0.58984375, 0.040039062, 0.20019531})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::ge.Tensor_out", {T(ScalarType::Double, {2, 3}, {-0.85, -0.15, 0.51, -0.42, 0.8, -0.16}), T(ScalarType::Double, {3}, {0.95, 0.69, 0.94})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 1, 0})},
      {"aten::ge.Tensor_out", {T(ScalarType::Long, {2, 3}, {1, 1, -2, 3, 3, 3}), T(ScalarType::Long, {3}, {-3, 2, -3})}, T(ScalarType::Bool, {2, 3}, {1, 0, 1, 1, 1, 1})},
      {"aten::ge.Tensor_out", {T(ScalarType::Byte, {2, 3}, {2, 4, 8, 9, 4, 5}), T(ScalarType::Byte, {3}, {1, 7, 4})}, T(ScalarType::Bool, {2, 3}, {1, 0, 1, 1, 0, 1})},
      {"aten::ge.Tensor_out", {T(ScalarType::Char, {2, 3}, {3, -1, 3, 0, 0, 3}), T(ScalarType::Char, {3}, {0, -3, -2})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::ge.Tensor_out", {T(ScalarType::Short, {2, 3}, {2, -2, -2, -1, 2, 3}), T(ScalarType::Short, {3}, {-1, -3, -3})}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::ge.Tensor_out", {T(ScalarType::Bool, {2, 3}, {1, 1, 0, 0, 1, 0}), T(ScalarType::Bool, {3}, {0, 1, 1})}, T(ScalarType::Bool, {2, 3}, {1, 1, 0, 1, 1, 0})},
      {"aten::ge.Tensor_out", {T(ScalarType::Float, {4}, {1.0, kNaN, 2.0, -0.0}), T(ScalarType::Float, {4}, {1.0, kNaN, kNaN, 0.0})}, T(ScalarType::Bool, {4}, {1, 0, 0, 1})},
      {"aten::ge.Tensor_out", {T(ScalarType::Int, {3}, {1, 2, 3}), T(ScalarType::Float, {3}, {1.5, 2.0, 2.5})}, T(ScalarType::Bool, {3}, {0, 1, 1})},
      {"aten::ge.Tensor_out", {T(ScalarType::Half, {3}, {1.0, 2.0, 3.0}), T(ScalarType::Float, {}, {2.0})}, T(ScalarType::Bool, {3}, {0, 1, 1})},
      {"aten::ge.Tensor_out", {T(ScalarType::Bool, {2}, {1, 0}), T(ScalarType::Float, {2}, {1.0, 1.0})}, T(ScalarType::Bool, {2}, {1, 0})},
      {"aten::ge.Scalar_out", {T(ScalarType::Float, {4}, {1.0, kNaN, 2.0, 3.0}), I(2)}, T(ScalarType::Bool, {4}, {0, 0, 1, 1})},
      {"aten::ge.Scalar_out", {T(ScalarType::Int, {3}, {1, 2, 3}), R(1.5)}, T(ScalarType::Bool, {3}, {0, 1, 1})},
      {"aten::ge.Scalar_out", {T(ScalarType::Long, {3}, {1, 2, 3}), I(2)}, T(ScalarType::Bool, {3}, {0, 1, 1})},
      {"aten::ge.Scalar_out", {T(ScalarType::Byte, {2}, {1, 255}), I(-1)}, T(ScalarType::Bool, {2}, {0, 1})},
      {"aten::ge.Scalar_out", {T(ScalarType::Bool, {2}, {1, 0}), B(true)}, T(ScalarType::Bool, {2}, {1, 0})},
      {"aten::ge.Scalar_out", {T(ScalarType::BFloat16, {3}, {0.5, 1.0, 2.0}), R(1.0)}, T(ScalarType::Bool, {3}, {0, 1, 1})},
      {"aten::ge.Scalar_out", {T(ScalarType::Int, {3}, {1, 2, 3}), I(2)}, T(ScalarType::Float, {3}, {0.0, 1.0, 1.0})},
  };
  return cases;
}

const std::vector<TorchCase>& unary_cases() {
  static const std::vector<TorchCase> cases = {
      {"aten::exp.out", {T(ScalarType::Float, {2, 3}, {1.38, 1.03, -0.32, -0.96, 0.05, -0.38})}, T(ScalarType::Float, {2, 3}, {3.9749017, 2.8010657, 0.726149, 0.3828929, 1.0512711, 0.68386143})},
      {"aten::exp.out", {T(ScalarType::Double, {2, 3}, {1.14, -0.79, -0.09, 0.33, 1.63, 0.02})}, T(ScalarType::Double, {2, 3}, {3.1267683651861553, 0.45384479528235583, 0.9139311852712282, 1.3909681284637803, 5.1038747185367255, 1.0202013400267558})},
      {"aten::exp.out", {T(ScalarType::Half, {2, 3}, {-0.87, 1.02, 0.47, -1.0, 1.64, 1.93})}, T(ScalarType::Half, {2, 3}, {0.419, 2.771, 1.6, 0.368, 5.152, 6.887})},
      {"aten::exp.out", {T(ScalarType::BFloat16, {2, 3}, {1.2421875, 1.609375, -0.76171875, 0.921875, 1.6015625, 0.73828125})}, T(ScalarType::BFloat16, {2, 3}, {3.46875, 5.0, 0.46679688, 2.515625, 4.96875, 2.09375})},
      {"aten::exp.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {1.0, 1.0, 2.7182817, 0.36787945, 1.6487212, kNaN, kInf, 0.0})},
      {"aten::exp.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {0.13533528, 1.0, 2.7182817, 20.085537})},
      {"aten::exp.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {2.7182817, 1.0})},
      {"aten::exp.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {1.2840254306793213, 2.117000102996826})},
      {"aten::expm1.out", {T(ScalarType::Float, {2, 3}, {-0.11, -1.6, -0.26, 0.44, 1.65, 1.87})}, T(ScalarType::Float, {2, 3}, {-0.10416587, -0.7981035, -0.22894841, 0.5527072, 4.2069798, 5.4882965})},
      {"aten::expm1.out", {T(ScalarType::Double, {2, 3}, {-0.09, 1.46, -0.96, 1.22, 0.19, -1.94})}, T(ScalarType::Double, {2, 3}, {-0.08606881472877181, 3.305959528345206, -0.6171071140248879, 2.3871877336213347, 0.20924959765725146, -0.856296050222297})},
      {"aten::expm1.out", {T(ScalarType::Half, {2, 3}, {0.88, -0.4, 1.3, 0.67, -2.0, -0.03})}, T(ScalarType::Half, {2, 3}, {1.41, -0.3296, 2.668, 0.954, -0.8647, -0.02956})},
      {"aten::expm1.out", {T(ScalarType::BFloat16, {2, 3}, {1.46875, -1.0234375, -0.69921875, 1.4765625, -1.2421875, 0.26953125})}, T(ScalarType::BFloat16, {2, 3}, {3.34375, -0.640625, -0.50390625, 3.375, -0.7109375, 0.30859375})},
      {"aten::expm1.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 1.7182819, -0.63212055, 0.6487213, kNaN, kInf, -1.0})},
      {"aten::expm1.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {-0.86466473, 0.0, 1.7182819, 19.085537})},
      {"aten::expm1.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {1.7182819, 0.0})},
      {"aten::expm1.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.2840254306793213, 1.1169999837875366})},
      {"aten::log.out", {T(ScalarType::Float, {2, 3}, {-1.05, 1.87, 1.21, -0.21, -1.68, -0.72})}, T(ScalarType::Float, {2, 3}, {kNaN, 0.6259384, 0.1906204, kNaN, kNaN, kNaN})},
      {"aten::log.out", {T(ScalarType::Double, {2, 3}, {0.03, 1.73, -1.56, 0.21, 0.83, 0.19})}, T(ScalarType::Double, {2, 3}, {-3.506557897319982, 0.5481214085096876, kNaN, -1.5606477482646683, -0.18632957819149348, -1.6607312068216509})},
      {"aten::log.out", {T(ScalarType::Half, {2, 3}, {1.26, 0.16, 1.86, 0.41, 0.35, -0.22})}, T(ScalarType::Half, {2, 3}, {0.231, -1.832, 0.6206, -0.8916, -1.05, kNaN})},
      {"aten::log.out", {T(ScalarType::BFloat16, {2, 3}, {0.390625, -0.4609375, 0.30078125, -0.83984375, -1.2421875, -1.25})}, T(ScalarType::BFloat16, {2, 3}, {-0.94140625, kNaN, -1.203125, kNaN, kNaN, kNaN})},
      {"aten::log.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {-kInf, -kInf, 0.0, kNaN, -0.6931472, kNaN, kInf, kNaN})},
      {"aten::log.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {kNaN, -kInf, 0.0, 1.0986123})},
      {"aten::log.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {0.0, -kInf})},
      {"aten::log.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {-1.3862943649291992, -0.28768205642700195})},
      {"aten::log1p.out", {T(ScalarType::Float, {2, 3}, {0.45, 0.63, -0.09, -1.64, 1.03, 1.51})}, T(ScalarType::Float, {2, 3}, {0.37156355, 0.48858002, -0.094310686, kNaN, 0.70803577, 0.9202827})},
      {"aten::log1p.out", {T(ScalarType::Double, {2, 3}, {1.69, 1.37, 1.59, 1.69, 0.16, -0.43})}, T(ScalarType::Double, {2, 3}, {0.9895411936137477, 0.8628899551470398, 0.9516578757114464, 0.9895411936137477, 0.14842000511827327, -0.5621189181535412})},
      {"aten::log1p.out", {T(ScalarType::Half, {2, 3}, {0.82, -0.9, 1.25, 1.4, 1.58, 0.36})}, T(ScalarType::Half, {2, 3}, {0.5986, -2.3, 0.811, 0.8755, 0.9478, 0.3076})},
      {"aten::log1p.out", {T(ScalarType::BFloat16, {2, 3}, {1.796875, 0.3203125, -0.20019531, 0.640625, 1.9921875, 1.671875})}, T(ScalarType::BFloat16, {2, 3}, {1.03125, 0.27734375, -0.22363281, 0.49414062, 1.09375, 0.984375})},
      {"aten::log1p.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 0.6931472, -kInf, 0.4054651, kNaN, kInf, kNaN})},
      {"aten::log1p.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {kNaN, 0.0, 0.6931472, 1.3862944})},
      {"aten::log1p.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {0.6931472, 0.0})},
      {"aten::log1p.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.2231435477733612, 0.5596157908439636})},
      {"aten::log2.out", {T(ScalarType::Float, {2, 3}, {1.17, -1.67, 0.45, -0.05, 0.52, 1.38})}, T(ScalarType::Float, {2, 3}, {0.22650848, kNaN, -1.1520032, kNaN, -0.94341654, 0.46466827})},
      {"aten::log2.out", {T(ScalarType::Double, {2, 3}, {-1.03, 0.93, -1.53, -1.12, 1.18, -0.67})}, T(ScalarType::Double, {2, 3}, {kNaN, -0.10469737866669324, kNaN, kNaN, 0.23878685958711648, kNaN})},
      {"aten::log2.out", {T(ScalarType::Half, {2, 3}, {1.26, -1.6, -1.41, 0.79, -1.82, 0.3})}, T(ScalarType::Half, {2, 3}, {0.3333, kNaN, kNaN, -0.34, kNaN, -1.736})},
      {"aten::log2.out", {T(ScalarType::BFloat16, {2, 3}, {1.640625, 0.13964844, 0.71875, -1.890625, 0.5390625, 0.4296875})}, T(ScalarType::BFloat16, {2, 3}, {0.71484375, -2.84375, -0.4765625, kNaN, -0.890625, -1.21875})},
      {"aten::log2.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {-kInf, -kInf, 0.0, kNaN, -1.0, kNaN, kInf, kNaN})},
      {"aten::log2.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {kNaN, -kInf, 0.0, 1.5849625})},
      {"aten::log2.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {0.0, -kInf})},
      {"aten::log2.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {-2.0, -0.41503751277923584})},
      {"aten::log10.out", {T(ScalarType::Float, {2, 3}, {0.3, -0.44, -0.52, 1.92, -1.85, -1.91})}, T(ScalarType::Float, {2, 3}, {-0.5228787, kNaN, kNaN, 0.2833012, kNaN, kNaN})},
      {"aten::log10.out", {T(ScalarType::Double, {2, 3}, {1.84, -1.26, -1.5, -1.16, 1.2, 1.75})}, T(ScalarType::Double, {2, 3}, {0.2648178230095365, kNaN, kNaN, kNaN, 0.07918124604762482, 0.24303804868629444})},
      {"aten::log10.out", {T(ScalarType::Half, {2, 3}, {-1.91, -0.3, -1.59, -0.96, -1.12, 0.59})}, T(ScalarType::Half, {2, 3}, {kNaN, kNaN, kNaN, kNaN, kNaN, -0.2292})},
      {"aten::log10.out", {T(ScalarType::BFloat16, {2, 3}, {-0.6015625, -1.28125, 0.010009766, -1.84375, -1.6015625, 1.953125})}, T(ScalarType::BFloat16, {2, 3}, {kNaN, kNaN, -2.0, kNaN, kNaN, 0.29101562})},
      {"aten::log10.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {-kInf, -kInf, 0.0, kNaN, -0.30103, kNaN, kInf, kNaN})},
      {"aten::log10.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {kNaN, -kInf, 0.0, 0.47712126})},
      {"aten::log10.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {0.0, -kInf})},
      {"aten::log10.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {-0.6020600199699402, -0.1249387338757515})},
      {"aten::sqrt.out", {T(ScalarType::Float, {2, 3}, {-1.2, -0.57, 0.93, 1.35, 1.67, -1.32})}, T(ScalarType::Float, {2, 3}, {kNaN, kNaN, 0.96436507, 1.161895, 1.2922847, kNaN})},
      {"aten::sqrt.out", {T(ScalarType::Double, {2, 3}, {0.69, 1.87, -1.77, 0.7, 1.38, -0.63})}, T(ScalarType::Double, {2, 3}, {0.8306623862918074, 1.3674794331177345, kNaN, 0.8366600265340756, 1.174734012447073, kNaN})},
      {"aten::sqrt.out", {T(ScalarType::Half, {2, 3}, {-1.0, 0.39, -0.23, -1.3, -0.11, -0.36})}, T(ScalarType::Half, {2, 3}, {kNaN, 0.6245, kNaN, kNaN, kNaN, kNaN})},
      {"aten::sqrt.out", {T(ScalarType::BFloat16, {2, 3}, {0.27929688, 0.030029297, -0.75, -0.5703125, 1.3515625, -1.0})}, T(ScalarType::BFloat16, {2, 3}, {0.52734375, 0.17285156, kNaN, kNaN, 1.1640625, kNaN})},
      {"aten::sqrt.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, kNaN, 0.70710677, kNaN, kInf, kNaN})},
      {"aten::sqrt.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {kNaN, 0.0, 1.0, 1.7320508})},
      {"aten::sqrt.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {1.0, 0.0})},
      {"aten::sqrt.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.5, 0.8660253882408142})},
      {"aten::rsqrt.out", {T(ScalarType::Float, {2, 3}, {0.24, -1.95, 0.97, -0.66, -1.82, -0.88})}, T(ScalarType::Float, {2, 3}, {2.0412414, kNaN, 1.0153462, kNaN, kNaN, kNaN})},
      {"aten::rsqrt.out", {T(ScalarType::Double, {2, 3}, {-1.04, 1.81, -0.59, -0.85, -0.56, 1.79})}, T(ScalarType::Double, {2, 3}, {kNaN, 0.7432941462471663, kNaN, kNaN, kNaN, 0.7474350927519359})},
      {"aten::rsqrt.out", {T(ScalarType::Half, {2, 3}, {0.53, 0.48, 0.86, -0.45, -0.34, 0.6})}, T(ScalarType::Half, {2, 3}, {1.374, 1.443, 1.078, kNaN, kNaN, 1.29})},
      {"aten::rsqrt.out", {T(ScalarType::BFloat16, {2, 3}, {-1.9921875, -1.2265625, -0.66015625, -1.0390625, 0.55078125, -0.49023438})}, T(ScalarType::BFloat16, {2, 3}, {kNaN, kNaN, kNaN, kNaN, 1.34375, kNaN})},
      {"aten::rsqrt.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {kInf, -kInf, 1.0, kNaN, 1.4142135, kNaN, 0.0, kNaN})},
      {"aten::rsqrt.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {kNaN, kInf, 1.0, 0.57735026})},
      {"aten::rsqrt.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {1.0, kInf})},
      {"aten::rsqrt.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {2.0, 1.154700517654419})},
      {"aten::reciprocal.out", {T(ScalarType::Float, {2, 3}, {1.5, 0.27, -0.34, -0.39, 0.81, -0.33})}, T(ScalarType::Float, {2, 3}, {0.6666667, 3.7037036, -2.9411764, -2.5641026, 1.2345679, -3.030303})},
      {"aten::reciprocal.out", {T(ScalarType::Double, {2, 3}, {0.65, -1.81, -0.22, -0.96, -1.37, 0.11})}, T(ScalarType::Double, {2, 3}, {1.5384615384615383, -0.5524861878453039, -4.545454545454546, -1.0416666666666667, -0.7299270072992701, 9.090909090909092})},
      {"aten::reciprocal.out", {T(ScalarType::Half, {2, 3}, {-0.05, 0.25, 1.02, 1.54, -0.02, -0.75})}, T(ScalarType::Half, {2, 3}, {-20.0, 4.0, 0.981, 0.6494, -50.0, -1.333})},
      {"aten::reciprocal.out", {T(ScalarType::BFloat16, {2, 3}, {-0.12988281, 1.2421875, 1.5, 1.25, -1.25, 2.0})}, T(ScalarType::BFloat16, {2, 3}, {-7.6875, 0.8046875, 0.66796875, 0.80078125, -0.80078125, 0.5})},
      {"aten::reciprocal.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {kInf, -kInf, 1.0, -1.0, 2.0, kNaN, 0.0, -0.0})},
      {"aten::reciprocal.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {-0.5, kInf, 1.0, 0.33333334})},
      {"aten::reciprocal.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {1.0, kInf})},
      {"aten::reciprocal.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {4.0, 1.3333333730697632})},
      {"aten::sin.out", {T(ScalarType::Float, {2, 3}, {0.53, -1.67, 0.9, 1.95, -0.39, 0.71})}, T(ScalarType::Float, {2, 3}, {0.50553334, -0.99508333, 0.78332686, 0.9289597, -0.3801884, 0.6518338})},
      {"aten::sin.out", {T(ScalarType::Double, {2, 3}, {-0.74, -1.15, 0.87, -1.99, 1.29, 0.11})}, T(ScalarType::Double, {2, 3}, {-0.674287911628145, -0.912763940260521, 0.7643289370255051, -0.9134133613412252, 0.9608350642060727, 0.10977830083717481})},
      {"aten::sin.out", {T(ScalarType::Half, {2, 3}, {-1.61, -1.52, 0.6, 1.49, -0.88, 1.91})}, T(ScalarType::Half, {2, 3}, {-0.999, -0.9985, 0.565, 0.9966, -0.7705, 0.943})},
      {"aten::sin.out", {T(ScalarType::BFloat16, {2, 3}, {-1.6015625, 1.421875, -0.41015625, -1.671875, -0.8984375, -0.19042969})}, T(ScalarType::BFloat16, {2, 3}, {-1.0, 0.98828125, -0.3984375, -0.99609375, -0.78125, -0.18945312})},
      {"aten::sin.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 0.84147096, -0.84147096, 0.47942555, kNaN, kNaN, kNaN})},
      {"aten::sin.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {-0.9092974, 0.0, 0.84147096, 0.14112})},
      {"aten::sin.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {0.84147096, 0.0})},
      {"aten::sin.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.24740396440029144, 0.681638777256012})},
      {"aten::cos.out", {T(ScalarType::Float, {2, 3}, {1.17, 1.45, -1.47, 0.08, 0.6, -0.61})}, T(ScalarType::Float, {2, 3}, {0.39015174, 0.120502725, 0.10062571, 0.9968017, 0.8253356, 0.819648})},
      {"aten::cos.out", {T(ScalarType::Double, {2, 3}, {1.49, -0.89, -1.93, -1.84, 0.72, 0.23})}, T(ScalarType::Double, {2, 3}, {0.08070844845480063, 0.6294120265736969, -0.35152884194095985, -0.2659638756089804, 0.751805729140895, 0.9736663950053749})},
      {"aten::cos.out", {T(ScalarType::Half, {2, 3}, {1.79, 1.75, 1.64, -1.83, 1.0, 0.81})}, T(ScalarType::Half, {2, 3}, {-0.2175, -0.1782, -0.0688, -0.2563, 0.5405, 0.6895})},
      {"aten::cos.out", {T(ScalarType::BFloat16, {2, 3}, {0.62109375, 0.8515625, 1.609375, 0.55859375, -0.51171875, 0.15039062})}, T(ScalarType::BFloat16, {2, 3}, {0.8125, 0.66015625, -0.03857422, 0.84765625, 0.87109375, 0.98828125})},
      {"aten::cos.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {1.0, 1.0, 0.54030234, 0.54030234, 0.87758255, kNaN, kNaN, kNaN})},
      {"aten::cos.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {-0.41614684, 1.0, 0.54030234, -0.9899925})},
      {"aten::cos.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {0.54030234, 1.0})},
      {"aten::cos.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.9689124226570129, 0.7316888570785522})},
      {"aten::tan.out", {T(ScalarType::Float, {2, 3}, {-1.17, 0.35, -1.96, -1.4, -0.67, 1.16})}, T(ScalarType::Float, {2, 3}, {-2.3599808, 0.3650285, 2.4382846, -5.797883, -0.7922542, 2.2957983})},
      {"aten::tan.out", {T(ScalarType::Double, {2, 3}, {0.87, -0.65, 0.48, -1.84, -1.34, 1.93})}, T(ScalarType::Double, {2, 3}, {1.1853248603008053, -0.7602043991336763, 0.520610844191258, 3.6244884533480564, -4.255617891739467, -2.663158582229618})},
      {"aten::tan.out", {T(ScalarType::Half, {2, 3}, {-0.84, -0.42, 0.19, -0.83, -0.09, -1.04})}, T(ScalarType::Half, {2, 3}, {-1.115, -0.4465, 0.1923, -1.094, -0.0903, -1.704})},
      {"aten::tan.out", {T(ScalarType::BFloat16, {2, 3}, {-1.8125, -1.28125, 0.08984375, -1.71875, -0.390625, -0.69140625})}, T(ScalarType::BFloat16, {2, 3}, {4.0625, -3.359375, 0.08984375, 6.71875, -0.41210938, -0.828125})},
      {"aten::tan.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 1.5574077, -1.5574077, 0.5463025, kNaN, kNaN, kNaN})},
      {"aten::tan.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {2.1850398, 0.0, 1.5574077, -0.14254655})},
      {"aten::tan.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {1.5574077, 0.0})},
      {"aten::tan.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.25534191727638245, 0.9315964579582214})},
      {"aten::asin.out", {T(ScalarType::Float, {2, 3}, {-0.34, -1.6, 1.63, -0.1, 1.36, 1.9})}, T(ScalarType::Float, {2, 3}, {-0.3469169, kNaN, kNaN, -0.10016742, kNaN, kNaN})},
      {"aten::asin.out", {T(ScalarType::Double, {2, 3}, {-0.63, -0.08, 0.8, -0.29, -0.79, 0.94})}, T(ScalarType::Double, {2, 3}, {-0.681553211563117, -0.08008558003365901, 0.9272952180016123, -0.29422683774898245, -0.9108089974073983, 1.2226303055219356})},
      {"aten::asin.out", {T(ScalarType::Half, {2, 3}, {1.58, 1.68, 0.51, -0.5, 1.9, 0.56})}, T(ScalarType::Half, {2, 3}, {kNaN, kNaN, 0.535, -0.5234, kNaN, 0.594})},
      {"aten::asin.out", {T(ScalarType::BFloat16, {2, 3}, {-1.7421875, -1.65625, 1.0, -1.7578125, -1.96875, -0.41992188})}, T(ScalarType::BFloat16, {2, 3}, {kNaN, kNaN, 1.5703125, kNaN, kNaN, -0.43359375})},
      {"aten::asin.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 1.5707964, -1.5707964, 0.5235988, kNaN, kNaN, kNaN})},
      {"aten::asin.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {kNaN, 0.0, 1.5707964, kNaN})},
      {"aten::asin.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {1.5707964, 0.0})},
      {"aten::asin.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.252680242061615, 0.8480620980262756})},
      {"aten::acos.out", {T(ScalarType::Float, {2, 3}, {0.08, -0.21, -0.05, 0.34, 0.72, -0.31})}, T(ScalarType::Float, {2, 3}, {1.4907107, 1.7823713, 1.6208172, 1.2238795, 0.766994, 1.8859894})},
      {"aten::acos.out", {T(ScalarType::Double, {2, 3}, {-0.53, 1.95, -0.96, 1.11, -0.28, -0.57})}, T(ScalarType::Double, {2, 3}, {2.1293968921376973, kNaN, 2.857798544381465, kNaN, 1.8545904360032246, 2.1773021820079834})},
      {"aten::acos.out", {T(ScalarType::Half, {2, 3}, {-1.74, 1.45, 0.81, 1.61, -0.19, 0.71})}, T(ScalarType::Half, {2, 3}, {kNaN, kNaN, 0.6265, kNaN, 1.762, 0.7812})},
      {"aten::acos.out", {T(ScalarType::BFloat16, {2, 3}, {-1.5234375, -0.41015625, -1.171875, -1.828125, 1.7890625, -1.140625})}, T(ScalarType::BFloat16, {2, 3}, {kNaN, 1.9921875, kNaN, kNaN, kNaN, kNaN})},
      {"aten::acos.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {1.5707964, 1.5707964, 0.0, 3.1415927, 1.0471976, kNaN, kNaN, kNaN})},
      {"aten::acos.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {kNaN, 1.5707964, 0.0, kNaN})},
      {"aten::acos.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {0.0, 1.5707964})},
      {"aten::acos.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {1.3181160688400269, 0.722734272480011})},
      {"aten::atan.out", {T(ScalarType::Float, {2, 3}, {-1.41, -1.21, -0.49, 0.19, -1.39, 1.95})}, T(ScalarType::Float, {2, 3}, {-0.9539093, -0.8801364, -0.45561567, 0.18776195, -0.94715244, 1.096945})},
      {"aten::atan.out", {T(ScalarType::Double, {2, 3}, {1.93, -1.41, -0.38, 0.72, 1.51, -0.02})}, T(ScalarType::Double, {2, 3}, {1.0927464214998852, -0.9539093029212884, -0.36314700994617627, 0.6240230529767569, 0.9858565008066836, -0.019997333973150535})},
      {"aten::atan.out", {T(ScalarType::Half, {2, 3}, {1.67, -0.71, -0.01, -0.01, 0.68, -1.19})}, T(ScalarType::Half, {2, 3}, {1.031, -0.617, -0.01, -0.01, 0.597, -0.872})},
      {"aten::atan.out", {T(ScalarType::BFloat16, {2, 3}, {0.43945312, -1.1171875, -0.640625, 1.8515625, 1.6015625, 1.2734375})}, T(ScalarType::BFloat16, {2, 3}, {0.4140625, -0.83984375, -0.5703125, 1.078125, 1.015625, 0.90625})},
      {"aten::atan.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 0.7853982, -0.7853982, 0.4636476, kNaN, 1.5707964, -1.5707964})},
      {"aten::atan.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {-1.1071488, 0.0, 0.7853982, 1.2490457})},
      {"aten::atan.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {0.7853982, 0.0})},
      {"aten::atan.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.244978666305542, 0.6435011029243469})},
      {"aten::sinh.out", {T(ScalarType::Float, {2, 3}, {-1.86, -1.41, -0.97, 1.14, 1.37, 0.33})}, T(ScalarType::Float, {2, 3}, {-3.134032, -1.9259061, -1.1294308, 1.4034747, 1.8406218, 0.3360222})},
      {"aten::sinh.out", {T(ScalarType::Double, {2, 3}, {0.87, 1.23, -1.73, -1.66, 1.48, -1.84})}, T(ScalarType::Double, {2, 3}, {0.9839796521383188, 1.564468479304407, -2.7316847492292213, -2.534585932172689, 2.0826539962674717, -3.0688604174598684})},
      {"aten::sinh.out", {T(ScalarType::Half, {2, 3}, {-1.1, -1.84, -1.94, 1.38, -0.68, -1.36})}, T(ScalarType::Half, {2, 3}, {-1.335, -3.068, -3.408, 1.861, -0.734, -1.82})},
      {"aten::sinh.out", {T(ScalarType::BFloat16, {2, 3}, {-1.3984375, 0.62109375, 1.8671875, 0.020019531, 1.6015625, 0.010009766})}, T(ScalarType::BFloat16, {2, 3}, {-1.8984375, 0.66015625, 3.15625, 0.020019531, 2.375, 0.010009766})},
      {"aten::sinh.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 1.1752012, -1.1752012, 0.5210953, kNaN, kInf, -kInf})},
      {"aten::sinh.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {-3.6268604, 0.0, 1.1752012, 10.017875})},
      {"aten::sinh.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {1.1752012, 0.0})},
      {"aten::sinh.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.25261232256889343, 0.8223167061805725})},
      {"aten::cosh.out", {T(ScalarType::Float, {2, 3}, {0.3, 0.71, 1.22, 1.03, 1.96, 0.99})}, T(ScalarType::Float, {2, 3}, {1.0453385, 1.2628176, 1.8412089, 1.5790364, 3.6200929, 1.5314057})},
      {"aten::cosh.out", {T(ScalarType::Double, {2, 3}, {1.62, -1.18, 0.14, 0.39, 1.3, -0.07})}, T(ScalarType::Double, {2, 3}, {2.625494507823741, 1.780826470745401, 1.0098160171280166, 1.0770188341904037, 1.9709142303266285, 1.0024510005800824})},
      {"aten::cosh.out", {T(ScalarType::Half, {2, 3}, {1.16, -0.45, 0.35, 1.41, 1.19, 0.63})}, T(ScalarType::Half, {2, 3}, {1.752, 1.103, 1.062, 2.17, 1.796, 1.205})},
      {"aten::cosh.out", {T(ScalarType::BFloat16, {2, 3}, {-2.0, -1.2734375, 0.030029297, -0.98046875, -1.7421875, 1.4375})}, T(ScalarType::BFloat16, {2, 3}, {3.765625, 1.9296875, 1.0, 1.5234375, 2.9375, 2.21875})},
      {"aten::cosh.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {1.0, 1.0, 1.5430806, 1.5430806, 1.127626, kNaN, kInf, kInf})},
      {"aten::cosh.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {3.7621958, 1.0, 1.5430806, 10.067662})},
      {"aten::cosh.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {1.5430806, 1.0})},
      {"aten::cosh.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {1.0314130783081055, 1.2946833372116089})},
      {"aten::tanh.out", {T(ScalarType::Float, {2, 3}, {1.77, -0.79, -0.37, 1.24, -1.75, 0.56})}, T(ScalarType::Float, {2, 3}, {0.9436094, -0.65840906, -0.35399172, 0.8454556, -0.94137555, 0.5079774})},
      {"aten::tanh.out", {T(ScalarType::Double, {2, 3}, {-1.49, -0.85, 1.32, -1.78, -1.86, -0.33})}, T(ScalarType::Double, {2, 3}, {-0.9033247425601896, -0.6910694698329306, 0.8667839288498187, -0.9446951553543538, -0.9526788436890776, -0.31852077690277086})},
      {"aten::tanh.out", {T(ScalarType::Half, {2, 3}, {-0.03, 1.45, 0.87, 0.69, -1.39, 1.95})}, T(ScalarType::Half, {2, 3}, {-0.02998, 0.8955, 0.7017, 0.598, -0.8833, 0.9604})},
      {"aten::tanh.out", {T(ScalarType::BFloat16, {2, 3}, {-0.359375, 0.44921875, -0.44921875, -1.8125, -0.12011719, -1.390625})}, T(ScalarType::BFloat16, {2, 3}, {-0.34375, 0.421875, -0.421875, -0.94921875, -0.119628906, -0.8828125})},
      {"aten::tanh.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 0.7615942, -0.7615942, 0.46211717, kNaN, 1.0, -1.0})},
      {"aten::tanh.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {-0.9640276, 0.0, 0.7615942, 0.9950548})},
      {"aten::tanh.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {0.7615942, 0.0})},
      {"aten::tanh.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.24491865932941437, 0.6351489424705505})},
      {"aten::asinh.out", {T(ScalarType::Float, {2, 3}, {-1.87, 0.47, 0.52, -1.58, 0.2, -0.61})}, T(ScalarType::Float, {2, 3}, {-1.383939, 0.45421934, 0.4990284, -1.2383355, 0.1986901, -0.5773809})},
      {"aten::asinh.out", {T(ScalarType::Double, {2, 3}, {-0.47, 1.11, -0.04, 1.53, 0.44, -0.13})}, T(ScalarType::Double, {2, 3}, {-0.45421935891295473, 0.9570569496795586, -0.039989341006027, 1.2112898396252523, 0.42691345412611653, -0.12963659033633027})},
      {"aten::asinh.out", {T(ScalarType::Half, {2, 3}, {0.53, -0.65, -1.5, 0.73, 0.49, 1.15})}, T(ScalarType::Half, {2, 3}, {0.508, -0.6113, -1.194, 0.6772, 0.4722, 0.984})},
      {"aten::asinh.out", {T(ScalarType::BFloat16, {2, 3}, {-1.4921875, 1.6484375, 1.203125, 1.671875, 1.4921875, 0.71875})}, T(ScalarType::BFloat16, {2, 3}, {-1.1875, 1.2734375, 1.015625, 1.2890625, 1.1875, 0.66796875})},
      {"aten::asinh.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 0.8813736, -0.8813736, 0.48121184, kNaN, kInf, -kInf})},
      {"aten::asinh.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {-1.4436355, 0.0, 0.8813736, 1.8184465})},
      {"aten::asinh.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {0.8813736, 0.0})},
      {"aten::asinh.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.24746647477149963, 0.6931471824645996})},
      {"aten::acosh.out", {T(ScalarType::Float, {2, 3}, {1.24, 0.08, 1.14, -1.24, 1.13, -0.22})}, T(ScalarType::Float, {2, 3}, {0.6796627, kNaN, 0.52316356, kNaN, 0.5045336, kNaN})},
      {"aten::acosh.out", {T(ScalarType::Double, {2, 3}, {1.03, -0.18, 1.16, -1.7, -1.82, 1.74})}, T(ScalarType::Double, {2, 3}, {0.24434069882282763, kNaN, 0.5584022165800473, kNaN, kNaN, 1.1518175177633938})},
      {"aten::acosh.out", {T(ScalarType::Half, {2, 3}, {-0.06, 1.6, 1.78, 0.67, 0.29, -1.14})}, T(ScalarType::Half, {2, 3}, {kNaN, 1.047, 1.18, kNaN, kNaN, kNaN})},
      {"aten::acosh.out", {T(ScalarType::BFloat16, {2, 3}, {-1.6328125, 1.28125, 1.5625, 1.1171875, 0.7890625, -0.3203125})}, T(ScalarType::BFloat16, {2, 3}, {kNaN, 0.734375, 1.015625, 0.48046875, kNaN, kNaN})},
      {"aten::acosh.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {kNaN, kNaN, 0.0, kNaN, kNaN, kNaN, kInf, kNaN})},
      {"aten::acosh.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {kNaN, kNaN, 0.0, 1.7627472})},
      {"aten::acosh.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {0.0, kNaN})},
      {"aten::acosh.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {kNaN, kNaN})},
      {"aten::atanh.out", {T(ScalarType::Float, {2, 3}, {-0.78, -1.55, -0.3, 0.26, 1.69, 1.74})}, T(ScalarType::Float, {2, 3}, {-1.0453705, kNaN, -0.30951962, 0.2661084, kNaN, kNaN})},
      {"aten::atanh.out", {T(ScalarType::Double, {2, 3}, {-0.34, -1.6, 1.1, 0.94, -1.88, -0.21})}, T(ScalarType::Double, {2, 3}, {-0.35409252896224297, kNaN, kNaN, 1.7380493449176362, kNaN, -0.21317134656485978})},
      {"aten::atanh.out", {T(ScalarType::Half, {2, 3}, {0.75, -1.88, 1.68, 1.85, 0.89, -1.69})}, T(ScalarType::Half, {2, 3}, {0.973, kNaN, kNaN, kNaN, 1.423, kNaN})},
      {"aten::atanh.out", {T(ScalarType::BFloat16, {2, 3}, {-1.71875, -0.55859375, -1.8828125, -0.609375, -1.9609375, 1.8984375})}, T(ScalarType::BFloat16, {2, 3}, {kNaN, -0.62890625, kNaN, -0.70703125, kNaN, kNaN})},
      {"aten::atanh.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, kInf, -kInf, 0.54930615, kNaN, kNaN, kNaN})},
      {"aten::atanh.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {kNaN, 0.0, kInf, kNaN})},
      {"aten::atanh.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {kInf, 0.0})},
      {"aten::atanh.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.2554128170013428, 0.9729551076889038})},
      {"aten::erf.out", {T(ScalarType::Float, {2, 3}, {1.28, -1.72, 1.57, -1.17, -1.18, 0.7})}, T(ScalarType::Float, {2, 3}, {0.9297342, -0.9850028, 0.97360265, -0.90200037, -0.9048374, 0.6778012})},
      {"aten::erf.out", {T(ScalarType::Double, {2, 3}, {1.75, -1.51, -1.97, -0.52, -1.9, 0.42})}, T(ScalarType::Double, {2, 3}, {0.9866716712191824, -0.9672767481287117, -0.99466372464653, -0.5378986304788544, -0.9927904292352575, 0.4474676184260253})},
      {"aten::erf.out", {T(ScalarType::Half, {2, 3}, {1.44, -1.25, -1.55, -0.62, 1.84, -1.48})}, T(ScalarType::Half, {2, 3}, {0.9585, -0.923, -0.9717, -0.6196, 0.9907, -0.964})},
      {"aten::erf.out", {T(ScalarType::BFloat16, {2, 3}, {1.8671875, -0.55078125, -0.10986328, -0.828125, 1.75, 1.828125})}, T(ScalarType::BFloat16, {2, 3}, {0.9921875, -0.5625, -0.123535156, -0.7578125, 0.98828125, 0.9921875})},
      {"aten::erf.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 0.8427008, -0.8427008, 0.5204999, kNaN, 1.0, -1.0})},
      {"aten::erf.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {-0.9953223, 0.0, 0.8427008, 0.9999779})},
      {"aten::erf.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {0.8427008, 0.0})},
      {"aten::erf.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.27632638812065125, 0.7111556529998779})},
      {"aten::sigmoid.out", {T(ScalarType::Float, {2, 3}, {0.54, -1.26, 1.97, -1.59, 0.32, -1.37})}, T(ScalarType::Float, {2, 3}, {0.63181245, 0.22097391, 0.8776111, 0.1693839, 0.57932425, 0.20261985})},
      {"aten::sigmoid.out", {T(ScalarType::Double, {2, 3}, {1.59, 1.78, 1.22, -0.74, -1.03, 1.02})}, T(ScalarType::Double, {2, 3}, {0.8306161030659813, 0.8556968659094812, 0.7720635494267837, 0.323004143761477, 0.2630841041665798, 0.7349725994665188})},
      {"aten::sigmoid.out", {T(ScalarType::Half, {2, 3}, {-0.84, -0.32, -1.81, -1.47, -1.92, -1.69})}, T(ScalarType::Half, {2, 3}, {0.3015, 0.4207, 0.1407, 0.187, 0.1279, 0.1558})},
      {"aten::sigmoid.out", {T(ScalarType::BFloat16, {2, 3}, {-1.7109375, -0.3203125, 0.20019531, 0.9609375, -1.4296875, -0.31054688})}, T(ScalarType::BFloat16, {2, 3}, {0.15332031, 0.41992188, 0.55078125, 0.72265625, 0.19335938, 0.42382812})},
      {"aten::sigmoid.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.5, 0.5, 0.7310586, 0.26894143, 0.62245935, kNaN, 1.0, 0.0})},
      {"aten::sigmoid.out", {T(ScalarType::Int, {4}, {-2, 0, 1, 3})}, T(ScalarType::Float, {4}, {0.11920292, 0.5, 0.7310586, 0.95257413})},
      {"aten::sigmoid.out", {T(ScalarType::Bool, {2}, {1, 0})}, T(ScalarType::Float, {2}, {0.7310586, 0.5})},
      {"aten::sigmoid.out", {T(ScalarType::Float, {2}, {0.25, 0.75})}, T(ScalarType::Double, {2}, {0.562176525592804, 0.6791787147521973})},
      {"aten::neg.out", {T(ScalarType::Byte, {2, 3}, {10, 5, 1, 3, 7, 10})}, T(ScalarType::Byte, {2, 3}, {246, 251, 255, 253, 249, 246})},
      {"aten::neg.out", {T(ScalarType::Char, {2, 3}, {0, 5, 3, -5, 1, 1})}, T(ScalarType::Char, {2, 3}, {0, -5, -3, 5, -1, -1})},
      {"aten::neg.out", {T(ScalarType::Short, {2, 3}, {-5, 1, 0, 2, -2, 0})}, T(ScalarType::Short, {2, 3}, {5, -1, 0, -2, 2, 0})},
      {"aten::neg.out", {T(ScalarType::Int, {2, 3}, {-1, 2, -4, -3, -4, -1})}, T(ScalarType::Int, {2, 3}, {1, -2, 4, 3, 4, 1})},
      {"aten::neg.out", {T(ScalarType::Long, {2, 3}, {-4, 3, 4, -3, 2, 1})}, T(ScalarType::Long, {2, 3}, {4, -3, -4, 3, -2, -1})},
      {"aten::neg.out", {T(ScalarType::Float, {2, 3}, {-1.89, -0.47, -1.95, 2.76, -0.96, 0.14})}, T(ScalarType::Float, {2, 3}, {1.89, 0.47, 1.95, -2.76, 0.96, -0.14})},
      {"aten::neg.out", {T(ScalarType::Double, {2, 3}, {-0.87, 0.79, -2.48, 1.53, -1.23, 1.98})}, T(ScalarType::Double, {2, 3}, {0.87, -0.79, 2.48, -1.53, 1.23, -1.98})},
      {"aten::neg.out", {T(ScalarType::Half, {2, 3}, {-0.31, -0.23, -1.69, -2.31, 2.87, -1.19})}, T(ScalarType::Half, {2, 3}, {0.31, 0.23, 1.69, 2.31, -2.87, 1.19})},
      {"aten::neg.out", {T(ScalarType::BFloat16, {2, 3}, {0.6484375, -0.44921875, 1.5078125, -2.4375, -0.010009766, 2.765625})}, T(ScalarType::BFloat16, {2, 3}, {-0.6484375, 0.44921875, -1.5078125, 2.4375, 0.010009766, -2.765625})},
      {"aten::neg.out", {T(ScalarType::Bool, {2, 3}, {0, 1, 0, 1, 1, 0})}, Fails(ScalarType::Bool, {2, 3})},  // Negation, the `-` operator, on a bool tensor is not supporte
      {"aten::neg.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {-0.0, 0.0, -1.0, 1.0, -0.5, kNaN, -kInf, kInf})},
      {"aten::abs.out", {T(ScalarType::Byte, {2, 3}, {0, 4, 6, 8, 9, 6})}, T(ScalarType::Byte, {2, 3}, {0, 4, 6, 8, 9, 6})},
      {"aten::abs.out", {T(ScalarType::Char, {2, 3}, {2, -4, -1, 0, -1, 5})}, T(ScalarType::Char, {2, 3}, {2, 4, 1, 0, 1, 5})},
      {"aten::abs.out", {T(ScalarType::Short, {2, 3}, {-2, 4, -4, -5, -4, -1})}, T(ScalarType::Short, {2, 3}, {2, 4, 4, 5, 4, 1})},
      {"aten::abs.out", {T(ScalarType::Int, {2, 3}, {-1, 3, 0, -4, 3, -2})}, T(ScalarType::Int, {2, 3}, {1, 3, 0, 4, 3, 2})},
      {"aten::abs.out", {T(ScalarType::Long, {2, 3}, {-3, -4, 1, -1, -1, 3})}, T(ScalarType::Long, {2, 3}, {3, 4, 1, 1, 1, 3})},
      {"aten::abs.out", {T(ScalarType::Float, {2, 3}, {-2.19, 0.14, -1.74, -2.37, 2.73, 0.26})}, T(ScalarType::Float, {2, 3}, {2.19, 0.14, 1.74, 2.37, 2.73, 0.26})},
      {"aten::abs.out", {T(ScalarType::Double, {2, 3}, {1.45, 2.42, -1.33, -0.35, 0.41, -2.17})}, T(ScalarType::Double, {2, 3}, {1.45, 2.42, 1.33, 0.35, 0.41, 2.17})},
      {"aten::abs.out", {T(ScalarType::Half, {2, 3}, {-2.26, -2.28, -0.59, -0.19, 0.36, -1.21})}, T(ScalarType::Half, {2, 3}, {2.26, 2.28, 0.59, 0.19, 0.36, 1.21})},
      {"aten::abs.out", {T(ScalarType::BFloat16, {2, 3}, {0.7890625, 1.453125, -1.6875, -0.06982422, 0.010009766, -0.040039062})}, T(ScalarType::BFloat16, {2, 3}, {0.7890625, 1.453125, 1.6875, 0.06982422, 0.010009766, 0.040039062})},
      {"aten::abs.out", {T(ScalarType::Bool, {2, 3}, {0, 1, 1, 1, 0, 1})}, Fails(ScalarType::Bool, {2, 3})},  // "abs_cpu" not implemented for 'Bool'
      {"aten::abs.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, 0.0, 1.0, 1.0, 0.5, kNaN, kInf, kInf})},
      {"aten::sign.out", {T(ScalarType::Byte, {2, 3}, {5, 7, 6, 0, 8, 1})}, T(ScalarType::Byte, {2, 3}, {1, 1, 1, 0, 1, 1})},
      {"aten::sign.out", {T(ScalarType::Char, {2, 3}, {5, -4, 5, 5, 1, -5})}, T(ScalarType::Char, {2, 3}, {1, -1, 1, 1, 1, -1})},
      {"aten::sign.out", {T(ScalarType::Short, {2, 3}, {0, -5, -4, 4, -5, -1})}, T(ScalarType::Short, {2, 3}, {0, -1, -1, 1, -1, -1})},
      {"aten::sign.out", {T(ScalarType::Int, {2, 3}, {5, -1, -2, -3, 4, -1})}, T(ScalarType::Int, {2, 3}, {1, -1, -1, -1, 1, -1})},
      {"aten::sign.out", {T(ScalarType::Long, {2, 3}, {-2, -4, 1, 2, 0, 1})}, T(ScalarType::Long, {2, 3}, {-1, -1, 1, 1, 0, 1})},
      {"aten::sign.out", {T(ScalarType::Float, {2, 3}, {-1.99, -0.47, 2.38, -0.39, -0.32, 1.25})}, T(ScalarType::Float, {2, 3}, {-1.0, -1.0, 1.0, -1.0, -1.0, 1.0})},
      {"aten::sign.out", {T(ScalarType::Double, {2, 3}, {0.14, -2.22, 2.46, -0.34, 1.74, -0.67})}, T(ScalarType::Double, {2, 3}, {1.0, -1.0, 1.0, -1.0, 1.0, -1.0})},
      {"aten::sign.out", {T(ScalarType::Half, {2, 3}, {1.84, -0.66, -1.68, -1.82, 2.64, 0.52})}, T(ScalarType::Half, {2, 3}, {1.0, -1.0, -1.0, -1.0, 1.0, 1.0})},
      {"aten::sign.out", {T(ScalarType::BFloat16, {2, 3}, {-2.703125, -0.671875, -1.6015625, -2.484375, -1.8828125, -2.65625})}, T(ScalarType::BFloat16, {2, 3}, {-1.0, -1.0, -1.0, -1.0, -1.0, -1.0})},
      {"aten::sign.out", {T(ScalarType::Bool, {2, 3}, {0, 1, 0, 0, 0, 0})}, T(ScalarType::Bool, {2, 3}, {0, 1, 0, 0, 0, 0})},
      {"aten::sign.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, 0.0, 1.0, -1.0, 1.0, 0.0, 1.0, -1.0})},
      {"aten::floor.out", {T(ScalarType::Byte, {2, 3}, {4, 5, 6, 7, 0, 10})}, T(ScalarType::Byte, {2, 3}, {4, 5, 6, 7, 0, 10})},
      {"aten::floor.out", {T(ScalarType::Char, {2, 3}, {3, 5, 5, 3, 1, 4})}, T(ScalarType::Char, {2, 3}, {3, 5, 5, 3, 1, 4})},
      {"aten::floor.out", {T(ScalarType::Short, {2, 3}, {2, 2, -1, 2, -2, 0})}, T(ScalarType::Short, {2, 3}, {2, 2, -1, 2, -2, 0})},
      {"aten::floor.out", {T(ScalarType::Int, {2, 3}, {-1, -5, -5, -5, -3, 0})}, T(ScalarType::Int, {2, 3}, {-1, -5, -5, -5, -3, 0})},
      {"aten::floor.out", {T(ScalarType::Long, {2, 3}, {-5, -1, 5, -5, -3, -4})}, T(ScalarType::Long, {2, 3}, {-5, -1, 5, -5, -3, -4})},
      {"aten::floor.out", {T(ScalarType::Float, {2, 3}, {1.72, 1.08, 2.82, -0.62, 2.53, -0.28})}, T(ScalarType::Float, {2, 3}, {1.0, 1.0, 2.0, -1.0, 2.0, -1.0})},
      {"aten::floor.out", {T(ScalarType::Double, {2, 3}, {-0.96, -2.39, 2.3, 1.77, -1.06, -0.27})}, T(ScalarType::Double, {2, 3}, {-1.0, -3.0, 2.0, 1.0, -2.0, -1.0})},
      {"aten::floor.out", {T(ScalarType::Half, {2, 3}, {-1.05, -2.83, -2.73, -0.79, -1.74, 0.15})}, T(ScalarType::Half, {2, 3}, {-2.0, -3.0, -3.0, -1.0, -2.0, 0.0})},
      {"aten::floor.out", {T(ScalarType::BFloat16, {2, 3}, {-1.8671875, -1.7890625, 1.0390625, 1.40625, -1.1328125, 2.15625})}, T(ScalarType::BFloat16, {2, 3}, {-2.0, -2.0, 1.0, 1.0, -2.0, 2.0})},
      {"aten::floor.out", {T(ScalarType::Bool, {2, 3}, {1, 1, 0, 1, 0, 1})}, Fails(ScalarType::Bool, {2, 3})},  // "floor_vml_cpu" not implemented for 'Bool'
      {"aten::floor.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.0, kNaN, kInf, -kInf})},
      {"aten::ceil.out", {T(ScalarType::Byte, {2, 3}, {7, 7, 7, 0, 6, 7})}, T(ScalarType::Byte, {2, 3}, {7, 7, 7, 0, 6, 7})},
      {"aten::ceil.out", {T(ScalarType::Char, {2, 3}, {2, 2, -4, -4, -4, -2})}, T(ScalarType::Char, {2, 3}, {2, 2, -4, -4, -4, -2})},
      {"aten::ceil.out", {T(ScalarType::Short, {2, 3}, {-4, -3, 1, -2, 2, 4})}, T(ScalarType::Short, {2, 3}, {-4, -3, 1, -2, 2, 4})},
      {"aten::ceil.out", {T(ScalarType::Int, {2, 3}, {-4, 1, 3, 1, -5, -3})}, T(ScalarType::Int, {2, 3}, {-4, 1, 3, 1, -5, -3})},
      {"aten::ceil.out", {T(ScalarType::Long, {2, 3}, {-2, 2, -2, -3, -1, 0})}, T(ScalarType::Long, {2, 3}, {-2, 2, -2, -3, -1, 0})},
      {"aten::ceil.out", {T(ScalarType::Float, {2, 3}, {-1.08, -0.39, 0.34, -1.29, 0.25, -1.79})}, T(ScalarType::Float, {2, 3}, {-1.0, -0.0, 1.0, -1.0, 1.0, -1.0})},
      {"aten::ceil.out", {T(ScalarType::Double, {2, 3}, {-1.22, -0.35, 0.63, 0.22, -1.43, -1.61})}, T(ScalarType::Double, {2, 3}, {-1.0, -0.0, 1.0, 1.0, -1.0, -1.0})},
      {"aten::ceil.out", {T(ScalarType::Half, {2, 3}, {-2.29, 1.7, -2.41, 1.4, -1.51, -1.29})}, T(ScalarType::Half, {2, 3}, {-2.0, 2.0, -2.0, 2.0, -1.0, -1.0})},
      {"aten::ceil.out", {T(ScalarType::BFloat16, {2, 3}, {1.421875, 0.9609375, 1.453125, 0.08984375, 2.15625, -2.265625})}, T(ScalarType::BFloat16, {2, 3}, {2.0, 1.0, 2.0, 1.0, 3.0, -2.0})},
      {"aten::ceil.out", {T(ScalarType::Bool, {2, 3}, {0, 1, 0, 1, 0, 0})}, Fails(ScalarType::Bool, {2, 3})},  // "ceil_vml_cpu" not implemented for 'Bool'
      {"aten::ceil.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 1.0, kNaN, kInf, -kInf})},
      {"aten::round.out", {T(ScalarType::Byte, {2, 3}, {10, 4, 3, 3, 1, 8})}, T(ScalarType::Byte, {2, 3}, {10, 4, 3, 3, 1, 8})},
      {"aten::round.out", {T(ScalarType::Char, {2, 3}, {-1, 5, 0, -2, 0, 5})}, T(ScalarType::Char, {2, 3}, {-1, 5, 0, -2, 0, 5})},
      {"aten::round.out", {T(ScalarType::Short, {2, 3}, {2, -1, 4, -3, -3, -5})}, T(ScalarType::Short, {2, 3}, {2, -1, 4, -3, -3, -5})},
      {"aten::round.out", {T(ScalarType::Int, {2, 3}, {3, 3, 0, 0, 4, 5})}, T(ScalarType::Int, {2, 3}, {3, 3, 0, 0, 4, 5})},
      {"aten::round.out", {T(ScalarType::Long, {2, 3}, {-5, -3, 1, -3, -3, 3})}, T(ScalarType::Long, {2, 3}, {-5, -3, 1, -3, -3, 3})},
      {"aten::round.out", {T(ScalarType::Float, {2, 3}, {2.95, -2.19, -1.76, 2.49, -0.02, 1.6})}, T(ScalarType::Float, {2, 3}, {3.0, -2.0, -2.0, 2.0, -0.0, 2.0})},
      {"aten::round.out", {T(ScalarType::Double, {2, 3}, {2.82, -1.59, -2.21, -1.6, -0.69, 0.65})}, T(ScalarType::Double, {2, 3}, {3.0, -2.0, -2.0, -2.0, -1.0, 1.0})},
      {"aten::round.out", {T(ScalarType::Half, {2, 3}, {-2.2, -0.01, 2.51, 0.7, -2.84, 0.58})}, T(ScalarType::Half, {2, 3}, {-2.0, -0.0, 3.0, 1.0, -3.0, 1.0})},
      {"aten::round.out", {T(ScalarType::BFloat16, {2, 3}, {-0.060058594, -1.1484375, 2.75, 0.33007812, -2.015625, 2.265625})}, T(ScalarType::BFloat16, {2, 3}, {-0.0, -1.0, 3.0, 0.0, -2.0, 2.0})},
      {"aten::round.out", {T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 1, 1})}, Fails(ScalarType::Bool, {2, 3})},  // "round_vml_cpu" not implemented for 'Bool'
      {"aten::round.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.0, kNaN, kInf, -kInf})},
      {"aten::trunc.out", {T(ScalarType::Byte, {2, 3}, {6, 3, 5, 4, 6, 0})}, T(ScalarType::Byte, {2, 3}, {6, 3, 5, 4, 6, 0})},
      {"aten::trunc.out", {T(ScalarType::Char, {2, 3}, {-2, -5, 0, -2, 0, 2})}, T(ScalarType::Char, {2, 3}, {-2, -5, 0, -2, 0, 2})},
      {"aten::trunc.out", {T(ScalarType::Short, {2, 3}, {5, 5, 5, -2, -1, 0})}, T(ScalarType::Short, {2, 3}, {5, 5, 5, -2, -1, 0})},
      {"aten::trunc.out", {T(ScalarType::Int, {2, 3}, {5, -3, -1, -5, 0, 4})}, T(ScalarType::Int, {2, 3}, {5, -3, -1, -5, 0, 4})},
      {"aten::trunc.out", {T(ScalarType::Long, {2, 3}, {3, -5, 5, -3, 0, -5})}, T(ScalarType::Long, {2, 3}, {3, -5, 5, -3, 0, -5})},
      {"aten::trunc.out", {T(ScalarType::Float, {2, 3}, {-0.05, -2.63, -1.55, -2.93, 2.67, -1.04})}, T(ScalarType::Float, {2, 3}, {-0.0, -2.0, -1.0, -2.0, 2.0, -1.0})},
      {"aten::trunc.out", {T(ScalarType::Double, {2, 3}, {1.93, -0.93, 0.98, -2.18, 2.53, -0.31})}, T(ScalarType::Double, {2, 3}, {1.0, -0.0, 0.0, -2.0, 2.0, -0.0})},
      {"aten::trunc.out", {T(ScalarType::Half, {2, 3}, {-2.15, -1.13, 0.89, 1.37, 1.71, -0.55})}, T(ScalarType::Half, {2, 3}, {-2.0, -1.0, 0.0, 1.0, 1.0, -0.0})},
      {"aten::trunc.out", {T(ScalarType::BFloat16, {2, 3}, {-2.9375, 2.34375, 0.20019531, 1.828125, 2.875, 1.2265625})}, T(ScalarType::BFloat16, {2, 3}, {-2.0, 2.0, 0.0, 1.0, 2.0, 1.0})},
      {"aten::trunc.out", {T(ScalarType::Bool, {2, 3}, {0, 0, 1, 0, 1, 0})}, Fails(ScalarType::Bool, {2, 3})},  // "trunc_vml_cpu" not implemented for 'Bool'
      {"aten::trunc.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.0, kNaN, kInf, -kInf})},
      {"aten::round.out", {T(ScalarType::Float, {6}, {0.5, 1.5, 2.5, -0.5, -2.5, 2.4999})}, T(ScalarType::Float, {6}, {0.0, 2.0, 2.0, -0.0, -2.0, 2.0})},
      {"aten::abs.out", {T(ScalarType::Long, {1}, {-9.223372036854776e+18})}, T(ScalarType::Long, {1}, {-9.223372036854776e+18})},
      {"aten::neg.out", {T(ScalarType::Char, {2}, {-128, 127})}, T(ScalarType::Char, {2}, {-128, -127})},
      {"aten::abs.out", {T(ScalarType::Char, {2}, {-128, 127})}, T(ScalarType::Char, {2}, {-128, 127})},
      {"aten::neg.out", {T(ScalarType::Int, {2}, {4, 5})}, Fails(ScalarType::Float, {2})},  // Found dtype Float but expected Int
      {"aten::neg.out", {T(ScalarType::Float, {2}, {0.08, 1.39})}, Fails(ScalarType::Int, {2})},  // Found dtype Int but expected Float
      {"aten::round.decimals_out", {T(ScalarType::Float, {4}, {1.2345, 125.0, -2.675, 0.5}), I(2)}, T(ScalarType::Float, {4}, {1.23, 125.0, -2.68, 0.5})},
      {"aten::round.decimals_out", {T(ScalarType::Float, {4}, {1.2345, 125.0, -2.675, 15.0}), I(-1)}, T(ScalarType::Float, {4}, {0.0, 120.0, -0.0, 20.0})},
      {"aten::round.decimals_out", {T(ScalarType::Double, {4}, {1.2345, 125.0, -2.675, 0.5}), I(2)}, T(ScalarType::Double, {4}, {1.23, 125.0, -2.68, 0.5})},
      {"aten::round.decimals_out", {T(ScalarType::Double, {4}, {1.2345, 125.0, -2.675, 15.0}), I(-1)}, T(ScalarType::Double, {4}, {0.0, 120.0, -0.0, 20.0})},
      {"aten::round.decimals_out", {T(ScalarType::Half, {4}, {1.234, 125.0, -2.676, 0.5}), I(2)}, T(ScalarType::Half, {4}, {1.23, 125.0, -2.68, 0.5})},
      {"aten::round.decimals_out", {T(ScalarType::Half, {4}, {1.234, 125.0, -2.676, 15.0}), I(-1)}, T(ScalarType::Half, {4}, {0.0, 120.0, -0.0, 20.0})},
      {"aten::round.decimals_out", {T(ScalarType::BFloat16, {4}, {1.234375, 125.0, -2.671875, 0.5}), I(2)}, T(ScalarType::BFloat16, {4}, {1.2265625, 125.0, -2.671875, 0.5})},
      {"aten::round.decimals_out", {T(ScalarType::BFloat16, {4}, {1.234375, 125.0, -2.671875, 15.0}), I(-1)}, T(ScalarType::BFloat16, {4}, {0.0, 120.0, -0.0, 20.0})},
      {"aten::round.decimals_out", {T(ScalarType::Int, {2}, {-3, -4}), I(1)}, Fails(ScalarType::Int, {2})},  // "round_cpu" not implemented for 'Int'
      {"aten::bitwise_not.out", {T(ScalarType::Byte, {2, 3}, {5, 3, 2, 3, 0, 2})}, T(ScalarType::Byte, {2, 3}, {250, 252, 253, 252, 255, 253})},
      {"aten::bitwise_not.out", {T(ScalarType::Char, {2, 3}, {5, 3, -3, -4, 1, 4})}, T(ScalarType::Char, {2, 3}, {-6, -4, 2, 3, -2, -5})},
      {"aten::bitwise_not.out", {T(ScalarType::Short, {2, 3}, {-4, 4, 5, 2, -3, 4})}, T(ScalarType::Short, {2, 3}, {3, -5, -6, -3, 2, -5})},
      {"aten::bitwise_not.out", {T(ScalarType::Int, {2, 3}, {4, -5, -1, 0, 1, -5})}, T(ScalarType::Int, {2, 3}, {-5, 4, 0, -1, -2, 4})},
      {"aten::bitwise_not.out", {T(ScalarType::Long, {2, 3}, {5, -5, 2, -4, 0, -1})}, T(ScalarType::Long, {2, 3}, {-6, 4, -3, 3, -1, 0})},
      {"aten::bitwise_not.out", {T(ScalarType::Bool, {2, 3}, {0, 1, 0, 1, 0, 1})}, T(ScalarType::Bool, {2, 3}, {1, 0, 1, 0, 1, 0})},
      {"aten::bitwise_not.out", {T(ScalarType::Float, {2, 3}, {1.82, 2.67, -2.91, 0.18, -1.27, -0.19})}, Fails(ScalarType::Float, {2, 3})},  // "bitwise_not_cpu" not implemented for 'Float'
      {"aten::logical_not.out", {T(ScalarType::Byte, {2, 3}, {0, 8, 9, 8, 4, 10})}, T(ScalarType::Bool, {2, 3}, {1, 0, 0, 0, 0, 0})},
      {"aten::isnan.out", {T(ScalarType::Byte, {2, 3}, {0, 7, 6, 1, 6, 5})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isinf.out", {T(ScalarType::Byte, {2, 3}, {7, 0, 0, 4, 0, 4})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::logical_not.out", {T(ScalarType::Char, {2, 3}, {5, 5, 4, -1, 5, -2})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isnan.out", {T(ScalarType::Char, {2, 3}, {3, 3, 0, 1, -1, -2})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isinf.out", {T(ScalarType::Char, {2, 3}, {-4, 4, 0, -2, 4, 5})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::logical_not.out", {T(ScalarType::Short, {2, 3}, {3, 5, 0, -3, -3, 0})}, T(ScalarType::Bool, {2, 3}, {0, 0, 1, 0, 0, 1})},
      {"aten::isnan.out", {T(ScalarType::Short, {2, 3}, {-5, 4, -5, 4, -3, 0})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isinf.out", {T(ScalarType::Short, {2, 3}, {0, -1, 5, -1, 0, 2})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::logical_not.out", {T(ScalarType::Int, {2, 3}, {1, 4, 1, -3, -5, -3})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isnan.out", {T(ScalarType::Int, {2, 3}, {4, -5, 2, -3, 0, -5})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isinf.out", {T(ScalarType::Int, {2, 3}, {2, 5, 5, -1, 4, -2})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::logical_not.out", {T(ScalarType::Long, {2, 3}, {-4, 3, 1, -1, -3, 3})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isnan.out", {T(ScalarType::Long, {2, 3}, {-3, -4, 5, 5, -3, 4})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isinf.out", {T(ScalarType::Long, {2, 3}, {-4, 3, 5, 3, 4, 1})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::logical_not.out", {T(ScalarType::Float, {2, 3}, {1.53, -1.41, -1.29, -0.43, 2.95, 1.31})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isnan.out", {T(ScalarType::Float, {2, 3}, {2.68, 0.23, 0.33, 2.94, -1.86, 1.7})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isinf.out", {T(ScalarType::Float, {2, 3}, {1.75, 2.07, 1.5, -2.07, 0.97, 2.54})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::logical_not.out", {T(ScalarType::Double, {2, 3}, {0.38, -0.83, 2.7, 0.37, -0.53, 0.68})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isnan.out", {T(ScalarType::Double, {2, 3}, {1.82, -1.63, -2.91, 0.17, 2.65, 1.08})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isinf.out", {T(ScalarType::Double, {2, 3}, {0.79, 0.77, -0.02, 1.39, -1.5, 2.35})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::logical_not.out", {T(ScalarType::Half, {2, 3}, {-1.35, 2.67, 2.56, -2.53, -0.31, 1.46})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isnan.out", {T(ScalarType::Half, {2, 3}, {-0.3, 0.05, 1.84, 1.23, 2.75, -2.01})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isinf.out", {T(ScalarType::Half, {2, 3}, {2.54, 2.57, 0.81, 2.64, -1.48, 2.29})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::logical_not.out", {T(ScalarType::BFloat16, {2, 3}, {1.640625, 0.66015625, -2.453125, -2.8125, -2.9375, -1.5})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isnan.out", {T(ScalarType::BFloat16, {2, 3}, {1.5703125, -0.6796875, 1.6484375, 0.75, -0.66015625, 2.28125})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isinf.out", {T(ScalarType::BFloat16, {2, 3}, {-2.765625, -0.20996094, 1.9765625, -2.234375, 1.2578125, -1.03125})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::logical_not.out", {T(ScalarType::Bool, {2, 3}, {1, 1, 0, 1, 0, 1})}, T(ScalarType::Bool, {2, 3}, {0, 0, 1, 0, 1, 0})},
      {"aten::isnan.out", {T(ScalarType::Bool, {2, 3}, {1, 1, 1, 0, 1, 0})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::isinf.out", {T(ScalarType::Bool, {2, 3}, {0, 0, 1, 0, 0, 0})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::logical_not.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Bool, {8}, {1, 1, 0, 0, 0, 0, 0, 0})},
      {"aten::isnan.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Bool, {8}, {0, 0, 0, 0, 0, 1, 0, 0})},
      {"aten::isinf.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Bool, {8}, {0, 0, 0, 0, 0, 0, 1, 1})},
      {"aten::logical_not.out", {T(ScalarType::Float, {3}, {0.0, 1.0, kNaN})}, T(ScalarType::Float, {3}, {1.0, 0.0, 0.0})},
  };
  return cases;
}

const std::vector<TorchCase>& activation_cases() {
  static const std::vector<TorchCase> cases = {
      {"aten::relu.out", {T(ScalarType::Byte, {2, 3}, {6, 6, 0, 4, 8, 7})}, T(ScalarType::Byte, {2, 3}, {6, 6, 0, 4, 8, 7})},
      {"aten::hardtanh.out", {T(ScalarType::Byte, {2, 3}, {6, 4, 7, 5, 9, 3}), I(-1), I(1)}, Fails(ScalarType::Byte, {2, 3})},  // cannot do hardtanh on an unsigned type with negative limits
      {"aten::relu.out", {T(ScalarType::Char, {2, 3}, {3, -3, -1, -3, -4, 4})}, T(ScalarType::Char, {2, 3}, {3, 0, 0, 0, 0, 4})},
      {"aten::hardtanh.out", {T(ScalarType::Char, {2, 3}, {-1, 3, 4, -3, -1, -4}), I(-1), I(1)}, T(ScalarType::Char, {2, 3}, {-1, 1, 1, -1, -1, -1})},
      {"aten::relu.out", {T(ScalarType::Short, {2, 3}, {-4, 5, 0, 2, 3, -4})}, T(ScalarType::Short, {2, 3}, {0, 5, 0, 2, 3, 0})},
      {"aten::hardtanh.out", {T(ScalarType::Short, {2, 3}, {0, 1, 0, 4, 5, -2}), I(-1), I(1)}, T(ScalarType::Short, {2, 3}, {0, 1, 0, 1, 1, -1})},
      {"aten::relu.out", {T(ScalarType::Int, {2, 3}, {3, 2, 2, 3, -1, -5})}, T(ScalarType::Int, {2, 3}, {3, 2, 2, 3, 0, 0})},
      {"aten::hardtanh.out", {T(ScalarType::Int, {2, 3}, {3, -5, -4, 1, 5, 5}), I(-1), I(1)}, T(ScalarType::Int, {2, 3}, {1, -1, -1, 1, 1, 1})},
      {"aten::relu.out", {T(ScalarType::Long, {2, 3}, {-5, 4, 2, 0, -2, 0})}, T(ScalarType::Long, {2, 3}, {0, 4, 2, 0, 0, 0})},
      {"aten::hardtanh.out", {T(ScalarType::Long, {2, 3}, {-4, -2, 4, -2, -2, -3}), I(-1), I(1)}, T(ScalarType::Long, {2, 3}, {-1, -1, 1, -1, -1, -1})},
      {"aten::relu.out", {T(ScalarType::Float, {2, 3}, {1.82, -0.31, -2.52, -1.08, 0.05, 2.6})}, T(ScalarType::Float, {2, 3}, {1.82, 0.0, 0.0, 0.0, 0.05, 2.6})},
      {"aten::hardtanh.out", {T(ScalarType::Float, {2, 3}, {-2.35, 0.31, 1.24, 0.28, 1.89, 0.24}), I(-1), I(1)}, T(ScalarType::Float, {2, 3}, {-1.0, 0.31, 1.0, 0.28, 1.0, 0.24})},
      {"aten::relu.out", {T(ScalarType::Double, {2, 3}, {2.78, 0.62, 0.53, -0.33, 0.58, -0.69})}, T(ScalarType::Double, {2, 3}, {2.78, 0.62, 0.53, 0.0, 0.58, 0.0})},
      {"aten::hardtanh.out", {T(ScalarType::Double, {2, 3}, {0.45, -1.26, -1.86, -1.88, 0.68, 0.94}), I(-1), I(1)}, T(ScalarType::Double, {2, 3}, {0.45, -1.0, -1.0, -1.0, 0.68, 0.94})},
      {"aten::relu.out", {T(ScalarType::Half, {2, 3}, {-0.14, -2.46, 1.55, 2.26, 2.54, 2.05})}, T(ScalarType::Half, {2, 3}, {0.0, 0.0, 1.55, 2.26, 2.54, 2.05})},
      {"aten::hardtanh.out", {T(ScalarType::Half, {2, 3}, {2.39, 2.54, 0.24, -0.65, 1.23, -1.35}), I(-1), I(1)}, T(ScalarType::Half, {2, 3}, {1.0, 1.0, 0.24, -0.65, 1.0, -1.0})},
      {"aten::relu.out", {T(ScalarType::BFloat16, {2, 3}, {1.8671875, 2.09375, 2.375, 0.5390625, 2.703125, 0.48046875})}, T(ScalarType::BFloat16, {2, 3}, {1.8671875, 2.09375, 2.375, 0.5390625, 2.703125, 0.48046875})},
      {"aten::hardtanh.out", {T(ScalarType::BFloat16, {2, 3}, {-0.30078125, 0.9609375, 2.984375, 2.5, 1.7578125, -2.515625}), I(-1), I(1)}, T(ScalarType::BFloat16, {2, 3}, {-0.30078125, 0.9609375, 1.0, 1.0, 1.0, -1.0})},
      {"aten::relu.out", {T(ScalarType::Bool, {2, 3}, {0, 1, 0, 0, 1, 0})}, Fails(ScalarType::Bool, {2, 3})},  // Boolean inputs not supported for relu
      {"aten::hardtanh.out", {T(ScalarType::Bool, {2, 3}, {1, 1, 0, 1, 0, 1}), I(-1), I(1)}, Fails(ScalarType::Bool, {2, 3})},  // Bool inputs not supported for hardtanh
      {"aten::relu.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, 0.0, 0.5, kNaN, kInf, 0.0})},
      {"aten::hardtanh.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf}), R(-0.5), I(2)}, T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -0.5, 0.5, kNaN, 2.0, -0.5})},
      {"aten::hardtanh.out", {T(ScalarType::Float, {4}, {-5.0, 1.0, 5.0, kNaN}), I(0), I(6)}, T(ScalarType::Float, {4}, {0.0, 1.0, 5.0, kNaN})},
      {"aten::hardtanh.out", {T(ScalarType::Char, {3}, {-5, 0, 5}), I(-2), I(2)}, T(ScalarType::Char, {3}, {-2, 0, 2})},
      {"aten::hardtanh.out", {T(ScalarType::Char, {3}, {-5, 0, 5}), I(-1), I(300)}, Fails(ScalarType::Char, {3})},  // value cannot be converted to type int8_t without overflow
      {"aten::hardtanh.out", {T(ScalarType::Half, {3}, {-5.0, 0.0, 5.0}), I(-1), R(70000.0)}, Fails(ScalarType::Half, {3})},  // value cannot be converted to type c10::Half without overflow
      {"aten::clamp.out", {T(ScalarType::Byte, {2, 3}, {2, 3, 0, 9, 10, 8}), I(-1), I(2)}, T(ScalarType::Byte, {2, 3}, {2, 2, 2, 2, 2, 2})},
      {"aten::clamp.out", {T(ScalarType::Byte, {2, 3}, {9, 10, 1, 0, 1, 10}), None(), I(1)}, T(ScalarType::Byte, {2, 3}, {1, 1, 1, 0, 1, 1})},
      {"aten::clamp.out", {T(ScalarType::Byte, {2, 3}, {3, 9, 9, 1, 6, 1}), I(0), None()}, T(ScalarType::Byte, {2, 3}, {3, 9, 9, 1, 6, 1})},
      {"aten::clamp.out", {T(ScalarType::Char, {2, 3}, {0, -4, -5, 4, -5, -2}), I(-1), I(2)}, T(ScalarType::Char, {2, 3}, {0, -1, -1, 2, -1, -1})},
      {"aten::clamp.out", {T(ScalarType::Char, {2, 3}, {-3, -4, 2, -2, -5, 5}), None(), I(1)}, T(ScalarType::Char, {2, 3}, {-3, -4, 1, -2, -5, 1})},
      {"aten::clamp.out", {T(ScalarType::Char, {2, 3}, {-5, 3, 1, 4, -4, -1}), I(0), None()}, T(ScalarType::Char, {2, 3}, {0, 3, 1, 4, 0, 0})},
      {"aten::clamp.out", {T(ScalarType::Short, {2, 3}, {-4, -2, -4, 5, -1, 0}), I(-1), I(2)}, T(ScalarType::Short, {2, 3}, {-1, -1, -1, 2, -1, 0})},
      {"aten::clamp.out", {T(ScalarType::Short, {2, 3}, {1, -3, -5, 3, 2, -5}), None(), I(1)}, T(ScalarType::Short, {2, 3}, {1, -3, -5, 1, 1, -5})},
      {"aten::clamp.out", {T(ScalarType::Short, {2, 3}, {4, -4, 1, -2, -1, 0}), I(0), None()}, T(ScalarType::Short, {2, 3}, {4, 0, 1, 0, 0, 0})},
      {"aten::clamp.out", {T(ScalarType::Int, {2, 3}, {2, 4, -3, 5, -2, -5}), I(-1), I(2)}, T(ScalarType::Int, {2, 3}, {2, 2, -1, 2, -1, -1})},
      {"aten::clamp.out", {T(ScalarType::Int, {2, 3}, {5, -3, -3, 0, 3, -1}), None(), I(1)}, T(ScalarType::Int, {2, 3}, {1, -3, -3, 0, 1, -1})},
      {"aten::clamp.out", {T(ScalarType::Int, {2, 3}, {-4, 4, 2, 5, -3, -5}), I(0), None()}, T(ScalarType::Int, {2, 3}, {0, 4, 2, 5, 0, 0})},
      {"aten::clamp.out", {T(ScalarType::Long, {2, 3}, {2, 5, 1, 4, 3, -1}), I(-1), I(2)}, T(ScalarType::Long, {2, 3}, {2, 2, 1, 2, 2, -1})},
      {"aten::clamp.out", {T(ScalarType::Long, {2, 3}, {5, 0, 1, 5, -1, -3}), None(), I(1)}, T(ScalarType::Long, {2, 3}, {1, 0, 1, 1, -1, -3})},
      {"aten::clamp.out", {T(ScalarType::Long, {2, 3}, {3, -5, 2, -4, 0, -5}), I(0), None()}, T(ScalarType::Long, {2, 3}, {3, 0, 2, 0, 0, 0})},
      {"aten::clamp.out", {T(ScalarType::Float, {2, 3}, {0.27, -2.19, 1.57, -0.11, 0.66, 1.04}), I(-1), I(2)}, T(ScalarType::Float, {2, 3}, {0.27, -1.0, 1.57, -0.11, 0.66, 1.04})},
      {"aten::clamp.out", {T(ScalarType::Float, {2, 3}, {0.54, 2.35, 2.12, -2.21, -1.14, 1.49}), None(), I(1)}, T(ScalarType::Float, {2, 3}, {0.54, 1.0, 1.0, -2.21, -1.14, 1.0})},
      {"aten::clamp.out", {T(ScalarType::Float, {2, 3}, {1.97, -2.52, 0.57, 1.19, -2.04, -1.66}), I(0), None()}, T(ScalarType::Float, {2, 3}, {1.97, 0.0, 0.57, 1.19, 0.0, 0.0})},
      {"aten::clamp.out", {T(ScalarType::Double, {2, 3}, {-0.31, 1.26, 1.04, 2.25, -2.81, 2.23}), I(-1), I(2)}, T(ScalarType::Double, {2, 3}, {-0.31, 1.26, 1.04, 2.0, -1.0, 2.0})},
      {"aten::clamp.out", {T(ScalarType::Double, {2, 3}, {0.4, 1.63, 1.25, -2.01, -2.62, 1.21}), None(), I(1)}, T(ScalarType::Double, {2, 3}, {0.4, 1.0, 1.0, -2.01, -2.62, 1.0})},
      {"aten::clamp.out", {T(ScalarType::Double, {2, 3}, {-0.32, 2.31, 2.45, 0.62, -3.0, -2.77}), I(0), None()}, T(ScalarType::Double, {2, 3}, {0.0, 2.31, 2.45, 0.62, 0.0, 0.0})},
      {"aten::clamp.out", {T(ScalarType::Half, {2, 3}, {-1.04, 2.03, -2.7, 1.94, 2.85, -0.51}), I(-1), I(2)}, T(ScalarType::Half, {2, 3}, {-1.0, 2.0, -1.0, 1.94, 2.0, -0.51})},
      {"aten::clamp.out", {T(ScalarType::Half, {2, 3}, {0.29, 2.78, 2.87, 2.02, -2.22, -2.91}), None(), I(1)}, T(ScalarType::Half, {2, 3}, {0.29, 1.0, 1.0, 1.0, -2.22, -2.91})},
      {"aten::clamp.out", {T(ScalarType::Half, {2, 3}, {2.7, -0.5, -2.98, -2.91, 1.53, 2.88}), I(0), None()}, T(ScalarType::Half, {2, 3}, {2.7, 0.0, 0.0, 0.0, 1.53, 2.88})},
      {"aten::clamp.out", {T(ScalarType::BFloat16, {2, 3}, {1.046875, 0.671875, -1.859375, 0.6484375, -1.8125, -1.1875}), I(-1), I(2)}, T(ScalarType::BFloat16, {2, 3}, {1.046875, 0.671875, -1.0, 0.6484375, -1.0, -1.0})},
      {"aten::clamp.out", {T(ScalarType::BFloat16, {2, 3}, {1.1328125, -1.90625, -0.15039062, 2.546875, 0.76953125, -2.875}), None(), I(1)}, T(ScalarType::BFloat16, {2, 3}, {1.0, -1.90625, -0.15039062, 1.0, 0.76953125, -2.875})},
      {"aten::clamp.out", {T(ScalarType::BFloat16, {2, 3}, {2.484375, 1.796875, -2.3125, -1.4609375, 0.921875, 1.8984375}), I(0), None()}, T(ScalarType::BFloat16, {2, 3}, {2.484375, 1.796875, 0.0, 0.0, 0.921875, 1.8984375})},
      {"aten::clamp.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf}), R(-0.5), R(0.5)}, T(ScalarType::Float, {8}, {0.0, -0.0, 0.5, -0.5, 0.5, kNaN, 0.5, -0.5})},
      {"aten::clamp.out", {T(ScalarType::Float, {3}, {-5.0, kNaN, 5.0}), R(kNaN), R(2.0)}, T(ScalarType::Float, {3}, {kNaN, kNaN, kNaN})},
      {"aten::clamp.out", {T(ScalarType::Float, {3}, {-5.0, 1.0, 5.0}), I(3), I(2)}, T(ScalarType::Float, {3}, {2.0, 2.0, 2.0})},
      {"aten::clamp.out", {T(ScalarType::Long, {3}, {-5, 1, 5}), R(0.5), I(2)}, T(ScalarType::Float, {3}, {0.5, 1.0, 2.0})},
      {"aten::clamp.out", {T(ScalarType::Byte, {2}, {1, 5}), I(-1), I(300)}, Fails(ScalarType::Byte, {2})},  // value cannot be converted to type uint8_t without overflow
      {"aten::clamp.out", {T(ScalarType::Float, {2}, {0.87, -2.31}), None(), None()}, Fails(ScalarType::Float, {2})},  // torch.clamp: At least one of 'min' or 'max' must not be None
      {"aten::clamp.out", {T(ScalarType::Bool, {2}, {1, 0}), I(0), I(1)}, T(ScalarType::Long, {2}, {1, 0})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Float, {2, 3}, {-2.75, -1.77, -1.44, -1.11, -0.8, 0.4}), T(ScalarType::Float, {3}, {-0.3, -0.31, -0.08}), T(ScalarType::Float, {2, 1}, {1.22, 0.99})}, T(ScalarType::Float, {2, 3}, {-0.3, -0.31, -0.08, -0.3, -0.31, 0.4})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Float, {2, 3}, {0.86, -0.25, -0.39, 2.23, -1.93, -0.75}), T(ScalarType::Float, {3}, {-0.71, -0.86, -0.73}), None()}, T(ScalarType::Float, {2, 3}, {0.86, -0.25, -0.39, 2.23, -0.86, -0.73})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Float, {2, 3}, {-0.97, -0.8, -2.44, 1.68, -2.79, -1.38}), None(), T(ScalarType::Float, {1}, {0.15})}, T(ScalarType::Float, {2, 3}, {-0.97, -0.8, -2.44, 0.15, -2.79, -1.38})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Int, {2, 3}, {4, -1, 0, 1, 3, -3}), T(ScalarType::Int, {3}, {-2, -4, -1}), T(ScalarType::Int, {2, 1}, {3, -1})}, T(ScalarType::Int, {2, 3}, {3, -1, 0, -1, -1, -1})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Int, {2, 3}, {-5, -1, -3, 3, -4, -1}), T(ScalarType::Int, {3}, {0, -1, -1}), None()}, T(ScalarType::Int, {2, 3}, {0, -1, -1, 3, -1, -1})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Int, {2, 3}, {1, -4, -4, 3, 2, 2}), None(), T(ScalarType::Int, {1}, {0})}, T(ScalarType::Int, {2, 3}, {0, -4, -4, 0, 0, 0})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Half, {2, 3}, {2.05, 2.86, -0.94, -0.13, 1.2, -0.44}), T(ScalarType::Half, {3}, {-1.4, -0.53, -0.21}), T(ScalarType::Half, {2, 1}, {1.84, 1.25})}, T(ScalarType::Half, {2, 3}, {1.84, 1.84, -0.21, -0.13, 1.2, -0.21})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Half, {2, 3}, {-0.75, 2.85, 0.83, -2.6, -2.49, 1.5}), T(ScalarType::Half, {3}, {-0.94, -0.99, -0.61}), None()}, T(ScalarType::Half, {2, 3}, {-0.75, 2.85, 0.83, -0.94, -0.99, 1.5})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Half, {2, 3}, {0.11, -0.31, -0.07, 0.51, 1.08, -0.46}), None(), T(ScalarType::Half, {1}, {0.37})}, T(ScalarType::Half, {2, 3}, {0.11, -0.31, -0.07, 0.37, 0.37, -0.46})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Long, {2, 3}, {-1, 4, -3, 1, -2, 0}), T(ScalarType::Long, {3}, {-4, -4, 2}), T(ScalarType::Long, {2, 1}, {4, 4})}, T(ScalarType::Long, {2, 3}, {-1, 4, 2, 1, -2, 2})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Long, {2, 3}, {-5, 3, 2, 5, -2, -4}), T(ScalarType::Long, {3}, {0, 0, -1}), None()}, T(ScalarType::Long, {2, 3}, {0, 3, 2, 5, 0, -1})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Long, {2, 3}, {-2, 5, -5, -2, 4, -3}), None(), T(ScalarType::Long, {1}, {-2})}, T(ScalarType::Long, {2, 3}, {-2, -2, -5, -2, -2, -3})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Float, {2}, {-1.81, -0.73}), T(ScalarType::Float, {2}, {kNaN, 0.0}), None()}, T(ScalarType::Float, {2}, {kNaN, 0.0})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Long, {3}, {-5, 1, 5}), T(ScalarType::Float, {}, {0.5}), None()}, T(ScalarType::Float, {3}, {0.5, 1.0, 5.0})},
      {"aten::clamp.Tensor_out", {T(ScalarType::Float, {2}, {0.28, -2.09}), None(), None()}, Fails(ScalarType::Float, {2})},  // torch.clamp: At least one of 'min' or 'max' must not be None
      {"aten::gelu.out", {T(ScalarType::Float, {2, 3}, {3.91, 3.86, -2.81, -0.75, 1.44, 3.02}), S("none")}, T(ScalarType::Float, {2, 3}, {3.9098196, 3.859781, -0.0069607613, -0.16997047, 1.3320955, 3.016183})},
      {"aten::gelu.out", {T(ScalarType::Float, {2, 3}, {-0.04, 3.34, -1.42, -0.01, -0.01, 1.36}), S("tanh")}, T(ScalarType::Float, {2, 3}, {-0.019361863, 3.338867, -0.11071253, -0.004960106, -0.004960106, 1.241562})},
      {"aten::leaky_relu.out", {T(ScalarType::Float, {2, 3}, {-1.79, 0.66, -1.69, -0.96, 2.78, 2.39}), R(0.01)}, T(ScalarType::Float, {2, 3}, {-0.0179, 0.66, -0.016900001, -0.0095999995, 2.78, 2.39})},
      {"aten::elu.out", {T(ScalarType::Float, {2, 3}, {1.91, -2.79, -2.11, -1.46, 1.7, 2.05}), I(1), I(1), I(1)}, T(ScalarType::Float, {2, 3}, {1.91, -0.9385788, -0.878762, -0.76776373, 1.7, 2.05})},
      {"aten::hardsigmoid.out", {T(ScalarType::Float, {2, 4}, {0.83, 2.18, 3.07, -4.34, -4.15, 3.69, -4.61, -2.75})}, T(ScalarType::Float, {2, 4}, {0.6383333, 0.8633334, 1.0, 0.0, 0.0, 1.0, 0.0, 0.041666668})},
      {"aten::hardswish.out", {T(ScalarType::Float, {2, 4}, {-4.59, -4.85, 3.44, -1.69, -3.39, -3.51, 1.56, 4.69})}, T(ScalarType::Float, {2, 4}, {-0.0, -0.0, 3.4399998, -0.36898336, -0.0, -0.0, 1.1855999, 4.69})},
      {"aten::glu.out", {T(ScalarType::Float, {2, 4}, {0.03, 2.41, 0.01, 0.44, 1.07, 1.83, 1.55, 2.94}), I(-1)}, T(ScalarType::Float, {2, 2}, {0.015075, 1.4659044, 0.88265777, 1.7381133})},
      {"aten::gelu.out", {T(ScalarType::Double, {2, 3}, {1.98, 3.25, -2.35, 0.28, 0.79, 2.61}), S("none")}, T(ScalarType::Double, {2, 3}, {1.932773506603813, 3.24812466861223, -0.02205875800687061, 0.17087314931562325, 0.6203365315107267, 2.598184239942955})},
      {"aten::gelu.out", {T(ScalarType::Double, {2, 3}, {-0.14, 2.33, -0.89, 0.69, 2.81, 2.38}), S("tanh")}, T(ScalarType::Double, {2, 3}, {-0.06220632404459751, 2.307283467745422, -0.1663062345544276, 0.5208302332727041, 2.8035033264693596, 2.359784665414862})},
      {"aten::leaky_relu.out", {T(ScalarType::Double, {2, 3}, {0.94, -3.0, -1.91, 0.04, -1.47, -2.61}), R(0.01)}, T(ScalarType::Double, {2, 3}, {0.94, -0.03, -0.0191, 0.04, -0.0147, -0.026099999999999998})},
      {"aten::elu.out", {T(ScalarType::Double, {2, 3}, {2.16, 2.66, -1.18, -0.55, 1.86, -2.63}), I(1), I(1), I(1)}, T(ScalarType::Double, {2, 3}, {2.16, 2.66, -0.6927212613988687, -0.42305018961951335, 1.86, -0.9279215377612339})},
      {"aten::hardsigmoid.out", {T(ScalarType::Double, {2, 4}, {1.41, -3.73, -2.13, 3.3, -4.44, -4.64, -0.82, -0.08})}, T(ScalarType::Double, {2, 4}, {0.735, 0.0, 0.14500000000000002, 1.0, 0.0, 0.0, 0.36333333333333334, 0.48666666666666664})},
      {"aten::hardswish.out", {T(ScalarType::Double, {2, 4}, {3.63, 2.17, 1.74, -3.49, 4.87, -0.89, 1.12, -1.13})}, T(ScalarType::Double, {2, 4}, {3.6300000000000003, 1.8698166666666667, 1.3746, -0.0, 4.87, -0.31298333333333334, 0.7690666666666668, -0.3521833333333333})},
      {"aten::glu.out", {T(ScalarType::Double, {2, 4}, {-2.72, -0.17, -2.09, -2.81, 0.7, 0.78, -2.37, 0.29}), I(-1)}, T(ScalarType::Double, {2, 2}, {-0.29939740226600825, -0.009653650737494043, 0.05984239760436458, 0.4461569836865846})},
      {"aten::gelu.out", {T(ScalarType::Half, {2, 3}, {-1.23, -0.93, 2.21, -0.08, 3.05, 0.88}), S("none")}, T(ScalarType::Half, {2, 3}, {-0.1344, -0.1638, 2.182, -0.03745, 3.047, 0.7134})},
      {"aten::gelu.out", {T(ScalarType::Half, {2, 3}, {-0.26, 1.06, -1.3, -3.01, 1.46, 0.98}), S("tanh")}, T(ScalarType::Half, {2, 3}, {-0.10333, 0.9062, -0.1261, -0.003527, 1.3545, 0.8193})},
      {"aten::leaky_relu.out", {T(ScalarType::Half, {2, 3}, {1.73, -2.24, 2.47, 1.8, 2.5, 2.24}), R(0.01)}, T(ScalarType::Half, {2, 3}, {1.73, -0.0224, 2.47, 1.8, 2.5, 2.24})},
      {"aten::elu.out", {T(ScalarType::Half, {2, 3}, {1.09, 1.86, 0.11, 1.71, -1.87, 1.69}), I(1), I(1), I(1)}, T(ScalarType::Half, {2, 3}, {1.09, 1.86, 0.11, 1.71, -0.8457, 1.69})},
      {"aten::hardsigmoid.out", {T(ScalarType::Half, {2, 4}, {-0.55, 2.57, -0.45, 2.9, -4.25, -4.55, 4.34, -0.14})}, T(ScalarType::Half, {2, 4}, {0.4084, 0.928, 0.425, 0.9834, 0.0, 0.0, 1.0, 0.4766})},
      {"aten::hardswish.out", {T(ScalarType::Half, {2, 4}, {4.01, 4.45, 1.67, 0.72, -2.84, -4.07, 3.19, 3.89})}, T(ScalarType::Half, {2, 4}, {4.01, 4.45, 1.3, 0.4465, -0.0758, -0.0, 3.19, 3.89})},
      {"aten::glu.out", {T(ScalarType::Half, {2, 4}, {1.68, 1.19, -0.48, -1.17, -2.32, -0.44, 0.4, 2.54}), I(-1)}, T(ScalarType::Half, {2, 2}, {0.642, 0.282, -1.389, -0.4077})},
      {"aten::gelu.out", {T(ScalarType::BFloat16, {2, 3}, {3.484375, -0.671875, -3.203125, 2.1875, 1.8671875, -3.75}), S("none")}, T(ScalarType::BFloat16, {2, 3}, {3.484375, -0.16894531, -0.0021820068, 2.15625, 1.8125, -0.00033187866})},
      {"aten::gelu.out", {T(ScalarType::BFloat16, {2, 3}, {-0.4296875, 1.4921875, -3.765625, 3.34375, 3.703125, 1.78125}), S("tanh")}, T(ScalarType::BFloat16, {2, 3}, {-0.14355469, 1.390625, -0.00020503998, 3.34375, 3.703125, 1.7109375})},
      {"aten::leaky_relu.out", {T(ScalarType::BFloat16, {2, 3}, {-2.53125, -2.578125, -0.83984375, -2.8125, -0.91015625, -2.9375}), R(0.01)}, T(ScalarType::BFloat16, {2, 3}, {-0.025268555, -0.025756836, -0.008422852, -0.028076172, -0.009094238, -0.029418945})},
      {"aten::elu.out", {T(ScalarType::BFloat16, {2, 3}, {2.84375, 1.90625, -2.578125, 2.359375, -1.75, -1.7734375}), I(1), I(1), I(1)}, T(ScalarType::BFloat16, {2, 3}, {2.84375, 1.90625, -0.92578125, 2.359375, -0.828125, -0.83203125})},
      {"aten::hardsigmoid.out", {T(ScalarType::BFloat16, {2, 4}, {1.7421875, 4.375, -3.765625, -4.9375, -1.3125, -4.75, 1.046875, 3.59375})}, T(ScalarType::BFloat16, {2, 4}, {0.7890625, 1.0, 0.0, 0.0, 0.28125, 0.0, 0.67578125, 1.0})},
      {"aten::hardswish.out", {T(ScalarType::BFloat16, {2, 4}, {-3.125, -3.875, -1.5625, 4.59375, -3.703125, 4.65625, -1.3828125, -0.26953125})}, T(ScalarType::BFloat16, {2, 4}, {-0.0, -0.0, -0.375, 4.59375, -0.0, 4.65625, -0.37304688, -0.122558594})},
      {"aten::glu.out", {T(ScalarType::BFloat16, {2, 4}, {-1.2421875, 2.625, 2.75, 0.8203125, -1.8984375, 2.953125, -2.375, 0.49023438}), I(-1)}, T(ScalarType::BFloat16, {2, 2}, {-1.1640625, 1.8203125, -0.16113281, 1.828125})},
      {"aten::gelu.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf}), S("none")}, T(ScalarType::Float, {8}, {0.0, 0.0, 0.8413447, -0.15865529, 0.3457312, kNaN, kInf, kNaN})},
      {"aten::gelu.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf}), S("tanh")}, T(ScalarType::Float, {8}, {0.0, -0.0, 0.841192, -0.158808, 0.345714, kNaN, kInf, kNaN})},
      {"aten::gelu.out", {T(ScalarType::Float, {2}, {-2.06, 2.39}), S("bad")}, Fails(ScalarType::Float, {2})},  // approximate argument must be either none or tanh.
      {"aten::gelu.out", {T(ScalarType::Int, {2}, {-3, -2}), S("none")}, Fails(ScalarType::Int, {2})},  // "GeluKernelImpl" not implemented for 'Int'
      {"aten::leaky_relu.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf}), I(2)}, T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -2.0, 0.5, kNaN, kInf, -kInf})},
      {"aten::elu.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf}), R(1.5), R(2.0), R(3.0)}, T(ScalarType::Float, {8}, {0.0, -0.0, 2.0, -2.8506389, 1.0, kNaN, kInf, -3.0})},
      {"aten::hardsigmoid.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.5, 0.5, 0.6666667, 0.33333334, 0.5833333, kNaN, 1.0, 0.0})},
      {"aten::hardswish.out", {T(ScalarType::Float, {8}, {0.0, -0.0, 1.0, -1.0, 0.5, kNaN, kInf, -kInf})}, T(ScalarType::Float, {8}, {0.0, -0.0, 0.6666667, -0.33333334, 0.29166666, kNaN, kInf, kNaN})},
      {"aten::leaky_relu.out", {T(ScalarType::Int, {2}, {0, 3}), R(0.01)}, Fails(ScalarType::Int, {2})},  // "leaky_relu_cpu" not implemented for 'Int'
      {"aten::hardswish.out", {T(ScalarType::Int, {2}, {-2, -2})}, Fails(ScalarType::Int, {2})},  // "hardswish_cpu" not implemented for 'Int'
      {"aten::glu.out", {T(ScalarType::Float, {4, 2, 3}, {1.53, -1.25, -0.48, -2.72, -2.21, -2.88, -2.53, -2.56, -0.48, 0.3, 1.45, -2.15, -0.47, 0.82, -2.49, -0.33, -0.78, 2.69, -2.65, -0.55, -0.5, 1.37, -1.08, -1.78}), I(0)}, T(ScalarType::Float, {2, 2, 3}, {0.5884629, -0.86779547, -0.036749855, -1.1376144, -0.69464695, -2.6969297, -0.16695218, -0.9366129, -0.18121952, 0.23921405, 0.36758372, -0.31025177})},
      {"aten::glu.out", {T(ScalarType::Float, {4, 2, 3}, {-1.24, -0.17, 2.7, 1.78, -1.34, 0.35, 1.13, 1.77, -0.32, -0.61, 1.61, -0.41, -1.51, -0.28, 2.62, -2.14, -0.23, 0.82, -0.1, -1.78, -2.99, 1.19, 0.71, -2.95}), I(1)}, T(ScalarType::Float, {4, 1, 3}, {-1.0610642, -0.03527671, 1.5838675, 0.39782688, 1.4751382, -0.12765187, -0.15895677, -0.123970605, 1.8188993, -0.076674104, -1.1933141, -0.14871216})},
      {"aten::glu.out", {T(ScalarType::Float, {4, 2, 3}, {-1.21, 1.61, 0.77, 0.27, -2.06, 1.24, -0.17, 1.07, 1.56, -1.61, 1.57, -1.32, 2.9, -2.28, 2.3, -2.76, -1.46, 0.16, 0.49, -0.62, -2.39, -1.48, -1.3, 1.53}), I(-2)}, T(ScalarType::Float, {4, 1, 3}, {-0.68618244, 0.18200381, 0.5971843, -0.028320063, 0.88572854, 0.32887653, 0.17262067, -0.4297055, 1.2418042, 0.090859435, -0.13278233, -1.9645951})},
      {"aten::glu.out", {T(ScalarType::Float, {4, 2, 3}, {2.45, 0.57, -2.79, 1.75, -1.17, -0.96, 0.18, -1.51, 2.52, -2.02, -0.51, -1.26, 0.12, 0.44, 0.76, 0.19, -0.54, 0.81, -0.58, 1.67, 1.73, -1.25, -0.77, 0.77}), I(2)}, Fails(ScalarType::Float, {4, 2, 3})},  // Halving dimension must be even, but dimension 2 is size 3
      {"aten::glu.out", {T(ScalarType::Float, {4, 2, 3}, {-2.06, 1.18, -0.71, 0.55, -2.16, 1.01, -0.88, -0.16, -0.51, -0.14, 1.17, -1.09, 0.91, -2.64, -1.2, 1.47, -2.69, 0.73, -2.85, -0.17, 2.33, -2.94, 0.16, -2.6}), I(3)}, Fails(ScalarType::Float, {4, 2, 3})},  // Dimension out of range (expected to be in range of [-3, 2], 
      {"aten::glu.out", {T(ScalarType::Int, {2, 4}, {-4, 5, 5, 1, -5, 0, -5, -4}), I(1)}, Fails(ScalarType::Int, {2, 4})},  // "glu_cpu" not implemented for 'Int'
  };
  return cases;
}

const std::vector<TorchCase>& fill_cases() {
  static const std::vector<TorchCase> cases = {
      {"aten::where.self_out", {T(ScalarType::Bool, {2, 3}, {0, 0, 1, 1, 0, 1}), T(ScalarType::Float, {2, 3}, {1.7, -1.18, -0.14, 0.5, 2.45, 0.03}), T(ScalarType::Float, {3}, {-1.31, 1.53, 0.71})}, T(ScalarType::Float, {2, 3}, {-1.31, 1.53, -0.14, 0.5, 1.53, 0.03})},
      {"aten::where.self_out", {T(ScalarType::Bool, {2, 3}, {1, 0, 0, 0, 0, 1}), T(ScalarType::Int, {2, 3}, {-4, 5, 0, 2, 3, -4}), T(ScalarType::Int, {3}, {0, 1, 0})}, T(ScalarType::Int, {2, 3}, {-4, 1, 0, 0, 1, -4})},
      {"aten::where.self_out", {T(ScalarType::Bool, {2, 3}, {0, 0, 0, 1, 0, 1}), T(ScalarType::Half, {2, 3}, {1.83, 0.29, -2.92, 1.32, -0.61, 1.95}), T(ScalarType::Half, {3}, {1.01, -2.99, -0.04})}, T(ScalarType::Half, {2, 3}, {1.01, -2.99, -0.04, 1.32, -2.99, 1.95})},
      {"aten::where.self_out", {T(ScalarType::Bool, {2, 3}, {0, 1, 1, 0, 1, 0}), T(ScalarType::BFloat16, {2, 3}, {-1.5703125, 2.8125, 1.8203125, -0.31054688, -2.515625, -1.078125}), T(ScalarType::BFloat16, {3}, {0.050048828, 2.59375, -2.34375})}, T(ScalarType::BFloat16, {2, 3}, {0.050048828, 2.8125, 1.8203125, 0.050048828, -2.515625, -2.34375})},
      {"aten::where.self_out", {T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0}), T(ScalarType::Double, {2, 3}, {0.62, 0.53, -0.33, 0.58, -0.69, 0.45}), T(ScalarType::Double, {3}, {-1.26, -1.86, -1.88})}, T(ScalarType::Double, {2, 3}, {-1.26, -1.86, -1.88, -1.26, -1.86, -1.88})},
      {"aten::where.self_out", {T(ScalarType::Bool, {2, 3}, {0, 0, 1, 1, 0, 0}), T(ScalarType::Long, {2, 3}, {-5, -4, 3, 5, 1, 3}), T(ScalarType::Long, {3}, {-1, 3, -2})}, T(ScalarType::Long, {2, 3}, {-1, 3, 3, 5, 3, -2})},
      {"aten::where.self_out", {T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 1}), T(ScalarType::Byte, {2, 3}, {10, 10, 5, 1, 5, 9}), T(ScalarType::Byte, {3}, {1, 7, 9})}, T(ScalarType::Byte, {2, 3}, {1, 7, 9, 1, 7, 9})},
      {"aten::where.self_out", {T(ScalarType::Bool, {2, 3}, {0, 0, 1, 0, 1, 1}), T(ScalarType::Bool, {2, 3}, {0, 1, 0, 1, 1, 0}), T(ScalarType::Bool, {3}, {1, 0, 0})}, T(ScalarType::Bool, {2, 3}, {1, 0, 0, 1, 1, 0})},
      {"aten::where.self_out", {T(ScalarType::Bool, {2, 1}, {0, 0}), T(ScalarType::Float, {3}, {-2.84, 0.81, 0.64}), T(ScalarType::Float, {}, {0.46})}, T(ScalarType::Float, {2, 3}, {0.46, 0.46, 0.46, 0.46, 0.46, 0.46})},
      {"aten::where.self_out", {T(ScalarType::Bool, {2}, {1, 1}), T(ScalarType::Int, {2}, {-4, -5}), T(ScalarType::Float, {}, {0.5})}, T(ScalarType::Float, {2}, {-4.0, -5.0})},
      {"aten::where.self_out", {T(ScalarType::Bool, {2}, {0, 1}), T(ScalarType::Half, {2}, {2.82, 1.31}), T(ScalarType::Double, {}, {0.5})}, T(ScalarType::Half, {2}, {0.5, 1.31})},
      {"aten::where.self_out", {T(ScalarType::Bool, {2}, {1, 0}), T(ScalarType::Long, {2}, {-5, 5}), T(ScalarType::Bool, {2}, {1, 1})}, T(ScalarType::Long, {2}, {-5, 1})},
      {"aten::where.self_out", {T(ScalarType::Bool, {2}, {1, 1}), T(ScalarType::Int, {2}, {-2, -4}), T(ScalarType::Float, {2}, {0.88, -0.9})}, T(ScalarType::Float, {2}, {-2.0, -4.0})},
      {"aten::where.self_out", {T(ScalarType::Bool, {}, {1}), T(ScalarType::Float, {}, {0.02}), T(ScalarType::Float, {}, {-2.76})}, T(ScalarType::Float, {}, {0.02})},
      {"aten::where.self_out", {T(ScalarType::Bool, {2}, {1, 0}), T(ScalarType::Float, {3}, {-1.8, -0.85, 1.39}), T(ScalarType::Float, {3}, {2.03, 2.51, -1.98})}, Fails(ScalarType::Float, {2})},  // The size of tensor a (2) must match the size of tensor b (3)
      {"aten::masked_fill.Scalar_out", {T(ScalarType::Float, {2, 3}, {1.04, 2.8, -2.65, 1.06, 2.07, -0.95}), T(ScalarType::Bool, {3}, {1, 0, 1}), I(1)}, T(ScalarType::Float, {2, 3}, {1.0, 2.8, 1.0, 1.0, 2.07, 1.0})},
      {"aten::masked_fill.Scalar_out", {T(ScalarType::Int, {2, 3}, {-3, -5, 2, 5, 1, 4}), T(ScalarType::Bool, {3}, {0, 0, 0}), I(1)}, T(ScalarType::Int, {2, 3}, {-3, -5, 2, 5, 1, 4})},
      {"aten::masked_fill.Scalar_out", {T(ScalarType::Half, {2, 3}, {-0.67, 0.95, -2.08, 1.14, -0.25, -2.53}), T(ScalarType::Bool, {3}, {0, 0, 1}), I(1)}, T(ScalarType::Half, {2, 3}, {-0.67, 0.95, 1.0, 1.14, -0.25, 1.0})},
      {"aten::masked_fill.Scalar_out", {T(ScalarType::BFloat16, {2, 3}, {1.5703125, -0.10986328, 0.66015625, 1.0390625, 0.5390625, 2.34375}), T(ScalarType::Bool, {3}, {0, 1, 1}), I(1)}, T(ScalarType::BFloat16, {2, 3}, {1.5703125, 1.0, 1.0, 1.0390625, 1.0, 1.0})},
      {"aten::masked_fill.Scalar_out", {T(ScalarType::Long, {2, 3}, {1, 5, -4, -5, 4, -2}), T(ScalarType::Bool, {3}, {0, 1, 1}), I(1)}, T(ScalarType::Long, {2, 3}, {1, 1, 1, -5, 1, 1})},
      {"aten::masked_fill.Scalar_out", {T(ScalarType::Byte, {2, 3}, {7, 6, 10, 9, 6, 0}), T(ScalarType::Bool, {3}, {1, 0, 1}), I(1)}, T(ScalarType::Byte, {2, 3}, {1, 6, 1, 1, 6, 1})},
      {"aten::masked_fill.Scalar_out", {T(ScalarType::Bool, {2, 3}, {0, 1, 1, 1, 1, 0}), T(ScalarType::Bool, {3}, {1, 0, 0}), I(1)}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 0})},
      {"aten::masked_fill.Scalar_out", {T(ScalarType::Float, {2}, {2.3, -0.03}), T(ScalarType::Bool, {2, 1}, {1, 1}), R(0.5)}, T(ScalarType::Float, {2, 2}, {0.5, 0.5, 0.5, 0.5})},
      {"aten::masked_fill.Scalar_out", {T(ScalarType::Long, {2}, {1, -2}), T(ScalarType::Bool, {2}, {1, 0}), R(2.5)}, T(ScalarType::Long, {2}, {2, -2})},
      {"aten::masked_fill.Scalar_out", {T(ScalarType::Float, {2}, {0.29, 2.78}), T(ScalarType::Bool, {2}, {1, 0}), R(-kInf)}, T(ScalarType::Float, {2}, {-kInf, 2.78})},
      {"aten::masked_fill.Scalar_out", {T(ScalarType::Char, {2}, {-4, -3}), T(ScalarType::Bool, {2}, {1, 0}), I(1000)}, Fails(ScalarType::Char, {2})},  // value cannot be converted to type int8_t without overflow
      {"aten::masked_fill.Scalar_out", {T(ScalarType::Float, {2}, {2.92, -0.59}), T(ScalarType::Byte, {2}, {1, 0}), R(1.0)}, Fails(ScalarType::Float, {2})},  // masked_fill_ only supports boolean masks, but got mask with 
      {"aten::full.out", {L({2, 3}), I(3)}, T(ScalarType::Float, {2, 3}, {3.0, 3.0, 3.0, 3.0, 3.0, 3.0})},
      {"aten::fill.Scalar_out", {T(ScalarType::Float, {2, 2}, {1.07, -1.1, -1.72, 1.3}), I(1)}, T(ScalarType::Float, {2, 2}, {1.0, 1.0, 1.0, 1.0})},
      {"aten::full_like.out", {T(ScalarType::Float, {3}, {-2.99, 1.94, 0.17}), I(2), None()}, T(ScalarType::Float, {3}, {2.0, 2.0, 2.0})},
      {"aten::full.out", {L({2, 3}), I(3)}, T(ScalarType::Int, {2, 3}, {3, 3, 3, 3, 3, 3})},
      {"aten::fill.Scalar_out", {T(ScalarType::Int, {2, 2}, {-4, -2, -4, 4}), I(1)}, T(ScalarType::Int, {2, 2}, {1, 1, 1, 1})},
      {"aten::full_like.out", {T(ScalarType::Float, {3}, {0.9, 2.24, -1.32}), I(2), None()}, T(ScalarType::Int, {3}, {2, 2, 2})},
      {"aten::full.out", {L({2, 3}), I(3)}, T(ScalarType::Half, {2, 3}, {3.0, 3.0, 3.0, 3.0, 3.0, 3.0})},
      {"aten::fill.Scalar_out", {T(ScalarType::Half, {2, 2}, {2.87, -2.4, 2.12, -0.62}), I(1)}, T(ScalarType::Half, {2, 2}, {1.0, 1.0, 1.0, 1.0})},
      {"aten::full_like.out", {T(ScalarType::Float, {3}, {-2.51, -1.35, -0.28}), I(2), None()}, T(ScalarType::Half, {3}, {2.0, 2.0, 2.0})},
      {"aten::full.out", {L({2, 3}), I(3)}, T(ScalarType::BFloat16, {2, 3}, {3.0, 3.0, 3.0, 3.0, 3.0, 3.0})},
      {"aten::fill.Scalar_out", {T(ScalarType::BFloat16, {2, 2}, {1.75, 2.171875, -2.203125, 0.12988281}), I(1)}, T(ScalarType::BFloat16, {2, 2}, {1.0, 1.0, 1.0, 1.0})},
      {"aten::full_like.out", {T(ScalarType::Float, {3}, {0.9, -0.92, 2.23}), I(2), None()}, T(ScalarType::BFloat16, {3}, {2.0, 2.0, 2.0})},
      {"aten::full.out", {L({2, 3}), I(3)}, T(ScalarType::Double, {2, 3}, {3.0, 3.0, 3.0, 3.0, 3.0, 3.0})},
      {"aten::fill.Scalar_out", {T(ScalarType::Double, {2, 2}, {-1.33, -2.89, -2.76, 1.09}), I(1)}, T(ScalarType::Double, {2, 2}, {1.0, 1.0, 1.0, 1.0})},
      {"aten::full_like.out", {T(ScalarType::Float, {3}, {0.35, 2.68, 2.63}), I(2), None()}, T(ScalarType::Double, {3}, {2.0, 2.0, 2.0})},
      {"aten::full.out", {L({2, 3}), I(3)}, T(ScalarType::Long, {2, 3}, {3, 3, 3, 3, 3, 3})},
      {"aten::fill.Scalar_out", {T(ScalarType::Long, {2, 2}, {-5, 4, 5, 2}), I(1)}, T(ScalarType::Long, {2, 2}, {1, 1, 1, 1})},
      {"aten::full_like.out", {T(ScalarType::Float, {3}, {1.27, 2.42, 0.84}), I(2), None()}, T(ScalarType::Long, {3}, {2, 2, 2})},
      {"aten::full.out", {L({2, 3}), I(3)}, T(ScalarType::Byte, {2, 3}, {3, 3, 3, 3, 3, 3})},
      {"aten::fill.Scalar_out", {T(ScalarType::Byte, {2, 2}, {5, 8, 2, 3}), I(1)}, T(ScalarType::Byte, {2, 2}, {1, 1, 1, 1})},
      {"aten::full_like.out", {T(ScalarType::Float, {3}, {-0.75, -1.25, -2.17}), I(2), None()}, T(ScalarType::Byte, {3}, {2, 2, 2})},
      {"aten::full.out", {L({2, 3}), I(3)}, T(ScalarType::Char, {2, 3}, {3, 3, 3, 3, 3, 3})},
      {"aten::fill.Scalar_out", {T(ScalarType::Char, {2, 2}, {-1, 0, 0, 0}), I(1)}, T(ScalarType::Char, {2, 2}, {1, 1, 1, 1})},
      {"aten::full_like.out", {T(ScalarType::Float, {3}, {1.31, -0.97, 0.72}), I(2), None()}, T(ScalarType::Char, {3}, {2, 2, 2})},
      {"aten::full.out", {L({2, 3}), I(3)}, T(ScalarType::Short, {2, 3}, {3, 3, 3, 3, 3, 3})},
      {"aten::fill.Scalar_out", {T(ScalarType::Short, {2, 2}, {-5, -1, -3, -3}), I(1)}, T(ScalarType::Short, {2, 2}, {1, 1, 1, 1})},
      {"aten::full_like.out", {T(ScalarType::Float, {3}, {2.89, -1.26, -0.63}), I(2), None()}, T(ScalarType::Short, {3}, {2, 2, 2})},
      {"aten::full.out", {L({2, 3}), I(3)}, T(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::fill.Scalar_out", {T(ScalarType::Bool, {2, 2}, {0, 1, 1, 1}), I(1)}, T(ScalarType::Bool, {2, 2}, {1, 1, 1, 1})},
      {"aten::full_like.out", {T(ScalarType::Float, {3}, {-2.71, -1.92, 0.14}), I(2), None()}, T(ScalarType::Bool, {3}, {1, 1, 1})},
      {"aten::full.out", {L({2}), R(2.7)}, T(ScalarType::Int, {2}, {2, 2})},
      {"aten::full.out", {L({2}), I(-1)}, T(ScalarType::Byte, {2}, {255, 255})},
      {"aten::full.out", {L({2}), I(300)}, Fails(ScalarType::Byte, {2})},  // value cannot be converted to type uint8_t without overflow
      {"aten::full.out", {L({2}), R(kNaN)}, Fails(ScalarType::Int, {2})},  // value cannot be converted to type int without overflow
      {"aten::full.out", {L({2}), R(kNaN)}, T(ScalarType::Float, {2}, {kNaN, kNaN})},
      {"aten::full.out", {L({2}), R(70000.0)}, Fails(ScalarType::Half, {2})},  // value cannot be converted to type c10::Half without overflow
      {"aten::full.out", {L({2}), R(1e+40)}, Fails(ScalarType::Float, {2})},  // value cannot be converted to type float without overflow
      {"aten::full.out", {L({2}), R(kInf)}, T(ScalarType::Half, {2}, {kInf, kInf})},
      {"aten::full.out", {L({2}), B(true)}, T(ScalarType::Float, {2}, {1.0, 1.0})},
      {"aten::full.out", {L({}), R(1.5)}, T(ScalarType::Float, {}, {1.5})},
      {"aten::full.out", {L({0, 2}), R(1.5)}, T(ScalarType::Float, {0, 2}, {})},
      {"aten::fill.Scalar_out", {T(ScalarType::Bool, {2}, {1, 1}), I(5)}, T(ScalarType::Bool, {2}, {1, 1})},
      {"aten::fill.Scalar_out", {T(ScalarType::Int, {2}, {0, -1}), R(2.5)}, T(ScalarType::Int, {2}, {2, 2})},
      {"aten::fill.Tensor_out", {T(ScalarType::Int, {2}, {1, -4}), T(ScalarType::Float, {}, {2.5})}, T(ScalarType::Int, {2}, {2, 2})},
      {"aten::fill.Tensor_out", {T(ScalarType::Float, {2, 2}, {-2.4, 2.45, -0.16, 2.05}), T(ScalarType::Long, {}, {7})}, T(ScalarType::Float, {2, 2}, {7.0, 7.0, 7.0, 7.0})},
      {"aten::fill.Tensor_out", {T(ScalarType::Float, {2}, {2.86, -0.94}), T(ScalarType::Bool, {}, {1})}, T(ScalarType::Float, {2}, {1.0, 1.0})},
      {"aten::fill.Tensor_out", {T(ScalarType::Float, {2}, {-0.13, 1.2}), T(ScalarType::Float, {1}, {1.0})}, Fails(ScalarType::Float, {2})},  // fill_ only supports 0-dimension value tensor but got tensor 
      {"aten::full_like.out", {T(ScalarType::Float, {2, 3}, {-0.44, -1.19, 1.41, 2.37, 2.52, 0.76}), R(1.5), I(0)}, T(ScalarType::Half, {2, 3}, {1.5, 1.5, 1.5, 1.5, 1.5, 1.5})},
      {"aten::full_like.out", {T(ScalarType::Int, {2, 3}, {1, 5, -4, -4, -4, -2}), R(1.5), I(1)}, T(ScalarType::Int, {2, 3}, {1, 1, 1, 1, 1, 1})},
      {"aten::scalar_tensor.out", {R(2.5)}, T(ScalarType::Float, {}, {2.5})},
      {"aten::zeros.out", {L({2, 3})}, T(ScalarType::Float, {2, 3}, {0.0, 0.0, 0.0, 0.0, 0.0, 0.0})},
      {"aten::ones.out", {L({3})}, T(ScalarType::Float, {3}, {1.0, 1.0, 1.0})},
      {"aten::scalar_tensor.out", {R(2.5)}, T(ScalarType::Long, {}, {2})},
      {"aten::zeros.out", {L({2, 3})}, T(ScalarType::Long, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::ones.out", {L({3})}, T(ScalarType::Long, {3}, {1, 1, 1})},
      {"aten::scalar_tensor.out", {R(2.5)}, T(ScalarType::Bool, {}, {1})},
      {"aten::zeros.out", {L({2, 3})}, T(ScalarType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0})},
      {"aten::ones.out", {L({3})}, T(ScalarType::Bool, {3}, {1, 1, 1})},
      {"aten::scalar_tensor.out", {R(2.5)}, T(ScalarType::Half, {}, {2.5})},
      {"aten::zeros.out", {L({2, 3})}, T(ScalarType::Half, {2, 3}, {0.0, 0.0, 0.0, 0.0, 0.0, 0.0})},
      {"aten::ones.out", {L({3})}, T(ScalarType::Half, {3}, {1.0, 1.0, 1.0})},
      {"aten::scalar_tensor.out", {B(true)}, T(ScalarType::Float, {}, {1.0})},
  };
  return cases;
}

// clang-format on

TEST(ElementwiseBinary, MatchesTorch) { run_cases(binary_cases()); }
TEST(ElementwiseCompare, MatchesTorch) { run_cases(compare_cases()); }
TEST(ElementwiseUnary, MatchesTorch) { run_cases(unary_cases()); }
TEST(ElementwiseActivation, MatchesTorch) { run_cases(activation_cases()); }
TEST(ElementwiseFill, MatchesTorch) { run_cases(fill_cases()); }

}  // namespace
}  // namespace ember
