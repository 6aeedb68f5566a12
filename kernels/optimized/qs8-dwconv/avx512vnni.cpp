// int8 depthwise convolution for AVX512-VNNI: as avx512.cpp, with each tap
// pair's multiply and add fused into one vpdpwssd. Compiled with the AVX-512
// flags plus -mavx512vnni for this file only.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-dwconv/avx512_tiles.h"

#if !defined(__AVX512VNNI__)
#error "qs8-dwconv/avx512vnni.cpp needs -mavx512vnni"
#endif

namespace ember::kernels::optimized {
namespace {

using namespace qs8_dwconv_avx512;

struct DpwssdDot {
  static __m512i add(__m512i acc, __m512i x, __m512i w) { return _mm512_dpwssd_epi32(acc, x, w); }
};

}  // namespace

extern const Qs8DwconvConfig kQs8DwconvAvx512VnniConfig = {
    "avx512vnni", kCpuAvx512Vnni | kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm, kTile,
    Qs8DwconvLayout::S16PairsLanes, dwconv<DpwssdDot, 9>, dwconv<DpwssdDot, 25>,
    dwconv<DpwssdDot, 0>,
};

}  // namespace ember::kernels::optimized
