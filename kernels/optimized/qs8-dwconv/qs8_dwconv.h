// The int8 depthwise convolution family (XNNPACK's qs8 unipass dwconv),
// channels-last, with per-channel requantization: the f32-dwconv design (one
// output row at a time, each pixel's taps read through an indirection buffer
// whose columns neighbouring pixels share, channel tiles with weights packed
// per tile, 3x3 and 5x5 unrolled, any other window looped); one file per ISA
// (scalar.cpp, avx2.cpp, avxvnni.cpp, avx512.cpp, avx512vnni.cpp, neon.cpp).
// One variant reads its input directly instead (avx512vnni_rows.cpp): for
// windows of at most 4 rows it interleaves the rows' bytes once per input
// column and runs vpdpbusd over 4 taps at a time.
//
// out[x][c] = clamp(round_half_even(float(acc) * scale[c]) + zero) with acc =
// bias[c] + sum over taps t of (in(x, t)[c] - a_zero) * w[t][c], exact in
// int32; padding taps point at `zero`, channels bytes of a_zero, so they add
// nothing. The x86 variants multiply int16 pairs of taps (two taps' inputs
// interleaved, vpmaddwd or VNNI's vpdpwssd), NEON widens to int16 (vmlal);
// the dot-product extension has no depthwise use (its four-byte groups run
// along one channel's taps, which channels-last data spreads apart), so NEON
// has one variant.
//
// Included by files compiled with ISA flags: defines no inline function (see
// f32-gemm/f32_gemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/f32-dwconv/f32_dwconv.h"
#include "kernels/optimized/qs8-gemm/qs8_gemm.h"

namespace ember {

class ThreadPool;

namespace kernels::optimized {

// How a variant's packed weights hold the taps of a channel tile of `tile`
// channels (the head and tail are the same for all: int32 bias - a_zero *
// sum of the taps, then the taps, then float scales, per channel):
enum class Qs8DwconvLayout : uint8_t {
  S8 = 0,      // taps x tile int8
  S16 = 1,     // taps x tile int16
  // Pairs of taps (an odd count padded with a zero tap), per pair tile
  // channels x (w[t], w[t + 1]) as int16: vpmaddwd's operand.
  S16Pairs = 2,
  // The same, with channels (and the head and tail) in the order a 512-bit
  // unpack leaves them: per 32 channels, [0-7, 16-23] then [8-15, 24-31].
  S16PairsLanes = 3,
  // Per window column kx, each channel's taps of rows 0-3 as 4 bytes (zero
  // past the window's rows): vpdpbusd's signed operand against 4 input rows'
  // bytes offset to u8 (the head subtracts (a_zero + 128) * sum instead of
  // a_zero * sum). Per 32 channels the order 4 unpacks leave them in: [0-3,
  // 16-19], [4-7, 20-23], [8-11, 24-27], [12-15, 28-31], head and tail too.
  U8RowQuads = 4,
};

// For each of `pixels` output pixels x and channel c < channels:
//   output[x * output_stride + c] = requant(acc) as above,
// in(x, t) = input[x * input_stride + t] plus `input_offset` bytes unless it
// is `zero`. Weights as qs8_dwconv_pack_weights lays them out for `taps`.
// A kernel made for a fixed tap count ignores `taps`.
using Qs8DwconvUkernelFn = void (*)(size_t taps, size_t channels, size_t pixels,
                                    const int8_t* const* input, size_t input_stride,
                                    size_t input_offset, const int8_t* zero, const void* weights,
                                    int8_t* output, size_t output_stride,
                                    const Qs8RequantParams* params);

// The f32 family's geometry (below).
using Qs8DwconvShape = F32DwconvShape;

// Output rows [row_begin, row_end) of the batch * out_h rows, read straight
// from `input` (no indirection buffer); the padding reads `zero` (channels
// bytes of a_zero).
using Qs8DwconvDirectFn = void (*)(const Qs8DwconvShape& shape, const void* weights,
                                   const int8_t* input, const int8_t* zero, size_t row_begin,
                                   size_t row_end, int8_t* output,
                                   const Qs8RequantParams* params);

struct Qs8DwconvConfig {
  const char* name;
  uint32_t required_features;
  uint32_t channel_tile;
  Qs8DwconvLayout layout;
  Qs8DwconvUkernelFn up9;   // exactly 9 taps (3x3), taps unrolled
  Qs8DwconvUkernelFn up25;  // exactly 25 taps (5x5)
  Qs8DwconvUkernelFn any;   // any tap count, looped
  // A variant with a direct kernel has no indirect ones: it runs windows of
  // at most direct_rows rows whose columns span at most direct_columns
  // input columns ((kw - 1) * dil_w + 1), at stride 1 along the row, and
  // leaves other shapes to the next variant.
  Qs8DwconvDirectFn direct = nullptr;
  uint32_t direct_rows = 0;
  uint32_t direct_columns = 0;
};

size_t qs8_dwconv_num_variants();
const Qs8DwconvConfig& qs8_dwconv_variant(size_t index);
bool qs8_dwconv_variant_supported(const Qs8DwconvConfig& config);
// Whether the variant runs convolutions of this shape (all but the direct
// ones run every shape).
bool qs8_dwconv_variant_handles(const Qs8DwconvConfig& config, const Qs8DwconvShape& shape);
// The first variant this CPU supports that handles the shape.
const Qs8DwconvConfig& qs8_dwconv_config(const Qs8DwconvShape& shape);
// Whether qs8_dwconv reads `indirection` for this variant (false: it may be
// null).
bool qs8_dwconv_uses_indirection(const Qs8DwconvConfig& config);
Qs8DwconvUkernelFn qs8_dwconv_ukernel(const Qs8DwconvConfig& config, size_t taps);

// Bytes qs8_dwconv_pack_weights writes.
size_t qs8_dwconv_packed_size(const Qs8DwconvConfig& config, size_t kh, size_t kw,
                              size_t channels);
// Packs PyTorch's depthwise weights ([channels, 1, kh, kw] int8), the int32
// bias (null: zeros), A's zero point and the per-channel requantization
// scales (a_scale * w_scale[c] / out_scale) per channel tile; taps column by
// column (t = kx * kh + ky), the indirection buffer's order. `packed` must
// be 4-byte aligned.
void qs8_dwconv_pack_weights(const Qs8DwconvConfig& config, size_t kh, size_t kw,
                             size_t channels, const int8_t* weights, const int32_t* bias,
                             int32_t a_zero, const float* scale, void* packed);

// --- the convolution ---

// The geometry is the f32 family's (input [batch, in_h, in_w, channels]
// int8, output [batch, out_h, out_w, channels]), and so is the indirection
// buffer's layout (f32_dwconv_pixel_step, f32_dwconv_row_pointers,
// f32_dwconv_indirection_size).

// Fills the indirection buffer once, at init: each pointer is the byte
// offset of an input pixel's channels from the input's start, or `zero`.
void qs8_dwconv_indirection(const Qs8DwconvShape& shape, const int8_t* zero,
                            const int8_t** indirection);

// Runs the convolution, output rows split over `pool` (null: serial), with
// a variant that handles the shape. `zero` holds `channels` bytes of a_zero.
// Allocates nothing.
void qs8_dwconv(const Qs8DwconvConfig& config, const Qs8DwconvShape& shape,
                const int8_t* const* indirection, const int8_t* zero, const void* packed,
                const int8_t* input, int8_t* output, const Qs8RequantParams& params,
                ThreadPool* pool);

}  // namespace kernels::optimized
}  // namespace ember
