// index_reduce (prod, mean, amax, amin of source slices into self's slices
// at index), put and take (into and from self's flattened elements at index),
// and segment_reduce. Every index is checked against the size it indexes first.
#include <cstring>
#include <limits>
#include <optional>

#include "kernels/portable/util/elementwise_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

enum class Reduce { kProd, kMean, kAmax, kAmin };

bool parse_reduce(KernelContext& ctx, const char* op, StringView s, Reduce* r) {
  auto is = [&](const char* name) {
    return s.size() == std::strlen(name) && std::memcmp(s.data(), name, s.size()) == 0;
  };
  if (is("prod")) *r = Reduce::kProd;
  else if (is("mean")) *r = Reduce::kMean;
  else if (is("amax")) *r = Reduce::kAmax;
  else if (is("amin")) *r = Reduce::kAmin;
  else {
    ctx.fail(Error::InvalidArgument, "%s: reduce must be prod, mean, amax or amin", op);
    return false;
  }
  return true;
}

// Reads index element i (Long or Int), wrapped and checked against `size`.
bool read_index(KernelContext& ctx, const char* op, const Tensor& index, int64_t i, int64_t size,
                int64_t* out) {
  int64_t v = index.scalar_type() == ScalarType::Long ? index.const_data_ptr<int64_t>()[i]
                                                       : index.const_data_ptr<int32_t>()[i];
  if (v < 0) v += size;
  if (v < 0 || v >= size) {
    ctx.fail(Error::InvalidArgument, "%s: index %lld is out of range for size %lld", op,
             static_cast<long long>(v), static_cast<long long>(size));
    return false;
  }
  *out = v;
  return true;
}

bool check_index(KernelContext& ctx, const char* op, const Tensor& index) {
  if (index.scalar_type() != ScalarType::Long && index.scalar_type() != ScalarType::Int) {
    ctx.fail(Error::InvalidArgument, "%s: the index must be Long or Int", op);
    return false;
  }
  return check_contiguous(ctx, op, index);
}

template <typename T>
T reduce_identity(Reduce r) {
  if (r == Reduce::kProd) return T(1);
  if (r == Reduce::kMean) return T(0);
  if constexpr (is_float_v<T>) {
    const float inf = std::numeric_limits<float>::infinity();
    return convert<T>(r == Reduce::kAmax ? -inf : inf);
  } else {
    return r == Reduce::kAmax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  }
}

template <typename T>
T combine(Reduce r, T a, T b) {
  using M = opmath_t<T>;
  const M x = static_cast<M>(a), y = static_cast<M>(b);
  switch (r) {
    case Reduce::kProd: return convert<T>(wrapping_mul(x, y));
    case Reduce::kMean: return convert<T>(wrapping_add(x, y));
    case Reduce::kAmax:
      if (is_nan(x) || is_nan(y)) return is_nan(x) ? a : b;
      return x > y ? a : b;
    case Reduce::kAmin:
      if (is_nan(x) || is_nan(y)) return is_nan(x) ? a : b;
      return x < y ? a : b;
  }
  return a;
}

