// Products outside core ATen that small models export: addmv (matrix-vector),
// addbmm (a batch of products summed into one matrix), _trilinear (what
// nn.Bilinear exports to) and dist (the p-norm of a difference).
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "kernels/portable/util/elementwise_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// beta and alpha as torch reads them for these ops (Scalar::to<opmath_t>):
// checked against the dtype, then read in opmath (so an integer input
// truncates a float coefficient, as addmm does).
template <typename T>
bool read_coefficients(KernelContext& ctx, const char* op, const Scalar& beta,
                       const Scalar& alpha, acc_t<T>* b, acc_t<T>* a) {
  if (!scalar_fits_type<opmath_t<T>>(beta) || !scalar_fits_type<opmath_t<T>>(alpha)) {
    ctx.fail(Error::InvalidArgument, "%s: beta or alpha does not fit the dtype", op);
    return false;
  }
  *b = static_cast<acc_t<T>>(scalar_to_opmath<T>(beta));
  *a = static_cast<acc_t<T>>(scalar_to_opmath<T>(alpha));
  return true;
}

// self read broadcast to `sizes` (its dims right-aligned), as element strides.
bool broadcast_strides(KernelContext& ctx, const char* op, const Tensor& self, const int64_t* sizes,
                       int rank, int64_t* strides) {
  const int lead = rank - self.dim();
  if (lead < 0) {
    ctx.fail(Error::InvalidArgument, "%s: self has too many dims", op);
    return false;
  }
  for (int d = 0; d < rank; ++d) {
    if (d < lead) {
      strides[d] = 0;
      continue;
    }
    const int64_t size = self.size(d - lead);
    if (size != 1 && size != sizes[d]) {
      ctx.fail(Error::InvalidArgument, "%s: self does not broadcast to the result", op);
      return false;
    }
    strides[d] = size == 1 ? 0 : self.stride(d - lead);
  }
  return true;
}

void addmv_out(KernelContext& ctx, const Tensor& self, const Tensor& mat, const Tensor& vec,
               Scalar beta, Scalar alpha, Tensor& out) {
  const char* op = "addmv.out";
  EMBER_KERNEL_CHECK(ctx, mat.dim() == 2 && vec.dim() == 1 && mat.size(1) == vec.size(0),
                     "%s: expected mat [n, m] and vec [m]", op);
  if (!nn::check_same_dtype(ctx, op, mat, "mat", vec, "vec") ||
      !nn::check_same_dtype(ctx, op, mat, "mat", out, "out") ||
      !nn::check_same_dtype(ctx, op, mat, "mat", self, "self") ||
      !check_contiguous(ctx, op, mat) || !check_contiguous(ctx, op, vec)) {
    return;
  }
  const int64_t n = mat.size(0), m = mat.size(1);
  const int64_t sizes[1] = {n};
  int64_t stride = 0;
  if (!broadcast_strides(ctx, op, self, sizes, 1, &stride) ||
      !resize_output(ctx, out, Span<const int64_t>(sizes, 1), op)) {
    return;
  }
  switch_dtype<kRealTypes | kComplexTypes>(ctx, op, mat.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = acc_t<T>;
    Acc b, a;
    if (!read_coefficients<T>(ctx, op, beta, alpha, &b, &a)) return;
    const T* A = mat.const_data_ptr<T>();
    const T* x = vec.const_data_ptr<T>();
    const T* s = self.const_data_ptr<T>();
    T* y = out.mutable_data_ptr<T>();
    for (int64_t i = 0; i < n; ++i) {
      Acc sum = 0;
      for (int64_t j = 0; j < m; ++j) {
        sum = wrapping_add(sum, wrapping_mul(static_cast<Acc>(A[i * m + j]), static_cast<Acc>(x[j])));
      }
      Acc r = wrapping_mul(a, sum);
      if (b != Acc(0)) r = wrapping_add(r, wrapping_mul(b, static_cast<Acc>(s[i * stride])));
      y[i] = convert<T>(r);
    }
  });
}

