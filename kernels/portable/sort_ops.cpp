// Ordering along dims: sort (values + indices) and topk.
// A stable sort works in place on the output buffers (heap sort, no scratch):
// ties are broken by the original index, which makes the order the stable one
// that PyTorch's CPU sort produces; NaN sorts above every number. An unstable
// sort reproduces torch's std::sort, whose order of tied values differs.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// One slice along the sorted dim: values and indices, both strided.
template <typename T>
struct Slice {
  T* v;
  int64_t* idx;
  int64_t vs;  // strides, in elements
  int64_t is;
  T& val(int64_t i) const { return v[i * vs]; }
  int64_t& ind(int64_t i) const { return idx[i * is]; }
  void swap(int64_t a, int64_t b) const {
    const T tv = val(a);
    val(a) = val(b);
    val(b) = tv;
    const int64_t ti = ind(a);
    ind(a) = ind(b);
    ind(b) = ti;
  }
};

// Whether value a sorts strictly below value b (ascending, NaN last).
template <typename T>
bool value_less(T a, T b) {
  using A = opmath_t<T>;
  if (is_nan(a)) return false;
  if (is_nan(b)) return true;
  return static_cast<A>(a) < static_cast<A>(b);
}

// The total order of (value, index) pairs: by value (reversed when
// `descending`), then by index.
template <typename T>
struct Order {
  bool descending;
  bool before(T va, int64_t ia, T vb, int64_t ib) const {
    const bool lt = descending ? value_less(vb, va) : value_less(va, vb);
    if (lt) return true;
    const bool gt = descending ? value_less(va, vb) : value_less(vb, va);
    if (gt) return false;
    return ia < ib;
  }
};

// Restores the heap property below `root` in a heap of `n` items whose root
// is the item that comes last in `order`.
template <typename T>
void sift_down(const Slice<T>& s, const Order<T>& order, int64_t root, int64_t n) {
  while (true) {
    const int64_t l = 2 * root + 1;
    if (l >= n) return;
    int64_t big = l;
    const int64_t r = l + 1;
    if (r < n && order.before(s.val(l), s.ind(l), s.val(r), s.ind(r))) big = r;
    if (!order.before(s.val(root), s.ind(root), s.val(big), s.ind(big))) return;
    s.swap(root, big);
    root = big;
  }
}

// Heap sort of the first n items into `order`.
template <typename T>
void heap_sort(const Slice<T>& s, const Order<T>& order, int64_t n) {
  for (int64_t i = n / 2 - 1; i >= 0; --i) sift_down(s, order, i, n);
  for (int64_t end = n - 1; end > 0; --end) {
    s.swap(0, end);
    sift_down(s, order, 0, end);
  }
}

// The input seen as [outer, size, inner] around `dim` (0-d: one element).
bool split_dim(KernelContext& ctx, const char* op, const Tensor& in, int64_t dim,
               nn::DimSplit* split, int64_t* norm_dim) {
  if (!normalize_dim(dim, in.dim(), norm_dim)) {
    ctx.fail(Error::InvalidArgument, "%s: dim %lld is out of range for rank %d", op,
             static_cast<long long>(dim), in.dim());
    return false;
  }
  *split = nn::split_at_dim(in, in.dim() == 0 ? -1 : *norm_dim);
  return true;
}

