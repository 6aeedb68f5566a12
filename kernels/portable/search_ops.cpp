// Searching and counting: searchsorted and bucketize (binary search in sorted
// boundaries), histc and histogram (bin counts over evenly spaced or given
// edges), bincount (a data-dependent size: the largest value + 1, resized
// within the bound planned for it).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "kernels/portable/util/elementwise_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// --- searchsorted, bucketize ----------------------------------------------------

// torch's cus_lower_bound / cus_upper_bound: NaN values go past every
// boundary (no boundary is >= NaN), a sorter permutes the boundaries.
template <typename T>
int64_t search(const T* seq, const int64_t* sorter, int64_t n, T v, bool right) {
  int64_t start = 0, end = n;
  while (start < end) {
    const int64_t mid = start + ((end - start) >> 1);
    const T m = sorter ? seq[sorter[mid]] : seq[mid];
    const bool go_right = right ? !(m > v) : !(m >= v);
    if (go_right) start = mid + 1;
    else end = mid;
  }
  return start;
}

// sorted_sequence is 1-D, or has self's leading dims and its own last dim.
void search_impl(KernelContext& ctx, const char* op, const Tensor& seq, const Tensor* values,
                 const Scalar* scalar, bool out_int32, bool right, const Tensor* sorter,
                 Tensor& out) {
  if (!check_out_dtype(ctx, op, out_int32 ? ScalarType::Int : ScalarType::Long, out) ||
      !check_contiguous(ctx, op, seq) || !check_contiguous(ctx, op, out)) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, seq.dim() >= 1, "%s: the boundaries must have at least one dim", op);
  const int64_t n = seq.size(-1);
  int64_t rows = 1;
  for (int d = 0; d + 1 < seq.dim(); ++d) rows *= seq.size(d);
  if (values != nullptr) {
    if (!check_contiguous(ctx, op, *values)) return;
    if (seq.dim() > 1) {
      EMBER_KERNEL_CHECK(ctx, values->dim() == seq.dim(),
                         "%s: the boundaries and the values need the same leading dims", op);
      for (int d = 0; d + 1 < seq.dim(); ++d) {
        EMBER_KERNEL_CHECK(ctx, values->size(d) == seq.size(d),
                           "%s: the boundaries and the values need the same leading dims", op);
      }
    }
    if (!resize_output(ctx, out, values->sizes(), op)) return;
  } else {
    EMBER_KERNEL_CHECK(ctx, seq.dim() == 1, "%s: a scalar value needs 1-D boundaries", op);
    if (!resize_output(ctx, out, Span<const int64_t>(), op)) return;
  }
  if (sorter != nullptr) {
    EMBER_KERNEL_CHECK(ctx, sorter->scalar_type() == ScalarType::Long && sorter->numel() == seq.numel(),
                       "%s: the sorter must be Long, shaped like the boundaries", op);
    const int64_t* s = sorter->const_data_ptr<int64_t>();
    for (int64_t i = 0; i < sorter->numel(); ++i) {
      EMBER_KERNEL_CHECK(ctx, s[i] >= 0 && s[i] < n, "%s: the sorter index %lld is out of range",
                         op, static_cast<long long>(s[i]));
    }
  }
  const int64_t count = values != nullptr ? values->numel() : 1;
  const int64_t per_row = rows > 1 ? count / rows : count;
  switch_dtype<kRealTypes>(ctx, op, seq.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* sq = seq.const_data_ptr<T>();
    const int64_t* st = sorter ? sorter->const_data_ptr<int64_t>() : nullptr;
    const LoadFn<T> load = values ? get_load_fn<T>(values->scalar_type()) : nullptr;
    if (values != nullptr && load == nullptr) {
      fail_dtype(ctx, op, values->scalar_type());
      return;
    }
    for (int64_t i = 0; i < count; ++i) {
      const T v = values ? convert<T>(load(values->const_data_ptr(), i)) : scalar_to<T>(*scalar);
      const int64_t row = rows > 1 ? i / per_row : 0;
      const int64_t r = search(sq + row * n, st ? st + row * n : nullptr, n, v, right);
      if (out_int32) out.mutable_data_ptr<int32_t>()[i] = static_cast<int32_t>(r);
      else out.mutable_data_ptr<int64_t>()[i] = r;
    }
  });
}

