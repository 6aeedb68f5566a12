// Gradients for programs exported with their backward pass:
// convolution_backward (not transposed), avg_pool2d_backward, max_pool2d_with_indices_backward,
// _adaptive_avg_pool2d_backward, embedding_dense_backward,
// native_layer_norm_backward and native_group_norm_backward. The window rules
// mirror the forward kernels in pool_ops.cpp.
#include <optional>

#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "kernels/portable/util/pool_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// self seen as `planes` images of in[0] x in[1], grad_output as planes of
// out[0] x out[1], and (the windowed gradients) the window.
using Planes = nn::Pooling<2>;

// Checks self (3-D or 4-D, non-empty images), grad_output (same leading dims)
// and grad_input (self's dtype), and resizes grad_input to self's shape.
bool read_planes(KernelContext& ctx, const char* op, const Tensor& grad_output,
                 const Tensor& self, Tensor& grad_input, Planes* p) {
  if (self.dim() != 3 && self.dim() != 4) {
    ctx.fail(Error::InvalidArgument, "%s: expected a 3-D or 4-D input, got %d-D", op, self.dim());
    return false;
  }
  if (grad_output.dim() != self.dim()) {
    ctx.fail(Error::InvalidArgument, "%s: grad_output must have self's rank", op);
    return false;
  }
  for (int d = 0; d < self.dim() - 2; ++d) {
    if (grad_output.size(d) != self.size(d)) {
      ctx.fail(Error::InvalidArgument, "%s: grad_output and self differ in dim %d", op, d);
      return false;
    }
  }
  if (self.size(-1) == 0 || self.size(-2) == 0) {
    ctx.fail(Error::InvalidArgument, "%s: only the batch dim may be empty", op);
    return false;
  }
  if (!nn::check_same_dtype(ctx, op, self, "self", grad_output, "grad_output") ||
      !nn::check_same_dtype(ctx, op, self, "self", grad_input, "grad_input") ||
      !check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, grad_output) ||
      !check_contiguous(ctx, op, grad_input) ||
      !resize_output(ctx, grad_input, self.sizes(), op)) {
    return false;
  }
  p->in[0] = self.size(-2);
  p->in[1] = self.size(-1);
  p->planes = self.numel() / (p->in[0] * p->in[1]);
  p->out[0] = grad_output.size(-2);
  p->out[1] = grad_output.size(-1);
  return true;
}

// Reads the window into p and checks that grad_output has the pooled size.
bool read_window(KernelContext& ctx, const char* op, IntArrayRef kernel_size, IntArrayRef stride,
                 IntArrayRef padding, IntArrayRef dilation, bool ceil_mode, Planes* p) {
  const int64_t oh = p->out[0], ow = p->out[1];  // grad_output's
  if (!nn::read_pool_window(ctx, op, kernel_size, stride, padding, dilation, ceil_mode, p)) {
    return false;
  }
  if (p->out[0] != oh || p->out[1] != ow) {
    ctx.fail(Error::InvalidArgument, "%s: grad_output is %lldx%lld but the pooled size is "
             "%lldx%lld", op, static_cast<long long>(oh), static_cast<long long>(ow),
             static_cast<long long>(p->out[0]), static_cast<long long>(p->out[1]));
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// avg_pool2d_backward: each output's gradient, divided as in the forward
// pass, flows to the input cells of its window.

template <typename T>
void avg_pool_backward(const Planes& p, const T* go, T* gi, bool count_include_pad,
                       std::optional<int64_t> divisor_override) {
  using A = acc_t<T>;
  const int64_t H = p.in[0], W = p.in[1], OH = p.out[0], OW = p.out[1];
  for (int64_t i = 0; i < p.planes * H * W; ++i) gi[i] = static_cast<T>(0);
  for (int64_t c = 0; c < p.planes; ++c) {
    T* dst = gi + c * H * W;
    for (int64_t y = 0; y < OH; ++y) {
      const nn::AvgRange rh = nn::avg_range(y, p.k[0], p.stride[0], p.pad[0], H);
      for (int64_t x = 0; x < OW; ++x) {
        const nn::AvgRange rw = nn::avg_range(x, p.k[1], p.stride[1], p.pad[1], W);
        if (rh.lo >= rh.hi || rw.lo >= rw.hi) continue;
        const int64_t divisor = divisor_override.has_value() ? *divisor_override
                                : count_include_pad ? (rh.end - rh.start) * (rw.end - rw.start)
                                                    : (rh.hi - rh.lo) * (rw.hi - rw.lo);
        const A g = static_cast<A>(go[(c * OH + y) * OW + x]) / static_cast<A>(divisor);
        for (int64_t ih = rh.lo; ih < rh.hi; ++ih) {
          for (int64_t iw = rw.lo; iw < rw.hi; ++iw) {
            T& d = dst[ih * W + iw];
            d = static_cast<T>(static_cast<A>(d) + g);
          }
        }
      }
    }
  }
}

void avg_pool2d_backward_grad_input(KernelContext& ctx, const Tensor& grad_output,
                                    const Tensor& self, IntArrayRef kernel_size,
                                    IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                                    bool count_include_pad,
                                    std::optional<int64_t> divisor_override,
                                    Tensor& grad_input) {
  const char* op = "avg_pool2d_backward.grad_input";
  Planes p;
  const int64_t ones[] = {1};
  if (!read_planes(ctx, op, grad_output, self, grad_input, &p) ||
      !read_window(ctx, op, kernel_size, stride, padding, IntArrayRef(ones, 1), ceil_mode, &p)) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, !divisor_override.has_value() || *divisor_override != 0,
                     "%s: divisor_override must not be zero", op);
  EMBER_SWITCH_FLOAT_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    avg_pool_backward<CTYPE>(p, grad_output.const_data_ptr<CTYPE>(),
                             grad_input.mutable_data_ptr<CTYPE>(), count_include_pad,
                             divisor_override));
}

