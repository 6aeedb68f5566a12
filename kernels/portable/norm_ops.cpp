// Normalizations: batch norm (inference, training, and training without
// running stats), layer norm and group norm, with the auxiliary outputs
// (mean, inverse std) in the shapes PyTorch gives them. Statistics use two
// passes (mean, then squared deviations) in float (double for Double).
#include <cmath>

#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// Per-channel parameters and statistics may be of any float dtype (PyTorch
// keeps float running stats for half models); they are read once per channel.
double read_param(const Tensor& t, int64_t i) {
  EMBER_SWITCH_FLOAT_TYPES(t.scalar_type(), return 0.0,
                           return static_cast<double>(t.const_data_ptr<CTYPE>()[i]));
  return 0.0;
}

double read_param(const Tensor* t, int64_t i, double absent) {
  return t != nullptr ? read_param(*t, i) : absent;
}

void write_param(Tensor& t, int64_t i, double v) {
  EMBER_SWITCH_FLOAT_TYPES(t.scalar_type(), return,
                           t.mutable_data_ptr<CTYPE>()[i] = static_cast<CTYPE>(v));
}

// A float tensor of `n` elements, or absent when `optional`.
bool check_param(KernelContext& ctx, const char* op, const Tensor* t, const char* name,
                 int64_t n) {
  if (t == nullptr) return true;
  if (!is_floating_type(t->scalar_type())) {
    fail_dtype(ctx, op, t->scalar_type());
    return false;
  }
  if (t->numel() != n) {
    ctx.fail(Error::InvalidArgument, "%s: %s has %lld elements, expected %lld", op, name,
             static_cast<long long>(t->numel()), static_cast<long long>(n));
    return false;
  }
  return true;
}

bool check_stat_output(KernelContext& ctx, const char* op, Tensor& t, Span<const int64_t> sizes) {
  if (!is_floating_type(t.scalar_type())) {
    fail_dtype(ctx, op, t.scalar_type());
    return false;
  }
  return resize_output(ctx, t, sizes, op);
}

// The main input and output: a contiguous float tensor and an output of the
// same dtype resized to its shape.
bool check_input_output(KernelContext& ctx, const char* op, const Tensor& in, Tensor& out) {
  if (!is_floating_type(in.scalar_type())) {
    fail_dtype(ctx, op, in.scalar_type());
    return false;
  }
  return nn::check_same_dtype(ctx, op, in, "input", out, "out") &&
         check_contiguous(ctx, op, in) && check_contiguous(ctx, op, out) &&
         resize_output(ctx, out, in.sizes(), op);
}

// Mean and biased variance of n values of T at data[0], data[stride], ...
template <typename T>
void moments(const T* data, int64_t n, int64_t stride, acc_t<T>* mean, acc_t<T>* var) {
  using Acc = acc_t<T>;
  Acc sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += static_cast<Acc>(data[i * stride]);
  const Acc m = sum / static_cast<Acc>(n);
  Acc ssd = 0;
  for (int64_t i = 0; i < n; ++i) {
    const Acc d = static_cast<Acc>(data[i * stride]) - m;
    ssd += d * d;
  }
  *mean = m;
  *var = ssd / static_cast<Acc>(n);
}

// out = x * scale + shift over n contiguous elements.
template <typename T>
void affine(const T* x, T* out, int64_t n, acc_t<T> scale, acc_t<T> shift) {
  for (int64_t i = 0; i < n; ++i) {
    out[i] = static_cast<T>(static_cast<acc_t<T>>(x[i]) * scale + shift);
  }
}

// ---------------------------------------------------------------------------
// Batch norm over [N, C, *]: statistics per channel C.

struct BatchNormShape {
  int64_t n = 0;
  int64_t c = 0;
  int64_t inner = 1;  // product of the dims after C
};

