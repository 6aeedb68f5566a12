// int8 depthwise convolution for AVX-VNNI: as avx2.cpp, with each tap pair's
// multiply and add fused into one vpdpwssd. Compiled with -mavx2 -mfma
// -mavxvnni for this file only.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-dwconv/avx2_tiles.h"

#if !defined(__AVXVNNI__)
#error "qs8-dwconv/avxvnni.cpp needs -mavxvnni"
#endif

namespace ember::kernels::optimized {
namespace {

using namespace qs8_dwconv_avx2;

struct DpwssdDot {
  static __m256i add(__m256i acc, __m256i x, __m256i w) {
    return _mm256_dpwssd_avx_epi32(acc, x, w);
  }
};

}  // namespace

extern const Qs8DwconvConfig kQs8DwconvAvxVnniConfig = {
    "avxvnni", kCpuAvxVnni | kCpuAvx2 | kCpuFma | kCpuOsYmm, kTile, Qs8DwconvLayout::S16Pairs,
    dwconv<DpwssdDot, 9>, dwconv<DpwssdDot, 25>, dwconv<DpwssdDot, 0>,
};

}  // namespace ember::kernels::optimized
