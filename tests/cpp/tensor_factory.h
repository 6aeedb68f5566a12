// Test helper: tensors that own their storage, for calling kernels directly.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "runtime/core/evalue.h"
#include "runtime/core/tensor.h"
#include "runtime/executor/memory_allocator.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::testing {

// A tensor plus the memory behind it. Keep it alive while its tensor is used.
class OwnedTensor {
 public:
  OwnedTensor(ScalarType dtype, std::vector<int32_t> sizes,
              TensorShapeDynamism dynamism = TensorShapeDynamism::Static,
              std::vector<uint8_t> dim_order = {})
      : sizes_(std::move(sizes)), dim_order_(std::move(dim_order)), strides_(sizes_.size()) {
    if (dim_order_.empty()) {
      for (size_t i = 0; i < sizes_.size(); ++i) dim_order_.push_back(static_cast<uint8_t>(i));
    }
    size_t numel = 1;
    for (int32_t s : sizes_) numel *= static_cast<size_t>(s);
    storage_.resize(numel * element_size(dtype) + 64);
    tensor_ = std::make_unique<Tensor>(dtype, static_cast<int>(sizes_.size()), sizes_.data(),
                                       dim_order_.data(), strides_.data(), storage_.data(),
                                       storage_.size(), dynamism);
  }
  Tensor& tensor() { return *tensor_; }
  template <typename T>
  T* data() { return tensor_->mutable_data_ptr<T>(); }
  template <typename T>
  std::vector<T> values() const {
    const T* p = tensor_->const_data_ptr<T>();
    return std::vector<T>(p, p + tensor_->numel());
  }
  template <typename T>
  void fill(std::initializer_list<T> values) {
    size_t i = 0;
    for (T v : values) data<T>()[i++] = v;
  }

 private:
  std::vector<int32_t> sizes_;
  std::vector<uint8_t> dim_order_;
  std::vector<int32_t> strides_;
  std::vector<uint8_t> storage_;
  std::unique_ptr<Tensor> tensor_;
};

// Holds the EValues of one kernel call (and the int lists they point to) and
// calls the registered kernel by name, like the executor does.
class KernelCall {
 public:
  KernelCall& tensor(Tensor& t) { return push(EValue(&t)); }
  KernelCall& integer(int64_t v) { return push(EValue(v)); }
  KernelCall& real(double v) { return push(EValue(v)); }
  KernelCall& boolean(bool v) { return push(EValue(v)); }
  KernelCall& none() { return push(EValue()); }
  KernelCall& string(const char* s);
  KernelCall& ints(std::vector<int64_t> values);
  KernelCall& doubles(std::vector<double> values);
  // The caller keeps `values` alive for the call.
  KernelCall& bools(Span<const bool> values) { return push(EValue(values)); }
  KernelCall& tensors(std::vector<Tensor*> list, bool optional = false);

  // Runs `name` and returns the context (check failed()), with temp memory
  // for kernels that ask for scratch (as a method gives them). Fails the
  // test if the kernel is not registered or rejects the argument kinds.
  KernelContext run(const char* name);
  // The same in a context the caller sets up (thread pool, temp memory).
  void run_in(const char* name, KernelContext& ctx);

 private:
  KernelCall& push(EValue v) {
    values_.push_back(std::make_unique<EValue>(v));
    return *this;
  }
  std::vector<std::unique_ptr<EValue>> values_;
  std::vector<std::unique_ptr<EValue>> list_items_;
  std::vector<std::unique_ptr<std::vector<EValue*>>> boxes_;
  std::vector<std::unique_ptr<std::vector<int64_t>>> scratch_;
  std::vector<std::unique_ptr<std::vector<Tensor*>>> tensor_lists_;
  std::vector<std::unique_ptr<std::vector<double>>> double_lists_;
  std::vector<uint8_t> temp_buffer_;
  std::unique_ptr<MemoryAllocator> temp_;
};

}  // namespace ember::testing

