// ember_vecmath_bench: ns per element and GB/s of every variant of the vector
// math and normalisation families (f32-vunary, f32-vbinary, f32-softmax,
// f32-layernorm, f32-reduce) this CPU supports, against the plain loop over
// std:: functions that the CPU backend ran before them, at sizes that live in
// L1, L2 and memory; then every variant of f32-dwconv, f32-winograd and
// f32-attention on model layers (MobileNetV2's depthwise layers, ResNet's 3x3
// convolutions, BERT's and ViT's attention). Every table has the widest
// variant's speed-up over the AVX2 one where both run. With --accuracy,
// instead, the largest error of every unary function over all 2^32 floats,
// per variant. Not a test: run it by hand (bench/README.md).
//
//   ember_vecmath_bench [--seconds S] [--sizes N,N,...] [--only NAME]
//                       [--accuracy [--variant NAME]]
//   ember_vecmath_bench --memory-bandwidth [MiB]   (what one core reads from memory)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "bench/aligned_buffer.h"
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/f32-dwconv/f32_dwconv.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/f32-layernorm/f32_layernorm.h"
#include "kernels/optimized/f32-reduce/f32_reduce.h"
#include "kernels/optimized/f32-softmax/f32_softmax.h"
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"
#include "kernels/optimized/f32-winograd/f32_winograd.h"

