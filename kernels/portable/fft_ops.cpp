// The FFT ops torch.fft and torch.stft/istft export to: _fft_r2c (real in,
// complex out, optionally only the non-negative frequencies of the last dim),
// _fft_c2c and _fft_c2r (the inverse of r2c, with the length of the last dim
// given). Each works in a double-precision copy of the signal, one dim at a
// time (util/fft.h), so float results are accurate to float rounding.
#include <cmath>
#include <complex>

#include "kernels/portable/util/fft.h"
#include "kernels/portable/util/kernel_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

using fft::Complex;

// torch's fft_norm_mode: none, by 1/sqrt(n), by 1/n (n: the signal's size).
double norm_scale(int64_t normalization, double signal_size) {
  if (normalization == 1) return 1.0 / std::sqrt(signal_size);
  if (normalization == 2) return 1.0 / signal_size;
  return 1.0;
}

struct Dims {
  int64_t dims[kTensorDimensionLimit];
  int count = 0;
};

// Normalizes `dim` for a tensor of `rank`; fails on a repeat or out of range.
bool normalize_dims(KernelContext& ctx, const char* op, IntArrayRef dim, int64_t rank, Dims* out) {
  if (dim.size() == 0 || dim.size() > static_cast<size_t>(rank)) {
    ctx.fail(Error::InvalidArgument, "%s: %zu dims for a tensor of rank %lld", op, dim.size(),
             static_cast<long long>(rank));
    return false;
  }
  for (size_t i = 0; i < dim.size(); ++i) {
    int64_t d;
    if (!normalize_dim(dim[i], rank, &d) || rank == 0) {
      ctx.fail(Error::InvalidArgument, "%s: dim %lld out of range", op,
               static_cast<long long>(dim[i]));
      return false;
    }
    for (int j = 0; j < out->count; ++j) {
      if (out->dims[j] == d) {
        ctx.fail(Error::InvalidArgument, "%s: dim %lld repeated", op, static_cast<long long>(d));
        return false;
      }
    }
    out->dims[out->count++] = d;
  }
  return true;
}

// A contiguous complex-double buffer shaped like the signal.
struct Work {
  Complex* data;
  int64_t sizes[kTensorDimensionLimit];
  int rank;
  int64_t numel() const {
    int64_t n = 1;
    for (int d = 0; d < rank; ++d) n *= sizes[d];
    return n;
  }
  int64_t stride(int d) const {
    int64_t s = 1;
    for (int k = d + 1; k < rank; ++k) s *= sizes[k];
    return s;
  }
};

// Calls fn(offset) for the first element of every line of `w` along dim d.
template <typename Fn>
void for_each_line(const Work& w, int d, Fn&& fn) {
  const int64_t inner = w.stride(d);
  const int64_t span = inner * w.sizes[d];
  const int64_t total = w.numel();
  if (span == 0) return;
  for (int64_t outer = 0; outer < total; outer += span) {
    for (int64_t i = 0; i < inner; ++i) fn(outer + i);
  }
}

// Transforms every line of `w` along dim d in place.
void transform_dim(Work& w, int d, bool inverse, Complex* line, Complex* scratch) {
  const int64_t n = w.sizes[d];
  const int64_t stride = w.stride(d);
  for_each_line(w, d, [&](int64_t offset) {
    fft::transform(w.data + offset, stride, line, n, inverse, scratch);
    for (int64_t k = 0; k < n; ++k) w.data[offset + k * stride] = line[k];
  });
}

template <typename T>
void load_real(const Tensor& in, Complex* dst) {
  const T* src = in.const_data_ptr<T>();
  for (int64_t i = 0; i < in.numel(); ++i) dst[i] = Complex(static_cast<double>(src[i]), 0.0);
}

template <typename C>
void load_complex(const Tensor& in, Complex* dst) {
  const C* src = in.const_data_ptr<C>();
  for (int64_t i = 0; i < in.numel(); ++i) dst[i] = Complex(src[i].real(), src[i].imag());
}

int64_t longest_dim(const Tensor& t, const Dims& dims, int64_t extra = 0) {
  int64_t n = extra;
  for (int i = 0; i < dims.count; ++i) n = std::max<int64_t>(n, t.size(dims.dims[i]));
  return n;
}

// Scratch in Complex elements: the signal, one line and the line transform's.
size_t work_elements(int64_t signal_numel, int64_t longest) {
  return static_cast<size_t>(signal_numel) + static_cast<size_t>(longest) +
         fft::scratch_size(longest);
}

size_t all_dims_longest(const Tensor& t) {
  int64_t n = 0;
  for (int d = 0; d < t.dim(); ++d) n = std::max<int64_t>(n, t.size(d));
  return static_cast<size_t>(n);
}

// The temp_bytes of each kernel, from the planned (largest) shapes: the
// signal (self; the out for c2r's last dim) and the longest line.
size_t r2c_c2c_temp_bytes(Span<EValue* const> args) {
  const Tensor& self = args[0]->to_tensor();
  const int64_t longest = static_cast<int64_t>(all_dims_longest(self));
  return work_elements(self.numel(), longest) * sizeof(Complex);
}

