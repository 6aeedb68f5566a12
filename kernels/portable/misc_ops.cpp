// Core ATen ops that fit no other family: scatter_reduce,
// distances (_cdist_forward, _pdist_forward), col2im, native_dropout
// (inference), empty_strided, masked_scatter and the random fills (rand,
// randn, randperm), which use Ember's own deterministic generator.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>

#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

bool equals(StringView s, const char* lit) {
  const size_t n = std::strlen(lit);
  return s.size() == n && std::memcmp(s.data(), lit, n) == 0;
}

// ---------------------------------------------------------------------------
// scatter_reduce.two: out = self, then out[.., index[p], ..] (reduce)= src[p]
// along `dim`. Each output element gathers every index entry of its slice
// that names it, so "mean" needs no count buffer: the cost is O(size of dim
// x size of index's dim) per slice, fine for a reference kernel.

enum class Reduce { Sum, Prod, Mean, Amax, Amin };

template <typename T>
void scatter_reduce_impl(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                         Reduce reduce, bool include_self, Tensor& out) {
  using A = acc_t<T>;
  const T* s = self.const_data_ptr<T>();
  const T* sv = src.const_data_ptr<T>();
  T* o = out.mutable_data_ptr<T>();
  std::memcpy(o, s, self.nbytes());
  const int rank = self.dim();
  if (index.numel() == 0) return;
  // Odometer over index's coordinates, dim fixed at 0.
  int64_t coord[kTensorDimensionLimit] = {};
  const int64_t k_size = index.size(dim);
  const int64_t out_size = self.size(dim);
  const int64_t slices = index.numel() / k_size;
  for (int64_t sl = 0; sl < slices; ++sl) {
    int64_t out_base = 0, idx_base = 0, src_base = 0;
    for (int d = 0; d < rank; ++d) {
      out_base += coord[d] * self.stride(d);
      idx_base += coord[d] * index.stride(d);
      src_base += coord[d] * src.stride(d);
    }
    for (int64_t j = 0; j < out_size; ++j) {
      const int64_t oi = out_base + j * self.stride(dim);
      A acc = 0;
      int64_t count = 0;
      bool any = false;
      if (include_self) {
        acc = static_cast<A>(o[oi]);
        count = 1;
      }
      for (int64_t k = 0; k < k_size; ++k) {
        if (shape::read_index(index, idx_base + k * index.stride(dim)) != j) continue;
        const A v = static_cast<A>(sv[src_base + k * src.stride(dim)]);
        if (!include_self && !any) {
          acc = reduce == Reduce::Prod ? A(1) : reduce == Reduce::Amax || reduce == Reduce::Amin ? v
                                                                                                  : A(0);
        }
        any = true;
        ++count;
        switch (reduce) {
          case Reduce::Sum:
          case Reduce::Mean: acc = wrapping_add(acc, v); break;
          case Reduce::Prod: acc = wrapping_mul(acc, v); break;
          case Reduce::Amax: acc = (is_nan(v) || v > acc) ? v : acc; break;
          case Reduce::Amin: acc = (is_nan(v) || v < acc) ? v : acc; break;
        }
      }
      if (!any) continue;
      if (reduce == Reduce::Mean) {
        if constexpr (is_float_v<T>) {
          acc = acc / static_cast<A>(count);
        } else {
          // Floor division, as PyTorch's integer mean.
          const A c = static_cast<A>(count);
          A q = acc / c;
          if ((acc % c != 0) && ((acc < 0) != (c < 0))) --q;
          acc = q;
        }
      }
      o[oi] = convert<T>(acc);
    }
    for (int d = rank - 1; d >= 0; --d) {
      if (d == dim) continue;
      if (++coord[d] < index.size(d)) break;
      coord[d] = 0;
    }
  }
}