namespace ember {
namespace {

namespace opt = kernels::optimized;
using Clock = std::chrono::steady_clock;
// On 64-byte lines as the runtime plans activations: std::vector's 16-byte
// boundary splits every AVX-512 load and store over two lines (1.8x slower
// on the depthwise layers).
using FloatVector = bench::AlignedVector<float>;

double g_seconds = 0.3;

// The best (least disturbed) time of one call of fn, in ns, over a time box:
// calls are batched so that each timed batch lasts at least ~50 us.
double best_ns(const std::function<void()>& fn) {
  fn();  // warm-up: caches, pages, the variant's first use
  int batch = 1;
  for (;;) {
    const auto t0 = Clock::now();
    for (int i = 0; i < batch; ++i) fn();
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    if (ns > 50e3 || batch > (1 << 20)) break;
    batch *= 2;
  }
  double best = 1e300;
  const auto start = Clock::now();
  int runs = 0;
  while (runs < 3 || std::chrono::duration<double>(Clock::now() - start).count() < g_seconds) {
    const auto t0 = Clock::now();
    for (int i = 0; i < batch; ++i) fn();
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / batch;
    best = std::min(best, ns);
    ++runs;
  }
  return best;
}

FloatVector random_vector(size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  FloatVector v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

// The read bandwidth this machine reaches for a working set of `bytes`, in
// GB/s: a loop that only loads (an OR of 64-bit words, eight independent
// accumulators, which the compiler vectorizes: for AVX2 where the CPU has it,
// so that cache-resident sizes are not limited by 16-byte loads), best of the
// time box, measured once per size. The ceiling a memory-bound kernel of
// that footprint can approach: it reads and writes, so it moves its bytes
// more slowly than this.
volatile uint64_t g_sink;

#define EMBER_READ_LOOP_BODY                                  \
  uint64_t acc[8] = {};                                       \
  for (size_t i = 0; i < words; i += 8) {                     \
    for (size_t k = 0; k < 8; ++k) acc[k] |= buffer[i + k];   \
  }                                                           \
  uint64_t all = 0;                                           \
  for (uint64_t a : acc) all |= a;                            \
  return all;

uint64_t read_all(const uint64_t* buffer, size_t words) { EMBER_READ_LOOP_BODY }
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) uint64_t read_all_avx2(const uint64_t* buffer, size_t words) {
  EMBER_READ_LOOP_BODY
}
#endif
#undef EMBER_READ_LOOP_BODY

double read_gbps(size_t bytes) {
  static std::map<size_t, double> measured;
  const auto found = measured.find(bytes);
  if (found != measured.end()) return found->second;
  const size_t words = std::max<size_t>(8, bytes / 8) / 8 * 8;
  bench::AlignedVector<uint64_t> buffer(words);
  for (size_t i = 0; i < words; ++i) buffer[i] = i * 0x9E3779B97F4A7C15ull;
  uint64_t (*read)(const uint64_t*, size_t) = read_all;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (detect_cpu_features().has(kCpuAvx2 | kCpuOsYmm)) {
    read = read_all_avx2;
  }
#endif
  const double ns = best_ns([&] { g_sink = read(buffer.data(), words); });
  const double gbps = static_cast<double>(words * 8) / ns;
  measured[bytes] = gbps;
  return gbps;
}

// What one core reads from memory at best (--memory-bandwidth [MiB]): four
// streams through a buffer (512 MiB, far larger than most caches, unless
// given), each prefetched 1 KiB ahead,
// as a memory-bound kernel that prefetches reads (the LLM's GEMVs). A single
// stream without prefetches reaches 60% of it on an Emerald Rapids VM
// (10.8 against 17.6 GB/s); this is the roofline bench/llm_bench.py divides by.
constexpr size_t kStreams = 4, kAhead = 128;  // words: 1 KiB

uint64_t read_streams(const uint64_t* buffer, size_t words) {
  const size_t per = words / kStreams / 8 * 8;
  uint64_t all = 0;
  for (size_t i = 0; i < per; i += 8) {
    for (size_t s = 0; s < kStreams; ++s) {
      const uint64_t* p = buffer + s * per + i;
      __builtin_prefetch(p + kAhead);
      for (size_t k = 0; k < 8; ++k) all |= p[k];
    }
  }
  return all;
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Two 32-byte loads per stream and step, an accumulator per stream.
__attribute__((target("avx2"))) uint64_t read_streams_avx2(const uint64_t* buffer,
                                                           size_t words) {
  const size_t per = words / kStreams / 8 * 8;
  __m256i acc[kStreams];
  for (auto& a : acc) a = _mm256_setzero_si256();
  for (size_t i = 0; i < per; i += 8) {
    for (size_t s = 0; s < kStreams; ++s) {
      const uint64_t* p = buffer + s * per + i;
      _mm_prefetch(reinterpret_cast<const char*>(p + kAhead), _MM_HINT_T0);
      const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
      const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 4));
      acc[s] = _mm256_or_si256(acc[s], _mm256_or_si256(lo, hi));
    }
  }
  __m256i all = acc[0];
  for (size_t s = 1; s < kStreams; ++s) all = _mm256_or_si256(all, acc[s]);
  return static_cast<uint64_t>(_mm256_extract_epi64(all, 0));
}
#endif

int print_memory_bandwidth(size_t mib) {
  const size_t bytes = mib << 20;
  const size_t words = bytes / 8;
  bench::AlignedVector<uint64_t> buffer(words);
  for (size_t i = 0; i < words; ++i) buffer[i] = i * 0x9E3779B97F4A7C15ull;
  uint64_t (*read)(const uint64_t*, size_t) = read_streams;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (detect_cpu_features().has(kCpuAvx2 | kCpuOsYmm)) read = read_streams_avx2;
#endif
  double best = 0.0;
  for (int round = 0; round < 5; ++round) {
    const auto t0 = Clock::now();
    g_sink = read(buffer.data(), words);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    best = std::max(best, static_cast<double>(words * 8) / s / 1e9);
  }
  std::printf("memory read bandwidth, one core, %zu MiB in 4 prefetched streams: %.1f GB/s\n",
              mib, best);
  return 0;
}

// One result line: the baseline (the std:: loop) and every variant, as ns
// per element, the best variant's GB/s (bytes moved per element given), that
// as a share of the read bandwidth for the same footprint, its speed-up
// over the baseline, and the widest variant's over the AVX2 one.
struct Row {
  std::string name;
  size_t n;
  double bytes_per_element;
  double baseline_ns;
  std::vector<std::pair<const char*, double>> variants;  // name, ns per call
};

void print_header(const std::vector<const char*>& variant_names) {
  std::printf("\n%-34s %9s %11s", "kernel", "elements", "std loop");
  for (const char* v : variant_names) std::printf(" %11s", v);
  std::printf(" %9s %8s %8s %8s\n", "best GB/s", "of read", "speed-up", "vs avx2");
}

// The AVX2 variant's time over the first (widest) variant's, as "1.23x";
// "-" unless both ran and the first is not the AVX2 one.
std::string vs_avx2(const std::vector<std::pair<const char*, double>>& variants) {
  for (const auto& v : variants) {
    if (std::strcmp(v.first, "avx2") == 0 && std::strcmp(variants[0].first, "avx2") != 0) {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%.2fx", v.second / variants[0].second);
      return buf;
    }
  }
  return "-";
}

void print_row(const Row& r) {
  const double n = static_cast<double>(r.n);
  std::printf("%-34s %9zu %8.3f ns", r.name.c_str(), r.n, r.baseline_ns / n);
  double best = 1e300;
  for (const auto& v : r.variants) {
    std::printf(" %8.3f ns", v.second / n);
    best = std::min(best, v.second);
  }
  const double gbps = r.bytes_per_element * n / best;
  const double read = read_gbps(static_cast<size_t>(r.bytes_per_element * n));
  std::printf(" %9.1f %7.0f%% %7.1fx %8s\n", gbps, 100.0 * gbps / read, r.baseline_ns / best,
              vs_avx2(r.variants).c_str());
}

template <typename Config>
std::vector<const Config*> supported(size_t count, const Config& (*variant)(size_t),
                                     bool (*is_supported)(const Config&)) {
  std::vector<const Config*> out;
  for (size_t i = 0; i < count; ++i) {
    if (is_supported(variant(i))) out.push_back(&variant(i));
  }
  return out;
}

template <typename Config>
std::vector<const char*> names_of(const std::vector<const Config*>& variants) {
  std::vector<const char*> names;
  for (const Config* v : variants) names.push_back(v->name);
  return names;
}

// --- the baselines: what backends/cpu/runtime/ops/elementwise_ops.cpp ran
// before these families, one std:: call per element ---

float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }
float std_sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
float std_gelu(float x) { return 0.5f * x * (1.0f + std::erf(x * 0.70710678118654752f)); }
float std_gelu_tanh(float x) {
  const float inner = 0.7978845608028654f * (x + 0.044715f * x * x * x);
  return 0.5f * x * (1.0f + std::tanh(inner));
}