bool check_outputs(KernelContext& ctx, const char* op, const Tensor& self, Tensor& values,
                   Tensor& indices) {
  if (!nn::check_same_dtype(ctx, op, self, "self", values, "values") ||
      !check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, values) ||
      !check_contiguous(ctx, op, indices)) {
    return false;
  }
  if (indices.scalar_type() != ScalarType::Long) {
    ctx.fail(Error::InvalidArgument, "%s: indices must be Long, not %s", op,
             scalar_type_name(indices.scalar_type()));
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// sort

template <typename T>
void sort_impl(const Tensor& self, const nn::DimSplit& sp, bool descending, Tensor& values,
               Tensor& indices) {
  const T* in = self.const_data_ptr<T>();
  T* v = values.mutable_data_ptr<T>();
  int64_t* ix = indices.mutable_data_ptr<int64_t>();
  const Order<T> order{descending};
  for (int64_t o = 0; o < sp.outer; ++o) {
    for (int64_t i = 0; i < sp.inner; ++i) {
      const int64_t base = o * sp.size * sp.inner + i;
      const Slice<T> s{v + base, ix + base, sp.inner, sp.inner};
      for (int64_t j = 0; j < sp.size; ++j) {
        s.val(j) = in[base + j * sp.inner];
        s.ind(j) = j;
      }
      heap_sort(s, order, sp.size);
    }
  }
}

// The unstable sort is torch's: std::sort of the positions with its
// comparator (NaN last ascending, first descending, ties unordered), which
// leaves tied values in the order std::sort does; the same std::sort here
// gives the same order. Scratch: one slice of positions.
template <typename T>
void unstable_sort_impl(const Tensor& self, const nn::DimSplit& sp, bool descending,
                        Tensor& values, Tensor& indices, int64_t* order) {
  using A = opmath_t<T>;
  const T* in = self.const_data_ptr<T>();
  T* v = values.mutable_data_ptr<T>();
  int64_t* ix = indices.mutable_data_ptr<int64_t>();
  for (int64_t o = 0; o < sp.outer; ++o) {
    for (int64_t i = 0; i < sp.inner; ++i) {
      const int64_t base = o * sp.size * sp.inner + i;
      const T* x = in + base;
      const int64_t st = sp.inner;
      for (int64_t j = 0; j < sp.size; ++j) order[j] = j;
      if (descending) {
        std::sort(order, order + sp.size, [&](int64_t a, int64_t b) {
          const T xa = x[a * st], xb = x[b * st];
          return (is_nan(xa) && !is_nan(xb)) || static_cast<A>(xa) > static_cast<A>(xb);
        });
      } else {
        std::sort(order, order + sp.size, [&](int64_t a, int64_t b) {
          const T xa = x[a * st], xb = x[b * st];
          return (!is_nan(xa) && is_nan(xb)) || static_cast<A>(xa) < static_cast<A>(xb);
        });
      }
      for (int64_t j = 0; j < sp.size; ++j) {
        v[base + j * st] = x[order[j] * st];
        ix[base + j * st] = order[j];
      }
    }
  }
}

void sort_common(KernelContext& ctx, const char* op, const Tensor& self, int64_t dim,
                 bool descending, bool stable, Tensor& values, Tensor& indices) {
  nn::DimSplit sp;
  int64_t d = 0;
  if (!split_dim(ctx, op, self, dim, &sp, &d) ||
      !check_outputs(ctx, op, self, values, indices) ||
      !resize_output(ctx, values, self.sizes(), op) ||
      !resize_output(ctx, indices, self.sizes(), op)) {
    return;
  }
  if (!stable) {
    int64_t* order = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(sp.size));
    if (order == nullptr) return;
    EMBER_SWITCH_ALL_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
      unstable_sort_impl<CTYPE>(self, sp, descending, values, indices, order));
    return;
  }
  EMBER_SWITCH_ALL_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    sort_impl<CTYPE>(self, sp, descending, values, indices));
}

void sort_values(KernelContext& ctx, const Tensor& self, int64_t dim, bool descending,
                 Tensor& values, Tensor& indices) {
  sort_common(ctx, "sort.values", self, dim, descending, /*stable=*/false, values, indices);
}

void sort_values_stable(KernelContext& ctx, const Tensor& self, std::optional<bool> stable,
                        int64_t dim, bool descending, Tensor& values, Tensor& indices) {
  sort_common(ctx, "sort.values_stable", self, dim, descending, stable.value_or(false), values,
              indices);
}