// side="right" means right=True; torch refuses a side that contradicts right.
bool resolve_side(KernelContext& ctx, const char* op, bool right,
                  std::optional<StringView> side, bool* out) {
  *out = right;
  if (!side.has_value()) return true;
  const StringView s = *side;
  const bool is_right = s.size() == 5 && std::memcmp(s.data(), "right", 5) == 0;
  const bool is_left = s.size() == 4 && std::memcmp(s.data(), "left", 4) == 0;
  if (!is_right && !is_left) {
    ctx.fail(Error::InvalidArgument, "%s: side must be 'left' or 'right'", op);
    return false;
  }
  if (is_left && right) {
    ctx.fail(Error::InvalidArgument, "%s: side='left' contradicts right=True", op);
    return false;
  }
  *out = is_right;
  return true;
}

void searchsorted_tensor_out(KernelContext& ctx, const Tensor& sorted_sequence,
                             const Tensor& self, bool out_int32, bool right,
                             std::optional<StringView> side, const Tensor* sorter, Tensor& out) {
  const char* op = "searchsorted.Tensor_out";
  bool r;
  if (!resolve_side(ctx, op, right, side, &r)) return;
  search_impl(ctx, op, sorted_sequence, &self, nullptr, out_int32, r, sorter, out);
}

void searchsorted_scalar_out(KernelContext& ctx, const Tensor& sorted_sequence, Scalar self,
                             bool out_int32, bool right, std::optional<StringView> side,
                             const Tensor* sorter, Tensor& out) {
  const char* op = "searchsorted.Scalar_out";
  bool r;
  if (!resolve_side(ctx, op, right, side, &r)) return;
  search_impl(ctx, op, sorted_sequence, nullptr, &self, out_int32, r, sorter, out);
}

void bucketize_tensor_out(KernelContext& ctx, const Tensor& self, const Tensor& boundaries,
                          bool out_int32, bool right, Tensor& out) {
  const char* op = "bucketize.Tensor_out";
  EMBER_KERNEL_CHECK(ctx, boundaries.dim() == 1, "%s: boundaries must be 1-D", op);
  search_impl(ctx, op, boundaries, &self, nullptr, out_int32, right, nullptr, out);
}

void bucketize_scalar_out(KernelContext& ctx, Scalar self, const Tensor& boundaries,
                          bool out_int32, bool right, Tensor& out) {
  const char* op = "bucketize.Scalar_out";
  EMBER_KERNEL_CHECK(ctx, boundaries.dim() == 1, "%s: boundaries must be 1-D", op);
  search_impl(ctx, op, boundaries, nullptr, &self, out_int32, right, nullptr, out);
}

// --- histc, histogram --------------------------------------------------------------

// at::linspace's values in T: from the start for the first half, from the
// end for the rest, so both ends are exact.
template <typename T>
void linspace(T start, T end, int64_t steps, T* out) {
  using M = opmath_t<T>;
  const M step = steps > 1 ? (static_cast<M>(end) - static_cast<M>(start)) / static_cast<M>(steps - 1)
                           : M(0);
  const int64_t halfway = steps / 2;
  for (int64_t i = 0; i < steps; ++i) {
    out[i] = i < halfway ? convert<T>(static_cast<M>(start) + step * static_cast<M>(i))
                         : convert<T>(static_cast<M>(end) - step * static_cast<M>(steps - i - 1));
  }
}

enum class BinSearch { kLinear, kLinearThenLocal, kBinary };

