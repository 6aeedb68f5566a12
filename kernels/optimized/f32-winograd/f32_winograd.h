// The f32 Winograd convolution family, F(4x4, 3x3) (Lavin and Gray, 2015): a
// 3x3, stride-1, dilation-1 convolution on channels-last data computed as 36
// GEMMs between transformed 6x6 input tiles and transformed weights: 36
// multiply-adds per 4x4 outputs per channel pair instead of 144, a quarter
// of the direct (indirect-GEMM) convolution's.
//
// Per tile of 4x4 outputs: V = Bt d B (input transform, 36 channel vectors),
// M[p] = V[p] @ U[p] for each of the 36 points p (the f32-gemm family, U =
// G g Gt packed once at init), Y = At M A + bias, clamped (output
// transform). The transforms are one algorithm (transforms.inc) compiled per
// ISA (scalar.cpp, avx2.cpp, neon.cpp), their loops over channels
// vectorized by the compiler.
//
// What it costs: the transformed weights are 4x the 3x3 ones (36 vs 9 per
// channel pair; ResNet-50's packed weights grow from 103 to 142 MiB), and
// the transforms cost per tile what the GEMMs save per channel; so it pays
// on wide images with more than a few channels (f32_winograd_pays). Rounding differs from the direct convolution by a few
// ulps times the transform's growth (tested at 2e-5 relative).
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

constexpr size_t kF32WinogradTile = 4;     // outputs per tile side
constexpr size_t kF32WinogradPoints = 36;  // (4 + 3 - 1)^2 transform points

// A 3x3, stride-1, dilation-1 convolution: input [batch, height, width,
// in_c], output [batch, out_h, out_w, out_c], both channels-last and dense.
struct F32WinogradShape {
  size_t batch, height, width, in_c, out_c, pad_h, pad_w, out_h, out_w;
};

// Tiles of 4x4 outputs: batch * ceil(out_h / 4) * ceil(out_w / 4).
size_t f32_winograd_tiles(const F32WinogradShape& shape);

// Input transform of tiles [begin, end) of `tiles`: for tile t and point p,
// v[(p * tiles + t) * in_c + c] = (Bt d B)[p] over the tile's 6x6 input
// patch d (zeros outside the input).
using F32WinogradInputFn = void (*)(const F32WinogradShape& shape, const float* input, float* v,
                                    size_t tiles, size_t begin, size_t end);
// Output transform of tiles [begin, end): from m[(p * tiles + t) * out_c +
// c], output = clamp(At m A + bias) for the tile's outputs inside the image.
// bias may be null. NaN passes the clamp.
using F32WinogradOutputFn = void (*)(const F32WinogradShape& shape, const float* m,
                                     const float* bias, float clamp_min, float clamp_max,
                                     float* output, size_t tiles, size_t begin, size_t end);

struct F32WinogradConfig {
  const char* name;            // "scalar", "avx2", "neon"
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  F32WinogradInputFn input;
  F32WinogradOutputFn output;
};

// The variants compiled for this architecture, best first (tests run every
// one the CPU supports).
size_t f32_winograd_num_variants();
const F32WinogradConfig& f32_winograd_variant(size_t index);
bool f32_winograd_variant_supported(const F32WinogradConfig& config);
// The best variant cpu_features() allows, chosen on the first call.
const F32WinogradConfig& f32_winograd_config();

// Whether the Winograd path is the faster one for this shape: at least 12x12
// outputs (16 tiles), at least 8 channels each way, and transformed weights
// of at most 10 MiB (256 x 256 channels). Measured on Zen 3 against the
// indirect GEMM: 2.7x faster at 128 channels on 28x28, 2x at 256 on 14x14,
// no faster at 512 on 7x7 (4 tiles, 36 MiB of weights streamed per run).
bool f32_winograd_pays(const F32WinogradShape& shape);

// Floats of the transformed, packed weights for `gemm`'s panels.
size_t f32_winograd_packed_weights_size(const F32GemmConfig& gemm, size_t in_c, size_t out_c);
// Transforms PyTorch's [out_c, in_c, 3, 3] weights (U = G g Gt, in double)
// and packs them, point by point, into `gemm`'s panels. `scratch` holds
// in_c * out_c floats. Called once, at init.
void f32_winograd_pack_weights(const F32GemmConfig& gemm, size_t in_c, size_t out_c,
                               const float* weight, float* scratch, float* packed);

// Floats of temp memory one run needs (the transformed input and the 36
// GEMMs' results).
size_t f32_winograd_temp_floats(const F32WinogradShape& shape);
// Runs the convolution: transforms split over `pool`'s threads by tiles,
// the 36 GEMMs by points. `temp` holds f32_winograd_temp_floats floats.
// `activation` (after the clamp) runs on each tile's output rows as the
// output transform finishes them. Allocates nothing.
void f32_winograd_conv(const F32WinogradConfig& config, const F32GemmConfig& gemm,
                       const F32WinogradShape& shape, const float* input,
                       const float* packed_weights, const float* bias, float clamp_min,
                       float clamp_max, float* output, float* temp, ThreadPool* pool,
                       const F32RowActivation& activation = F32RowActivation{});

}  // namespace kernels::optimized
}  // namespace ember