#include <cstring>
#include <type_traits>

#include <gtest/gtest.h>

namespace ember::testing {

using Sizes = std::vector<int32_t>;
using Values = std::vector<double>;

// v as a T, through int64 for integers (so -1.0 gives 255 as a uint8).
template <typename T>
T from_double(double v) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    return static_cast<T>(static_cast<int64_t>(v));
  } else {
    return static_cast<T>(v);
  }
}

// Writes `v` into a row-major `t`, converted by from_double.
inline void set_values(OwnedTensor& t, const Values& v) {
  ASSERT_EQ(static_cast<int64_t>(v.size()), t.tensor().numel());
  EMBER_SWITCH_ALL_TYPES(t.tensor().scalar_type(), FAIL() << "dtype",
    for (size_t i = 0; i < v.size(); ++i) t.data<CTYPE>()[i] = from_double<CTYPE>(v[i]));
}

inline OwnedTensor make(ScalarType dtype, const Sizes& sizes, const Values& v) {
  OwnedTensor t(dtype, sizes);
  set_values(t, v);
  return t;
}

// The elements of a row-major `t`, as doubles.
inline Values values_of(OwnedTensor& t) {
  Values out(static_cast<size_t>(t.tensor().numel()));
  EMBER_SWITCH_ALL_TYPES(t.tensor().scalar_type(), ADD_FAILURE() << "dtype",
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<double>(t.data<CTYPE>()[i]));
  return out;
}

inline KernelCall& KernelCall::string(const char* s) {
  return push(EValue(Span<const char>(s, std::strlen(s))));
}

inline KernelCall& KernelCall::ints(std::vector<int64_t> values) {
  auto box = std::make_unique<std::vector<EValue*>>();
  for (int64_t v : values) {
    list_items_.push_back(std::make_unique<EValue>(v));
    box->push_back(list_items_.back().get());
  }
  scratch_.push_back(std::make_unique<std::vector<int64_t>>(values.size()));
  EValue list(BoxedIntList(box->data(), scratch_.back()->data(), values.size()));
  boxes_.push_back(std::move(box));
  return push(list);
}

inline KernelCall& KernelCall::doubles(std::vector<double> values) {
  double_lists_.push_back(std::make_unique<std::vector<double>>(std::move(values)));
  auto& l = *double_lists_.back();
  return push(EValue(Span<const double>(l.data(), l.size())));
}

inline KernelCall& KernelCall::tensors(std::vector<Tensor*> list, bool optional) {
  tensor_lists_.push_back(std::make_unique<std::vector<Tensor*>>(std::move(list)));
  auto& l = *tensor_lists_.back();
  return push(EValue(Span<Tensor* const>(l.data(), l.size()), optional));
}

inline KernelContext KernelCall::run(const char* name) {
  // One buffer per call object; a fresh allocator over it empties it.
  if (temp_buffer_.empty()) temp_buffer_.resize(size_t{4} << 20);
  temp_ = std::make_unique<MemoryAllocator>(temp_buffer_.data(), temp_buffer_.size());
  KernelContext ctx(temp_.get());
  run_in(name, ctx);
  return ctx;
}

inline void KernelCall::run_in(const char* name, KernelContext& ctx) {
  const KernelEntry* entry = find_kernel(name);
  if (entry == nullptr) {
    ADD_FAILURE() << "kernel " << name << " is not registered";
    ctx.fail(Error::OperatorMissing, "missing");
    return;
  }
  std::vector<EValue*> args;
  for (auto& v : values_) args.push_back(v.get());
  char why[160];
  if (!entry->check_args(Span<EValue* const>(args.data(), args.size()), why, sizeof(why))) {
    ADD_FAILURE() << name << ": " << why;
    ctx.fail(Error::InvalidProgram, "bad args");
    return;
  }
  entry->fn(ctx, Span<EValue*>(args.data(), args.size()));
}

}  // namespace ember::testing