// torch's histogramdd loop for one dim: elements outside [first, last] edge
// (and NaN) are skipped; the last bin includes its right edge.
template <typename T>
void count_into_bins(const Tensor& self, const Tensor* weight, const T* edges, int64_t num_edges,
                     BinSearch how, T* hist) {
  using M = opmath_t<T>;
  const T* src = self.const_data_ptr<T>();
  const T* w = weight ? weight->const_data_ptr<T>() : nullptr;
  const M left = static_cast<M>(edges[0]);
  const M right = static_cast<M>(edges[num_edges - 1]);
  for (int64_t b = 0; b + 1 < num_edges; ++b) hist[b] = T(0);
  for (int64_t i = 0; i < self.numel(); ++i) {
    const M x = static_cast<M>(src[i]);
    if (!(x >= left && x <= right)) continue;
    int64_t pos;
    if (how == BinSearch::kBinary) {
      pos = std::upper_bound(edges, edges + num_edges, src[i],
                             [](T a, T b) { return static_cast<M>(a) < static_cast<M>(b); }) -
            edges - 1;
    } else {
      pos = static_cast<int64_t>((x - left) * static_cast<M>(num_edges - 1) / (right - left));
      if (how == BinSearch::kLinearThenLocal) {
        const int64_t lo = std::max<int64_t>(0, pos - 1);
        const int64_t hi = std::min<int64_t>(pos + 2, num_edges);
        pos = std::upper_bound(edges + lo, edges + hi, src[i],
                               [](T a, T b) { return static_cast<M>(a) < static_cast<M>(b); }) -
              edges - 1;
      }
    }
    if (pos == num_edges - 1) pos -= 1;
    hist[pos] = convert<T>(static_cast<M>(hist[pos]) + (w ? static_cast<M>(w[i]) : M(1)));
  }
}

void histc_out(KernelContext& ctx, const Tensor& self, int64_t bins, Scalar min, Scalar max,
               Tensor& out) {
  const char* op = "histc.out";
  EMBER_KERNEL_CHECK(ctx, bins > 0, "%s: bins must be > 0", op);
  if (!check_out_dtype(ctx, op, self.scalar_type(), out) || !check_contiguous(ctx, op, self) ||
      !check_contiguous(ctx, op, out)) {
    return;
  }
  const int64_t sizes[1] = {bins};
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, 1), op)) return;
  switch_dtype<kFloatTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    double lo = min.to_double(), hi = max.to_double();
    if (lo == hi && self.numel() > 0) {
      const T* src = self.const_data_ptr<T>();
      lo = hi = static_cast<double>(src[0]);
      for (int64_t i = 0; i < self.numel(); ++i) {
        const double v = static_cast<double>(src[i]);
        if (v != v) { lo = hi = v; break; }
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    }
    if (lo == hi) {
      lo -= 1;
      hi += 1;
    }
    EMBER_KERNEL_CHECK(ctx, std::isfinite(lo) && std::isfinite(hi),
                       "%s: the range [%g, %g] is not finite", op, lo, hi);
    EMBER_KERNEL_CHECK(ctx, lo < hi, "%s: max must be larger than min", op);
    T* edges = allocate_temp_array<T>(ctx, op, static_cast<size_t>(bins + 1));
    if (edges == nullptr) return;
    linspace(convert<T>(lo), convert<T>(hi), bins + 1, edges);
    count_into_bins(self, nullptr, edges, bins + 1, BinSearch::kLinear, out.mutable_data_ptr<T>());
  });
}

template <typename T>
void normalize_density(T* hist, const T* edges, int64_t bins) {
  using M = opmath_t<T>;
  M total = 0;
  for (int64_t b = 0; b < bins; ++b) total += static_cast<M>(hist[b]);
  for (int64_t b = 0; b < bins; ++b) {
    const T share = convert<T>(static_cast<M>(hist[b]) / total);
    const T width = convert<T>(static_cast<M>(edges[b + 1]) - static_cast<M>(edges[b]));
    hist[b] = convert<T>(static_cast<M>(share) / static_cast<M>(width));
  }
}