bool batch_norm_shape(KernelContext& ctx, const char* op, const Tensor& in, BatchNormShape* s) {
  if (in.dim() < 2) {
    ctx.fail(Error::InvalidArgument, "%s: expected an input of rank >= 2, got %d", op, in.dim());
    return false;
  }
  s->n = in.size(0);
  s->c = in.size(1);
  for (int d = 2; d < in.dim(); ++d) s->inner *= in.size(d);
  return true;
}

// Normalizes channel c of every sample: y = (x - mean) * invstd * weight + bias,
// folded into one multiply-add per element.
template <typename T>
void normalize_channel(const BatchNormShape& s, const T* x, T* y, int64_t c, double mean,
                       double invstd, const Tensor* weight, const Tensor* bias) {
  using Acc = acc_t<T>;
  const double scale = read_param(weight, c, 1.0) * invstd;
  const double shift = read_param(bias, c, 0.0) - mean * scale;
  for (int64_t b = 0; b < s.n; ++b) {
    const int64_t off = (b * s.c + c) * s.inner;
    affine(x + off, y + off, s.inner, static_cast<Acc>(scale), static_cast<Acc>(shift));
  }
}

template <typename T>
void batch_norm_eval(const BatchNormShape& s, const Tensor& in, const Tensor* weight,
                     const Tensor* bias, const Tensor& running_mean, const Tensor& running_var,
                     double eps, Tensor& out) {
  for (int64_t c = 0; c < s.c; ++c) {
    const double invstd = 1.0 / std::sqrt(read_param(running_var, c) + eps);
    normalize_channel(s, in.const_data_ptr<T>(), out.mutable_data_ptr<T>(), c,
                      read_param(running_mean, c), invstd, weight, bias);
  }
}

// Shared by the inference forms: normalize with running stats; the saved
// statistics are empty, as PyTorch returns them.
void batch_norm_inference(KernelContext& ctx, const char* op, const Tensor& in,
                          const Tensor* weight, const Tensor* bias, const Tensor& running_mean,
                          const Tensor& running_var, double eps, Tensor& out, Tensor& save_mean,
                          Tensor& save_invstd) {
  BatchNormShape s;
  if (!batch_norm_shape(ctx, op, in, &s) || !check_param(ctx, op, weight, "weight", s.c) ||
      !check_param(ctx, op, bias, "bias", s.c) ||
      !check_param(ctx, op, &running_mean, "running_mean", s.c) ||
      !check_param(ctx, op, &running_var, "running_var", s.c) ||
      !check_input_output(ctx, op, in, out)) {
    return;
  }
  const int64_t empty[] = {0};
  if (!resize_output(ctx, save_mean, Span<const int64_t>(empty, 1), op) ||
      !resize_output(ctx, save_invstd, Span<const int64_t>(empty, 1), op)) {
    return;
  }
  EMBER_SWITCH_FLOAT_TYPES(in.scalar_type(), return fail_dtype(ctx, op, in.scalar_type()),
    batch_norm_eval<CTYPE>(s, in, weight, bias, running_mean, running_var, eps, out));
}

