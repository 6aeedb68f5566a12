// The CPU backend's Conv2d op and its paths (pointwise GEMM, indirect GEMM,
// depthwise, Winograd, transposed blocks, padded rows).
#pragma once

#include "backends/cpu/runtime/ops/activation.h"
#include "backends/cpu/runtime/ops/op_util.h"
#include "kernels/optimized/f32-dwconv/f32_dwconv.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/f32-winograd/f32_winograd.h"

namespace ember::cpu {

using kernels::optimized::F32DwconvConfig;
using kernels::optimized::F32DwconvParams;
using kernels::optimized::F32DwconvShape;
using kernels::optimized::F32ConvShape;
using kernels::optimized::F32GemmConfig;
using kernels::optimized::F32GemmProblem;
using kernels::optimized::F32IgemmProblem;
using kernels::optimized::f32_dwconv;
using kernels::optimized::f32_dwconv_config;
using kernels::optimized::f32_dwconv_indirection;
using kernels::optimized::f32_dwconv_indirection_size;
using kernels::optimized::f32_dwconv_unpadded_input;
using kernels::optimized::f32_dwconv_pack_weights;
using kernels::optimized::f32_dwconv_packed_size;
using kernels::optimized::f32_gemm;
using kernels::optimized::f32_gemm_config;
using kernels::optimized::f32_gemm_pack_weights;
using kernels::optimized::f32_gemm_packed_weights_size;
using kernels::optimized::f32_igemm;
using kernels::optimized::f32_igemm_conv_indirection;
using kernels::optimized::f32_igemm_deconv_indirection;
using kernels::optimized::f32_igemm_indirection_size;
using kernels::optimized::F32WinogradConfig;
using kernels::optimized::F32WinogradShape;
using kernels::optimized::f32_winograd_config;
using kernels::optimized::f32_winograd_conv;
using kernels::optimized::f32_winograd_pack_weights;
using kernels::optimized::f32_winograd_packed_weights_size;
using kernels::optimized::f32_winograd_tile_for;
using kernels::optimized::f32_winograd_temp_floats;

// Conv2d geometry, in NHWC terms.
struct ConvShape {
  int64_t batch, in_c, in_h, in_w, out_c, out_h, out_w, kh, kw;
  int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w, groups;
  int64_t in_per_group() const { return in_c / groups; }
  int64_t out_per_group() const { return out_c / groups; }
  int64_t pixels() const { return batch * out_h * out_w; }
  int64_t taps() const { return kh * kw; }
  bool transposed = false;  // conv_transpose: weight [in_c, out_per_group, kh, kw]
};

class ConvOp final : public CpuOp {
 public:
  // Blocks: a transposed conv whose kernel equals its stride (U-Net's 2x2
  // stride 2), no padding or dilation: each input pixel writes its own
  // kh x kw block of outputs, one GEMM per tap over every input row.
  // Rows: a convolution of few input channels (an RGB stem), its input
  // copied into a zero-padded image so that each output pixel's taps along
  // a kernel row are one run of kw * C floats: the indirect GEMM then takes
  // kh pointers of kw * C channels each, not kh * kw pointers of C = 3.
  enum class Path { Pointwise, Indirect, Depthwise, Blocks, Winograd, Rows };

  uint32_t x, out;
  uint32_t residual = 0;  // added to the output when act.residual
  ConvShape s;
  Path path;
  OutputActivation act;
  const float* bias = nullptr;  // in the blob
  float* packed = nullptr;      // weights for the path's kernel
  size_t packed_floats = 0;
  float* zero = nullptr;        // padding taps read these zeros
  const float** indirection = nullptr;
  size_t indirection_size = 0;
  const F32GemmConfig* gemm = nullptr;
  const F32DwconvConfig* dw = nullptr;
  F32DwconvShape dw_shape{};
  const F32WinogradConfig* winograd = nullptr;
  F32WinogradShape wino_shape{};  // set with the Winograd path: its tile

  ~ConvOp() override;
  size_t temp_bytes(size_t num_threads) const override {
    (void)num_threads;
    if (path == Path::Rows) return padded_floats() * sizeof(float);
    return path == Path::Winograd ? f32_winograd_temp_floats(wino_shape) * sizeof(float) : 0;
  }
  // The Rows path's zero-padded input, channels-last.
  int64_t padded_h() const { return s.in_h + 2 * s.pad_h; }
  int64_t padded_w() const { return s.in_w + 2 * s.pad_w; }
  size_t padded_floats() const {
    return static_cast<size_t>(s.batch * padded_h() * padded_w() * s.in_c);
  }
  size_t owned_bytes() const override {
    return (packed_floats + static_cast<size_t>(s.in_c)) * sizeof(float) +
           indirection_size * sizeof(float*);
  }

  void run(const ExecState& state) const override;

  // Builds what the path needs from PyTorch's OIHW weights; false when out of memory.
  bool prepare(const float* weight);

  // The depthwise path takes a pad of zeros (TF's "same" padding of a
  // stride-2 layer: one more after than before, which ATen's symmetric
  // padding cannot say): its taps in the padding read zeros through the
  // indirection buffer, rebuilt for x.
  bool absorb_pad(uint32_t x, int64_t in_h, int64_t in_w, int64_t top, int64_t left,
                  float fill) override;

 private:
  // Copies the NHWC input into the Rows path's padded image, zeros around it.
  void pad_input(const float* in, float* padded, ThreadPool* pool) const;
};

// A Conv2d with these parameters, stage clamp and activation, reading value
// x (info x_info) and writing value out (out_info), plus value `residual`
// added to the output when it is not negative; an error when they do not fit.
Result<ConvOp*> build_conv(const BuildContext& ctx, const cpu_fb::Conv2d* params,
                           const cpu_fb::Clamp* clamp, const cpu_fb::Activation* activation,
                           uint32_t x, const ValueInfo& x_info, uint32_t out,
                           const ValueInfo& out_info, int64_t residual);

}  // namespace ember::cpu
