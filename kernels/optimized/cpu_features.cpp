// CPU feature detection for kernel variant selection (see cpu_features.h).
#include "kernels/optimized/cpu_features.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#if defined(__x86_64__) && defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace ember {
namespace {

#if defined(__x86_64__) || defined(__i386__)
// XCR0 through xgetbv, written as asm so that this file needs no -mxsave.
uint64_t read_xcr0() {
  uint32_t eax = 0, edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<uint64_t>(edx) << 32) | eax;
}

// Linux hands out the 8 KiB of tile data state per process, on request:
// without it the first tile instruction faults. Asking again is harmless.
bool amx_permitted() {
#if defined(__x86_64__) && defined(__linux__)
  constexpr long kArchReqXcompPerm = 0x1023;
  constexpr long kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
#else
  return false;
#endif
}

uint32_t detect_x86() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return 0;
  uint32_t bits = 0;
  const bool avx = (ecx & (1u << 28)) != 0;
  const bool osxsave = (ecx & (1u << 27)) != 0;
  if (ecx & (1u << 12)) bits |= kCpuFma;
  if (ecx & (1u << 29)) bits |= kCpuF16c;
  // XCR0 bit 1: SSE (XMM) state, bit 2: AVX (upper YMM) state. xgetbv is only
  // valid when the OS has enabled XSAVE (OSXSAVE).
  // XCR0 bits 5-7: opmask, upper halves of ZMM0-15, ZMM16-31.
  const uint64_t xcr0 = avx && osxsave ? read_xcr0() : 0;
  if ((xcr0 & 0x6) == 0x6) bits |= kCpuOsYmm;
  if ((xcr0 & 0xE6) == 0xE6) bits |= kCpuOsZmm;
  unsigned max_leaf = __get_cpuid_max(0, nullptr);
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    if (ebx & (1u << 5)) bits |= kCpuAvx2;
    // EBX: 16 AVX512F, 17 AVX512DQ, 28 AVX512CD, 30 AVX512BW, 31 AVX512VL.
    constexpr unsigned kAvx512Skx = (1u << 16) | (1u << 17) | (1u << 28) | (1u << 30) | (1u << 31);
    if ((ebx & kAvx512Skx) == kAvx512Skx) bits |= kCpuAvx512;
    if (ecx & (1u << 11)) bits |= kCpuAvx512Vnni;
    // EDX: 24 AMX-TILE, 25 AMX-INT8; XCR0 bits 17-18: tile config and data.
    constexpr unsigned kAmxInt8 = (1u << 24) | (1u << 25);
    if ((edx & kAmxInt8) == kAmxInt8 && (xcr0 & 0x60000) == 0x60000 && amx_permitted()) {
      bits |= kCpuAmxInt8;
    }
    const unsigned subleaves = eax;
    if (subleaves >= 1) {
      __cpuid_count(7, 1, eax, ebx, ecx, edx);
      if (eax & (1u << 4)) bits |= kCpuAvxVnni;
    }
  }
  return bits;
}
#endif

#if defined(__aarch64__) && defined(__linux__)
// The kernel's HWCAP bit numbers (arch/arm64/include/uapi/asm/hwcap.h), spelt
// here because older libc headers lack the newer ones.
constexpr unsigned long kHwcapAsimd = 1ul << 1;
constexpr unsigned long kHwcapAsimddp = 1ul << 20;
constexpr unsigned long kHwcap2I8mm = 1ul << 13;

uint32_t detect_aarch64() {
  const unsigned long hwcap = getauxval(AT_HWCAP);
  const unsigned long hwcap2 = getauxval(AT_HWCAP2);
  uint32_t bits = 0;
  if (hwcap & kHwcapAsimd) bits |= kCpuNeon;
  if (hwcap & kHwcapAsimddp) bits |= kCpuDotprod;
  if (hwcap2 & kHwcap2I8mm) bits |= kCpuI8mm;
  return bits;
}
#endif

