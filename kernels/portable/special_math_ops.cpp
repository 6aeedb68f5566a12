// Special functions outside core ATen: exp2, erfc, lgamma, the digamma
// family, incomplete gamma, Hurwitz zeta, the normal distribution, Bessel and
// Airy functions, sinc, entr, xlogy and xlog1py. Each reads any real dtype
// (integers and Bool give Float, as in torch), computes in double
// (util/special_math.h) and rounds once to the output's dtype.
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "kernels/portable/util/elementwise_util.h"
#include "kernels/portable/util/special_math.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// out = f(self) for a function of one double, the result in self's float type.
template <double (*f)(double)>
void special_unary(KernelContext& ctx, const char* op, const Tensor& self, Tensor& out) {
  unary_op<kFloatTypes>(ctx, op, self, out, Promotion::kIntToFloat, [](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [](M x) { return static_cast<M>(f(static_cast<double>(x))); };
  });
}

// out = f(self, other), both promoted to a float type; `promotion` says
// whether integer operands become Float (kIntToFloat) or are refused, as
// torch refuses them for igamma and nextafter (kDefault with float kernels).
template <double (*f)(double, double)>
void special_binary(KernelContext& ctx, const char* op, const Operand& self, const Operand& other,
                    Tensor& out, Promotion promotion) {
  binary_op<kFloatTypes>(ctx, op, self, other, out, promotion, [](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [](M x, M y) {
      return static_cast<M>(f(static_cast<double>(x), static_cast<double>(y)));
    };
  });
}

double erfc_d(double x) { return std::erfc(x); }
double lgamma_d(double x) { return std::lgamma(x); }
double spherical_j0(double x) {
  if (std::isinf(x)) return 0;
  return x == 0 ? 1.0 : std::sin(x) / x;
}
double sinc_d(double x) {
  if (x == 0) return 1;
  const double product = 3.14159265358979323846 * x;
  return std::sin(product) / product;
}
double entr_d(double x) {
  if (std::isnan(x)) return x;
  if (x > 0) return -x * std::log(x);
  return x == 0 ? 0.0 : -std::numeric_limits<double>::infinity();
}
double xlogy_d(double x, double y) {
  if (std::isnan(y)) return y;
  return x == 0 ? 0.0 : x * std::log(y);
}
double xlog1py_d(double x, double y) {
  if (std::isnan(y)) return y;
  return x == 0 ? 0.0 : x * std::log1p(y);
}

#define EMBER_SPECIAL_UNARY(name, fn)                                    \
  void name##_out(KernelContext& ctx, const Tensor& self, Tensor& out) { \
    special_unary<fn>(ctx, #name ".out", self, out);                     \
  }
