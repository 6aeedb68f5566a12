// ember_gemm_bench: GFLOP/s of every f32 GEMM variant this CPU supports, at 1
// and 2 threads, against the portable kernel and against this CPU's FMA peak
// measured in the same run, and (when CMake found it, EMBER_HAVE_OPENBLAS)
// against OpenBLAS's cblas_sgemm at the same thread count. Not a test: run it by
// hand (bench/README.md).
//
//   ember_gemm_bench [--seconds S] [--sizes MxNxK,MxNxK,...] [--threads 1,2] [--temp]
//                    [--packed] [--cold] [--median]
//   ember_gemm_bench --simd128-floor   (x86: the WebAssembly floor, below)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench/aligned_buffer.h"
#include "extension/threadpool/worker_pool.h"
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/portable/matmul_ops.h"
#include "runtime/executor/memory_allocator.h"
#include "runtime/kernel/kernel_context.h"

#if defined(EMBER_HAVE_OPENBLAS)
#include <cblas.h>  // OpenBLAS's: declares openblas_set_num_threads
#endif

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace ember {
namespace {

using kernels::optimized::F32GemmConfig;
using kernels::optimized::F32GemmProblem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// --- FMA peak: independent FMA chains, more than latency x pipes, so the
// FMA units never wait; flops counted as 2 per lane per FMA. ---

#if defined(__x86_64__)
// Twelve accumulators as named variables (an array would live in memory), an
// empty asm after each round so the compiler keeps every FMA.
__attribute__((target("avx2,fma"))) double fma_peak_run_avx2(long iters) {
  __m256 c0 = _mm256_set1_ps(0.0f), c1 = _mm256_set1_ps(0.1f), c2 = _mm256_set1_ps(0.2f),
         c3 = _mm256_set1_ps(0.3f), c4 = _mm256_set1_ps(0.4f), c5 = _mm256_set1_ps(0.5f),
         c6 = _mm256_set1_ps(0.6f), c7 = _mm256_set1_ps(0.7f), c8 = _mm256_set1_ps(0.8f),
         c9 = _mm256_set1_ps(0.9f), c10 = _mm256_set1_ps(1.0f), c11 = _mm256_set1_ps(1.1f);
  const __m256 x = _mm256_set1_ps(0.999999f);
  const __m256 y = _mm256_set1_ps(1e-7f);
  const auto t0 = Clock::now();
  for (long it = 0; it < iters; ++it) {
    c0 = _mm256_fmadd_ps(c0, x, y);
    c1 = _mm256_fmadd_ps(c1, x, y);
    c2 = _mm256_fmadd_ps(c2, x, y);
    c3 = _mm256_fmadd_ps(c3, x, y);
    c4 = _mm256_fmadd_ps(c4, x, y);
    c5 = _mm256_fmadd_ps(c5, x, y);
    c6 = _mm256_fmadd_ps(c6, x, y);
    c7 = _mm256_fmadd_ps(c7, x, y);
    c8 = _mm256_fmadd_ps(c8, x, y);
    c9 = _mm256_fmadd_ps(c9, x, y);
    c10 = _mm256_fmadd_ps(c10, x, y);
    c11 = _mm256_fmadd_ps(c11, x, y);
    __asm__ volatile("" : "+x"(c0), "+x"(c1), "+x"(c2), "+x"(c3), "+x"(c4), "+x"(c5), "+x"(c6),
                     "+x"(c7), "+x"(c8), "+x"(c9), "+x"(c10), "+x"(c11));
  }
  const double s = seconds_since(t0);
  __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0, c1), _mm256_add_ps(c2, c3)),
                             _mm256_add_ps(_mm256_add_ps(c4, c5), _mm256_add_ps(c6, c7)));
  sum = _mm256_add_ps(sum, _mm256_add_ps(_mm256_add_ps(c8, c9), _mm256_add_ps(c10, c11)));
  float sink[8];
  _mm256_storeu_ps(sink, sum);
  if (sink[0] == 12345.0f) std::printf(" ");
  return static_cast<double>(iters) * 12 * 8 * 2 / s / 1e9;
}
// The same with 16 lanes: the peak of a CPU with AVX-512 is that of its widest FMA.
__attribute__((target("avx512f,fma"))) double fma_peak_run_avx512(long iters) {
  __m512 c0 = _mm512_set1_ps(0.0f), c1 = _mm512_set1_ps(0.1f), c2 = _mm512_set1_ps(0.2f),
         c3 = _mm512_set1_ps(0.3f), c4 = _mm512_set1_ps(0.4f), c5 = _mm512_set1_ps(0.5f),
         c6 = _mm512_set1_ps(0.6f), c7 = _mm512_set1_ps(0.7f), c8 = _mm512_set1_ps(0.8f),
         c9 = _mm512_set1_ps(0.9f), c10 = _mm512_set1_ps(1.0f), c11 = _mm512_set1_ps(1.1f);
  const __m512 x = _mm512_set1_ps(0.999999f);
  const __m512 y = _mm512_set1_ps(1e-7f);
  const auto t0 = Clock::now();
  for (long it = 0; it < iters; ++it) {
    c0 = _mm512_fmadd_ps(c0, x, y);
    c1 = _mm512_fmadd_ps(c1, x, y);
    c2 = _mm512_fmadd_ps(c2, x, y);
    c3 = _mm512_fmadd_ps(c3, x, y);
    c4 = _mm512_fmadd_ps(c4, x, y);
    c5 = _mm512_fmadd_ps(c5, x, y);
    c6 = _mm512_fmadd_ps(c6, x, y);
    c7 = _mm512_fmadd_ps(c7, x, y);
    c8 = _mm512_fmadd_ps(c8, x, y);
    c9 = _mm512_fmadd_ps(c9, x, y);
    c10 = _mm512_fmadd_ps(c10, x, y);
    c11 = _mm512_fmadd_ps(c11, x, y);
    __asm__ volatile("" : "+v"(c0), "+v"(c1), "+v"(c2), "+v"(c3), "+v"(c4), "+v"(c5), "+v"(c6),
                     "+v"(c7), "+v"(c8), "+v"(c9), "+v"(c10), "+v"(c11));
  }
  const double s = seconds_since(t0);
  __m512 sum = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0, c1), _mm512_add_ps(c2, c3)),
                             _mm512_add_ps(_mm512_add_ps(c4, c5), _mm512_add_ps(c6, c7)));
  sum = _mm512_add_ps(sum, _mm512_add_ps(_mm512_add_ps(c8, c9), _mm512_add_ps(c10, c11)));
  float sink[16];
  _mm512_storeu_ps(sink, sum);
  if (sink[0] == 12345.0f) std::printf(" ");
  return static_cast<double>(iters) * 12 * 16 * 2 / s / 1e9;
}