size_t c2r_temp_bytes(Span<EValue* const> args) {
  const Tensor& self = args[0]->to_tensor();
  const Tensor& out = args[4]->to_tensor();
  const int64_t longest = static_cast<int64_t>(std::max(all_dims_longest(self),
                                                        all_dims_longest(out)));
  return (work_elements(self.numel(), longest) + static_cast<size_t>(longest)) * sizeof(Complex);
}

bool check_sizes(KernelContext& ctx, const char* op, const Tensor& t, const Dims& dims) {
  for (int i = 0; i < dims.count; ++i) {
    if (t.size(dims.dims[i]) < 1) {
      ctx.fail(Error::InvalidArgument, "%s: invalid number of data points (%lld)", op,
               static_cast<long long>(t.size(dims.dims[i])));
      return false;
    }
  }
  return true;
}

Work make_work(const Tensor& t, Complex* data) {
  Work w{data, {}, t.dim()};
  for (int d = 0; d < t.dim(); ++d) w.sizes[d] = t.size(d);
  return w;
}

// Writes `w` (the full signal) into `out`, keeping `out`'s extent of each dim
// (r2c's onesided last dim is shorter), scaled.
template <typename C>
void store_complex(const Work& w, Tensor& out, double scale) {
  C* dst = out.mutable_data_ptr<C>();
  const int rank = out.dim();
  int64_t index[kTensorDimensionLimit] = {};
  for (int64_t i = 0; i < out.numel(); ++i) {
    int64_t src = 0;
    for (int d = 0; d < rank; ++d) src = src * w.sizes[d] + index[d];
    const Complex v = w.data[src] * scale;
    dst[i] = C(static_cast<typename C::value_type>(v.real()),
               static_cast<typename C::value_type>(v.imag()));
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[d] < out.size(d)) break;
      index[d] = 0;
    }
  }
}

bool check_pair(KernelContext& ctx, const char* op, const Tensor& real, const Tensor& complex) {
  if (!(real.scalar_type() == ScalarType::Float || real.scalar_type() == ScalarType::Double) ||
      complex.scalar_type() != to_complex_type(real.scalar_type())) {
    ctx.fail(Error::InvalidArgument, "%s: expected a Float or Double signal with its complex "
             "type, got %s and %s", op, scalar_type_name(real.scalar_type()),
             scalar_type_name(complex.scalar_type()));
    return false;
  }
  return true;
}

void fft_r2c_out(KernelContext& ctx, const Tensor& self, IntArrayRef dim, int64_t normalization,
                 bool onesided, Tensor& out) {
  const char* op = "_fft_r2c.out";
  Dims dims;
  if (!check_pair(ctx, op, self, out) || !normalize_dims(ctx, op, dim, self.dim(), &dims) ||
      !check_sizes(ctx, op, self, dims)) {
    return;
  }
  int64_t sizes[kTensorDimensionLimit];
  for (int d = 0; d < self.dim(); ++d) sizes[d] = self.size(d);
  const int64_t last = dims.dims[dims.count - 1];
  if (onesided) sizes[last] = sizes[last] / 2 + 1;
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, self.dim()), op)) return;
  if (self.numel() == 0) return;
  const int64_t longest = longest_dim(self, dims);
  Complex* work = allocate_temp_array<Complex>(ctx, op, work_elements(self.numel(), longest));
  if (work == nullptr) return;
  Complex* line = work + self.numel();
  Complex* scratch = line + longest;
  Work w = make_work(self, work);
  double signal = 1.0;
  if (self.scalar_type() == ScalarType::Float) load_real<float>(self, work);
  else load_real<double>(self, work);
  for (int i = 0; i < dims.count; ++i) {
    transform_dim(w, static_cast<int>(dims.dims[i]), false, line, scratch);
    signal *= static_cast<double>(self.size(dims.dims[i]));
  }
  const double scale = norm_scale(normalization, signal);
  if (out.scalar_type() == ScalarType::ComplexFloat) store_complex<std::complex<float>>(w, out, scale);
  else store_complex<std::complex<double>>(w, out, scale);
}

void fft_c2c_out(KernelContext& ctx, const Tensor& self, IntArrayRef dim, int64_t normalization,
                 bool forward, Tensor& out) {
  const char* op = "_fft_c2c.out";
  Dims dims;
  if (!is_complex_type(self.scalar_type()) || self.scalar_type() == ScalarType::ComplexHalf ||
      out.scalar_type() != self.scalar_type()) {
    ctx.fail(Error::InvalidArgument, "%s: expected a complex signal and out of its dtype", op);
    return;
  }
  if (!normalize_dims(ctx, op, dim, self.dim(), &dims) || !check_sizes(ctx, op, self, dims) ||
      !resize_output(ctx, out, self.sizes(), op)) {
    return;
  }
  if (self.numel() == 0) return;
  const int64_t longest = longest_dim(self, dims);
  Complex* work = allocate_temp_array<Complex>(ctx, op, work_elements(self.numel(), longest));
  if (work == nullptr) return;
  Complex* line = work + self.numel();
  Complex* scratch = line + longest;
  Work w = make_work(self, work);
  if (self.scalar_type() == ScalarType::ComplexFloat) load_complex<std::complex<float>>(self, work);
  else load_complex<std::complex<double>>(self, work);
  double signal = 1.0;
  for (int i = 0; i < dims.count; ++i) {
    transform_dim(w, static_cast<int>(dims.dims[i]), !forward, line, scratch);
    signal *= static_cast<double>(self.size(dims.dims[i]));
  }
  const double scale = norm_scale(normalization, signal);
  if (out.scalar_type() == ScalarType::ComplexFloat) store_complex<std::complex<float>>(w, out, scale);
  else store_complex<std::complex<double>>(w, out, scale);
}