void scatter_reduce_two_out(KernelContext& ctx, const Tensor& self, int64_t dim,
                            const Tensor& index, const Tensor& src, StringView reduce_name,
                            bool include_self, Tensor& out) {
  const char* op = "scatter_reduce.two_out";
  Reduce reduce;
  if (equals(reduce_name, "sum")) reduce = Reduce::Sum;
  else if (equals(reduce_name, "prod")) reduce = Reduce::Prod;
  else if (equals(reduce_name, "mean")) reduce = Reduce::Mean;
  else if (equals(reduce_name, "amax")) reduce = Reduce::Amax;
  else if (equals(reduce_name, "amin")) reduce = Reduce::Amin;
  else {
    ctx.fail(Error::InvalidArgument, "%s: reduce must be sum, prod, mean, amax or amin", op);
    return;
  }
  int64_t d = 0;
  EMBER_KERNEL_CHECK(ctx, normalize_dim(dim, self.dim(), &d), "%s: dim %lld is out of range", op,
                     static_cast<long long>(dim));
  EMBER_KERNEL_CHECK(ctx, index.scalar_type() == ScalarType::Long,
                     "%s: index must be Long, not %s", op,
                     scalar_type_name(index.scalar_type()));
  if (!nn::check_same_dtype(ctx, op, self, "self", src, "src") ||
      !nn::check_same_dtype(ctx, op, self, "self", out, "out") ||
      !check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, out) ||
      !check_contiguous(ctx, op, index) || !check_contiguous(ctx, op, src)) {
    return;
  }
  // A 0-d tensor acts as 1-d of one element.
  const bool scalar_like = self.dim() == 0;
  EMBER_KERNEL_CHECK(ctx,
                     (index.dim() == self.dim() && src.dim() == self.dim()) ||
                         (scalar_like && index.dim() <= 1 && src.dim() <= 1),
                     "%s: index and src must have self's rank", op);
  if (!resize_output(ctx, out, self.sizes(), op)) return;
  if (scalar_like) {
    EMBER_KERNEL_CHECK(ctx, index.numel() <= 1 && src.numel() >= index.numel(),
                       "%s: index is larger than src or self", op);
  } else {
    for (int i = 0; i < self.dim(); ++i) {
      EMBER_KERNEL_CHECK(ctx, index.size(i) <= src.size(i),
                         "%s: index is larger than src in dim %d", op, i);
      EMBER_KERNEL_CHECK(ctx, i == d || index.size(i) <= self.size(i),
                         "%s: index is larger than self in dim %d", op, i);
    }
  }
  const int64_t limit = scalar_like ? 1 : self.size(d);
  const int64_t* ix = index.const_data_ptr<int64_t>();
  for (int64_t i = 0; i < index.numel(); ++i) {
    EMBER_KERNEL_CHECK(ctx, ix[i] >= 0 && ix[i] < limit,
                       "%s: index %lld is out of bounds for a dim of size %lld", op,
                       static_cast<long long>(ix[i]), static_cast<long long>(limit));
  }
  if (scalar_like) {
    // One element: reduce it directly.
    EMBER_SWITCH_ALL_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
      {
        CTYPE* o = out.mutable_data_ptr<CTYPE>();
        o[0] = self.const_data_ptr<CTYPE>()[0];
        if (index.numel() == 1) {
          using A = acc_t<CTYPE>;
          const A v = static_cast<A>(src.const_data_ptr<CTYPE>()[0]);
          const A a = static_cast<A>(o[0]);
          A r = v;
          if (include_self) {
            switch (reduce) {
              case Reduce::Sum: r = wrapping_add(a, v); break;
              case Reduce::Mean: r = wrapping_add(a, v) / A(2); break;
              case Reduce::Prod: r = wrapping_mul(a, v); break;
              case Reduce::Amax: r = (is_nan(a) || a > v) ? a : v; break;
              case Reduce::Amin: r = (is_nan(a) || a < v) ? a : v; break;
            }
          }
          o[0] = convert<CTYPE>(r);
        }
      });
    return;
  }
  EMBER_SWITCH_ALL_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    scatter_reduce_impl<CTYPE>(self, d, index, src, reduce, include_self, out));
}

// ---------------------------------------------------------------------------
// ---------------------------------------------------------------------------
// Distances: p = 0 counts differing coordinates, p = inf takes the largest
// difference, otherwise (sum |d|^p)^(1/p). Computed in double.

struct PNorm {
  double p;
  double acc = 0;
  void add(double diff) {
    const double a = std::fabs(diff);
    if (p == 0) acc += a != 0 ? 1 : 0;
    else if (std::isinf(p)) acc = (a > acc || std::isnan(a)) ? a : acc;
    else if (p == 1) acc += a;
    else if (p == 2) acc += a * a;
    else acc += std::pow(a, p);
  }
  double result() const {
    if (p == 0 || std::isinf(p) || p == 1) return acc;
    if (p == 2) return std::sqrt(acc);
    return std::pow(acc, 1.0 / p);
  }
};

