// The Winograd family's driver: variant selection, the weight transform and
// packing, the choice of tile, and the run: input transform, a GEMM per
// point, output transform, each split over the thread pool. Compiled without ISA flags.
#include <cstring>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-winograd/f32_winograd.h"
#include "runtime/core/thread_pool.h"

namespace ember::kernels::optimized {

// Defined by the variant files CMake compiles for this architecture.
extern const F32WinogradConfig kF32WinogradScalarConfig;
#if defined(__x86_64__)
extern const F32WinogradConfig kF32WinogradAvx512Config;
extern const F32WinogradConfig kF32WinogradAvx2Config;
#endif
#if defined(__aarch64__)
extern const F32WinogradConfig kF32WinogradNeonConfig;
#endif

namespace {

const F32WinogradConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kF32WinogradAvx512Config,
    &kF32WinogradAvx2Config,
#endif
#if defined(__aarch64__)
    &kF32WinogradNeonConfig,
#endif
    &kF32WinogradScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

// G (6 x 3 for F(4x4), 4 x 3 for F(2x2)), in double so that U = G g Gt
// rounds once, to float.
constexpr double kG4[6][3] = {
    {1.0 / 4, 0.0, 0.0},
    {-1.0 / 6, -1.0 / 6, -1.0 / 6},
    {-1.0 / 6, 1.0 / 6, -1.0 / 6},
    {1.0 / 24, 1.0 / 12, 1.0 / 6},
    {1.0 / 24, -1.0 / 12, 1.0 / 6},
    {0.0, 0.0, 1.0},
};
constexpr double kG2[4][3] = {
    {1.0, 0.0, 0.0},
    {0.5, 0.5, 0.5},
    {0.5, -0.5, 0.5},
    {0.0, 0.0, 1.0},
};

// Below these, the transforms cost more than the GEMMs save; above the weight
// bounds, the weights' growth costs more memory traffic than the smaller
// GEMMs save (f32_winograd_tile_for).
constexpr size_t kMinChannels = 8;
constexpr size_t kMinOutputPixels4 = 12 * 12;
constexpr size_t kMaxWeightBytes4 = size_t{8} << 20;
constexpr size_t kMinOutputPixels2 = 6 * 6;
constexpr size_t kMaxWeightBytes2 = size_t{24} << 20;

size_t side_of(const F32WinogradShape& s) { return s.tile + 2; }

}  // namespace

size_t f32_winograd_num_variants() { return kNumVariants; }

const F32WinogradConfig& f32_winograd_variant(size_t index) { return *kVariants[index]; }

bool f32_winograd_variant_supported(const F32WinogradConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const F32WinogradConfig& f32_winograd_config() {
  static const F32WinogradConfig* const chosen = [] {
    for (const F32WinogradConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kF32WinogradScalarConfig;
  }();
  return *chosen;
}

F32WinogradInputFn f32_winograd_input_fn(const F32WinogradConfig& config,
                                         const F32WinogradShape& s) {
  return s.tile == 4 ? config.input : config.input_2x2;
}

F32WinogradOutputFn f32_winograd_output_fn(const F32WinogradConfig& config,
                                           const F32WinogradShape& s) {
  return s.tile == 4 ? config.output : config.output_2x2;
}

size_t f32_winograd_points(const F32WinogradShape& s) { return side_of(s) * side_of(s); }

size_t f32_winograd_tiles(const F32WinogradShape& s) {
  const size_t rows = (s.out_h + s.tile - 1) / s.tile;
  const size_t cols = (s.out_w + s.tile - 1) / s.tile;
  return s.batch * rows * cols;
}

size_t f32_winograd_tile_for(const F32WinogradShape& s) {
  if (s.in_c < kMinChannels || s.out_c < kMinChannels) return 0;
  const size_t pixels = s.out_h * s.out_w;
  const size_t pair_bytes = s.in_c * s.out_c * sizeof(float);
  if (pixels >= kMinOutputPixels4 && 36 * pair_bytes <= kMaxWeightBytes4) return 4;
  if (pixels >= kMinOutputPixels2 && 16 * pair_bytes <= kMaxWeightBytes2) return 2;
  return 0;
}

size_t f32_winograd_packed_weights_size(const F32GemmConfig& gemm, const F32WinogradShape& s) {
  return f32_winograd_points(s) * f32_gemm_packed_weights_size(gemm, s.in_c, s.out_c);
}

void f32_winograd_pack_weights(const F32GemmConfig& gemm, const F32WinogradShape& s,
                               const float* weight, float* scratch, float* packed) {
  const size_t in_c = s.in_c, out_c = s.out_c, side = side_of(s);
  const size_t per_point = f32_gemm_packed_weights_size(gemm, in_c, out_c);
  for (size_t p = 0; p < f32_winograd_points(s); ++p) {
    const size_t i = p / side, j = p % side;
    const double* gi = s.tile == 4 ? kG4[i] : kG2[i];
    const double* gj = s.tile == 4 ? kG4[j] : kG2[j];
    // B_p[ci][co] = (G g Gt)[i][j] for the filter g of (co, ci).
    for (size_t co = 0; co < out_c; ++co) {
      for (size_t ci = 0; ci < in_c; ++ci) {
        const float* g = weight + (co * in_c + ci) * 9;
        double u = 0.0;
        for (size_t a = 0; a < 3; ++a) {
          for (size_t b = 0; b < 3; ++b) u += gi[a] * static_cast<double>(g[a * 3 + b]) * gj[b];
        }
        scratch[ci * out_c + co] = static_cast<float>(u);
      }
    }
    f32_gemm_pack_weights(gemm, in_c, out_c, scratch, out_c, packed + p * per_point);
  }
}

size_t f32_winograd_temp_floats(const F32WinogradShape& s) {
  return f32_winograd_points(s) * f32_winograd_tiles(s) * (s.in_c + s.out_c);
}

namespace {

// Runs `activation` over the output rows of tiles [begin, end), in the tile
// order of the transforms (image, tile row, tile column).
void apply_to_tiles(const F32WinogradShape& s, const F32RowActivation& activation, float* output,
                    int64_t begin, int64_t end) {
  const size_t tile = s.tile;
  const size_t rows = (s.out_h + tile - 1) / tile;
  const size_t cols = (s.out_w + tile - 1) / tile;
  for (size_t t = static_cast<size_t>(begin); t < static_cast<size_t>(end); ++t) {
    const size_t n = t / (rows * cols), ty = t / cols % rows, tx = t % cols;
    const size_t y0 = ty * tile, x0 = tx * tile;
    const size_t h = s.out_h - y0 < tile ? s.out_h - y0 : tile;
    const size_t w = s.out_w - x0 < tile ? s.out_w - x0 : tile;
    for (size_t y = 0; y < h; ++y) {
      activation.fn(w * s.out_c, output + ((n * s.out_h + y0 + y) * s.out_w + x0) * s.out_c,
                    activation.params);
    }
  }
}

}  // namespace

void f32_winograd_conv(const F32WinogradConfig& config, const F32GemmConfig& gemm,
                       const F32WinogradShape& s, const float* input,
                       const float* packed_weights, const float* bias, float clamp_min,
                       float clamp_max, float* output, float* temp, ThreadPool* pool,
                       const F32RowActivation& activation) {
  const size_t tiles = f32_winograd_tiles(s);
  if (tiles == 0 || s.out_c == 0) return;
  float* v = temp;
  const size_t points = f32_winograd_points(s);
  float* m = temp + points * tiles * s.in_c;
  const F32WinogradInputFn input_fn = f32_winograd_input_fn(config, s);
  const F32WinogradOutputFn output_fn = f32_winograd_output_fn(config, s);
  // Chunks of at least 4 tiles (each is 36 x channels of work).
  const int64_t n_tiles = static_cast<int64_t>(tiles);
  parallel_for(pool, n_tiles, 4, [&](int64_t begin, int64_t end) {
    input_fn(s, input, v, tiles, static_cast<size_t>(begin), static_cast<size_t>(end));
  });
  // One GEMM per point, whole on one thread: 36 (or 16) split evenly between
  // 2, 3, 4... threads, and no thread waits on another inside a GEMM. A
  // thread's points are one batched GEMM, so that the driver fetches the
  // next point's weights while it runs the current one's: they come from
  // memory (4x the direct convolution's), and a point's GEMM is too short to
  // hide the wait (ResNet-50's 14x14 layers took 1.6x as long with their
  // weights out of cache).
  const size_t per_point = f32_gemm_packed_weights_size(gemm, s.in_c, s.out_c);
  parallel_for(pool, static_cast<int64_t>(points), 1,
               [&](int64_t begin, int64_t end) {
                 const size_t p = static_cast<size_t>(begin);
                 F32GemmProblem g;
                 g.batch = static_cast<size_t>(end - begin);
                 g.m = tiles;
                 g.k = s.in_c;
                 g.n = s.out_c;
                 g.a = v + p * tiles * s.in_c;
                 g.lda = s.in_c;
                 g.a_batch_stride = tiles * s.in_c;
                 g.packed_b = packed_weights + p * per_point;
                 g.packed_b_batch_stride = per_point;
                 g.c = m + p * tiles * s.out_c;
                 g.ldc = s.out_c;
                 g.c_batch_stride = tiles * s.out_c;
                 f32_gemm(gemm, g, nullptr);
               });
  parallel_for(pool, n_tiles, 4, [&](int64_t begin, int64_t end) {
    output_fn(s, m, bias, clamp_min, clamp_max, output, tiles, static_cast<size_t>(begin),
              static_cast<size_t>(end));
    if (activation.fn != nullptr) apply_to_tiles(s, activation, output, begin, end);
  });
}

}  // namespace ember::kernels::optimized
