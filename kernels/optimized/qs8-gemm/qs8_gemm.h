// The int8 GEMM family (XNNPACK's qs8 and qd8-f32 GEMMs): C = requant(sum over
// k of (A[m][k] - a_zero) * B[k][n] + bias[n]) with A int8 row-major and B
// int8 packed once, at init, into the variant's panels; one microkernel per
// ISA (scalar.cpp, avx2.cpp, avxvnni.cpp, avx512vnni.cpp, amx.cpp, neon.cpp,
// neondot.cpp), the variant chosen once from the CPU.
//
// Two outputs:
//  - qs8 (static quantization): int8 C = clamp(round_half_even(float(acc) *
//    scale[n]) + c_zero, c_min, c_max), acc the exact int32 sum plus the int32
//    bias, scale[n] = a_scale * w_scale[n] / c_scale (computed by the caller).
//    A fused relu is a clamp (c_min = c_zero).
//  - qd8-f32 (dynamic quantization): float C = float(acc) * a_scale[m] *
//    w_scale[n] + bias[n], clamped, with a zero point and a scale per row of A
//    (per-token activations, quantized by the caller, qs8-vcvt).
// Against PyTorch's reference (dequantize -> float op -> quantize) the int8
// result is within 1 LSB: acc is exact, and the two differ only in where
// float rounding happens (one product here, the float op's sum there) and in
// the bias, which the exporter quantizes to int32 at a_scale * w_scale.
//
// Both a direct GEMM (rows of A) and an indirect one (Dukhan's indirect
// convolution: A's rows read through a buffer of input-pixel pointers, a
// convolution without im2col) share one microkernel: the driver gathers each
// row tile's rows (or taps) once into a small buffer in the variant's operand
// format (pack_a: s8, u8 = s8 + 128 for vpdpbusd's unsigned operand, or s16),
// and every panel of the tile's N block reads it there. On the VNNI variants
// the conversion then costs once per row tile instead of once per broadcast
// (an xor on the ports vpdpbusd needs), and no microkernel reads past a row of
// the input when K is not a multiple of the variant's k-group.
//
// Exactness: acc is exact in int32 for K <= 65536 (|a - a_zero| <= 255,
// |b| <= 128); qs8_gemm_supports bounds K tighter still (kQs8GemmMaxK).
//
// Included by files compiled with ISA flags: defines no inline function (see
// f32-gemm/f32_gemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/row_activation.h"

