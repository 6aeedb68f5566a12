// The f32 GEMM family: C = alpha * (A @ B) + beta * self over row-major
// operands, with B packed into NR-wide panels and one microkernel per ISA
// (scalar.cpp, avx2.cpp, neon.cpp), the variant chosen once from the CPU.
//
// This header is included by files compiled with ISA flags (-mavx2 -mfma), so
// it must define no inline function: the linker keeps one copy of an inline
// function, and the AVX2 copy could end up called on a CPU without AVX2.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/row_activation.h"

namespace ember {

class KernelContext;

namespace kernels::optimized {

// --- microkernel interface ---

// What a microkernel does with a tile's sums S on the way to C.
enum F32GemmTileFlags : uint32_t {
  // C holds the sums of earlier K blocks: S += C.
  kF32GemmAccumulate = 1u << 0,
  // The last K block: C = alpha * S + beta * self; otherwise C = S.
  kF32GemmFinal = 1u << 1,
};

// The addmm epilogue for one tile. beta == 0 ignores self entirely, NaNs in
// it included (PyTorch's rule). self points at the tile's element (0, 0) and
// is read through the strides (in elements), 0 where it is broadcast. Last,
// the result is clamped to [clamp_min, clamp_max] (a fused relu or relu6; a
// NaN stays NaN, as torch.clamp leaves it); the defaults clamp nothing.
struct F32GemmEpilogue {
  float alpha;
  float beta;
  const float* self;
  ptrdiff_t self_row_stride;
  ptrdiff_t self_col_stride;
  float clamp_min = -__builtin_inff();
  float clamp_max = __builtin_inff();
  // Lines [prefetch, prefetch_end) the microkernel may bring into L2 as it
  // goes, spaced over its k steps (the driver hands each call a slice of the
  // weights it reads next); variants may ignore them.
  const char* prefetch = nullptr;
  const char* prefetch_end = nullptr;
};

// One micro-tile: S[i][j] = sum over p < kc of a[i * a_stride + p] * w[p * NR + j]
// for i < mr <= MR and j < nr <= NR, w a packed panel (kc rows of NR floats,
// zero past nr); then C (row stride c_stride) is written as `flags` say.
// Only mr rows of a are read and only mr x nr elements of C touched.
using F32GemmUkernelFn = void (*)(size_t mr, size_t nr, size_t kc, const float* a,
                                  size_t a_stride, const float* w, float* c, size_t c_stride,
                                  uint32_t flags, const F32GemmEpilogue* epilogue);

// Up to kF32GemvMaxRows rows of C, B read in place row after row (memory
// order): c[i][j] = alpha * sum over p < k of a[i * lda + p] * b[p * ldb + j]
// + beta * self[i][j] for i < m, j < n, self read at epilogue->self through
// its strides. For small m, where a packed panel would serve too few rows to
// pay for packing it, so B is streamed once instead.
using F32GemvUkernelFn = void (*)(size_t m, size_t n, size_t k, const float* a, size_t lda,
                                  const float* b, size_t ldb, float* c, size_t ldc,
                                  const F32GemmEpilogue* epilogue);
constexpr size_t kF32GemvMaxRows = 4;

// Indirect GEMM micro-tile (Dukhan's indirect convolution): as the GEMM
// microkernel with K = ks * kc, where row i's k-th slice of kc floats is read
// through a pointer: S[i][j] = sum over p < ks, q < kc of
// a[p * mr_stride + i][q] * w[(p * kc + q) * NR + j]. a holds mr_stride
// pointers per p (only the first mr read); `a_offset` bytes are added to
// every pointer but `zero` (padding taps point at zero, the input's
// pointers are relative to the input, wherever it lies this run). One K
// block only: C = epilogue(S), never accumulated.
using F32IgemmUkernelFn = void (*)(size_t mr, size_t nr, size_t kc, size_t ks,
                                   const float* const* a, size_t mr_stride, size_t a_offset,
                                   const float* zero, const float* w, float* c, size_t c_stride,
                                   const F32GemmEpilogue* epilogue);

// Writes an mr x nr tile of sums (row stride sums_stride) to C as `flags`
// say: the epilogue in plain C++, for N tails and the scalar variant.
void f32_gemm_store_tile(size_t mr, size_t nr, const float* sums, size_t sums_stride, float* c,
                         size_t c_stride, uint32_t flags, const F32GemmEpilogue* epilogue);

// --- variants and their blocking ---

struct F32GemmConfig {
  const char* name;            // "scalar", "avx2", "neon"
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  F32GemmUkernelFn ukernel;
  uint32_t mr;  // micro-tile rows: A rows broadcast per k
  uint32_t nr;  // micro-tile columns: the packed panel width
  // K block: a packed micro-panel (kc * nr floats) and the A slice
  // (mr * kc) share L1 while the microkernel runs.
  uint32_t kc;
  // N block: the panels a task packs at once (kc * nc floats, in L2), reused
  // by every row tile of A; at most kF32GemmMaxPackFloats together.
  uint32_t nc;
  F32GemvUkernelFn gemv;  // for m <= kF32GemvMaxRows
  F32IgemmUkernelFn igemm;  // mr x nr tiles like ukernel
};

// The largest B block a task packs, on its stack (128 KiB): kc * nc of every
// config fits, and no task needs more whatever the problem size. The driver
// holds a config's kc and nc to these bounds.
constexpr size_t kF32GemmMaxPackFloats = 32 * 1024;
// The largest A slice (mr * kc floats) a task copies into contiguous rows:
// 8 KiB, in L1 while the tile runs across the block's panels.
constexpr size_t kF32GemmMaxAPackFloats = 2 * 1024;

// The variants compiled for this architecture, best first, supported by the
// CPU or not (tests run every supported one).
size_t f32_gemm_num_variants();
const F32GemmConfig& f32_gemm_variant(size_t index);
// Whether this CPU (hardware, not the EMBER_FORCE_ISA mask) can run `config`.
bool f32_gemm_variant_supported(const F32GemmConfig& config);
// The variant kernels use: the best one cpu_features() allows, chosen on the
// first call and kept.
const F32GemmConfig& f32_gemm_config();

// --- packing ---

// Copies kc rows by nc columns of B (row stride ldb) into ceil(nc / nr)
// panels, panel_stride floats apart: panel p holds columns [p*nr, p*nr + nr)
// as kc rows of nr floats, zero past column nc.
void f32_gemm_pack_b(size_t kc, size_t nc, size_t nr, const float* b, size_t ldb, float* packed,
                     size_t panel_stride);

// --- weights packed once ---

// Floats f32_gemm_pack_weights writes for a constant B of k x n.
size_t f32_gemm_packed_weights_size(const F32GemmConfig& config, size_t k, size_t n);
// Packs a constant B (k x n, row stride ldb) once, at init, into `config`'s
// panel layout: ceil(n / nr) panels of k rows x nr floats, zero past column
// n. F32GemmProblem::packed_b and F32IgemmProblem take it; no call then packs
// B again.
void f32_gemm_pack_weights(const F32GemmConfig& config, size_t k, size_t n, const float* b,
                           size_t ldb, float* packed);

// --- the GEMM ---

// A batch of problems C[i] = alpha * (A[i] @ B[i]) + beta * self[i], A [m, k],
// B [k, n], C [m, n], rows ld* elements apart and batches *_batch_stride
// apart. C must not overlap A, B or (when beta != 0) self.
struct F32GemmProblem {
  size_t batch = 1;
  size_t m = 0;
  size_t n = 0;
  size_t k = 0;
  const float* a = nullptr;
  size_t lda = 0;
  size_t a_batch_stride = 0;
  const float* b = nullptr;
  size_t ldb = 0;
  size_t b_batch_stride = 0;
  float* c = nullptr;
  size_t ldc = 0;
  size_t c_batch_stride = 0;
  float alpha = 1.0f;
  float beta = 0.0f;
  const float* self = nullptr;  // read only when beta != 0
  ptrdiff_t self_batch_stride = 0;
  ptrdiff_t self_row_stride = 0;
  ptrdiff_t self_col_stride = 0;
  // B packed by f32_gemm_pack_weights with the same config (then b, ldb and
  // b_batch_stride are unused), or null; batch i's packed B starts
  // packed_b_batch_stride floats after batch i - 1's (0: every batch shares
  // one). Batches with their own weights in one call let the driver fetch the
  // next batch's weights while it runs the current one.
  const float* packed_b = nullptr;
  size_t packed_b_batch_stride = 0;
  // The fused clamp of the result (after alpha and beta * self).
  float clamp_min = -__builtin_inff();
  float clamp_max = __builtin_inff();
  // Applied to each finished row segment of C after the clamp (a fused
  // activation), while the tile is in cache.
  F32RowActivation activation;
};

// Runs `problem` with `config`'s microkernel. ctx may be null; otherwise its
// thread pool splits the work (a small problem stays serial) and its temp
// memory, when there is enough, holds B packed once for all threads.
// Allocates nothing on the heap.
void f32_gemm(const F32GemmConfig& config, const F32GemmProblem& problem, KernelContext* ctx);

// --- the indirect GEMM (convolution without im2col) ---

// C[m, n] = clamp(bias + sum over taps p < ks, channels q < kc of
// A_p[m][q] * B[p * kc + q][n]), row m of A_p read through a pointer. The
// indirection buffer holds, per tile of `config.mr` rows, ks groups of mr
// pointers (f32_igemm_indirection_size; those of a last partial tile's
// missing rows are never read), each relative to the input (a_offset bytes
// are added) or `zero` (kc zeros, for padding). Row i of tile t, tap p:
// indirection[(t * ks + p) * mr + i].
struct F32IgemmProblem {
  size_t m = 0;
  size_t n = 0;
  size_t kc = 0;
  size_t ks = 0;
  const float* const* indirection = nullptr;
  size_t a_offset = 0;
  const float* zero = nullptr;
  const float* packed_b = nullptr;  // f32_gemm_pack_weights of [ks * kc, n]
  const float* bias = nullptr;      // [n], or null
  float* c = nullptr;
  size_t ldc = 0;
  float clamp_min = -__builtin_inff();
  float clamp_max = __builtin_inff();
  F32RowActivation activation;  // as F32GemmProblem's
};

// Pointers an indirection buffer holds for m rows and ks taps with `config`.
size_t f32_igemm_indirection_size(const F32GemmConfig& config, size_t m, size_t ks);

// A 2-D convolution's geometry on channels-last data, for the indirection
// buffer: input [batch, in_h, in_w, C] with pixels `in_pixel_stride` floats
// apart, output [batch, out_h, out_w, ...].
struct F32ConvShape {
  size_t batch, in_h, in_w, in_pixel_stride, out_h, out_w, kh, kw;
  size_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
};

// Fills the indirection buffer of a convolution (m = batch * out_h * out_w
// rows, ks = kh * kw taps, tap p = ky * kw + kx), once, at init: each
// pointer is the byte offset of an input pixel from the input's start, or
// `zero` in the padding and for the missing rows of a last partial tile.
void f32_igemm_conv_indirection(const F32GemmConfig& config, const F32ConvShape& shape,
                                const float* zero, const float** indirection);

// The same for a transposed convolution (conv_transpose) whose stride,
// padding and dilation `shape` holds: output pixel o and tap k read input
// pixel (o + pad - k * dil) / stride where that divides evenly and lies in
// the input, else `zero`. Weights packed as for a convolution, B =
// [(ky, kx, ci), co] taken from PyTorch's [ci, co, ky, kx].
void f32_igemm_deconv_indirection(const F32GemmConfig& config, const F32ConvShape& shape,
                                  const float* zero, const float** indirection);

// Runs `problem`, rows and column blocks split over ctx's thread pool (ctx
// may be null). Allocates nothing.
void f32_igemm(const F32GemmConfig& config, const F32IgemmProblem& problem, KernelContext* ctx);

}  // namespace kernels::optimized
}  // namespace ember
