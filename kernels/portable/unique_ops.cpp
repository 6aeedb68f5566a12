// unique (_unique2, unique_dim) and unique_consecutive: outputs whose length
// depends on the data. The exporter plans them at the bound the op implies
// (at most the input's element count, or its size along dim); each kernel
// resizes them to the true count, which the caller then sees.
//
// As in torch's CPU kernels, unique always sorts (NaN last, each NaN its own
// value: NaN != NaN), and slices along a dim sort lexicographically.
#include <algorithm>
#include <cstring>
#include <optional>

#include "kernels/portable/util/elementwise_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

template <typename T>
bool less_nan_last(T a, T b) {
  if (is_nan(a)) return false;
  if (is_nan(b)) return true;
  return a < b;
}

// inverse and counts are filled only when asked for; torch gives them the
// shapes (0,) otherwise.
bool resize_1d(KernelContext& ctx, const char* op, Tensor& t, int64_t n) {
  const int64_t sizes[1] = {n};
  return resize_output(ctx, t, Span<const int64_t>(sizes, 1), op);
}

bool check_outputs(KernelContext& ctx, const char* op, const Tensor& self, const Tensor& values,
                   const Tensor& inverse, const Tensor& counts) {
  return check_out_dtype(ctx, op, self.scalar_type(), values) &&
         check_out_dtype(ctx, op, ScalarType::Long, inverse) &&
         check_out_dtype(ctx, op, ScalarType::Long, counts) && check_contiguous(ctx, op, self) &&
         check_contiguous(ctx, op, values) && check_contiguous(ctx, op, inverse) &&
         check_contiguous(ctx, op, counts);
}

// Groups `order` (a permutation of the elements) into runs of equal values
// and writes values, inverse and counts. `equal(i, j)` compares elements.
template <typename T, typename Equal>
bool write_groups(KernelContext& ctx, const char* op, const T* src, const int64_t* order,
                  int64_t n, Equal equal, bool return_inverse, bool return_counts,
                  const Tensor& self, Tensor& values, Tensor& inverse, Tensor& counts) {
  int64_t groups = 0;
  for (int64_t k = 0; k < n; ++k) {
    if (k == 0 || !equal(order[k - 1], order[k])) ++groups;
  }
  if (!resize_1d(ctx, op, values, groups)) return false;
  if (return_inverse ? !resize_output(ctx, inverse, self.sizes(), op)
                     : !resize_1d(ctx, op, inverse, 0)) {
    return false;
  }
  if (!resize_1d(ctx, op, counts, return_counts ? groups : 0)) return false;
  T* v = values.mutable_data_ptr<T>();
  int64_t* inv = inverse.mutable_data_ptr<int64_t>();
  int64_t* cnt = counts.mutable_data_ptr<int64_t>();
  int64_t g = -1;
  for (int64_t k = 0; k < n; ++k) {
    if (k == 0 || !equal(order[k - 1], order[k])) {
      ++g;
      v[g] = src[order[k]];
      if (return_counts) cnt[g] = 0;
    }
    if (return_inverse) inv[order[k]] = g;
    if (return_counts) ++cnt[g];
  }
  return true;
}

void unique2_out(KernelContext& ctx, const Tensor& self, bool sorted, bool return_inverse,
                 bool return_counts, Tensor& values, Tensor& inverse, Tensor& counts) {
  const char* op = "_unique2.out";
  (void)sorted;  // torch's CPU kernel sorts either way
  if (!check_outputs(ctx, op, self, values, inverse, counts)) return;
  const int64_t n = self.numel();
  int64_t* order = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(n));
  if (order == nullptr) return;
  for (int64_t k = 0; k < n; ++k) order[k] = k;
  switch_dtype<kAllTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = self.const_data_ptr<T>();
    // Ties broken by position: the order a stable sort gives, without the
    // buffer std::stable_sort would allocate.
    std::sort(order, order + n, [src](int64_t i, int64_t j) {
      if (less_nan_last(src[i], src[j])) return true;
      if (less_nan_last(src[j], src[i])) return false;
      return i < j;
    });
    write_groups(ctx, op, src, order, n, [src](int64_t i, int64_t j) { return src[i] == src[j]; },
                 return_inverse, return_counts, self, values, inverse, counts);
  });
}

size_t unique2_temp(Span<EValue* const> args) {
  return static_cast<size_t>(args[0]->to_tensor().numel()) * 8 + 64;
}

// unique_consecutive without a dim: runs of equal neighbours in the
// flattened input, in their order.
void unique_consecutive_flat(KernelContext& ctx, const char* op, const Tensor& self,
                             bool return_inverse, bool return_counts, Tensor& values,
                             Tensor& inverse, Tensor& counts) {
  const int64_t n = self.numel();
  int64_t* order = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(n));
  if (order == nullptr) return;
  for (int64_t k = 0; k < n; ++k) order[k] = k;
  switch_dtype<kAllTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = self.const_data_ptr<T>();
    write_groups(ctx, op, src, order, n, [src](int64_t i, int64_t j) { return src[i] == src[j]; },
                 return_inverse, return_counts, self, values, inverse, counts);
  });
}

// Slices along `dim`: slice i is self.select(dim, i), compared element by
// element in row-major order.
struct Slices {
  int64_t count, outer, inner;  // self = [outer, count, inner]
  int64_t element(int64_t slice, int64_t k) const {  // k-th element of the slice
    return (k / inner) * count * inner + slice * inner + (k % inner);
  }
  int64_t size() const { return outer * inner; }
};