// The inverse of a onesided r2c: the other dims are inverted as complex, then
// each line of the last dim is extended to its full Hermitian spectrum
// (X[L - k] = conj(X[k])) of length L and inverted; the result is its real
// part. Imaginary parts that a real signal cannot have (of X[0] and, for even
// L, X[L/2]) drop out there, as in pocketfft.
void fft_c2r_out(KernelContext& ctx, const Tensor& self, IntArrayRef dim, int64_t normalization,
                 int64_t last_dim_size, Tensor& out) {
  const char* op = "_fft_c2r.out";
  Dims dims;
  if (!is_complex_type(self.scalar_type()) || !check_pair(ctx, op, out, self) ||
      !normalize_dims(ctx, op, dim, self.dim(), &dims) || !check_sizes(ctx, op, self, dims)) {
    return;
  }
  if (last_dim_size < 1) {
    ctx.fail(Error::InvalidArgument, "%s: invalid number of data points (%lld)", op,
             static_cast<long long>(last_dim_size));
    return;
  }
  const int last = static_cast<int>(dims.dims[dims.count - 1]);
  int64_t sizes[kTensorDimensionLimit];
  for (int d = 0; d < self.dim(); ++d) sizes[d] = self.size(d);
  sizes[last] = last_dim_size;
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, self.dim()), op)) return;
  if (out.numel() == 0) return;
  const int64_t longest = longest_dim(self, dims, last_dim_size);
  Complex* work = allocate_temp_array<Complex>(
      ctx, op, work_elements(self.numel(), longest) + static_cast<size_t>(longest));
  if (work == nullptr) return;
  Complex* line = work + self.numel();
  Complex* scratch = line + longest;
  Complex* full = scratch + fft::scratch_size(longest);
  Work w = make_work(self, work);
  if (self.scalar_type() == ScalarType::ComplexFloat) load_complex<std::complex<float>>(self, work);
  else load_complex<std::complex<double>>(self, work);
  double signal = static_cast<double>(last_dim_size);
  for (int i = 0; i + 1 < dims.count; ++i) {
    transform_dim(w, static_cast<int>(dims.dims[i]), true, line, scratch);
    signal *= static_cast<double>(self.size(dims.dims[i]));
  }
  const double scale = norm_scale(normalization, signal);
  const int64_t have = self.size(last);
  const int64_t stride = w.stride(last);
  const int64_t out_stride = out.stride(last);
  // Line k of the work buffer and of out start at the same multi-index.
  int64_t out_offset_of_line = 0;
  int64_t line_index = 0;
  const int64_t inner = stride;
  for_each_line(w, last, [&](int64_t offset) {
    const int64_t outer = line_index / inner;
    const int64_t i = line_index % inner;
    out_offset_of_line = outer * inner * last_dim_size + i;
    ++line_index;
    for (int64_t k = 0; k < last_dim_size; ++k) full[k] = Complex(0.0, 0.0);
    for (int64_t k = 0; k <= last_dim_size / 2 && k < have; ++k) {
      full[k] = w.data[offset + k * stride];
    }
    for (int64_t k = 1; k < (last_dim_size + 1) / 2 && k < have; ++k) {
      full[last_dim_size - k] = std::conj(w.data[offset + k * stride]);
    }
    fft::transform(full, 1, line, last_dim_size, true, scratch);
    for (int64_t k = 0; k < last_dim_size; ++k) {
      const double v = line[k].real() * scale;
      if (out.scalar_type() == ScalarType::Float) {
        out.mutable_data_ptr<float>()[out_offset_of_line + k * out_stride] = static_cast<float>(v);
      } else {
        out.mutable_data_ptr<double>()[out_offset_of_line + k * out_stride] = v;
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL_WITH_TEMP("aten::_fft_r2c.out", fft_r2c_out,
                                dtype_bit(ScalarType::Float) | dtype_bit(ScalarType::Double),
                                kAllAndComplexTypes, r2c_c2c_temp_bytes);
EMBER_REGISTER_KERNEL_WITH_TEMP("aten::_fft_c2c.out", fft_c2c_out, kComplexTypes,
                                kAllAndComplexTypes, r2c_c2c_temp_bytes);
EMBER_REGISTER_KERNEL_WITH_TEMP("aten::_fft_c2r.out", fft_c2r_out, kComplexTypes,
                                kAllAndComplexTypes, c2r_temp_bytes);

}  // namespace ember::kernels