// --- The WebAssembly floor (--simd128-floor): SIMD128 has no FMA (relaxed
// SIMD's is behind a flag in Node 20), so its GEMM is a 4-lane multiply and
// a 4-lane add per product, which V8 compiles to mulps + addps. A GEMM's
// step: ten accumulators, each adding a loaded vector times a register.
// Measured the same way with AVX2's 8-lane FMA, the ratio is what a
// compute-bound f32 kernel in WebAssembly cannot beat on this core: the
// ports, not the code (Golden Cove multiplies on two ports and adds on two,
// one of them shared, where Zen 5 has two of each). ---
alignas(64) float g_floor_operands[40];

// Ten accumulators as named variables, each step a load times y0 or y1.
#define EMBER_FLOOR_LOOP(V, ZERO, STEP)                                              \
  V c0 = ZERO, c1 = ZERO, c2 = ZERO, c3 = ZERO, c4 = ZERO, c5 = ZERO, c6 = ZERO,     \
    c7 = ZERO, c8 = ZERO, c9 = ZERO;                                                 \
  const float* p = g_floor_operands;                                                 \
  const auto t0 = Clock::now();                                                      \
  for (long it = 0; it < iters; ++it) {                                              \
    __asm__ volatile("" : "+r"(p)); /* the loads stay loads */                       \
    c0 = STEP(c0, p, y0), c1 = STEP(c1, p, y1), c2 = STEP(c2, p + 4, y0);            \
    c3 = STEP(c3, p + 4, y1), c4 = STEP(c4, p + 8, y0), c5 = STEP(c5, p + 8, y1);    \
    c6 = STEP(c6, p + 12, y0), c7 = STEP(c7, p + 12, y1), c8 = STEP(c8, p + 16, y0); \
    c9 = STEP(c9, p + 16, y1);                                                       \
  }                                                                                  \
  const double s = seconds_since(t0);                                                \
  const V all[10] = {c0, c1, c2, c3, c4, c5, c6, c7, c8, c9};                        \
  float sink = 0.0f;                                                                 \
  for (const V& v : all) sink += reinterpret_cast<const float*>(&v)[0];              \
  if (sink == 12345.0f) std::printf(" ");