// ---------------------------------------------------------------------------
// max_pool2d_with_indices_backward: each output's gradient goes to the input
// cell its index names (flat within the plane).

template <typename T>
void max_pool_backward(const Planes& p, const T* go, const int64_t* idx, T* gi) {
  using A = acc_t<T>;
  const int64_t H = p.in[0], W = p.in[1], OH = p.out[0], OW = p.out[1];
  for (int64_t i = 0; i < p.planes * H * W; ++i) gi[i] = static_cast<T>(0);
  for (int64_t c = 0; c < p.planes; ++c) {
    T* dst = gi + c * H * W;
    for (int64_t o = c * OH * OW; o < (c + 1) * OH * OW; ++o) {
      T& d = dst[idx[o]];
      d = static_cast<T>(static_cast<A>(d) + static_cast<A>(go[o]));
    }
  }
}

void max_pool2d_with_indices_backward_grad_input(
    KernelContext& ctx, const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
    IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
    const Tensor& indices, Tensor& grad_input) {
  const char* op = "max_pool2d_with_indices_backward.grad_input";
  Planes p;
  if (!read_planes(ctx, op, grad_output, self, grad_input, &p) ||
      !read_window(ctx, op, kernel_size, stride, padding, dilation, ceil_mode, &p) ||
      !check_contiguous(ctx, op, indices)) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, indices.scalar_type() == ScalarType::Long,
                     "%s: indices must be Long, not %s", op,
                     scalar_type_name(indices.scalar_type()));
  EMBER_KERNEL_CHECK(ctx, indices.numel() == grad_output.numel() &&
                              indices.dim() == grad_output.dim(),
                     "%s: indices must have grad_output's shape", op);
  const int64_t* idx = indices.const_data_ptr<int64_t>();
  for (int64_t i = 0; i < indices.numel(); ++i) {
    EMBER_KERNEL_CHECK(ctx, idx[i] >= 0 && idx[i] < p.in[0] * p.in[1],
                       "%s: index %lld is outside the %lldx%lld input", op,
                       static_cast<long long>(idx[i]), static_cast<long long>(p.in[0]),
                       static_cast<long long>(p.in[1]));
  }
  EMBER_SWITCH_FLOAT_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    max_pool_backward<CTYPE>(p, grad_output.const_data_ptr<CTYPE>(), idx,
                             grad_input.mutable_data_ptr<CTYPE>()));
}

// ---------------------------------------------------------------------------
// _adaptive_avg_pool2d_backward: output cell i covers input
// [floor(i*I/O), ceil((i+1)*I/O)); its gradient is spread evenly there.

template <typename T>
void adaptive_avg_pool_backward(const Planes& p, const T* go, T* gi) {
  using A = acc_t<T>;
  const int64_t H = p.in[0], W = p.in[1], OH = p.out[0], OW = p.out[1];
  for (int64_t i = 0; i < p.planes * H * W; ++i) gi[i] = static_cast<T>(0);
  for (int64_t c = 0; c < p.planes; ++c) {
    T* dst = gi + c * H * W;
    for (int64_t y = 0; y < OH; ++y) {
      const int64_t hs = y * H / OH;
      const int64_t he = ((y + 1) * H + OH - 1) / OH;
      for (int64_t x = 0; x < OW; ++x) {
        const int64_t ws = x * W / OW;
        const int64_t we = ((x + 1) * W + OW - 1) / OW;
        const A g = static_cast<A>(go[(c * OH + y) * OW + x]) /
                    static_cast<A>((he - hs) * (we - ws));
        for (int64_t ih = hs; ih < he; ++ih) {
          for (int64_t iw = ws; iw < we; ++iw) {
            T& d = dst[ih * W + iw];
            d = static_cast<T>(static_cast<A>(d) + g);
          }
        }
      }
    }
  }
}

