// The prim ops' symbolic int arithmetic (kernels/prim/prim_ops.cpp) against
// Python's int semantics where int64 holds the result, and a failed call,
// not undefined behaviour, where it does not (the execute fuzzer found a
// program multiplying two large sizes).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "runtime/kernel/kernel_registry.h"

namespace ember {
namespace {

// Runs prim op `name` on (a, b) into `out`; returns the failure message, ""
// when the call succeeded.
std::string call(const char* name, EValue a, EValue b, EValue* out) {
  const KernelEntry* entry = find_kernel(name);
  if (entry == nullptr) return std::string("not registered: ") + name;
  EValue* args[] = {&a, &b, out};
  KernelContext ctx;
  entry->fn(ctx, Span<EValue*>(args, 3));
  return ctx.failed() ? ctx.message() : "";
}

std::string call1(const char* name, EValue a, EValue* out) {
  const KernelEntry* entry = find_kernel(name);
  if (entry == nullptr) return std::string("not registered: ") + name;
  EValue* args[] = {&a, out};
  KernelContext ctx;
  entry->fn(ctx, Span<EValue*>(args, 2));
  return ctx.failed() ? ctx.message() : "";
}

int64_t int_of(const char* name, int64_t a, int64_t b) {
  EValue out;
  const std::string why = call(name, EValue(a), EValue(b), &out);
  EXPECT_EQ(why, "") << name;
  return out.scalar_to_int();
}

TEST(PrimOps, IntArithmeticFollowsPython) {
  EXPECT_EQ(int_of("executorch_prim::add.Scalar", 3, -5), -2);
  EXPECT_EQ(int_of("executorch_prim::mul.Scalar", -3, 4), -12);
  EXPECT_EQ(int_of("executorch_prim::floordiv.Scalar", -7, 2), -4);  // floors toward -inf
  EXPECT_EQ(int_of("executorch_prim::mod.Scalar", -7, 2), 1);        // sign of the divisor
  EXPECT_EQ(int_of("executorch_prim::mod.Scalar", INT64_MIN, -1), 0);
  EXPECT_EQ(int_of("executorch_prim::sym_max.Scalar", 2, 9), 9);
}

TEST(PrimOps, ResultsOutsideInt64FailTheCall) {
  const int64_t big = int64_t{1} << 40;
  struct Overflow {
    const char* name;
    int64_t a, b;
  };
  const Overflow cases[] = {{"executorch_prim::mul.Scalar", big, big},
                            {"executorch_prim::add.Scalar", INT64_MAX, 1},
                            {"executorch_prim::sub.Scalar", INT64_MIN, 1}};
  EValue out;
  for (const Overflow& c : cases) {
    const std::string why = call(c.name, EValue(c.a), EValue(c.b), &out);
    EXPECT_NE(why.find("overflow int64"), std::string::npos) << c.name << ": " << why;
  }
  EXPECT_NE(call("executorch_prim::floordiv.Scalar", EValue(INT64_MIN), EValue(int64_t{-1}), &out)
                .find("overflows int64"),
            std::string::npos);
  EXPECT_NE(call1("executorch_prim::neg.Scalar", EValue(INT64_MIN), &out).find("overflows int64"),
            std::string::npos);
  EXPECT_NE(call1("executorch_prim::ceil.Scalar", EValue(1e300), &out).find("not an int64"),
            std::string::npos);
  EXPECT_NE(call1("executorch_prim::trunc.Scalar", EValue(0.0 / 0.0), &out).find("not an int64"),
            std::string::npos);
}

TEST(PrimOps, DoublesConvertToIntSaturating) {
  EXPECT_EQ(EValue(1e300).scalar_to_int(), INT64_MAX);
  EXPECT_EQ(EValue(-1e300).scalar_to_int(), INT64_MIN);
  EXPECT_EQ(EValue(-2.7).scalar_to_int(), -2);
}

}  // namespace
}  // namespace ember
