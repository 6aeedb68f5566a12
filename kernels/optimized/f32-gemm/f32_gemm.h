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
// is read through the strides (in elements), 0 where it is broadcast.
struct F32GemmEpilogue {
  float alpha;
  float beta;
  const float* self;
  ptrdiff_t self_row_stride;
  ptrdiff_t self_col_stride;
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
};

// Runs `problem` with `config`'s microkernel. ctx may be null; otherwise its
// thread pool splits the work (a small problem stays serial) and its temp
// memory, when there is enough, holds B packed once for all threads.
// Allocates nothing on the heap.
void f32_gemm(const F32GemmConfig& config, const F32GemmProblem& problem, KernelContext* ctx);

}  // namespace kernels::optimized
}  // namespace ember
