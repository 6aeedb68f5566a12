// The f32 depthwise convolution family (XNNPACK's unipass dwconv): one output
// row at a time, each output pixel's taps read through an indirection buffer
// of input pointers, channels in tiles with weights packed per tile as
// [bias, taps x tile]; one file per ISA (scalar.cpp, avx2.cpp, neon.cpp).
//
// Included by files compiled with ISA flags: it must define no inline
// function (see f32-gemm/f32_gemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/row_activation.h"

namespace ember {

class ThreadPool;

namespace kernels::optimized {

// The output clamp (a fused relu or relu6); NaN passes through. The driver
// (f32_dwconv) then applies `activation` to each output row; microkernels
// ignore it.
struct F32DwconvParams {
  float min = -__builtin_inff();
  float max = __builtin_inff();
  F32RowActivation activation;
};

// For each of `pixels` output pixels x and channel c < channels:
//   output[x * output_stride + c] = clamp(bias[c] + sum over t < taps of
//                                         in(x, t)[c] * w[t][c])
// with in(x, t) = input[x * input_stride + t], `input_offset` bytes added
// unless it is `zero` (padding: at least `channels` zeros). Bias and weights
// come from `weights` as f32_dwconv_pack_weights lays them out for `taps`.
// A kernel made for a fixed tap count ignores `taps` (it equals that count).
using F32DwconvUkernelFn = void (*)(size_t taps, size_t channels, size_t pixels,
                                    const float* const* input, size_t input_stride,
                                    size_t input_offset, const float* zero, const float* weights,
                                    float* output, size_t output_stride,
                                    const F32DwconvParams* params);

struct F32DwconvConfig {
  const char* name;            // "scalar", "avx2", "neon"
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  uint32_t channel_tile;       // channels per packed weight tile
  F32DwconvUkernelFn up9;      // exactly 9 taps (3x3), taps unrolled
  F32DwconvUkernelFn up25;     // exactly 25 taps (5x5)
  F32DwconvUkernelFn any;      // any tap count, looped
};

// The variants compiled for this architecture, best first (tests run every
// one the CPU supports).
size_t f32_dwconv_num_variants();
const F32DwconvConfig& f32_dwconv_variant(size_t index);
bool f32_dwconv_variant_supported(const F32DwconvConfig& config);
// The best variant cpu_features() allows, chosen on the first call.
const F32DwconvConfig& f32_dwconv_config();

// The microkernel of `config` for `taps` taps.
F32DwconvUkernelFn f32_dwconv_ukernel(const F32DwconvConfig& config, size_t taps);

// Floats f32_dwconv_pack_weights writes.
size_t f32_dwconv_packed_size(const F32DwconvConfig& config, size_t taps, size_t channels);
// Packs PyTorch's depthwise weights ([channels, 1, kh, kw]) and bias (null:
// zeros) per channel tile: tile_c bias floats, then the taps, each tile_c
// floats, zero past `channels`. Taps go column by column (t = kx * kh + ky),
// the order of the indirection buffer, where neighbouring output pixels
// share columns of input pointers.
void f32_dwconv_pack_weights(const F32DwconvConfig& config, size_t kh, size_t kw,
                             size_t channels, const float* weights, const float* bias,
                             float* packed);

// --- the convolution ---

// A depthwise convolution (one input and one output channel per group) on
// channels-last data: input [batch, in_h, in_w, channels], output [batch,
// out_h, out_w, channels], out_h and out_w as PyTorch's formula gives them.
struct F32DwconvShape {
  size_t batch, channels, in_h, in_w, out_h, out_w, kh, kw;
  size_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
};

// XNNPACK's indirection layout: per output row, columns of kh input
// pointers; output pixel x's taps start f32_dwconv_pixel_step pointers after
// pixel x - 1's, so with dilation 1 neighbouring pixels share the columns
// they overlap in (a third of the pointers per pixel for 3x3 stride 1).
size_t f32_dwconv_pixel_step(const F32DwconvShape& shape);
size_t f32_dwconv_row_pointers(const F32DwconvShape& shape);
// Pointers of the whole buffer: f32_dwconv_row_pointers * batch * out_h.
size_t f32_dwconv_indirection_size(const F32DwconvShape& shape);
// Fills it, once (at init): each pointer is the byte offset of an input
// pixel's channels from the input's start, or `zero` in the padding.
void f32_dwconv_indirection(const F32DwconvShape& shape, const float* zero,
                            const float** indirection);

// The shape of the same convolution reading, in place of its input, that
// input less `top` rows and `left` columns before it and any number after,
// in_h x in_w (a pad folded into the convolution: its taps there read the
// zero buffer as its own padding's do). Only the input and the padding
// before it change, so the indirection buffer keeps its size. False, and
// *unpadded untouched, when such an input does not fit in shape's.
bool f32_dwconv_unpadded_input(const F32DwconvShape& shape, int64_t in_h, int64_t in_w,
                               int64_t top, int64_t left, F32DwconvShape* unpadded);

// Runs the convolution with weights packed by f32_dwconv_pack_weights for
// `config`, output rows split over `pool` (null: serial). `zero` holds at
// least `channels` zeros. Allocates nothing.
void f32_dwconv(const F32DwconvConfig& config, const F32DwconvShape& shape,
                const float* const* indirection, const float* zero, const float* packed,
                const float* input, float* output, const F32DwconvParams& params,
                ThreadPool* pool);

}  // namespace kernels::optimized
}  // namespace ember