template <typename T>
void cdist_impl(const Tensor& x1, const Tensor& x2, double p, int nbatch, const int64_t* bsizes,
                Tensor& out) {
  const int r1 = x1.dim(), r2 = x2.dim();
  const int64_t P = x1.size(-2), R = x2.size(-2), M = x1.size(-1);
  const T* a = x1.const_data_ptr<T>();
  const T* b = x2.const_data_ptr<T>();
  T* o = out.mutable_data_ptr<T>();
  int64_t batches = 1;
  for (int i = 0; i < nbatch; ++i) batches *= bsizes[i];
  for (int64_t bi = 0; bi < batches; ++bi) {
    // Offsets of this batch in x1 and x2 (size-1 batch dims broadcast).
    int64_t rem = bi, off1 = 0, off2 = 0;
    for (int i = nbatch - 1; i >= 0; --i) {
      const int64_t c = rem % bsizes[i];
      rem /= bsizes[i];
      const int d1 = i - (nbatch - (r1 - 2)), d2 = i - (nbatch - (r2 - 2));
      if (d1 >= 0 && x1.size(d1) != 1) off1 += c * x1.stride(d1);
      if (d2 >= 0 && x2.size(d2) != 1) off2 += c * x2.stride(d2);
    }
    for (int64_t i = 0; i < P; ++i) {
      for (int64_t j = 0; j < R; ++j) {
        PNorm norm{p};
        for (int64_t m = 0; m < M; ++m) {
          norm.add(static_cast<double>(a[off1 + i * M + m]) -
                   static_cast<double>(b[off2 + j * M + m]));
        }
        o[(bi * P + i) * R + j] = static_cast<T>(norm.result());
      }
    }
  }
}

void cdist_forward_out(KernelContext& ctx, const Tensor& x1, const Tensor& x2, double p,
                       std::optional<int64_t> compute_mode, Tensor& out) {
  const char* op = "_cdist_forward.out";
  EMBER_KERNEL_CHECK(ctx, x1.dim() >= 2 && x2.dim() >= 2, "%s: x1 and x2 need at least 2 dims",
                     op);
  EMBER_KERNEL_CHECK(ctx, x1.size(-1) == x2.size(-1),
                     "%s: x1 and x2 must have the same number of columns", op);
  EMBER_KERNEL_CHECK(ctx, p >= 0, "%s: p must be non-negative", op);
  EMBER_KERNEL_CHECK(ctx, !compute_mode.has_value() || (*compute_mode >= 0 && *compute_mode <= 2),
                     "%s: compute_mode must be 0, 1 or 2", op);
  if (!nn::check_same_dtype(ctx, op, x1, "x1", x2, "x2") ||
      !nn::check_same_dtype(ctx, op, x1, "x1", out, "out") || !check_contiguous(ctx, op, x1) ||
      !check_contiguous(ctx, op, x2) || !check_contiguous(ctx, op, out)) {
    return;
  }
  const int n1 = x1.dim() - 2, n2 = x2.dim() - 2;
  const int nbatch = n1 > n2 ? n1 : n2;
  int64_t sizes[kTensorDimensionLimit];
  for (int i = 0; i < nbatch; ++i) {
    const int d1 = i - (nbatch - n1), d2 = i - (nbatch - n2);
    const int64_t s1 = d1 >= 0 ? x1.size(d1) : 1, s2 = d2 >= 0 ? x2.size(d2) : 1;
    EMBER_KERNEL_CHECK(ctx, s1 == s2 || s1 == 1 || s2 == 1,
                       "%s: batch dims of x1 and x2 do not broadcast", op);
    sizes[i] = s1 == 1 ? s2 : s1;
  }
  sizes[nbatch] = x1.size(-2);
  sizes[nbatch + 1] = x2.size(-2);
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, nbatch + 2), op)) return;
  EMBER_SWITCH_FLOAT_TYPES(x1.scalar_type(), return fail_dtype(ctx, op, x1.scalar_type()),
    cdist_impl<CTYPE>(x1, x2, p, nbatch, sizes, out));
}

