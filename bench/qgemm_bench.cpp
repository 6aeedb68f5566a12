// ember_qgemm_bench: GOP/s (2 M N K / s) of every int8 GEMM variant this CPU
// supports (static qs8 with requantization, dynamic qd8-f32, and the indirect
// GEMM on the 3x3 convolutions) against Ember's f32 GEMM on the same shapes
// in the same run, weights packed once outside the timing for both (as a
// layer holds them). The shapes are those of the benchmark models: the
// pointwise convolutions of MobileNetV2, the 1x1 and 3x3 convolutions of
// ResNet-50 and the projections of BERT-base at 128 tokens. Not a test: run
// it by hand, on a quiet machine (bench/README.md).
//
//   ember_qgemm_bench [--seconds S] [--threads 1,2] [--sizes MxNxK[xKH],...] [--best]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench/aligned_buffer.h"
#include "extension/threadpool/worker_pool.h"
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/qs8-gemm/qs8_gemm.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {
namespace {

using namespace kernels::optimized;
using Clock = std::chrono::steady_clock;

// A GEMM shape; kh > 1 marks a kh x kh stride-1 convolution over a square
// feature map of sqrt(m) pixels a side, K = kh * kh * channels (the indirect
// GEMM's shape).
struct Shape {
  int m, n, k, kh;
  const char* what;
};

const Shape kShapes[] = {
    {3136, 144, 24, 1, "MobileNetV2 56x56 expand 24->144"},
    {3136, 24, 144, 1, "MobileNetV2 56x56 project 144->24"},
    {784, 192, 32, 1, "MobileNetV2 28x28 expand 32->192"},
    {196, 384, 64, 1, "MobileNetV2 14x14 expand 64->384"},
    {196, 64, 384, 1, "MobileNetV2 14x14 project 384->64"},
    {196, 576, 96, 1, "MobileNetV2 14x14 expand 96->576"},
    {49, 960, 160, 1, "MobileNetV2 7x7 expand 160->960"},
    {49, 160, 960, 1, "MobileNetV2 7x7 project 960->160"},
    {49, 1280, 320, 1, "MobileNetV2 7x7 last 320->1280"},
    {3136, 256, 64, 1, "ResNet-50 56x56 1x1 64->256"},
    {784, 128, 512, 1, "ResNet-50 28x28 1x1 512->128"},
    {196, 1024, 256, 1, "ResNet-50 14x14 1x1 256->1024"},
    {49, 2048, 512, 1, "ResNet-50 7x7 1x1 512->2048"},
    {3136, 64, 576, 3, "ResNet-50 56x56 3x3 64->64"},
    {784, 128, 1152, 3, "ResNet-50 28x28 3x3 128->128"},
    {196, 256, 2304, 3, "ResNet-50 14x14 3x3 256->256"},
    {49, 512, 4608, 3, "ResNet-50 7x7 3x3 512->512"},
    {128, 768, 768, 1, "BERT-base projection (128 tokens)"},
    {128, 3072, 768, 1, "BERT-base FFN up"},
    {128, 768, 3072, 1, "BERT-base FFN down"},
};

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The best time of runs over `seconds` (at least 3 after a warm-up run): on a
// shared machine the least disturbed run is the one to report.
template <typename F>
double best_time(double seconds, F&& fn) {
  fn();
  double best = 1e30;
  const auto start = Clock::now();
  for (int runs = 0; runs < 3 || (seconds_since(start) < seconds && runs < 2000); ++runs) {
    const auto t0 = Clock::now();
    fn();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}

std::vector<int8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(-127, 127);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(d(gen));
  return v;
}

struct Timings {
  double f32 = 0, qs8 = 0, qd8 = 0;
};

// The f32 GEMM's GFLOP/s with B packed once (the CPU backend's Linear and
// Conv2d), the best variant cpu_features() allows. Packed weights, here and
// for int8, are 64-byte aligned, as the backend holds them.
double time_f32(const Shape& s, int threads, WorkerPool* pool, double seconds) {
  const F32GemmConfig& cfg = f32_gemm_config();
  std::vector<float> a(static_cast<size_t>(s.m) * s.k, 0.5f), b(static_cast<size_t>(s.k) * s.n);
  std::vector<float> c(static_cast<size_t>(s.m) * s.n);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 7) * 0.1f;
  bench::AlignedBuffer<float> packed(f32_gemm_packed_weights_size(cfg, s.k, s.n));
  f32_gemm_pack_weights(cfg, s.k, s.n, b.data(), s.n, packed.data());
  F32GemmProblem p;
  p.m = s.m;
  p.n = s.n;
  p.k = s.k;
  p.a = a.data();
  p.lda = s.k;
  p.packed_b = packed.data();
  p.c = c.data();
  p.ldc = s.n;
  KernelContext ctx(nullptr, threads > 1 ? pool : nullptr);
  const double t = best_time(seconds, [&] { f32_gemm(cfg, p, &ctx); });
  return 2.0 * s.m * s.n * s.k / t / 1e9;
}

// One int8 variant: the qs8 GEMM (the indirect one for kh > 1) and the qd8-f32
// GEMM (linear shapes only: dynamic quantization is for linear layers).
Timings time_int8(const Qs8GemmConfig& cfg, const Shape& s, int threads, WorkerPool* pool,
                  double seconds) {
  Timings out;
  const size_t ks = static_cast<size_t>(s.kh) * s.kh;
  const size_t kc = s.k / ks;
  const std::vector<int8_t> w = random_bytes(static_cast<size_t>(s.n) * s.k, 1);
  std::vector<float> scale(s.n, 1e-3f), w_scale(s.n, 1e-2f);
  std::vector<int32_t> bias(s.n, 100);
  Qs8Weights weights;
  weights.data = w.data();
  weights.ks = ks;
  weights.kc = kc;
  weights.n = s.n;
  weights.tap_stride = 1;
  weights.k_stride = static_cast<ptrdiff_t>(ks);
  weights.n_stride = s.k;
  bench::AlignedBuffer<uint64_t> packed(qd8_gemm_packed_size(cfg, ks, kc, s.n) / 8 + 1);
  std::vector<int8_t> c(static_cast<size_t>(s.m) * s.n);
  KernelContext ctx(nullptr, threads > 1 ? pool : nullptr);
  const double ops = 2.0 * s.m * s.n * s.k;
  qs8_gemm_pack_weights(cfg, weights, bias.data(), 3, scale.data(), packed.data());
  if (s.kh == 1) {
    const std::vector<int8_t> a = random_bytes(static_cast<size_t>(s.m) * s.k, 2);
    Qs8GemmProblem p;
    p.m = s.m;
    p.n = s.n;
    p.k = s.k;
    p.a = a.data();
    p.lda = s.k;
    p.packed_w = packed.data();
    p.c = c.data();
    p.ldc = s.n;
    out.qs8 = ops / best_time(seconds, [&] { qs8_gemm(cfg, p, &ctx); }) / 1e9;

    qd8_gemm_pack_weights(cfg, weights, w_scale.data(), scale.data(), packed.data());
    std::vector<int32_t> a_zero(s.m, 5);
    std::vector<float> a_scale(s.m, 0.02f), cf(static_cast<size_t>(s.m) * s.n);
    Qd8F32GemmProblem q;
    q.m = s.m;
    q.n = s.n;
    q.k = s.k;
    q.a = a.data();
    q.lda = s.k;
    q.a_zero = a_zero.data();
    q.a_scale = a_scale.data();
    q.packed_w = packed.data();
    q.c = cf.data();
    q.ldc = s.n;
    out.qd8 = ops / best_time(seconds, [&] { qd8_f32_gemm(cfg, q, &ctx); }) / 1e9;
  } else {
    // A square feature map, 'same' padding, channels-last.
    const size_t side = static_cast<size_t>(std::lround(std::sqrt(s.m)));
    const size_t pad = static_cast<size_t>(s.kh / 2);
    const std::vector<int8_t> x = random_bytes(side * side * kc, 2);
    const std::vector<int8_t> zero(kc, 3);
    const size_t kh = static_cast<size_t>(s.kh);
    Qs8ConvShape shape{1, side, side, kc, side, side, kh, kh, 1, 1, pad, pad, 1, 1};
    std::vector<const int8_t*> ind(qs8_igemm_indirection_size(shape));
    qs8_igemm_conv_indirection(shape, zero.data(), ind.data());
    Qs8IgemmProblem p;
    p.m = side * side;
    p.n = s.n;
    p.kc = kc;
    p.ks = ks;
    p.indirection = ind.data();
    p.a_offset = reinterpret_cast<uintptr_t>(x.data());
    p.zero = zero.data();
    p.packed_w = packed.data();
    p.c = c.data();
    p.ldc = s.n;
    out.qs8 = ops / best_time(seconds, [&] { qs8_igemm(cfg, p, &ctx); }) / 1e9;
  }
  return out;
}

int main_impl(int argc, char** argv) {
  double seconds = 0.3;
  bool best_only = false;
  std::vector<int> thread_counts = {1};
  std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      thread_counts.clear();
      for (const char* p = argv[++i]; *p != '\0';) {
        thread_counts.push_back(std::atoi(p));
        while (*p != '\0' && *p != ',') ++p;
        if (*p == ',') ++p;
      }
    } else if (std::strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
      shapes.clear();
      for (const char* p = argv[++i]; *p != '\0';) {
        // MxNxK, or MxNxKxKH for a KH x KH convolution (K = KH KH channels).
        int m = 0, n = 0, k = 0, kh = 1;
        const int got = std::sscanf(p, "%dx%dx%dx%d", &m, &n, &k, &kh);
        if (got < 3 || m <= 0 || n <= 0 || k <= 0 || kh <= 0 || k % (kh * kh) != 0) {
          std::fprintf(stderr, "bad size %s (want MxNxK or MxNxKxKH)\n", p);
          return 2;
        }
        shapes.push_back({m, n, k, kh, "custom"});
        while (*p != '\0' && *p != ',') ++p;
        if (*p == ',') ++p;
      }
    } else if (std::strcmp(argv[i], "--best") == 0) {
      best_only = true;
    } else {
      std::fprintf(stderr, "usage: %s [--seconds S] [--threads 1,2] [--sizes MxNxK[xKH],...] [--best]\n",
                   argv[0]);
      return std::strcmp(argv[i], "--help") == 0 ? 0 : 2;
    }
  }
  char features[160];
  format_cpu_features(detect_cpu_features(), features, sizeof(features));
  std::printf("cpu features: %s\n", features);
  std::printf("f32 gemm variant: %s; int8 variants: %s\n", f32_gemm_config().name,
              best_only ? qs8_gemm_config().name : "every supported one");
  std::printf("GOP/s = 2 M N K / best time over %.2f s; x f32 = int8 GOP/s / f32 GFLOP/s "
              "(multiply-adds per second); weights packed once, outside the timing\n\n",
              seconds);
  std::vector<const Qs8GemmConfig*> variants;
  for (size_t i = 0; i < qs8_gemm_num_variants(); ++i) {
    const Qs8GemmConfig& v = qs8_gemm_variant(i);
    if (!qs8_gemm_variant_supported(v)) continue;
    if (best_only && &v != &qs8_gemm_config()) continue;
    variants.push_back(&v);
  }
  std::printf("%-16s %-4s %7s %-11s %8s %7s %8s %7s  %s\n", "MxNxK", "kind", "threads", "variant",
              "f32", "qs8", "x f32", "qd8-f32", "");
  for (const Shape& s : shapes) {
    for (int threads : thread_counts) {
      WorkerPool pool(static_cast<size_t>(threads));
      const double f32 = time_f32(s, threads, &pool, seconds);
      for (const Qs8GemmConfig* v : variants) {
        const Timings t = time_int8(*v, s, threads, &pool, seconds);
        char label[40];
        std::snprintf(label, sizeof(label), "%dx%dx%d", s.m, s.n, s.k);
        char qd8[16] = "-";
        if (t.qd8 > 0) std::snprintf(qd8, sizeof(qd8), "%7.1f", t.qd8);
        std::printf("%-16s %-4s %7d %-11s %8.1f %7.1f %7.2fx %7s  %s\n", label,
                    s.kh > 1 ? "conv" : "gemm", threads, v->name, f32, t.qs8, t.qs8 / f32, qd8,
                    s.what);
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace ember

int main(int argc, char** argv) { return ember::main_impl(argc, argv); }
