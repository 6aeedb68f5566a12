// The f32 Winograd convolution family, F(4x4, 3x3) and F(2x2, 3x3) (Lavin
// and Gray, 2015): a 3x3, stride-1, dilation-1 convolution on channels-last
// data computed as GEMMs between transformed input tiles and transformed
// weights, one per transform point: F(4x4) multiplies 6x6 patches (36
// points) for 4x4 outputs, 36 multiply-adds per 16 outputs per channel pair
// instead of 144; F(2x2) 4x4 patches (16 points) for 2x2 outputs, 16
// instead of 36.
//
// Per tile: V = Bt d B (input transform, a channel vector per point), M[p] =
// V[p] @ U[p] for each point p (the f32-gemm family, U = G g Gt packed once
// at init), Y = At M A + bias, clamped (output transform). The transforms are
// one algorithm (transforms.inc) compiled per ISA (scalar.cpp, avx2.cpp,
// neon.cpp; avx512.cpp writes it with intrinsics), their loops over channels
// vectorized by the compiler.
//
// What it costs: the transformed weights are 4x (F(4x4)) or 1.8x (F(2x2))
// the 3x3 ones, and the transforms cost per tile what the GEMMs save per
// channel; f32_winograd_tile_for says where each pays. Where the weights
// come from memory on every run (a network's weights past the last-level
// cache), the smaller tile's weights can cost less than its larger GEMMs.
// Rounding differs from the direct convolution by a few ulps times the
// transform's growth (tested at 2e-5 relative).
//
// Included by files compiled with ISA flags: it must define no inline
// function (see f32-gemm/f32_gemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/f32-gemm/f32_gemm.h"

namespace ember {

class ThreadPool;

namespace kernels::optimized {

// A 3x3, stride-1, dilation-1 convolution: input [batch, height, width,
// in_c], output [batch, out_h, out_w, out_c], both channels-last and dense;
// computed in tiles of tile x tile outputs, 4 (F(4x4, 3x3)) or 2 (F(2x2,
// 3x3)).
struct F32WinogradShape {
  size_t batch, height, width, in_c, out_c, pad_h, pad_w, out_h, out_w;
  size_t tile = 4;
};

// Transform points: (tile + 2)^2, 36 or 16.
size_t f32_winograd_points(const F32WinogradShape& shape);
// Tiles: batch * ceil(out_h / tile) * ceil(out_w / tile).
size_t f32_winograd_tiles(const F32WinogradShape& shape);

// Input transform of tiles [begin, end) of `tiles`: for tile t and point p,
// v[(p * tiles + t) * in_c + c] = (Bt d B)[p] over the tile's input patch d
// (tile + 2 pixels a side, zeros outside the input).
using F32WinogradInputFn = void (*)(const F32WinogradShape& shape, const float* input, float* v,
                                    size_t tiles, size_t begin, size_t end);
// Output transform of tiles [begin, end): from m[(p * tiles + t) * out_c +
// c], output = clamp(At m A + bias) for the tile's outputs inside the image.
// bias may be null. NaN passes the clamp.
using F32WinogradOutputFn = void (*)(const F32WinogradShape& shape, const float* m,
                                     const float* bias, float clamp_min, float clamp_max,
                                     float* output, size_t tiles, size_t begin, size_t end);

struct F32WinogradConfig {
  const char* name;            // "scalar", "avx2", "avx512", "neon"
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  F32WinogradInputFn input;    // F(4x4, 3x3)
  F32WinogradOutputFn output;
  F32WinogradInputFn input_2x2;  // F(2x2, 3x3)
  F32WinogradOutputFn output_2x2;
};

// The config's transforms for the shape's tile.
F32WinogradInputFn f32_winograd_input_fn(const F32WinogradConfig& config,
                                         const F32WinogradShape& shape);
F32WinogradOutputFn f32_winograd_output_fn(const F32WinogradConfig& config,
                                           const F32WinogradShape& shape);

// The variants compiled for this architecture, best first (tests run every
// one the CPU supports).
size_t f32_winograd_num_variants();
const F32WinogradConfig& f32_winograd_variant(size_t index);
bool f32_winograd_variant_supported(const F32WinogradConfig& config);
// The best variant cpu_features() allows, chosen on the first call.
const F32WinogradConfig& f32_winograd_config();

// The tile that makes Winograd the faster path for this shape (its tile
// ignored): 4, 2, or 0 where the indirect GEMM is faster. F(4x4) takes at
// least 12x12 outputs (16 tiles) with transformed weights of at most 8 MiB
// (them and the 3x3 ones of a few layers stay in a 2-core share of L3
// between runs); F(2x2) at least 6x6 outputs with at most 24 MiB, where its
// 1.8x weights from memory cost less than the indirect GEMM's 2.25x
// multiply-adds (ResNet-50's 14x14 and 7x7 layers on Sapphire Rapids); both
// at least 8 channels each way.
size_t f32_winograd_tile_for(const F32WinogradShape& shape);

// Floats of the transformed, packed weights for `gemm`'s panels.
size_t f32_winograd_packed_weights_size(const F32GemmConfig& gemm, const F32WinogradShape& shape);
// Transforms PyTorch's [out_c, in_c, 3, 3] weights (U = G g Gt, in double)
// and packs them, point by point, into `gemm`'s panels. `scratch` holds
// in_c * out_c floats. Called once, at init.
void f32_winograd_pack_weights(const F32GemmConfig& gemm, const F32WinogradShape& shape,
                               const float* weight, float* scratch, float* packed);

// Floats of temp memory one run needs (the transformed input and the
// GEMMs' results).
size_t f32_winograd_temp_floats(const F32WinogradShape& shape);
// Runs the convolution: transforms split over `pool`'s threads by tiles,
// the GEMMs by points. `temp` holds f32_winograd_temp_floats floats.
// `activation` (after the clamp) runs on each tile's output rows as the
// output transform finishes them. Allocates nothing.
void f32_winograd_conv(const F32WinogradConfig& config, const F32GemmConfig& gemm,
                       const F32WinogradShape& shape, const float* input,
                       const float* packed_weights, const float* bias, float clamp_min,
                       float clamp_max, float* output, float* temp, ThreadPool* pool,
                       const F32RowActivation& activation = F32RowActivation{});

}  // namespace kernels::optimized
}  // namespace ember
