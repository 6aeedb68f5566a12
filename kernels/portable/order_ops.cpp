// Order statistics along a dim: median, nanmedian (and their all-element
// forms), kthvalue and mode, with the index PyTorch's CPU kernels return when
// values tie (each is reproduced below); and the running scans cummax,
// cummin and logcumsumexp.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernels/portable/util/elementwise_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// One slice along the reduced dim, copied out with its indices.
template <typename T>
struct Slice {
  T* values;
  int64_t* indices;
  int64_t size;
};

template <typename T>
bool nan_of(T v) {
  return is_nan(v);
}

// The output shape of a reduction over `dim` (removed, or kept as 1).
bool resize_reduced(KernelContext& ctx, const char* op, const Tensor& self, int64_t dim,
                    bool keepdim, Tensor& out) {
  int64_t sizes[kTensorDimensionLimit];
  int rank = 0;
  for (int d = 0; d < self.dim(); ++d) {
    if (d == dim) {
      if (keepdim) sizes[rank++] = 1;
    } else {
      sizes[rank++] = self.size(d);
    }
  }
  return resize_output(ctx, out, Span<const int64_t>(sizes, rank), op);
}

// Calls pick(slice) -> (value, index) for every slice of `self` along `dim`
// and writes both results. Scratch: one slice of values and indices.
template <DtypeMask kSet, typename Pick>
void select_along_dim(KernelContext& ctx, const char* op, const Tensor& self, int64_t dim,
                      bool keepdim, Tensor& values, Tensor& indices, Pick&& pick) {
  int64_t d = 0;
  EMBER_KERNEL_CHECK(ctx, normalize_dim(dim, self.dim(), &d), "%s: dim %lld is out of range", op,
                     static_cast<long long>(dim));
  if (!check_out_dtype(ctx, op, self.scalar_type(), values) ||
      !check_out_dtype(ctx, op, ScalarType::Long, indices) ||
      !check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, values) ||
      !check_contiguous(ctx, op, indices) ||
      !resize_reduced(ctx, op, self, d, keepdim, values) ||
      !resize_reduced(ctx, op, self, d, keepdim, indices)) {
    return;
  }
  const nn::DimSplit s = nn::split_at_dim(self, d);
  EMBER_KERNEL_CHECK(ctx, s.size > 0 || values.numel() == 0,
                     "%s: cannot take it over an empty dim", op);
  if (values.numel() == 0) return;
  switch_dtype<kSet>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* scratch = allocate_temp_array<T>(ctx, op, static_cast<size_t>(s.size));
    int64_t* order = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(s.size));
    if (scratch == nullptr || order == nullptr) return;
    const T* src = self.const_data_ptr<T>();
    T* out_v = values.mutable_data_ptr<T>();
    int64_t* out_i = indices.mutable_data_ptr<int64_t>();
    for (int64_t o = 0; o < s.outer; ++o) {
      for (int64_t i = 0; i < s.inner; ++i) {
        const int64_t base = o * s.size * s.inner + i;
        for (int64_t k = 0; k < s.size; ++k) {
          scratch[k] = src[base + k * s.inner];
          order[k] = k;
        }
        const std::pair<T, int64_t> r = pick(Slice<T>{scratch, order, s.size});
        out_v[o * s.inner + i] = r.first;
        out_i[o * s.inner + i] = r.second;
      }
    }
  });
}

size_t slice_temp_bytes(const Tensor& self, int64_t dim) {
  int64_t d = 0;
  if (!normalize_dim(dim, self.dim(), &d) || self.dim() == 0) return 64;
  return static_cast<size_t>(self.size(d)) * 24 + 64;
}

// --- median ------------------------------------------------------------------

// NaN sorts last; equal values keep index order (torch's comparator), so the
// median's index is unique.
template <typename T>
std::pair<T, int64_t> median_of(Slice<T> s, bool ignore_nan) {
  int64_t* first = s.indices;
  int64_t* last = s.indices + s.size;
  const T* v = s.values;
  if (!ignore_nan) {
    int64_t* nan = std::find_if(first, last, [v](int64_t i) { return nan_of(v[i]); });
    if (nan != last) return {v[*nan], *nan};
    int64_t* nth = first + (s.size - 1) / 2;
    std::nth_element(first, nth, last, [v](int64_t i, int64_t j) {
      return v[i] < v[j] || (v[i] == v[j] && i < j);
    });
    return {v[*nth], *nth};
  }
  const int64_t nans = std::count_if(first, last, [v](int64_t i) { return nan_of(v[i]); });
  if (nans == s.size) return {v[0], 0};
  int64_t* nth = first + (s.size - nans - 1) / 2;
  std::nth_element(first, nth, last, [v](int64_t i, int64_t j) {
    return v[i] < v[j] || (v[i] == v[j] && i < j) || (nan_of(v[j]) && !nan_of(v[i]));
  });
  return {v[*nth], *nth};
}

