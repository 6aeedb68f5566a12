// The f32 depthwise convolution family's driver: variant selection, weight
// packing, the indirection buffer and the split over threads. Compiled
// without ISA flags.
#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "runtime/core/thread_pool.h"
#include "kernels/optimized/f32-dwconv/f32_dwconv.h"

namespace ember {
namespace kernels::optimized {

// Defined by the variant files CMake compiles for this architecture.
extern const F32DwconvConfig kF32DwconvScalarConfig;
#if defined(__x86_64__)
extern const F32DwconvConfig kF32DwconvAvx512Config;
extern const F32DwconvConfig kF32DwconvAvx2Config;
#endif
#if defined(__aarch64__)
extern const F32DwconvConfig kF32DwconvNeonConfig;
#endif
#if defined(__wasm_simd128__)
extern const F32DwconvConfig kF32DwconvWasmSimdConfig;
#endif

namespace {

const F32DwconvConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kF32DwconvAvx512Config,
    &kF32DwconvAvx2Config,
#endif
#if defined(__aarch64__)
    &kF32DwconvNeonConfig,
#endif
#if defined(__wasm_simd128__)
    &kF32DwconvWasmSimdConfig,
#endif
    &kF32DwconvScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

size_t round_up(size_t a, size_t b) { return (a + b - 1) / b * b; }

}  // namespace

size_t f32_dwconv_num_variants() { return kNumVariants; }

const F32DwconvConfig& f32_dwconv_variant(size_t index) { return *kVariants[index]; }

bool f32_dwconv_variant_supported(const F32DwconvConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const F32DwconvConfig& f32_dwconv_config() {
  static const F32DwconvConfig* const chosen = [] {
    for (const F32DwconvConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kF32DwconvScalarConfig;
  }();
  return *chosen;
}

F32DwconvUkernelFn f32_dwconv_ukernel(const F32DwconvConfig& config, size_t taps) {
  if (taps == 9 && config.up9 != nullptr) return config.up9;
  if (taps == 25 && config.up25 != nullptr) return config.up25;
  return config.any;
}

size_t f32_dwconv_packed_size(const F32DwconvConfig& config, size_t taps, size_t channels) {
  return round_up(channels, config.channel_tile) * (taps + 1);
}

void f32_dwconv_pack_weights(const F32DwconvConfig& config, size_t kh, size_t kw,
                             size_t channels, const float* weights, const float* bias,
                             float* packed) {
  const size_t tile = config.channel_tile;
  const size_t taps = kh * kw;
  for (size_t c0 = 0; c0 < channels; c0 += tile) {
    for (size_t j = 0; j < tile; ++j) {
      const size_t c = c0 + j;
      packed[j] = c < channels && bias != nullptr ? bias[c] : 0.0f;
    }
    packed += tile;
    for (size_t kx = 0; kx < kw; ++kx) {
      for (size_t ky = 0; ky < kh; ++ky) {
        for (size_t j = 0; j < tile; ++j) {
          const size_t c = c0 + j;
          packed[j] = c < channels ? weights[c * taps + ky * kw + kx] : 0.0f;
        }
        packed += tile;
      }
    }
  }
}

size_t f32_dwconv_pixel_step(const F32DwconvShape& s) {
  // With dilation, or a stride past the kernel, pixels share no columns.
  return (s.dil_w == 1 ? (s.stride_w < s.kw ? s.stride_w : s.kw) : s.kw) * s.kh;
}

size_t f32_dwconv_row_pointers(const F32DwconvShape& s) {
  if (s.out_w == 0) return 0;
  return s.kw * s.kh + (s.out_w - 1) * f32_dwconv_pixel_step(s);
}

size_t f32_dwconv_indirection_size(const F32DwconvShape& s) {
  return f32_dwconv_row_pointers(s) * s.batch * s.out_h;
}

void f32_dwconv_indirection(const F32DwconvShape& s, const float* zero,
                            const float** indirection) {
  const size_t step = f32_dwconv_pixel_step(s);
  const size_t row_pointers = f32_dwconv_row_pointers(s);
  for (size_t n = 0; n < s.batch; ++n) {
    for (size_t oy = 0; oy < s.out_h; ++oy) {
      const float** row = indirection + (n * s.out_h + oy) * row_pointers;
      for (size_t ox = 0; ox < s.out_w; ++ox) {
        for (size_t kx = 0; kx < s.kw; ++kx) {
          // Unsigned: a position in the left or top padding wraps round to
          // a huge value, which the bounds test rejects too.
          const size_t ix = ox * s.stride_w + kx * s.dil_w - s.pad_w;
          for (size_t ky = 0; ky < s.kh; ++ky) {
            const size_t iy = oy * s.stride_h + ky * s.dil_h - s.pad_h;
            const float* p = zero;
            if (iy < s.in_h && ix < s.in_w) {
              p = reinterpret_cast<const float*>(((n * s.in_h + iy) * s.in_w + ix) * s.channels *
                                                 sizeof(float));
            }
            // Shared columns are written once per pixel that covers them,
            // with the same pointer each time.
            row[ox * step + kx * s.kh + ky] = p;
          }
        }
      }
    }
  }
}

bool f32_dwconv_unpadded_input(const F32DwconvShape& s, int64_t in_h, int64_t in_w,
                               int64_t top, int64_t left, F32DwconvShape* unpadded) {
  if (top < 0 || left < 0 || in_h < 0 || in_w < 0 ||
      static_cast<size_t>(top + in_h) > s.in_h || static_cast<size_t>(left + in_w) > s.in_w) {
    return false;
  }
  *unpadded = s;
  unpadded->in_h = static_cast<size_t>(in_h);
  unpadded->in_w = static_cast<size_t>(in_w);
  unpadded->pad_h += static_cast<size_t>(top);
  unpadded->pad_w += static_cast<size_t>(left);
  return true;
}

void f32_dwconv(const F32DwconvConfig& config, const F32DwconvShape& s,
                const float* const* indirection, const float* zero, const float* packed,
                const float* input, float* output, const F32DwconvParams& params,
                ThreadPool* pool) {
  const size_t taps = s.kh * s.kw;
  const F32DwconvUkernelFn ukernel = f32_dwconv_ukernel(config, taps);
  const size_t step = f32_dwconv_pixel_step(s);
  const size_t row_pointers = f32_dwconv_row_pointers(s);
  const size_t row_floats = s.out_w * s.channels;
  parallel_for(pool, static_cast<int64_t>(s.batch * s.out_h), 1, [&](int64_t begin, int64_t end) {
    for (size_t row = static_cast<size_t>(begin); row < static_cast<size_t>(end); ++row) {
      ukernel(taps, s.channels, s.out_w, indirection + row * row_pointers, step,
              reinterpret_cast<uintptr_t>(input), zero, packed, output + row * row_floats,
              s.channels, &params);
      if (params.activation.fn != nullptr) {
        params.activation.fn(row_floats, output + row * row_floats, params.activation.params);
      }
    }
  });
}

}  // namespace kernels::optimized
}  // namespace ember