void adaptive_avg_pool2d_backward_out(KernelContext& ctx, const Tensor& grad_output,
                                      const Tensor& self, Tensor& out) {
  const char* op = "_adaptive_avg_pool2d_backward.out";
  Planes p;
  if (!read_planes(ctx, op, grad_output, self, out, &p)) return;
  // Bounded so that (y + 1) * h cannot overflow.
  EMBER_KERNEL_CHECK(ctx, p.out[0] > 0 && p.out[1] > 0 && p.out[0] < (int64_t{1} << 31) &&
                              p.out[1] < (int64_t{1} << 31),
                     "%s: grad_output must have non-empty images", op);
  EMBER_SWITCH_FLOAT_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()),
    adaptive_avg_pool_backward<CTYPE>(p, grad_output.const_data_ptr<CTYPE>(),
                                      out.mutable_data_ptr<CTYPE>()));
}

// ---------------------------------------------------------------------------
// embedding_dense_backward: row e of the result sums the gradient rows of the
// positions that looked up e (none for padding_idx), divided by how often e
// occurs when scale_grad_by_freq.

template <typename T>
void embedding_backward(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                        int64_t padding_idx, bool scale_grad_by_freq, Tensor& out) {
  using A = acc_t<T>;
  const int64_t n = indices.numel();
  const int64_t dsz = grad_output.size(-1);
  const T* go = grad_output.const_data_ptr<T>();
  T* o = out.mutable_data_ptr<T>();
  for (int64_t i = 0; i < out.numel(); ++i) o[i] = static_cast<T>(0);
  for (int64_t k = 0; k < n; ++k) {
    const int64_t e = shape::read_index(indices, k);
    if (e == padding_idx) continue;
    A scale = 1;
    if (scale_grad_by_freq) {
      int64_t count = 0;
      for (int64_t j = 0; j < n; ++j) count += shape::read_index(indices, j) == e ? 1 : 0;
      scale = A(1) / static_cast<A>(count);
    }
    for (int64_t j = 0; j < dsz; ++j) {
      T& d = o[e * dsz + j];
      d = static_cast<T>(static_cast<A>(d) + static_cast<A>(go[k * dsz + j]) * scale);
    }
  }
}

void embedding_dense_backward_out(KernelContext& ctx, const Tensor& grad_output,
                                  const Tensor& indices, int64_t num_weights,
                                  int64_t padding_idx, bool scale_grad_by_freq, Tensor& out) {
  const char* op = "embedding_dense_backward.out";
  EMBER_KERNEL_CHECK(ctx, shape::is_index_dtype(indices.scalar_type()),
                     "%s: indices must be Long or Int", op);
  EMBER_KERNEL_CHECK(ctx, num_weights >= 0, "%s: num_weights must be non-negative", op);
  EMBER_KERNEL_CHECK(ctx, grad_output.dim() == indices.dim() + 1,
                     "%s: grad_output must be indices' shape plus one embedding dim", op);
  for (int d = 0; d < indices.dim(); ++d) {
    EMBER_KERNEL_CHECK(ctx, grad_output.size(d) == indices.size(d),
                       "%s: grad_output and indices differ in dim %d", op, d);
  }
  if (!nn::check_same_dtype(ctx, op, grad_output, "grad_output", out, "out") ||
      !check_contiguous(ctx, op, grad_output) || !check_contiguous(ctx, op, indices) ||
      !check_contiguous(ctx, op, out)) {
    return;
  }
  for (int64_t k = 0; k < indices.numel(); ++k) {
    const int64_t e = shape::read_index(indices, k);
    EMBER_KERNEL_CHECK(ctx, e >= 0 && e < num_weights,
                       "%s: index %lld is out of range for %lld rows", op,
                       static_cast<long long>(e), static_cast<long long>(num_weights));
  }
  const int64_t sizes[2] = {num_weights, grad_output.size(-1)};
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, 2), op)) return;
  EMBER_SWITCH_FLOAT_TYPES(out.scalar_type(), return fail_dtype(ctx, op, out.scalar_type()),
    embedding_backward<CTYPE>(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq,
                              out));
}

// ---------------------------------------------------------------------------
// native_layer_norm_backward and native_group_norm_backward: the gradients of
// the input, weight and bias (each only where output_mask asks), from the
// saved mean and rstd. Computed in double.

// Element i of a floating tensor of any float dtype (mean and rstd may be kept
// in a wider type than the input).
double load_float(const Tensor& t, int64_t i) {
  EMBER_SWITCH_FLOAT_TYPES(t.scalar_type(), return 0.0,
    return static_cast<double>(t.const_data_ptr<CTYPE>()[i]));
  return 0.0;
}

