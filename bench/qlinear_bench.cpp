// ember_qlinear_bench: the weight-only quantized GEMM's microkernels (the
// LLM linears: f32-qgemm, Q4_1 and Q8_0 blocks) of every variant this CPU
// supports, as GB/s of weights read: the GEMV of decode (one row of x, every
// panel of the weight, through the driver) and the unpack that prefill runs
// before the f32 GEMM.
// One thread, the weights read in place as a .pte holds them; shapes from
// SmolLM2-135M (576 hidden, 1536 MLP) and larger ones that stream from L3 or
// memory. Not a test: run it by hand, on a quiet machine (bench/README.md).
//
//   ember_qlinear_bench [--seconds S] [--sizes NxK,...]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench/aligned_buffer.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"

namespace ember {
namespace {

using namespace kernels::optimized;
using Clock = std::chrono::steady_clock;

struct Shape {
  size_t n, k;  // weight rows (outputs) x inputs
  const char* what;
};

const Shape kShapes[] = {
    {576, 576, "SmolLM2-135M attention projection"},
    {1536, 576, "SmolLM2-135M MLP up/gate"},
    {576, 1536, "SmolLM2-135M MLP down"},
    {2048, 2048, "2048 x 2048 (in L3)"},
    {8192, 4096, "8192 x 4096 (from memory)"},
};

// A weight of n x k in `bits` blocks, in panels of 16 rows: every scale (and
// Q4_1 minimum) 0.01 in fp16, the codes random.
bench::AlignedBuffer<uint8_t> make_weight(int bits, size_t n, size_t k) {
  const size_t block = f32_qgemm_block_bytes(bits), blocks = n * k / 32;
  bench::AlignedBuffer<uint8_t> w(blocks * block);
  std::mt19937 rng(1);
  for (uint8_t& b : w) b = static_cast<uint8_t>(rng());
  const size_t scales = bits == 4 ? 32 : 16;  // fp16 values heading a block of 16 rows
  for (size_t at = 0; at < w.size(); at += block * kF32QPanelRows) {
    for (size_t s = 0; s < scales; ++s) {
      w.data()[at + 2 * s] = 0x1F;  // 0x211F: 0.01
      w.data()[at + 2 * s + 1] = 0x21;
    }
  }
  return w;
}

// Best seconds of f() over a time box (at least 3 runs).
template <typename F>
double best_seconds(double box, F f) {
  double best = 1e30;
  const auto end = Clock::now() + std::chrono::duration<double>(box);
  for (int run = 0; run < 3 || Clock::now() < end; ++run) {
    const auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return best;
}

void run(const Shape& s, double seconds) {
  const size_t nb = s.k / 32, panels = s.n / kF32QPanelRows;
  bench::AlignedBuffer<float> x(s.k), y(s.n), unpacked(kF32QGemmPanelFloats);
  for (size_t i = 0; i < s.k; ++i) x.data()[i] = 0.001f * static_cast<float>(i % 97);
  const std::string shape = std::to_string(s.n) + "x" + std::to_string(s.k);
  for (int bits : {4, 8}) {
    bench::AlignedBuffer<uint8_t> w = make_weight(bits, s.n, s.k);
    const size_t panel_bytes = nb * f32_qgemm_block_bytes(bits) * kF32QPanelRows;
    for (size_t v = 0; v < f32_qgemm_num_variants(); ++v) {
      const F32QGemmConfig& cfg = f32_qgemm_variant(v);
      if (!f32_qgemm_variant_supported(cfg)) continue;
      const F32QUnpackFn unpack = bits == 4 ? cfg.unpack_q4_1 : cfg.unpack_q8_0;
      // The driver at one row, as decode runs it: x's block sums (and, for
      // a variant with an integer GEMV, its digits), then every panel.
      F32QGemmProblem problem;
      problem.bits = bits;
      problem.m = 1;
      problem.n = s.n;
      problem.k = s.k;
      problem.x = x.data();
      problem.w = w.data();
      problem.y = y.data();
      const double gemv_s = best_seconds(
          seconds, [&] { f32_qgemm(cfg, f32_gemm_config(), problem, nullptr); });
      // As prefill unpacks: up to 8 blocks (256 inputs) of a panel at a
      // time, NR = 32.
      const size_t block_bytes = f32_qgemm_block_bytes(bits) * kF32QPanelRows;
      const double unpack_s = best_seconds(seconds, [&] {
        for (size_t p = 0; p < panels; ++p) {
          for (size_t b = 0; b < nb; b += 8) {
            unpack(std::min<size_t>(8, nb - b), w.data() + p * panel_bytes + b * block_bytes,
                   kF32QPanelRows, 0, kF32QPanelRows, 32, unpacked.data());
          }
        }
      });
      const double gb = static_cast<double>(w.size()) / 1e9;
      std::printf("%-13s %-7s %-7s %9.1f %11.1f   %s\n", shape.c_str(), bits == 4 ? "Q4_1" : "Q8_0",
                  cfg.name, gb / gemv_s, gb / unpack_s, s.what);
    }
  }
}

int main_impl(int argc, char** argv) {
  double seconds = 0.3;
  std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--seconds" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (arg == "--sizes" && i + 1 < argc) {
      shapes.clear();
      for (const char* p = argv[++i]; *p != '\0';) {
        char* end = nullptr;
        const size_t n = std::strtoul(p, &end, 10);
        if (*end != 'x') break;
        const size_t k = std::strtoul(end + 1, &end, 10);
        shapes.push_back({n, k, "given"});
        p = *end == ',' ? end + 1 : end;
      }
    } else {
      std::fprintf(stderr, "usage: %s [--seconds S] [--sizes NxK,...]\n", argv[0]);
      return 2;
    }
  }
  for (const Shape& s : shapes) {
    if (s.n == 0 || s.n % kF32QPanelRows != 0 || s.k == 0 || s.k % 32 != 0) {
      std::fprintf(stderr, "%zux%zu: N must be a multiple of 16 and K of 32\n", s.n, s.k);
      return 2;
    }
  }
  std::printf("GB/s of weights read, 1 thread, best over %.2f s per cell\n\n", seconds);
  std::printf("%-13s %-7s %-7s %9s %11s\n", "NxK", "format", "variant", "GEMV", "unpack");
  for (const Shape& s : shapes) run(s, seconds);
  return 0;
}

}  // namespace
}  // namespace ember

int main(int argc, char** argv) { return ember::main_impl(argc, argv); }