float std_unary(opt::F32UnaryOp op, float x) {
  switch (op) {
    case opt::F32UnaryOp::Clamp: return x;
    case opt::F32UnaryOp::Exp: return std::exp(x);
    case opt::F32UnaryOp::Sigmoid: return std_sigmoid(x);
    case opt::F32UnaryOp::Tanh: return std::tanh(x);
    case opt::F32UnaryOp::Gelu: return std_gelu(x);
    case opt::F32UnaryOp::GeluTanh: return std_gelu_tanh(x);
    case opt::F32UnaryOp::Silu: return x * std_sigmoid(x);
    case opt::F32UnaryOp::HardSwish: return x * clampf(x + 3.0f, 0.0f, 6.0f) / 6.0f;
    case opt::F32UnaryOp::HardSigmoid: return clampf(x + 3.0f, 0.0f, 6.0f) / 6.0f;
    case opt::F32UnaryOp::Neg: return -x;
    case opt::F32UnaryOp::Sqrt: return std::sqrt(x);
    case opt::F32UnaryOp::Rsqrt: return 1.0f / std::sqrt(x);
    case opt::F32UnaryOp::Abs: return std::fabs(x);
  }
  return x;
}

// A switch per element, as the old UnaryOp had one per chunk and a function
// per element; the op is a template argument so the loop is as tight as
// the old one.
template <opt::F32UnaryOp Op>
void std_unary_loop(size_t n, const float* x, float* y, float lo, float hi) {
  for (size_t i = 0; i < n; ++i) y[i] = clampf(std_unary(Op, x[i]), lo, hi);
}

using StdUnaryLoop = void (*)(size_t, const float*, float*, float, float);
const StdUnaryLoop kStdUnary[] = {
    std_unary_loop<opt::F32UnaryOp::Clamp>,     std_unary_loop<opt::F32UnaryOp::Exp>,
    std_unary_loop<opt::F32UnaryOp::Sigmoid>,   std_unary_loop<opt::F32UnaryOp::Tanh>,
    std_unary_loop<opt::F32UnaryOp::Gelu>,      std_unary_loop<opt::F32UnaryOp::GeluTanh>,
    std_unary_loop<opt::F32UnaryOp::Silu>,      std_unary_loop<opt::F32UnaryOp::HardSwish>,
    std_unary_loop<opt::F32UnaryOp::HardSigmoid>, std_unary_loop<opt::F32UnaryOp::Neg>,
    std_unary_loop<opt::F32UnaryOp::Sqrt>,      std_unary_loop<opt::F32UnaryOp::Rsqrt>,
    std_unary_loop<opt::F32UnaryOp::Abs>,
};
static_assert(sizeof(kStdUnary) / sizeof(kStdUnary[0]) == opt::kF32UnaryOpCount, "a loop per op");

void bench_unary(const std::vector<size_t>& sizes, const std::string& only) {
  const auto variants = supported(opt::f32_vunary_num_variants(), opt::f32_vunary_variant,
                                  opt::f32_vunary_variant_supported);
  const std::vector<const char*> names = names_of(variants);
  std::printf("\n== f32-vunary: y = clamp(f(x)), 8 bytes per element ==");
  print_header(names);
  for (size_t o = 0; o < opt::kF32UnaryOpCount; ++o) {
    const auto op = static_cast<opt::F32UnaryOp>(o);
    const std::string name = opt::f32_unary_op_name(op);
    if (!only.empty() && name.find(only) == std::string::npos) continue;
    for (size_t n : sizes) {
      const float lo = op == opt::F32UnaryOp::Sqrt || op == opt::F32UnaryOp::Rsqrt ? 0.0f : -8.0f;
      const FloatVector x = random_vector(n, lo, 8.0f, 1);
      FloatVector y(n);
      Row r{name, n, 8.0, 0, {}};
      r.baseline_ns = best_ns([&] { kStdUnary[o](n, x.data(), y.data(), -INFINITY, INFINITY); });
      const opt::F32VUnaryParams p{-INFINITY, INFINITY};
      for (const auto* v : variants) {
        r.variants.push_back({v->name, best_ns([&] { v->ukernel[o](n, x.data(), y.data(), &p); })});
      }
      print_row(r);
    }
  }
}