bool check_histogram(KernelContext& ctx, const char* op, const Tensor& self, const Tensor* weight,
                     const Tensor& hist, const Tensor& bin_edges) {
  if (!check_out_dtype(ctx, op, self.scalar_type(), hist) ||
      !check_out_dtype(ctx, op, self.scalar_type(), bin_edges) ||
      !check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, hist) ||
      !check_contiguous(ctx, op, bin_edges)) {
    return false;
  }
  if (weight != nullptr && (weight->scalar_type() != self.scalar_type() ||
                            weight->numel() != self.numel() || !weight->is_contiguous_dim_order())) {
    ctx.fail(Error::InvalidArgument, "%s: the weight must be shaped and typed like the input", op);
    return false;
  }
  return true;
}

void histogram_bin_ct_out(KernelContext& ctx, const Tensor& self, int64_t bins,
                          std::optional<Span<const double>> range, const Tensor* weight,
                          bool density, Tensor& hist, Tensor& bin_edges) {
  const char* op = "histogram.bin_ct_out";
  EMBER_KERNEL_CHECK(ctx, bins > 0, "%s: bins must be > 0", op);
  if (!check_histogram(ctx, op, self, weight, hist, bin_edges)) return;
  const int64_t hist_size[1] = {bins};
  const int64_t edge_size[1] = {bins + 1};
  if (!resize_output(ctx, hist, Span<const int64_t>(hist_size, 1), op) ||
      !resize_output(ctx, bin_edges, Span<const int64_t>(edge_size, 1), op)) {
    return;
  }
  switch_dtype<kFloatTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    double lo = 0, hi = 0;
    if (range.has_value()) {
      EMBER_KERNEL_CHECK(ctx, range->size() == 2, "%s: range must have two values", op);
      lo = (*range)[0];
      hi = (*range)[1];
    } else if (self.numel() > 0) {
      const T* src = self.const_data_ptr<T>();
      lo = hi = static_cast<double>(src[0]);
      for (int64_t i = 0; i < self.numel(); ++i) {
        const double v = static_cast<double>(src[i]);
        if (v != v) { lo = hi = v; break; }
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    }
    EMBER_KERNEL_CHECK(ctx, std::isfinite(lo) && std::isfinite(hi),
                       "%s: the outer bin edges [%g, %g] are not finite", op, lo, hi);
    EMBER_KERNEL_CHECK(ctx, lo <= hi, "%s: min must not exceed max", op);
    if (lo == hi) {
      lo -= 0.5;
      hi += 0.5;
    }
    T* edges = bin_edges.mutable_data_ptr<T>();
    linspace(convert<T>(lo), convert<T>(hi), bins + 1, edges);
    T* h = hist.mutable_data_ptr<T>();
    count_into_bins(self, weight, edges, bins + 1, BinSearch::kLinearThenLocal, h);
    if (density) normalize_density(h, edges, bins);
  });
}

void histogram_bins_tensor_out(KernelContext& ctx, const Tensor& self, const Tensor& bins,
                               const Tensor* weight, bool density, Tensor& hist,
                               Tensor& bin_edges) {
  const char* op = "histogram.bins_tensor_out";
  if (!check_histogram(ctx, op, self, weight, hist, bin_edges)) return;
  EMBER_KERNEL_CHECK(ctx, bins.dim() == 1 && bins.numel() >= 1 &&
                              bins.scalar_type() == self.scalar_type(),
                     "%s: bins must be 1-D, non-empty and typed like the input", op);
  const int64_t hist_size[1] = {bins.numel() - 1};
  if (!resize_output(ctx, hist, Span<const int64_t>(hist_size, 1), op) ||
      !resize_output(ctx, bin_edges, bins.sizes(), op)) {
    return;
  }
  switch_dtype<kFloatTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* edges = bin_edges.mutable_data_ptr<T>();
    std::memcpy(edges, bins.const_data_ptr<T>(), bins.nbytes());
    T* h = hist.mutable_data_ptr<T>();
    if (bins.numel() == 1) return;
    count_into_bins(self, weight, edges, bins.numel(), BinSearch::kBinary, h);
    if (density) normalize_density(h, edges, bins.numel() - 1);
  });
}