// exp2 also takes complex z: 2^z = exp(z ln 2).
void exp2_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  unary_op<kFloatTypes | kComplexTypes>(ctx, "exp2.out", self, out, Promotion::kIntToFloat,
                                        [](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [](M x) -> M {
      if constexpr (is_complex_v<M>) {
        return std::exp(x * static_cast<typename M::value_type>(0.69314718055994530942));
      } else {
        return static_cast<M>(std::exp2(static_cast<double>(x)));
      }
    };
  });
}
EMBER_SPECIAL_UNARY(erfc, erfc_d)
EMBER_SPECIAL_UNARY(lgamma, lgamma_d)
EMBER_SPECIAL_UNARY(digamma, special::digamma)
EMBER_SPECIAL_UNARY(i0, special::bessel_i0)
EMBER_SPECIAL_UNARY(sinc, sinc_d)
EMBER_SPECIAL_UNARY(special_i0e, special::bessel_i0e)
EMBER_SPECIAL_UNARY(special_i1, special::bessel_i1)
EMBER_SPECIAL_UNARY(special_i1e, special::bessel_i1e)
EMBER_SPECIAL_UNARY(special_ndtr, special::ndtr)
EMBER_SPECIAL_UNARY(special_ndtri, special::ndtri)
EMBER_SPECIAL_UNARY(special_log_ndtr, special::log_ndtr)
EMBER_SPECIAL_UNARY(special_erfcx, special::erfcx)
EMBER_SPECIAL_UNARY(special_entr, entr_d)
EMBER_SPECIAL_UNARY(special_bessel_j0, special::bessel_j0)
EMBER_SPECIAL_UNARY(special_bessel_j1, special::bessel_j1)
EMBER_SPECIAL_UNARY(special_bessel_y0, special::bessel_y0)
EMBER_SPECIAL_UNARY(special_bessel_y1, special::bessel_y1)
EMBER_SPECIAL_UNARY(special_modified_bessel_i0, special::bessel_i0)
EMBER_SPECIAL_UNARY(special_modified_bessel_i1, special::bessel_i1)
EMBER_SPECIAL_UNARY(special_modified_bessel_k0, special::bessel_k0)
EMBER_SPECIAL_UNARY(special_modified_bessel_k1, special::bessel_k1)
EMBER_SPECIAL_UNARY(special_scaled_modified_bessel_k0, special::bessel_k0e)
EMBER_SPECIAL_UNARY(special_scaled_modified_bessel_k1, special::bessel_k1e)
EMBER_SPECIAL_UNARY(special_spherical_bessel_j0, spherical_j0)
EMBER_SPECIAL_UNARY(special_airy_ai, special::airy_ai)
#undef EMBER_SPECIAL_UNARY

void polygamma_out(KernelContext& ctx, int64_t n, const Tensor& self, Tensor& out) {
  EMBER_KERNEL_CHECK(ctx, n >= 0, "polygamma: n must be non-negative, got %lld",
                     static_cast<long long>(n));
  unary_op<kFloatTypes>(ctx, "polygamma.out", self, out, Promotion::kIntToFloat, [n](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [n](M x) { return static_cast<M>(special::polygamma(n, static_cast<double>(x))); };
  });
}

void igamma_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  special_binary<special::igamma>(ctx, "igamma.out", self, other, out, Promotion::kDefault);
}
void igammac_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  special_binary<special::igammac>(ctx, "igammac.out", self, other, out, Promotion::kDefault);
}
// The next representable value of T itself after x towards y: for the 16-bit
// floats one step of their bit pattern (as c10::nextafter for Half/BFloat16).
template <typename T>
T next_after(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::nextafter(x, y);
  } else {
    const float fx = static_cast<float>(x), fy = static_cast<float>(y);
    if (fx != fx || fy != fy) return T(std::numeric_limits<float>::quiet_NaN());
    if (fx == fy) return y;
    T r;
    if (fx == 0) {
      r.bits = static_cast<uint16_t>(fy < 0 ? 0x8001 : 0x0001);  // the smallest subnormal
      return r;
    }
    // Away from zero when y is further out on x's side, else towards it.
    const bool away = (fx > 0) == (fy > fx);
    r.bits = static_cast<uint16_t>(away ? x.bits + 1 : x.bits - 1);
    return r;
  }
}

