// Activations and clamps: relu, hardtanh, clamp (Scalar and Tensor bounds),
// gelu, leaky_relu, elu, hardsigmoid, hardswish, glu. NaN inputs stay NaN,
// as in PyTorch, which implements these through clamp and NaN-propagating
// comparisons.
#include <cmath>
#include <optional>
#include <type_traits>

#include "kernels/portable/util/elementwise_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// max(x, lo) and min(x, hi) that propagate a NaN from either side.
template <typename M>
M clamp_below(M x, M lo) {
  if constexpr (std::is_floating_point_v<M>) {
    if (std::isnan(x)) return x;
    if (std::isnan(lo)) return lo;
  }
  return x < lo ? lo : x;
}

template <typename M>
M clamp_above(M x, M hi) {
  if constexpr (std::is_floating_point_v<M>) {
    if (std::isnan(x)) return x;
    if (std::isnan(hi)) return hi;
  }
  return x > hi ? hi : x;
}

// Fails unless the Scalar bound converts to `type` without overflow.
bool check_bound(KernelContext& ctx, const char* op, const char* name, const Scalar& bound,
                 ScalarType type) {
  if (!scalar_fits(bound, type)) {
    ctx.fail(Error::InvalidArgument, "%s: %s cannot be converted to type %s without overflow", op,
             name, scalar_type_name(type));
    return false;
  }
  return true;
}

// An op on floating-point tensors that keeps the input's dtype (torch has no
// integer version of these).
template <typename MakeFn>
void float_activation(KernelContext& ctx, const char* op, const Tensor& in, Tensor& out,
                      MakeFn make_fn) {
  unary_op<kFloatTypes>(ctx, op, in, out, Promotion::kDefault, make_fn);
}

void relu_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  unary_op<kRealTypes>(ctx, "relu.out", self, out, Promotion::kDefault, [](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [](M x) { return clamp_below(x, M(0)); };
  });
}

void hardtanh_out(KernelContext& ctx, const Tensor& self, Scalar min_val, Scalar max_val,
                  Tensor& out) {
  constexpr const char* op = "hardtanh.out";
  if (!check_bound(ctx, op, "min_val", min_val, self.scalar_type()) ||
      !check_bound(ctx, op, "max_val", max_val, self.scalar_type())) {
    return;
  }
  // A negative limit would wrap to a large one.
  EMBER_KERNEL_CHECK(ctx,
                     self.scalar_type() != ScalarType::Byte ||
                         (min_val.to_double() >= 0 && max_val.to_double() >= 0),
                     "%s: cannot do hardtanh on an unsigned type with negative limits", op);
  unary_op<kRealTypes>(ctx, op, self, out, Promotion::kDefault, [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    using M = opmath_t<CTYPE>;
    const M lo = scalar_to_operand<CTYPE>(min_val);
    const M hi = scalar_to_operand<CTYPE>(max_val);
    return [lo, hi](M x) { return clamp_above(clamp_below(x, lo), hi); };
  });
}

// Scalar bounds take part in type promotion: clamp(int_tensor, 0.5) is Float.
void clamp_out(KernelContext& ctx, const Tensor& self, std::optional<Scalar> min,
               std::optional<Scalar> max, Tensor& out) {
  constexpr const char* op = "clamp.out";
  EMBER_KERNEL_CHECK(ctx, min.has_value() || max.has_value(),
                     "%s: at least one of min and max must not be None", op);
  ResultType rt;
  rt.add(self);
  if (min) rt.add(*min);
  if (max) rt.add(*max);
  ScalarType common;
  if (!rt.get(&common)) {
    fail_dtype(ctx, op, self.scalar_type());
    return;
  }
  if ((min && !check_bound(ctx, op, "min", *min, common)) ||
      (max && !check_bound(ctx, op, "max", *max, common)) ||
      !check_out_dtype(ctx, op, common, out) || !resize_output(ctx, out, self.sizes(), op)) {
    return;
  }
  switch_dtype<kAllTypes>(ctx, op, common, [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    using M = opmath_t<CTYPE>;
    // Bounds are cast to the dtype (c10's min.to<scalar_t>()); clamping is
    // monotone, so this agrees with clamping in opmath and rounding after.
    const std::optional<M> lo =
        min ? std::optional<M>(scalar_to_operand<CTYPE>(*min)) : std::nullopt;
    const std::optional<M> hi =
        max ? std::optional<M>(scalar_to_operand<CTYPE>(*max)) : std::nullopt;
    map_elementwise<CTYPE, CTYPE>(
        ctx, op,
        [lo, hi](M x) {
          if (lo) x = clamp_below(x, *lo);
          if (hi) x = clamp_above(x, *hi);
          return x;
        },
        out, self);
  });
}