void bench_binary(const std::vector<size_t>& sizes, const std::string& only) {
  const auto variants = supported(opt::f32_vbinary_num_variants(), opt::f32_vbinary_variant,
                                  opt::f32_vbinary_variant_supported);
  const std::vector<const char*> names = names_of(variants);
  std::printf("\n== f32-vbinary: add; per-channel NHWC through the broadcast plan ==");
  print_header(names);
  const opt::F32VBinaryParams p{-INFINITY, INFINITY};
  for (size_t n : sizes) {
    if (!only.empty() && std::string("add").find(only) == std::string::npos) break;
    const FloatVector a = random_vector(n, -1, 1, 1), b = random_vector(n, -1, 1, 2);
    FloatVector y(n);
    Row r{"add (same shape)", n, 12.0, 0, {}};
    r.baseline_ns = best_ns([&] {
      for (size_t i = 0; i < n; ++i) y[i] = clampf(a[i] + b[i], -INFINITY, INFINITY);
    });
    for (const auto* v : variants) {
      r.variants.push_back({v->name, best_ns([&] {
                              v->vv[0](n, a.data(), b.data(), y.data(), &p);
                            })});
    }
    print_row(r);
  }
  // [1, C, H, W] NHWC data times a per-channel [C] vector, through the plan
  // (rows kernel), against the old loop's `b[i % C]`.
  for (size_t c : {16, 32, 96, 320}) {
    if (!only.empty() && std::string("per-channel").find(only) == std::string::npos) break;
    const size_t hw = 56 * 56 * 16 / c;
    const size_t n = hw * c;
    const FloatVector a = random_vector(n, -1, 1, 1), b = random_vector(c, -1, 1, 2);
    FloatVector y(n);
    const size_t sizes4[] = {1, 56 * 56 * 16 / c / 56, 56, c};
    const ptrdiff_t as[] = {static_cast<ptrdiff_t>(n), static_cast<ptrdiff_t>(56 * c),
                            static_cast<ptrdiff_t>(c), 1};
    const ptrdiff_t bs[] = {0, 0, 0, 1};
    opt::F32BinaryPlan plan;
    opt::f32_binary_plan(4, sizes4, as, bs, &plan);
    char name[64];
    std::snprintf(name, sizeof(name), "mul per-channel NHWC, C=%zu", c);
    Row r{name, plan.numel, 8.0, 0, {}};
    r.baseline_ns = best_ns([&] {
      for (size_t i = 0; i < plan.numel; ++i) y[i] = clampf(a[i] * b[i % c], -INFINITY, INFINITY);
    });
    for (const auto* v : variants) {
      r.variants.push_back({v->name, best_ns([&] {
                              opt::f32_vbinary_run(*v, opt::F32BinaryOp::Mul, plan, a.data(),
                                                   b.data(), y.data(), 0, plan.numel, p);
                            })});
    }
    print_row(r);
  }
}

void bench_softmax(const std::string& only) {
  if (!only.empty() && std::string("softmax").find(only) == std::string::npos) return;
  const auto variants = supported(opt::f32_softmax_num_variants(), opt::f32_softmax_variant,
                                  opt::f32_softmax_variant_supported);
  const std::vector<const char*> names = names_of(variants);
  std::printf("\n== f32-softmax: rows x n; the baseline is the portable algorithm in float ==");
  print_header(names);
  struct Shape {
    size_t rows, n;
  };
  for (const Shape s : {Shape{64, 128}, Shape{16, 1000}, Shape{128, 128 * 12}, Shape{4, 32000}}) {
    for (bool log : {false, true}) {
      const size_t numel = s.rows * s.n;
      const FloatVector x = random_vector(numel, -10, 10, 3);
      FloatVector y(numel);
      char name[64];
      std::snprintf(name, sizeof(name), "%s %zu x %zu", log ? "log_softmax" : "softmax", s.rows,
                    s.n);
      Row r{name, numel, 8.0, 0, {}};
      r.baseline_ns = best_ns([&] {
        for (size_t row = 0; row < s.rows; ++row) {
          const float* xr = x.data() + row * s.n;
          float* yr = y.data() + row * s.n;
          float m = -INFINITY;
          for (size_t k = 0; k < s.n; ++k) m = xr[k] > m ? xr[k] : m;
          float sum = 0;
          for (size_t k = 0; k < s.n; ++k) sum += std::exp(xr[k] - m);
          if (log) {
            const float ls = std::log(sum);
            for (size_t k = 0; k < s.n; ++k) yr[k] = (xr[k] - m) - ls;
          } else {
            for (size_t k = 0; k < s.n; ++k) yr[k] = std::exp(xr[k] - m) / sum;
          }
        }
      });
      for (const auto* v : variants) {
        r.variants.push_back({v->name, best_ns([&] {
                                opt::f32_softmax_rows(*v, s.n, x.data(), y.data(), log, 0, s.rows);
                              })});
      }
      print_row(r);
    }
  }
  // Softmax over a middle dim: [8, 64, 256], dim 1.
  const size_t outer = 8, size = 64, inner = 256, numel = outer * size * inner;
  const FloatVector x = random_vector(numel, -10, 10, 4);
  FloatVector y(numel);
  Row r{"softmax 8 x [64] x 256 (dim 1)", numel, 8.0, 0, {}};
  r.baseline_ns = best_ns([&] {
    for (size_t o = 0; o < outer; ++o) {
      for (size_t j = 0; j < inner; ++j) {
        const float* xc = x.data() + o * size * inner + j;
        float* yc = y.data() + o * size * inner + j;
        float m = -INFINITY;
        for (size_t k = 0; k < size; ++k) m = xc[k * inner] > m ? xc[k * inner] : m;
        float sum = 0;
        for (size_t k = 0; k < size; ++k) sum += std::exp(xc[k * inner] - m);
        for (size_t k = 0; k < size; ++k) yc[k * inner] = std::exp(xc[k * inner] - m) / sum;
      }
    }
  });
  for (const auto* v : variants) {
    r.variants.push_back({v->name, best_ns([&] {
                            for (size_t o = 0; o < outer; ++o) {
                              opt::f32_softmax_columns(*v, size, inner, x.data(), y.data(), false,
                                                       o, 0, inner);
                            }
                          })});
  }
  print_row(r);
}