#define EMBER_MUL_ADD_128(a, x, y) _mm_add_ps(a, _mm_mul_ps(_mm_load_ps(x), y))
#define EMBER_FMA_256(a, x, y) _mm256_fmadd_ps(_mm256_load_ps(x), y, a)

__attribute__((target("avx2"), optimize("fp-contract=off"))) double simd128_mul_add_run(
    long iters) {
  const __m128 y0 = _mm_set1_ps(0.5f), y1 = _mm_set1_ps(0.25f);
  EMBER_FLOOR_LOOP(__m128, _mm_setzero_ps(), EMBER_MUL_ADD_128)
  return static_cast<double>(iters) * 10 * 4 * 2 / s / 1e9;
}

__attribute__((target("avx2,fma"))) double avx2_fma_run(long iters) {
  const __m256 y0 = _mm256_set1_ps(0.5f), y1 = _mm256_set1_ps(0.25f);
  EMBER_FLOOR_LOOP(__m256, _mm256_setzero_ps(), EMBER_FMA_256)
  return static_cast<double>(iters) * 10 * 8 * 2 / s / 1e9;
}
#undef EMBER_FLOOR_LOOP
#undef EMBER_MUL_ADD_128
#undef EMBER_FMA_256

// Each kernel's best of short runs, the two alternating for 2 s so that
// a disturbed spell of this shared machine hits both.
int print_simd128_floor() {
  double mul_add = 0.0, fma = 0.0;
  const auto start = Clock::now();
  for (int rep = 0; rep < 2000 && (rep < 40 || seconds_since(start) < 2.0); ++rep) {
    mul_add = std::max(mul_add, simd128_mul_add_run(1 << 17));
    fma = std::max(fma, avx2_fma_run(1 << 17));
  }
  std::printf("4-lane mul + add (SIMD128 without FMA): %.1f GFLOP/s\n", mul_add);
  std::printf("8-lane FMA (AVX2): %.1f GFLOP/s\n", fma);
  std::printf("simd128 floor: %.2fx (a compute-bound f32 kernel in WebAssembly against AVX2)\n",
              fma / mul_add);
  return 0;
}