void index_reduce_out(KernelContext& ctx, const Tensor& self, int64_t dim, const Tensor& index,
                      const Tensor& source, StringView reduce, bool include_self, Tensor& out) {
  const char* op = "index_reduce.out";
  Reduce r;
  int64_t d = 0;
  if (!parse_reduce(ctx, op, reduce, &r) || !check_index(ctx, op, index)) return;
  EMBER_KERNEL_CHECK(ctx, normalize_dim(dim, self.dim(), &d), "%s: dim out of range", op);
  EMBER_KERNEL_CHECK(ctx, index.dim() <= 1, "%s: the index must be 1-D", op);
  EMBER_KERNEL_CHECK(ctx, source.scalar_type() == self.scalar_type() &&
                              out.scalar_type() == self.scalar_type(),
                     "%s: self, source and out must share a dtype", op);
  EMBER_KERNEL_CHECK(ctx, source.dim() == self.dim() || (self.dim() == 0 && source.dim() <= 1),
                     "%s: source must have self's rank", op);
  const nn::DimSplit s = nn::split_at_dim(self, d);
  const nn::DimSplit src = nn::split_at_dim(source, d);
  EMBER_KERNEL_CHECK(ctx, src.outer == s.outer && src.inner == s.inner && src.size == index.numel(),
                     "%s: source must match self outside dim and have one slice per index", op);
  if (!check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, source) ||
      !check_contiguous(ctx, op, out) || !resize_output(ctx, out, self.sizes(), op)) {
    return;
  }
  int64_t* counts = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(s.size));
  if (counts == nullptr) return;
  for (int64_t j = 0; j < s.size; ++j) counts[j] = include_self ? 1 : 0;
  for (int64_t i = 0; i < index.numel(); ++i) {
    int64_t j = 0;
    if (!read_index(ctx, op, index, i, s.size, &j)) return;
    ++counts[j];
  }
  switch_dtype<kRealTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* a = self.const_data_ptr<T>();
    const T* b = source.const_data_ptr<T>();
    T* y = out.mutable_data_ptr<T>();
    std::memcpy(y, a, self.nbytes());
    auto at = [&](int64_t o, int64_t j, int64_t in) { return (o * s.size + j) * s.inner + in; };
    // Slices reached without include_self start from the identity.
    if (!include_self) {
      for (int64_t j = 0; j < s.size; ++j) {
        if (counts[j] == 0) continue;
        for (int64_t o = 0; o < s.outer; ++o) {
          for (int64_t in = 0; in < s.inner; ++in) y[at(o, j, in)] = reduce_identity<T>(r);
        }
      }
    }
    for (int64_t i = 0; i < index.numel(); ++i) {
      int64_t j = 0;
      read_index(ctx, op, index, i, s.size, &j);
      for (int64_t o = 0; o < s.outer; ++o) {
        for (int64_t in = 0; in < s.inner; ++in) {
          T& dst = y[at(o, j, in)];
          dst = combine(r, dst, b[(o * src.size + i) * s.inner + in]);
        }
      }
    }
    if (r == Reduce::kMean) {
      for (int64_t j = 0; j < s.size; ++j) {
        const int64_t c = counts[j] == 0 ? 1 : counts[j];
        for (int64_t o = 0; o < s.outer; ++o) {
          for (int64_t in = 0; in < s.inner; ++in) {
            T& v = y[at(o, j, in)];
            if constexpr (is_float_v<T>) {
              v = convert<T>(static_cast<opmath_t<T>>(v) / static_cast<opmath_t<T>>(c));
            } else {
              // torch divides integers with rounding_mode="floor".
              const int64_t num = static_cast<int64_t>(v);
              int64_t q = num / c;
              if ((num % c != 0) && ((num < 0) != (c < 0))) --q;
              v = static_cast<T>(q);
            }
          }
        }
      }
    }
  });
}

size_t index_reduce_temp(Span<EValue* const> args) {
  const Tensor& self = args[0]->to_tensor();
  int64_t d = 0;
  if (!normalize_dim(args[1]->to_int(), self.dim(), &d) || self.dim() == 0) return 64;
  return static_cast<size_t>(self.size(d)) * 8 + 64;
}

void put_out(KernelContext& ctx, const Tensor& self, const Tensor& index, const Tensor& source,
             bool accumulate, Tensor& out) {
  const char* op = "put.out";
  if (!check_index(ctx, op, index)) return;
  EMBER_KERNEL_CHECK(ctx, source.numel() == index.numel(),
                     "%s: source has %lld elements, index %lld", op,
                     static_cast<long long>(source.numel()), static_cast<long long>(index.numel()));
  EMBER_KERNEL_CHECK(ctx, source.scalar_type() == self.scalar_type() &&
                              out.scalar_type() == self.scalar_type(),
                     "%s: self, source and out must share a dtype", op);
  if (!check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, source) ||
      !check_contiguous(ctx, op, out) || !resize_output(ctx, out, self.sizes(), op)) {
    return;
  }
  for (int64_t i = 0; i < index.numel(); ++i) {
    int64_t k;
    if (!read_index(ctx, op, index, i, self.numel(), &k)) return;
  }
  switch_dtype<kAllAndComplexTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* y = out.mutable_data_ptr<T>();
    const T* v = source.const_data_ptr<T>();
    std::memcpy(y, self.const_data_ptr(), self.nbytes());
    for (int64_t i = 0; i < index.numel(); ++i) {
      int64_t k = 0;  // the indices were checked above
      read_index(ctx, op, index, i, self.numel(), &k);
      if (accumulate) {
        y[k] = convert<T>(wrapping_add(static_cast<opmath_t<T>>(y[k]), static_cast<opmath_t<T>>(v[i])));
      } else {
        y[k] = v[i];
      }
    }
  });
}