template <typename T>
void pdist_impl(const Tensor& self, double p, Tensor& out) {
  const int64_t n = self.size(0), m = self.size(1);
  const T* a = self.const_data_ptr<T>();
  T* o = out.mutable_data_ptr<T>();
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i + 1; j < n; ++j, ++k) {
      PNorm norm{p};
      for (int64_t c = 0; c < m; ++c) {
        norm.add(static_cast<double>(a[i * m + c]) - static_cast<double>(a[j * m + c]));
      }
      o[k] = static_cast<T>(norm.result());
    }
  }
}

void pdist_forward_out(KernelContext& ctx, const Tensor& self, double p, Tensor& out) {
  const char* op = "_pdist_forward.out";
  EMBER_KERNEL_CHECK(ctx, self.dim() == 2, "%s: expected a 2-D input, got %d-D", op, self.dim());
  EMBER_KERNEL_CHECK(ctx, p >= 0, "%s: p must be non-negative", op);
  if (!nn::check_same_dtype(ctx, op, self, "self", out, "out") ||
      !check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, out)) {
    return;
  }
  const int64_t n = self.size(0);
  const int64_t sizes[1] = {n * (n - 1) / 2};
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, 1), op)) return;
  EMBER_SWITCH_FLOAT_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    pdist_impl<CTYPE>(self, p, out));
}

// ---------------------------------------------------------------------------
// col2im: [N, C * kh * kw, L] columns summed back into [N, C, H, W].

template <typename T>
void col2im_impl(const T* col, T* im, int64_t planes, int64_t h, int64_t w, const int64_t* k,
                 const int64_t* dil, const int64_t* pad, const int64_t* stride, int64_t bh,
                 int64_t bw) {
  using A = acc_t<T>;
  for (int64_t i = 0; i < planes * h * w; ++i) im[i] = static_cast<T>(0);
  const int64_t L = bh * bw;
  for (int64_t c = 0; c < planes; ++c) {
    const int64_t ch = c;  // plane index covers batch and channel
    for (int64_t ki = 0; ki < k[0]; ++ki) {
      for (int64_t kj = 0; kj < k[1]; ++kj) {
        const T* row = col + ((ch * k[0] + ki) * k[1] + kj) * L;
        for (int64_t by = 0; by < bh; ++by) {
          const int64_t y = by * stride[0] - pad[0] + ki * dil[0];
          if (y < 0 || y >= h) continue;
          for (int64_t bx = 0; bx < bw; ++bx) {
            const int64_t x = bx * stride[1] - pad[1] + kj * dil[1];
            if (x < 0 || x >= w) continue;
            T& dst = im[(c * h + y) * w + x];
            dst = static_cast<T>(static_cast<A>(dst) + static_cast<A>(row[by * bw + bx]));
          }
        }
      }
    }
  }
}

void col2im_out(KernelContext& ctx, const Tensor& self, IntArrayRef output_size,
                IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
                IntArrayRef stride, Tensor& out) {
  const char* op = "col2im.out";
  EMBER_KERNEL_CHECK(ctx, output_size.size() == 2 && kernel_size.size() == 2 &&
                              dilation.size() == 2 && padding.size() == 2 && stride.size() == 2,
                     "%s: output_size, kernel_size, dilation, padding and stride need 2 values",
                     op);
  EMBER_KERNEL_CHECK(ctx, self.dim() == 2 || self.dim() == 3, "%s: expected a 2-D or 3-D input",
                     op);
  if (!nn::check_same_dtype(ctx, op, self, "self", out, "out") ||
      !check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, out)) {
    return;
  }
  const int64_t k[2] = {kernel_size[0], kernel_size[1]};
  const int64_t dil[2] = {dilation[0], dilation[1]};
  const int64_t pad[2] = {padding[0], padding[1]};
  const int64_t st[2] = {stride[0], stride[1]};
  const int64_t limit = int64_t{1} << 31;
  for (int i = 0; i < 2; ++i) {
    EMBER_KERNEL_CHECK(ctx, k[i] > 0 && k[i] < limit && dil[i] > 0 && dil[i] < limit &&
                                st[i] > 0 && st[i] < limit && pad[i] >= 0 && pad[i] < limit &&
                                output_size[i] > 0 && output_size[i] < limit,
                       "%s: kernel_size, dilation, stride and output_size must be positive, "
                       "padding non-negative", op);
  }
  const int64_t bh = (output_size[0] + 2 * pad[0] - (dil[0] * (k[0] - 1) + 1)) / st[0] + 1;
  const int64_t bw = (output_size[1] + 2 * pad[1] - (dil[1] * (k[1] - 1) + 1)) / st[1] + 1;
  const bool batched = self.dim() == 3;
  const int64_t n = batched ? self.size(0) : 1;
  const int64_t rows = self.size(batched ? 1 : 0), L = self.size(batched ? 2 : 1);
  EMBER_KERNEL_CHECK(ctx, rows > 0 && rows % (k[0] * k[1]) == 0,
                     "%s: dim %d (%lld) must be a non-zero multiple of kernel_size's product", op,
                     batched ? 1 : 0, static_cast<long long>(rows));
  EMBER_KERNEL_CHECK(ctx, bh >= 1 && bw >= 1 && L == bh * bw,
                     "%s: expected %lld blocks but the input has %lld", op,
                     static_cast<long long>(bh * bw), static_cast<long long>(L));
  const int64_t c = rows / (k[0] * k[1]);
  int64_t sizes[4];
  int r = 0;
  if (batched) sizes[r++] = n;
  sizes[r++] = c;
  sizes[r++] = output_size[0];
  sizes[r++] = output_size[1];
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, r), op)) return;
  EMBER_SWITCH_FLOAT_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    col2im_impl<CTYPE>(self.const_data_ptr<CTYPE>(), out.mutable_data_ptr<CTYPE>(), n * c,
                       output_size[0], output_size[1], k, dil, pad, st, bh, bw));
}