bool has_avx512() { return detect_cpu_features().has(kCpuAvx512 | kCpuOsZmm); }
double fma_peak_run(long iters) {
  return has_avx512() ? fma_peak_run_avx512(iters) : fma_peak_run_avx2(iters);
}
bool fma_peak_available() {
  return detect_cpu_features().has(kCpuAvx2 | kCpuFma | kCpuOsYmm);
}
const char* fma_peak_what() {
  return has_avx512() ? "AVX-512 FMA, 12 chains of 16 lanes" : "AVX2 FMA, 12 chains of 8 lanes";
}
#elif defined(__aarch64__)
// Sixteen accumulators: 4-cycle FMLA latency x up to 4 pipes on big cores.
double fma_peak_run(long iters) {
  float32x4_t c0 = vdupq_n_f32(0.0f), c1 = vdupq_n_f32(0.1f), c2 = vdupq_n_f32(0.2f),
              c3 = vdupq_n_f32(0.3f), c4 = vdupq_n_f32(0.4f), c5 = vdupq_n_f32(0.5f),
              c6 = vdupq_n_f32(0.6f), c7 = vdupq_n_f32(0.7f), c8 = vdupq_n_f32(0.8f),
              c9 = vdupq_n_f32(0.9f), c10 = vdupq_n_f32(1.0f), c11 = vdupq_n_f32(1.1f),
              c12 = vdupq_n_f32(1.2f), c13 = vdupq_n_f32(1.3f), c14 = vdupq_n_f32(1.4f),
              c15 = vdupq_n_f32(1.5f);
  const float32x4_t x = vdupq_n_f32(0.999999f);
  const float32x4_t y = vdupq_n_f32(1e-7f);
  const auto t0 = Clock::now();
  for (long it = 0; it < iters; ++it) {
    c0 = vfmaq_f32(y, c0, x);
    c1 = vfmaq_f32(y, c1, x);
    c2 = vfmaq_f32(y, c2, x);
    c3 = vfmaq_f32(y, c3, x);
    c4 = vfmaq_f32(y, c4, x);
    c5 = vfmaq_f32(y, c5, x);
    c6 = vfmaq_f32(y, c6, x);
    c7 = vfmaq_f32(y, c7, x);
    c8 = vfmaq_f32(y, c8, x);
    c9 = vfmaq_f32(y, c9, x);
    c10 = vfmaq_f32(y, c10, x);
    c11 = vfmaq_f32(y, c11, x);
    c12 = vfmaq_f32(y, c12, x);
    c13 = vfmaq_f32(y, c13, x);
    c14 = vfmaq_f32(y, c14, x);
    c15 = vfmaq_f32(y, c15, x);
    // Two barriers: an in-out operand counts twice and GCC allows 30 operands per asm.
    __asm__ volatile("" : "+w"(c0), "+w"(c1), "+w"(c2), "+w"(c3), "+w"(c4), "+w"(c5), "+w"(c6),
                     "+w"(c7));
    __asm__ volatile("" : "+w"(c8), "+w"(c9), "+w"(c10), "+w"(c11), "+w"(c12), "+w"(c13),
                     "+w"(c14), "+w"(c15));
  }
  const double s = seconds_since(t0);
  float32x4_t sum = vaddq_f32(vaddq_f32(vaddq_f32(c0, c1), vaddq_f32(c2, c3)),
                              vaddq_f32(vaddq_f32(c4, c5), vaddq_f32(c6, c7)));
  sum = vaddq_f32(sum, vaddq_f32(vaddq_f32(vaddq_f32(c8, c9), vaddq_f32(c10, c11)),
                                 vaddq_f32(vaddq_f32(c12, c13), vaddq_f32(c14, c15))));
  if (vgetq_lane_f32(sum, 0) == 12345.0f) std::printf(" ");
  return static_cast<double>(iters) * 16 * 4 * 2 / s / 1e9;
}
bool fma_peak_available() { return true; }
const char* fma_peak_what() { return "NEON FMLA, 16 chains of 4 lanes"; }
#else
double fma_peak_run(long) { return 0.0; }
bool fma_peak_available() { return false; }
const char* fma_peak_what() { return "none"; }
#endif

// Best of many short runs (about 2 ms each, for up to `seconds`): on a shared
// machine a long run is always cut by other processes, a short one often not.
double measure_peak(double seconds) {
  if (!fma_peak_available()) return 0.0;
  long iters = 1 << 12;
  while (true) {
    const auto t0 = Clock::now();
    fma_peak_run(iters);
    if (seconds_since(t0) > 0.002 || iters > (1l << 30)) break;
    iters *= 2;
  }
  double best = 0.0;
  const auto start = Clock::now();
  for (int rep = 0; rep < 1000 && (rep < 20 || seconds_since(start) < seconds); ++rep) {
    best = std::max(best, fma_peak_run(iters));
  }
  return best;
}

