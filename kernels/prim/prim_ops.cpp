// Primitive ops on scalars: symbolic size arithmetic that dynamic shapes leave
// in a graph (sym_size, add, mul, floordiv, ...). They read and write scalar
// values rather than tensors, so they use the boxed calling convention.
// Names follow ExecuTorch's, so programs written by either exporter run here.
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "runtime/kernel/kernel_registry.h"

namespace ember {
namespace {

bool check_scalars(Span<EValue* const> args, size_t num_in, bool tensor_first, char* why,
                   size_t why_size) {
  if (args.size() != num_in + 1) {
    std::snprintf(why, why_size, "expects %zu values, the program passes %zu", num_in + 1,
                  args.size());
    return false;
  }
  for (size_t i = 0; i < num_in; ++i) {
    const bool ok = (tensor_first && i == 0) ? args[i]->is_tensor() : args[i]->is_scalar();
    if (!ok) {
      std::snprintf(why, why_size, "argument %zu is a %s", i, args[i]->tag_name());
      return false;
    }
  }
  // The output slot is overwritten; it only has to be a scalar-kind value.
  if (!args[num_in]->is_scalar() && !args[num_in]->is_none()) {
    std::snprintf(why, why_size, "output is a %s, not a scalar", args[num_in]->tag_name());
    return false;
  }
  return true;
}

bool check_binary(Span<EValue* const> args, char* why, size_t n) {
  return check_scalars(args, 2, false, why, n);
}
bool check_unary(Span<EValue* const> args, char* why, size_t n) {
  return check_scalars(args, 1, false, why, n);
}
bool check_sym_size(Span<EValue* const> args, char* why, size_t n) {
  return check_scalars(args, 2, true, why, n);
}
bool check_sym_numel(Span<EValue* const> args, char* why, size_t n) {
  return check_scalars(args, 1, true, why, n);
}

void sym_size(KernelContext& ctx, Span<EValue*> args) {
  const Tensor& t = args[0]->to_tensor();
  int64_t dim = args[1]->scalar_to_int();
  if (dim < 0) dim += t.dim();
  EMBER_KERNEL_CHECK(ctx, dim >= 0 && dim < t.dim(), "sym_size: dim %lld out of range for rank %d",
                     static_cast<long long>(args[1]->scalar_to_int()), t.dim());
  *args[2] = EValue(t.size(dim));
}

void sym_numel(KernelContext& ctx, Span<EValue*> args) {
  *args[1] = EValue(args[0]->to_tensor().numel());
}

bool both_int(Span<EValue*> args) {
  return (args[0]->is_int() || args[0]->is_bool()) && (args[1]->is_int() || args[1]->is_bool());
}

// Symbolic sizes are int64 and a result outside it fails the call: signed
// overflow is undefined behaviour in C++, and a wrapped size would be wrong.
// int_op(x, y, &out) returns false on overflow.
template <typename IntOp, typename FloatOp>
void arith(KernelContext& ctx, const char* name, Span<EValue*> args, IntOp int_op,
           FloatOp float_op) {
  if (both_int(args)) {
    int64_t out = 0;
    EMBER_KERNEL_CHECK(ctx, int_op(args[0]->scalar_to_int(), args[1]->scalar_to_int(), &out),
                       "%s: %lld and %lld overflow int64", name,
                       static_cast<long long>(args[0]->scalar_to_int()),
                       static_cast<long long>(args[1]->scalar_to_int()));
    *args[2] = EValue(out);
  } else {
    *args[2] = EValue(float_op(args[0]->scalar_to_double(), args[1]->scalar_to_double()));
  }
}

void add(KernelContext& ctx, Span<EValue*> a) {
  arith(
      ctx, "add", a,
      [](int64_t x, int64_t y, int64_t* r) { return !__builtin_add_overflow(x, y, r); },
      [](double x, double y) { return x + y; });
}
void sub(KernelContext& ctx, Span<EValue*> a) {
  arith(
      ctx, "sub", a,
      [](int64_t x, int64_t y, int64_t* r) { return !__builtin_sub_overflow(x, y, r); },
      [](double x, double y) { return x - y; });
}
void mul(KernelContext& ctx, Span<EValue*> a) {
  arith(
      ctx, "mul", a,
      [](int64_t x, int64_t y, int64_t* r) { return !__builtin_mul_overflow(x, y, r); },
      [](double x, double y) { return x * y; });
}
void sym_max(KernelContext& ctx, Span<EValue*> a) {
  arith(
      ctx, "sym_max", a,
      [](int64_t x, int64_t y, int64_t* r) {
        *r = x > y ? x : y;
        return true;
      },
      [](double x, double y) { return x > y ? x : y; });
}
void sym_min(KernelContext& ctx, Span<EValue*> a) {
  arith(
      ctx, "sym_min", a,
      [](int64_t x, int64_t y, int64_t* r) {
        *r = x < y ? x : y;
        return true;
      },
      [](double x, double y) { return x < y ? x : y; });
}

void floordiv(KernelContext& ctx, Span<EValue*> a) {
  if (both_int(a)) {
    const int64_t x = a[0]->scalar_to_int(), y = a[1]->scalar_to_int();
    EMBER_KERNEL_CHECK(ctx, y != 0, "floordiv: division by zero");
    EMBER_KERNEL_CHECK(ctx, !(x == INT64_MIN && y == -1), "floordiv: %lld // -1 overflows int64",
                       static_cast<long long>(x));
    int64_t q = x / y;
    if ((x % y != 0) && ((x < 0) != (y < 0))) --q;  // Python floors toward -inf
    *a[2] = EValue(q);
  } else {
    *a[2] = EValue(std::floor(a[0]->scalar_to_double() / a[1]->scalar_to_double()));
  }
}

void mod(KernelContext& ctx, Span<EValue*> a) {
  const int64_t x = a[0]->scalar_to_int(), y = a[1]->scalar_to_int();
  EMBER_KERNEL_CHECK(ctx, y != 0, "mod: division by zero");
  if (y == -1) {  // x % -1 is 0, but INT64_MIN % -1 overflows in C++
    *a[2] = EValue(int64_t{0});
    return;
  }
  int64_t r = x % y;
  if (r != 0 && ((r < 0) != (y < 0))) r += y;  // Python's sign follows the divisor
  *a[2] = EValue(r);
}

void truediv(KernelContext& ctx, Span<EValue*> a) {
  *a[2] = EValue(a[0]->scalar_to_double() / a[1]->scalar_to_double());
}

template <typename Cmp>
void compare(Span<EValue*> a, Cmp cmp) {
  *a[2] = EValue(static_cast<bool>(cmp(a[0]->scalar_to_double(), a[1]->scalar_to_double())));
}
void eq(KernelContext&, Span<EValue*> a) { compare(a, [](double x, double y) { return x == y; }); }
void gt(KernelContext&, Span<EValue*> a) { compare(a, [](double x, double y) { return x > y; }); }
void lt(KernelContext&, Span<EValue*> a) { compare(a, [](double x, double y) { return x < y; }); }
void ge(KernelContext&, Span<EValue*> a) { compare(a, [](double x, double y) { return x >= y; }); }
void le(KernelContext&, Span<EValue*> a) { compare(a, [](double x, double y) { return x <= y; }); }

void neg(KernelContext& ctx, Span<EValue*> a) {
  if (a[0]->is_double()) {
    *a[1] = EValue(-a[0]->to_double());
    return;
  }
  const int64_t x = a[0]->scalar_to_int();
  EMBER_KERNEL_CHECK(ctx, x != INT64_MIN, "neg: -(%lld) overflows int64",
                     static_cast<long long>(x));
  *a[1] = EValue(-x);
}
void sym_float(KernelContext&, Span<EValue*> a) { *a[1] = EValue(a[0]->scalar_to_double()); }
void sym_int(KernelContext&, Span<EValue*> a) { *a[1] = EValue(a[0]->scalar_to_int()); }
// An integral double as an int64 result, or a failed call where it has none
// (NaN, infinite, outside int64).
void integral_result(KernelContext& ctx, const char* name, double v, EValue* out) {
  EMBER_KERNEL_CHECK(ctx, v >= -0x1p63 && v < 0x1p63, "%s: %g is not an int64", name, v);
  *out = EValue(static_cast<int64_t>(v));
}
void ceil_op(KernelContext& ctx, Span<EValue*> a) {
  integral_result(ctx, "ceil", std::ceil(a[0]->scalar_to_double()), a[1]);
}
void round_op(KernelContext& ctx, Span<EValue*> a) {
  integral_result(ctx, "round", std::nearbyint(a[0]->scalar_to_double()), a[1]);
}
void trunc_op(KernelContext& ctx, Span<EValue*> a) {
  integral_result(ctx, "trunc", std::trunc(a[0]->scalar_to_double()), a[1]);
}

// Prim ops read only sizes and scalars, so a tensor of any dtype will do.
constexpr DtypeMask kAnyDtype = ~DtypeMask{0};

// Each prim op registers on its own, so that a selective build keeps only the
// ones its programs call.
#define EMBER_REGISTER_PRIM_(name, fn, check) \
  EMBER_REGISTER_ENTRY_(name, (::ember::KernelEntry{name, fn, check, 0, -1, kAnyDtype, 0, 0, true}))

EMBER_REGISTER_PRIM_("aten::sym_size.int", sym_size, check_sym_size);
EMBER_REGISTER_PRIM_("aten::sym_numel", sym_numel, check_sym_numel);
EMBER_REGISTER_PRIM_("executorch_prim::add.Scalar", add, check_binary);
EMBER_REGISTER_PRIM_("executorch_prim::sub.Scalar", sub, check_binary);
EMBER_REGISTER_PRIM_("executorch_prim::mul.Scalar", mul, check_binary);
EMBER_REGISTER_PRIM_("executorch_prim::floordiv.Scalar", floordiv, check_binary);
EMBER_REGISTER_PRIM_("executorch_prim::truediv.Scalar", truediv, check_binary);
EMBER_REGISTER_PRIM_("executorch_prim::mod.Scalar", mod, check_binary);
EMBER_REGISTER_PRIM_("executorch_prim::sym_max.Scalar", sym_max, check_binary);
EMBER_REGISTER_PRIM_("executorch_prim::sym_min.Scalar", sym_min, check_binary);
EMBER_REGISTER_PRIM_("executorch_prim::eq.Scalar", eq, check_binary);
EMBER_REGISTER_PRIM_("executorch_prim::gt.Scalar", gt, check_binary);
EMBER_REGISTER_PRIM_("executorch_prim::lt.Scalar", lt, check_binary);
EMBER_REGISTER_PRIM_("executorch_prim::ge.Scalar", ge, check_binary);
EMBER_REGISTER_PRIM_("executorch_prim::le.Scalar", le, check_binary);
EMBER_REGISTER_PRIM_("executorch_prim::neg.Scalar", neg, check_unary);
EMBER_REGISTER_PRIM_("executorch_prim::sym_float.Scalar", sym_float, check_unary);
EMBER_REGISTER_PRIM_("executorch_prim::sym_int.Scalar", sym_int, check_unary);
EMBER_REGISTER_PRIM_("executorch_prim::ceil.Scalar", ceil_op, check_unary);
EMBER_REGISTER_PRIM_("executorch_prim::round.Scalar", round_op, check_unary);
EMBER_REGISTER_PRIM_("executorch_prim::trunc.Scalar", trunc_op, check_unary);
#undef EMBER_REGISTER_PRIM_

}  // namespace
}  // namespace ember