// ---------------------------------------------------------------------------
// native_dropout: inference only (train=False, or p == 0, where dropping
// nothing is the exact result); training with p > 0 needs a generator that
// matches PyTorch's and is not supported.

void native_dropout_out(KernelContext& ctx, const Tensor& input, double p,
                        std::optional<bool> train, Tensor& out0, Tensor& out1) {
  const char* op = "native_dropout.out";
  EMBER_KERNEL_CHECK(ctx, p >= 0 && p <= 1, "%s: p must be in [0, 1]", op);
  const bool training = !train.has_value() || *train;
  if (training && p != 0) {
    ctx.fail(Error::NotSupported, "%s: training mode (random masks) is not supported", op);
    return;
  }
  if (!nn::check_same_dtype(ctx, op, input, "input", out0, "out0") ||
      !check_contiguous(ctx, op, input) || !check_contiguous(ctx, op, out0) ||
      !check_contiguous(ctx, op, out1)) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, out1.scalar_type() == ScalarType::Bool, "%s: out1 (the mask) must be "
                     "Bool, not %s", op, scalar_type_name(out1.scalar_type()));
  if (!resize_output(ctx, out0, input.sizes(), op) ||
      !resize_output(ctx, out1, input.sizes(), op)) {
    return;
  }
  if (input.nbytes() > 0) {
    std::memmove(out0.mutable_data_ptr(), input.const_data_ptr(), input.nbytes());
  }
  bool* mask = out1.mutable_data_ptr<bool>();
  for (int64_t i = 0; i < out1.numel(); ++i) mask[i] = true;
}

// ---------------------------------------------------------------------------
// empty_strided: only shapes `out`; Ember tensors take their strides from
// the dim order, so `stride` is checked for length only.

void shape_strided(KernelContext& ctx, const char* op, IntArrayRef size, IntArrayRef stride,
                   Tensor& out) {
  EMBER_KERNEL_CHECK(ctx, size.size() == stride.size(),
                     "%s: size and stride must have the same length (%zu vs %zu)", op,
                     size.size(), stride.size());
  for (int64_t s : size) EMBER_KERNEL_CHECK(ctx, s >= 0, "%s: sizes must be non-negative", op);
  resize_output(ctx, out, size, op);
}

void empty_strided_out(KernelContext& ctx, IntArrayRef size, IntArrayRef stride, Tensor& out) {
  shape_strided(ctx, "empty_strided.out", size, stride, out);
}

// new_empty_strided: self gives only the default dtype, which export has
// already made out's.
void new_empty_strided_out(KernelContext& ctx, const Tensor& self, IntArrayRef size,
                           IntArrayRef stride, Tensor& out) {
  shape_strided(ctx, "new_empty_strided.out", size, stride, out);
}

// ---------------------------------------------------------------------------
// masked_scatter: out = self broadcast with mask; where mask is true, the next
// element of source (in row-major order) replaces it.

