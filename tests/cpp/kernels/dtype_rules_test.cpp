// Tests for kernels/portable/util/dtype_rules.h, the one definition of element
// conversion, scalar conversion, opmath and NaN rules. Expected values are
// torch 2.13's on x86-64 (the generator expression is quoted with each table).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/portable/util/dtype_rules.h"
#include "runtime/core/evalue.h"

namespace ember {
namespace {

using kernels::convert;

uint16_t bits(Half h) { return h.bits; }
uint16_t bits(BFloat16 b) { return b.bits; }

// ------------------------------------------------------------------ types

static_assert(std::is_same_v<kernels::opmath_t<Half>, float>);
static_assert(std::is_same_v<kernels::opmath_t<BFloat16>, float>);
static_assert(std::is_same_v<kernels::opmath_t<float>, float>);
static_assert(std::is_same_v<kernels::opmath_t<double>, double>);
static_assert(std::is_same_v<kernels::opmath_t<int8_t>, int8_t>);
static_assert(std::is_same_v<kernels::opmath_t<bool>, bool>);
static_assert(std::is_same_v<kernels::acc_t<Half>, float>);
static_assert(std::is_same_v<kernels::acc_t<BFloat16>, float>);
static_assert(std::is_same_v<kernels::acc_t<float>, float>);
static_assert(std::is_same_v<kernels::acc_t<double>, double>);
static_assert(std::is_same_v<kernels::acc_t<uint8_t>, int64_t>);
static_assert(std::is_same_v<kernels::acc_t<int32_t>, int64_t>);
static_assert(std::is_same_v<kernels::acc_t<bool>, int64_t>);
static_assert(kernels::is_float_v<Half> && kernels::is_float_v<double> &&
              !kernels::is_float_v<int64_t> && !kernels::is_float_v<bool>);

// ------------------------------------------------------------------ float -> integer

struct IntRow {
  double value;
  int64_t expect[6];  // uint8, int8, int16, int32, int64, bool
};

template <typename From>
void check_float_to_integers(const std::vector<IntRow>& rows, const char* from) {
  for (const IntRow& r : rows) {
    const From v = static_cast<From>(r.value);
    EXPECT_EQ(convert<uint8_t>(v), static_cast<uint8_t>(r.expect[0])) << from << " " << r.value;
    EXPECT_EQ(convert<int8_t>(v), static_cast<int8_t>(r.expect[1])) << from << " " << r.value;
    EXPECT_EQ(convert<int16_t>(v), static_cast<int16_t>(r.expect[2])) << from << " " << r.value;
    EXPECT_EQ(convert<int32_t>(v), static_cast<int32_t>(r.expect[3])) << from << " " << r.value;
    EXPECT_EQ(convert<int64_t>(v), r.expect[4]) << from << " " << r.value;
    EXPECT_EQ(convert<bool>(v), r.expect[5] != 0) << from << " " << r.value;
  }
}

// torch.tensor([value], dtype=torch.float64).to(dtype), for each integer dtype.
TEST(DtypeRules, DoubleToIntegersLikeTorch) {
  const std::vector<IntRow> rows = {
      {NAN, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
      {INFINITY, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
      {-INFINITY, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
      {-0.0, {0, 0, 0, 0, 0, false}},
      {0.5, {0, 0, 0, 0, 0, true}},
      {-0.5, {0, 0, 0, 0, 0, true}},
      {0.99, {0, 0, 0, 0, 0, true}},
      {-0.99, {0, 0, 0, 0, 0, true}},
      {127.9, {127, 127, 127, 127, 127, true}},
      {128.0, {128, -128, 128, 128, 128, true}},
      {-128.9, {128, -128, -128, -128, -128, true}},
      {-129.0, {127, 127, -129, -129, -129, true}},
      {255.9, {255, -1, 255, 255, 255, true}},
      {256.0, {0, 0, 256, 256, 256, true}},
      {300.7, {44, 44, 300, 300, 300, true}},
      {-300.7, {212, -44, -300, -300, -300, true}},
      {-1.5, {255, -1, -1, -1, -1, true}},
      {32767.9, {255, -1, 32767, 32767, 32767, true}},
      {32768.0, {0, 0, -32768, 32768, 32768, true}},
      {-32769.0, {255, -1, 32767, -32769, -32769, true}},
      {70000.0, {112, 112, 4464, 70000, 70000, true}},
      {2147483520.0, {128, -128, -128, 2147483520, 2147483520, true}},
      {2147483647.0, {255, -1, -1, 2147483647, 2147483647, true}},
      {2147483648.0, {0, 0, 0, INT32_MIN, 2147483648, true}},
      {-2147483648.9, {0, 0, 0, INT32_MIN, -2147483648, true}},
      // uint8 goes through int64 (c10's static_cast_with_inter_type<uint8_t>),
      // the other narrow types through int32: the two differ here.
      {-2147483649.0, {255, 0, 0, INT32_MIN, -2147483649, true}},
      {3e9, {0, 0, 0, INT32_MIN, 3000000000, true}},
      {-3e9, {0, 0, 0, INT32_MIN, -3000000000, true}},
      {4294967301.0, {5, 0, 0, INT32_MIN, 4294967301, true}},
      {-4294967301.0, {251, 0, 0, INT32_MIN, -4294967301, true}},
      {9.2e18, {0, 0, 0, INT32_MIN, 9200000000000000000, true}},
      {9223372036854775807.0, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
      {-9223372036854775808.0, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
      {9.3e18, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
      {-9.3e18, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
      {1e30, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
  };
  check_float_to_integers<double>(rows, "double");
}

// The same values rounded to float first: torch.tensor(..., dtype=torch.float32).to(dtype).
TEST(DtypeRules, FloatToIntegersLikeTorch) {
  const std::vector<IntRow> rows = {
      {NAN, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
      {INFINITY, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
      {-INFINITY, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
      {-0.0, {0, 0, 0, 0, 0, false}},
      {0.5, {0, 0, 0, 0, 0, true}},
      {-0.99, {0, 0, 0, 0, 0, true}},
      {127.9, {127, 127, 127, 127, 127, true}},
      {128.0, {128, -128, 128, 128, 128, true}},
      {-128.9, {128, -128, -128, -128, -128, true}},
      {-129.0, {127, 127, -129, -129, -129, true}},
      {255.9, {255, -1, 255, 255, 255, true}},
      {256.0, {0, 0, 256, 256, 256, true}},
      {300.7, {44, 44, 300, 300, 300, true}},
      {-300.7, {212, -44, -300, -300, -300, true}},
      {-1.5, {255, -1, -1, -1, -1, true}},
      {32768.0, {0, 0, -32768, 32768, 32768, true}},
      {-32769.0, {255, -1, 32767, -32769, -32769, true}},
      {70000.0, {112, 112, 4464, 70000, 70000, true}},
      {2147483520.0, {128, -128, -128, 2147483520, 2147483520, true}},
      {2147483647.0, {0, 0, 0, INT32_MIN, 2147483648, true}},  // rounds to 2^31
      {-2147483649.0, {0, 0, 0, INT32_MIN, -2147483648, true}},  // rounds to -2^31
      {3e9, {0, 0, 0, INT32_MIN, 3000000000, true}},
      {-3e9, {0, 0, 0, INT32_MIN, -3000000000, true}},
      {4294967301.0, {0, 0, 0, INT32_MIN, 4294967296, true}},
      {9.2e18, {0, 0, 0, INT32_MIN, 9200000267938955264, true}},
      {9223372036854775807.0, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
      {-9223372036854775808.0, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
      {9.3e18, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
      {1e30, {0, 0, 0, INT32_MIN, INT64_MIN, true}},
  };
  check_float_to_integers<float>(rows, "float");
}

// 16-bit floats go through float:
// torch.tensor([300.75, -1.5, 65504, inf, nan], dtype=torch.half).to(torch.int8 / int32),
// torch.tensor([3e9, -1.5, 70144, inf, nan], dtype=torch.bfloat16).to(int16 / int64 / uint8).
TEST(DtypeRules, SixteenBitFloatsToIntegersGoThroughFloat) {
  const Half h[] = {Half(300.75f), Half(-1.5f), Half(65504.f), Half(INFINITY), Half(NAN)};
  const int8_t h_i8[] = {44, -1, -32, 0, 0};
  const int32_t h_i32[] = {300, -1, 65504, INT32_MIN, INT32_MIN};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(convert<int8_t>(h[i]), h_i8[i]) << i;
    EXPECT_EQ(convert<int32_t>(h[i]), h_i32[i]) << i;
  }
  const BFloat16 b[] = {BFloat16(3e9f), BFloat16(-1.5f), BFloat16(70144.f), BFloat16(INFINITY),
                        BFloat16(NAN)};
  const int16_t b_i16[] = {0, -1, 4608, 0, 0};
  const int64_t b_i64[] = {3003121664, -1, 70144, INT64_MIN, INT64_MIN};
  const uint8_t b_u8[] = {0, 255, 0, 0, 0};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(convert<int16_t>(b[i]), b_i16[i]) << i;
    EXPECT_EQ(convert<int64_t>(b[i]), b_i64[i]) << i;
    EXPECT_EQ(convert<uint8_t>(b[i]), b_u8[i]) << i;
  }
  EXPECT_TRUE(convert<bool>(Half(NAN)));
  EXPECT_FALSE(convert<bool>(Half(-0.0f)));
  EXPECT_FALSE(convert<bool>(BFloat16(-0.0f)));
  EXPECT_TRUE(convert<bool>(BFloat16(1e-40f)));  // a bfloat16 subnormal is non-zero
}

// ------------------------------------------------------------------ integers and bool

TEST(DtypeRules, IntegersWrapAndBoolIsZeroOrOne) {
  EXPECT_EQ(convert<int8_t>(int64_t{255}), -1);
  EXPECT_EQ(convert<int8_t>(uint8_t{200}), -56);
  EXPECT_EQ(convert<uint8_t>(int8_t{-1}), 255);
  EXPECT_EQ(convert<uint8_t>(int64_t{-256}), 0);
  EXPECT_EQ(convert<int16_t>(int32_t{70000}), 4464);
  EXPECT_EQ(convert<int32_t>((int64_t{1} << 40) + 5), 5);
  EXPECT_EQ(convert<int64_t>(uint8_t{255}), 255);
  EXPECT_EQ(convert<int64_t>(int8_t{-128}), -128);
  EXPECT_TRUE(convert<bool>(int64_t{256}));  // not truncated to its low byte
  EXPECT_TRUE(convert<bool>(int8_t{-1}));
  EXPECT_FALSE(convert<bool>(int32_t{0}));
  EXPECT_EQ(convert<int8_t>(true), 1);
  EXPECT_EQ(convert<uint8_t>(false), 0);
  EXPECT_EQ(convert<double>(true), 1.0);
  EXPECT_EQ(static_cast<float>(convert<Half>(true)), 1.0f);
  EXPECT_EQ(static_cast<float>(convert<BFloat16>(false)), 0.0f);
  // torch.tensor([2**24 + 1, 2**53 + 1, 2**63 - 1]).float() / .double()
  EXPECT_EQ(convert<float>((int64_t{1} << 24) + 1), 16777216.0f);
  EXPECT_EQ(convert<double>((int64_t{1} << 53) + 1), 9007199254740992.0);
  EXPECT_EQ(convert<float>(INT64_MAX), 9.223372036854776e18f);
}

// ------------------------------------------------------------------ 16-bit floats

struct BitsRow {
  double value;
  uint16_t bits;
};

// torch.tensor([value], dtype=torch.float32).half().view(torch.int16)
TEST(DtypeRules, FloatToHalfRoundsToNearestEven) {
  const std::vector<BitsRow> rows = {
      {1.0 + 0x1p-11, 0x3c00},      // a tie: to even
      {1.0 + 3 * 0x1p-11, 0x3c02},  // a tie: to even (up)
      {2049.0, 0x6800},
      {2051.0, 0x6802},
      {65504.0, 0x7bff},
      {65519.0, 0x7bff},  // below the halfway point to 65536
      {65520.0, 0x7c00},  // overflow gives inf
      {-65520.0, 0xfc00},
      {0x1p-24, 0x0001},  // the smallest subnormal
      {0x1p-25, 0x0000},  // half of it: a tie, to even (zero)
      {0x1.8p-25, 0x0001},
      {3 * 0x1p-25, 0x0002},  // a tie between subnormals, to even
      {0x1p-14, 0x0400},      // the smallest normal
      {-0.0, 0x8000},
      {INFINITY, 0x7c00},
      {-INFINITY, 0xfc00},
      {1.0 / 3, 0x3555},
      {1e-8, 0x0000},
  };
  for (const BitsRow& r : rows) {
    EXPECT_EQ(bits(convert<Half>(static_cast<float>(r.value))), r.bits) << r.value;
  }
  EXPECT_TRUE(kernels::is_nan(convert<Half>(NAN)));
  EXPECT_TRUE(kernels::is_nan(convert<Half>(-NAN)));
}

// torch.tensor([value], dtype=torch.float32).bfloat16().view(torch.int16)
TEST(DtypeRules, FloatToBFloat16RoundsToNearestEven) {
  const std::vector<BitsRow> rows = {
      {1.0 + 0x1p-8, 0x3f80},
      {1.0 + 3 * 0x1p-8, 0x3f82},
      {257.0, 0x4380},
      {259.0, 0x4382},
      {3.3895313892515355e38, 0x7f7f},  // the largest bfloat16
      {3.4e38, 0x7f80},                 // rounds past it: inf
      {3.4028234663852886e38, 0x7f80},
      {1e-40, 0x0001},    // float subnormals stay subnormal
      {0x1p-133, 0x0001},
      {0x1p-134, 0x0000},  // a tie, to even (zero)
      {-0.0, 0x8000},
      {INFINITY, 0x7f80},
      {1.0 / 3, 0x3eab},
      {70000.0, 0x4789},
  };
  for (const BitsRow& r : rows) {
    EXPECT_EQ(bits(convert<BFloat16>(static_cast<float>(r.value))), r.bits) << r.value;
  }
  EXPECT_TRUE(kernels::is_nan(convert<BFloat16>(NAN)));
}

// Doubles and int64 reach the 16-bit types through float, rounding twice as c10
// does: torch.tensor([v], dtype=torch.float64 / int64).half() and .bfloat16().
TEST(DtypeRules, WideTypesToSixteenBitRoundThroughFloat) {
  struct Row {
    double value;
    uint16_t half, bf16;
  };
  const Row doubles[] = {
      {1.0 + 0x1p-11 + 0x1p-40, 0x3c00, 0x3f80},  // directly rounded it would be 0x3c01
      {1.0 + 0x1p-8 + 0x1p-40, 0x3c04, 0x3f80},   // directly rounded bf16 0x3f81
      {65519.99999999, 0x7c00, 0x4780},           // float rounds it to 65520: inf
      {1.0 + 0x1p-11 + 0x1p-20, 0x3c01, 0x3f80},
  };
  for (const Row& r : doubles) {
    EXPECT_EQ(bits(convert<Half>(r.value)), r.half) << r.value;
    EXPECT_EQ(bits(convert<BFloat16>(r.value)), r.bf16) << r.value;
  }
  struct IntRow16 {
    int64_t value;
    uint16_t half, bf16;
  };
  const IntRow16 ints[] = {
      {2049, 0x6800, 0x4500},
      {2051, 0x6802, 0x4500},
      {65519, 0x7bff, 0x4780},
      {65520, 0x7c00, 0x4780},
      {-65536, 0xfc00, 0xc780},
      {(int64_t{1} << 32) + (1 << 24) + 1, 0x7c00, 0x4f80},  // directly: 0x4f81
      {(int64_t{1} << 24) + 1, 0x7c00, 0x4b80},
      {INT64_MAX, 0x7c00, 0x5f00},
  };
  for (const IntRow16& r : ints) {
    EXPECT_EQ(bits(convert<Half>(r.value)), r.half) << r.value;
    EXPECT_EQ(bits(convert<BFloat16>(r.value)), r.bf16) << r.value;
  }
  // Between the 16-bit types: torch.tensor([65504.], dtype=torch.half).bfloat16()
  // is 65536; torch.tensor([70144.], dtype=torch.bfloat16).half() is inf.
  EXPECT_EQ(static_cast<float>(convert<BFloat16>(Half(65504.f))), 65536.f);
  EXPECT_EQ(static_cast<float>(convert<Half>(BFloat16(70144.f))), INFINITY);
  EXPECT_EQ(static_cast<float>(convert<Half>(BFloat16(1.0f + 0x1p-7f))), 1.0078125f);
  // Widening is exact.
  EXPECT_EQ(convert<double>(Half(65504.f)), 65504.0);
  EXPECT_EQ(convert<float>(BFloat16(1e-40f)), static_cast<float>(BFloat16(1e-40f)));
  EXPECT_TRUE(std::signbit(convert<float>(Half(-0.0f))));
}

// ------------------------------------------------------------------ every dtype pair

// Element bits of `type` as an unsigned integer (Bool as 0/1).
template <typename T>
uint64_t bits_of(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

template <typename T>
T from_bits(uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}

// "Any NaN" in a floating row (PyTorch's NaN payloads vary by code path); in an
// integer row the same bits are just -1.
constexpr uint64_t kNanBits = ~uint64_t{0};

struct PairRow {
  ScalarType from;
  std::vector<uint64_t> from_bits;
  std::vector<std::pair<ScalarType, std::vector<uint64_t>>> to;
};

// For each source dtype, a set of values (zero, -0.0, +-1, 2.5, int8/uint8/
// int16/int32 boundaries, 300.7, 65504, 65520, 70000, +-3e9, subnormals, NaN,
// +-inf for floats; 2^24 + 1, 2^53 + 1, INT64 limits for integers), converted to
// every dtype by torch 2.13: the bits of src.to(dst) for
//   src = torch.tensor(values, dtype=torch.float64 or int64).to(src_dtype).
TEST(DtypeRules, EveryDtypePairMatchesTorch) {
  const std::vector<PairRow> rows = {
      {ScalarType::Byte, {0x0, 0x1, 0xff, 0x7f, 0x80, 0xef, 0xf0, 0x70},
       {
           {ScalarType::Byte, {0x0, 0x1, 0xff, 0x7f, 0x80, 0xef, 0xf0, 0x70}},
           {ScalarType::Char, {0x0, 0x1, 0xff, 0x7f, 0x80, 0xef, 0xf0, 0x70}},
           {ScalarType::Short, {0x0, 0x1, 0xff, 0x7f, 0x80, 0xef, 0xf0, 0x70}},
           {ScalarType::Int, {0x0, 0x1, 0xff, 0x7f, 0x80, 0xef, 0xf0, 0x70}},
           {ScalarType::Long, {0x0, 0x1, 0xff, 0x7f, 0x80, 0xef, 0xf0, 0x70}},
           {ScalarType::Half, {0x0, 0x3c00, 0x5bf8, 0x57f0, 0x5800, 0x5b78, 0x5b80, 0x5700}},
           {ScalarType::Float, {0x0, 0x3f800000, 0x437f0000, 0x42fe0000, 0x43000000, 0x436f0000,
                                0x43700000, 0x42e00000}},
           {ScalarType::Double, {0x0, 0x3ff0000000000000, 0x406fe00000000000, 0x405fc00000000000,
                                 0x4060000000000000, 0x406de00000000000, 0x406e000000000000,
                                 0x405c000000000000}},
           {ScalarType::Bool, {0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1}},
           {ScalarType::BFloat16, {0x0, 0x3f80, 0x437f, 0x42fe, 0x4300, 0x436f, 0x4370, 0x42e0}},
       }},
      {ScalarType::Char, {0x0, 0x1, 0xff, 0x7f, 0x80, 0xef, 0xf0, 0x70},
       {
           {ScalarType::Byte, {0x0, 0x1, 0xff, 0x7f, 0x80, 0xef, 0xf0, 0x70}},
           {ScalarType::Char, {0x0, 0x1, 0xff, 0x7f, 0x80, 0xef, 0xf0, 0x70}},
           {ScalarType::Short, {0x0, 0x1, 0xffff, 0x7f, 0xff80, 0xffef, 0xfff0, 0x70}},
           {ScalarType::Int, {0x0, 0x1, 0xffffffff, 0x7f, 0xffffff80, 0xffffffef, 0xfffffff0,
                              0x70}},
           {ScalarType::Long, {0x0, 0x1, 0xffffffffffffffff, 0x7f, 0xffffffffffffff80,
                               0xffffffffffffffef, 0xfffffffffffffff0, 0x70}},
           {ScalarType::Half, {0x0, 0x3c00, 0xbc00, 0x57f0, 0xd800, 0xcc40, 0xcc00, 0x5700}},
           {ScalarType::Float, {0x0, 0x3f800000, 0xbf800000, 0x42fe0000, 0xc3000000, 0xc1880000,
                                0xc1800000, 0x42e00000}},
           {ScalarType::Double, {0x0, 0x3ff0000000000000, 0xbff0000000000000, 0x405fc00000000000,
                                 0xc060000000000000, 0xc031000000000000, 0xc030000000000000,
                                 0x405c000000000000}},
           {ScalarType::Bool, {0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1}},
           {ScalarType::BFloat16, {0x0, 0x3f80, 0xbf80, 0x42fe, 0xc300, 0xc188, 0xc180, 0x42e0}},
       }},
      {ScalarType::Short, {0x0, 0x1, 0xffff, 0x7f, 0x80, 0xff7f, 0xff, 0x100, 0x801, 0x7fff,
                           0x8000, 0xffef, 0xfff0, 0x1170},
       {
           {ScalarType::Byte, {0x0, 0x1, 0xff, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x1, 0xff, 0x0, 0xef,
                               0xf0, 0x70}},
           {ScalarType::Char, {0x0, 0x1, 0xff, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x1, 0xff, 0x0, 0xef,
                               0xf0, 0x70}},
           {ScalarType::Short, {0x0, 0x1, 0xffff, 0x7f, 0x80, 0xff7f, 0xff, 0x100, 0x801, 0x7fff,
                                0x8000, 0xffef, 0xfff0, 0x1170}},
           {ScalarType::Int, {0x0, 0x1, 0xffffffff, 0x7f, 0x80, 0xffffff7f, 0xff, 0x100, 0x801,
                              0x7fff, 0xffff8000, 0xffffffef, 0xfffffff0, 0x1170}},
           {ScalarType::Long, {0x0, 0x1, 0xffffffffffffffff, 0x7f, 0x80, 0xffffffffffffff7f,
                               0xff, 0x100, 0x801, 0x7fff, 0xffffffffffff8000,
                               0xffffffffffffffef, 0xfffffffffffffff0, 0x1170}},
           {ScalarType::Half, {0x0, 0x3c00, 0xbc00, 0x57f0, 0x5800, 0xd808, 0x5bf8, 0x5c00,
                               0x6800, 0x7800, 0xf800, 0xcc40, 0xcc00, 0x6c5c}},
           {ScalarType::Float, {0x0, 0x3f800000, 0xbf800000, 0x42fe0000, 0x43000000, 0xc3010000,
                                0x437f0000, 0x43800000, 0x45001000, 0x46fffe00, 0xc7000000,
                                0xc1880000, 0xc1800000, 0x458b8000}},
           {ScalarType::Double, {0x0, 0x3ff0000000000000, 0xbff0000000000000, 0x405fc00000000000,
                                 0x4060000000000000, 0xc060200000000000, 0x406fe00000000000,
                                 0x4070000000000000, 0x40a0020000000000, 0x40dfffc000000000,
                                 0xc0e0000000000000, 0xc031000000000000, 0xc030000000000000,
                                 0x40b1700000000000}},
           {ScalarType::Bool, {0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
                               0x1}},
           {ScalarType::BFloat16, {0x0, 0x3f80, 0xbf80, 0x42fe, 0x4300, 0xc301, 0x437f, 0x4380,
                                   0x4500, 0x4700, 0xc700, 0xc188, 0xc180, 0x458c}},
       }},
      {ScalarType::Int, {0x0, 0x1, 0xffffffff, 0x7f, 0x80, 0xffffff7f, 0xff, 0x100, 0x801,
                         0x7fff, 0x8000, 0xffef, 0xfff0, 0x11170, 0x7fffffff, 0x80000000,
                         0x1000001},
       {
           {ScalarType::Byte, {0x0, 0x1, 0xff, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x1, 0xff, 0x0, 0xef,
                               0xf0, 0x70, 0xff, 0x0, 0x1}},
           {ScalarType::Char, {0x0, 0x1, 0xff, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x1, 0xff, 0x0, 0xef,
                               0xf0, 0x70, 0xff, 0x0, 0x1}},
           {ScalarType::Short, {0x0, 0x1, 0xffff, 0x7f, 0x80, 0xff7f, 0xff, 0x100, 0x801, 0x7fff,
                                0x8000, 0xffef, 0xfff0, 0x1170, 0xffff, 0x0, 0x1}},
           {ScalarType::Int, {0x0, 0x1, 0xffffffff, 0x7f, 0x80, 0xffffff7f, 0xff, 0x100, 0x801,
                              0x7fff, 0x8000, 0xffef, 0xfff0, 0x11170, 0x7fffffff, 0x80000000,
                              0x1000001}},
           {ScalarType::Long, {0x0, 0x1, 0xffffffffffffffff, 0x7f, 0x80, 0xffffffffffffff7f,
                               0xff, 0x100, 0x801, 0x7fff, 0x8000, 0xffef, 0xfff0, 0x11170,
                               0x7fffffff, 0xffffffff80000000, 0x1000001}},
           {ScalarType::Half, {0x0, 0x3c00, 0xbc00, 0x57f0, 0x5800, 0xd808, 0x5bf8, 0x5c00,
                               0x6800, 0x7800, 0x7800, 0x7bff, 0x7c00, 0x7c00, 0x7c00, 0xfc00,
                               0x7c00}},
           {ScalarType::Float, {0x0, 0x3f800000, 0xbf800000, 0x42fe0000, 0x43000000, 0xc3010000,
                                0x437f0000, 0x43800000, 0x45001000, 0x46fffe00, 0x47000000,
                                0x477fef00, 0x477ff000, 0x4788b800, 0x4f000000, 0xcf000000,
                                0x4b800000}},
           {ScalarType::Double, {0x0, 0x3ff0000000000000, 0xbff0000000000000, 0x405fc00000000000,
                                 0x4060000000000000, 0xc060200000000000, 0x406fe00000000000,
                                 0x4070000000000000, 0x40a0020000000000, 0x40dfffc000000000,
                                 0x40e0000000000000, 0x40effde000000000, 0x40effe0000000000,
                                 0x40f1170000000000, 0x41dfffffffc00000, 0xc1e0000000000000,
                                 0x4170000010000000}},
           {ScalarType::Bool, {0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
                               0x1, 0x1, 0x1, 0x1}},
           {ScalarType::BFloat16, {0x0, 0x3f80, 0xbf80, 0x42fe, 0x4300, 0xc301, 0x437f, 0x4380,
                                   0x4500, 0x4700, 0x4700, 0x4780, 0x4780, 0x4789, 0x4f00,
                                   0xcf00, 0x4b80}},
       }},
      {ScalarType::Long, {0x0, 0x1, 0xffffffffffffffff, 0x7f, 0x80, 0xffffffffffffff7f, 0xff,
                          0x100, 0x801, 0x7fff, 0x8000, 0xffef, 0xfff0, 0x11170, 0x7fffffff,
                          0xffffffff80000000, 0x80000000, 0x1000001, 0x20000000000001,
                          0x7fffffffffffffff, 0x8000000000000000},
       {
           {ScalarType::Byte, {0x0, 0x1, 0xff, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x1, 0xff, 0x0, 0xef,
                               0xf0, 0x70, 0xff, 0x0, 0x0, 0x1, 0x1, 0xff, 0x0}},
           {ScalarType::Char, {0x0, 0x1, 0xff, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x1, 0xff, 0x0, 0xef,
                               0xf0, 0x70, 0xff, 0x0, 0x0, 0x1, 0x1, 0xff, 0x0}},
           {ScalarType::Short, {0x0, 0x1, 0xffff, 0x7f, 0x80, 0xff7f, 0xff, 0x100, 0x801, 0x7fff,
                                0x8000, 0xffef, 0xfff0, 0x1170, 0xffff, 0x0, 0x0, 0x1, 0x1,
                                0xffff, 0x0}},
           {ScalarType::Int, {0x0, 0x1, 0xffffffff, 0x7f, 0x80, 0xffffff7f, 0xff, 0x100, 0x801,
                              0x7fff, 0x8000, 0xffef, 0xfff0, 0x11170, 0x7fffffff, 0x80000000,
                              0x80000000, 0x1000001, 0x1, 0xffffffff, 0x0}},
           {ScalarType::Long, {0x0, 0x1, 0xffffffffffffffff, 0x7f, 0x80, 0xffffffffffffff7f,
                               0xff, 0x100, 0x801, 0x7fff, 0x8000, 0xffef, 0xfff0, 0x11170,
                               0x7fffffff, 0xffffffff80000000, 0x80000000, 0x1000001,
                               0x20000000000001, 0x7fffffffffffffff, 0x8000000000000000}},
           {ScalarType::Half, {0x0, 0x3c00, 0xbc00, 0x57f0, 0x5800, 0xd808, 0x5bf8, 0x5c00,
                               0x6800, 0x7800, 0x7800, 0x7bff, 0x7c00, 0x7c00, 0x7c00, 0xfc00,
                               0x7c00, 0x7c00, 0x7c00, 0x7c00, 0xfc00}},
           {ScalarType::Float, {0x0, 0x3f800000, 0xbf800000, 0x42fe0000, 0x43000000, 0xc3010000,
                                0x437f0000, 0x43800000, 0x45001000, 0x46fffe00, 0x47000000,
                                0x477fef00, 0x477ff000, 0x4788b800, 0x4f000000, 0xcf000000,
                                0x4f000000, 0x4b800000, 0x5a000000, 0x5f000000, 0xdf000000}},
           {ScalarType::Double, {0x0, 0x3ff0000000000000, 0xbff0000000000000, 0x405fc00000000000,
                                 0x4060000000000000, 0xc060200000000000, 0x406fe00000000000,
                                 0x4070000000000000, 0x40a0020000000000, 0x40dfffc000000000,
                                 0x40e0000000000000, 0x40effde000000000, 0x40effe0000000000,
                                 0x40f1170000000000, 0x41dfffffffc00000, 0xc1e0000000000000,
                                 0x41e0000000000000, 0x4170000010000000, 0x4340000000000000,
                                 0x43e0000000000000, 0xc3e0000000000000}},
           {ScalarType::Bool, {0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
                               0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1}},
           {ScalarType::BFloat16, {0x0, 0x3f80, 0xbf80, 0x42fe, 0x4300, 0xc301, 0x437f, 0x4380,
                                   0x4500, 0x4700, 0x4700, 0x4780, 0x4780, 0x4789, 0x4f00,
                                   0xcf00, 0x4f00, 0x4b80, 0x5a00, 0x5f00, 0xdf00}},
       }},
      {ScalarType::Half, {0x0, 0x8000, 0x3c00, 0xbc00, 0x4100, 0xc100, 0x57f0, 0x5800, 0xd808,
                          0x5bf8, 0x5c00, 0x5cb3, 0x6800, 0x7bff, 0x7c00, 0xfc00, 0x1, 0x7e00},
       {
           {ScalarType::Byte, {0x0, 0x0, 0x1, 0xff, 0x2, 0xfe, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x2c,
                               0x0, 0xe0, 0x0, 0x0, 0x0, 0x0}},
           {ScalarType::Char, {0x0, 0x0, 0x1, 0xff, 0x2, 0xfe, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x2c,
                               0x0, 0xe0, 0x0, 0x0, 0x0, 0x0}},
           {ScalarType::Short, {0x0, 0x0, 0x1, 0xffff, 0x2, 0xfffe, 0x7f, 0x80, 0xff7f, 0xff,
                                0x100, 0x12c, 0x800, 0xffe0, 0x0, 0x0, 0x0, 0x0}},
           {ScalarType::Int, {0x0, 0x0, 0x1, 0xffffffff, 0x2, 0xfffffffe, 0x7f, 0x80, 0xffffff7f,
                              0xff, 0x100, 0x12c, 0x800, 0xffe0, 0x80000000, 0x80000000, 0x0,
                              0x80000000}},
           {ScalarType::Long, {0x0, 0x0, 0x1, 0xffffffffffffffff, 0x2, 0xfffffffffffffffe, 0x7f,
                               0x80, 0xffffffffffffff7f, 0xff, 0x100, 0x12c, 0x800, 0xffe0,
                               0x8000000000000000, 0x8000000000000000, 0x0, 0x8000000000000000}},
           {ScalarType::Half, {0x0, 0x8000, 0x3c00, 0xbc00, 0x4100, 0xc100, 0x57f0, 0x5800,
                               0xd808, 0x5bf8, 0x5c00, 0x5cb3, 0x6800, 0x7bff, 0x7c00, 0xfc00,
                               0x1, kNanBits}},
           {ScalarType::Float, {0x0, 0x80000000, 0x3f800000, 0xbf800000, 0x40200000, 0xc0200000,
                                0x42fe0000, 0x43000000, 0xc3010000, 0x437f0000, 0x43800000,
                                0x43966000, 0x45000000, 0x477fe000, 0x7f800000, 0xff800000,
                                0x33800000, kNanBits}},
           {ScalarType::Double, {0x0, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
                                 0x4004000000000000, 0xc004000000000000, 0x405fc00000000000,
                                 0x4060000000000000, 0xc060200000000000, 0x406fe00000000000,
                                 0x4070000000000000, 0x4072cc0000000000, 0x40a0000000000000,
                                 0x40effc0000000000, 0x7ff0000000000000, 0xfff0000000000000,
                                 0x3e70000000000000, kNanBits}},
           {ScalarType::Bool, {0x0, 0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
                               0x1, 0x1, 0x1, 0x1, 0x1}},
           {ScalarType::BFloat16, {0x0, 0x8000, 0x3f80, 0xbf80, 0x4020, 0xc020, 0x42fe, 0x4300,
                                   0xc301, 0x437f, 0x4380, 0x4396, 0x4500, 0x4780, 0x7f80,
                                   0xff80, 0x3380, kNanBits}},
       }},
      {ScalarType::Float, {0x0, 0x80000000, 0x3f800000, 0xbf800000, 0x40200000, 0xc0200000,
                           0x42fe0000, 0x43000000, 0xc3010000, 0x437f0000, 0x43800000,
                           0x4396599a, 0x45001000, 0x477fe000, 0x477ff000, 0x4788b800,
                           0x4f32d05e, 0xcf32d05e, 0x116c2, 0x3380d959, 0x7fc00000, 0x7f800000,
                           0xff800000},
       {
           {ScalarType::Byte, {0x0, 0x0, 0x1, 0xff, 0x2, 0xfe, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x2c,
                               0x1, 0xe0, 0xf0, 0x70, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0}},
           {ScalarType::Char, {0x0, 0x0, 0x1, 0xff, 0x2, 0xfe, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x2c,
                               0x1, 0xe0, 0xf0, 0x70, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0}},
           {ScalarType::Short, {0x0, 0x0, 0x1, 0xffff, 0x2, 0xfffe, 0x7f, 0x80, 0xff7f, 0xff,
                                0x100, 0x12c, 0x801, 0xffe0, 0xfff0, 0x1170, 0x0, 0x0, 0x0, 0x0,
                                0x0, 0x0, 0x0}},
           {ScalarType::Int, {0x0, 0x0, 0x1, 0xffffffff, 0x2, 0xfffffffe, 0x7f, 0x80, 0xffffff7f,
                              0xff, 0x100, 0x12c, 0x801, 0xffe0, 0xfff0, 0x11170, 0x80000000,
                              0x80000000, 0x0, 0x0, 0x80000000, 0x80000000, 0x80000000}},
           {ScalarType::Long, {0x0, 0x0, 0x1, 0xffffffffffffffff, 0x2, 0xfffffffffffffffe, 0x7f,
                               0x80, 0xffffffffffffff7f, 0xff, 0x100, 0x12c, 0x801, 0xffe0,
                               0xfff0, 0x11170, 0xb2d05e00, 0xffffffff4d2fa200, 0x0, 0x0,
                               0x8000000000000000, 0x8000000000000000, 0x8000000000000000}},
           {ScalarType::Half, {0x0, 0x8000, 0x3c00, 0xbc00, 0x4100, 0xc100, 0x57f0, 0x5800,
                               0xd808, 0x5bf8, 0x5c00, 0x5cb3, 0x6800, 0x7bff, 0x7c00, 0x7c00,
                               0x7c00, 0xfc00, 0x0, 0x1, kNanBits, 0x7c00, 0xfc00}},
           {ScalarType::Float, {0x0, 0x80000000, 0x3f800000, 0xbf800000, 0x40200000, 0xc0200000,
                                0x42fe0000, 0x43000000, 0xc3010000, 0x437f0000, 0x43800000,
                                0x4396599a, 0x45001000, 0x477fe000, 0x477ff000, 0x4788b800,
                                0x4f32d05e, 0xcf32d05e, 0x116c2, 0x3380d959, kNanBits,
                                0x7f800000, 0xff800000}},
           {ScalarType::Double, {0x0, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
                                 0x4004000000000000, 0xc004000000000000, 0x405fc00000000000,
                                 0x4060000000000000, 0xc060200000000000, 0x406fe00000000000,
                                 0x4070000000000000, 0x4072cb3340000000, 0x40a0020000000000,
                                 0x40effc0000000000, 0x40effe0000000000, 0x40f1170000000000,
                                 0x41e65a0bc0000000, 0xc1e65a0bc0000000, 0x37a16c2000000000,
                                 0x3e701b2b20000000, kNanBits, 0x7ff0000000000000,
                                 0xfff0000000000000}},
           {ScalarType::Bool, {0x0, 0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
                               0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1}},
           {ScalarType::BFloat16, {0x0, 0x8000, 0x3f80, 0xbf80, 0x4020, 0xc020, 0x42fe, 0x4300,
                                   0xc301, 0x437f, 0x4380, 0x4396, 0x4500, 0x4780, 0x4780,
                                   0x4789, 0x4f33, 0xcf33, 0x1, 0x3381, kNanBits, 0x7f80, 0xff80}},
       }},
      {ScalarType::Double, {0x0, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
                            0x4004000000000000, 0xc004000000000000, 0x405fc00000000000,
                            0x4060000000000000, 0xc060200000000000, 0x406fe00000000000,
                            0x4070000000000000, 0x4072cb3333333333, 0x40a0020000000000,
                            0x40effc0000000000, 0x40effe0000000000, 0x40f1170000000000,
                            0x41e65a0bc0000000, 0xc1e65a0bc0000000, 0x37a16c262777579c,
                            0x3e701b2b29a4692b, 0x7ff8000000000000, 0x7ff0000000000000,
                            0xfff0000000000000},
       {
           {ScalarType::Byte, {0x0, 0x0, 0x1, 0xff, 0x2, 0xfe, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x2c,
                               0x1, 0xe0, 0xf0, 0x70, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0}},
           {ScalarType::Char, {0x0, 0x0, 0x1, 0xff, 0x2, 0xfe, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x2c,
                               0x1, 0xe0, 0xf0, 0x70, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0}},
           {ScalarType::Short, {0x0, 0x0, 0x1, 0xffff, 0x2, 0xfffe, 0x7f, 0x80, 0xff7f, 0xff,
                                0x100, 0x12c, 0x801, 0xffe0, 0xfff0, 0x1170, 0x0, 0x0, 0x0, 0x0,
                                0x0, 0x0, 0x0}},
           {ScalarType::Int, {0x0, 0x0, 0x1, 0xffffffff, 0x2, 0xfffffffe, 0x7f, 0x80, 0xffffff7f,
                              0xff, 0x100, 0x12c, 0x801, 0xffe0, 0xfff0, 0x11170, 0x80000000,
                              0x80000000, 0x0, 0x0, 0x80000000, 0x80000000, 0x80000000}},
           {ScalarType::Long, {0x0, 0x0, 0x1, 0xffffffffffffffff, 0x2, 0xfffffffffffffffe, 0x7f,
                               0x80, 0xffffffffffffff7f, 0xff, 0x100, 0x12c, 0x801, 0xffe0,
                               0xfff0, 0x11170, 0xb2d05e00, 0xffffffff4d2fa200, 0x0, 0x0,
                               0x8000000000000000, 0x8000000000000000, 0x8000000000000000}},
           {ScalarType::Half, {0x0, 0x8000, 0x3c00, 0xbc00, 0x4100, 0xc100, 0x57f0, 0x5800,
                               0xd808, 0x5bf8, 0x5c00, 0x5cb3, 0x6800, 0x7bff, 0x7c00, 0x7c00,
                               0x7c00, 0xfc00, 0x0, 0x1, kNanBits, 0x7c00, 0xfc00}},
           {ScalarType::Float, {0x0, 0x80000000, 0x3f800000, 0xbf800000, 0x40200000, 0xc0200000,
                                0x42fe0000, 0x43000000, 0xc3010000, 0x437f0000, 0x43800000,
                                0x4396599a, 0x45001000, 0x477fe000, 0x477ff000, 0x4788b800,
                                0x4f32d05e, 0xcf32d05e, 0x116c2, 0x3380d959, kNanBits,
                                0x7f800000, 0xff800000}},
           {ScalarType::Double, {0x0, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
                                 0x4004000000000000, 0xc004000000000000, 0x405fc00000000000,
                                 0x4060000000000000, 0xc060200000000000, 0x406fe00000000000,
                                 0x4070000000000000, 0x4072cb3333333333, 0x40a0020000000000,
                                 0x40effc0000000000, 0x40effe0000000000, 0x40f1170000000000,
                                 0x41e65a0bc0000000, 0xc1e65a0bc0000000, 0x37a16c262777579c,
                                 0x3e701b2b29a4692b, kNanBits, 0x7ff0000000000000,
                                 0xfff0000000000000}},
           {ScalarType::Bool, {0x0, 0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
                               0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1}},
           {ScalarType::BFloat16, {0x0, 0x8000, 0x3f80, 0xbf80, 0x4020, 0xc020, 0x42fe, 0x4300,
                                   0xc301, 0x437f, 0x4380, 0x4396, 0x4500, 0x4780, 0x4780,
                                   0x4789, 0x4f33, 0xcf33, 0x1, 0x3381, kNanBits, 0x7f80, 0xff80}},
       }},
      {ScalarType::Bool, {0x0, 0x1},
       {
           {ScalarType::Byte, {0x0, 0x1}},
           {ScalarType::Char, {0x0, 0x1}},
           {ScalarType::Short, {0x0, 0x1}},
           {ScalarType::Int, {0x0, 0x1}},
           {ScalarType::Long, {0x0, 0x1}},
           {ScalarType::Half, {0x0, 0x3c00}},
           {ScalarType::Float, {0x0, 0x3f800000}},
           {ScalarType::Double, {0x0, 0x3ff0000000000000}},
           {ScalarType::Bool, {0x0, 0x1}},
           {ScalarType::BFloat16, {0x0, 0x3f80}},
       }},
      {ScalarType::BFloat16, {0x0, 0x8000, 0x3f80, 0xbf80, 0x4020, 0xc020, 0x42fe, 0x4300,
                              0xc301, 0x437f, 0x4380, 0x4396, 0x4500, 0x4780, 0x4789, 0x4f33,
                              0xcf33, 0x1, 0x3381, 0x7fc0, 0x7f80, 0xff80},
       {
           {ScalarType::Byte, {0x0, 0x0, 0x1, 0xff, 0x2, 0xfe, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x2c,
                               0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0}},
           {ScalarType::Char, {0x0, 0x0, 0x1, 0xff, 0x2, 0xfe, 0x7f, 0x80, 0x7f, 0xff, 0x0, 0x2c,
                               0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0}},
           {ScalarType::Short, {0x0, 0x0, 0x1, 0xffff, 0x2, 0xfffe, 0x7f, 0x80, 0xff7f, 0xff,
                                0x100, 0x12c, 0x800, 0x0, 0x1200, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
                                0x0}},
           {ScalarType::Int, {0x0, 0x0, 0x1, 0xffffffff, 0x2, 0xfffffffe, 0x7f, 0x80, 0xffffff7f,
                              0xff, 0x100, 0x12c, 0x800, 0x10000, 0x11200, 0x80000000,
                              0x80000000, 0x0, 0x0, 0x80000000, 0x80000000, 0x80000000}},
           {ScalarType::Long, {0x0, 0x0, 0x1, 0xffffffffffffffff, 0x2, 0xfffffffffffffffe, 0x7f,
                               0x80, 0xffffffffffffff7f, 0xff, 0x100, 0x12c, 0x800, 0x10000,
                               0x11200, 0xb3000000, 0xffffffff4d000000, 0x0, 0x0,
                               0x8000000000000000, 0x8000000000000000, 0x8000000000000000}},
           {ScalarType::Half, {0x0, 0x8000, 0x3c00, 0xbc00, 0x4100, 0xc100, 0x57f0, 0x5800,
                               0xd808, 0x5bf8, 0x5c00, 0x5cb0, 0x6800, 0x7c00, 0x7c00, 0x7c00,
                               0xfc00, 0x0, 0x1, kNanBits, 0x7c00, 0xfc00}},
           {ScalarType::Float, {0x0, 0x80000000, 0x3f800000, 0xbf800000, 0x40200000, 0xc0200000,
                                0x42fe0000, 0x43000000, 0xc3010000, 0x437f0000, 0x43800000,
                                0x43960000, 0x45000000, 0x47800000, 0x47890000, 0x4f330000,
                                0xcf330000, 0x10000, 0x33810000, kNanBits, 0x7f800000, 0xff800000}},
           {ScalarType::Double, {0x0, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
                                 0x4004000000000000, 0xc004000000000000, 0x405fc00000000000,
                                 0x4060000000000000, 0xc060200000000000, 0x406fe00000000000,
                                 0x4070000000000000, 0x4072c00000000000, 0x40a0000000000000,
                                 0x40f0000000000000, 0x40f1200000000000, 0x41e6600000000000,
                                 0xc1e6600000000000, 0x37a0000000000000, 0x3e70200000000000,
                                 kNanBits, 0x7ff0000000000000, 0xfff0000000000000}},
           {ScalarType::Bool, {0x0, 0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1,
                               0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1}},
           {ScalarType::BFloat16, {0x0, 0x8000, 0x3f80, 0xbf80, 0x4020, 0xc020, 0x42fe, 0x4300,
                                   0xc301, 0x437f, 0x4380, 0x4396, 0x4500, 0x4780, 0x4789,
                                   0x4f33, 0xcf33, 0x1, 0x3381, kNanBits, 0x7f80, 0xff80}},
       }},
  };
  int checked = 0;
  for (const PairRow& row : rows) {
    for (const auto& [to, expect] : row.to) {
      ASSERT_EQ(expect.size(), row.from_bits.size());
      for (size_t i = 0; i < expect.size(); ++i) {
        bool is_nan = false;
        uint64_t got = 0;
        EMBER_SWITCH_ALL_TYPES(row.from, FAIL(), {
          using From = CTYPE;
          const From v = from_bits<From>(row.from_bits[i]);
          EMBER_SWITCH_ALL_TYPES(to, FAIL(), {
            const CTYPE r = convert<CTYPE>(v);
            is_nan = kernels::is_nan(r);
            got = bits_of(r);
          });
        });
        if (expect[i] == kNanBits && is_floating_type(to)) {
          EXPECT_TRUE(is_nan) << scalar_type_name(row.from) << " 0x" << std::hex
                              << row.from_bits[i] << " -> " << scalar_type_name(to);
        } else {
          EXPECT_EQ(got, expect[i]) << scalar_type_name(row.from) << " 0x" << std::hex
                                    << row.from_bits[i] << " -> " << scalar_type_name(to);
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000);
}

// ------------------------------------------------------------------ NaN

TEST(DtypeRules, IsNanForEveryDtype) {
  EXPECT_TRUE(kernels::is_nan(NAN));
  EXPECT_TRUE(kernels::is_nan(static_cast<double>(NAN)));
  EXPECT_TRUE(kernels::is_nan(Half(NAN)));
  EXPECT_TRUE(kernels::is_nan(BFloat16(NAN)));
  EXPECT_FALSE(kernels::is_nan(INFINITY));
  EXPECT_FALSE(kernels::is_nan(Half(INFINITY)));
  EXPECT_FALSE(kernels::is_nan(BFloat16(-0.0f)));
  EXPECT_FALSE(kernels::is_nan(int64_t{-1}));
  EXPECT_FALSE(kernels::is_nan(uint8_t{255}));
  EXPECT_FALSE(kernels::is_nan(true));
}

// ------------------------------------------------------------------ wrapping arithmetic

TEST(DtypeRules, IntegerArithmeticWraps) {
  using kernels::wrapping_add;
  using kernels::wrapping_mul;
  using kernels::wrapping_neg;
  using kernels::wrapping_sub;
  EXPECT_EQ(wrapping_add<int8_t>(100, 100), -56);
  EXPECT_EQ(wrapping_sub<uint8_t>(0, 1), 255);
  EXPECT_EQ(wrapping_mul<int16_t>(300, 300), 24464);
  EXPECT_EQ(wrapping_add<int64_t>(INT64_MAX, 1), INT64_MIN);
  EXPECT_EQ(wrapping_mul<int64_t>(INT64_MIN, -1), INT64_MIN);
  EXPECT_EQ(wrapping_neg<int32_t>(INT32_MIN), INT32_MIN);
  EXPECT_EQ(wrapping_add(true, true), true);  // or
  EXPECT_EQ(wrapping_mul(true, false), false);  // and
  EXPECT_EQ(static_cast<float>(wrapping_add(Half(1.f), Half(0x1p-11f))), 1.f);  // rounds to half
  EXPECT_EQ(wrapping_add(0.1f, 0.2f), 0.1f + 0.2f);
}

// ------------------------------------------------------------------ Python scalars

EValue R(double v) { return EValue(v); }
EValue I(int64_t v) { return EValue(v); }
EValue B(bool v) { return EValue(v); }

// Whether the number fits, by c10's checked_convert:
// torch.zeros(3, dtype=d).masked_fill(torch.ones(3, dtype=torch.bool), value) raises or not.
TEST(DtypeRules, ScalarFitsLikeCheckedConvert) {
  struct Row {
    EValue value;
    bool fits[10];  // uint8, int8, int16, int32, int64, bool, half, bfloat16, float, double
  };
  const ScalarType types[10] = {ScalarType::Byte,  ScalarType::Char,     ScalarType::Short,
                                ScalarType::Int,   ScalarType::Long,     ScalarType::Bool,
                                ScalarType::Half,  ScalarType::BFloat16, ScalarType::Float,
                                ScalarType::Double};
  const Row rows[] = {
      {R(2.7), {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
      {R(-2.7), {0, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
      {R(NAN), {0, 0, 0, 0, 0, 1, 1, 1, 1, 1}},
      {R(INFINITY), {0, 0, 0, 0, 0, 1, 1, 1, 1, 1}},
      {R(-INFINITY), {0, 0, 0, 0, 0, 1, 1, 1, 1, 1}},
      {I(300), {0, 0, 1, 1, 1, 1, 1, 1, 1, 1}},
      {I(-1), {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
      {I(-255), {1, 0, 1, 1, 1, 1, 1, 1, 1, 1}},
      {I(-256), {0, 0, 1, 1, 1, 1, 1, 1, 1, 1}},
      {R(255.5), {0, 0, 1, 1, 1, 1, 1, 1, 1, 1}},
      {R(-1.5), {0, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
      {R(-0.5), {0, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
      {R(-1.0), {0, 1, 1, 1, 1, 1, 1, 1, 1, 1}},  // only an int may wrap into uint8
      {R(1e39), {0, 0, 0, 0, 0, 1, 0, 0, 0, 1}},
      {R(70000.0), {0, 0, 0, 1, 1, 1, 0, 1, 1, 1}},
      {I(70000), {0, 0, 0, 1, 1, 1, 0, 1, 1, 1}},
      {R(65504.0), {0, 0, 0, 1, 1, 1, 1, 1, 1, 1}},
      {R(65519.0), {0, 0, 0, 1, 1, 1, 0, 1, 1, 1}},
      {I(INT64_MAX), {0, 0, 0, 0, 1, 1, 0, 1, 1, 1}},
      {I(INT64_MIN), {0, 0, 0, 0, 1, 1, 0, 1, 1, 1}},
      {R(3e9), {0, 0, 0, 0, 1, 1, 0, 1, 1, 1}},
      {B(true), {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
      {R(3.3895313892515355e38), {0, 0, 0, 0, 0, 1, 0, 1, 1, 1}},
      {R(3.39e38), {0, 0, 0, 0, 0, 1, 0, 0, 1, 1}},
      {R(9.3e18), {0, 0, 0, 0, 0, 1, 0, 1, 1, 1}},
      {R(9223372036854775808.0), {0, 0, 0, 0, 1, 1, 0, 1, 1, 1}},
      {R(-9223372036854775808.0), {0, 0, 0, 0, 1, 1, 0, 1, 1, 1}},
  };
  for (const Row& r : rows) {
    const Scalar s{&r.value};
    for (int i = 0; i < 10; ++i) {
      EXPECT_EQ(kernels::scalar_fits(s, types[i]), r.fits[i])
          << s.to_double() << " -> " << scalar_type_name(types[i]);
    }
  }
  const EValue any = R(1.0);
  EXPECT_FALSE(kernels::scalar_fits(Scalar{&any}, ScalarType::QInt8));
}

// The cast of rule 1: unchecked, like the wrapped-number tensor PyTorch makes.
TEST(DtypeRules, ScalarToCastsWithoutChecking) {
  const EValue i300 = I(300), im1 = I(-1), r27 = R(2.7), rm27 = R(-2.7), nan = R(NAN),
               r03 = R(0.3), t = B(true), big = R(1e39), r3e9 = R(3e9);
  using kernels::scalar_to;
  EXPECT_EQ(scalar_to<int8_t>(Scalar{&i300}), 44);  // int8 + 300 adds 44
  EXPECT_EQ(scalar_to<uint8_t>(Scalar{&im1}), 255);
  EXPECT_EQ(scalar_to<int32_t>(Scalar{&r27}), 2);
  EXPECT_EQ(scalar_to<int32_t>(Scalar{&rm27}), -2);
  EXPECT_EQ(scalar_to<int32_t>(Scalar{&nan}), INT32_MIN);
  EXPECT_EQ(scalar_to<int64_t>(Scalar{&nan}), INT64_MIN);  // no UB through EValue's int64
  EXPECT_EQ(scalar_to<uint8_t>(Scalar{&r3e9}), 0);
  EXPECT_EQ(scalar_to<int64_t>(Scalar{&t}), 1);
  EXPECT_TRUE(scalar_to<bool>(Scalar{&nan}));
  EXPECT_EQ(scalar_to<float>(Scalar{&big}), INFINITY);
  EXPECT_EQ(bits(scalar_to<Half>(Scalar{&r03})), 0x34cd);  // torch.tensor(0.3).half()
  EXPECT_EQ(bits(scalar_to<BFloat16>(Scalar{&r03})), 0x3e9a);
  EXPECT_EQ(scalar_to<double>(Scalar{&r03}), 0.3);
}

// Rule 1 vs rule 2 for a half op: `half + 0.3` adds half(0.3), `half * 0.3`
// multiplies by 0.3f. The two agree for every other dtype.
TEST(DtypeRules, OperandCastVersusOpmathReading) {
  const EValue r03 = R(0.3), i300 = I(300);
  const Scalar s{&r03};
  EXPECT_EQ(kernels::scalar_to_operand<Half>(s), 0.300048828125f);
  EXPECT_EQ(kernels::scalar_to_opmath<Half>(s), 0.3f);
  EXPECT_EQ(kernels::scalar_to_operand<BFloat16>(s), 0.30078125f);
  EXPECT_EQ(kernels::scalar_to_opmath<BFloat16>(s), 0.3f);
  EXPECT_EQ(kernels::scalar_to_operand<float>(s), kernels::scalar_to_opmath<float>(s));
  EXPECT_EQ(kernels::scalar_to_operand<double>(s), 0.3);
  EXPECT_EQ(kernels::scalar_to_operand<int8_t>(Scalar{&i300}), 44);
  EXPECT_EQ(kernels::scalar_to_opmath<int8_t>(Scalar{&i300}), 44);
}

// Rule 3: checked, then stored.
TEST(DtypeRules, ScalarToElementChecksThenConverts) {
  alignas(8) uint8_t bytes[8];
  const EValue im1 = I(-1), i300 = I(300), big = R(1e39), nan = R(NAN), r27 = R(2.7),
               r70k = R(70000.0);
  ASSERT_TRUE(kernels::scalar_to_element(Scalar{&im1}, ScalarType::Byte, bytes));
  EXPECT_EQ(bytes[0], 255);
  EXPECT_FALSE(kernels::scalar_to_element(Scalar{&i300}, ScalarType::Char, bytes));
  EXPECT_FALSE(kernels::scalar_to_element(Scalar{&big}, ScalarType::Float, bytes));
  EXPECT_FALSE(kernels::scalar_to_element(Scalar{&nan}, ScalarType::Int, bytes));
  EXPECT_FALSE(kernels::scalar_to_element(Scalar{&r70k}, ScalarType::Half, bytes));
  ASSERT_TRUE(kernels::scalar_to_element(Scalar{&r70k}, ScalarType::BFloat16, bytes));
  BFloat16 b;
  std::memcpy(&b, bytes, sizeof(b));
  EXPECT_EQ(static_cast<float>(b), 70144.f);
  ASSERT_TRUE(kernels::scalar_to_element(Scalar{&r27}, ScalarType::Long, bytes));
  int64_t l;
  std::memcpy(&l, bytes, sizeof(l));
  EXPECT_EQ(l, 2);
  ASSERT_TRUE(kernels::scalar_to_element(Scalar{&nan}, ScalarType::Bool, bytes));
  EXPECT_EQ(bytes[0], 1);
  EXPECT_FALSE(kernels::scalar_to_element(Scalar{&r27}, ScalarType::QInt8, bytes));
}

}  // namespace
}  // namespace ember