bool check_stats(KernelContext& ctx, const char* op, const Tensor& t, const char* name,
                 int64_t numel) {
  if (!is_floating_type(t.scalar_type()) || t.numel() != numel ||
      !check_contiguous(ctx, op, t)) {
    if (!ctx.failed()) {
      ctx.fail(Error::InvalidArgument, "%s: %s must be a floating tensor of %lld elements", op,
               name, static_cast<long long>(numel));
    }
    return false;
  }
  return true;
}

bool check_affine(KernelContext& ctx, const char* op, const Tensor* t, const char* name,
                  const Tensor& input, int64_t numel) {
  if (t == nullptr) return true;
  if (!nn::check_same_dtype(ctx, op, input, "input", *t, name) || !check_contiguous(ctx, op, *t)) {
    return false;
  }
  if (t->numel() != numel) {
    ctx.fail(Error::InvalidArgument, "%s: %s must have %lld elements", op, name,
             static_cast<long long>(numel));
    return false;
  }
  return true;
}

bool prepare_grad(KernelContext& ctx, const char* op, bool wanted, const Tensor& input,
                  Tensor& out, Span<const int64_t> sizes) {
  if (!wanted) return true;
  return nn::check_same_dtype(ctx, op, input, "input", out, "grad output tensor") &&
         check_contiguous(ctx, op, out) && resize_output(ctx, out, sizes, op);
}

template <typename T>
void layer_norm_backward(const Tensor& dy_t, const Tensor& x_t, const Tensor& mean,
                         const Tensor& rstd, const Tensor* weight, int64_t rows, int64_t n,
                         Span<const bool> mask, Tensor& dx_t, Tensor& dw_t, Tensor& db_t) {
  const T* dy = dy_t.const_data_ptr<T>();
  const T* x = x_t.const_data_ptr<T>();
  const T* w = weight != nullptr ? weight->const_data_ptr<T>() : nullptr;
  if (mask[0]) {
    T* dx = dx_t.mutable_data_ptr<T>();
    for (int64_t r = 0; r < rows; ++r) {
      const double m = load_float(mean, r), rs = load_float(rstd, r);
      double sum_a = 0, sum_b = 0;
      for (int64_t i = 0; i < n; ++i) {
        const double g = static_cast<double>(dy[r * n + i]) *
                         (w != nullptr ? static_cast<double>(w[i]) : 1.0);
        sum_a += g;
        sum_b += g * (static_cast<double>(x[r * n + i]) - m) * rs;
      }
      const double a = sum_a / static_cast<double>(n), b = sum_b / static_cast<double>(n);
      for (int64_t i = 0; i < n; ++i) {
        const double g = static_cast<double>(dy[r * n + i]) *
                         (w != nullptr ? static_cast<double>(w[i]) : 1.0);
        const double xhat = (static_cast<double>(x[r * n + i]) - m) * rs;
        dx[r * n + i] = static_cast<T>(rs * (g - a - xhat * b));
      }
    }
  }
  if (mask[1] || mask[2]) {
    T* dw = mask[1] ? dw_t.mutable_data_ptr<T>() : nullptr;
    T* db = mask[2] ? db_t.mutable_data_ptr<T>() : nullptr;
    for (int64_t i = 0; i < n; ++i) {
      double sw = 0, sb = 0;
      for (int64_t r = 0; r < rows; ++r) {
        const double g = static_cast<double>(dy[r * n + i]);
        sw += g * (static_cast<double>(x[r * n + i]) - load_float(mean, r)) * load_float(rstd, r);
        sb += g;
      }
      if (dw != nullptr) dw[i] = static_cast<T>(sw);
      if (db != nullptr) db[i] = static_cast<T>(sb);
    }
  }
}