namespace ember {

class KernelContext;

namespace kernels::optimized {

// --- microkernel interface ---

// How pack_a writes A's values for a variant's microkernel: row-major rows of
// kp values (kp a multiple of the config's kr, and of kpad), one row per row
// of the tile.
enum class Qs8AFormat : uint8_t {
  S8 = 0,   // the int8 values as they are
  U8 = 1,   // value + 128 as uint8 (vpdpbusd's unsigned operand)
  S16 = 2,  // sign-extended to int16 (vpmaddwd, vmlal)
};

// Packed weights the driver wants in L2 before a later tile reads them (the
// next N block's panels, a slice per microkernel call): a layer's weights come
// from DRAM, and the first row tile over a block would otherwise wait on each
// line of it (a 7x7 layer of ResNet-50 has 5 row tiles, so that tile is a
// fifth of the work). A variant that issues prefetches fetches one line per
// k-group from `next` while it is below `end`; others ignore it.
struct Qs8WeightPrefetch {
  const uint8_t* next = nullptr;
  const uint8_t* end = nullptr;
};

// The output of the qs8 (static) microkernel: c = clamp(round(float(acc) *
// scale[j]) + zero, min, max), min <= max within [-128, 127].
struct Qs8RequantParams {
  int32_t zero = 0;
  int32_t min = -128;
  int32_t max = 127;
  Qs8WeightPrefetch prefetch;
};

// The requantization of one exact sum, in plain C++ (the scalar variants'
// and the reference the vector ones follow): round_half_even(float(acc) *
// scale) + zero, clamped; the float value is clamped first (the bounds less
// the zero point are integers, so the result is the same and the conversion
// never sees a value outside int32).
int8_t qs8_requantize(int32_t acc, float scale, const Qs8RequantParams& params);

// A panel of nr columns of B, as the pack functions lay it out (panel
// stride: qs8_gemm_panel_bytes or qd8_gemm_panel_bytes):
//   int32 head[nr]   qs8: bias[n] - (a_zero + a_shift) * colsum[n]
//                    qd8: colsum[n] = sum over k of B[k][n]
//   int8  w[kp / kr][nr][kr]   B's kp rows in k-groups of kr, zero past n and
//                    past each tap's kc rows
//   float tail[nr]   qs8: scale[n]; qd8: w_scale[n]
//   float bias[nr]   qd8 only (zero without a bias)
// A microkernel reads only columns [0, nr_cur) of what it writes.
//
// qs8 microkernel: for i < mr, j < nr: c[i * c_stride + j] =
// requant(head[j] + sum over k < kp of a[i * kp + k] * w[k][j]) where a is
// the packed A tile (mr rows of kp values in the config's a_format, value +
// a_shift for U8).
using Qs8GemmUkernelFn = void (*)(size_t mr, size_t nr, size_t kp, const void* a,
                                  const void* panel, int8_t* c, size_t c_stride,
                                  const Qs8RequantParams* params);

// The qd8-f32 output: c = clamp(float(acc) * row_scale[i] * w_scale[j] +
// bias[j], min, max) with acc = sum over k of a[i][k] * w[k][j] - (row_zero[i]
// + a_shift) * colsum[j], exact in int32.
struct Qd8F32Params {
  float min = -__builtin_inff();
  float max = __builtin_inff();
  Qs8WeightPrefetch prefetch;
};
using Qd8F32GemmUkernelFn = void (*)(size_t mr, size_t nr, size_t kp, const void* a,
                                     const void* panel, float* c, size_t c_stride,
                                     const int32_t* row_zero, const float* row_scale,
                                     const Qd8F32Params* params);

// Optional, per variant: what the driver's portable gather (pack_a) does,
// with the variant's vectors. Row i's tap p is the kc bytes at rows[p *
// tap_stride + i * row_stride] (plus a_offset unless it is `zero`), written
// in the variant's a_format at out + i * ks * kcp + p * kcp; the kcp - kc
// values past each tap may hold anything (B's rows there are zero).
using Qs8PackAFn = void (*)(size_t mr, size_t kc, size_t kcp, size_t ks,
                            const int8_t* const* rows, size_t tap_stride, size_t row_stride,
                            size_t a_offset, const int8_t* zero, void* out);

// --- variants ---

struct Qs8GemmConfig {
  const char* name;            // "scalar", "avx2", "avxvnni", "avx512vnni", "amx", "neon", ...
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  uint32_t mr;                 // rows of a tile
  uint32_t nr;                 // columns of a panel
  uint32_t kr;                 // k-group: K is padded to a multiple of it per tap
  Qs8AFormat a_format;
  int32_t a_shift;  // what a_format adds to A's values (128 for U8, else 0)
  Qs8GemmUkernelFn gemm;
  Qd8F32GemmUkernelFn gemm_qd8_f32;
  Qs8PackAFn pack_a = nullptr;  // null: the driver's portable loops
  // What K is padded to per tap when it is coarser than the k-group (AMX's
  // tiles read 64 values a row); 0: kr. B keeps its k-groups of kr.
  uint32_t kpad = 0;
};

// The variants compiled for this architecture, best first, supported by the
// CPU or not (tests run every supported one).
size_t qs8_gemm_num_variants();
const Qs8GemmConfig& qs8_gemm_variant(size_t index);
// Whether this CPU (hardware, not the EMBER_FORCE_ISA mask) can run `config`.
bool qs8_gemm_variant_supported(const Qs8GemmConfig& config);
// The best variant cpu_features() allows, chosen on the first call.
const Qs8GemmConfig& qs8_gemm_config();
// The best one for taps of kc channels (K = kc for a linear layer):
// qs8_gemm_config(), unless its K padding (kpad) would add more than a third
// to the work, then the best without one.
const Qs8GemmConfig& qs8_gemm_config_for(size_t kc);

// --- weights packed once ---

// B as the caller holds it: element (tap p < ks, channel q < kc, column
// n) at data[p * tap_stride + q * k_stride + n * n_stride]. A linear layer's
// [n, k] weight: ks = 1, k_stride = 1, n_stride = k. A convolution's [co,
// ci, kh, kw]: ks = kh * kw, kc = ci, tap_stride = 1, k_stride = kh * kw,
// n_stride = ci * kh * kw (K ordered tap-major, as the indirection buffer).
struct Qs8Weights {
  const int8_t* data = nullptr;
  size_t ks = 1;
  size_t kc = 0;
  size_t n = 0;
  ptrdiff_t tap_stride = 0;
  ptrdiff_t k_stride = 0;
  ptrdiff_t n_stride = 0;
};

// The largest K (ks * kc) the drivers take; qs8_gemm_supports says whether a
// problem's K fits once padded to the variant's k-groups.
constexpr size_t kQs8GemmMaxK = 32768;
bool qs8_gemm_supports(const Qs8GemmConfig& config, size_t ks, size_t kc);

// K padded: ks * round_up(kc, kpad or kr), the kp every call of the problem
// uses.
size_t qs8_gemm_padded_k(const Qs8GemmConfig& config, size_t ks, size_t kc);
// Bytes of one packed panel, and of the whole packed B.
size_t qs8_gemm_panel_bytes(const Qs8GemmConfig& config, size_t ks, size_t kc);
size_t qs8_gemm_packed_size(const Qs8GemmConfig& config, size_t ks, size_t kc, size_t n);
size_t qd8_gemm_panel_bytes(const Qs8GemmConfig& config, size_t ks, size_t kc);
size_t qd8_gemm_packed_size(const Qs8GemmConfig& config, size_t ks, size_t kc, size_t n);

// Packs B for the qs8 drivers: bias (int32 at a_scale * w_scale[n]; null:
// none) and A's zero point fold into the panel heads, scale[n] (the
// requantization multiplier) into their tails. `packed` must be 4-byte
// aligned (64 for the best speed).
void qs8_gemm_pack_weights(const Qs8GemmConfig& config, const Qs8Weights& weights,
                           const int32_t* bias, int32_t a_zero, const float* scale,
                           void* packed);
// Packs B for qd8_f32_gemm: w_scale[n] and bias[n] (float; null: none).
void qd8_gemm_pack_weights(const Qs8GemmConfig& config, const Qs8Weights& weights,
                           const float* w_scale, const float* bias, void* packed);

// --- the GEMMs ---

// C[m, n] (int8, rows ldc apart) from A[m, k] (rows lda apart) and B packed
// by qs8_gemm_pack_weights (ks = 1, kc = k). ctx may be null; otherwise its
// thread pool splits the work (a small problem stays serial). Allocates
// nothing. False (nothing written) when qs8_gemm_supports says no.
struct Qs8GemmProblem {
  size_t m = 0;
  size_t n = 0;
  size_t k = 0;
  const int8_t* a = nullptr;
  size_t lda = 0;
  const void* packed_w = nullptr;
  int8_t* c = nullptr;
  size_t ldc = 0;
  Qs8RequantParams requant;
  void* a_workspace = nullptr;  // optional: qs8_gemm_a_workspace_bytes
  size_t a_workspace_bytes = 0;
};
bool qs8_gemm(const Qs8GemmConfig& config, const Qs8GemmProblem& problem, KernelContext* ctx);

// Room (bytes; 0 when it would not be used) for the problems' optional
// a_workspace: where the weights span more than one N block (those that
// stay in L2 together), the driver gathers every row tile of A once into it
// rather than once per block. For an m x n product of ks taps of kc
// channels; float_output for the qd8 GEMM. With less room than this, or a
// split over threads that narrows the blocks of a problem that has one, it
// gathers per block as without.
size_t qs8_gemm_a_workspace_bytes(const Qs8GemmConfig& config, size_t m, size_t n, size_t ks,
                                  size_t kc, bool float_output);

// The dynamic form: float C from A with a zero point and a scale per row
// (a_zero[m], a_scale[m]) and B packed by qd8_gemm_pack_weights.
struct Qd8F32GemmProblem {
  size_t m = 0;
  size_t n = 0;
  size_t k = 0;
  const int8_t* a = nullptr;
  size_t lda = 0;
  const int32_t* a_zero = nullptr;
  const float* a_scale = nullptr;
  const void* packed_w = nullptr;
  float* c = nullptr;
  size_t ldc = 0;
  Qd8F32Params params;
  // Applied to each tile's rows of C as it is finished, after the clamp in
  // params (which a caller with an activation leaves open and applies itself).
  F32RowActivation activation;
  void* a_workspace = nullptr;  // optional: qs8_gemm_a_workspace_bytes
  size_t a_workspace_bytes = 0;
};
bool qd8_f32_gemm(const Qs8GemmConfig& config, const Qd8F32GemmProblem& problem,
                  KernelContext* ctx);

// --- the indirect GEMM (int8 convolution without im2col) ---

// C[m, n] = requant(bias + sum over taps p < ks, channels q < kc of
// (A_p[m][q] - a_zero) * B[p * kc + q][n]), row m of A_p read through the
// pointer indirection[m * ks + p]: the byte offset of an input pixel from the
// input's start (a_offset, the input's address this run, is added) or
// `zero`, kc bytes of a_zero (padding; not offset). B packed by
// qs8_gemm_pack_weights with ks taps.
struct Qs8IgemmProblem {
  size_t m = 0;
  size_t n = 0;
  size_t kc = 0;
  size_t ks = 0;
  const int8_t* const* indirection = nullptr;
  size_t a_offset = 0;
  const int8_t* zero = nullptr;
  const void* packed_w = nullptr;
  int8_t* c = nullptr;
  size_t ldc = 0;
  Qs8RequantParams requant;
  void* a_workspace = nullptr;  // optional: qs8_gemm_a_workspace_bytes
  size_t a_workspace_bytes = 0;
};
bool qs8_igemm(const Qs8GemmConfig& config, const Qs8IgemmProblem& problem, KernelContext* ctx);

// A 2-D convolution's geometry on channels-last int8 data: input [batch,
// in_h, in_w, ...] with pixels in_pixel_stride bytes apart, output [batch,
// out_h, out_w, ...].
struct Qs8ConvShape {
  size_t batch, in_h, in_w, in_pixel_stride, out_h, out_w, kh, kw;
  size_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
};

// Pointers of a convolution's indirection buffer: m * ks, m = batch * out_h
// * out_w, ks = kh * kw (the same for every variant).
size_t qs8_igemm_indirection_size(const Qs8ConvShape& shape);
// Fills it once, at init: indirection[m * ks + ky * kw + kx] is the byte
// offset of the input pixel output pixel m reads at tap (ky, kx), or `zero`
// in the padding.
void qs8_igemm_conv_indirection(const Qs8ConvShape& shape, const int8_t* zero,
                                const int8_t** indirection);

}  // namespace kernels::optimized
}  // namespace ember