void bench_layernorm(const std::string& only) {
  if (!only.empty() && std::string("layernorm rmsnorm").find(only) == std::string::npos) return;
  const auto variants = supported(opt::f32_layernorm_num_variants(), opt::f32_layernorm_variant,
                                  opt::f32_layernorm_variant_supported);
  const std::vector<const char*> names = names_of(variants);
  std::printf("\n== f32-layernorm: rows x n, weight (bias); baseline: portable (double sums) ==");
  print_header(names);
  struct Shape {
    size_t rows, n;
    const char* what;
  };
  for (const Shape s : {Shape{128, 768, "BERT-base"}, Shape{197, 384, "ViT-S"},
                        Shape{64, 4096, "Llama-7B"}}) {
    for (bool rms : {false, true}) {
      const size_t numel = s.rows * s.n;
      const FloatVector x = random_vector(numel, -3, 3, 5);
      const FloatVector w = random_vector(s.n, 0.5f, 1.5f, 6);
      const FloatVector b = random_vector(s.n, -0.5f, 0.5f, 7);
      FloatVector y(numel);
      char name[64];
      std::snprintf(name, sizeof(name), "%s %zu x %zu (%s)", rms ? "rmsnorm" : "layernorm", s.rows,
                    s.n, s.what);
      Row r{name, numel, 8.0, 0, {}};
      r.baseline_ns = best_ns([&] {
        for (size_t row = 0; row < s.rows; ++row) {
          const float* xr = x.data() + row * s.n;
          float* yr = y.data() + row * s.n;
          double mean = 0, var = 0;
          if (!rms) {
            for (size_t k = 0; k < s.n; ++k) mean += xr[k];
            mean /= static_cast<double>(s.n);
          }
          for (size_t k = 0; k < s.n; ++k) var += (xr[k] - mean) * (xr[k] - mean);
          var /= static_cast<double>(s.n);
          const double rstd = 1.0 / std::sqrt(var + 1e-5);
          for (size_t k = 0; k < s.n; ++k) {
            yr[k] = static_cast<float>((xr[k] - mean) * rstd * w[k] + (rms ? 0.0 : b[k]));
          }
        }
      });
      for (const auto* v : variants) {
        r.variants.push_back({v->name, best_ns([&] {
                                opt::f32_layernorm_rows(*v, s.n, x.data(), w.data(), b.data(),
                                                        1e-5f, rms, y.data(), 0, s.rows);
                              })});
      }
      print_row(r);
    }
  }
}

void bench_reduce(const std::string& only) {
  if (!only.empty() && std::string("reduce sum mean max").find(only) == std::string::npos) return;
  const auto variants = supported(opt::f32_reduce_num_variants(), opt::f32_reduce_variant,
                                  opt::f32_reduce_variant_supported);
  const std::vector<const char*> names = names_of(variants);
  std::printf("\n== f32-reduce: [outer, size, inner] -> [outer, inner], 4 bytes per element ==");
  print_header(names);
  struct Shape {
    size_t outer, size, inner;
    opt::F32ReduceOp op;
    const char* what;
  };
  for (const Shape s : {Shape{256, 768, 1, opt::F32ReduceOp::Sum, "sum, last dim"},
                        Shape{256, 768, 1, opt::F32ReduceOp::Max, "amax, last dim"},
                        Shape{1, 49, 1280, opt::F32ReduceOp::Mean, "mean over HxW, NHWC 7x7x1280"},
                        Shape{1, 3136, 96, opt::F32ReduceOp::Mean, "mean over HxW, NHWC 56x56x96"},
                        Shape{16, 128, 64, opt::F32ReduceOp::Sum, "sum over a middle dim"}}) {
    const size_t numel = s.outer * s.size * s.inner;
    const FloatVector x = random_vector(numel, -1, 1, 8);
    FloatVector y(s.outer * s.inner);
    Row r{s.what, numel, 4.0, 0, {}};
    r.baseline_ns = best_ns([&] {
      for (size_t o = 0; o < s.outer; ++o) {
        for (size_t j = 0; j < s.inner; ++j) {
          float acc = s.op == opt::F32ReduceOp::Max ? -INFINITY : 0.0f;
          for (size_t k = 0; k < s.size; ++k) {
            const float v = x[(o * s.size + k) * s.inner + j];
            acc = s.op == opt::F32ReduceOp::Max ? (v > acc || v != v ? v : acc) : acc + v;
          }
          y[o * s.inner + j] = s.op == opt::F32ReduceOp::Mean ? acc / s.size : acc;
        }
      }
    });
    for (const auto* v : variants) {
      r.variants.push_back({v->name, best_ns([&] {
                              opt::f32_reduce(*v, s.op, s.size, s.inner, x.data(), y.data(), 0,
                                              s.outer * s.inner);
                            })});
    }
    print_row(r);
  }
}

// --- model layers: depthwise and Winograd convolution, attention ---

// One line of a layer table: each variant's time per call in microseconds and
// the widest variant's speed-up over the AVX2 one.
void print_layer_header(const char* what, const std::vector<const char*>& variant_names) {
  std::printf("\n%-44s", what);
  for (const char* v : variant_names) std::printf(" %11s", v);
  std::printf(" %8s\n", "vs avx2");
}

void print_layer_row(const std::string& name,
                     const std::vector<std::pair<const char*, double>>& variants) {
  std::printf("%-44s", name.c_str());
  for (const auto& v : variants) std::printf(" %8.1f us", v.second / 1e3);
  std::printf(" %8s\n", vs_avx2(variants).c_str());
}

