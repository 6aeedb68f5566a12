// int8 depthwise convolution for AVX-512 (Skylake-server level) without
// VNNI: 32-channel tiles, int16 tap pairs through vpmaddwd and vpaddd.
// Compiled with the AVX-512 flags for this file only.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-dwconv/avx512_tiles.h"

namespace ember::kernels::optimized {
namespace {

using namespace qs8_dwconv_avx512;

struct MaddDot {
  static __m512i add(__m512i acc, __m512i x, __m512i w) {
    return _mm512_add_epi32(acc, _mm512_madd_epi16(x, w));
  }
};

}  // namespace

extern const Qs8DwconvConfig kQs8DwconvAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm, kTile,
    Qs8DwconvLayout::S16PairsLanes, dwconv<MaddDot, 9>, dwconv<MaddDot, 25>, dwconv<MaddDot, 0>,
};

}  // namespace ember::kernels::optimized
