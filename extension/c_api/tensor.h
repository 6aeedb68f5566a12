// ember_tensor: what a tensor handle of the C ABI holds. Three kinds: the
// caller's (ember_tensor_create: the caller's memory), a method's output (a
// view of the method's live tensor) and a method's input or output metadata
// (dtype and upper-bound shape, no data).
#pragma once

#include <cstdint>

#include "ember/ember.h"
#include "runtime/core/tensor.h"

struct ember_tensor {
  enum class Kind : uint8_t { Caller, Output, Meta };

  Kind kind = Kind::Caller;
  ember::Tensor own;                     // Caller and Meta
  const ember::Tensor* view = nullptr;   // Output
  int32_t sizes[ember::kTensorDimensionLimit] = {};
  uint8_t dim_order[ember::kTensorDimensionLimit] = {};
  int32_t strides[ember::kTensorDimensionLimit] = {};

  ember_tensor() = default;
  ember_tensor(const ember_tensor&) = delete;  // `own` points into this object
  ember_tensor& operator=(const ember_tensor&) = delete;

  const ember::Tensor& get() const { return kind == Kind::Output ? *view : own; }
  // Makes `own` a row-major tensor of `dims` (already checked) over `data`.
  void set(ember::ScalarType dtype, const int32_t* dims, int rank, void* data, size_t bytes);
};
