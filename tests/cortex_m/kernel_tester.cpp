// The Cortex-M kernel tester: every int8 kernel family on edge sizes (depth,
// channel, row and element counts around the variants' block sizes,
// padding, strides, dilation, depth multipliers, extreme requantization
// parameters), each variant the core has (DSP, Helium) against the scalar
// reference, bit for bit. Runs under QEMU (ctest cortex_m.kernel_tester);
// the scalar reference itself is checked against the integer arithmetic
// in Python by tests/cortex_m/test_cortex_m.py. Exit status: the failures.
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>

#include "targets/cortex-m/board.h"
#include "tests/cortex_m/kernel_harness.h"

namespace ember::cortex_m::testing {
namespace {

using board::print;
using board::print_int;

__attribute__((section(".ember_arena"))) Buffers g;
int g_cases = 0;
int g_failures = 0;

constexpr Variant kOthers[] = {Variant::Dsp, Variant::Helium};

// Runs `call(variant, out)` for the scalar reference and every other
// variant the build has, and compares `bytes` of output.
template <typename Call>
void compare(const char* family, const char* what, size_t bytes, Call&& call) {
  std::memset(g.expected, 0x55, bytes);
  call(Variant::Scalar, g.expected);
  for (Variant v : kOthers) {
    if (!variant_available(v)) continue;
    ++g_cases;
    std::memset(g.out, 0x55, bytes);
    call(v, g.out);
    if (std::memcmp(g.out, g.expected, bytes) != 0) {
      ++g_failures;
      size_t at = 0;
      while (g.out[at] == g.expected[at]) ++at;
      print("FAIL ");
      print(family);
      print(" ");
      print(variant_name(v));
      print(" ");
      print(what);
      print(": byte ");
      print_int(static_cast<int64_t>(at));
      print(" is ");
      print_int(g.out[at]);
      print(", scalar gives ");
      print_int(g.expected[at]);
      print("\n");
    }
  }
}

void test_conv() {
  struct Case {
    int32_t batches, h, w, in_c, out_c, kh, kw, stride, pad_h, pad_w, dilation;
  };
  const Case cases[] = {
      {1, 5, 7, 3, 5, 3, 3, 1, 1, 1, 1},    {1, 9, 6, 1, 7, 4, 3, 2, 1, 1, 1},
      {1, 49, 10, 1, 8, 10, 4, 2, 4, 1, 1}, {1, 6, 5, 16, 17, 1, 1, 1, 0, 0, 1},
      {2, 5, 5, 17, 3, 1, 1, 1, 0, 0, 1},   {1, 7, 7, 17, 6, 1, 1, 2, 0, 0, 1},
      {1, 8, 8, 33, 2, 3, 3, 1, 2, 2, 2},   {1, 3, 3, 64, 9, 3, 3, 1, 0, 0, 1},
      {1, 4, 3, 5, 1, 2, 2, 1, 1, 0, 1},    {2, 4, 4, 2, 4, 3, 3, 2, 1, 1, 1},
      {1, 1, 1, 250, 3, 1, 1, 1, 0, 0, 1},  {1, 6, 6, 8, 16, 5, 5, 1, 2, 2, 1},
  };
  Random rng(1);
  for (const Case& c : cases) {
    const ConvShape s = conv_shape(c.batches, c.h, c.w, c.in_c, c.out_c, c.kh, c.kw, c.stride,
                                   c.pad_h, c.pad_w, c.dilation);
    ConvShape shape = s;
    shape.input_zero_point = rng.range(-128, 127);
    rng.fill(g.input, static_cast<size_t>(c.batches) * c.h * c.w * c.in_c);
    rng.fill(g.weight, static_cast<size_t>(c.out_c) * c.kh * c.kw * c.in_c, -127, 127);
    fill_requant(rng, g, c.out_c);
    const Requant q = requant_of(rng, g);
    compare("conv2d", "case", conv_out_bytes(shape), [&](Variant v, int8_t* out) {
      conv2d_s8(v, shape, g.input, g.weight, g.bias, q, g.scratch, out);
    });
  }
}

void test_depthwise() {
  struct Case {
    int32_t h, w, channels, multiplier, k, stride, pad, dilation;
  };
  const Case cases[] = {{5, 5, 1, 1, 3, 1, 1, 1},  {6, 7, 3, 1, 3, 2, 1, 1},
                        {4, 4, 4, 1, 3, 1, 0, 1},  {7, 5, 5, 1, 3, 1, 1, 1},
                        {8, 8, 17, 1, 3, 2, 1, 1}, {9, 9, 32, 1, 5, 1, 2, 1},
                        {6, 6, 8, 1, 3, 1, 2, 2},  {5, 5, 3, 2, 3, 1, 1, 1},
                        {3, 3, 36, 1, 3, 1, 1, 1}, {2, 9, 12, 1, 3, 2, 1, 1}};
  Random rng(2);
  for (const Case& c : cases) {
    ConvShape s = conv_shape(1, c.h, c.w, c.channels, c.channels * c.multiplier, c.k, c.k,
                             c.stride, c.pad, c.pad, c.dilation, c.multiplier);
    s.input_zero_point = rng.range(-128, 127);
    rng.fill(g.input, static_cast<size_t>(c.h) * c.w * c.channels);
    rng.fill(g.weight, static_cast<size_t>(c.k) * c.k * s.out_c, -127, 127);
    fill_requant(rng, g, s.out_c);
    const Requant q = requant_of(rng, g);
    compare("depthwise_conv2d", "case", conv_out_bytes(s), [&](Variant v, int8_t* out) {
      depthwise_conv2d_s8(v, s, g.input, g.weight, g.bias, q, out);
    });
  }
}

void test_fully_connected() {
  const int32_t rows[] = {1, 2, 3, 5};
  const int32_t depths[] = {1, 3, 4, 15, 16, 17, 33, 64, 250};
  const int32_t channels[] = {1, 2, 3, 5, 12};
  Random rng(3);
  for (int32_t r : rows) {
    for (int32_t d : depths) {
      for (int32_t c : channels) {
        rng.fill(g.input, static_cast<size_t>(r) * d);
        rng.fill(g.weight, static_cast<size_t>(c) * d, -127, 127);
        fill_requant(rng, g, c);
        const Requant q = requant_of(rng, g);
        const size_t count = static_cast<size_t>(r) * c;
        compare("fully_connected", "case", count, [&](Variant v, int8_t* out) {
          fully_connected_s8(v, g.input, r, d, c, g.weight, g.bias, q, out);
        });
        compare("fully_connected_f32", "case", count * sizeof(float), [&](Variant v, int8_t* out) {
          fully_connected_s8_f32(v, g.input, r, d, c, g.weight, g.bias, g.scale,
                                 c % 2 ? g.float_bias : nullptr, reinterpret_cast<float*>(out));
        });
      }
    }
  }
}

void test_add() {
  const int32_t counts[] = {1, 3, 4, 5, 16, 17, 100};
  Random rng(4);
  for (int32_t n : counts) {
    for (int round = 0; round < 4; ++round) {
      rng.fill(g.input, static_cast<size_t>(n));
      rng.fill(g.input2, static_cast<size_t>(n));
      AddParams p{};
      p.a_zero_point = rng.range(-128, 127), p.b_zero_point = rng.range(-128, 127);
      p.a_multiplier = static_cast<int32_t>((1u << 30) + (rng.next() >> 2));
      p.b_multiplier = static_cast<int32_t>((1u << 30) + (rng.next() >> 2));
      p.a_shift = rng.range(-3, -1), p.b_shift = rng.range(-3, -1), p.left_shift = 20;
      p.output_zero_point = rng.range(-128, 127);
      p.output_multiplier = static_cast<int32_t>((1u << 30) + (rng.next() >> 2));
      p.output_shift = rng.range(-22, -16);
      p.activation_min = rng.range(-128, 0), p.activation_max = rng.range(p.activation_min, 127);
      compare("add", "case", static_cast<size_t>(n), [&](Variant v, int8_t* out) {
        add_s8(v, p, g.input, g.input2, out, n);
      });
    }
  }
}

void test_pools() {
  struct Case {
    int32_t h, w, channels, kernel, stride, pad;
  };
  const Case cases[] = {{4, 4, 1, 2, 2, 0},  {5, 5, 3, 3, 1, 1},  {6, 6, 4, 2, 2, 0},
                        {5, 7, 5, 3, 2, 1},  {7, 7, 16, 7, 1, 0}, {4, 4, 17, 2, 1, 1},
                        {3, 3, 33, 3, 3, 0}, {8, 8, 20, 3, 2, 1}};
  Random rng(5);
  for (const Case& c : cases) {
    for (bool include_pad : {true, false}) {
      PoolShape s = pool_shape(c.h, c.w, c.channels, c.kernel, c.stride, c.pad, include_pad);
      s.zero_point = rng.range(-128, 127);
      s.activation_min = rng.range(-128, -60), s.activation_max = rng.range(60, 127);
      rng.fill(g.input, static_cast<size_t>(c.h) * c.w * c.channels);
      const size_t bytes = static_cast<size_t>(s.out_h) * s.out_w * c.channels;
      compare("avg_pool2d", "case", bytes,
              [&](Variant v, int8_t* out) { avg_pool2d_s8(v, s, g.input, out); });
      compare("max_pool2d", "case", bytes,
              [&](Variant v, int8_t* out) { max_pool2d_s8(v, s, g.input, out); });
    }
  }
}

void test_softmax() {
  const int32_t lengths[] = {1, 2, 12, 16, 17, 100};
  Random rng(6);
  for (int32_t length : lengths) {
    for (int32_t rows = 1; rows <= 3; ++rows) {
      rng.fill(g.input, static_cast<size_t>(rows) * length);
      const double scale = 0.01 + 0.2 * rng.range(0, 100) / 100.0;
      for (int d = 0; d < 256; ++d) {
        g.bias[d] = static_cast<int32_t>(std::lround(std::exp(-d * scale) * 65536.0));
      }
      const int32_t inv = 1 << 24;  // an output scale of 1/256
      compare("softmax", "case", static_cast<size_t>(rows) * length, [&](Variant v, int8_t* out) {
        softmax_s8(v, g.input, rows, length, g.bias, inv, -128, out);
      });
    }
  }
}

void test_conversions() {
  Random rng(7);
  for (int32_t n = 1; n <= 37; n += 3) {
    rng.fill(g.input, static_cast<size_t>(n));
    const int32_t zp_in = rng.range(-128, 127), zp_out = rng.range(-128, 127);
    const int32_t mult = static_cast<int32_t>((1u << 30) + (rng.next() >> 2));
    const int32_t shift = rng.range(-3, 2);
    compare("requantize", "case", static_cast<size_t>(n), [&](Variant v, int8_t* out) {
      requantize_s8(v, g.input, n, zp_in, mult, shift, zp_out, out);
    });
    float* x = g.scale;
    for (int32_t i = 0; i < n; ++i) x[i] = static_cast<float>(rng.range(-40000, 40000)) * 0.01f;
    // Ties, infinities and NaN among the values.
    x[0] = 2.5f;
    if (n > 3) x[1] = std::numeric_limits<float>::infinity(), x[2] = -x[1];
    if (n > 4) x[3] = std::numeric_limits<float>::quiet_NaN();
    const float inv = 1.0f;
    compare("quantize", "case", static_cast<size_t>(n), [&](Variant v, int8_t* out) {
      quantize_f32_s8(v, x, n, inv, zp_out, -128, 127, out);
    });
    compare("dequantize", "case", static_cast<size_t>(n) * sizeof(float), [&](Variant v, int8_t* out) {
      dequantize_s8_f32(v, g.input, n, 0.0173f, zp_in, reinterpret_cast<float*>(out));
    });
  }
}

}  // namespace
}  // namespace ember::cortex_m::testing

int main() {
  using namespace ember::cortex_m;
  using namespace ember::cortex_m::testing;
  print("kernel tester on " EMBER_CORTEX_M_CPU_NAME ", variants: scalar");
  for (Variant v : kOthers) {
    if (variant_available(v)) {
      print(" ");
      print(variant_name(v));
    }
  }
  print("\n");
  test_conv();
  test_depthwise();
  test_fully_connected();
  test_add();
  test_pools();
  test_softmax();
  test_conversions();
  print_int(g_cases);
  print(" comparisons with the scalar reference, ");
  print_int(g_failures);
  print(" failures\n");
  return g_failures;
}