// Training: batch statistics, saved per channel, and optionally folded into
// the running stats (with the unbiased variance, as PyTorch does).
template <typename T>
void batch_norm_train(const BatchNormShape& s, const Tensor& in, const Tensor* weight,
                      const Tensor* bias, Tensor* running_mean, Tensor* running_var,
                      double momentum, double eps, Tensor& out, Tensor& save_mean,
                      Tensor& save_invstd) {
  using Acc = acc_t<T>;
  const T* x = in.const_data_ptr<T>();
  const int64_t count = s.n * s.inner;
  for (int64_t c = 0; c < s.c; ++c) {
    Acc sum = 0;
    for (int64_t b = 0; b < s.n; ++b) {
      const T* p = x + (b * s.c + c) * s.inner;
      for (int64_t i = 0; i < s.inner; ++i) sum += static_cast<Acc>(p[i]);
    }
    const Acc mean = sum / static_cast<Acc>(count);
    Acc ssd = 0;
    for (int64_t b = 0; b < s.n; ++b) {
      const T* p = x + (b * s.c + c) * s.inner;
      for (int64_t i = 0; i < s.inner; ++i) {
        const Acc d = static_cast<Acc>(p[i]) - mean;
        ssd += d * d;
      }
    }
    const double var = static_cast<double>(ssd) / static_cast<double>(count);
    const double invstd = 1.0 / std::sqrt(var + eps);
    write_param(save_mean, c, static_cast<double>(mean));
    write_param(save_invstd, c, invstd);
    if (running_mean != nullptr) {
      const double batch_mean = static_cast<double>(mean);
      const double unbiased = static_cast<double>(ssd) / static_cast<double>(count - 1);
      write_param(*running_mean, c,
                  (1 - momentum) * read_param(*running_mean, c) + momentum * batch_mean);
      write_param(*running_var, c,
                  (1 - momentum) * read_param(*running_var, c) + momentum * unbiased);
    }
    normalize_channel(s, x, out.mutable_data_ptr<T>(), c, static_cast<double>(mean), invstd,
                      weight, bias);
  }
}

void batch_norm_training(KernelContext& ctx, const char* op, const Tensor& in,
                         const Tensor* weight, const Tensor* bias, Tensor* running_mean,
                         Tensor* running_var, double momentum, double eps, Tensor& out,
                         Tensor& save_mean, Tensor& save_invstd) {
  BatchNormShape s;
  if (!batch_norm_shape(ctx, op, in, &s) || !check_param(ctx, op, weight, "weight", s.c) ||
      !check_param(ctx, op, bias, "bias", s.c) ||
      !check_param(ctx, op, running_mean, "running_mean", s.c) ||
      !check_param(ctx, op, running_var, "running_var", s.c) ||
      !check_input_output(ctx, op, in, out)) {
    return;
  }
  const int64_t channels[] = {s.c};
  if (!check_stat_output(ctx, op, save_mean, Span<const int64_t>(channels, 1)) ||
      !check_stat_output(ctx, op, save_invstd, Span<const int64_t>(channels, 1))) {
    return;
  }
  EMBER_SWITCH_FLOAT_TYPES(in.scalar_type(), return fail_dtype(ctx, op, in.scalar_type()),
    batch_norm_train<CTYPE>(s, in, weight, bias, running_mean, running_var, momentum, eps, out,
                            save_mean, save_invstd));
}

void batch_norm_no_training_out(KernelContext& ctx, const Tensor& input, const Tensor* weight,
                                const Tensor* bias, const Tensor& running_mean,
                                const Tensor& running_var, double momentum, double eps,
                                Tensor& out0, Tensor& out1, Tensor& out2) {
  batch_norm_inference(ctx, "_native_batch_norm_legit_no_training.out", input, weight, bias,
                       running_mean, running_var, eps, out0, out1, out2);
}

void batch_norm_legit_out(KernelContext& ctx, const Tensor& input, const Tensor* weight,
                          const Tensor* bias, Tensor& running_mean, Tensor& running_var,
                          bool training, double momentum, double eps, Tensor& out,
                          Tensor& save_mean, Tensor& save_invstd) {
  const char* op = "_native_batch_norm_legit.out";
  if (!training) {
    batch_norm_inference(ctx, op, input, weight, bias, running_mean, running_var, eps, out,
                         save_mean, save_invstd);
    return;
  }
  batch_norm_training(ctx, op, input, weight, bias, &running_mean, &running_var, momentum, eps,
                      out, save_mean, save_invstd);
}