// --- GEMM timing ---

struct Size {
  int m, n, k;
  const char* what;
};

using AlignedFloats = bench::AlignedBuffer<float>;

// Copies of a packed B that together span 128 MiB, past the last-level cache
// of the machines this runs on (32-48 MiB): a call on the least recently used
// copy finds none of it in cache.
size_t cold_copies(size_t bytes) {
  return std::max<size_t>(2, ((size_t{128} << 20) + bytes - 1) / bytes);
}

struct Buffers {
  AlignedFloats a, b, c;
  Buffers(int m, int n, int k)
      : a(static_cast<size_t>(m) * k), b(static_cast<size_t>(k) * n), c(static_cast<size_t>(m) * n) {
    std::mt19937 gen(42);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    for (float& x : a) x = d(gen);
    for (float& x : b) x = d(gen);
  }
};

// Runs fn until `seconds` have passed (at least 3 times after a warm-up run)
// and returns the best time of one run, the least disturbed by other load,
// or with `median` the median one, what a model's profile sees.
template <typename F>
double cell_time(double seconds, bool median, F&& fn) {
  fn();
  std::vector<double> times;
  const auto start = Clock::now();
  while (times.size() < 3 || seconds_since(start) < seconds) {
    const auto t0 = Clock::now();
    fn();
    times.push_back(seconds_since(t0));
    if (times.size() >= 1000) break;
  }
  std::sort(times.begin(), times.end());
  return median ? times[times.size() / 2] : times.front();
}

double gemm_gflops(const Size& s, double secs) { return 2.0 * s.m * s.n * s.k / secs / 1e9; }

// --- OpenBLAS reference (only when CMake found it) ---

#if defined(EMBER_HAVE_OPENBLAS)
constexpr bool kHaveOpenBlas = true;

// C = A B, row-major, no transposes, like the Ember problem. The thread count
// is set by openblas_set_num_threads before the timed runs.
void openblas_sgemm(const Size& s, const float* a, const float* b, float* c) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k, 1.0f, a, s.k, b, s.n,
              0.0f, c, s.n);
}

void print_openblas_info() {
  std::printf("OpenBLAS: %s (core %s); reference column = cblas_sgemm at the same thread "
              "count (openblas_set_num_threads), \"x OpenBLAS\" = Ember GFLOP/s / OpenBLAS "
              "GFLOP/s\n",
              openblas_get_config(), openblas_get_corename());
}

// Every supported variant against cblas_sgemm on one odd shape (partial tiles
// in every dimension), single-threaded: max |Ember - OpenBLAS| / max |OpenBLAS|.
// Both sum 257 products in float in different orders, so ~1e-6 is expected; a
// wrong kernel gives ~1. Returns false above 1e-4.
bool check_against_openblas(const std::vector<const F32GemmConfig*>& variants) {
  const Size s = {67, 131, 257, "check"};
  Buffers buf(s.m, s.n, s.k);
  std::vector<float> ref(buf.c.size());
  openblas_set_num_threads(1);
  openblas_sgemm(s, buf.a.data(), buf.b.data(), ref.data());
  double ref_max = 0.0;
  for (float x : ref) ref_max = std::max(ref_max, static_cast<double>(std::fabs(x)));
  bool ok = true;
  for (const F32GemmConfig* v : variants) {
    F32GemmProblem p;
    p.m = static_cast<size_t>(s.m);
    p.n = static_cast<size_t>(s.n);
    p.k = static_cast<size_t>(s.k);
    p.a = buf.a.data();
    p.lda = p.k;
    p.b = buf.b.data();
    p.ldb = p.n;
    p.c = buf.c.data();
    p.ldc = p.n;
    std::fill(buf.c.begin(), buf.c.end(), 0.0f);
    kernels::optimized::f32_gemm(*v, p, nullptr);
    double diff = 0.0;
    for (size_t i = 0; i < ref.size(); ++i) {
      diff = std::max(diff, static_cast<double>(std::fabs(buf.c[i] - ref[i])));
    }
    const double rel = ref_max > 0 ? diff / ref_max : diff;
    const bool good = rel <= 1e-4;
    ok = ok && good;
    std::printf("check %dx%dx%d %-7s vs OpenBLAS: max |diff| / max |OpenBLAS| = %.2e %s\n", s.m,
                s.n, s.k, v->name, rel, good ? "(ok)" : "FAILED (> 1e-4)");
  }
  return ok;
}
#else
constexpr bool kHaveOpenBlas = false;
#endif