void bench_dwconv(const std::string& only) {
  if (!only.empty() && std::string("dwconv depthwise").find(only) == std::string::npos) return;
  const auto variants = supported(opt::f32_dwconv_num_variants(), opt::f32_dwconv_variant,
                                  opt::f32_dwconv_variant_supported);
  const std::vector<const char*> names = names_of(variants);
  std::printf("\n== f32-dwconv: MobileNetV2's depthwise 3x3 layers, EfficientNet-B0's 5x5 "
              "and ConvNeXt-T's 7x7 (looped taps), NHWC, one thread ==");
  print_layer_header("layer (input HxWxC, window, stride)", names);
  struct Layer {
    size_t h, w, c, k, stride;
  };
  for (const Layer l : {Layer{112, 112, 32, 3, 1}, Layer{112, 112, 96, 3, 2},
                        Layer{56, 56, 144, 3, 1}, Layer{56, 56, 144, 3, 2},
                        Layer{28, 28, 192, 3, 1}, Layer{28, 28, 192, 3, 2},
                        Layer{14, 14, 384, 3, 1}, Layer{14, 14, 576, 3, 1},
                        Layer{14, 14, 576, 3, 2}, Layer{7, 7, 960, 3, 1},
                        Layer{28, 28, 240, 5, 1}, Layer{14, 14, 672, 5, 1},
                        Layer{56, 56, 96, 7, 1}}) {
    const size_t pad = l.k / 2, taps = l.k * l.k;
    const size_t oh = (l.h + 2 * pad - l.k) / l.stride + 1;
    const size_t ow = (l.w + 2 * pad - l.k) / l.stride + 1;
    const opt::F32DwconvShape shape{1, l.c, l.h, l.w, oh, ow, l.k, l.k, l.stride, l.stride,
                                    pad, pad, 1, 1};
    const FloatVector x = random_vector(l.h * l.w * l.c, -1, 1, 9);
    const FloatVector w = random_vector(l.c * taps, -1, 1, 10);
    const FloatVector b = random_vector(l.c, -1, 1, 11);
    const FloatVector zero(l.c, 0.0f);
    FloatVector y(oh * ow * l.c);
    std::vector<const float*> indirection(opt::f32_dwconv_indirection_size(shape));
    opt::f32_dwconv_indirection(shape, zero.data(), indirection.data());
    opt::F32DwconvParams relu6;
    relu6.min = 0.0f;
    relu6.max = 6.0f;
    std::vector<std::pair<const char*, double>> times;
    for (const auto* v : variants) {
      FloatVector packed(opt::f32_dwconv_packed_size(*v, taps, l.c));
      opt::f32_dwconv_pack_weights(*v, l.k, l.k, l.c, w.data(), b.data(), packed.data());
      times.push_back({v->name, best_ns([&] {
                         opt::f32_dwconv(*v, shape, indirection.data(), zero.data(), packed.data(),
                                         x.data(), y.data(), relu6, nullptr);
                       })});
    }
    char name[64];
    std::snprintf(name, sizeof(name), "%zux%zux%zu, %zux%zu, stride %zu", l.h, l.w, l.c, l.k,
                  l.k, l.stride);
    print_layer_row(name, times);
  }
}

void bench_winograd(const std::string& only) {
  if (!only.empty() && std::string("winograd").find(only) == std::string::npos) return;
  const auto variants = supported(opt::f32_winograd_num_variants(), opt::f32_winograd_variant,
                                  opt::f32_winograd_variant_supported);
  const std::vector<const char*> names = names_of(variants);
  const opt::F32GemmConfig& gemm = opt::f32_gemm_config();
  std::printf("\n== f32-winograd: ResNet's 3x3 stride-1 layers, NHWC, one thread; the "
              "transforms alone, then the whole convolution on the %s GEMM ==",
              gemm.name);
  print_layer_header("layer (HxW, in -> out channels)", names);
  struct Layer {
    size_t hw, in_c, out_c;
  };
  for (const Layer l : {Layer{56, 64, 64}, Layer{28, 128, 128}, Layer{14, 256, 256}}) {
    opt::F32WinogradShape s{1, l.hw, l.hw, l.in_c, l.out_c, 1, 1, l.hw, l.hw};
    s.tile = opt::f32_winograd_tile_for(s);
    const size_t tiles = opt::f32_winograd_tiles(s);
    const FloatVector x = random_vector(l.hw * l.hw * l.in_c, -1, 1, 12);
    const FloatVector w = random_vector(l.out_c * l.in_c * 9, -1, 1, 13);
    const FloatVector b = random_vector(l.out_c, -1, 1, 14);
    FloatVector scratch(l.in_c * l.out_c);
    FloatVector packed(opt::f32_winograd_packed_weights_size(gemm, s));
    opt::f32_winograd_pack_weights(gemm, s, w.data(), scratch.data(), packed.data());
    FloatVector temp(opt::f32_winograd_temp_floats(s));
    FloatVector y(l.hw * l.hw * l.out_c);
    // The transformed input and the products' buffer, as the driver lays them out.
    float* v_buf = temp.data();
    float* m_buf = temp.data() + opt::f32_winograd_points(s) * tiles * l.in_c;
    std::vector<std::pair<const char*, double>> input, output, whole;
    for (const auto* v : variants) {
      input.push_back(
          {v->name, best_ns([&] {
             opt::f32_winograd_input_fn(*v, s)(s, x.data(), v_buf, tiles, 0, tiles);
           })});
      output.push_back({v->name, best_ns([&] {
                          opt::f32_winograd_output_fn(*v, s)(s, m_buf, b.data(), 0.0f, INFINITY,
                                                             y.data(), tiles, 0, tiles);
                        })});
      whole.push_back({v->name, best_ns([&] {
                         opt::f32_winograd_conv(*v, gemm, s, x.data(), packed.data(), b.data(),
                                                0.0f, INFINITY, y.data(), temp.data(), nullptr);
                       })});
    }
    char name[64];
    std::snprintf(name, sizeof(name), "%zux%zu, %zu -> %zu: input transform", l.hw, l.hw, l.in_c,
                  l.out_c);
    print_layer_row(name, input);
    std::snprintf(name, sizeof(name), "%zux%zu, %zu -> %zu: output transform", l.hw, l.hw, l.in_c,
                  l.out_c);
    print_layer_row(name, output);
    std::snprintf(name, sizeof(name), "%zux%zu, %zu -> %zu: convolution", l.hw, l.hw, l.in_c,
                  l.out_c);
    print_layer_row(name, whole);
  }
}