size_t histc_temp(Span<EValue* const> args) {
  return static_cast<size_t>(std::max<int64_t>(args[1]->to_int(), 0) + 1) * 8 + 64;
}

// --- bincount ----------------------------------------------------------------------

// Counts (Long), or sums of weights (Float for Float weights, else Double),
// for 0 .. max(self); the output's length is data-dependent and must fit
// what was planned for it.
void bincount_out(KernelContext& ctx, const Tensor& self, const Tensor* weights,
                  int64_t minlength, Tensor& out) {
  const char* op = "bincount.out";
  EMBER_KERNEL_CHECK(ctx, self.dim() == 1, "%s: the input must be 1-D", op);
  EMBER_KERNEL_CHECK(ctx, minlength >= 0, "%s: minlength must be non-negative", op);
  if (!check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, out)) return;
  if (weights != nullptr) {
    EMBER_KERNEL_CHECK(ctx, weights->dim() == 1 && weights->numel() == self.numel(),
                       "%s: the weights must be 1-D and as long as the input", op);
  }
  const ScalarType want = weights == nullptr ? ScalarType::Long
                          : weights->scalar_type() == ScalarType::Float ? ScalarType::Float
                                                                         : ScalarType::Double;
  if (!check_out_dtype(ctx, op, want, out)) return;
  switch_dtype<kIntTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = self.const_data_ptr<T>();
    int64_t top = -1;
    for (int64_t i = 0; i < self.numel(); ++i) {
      const int64_t v = static_cast<int64_t>(src[i]);
      EMBER_KERNEL_CHECK(ctx, v >= 0, "%s: the input must be non-negative, got %lld", op,
                         static_cast<long long>(v));
      top = std::max(top, v);
    }
    const int64_t bins = std::max(top + 1, minlength);
    if (static_cast<size_t>(bins) * element_size(want) > out.capacity_bytes()) {
      ctx.fail(Error::InvalidArgument, "%s: the result has %lld bins, more than the %zu bytes "
               "planned for it hold; bound the output at export (torch._check(y.shape[0] <= N))",
               op, static_cast<long long>(bins), out.capacity_bytes());
      return;
    }
    const int64_t sizes[1] = {bins};
    if (!resize_output(ctx, out, Span<const int64_t>(sizes, 1), op)) return;
    if (weights == nullptr) {
      int64_t* dst = out.mutable_data_ptr<int64_t>();
      std::fill(dst, dst + bins, int64_t{0});
      for (int64_t i = 0; i < self.numel(); ++i) ++dst[static_cast<int64_t>(src[i])];
      return;
    }
    const LoadFn<double> load = get_load_fn<double>(weights->scalar_type());
    if (load == nullptr) return fail_dtype(ctx, op, weights->scalar_type());
    if (want == ScalarType::Float) {
      float* dst = out.mutable_data_ptr<float>();
      std::fill(dst, dst + bins, 0.0f);
      const float* w = weights->const_data_ptr<float>();
      for (int64_t i = 0; i < self.numel(); ++i) dst[static_cast<int64_t>(src[i])] += w[i];
    } else {
      double* dst = out.mutable_data_ptr<double>();
      std::fill(dst, dst + bins, 0.0);
      for (int64_t i = 0; i < self.numel(); ++i) {
        dst[static_cast<int64_t>(src[i])] += load(weights->const_data_ptr(), i);
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::searchsorted.Tensor_out", searchsorted_tensor_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::searchsorted.Scalar_out", searchsorted_scalar_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::bucketize.Tensor_out", bucketize_tensor_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::bucketize.Scalar_out", bucketize_scalar_out, kRealTypes);
EMBER_REGISTER_KERNEL_WITH_TEMP("aten::histc.out", histc_out, kFloatTypes, kAllTypes, histc_temp);
EMBER_REGISTER_KERNEL("aten::histogram.bin_ct_out", histogram_bin_ct_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::histogram.bins_tensor_out", histogram_bins_tensor_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::bincount.out", bincount_out, kIntTypes);

}  // namespace ember::kernels
