// Comparisons (eq, ne, lt, le, gt, ge), Tensor and Scalar overloads. Operands
// are compared in their promoted dtype (so int 1 vs 1.5 compares in Float);
// the bool result is written as out's dtype, normally Bool.
#include <functional>
#include <type_traits>

#include "kernels/portable/util/elementwise_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// Only == and != are defined on complex numbers.
template <typename Cmp>
void compare(KernelContext& ctx, const char* op, const Operand& a, const Operand& b,
             Tensor& out) {
  constexpr bool kEquality = std::is_same_v<Cmp, std::equal_to<>> ||
                             std::is_same_v<Cmp, std::not_equal_to<>>;
  compare_op<kEquality ? kAllAndComplexTypes : kAllTypes>(ctx, op, a, b, out,
                                                          [](auto) { return Cmp{}; });
}

// Defines name_tensor_out and name_scalar_out for one comparison.
#define EMBER_COMPARE_KERNELS(name, cmp)                                                       \
  void name##_tensor_out(KernelContext& ctx, const Tensor& self, const Tensor& other,         \
                         Tensor& out) {                                                        \
    compare<cmp>(ctx, #name ".Tensor_out", self, other, out);                                  \
  }                                                                                            \
  void name##_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other, Tensor& out) { \
    compare<cmp>(ctx, #name ".Scalar_out", self, other, out);                                  \
  }

EMBER_COMPARE_KERNELS(eq, std::equal_to<>)
EMBER_COMPARE_KERNELS(ne, std::not_equal_to<>)
EMBER_COMPARE_KERNELS(lt, std::less<>)
EMBER_COMPARE_KERNELS(le, std::less_equal<>)
EMBER_COMPARE_KERNELS(gt, std::greater<>)
EMBER_COMPARE_KERNELS(ge, std::greater_equal<>)
#undef EMBER_COMPARE_KERNELS

}  // namespace

EMBER_REGISTER_STRIDED_KERNEL("aten::eq.Tensor_out", eq_tensor_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::eq.Scalar_out", eq_scalar_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::ne.Tensor_out", ne_tensor_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::ne.Scalar_out", ne_scalar_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::lt.Tensor_out", lt_tensor_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::lt.Scalar_out", lt_scalar_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::le.Tensor_out", le_tensor_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::le.Scalar_out", le_scalar_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::gt.Tensor_out", gt_tensor_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::gt.Scalar_out", gt_scalar_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::ge.Tensor_out", ge_tensor_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::ge.Scalar_out", ge_scalar_out, kAllTypes);

}  // namespace ember::kernels