void bench_attention(const std::string& only) {
  if (!only.empty() && std::string("attention").find(only) == std::string::npos) return;
  const auto variants = supported(opt::f32_attention_num_variants(), opt::f32_attention_variant,
                                  opt::f32_attention_variant_supported);
  const std::vector<const char*> names = names_of(variants);
  const opt::F32GemmConfig& gemm = opt::f32_gemm_config();
  std::printf("\n== f32-attention: heads x L x d, one thread, products on the %s GEMM; the "
              "variants differ in the softmax rows and the K^T pack ==",
              gemm.name);
  print_layer_header("model (heads x L x d)", names);
  struct Shape {
    size_t heads, len, d;
    bool causal;
    const char* what;
  };
  for (const Shape sh : {Shape{12, 128, 64, false, "BERT-base"}, Shape{6, 197, 64, false, "ViT-S"},
                         Shape{12, 128, 32, false, "MiniLM"},
                         Shape{8, 512, 64, true, "causal, 2 key blocks"}}) {
    const size_t per_head = sh.len * sh.d;
    const FloatVector q = random_vector(sh.heads * per_head, -1, 1, 15);
    const FloatVector k = random_vector(sh.heads * per_head, -1, 1, 16);
    const FloatVector v = random_vector(sh.heads * per_head, -1, 1, 17);
    FloatVector out(sh.heads * per_head);
    opt::F32AttentionProblem p;
    p.heads = sh.heads;
    p.q_len = p.kv_len = sh.len;
    p.head_dim = p.v_head_dim = sh.d;
    p.q = q.data();
    p.k = k.data();
    p.v = v.data();
    p.out = out.data();
    const ptrdiff_t strides[3] = {static_cast<ptrdiff_t>(sh.heads * per_head),
                                  static_cast<ptrdiff_t>(per_head), static_cast<ptrdiff_t>(sh.d)};
    for (int i = 0; i < 3; ++i) {
      p.q_strides[i] = p.k_strides[i] = p.v_strides[i] = p.out_strides[i] = strides[i];
    }
    p.scale = 1.0f / std::sqrt(static_cast<float>(sh.d));
    p.causal = sh.causal;
    FloatVector temp(opt::f32_attention_temp_bytes(gemm, p, 1) / sizeof(float) + 16);
    void* aligned = temp.data() + (16 - reinterpret_cast<uintptr_t>(temp.data()) / 4 % 16) % 16;
    std::vector<std::pair<const char*, double>> times;
    for (const auto* cfg : variants) {
      times.push_back({cfg->name, best_ns([&] {
                         opt::f32_attention(*cfg, gemm, p, nullptr, aligned);
                       })});
    }
    char name[64];
    std::snprintf(name, sizeof(name), "%s (%zu x %zu x %zu)", sh.what, sh.heads, sh.len, sh.d);
    print_layer_row(name, times);
  }
}

// --- accuracy: every float through every unary function ---

double ulp_at(double ref) {
  const double a = std::fabs(ref);
  if (a < 0x1p-126) return 0x1p-149;
  int e;
  std::frexp(a, &e);
  return std::ldexp(1.0, e - 24);
}