void median_dim_values(KernelContext& ctx, const Tensor& self, int64_t dim, bool keepdim,
                       Tensor& values, Tensor& indices) {
  select_along_dim<kRealTypes>(ctx, "median.dim_values", self, dim, keepdim, values, indices,
                               [](auto s) { return median_of(s, false); });
}

void nanmedian_dim_values(KernelContext& ctx, const Tensor& self, int64_t dim, bool keepdim,
                          Tensor& values, Tensor& indices) {
  select_along_dim<kRealTypes>(ctx, "nanmedian.dim_values", self, dim, keepdim, values, indices,
                               [](auto s) { return median_of(s, true); });
}

template <bool kIgnoreNan>
void median_all(KernelContext& ctx, const char* op, const Tensor& self, Tensor& out) {
  if (!check_out_dtype(ctx, op, self.scalar_type(), out) || !check_contiguous(ctx, op, self) ||
      !resize_output(ctx, out, Span<const int64_t>(), op)) {
    return;
  }
  const int64_t n = self.numel();
  switch_dtype<kRealTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (n == 0) {
      // torch gives NaN for an empty float input and refuses integers.
      if constexpr (is_float_v<T>) {
        *out.mutable_data_ptr<T>() = convert<T>(std::numeric_limits<float>::quiet_NaN());
      } else {
        ctx.fail(Error::InvalidArgument, "%s: median of an empty integer tensor", op);
      }
      return;
    }
    T* values = allocate_temp_array<T>(ctx, op, static_cast<size_t>(n));
    int64_t* order = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(n));
    if (values == nullptr || order == nullptr) return;
    const T* src = self.const_data_ptr<T>();
    for (int64_t k = 0; k < n; ++k) {
      values[k] = src[k];
      order[k] = k;
    }
    *out.mutable_data_ptr<T>() = median_of(Slice<T>{values, order, n}, kIgnoreNan).first;
  });
}

void median_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  median_all<false>(ctx, "median.out", self, out);
}
void nanmedian_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  median_all<true>(ctx, "nanmedian.out", self, out);
}

size_t median_dim_temp(Span<EValue* const> args) {
  return slice_temp_bytes(args[0]->to_tensor(), args[1]->to_int());
}
size_t median_all_temp(Span<EValue* const> args) {
  return static_cast<size_t>(args[0]->to_tensor().numel()) * 24 + 64;
}

// --- kthvalue ------------------------------------------------------------------

// torch's quick_select_template (median-of-three quickselect, NaN largest),
// step for step, so that the index it leaves for tied values is the same.
template <typename T>
std::pair<T, int64_t> quick_select(Slice<T> s, int64_t k) {
  T* arr = s.values;
  int64_t* idx = s.indices;
  auto gt = [](T x, T y) { return (nan_of(x) && !nan_of(y)) || x > y; };
  auto swap = [&](int64_t i, int64_t j) {
    std::swap(arr[i], arr[j]);
    std::swap(idx[i], idx[j]);
  };
  int64_t lo = 0, hi = s.size - 1;
  while (true) {
    if (hi <= lo) break;
    if (hi == lo + 1) {
      if (gt(arr[lo], arr[hi])) swap(lo, hi);
      break;
    }
    const int64_t mid = lo + (hi - lo) / 2;
    swap(mid, lo + 1);
    if (gt(arr[lo + 1], arr[hi])) swap(lo + 1, hi);
    if (gt(arr[lo], arr[hi])) swap(lo, hi);
    if (gt(arr[lo + 1], arr[lo])) swap(lo + 1, lo);
    int64_t i = lo + 1, j = hi;
    const T pivot = arr[lo];
    while (true) {
      do ++i; while (gt(pivot, arr[i]));
      do --j; while (gt(arr[j], pivot));
      if (j < i) break;
      swap(i, j);
    }
    swap(lo, j);
    if (j <= k) lo = i;
    if (j >= k) hi = j - 1;
  }
  return {arr[k], idx[k]};
}