void native_layer_norm_backward_out(KernelContext& ctx, const Tensor& grad_out,
                                    const Tensor& input, IntArrayRef normalized_shape,
                                    const Tensor& mean, const Tensor& rstd, const Tensor* weight,
                                    const Tensor* bias, Span<const bool> output_mask,
                                    Tensor& out0, Tensor& out1, Tensor& out2) {
  const char* op = "native_layer_norm_backward.out";
  EMBER_KERNEL_CHECK(ctx, output_mask.size() == 3, "%s: output_mask must have 3 values", op);
  const int k = static_cast<int>(normalized_shape.size());
  EMBER_KERNEL_CHECK(ctx, k >= 1 && k <= input.dim(),
                     "%s: normalized_shape has %d dims, input has %d", op, k, input.dim());
  const int lead = input.dim() - k;
  int64_t rows = 1, n = 1;
  for (int d = 0; d < input.dim(); ++d) {
    if (d < lead) {
      rows *= input.size(d);
    } else {
      EMBER_KERNEL_CHECK(ctx, input.size(d) == normalized_shape[d - lead],
                         "%s: input dim %d does not match normalized_shape", op, d);
      n *= input.size(d);
    }
  }
  EMBER_KERNEL_CHECK(ctx, grad_out.dim() == input.dim() && grad_out.numel() == input.numel(),
                     "%s: grad_out must have input's shape", op);
  for (int d = 0; d < input.dim(); ++d) {
    EMBER_KERNEL_CHECK(ctx, grad_out.size(d) == input.size(d),
                       "%s: grad_out must have input's shape", op);
  }
  if (!nn::check_same_dtype(ctx, op, input, "input", grad_out, "grad_out") ||
      !check_contiguous(ctx, op, input) || !check_contiguous(ctx, op, grad_out) ||
      !check_stats(ctx, op, mean, "mean", rows) || !check_stats(ctx, op, rstd, "rstd", rows) ||
      !check_affine(ctx, op, weight, "weight", input, n) ||
      !check_affine(ctx, op, bias, "bias", input, n)) {
    return;
  }
  int64_t in_sizes[kTensorDimensionLimit];
  for (int d = 0; d < input.dim(); ++d) in_sizes[d] = input.size(d);
  if (!prepare_grad(ctx, op, output_mask[0], input, out0,
                    Span<const int64_t>(in_sizes, input.dim())) ||
      !prepare_grad(ctx, op, output_mask[1], input, out1, normalized_shape) ||
      !prepare_grad(ctx, op, output_mask[2], input, out2, normalized_shape)) {
    return;
  }
  if (rows == 0 || n == 0) {
    // Nothing to normalize: the weight and bias gradients are zero.
    EMBER_SWITCH_FLOAT_TYPES(input.scalar_type(),
      return fail_dtype(ctx, op, input.scalar_type()), {
        for (int j = 1; j < 3; ++j) {
          if (!output_mask[j]) continue;
          Tensor& t = j == 1 ? out1 : out2;
          for (int64_t i = 0; i < t.numel(); ++i) t.mutable_data_ptr<CTYPE>()[i] = CTYPE(0.0f);
        }
      });
    return;
  }
  EMBER_SWITCH_FLOAT_TYPES(input.scalar_type(), return fail_dtype(ctx, op, input.scalar_type()),
    layer_norm_backward<CTYPE>(grad_out, input, mean, rstd, weight, rows, n, output_mask, out0,
                               out1, out2));
}

template <typename T>
void group_norm_backward(const Tensor& dy_t, const Tensor& x_t, const Tensor& mean,
                         const Tensor& rstd, const Tensor* weight, int64_t N, int64_t C,
                         int64_t HxW, int64_t group, Span<const bool> mask, Tensor& dx_t,
                         Tensor& dw_t, Tensor& db_t) {
  const T* dy = dy_t.const_data_ptr<T>();
  const T* x = x_t.const_data_ptr<T>();
  const T* w = weight != nullptr ? weight->const_data_ptr<T>() : nullptr;
  const int64_t D = C / group;
  // Per (n, c): sum of dy * x and of dy over the spatial positions.
  auto sums = [&](int64_t n, int64_t c, double* ds, double* db) {
    *ds = 0;
    *db = 0;
    const int64_t base = (n * C + c) * HxW;
    for (int64_t i = 0; i < HxW; ++i) {
      *ds += static_cast<double>(dy[base + i]) * static_cast<double>(x[base + i]);
      *db += static_cast<double>(dy[base + i]);
    }
  };
  auto gamma = [&](int64_t c) { return w != nullptr ? static_cast<double>(w[c]) : 1.0; };
  if (mask[0]) {
    T* dx = dx_t.mutable_data_ptr<T>();
    const double s = 1.0 / static_cast<double>(D * HxW);
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t g = 0; g < group; ++g) {
        const double m = load_float(mean, n * group + g), rs = load_float(rstd, n * group + g);
        double ds_g = 0, db_g = 0;
        for (int64_t c = g * D; c < (g + 1) * D; ++c) {
          double ds, db;
          sums(n, c, &ds, &db);
          ds_g += ds * gamma(c);
          db_g += db * gamma(c);
        }
        const double b = (db_g * m - ds_g) * rs * rs * rs * s;
        const double c2 = -b * m - db_g * rs * s;
        for (int64_t c = g * D; c < (g + 1) * D; ++c) {
          const double a = rs * gamma(c);
          const int64_t base = (n * C + c) * HxW;
          for (int64_t i = 0; i < HxW; ++i) {
            dx[base + i] = static_cast<T>(a * static_cast<double>(dy[base + i]) +
                                          b * static_cast<double>(x[base + i]) + c2);
          }
        }
      }
    }
  }
  if (mask[1] || mask[2]) {
    T* dw = mask[1] ? dw_t.mutable_data_ptr<T>() : nullptr;
    T* dbias = mask[2] ? db_t.mutable_data_ptr<T>() : nullptr;
    for (int64_t c = 0; c < C; ++c) {
      const int64_t g = c / D;
      double sw = 0, sb = 0;
      for (int64_t n = 0; n < N; ++n) {
        double ds, db;
        sums(n, c, &ds, &db);
        sw += (ds - db * load_float(mean, n * group + g)) * load_float(rstd, n * group + g);
        sb += db;
      }
      if (dw != nullptr) dw[c] = static_cast<T>(sw);
      if (dbias != nullptr) dbias[c] = static_cast<T>(sb);
    }
  }
}

