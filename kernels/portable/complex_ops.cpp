// Ops between complex tensors and their real parts: view_as_real and
// view_as_complex (as copies: a planned program does not alias), complex and
// polar (built from two real tensors), angle (for real and complex tensors),
// conj_physical.
#include <cmath>
#include <complex>
#include <type_traits>

#include "kernels/portable/util/elementwise_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// A complex [..., n] is the same bytes as its real [..., n, 2], and the
// reverse, so both views are one raw copy once the shapes agree.
void reinterpret_copy(KernelContext& ctx, const char* op, const Tensor& self, Tensor& out,
                      Span<const int64_t> out_sizes) {
  if (!resize_output(ctx, out, out_sizes, op)) return;
  if (self.nbytes() != out.nbytes()) {
    ctx.fail(Error::InvalidArgument, "%s: %zu bytes in, %zu out", op, self.nbytes(), out.nbytes());
    return;
  }
  const uint8_t* src = self.const_data_ptr<uint8_t>();
  uint8_t* dst = out.mutable_data_ptr<uint8_t>();
  for (size_t i = 0; i < self.nbytes(); ++i) dst[i] = src[i];
}

void view_as_real_copy_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  const char* op = "view_as_real_copy.out";
  if (!is_complex_type(self.scalar_type()) ||
      out.scalar_type() != to_real_type(self.scalar_type())) {
    ctx.fail(Error::InvalidArgument, "%s: expected a complex input and an out of its part type",
             op);
    return;
  }
  if (!check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, out)) return;
  int64_t sizes[kTensorDimensionLimit];
  EMBER_KERNEL_CHECK(ctx, self.dim() < kTensorDimensionLimit, "%s: too many dims", op);
  for (int d = 0; d < self.dim(); ++d) sizes[d] = self.size(d);
  sizes[self.dim()] = 2;
  reinterpret_copy(ctx, op, self, out, Span<const int64_t>(sizes, self.dim() + 1));
}

void view_as_complex_copy_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  const char* op = "view_as_complex_copy.out";
  if (!(self.scalar_type() == ScalarType::Float || self.scalar_type() == ScalarType::Double) ||
      out.scalar_type() != to_complex_type(self.scalar_type())) {
    ctx.fail(Error::InvalidArgument, "%s: expected a Float or Double input and an out of its "
             "complex type", op);
    return;
  }
  EMBER_KERNEL_CHECK(ctx, self.dim() >= 1 && self.size(-1) == 2,
                     "%s: the last dim must have size 2", op);
  if (!check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, out)) return;
  int64_t sizes[kTensorDimensionLimit];
  for (int d = 0; d + 1 < self.dim(); ++d) sizes[d] = self.size(d);
  reinterpret_copy(ctx, op, self, out, Span<const int64_t>(sizes, self.dim() - 1));
}

// out = f(a, b) for two real tensors of one float dtype and a complex out of
// that dtype's complex type (torch.complex and torch.polar accept no other).
template <typename MakeFn>
void from_parts(KernelContext& ctx, const char* op, const Tensor& a, const Tensor& b, Tensor& out,
                MakeFn make) {
  const ScalarType t = a.scalar_type();
  if (b.scalar_type() != t || !(t == ScalarType::Float || t == ScalarType::Double) ||
      out.scalar_type() != to_complex_type(t)) {
    ctx.fail(Error::InvalidArgument, "%s: expected two Float or two Double inputs and a complex "
             "out, got %s, %s and %s", op, scalar_type_name(t), scalar_type_name(b.scalar_type()),
             scalar_type_name(out.scalar_type()));
    return;
  }
  if (!resize_to_broadcast(ctx, op, out, {&a, &b})) return;
  if (t == ScalarType::Float) {
    map_elementwise<std::complex<float>, float, float>(ctx, op, make(float{}), out, a, b);
  } else {
    map_elementwise<std::complex<double>, double, double>(ctx, op, make(double{}), out, a, b);
  }
}

void complex_out(KernelContext& ctx, const Tensor& real, const Tensor& imag, Tensor& out) {
  from_parts(ctx, "complex.out", real, imag, out, [](auto v) {
    using V = decltype(v);
    return [](V re, V im) { return std::complex<V>(re, im); };
  });
}

// std::polar refuses a negative or NaN magnitude; torch computes abs * (cos, sin).
void polar_out(KernelContext& ctx, const Tensor& abs, const Tensor& angle, Tensor& out) {
  from_parts(ctx, "polar.out", abs, angle, out, [](auto v) {
    using V = decltype(v);
    return [](V r, V theta) { return std::complex<V>(r * std::cos(theta), r * std::sin(theta)); };
  });
}

// angle: arg(z) for complex; for reals 0, pi for negatives, NaN for NaN, in
// Float for integer inputs.
void angle_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  const char* op = "angle.out";
  if (is_complex_type(self.scalar_type())) {
    if (!check_out_dtype(ctx, op, to_real_type(self.scalar_type()), out) ||
        !resize_output(ctx, out, self.sizes(), op)) {
      return;
    }
    switch_dtype<kComplexTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
      using C = typename decltype(tag)::type;
      using V = typename C::value_type;
      map_elementwise<V, C>(ctx, op, [](C z) { return std::arg(z); }, out, self);
    });
    return;
  }
  unary_op<kFloatTypes>(ctx, op, self, out, Promotion::kIntToFloat, [](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [](M x) -> M {
      if (x != x) return x;
      return x < 0 ? static_cast<M>(M_PI) : M(0);
    };
  });
}

void conj_physical_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  unary_op<kAllAndComplexTypes>(ctx, "conj_physical.out", self, out, Promotion::kDefault,
                                [](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [](M x) -> M {
      if constexpr (is_complex_v<M>) {
        return std::conj(x);
      } else {
        return x;
      }
    };
  });
}

// The part types torch builds complex tensors from.
constexpr DtypeMask kPartTypes = dtype_bit(ScalarType::Float) | dtype_bit(ScalarType::Double);

}  // namespace

EMBER_REGISTER_KERNEL("aten::view_as_real_copy.out", view_as_real_copy_out, kComplexTypes);
EMBER_REGISTER_KERNEL_DTYPES("aten::view_as_complex_copy.out", view_as_complex_copy_out,
                             kPartTypes, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL_DTYPES("aten::complex.out", complex_out, kPartTypes, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL_DTYPES("aten::polar.out", polar_out, kPartTypes, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::angle.out", angle_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::conj_physical.out", conj_physical_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::_conj_physical.out", conj_physical_out, kAllAndComplexTypes);

}  // namespace ember::kernels
