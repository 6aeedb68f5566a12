// Tensor: a non-owning view of typed, shaped memory. The runtime creates one per
// tensor value at method init; its sizes may shrink or grow at run time only
// within the bytes planned for it (dynamic shapes with upper bounds).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"

namespace ember {

using SizesType = int32_t;
using StridesType = int32_t;
using DimOrderType = uint8_t;

constexpr int kTensorDimensionLimit = 16;

enum class TensorShapeDynamism : uint8_t { Static = 0, DynamicBound = 1, DynamicUnbound = 2 };

class Tensor final {
 public:
  Tensor() = default;
  // `sizes`, `dim_order` and `strides` each point to `dim` elements that
  // outlive the tensor; `strides` is filled here from sizes and dim order.
  Tensor(ScalarType type, int dim, SizesType* sizes, DimOrderType* dim_order,
         StridesType* strides, void* data, size_t capacity_bytes,
         TensorShapeDynamism dynamism = TensorShapeDynamism::Static);

  ScalarType scalar_type() const { return type_; }
  ScalarType dtype() const { return type_; }
  size_t element_size() const { return ::ember::element_size(type_); }
  int dim() const { return dim_; }
  int64_t numel() const { return numel_; }
  size_t nbytes() const { return static_cast<size_t>(numel_) * element_size(); }
  // Bytes available for data: the planned size, which bounds any resize.
  size_t capacity_bytes() const { return capacity_bytes_; }
  TensorShapeDynamism shape_dynamism() const { return dynamism_; }

  Span<const SizesType> sizes() const { return {sizes_, static_cast<size_t>(dim_)}; }
  Span<const DimOrderType> dim_order() const { return {dim_order_, static_cast<size_t>(dim_)}; }
  Span<const StridesType> strides() const { return {strides_, static_cast<size_t>(dim_)}; }
  // Size and stride of dim `d`; negative d counts from the end.
  int64_t size(int64_t d) const { return sizes_[d < 0 ? d + dim_ : d]; }
  int64_t stride(int64_t d) const { return strides_[d < 0 ? d + dim_ : d]; }
  // True when the dim order is 0..n-1 (row-major, PyTorch's default).
  bool is_contiguous_dim_order() const;

  void* mutable_data_ptr() const { return data_; }
  const void* const_data_ptr() const { return data_; }
  template <typename T>
  T* mutable_data_ptr() const { return static_cast<T*>(data_); }
  template <typename T>
  const T* const_data_ptr() const { return static_cast<const T*>(data_); }

  // Points the tensor at new memory (inputs bound by the caller, planned arenas).
  void set_data(void* data, size_t capacity_bytes) {
    data_ = data;
    capacity_bytes_ = capacity_bytes;
  }

  // Changes the sizes, keeping dim and dim order. Fails without changing
  // anything when the rank differs, a static tensor would change shape, or the
  // new shape would not fit in the planned capacity.
  Error resize(Span<const int64_t> new_sizes);
  Error resize(Span<const SizesType> new_sizes);

 private:
  void recompute_strides_and_numel();

  ScalarType type_ = ScalarType::Float;
  int dim_ = 0;
  SizesType* sizes_ = nullptr;
  DimOrderType* dim_order_ = nullptr;
  StridesType* strides_ = nullptr;
  void* data_ = nullptr;
  size_t capacity_bytes_ = 0;
  int64_t numel_ = 1;
  TensorShapeDynamism dynamism_ = TensorShapeDynamism::Static;
};

// Copies the elements of `src` into `dst`, which has the same dtype and sizes
// but may lay them out in another dim order (a channels-last input given
// row-major, or the reverse). No allocation; memcpy when the orders agree.
void copy_across_dim_orders(const Tensor& src, Tensor& dst);

}  // namespace ember