double reference(opt::F32UnaryOp op, float xf) {
  const double x = xf;
  switch (op) {
    case opt::F32UnaryOp::Exp: return std::exp(x);
    case opt::F32UnaryOp::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case opt::F32UnaryOp::Tanh: return std::tanh(x);
    case opt::F32UnaryOp::Gelu: return 0.5 * x * std::erfc(-x / std::sqrt(2.0));
    case opt::F32UnaryOp::GeluTanh:
      return x / (1.0 + std::exp(-2.0 * std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
    case opt::F32UnaryOp::Silu: return x / (1.0 + std::exp(-x));
    case opt::F32UnaryOp::HardSwish:
    case opt::F32UnaryOp::HardSigmoid: {
      if (std::isnan(x)) return x;
      const double c = std::fmin(std::fmax(static_cast<double>(xf + 3.0f), 0.0), 6.0);
      if (op == opt::F32UnaryOp::HardSigmoid) return c / 6.0;
      return std::isinf(xf * static_cast<float>(c)) ? xf * static_cast<float>(c) : x * c / 6.0;
    }
    case opt::F32UnaryOp::Sqrt: return std::sqrt(x);
    case opt::F32UnaryOp::Rsqrt: return 1.0 / std::sqrt(x);
    case opt::F32UnaryOp::Abs: return std::fabs(x);
    case opt::F32UnaryOp::Neg: return -x;
    case opt::F32UnaryOp::Clamp: return x;
  }
  return x;
}

void accuracy(const std::string& only_variant) {
  std::printf("max error over all 2^32 floats: ULP of the reference rounded to float (where\n"
              "|y| >= 2^-126; below, results may flush to 0), and for GELU the error against\n"
              "XNNPACK's bound max(10 eps, 5 eps |y|) (1.0 = at the bound)\n\n");
  std::printf("%-8s %-12s %10s %14s %10s %10s\n", "variant", "function", "max ULP", "at x",
              "GELU bnd", "NaN/inf");
  FloatVector x(1 << 16), y(1 << 16);
  const opt::F32VUnaryParams none{-INFINITY, INFINITY};
  for (size_t v = 0; v < opt::f32_vunary_num_variants(); ++v) {
    const auto& cfg = opt::f32_vunary_variant(v);
    if (!opt::f32_vunary_variant_supported(cfg)) continue;
    if (!only_variant.empty() && only_variant != cfg.name) continue;
    for (size_t o = 0; o < opt::kF32UnaryOpCount; ++o) {
      const auto op = static_cast<opt::F32UnaryOp>(o);
      double worst = 0, worst_x = 0, worst_bound = 0;
      long special_mismatches = 0;
      for (uint64_t base = 0; base < (uint64_t{1} << 32); base += x.size()) {
        for (size_t i = 0; i < x.size(); ++i) {
          const uint32_t bits = static_cast<uint32_t>(base + i);
          std::memcpy(&x[i], &bits, sizeof(float));
        }
        cfg.ukernel[o](x.size(), x.data(), y.data(), &none);
        for (size_t i = 0; i < x.size(); ++i) {
          const double r = reference(op, x[i]);
          const double g = y[i];
          const bool special = std::isnan(r) || std::isnan(g) || std::isinf(g) ||
                               std::isinf(static_cast<float>(r));
          if (special) {
            special_mismatches += !(std::isnan(r) ? std::isnan(g) : static_cast<float>(r) == g);
            continue;
          }
          const double err = std::fabs(g - r);
          const double bound = std::max(10 * 0x1p-23, 5 * 0x1p-23 * std::fabs(r));
          worst_bound = std::max(worst_bound, err / bound);
          if (std::fabs(r) < 0x1p-126) continue;
          const double ulps = err / ulp_at(r);
          if (ulps > worst) {
            worst = ulps;
            worst_x = x[i];
          }
        }
      }
      std::printf("%-8s %-12s %10.2f %14a %10.3f %10ld\n", cfg.name, opt::f32_unary_op_name(op),
                  worst, worst_x, worst_bound, special_mismatches);
      std::fflush(stdout);
    }
  }
}

int main_impl(int argc, char** argv) {
  std::vector<size_t> sizes = {4096, 65536, 4 << 20};  // 16 KiB (L1), 256 KiB (L2), 16 MiB
  std::string only;
  bool check_accuracy = false;
  std::string only_variant;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
      g_seconds = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
      sizes.clear();
      for (const char* p = argv[++i]; *p != '\0';) {
        sizes.push_back(static_cast<size_t>(std::atol(p)));
        while (*p != '\0' && *p != ',') ++p;
        if (*p == ',') ++p;
      }
    } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else if (std::strcmp(argv[i], "--memory-bandwidth") == 0) {
      // Optionally the working set in MiB: a model that fits a large L3 (300
      // MiB on Emerald Rapids) reads faster than one that does not.
      const long mib = i + 1 < argc ? std::atol(argv[i + 1]) : 0;
      return print_memory_bandwidth(mib > 0 ? static_cast<size_t>(mib) : 512);
    } else if (std::strcmp(argv[i], "--accuracy") == 0) {
      check_accuracy = true;
    } else if (std::strcmp(argv[i], "--variant") == 0 && i + 1 < argc) {
      only_variant = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: %s [--seconds S] [--sizes N,...] [--only NAME] [--accuracy "
                   "[--variant NAME]] | --memory-bandwidth [MiB]\n",
                   argv[0]);
      return 2;
    }
  }
  char features[128];
  format_cpu_features(detect_cpu_features(), features, sizeof(features));
  std::printf("cpu features: %s\n", features);
  if (check_accuracy) {
    accuracy(only_variant);
    return 0;
  }
  std::printf("ns per element (best of runs over %.2f s each); GB/s = bytes read and written\n"
              "per element x elements / time; of read = that GB/s over the read bandwidth\n"
              "measured for the same footprint; speed-up = std loop / best variant\n",
              g_seconds);
  for (size_t n : sizes) {
    std::printf("read bandwidth, %zu KiB: %.1f GB/s\n", n * 8 / 1024, read_gbps(n * 8));
  }
  bench_unary(sizes, only);
  bench_binary(sizes, only);
  bench_softmax(only);
  bench_layernorm(only);
  bench_reduce(only);
  bench_dwconv(only);
  bench_winograd(only);
  bench_attention(only);
  return 0;
}

}  // namespace
}  // namespace ember

int main(int argc, char** argv) { return ember::main_impl(argc, argv); }