void addbmm_out(KernelContext& ctx, const Tensor& self, const Tensor& batch1,
                const Tensor& batch2, Scalar beta, Scalar alpha, Tensor& out) {
  const char* op = "addbmm.out";
  EMBER_KERNEL_CHECK(ctx, batch1.dim() == 3 && batch2.dim() == 3 && batch1.size(0) == batch2.size(0) &&
                              batch1.size(2) == batch2.size(1),
                     "%s: expected batch1 [b, n, k] and batch2 [b, k, p]", op);
  if (!nn::check_same_dtype(ctx, op, batch1, "batch1", batch2, "batch2") ||
      !nn::check_same_dtype(ctx, op, batch1, "batch1", out, "out") ||
      !nn::check_same_dtype(ctx, op, batch1, "batch1", self, "self") ||
      !check_contiguous(ctx, op, batch1) || !check_contiguous(ctx, op, batch2)) {
    return;
  }
  const int64_t bs = batch1.size(0), n = batch1.size(1), k = batch1.size(2), p = batch2.size(2);
  const int64_t sizes[2] = {n, p};
  int64_t strides[2];
  if (!broadcast_strides(ctx, op, self, sizes, 2, strides) ||
      !resize_output(ctx, out, Span<const int64_t>(sizes, 2), op)) {
    return;
  }
  switch_dtype<kRealTypes | kComplexTypes>(ctx, op, batch1.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = acc_t<T>;
    Acc b, a;
    if (!read_coefficients<T>(ctx, op, beta, alpha, &b, &a)) return;
    const T* x = batch1.const_data_ptr<T>();
    const T* w = batch2.const_data_ptr<T>();
    const T* s = self.const_data_ptr<T>();
    T* y = out.mutable_data_ptr<T>();
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < p; ++j) {
        Acc sum = 0;
        for (int64_t e = 0; e < bs; ++e) {
          for (int64_t q = 0; q < k; ++q) {
            sum = wrapping_add(sum, wrapping_mul(static_cast<Acc>(x[(e * n + i) * k + q]),
                                                 static_cast<Acc>(w[(e * k + q) * p + j])));
          }
        }
        Acc r = wrapping_mul(a, sum);
        if (b != Acc(0)) {
          r = wrapping_add(r, wrapping_mul(b, static_cast<Acc>(s[i * strides[0] + j * strides[1]])));
        }
        y[i * p + j] = convert<T>(r);
      }
    }
  });
}

// _trilinear: each input gains size-1 dims at its `expand` positions, the
// three are multiplied with broadcasting and the `sumdim` dims summed away.
void trilinear_out(KernelContext& ctx, const Tensor& i1, const Tensor& i2, const Tensor& i3,
                   IntArrayRef expand1, IntArrayRef expand2, IntArrayRef expand3,
                   IntArrayRef sumdim, int64_t unroll_dim, Tensor& out) {
  const char* op = "_trilinear.out";
  (void)unroll_dim;  // how torch splits the work; the result is the same
  const int64_t rank = i1.dim() + static_cast<int64_t>(expand1.size());
  EMBER_KERNEL_CHECK(ctx, rank <= kTensorDimensionLimit &&
                              i2.dim() + static_cast<int64_t>(expand2.size()) == rank &&
                              i3.dim() + static_cast<int64_t>(expand3.size()) == rank,
                     "%s: the inputs and their expand dims do not agree on a rank", op);
  if (!nn::check_same_dtype(ctx, op, i1, "i1", i2, "i2") ||
      !nn::check_same_dtype(ctx, op, i1, "i1", i3, "i3") ||
      !nn::check_same_dtype(ctx, op, i1, "i1", out, "out")) {
    return;
  }
  // Strides of each input over the full rank (0 for an expanded or size-1 dim).
  const Tensor* inputs[3] = {&i1, &i2, &i3};
  IntArrayRef expands[3] = {expand1, expand2, expand3};
  int64_t strides[3][kTensorDimensionLimit];
  int64_t sizes[kTensorDimensionLimit];
  for (int d = 0; d < rank; ++d) sizes[d] = 1;
  for (int t = 0; t < 3; ++t) {
    bool expanded[kTensorDimensionLimit] = {};
    for (int64_t e : expands[t]) {
      EMBER_KERNEL_CHECK(ctx, e >= 0 && e < rank && !expanded[e], "%s: bad expand dim", op);
      expanded[e] = true;
    }
    int src = 0;
    for (int d = 0; d < rank; ++d) {
      if (expanded[d]) {
        strides[t][d] = 0;
        continue;
      }
      const int64_t size = inputs[t]->size(src);
      EMBER_KERNEL_CHECK(ctx, size == 1 || sizes[d] == 1 || size == sizes[d],
                         "%s: the inputs do not broadcast", op);
      if (size != 1) sizes[d] = size;
      strides[t][d] = size == 1 ? 0 : inputs[t]->stride(src);
      ++src;
    }
  }
  bool summed[kTensorDimensionLimit] = {};
  for (int64_t s : sumdim) {
    EMBER_KERNEL_CHECK(ctx, s >= 0 && s < rank && !summed[s], "%s: bad sum dim", op);
    summed[s] = true;
  }
  int64_t out_sizes[kTensorDimensionLimit];
  int out_rank = 0;
  for (int d = 0; d < rank; ++d) {
    if (!summed[d]) out_sizes[out_rank++] = sizes[d];
  }
  if (!check_contiguous(ctx, op, out) ||
      !resize_output(ctx, out, Span<const int64_t>(out_sizes, out_rank), op)) {
    return;
  }
  switch_dtype<kRealTypes | kComplexTypes>(ctx, op, i1.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = acc_t<T>;
    const T* a = i1.const_data_ptr<T>();
    const T* b = i2.const_data_ptr<T>();
    const T* c = i3.const_data_ptr<T>();
    T* y = out.mutable_data_ptr<T>();
    for (int64_t o = 0; o < out.numel(); ++o) y[o] = T(0);
    // One pass over the full index space; each point adds into its output.
    int64_t index[kTensorDimensionLimit] = {};
    int64_t total = 1;
    for (int d = 0; d < rank; ++d) total *= sizes[d];
    for (int64_t n = 0; n < total; ++n) {
      int64_t oa = 0, ob = 0, oc = 0, oy = 0;
      for (int d = 0; d < rank; ++d) {
        oa += index[d] * strides[0][d];
        ob += index[d] * strides[1][d];
        oc += index[d] * strides[2][d];
        if (!summed[d]) oy = oy * sizes[d] + index[d];
      }
      const Acc v = wrapping_mul(wrapping_mul(static_cast<Acc>(a[oa]), static_cast<Acc>(b[ob])),
                                 static_cast<Acc>(c[oc]));
      y[oy] = convert<T>(wrapping_add(static_cast<Acc>(y[oy]), v));
      for (int d = rank - 1; d >= 0; --d) {
        if (++index[d] < sizes[d]) break;
        index[d] = 0;
      }
    }
  });
}