void kthvalue_values(KernelContext& ctx, const Tensor& self, int64_t k, int64_t dim, bool keepdim,
                     Tensor& values, Tensor& indices) {
  const char* op = "kthvalue.values";
  int64_t d = 0;
  EMBER_KERNEL_CHECK(ctx, normalize_dim(dim, self.dim(), &d), "%s: dim out of range", op);
  const int64_t size = self.dim() == 0 ? 1 : self.size(d);
  EMBER_KERNEL_CHECK(ctx, k >= 1 && k <= size, "%s: k (%lld) is out of range for a dim of %lld",
                     op, static_cast<long long>(k), static_cast<long long>(size));
  select_along_dim<kRealTypes>(ctx, op, self, dim, keepdim, values, indices,
                               [k](auto s) { return quick_select(s, k - 1); });
}

size_t kthvalue_temp(Span<EValue* const> args) {
  return slice_temp_bytes(args[0]->to_tensor(), args[2]->to_int());
}

// --- mode ----------------------------------------------------------------------

// torch sorts (value, index) pairs by value with std::sort and takes the
// smallest of the most frequent values, with the index of the last pair of
// its run; the same std::sort here gives the same index for ties. A slice
// with NaN sorts with NaN last instead (torch's comparator is no ordering
// then, and std::sort may read out of bounds with it).
template <typename T>
std::pair<T, int64_t> mode_of(Slice<T> s) {
  // The pairs live in the values/indices scratch, rebuilt as pairs in place
  // would need more room; sort the indices by value instead, which moves the
  // same elements std::sort would (the comparator sees the same values).
  const T* v = s.values;
  int64_t* first = s.indices;
  int64_t* last = first + s.size;
  const bool any_nan = std::any_of(v, v + s.size, [](T x) { return nan_of(x); });
  if (any_nan) {
    std::sort(first, last, [v](int64_t i, int64_t j) {
      return (!nan_of(v[i]) && nan_of(v[j])) || v[i] < v[j];
    });
  } else {
    std::sort(first, last, [v](int64_t i, int64_t j) { return v[i] < v[j]; });
  }
  T mode = T(0);
  int64_t mode_index = 0, run = 0, best = 0;
  for (int64_t i = 0; i < s.size; ++i) {
    ++run;
    if (i == s.size - 1 || v[first[i]] != v[first[i + 1]]) {
      if (run > best) {
        mode = v[first[i]];
        mode_index = first[i];
        best = run;
      }
      run = 0;
    }
  }
  return {mode, mode_index};
}

void mode_values(KernelContext& ctx, const Tensor& self, int64_t dim, bool keepdim,
                 Tensor& values, Tensor& indices) {
  select_along_dim<kAllTypes>(ctx, "mode.values", self, dim, keepdim, values, indices,
                              [](auto s) { return mode_of(s); });
}

size_t mode_temp(Span<EValue* const> args) {
  return slice_temp_bytes(args[0]->to_tensor(), args[1]->to_int());
}

// --- cummax, cummin, logcumsumexp ------------------------------------------------

// torch: a NaN, or a value >= (cummax) / <= (cummin) the running one, takes
// over, so ties move the index to the latest and NaN sticks.
template <bool kMax>
void cumulative_extremum(KernelContext& ctx, const char* op, const Tensor& self, int64_t dim,
                         Tensor& values, Tensor& indices) {
  int64_t d = 0;
  EMBER_KERNEL_CHECK(ctx, normalize_dim(dim, self.dim(), &d), "%s: dim out of range", op);
  if (!check_out_dtype(ctx, op, self.scalar_type(), values) ||
      !check_out_dtype(ctx, op, ScalarType::Long, indices) || !check_contiguous(ctx, op, self) ||
      !check_contiguous(ctx, op, values) || !check_contiguous(ctx, op, indices) ||
      !resize_output(ctx, values, self.sizes(), op) ||
      !resize_output(ctx, indices, self.sizes(), op)) {
    return;
  }
  const nn::DimSplit s = nn::split_at_dim(self, d);
  switch_dtype<kAllTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = self.const_data_ptr<T>();
    T* out_v = values.mutable_data_ptr<T>();
    int64_t* out_i = indices.mutable_data_ptr<int64_t>();
    for (int64_t o = 0; o < s.outer; ++o) {
      for (int64_t i = 0; i < s.inner; ++i) {
        const int64_t base = o * s.size * s.inner + i;
        if (s.size == 0) continue;
        T best = src[base];
        int64_t at = 0;
        for (int64_t k = 0; k < s.size; ++k) {
          const T x = src[base + k * s.inner];
          const bool takes = kMax ? x >= best : x <= best;
          if (nan_of(x) || (!nan_of(best) && takes)) {
            best = x;
            at = k;
          }
          out_v[base + k * s.inner] = best;
          out_i[base + k * s.inner] = at;
        }
      }
    }
  });
}