void batch_norm_no_stats_out(KernelContext& ctx, const Tensor& input, const Tensor* weight,
                             const Tensor* bias, bool training, double momentum, double eps,
                             Tensor& out, Tensor& save_mean, Tensor& save_invstd) {
  const char* op = "_native_batch_norm_legit.no_stats_out";
  // Without running stats there is nothing to normalize with outside training.
  EMBER_KERNEL_CHECK(ctx, training, "%s: needs training=True (there are no running stats)", op);
  batch_norm_training(ctx, op, input, weight, bias, nullptr, nullptr, momentum, eps, out,
                      save_mean, save_invstd);
}

// ---------------------------------------------------------------------------
// Layer norm over the trailing dims given by normalized_shape. mean and rstd
// keep the leading dims and have size 1 in the normalized ones.

template <typename T>
void layer_norm(const Tensor& in, int64_t rows, int64_t n, const Tensor* weight,
                const Tensor* bias, double eps, Tensor& out, Tensor& mean_out,
                Tensor& rstd_out) {
  using Acc = acc_t<T>;
  const T* x = in.const_data_ptr<T>();
  T* y = out.mutable_data_ptr<T>();
  const T* w = weight != nullptr ? weight->const_data_ptr<T>() : nullptr;
  const T* b = bias != nullptr ? bias->const_data_ptr<T>() : nullptr;
  for (int64_t r = 0; r < rows; ++r) {
    const T* xr = x + r * n;
    T* yr = y + r * n;
    Acc mean = 0, var = 0;
    if (n > 0) {
      moments(xr, n, 1, &mean, &var);
    } else {
      var = static_cast<Acc>(NAN);  // PyTorch reports mean 0, rstd NaN here
    }
    const Acc rstd = Acc(1) / std::sqrt(var + static_cast<Acc>(eps));
    write_param(mean_out, r, static_cast<double>(mean));
    write_param(rstd_out, r, static_cast<double>(rstd));
    for (int64_t i = 0; i < n; ++i) {
      Acc v = (static_cast<Acc>(xr[i]) - mean) * rstd;
      if (w != nullptr) v *= static_cast<Acc>(w[i]);
      if (b != nullptr) v += static_cast<Acc>(b[i]);
      yr[i] = static_cast<T>(v);
    }
  }
}

void layer_norm_out(KernelContext& ctx, const Tensor& input, IntArrayRef normalized_shape,
                    const Tensor* weight, const Tensor* bias, double eps, Tensor& out0,
                    Tensor& out1, Tensor& out2) {
  const char* op = "native_layer_norm.out";
  const int k = static_cast<int>(normalized_shape.size());
  EMBER_KERNEL_CHECK(ctx, k >= 1 && k <= input.dim(),
                     "%s: normalized_shape has %d dims, input has %d", op, k, input.dim());
  const int lead = input.dim() - k;
  int64_t rows = 1, n = 1;
  int64_t stat_sizes[kTensorDimensionLimit];
  for (int d = 0; d < input.dim(); ++d) {
    if (d < lead) {
      rows *= input.size(d);
      stat_sizes[d] = input.size(d);
    } else {
      EMBER_KERNEL_CHECK(ctx, input.size(d) == normalized_shape[d - lead],
                         "%s: input dim %d has size %lld but normalized_shape says %lld", op, d,
                         static_cast<long long>(input.size(d)),
                         static_cast<long long>(normalized_shape[d - lead]));
      n *= input.size(d);
      stat_sizes[d] = 1;
    }
  }
  // weight and bias are read elementwise, so they must match the input's dtype.
  if ((weight != nullptr && !nn::check_same_dtype(ctx, op, input, "input", *weight, "weight")) ||
      (bias != nullptr && !nn::check_same_dtype(ctx, op, input, "input", *bias, "bias")) ||
      !check_param(ctx, op, weight, "weight", n) || !check_param(ctx, op, bias, "bias", n) ||
      (weight != nullptr && !check_contiguous(ctx, op, *weight)) ||
      (bias != nullptr && !check_contiguous(ctx, op, *bias)) ||
      !check_input_output(ctx, op, input, out0)) {
    return;
  }
  const Span<const int64_t> stats(stat_sizes, input.dim());
  if (!check_stat_output(ctx, op, out1, stats) || !check_stat_output(ctx, op, out2, stats)) {
    return;
  }
  EMBER_SWITCH_FLOAT_TYPES(input.scalar_type(), return fail_dtype(ctx, op, input.scalar_type()),
    layer_norm<CTYPE>(input, rows, n, weight, bias, eps, out0, out1, out2));
}