std::vector<Size> parse_sizes(const char* arg) {
  std::vector<Size> out;
  std::string text(arg);
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    int m = 0, n = 0, k = 0;
    if (std::sscanf(text.substr(pos, end - pos).c_str(), "%dx%dx%d", &m, &n, &k) == 3 && m > 0 &&
        n > 0 && k > 0) {
      out.push_back({m, n, k, "custom"});
    } else {
      std::fprintf(stderr, "bad size %s (want MxNxK)\n", text.substr(pos, end - pos).c_str());
      std::exit(2);
    }
    pos = end + 1;
  }
  return out;
}

int main_impl(int argc, char** argv) {
  double seconds = 0.5;
  bool use_temp = false;
  bool packed = false;  // B packed once, as the CPU backend's Linear and Conv2d hold it
  bool cold = false;    // packed, and each call reads another copy: from DRAM, as in a model
  bool median = false;  // report a cell's median run, not its best
  std::vector<int> thread_counts = {1, 2};
  std::vector<Size> sizes = {
      {64, 64, 64, "small square"},
      {256, 256, 256, "square"},
      {512, 512, 512, "square"},
      {1024, 1024, 1024, "square"},
      {49, 1024, 1280, "7x7 feature map, 1x1 conv / linear 1280->1024"},
      {196, 1536, 384, "ViT-S/16 MLP up (196 tokens)"},
      {128, 768, 768, "BERT-base projection (128 tokens)"},
      {1, 1024, 1024, "M=1 GEMV (decode linear)"},
      {1, 4096, 1024, "M=1 GEMV, wide"},
  };
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
      sizes = parse_sizes(argv[++i]);
    } else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      thread_counts.clear();
      for (const char* p = argv[++i]; *p != '\0';) {
        thread_counts.push_back(std::atoi(p));
        while (*p != '\0' && *p != ',') ++p;
        if (*p == ',') ++p;
      }
    } else if (std::strcmp(argv[i], "--temp") == 0) {
      use_temp = true;
    } else if (std::strcmp(argv[i], "--packed") == 0) {
      packed = true;
    } else if (std::strcmp(argv[i], "--cold") == 0) {
      packed = cold = true;
    } else if (std::strcmp(argv[i], "--simd128-floor") == 0) {
#if defined(__x86_64__)
      return print_simd128_floor();
#else
      std::fprintf(stderr, "--simd128-floor measures x86 ports only\n");
      return 2;
#endif
    } else if (std::strcmp(argv[i], "--median") == 0) {
      median = true;
    } else {
      const bool help = std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0;
      std::fprintf(help ? stdout : stderr,
                   "usage: %s [--seconds S] [--sizes MxNxK,...] [--threads 1,2] [--temp] "
                   "[--packed] [--cold] [--median] | --simd128-floor\n",
                   argv[0]);
      return help ? 0 : 2;
    }
  }

  char features[128];
  format_cpu_features(detect_cpu_features(), features, sizeof(features));
  std::printf("cpu features: %s\n", features);
  std::printf("selected f32 gemm variant: %s (EMBER_FORCE_ISA / EMBER_CPU_FEATURES_MASK apply)\n",
              kernels::optimized::f32_gemm_config().name);
  double peak = measure_peak(1.0);
  std::printf("measured FMA peak, 1 thread: %.1f GFLOP/s (%s)\n", peak, fma_peak_what());
  std::printf("timing: %s of runs over %.2f s per cell; %% peak = GFLOP/s / (threads x 1-thread "
              "peak)%s\n\n",
              median ? "median" : "best", seconds,
              cold       ? "; B packed once, outside the timing, each call on another of copies "
                           "spanning 128 MiB (a model's weights, read from DRAM)"
              : packed   ? "; B packed once, outside the timing (a layer's weights)"
              : use_temp ? "; temp memory given (B packed once per call)"
                         : "");

  std::vector<const F32GemmConfig*> variants;
  for (size_t i = 0; i < kernels::optimized::f32_gemm_num_variants(); ++i) {
    const F32GemmConfig& v = kernels::optimized::f32_gemm_variant(i);
    if (kernels::optimized::f32_gemm_variant_supported(v)) variants.push_back(&v);
  }