void native_group_norm_backward_out(KernelContext& ctx, const Tensor& grad_out,
                                    const Tensor& input, const Tensor& mean, const Tensor& rstd,
                                    const Tensor* weight, int64_t N, int64_t C, int64_t HxW,
                                    int64_t group, Span<const bool> output_mask, Tensor& out0,
                                    Tensor& out1, Tensor& out2) {
  const char* op = "native_group_norm_backward.out";
  EMBER_KERNEL_CHECK(ctx, output_mask.size() == 3, "%s: output_mask must have 3 values", op);
  EMBER_KERNEL_CHECK(ctx, input.dim() >= 2 && input.size(0) == N && input.size(1) == C &&
                              N >= 0 && C > 0 && HxW >= 0 && input.numel() == N * C * HxW,
                     "%s: input must be [N, C, *] with N, C and HxW as given", op);
  EMBER_KERNEL_CHECK(ctx, group > 0 && C % group == 0,
                     "%s: group (%lld) must be positive and divide C (%lld)", op,
                     static_cast<long long>(group), static_cast<long long>(C));
  EMBER_KERNEL_CHECK(ctx, grad_out.dim() == input.dim(), "%s: grad_out must have input's shape",
                     op);
  for (int d = 0; d < input.dim(); ++d) {
    EMBER_KERNEL_CHECK(ctx, grad_out.size(d) == input.size(d),
                       "%s: grad_out must have input's shape", op);
  }
  if (!nn::check_same_dtype(ctx, op, input, "input", grad_out, "grad_out") ||
      !check_contiguous(ctx, op, input) || !check_contiguous(ctx, op, grad_out) ||
      !check_stats(ctx, op, mean, "mean", N * group) ||
      !check_stats(ctx, op, rstd, "rstd", N * group) ||
      !check_affine(ctx, op, weight, "weight", input, C)) {
    return;
  }
  int64_t in_sizes[kTensorDimensionLimit];
  for (int d = 0; d < input.dim(); ++d) in_sizes[d] = input.size(d);
  const int64_t c_size[1] = {C};
  if (!prepare_grad(ctx, op, output_mask[0], input, out0,
                    Span<const int64_t>(in_sizes, input.dim())) ||
      !prepare_grad(ctx, op, output_mask[1], input, out1, Span<const int64_t>(c_size, 1)) ||
      !prepare_grad(ctx, op, output_mask[2], input, out2, Span<const int64_t>(c_size, 1))) {
    return;
  }
  EMBER_SWITCH_FLOAT_TYPES(input.scalar_type(), return fail_dtype(ctx, op, input.scalar_type()),
    group_norm_backward<CTYPE>(grad_out, input, mean, rstd, weight, N, C, HxW, group,
                               output_mask, out0, out1, out2));
}

// ---------------------------------------------------------------------------
// convolution_backward (not transposed): input [N, C_in, *S], weight
// [C_out, C_in / groups, *K], grad_output [N, C_out, *O], 1 to 3 spatial
// dims. Spatial dims are padded at the front to three of size 1.

struct ConvGeom {
  int64_t n = 0, cin = 0, cout = 0, groups = 1;
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1}, pad[3] = {0, 0, 0}, dil[3] = {1, 1, 1};
};

// Calls f(o_index, in_index, k_index) for every (output, kernel) position
// pair of one channel pair whose input position lies inside the input.
template <typename F>
void for_each_tap(const ConvGeom& g, F&& f) {
  for (int64_t o0 = 0; o0 < g.out[0]; ++o0)
    for (int64_t o1 = 0; o1 < g.out[1]; ++o1)
      for (int64_t o2 = 0; o2 < g.out[2]; ++o2) {
        const int64_t oi = (o0 * g.out[1] + o1) * g.out[2] + o2;
        for (int64_t k0 = 0; k0 < g.k[0]; ++k0) {
          const int64_t x0 = o0 * g.stride[0] - g.pad[0] + k0 * g.dil[0];
          if (x0 < 0 || x0 >= g.in[0]) continue;
          for (int64_t k1 = 0; k1 < g.k[1]; ++k1) {
            const int64_t x1 = o1 * g.stride[1] - g.pad[1] + k1 * g.dil[1];
            if (x1 < 0 || x1 >= g.in[1]) continue;
            for (int64_t k2 = 0; k2 < g.k[2]; ++k2) {
              const int64_t x2 = o2 * g.stride[2] - g.pad[2] + k2 * g.dil[2];
              if (x2 < 0 || x2 >= g.in[2]) continue;
              f(oi, (x0 * g.in[1] + x1) * g.in[2] + x2, (k0 * g.k[1] + k1) * g.k[2] + k2);
            }
          }
        }
      }
}