// ---------------------------------------------------------------------------
// Group norm over [N, C, *]: statistics per (sample, group of C / group
// channels); mean and rstd are [N, group].

template <typename T>
void group_norm(const Tensor& in, int64_t batch, int64_t channels, int64_t hxw, int64_t groups,
                const Tensor* weight, const Tensor* bias, double eps, Tensor& out,
                Tensor& mean_out, Tensor& rstd_out) {
  using Acc = acc_t<T>;
  const T* x = in.const_data_ptr<T>();
  T* y = out.mutable_data_ptr<T>();
  const int64_t cpg = channels / groups;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t off = (b * channels + g * cpg) * hxw;
      Acc mean = 0, var = 0;
      moments(x + off, cpg * hxw, 1, &mean, &var);
      const double rstd = 1.0 / std::sqrt(static_cast<double>(var) + eps);
      write_param(mean_out, b * groups + g, static_cast<double>(mean));
      write_param(rstd_out, b * groups + g, rstd);
      for (int64_t ci = 0; ci < cpg; ++ci) {
        const int64_t c = g * cpg + ci;
        const double scale = read_param(weight, c, 1.0) * rstd;
        const double shift = read_param(bias, c, 0.0) - static_cast<double>(mean) * scale;
        affine(x + off + ci * hxw, y + off + ci * hxw, hxw, static_cast<Acc>(scale),
               static_cast<Acc>(shift));
      }
    }
  }
}

void group_norm_out(KernelContext& ctx, const Tensor& input, const Tensor* weight,
                    const Tensor* bias, int64_t N, int64_t C, int64_t HxW, int64_t group,
                    double eps, Tensor& out0, Tensor& out1, Tensor& out2) {
  const char* op = "native_group_norm.out";
  int64_t spatial = 1;
  for (int d = 2; d < input.dim(); ++d) spatial *= input.size(d);
  EMBER_KERNEL_CHECK(ctx, input.dim() >= 2 && input.size(0) == N && input.size(1) == C &&
                              spatial == HxW,
                     "%s: input does not have shape [N=%lld, C=%lld, HxW=%lld]", op,
                     static_cast<long long>(N), static_cast<long long>(C),
                     static_cast<long long>(HxW));
  EMBER_KERNEL_CHECK(ctx, group >= 1 && C % group == 0,
                     "%s: %lld channels do not split into %lld groups", op,
                     static_cast<long long>(C), static_cast<long long>(group));
  if (!check_param(ctx, op, weight, "weight", C) || !check_param(ctx, op, bias, "bias", C) ||
      !check_input_output(ctx, op, input, out0)) {
    return;
  }
  const int64_t stat_sizes[] = {N, group};
  if (!check_stat_output(ctx, op, out1, stat_sizes) ||
      !check_stat_output(ctx, op, out2, stat_sizes)) {
    return;
  }
  EMBER_SWITCH_FLOAT_TYPES(input.scalar_type(), return fail_dtype(ctx, op, input.scalar_type()),
    group_norm<CTYPE>(input, N, C, HxW, group, weight, bias, eps, out0, out1, out2));
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_native_batch_norm_legit_no_training.out", batch_norm_no_training_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::_native_batch_norm_legit.out", batch_norm_legit_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::_native_batch_norm_legit.no_stats_out", batch_norm_no_stats_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::native_layer_norm.out", layer_norm_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::native_group_norm.out", group_norm_out, kFloatTypes);

}  // namespace ember::kernels
