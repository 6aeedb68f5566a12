// int8 depthwise convolution for AVX2 without VNNI: 16-channel tiles, int16
// tap pairs multiplied and summed by vpmaddwd, added by vpaddd. Compiled with
// -mavx2 -mfma for this file only.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-dwconv/avx2_tiles.h"

namespace ember::kernels::optimized {
namespace {

using namespace qs8_dwconv_avx2;

struct MaddDot {
  static __m256i add(__m256i acc, __m256i x, __m256i w) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(x, w));
  }
};

}  // namespace

extern const Qs8DwconvConfig kQs8DwconvAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm, kTile, Qs8DwconvLayout::S16Pairs,
    dwconv<MaddDot, 9>, dwconv<MaddDot, 25>, dwconv<MaddDot, 0>,
};

}  // namespace ember::kernels::optimized