// dist: the p-norm of self - other (broadcast), as torch.norm computes it
// (p = 0 counts non-zeros, +-inf take the largest / smallest magnitude).
void dist_out(KernelContext& ctx, const Tensor& self, const Tensor& other, Scalar p,
              Tensor& out) {
  const char* op = "dist.out";
  if (!nn::check_same_dtype(ctx, op, self, "self", other, "other") ||
      !check_out_dtype(ctx, op, to_real_type(self.scalar_type()), out) ||
      !resize_output(ctx, out, Span<const int64_t>(), op)) {
    return;
  }
  Shape shape;
  EMBER_KERNEL_CHECK(ctx, broadcast_shape({&self, &other}, &shape), "%s: shapes do not broadcast",
                     op);
  const double pv = p.to_double();
  switch_dtype<kFloatTypes | kComplexTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    // The norm of a complex difference is real (Float for ComplexFloat).
    using M = typename std::conditional_t<is_complex_v<C>, C, std::complex<C>>::value_type;
    using R = std::conditional_t<is_complex_v<T>, M, T>;
    // Broadcast both through a virtual out of the broadcast shape.
    int64_t sizes[kTensorDimensionLimit];
    int64_t count = 1;
    for (int d = 0; d < shape.dim; ++d) {
      sizes[d] = shape.sizes[d];
      count *= sizes[d];
    }
    const T* a = self.const_data_ptr<T>();
    const T* b = other.const_data_ptr<T>();
    M acc = pv == -std::numeric_limits<double>::infinity() ? std::numeric_limits<M>::infinity()
                                                           : M(0);
    int64_t index[kTensorDimensionLimit] = {};
    for (int64_t n = 0; n < count; ++n) {
      int64_t oa = 0, ob = 0;
      const int la = shape.dim - self.dim(), lb = shape.dim - other.dim();
      for (int d = 0; d < shape.dim; ++d) {
        if (d >= la && self.size(d - la) != 1) oa += index[d] * self.stride(d - la);
        if (d >= lb && other.size(d - lb) != 1) ob += index[d] * other.stride(d - lb);
      }
      const M diff = static_cast<M>(std::abs(static_cast<C>(a[oa]) - static_cast<C>(b[ob])));
      if (pv == 0) acc += diff != M(0) ? M(1) : M(0);
      else if (pv == std::numeric_limits<double>::infinity()) acc = (diff > acc || diff != diff) ? diff : acc;
      else if (pv == -std::numeric_limits<double>::infinity()) acc = (diff < acc || diff != diff) ? diff : acc;
      else if (pv == 1) acc += diff;
      else if (pv == 2) acc += diff * diff;
      else acc += std::pow(diff, static_cast<M>(pv));
      for (int d = shape.dim - 1; d >= 0; --d) {
        if (++index[d] < sizes[d]) break;
        index[d] = 0;
      }
    }
    M result = acc;
    if (pv == 2) result = std::sqrt(acc);
    else if (pv != 0 && pv != 1 && std::isfinite(pv)) result = std::pow(acc, static_cast<M>(1.0 / pv));
    if (count == 0 && pv == -std::numeric_limits<double>::infinity()) result = M(0);
    *out.mutable_data_ptr<R>() = convert<R>(result);
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::addmv.out", addmv_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::addbmm.out", addbmm_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::_trilinear.out", trilinear_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::dist.out", dist_out, kFloatTypes | kComplexTypes);

}  // namespace ember::kernels
