// The tensor entry points of the C ABI (ember.h, "tensors").
#include "extension/c_api/tensor.h"

#include <cstring>
#include <limits>
#include <new>

#include "extension/c_api/status.h"

void ember_tensor::set(ember::ScalarType dtype, const int32_t* dims, int rank, void* data,
                       size_t bytes) {
  for (int d = 0; d < rank; ++d) {
    sizes[d] = dims[d];
    dim_order[d] = static_cast<uint8_t>(d);
  }
  own = ember::Tensor(dtype, rank, sizes, dim_order, strides, data, bytes);
}

extern "C" {

ember_status ember_tensor_create(ember_dtype dtype, const int64_t* dims, size_t rank, void* data,
                                 size_t data_size, ember_tensor** out) {
  using ember::c_api::fail;
  constexpr const char* kFn = "ember_tensor_create";
  EMBER_C_REQUIRE(out, kFn);
  const size_t element = ember_dtype_size(dtype);
  if (element == 0) return fail(EMBER_ERROR_INVALID_TYPE, "%s: %d is not a dtype", kFn, dtype);
  if (rank > EMBER_MAX_RANK) {
    return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: rank %zu is over the limit of %d", kFn, rank,
                EMBER_MAX_RANK);
  }
  if (rank > 0 && dims == nullptr) {
    return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: dims is NULL for rank %zu", kFn, rank);
  }
  int32_t sizes[EMBER_MAX_RANK];
  size_t bytes = element;
  for (size_t d = 0; d < rank; ++d) {
    if (dims[d] < 0 || dims[d] > std::numeric_limits<int32_t>::max()) {
      return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: dim %zu is %lld", kFn, d,
                  static_cast<long long>(dims[d]));
    }
    sizes[d] = static_cast<int32_t>(dims[d]);
    const size_t n = static_cast<size_t>(dims[d]);
    if (n != 0 && bytes > std::numeric_limits<size_t>::max() / n) {
      return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: the shape's size overflows", kFn);
    }
    bytes *= n;
  }
  if (data_size != bytes) {
    return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: data_size is %zu bytes, the shape needs %zu",
                kFn, data_size, bytes);
  }
  if (data == nullptr && bytes != 0) {
    return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: data is NULL", kFn);
  }
  auto* tensor = new (std::nothrow) ember_tensor();
  if (tensor == nullptr) return fail(EMBER_ERROR_MEMORY_ALLOCATION_FAILED, "%s: out of memory", kFn);
  tensor->set(static_cast<ember::ScalarType>(dtype), sizes, static_cast<int>(rank), data, bytes);
  *out = tensor;
  return EMBER_OK;
}

void ember_tensor_destroy(ember_tensor* tensor) {
  // Outputs and metadata belong to their method (ember.h).
  if (tensor != nullptr && tensor->kind == ember_tensor::Kind::Caller) delete tensor;
}

ember_status ember_tensor_dtype(const ember_tensor* tensor, ember_dtype* out) {
  EMBER_C_REQUIRE(tensor, "ember_tensor_dtype");
  EMBER_C_REQUIRE(out, "ember_tensor_dtype");
  *out = static_cast<ember_dtype>(tensor->get().dtype());
  return EMBER_OK;
}

ember_status ember_tensor_rank(const ember_tensor* tensor, size_t* out) {
  EMBER_C_REQUIRE(tensor, "ember_tensor_rank");
  EMBER_C_REQUIRE(out, "ember_tensor_rank");
  *out = static_cast<size_t>(tensor->get().dim());
  return EMBER_OK;
}

ember_status ember_tensor_dims(const ember_tensor* tensor, int64_t* dims, size_t capacity) {
  EMBER_C_REQUIRE(tensor, "ember_tensor_dims");
  const ember::Tensor& t = tensor->get();
  const size_t rank = static_cast<size_t>(t.dim());
  if (capacity < rank) {
    return ember::c_api::fail(EMBER_ERROR_BUFFER_TOO_SMALL,
                              "ember_tensor_dims: the tensor has %zu dims, dims holds %zu", rank,
                              capacity);
  }
  if (rank > 0) EMBER_C_REQUIRE(dims, "ember_tensor_dims");
  for (size_t d = 0; d < rank; ++d) dims[d] = t.size(static_cast<int64_t>(d));
  return EMBER_OK;
}

ember_status ember_tensor_size(const ember_tensor* tensor, size_t* out) {
  EMBER_C_REQUIRE(tensor, "ember_tensor_size");
  EMBER_C_REQUIRE(out, "ember_tensor_size");
  *out = tensor->get().nbytes();
  return EMBER_OK;
}

ember_status ember_tensor_data(const ember_tensor* tensor, const void** out) {
  EMBER_C_REQUIRE(tensor, "ember_tensor_data");
  EMBER_C_REQUIRE(out, "ember_tensor_data");
  *out = tensor->get().const_data_ptr();
  return EMBER_OK;
}

ember_status ember_tensor_copy_to(const ember_tensor* tensor, void* dst, size_t dst_size) {
  using ember::c_api::fail;
  EMBER_C_REQUIRE(tensor, "ember_tensor_copy_to");
  const ember::Tensor& t = tensor->get();
  const size_t bytes = t.nbytes();
  if (tensor->kind == ember_tensor::Kind::Meta) {
    return fail(EMBER_ERROR_INVALID_STATE,
                "ember_tensor_copy_to: a method's metadata tensor has no data");
  }
  if (dst_size < bytes) {
    return fail(EMBER_ERROR_BUFFER_TOO_SMALL,
                "ember_tensor_copy_to: the tensor has %zu bytes, dst holds %zu", bytes, dst_size);
  }
  if (bytes == 0) return EMBER_OK;
  EMBER_C_REQUIRE(dst, "ember_tensor_copy_to");
  if (t.is_contiguous_dim_order()) {
    std::memcpy(dst, t.const_data_ptr(), bytes);
    return EMBER_OK;
  }
  // An output in another dim order (channels-last): row-major for the caller.
  int32_t sizes[EMBER_MAX_RANK];
  uint8_t order[EMBER_MAX_RANK];
  int32_t strides[EMBER_MAX_RANK];
  for (int d = 0; d < t.dim(); ++d) {
    sizes[d] = static_cast<int32_t>(t.size(d));
    order[d] = static_cast<uint8_t>(d);
  }
  ember::Tensor row_major(t.dtype(), t.dim(), sizes, order, strides, dst, dst_size);
  ember::copy_across_dim_orders(t, row_major);
  return EMBER_OK;
}

}  // extern "C"