// Bounds are tensors broadcast with self; all three promote together. Bool is
// allowed (torch takes it with one bound, where clamp is maximum or minimum).
void clamp_tensor_out(KernelContext& ctx, const Tensor& self, const Tensor* min,
                      const Tensor* max, Tensor& out) {
  constexpr const char* op = "clamp.Tensor_out";
  EMBER_KERNEL_CHECK(ctx, min != nullptr || max != nullptr,
                     "%s: at least one of min and max must not be None", op);
  ResultType rt;
  for (const Tensor* t : {&self, min, max}) {
    if (t != nullptr) rt.add(*t);
  }
  ScalarType common;
  if (!rt.get(&common)) {
    fail_dtype(ctx, op, self.scalar_type());
    return;
  }
  if (!check_out_dtype(ctx, op, common, out) ||
      !resize_to_broadcast(ctx, op, out, {&self, min, max})) {
    return;
  }
  switch_dtype<kAllTypes>(ctx, op, common, [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    using M = opmath_t<CTYPE>;
    if (min != nullptr && max != nullptr) {
      map_elementwise<CTYPE, CTYPE, CTYPE, CTYPE>(
          ctx, op, [](M x, M lo, M hi) { return clamp_above(clamp_below(x, lo), hi); }, out,
          self, *min, *max);
    } else if (min != nullptr) {
      map_elementwise<CTYPE, CTYPE, CTYPE>(
          ctx, op, [](M x, M lo) { return clamp_below(x, lo); }, out, self, *min);
    } else {
      map_elementwise<CTYPE, CTYPE, CTYPE>(
          ctx, op, [](M x, M hi) { return clamp_above(x, hi); }, out, self, *max);
    }
  });
}

void gelu_out(KernelContext& ctx, const Tensor& self, StringView approximate, Tensor& out) {
  constexpr const char* op = "gelu.out";
  const bool tanh_approx = string_equals(approximate, "tanh");
  EMBER_KERNEL_CHECK(ctx, tanh_approx || string_equals(approximate, "none"),
                     "%s: approximate must be 'none' or 'tanh', not '%.*s'", op,
                     static_cast<int>(approximate.size()), approximate.data());
  float_activation(ctx, op, self, out, [tanh_approx](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [tanh_approx](M x) {
      if (tanh_approx) {
        const M kBeta = static_cast<M>(0.7978845608028654);  // sqrt(2 / pi)
        const M kKappa = static_cast<M>(0.044715);
        const M inner = kBeta * (x + kKappa * x * x * x);
        return M(0.5) * x * (M(1) + std::tanh(inner));
      }
      return M(0.5) * x * (M(1) + std::erf(x * static_cast<M>(0.7071067811865476)));
    };
  });
}

void leaky_relu_out(KernelContext& ctx, const Tensor& self, Scalar negative_slope,
                    Tensor& out) {
  float_activation(ctx, "leaky_relu.out", self, out, [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    using M = opmath_t<CTYPE>;
    // The slope (like elu's coefficients) is read in opmath, not cast to a
    // 16-bit dtype first (dtype_rules.h, rule 2).
    const M slope = scalar_to_opmath<CTYPE>(negative_slope);
    return [slope](M x) { return x > M(0) ? x : x * slope; };
  });
}

