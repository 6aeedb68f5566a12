// ember_vecmath_bench: ns per element and GB/s of every variant of the vector
// math and normalisation families (f32-vunary, f32-vbinary, f32-softmax,
// f32-layernorm, f32-reduce) this CPU supports, against the plain loop over
// std:: functions that the CPU backend ran before them, at sizes that live in
// L1, L2 and memory. With --accuracy, instead, the largest error of every
// unary function over all 2^32 floats, per variant. Not a test: run it by
// hand (bench/README.md).
//
//   ember_vecmath_bench [--seconds S] [--sizes N,N,...] [--only NAME] [--accuracy]
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

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-layernorm/f32_layernorm.h"
#include "kernels/optimized/f32-reduce/f32_reduce.h"
#include "kernels/optimized/f32-softmax/f32_softmax.h"
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"

namespace ember {
namespace {

namespace opt = kernels::optimized;
using Clock = std::chrono::steady_clock;

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

std::vector<float> random_vector(size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
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
  std::vector<uint64_t> buffer(words);
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

// One result line: the baseline (the std:: loop) and every variant, as ns
// per element, the best variant's GB/s (bytes moved per element given), that
// as a share of the read bandwidth for the same footprint, and its speed-up
// over the baseline.
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
  std::printf(" %9s %8s %8s\n", "best GB/s", "of read", "speed-up");
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
  std::printf(" %9.1f %7.0f%% %7.1fx\n", gbps, 100.0 * gbps / read, r.baseline_ns / best);
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
  std::vector<const char*> names;
  for (const auto* v : variants) names.push_back(v->name);
  std::printf("\n== f32-vunary: y = clamp(f(x)), 8 bytes per element ==");
  print_header(names);
  for (size_t o = 0; o < opt::kF32UnaryOpCount; ++o) {
    const auto op = static_cast<opt::F32UnaryOp>(o);
    const std::string name = opt::f32_unary_op_name(op);
    if (!only.empty() && name.find(only) == std::string::npos) continue;
    for (size_t n : sizes) {
      const float lo = op == opt::F32UnaryOp::Sqrt || op == opt::F32UnaryOp::Rsqrt ? 0.0f : -8.0f;
      const std::vector<float> x = random_vector(n, lo, 8.0f, 1);
      std::vector<float> y(n);
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
  std::vector<const char*> names;
  for (const auto* v : variants) names.push_back(v->name);
  std::printf("\n== f32-vbinary: add; per-channel NHWC through the broadcast plan ==");
  print_header(names);
  const opt::F32VBinaryParams p{-INFINITY, INFINITY};
  for (size_t n : sizes) {
    if (!only.empty() && std::string("add").find(only) == std::string::npos) break;
    const std::vector<float> a = random_vector(n, -1, 1, 1), b = random_vector(n, -1, 1, 2);
    std::vector<float> y(n);
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
    const std::vector<float> a = random_vector(n, -1, 1, 1), b = random_vector(c, -1, 1, 2);
    std::vector<float> y(n);
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
  std::vector<const char*> names;
  for (const auto* v : variants) names.push_back(v->name);
  std::printf("\n== f32-softmax: rows x n; the baseline is the portable algorithm in float ==");
  print_header(names);
  struct Shape {
    size_t rows, n;
  };
  for (const Shape s : {Shape{64, 128}, Shape{16, 1000}, Shape{128, 128 * 12}, Shape{4, 32000}}) {
    for (bool log : {false, true}) {
      const size_t numel = s.rows * s.n;
      const std::vector<float> x = random_vector(numel, -10, 10, 3);
      std::vector<float> y(numel);
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
  const std::vector<float> x = random_vector(numel, -10, 10, 4);
  std::vector<float> y(numel);
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
  std::vector<const char*> names;
  for (const auto* v : variants) names.push_back(v->name);
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
      const std::vector<float> x = random_vector(numel, -3, 3, 5);
      const std::vector<float> w = random_vector(s.n, 0.5f, 1.5f, 6);
      const std::vector<float> b = random_vector(s.n, -0.5f, 0.5f, 7);
      std::vector<float> y(numel);
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
  std::vector<const char*> names;
  for (const auto* v : variants) names.push_back(v->name);
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
    const std::vector<float> x = random_vector(numel, -1, 1, 8);
    std::vector<float> y(s.outer * s.inner);
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

void accuracy() {
  std::printf("max error over all 2^32 floats: ULP of the reference rounded to float (where\n"
              "|y| >= 2^-126; below, results may flush to 0), and for GELU the error against\n"
              "XNNPACK's bound max(10 eps, 5 eps |y|) (1.0 = at the bound)\n\n");
  std::printf("%-8s %-12s %10s %14s %10s %10s\n", "variant", "function", "max ULP", "at x",
              "GELU bnd", "NaN/inf");
  std::vector<float> x(1 << 16), y(1 << 16);
  const opt::F32VUnaryParams none{-INFINITY, INFINITY};
  for (size_t v = 0; v < opt::f32_vunary_num_variants(); ++v) {
    const auto& cfg = opt::f32_vunary_variant(v);
    if (!opt::f32_vunary_variant_supported(cfg)) continue;
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
    } else if (std::strcmp(argv[i], "--accuracy") == 0) {
      check_accuracy = true;
    } else {
      std::fprintf(stderr, "usage: %s [--seconds S] [--sizes N,...] [--only NAME] [--accuracy]\n",
                   argv[0]);
      return 2;
    }
  }
  char features[128];
  format_cpu_features(detect_cpu_features(), features, sizeof(features));
  std::printf("cpu features: %s\n", features);
  if (check_accuracy) {
    accuracy();
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
  return 0;
}

}  // namespace
}  // namespace ember

int main(int argc, char** argv) { return ember::main_impl(argc, argv); }
