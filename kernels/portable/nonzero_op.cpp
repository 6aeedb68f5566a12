// nonzero: the coordinates of the non-zero elements, as a Long [n, ndim]
// tensor in row-major order of the elements. n is only known at run time, so
// `out` is resized within its planned capacity (a dynamic-bound output).
#include <cstdint>

#include "kernels/portable/util/elementwise_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// Calls fn(offset, coords) for every element of `t` in row-major (logical)
// order, where offset follows t's strides, so any dim order is read correctly.
template <typename Fn>
void for_each_coordinate(const Tensor& t, Fn&& fn) {
  const int rank = t.dim();
  int64_t coords[kTensorDimensionLimit] = {};
  const int64_t numel = t.numel();
  int64_t offset = 0;
  for (int64_t done = 0; done < numel; ++done) {
    fn(offset, static_cast<const int64_t*>(coords));
    for (int d = rank - 1; d >= 0; --d) {
      if (++coords[d] < t.size(d)) {
        offset += t.stride(d);
        break;
      }
      coords[d] = 0;
      offset -= (t.size(d) - 1) * t.stride(d);
    }
  }
}

template <typename T>
void nonzero_impl(const Tensor& in, int64_t* dst) {
  const T* src = in.const_data_ptr<T>();
  const int rank = in.dim();
  int64_t row = 0;
  for_each_coordinate(in, [&](int64_t offset, const int64_t* coords) {
    // NaN is non-zero (convert<bool>), as in torch.
    if (!convert<bool>(src[offset])) return;
    for (int d = 0; d < rank; ++d) dst[row * rank + d] = coords[d];
    ++row;
  });
}

template <typename T>
int64_t count_nonzero(const Tensor& in) {
  const T* src = in.const_data_ptr<T>();
  int64_t n = 0;
  for_each_coordinate(in, [&](int64_t offset, const int64_t*) {
    n += convert<bool>(src[offset]) ? 1 : 0;
  });
  return n;
}

void nonzero_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  const char* op = "nonzero.out";
  if (!check_out_dtype(ctx, op, ScalarType::Long, out) || !check_contiguous(ctx, op, out)) return;
  switch_dtype<kAllAndComplexTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int64_t sizes[2] = {count_nonzero<T>(self), self.dim()};
    if (!resize_output(ctx, out, Span<const int64_t>(sizes, 2), op)) return;
    nonzero_impl<T>(self, out.mutable_data_ptr<int64_t>());
  });
}

// nonzero_static: the first `size` coordinates, padded with fill_value rows
// when there are fewer (a static shape: no bound needed).
void nonzero_static_out(KernelContext& ctx, const Tensor& self, int64_t size, int64_t fill_value,
                        Tensor& out) {
  const char* op = "nonzero_static.out";
  EMBER_KERNEL_CHECK(ctx, size >= 0, "%s: size must be non-negative", op);
  if (!check_out_dtype(ctx, op, ScalarType::Long, out) || !check_contiguous(ctx, op, out)) return;
  const int64_t sizes[2] = {size, self.dim()};
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, 2), op)) return;
  switch_dtype<kAllAndComplexTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = self.const_data_ptr<T>();
    int64_t* dst = out.mutable_data_ptr<int64_t>();
    const int rank = self.dim();
    int64_t row = 0;
    for_each_coordinate(self, [&](int64_t offset, const int64_t* coords) {
      if (row >= size || !convert<bool>(src[offset])) return;
      for (int d = 0; d < rank; ++d) dst[row * rank + d] = coords[d];
      ++row;
    });
    for (int64_t i = row * rank; i < size * rank; ++i) dst[i] = fill_value;
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::nonzero.out", nonzero_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::nonzero_static.out", nonzero_static_out, kAllAndComplexTypes);

}  // namespace ember::kernels