void elu_out(KernelContext& ctx, const Tensor& self, Scalar alpha, Scalar scale,
             Scalar input_scale, Tensor& out) {
  float_activation(ctx, "elu.out", self, out, [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    using M = opmath_t<CTYPE>;
    const M neg_coef = scalar_to_opmath<CTYPE>(alpha) * scalar_to_opmath<CTYPE>(scale);
    const M pos_coef = scalar_to_opmath<CTYPE>(scale);
    const M in_coef = scalar_to_opmath<CTYPE>(input_scale);
    return [=](M x) { return x <= M(0) ? std::expm1(x * in_coef) * neg_coef : x * pos_coef; };
  });
}

// relu6(x + 3) / 6, NaN-preserving.
template <typename M>
M hardsigmoid(M x) {
  return clamp_above(clamp_below(x + M(3), M(0)), M(6)) / M(6);
}

void hardsigmoid_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  float_activation(ctx, "hardsigmoid.out", self, out, [](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [](M x) { return hardsigmoid(x); };
  });
}

void hardswish_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  float_activation(ctx, "hardswish.out", self, out, [](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [](M x) { return x * hardsigmoid(x); };
  });
}

// glu(x, dim) = a * sigmoid(b), where a and b are the halves of x along dim.
void glu_out(KernelContext& ctx, const Tensor& self, int64_t dim, Tensor& out) {
  constexpr const char* op = "glu.out";
  EMBER_KERNEL_CHECK(ctx, self.dim() > 0, "%s: a 0-d tensor cannot be halved", op);
  int64_t d = 0;
  EMBER_KERNEL_CHECK(ctx, normalize_dim(dim, self.dim(), &d), "%s: dim %lld is out of range for rank %d",
                     op, static_cast<long long>(dim), self.dim());
  EMBER_KERNEL_CHECK(ctx, self.size(d) % 2 == 0,
                     "%s: halving dimension must be even, but dimension %lld is size %lld", op,
                     static_cast<long long>(d), static_cast<long long>(self.size(d)));
  EMBER_KERNEL_CHECK(ctx, out.scalar_type() == self.scalar_type(),
                     "%s: out dtype %s differs from input dtype %s", op,
                     scalar_type_name(out.scalar_type()), scalar_type_name(self.scalar_type()));
  if (!check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, out)) return;
  int64_t sizes[kTensorDimensionLimit];
  for (int i = 0; i < self.dim(); ++i) sizes[i] = self.size(i);
  sizes[d] /= 2;
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, self.dim()), op)) return;

  int64_t outer = 1;
  int64_t inner = 1;
  for (int64_t i = 0; i < d; ++i) outer *= self.size(i);
  for (int64_t i = d + 1; i < self.dim(); ++i) inner *= self.size(i);
  const int64_t half = sizes[d];
  switch_dtype<kFloatTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    using M = opmath_t<CTYPE>;
    const CTYPE* in = self.const_data_ptr<CTYPE>();
    CTYPE* o = out.mutable_data_ptr<CTYPE>();
    const int64_t block = half * inner;
    for (int64_t i = 0; i < outer; ++i) {
      const CTYPE* a = in + i * 2 * block;
      const CTYPE* b = a + block;
      for (int64_t j = 0; j < block; ++j) {
        const M gate = M(1) / (M(1) + std::exp(-static_cast<M>(b[j])));
        o[i * block + j] = convert<CTYPE>(static_cast<M>(a[j]) * gate);
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::relu.out", relu_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::hardtanh.out", hardtanh_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::clamp.out", clamp_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::clamp.Tensor_out", clamp_tensor_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::gelu.out", gelu_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::leaky_relu.out", leaky_relu_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::elu.out", elu_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::hardsigmoid.out", hardsigmoid_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::hardswish.out", hardswish_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::glu.out", glu_out, kFloatTypes);

}  // namespace ember::kernels
