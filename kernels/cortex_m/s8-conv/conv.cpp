// Convolution driver, the same for every variant: gathers the im2col rows of
// a block of output pixels (as many as the variant's GEMM takes at once)
// into scratch, a tap outside the image filled with the input zero point,
// and multiplies them with the weights. A 1x1 convolution with stride 1
// and no padding reads its input rows in place.
#include <cstring>

#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {
namespace {

bool reads_rows_in_place(const ConvShape& s) {
  return s.kernel_h == 1 && s.kernel_w == 1 && s.stride_h == 1 && s.stride_w == 1 && s.pad_h == 0 &&
         s.pad_w == 0 && s.out_h == s.in_h && s.out_w == s.in_w;
}

// A tap's channels: a few bytes (a first layer's 1 or 3 channels) cost
// less copied in line than through a call to memcpy.
inline void copy(int8_t* dst, const int8_t* src, int32_t count) {
  if (count > 8) {
    std::memcpy(dst, src, static_cast<size_t>(count));
    return;
  }
  for (int32_t i = 0; i < count; ++i) dst[i] = src[i];
}

// The taps of output pixel (oy, ox) of image `n`, back to back.
void gather(const ConvShape& s, const int8_t* input, int32_t n, int32_t oy, int32_t ox, int8_t* row) {
  const int8_t zero = static_cast<int8_t>(s.input_zero_point);
  for (int32_t ky = 0; ky < s.kernel_h; ++ky) {
    const int32_t iy = oy * s.stride_h - s.pad_h + ky * s.dilation_h;
    for (int32_t kx = 0; kx < s.kernel_w; ++kx) {
      const int32_t ix = ox * s.stride_w - s.pad_w + kx * s.dilation_w;
      if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) {
        std::memset(row, zero, static_cast<size_t>(s.in_c));
      } else {
        copy(row, input + ((static_cast<size_t>(n) * s.in_h + iy) * s.in_w + ix) * s.in_c, s.in_c);
      }
      row += s.in_c;
    }
  }
}

}  // namespace

size_t conv2d_scratch_bytes(Variant variant, const ConvShape& s) {
  if (reads_rows_in_place(s)) return 0;
  const size_t depth = static_cast<size_t>(s.kernel_h) * s.kernel_w * s.in_c;
  return depth * static_cast<size_t>(gemm_rows_per_block(variant));
}

void conv2d_s8(Variant variant, const ConvShape& s, const int8_t* input, const int8_t* weight,
               const int32_t* bias, const Requant& requant, int8_t* scratch, int8_t* output) {
  const int32_t block = gemm_rows_per_block(variant);
  const int32_t depth = s.kernel_h * s.kernel_w * s.in_c;
  const int32_t pixels = s.out_h * s.out_w;
  const bool in_place = reads_rows_in_place(s);
  const int8_t* rows[kGemmRowsHelium > kGemmRowsDsp ? kGemmRowsHelium : kGemmRowsDsp];
  GemmArgs args{rows, 0, depth, s.out_c, weight, bias, requant, nullptr, s.out_c};
  for (int32_t n = 0; n < s.batches; ++n) {
    for (int32_t p = 0; p < pixels; p += block) {
      args.num_rows = pixels - p < block ? pixels - p : block;
      for (int32_t r = 0; r < args.num_rows; ++r) {
        const int32_t pixel = p + r;
        if (in_place) {
          rows[r] = input + (static_cast<size_t>(n) * pixels + pixel) * s.in_c;
        } else {
          int8_t* row = scratch + static_cast<size_t>(r) * depth;
          gather(s, input, n, pixel / s.out_w, pixel % s.out_w, row);
          rows[r] = row;
        }
      }
      args.out = output + (static_cast<size_t>(n) * pixels + p) * s.out_c;
      gemm_s8(variant, args);
    }
  }
}

}  // namespace ember::cortex_m
