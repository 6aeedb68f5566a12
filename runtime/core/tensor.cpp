#include "runtime/core/tensor.h"

#include <cstring>

#include "runtime/core/log.h"

namespace ember {

Tensor::Tensor(ScalarType type, int dim, SizesType* sizes, DimOrderType* dim_order,
               StridesType* strides, void* data, size_t capacity_bytes,
               TensorShapeDynamism dynamism)
    : type_(type),
      dim_(dim),
      sizes_(sizes),
      dim_order_(dim_order),
      strides_(strides),
      data_(data),
      capacity_bytes_(capacity_bytes),
      dynamism_(dynamism) {
  recompute_strides_and_numel();
}

bool Tensor::is_contiguous_dim_order() const {
  for (int i = 0; i < dim_; ++i) {
    if (dim_order_[i] != i) {
      return false;
    }
  }
  return true;
}

void Tensor::recompute_strides_and_numel() {
  // Strides follow the dim order: the innermost dim (last in dim_order) is 1.
  // Zero-size dims count as 1, so an empty tensor's other dims can multiply
  // past what a stride holds (numel is 0 and no element is ever read):
  // those strides saturate rather than overflow.
  int64_t stride = 1;
  numel_ = 1;
  for (int i = dim_ - 1; i >= 0; --i) {
    const int d = dim_order_[i];
    strides_[d] = static_cast<StridesType>(stride);
    const int64_t size = sizes_[d] > 0 ? sizes_[d] : 1;
    stride = stride <= INT32_MAX / size ? stride * size : INT32_MAX;
  }
  for (int i = 0; i < dim_; ++i) {
    numel_ *= sizes_[i];
  }
}

template <typename T>
static Error resize_impl(int dim, TensorShapeDynamism dynamism, const SizesType* sizes,
                         size_t capacity, size_t elem, Span<const T> new_sizes) {
  EMBER_CHECK_OR_RETURN(static_cast<int>(new_sizes.size()) == dim, Error::InvalidArgument,
                        "resize: rank %zu does not match tensor rank %d", new_sizes.size(), dim);
  int64_t numel = 1;
  bool same = true;
  for (int i = 0; i < dim; ++i) {
    EMBER_CHECK_OR_RETURN(new_sizes[i] >= 0 && new_sizes[i] <= INT32_MAX, Error::InvalidArgument,
                          "resize: size %lld of dim %d is out of range",
                          static_cast<long long>(new_sizes[i]), i);
    same = same && new_sizes[i] == sizes[i];
    numel *= new_sizes[i];
    EMBER_CHECK_OR_RETURN(numel <= INT32_MAX, Error::InvalidArgument,
                          "resize: element count overflows");
  }
  if (same) {
    return Error::Ok;
  }
  EMBER_CHECK_OR_RETURN(dynamism != TensorShapeDynamism::Static, Error::NotSupported,
                        "resize: tensor has a static shape");
  EMBER_CHECK_OR_RETURN(static_cast<size_t>(numel) * elem <= capacity, Error::InvalidArgument,
                        "resize: %lld elements exceed the planned capacity of %zu bytes",
                        static_cast<long long>(numel), capacity);
  return Error::Ok;
}

Error Tensor::resize(Span<const int64_t> new_sizes) {
  EMBER_TRY(resize_impl(dim_, dynamism_, sizes_, capacity_bytes_, element_size(), new_sizes));
  for (int i = 0; i < dim_; ++i) {
    sizes_[i] = static_cast<SizesType>(new_sizes[i]);
  }
  recompute_strides_and_numel();
  return Error::Ok;
}

Error Tensor::resize(Span<const SizesType> new_sizes) {
  EMBER_TRY(resize_impl(dim_, dynamism_, sizes_, capacity_bytes_, element_size(), new_sizes));
  for (int i = 0; i < dim_; ++i) {
    sizes_[i] = new_sizes[i];
  }
  recompute_strides_and_numel();
  return Error::Ok;
}

void copy_across_dim_orders(const Tensor& src, Tensor& dst) {
  const size_t item = src.element_size();
  const int64_t n = src.numel();
  if (n == 0) return;
  bool same_order = true;
  for (int d = 0; d < src.dim(); ++d) {
    same_order = same_order && src.dim_order()[d] == dst.dim_order()[d];
  }
  if (same_order) {
    std::memcpy(dst.mutable_data_ptr(), src.const_data_ptr(), src.nbytes());
    return;
  }
  // Walk the logical index row-major, carrying both element offsets along.
  const auto* from = static_cast<const uint8_t*>(src.const_data_ptr());
  auto* to = static_cast<uint8_t*>(dst.mutable_data_ptr());
  int64_t index[kTensorDimensionLimit] = {};
  int64_t src_offset = 0;
  int64_t dst_offset = 0;
  const int last = src.dim() - 1;
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(to + dst_offset * item, from + src_offset * item, item);
    for (int d = last; d >= 0; --d) {
      src_offset += src.stride(d);
      dst_offset += dst.stride(d);
      if (++index[d] < src.size(d)) break;
      src_offset -= src.stride(d) * src.size(d);
      dst_offset -= dst.stride(d) * dst.size(d);
      index[d] = 0;
    }
  }
}

}  // namespace ember
