// What the linalg kernel files share: reading a batch of (..., m, n)
// matrices, checking outs, the Float/Double dispatch and the registration,
// whose scratch estimate covers every linalg kernel's double-precision copies.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "kernels/portable/util/elementwise_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {

// torch's linalg runs on Float, Double, ComplexFloat and ComplexDouble; the
// kernels compute in double or std::complex<double> (linalg_scalar_t).
constexpr DtypeMask kLinalgTypes = dtype_bit(ScalarType::Float) | dtype_bit(ScalarType::Double) |
                                   kComplexTypes;

template <typename T>
using linalg_scalar_t = std::conditional_t<is_complex_v<T>, std::complex<double>, double>;
// The real type of T's values (Float for ComplexFloat): eigenvalues, singular values.
template <typename T>
struct LinalgReal {
  using type = T;
};
template <typename V>
struct LinalgReal<std::complex<V>> {
  using type = V;
};
template <typename T>
using linalg_real_t = typename LinalgReal<T>::type;

struct Matrices {
  int64_t count = 1;  // matrices in the batch
  int64_t rows = 0, cols = 0;
};

inline bool read_matrices(KernelContext& ctx, const char* op, const Tensor& t, Matrices* m) {
  if (t.dim() < 2) {
    ctx.fail(Error::InvalidArgument, "%s: expected a matrix or a batch of them, got %d-D", op,
             t.dim());
    return false;
  }
  if (!mask_contains(kLinalgTypes, t.scalar_type())) {
    fail_dtype(ctx, op, t.scalar_type());
    return false;
  }
  m->rows = t.size(-2);
  m->cols = t.size(-1);
  m->count = 1;
  for (int d = 0; d + 2 < t.dim(); ++d) m->count *= t.size(d);
  return check_contiguous(ctx, op, t);
}

inline bool read_square(KernelContext& ctx, const char* op, const Tensor& t, Matrices* m) {
  if (!read_matrices(ctx, op, t, m)) return false;
  if (m->rows != m->cols) {
    ctx.fail(Error::InvalidArgument, "%s: expected square matrices, got %lldx%lld", op,
             static_cast<long long>(m->rows), static_cast<long long>(m->cols));
    return false;
  }
  return true;
}

inline bool check_linalg_out(KernelContext& ctx, const char* op, const Tensor& like,
                             const Tensor& out) {
  return check_out_dtype(ctx, op, like.scalar_type(), out) && check_contiguous(ctx, op, out);
}

// An out of like's real type (eigenvalues, singular values, |det|).
inline bool check_linalg_real_out(KernelContext& ctx, const char* op, const Tensor& like,
                                  const Tensor& out) {
  return check_out_dtype(ctx, op, to_real_type(like.scalar_type()), out) &&
         check_contiguous(ctx, op, out);
}

// The batch dims of a (..., m, n) tensor.
inline Span<const SizesType> batch_sizes(const Tensor& t) {
  return {t.sizes().data(), static_cast<size_t>(t.dim() >= 2 ? t.dim() - 2 : 0)};
}

// `like`'s batch dims followed by `tail`.
inline bool resize_with_batch(KernelContext& ctx, const char* op, const Tensor& like, Tensor& out,
                              const int64_t* tail, int tail_rank) {
  int64_t sizes[kTensorDimensionLimit];
  const int lead = like.dim() - 2;
  for (int d = 0; d < lead; ++d) sizes[d] = like.size(d);
  for (int d = 0; d < tail_rank; ++d) sizes[lead + d] = tail[d];
  return resize_output(ctx, out, Span<const int64_t>(sizes, lead + tail_rank), op);
}

template <typename Fn>
void for_linalg_dtype(KernelContext& ctx, const char* op, const Tensor& t, Fn&& fn) {
  switch_dtype<kLinalgTypes>(ctx, op, t.scalar_type(), fn);
}

// The conjugate of a complex value; a real one as it is.
template <typename S>
S conj_if(S x) {
  if constexpr (is_complex_v<S>) {
    return std::conj(x);
  } else {
    return x;
  }
}

// a = a^H in place (the plain transpose for real a).
template <typename S>
void adjoint_square(S* a, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i; j < n; ++j) {
      const S x = a[i * n + j];
      if constexpr (is_complex_v<S>) {
        a[i * n + j] = std::conj(a[j * n + i]);
        a[j * n + i] = std::conj(x);
      } else {
        a[i * n + j] = a[j * n + i];
        a[j * n + i] = x;
      }
    }
  }
}

// Scratch for any linalg kernel: a few double (or complex double) copies of
// one matrix of each operand (every kernel's working set is within six of them: matrix_exp's).
inline size_t linalg_temp_bytes(Span<EValue* const> args) {
  int64_t total = 0, largest_dim = 0;
  for (EValue* v : args) {
    if (!v->is_tensor()) continue;
    const Tensor& t = v->to_tensor();
    int64_t mat = 1;
    for (int d = t.dim() - 1; d >= 0 && d >= t.dim() - 2; --d) {
      mat *= t.size(d);
      largest_dim = std::max<int64_t>(largest_dim, t.size(d));
    }
    total += mat;
  }
  const int64_t elements = 6 * total + 8 * largest_dim + 64;
  return static_cast<size_t>(elements) * sizeof(std::complex<double>) + 256;
}

}  // namespace ember::kernels

#define EMBER_REGISTER_LINALG_KERNEL(name, fn)                                          \
  EMBER_REGISTER_KERNEL_WITH_TEMP(                                                      \
      name, fn, ::ember::kernels::kLinalgTypes,                                         \
      ::ember::default_tensor_dtypes(::ember::kernels::kLinalgTypes),                   \
      ::ember::kernels::linalg_temp_bytes)