template <typename T>
void masked_scatter_impl(const Tensor& self, const Tensor& mask, const Tensor& source,
                         Tensor& out) {
  const T* s = self.const_data_ptr<T>();
  const bool* m = mask.const_data_ptr<bool>();
  const T* src = source.const_data_ptr<T>();
  T* o = out.mutable_data_ptr<T>();
  const int rank = out.dim();
  int64_t coord[kTensorDimensionLimit] = {};
  int64_t next = 0;
  for (int64_t i = 0; i < out.numel(); ++i) {
    int64_t so = 0, mo = 0;
    for (int d = 0; d < rank; ++d) {
      const int ds = d - (rank - self.dim()), dm = d - (rank - mask.dim());
      if (ds >= 0 && self.size(ds) != 1) so += coord[d] * self.stride(ds);
      if (dm >= 0 && mask.size(dm) != 1) mo += coord[d] * mask.stride(dm);
    }
    o[i] = m[mo] ? src[next++] : s[so];
    for (int d = rank - 1; d >= 0; --d) {
      if (++coord[d] < out.size(d)) break;
      coord[d] = 0;
    }
  }
}

void masked_scatter_out(KernelContext& ctx, const Tensor& self, const Tensor& mask,
                        const Tensor& source, Tensor& out) {
  const char* op = "masked_scatter.out";
  EMBER_KERNEL_CHECK(ctx, mask.scalar_type() == ScalarType::Bool, "%s: mask must be Bool, not %s",
                     op, scalar_type_name(mask.scalar_type()));
  if (!nn::check_same_dtype(ctx, op, self, "self", source, "source") ||
      !nn::check_same_dtype(ctx, op, self, "self", out, "out") ||
      !check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, mask) ||
      !check_contiguous(ctx, op, source) || !check_contiguous(ctx, op, out)) {
    return;
  }
  const int rank = self.dim() > mask.dim() ? self.dim() : mask.dim();
  int64_t sizes[kTensorDimensionLimit];
  for (int d = 0; d < rank; ++d) {
    const int ds = d - (rank - self.dim()), dm = d - (rank - mask.dim());
    const int64_t a = ds >= 0 ? self.size(ds) : 1, b = dm >= 0 ? mask.size(dm) : 1;
    EMBER_KERNEL_CHECK(ctx, a == b || a == 1 || b == 1, "%s: self and mask do not broadcast", op);
    sizes[d] = a == 1 ? b : a;
  }
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, rank), op)) return;
  // Count the true positions (mask broadcast to out) before reading source.
  int64_t trues = 0;
  {
    const bool* m = mask.const_data_ptr<bool>();
    int64_t coord[kTensorDimensionLimit] = {};
    for (int64_t i = 0; i < out.numel(); ++i) {
      int64_t mo = 0;
      for (int d = 0; d < rank; ++d) {
        const int dm = d - (rank - mask.dim());
        if (dm >= 0 && mask.size(dm) != 1) mo += coord[d] * mask.stride(dm);
      }
      trues += m[mo] ? 1 : 0;
      for (int d = rank - 1; d >= 0; --d) {
        if (++coord[d] < out.size(d)) break;
        coord[d] = 0;
      }
    }
  }
  EMBER_KERNEL_CHECK(ctx, trues <= source.numel(),
                     "%s: mask has %lld true elements but source has only %lld", op,
                     static_cast<long long>(trues), static_cast<long long>(source.numel()));
  EMBER_SWITCH_ALL_AND_COMPLEX_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    masked_scatter_impl<CTYPE>(self, mask, source, out));
}

// ---------------------------------------------------------------------------
// Random fills: the method's splitmix64 stream (KernelContext::next_random),
// advanced on every call, so that a program is reproducible run to run (the
// values cannot match PyTorch's generator).

// Uniform in [0, 1) with 53 random bits.
double next_uniform(KernelContext& ctx) {
  return static_cast<double>(ctx.next_random() >> 11) * 0x1.0p-53;
}

template <typename T>
void fill_uniform(KernelContext& ctx, Tensor& out) {
  T* o = out.mutable_data_ptr<T>();
  for (int64_t i = 0; i < out.numel(); ++i) {
    T v = static_cast<T>(next_uniform(ctx));
    // Rounding to a narrow type may reach 1.0; keep the interval half-open.
    while (!(static_cast<double>(v) < 1.0)) v = static_cast<T>(next_uniform(ctx));
    o[i] = v;
  }
}