void cummax_out(KernelContext& ctx, const Tensor& self, int64_t dim, Tensor& values,
                Tensor& indices) {
  cumulative_extremum<true>(ctx, "cummax.out", self, dim, values, indices);
}
void cummin_out(KernelContext& ctx, const Tensor& self, int64_t dim, Tensor& values,
                Tensor& indices) {
  cumulative_extremum<false>(ctx, "cummin.out", self, dim, values, indices);
}

// log(exp(a) + exp(b)) as torch's logcumsumexp computes it, infinities and
// NaN included.
template <typename M>
M log_add_exp(M x, M y) {
  if constexpr (is_complex_v<M>) {
    // torch's complex helper: ordered by real part; NaN anywhere gives NaN;
    // equal infinite real parts take -inf as is, +inf through exp.
    using V = typename M::value_type;
    const bool x_first = x.real() < y.real() || std::isnan(y.real());
    const M lo = x_first ? x : y, hi = x_first ? y : x;
    const V nan = std::numeric_limits<V>::quiet_NaN();
    if (std::isnan(lo.real()) || std::isnan(lo.imag()) || std::isnan(hi.real()) ||
        std::isnan(hi.imag())) {
      return M(nan, nan);
    }
    if (!std::isfinite(lo.real()) && lo.real() == hi.real()) {
      return lo.real() < 0 ? lo : std::log(std::exp(lo) + std::exp(hi));
    }
    return std::log(M(1) + std::exp(lo - hi)) + hi;
  } else {
    const M lo = std::isnan(y) ? y : std::min(x, y);
    const M hi = std::isnan(y) ? y : std::max(x, y);
    if (lo != hi || std::isfinite(lo)) return std::log1p(std::exp(lo - hi)) + hi;
    return x;
  }
}

void logcumsumexp_out(KernelContext& ctx, const Tensor& self, int64_t dim, Tensor& out) {
  const char* op = "logcumsumexp.out";
  int64_t d = 0;
  EMBER_KERNEL_CHECK(ctx, normalize_dim(dim, self.dim(), &d), "%s: dim out of range", op);
  if (!check_out_dtype(ctx, op, self.scalar_type(), out) || !check_contiguous(ctx, op, self) ||
      !check_contiguous(ctx, op, out) || !resize_output(ctx, out, self.sizes(), op)) {
    return;
  }
  const nn::DimSplit s = nn::split_at_dim(self, d);
  switch_dtype<kFloatTypes | kComplexTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const T* src = self.const_data_ptr<T>();
    T* dst = out.mutable_data_ptr<T>();
    for (int64_t o = 0; o < s.outer; ++o) {
      for (int64_t i = 0; i < s.inner; ++i) {
        const int64_t base = o * s.size * s.inner + i;
        M acc = M(-std::numeric_limits<float>::infinity());
        for (int64_t k = 0; k < s.size; ++k) {
          acc = log_add_exp(static_cast<M>(src[base + k * s.inner]), acc);
          dst[base + k * s.inner] = convert<T>(acc);
        }
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL_WITH_TEMP("aten::median.dim_values", median_dim_values, kRealTypes,
                                kAllTypes, median_dim_temp);
EMBER_REGISTER_KERNEL_WITH_TEMP("aten::nanmedian.dim_values", nanmedian_dim_values, kRealTypes,
                                kAllTypes, median_dim_temp);
EMBER_REGISTER_KERNEL_WITH_TEMP("aten::median.out", median_out, kRealTypes, kAllTypes,
                                median_all_temp);
EMBER_REGISTER_KERNEL_WITH_TEMP("aten::nanmedian.out", nanmedian_out, kRealTypes, kAllTypes,
                                median_all_temp);
EMBER_REGISTER_KERNEL_WITH_TEMP("aten::kthvalue.values", kthvalue_values, kRealTypes, kAllTypes,
                                kthvalue_temp);
EMBER_REGISTER_KERNEL_WITH_TEMP("aten::mode.values", mode_values, kAllTypes, kAllTypes,
                                mode_temp);
EMBER_REGISTER_KERNEL("aten::cummax.out", cummax_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::cummin.out", cummin_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::logcumsumexp.out", logcumsumexp_out, kFloatTypes | kComplexTypes);

}  // namespace ember::kernels