void nextafter_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  const char* op = "nextafter.out";
  ScalarType common;
  if (!binary_result_type(ctx, op, self, other, Promotion::kDefault, &common) ||
      !check_out_dtype(ctx, op, common, out) || !resize_to_broadcast(ctx, op, out, {&self, &other})) {
    return;
  }
  switch_dtype<kFloatTypes>(ctx, op, common, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    // Operands read as T (not widened), so the step is T's.
    map_elementwise<T, T, T>(
        ctx, op, [](M x, M y) { return static_cast<M>(next_after(T(x), T(y))); }, out, self,
        other);
  });
}
void special_zeta_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  special_binary<special::zeta>(ctx, "special_zeta.out", self, other, out, Promotion::kIntToFloat);
}
void special_zeta_self_scalar_out(KernelContext& ctx, Scalar self, const Tensor& other,
                                  Tensor& out) {
  special_binary<special::zeta>(ctx, "special_zeta.self_scalar_out", self, other, out,
                                Promotion::kIntToFloat);
}
void special_zeta_other_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other,
                                   Tensor& out) {
  special_binary<special::zeta>(ctx, "special_zeta.other_scalar_out", self, other, out,
                                Promotion::kIntToFloat);
}
void xlogy_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Tensor& out) {
  special_binary<xlogy_d>(ctx, "xlogy.OutTensor", self, other, out, Promotion::kIntToFloat);
}
void xlogy_scalar_self_out(KernelContext& ctx, Scalar self, const Tensor& other, Tensor& out) {
  special_binary<xlogy_d>(ctx, "xlogy.OutScalar_Self", self, other, out, Promotion::kIntToFloat);
}
void xlogy_scalar_other_out(KernelContext& ctx, const Tensor& self, Scalar other, Tensor& out) {
  special_binary<xlogy_d>(ctx, "xlogy.OutScalar_Other", self, other, out, Promotion::kIntToFloat);
}
void special_xlog1py_out(KernelContext& ctx, const Tensor& self, const Tensor& other,
                         Tensor& out) {
  special_binary<xlog1py_d>(ctx, "special_xlog1py.out", self, other, out, Promotion::kIntToFloat);
}
void special_xlog1py_self_scalar_out(KernelContext& ctx, Scalar self, const Tensor& other,
                                     Tensor& out) {
  special_binary<xlog1py_d>(ctx, "special_xlog1py.self_scalar_out", self, other, out,
                            Promotion::kIntToFloat);
}
void special_xlog1py_other_scalar_out(KernelContext& ctx, const Tensor& self, Scalar other,
                                      Tensor& out) {
  special_binary<xlog1py_d>(ctx, "special_xlog1py.other_scalar_out", self, other, out,
                            Promotion::kIntToFloat);
}

}  // namespace

EMBER_REGISTER_STRIDED_KERNEL("aten::exp2.out", exp2_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::erfc.out", erfc_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::lgamma.out", lgamma_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::digamma.out", digamma_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::polygamma.out", polygamma_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::i0.out", i0_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::sinc.out", sinc_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_i0e.out", special_i0e_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_i1.out", special_i1_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_i1e.out", special_i1e_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_ndtr.out", special_ndtr_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_ndtri.out", special_ndtri_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_log_ndtr.out", special_log_ndtr_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_erfcx.out", special_erfcx_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_entr.out", special_entr_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_bessel_j0.out", special_bessel_j0_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_bessel_j1.out", special_bessel_j1_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_bessel_y0.out", special_bessel_y0_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_bessel_y1.out", special_bessel_y1_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_modified_bessel_i0.out",
                              special_modified_bessel_i0_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_modified_bessel_i1.out",
                              special_modified_bessel_i1_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_modified_bessel_k0.out",
                              special_modified_bessel_k0_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_modified_bessel_k1.out",
                              special_modified_bessel_k1_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_scaled_modified_bessel_k0.out",
                              special_scaled_modified_bessel_k0_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_scaled_modified_bessel_k1.out",
                              special_scaled_modified_bessel_k1_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_spherical_bessel_j0.out",
                              special_spherical_bessel_j0_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_airy_ai.out", special_airy_ai_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::igamma.out", igamma_out, kFloatTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::igammac.out", igammac_out, kFloatTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::nextafter.out", nextafter_out, kFloatTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_zeta.out", special_zeta_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_zeta.self_scalar_out", special_zeta_self_scalar_out,
                              kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_zeta.other_scalar_out",
                              special_zeta_other_scalar_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::xlogy.OutTensor", xlogy_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::xlogy.OutScalar_Self", xlogy_scalar_self_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::xlogy.OutScalar_Other", xlogy_scalar_other_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_xlog1py.out", special_xlog1py_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_xlog1py.self_scalar_out",
                              special_xlog1py_self_scalar_out, kAllTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_xlog1py.other_scalar_out",
                              special_xlog1py_other_scalar_out, kAllTypes);

}  // namespace ember::kernels