constexpr uint32_t kX86Avx2Bits = kCpuAvx2 | kCpuFma | kCpuF16c | kCpuOsYmm | kCpuAvxVnni;
constexpr uint32_t kX86Bits = kX86Avx2Bits | kCpuAvx512 | kCpuOsZmm | kCpuAvx512Vnni;

struct FeatureName {
  uint32_t bit;
  const char* name;
};
constexpr FeatureName kFeatureNames[] = {
    {kCpuAvx2, "avx2"}, {kCpuFma, "fma"},         {kCpuF16c, "f16c"}, {kCpuOsYmm, "os-ymm"},
    {kCpuAvx512, "avx512"}, {kCpuOsZmm, "os-zmm"}, {kCpuAvx512Vnni, "avx512-vnni"},
    {kCpuAvxVnni, "avx-vnni"}, {kCpuAmxInt8, "amx-int8"},
    {kCpuNeon, "neon"}, {kCpuDotprod, "dotprod"}, {kCpuI8mm, "i8mm"},
    {kCpuWasmSimd, "wasm-simd128"},
};

}  // namespace

bool CpuFeatures::has(uint32_t mask) const { return (bits & mask) == mask; }

CpuFeatures detect_cpu_features() {
  CpuFeatures f;
#if defined(__x86_64__) || defined(__i386__)
  f.bits = detect_x86();
#elif defined(__aarch64__)
#if defined(__linux__)
  f.bits = detect_aarch64();
#else
  // Advanced SIMD is part of the AArch64 base architecture.
  f.bits = kCpuNeon;
#endif
#elif defined(__wasm_simd128__)
  f.bits = kCpuWasmSimd;
#endif
  return f;
}

CpuFeatures restrict_cpu_features(CpuFeatures detected, const char* force_isa,
                                  const char* features_mask) {
  CpuFeatures f = detected;
  if (force_isa != nullptr && force_isa[0] != '\0') {
    if (std::strcmp(force_isa, "scalar") == 0) {
      f.bits = 0;
    } else if (std::strcmp(force_isa, "avx2") == 0) {
      f.bits &= kX86Avx2Bits;
    } else if (std::strcmp(force_isa, "avx512") == 0) {
      f.bits &= kX86Bits;
    } else if (std::strcmp(force_isa, "neon") == 0) {
      f.bits &= kCpuNeon;
    } else if (std::strcmp(force_isa, "wasmsimd") == 0) {
      f.bits &= kCpuWasmSimd;
    } else {
      std::fprintf(stderr,
                   "ember: EMBER_FORCE_ISA=%s is not one of scalar, avx2, avx512, neon, wasmsimd; "
                   "ignored\n", force_isa);
    }
  }
  if (features_mask != nullptr && features_mask[0] != '\0') {
    char* end = nullptr;
    const unsigned long mask = std::strtoul(features_mask, &end, 0);
    if (end != nullptr && *end == '\0') {
      f.bits &= static_cast<uint32_t>(mask);
    } else {
      std::fprintf(stderr, "ember: EMBER_CPU_FEATURES_MASK=%s is not a number; ignored\n",
                   features_mask);
    }
  }
  return f;
}

const CpuFeatures& cpu_features() {
  // A function-local static: initialized once, thread-safely, without heap.
  static const CpuFeatures features = restrict_cpu_features(
      detect_cpu_features(), std::getenv("EMBER_FORCE_ISA"), std::getenv("EMBER_CPU_FEATURES_MASK"));
  return features;
}

const char* format_cpu_features(CpuFeatures features, char* buf, uint32_t size) {
  if (size == 0) return buf;
  buf[0] = '\0';
  size_t used = 0;
  for (const FeatureName& f : kFeatureNames) {
    if (!features.has(f.bit)) continue;
    const int n = std::snprintf(buf + used, size - used, "%s%s", used == 0 ? "" : " ", f.name);
    if (n < 0 || static_cast<size_t>(n) >= size - used) break;
    used += static_cast<size_t>(n);
  }
  return buf;
}

}  // namespace ember
