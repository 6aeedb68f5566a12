// Scans along one dim: cumsum and cumprod. The input is converted to the
// result dtype element by element, as PyTorch does for dtype=, and combined in
// that type's accumulator.
#include <optional>

#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

struct Sum {
  static constexpr int kIdentity = 0;
  template <typename Acc>
  static Acc step(Acc acc, Acc x) { return wrapping_add(acc, x); }
};

struct Product {
  static constexpr int kIdentity = 1;
  template <typename Acc>
  static Acc step(Acc acc, Acc x) { return wrapping_mul(acc, x); }
};

template <typename Op, typename IN, typename OUT>
void scan_impl(const nn::DimSplit& s, const Tensor& in, Tensor& out) {
  using Acc = acc_t<OUT>;
  const IN* src = in.const_data_ptr<IN>();
  OUT* dst = out.mutable_data_ptr<OUT>();
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t i = 0; i < s.inner; ++i) {
      const int64_t base = o * s.size * s.inner + i;
      Acc acc = static_cast<Acc>(Op::kIdentity);
      for (int64_t k = 0; k < s.size; ++k) {
        acc = Op::step(acc, static_cast<Acc>(convert<OUT>(src[base + k * s.inner])));
        dst[base + k * s.inner] = convert<OUT>(acc);
      }
    }
  }
}

// The result dtype is out's: the exporter plans it as torch infers it (Long
// for integer and Bool inputs unless dtype= says otherwise).
template <typename Op>
void scan_out(KernelContext& ctx, const char* op, const Tensor& self, int64_t dim,
              std::optional<int64_t> dtype, Tensor& out) {
  int64_t d = 0;
  EMBER_KERNEL_CHECK(ctx, normalize_dim(dim, self.dim(), &d),
                     "%s: dim %lld is out of range for a tensor of rank %d", op,
                     static_cast<long long>(dim), self.dim());
  if (!nn::check_dtype_arg(ctx, op, dtype, out) || !check_contiguous(ctx, op, self) ||
      !check_contiguous(ctx, op, out) || !resize_output(ctx, out, self.sizes(), op)) {
    return;
  }
  const nn::DimSplit s = nn::split_at_dim(self, d);
  const ScalarType out_type = out.scalar_type();
  if (is_complex_type(self.scalar_type()) || is_complex_type(out_type)) {
    EMBER_SWITCH_COMPLEX_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
      using IN = CTYPE;
      EMBER_SWITCH_COMPLEX_TYPES(out_type, return fail_dtype(ctx, op, out_type),
        scan_impl<Op, IN, CTYPE>(s, self, out)));
    return;
  }
  EMBER_SWITCH_ALL_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    using IN = CTYPE;
    EMBER_SWITCH_ALL_TYPES(out_type, return fail_dtype(ctx, op, out_type),
      scan_impl<Op, IN, CTYPE>(s, self, out)));
}

void cumsum_out(KernelContext& ctx, const Tensor& self, int64_t dim, std::optional<int64_t> dtype,
                Tensor& out) {
  scan_out<Sum>(ctx, "cumsum.out", self, dim, dtype, out);
}

void cumprod_out(KernelContext& ctx, const Tensor& self, int64_t dim,
                 std::optional<int64_t> dtype, Tensor& out) {
  scan_out<Product>(ctx, "cumprod.out", self, dim, dtype, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::cumsum.out", cumsum_out, kAllTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::cumprod.out", cumprod_out, kAllTypes | kComplexTypes);

}  // namespace ember::kernels
