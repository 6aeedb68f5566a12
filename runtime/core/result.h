// Result<T>: a value or an Error, for fallible calls that produce something.
#pragma once

#include <new>
#include <type_traits>
#include <utility>

#include "runtime/core/error.h"
#include "runtime/core/platform.h"

namespace ember {

template <typename T>
class Result final {
 public:
  Result(Error error) : error_(error == Error::Ok ? Error::Internal : error) {}  // NOLINT
  Result(T&& value) : has_value_(true) { new (&storage_) T(std::move(value)); }  // NOLINT
  Result(const T& value) : has_value_(true) { new (&storage_) T(value); }  // NOLINT

  Result(Result&& other) : error_(other.error_), has_value_(other.has_value_) {
    if (has_value_) {
      new (&storage_) T(std::move(other.get_ref()));
    }
  }
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  Result& operator=(Result&&) = delete;
  ~Result() {
    if (has_value_) {
      get_ref().~T();
    }
  }

  bool ok() const { return has_value_; }
  Error error() const { return has_value_ ? Error::Ok : error_; }

  T& get() {
    check_value();
    return get_ref();
  }
  const T& get() const {
    check_value();
    return const_cast<Result*>(this)->get_ref();
  }
  T& operator*() { return get(); }
  T* operator->() { return &get(); }
  const T* operator->() const { return &get(); }

 private:
  void check_value() const {
    if (!has_value_) {
      pal_abort("Result::get() called on an error");
    }
  }
  T& get_ref() { return *std::launder(reinterpret_cast<T*>(&storage_)); }

  Error error_ = Error::Ok;
  bool has_value_ = false;
  typename std::aligned_storage<sizeof(T), alignof(T)>::type storage_;
};

}  // namespace ember

// Assigns the value of a Result expression to `lhs`, or returns its error.
#define EMBER_ASSIGN_OR_RETURN(lhs, expr) \
  EMBER_ASSIGN_OR_RETURN_IMPL_(EMBER_CONCAT_(ember_result_, __LINE__), lhs, expr)
#define EMBER_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) {                                   \
    return tmp.error();                              \
  }                                                  \
  lhs = std::move(tmp.get())