Slices slices_of(const Tensor& self, int64_t d) {
  Slices s{self.size(d), 1, 1};
  for (int i = 0; i < self.dim(); ++i) {
    if (i < d) s.outer *= self.size(i);
    if (i > d) s.inner *= self.size(i);
  }
  return s;
}

// values: the chosen slices in `order`'s group order along dim; inverse is per
// slice, counts per group. Along a dim torch fills both whether asked for or
// not, so they are always written.
template <typename T>
bool write_slice_groups(KernelContext& ctx, const char* op, const Tensor& self, int64_t d,
                        const Slices& s, const int64_t* order, Tensor& values, Tensor& inverse,
                        Tensor& counts) {
  const T* src = self.const_data_ptr<T>();
  auto equal = [&](int64_t a, int64_t b) {
    for (int64_t k = 0; k < s.size(); ++k) {
      if (!(src[s.element(a, k)] == src[s.element(b, k)])) return false;
    }
    return true;
  };
  int64_t groups = 0;
  for (int64_t k = 0; k < s.count; ++k) {
    if (k == 0 || !equal(order[k - 1], order[k])) ++groups;
  }
  int64_t sizes[kTensorDimensionLimit];
  for (int i = 0; i < self.dim(); ++i) sizes[i] = i == d ? groups : self.size(i);
  if (!resize_output(ctx, values, Span<const int64_t>(sizes, self.dim()), op) ||
      !resize_1d(ctx, op, inverse, s.count) || !resize_1d(ctx, op, counts, groups)) {
    return false;
  }
  const Slices out{groups, s.outer, s.inner};
  T* v = values.mutable_data_ptr<T>();
  int64_t* inv = inverse.mutable_data_ptr<int64_t>();
  int64_t* cnt = counts.mutable_data_ptr<int64_t>();
  int64_t g = -1;
  for (int64_t k = 0; k < s.count; ++k) {
    if (k == 0 || !equal(order[k - 1], order[k])) {
      ++g;
      for (int64_t e = 0; e < s.size(); ++e) v[out.element(g, e)] = src[s.element(order[k], e)];
      cnt[g] = 0;
    }
    inv[order[k]] = g;
    ++cnt[g];
  }
  return true;
}

template <bool kSort>
void unique_along_dim(KernelContext& ctx, const char* op, const Tensor& self, int64_t dim,
                      Tensor& values, Tensor& inverse, Tensor& counts) {
  int64_t d = 0;
  EMBER_KERNEL_CHECK(ctx, self.dim() > 0 && normalize_dim(dim, self.dim(), &d),
                     "%s: dim %lld is out of range", op, static_cast<long long>(dim));
  const Slices s = slices_of(self, d);
  int64_t* order = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(s.count));
  if (order == nullptr) return;
  for (int64_t k = 0; k < s.count; ++k) order[k] = k;
  switch_dtype<kAllTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = self.const_data_ptr<T>();
    if constexpr (kSort) {
      std::sort(order, order + s.count, [&](int64_t a, int64_t b) {
        for (int64_t k = 0; k < s.size(); ++k) {
          const T x = src[s.element(a, k)], y = src[s.element(b, k)];
          if (less_nan_last(x, y)) return true;
          if (less_nan_last(y, x)) return false;
        }
        return a < b;
      });
    }
    write_slice_groups<T>(ctx, op, self, d, s, order, values, inverse, counts);
  });
}

void unique_dim_out(KernelContext& ctx, const Tensor& self, int64_t dim, bool sorted,
                    bool return_inverse, bool return_counts, Tensor& values, Tensor& inverse,
                    Tensor& counts) {
  const char* op = "unique_dim.out";
  (void)sorted;  // torch sorts the slices either way
  (void)return_inverse;
  (void)return_counts;
  if (!check_outputs(ctx, op, self, values, inverse, counts)) return;
  unique_along_dim<true>(ctx, op, self, dim, values, inverse, counts);
}

void unique_consecutive_out(KernelContext& ctx, const Tensor& self, bool return_inverse,
                            bool return_counts, std::optional<int64_t> dim, Tensor& values,
                            Tensor& inverse, Tensor& counts) {
  const char* op = "unique_consecutive.out";
  if (!check_outputs(ctx, op, self, values, inverse, counts)) return;
  if (!dim.has_value()) {
    unique_consecutive_flat(ctx, op, self, return_inverse, return_counts, values, inverse, counts);
    return;
  }
  unique_along_dim<false>(ctx, op, self, *dim, values, inverse, counts);
}

size_t unique_temp(Span<EValue* const> args) {
  const Tensor& self = args[0]->to_tensor();
  return static_cast<size_t>(self.numel()) * 8 + 64;
}

}  // namespace

EMBER_REGISTER_KERNEL_WITH_TEMP("aten::_unique2.out", unique2_out, kAllTypes, kAllTypes,
                                unique2_temp);
EMBER_REGISTER_KERNEL_WITH_TEMP("aten::unique_dim.out", unique_dim_out, kAllTypes, kAllTypes,
                                unique_temp);
EMBER_REGISTER_KERNEL_WITH_TEMP("aten::unique_consecutive.out", unique_consecutive_out,
                                kAllTypes, kAllTypes, unique_temp);

}  // namespace ember::kernels