// One slice of positions, at the sorted dim's planned size.
size_t sort_temp_bytes(const Tensor& self, int64_t dim) {
  int64_t d = 0;
  if (self.dim() == 0 || !normalize_dim(dim, self.dim(), &d)) return 64;
  return static_cast<size_t>(self.size(d)) * sizeof(int64_t) + 64;
}
size_t sort_values_temp(Span<EValue* const> args) {
  return sort_temp_bytes(args[0]->to_tensor(), args[1]->to_int());
}
size_t sort_stable_temp(Span<EValue* const> args) {
  return sort_temp_bytes(args[0]->to_tensor(), args[2]->to_int());
}

// ---------------------------------------------------------------------------
// topk: a heap of the k best so far lives in the output slice, its root the
// worst of them; a final heap sort leaves them best first. Among equal values
// the lower index wins. `sorted=false` returns them sorted too (PyTorch
// leaves that order unspecified).

template <typename T>
void topk_impl(const Tensor& self, const nn::DimSplit& sp, int64_t k, bool largest,
               Tensor& values, Tensor& indices) {
  const T* in = self.const_data_ptr<T>();
  T* v = values.mutable_data_ptr<T>();
  int64_t* ix = indices.mutable_data_ptr<int64_t>();
  // "before" in this order means "better"; the heap's root is the worst kept.
  const Order<T> order{largest};
  for (int64_t o = 0; o < sp.outer; ++o) {
    for (int64_t i = 0; i < sp.inner; ++i) {
      const int64_t in_base = o * sp.size * sp.inner + i;
      const int64_t out_base = o * k * sp.inner + i;
      const Slice<T> s{v + out_base, ix + out_base, sp.inner, sp.inner};
      for (int64_t j = 0; j < sp.size; ++j) {
        const T x = in[in_base + j * sp.inner];
        if (j < k) {
          // Sift up: the root must be the last in order (the worst).
          s.val(j) = x;
          s.ind(j) = j;
          int64_t c = j;
          while (c > 0) {
            const int64_t p = (c - 1) / 2;
            if (!order.before(s.val(p), s.ind(p), s.val(c), s.ind(c))) break;
            s.swap(p, c);
            c = p;
          }
        } else if (k > 0 && order.before(x, j, s.val(0), s.ind(0))) {
          s.val(0) = x;
          s.ind(0) = j;
          sift_down(s, order, 0, k);
        }
      }
      heap_sort(s, order, k);
    }
  }
}

void topk_values(KernelContext& ctx, const Tensor& self, int64_t k, int64_t dim, bool largest,
                 bool sorted, Tensor& values, Tensor& indices) {
  (void)sorted;
  const char* op = "topk.values";
  nn::DimSplit sp;
  int64_t d = 0;
  if (!split_dim(ctx, op, self, dim, &sp, &d) ||
      !check_outputs(ctx, op, self, values, indices)) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, k >= 0 && k <= sp.size, "%s: k (%lld) is out of range for a dim of %lld",
                     op, static_cast<long long>(k), static_cast<long long>(sp.size));
  int64_t sizes[kTensorDimensionLimit];
  for (int i = 0; i < self.dim(); ++i) sizes[i] = i == d ? k : self.size(i);
  const Span<const int64_t> shape(sizes, static_cast<size_t>(self.dim()));
  if (!resize_output(ctx, values, shape, op) || !resize_output(ctx, indices, shape, op)) return;
  EMBER_SWITCH_REAL_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    topk_impl<CTYPE>(self, sp, k, largest, values, indices));
}

}  // namespace

EMBER_REGISTER_KERNEL_WITH_TEMP("aten::sort.values", sort_values, kAllTypes, kAllTypes,
                                sort_values_temp);
EMBER_REGISTER_KERNEL_WITH_TEMP("aten::sort.values_stable", sort_values_stable, kAllTypes,
                                kAllTypes, sort_stable_temp);
EMBER_REGISTER_KERNEL("aten::topk.values", topk_values, kRealTypes);

}  // namespace ember::kernels
