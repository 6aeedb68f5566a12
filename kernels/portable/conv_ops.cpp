// aten::convolution: 1-D, 2-D and 3-D, with stride, padding, dilation, groups
// (depthwise included), optional bias, and transposed convolution with
// output_padding. Every shape is handled as 3-D (D, H, W), lower ranks having
// leading extents of 1, so there is one implementation to get right.
//
// Direct loops, built one output row strip at a time: stack accumulators hold
// up to kStrip outputs along W for a few output channels at once; for each
// (input channel, kernel tap) the valid range of outputs is computed once, and
// the innermost loop runs over contiguous input (contiguous output for
// transposed). A pointwise (1x1) convolution walks whole planes as one row.
// 16-bit types accumulate in float.
#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

constexpr const char* kOp = "convolution.out";
constexpr int64_t kStrip = 128;

struct ConvShape {
  int64_t batch = 0;
  int64_t in_c = 0;
  int64_t out_c = 0;
  int64_t groups = 1;
  // D, H, W; unused leading dims are 1 (stride 1, padding 0, dilation 1).
  int64_t in[3] = {1, 1, 1};
  int64_t out[3] = {1, 1, 1};
  int64_t k[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t pad[3] = {0, 0, 0};
  int64_t dil[3] = {1, 1, 1};

  int64_t in_plane() const { return in[0] * in[1] * in[2]; }
  int64_t out_plane() const { return out[0] * out[1] * out[2]; }
  int64_t k_volume() const { return k[0] * k[1] * k[2]; }
};

// Reads the spatial parameters into the last `n` of three slots.
bool read_params(KernelContext& ctx, int n, IntArrayRef stride, IntArrayRef padding,
                 IntArrayRef dilation, IntArrayRef output_padding, bool transposed, ConvShape* s,
                 int64_t* out_pad) {
  static const int64_t kOnes[3] = {1, 1, 1};
  static const int64_t kZeros[3] = {0, 0, 0};
  const int o = 3 - n;
  if (!nn::expand_int_list(ctx, kOp, "stride", stride, n, kOnes, s->stride + o) ||
      !nn::expand_int_list(ctx, kOp, "padding", padding, n, kZeros, s->pad + o) ||
      !nn::expand_int_list(ctx, kOp, "dilation", dilation, n, kOnes, s->dil + o) ||
      !nn::expand_int_list(ctx, kOp, "output_padding", output_padding, n, kZeros, out_pad + o)) {
    return false;
  }
  if (!nn::all_at_least(s->stride, 3, 1) || !nn::all_at_least(s->dil, 3, 1) ||
      !nn::all_at_least(s->pad, 3, 0) || !nn::all_at_least(out_pad, 3, 0)) {
    ctx.fail(Error::InvalidArgument,
             "%s: stride and dilation must be positive, padding and output_padding non-negative",
             kOp);
    return false;
  }
  // Bounded so that the output size arithmetic (a size times a stride plus
  // paddings) cannot overflow; no real convolution comes near.
  constexpr int64_t kMaxParam = int64_t{1} << 30;
  for (int i = 0; i < 3; ++i) {
    if (s->stride[i] > kMaxParam || s->pad[i] > kMaxParam || s->dil[i] > kMaxParam ||
        out_pad[i] > kMaxParam) {
      ctx.fail(Error::InvalidArgument,
               "%s: stride, padding, dilation and output_padding must be at most 2^30", kOp);
      return false;
    }
  }
  for (int i = 0; i < 3 && transposed; ++i) {
    if (out_pad[i] >= s->stride[i] && out_pad[i] >= s->dil[i]) {
      ctx.fail(Error::InvalidArgument,
               "%s: output_padding must be smaller than either stride or dilation", kOp);
      return false;
    }
  }
  return true;
}

// Validates every argument and derives the shapes; fails the kernel otherwise.
bool make_shape(KernelContext& ctx, const Tensor& input, const Tensor& weight,
                const Tensor* bias, IntArrayRef stride, IntArrayRef padding,
                IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
                int64_t groups, const Tensor& out, ConvShape* s) {
  const int rank = input.dim();
  if (rank < 3 || rank > 5 || weight.dim() != rank) {
    ctx.fail(Error::InvalidArgument, "%s: expected a 3-D, 4-D or 5-D input and a weight of the "
             "same rank, got %d-D and %d-D", kOp, rank, weight.dim());
    return false;
  }
  if (!nn::check_same_dtype(ctx, kOp, input, "input", weight, "weight") ||
      !nn::check_same_dtype(ctx, kOp, input, "input", out, "out") ||
      (bias != nullptr && !nn::check_same_dtype(ctx, kOp, input, "input", *bias, "bias")) ||
      !check_contiguous(ctx, kOp, input) || !check_contiguous(ctx, kOp, weight) ||
      !check_contiguous(ctx, kOp, out)) {
    return false;
  }
  const int n = rank - 2;
  int64_t out_pad[3] = {0, 0, 0};
  if (!read_params(ctx, n, stride, padding, dilation, output_padding, transposed, s, out_pad)) {
    return false;
  }
  if (groups < 1 || groups > (int64_t{1} << 31)) {  // a count of channels, int32 in a program
    ctx.fail(Error::InvalidArgument, "%s: groups must be in [1, 2^31], got %lld", kOp,
             static_cast<long long>(groups));
    return false;
  }
  s->groups = groups;
  s->batch = input.size(0);
  s->in_c = input.size(1);
  // Weight: [C_out, C_in/groups, k...], or [C_in, C_out/groups, k...] transposed.
  const int64_t w0 = weight.size(0);
  const int64_t w1 = weight.size(1);
  const bool channels_ok = transposed ? (w0 == s->in_c && s->in_c % groups == 0)
                                      : (w0 % groups == 0 && w1 * groups == s->in_c);
  if (!channels_ok) {
    ctx.fail(Error::InvalidArgument, "%s: weight [%lld, %lld, ...] does not fit %lld input "
             "channels in %lld groups", kOp, static_cast<long long>(w0),
             static_cast<long long>(w1), static_cast<long long>(s->in_c),
             static_cast<long long>(groups));
    return false;
  }
  s->out_c = transposed ? w1 * groups : w0;
  for (int i = 0; i < n; ++i) {
    const int slot = 3 - n + i;
    s->in[slot] = input.size(2 + i);
    s->k[slot] = weight.size(2 + i);
    if (s->k[slot] < 1) {
      ctx.fail(Error::InvalidArgument, "%s: kernel size must be positive", kOp);
      return false;
    }
    const int64_t span = s->dil[slot] * (s->k[slot] - 1) + 1;
    int64_t size = 0;
    if (transposed) {
      size = (s->in[slot] - 1) * s->stride[slot] - 2 * s->pad[slot] + span + out_pad[slot];
    } else {
      const int64_t padded = s->in[slot] + 2 * s->pad[slot];
      size = padded >= span ? (padded - span) / s->stride[slot] + 1 : 0;
    }
    if (size < 1) {
      ctx.fail(Error::InvalidArgument, "%s: spatial dim %d of size %lld is too small for the "
               "kernel (size %lld, dilation %lld, padding %lld)", kOp, i,
               static_cast<long long>(s->in[slot]), static_cast<long long>(s->k[slot]),
               static_cast<long long>(s->dil[slot]), static_cast<long long>(s->pad[slot]));
      return false;
    }
    s->out[slot] = size;
  }
  if (bias != nullptr && (bias->dim() != 1 || bias->size(0) != s->out_c)) {
    ctx.fail(Error::InvalidArgument, "%s: bias must have shape [%lld]", kOp,
             static_cast<long long>(s->out_c));
    return false;
  }
  return true;
}

// The outputs ow in [lo, hi) whose input column ow * stride + off lies in [0, width).
inline void valid_range(int64_t off, int64_t stride, int64_t width, int64_t lo, int64_t hi,
                        int64_t* first, int64_t* last) {
  const int64_t a = off >= 0 ? 0 : (-off + stride - 1) / stride;
  const int64_t b = width - 1 - off < 0 ? 0 : (width - 1 - off) / stride + 1;
  *first = a > lo ? a : lo;
  *last = b < hi ? b : hi;
}

// A 1x1 kernel with unit stride and no padding maps each input position to
// the same output position: the whole plane can then be walked as one long row.
void flatten_pointwise(ConvShape* s) {
  for (int i = 0; i < 3; ++i) {
    if (s->k[i] != 1 || s->stride[i] != 1 || s->pad[i] != 0 || s->out[i] != s->in[i]) return;
  }
  s->in[2] = s->out[2] = s->in_plane();
  s->in[0] = s->in[1] = s->out[0] = s->out[1] = 1;
}

// dst[j] += w * src[j * stride] for j in [0, n): the innermost loop. Stride 1
// gets its own loop so that the compiler can vectorize it.
template <typename T, typename Acc>
inline void axpy_row(Acc* dst, const T* src, int64_t n, int64_t stride, Acc w) {
  if (stride == 1) {
    for (int64_t j = 0; j < n; ++j) {
      dst[j] = wrapping_add(dst[j], wrapping_mul(w, static_cast<Acc>(src[j])));
    }
  } else {
    for (int64_t j = 0; j < n; ++j) {
      dst[j] = wrapping_add(dst[j], wrapping_mul(w, static_cast<Acc>(src[j * stride])));
    }
  }
}

// Output channels are computed kOcBlock at a time, so that each input row
// segment is read once from memory for all of them.
constexpr int64_t kOcBlock = 4;

// A block of output channels of one group and one batch item.
template <typename T>
struct ConvBlock {
  const T* in;    // the group's first input channel
  const T* w;     // weights of the block's first channel
  const T* bias;  // bias of the block's first channel, or null
  T* out;         // output plane of the block's first channel
  int64_t count;  // channels in the block, at most kOcBlock
};

// Outputs [ow0, ow0 + len) of row (od, oh) for every channel of the block.
template <typename T>
void conv_strip(const ConvShape& s, const ConvBlock<T>& blk, int64_t od, int64_t oh,
                int64_t ow0, int64_t len) {
  using Acc = acc_t<T>;
  Acc acc[kOcBlock][kStrip];
  for (int64_t b = 0; b < blk.count; ++b) {
    const Acc init = blk.bias != nullptr ? static_cast<Acc>(blk.bias[b]) : Acc(0);
    for (int64_t j = 0; j < len; ++j) acc[b][j] = init;
  }
  const int64_t icpg = s.in_c / s.groups;
  const int64_t w_channel = icpg * s.k_volume();
  const int64_t iw_stride = s.stride[2];
  for (int64_t ic = 0; ic < icpg; ++ic) {
    for (int64_t kd = 0; kd < s.k[0]; ++kd) {
      const int64_t id = od * s.stride[0] - s.pad[0] + kd * s.dil[0];
      if (id < 0 || id >= s.in[0]) continue;
      for (int64_t kh = 0; kh < s.k[1]; ++kh) {
        const int64_t ih = oh * s.stride[1] - s.pad[1] + kh * s.dil[1];
        if (ih < 0 || ih >= s.in[1]) continue;
        const T* in_row = blk.in + ((ic * s.in[0] + id) * s.in[1] + ih) * s.in[2];
        const T* w_row = blk.w + ((ic * s.k[0] + kd) * s.k[1] + kh) * s.k[2];
        for (int64_t kw = 0; kw < s.k[2]; ++kw) {
          const int64_t off = kw * s.dil[2] - s.pad[2];
          int64_t first = 0, last = 0;
          valid_range(off, iw_stride, s.in[2], ow0, ow0 + len, &first, &last);
          if (first >= last) continue;
          const T* src = in_row + first * iw_stride + off;
          for (int64_t b = 0; b < blk.count; ++b) {
            const Acc wv = static_cast<Acc>(w_row[b * w_channel + kw]);
            axpy_row(acc[b] + (first - ow0), src, last - first, iw_stride, wv);
          }
        }
      }
    }
  }
  const int64_t row = (od * s.out[1] + oh) * s.out[2] + ow0;
  for (int64_t b = 0; b < blk.count; ++b) {
    T* dst = blk.out + b * s.out_plane() + row;
    for (int64_t j = 0; j < len; ++j) dst[j] = static_cast<T>(acc[b][j]);
  }
}

template <typename T>
void conv_forward(const ConvShape& s, const T* in, const T* w, const T* bias, T* out) {
  const int64_t icpg = s.in_c / s.groups;
  const int64_t ocpg = s.out_c / s.groups;
  for (int64_t nb = 0; nb < s.batch; ++nb) {
    for (int64_t g = 0; g < s.groups; ++g) {
      const int64_t group_end = (g + 1) * ocpg;
      // Blocks stay within a group, whose channels all read the same inputs.
      for (int64_t oc0 = g * ocpg; oc0 < group_end; oc0 += kOcBlock) {
        const ConvBlock<T> blk{in + (nb * s.in_c + g * icpg) * s.in_plane(),
                               w + oc0 * icpg * s.k_volume(),
                               bias != nullptr ? bias + oc0 : nullptr,
                               out + (nb * s.out_c + oc0) * s.out_plane(),
                               group_end - oc0 < kOcBlock ? group_end - oc0 : kOcBlock};
        for (int64_t od = 0; od < s.out[0]; ++od) {
          for (int64_t oh = 0; oh < s.out[1]; ++oh) {
            for (int64_t ow0 = 0; ow0 < s.out[2]; ow0 += kStrip) {
              conv_strip(s, blk, od, oh, ow0, s.out[2] - ow0 < kStrip ? s.out[2] - ow0 : kStrip);
            }
          }
        }
      }
    }
  }
}

// Transposed: out[o] gathers in[i] * w[k] over all i, k with
// o = i * stride - pad + k * dilation, so only taps where (o + pad - k * dil)
// divides by the stride contribute.
inline bool source_index(int64_t o, int64_t k, int64_t stride, int64_t pad, int64_t dil,
                         int64_t size, int64_t* i) {
  const int64_t t = o + pad - k * dil;
  if (t < 0 || t % stride != 0 || t / stride >= size) return false;
  *i = t / stride;
  return true;
}

// Outputs [ow0, ow0 + len) of row (od, oh) of one output channel. `in` is the
// group's first input channel and `w` the channel's taps for its first input
// channel; the taps of the next input channel are `w_ic_stride` further on
// (weight is [C_in, C_out/groups, k...]).
template <typename T>
void conv_transposed_strip(const ConvShape& s, const T* in, const T* w, int64_t w_ic_stride,
                           acc_t<T> bias, T* out, int64_t od, int64_t oh, int64_t ow0,
                           int64_t len) {
  using Acc = acc_t<T>;
  Acc acc[kStrip];
  for (int64_t j = 0; j < len; ++j) acc[j] = bias;
  const int64_t icpg = s.in_c / s.groups;
  const int64_t IW = s.in[2], sw = s.stride[2];
  for (int64_t ic = 0; ic < icpg; ++ic) {
    for (int64_t kd = 0; kd < s.k[0]; ++kd) {
      int64_t id = 0;
      if (!source_index(od, kd, s.stride[0], s.pad[0], s.dil[0], s.in[0], &id)) continue;
      for (int64_t kh = 0; kh < s.k[1]; ++kh) {
        int64_t ih = 0;
        if (!source_index(oh, kh, s.stride[1], s.pad[1], s.dil[1], s.in[1], &ih)) continue;
        const T* in_row = in + ((ic * s.in[0] + id) * s.in[1] + ih) * IW;
        const T* w_row = w + ic * w_ic_stride + (kd * s.k[1] + kh) * s.k[2];
        for (int64_t kw = 0; kw < s.k[2]; ++kw) {
          const Acc wv = static_cast<Acc>(w_row[kw]);
          // Outputs ow with ow + off = iw * sw for a valid iw.
          const int64_t off = s.pad[2] - kw * s.dil[2];
          int64_t ow = ow0 + off < 0 ? -off : ow0;
          const int64_t rem = (ow + off) % sw;
          if (rem != 0) ow += sw - rem;
          const int64_t end_by_input = (IW - 1) * sw - off + 1;
          const int64_t end = ow0 + len < end_by_input ? ow0 + len : end_by_input;
          for (int64_t iw = (ow + off) / sw; ow < end; ow += sw, ++iw) {
            Acc& a = acc[ow - ow0];
            a = wrapping_add(a, wrapping_mul(wv, static_cast<Acc>(in_row[iw])));
          }
        }
      }
    }
  }
  T* dst = out + (od * s.out[1] + oh) * s.out[2] + ow0;
  for (int64_t j = 0; j < len; ++j) dst[j] = static_cast<T>(acc[j]);
}

template <typename T>
void conv_transposed(const ConvShape& s, const T* in, const T* w, const T* bias, T* out) {
  using Acc = acc_t<T>;
  const int64_t icpg = s.in_c / s.groups;
  const int64_t ocpg = s.out_c / s.groups;
  for (int64_t nb = 0; nb < s.batch; ++nb) {
    for (int64_t oc = 0; oc < s.out_c; ++oc) {
      const int64_t g = oc / ocpg;
      const T* in_g = in + (nb * s.in_c + g * icpg) * s.in_plane();
      const T* w_oc = w + (g * icpg * ocpg + oc % ocpg) * s.k_volume();
      T* out_c = out + (nb * s.out_c + oc) * s.out_plane();
      const Acc b = bias != nullptr ? static_cast<Acc>(bias[oc]) : Acc(0);
      for (int64_t od = 0; od < s.out[0]; ++od) {
        for (int64_t oh = 0; oh < s.out[1]; ++oh) {
          for (int64_t ow0 = 0; ow0 < s.out[2]; ow0 += kStrip) {
            conv_transposed_strip(s, in_g, w_oc, ocpg * s.k_volume(), b, out_c, od, oh, ow0,
                                  s.out[2] - ow0 < kStrip ? s.out[2] - ow0 : kStrip);
          }
        }
      }
    }
  }
}

void convolution_out(KernelContext& ctx, const Tensor& input, const Tensor& weight,
                     const Tensor* bias, IntArrayRef stride, IntArrayRef padding,
                     IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
                     int64_t groups, Tensor& out) {
  ConvShape s;
  if (!make_shape(ctx, input, weight, bias, stride, padding, dilation, transposed,
                  output_padding, groups, out, &s)) {
    return;
  }
  int64_t sizes[5] = {s.batch, s.out_c};
  const int n = input.dim() - 2;
  for (int i = 0; i < n; ++i) sizes[2 + i] = s.out[3 - n + i];
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, input.dim()), kOp)) return;
  flatten_pointwise(&s);
  EMBER_SWITCH_REAL_TYPES(input.scalar_type(), return fail_dtype(ctx, kOp, input.scalar_type()),
    const CTYPE* b = bias != nullptr ? bias->const_data_ptr<CTYPE>() : nullptr;
    if (transposed) {
      conv_transposed<CTYPE>(s, input.const_data_ptr<CTYPE>(), weight.const_data_ptr<CTYPE>(), b,
                             out.mutable_data_ptr<CTYPE>());
    } else {
      conv_forward<CTYPE>(s, input.const_data_ptr<CTYPE>(), weight.const_data_ptr<CTYPE>(), b,
                          out.mutable_data_ptr<CTYPE>());
    });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::convolution.out", convolution_out, kRealTypes);

}  // namespace ember::kernels