template <typename T>
void conv_backward(const ConvGeom& g, const T* go, const T* in, const T* w,
                   Span<const bool> mask, T* gi, T* gw, T* gb) {
  using A = acc_t<T>;
  const int64_t in_sp = g.in[0] * g.in[1] * g.in[2];
  const int64_t out_sp = g.out[0] * g.out[1] * g.out[2];
  const int64_t k_sp = g.k[0] * g.k[1] * g.k[2];
  const int64_t cin_g = g.cin / g.groups, cout_g = g.cout / g.groups;
  if (mask[0]) {
    for (int64_t i = 0; i < g.n * g.cin * in_sp; ++i) gi[i] = static_cast<T>(0);
    for (int64_t n = 0; n < g.n; ++n)
      for (int64_t co = 0; co < g.cout; ++co) {
        const int64_t grp = co / cout_g;
        const T* gop = go + (n * g.cout + co) * out_sp;
        for (int64_t cl = 0; cl < cin_g; ++cl) {
          T* gip = gi + (n * g.cin + grp * cin_g + cl) * in_sp;
          const T* wp = w + (co * cin_g + cl) * k_sp;
          for_each_tap(g, [&](int64_t oi, int64_t xi, int64_t ki) {
            gip[xi] = static_cast<T>(static_cast<A>(gip[xi]) +
                                     static_cast<A>(gop[oi]) * static_cast<A>(wp[ki]));
          });
        }
      }
  }
  if (mask[1]) {
    for (int64_t i = 0; i < g.cout * cin_g * k_sp; ++i) gw[i] = static_cast<T>(0);
    for (int64_t co = 0; co < g.cout; ++co) {
      const int64_t grp = co / cout_g;
      for (int64_t cl = 0; cl < cin_g; ++cl) {
        T* gwp = gw + (co * cin_g + cl) * k_sp;
        for (int64_t n = 0; n < g.n; ++n) {
          const T* gop = go + (n * g.cout + co) * out_sp;
          const T* inp = in + (n * g.cin + grp * cin_g + cl) * in_sp;
          for_each_tap(g, [&](int64_t oi, int64_t xi, int64_t ki) {
            gwp[ki] = static_cast<T>(static_cast<A>(gwp[ki]) +
                                     static_cast<A>(gop[oi]) * static_cast<A>(inp[xi]));
          });
        }
      }
    }
  }
  if (mask[2]) {
    for (int64_t co = 0; co < g.cout; ++co) {
      A sum = 0;
      for (int64_t n = 0; n < g.n; ++n) {
        const T* gop = go + (n * g.cout + co) * out_sp;
        for (int64_t i = 0; i < out_sp; ++i) sum += static_cast<A>(gop[i]);
      }
      gb[co] = static_cast<T>(sum);
    }
  }
}

bool expand_conv_list(KernelContext& ctx, const char* op, const char* name, IntArrayRef v,
                      int nsp, int64_t lo, int64_t* out3) {
  if (v.size() != 1 && v.size() != static_cast<size_t>(nsp)) {
    ctx.fail(Error::InvalidArgument, "%s: %s must have 1 or %d values, got %zu", op, name, nsp,
             v.size());
    return false;
  }
  for (int i = 0; i < nsp; ++i) {
    const int64_t x = v[v.size() == 1 ? 0 : i];
    if (x < lo || x > (int64_t{1} << 31)) {
      ctx.fail(Error::InvalidArgument, "%s: %s value %lld is out of range", op, name,
               static_cast<long long>(x));
      return false;
    }
    out3[3 - nsp + i] = x;
  }
  return true;
}

