// Winograd F(4x4, 3x3) and F(2x2, 3x3) transforms for AVX2 + FMA (only this file is
// compiled with -mavx2 -mfma): transforms.inc's algorithm, vectorized by the
// compiler.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-winograd/f32_winograd.h"

namespace ember::kernels::optimized {
namespace {
#include "kernels/optimized/f32-winograd/transforms.inc"
}  // namespace

extern const F32WinogradConfig kF32WinogradAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm,
    input_transform<F4x4>, output_transform<F4x4>,
    input_transform<F2x2>, output_transform<F2x2>,
};

}  // namespace ember::kernels::optimized
