// What the CPU this process runs on can do, detected once: the ISA extensions
// that decide which variant of each optimized kernel family runs.
#pragma once

#include <cstdint>

namespace ember {

// One bit per feature a kernel variant may require.
enum CpuFeature : uint32_t {
  // x86-64, as CPUID reports them. kCpuOsYmm: the OS saves the upper halves of
  // the YMM registers on a context switch (XCR0 bits 1 and 2); without it no
  // VEX-encoded code (AVX2, FMA, F16C) may run, so variants require it too.
  kCpuAvx2 = 1u << 0,
  kCpuFma = 1u << 1,
  kCpuF16c = 1u << 2,
  kCpuOsYmm = 1u << 3,
  // AVX-512 at the Skylake-server level (F, CD, DQ, BW and VL together), and
  // kCpuOsZmm: the OS saves the opmask and ZMM state (XCR0 bits 5 to 7).
  // Variants using EVEX-encoded code require both.
  kCpuAvx512 = 1u << 4,
  kCpuOsZmm = 1u << 5,
  // Integer dot products: VPDPBUSD on 512-bit registers (AVX512-VNNI) and its
  // VEX form on 256-bit ones (AVX-VNNI).
  kCpuAvx512Vnni = 1u << 6,
  kCpuAvxVnni = 1u << 7,
  // The tile matrix unit's int8 products (AMX-TILE and AMX-INT8), with the
  // OS saving the tile state (XCR0 bits 17 and 18) and, on Linux, this
  // process granted it (arch_prctl ARCH_REQ_XCOMP_PERM, asked by the
  // detection).
  kCpuAmxInt8 = 1u << 11,
  // AArch64 (HWCAP): Advanced SIMD, SDOT/UDOT, SMMLA/UMMLA.
  kCpuNeon = 1u << 8,
  kCpuDotprod = 1u << 9,
  kCpuI8mm = 1u << 10,
  // WebAssembly SIMD128. Chosen when the module is built (-msimd128): an
  // engine without it refuses the whole module, so where the code runs at
  // all, it has the feature.
  kCpuWasmSimd = 1u << 12,
};

struct CpuFeatures {
  uint32_t bits = 0;
  // Whether every feature in `mask` is present. Defined out of line: this
  // header is included by files compiled with ISA flags, which must not
  // emit copies of functions that other files share.
  bool has(uint32_t mask) const;
};

// Asks the hardware and the OS (cpuid and xgetbv on x86-64, getauxval on
// AArch64; on WebAssembly, what the module was built with); not cached,
// ignores the environment.
CpuFeatures detect_cpu_features();

// The features kernels select variants by: detect_cpu_features(), computed on
// first use, then narrowed by the environment so that tests and benchmarks
// can force a lower variant:
//   EMBER_FORCE_ISA=scalar|avx2|avx512|neon|wasmsimd  use nothing above that level
//   EMBER_CPU_FEATURES_MASK=0x...     keep only these CpuFeature bits
// Either can only remove features; neither adds one the CPU lacks.
const CpuFeatures& cpu_features();

// Applies the two variables' values (either may be null) to `detected`;
// exposed for tests.
CpuFeatures restrict_cpu_features(CpuFeatures detected, const char* force_isa,
                                  const char* features_mask);

// "avx2 fma f16c os-ymm" etc. into buf (empty string for none); returns buf.
const char* format_cpu_features(CpuFeatures features, char* buf, uint32_t size);

}  // namespace ember