void convolution_backward_out(KernelContext& ctx, const Tensor& grad_output, const Tensor& input,
                              const Tensor& weight, std::optional<IntArrayRef> bias_sizes,
                              IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                              bool transposed, IntArrayRef output_padding, int64_t groups,
                              Span<const bool> output_mask, Tensor& out0, Tensor& out1,
                              Tensor& out2) {
  const char* op = "convolution_backward.out";
  EMBER_KERNEL_CHECK(ctx, output_mask.size() == 3, "%s: output_mask must have 3 values", op);
  if (transposed) {
    ctx.fail(Error::NotSupported, "%s: transposed convolution is not supported", op);
    return;
  }
  const int rank = input.dim();
  EMBER_KERNEL_CHECK(ctx, rank >= 3 && rank <= 5 && weight.dim() == rank &&
                              grad_output.dim() == rank,
                     "%s: input, weight and grad_output must all be 3-D to 5-D (batched)", op);
  const int nsp = rank - 2;
  ConvGeom g;
  g.n = input.size(0);
  g.cin = input.size(1);
  g.cout = weight.size(0);
  g.groups = groups;
  EMBER_KERNEL_CHECK(ctx, groups > 0 && g.cin % groups == 0 && g.cout % groups == 0 &&
                              weight.size(1) * groups == g.cin && g.cout > 0,
                     "%s: channels do not match weight and groups", op);
  if (!expand_conv_list(ctx, op, "stride", stride, nsp, 1, g.stride) ||
      !expand_conv_list(ctx, op, "padding", padding, nsp, 0, g.pad) ||
      !expand_conv_list(ctx, op, "dilation", dilation, nsp, 1, g.dil)) {
    return;
  }
  for (int i = 0; i < nsp; ++i) {
    g.in[3 - nsp + i] = input.size(2 + i);
    g.k[3 - nsp + i] = weight.size(2 + i);
    const int64_t span = input.size(2 + i) + 2 * g.pad[3 - nsp + i] -
                         g.dil[3 - nsp + i] * (weight.size(2 + i) - 1) - 1;
    EMBER_KERNEL_CHECK(ctx, weight.size(2 + i) > 0 && span >= 0,
                       "%s: the kernel is larger than the padded input", op);
    g.out[3 - nsp + i] = span / g.stride[3 - nsp + i] + 1;
    EMBER_KERNEL_CHECK(ctx, grad_output.size(2 + i) == g.out[3 - nsp + i],
                       "%s: grad_output dim %d is %lld, expected %lld", op, 2 + i,
                       static_cast<long long>(grad_output.size(2 + i)),
                       static_cast<long long>(g.out[3 - nsp + i]));
  }
  EMBER_KERNEL_CHECK(ctx, grad_output.size(0) == g.n && grad_output.size(1) == g.cout,
                     "%s: grad_output must be [N, C_out, ...]", op);
  if (bias_sizes.has_value() && output_mask[2]) {
    EMBER_KERNEL_CHECK(ctx, bias_sizes->size() == 1 && (*bias_sizes)[0] == g.cout,
                       "%s: bias_sizes must be [C_out]", op);
  }
  if (!nn::check_same_dtype(ctx, op, input, "input", grad_output, "grad_output") ||
      !nn::check_same_dtype(ctx, op, input, "input", weight, "weight") ||
      !check_contiguous(ctx, op, input) || !check_contiguous(ctx, op, weight) ||
      !check_contiguous(ctx, op, grad_output)) {
    return;
  }
  int64_t in_sizes[5], w_sizes[5];
  for (int d = 0; d < rank; ++d) {
    in_sizes[d] = input.size(d);
    w_sizes[d] = weight.size(d);
  }
  const int64_t b_sizes[1] = {g.cout};
  if (!prepare_grad(ctx, op, output_mask[0], input, out0, Span<const int64_t>(in_sizes, rank)) ||
      !prepare_grad(ctx, op, output_mask[1], input, out1, Span<const int64_t>(w_sizes, rank)) ||
      !prepare_grad(ctx, op, output_mask[2], input, out2, Span<const int64_t>(b_sizes, 1))) {
    return;
  }
  EMBER_SWITCH_FLOAT_TYPES(input.scalar_type(), return fail_dtype(ctx, op, input.scalar_type()),
    conv_backward<CTYPE>(g, grad_output.const_data_ptr<CTYPE>(), input.const_data_ptr<CTYPE>(),
                         weight.const_data_ptr<CTYPE>(), output_mask,
                         output_mask[0] ? out0.mutable_data_ptr<CTYPE>() : nullptr,
                         output_mask[1] ? out1.mutable_data_ptr<CTYPE>() : nullptr,
                         output_mask[2] ? out2.mutable_data_ptr<CTYPE>() : nullptr));
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::avg_pool2d_backward.grad_input", avg_pool2d_backward_grad_input, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::max_pool2d_with_indices_backward.grad_input",
                      max_pool2d_with_indices_backward_grad_input, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::_adaptive_avg_pool2d_backward.out", adaptive_avg_pool2d_backward_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::embedding_dense_backward.out", embedding_dense_backward_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::native_layer_norm_backward.out", native_layer_norm_backward_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::native_group_norm_backward.out", native_group_norm_backward_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::convolution_backward.out", convolution_backward_out, kFloatTypes);

}  // namespace ember::kernels
