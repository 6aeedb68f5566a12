// Instructions per call of each Cortex-M int8 kernel variant on layer shapes
// from the models of docs/embedded.md, counted under QEMU with -icount
// (board.h: SysTick then ticks per instruction). Prints one line per layer:
//   bench <layer> macs <n> scalar <instructions> [dsp <...>] [helium <...>]
// QEMU is not cycle-accurate: these are instruction counts, not time.
#include "targets/cortex-m/board.h"
#include "tests/cortex_m/kernel_harness.h"

namespace ember::cortex_m::testing {
namespace {

using board::print;
using board::print_uint;

__attribute__((section(".ember_arena"))) Buffers g;

constexpr Variant kVariants[] = {Variant::Scalar, Variant::Dsp, Variant::Helium};

template <typename Call>
void bench(const char* name, uint64_t macs, Call&& call) {
  print("bench ");
  print(name);
  print(" macs ");
  print_uint(macs);
  for (Variant v : kVariants) {
    if (!variant_available(v)) continue;
    call(v);  // warm: the same instructions either way, but keeps the counts honest
    const uint64_t start = board::counter_ticks();
    call(v);
    const uint64_t ticks = board::counter_ticks() - start;
    print(" ");
    print(variant_name(v));
    print(" ");
    print_uint(board::instructions(ticks));
  }
  print("\n");
}

void conv(const char* name, const ConvShape& s) {
  Random rng(11);
  rng.fill(g.input, static_cast<size_t>(s.in_h) * s.in_w * s.in_c);
  rng.fill(g.weight, static_cast<size_t>(s.out_c) * s.kernel_h * s.kernel_w * s.in_c, -127, 127);
  fill_requant(rng, g, s.out_c);
  const Requant q = requant_of(rng, g);
  const uint64_t macs = conv_out_bytes(s) * s.kernel_h * s.kernel_w * s.in_c;
  bench(name, macs, [&](Variant v) {
    conv2d_s8(v, s, g.input, g.weight, g.bias, q, g.scratch, g.out);
  });
}

void depthwise(const char* name, const ConvShape& s) {
  Random rng(12);
  rng.fill(g.input, static_cast<size_t>(s.in_h) * s.in_w * s.in_c);
  rng.fill(g.weight, static_cast<size_t>(s.kernel_h) * s.kernel_w * s.out_c, -127, 127);
  fill_requant(rng, g, s.out_c);
  const Requant q = requant_of(rng, g);
  bench(name, conv_out_bytes(s) * s.kernel_h * s.kernel_w, [&](Variant v) {
    depthwise_conv2d_s8(v, s, g.input, g.weight, g.bias, q, g.out);
  });
}

void fully_connected(const char* name, int32_t depth, int32_t channels) {
  Random rng(13);
  rng.fill(g.input, static_cast<size_t>(depth));
  rng.fill(g.weight, static_cast<size_t>(depth) * channels, -127, 127);
  fill_requant(rng, g, channels);
  const Requant q = requant_of(rng, g);
  bench(name, static_cast<uint64_t>(depth) * channels, [&](Variant v) {
    fully_connected_s8(v, g.input, 1, depth, channels, g.weight, g.bias, q, g.out);
  });
}

}  // namespace
}  // namespace ember::cortex_m::testing

int main() {
  using namespace ember::cortex_m;
  using namespace ember::cortex_m::testing;
  print("kernel bench on " EMBER_CORTEX_M_CPU_NAME "\n");
  // DS-CNN (keyword spotting): the first conv, a depthwise and a pointwise layer.
  conv("kws_conv_10x4_s2_1to64", conv_shape(1, 49, 10, 1, 64, 10, 4, 2, 4, 1, 1));
  depthwise("kws_dwconv_3x3_64", conv_shape(1, 25, 5, 64, 64, 3, 3, 1, 1, 1, 1));
  conv("kws_pwconv_1x1_64to64", conv_shape(1, 25, 5, 64, 64, 1, 1, 1, 0, 0, 1));
  // ResNet-8: a 3x3 convolution of its first stack.
  conv("resnet_conv_3x3_16to16", conv_shape(1, 32, 32, 16, 16, 3, 3, 1, 1, 1, 1));
  // MobileNetV2: the stem (3 input channels) and an expansion layer.
  conv("mbv2_conv_3x3_s2_3to16", conv_shape(1, 96, 96, 3, 16, 3, 3, 2, 1, 1, 1));
  conv("mbv2_pwconv_1x1_8to48", conv_shape(1, 24, 24, 8, 48, 1, 1, 1, 0, 0, 1));
  // The autoencoder's fully connected layers and a classifier.
  fully_connected("ae_fc_640to128", 640, 128);
  fully_connected("ae_fc_128to128", 128, 128);
  fully_connected("kws_fc_64to12", 64, 12);
  print("kernel bench done\n");
  return 0;
}
