// EValue: one entry of a method's value table — the arguments and results that
// instructions pass to kernels by index.
#pragma once

#include <cstdint>

#include "runtime/core/span.h"
#include "runtime/core/tensor.h"

namespace ember {

class EValue;

// A list of ints whose items are other values (ints that kernels may compute at
// run time, e.g. symbolic sizes). get() reads the items into a scratch array
// that was allocated at init, so reading needs no heap.
class BoxedIntList final {
 public:
  BoxedIntList() = default;
  BoxedIntList(EValue* const* items, int64_t* scratch, size_t size)
      : items_(items), scratch_(scratch), size_(size) {}
  Span<const int64_t> get() const;
  size_t size() const { return size_; }

 private:
  EValue* const* items_ = nullptr;
  int64_t* scratch_ = nullptr;
  size_t size_ = 0;
};

class EValue final {
 public:
  enum class Tag : uint8_t {
    None,
    Int,
    Double,
    Bool,
    String,
    Tensor,
    IntList,
    DoubleList,
    BoolList,
    TensorList,
    OptionalTensorList,
  };

  EValue() = default;
  explicit EValue(int64_t v) : tag_(Tag::Int) { payload_.as_int = v; }
  explicit EValue(double v) : tag_(Tag::Double) { payload_.as_double = v; }
  explicit EValue(bool v) : tag_(Tag::Bool) { payload_.as_bool = v; }
  explicit EValue(Tensor* t) : tag_(Tag::Tensor) { payload_.as_tensor = t; }
  explicit EValue(Span<const char> s) : tag_(Tag::String) { payload_.as_string = s; }
  explicit EValue(BoxedIntList l) : tag_(Tag::IntList) { payload_.as_int_list = l; }
  explicit EValue(Span<const double> l) : tag_(Tag::DoubleList) { payload_.as_double_list = l; }
  explicit EValue(Span<const bool> l) : tag_(Tag::BoolList) { payload_.as_bool_list = l; }
  // A tensor list; with `optional`, items may be null (None).
  EValue(Span<Tensor* const> l, bool optional)
      : tag_(optional ? Tag::OptionalTensorList : Tag::TensorList) {
    payload_.as_tensor_list = l;
  }

  Tag tag() const { return tag_; }
  bool is_none() const { return tag_ == Tag::None; }
  bool is_int() const { return tag_ == Tag::Int; }
  bool is_double() const { return tag_ == Tag::Double; }
  bool is_bool() const { return tag_ == Tag::Bool; }
  bool is_string() const { return tag_ == Tag::String; }
  bool is_tensor() const { return tag_ == Tag::Tensor; }
  bool is_int_list() const { return tag_ == Tag::IntList; }
  bool is_double_list() const { return tag_ == Tag::DoubleList; }
  bool is_bool_list() const { return tag_ == Tag::BoolList; }
  bool is_tensor_list() const { return tag_ == Tag::TensorList; }
  bool is_optional_tensor_list() const { return tag_ == Tag::OptionalTensorList; }
  // A Scalar argument: an int, a double or a bool.
  bool is_scalar() const { return is_int() || is_double() || is_bool(); }

  // Accessors: callers check the tag first (the kernel unboxer does).
  int64_t to_int() const { return payload_.as_int; }
  double to_double() const { return payload_.as_double; }
  bool to_bool() const { return payload_.as_bool; }
  Span<const char> to_string() const { return payload_.as_string; }
  Tensor& to_tensor() const { return *payload_.as_tensor; }
  Span<const int64_t> to_int_list() const { return payload_.as_int_list.get(); }
  Span<const double> to_double_list() const { return payload_.as_double_list; }
  Span<const bool> to_bool_list() const { return payload_.as_bool_list; }
  Span<Tensor* const> to_tensor_list() const { return payload_.as_tensor_list; }
  // A scalar as double, whatever its tag.
  double scalar_to_double() const {
    return is_double() ? payload_.as_double
                       : (is_int() ? static_cast<double>(payload_.as_int) : payload_.as_bool);
  }
  // A scalar as int64 (doubles truncate).
  // A double converts toward zero, saturating at int64's ends (NaN gives 0):
  // converting one outside int64 is undefined behaviour in C++.
  int64_t scalar_to_int() const {
    if (is_int()) return payload_.as_int;
    if (!is_double()) return payload_.as_bool;
    const double v = payload_.as_double;
    if (v != v) return 0;
    if (v >= 0x1p63) return INT64_MAX;
    if (v < -0x1p63) return INT64_MIN;
    return static_cast<int64_t>(v);
  }

  const char* tag_name() const;

 private:
  Tag tag_ = Tag::None;
  union Payload {
    Payload() : as_int(0) {}
    int64_t as_int;
    double as_double;
    bool as_bool;
    Tensor* as_tensor;
    Span<const char> as_string;
    BoxedIntList as_int_list;
    Span<const double> as_double_list;
    Span<const bool> as_bool_list;
    Span<Tensor* const> as_tensor_list;
  } payload_;
};

inline Span<const int64_t> BoxedIntList::get() const {
  for (size_t i = 0; i < size_; ++i) {
    scratch_[i] = items_[i]->to_int();
  }
  return {scratch_, size_};
}

inline const char* EValue::tag_name() const {
  switch (tag_) {
    case Tag::None: return "None";
    case Tag::Int: return "Int";
    case Tag::Double: return "Double";
    case Tag::Bool: return "Bool";
    case Tag::String: return "String";
    case Tag::Tensor: return "Tensor";
    case Tag::IntList: return "IntList";
    case Tag::DoubleList: return "DoubleList";
    case Tag::BoolList: return "BoolList";
    case Tag::TensorList: return "TensorList";
    case Tag::OptionalTensorList: return "OptionalTensorList";
  }
  return "?";
}

}  // namespace ember