template <typename T>
void fill_normal(KernelContext& ctx, Tensor& out) {
  T* o = out.mutable_data_ptr<T>();
  const double kTwoPi = 6.283185307179586;
  for (int64_t i = 0; i < out.numel(); i += 2) {
    // Box-Muller; 1 - u keeps the log finite.
    const double u1 = 1.0 - next_uniform(ctx), u2 = next_uniform(ctx);
    const double r = std::sqrt(-2.0 * std::log(u1));
    o[i] = static_cast<T>(r * std::cos(kTwoPi * u2));
    if (i + 1 < out.numel()) o[i + 1] = static_cast<T>(r * std::sin(kTwoPi * u2));
  }
}

bool prepare_random(KernelContext& ctx, const char* op, IntArrayRef size, Tensor& out) {
  for (int64_t s : size) {
    if (s < 0) {
      ctx.fail(Error::InvalidArgument, "%s: sizes must be non-negative", op);
      return false;
    }
  }
  return check_contiguous(ctx, op, out) && resize_output(ctx, out, size, op);
}

void rand_out(KernelContext& ctx, IntArrayRef size, Tensor& out) {
  const char* op = "rand.out";
  if (!prepare_random(ctx, op, size, out)) return;
  EMBER_SWITCH_FLOAT_TYPES(out.scalar_type(), return fail_dtype(ctx, op, out.scalar_type()),
    fill_uniform<CTYPE>(ctx, out));
}

void randn_out(KernelContext& ctx, IntArrayRef size, Tensor& out) {
  const char* op = "randn.out";
  if (!prepare_random(ctx, op, size, out)) return;
  EMBER_SWITCH_FLOAT_TYPES(out.scalar_type(), return fail_dtype(ctx, op, out.scalar_type()),
    fill_normal<CTYPE>(ctx, out));
}

// Fisher-Yates in the output buffer.
template <typename T>
void fill_randperm(KernelContext& ctx, int64_t n, Tensor& out) {
  T* o = out.mutable_data_ptr<T>();
  for (int64_t i = 0; i < n; ++i) o[i] = convert<T>(i);
  for (int64_t i = n - 1; i > 0; --i) {
    const int64_t j = static_cast<int64_t>(ctx.next_random() % static_cast<uint64_t>(i + 1));
    const T t = o[i];
    o[i] = o[j];
    o[j] = t;
  }
}

// The largest n whose values 0..n-1 the dtype holds exactly.
int64_t randperm_limit(ScalarType type) {
  switch (type) {
    case ScalarType::Byte: return int64_t{1} << 8;
    case ScalarType::Char: return int64_t{1} << 7;
    case ScalarType::Short: return int64_t{1} << 15;
    case ScalarType::Int: return int64_t{1} << 31;
    case ScalarType::Half: return (int64_t{1} << 11) + 1;
    case ScalarType::BFloat16: return (int64_t{1} << 8) + 1;
    case ScalarType::Float: return (int64_t{1} << 24) + 1;
    default: return INT64_MAX;
  }
}

void randperm_out(KernelContext& ctx, int64_t n, Tensor& out) {
  const char* op = "randperm.out";
  EMBER_KERNEL_CHECK(ctx, n >= 0, "%s: n must be non-negative, got %lld", op,
                     static_cast<long long>(n));
  EMBER_KERNEL_CHECK(ctx, n <= randperm_limit(out.scalar_type()),
                     "%s: n = %lld is too large for dtype %s", op, static_cast<long long>(n),
                     scalar_type_name(out.scalar_type()));
  const int64_t sizes[1] = {n};
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, 1), op)) return;
  EMBER_SWITCH_REAL_TYPES(out.scalar_type(), return fail_dtype(ctx, op, out.scalar_type()),
    fill_randperm<CTYPE>(ctx, n, out));
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::scatter_reduce.two_out", scatter_reduce_two_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::_cdist_forward.out", cdist_forward_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::_pdist_forward.out", pdist_forward_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::col2im.out", col2im_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::native_dropout.out", native_dropout_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::empty_strided.out", empty_strided_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::new_empty_strided.out", new_empty_strided_out,
                      kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::masked_scatter.out", masked_scatter_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::rand.out", rand_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::randn.out", randn_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::randperm.out", randperm_out, kAllTypes);

}  // namespace ember::kernels