#if defined(EMBER_HAVE_OPENBLAS)
  print_openblas_info();
  if (!check_against_openblas(variants)) {
    std::fprintf(stderr, "Ember and OpenBLAS disagree: not benchmarking\n");
    return 1;
  }
  std::printf("\n");
#else
  std::printf("OpenBLAS: not found (apt-get install libopenblas-dev)\n\n");
#endif

  std::vector<uint8_t> temp_memory(use_temp ? (64u << 20) : 0);
  MemoryAllocator temp(temp_memory.data(), temp_memory.size());

  if (kHaveOpenBlas) {
    std::printf("%-16s %-9s %7s %10s %7s %10s  %s\n", "MxNxK", "variant", "threads", "GFLOP/s",
                "%peak", "x OpenBLAS", "");
  } else {
    std::printf("%-16s %-9s %7s %10s %7s  %s\n", "MxNxK", "variant", "threads", "GFLOP/s",
                "%peak", "");
  }
  for (const Size& s : sizes) {
    Buffers buf(s.m, s.n, s.k);
    char label[48];
    std::snprintf(label, sizeof(label), "%dx%dx%d", s.m, s.n, s.k);

    // OpenBLAS GFLOP/s per thread count for this size, measured once on first
    // use (0 without OpenBLAS); ratio_text formats Ember's GFLOP/s over it.
    std::vector<std::pair<int, double>> openblas_cells;
    auto openblas_gflops = [&](int threads) -> double {
      for (const auto& cell : openblas_cells) {
        if (cell.first == threads) return cell.second;
      }
      double g = 0.0;
#if defined(EMBER_HAVE_OPENBLAS)
      openblas_set_num_threads(threads);
      g = gemm_gflops(s, cell_time(seconds, median, [&] {
                        openblas_sgemm(s, buf.a.data(), buf.b.data(), buf.c.data());
                      }));
      openblas_set_num_threads(1);
      // Idle OpenBLAS workers spin (sched_yield) for a while (THREAD_TIMEOUT,
      // about 0.1 s by default) before they sleep: let them, so that they do
      // not take CPU from the Ember cells that follow.
      if (threads > 1) std::this_thread::sleep_for(std::chrono::milliseconds(200));
#endif
      openblas_cells.emplace_back(threads, g);
      return g;
    };
    char ratio[32];
    auto ratio_text = [&](double ember, int threads) -> const char* {
      const double ob = openblas_gflops(threads);
      if (ob > 0) {
        std::snprintf(ratio, sizeof(ratio), "%9.2fx", ember / ob);
      } else {
        std::snprintf(ratio, sizeof(ratio), "%10s", "-");
      }
      return ratio;
    };

    // Portable: the reference kernel, single-threaded (it has no pool path).
    {
      int32_t as[] = {s.m, s.k}, bs[] = {s.k, s.n}, cs[] = {s.m, s.n};
      uint8_t order[] = {0, 1};
      int32_t st_a[2], st_b[2], st_c[2];
      Tensor a(ScalarType::Float, 2, as, order, st_a, buf.a.data(), buf.a.size() * 4,
               TensorShapeDynamism::Static);
      Tensor b(ScalarType::Float, 2, bs, order, st_b, buf.b.data(), buf.b.size() * 4,
               TensorShapeDynamism::Static);
      Tensor c(ScalarType::Float, 2, cs, order, st_c, buf.c.data(), buf.c.size() * 4,
               TensorShapeDynamism::Static);
      KernelContext ctx;
      const double t =
          cell_time(seconds, median, [&] { kernels::portable::mm_out(ctx, a, b, c); });
      const double g = gemm_gflops(s, t);
      if (kHaveOpenBlas) {
        std::printf("%-16s %-9s %7d %10.1f %6.1f%% %s  %s\n", label, "portable", 1, g,
                    peak > 0 ? 100.0 * g / peak : 0.0, ratio_text(g, 1), s.what);
      } else {
        std::printf("%-16s %-9s %7d %10.1f %6.1f%%  %s\n", label, "portable", 1, g,
                    peak > 0 ? 100.0 * g / peak : 0.0, s.what);
      }
    }
    for (int threads : thread_counts) {
      if (kHaveOpenBlas) {
        const double g = openblas_gflops(threads);
        std::printf("%-16s %-9s %7d %10.1f %6.1f%% %10s\n", label, "openblas", threads, g,
                    peak > 0 ? 100.0 * g / (peak * threads) : 0.0, "1.00x");
      }
      WorkerPool pool(static_cast<size_t>(threads));
      for (const F32GemmConfig* v : variants) {
        F32GemmProblem p;
        p.m = static_cast<size_t>(s.m);
        p.n = static_cast<size_t>(s.n);
        p.k = static_cast<size_t>(s.k);
        p.a = buf.a.data();
        p.lda = p.k;
        p.b = buf.b.data();
        p.ldb = p.n;
        p.c = buf.c.data();
        p.ldc = p.n;
        std::vector<AlignedFloats> packed_b;
        if (packed) {
          const size_t floats = kernels::optimized::f32_gemm_packed_weights_size(*v, p.k, p.n);
          const size_t copies = cold ? cold_copies(floats * sizeof(float)) : 1;
          for (size_t i = 0; i < copies; ++i) {
            packed_b.emplace_back(floats);
            kernels::optimized::f32_gemm_pack_weights(*v, p.k, p.n, p.b, p.ldb,
                                                      packed_b.back().data());
          }
        }
        size_t call = 0;
        const double t = cell_time(seconds, median, [&] {
          temp.reset();
          if (packed) p.packed_b = packed_b[call++ % packed_b.size()].data();
          KernelContext ctx(use_temp ? &temp : nullptr, threads > 1 ? &pool : nullptr);
          kernels::optimized::f32_gemm(*v, p, &ctx);
        });
        const double g = gemm_gflops(s, t);
        if (kHaveOpenBlas) {
          std::printf("%-16s %-9s %7d %10.1f %6.1f%% %s\n", label, v->name, threads, g,
                      peak > 0 ? 100.0 * g / (peak * threads) : 0.0, ratio_text(g, threads));
        } else {
          std::printf("%-16s %-9s %7d %10.1f %6.1f%%\n", label, v->name, threads, g,
                      peak > 0 ? 100.0 * g / (peak * threads) : 0.0);
        }
      }
    }
    std::fflush(stdout);
  }
  // Load changes while the benchmark runs: measure the peak again, so that a
  // reader can see how far the reference moved (the table used the first).
  std::printf("\nFMA peak measured again at the end: %.1f GFLOP/s\n", measure_peak(1.0));
  return 0;
}

}  // namespace
}  // namespace ember

int main(int argc, char** argv) { return ember::main_impl(argc, argv); }
