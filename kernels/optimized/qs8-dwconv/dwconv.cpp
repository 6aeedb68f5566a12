// The int8 depthwise convolution family's driver: variant selection, weight
// packing, the indirection buffer and the split over threads. Compiled
// without ISA flags.
#include <cstdint>
#include <cstring>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-dwconv/qs8_dwconv.h"
#include "runtime/core/thread_pool.h"

namespace ember::kernels::optimized {

// Defined by the variant files CMake compiles for this architecture.
extern const Qs8DwconvConfig kQs8DwconvScalarConfig;
#if defined(__x86_64__)
extern const Qs8DwconvConfig kQs8DwconvAvx512VnniRowsConfig;
extern const Qs8DwconvConfig kQs8DwconvAvx512VnniConfig;
extern const Qs8DwconvConfig kQs8DwconvAvx512Config;
extern const Qs8DwconvConfig kQs8DwconvAvxVnniConfig;
extern const Qs8DwconvConfig kQs8DwconvAvx2Config;
#endif
#if defined(__aarch64__)
extern const Qs8DwconvConfig kQs8DwconvNeonConfig;
#endif
#if defined(__wasm_simd128__)
extern const Qs8DwconvConfig kQs8DwconvWasmSimdConfig;
#endif

namespace {

const Qs8DwconvConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kQs8DwconvAvx512VnniRowsConfig, &kQs8DwconvAvx512VnniConfig, &kQs8DwconvAvx512Config,
    &kQs8DwconvAvxVnniConfig, &kQs8DwconvAvx2Config,
#endif
#if defined(__aarch64__)
    &kQs8DwconvNeonConfig,
#endif
#if defined(__wasm_simd128__)
    &kQs8DwconvWasmSimdConfig,
#endif
    &kQs8DwconvScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

size_t round_up(size_t a, size_t b) { return (a + b - 1) / b * b; }

// Bytes of one tile's taps, for a window of kh rows.
size_t tap_bytes(const Qs8DwconvConfig& cfg, size_t taps, size_t kh) {
  const size_t tile = cfg.channel_tile;
  switch (cfg.layout) {
    case Qs8DwconvLayout::S8: return taps * tile;
    case Qs8DwconvLayout::S16: return taps * tile * 2;
    case Qs8DwconvLayout::S16Pairs:
    case Qs8DwconvLayout::S16PairsLanes: return round_up(taps, 2) * tile * 2;
    case Qs8DwconvLayout::U8RowQuads: return taps / kh * tile * 4;
  }
  return 0;
}

size_t tile_bytes(const Qs8DwconvConfig& cfg, size_t taps, size_t kh) {
  return 2 * cfg.channel_tile * sizeof(int32_t) + tap_bytes(cfg, taps, kh);
}

// The channel (within its tile) at position j of a tile's vectors: a 512-bit
// unpack of bytes works per 128-bit lane, so the pairs it makes of 32
// channels come out as [0-7, 16-23] and [8-15, 24-31].
// U8RowQuads: four unpacks per 128-bit lane leave vector v (of 8 channels)
// with channels 4v-4v+3 of each lane's 16.
size_t channel_at(const Qs8DwconvConfig& cfg, size_t j) {
  const size_t block = j / 32 * 32;
  const size_t p = j % 32;
  switch (cfg.layout) {
    case Qs8DwconvLayout::S16PairsLanes: {
      static constexpr uint8_t kOrder[4] = {0, 16, 8, 24};
      return block + kOrder[p / 8] + p % 8;
    }
    case Qs8DwconvLayout::U8RowQuads: return block + (p % 8) / 4 * 16 + p / 8 * 4 + p % 4;
    default: return j;
  }
}

}  // namespace

size_t qs8_dwconv_num_variants() { return kNumVariants; }

const Qs8DwconvConfig& qs8_dwconv_variant(size_t index) { return *kVariants[index]; }

bool qs8_dwconv_variant_supported(const Qs8DwconvConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

bool qs8_dwconv_variant_handles(const Qs8DwconvConfig& config, const Qs8DwconvShape& shape) {
  if (config.direct == nullptr) return true;
  return shape.kh >= 1 && shape.kh <= config.direct_rows && shape.kw >= 1 &&
         shape.stride_w == 1 && (shape.kw - 1) * shape.dil_w + 1 <= config.direct_columns;
}

const Qs8DwconvConfig& qs8_dwconv_config(const Qs8DwconvShape& shape) {
  for (const Qs8DwconvConfig* cfg : kVariants) {
    if (cpu_features().has(cfg->required_features) && qs8_dwconv_variant_handles(*cfg, shape)) {
      return *cfg;
    }
  }
  return kQs8DwconvScalarConfig;
}

bool qs8_dwconv_uses_indirection(const Qs8DwconvConfig& config) {
  return config.direct == nullptr;
}

Qs8DwconvUkernelFn qs8_dwconv_ukernel(const Qs8DwconvConfig& config, size_t taps) {
  if (taps == 9 && config.up9 != nullptr) return config.up9;
  if (taps == 25 && config.up25 != nullptr) return config.up25;
  return config.any;
}

size_t qs8_dwconv_packed_size(const Qs8DwconvConfig& config, size_t kh, size_t kw,
                              size_t channels) {
  return round_up(channels, config.channel_tile) / config.channel_tile *
         tile_bytes(config, kh * kw, kh);
}

void qs8_dwconv_pack_weights(const Qs8DwconvConfig& config, size_t kh, size_t kw,
                             size_t channels, const int8_t* weights, const int32_t* bias,
                             int32_t a_zero, const float* scale, void* packed) {
  const size_t tile = config.channel_tile;
  const size_t taps = kh * kw;
  // Tap t of the packed order (column by column) is PyTorch's ky * kw + kx.
  auto weight = [&](size_t c, size_t t) -> int32_t {
    if (c >= channels || t >= taps) return 0;  // past the channels, or the padding tap
    const size_t kx = t / kh;
    const size_t ky = t % kh;
    return weights[c * taps + ky * kw + kx];
  };
  uint8_t* out = static_cast<uint8_t*>(packed);
  // The u8 operand of the row-quad kernels is A + 128: its share is
  // subtracted with the zero point's.
  const uint32_t a_total = static_cast<uint32_t>(a_zero) +
                           (config.layout == Qs8DwconvLayout::U8RowQuads ? 128u : 0u);
  for (size_t c0 = 0; c0 < channels; c0 += tile, out += tile_bytes(config, taps, kh)) {
    int32_t* head = reinterpret_cast<int32_t*>(out);
    uint8_t* w = out + tile * sizeof(int32_t);
    float* tail = reinterpret_cast<float*>(w + tap_bytes(config, taps, kh));
    for (size_t j = 0; j < tile; ++j) {
      const size_t c = c0 + channel_at(config, j);
      uint32_t sum = 0;
      for (size_t t = 0; t < taps; ++t) sum += static_cast<uint32_t>(weight(c, t));
      // bias - a_zero * sum, modulo 2^32 as the kernels add.
      const uint32_t b = c < channels && bias != nullptr ? static_cast<uint32_t>(bias[c]) : 0u;
      head[j] = static_cast<int32_t>(b - a_total * sum);
      tail[j] = c < channels ? scale[c] : 0.0f;
    }
    switch (config.layout) {
      case Qs8DwconvLayout::S8:
        for (size_t t = 0; t < taps; ++t) {
          for (size_t j = 0; j < tile; ++j) {
            reinterpret_cast<int8_t*>(w)[t * tile + j] = static_cast<int8_t>(weight(c0 + j, t));
          }
        }
        break;
      case Qs8DwconvLayout::S16:
        for (size_t t = 0; t < taps; ++t) {
          for (size_t j = 0; j < tile; ++j) {
            const int16_t v = static_cast<int16_t>(weight(c0 + j, t));
            std::memcpy(w + (t * tile + j) * 2, &v, 2);
          }
        }
        break;
      case Qs8DwconvLayout::S16Pairs:
      case Qs8DwconvLayout::S16PairsLanes:
        for (size_t t = 0; t < taps; t += 2) {
          for (size_t j = 0; j < tile; ++j) {
            const size_t c = c0 + channel_at(config, j);
            const int16_t pair[2] = {static_cast<int16_t>(weight(c, t)),
                                     static_cast<int16_t>(weight(c, t + 1))};
            std::memcpy(w + ((t / 2) * tile + j) * 4, pair, 4);
          }
        }
        break;
      case Qs8DwconvLayout::U8RowQuads:
        for (size_t kx = 0; kx < kw; ++kx) {
          for (size_t j = 0; j < tile; ++j) {
            const size_t c = c0 + channel_at(config, j);
            for (size_t ky = 0; ky < 4; ++ky) {
              w[(kx * tile + j) * 4 + ky] =
                  static_cast<uint8_t>(ky < kh ? weight(c, kx * kh + ky) : 0);
            }
          }
        }
        break;
    }
  }
}

void qs8_dwconv_indirection(const Qs8DwconvShape& shape, const int8_t* zero,
                            const int8_t** indirection) {
  // The f32 family's buffer holds the same pixels' offsets in floats
  // (pixel * channels * 4 bytes): filled through it, then divided by 4. The
  // zero pointer passes through as it is.
  const float* zero_f = reinterpret_cast<const float*>(zero);
  const float** as_f32 = reinterpret_cast<const float**>(indirection);
  f32_dwconv_indirection(shape, zero_f, as_f32);
  const size_t size = f32_dwconv_indirection_size(shape);
  for (size_t i = 0; i < size; ++i) {
    if (as_f32[i] != zero_f) {
      indirection[i] =
          reinterpret_cast<const int8_t*>(reinterpret_cast<uintptr_t>(as_f32[i]) / sizeof(float));
    }
  }
}

void qs8_dwconv(const Qs8DwconvConfig& config, const Qs8DwconvShape& s,
                const int8_t* const* indirection, const int8_t* zero, const void* packed,
                const int8_t* input, int8_t* output, const Qs8RequantParams& params,
                ThreadPool* pool) {
  if (config.direct != nullptr) {
    parallel_for(pool, static_cast<int64_t>(s.batch * s.out_h), 1,
                 [&](int64_t begin, int64_t end) {
                   config.direct(s, packed, input, zero, static_cast<size_t>(begin),
                                 static_cast<size_t>(end), output, &params);
                 });
    return;
  }
  const size_t taps = s.kh * s.kw;
  const Qs8DwconvUkernelFn ukernel = qs8_dwconv_ukernel(config, taps);
  const size_t step = f32_dwconv_pixel_step(s);
  const size_t row_pointers = f32_dwconv_row_pointers(s);
  const size_t row_bytes = s.out_w * s.channels;
  parallel_for(pool, static_cast<int64_t>(s.batch * s.out_h), 1, [&](int64_t begin, int64_t end) {
    for (size_t row = static_cast<size_t>(begin); row < static_cast<size_t>(end); ++row) {
      ukernel(taps, s.channels, s.out_w, indirection + row * row_pointers, step,
              reinterpret_cast<uintptr_t>(input), zero, packed, output + row * row_bytes,
              s.channels, &params);
    }
  });
}

}  // namespace ember::kernels::optimized
