// _softmax and _log_softmax along any dim, shifted by the row max so that
// exp never overflows. A row with a NaN, or of only -inf, comes out NaN, as in PyTorch.
#include <cmath>

#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

template <typename IN, typename OUT, bool kLog>
void softmax_impl(const nn::DimSplit& s, const IN* in, OUT* out) {
  using Acc = acc_t<IN>;
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t i = 0; i < s.inner; ++i) {
      const int64_t base = o * s.size * s.inner + i;
      const IN* x = in + base;
      OUT* y = out + base;
      Acc m = -std::numeric_limits<Acc>::infinity();
      for (int64_t k = 0; k < s.size; ++k) {
        const Acc v = static_cast<Acc>(x[k * s.inner]);
        // NaN is carried by the sum below, so it need not win here.
        if (v > m) m = v;
      }
      Acc sum = 0;
      for (int64_t k = 0; k < s.size; ++k) {
        sum += std::exp(static_cast<Acc>(x[k * s.inner]) - m);
      }
      if constexpr (kLog) {
        // (x - m) - log(sum), not x - (m + log(sum)): m may be large and would
        // swallow the small log term.
        const Acc log_sum = std::log(sum);
        for (int64_t k = 0; k < s.size; ++k) {
          y[k * s.inner] = static_cast<OUT>((static_cast<Acc>(x[k * s.inner]) - m) - log_sum);
        }
      } else {
        const Acc inv = Acc(1) / sum;
        for (int64_t k = 0; k < s.size; ++k) {
          y[k * s.inner] = static_cast<OUT>(std::exp(static_cast<Acc>(x[k * s.inner]) - m) * inv);
        }
      }
    }
  }
}

template <bool kLog>
void softmax_out(KernelContext& ctx, const char* op, const Tensor& in, int64_t dim,
                 bool half_to_float, Tensor& out) {
  int64_t d = 0;
  EMBER_KERNEL_CHECK(ctx, normalize_dim(dim, in.dim(), &d),
                     "%s: dim %lld is out of range for a tensor of rank %d", op,
                     static_cast<long long>(dim), in.dim());
  const ScalarType in_type = in.scalar_type();
  const bool widen =
      half_to_float && (in_type == ScalarType::Half || in_type == ScalarType::BFloat16);
  EMBER_KERNEL_CHECK(ctx, !half_to_float || widen,
                     "%s: half_to_float needs a Half or BFloat16 input, not %s", op,
                     scalar_type_name(in_type));
  const ScalarType want = widen ? ScalarType::Float : in_type;
  EMBER_KERNEL_CHECK(ctx, out.scalar_type() == want, "%s: out must have dtype %s, not %s", op,
                     scalar_type_name(want), scalar_type_name(out.scalar_type()));
  if (!check_contiguous(ctx, op, in) || !check_contiguous(ctx, op, out) ||
      !resize_output(ctx, out, in.sizes(), op)) {
    return;
  }
  const nn::DimSplit s = nn::split_at_dim(in, d);
  if (widen) {
    EMBER_SWITCH_FLOAT_TYPES(in_type, return fail_dtype(ctx, op, in_type),
      softmax_impl<CTYPE, float, kLog>(s, in.const_data_ptr<CTYPE>(),
                                       out.mutable_data_ptr<float>()));
    return;
  }
  EMBER_SWITCH_FLOAT_TYPES(in_type, return fail_dtype(ctx, op, in_type),
    softmax_impl<CTYPE, CTYPE, kLog>(s, in.const_data_ptr<CTYPE>(),
                                     out.mutable_data_ptr<CTYPE>()));
}

void softmax(KernelContext& ctx, const Tensor& self, int64_t dim, bool half_to_float, Tensor& out) {
  softmax_out<false>(ctx, "_softmax.out", self, dim, half_to_float, out);
}

void log_softmax(KernelContext& ctx, const Tensor& self, int64_t dim, bool half_to_float,
                 Tensor& out) {
  softmax_out<true>(ctx, "_log_softmax.out", self, dim, half_to_float, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_softmax.out", softmax, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::_log_softmax.out", log_softmax, kFloatTypes);

}  // namespace ember::kernels