// take: self's flattened elements at index (negative counts from the end),
// shaped like index.
void take_out(KernelContext& ctx, const Tensor& self, const Tensor& index, Tensor& out) {
  const char* op = "take.out";
  if (!check_index(ctx, op, index) || !check_out_dtype(ctx, op, self.scalar_type(), out) ||
      !check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, out) ||
      !resize_output(ctx, out, index.sizes(), op)) {
    return;
  }
  const size_t elem = self.element_size();
  const uint8_t* src = self.const_data_ptr<uint8_t>();
  uint8_t* dst = out.mutable_data_ptr<uint8_t>();
  for (int64_t i = 0; i < index.numel(); ++i) {
    int64_t k;
    if (!read_index(ctx, op, index, i, self.numel(), &k)) return;
    std::memcpy(dst + i * elem, src + k * elem, elem);
  }
}

// --- segment_reduce --------------------------------------------------------------

enum class Segment { kMax, kMin, kSum, kMean, kProd };

bool parse_segment(KernelContext& ctx, const char* op, StringView s, Segment* r) {
  auto is = [&](const char* name) {
    return s.size() == std::strlen(name) && std::memcmp(s.data(), name, s.size()) == 0;
  };
  if (is("max")) *r = Segment::kMax;
  else if (is("min")) *r = Segment::kMin;
  else if (is("sum")) *r = Segment::kSum;
  else if (is("mean")) *r = Segment::kMean;
  else if (is("prod")) *r = Segment::kProd;
  else {
    ctx.fail(Error::InvalidArgument, "%s: reduce must be max, min, sum, mean or prod", op);
    return false;
  }
  return true;
}

// Segments of data along `axis`, given by lengths [..., S] or offsets
// [..., S + 1] (the dims before axis lead both); out has S in axis' place. An
// empty segment gives `initial`, or the reduction's identity (NaN for mean).
void segment_reduce_out(KernelContext& ctx, const Tensor& data, StringView reduce,
                        const Tensor* lengths, const Tensor* indices, const Tensor* offsets,
                        int64_t axis, bool unsafe, std::optional<Scalar> initial, Tensor& out) {
  const char* op = "segment_reduce.out";
  (void)unsafe;
  Segment r;
  int64_t a = 0;
  if (!parse_segment(ctx, op, reduce, &r)) return;
  EMBER_KERNEL_CHECK(ctx, indices == nullptr, "%s: indices are not supported (as in torch)", op);
  EMBER_KERNEL_CHECK(ctx, (lengths != nullptr) != (offsets != nullptr),
                     "%s: give exactly one of lengths and offsets", op);
  EMBER_KERNEL_CHECK(ctx, data.dim() > 0 && normalize_dim(axis, data.dim(), &a),
                     "%s: axis out of range", op);
  const Tensor& seg = lengths != nullptr ? *lengths : *offsets;
  EMBER_KERNEL_CHECK(ctx, (seg.scalar_type() == ScalarType::Long ||
                           seg.scalar_type() == ScalarType::Int) && seg.dim() == a + 1,
                     "%s: lengths/offsets must be Long or Int with the dims before axis + 1", op);
  const nn::DimSplit s = nn::split_at_dim(data, a);
  int64_t lead = 1;
  for (int d = 0; d < a; ++d) {
    EMBER_KERNEL_CHECK(ctx, seg.size(d) == data.size(d), "%s: lengths/offsets do not match the "
                       "data's leading dims", op);
    lead *= data.size(d);
  }
  const int64_t segments = lengths != nullptr ? seg.size(-1) : seg.size(-1) - 1;
  EMBER_KERNEL_CHECK(ctx, segments >= 0, "%s: offsets need at least one value", op);
  if (!check_out_dtype(ctx, op, data.scalar_type(), out) || !check_contiguous(ctx, op, data) ||
      !check_contiguous(ctx, op, seg) || !check_contiguous(ctx, op, out)) {
    return;
  }
  int64_t sizes[kTensorDimensionLimit];
  for (int d = 0; d < data.dim(); ++d) sizes[d] = d == a ? segments : data.size(d);
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, data.dim()), op)) return;
  auto read = [&](int64_t i) {
    return seg.scalar_type() == ScalarType::Long ? seg.const_data_ptr<int64_t>()[i]
                                                 : static_cast<int64_t>(seg.const_data_ptr<int32_t>()[i]);
  };
  // Segment k of row o spans [start, start + length) along axis.
  const int64_t stride = lengths != nullptr ? segments : segments + 1;
  for (int64_t o = 0; o < lead; ++o) {
    int64_t start = lengths != nullptr ? 0 : read(o * stride);
    for (int64_t k = 0; k < segments; ++k) {
      const int64_t length = lengths != nullptr ? read(o * stride + k)
                                                : read(o * stride + k + 1) - read(o * stride + k);
      if (lengths == nullptr) start = read(o * stride + k);
      EMBER_KERNEL_CHECK(ctx, length >= 0 && start >= 0 && start + length <= s.size,
                         "%s: segment %lld runs outside the data", op, static_cast<long long>(k));
      if (lengths != nullptr) start += length;
    }
  }
  switch_dtype<kRealTypes>(ctx, op, data.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const T* src = data.const_data_ptr<T>();
    T* dst = out.mutable_data_ptr<T>();
    M identity;
    if (initial.has_value()) identity = static_cast<M>(scalar_to<T>(*initial));
    else if (r == Segment::kMax) identity = static_cast<M>(nn::lowest_value<T>());
    else if (r == Segment::kMin) identity = static_cast<M>(nn::highest_value<T>());
    else if (r == Segment::kProd) identity = M(1);
    else identity = M(0);
    for (int64_t o = 0; o < s.outer; ++o) {
      int64_t start = lengths != nullptr ? 0 : read(o * stride);
      for (int64_t k = 0; k < segments; ++k) {
        const int64_t length = lengths != nullptr ? read(o * stride + k)
                                                  : read(o * stride + k + 1) - read(o * stride + k);
        if (lengths == nullptr) start = read(o * stride + k);
        for (int64_t i = 0; i < s.inner; ++i) {
          M acc = identity;
          for (int64_t j = start; j < start + length; ++j) {
            const M x = static_cast<M>(src[(o * s.size + j) * s.inner + i]);
            if (r == Segment::kMax) acc = is_nan(x) ? x : (acc > x || is_nan(acc) ? acc : x);
            else if (r == Segment::kMin) acc = is_nan(x) ? x : (acc < x || is_nan(acc) ? acc : x);
            else if (r == Segment::kProd) acc = wrapping_mul(acc, x);
            else acc = wrapping_add(acc, x);
          }
          if (r == Segment::kMean) {
            if (length == 0 && !initial.has_value()) {
              acc = static_cast<M>(std::numeric_limits<double>::quiet_NaN());
            } else if (length > 0 && !is_nan(acc)) {
              acc = static_cast<M>(acc / static_cast<M>(length));
            }
          }
          dst[(o * segments + k) * s.inner + i] = convert<T>(acc);
        }
        if (lengths != nullptr) start += length;
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::segment_reduce.out", segment_reduce_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::take.out", take_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL_WITH_TEMP("aten::index_reduce.out", index_reduce_out, kRealTypes, kAllTypes,
                                index_reduce_temp);
EMBER_REGISTER_KERNEL("aten::put.out", put_out, kAllAndComplexTypes);

}  // namespace ember::kernels
