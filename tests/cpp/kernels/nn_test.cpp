// Tests of the neural-network, matmul, softmax and reduction kernels. Expected
// values come from straightforward reference loops written here (independent
// of the kernels' index math), from hand-computed cases, or from PyTorch 2.x
// (pasted, marked "torch"). Deterministic inputs for the pasted cases use
// seq(i) = ((i * 37) % 17 - 8) * 0.25.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cpp/tensor_factory.h"

namespace ember {
namespace {

using testing::KernelCall;
using testing::OwnedTensor;
using testing::make;
using testing::Sizes;
using testing::Values;
using testing::set_values;
using testing::values_of;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---------------------------------------------------------------------------
// Helpers

int64_t numel_of(const Sizes& s) {
  int64_t n = 1;
  for (int32_t v : s) n *= v;
  return n;
}

// Integers go through int64 so that out-of-range values wrap like integer
// arithmetic does (a double converted straight to int8 would be undefined).
// An output that kernels must resize: `rank` dims, room for `cap` elements.
OwnedTensor dyn_out(ScalarType dt, int rank, int32_t cap = 1 << 15) {
  Sizes s(static_cast<size_t>(rank), 1);
  if (rank > 0) s[0] = cap;
  return OwnedTensor(dt, s, TensorShapeDynamism::DynamicBound);
}

Sizes shape_of(OwnedTensor& t) {
  Sizes s;
  for (int32_t v : t.tensor().sizes()) s.push_back(v);
  return s;
}

Values seq(int64_t n, double offset = 0) {
  Values v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = ((i * 37) % 17 - 8) * 0.25 + offset;
  return v;
}

Values random_values(int64_t n, uint32_t seed, bool integers = false) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> ints(-3, 3);
  Values v(static_cast<size_t>(n));
  for (double& x : v) x = integers ? ints(gen) : real(gen);
  return v;
}

void expect_values(const Values& got, const Values& want, double tol, const char* what = "") {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << what << " at " << i << ": " << got[i];
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << what << " at " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], tol * (1 + std::fabs(want[i]))) << what << " at " << i;
    }
  }
}

double tolerance(ScalarType dt) {
  switch (dt) {
    case ScalarType::Half: return 2e-3;
    case ScalarType::BFloat16: return 1e-2;
    case ScalarType::Float: return 1e-5;
    case ScalarType::Double: return 1e-12;
    default: return 0;
  }
}

// Rounds reference results to the dtype the kernel stores (int conversions
// truncate; floats round).
Values stored_as(ScalarType dt, const Values& v) {
  OwnedTensor t(dt, Sizes{static_cast<int32_t>(v.size())});
  set_values(t, v);
  return values_of(t);
}

// ---------------------------------------------------------------------------
// Convolution

struct ConvArgs {
  std::vector<int64_t> stride, pad, dil, out_pad;
  bool transposed = false;
  int64_t groups = 1;
};

// Reference: the textbook sums, written as a scatter for the transposed case
// (the kernel gathers).
Values conv_ref(const Values& x, const Sizes& xs, const Values& w, const Sizes& ws,
                const Values* bias, const ConvArgs& a, Sizes* out_shape) {
  const int n = static_cast<int>(xs.size()) - 2;
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0},
          d[3] = {1, 1, 1}, op[3] = {0, 0, 0}, o[3] = {1, 1, 1};
  // A single value applies to every spatial dim.
  auto pick = [](const std::vector<int64_t>& v, int i) { return v.size() == 1 ? v[0] : v[i]; };
  for (int i = 0; i < n; ++i) {
    const int j = 3 - n + i;
    in[j] = xs[2 + i];
    k[j] = ws[2 + i];
    s[j] = pick(a.stride, i);
    p[j] = pick(a.pad, i);
    d[j] = pick(a.dil, i);
    op[j] = a.out_pad.empty() ? 0 : pick(a.out_pad, i);
  }
  const int64_t N = xs[0], C = xs[1], G = a.groups;
  const int64_t cout = a.transposed ? ws[1] * G : ws[0];
  for (int j = 0; j < 3; ++j) {
    o[j] = a.transposed ? (in[j] - 1) * s[j] - 2 * p[j] + d[j] * (k[j] - 1) + op[j] + 1
                        : (in[j] + 2 * p[j] - d[j] * (k[j] - 1) - 1) / s[j] + 1;
  }
  *out_shape = {static_cast<int32_t>(N), static_cast<int32_t>(cout)};
  for (int i = 0; i < n; ++i) out_shape->push_back(static_cast<int32_t>(o[3 - n + i]));
  const int64_t icpg = C / G, ocpg = cout / G, ovol = o[0] * o[1] * o[2];
  const int64_t ivol = in[0] * in[1] * in[2], kvol = k[0] * k[1] * k[2];
  Values out(static_cast<size_t>(N * cout * ovol));
  for (int64_t b = 0; b < N; ++b)
    for (int64_t c = 0; c < cout; ++c)
      for (int64_t i = 0; i < ovol; ++i) out[(b * cout + c) * ovol + i] = bias ? (*bias)[c] : 0;
  auto at3 = [](const int64_t* dims, int64_t a0, int64_t a1, int64_t a2) {
    return (a0 * dims[1] + a1) * dims[2] + a2;
  };
  auto inside = [](const int64_t* dims, int64_t a0, int64_t a1, int64_t a2) {
    return a0 >= 0 && a0 < dims[0] && a1 >= 0 && a1 < dims[1] && a2 >= 0 && a2 < dims[2];
  };
  for (int64_t b = 0; b < N; ++b) {
    if (!a.transposed) {
      for (int64_t oc = 0; oc < cout; ++oc)
        for (int64_t z = 0; z < o[0]; ++z)
          for (int64_t y = 0; y < o[1]; ++y)
            for (int64_t xx = 0; xx < o[2]; ++xx) {
              double acc = 0;
              for (int64_t ic = 0; ic < icpg; ++ic)
                for (int64_t kz = 0; kz < k[0]; ++kz)
                  for (int64_t ky = 0; ky < k[1]; ++ky)
                    for (int64_t kx = 0; kx < k[2]; ++kx) {
                      const int64_t iz = z * s[0] - p[0] + kz * d[0];
                      const int64_t iy = y * s[1] - p[1] + ky * d[1];
                      const int64_t ix = xx * s[2] - p[2] + kx * d[2];
                      if (!inside(in, iz, iy, ix)) continue;
                      const int64_t cin = (oc / ocpg) * icpg + ic;
                      acc += x[(b * C + cin) * ivol + at3(in, iz, iy, ix)] *
                             w[(oc * icpg + ic) * kvol + at3(k, kz, ky, kx)];
                    }
              out[(b * cout + oc) * ovol + at3(o, z, y, xx)] += acc;
            }
    } else {
      for (int64_t ic = 0; ic < C; ++ic)
        for (int64_t iz = 0; iz < in[0]; ++iz)
          for (int64_t iy = 0; iy < in[1]; ++iy)
            for (int64_t ix = 0; ix < in[2]; ++ix)
              for (int64_t ocl = 0; ocl < ocpg; ++ocl)
                for (int64_t kz = 0; kz < k[0]; ++kz)
                  for (int64_t ky = 0; ky < k[1]; ++ky)
                    for (int64_t kx = 0; kx < k[2]; ++kx) {
                      const int64_t z = iz * s[0] - p[0] + kz * d[0];
                      const int64_t y = iy * s[1] - p[1] + ky * d[1];
                      const int64_t xx = ix * s[2] - p[2] + kx * d[2];
                      if (!inside(o, z, y, xx)) continue;
                      const int64_t oc = (ic / icpg) * ocpg + ocl;
                      out[(b * cout + oc) * ovol + at3(o, z, y, xx)] +=
                          x[(b * C + ic) * ivol + at3(in, iz, iy, ix)] *
                          w[(ic * ocpg + ocl) * kvol + at3(k, kz, ky, kx)];
                    }
    }
  }
  return out;
}

KernelContext run_conv(OwnedTensor& x, OwnedTensor& w, OwnedTensor* bias, const ConvArgs& a,
                       OwnedTensor& out) {
  KernelCall call;
  call.tensor(x.tensor()).tensor(w.tensor());
  if (bias) {
    call.tensor(bias->tensor());
  } else {
    call.none();
  }
  return call.ints(a.stride)
      .ints(a.pad)
      .ints(a.dil)
      .boolean(a.transposed)
      .ints(a.out_pad)
      .integer(a.groups)
      .tensor(out.tensor())
      .run("aten::convolution.out");
}

// Random inputs, the kernel against conv_ref.
void check_conv(ScalarType dt, const Sizes& xs, const Sizes& ws, bool with_bias,
                const ConvArgs& a, uint32_t seed) {
  SCOPED_TRACE(::testing::Message() << scalar_type_name(dt) << " seed " << seed);
  const bool ints = !is_floating_type(dt);
  OwnedTensor x = make(dt, xs, random_values(numel_of(xs), seed, ints));
  OwnedTensor w = make(dt, ws, random_values(numel_of(ws), seed + 1, ints));
  const int32_t cout = a.transposed ? ws[1] * static_cast<int32_t>(a.groups) : ws[0];
  OwnedTensor b = make(dt, {cout}, random_values(cout, seed + 2, ints));
  const Values bv = values_of(b);
  Sizes want_shape;
  const Values want = conv_ref(values_of(x), xs, values_of(w), ws, with_bias ? &bv : nullptr, a,
                               &want_shape);
  OwnedTensor out = dyn_out(dt, static_cast<int>(xs.size()));
  const KernelContext ctx = run_conv(x, w, with_bias ? &b : nullptr, a, out);
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  EXPECT_EQ(shape_of(out), want_shape);
  // 16-bit floats round the sum once at the end; scale by the number of terms.
  const double tol = ints ? 0 : tolerance(dt) * (dt == ScalarType::Float ? 10 : 4);
  expect_values(values_of(out), stored_as(dt, want), tol);
}

TEST(NnConv, MatchesTorchGroupedStridedDilated) {
  // torch: convolution(seq[1,4,4,5], seq[4,2,3,2], seq(4), stride [2,1], padding [1,1],
  // dilation [1,2], groups 2)
  OwnedTensor x = make(ScalarType::Float, {1, 4, 4, 5}, seq(80));
  OwnedTensor w = make(ScalarType::Float, {4, 2, 3, 2}, seq(48));
  OwnedTensor b = make(ScalarType::Float, {4}, seq(4));
  OwnedTensor out(ScalarType::Float, {1, 4, 2, 5});
  const KernelContext ctx = run_conv(x, w, &b, {{2, 1}, {1, 1}, {1, 2}, {0, 0}, false, 2}, out);
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  expect_values(values_of(out),
                {-3.875, 1.875,   0.0,    -4.0,    0.5625,  1.8125,  -9.3125, -0.8125,
                 -0.8125, -5.0,   1.4375, 2.1875,  -7.3125, 1.25,    1.4375,  -0.8125,
                 -1.5,    3.0,    -7.375, -3.125,  1.4375,  4.9375,  -3.6875, -2.75,
                 2.625,   -4.5625, 4.0,   5.5625,  -9.875,  -2.4375, 1.9375,  -1.1875,
                 1.6875,  2.4375, 1.875,  -4.3125, 1.625,   -1.875,  -2.1875, 2.3125},
                1e-6);
}

TEST(NnConv, MatchesTorchTransposed) {
  // torch: convolution(seq[1,2,2,3], seq[2,2,3,2], seq(4), stride [2,2], padding [1,0],
  // dilation [1,2], transposed, output_padding [1,1], groups 2)
  OwnedTensor x = make(ScalarType::Float, {1, 2, 2, 3}, seq(12));
  OwnedTensor w = make(ScalarType::Float, {2, 2, 3, 2}, seq(24));
  OwnedTensor b = make(ScalarType::Float, {4}, seq(4));
  OwnedTensor out = dyn_out(ScalarType::Float, 4);
  const KernelContext ctx = run_conv(x, w, &b, {{2, 2}, {1, 0}, {1, 2}, {1, 1}, true, 2}, out);
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  EXPECT_EQ(shape_of(out), (Sizes{1, 4, 4, 8}));
  expect_values(
      values_of(out),
      {-1.0,    -2.0,  -1.875,  -2.0,  -2.0625, -2.0,  -2.125,  -2.0,  -4.5,    -2.0,  -9.0625,
       -2.0,    -9.4375, -2.0,  -5.0625, -2.0,  -2.125,  -2.0,  -2.4375, -2.0,  -2.625,  -2.0,
       -1.5625, -2.0,  -1.75,   -2.0,  -0.5625, -2.0,  1.5,     -2.0,  1.0625,  -2.0,  -0.75,
       -1.25,   -1.9375, -1.25, -1.75,   -1.25, -1.5,    -1.25, -4.1875, -1.25, -8.8125, -1.25,
       -8.4375, -1.25, -4.0,    -1.25, -1.3125, -1.25, -1.375,  -1.25, -1.1875, -1.25, -0.375,
       -1.25,   -0.9375, -1.25, 0.5,     -1.25, 2.9375,  -1.25, 2.25,    -1.25, -0.5,    -0.5,
       -1.8125, -0.5,  -1.25,   -0.5,  -0.6875, -0.5,  -3.875,  -0.5,  -0.75,   -0.5,  -2.8125,
       -0.5,    -1.5,  -0.5,    -0.5,  -0.5,    -0.125, -0.5,  0.4375,  -0.5,  1.0,     -0.5,
       0.25,    -0.5,  0.375,   -0.5,  0.0,     -0.5,  -4.5,    -0.5,  -0.1875, 0.25,  -1.75,
       0.25,    -0.8125, 0.25,  0.0,     0.25,  -3.4375, 0.25,  -0.25,   0.25,  -1.5625, 0.25,
       -0.3125, 0.25,  0.375,   0.25,  1.0625,  0.25,  2.0,     0.25,  2.25,    0.25,  1.125,
       0.25,    1.5625, 0.25,   1.5625, 0.25,   -3.25, 0.25},
      1e-6);
}

TEST(NnConv, Conv2dShapesAgainstReference) {
  const ScalarType f = ScalarType::Float;
  check_conv(f, {2, 3, 7, 6}, {4, 3, 3, 3}, true, {{1, 1}, {1, 1}, {1, 1}, {0, 0}}, 1);
  // 1x1 (pointwise), no bias
  check_conv(f, {1, 8, 5, 5}, {6, 8, 1, 1}, false, {{1, 1}, {0, 0}, {1, 1}, {0, 0}}, 2);
  // 1x1 with stride 2 (a ResNet downsample), and 1x1 over a plane wider than a strip
  check_conv(f, {2, 4, 7, 7}, {8, 4, 1, 1}, true, {{2, 2}, {0, 0}, {1, 1}, {0, 0}}, 14);
  check_conv(f, {1, 3, 20, 30}, {5, 3, 1, 1}, true, {{1, 1}, {0, 0}, {1, 1}, {0, 0}}, 15);
  // depthwise (groups = C), stride 2, padding 1, as in MobileNetV2
  check_conv(f, {2, 6, 9, 8}, {6, 1, 3, 3}, true, {{2, 2}, {1, 1}, {1, 1}, {0, 0}, false, 6}, 3);
  // dilation 2, stride 2, padding 2
  check_conv(f, {1, 2, 11, 10}, {3, 2, 3, 3}, true, {{2, 2}, {2, 2}, {2, 2}, {0, 0}}, 4);
  // groups 2 with several channels per group, asymmetric everything
  check_conv(f, {1, 4, 8, 9}, {6, 2, 3, 2}, true, {{2, 1}, {1, 0}, {1, 2}, {0, 0}, false, 2}, 5);
  // 7x7 stride 2 padding 3 (ResNet stem)
  check_conv(f, {1, 3, 16, 16}, {4, 3, 7, 7}, false, {{2, 2}, {3, 3}, {1, 1}, {0, 0}}, 6);
  // a row wider than the kernel's accumulator strip
  check_conv(f, {1, 2, 3, 300}, {2, 2, 3, 3}, true, {{1, 1}, {1, 1}, {1, 1}, {0, 0}}, 7);
  check_conv(f, {1, 2, 2, 600}, {2, 2, 1, 5}, true, {{1, 3}, {0, 2}, {1, 2}, {0, 0}}, 8);
  // single-value lists apply to every spatial dim, as in PyTorch
  check_conv(f, {1, 2, 6, 7}, {2, 2, 3, 3}, true, {{2}, {1}, {1}, {0}}, 9);
}

TEST(NnConv, Conv1dAnd3d) {
  check_conv(ScalarType::Float, {2, 4, 20}, {6, 2, 5}, true, {{2}, {2}, {1}, {0}, false, 2}, 11);
  check_conv(ScalarType::Float, {1, 3, 9}, {3, 1, 3}, false, {{1}, {2}, {2}, {0}, false, 3}, 12);
  check_conv(ScalarType::Float, {1, 2, 5, 6, 7}, {3, 2, 3, 2, 3}, true,
             {{1, 2, 1}, {1, 0, 1}, {1, 1, 2}, {0, 0, 0}}, 13);
}

TEST(NnConv, TransposedAgainstReference) {
  const ScalarType f = ScalarType::Float;
  check_conv(f, {2, 3, 4, 5}, {3, 2, 3, 3}, true, {{2, 2}, {1, 1}, {1, 1}, {1, 1}, true, 1}, 21);
  check_conv(f, {1, 4, 5, 4}, {4, 3, 3, 2}, true, {{2, 3}, {1, 0}, {2, 1}, {1, 2}, true, 2}, 22);
  check_conv(f, {1, 4, 3, 3}, {4, 1, 3, 3}, false, {{1, 1}, {0, 0}, {1, 1}, {0, 0}, true, 4}, 23);
  check_conv(f, {1, 2, 2, 140}, {2, 2, 2, 3}, true, {{1, 2}, {0, 1}, {1, 1}, {0, 1}, true, 1}, 24);
  check_conv(f, {1, 2, 9}, {2, 3, 4}, true, {{3}, {2}, {1}, {2}, true, 1}, 25);
  check_conv(f, {1, 2, 3, 4, 3}, {2, 2, 2, 3, 2}, true,
             {{2, 1, 2}, {0, 1, 1}, {1, 1, 1}, {1, 0, 1}, true, 1}, 26);
}

TEST(NnConv, Dtypes) {
  const ConvArgs a{{2, 1}, {1, 1}, {1, 1}, {0, 0}, false, 1};
  const ConvArgs t{{2, 1}, {1, 1}, {1, 1}, {1, 0}, true, 1};
  for (ScalarType dt : {ScalarType::Double, ScalarType::Half, ScalarType::BFloat16,
                        ScalarType::Int, ScalarType::Long, ScalarType::Char}) {
    check_conv(dt, {1, 3, 6, 5}, {2, 3, 3, 3}, true, a, 31);
    check_conv(dt, {1, 2, 4, 5}, {2, 3, 3, 3}, true, t, 32);
  }
}

TEST(NnConv, EmptyBatch) {
  OwnedTensor x(ScalarType::Float, {0, 1, 4, 4});
  OwnedTensor w = make(ScalarType::Float, {1, 1, 3, 3}, Values(9, 1.0));
  OwnedTensor out = dyn_out(ScalarType::Float, 4);
  const KernelContext ctx = run_conv(x, w, nullptr, {{1, 1}, {0, 0}, {1, 1}, {0, 0}}, out);
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  EXPECT_EQ(shape_of(out), (Sizes{0, 1, 2, 2}));
}

TEST(NnConv, RejectsBadArguments) {
  const ScalarType f = ScalarType::Float;
  OwnedTensor x(f, {1, 4, 5, 5});
  OwnedTensor out = dyn_out(f, 4);
  const ConvArgs ok{{1, 1}, {0, 0}, {1, 1}, {0, 0}};
  {
    OwnedTensor w(f, {2, 3, 3, 3});  // 3 input channels for a 4-channel input
    EXPECT_TRUE(run_conv(x, w, nullptr, ok, out).failed());
  }
  {
    OwnedTensor w(f, {3, 2, 3, 3});  // 3 output channels do not split into 2 groups
    EXPECT_TRUE(run_conv(x, w, nullptr, {{1, 1}, {0, 0}, {1, 1}, {0, 0}, false, 2}, out).failed());
  }
  {
    OwnedTensor w(f, {2, 4, 6, 6});  // kernel larger than the input
    EXPECT_TRUE(run_conv(x, w, nullptr, ok, out).failed());
  }
  {
    OwnedTensor w(f, {2, 4, 3, 3});
    EXPECT_TRUE(run_conv(x, w, nullptr, {{0, 1}, {0, 0}, {1, 1}, {0, 0}}, out).failed());
    EXPECT_TRUE(run_conv(x, w, nullptr, {{1, 1}, {-1, 0}, {1, 1}, {0, 0}}, out).failed());
    EXPECT_TRUE(run_conv(x, w, nullptr, {{1, 1, 1}, {0, 0}, {1, 1}, {0, 0}}, out).failed());
    EXPECT_TRUE(run_conv(x, w, nullptr, {{1, 1}, {0, 0}, {1, 1}, {0, 0}, false, 0}, out).failed());
    OwnedTensor bad_bias(f, {3});
    EXPECT_TRUE(run_conv(x, w, &bad_bias, ok, out).failed());
    OwnedTensor small_out(f, {1, 2, 2, 2});  // static, wrong shape
    EXPECT_TRUE(run_conv(x, w, nullptr, ok, small_out).failed());
    OwnedTensor out3 = dyn_out(f, 3);  // wrong rank
    EXPECT_TRUE(run_conv(x, w, nullptr, ok, out3).failed());
    OwnedTensor out_d = dyn_out(ScalarType::Double, 4);
    EXPECT_TRUE(run_conv(x, w, nullptr, ok, out_d).failed());
  }
  {
    OwnedTensor w(ScalarType::Double, {2, 4, 3, 3});
    EXPECT_TRUE(run_conv(x, w, nullptr, ok, out).failed());
  }
  {
    // output_padding must be below stride or dilation
    OwnedTensor w(f, {4, 2, 3, 3});
    EXPECT_TRUE(run_conv(x, w, nullptr, {{1, 1}, {0, 0}, {1, 1}, {1, 1}, true, 1}, out).failed());
  }
  {
    OwnedTensor xb(ScalarType::Bool, {1, 1, 3, 3});
    OwnedTensor wb(ScalarType::Bool, {1, 1, 1, 1});
    OwnedTensor ob = dyn_out(ScalarType::Bool, 4);
    const KernelContext ctx = run_conv(xb, wb, nullptr, ok, ob);
    EXPECT_TRUE(ctx.failed());
    EXPECT_EQ(ctx.error(), Error::NotSupported);
  }
  {
    OwnedTensor x2(f, {4, 5});
    OwnedTensor w2(f, {2, 4});
    EXPECT_TRUE(run_conv(x2, w2, nullptr, ok, out).failed());
  }
}

// ---------------------------------------------------------------------------
// Matmul

Values mm_ref(const Values& a, const Values& b, int64_t batch, int64_t n, int64_t k, int64_t p) {
  Values c(static_cast<size_t>(batch * n * p), 0.0);
  for (int64_t bi = 0; bi < batch; ++bi)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < p; ++j) {
        double s = 0;
        for (int64_t kk = 0; kk < k; ++kk) s += a[(bi * n + i) * k + kk] * b[(bi * k + kk) * p + j];
        c[(bi * n + i) * p + j] = s;
      }
  return c;
}

void check_mm(ScalarType dt, int32_t batch, int32_t n, int32_t k, int32_t p, uint32_t seed) {
  SCOPED_TRACE(::testing::Message() << scalar_type_name(dt) << " " << batch << "x" << n << "x"
                                    << k << "x" << p);
  const bool ints = !is_floating_type(dt);
  const bool batched = batch > 0;
  const int32_t nb = batched ? batch : 1;
  const Sizes as = batched ? Sizes{batch, n, k} : Sizes{n, k};
  const Sizes bs = batched ? Sizes{batch, k, p} : Sizes{k, p};
  OwnedTensor a = make(dt, as, random_values(numel_of(as), seed, ints));
  OwnedTensor b = make(dt, bs, random_values(numel_of(bs), seed + 1, ints));
  OwnedTensor out = dyn_out(dt, batched ? 3 : 2);
  const KernelContext ctx = KernelCall()
                                .tensor(a.tensor())
                                .tensor(b.tensor())
                                .tensor(out.tensor())
                                .run(batched ? "aten::bmm.out" : "aten::mm.out");
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  EXPECT_EQ(shape_of(out), batched ? (Sizes{batch, n, p}) : (Sizes{n, p}));
  const Values want = mm_ref(values_of(a), values_of(b), nb, n, k, p);
  expect_values(values_of(out), stored_as(dt, want), ints ? 0 : tolerance(dt) * 10);
}

TEST(NnMatmul, MmAndBmmAgainstReference) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                        ScalarType::BFloat16, ScalarType::Int, ScalarType::Long,
                        ScalarType::Short, ScalarType::Byte}) {
    check_mm(dt, 0, 3, 5, 4, 1);
    check_mm(dt, 2, 4, 3, 5, 2);
  }
  check_mm(ScalarType::Float, 0, 5, 17, 300, 3);  // wider than one accumulator strip
  check_mm(ScalarType::Float, 3, 2, 33, 257, 4);
  check_mm(ScalarType::Float, 0, 1, 1, 1, 5);
}

TEST(NnMatmul, Int8WrapsLikeTorch) {
  OwnedTensor a = make(ScalarType::Char, {1, 2}, {100, 100});
  OwnedTensor b = make(ScalarType::Char, {2, 1}, {1, 1});
  OwnedTensor out(ScalarType::Char, {1, 1});
  ASSERT_FALSE(
      KernelCall().tensor(a.tensor()).tensor(b.tensor()).tensor(out.tensor()).run("aten::mm.out")
          .failed());
  EXPECT_EQ(values_of(out), (Values{-56}));  // torch: 200 wraps to -56
}

TEST(NnMatmul, EmptyInnerDimGivesZeros) {
  OwnedTensor a(ScalarType::Float, {2, 0});
  OwnedTensor b(ScalarType::Float, {0, 3});
  OwnedTensor out = dyn_out(ScalarType::Float, 2);
  ASSERT_FALSE(
      KernelCall().tensor(a.tensor()).tensor(b.tensor()).tensor(out.tensor()).run("aten::mm.out")
          .failed());
  EXPECT_EQ(shape_of(out), (Sizes{2, 3}));
  expect_values(values_of(out), Values(6, 0.0), 0);
}

KernelContext run_addmm(const char* name, OwnedTensor& self, OwnedTensor& a, OwnedTensor& b,
                        double beta, double alpha, OwnedTensor& out) {
  return KernelCall()
      .tensor(self.tensor())
      .tensor(a.tensor())
      .tensor(b.tensor())
      .real(beta)
      .real(alpha)
      .tensor(out.tensor())
      .run(name);
}

TEST(NnMatmul, AddmmBroadcastsSelf) {
  const int32_t n = 3, k = 4, p = 5;
  OwnedTensor a = make(ScalarType::Float, {n, k}, random_values(n * k, 10));
  OwnedTensor b = make(ScalarType::Float, {k, p}, random_values(k * p, 11));
  const Values prod = mm_ref(values_of(a), values_of(b), 1, n, k, p);
  const std::vector<Sizes> self_shapes = {{p}, {n, p}, {1, p}, {n, 1}, {}, {1}};
  for (const Sizes& ss : self_shapes) {
    SCOPED_TRACE(::testing::Message() << "self rank " << ss.size());
    OwnedTensor self = make(ScalarType::Float, ss, random_values(numel_of(ss), 12));
    const Values sv = values_of(self);
    Values want(static_cast<size_t>(n * p));
    for (int32_t i = 0; i < n; ++i)
      for (int32_t j = 0; j < p; ++j) {
        double s = 0;
        if (ss.size() == 2) {
          s = sv[(ss[0] == 1 ? 0 : i) * ss[1] + (ss[1] == 1 ? 0 : j)];
        } else if (ss.size() == 1) {
          s = sv[ss[0] == 1 ? 0 : j];
        } else {
          s = sv[0];
        }
        want[i * p + j] = 0.5 * s + 2.0 * prod[i * p + j];
      }
    OwnedTensor out = dyn_out(ScalarType::Float, 2);
    const KernelContext ctx = run_addmm("aten::addmm.out", self, a, b, 0.5, 2.0, out);
    ASSERT_FALSE(ctx.failed()) << ctx.message();
    EXPECT_EQ(shape_of(out), (Sizes{n, p}));
    expect_values(values_of(out), want, 1e-5);
  }
}

TEST(NnMatmul, AddmmBetaZeroIgnoresNaNSelf) {
  OwnedTensor self = make(ScalarType::Float, {2}, {kNaN, kNaN});
  OwnedTensor a = make(ScalarType::Float, {1, 2}, {1, 2});
  OwnedTensor b = make(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  OwnedTensor out(ScalarType::Float, {1, 2});
  ASSERT_FALSE(run_addmm("aten::addmm.out", self, a, b, 0.0, 1.0, out).failed());
  expect_values(values_of(out), {7, 10}, 0);
}

TEST(NnMatmul, AddmmIntegersAndHalf) {
  OwnedTensor self = make(ScalarType::Int, {2}, {1, -1});
  OwnedTensor a = make(ScalarType::Int, {2, 2}, {1, 2, 3, 4});
  OwnedTensor b = make(ScalarType::Int, {2, 2}, {5, 6, 7, 8});
  OwnedTensor out(ScalarType::Int, {2, 2});
  // torch.addmm(int tensors, beta=2, alpha=3) = 2 * self + 3 * [[19, 22], [43, 50]]
  ASSERT_FALSE(KernelCall()
                   .tensor(self.tensor())
                   .tensor(a.tensor())
                   .tensor(b.tensor())
                   .integer(2)
                   .integer(3)
                   .tensor(out.tensor())
                   .run("aten::addmm.out")
                   .failed());
  EXPECT_EQ(values_of(out), (Values{59, 64, 131, 148}));

  OwnedTensor hs = make(ScalarType::Half, {2}, {0.5, 0.25});
  OwnedTensor ha = make(ScalarType::Half, {2, 2}, {1, 2, 3, 4});
  OwnedTensor hb = make(ScalarType::Half, {2, 2}, {5, 6, 7, 8});
  OwnedTensor ho(ScalarType::Half, {2, 2});
  ASSERT_FALSE(run_addmm("aten::addmm.out", hs, ha, hb, 1.0, 1.0, ho).failed());
  expect_values(values_of(ho), {19.5, 22.25, 43.5, 50.25}, 0);
}

TEST(NnMatmul, Baddbmm) {
  const int32_t bt = 2, n = 3, k = 4, p = 2;
  OwnedTensor a = make(ScalarType::Double, {bt, n, k}, random_values(bt * n * k, 20));
  OwnedTensor b = make(ScalarType::Double, {bt, k, p}, random_values(bt * k * p, 21));
  OwnedTensor self = make(ScalarType::Double, {n, 1}, {1, 2, 3});
  const Values prod = mm_ref(values_of(a), values_of(b), bt, n, k, p);
  Values want(prod.size());
  for (int32_t bi = 0; bi < bt; ++bi)
    for (int32_t i = 0; i < n; ++i)
      for (int32_t j = 0; j < p; ++j) {
        const size_t o = (bi * n + i) * p + j;
        want[o] = -1.0 * (i + 1) + 0.5 * prod[o];
      }
  OwnedTensor out = dyn_out(ScalarType::Double, 3);
  const KernelContext ctx = run_addmm("aten::baddbmm.out", self, a, b, -1.0, 0.5, out);
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  EXPECT_EQ(shape_of(out), (Sizes{bt, n, p}));
  expect_values(values_of(out), want, 1e-12);
}

TEST(NnMatmul, RejectsBadArguments) {
  const ScalarType f = ScalarType::Float;
  OwnedTensor a(f, {2, 3});
  OwnedTensor b(f, {4, 2});
  OwnedTensor out = dyn_out(f, 2);
  auto mm = [&](OwnedTensor& x, OwnedTensor& y, OwnedTensor& o) {
    return KernelCall().tensor(x.tensor()).tensor(y.tensor()).tensor(o.tensor())
        .run("aten::mm.out");
  };
  EXPECT_TRUE(mm(a, b, out).failed());  // 3 != 4
  OwnedTensor bd(ScalarType::Double, {3, 2});
  EXPECT_TRUE(mm(a, bd, out).failed());
  OwnedTensor b3(f, {1, 3, 2});
  EXPECT_TRUE(mm(a, b3, out).failed());
  OwnedTensor ab(ScalarType::Bool, {2, 3}), bb(ScalarType::Bool, {3, 2});
  OwnedTensor ob = dyn_out(ScalarType::Bool, 2);
  EXPECT_EQ(mm(ab, bb, ob).error(), Error::NotSupported);
  OwnedTensor x(f, {2, 3, 4}), y(f, {3, 4, 2});
  OwnedTensor o3 = dyn_out(f, 3);
  EXPECT_TRUE(
      KernelCall().tensor(x.tensor()).tensor(y.tensor()).tensor(o3.tensor()).run("aten::bmm.out")
          .failed());  // batch 2 != 3
  OwnedTensor good_b(f, {3, 2});
  OwnedTensor self_bad(f, {3});  // does not broadcast to [2, 2]
  EXPECT_TRUE(run_addmm("aten::addmm.out", self_bad, a, good_b, 1, 1, out).failed());
  OwnedTensor self_rank3(f, {1, 2, 2});
  EXPECT_TRUE(run_addmm("aten::addmm.out", self_rank3, a, good_b, 1, 1, out).failed());
}

// ---------------------------------------------------------------------------
// Softmax

Values softmax_ref(const Values& x, const Sizes& s, int dim, bool log) {
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < dim; ++d) outer *= s[d];
  for (size_t d = dim + 1; d < s.size(); ++d) inner *= s[d];
  const int64_t n = s.empty() ? 1 : s[dim];
  Values y(x.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t k) { return (o * n + k) * inner + i; };
      double m = -kInf;
      for (int64_t k = 0; k < n; ++k) m = std::max(m, x[at(k)]);
      double sum = 0;
      for (int64_t k = 0; k < n; ++k) sum += std::exp(x[at(k)] - m);
      for (int64_t k = 0; k < n; ++k) {
        y[at(k)] = log ? x[at(k)] - m - std::log(sum) : std::exp(x[at(k)] - m) / sum;
      }
    }
  return y;
}

KernelContext run_softmax(const char* name, OwnedTensor& x, int64_t dim, OwnedTensor& out,
                          bool half_to_float = false) {
  return KernelCall()
      .tensor(x.tensor())
      .integer(dim)
      .boolean(half_to_float)
      .tensor(out.tensor())
      .run(name);
}

TEST(NnSoftmax, AnyDimAgainstReference) {
  const Sizes s = {3, 4, 5};
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                        ScalarType::BFloat16}) {
    for (int dim = -3; dim < 3; ++dim) {
      for (bool log : {false, true}) {
        SCOPED_TRACE(::testing::Message()
                     << scalar_type_name(dt) << " dim " << dim << " log " << log);
        Values v = random_values(60, 40 + dim);
        for (double& x : v) x *= 5;
        OwnedTensor x = make(dt, s, v);
        OwnedTensor out = dyn_out(dt, 3);
        const KernelContext ctx = run_softmax(log ? "aten::_log_softmax.out" : "aten::_softmax.out",
                                              x, dim, out);
        ASSERT_FALSE(ctx.failed()) << ctx.message();
        EXPECT_EQ(shape_of(out), s);
        expect_values(values_of(out), softmax_ref(values_of(x), s, dim < 0 ? dim + 3 : dim, log),
                      tolerance(dt) * 4);
      }
    }
  }
}

TEST(NnSoftmax, LargeValuesNaNAndInfinity) {
  OwnedTensor x = make(ScalarType::Float, {4, 3},
                       {1000, 1001, 1002, 1, kNaN, 2, -kInf, -kInf, -kInf, -kInf, 0, -kInf});
  OwnedTensor out(ScalarType::Float, {4, 3});
  ASSERT_FALSE(run_softmax("aten::_softmax.out", x, 1, out).failed());
  // torch: softmax([1000, 1001, 1002]) = softmax([0, 1, 2]); a NaN or all -inf row is NaN.
  expect_values(values_of(out),
                {0.09003057, 0.24472847, 0.66524096, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, 0, 1, 0},
                1e-6);
  ASSERT_FALSE(run_softmax("aten::_log_softmax.out", x, 1, out).failed());
  expect_values(values_of(out),
                {-2.40760596, -1.40760596, -0.40760596, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, -kInf,
                 0, -kInf},
                1e-6);
}

TEST(NnSoftmax, ScalarAndEmpty) {
  OwnedTensor x = make(ScalarType::Float, {}, {3.5});
  OwnedTensor out(ScalarType::Float, {});
  ASSERT_FALSE(run_softmax("aten::_softmax.out", x, -1, out).failed());
  EXPECT_EQ(values_of(out), (Values{1}));
  ASSERT_FALSE(run_softmax("aten::_log_softmax.out", x, 0, out).failed());
  EXPECT_EQ(values_of(out), (Values{0}));
  OwnedTensor e(ScalarType::Float, {0, 3});
  OwnedTensor eo = dyn_out(ScalarType::Float, 2);
  ASSERT_FALSE(run_softmax("aten::_softmax.out", e, 1, eo).failed());
  EXPECT_EQ(shape_of(eo), (Sizes{0, 3}));
}

TEST(NnSoftmax, HalfToFloat) {
  OwnedTensor x = make(ScalarType::Half, {2}, {0, 1});
  OwnedTensor out(ScalarType::Float, {2});
  ASSERT_FALSE(run_softmax("aten::_softmax.out", x, 0, out, true).failed());
  expect_values(values_of(out), {0.26894142, 0.73105858}, 1e-6);
}

TEST(NnSoftmax, RejectsBadArguments) {
  OwnedTensor x(ScalarType::Float, {2, 3});
  OwnedTensor out(ScalarType::Float, {2, 3});
  EXPECT_TRUE(run_softmax("aten::_softmax.out", x, 2, out).failed());
  EXPECT_TRUE(run_softmax("aten::_softmax.out", x, -3, out).failed());
  EXPECT_TRUE(run_softmax("aten::_softmax.out", x, 1, out, true).failed());  // not half
  OwnedTensor outd(ScalarType::Double, {2, 3});
  EXPECT_TRUE(run_softmax("aten::_softmax.out", x, 1, outd).failed());
  OwnedTensor xi(ScalarType::Int, {2, 3}), oi(ScalarType::Int, {2, 3});
  EXPECT_EQ(run_softmax("aten::_log_softmax.out", xi, 1, oi).error(), Error::NotSupported);
  OwnedTensor small(ScalarType::Float, {2, 2});
  EXPECT_TRUE(run_softmax("aten::_softmax.out", x, 1, small).failed());
}

// ---------------------------------------------------------------------------
// Reductions

// Groups the input by output element (reduced dims dropped), in input order.
std::vector<Values> groups_of(const Values& x, const Sizes& s, const std::vector<int>& dims) {
  std::vector<bool> red(s.size(), false);
  for (int d : dims) red[d] = true;
  int64_t out_n = 1;
  for (size_t d = 0; d < s.size(); ++d) {
    if (!red[d]) out_n *= s[d];
  }
  std::vector<Values> g(static_cast<size_t>(out_n));
  for (int64_t i = 0; i < static_cast<int64_t>(x.size()); ++i) {
    int64_t rem = i, o = 0, scale = 1;
    for (int d = static_cast<int>(s.size()) - 1; d >= 0; --d) {
      const int64_t idx = rem % s[d];
      rem /= s[d];
      if (!red[d]) {
        o += idx * scale;
        scale *= s[d];
      }
    }
    g[o].push_back(x[i]);
  }
  return g;
}

Values reduce_ref(const Values& x, const Sizes& s, const std::vector<int>& dims,
                  const std::function<double(const Values&)>& f) {
  Values out;
  for (const Values& g : groups_of(x, s, dims)) out.push_back(f(g));
  return out;
}

double sum_of(const Values& g) {
  double s = 0;
  for (double v : g) s += v;
  return s;
}

KernelContext run_dim_reduce(const char* name, OwnedTensor& x, const std::vector<int64_t>* dims,
                             bool keepdim, std::optional<ScalarType> dtype, OwnedTensor& out) {
  KernelCall call;
  call.tensor(x.tensor());
  if (dims) {
    call.ints(*dims);
  } else {
    call.none();
  }
  call.boolean(keepdim);
  if (dtype) {
    call.integer(static_cast<int64_t>(*dtype));
  } else {
    call.none();
  }
  return call.tensor(out.tensor()).run(name);
}

TEST(NnReduce, SumAndMeanOverDimSets) {
  const Sizes s = {2, 3, 4, 5};
  const std::vector<std::vector<int64_t>> dim_sets = {{0}, {1}, {3}, {-1, -2}, {0, 2}, {1, 3},
                                                      {0, 1, 2, 3}, {3, 0}};
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                        ScalarType::BFloat16}) {
    OwnedTensor x = make(dt, s, random_values(numel_of(s), 50));
    const Values xv = values_of(x);
    for (const auto& dims : dim_sets) {
      for (bool keepdim : {false, true}) {
        std::vector<int> nd;
        Sizes want_shape;
        for (int64_t d : dims) nd.push_back(static_cast<int>(d < 0 ? d + 4 : d));
        for (int d = 0; d < 4; ++d) {
          const bool red = std::find(nd.begin(), nd.end(), d) != nd.end();
          if (!red) want_shape.push_back(s[d]);
          else if (keepdim) want_shape.push_back(1);
        }
        for (bool mean : {false, true}) {
          SCOPED_TRACE(::testing::Message() << scalar_type_name(dt) << " dims " << dims.size()
                                            << " keepdim " << keepdim << " mean " << mean);
          OwnedTensor out = dyn_out(dt, static_cast<int>(want_shape.size()));
          const char* name = mean ? "aten::mean.out" : "aten::sum.IntList_out";
          const KernelContext ctx = run_dim_reduce(name, x, &dims, keepdim, std::nullopt, out);
          ASSERT_FALSE(ctx.failed()) << ctx.message();
          EXPECT_EQ(shape_of(out), want_shape);
          const Values want = reduce_ref(xv, s, nd, [&](const Values& g) {
            return mean ? sum_of(g) / g.size() : sum_of(g);
          });
          expect_values(values_of(out), want, tolerance(dt) * 10);
        }
      }
    }
  }
}

TEST(NnReduce, SumDtypesAndDimDefaults) {
  OwnedTensor x = make(ScalarType::Int, {2, 3}, {1, 2, 3, 4, 5, 6});
  OwnedTensor out_l = dyn_out(ScalarType::Long, 1);
  const std::vector<int64_t> d0 = {0};
  ASSERT_FALSE(run_dim_reduce("aten::sum.IntList_out", x, &d0, false, ScalarType::Long, out_l)
                   .failed());
  EXPECT_EQ(values_of(out_l), (Values{5, 7, 9}));
  // dim=None and dim=[] both reduce everything.
  OwnedTensor all(ScalarType::Float, {});
  ASSERT_FALSE(run_dim_reduce("aten::sum.IntList_out", x, nullptr, false, std::nullopt, all)
                   .failed());
  EXPECT_EQ(values_of(all), (Values{21}));
  const std::vector<int64_t> none = {};
  OwnedTensor kept(ScalarType::Int, {1, 1});
  ASSERT_FALSE(run_dim_reduce("aten::sum.IntList_out", x, &none, true, std::nullopt, kept)
                   .failed());
  EXPECT_EQ(values_of(kept), (Values{21}));
  // Bool input sums as integers.
  OwnedTensor b = make(ScalarType::Bool, {4}, {1, 0, 1, 1});
  OwnedTensor bl(ScalarType::Long, {});
  ASSERT_FALSE(KernelCall().tensor(b.tensor()).none().tensor(bl.tensor()).run("aten::sum.out")
                   .failed());
  EXPECT_EQ(values_of(bl), (Values{3}));
  // An explicit dtype must match out.
  OwnedTensor wrong(ScalarType::Double, {3});
  EXPECT_TRUE(run_dim_reduce("aten::sum.IntList_out", x, &d0, false, ScalarType::Float, wrong)
                  .failed());
  // Repeated and out-of-range dims fail.
  const std::vector<int64_t> dup = {1, -1};
  OwnedTensor o2 = dyn_out(ScalarType::Int, 1);
  EXPECT_TRUE(run_dim_reduce("aten::sum.IntList_out", x, &dup, false, std::nullopt, o2).failed());
  const std::vector<int64_t> far = {2};
  EXPECT_TRUE(run_dim_reduce("aten::sum.IntList_out", x, &far, false, std::nullopt, o2).failed());
  // Wrong rank for the result.
  OwnedTensor o_rank(ScalarType::Int, {3, 1});
  EXPECT_TRUE(run_dim_reduce("aten::sum.IntList_out", x, &d0, false, std::nullopt, o_rank)
                  .failed());
}

TEST(NnReduce, MeanDtypeRulesAndEmpty) {
  OwnedTensor xi = make(ScalarType::Int, {2, 2}, {1, 2, 3, 5});
  OwnedTensor out(ScalarType::Float, {2});
  const std::vector<int64_t> d1 = {1};
  // torch: mean of an integer tensor needs dtype=.
  EXPECT_TRUE(run_dim_reduce("aten::mean.out", xi, &d1, false, std::nullopt, out).failed());
  ASSERT_FALSE(run_dim_reduce("aten::mean.out", xi, &d1, false, ScalarType::Float, out).failed());
  EXPECT_EQ(values_of(out), (Values{1.5, 4}));
  OwnedTensor outi(ScalarType::Int, {2});
  EXPECT_TRUE(run_dim_reduce("aten::mean.out", xi, &d1, false, ScalarType::Int, outi).failed());
  // An empty mean is NaN (0 / 0).
  OwnedTensor e(ScalarType::Float, {0, 3});
  OwnedTensor eo(ScalarType::Float, {3});
  const std::vector<int64_t> d0 = {0};
  ASSERT_FALSE(run_dim_reduce("aten::mean.out", e, &d0, false, std::nullopt, eo).failed());
  expect_values(values_of(eo), {kNaN, kNaN, kNaN}, 0);
  // mean.dtype_out reduces everything.
  OwnedTensor f = make(ScalarType::Float, {2, 2}, {1, 2, 3, 6});
  OwnedTensor fo(ScalarType::Float, {});
  ASSERT_FALSE(
      KernelCall().tensor(f.tensor()).none().tensor(fo.tensor()).run("aten::mean.dtype_out")
          .failed());
  EXPECT_EQ(values_of(fo), (Values{3}));
  // 0-d input reduces over dim 0 / -1.
  OwnedTensor s = make(ScalarType::Float, {}, {4});
  OwnedTensor so(ScalarType::Float, {});
  const std::vector<int64_t> dm1 = {-1};
  ASSERT_FALSE(run_dim_reduce("aten::mean.out", s, &dm1, true, std::nullopt, so).failed());
  EXPECT_EQ(values_of(so), (Values{4}));
}

TEST(NnReduce, ProdAndCumsum) {
  OwnedTensor x = make(ScalarType::Int, {2, 3}, {1, 2, 3, 4, 5, 6});
  OwnedTensor p(ScalarType::Long, {3});
  ASSERT_FALSE(KernelCall()
                   .tensor(x.tensor())
                   .integer(0)
                   .boolean(false)
                   .none()
                   .tensor(p.tensor())
                   .run("aten::prod.int_out")
                   .failed());
  EXPECT_EQ(values_of(p), (Values{4, 10, 18}));
  OwnedTensor all(ScalarType::Long, {});
  ASSERT_FALSE(
      KernelCall().tensor(x.tensor()).none().tensor(all.tensor()).run("aten::prod.out").failed());
  EXPECT_EQ(values_of(all), (Values{720}));
  OwnedTensor e(ScalarType::Float, {0, 2});
  OwnedTensor eo(ScalarType::Float, {1, 2});
  ASSERT_FALSE(KernelCall()
                   .tensor(e.tensor())
                   .integer(-2)
                   .boolean(true)
                   .none()
                   .tensor(eo.tensor())
                   .run("aten::prod.int_out")
                   .failed());
  EXPECT_EQ(values_of(eo), (Values{1, 1}));

  for (int64_t dim : {0, 1, -1}) {
    OwnedTensor c = dyn_out(ScalarType::Long, 2);
    ASSERT_FALSE(KernelCall()
                     .tensor(x.tensor())
                     .integer(dim)
                     .integer(static_cast<int64_t>(ScalarType::Long))
                     .tensor(c.tensor())
                     .run("aten::cumsum.out")
                     .failed());
    EXPECT_EQ(shape_of(c), (Sizes{2, 3}));
    EXPECT_EQ(values_of(c), dim == 0 ? (Values{1, 2, 3, 5, 7, 9}) : (Values{1, 3, 6, 4, 9, 15}));
  }
  OwnedTensor h = make(ScalarType::Half, {4}, {0.5, 0.25, kNaN, 1});
  OwnedTensor ho(ScalarType::Half, {4});
  ASSERT_FALSE(
      KernelCall().tensor(h.tensor()).integer(0).none().tensor(ho.tensor()).run("aten::cumsum.out")
          .failed());
  expect_values(values_of(ho), {0.5, 0.75, kNaN, kNaN}, 0);
  OwnedTensor bad(ScalarType::Long, {2, 3});
  EXPECT_TRUE(
      KernelCall().tensor(x.tensor()).integer(2).none().tensor(bad.tensor()).run("aten::cumsum.out")
          .failed());
}

KernelContext run_amax(const char* name, OwnedTensor& x, std::vector<int64_t> dims, bool keepdim,
                       OwnedTensor& out) {
  return KernelCall().tensor(x.tensor()).ints(std::move(dims)).boolean(keepdim).tensor(out.tensor())
      .run(name);
}

TEST(NnReduce, AmaxAmin) {
  const Sizes s = {3, 4, 2};
  for (ScalarType dt : {ScalarType::Float, ScalarType::Half, ScalarType::Int, ScalarType::Char,
                        ScalarType::Byte}) {
    const bool ints = !is_floating_type(dt);
    OwnedTensor x = make(dt, s, random_values(24, 60, ints));
    const Values xv = values_of(x);
    for (bool is_max : {true, false}) {
      OwnedTensor out = dyn_out(dt, 3);
      ASSERT_FALSE(run_amax(is_max ? "aten::amax.out" : "aten::amin.out", x, {0, -1}, true, out)
                       .failed());
      EXPECT_EQ(shape_of(out), (Sizes{1, 4, 1}));
      expect_values(values_of(out), reduce_ref(xv, s, {0, 2}, [&](const Values& g) {
                      return is_max ? *std::max_element(g.begin(), g.end())
                                    : *std::min_element(g.begin(), g.end());
                    }), 0);
    }
    OwnedTensor out(dt, {4});
    ASSERT_FALSE(run_amax("aten::amax.out", x, {0, 2}, false, out).failed());
    expect_values(values_of(out), reduce_ref(xv, s, {0, 2}, [](const Values& g) {
                    return *std::max_element(g.begin(), g.end());
                  }), 0);
    ASSERT_FALSE(run_amax("aten::amin.out", x, {2, 0}, false, out).failed());
    expect_values(values_of(out), reduce_ref(xv, s, {0, 2}, [](const Values& g) {
                    return *std::min_element(g.begin(), g.end());
                  }), 0);
  }
  // NaN propagates; bools work; dim=[] reduces everything.
  OwnedTensor n = make(ScalarType::Float, {2, 2}, {1, kNaN, 3, 2});
  OwnedTensor no(ScalarType::Float, {2});
  ASSERT_FALSE(run_amax("aten::amax.out", n, {1}, false, no).failed());
  expect_values(values_of(no), {kNaN, 3}, 0);
  ASSERT_FALSE(run_amax("aten::amin.out", n, {1}, false, no).failed());
  expect_values(values_of(no), {kNaN, 2}, 0);
  OwnedTensor b = make(ScalarType::Bool, {2, 2}, {0, 1, 0, 0});
  OwnedTensor bo(ScalarType::Bool, {2});
  ASSERT_FALSE(run_amax("aten::amax.out", b, {1}, false, bo).failed());
  EXPECT_EQ(values_of(bo), (Values{1, 0}));
  OwnedTensor whole(ScalarType::Float, {});
  ASSERT_FALSE(run_amax("aten::amin.out", n, {}, false, whole).failed());
  expect_values(values_of(whole), {kNaN}, 0);
  // Empty reduced dim: no identity, so an error; empty kept dim is fine.
  OwnedTensor e(ScalarType::Float, {0, 3});
  OwnedTensor eo = dyn_out(ScalarType::Float, 1);
  EXPECT_TRUE(run_amax("aten::amax.out", e, {0}, false, eo).failed());
  ASSERT_FALSE(run_amax("aten::amax.out", e, {1}, false, eo).failed());
  EXPECT_EQ(shape_of(eo), (Sizes{0}));
  OwnedTensor od(ScalarType::Double, {2});
  EXPECT_TRUE(run_amax("aten::amax.out", n, {1}, false, od).failed());
}

TEST(NnReduce, AnyAll) {
  OwnedTensor x = make(ScalarType::Float, {2, 3}, {0, 0, kNaN, 0, 0, 0});
  OwnedTensor o(ScalarType::Bool, {2});
  ASSERT_FALSE(KernelCall().tensor(x.tensor()).integer(1).boolean(false).tensor(o.tensor())
                   .run("aten::any.out").failed());
  EXPECT_EQ(values_of(o), (Values{1, 0}));  // NaN is true
  OwnedTensor ok(ScalarType::Bool, {1, 3});
  ASSERT_FALSE(KernelCall().tensor(x.tensor()).integer(-2).boolean(true).tensor(ok.tensor())
                   .run("aten::all.out").failed());
  EXPECT_EQ(values_of(ok), (Values{0, 0, 0}));

  OwnedTensor y = make(ScalarType::Int, {2, 2, 2}, {1, 2, 3, 4, 5, 0, 7, 8});
  OwnedTensor yo(ScalarType::Byte, {2});  // a uint8 result is allowed
  ASSERT_FALSE(KernelCall().tensor(y.tensor()).ints({0, 2}).boolean(false).tensor(yo.tensor())
                   .run("aten::all.dims_out").failed());
  EXPECT_EQ(values_of(yo), (Values{0, 1}));
  OwnedTensor all_o(ScalarType::Bool, {});
  ASSERT_FALSE(KernelCall().tensor(y.tensor()).none().boolean(false).tensor(all_o.tensor())
                   .run("aten::any.dims_out").failed());
  EXPECT_EQ(values_of(all_o), (Values{1}));
  // An explicit empty list reduces nothing (torch).
  OwnedTensor same(ScalarType::Bool, {2, 2, 2});
  ASSERT_FALSE(KernelCall().tensor(y.tensor()).ints({}).boolean(false).tensor(same.tensor())
                   .run("aten::any.dims_out").failed());
  EXPECT_EQ(values_of(same), (Values{1, 1, 1, 1, 1, 0, 1, 1}));
  ASSERT_FALSE(KernelCall().tensor(y.tensor()).tensor(all_o.tensor()).run("aten::all.all_out")
                   .failed());
  EXPECT_EQ(values_of(all_o), (Values{0}));
  ASSERT_FALSE(KernelCall().tensor(y.tensor()).tensor(all_o.tensor()).run("aten::any.all_out")
                   .failed());
  EXPECT_EQ(values_of(all_o), (Values{1}));
  // Empty: any is false, all is true.
  OwnedTensor e(ScalarType::Half, {0});
  ASSERT_FALSE(KernelCall().tensor(e.tensor()).tensor(all_o.tensor()).run("aten::all.all_out")
                   .failed());
  EXPECT_EQ(values_of(all_o), (Values{1}));
  ASSERT_FALSE(KernelCall().tensor(e.tensor()).tensor(all_o.tensor()).run("aten::any.all_out")
                   .failed());
  EXPECT_EQ(values_of(all_o), (Values{0}));
  OwnedTensor fo(ScalarType::Float, {});
  EXPECT_TRUE(KernelCall().tensor(y.tensor()).tensor(fo.tensor()).run("aten::any.all_out")
                  .failed());
}

TEST(NnReduce, ArgmaxArgminMaxMin) {
  // Ties go to the first index; the first NaN wins (torch).
  OwnedTensor x = make(ScalarType::Float, {2, 4}, {1, 3, 3, 0, 2, kNaN, 5, kNaN});
  OwnedTensor o(ScalarType::Long, {2});
  auto argx = [&](const char* name, OwnedTensor& in, std::optional<int64_t> dim, bool keepdim,
                  OwnedTensor& out) {
    KernelCall call;
    call.tensor(in.tensor());
    if (dim) call.integer(*dim);
    else call.none();
    return call.boolean(keepdim).tensor(out.tensor()).run(name);
  };
  ASSERT_FALSE(argx("aten::argmax.out", x, 1, false, o).failed());
  EXPECT_EQ(values_of(o), (Values{1, 1}));
  ASSERT_FALSE(argx("aten::argmin.out", x, -1, false, o).failed());
  EXPECT_EQ(values_of(o), (Values{3, 1}));
  OwnedTensor flat(ScalarType::Long, {});
  ASSERT_FALSE(argx("aten::argmax.out", x, std::nullopt, false, flat).failed());
  EXPECT_EQ(values_of(flat), (Values{5}));  // flattened index of the first NaN
  OwnedTensor flat_k = dyn_out(ScalarType::Long, 2);
  ASSERT_FALSE(argx("aten::argmin.out", x, std::nullopt, true, flat_k).failed());
  EXPECT_EQ(shape_of(flat_k), (Sizes{1, 1}));
  OwnedTensor col(ScalarType::Long, {1, 4});
  OwnedTensor xi = make(ScalarType::Short, {3, 4}, {1, 5, 2, 7, 9, 5, 0, 7, 9, 1, 2, -7});
  ASSERT_FALSE(argx("aten::argmax.out", xi, 0, true, col).failed());
  EXPECT_EQ(values_of(col), (Values{1, 0, 0, 0}));
  OwnedTensor b(ScalarType::Bool, {2});
  EXPECT_TRUE(argx("aten::argmax.out", b, 0, false, flat).failed());  // torch rejects bool
  OwnedTensor e(ScalarType::Float, {0});
  EXPECT_TRUE(argx("aten::argmax.out", e, std::nullopt, false, flat).failed());
  OwnedTensor of(ScalarType::Float, {2});
  EXPECT_TRUE(argx("aten::argmax.out", x, 1, false, of).failed());

  auto maxmin = [&](const char* name, OwnedTensor& in, int64_t dim, bool keepdim,
                    OwnedTensor& values, OwnedTensor& indices) {
    return KernelCall().tensor(in.tensor()).integer(dim).boolean(keepdim).tensor(values.tensor())
        .tensor(indices.tensor()).run(name);
  };
  OwnedTensor mv(ScalarType::Short, {4}), mi(ScalarType::Long, {4});
  ASSERT_FALSE(maxmin("aten::max.dim_max", xi, 0, false, mv, mi).failed());
  EXPECT_EQ(values_of(mv), (Values{9, 5, 2, 7}));
  EXPECT_EQ(values_of(mi), (Values{1, 0, 0, 0}));
  ASSERT_FALSE(maxmin("aten::min.dim_min", xi, 0, false, mv, mi).failed());
  EXPECT_EQ(values_of(mv), (Values{1, 1, 0, -7}));
  EXPECT_EQ(values_of(mi), (Values{0, 2, 1, 2}));
  OwnedTensor fv = dyn_out(ScalarType::Float, 2), fi = dyn_out(ScalarType::Long, 2);
  ASSERT_FALSE(maxmin("aten::max.dim_max", x, 1, true, fv, fi).failed());
  EXPECT_EQ(shape_of(fv), (Sizes{2, 1}));
  expect_values(values_of(fv), {3, kNaN}, 0);
  EXPECT_EQ(values_of(fi), (Values{1, 1}));
  OwnedTensor bb = make(ScalarType::Bool, {3}, {0, 1, 1});
  OwnedTensor bv(ScalarType::Bool, {}), bi(ScalarType::Long, {});
  ASSERT_FALSE(maxmin("aten::max.dim_max", bb, 0, false, bv, bi).failed());
  EXPECT_EQ(values_of(bi), (Values{1}));
  OwnedTensor wrong_i(ScalarType::Int, {4});
  EXPECT_TRUE(maxmin("aten::max.dim_max", xi, 0, false, mv, wrong_i).failed());
}

TEST(NnReduce, VarAndLogsumexp) {
  const Sizes s = {3, 5};
  OwnedTensor x = make(ScalarType::Float, s, random_values(15, 70));
  const Values xv = values_of(x);
  for (double corr : {0.0, 1.0, 2.5}) {
    OwnedTensor out(ScalarType::Float, {3});
    ASSERT_FALSE(KernelCall().tensor(x.tensor()).ints({1}).real(corr).boolean(false)
                     .tensor(out.tensor()).run("aten::var.correction_out").failed());
    expect_values(values_of(out), reduce_ref(xv, s, {1}, [&](const Values& g) {
                    const double m = sum_of(g) / g.size();
                    double ss = 0;
                    for (double v : g) ss += (v - m) * (v - m);
                    return ss / (g.size() - corr);
                  }), 1e-5);
  }
  // Default correction 1 and dim=None; one element per group gives NaN (0 / 0).
  OwnedTensor all(ScalarType::Float, {});
  ASSERT_FALSE(KernelCall().tensor(x.tensor()).none().none().boolean(false).tensor(all.tensor())
                   .run("aten::var.correction_out").failed());
  expect_values(values_of(all), reduce_ref(xv, s, {0, 1}, [](const Values& g) {
                  const double m = sum_of(g) / g.size();
                  double ss = 0;
                  for (double v : g) ss += (v - m) * (v - m);
                  return ss / (g.size() - 1);
                }), 1e-5);
  OwnedTensor one = make(ScalarType::Double, {1}, {3});
  OwnedTensor one_o(ScalarType::Double, {});
  ASSERT_FALSE(KernelCall().tensor(one.tensor()).ints({0}).none().boolean(false)
                   .tensor(one_o.tensor()).run("aten::var.correction_out").failed());
  expect_values(values_of(one_o), {kNaN}, 0);
  OwnedTensor xi(ScalarType::Int, {3}), oi(ScalarType::Int, {});
  EXPECT_EQ(KernelCall().tensor(xi.tensor()).none().none().boolean(false).tensor(oi.tensor())
                .run("aten::var.correction_out").error(),
            Error::NotSupported);

  OwnedTensor l(ScalarType::Float, {3});
  ASSERT_FALSE(KernelCall().tensor(x.tensor()).ints({-1}).boolean(false).tensor(l.tensor())
                   .run("aten::logsumexp.out").failed());
  expect_values(values_of(l), reduce_ref(xv, s, {1}, [](const Values& g) {
                  double t = 0;
                  for (double v : g) t += std::exp(v);
                  return std::log(t);
                }), 1e-5);
  OwnedTensor big = make(ScalarType::Float, {2, 2}, {1000, 1000, -kInf, -kInf});
  OwnedTensor bo(ScalarType::Float, {2});
  ASSERT_FALSE(KernelCall().tensor(big.tensor()).ints({1}).boolean(false).tensor(bo.tensor())
                   .run("aten::logsumexp.out").failed());
  expect_values(values_of(bo), {1000 + std::log(2.0), -kInf}, 1e-6);
  // Integer input, float result (torch promotes).
  OwnedTensor ii = make(ScalarType::Int, {2}, {0, 0});
  OwnedTensor io(ScalarType::Float, {});
  ASSERT_FALSE(KernelCall().tensor(ii.tensor()).ints({0}).boolean(false).tensor(io.tensor())
                   .run("aten::logsumexp.out").failed());
  expect_values(values_of(io), {std::log(2.0)}, 1e-6);
  OwnedTensor iio(ScalarType::Int, {});
  EXPECT_TRUE(KernelCall().tensor(ii.tensor()).ints({0}).boolean(false).tensor(iio.tensor())
                  .run("aten::logsumexp.out").failed());
}

TEST(NnReduce, NonContiguousInputDimOrder) {
  // A [2, 3] tensor stored column-major (dim order 1, 0): logical x[i][j] = 10 * i + j.
  OwnedTensor x(ScalarType::Float, {2, 3}, TensorShapeDynamism::Static, {1, 0});
  float* p = x.data<float>();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) p[j * 2 + i] = static_cast<float>(10 * i + j);
  OwnedTensor out(ScalarType::Float, {2});
  const std::vector<int64_t> d1 = {1};
  ASSERT_FALSE(run_dim_reduce("aten::sum.IntList_out", x, &d1, false, std::nullopt, out).failed());
  EXPECT_EQ(values_of(out), (Values{3, 33}));
}

// ---------------------------------------------------------------------------
// Pooling

KernelContext run_max_pool(OwnedTensor& x, std::vector<int64_t> k, std::vector<int64_t> s,
                           std::vector<int64_t> p, std::vector<int64_t> d, bool ceil,
                           OwnedTensor& out, OwnedTensor& idx) {
  return KernelCall()
      .tensor(x.tensor())
      .ints(std::move(k))
      .ints(std::move(s))
      .ints(std::move(p))
      .ints(std::move(d))
      .boolean(ceil)
      .tensor(out.tensor())
      .tensor(idx.tensor())
      .run("aten::max_pool2d_with_indices.out");
}

TEST(NnPool, MaxPoolMatchesTorch) {
  // torch: max_pool2d_with_indices(seq[1,2,5,6], [3,2], [2,2], [1,1], [1,2], ceil_mode=True)
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::BFloat16}) {
    OwnedTensor x = make(dt, {1, 2, 5, 6}, seq(60));
    OwnedTensor out = dyn_out(dt, 4), idx = dyn_out(ScalarType::Long, 4);
    const KernelContext ctx = run_max_pool(x, {3, 2}, {2, 2}, {1, 1}, {1, 2}, true, out, idx);
    ASSERT_FALSE(ctx.failed()) << ctx.message();
    EXPECT_EQ(shape_of(out), (Sizes{1, 2, 3, 4}));
    EXPECT_EQ(shape_of(idx), (Sizes{1, 2, 3, 4}));
    expect_values(values_of(out), {-1.0, 0.5, 2.0, 2.0, -0.5, 1.0, 2.0, 2.0, -0.25, 1.25, 1.25,
                                   -1.5, 0.25, 1.75, 1.75, -1.0, 0.75, 2.0, 2.0, -0.5, 1.0, 1.0,
                                   -0.25, -0.25},
                  0);
    EXPECT_EQ(values_of(idx), (Values{7, 9, 11, 11, 19, 21, 11, 11, 25, 27, 27, 29, 7, 9, 9, 11,
                                      19, 15, 15, 23, 25, 25, 29, 29}));
  }
}

TEST(NnPool, MaxPoolDefaultsIntsNaNAndUnbatched) {
  // stride defaults to the kernel size; a 3-D input is one image.
  OwnedTensor x = make(ScalarType::Int, {1, 4, 4},
                       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  OwnedTensor out(ScalarType::Int, {1, 2, 2}), idx(ScalarType::Long, {1, 2, 2});
  ASSERT_FALSE(run_max_pool(x, {2}, {}, {0}, {1}, false, out, idx).failed());
  EXPECT_EQ(values_of(out), (Values{6, 8, 14, 16}));
  EXPECT_EQ(values_of(idx), (Values{5, 7, 13, 15}));
  OwnedTensor n = make(ScalarType::Float, {1, 1, 2, 2}, {1, kNaN, 3, 2});
  OwnedTensor no(ScalarType::Float, {1, 1, 1, 1}), ni(ScalarType::Long, {1, 1, 1, 1});
  ASSERT_FALSE(run_max_pool(n, {2, 2}, {2, 2}, {0, 0}, {1, 1}, false, no, ni).failed());
  expect_values(values_of(no), {kNaN}, 0);
  EXPECT_EQ(values_of(ni), (Values{1}));
}

TEST(NnPool, MaxPoolRejectsBadArguments) {
  OwnedTensor x(ScalarType::Float, {1, 1, 4, 4});
  OwnedTensor out = dyn_out(ScalarType::Float, 4), idx = dyn_out(ScalarType::Long, 4);
  EXPECT_TRUE(run_max_pool(x, {2, 2}, {2, 2}, {2, 2}, {1, 1}, false, out, idx).failed());
  EXPECT_TRUE(run_max_pool(x, {0, 2}, {2, 2}, {0, 0}, {1, 1}, false, out, idx).failed());
  EXPECT_TRUE(run_max_pool(x, {2, 2, 2}, {2, 2}, {0, 0}, {1, 1}, false, out, idx).failed());
  EXPECT_TRUE(run_max_pool(x, {5, 5}, {1, 1}, {0, 0}, {1, 1}, false, out, idx).failed());
  OwnedTensor idx_i = dyn_out(ScalarType::Int, 4);
  EXPECT_TRUE(run_max_pool(x, {2, 2}, {2, 2}, {0, 0}, {1, 1}, false, out, idx_i).failed());
  OwnedTensor x2(ScalarType::Float, {4, 4});
  EXPECT_TRUE(run_max_pool(x2, {2, 2}, {2, 2}, {0, 0}, {1, 1}, false, out, idx).failed());
  OwnedTensor xb(ScalarType::Bool, {1, 1, 4, 4});
  OwnedTensor ob = dyn_out(ScalarType::Bool, 4);
  EXPECT_EQ(run_max_pool(xb, {2, 2}, {2, 2}, {0, 0}, {1, 1}, false, ob, idx).error(),
            Error::NotSupported);
  OwnedTensor empty_c(ScalarType::Float, {1, 0, 4, 4});
  EXPECT_TRUE(run_max_pool(empty_c, {2, 2}, {2, 2}, {0, 0}, {1, 1}, false, out, idx).failed());
}

KernelContext run_avg_pool(OwnedTensor& x, std::vector<int64_t> k, std::vector<int64_t> s,
                           std::vector<int64_t> p, bool ceil, bool include_pad,
                           std::optional<int64_t> divisor, OwnedTensor& out) {
  KernelCall call;
  call.tensor(x.tensor()).ints(std::move(k)).ints(std::move(s)).ints(std::move(p)).boolean(ceil)
      .boolean(include_pad);
  if (divisor) call.integer(*divisor);
  else call.none();
  return call.tensor(out.tensor()).run("aten::avg_pool2d.out");
}

TEST(NnPool, AvgPoolMatchesTorch) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Half}) {
    SCOPED_TRACE(scalar_type_name(dt));
    OwnedTensor x = make(dt, {1, 1, 5, 6}, seq(30));
    const double tol = std::max(tolerance(dt), 1e-6);  // the torch values have 7 digits
    OwnedTensor out = dyn_out(dt, 4);
    ASSERT_FALSE(run_avg_pool(x, {3, 3}, {2, 2}, {1, 1}, true, true, std::nullopt, out).failed());
    EXPECT_EQ(shape_of(out), (Sizes{1, 1, 3, 4}));
    expect_values(values_of(out), {-0.6666667, -0.25, 0.75, 0.625, -0.75, 0.0, 0.5555556,
                                   -0.2916667, -0.3333333, 0.25, 0.3055556, -0.5416667},
                  tol);
    ASSERT_FALSE(run_avg_pool(x, {3, 3}, {2, 2}, {1, 1}, true, false, std::nullopt, out).failed());
    expect_values(values_of(out), {-1.5, -0.375, 1.125, 1.875, -1.125, 0.0, 0.5555556, -0.5833333,
                                   -0.75, 0.375, 0.4583333, -1.625},
                  tol);
    ASSERT_FALSE(run_avg_pool(x, {3}, {2}, {1}, false, true, 5, out).failed());
    EXPECT_EQ(shape_of(out), (Sizes{1, 1, 3, 3}));
    expect_values(values_of(out), {-1.2, -0.45, 1.35, -1.35, 0.0, 1.0, -0.6, 0.45, 0.55}, tol);
  }
}

TEST(NnPool, AvgPoolLongAndErrors) {
  // Long averages truncate, as integer division does in torch.
  OwnedTensor x = make(ScalarType::Long, {1, 2, 2}, {1, 2, 3, 5});
  OwnedTensor out(ScalarType::Long, {1, 1, 1});
  ASSERT_FALSE(run_avg_pool(x, {2, 2}, {}, {0, 0}, false, true, std::nullopt, out).failed());
  EXPECT_EQ(values_of(out), (Values{2}));
  EXPECT_TRUE(run_avg_pool(x, {2, 2}, {}, {0, 0}, false, true, 0, out).failed());
  OwnedTensor xi(ScalarType::Int, {1, 2, 2}), oi(ScalarType::Int, {1, 1, 1});
  EXPECT_EQ(run_avg_pool(xi, {2, 2}, {}, {0, 0}, false, true, std::nullopt, oi).error(),
            Error::NotSupported);
  OwnedTensor xf(ScalarType::Float, {1, 4, 4});
  OwnedTensor of = dyn_out(ScalarType::Float, 3);
  EXPECT_TRUE(run_avg_pool(xf, {2, 2}, {}, {2, 0}, false, true, std::nullopt, of).failed());
}

TEST(NnPool, AdaptiveAvgPool) {
  // torch: _adaptive_avg_pool2d(seq[1,2,5,7], [3,4])
  OwnedTensor x = make(ScalarType::Float, {1, 2, 5, 7}, seq(70));
  OwnedTensor out = dyn_out(ScalarType::Float, 4);
  auto run = [&](OwnedTensor& in, std::vector<int64_t> size, OwnedTensor& o) {
    return KernelCall().tensor(in.tensor()).ints(std::move(size)).tensor(o.tensor())
        .run("aten::_adaptive_avg_pool2d.out");
  };
  ASSERT_FALSE(run(x, {3, 4}, out).failed());
  EXPECT_EQ(shape_of(out), (Sizes{1, 2, 3, 4}));
  expect_values(values_of(out),
                {-1.125, 0.0, 0.7916667, -0.5625, 0.375, 0.0833333, -0.3055556, -0.125, 0.8125,
                 -0.5416667, 0.25, 0.3125, -0.375, 0.75, 0.125, -0.875, 0.4166667, -0.1111111,
                 -0.0277778, 0.625, -0.5625, -0.5, 0.2916667, 0.0},
                1e-6);
  // Global pooling is the plane mean.
  OwnedTensor g = dyn_out(ScalarType::Float, 4);
  ASSERT_FALSE(run(x, {1, 1}, g).failed());
  const Values xv = values_of(x);
  expect_values(values_of(g), {sum_of(Values(xv.begin(), xv.begin() + 35)) / 35,
                               sum_of(Values(xv.begin() + 35, xv.end())) / 35},
                1e-6);
  OwnedTensor h = make(ScalarType::Half, {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  OwnedTensor ho(ScalarType::Half, {2, 1, 1});
  ASSERT_FALSE(run(h, {1, 1}, ho).failed());
  EXPECT_EQ(values_of(ho), (Values{2.5, 6.5}));
  EXPECT_TRUE(run(x, {3}, out).failed());
  EXPECT_TRUE(run(x, {-1, 2}, out).failed());
  OwnedTensor xi(ScalarType::Long, {1, 2, 2});
  OwnedTensor oi = dyn_out(ScalarType::Long, 3);
  EXPECT_EQ(run(xi, {1, 1}, oi).error(), Error::NotSupported);
}

// ---------------------------------------------------------------------------
// Normalization

KernelContext run_bn_eval(OwnedTensor& x, OwnedTensor* w, OwnedTensor* b, OwnedTensor& mean,
                          OwnedTensor& var, double eps, OwnedTensor& out, OwnedTensor& o1,
                          OwnedTensor& o2) {
  KernelCall call;
  call.tensor(x.tensor());
  if (w) call.tensor(w->tensor());
  else call.none();
  if (b) call.tensor(b->tensor());
  else call.none();
  return call.tensor(mean.tensor())
      .tensor(var.tensor())
      .real(0.1)
      .real(eps)
      .tensor(out.tensor())
      .tensor(o1.tensor())
      .tensor(o2.tensor())
      .run("aten::_native_batch_norm_legit_no_training.out");
}

TEST(NnNorm, BatchNormInference) {
  const Sizes s = {2, 3, 2, 2};
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                        ScalarType::BFloat16}) {
    SCOPED_TRACE(scalar_type_name(dt));
    OwnedTensor x = make(dt, s, random_values(24, 80));
    // Running stats stay float for 16-bit models, as torch allows.
    const ScalarType pt = dt == ScalarType::Double ? dt : ScalarType::Float;
    OwnedTensor w = make(pt, {3}, {1.5, -0.5, 2});
    OwnedTensor b = make(pt, {3}, {0.1, 0.2, -0.3});
    OwnedTensor mean = make(pt, {3}, {0.25, -0.5, 0});
    OwnedTensor var = make(pt, {3}, {1, 0.5, 4});
    OwnedTensor out = dyn_out(dt, 4);
    OwnedTensor o1 = dyn_out(ScalarType::Float, 1), o2 = dyn_out(ScalarType::Float, 1);
    const KernelContext ctx = run_bn_eval(x, &w, &b, mean, var, 1e-5, out, o1, o2);
    ASSERT_FALSE(ctx.failed()) << ctx.message();
    EXPECT_EQ(shape_of(out), s);
    EXPECT_EQ(shape_of(o1), (Sizes{0}));  // torch returns empty saved stats
    EXPECT_EQ(shape_of(o2), (Sizes{0}));
    const Values xv = values_of(x), wv = values_of(w), bv = values_of(b), mv = values_of(mean),
                 vv = values_of(var);
    Values want(xv.size());
    for (size_t i = 0; i < xv.size(); ++i) {
      const size_t c = (i / 4) % 3;
      want[i] = (xv[i] - mv[c]) / std::sqrt(vv[c] + 1e-5) * wv[c] + bv[c];
    }
    expect_values(values_of(out), want, tolerance(dt) * 4);
    // Without weight and bias.
    ASSERT_FALSE(run_bn_eval(x, nullptr, nullptr, mean, var, 1e-3, out, o1, o2).failed());
    for (size_t i = 0; i < xv.size(); ++i) {
      const size_t c = (i / 4) % 3;
      want[i] = (xv[i] - mv[c]) / std::sqrt(vv[c] + 1e-3);
    }
    expect_values(values_of(out), want, tolerance(dt) * 4);
  }
}

TEST(NnNorm, BatchNormInferenceRejectsBadArguments) {
  OwnedTensor x(ScalarType::Float, {2, 3, 4});
  OwnedTensor mean(ScalarType::Float, {3}), var(ScalarType::Float, {3});
  OwnedTensor short_w(ScalarType::Float, {2});
  OwnedTensor out = dyn_out(ScalarType::Float, 3);
  OwnedTensor o1 = dyn_out(ScalarType::Float, 1), o2 = dyn_out(ScalarType::Float, 1);
  EXPECT_TRUE(run_bn_eval(x, &short_w, nullptr, mean, var, 1e-5, out, o1, o2).failed());
  OwnedTensor mean_i(ScalarType::Int, {3});
  EXPECT_TRUE(run_bn_eval(x, nullptr, nullptr, mean_i, var, 1e-5, out, o1, o2).failed());
  OwnedTensor x1(ScalarType::Float, {3});
  OwnedTensor out1 = dyn_out(ScalarType::Float, 1);
  EXPECT_TRUE(run_bn_eval(x1, nullptr, nullptr, mean, var, 1e-5, out1, o1, o2).failed());
  OwnedTensor xi(ScalarType::Int, {2, 3}), oi = dyn_out(ScalarType::Int, 2);
  EXPECT_EQ(run_bn_eval(xi, nullptr, nullptr, mean, var, 1e-5, oi, o1, o2).error(),
            Error::NotSupported);
  OwnedTensor od = dyn_out(ScalarType::Double, 3);
  EXPECT_TRUE(run_bn_eval(x, nullptr, nullptr, mean, var, 1e-5, od, o1, o2).failed());
}

TEST(NnNorm, BatchNormTrainingMatchesTorch) {
  // torch: _native_batch_norm_legit(seq[3,2,2], seq(2)+1, seq(3)[1:], rm=[0.5,-0.5],
  // rv=[2,0.5], training=True, momentum=0.1, eps=1e-5)
  const Values x = seq(12);
  const Values w = seq(2, 1.0);
  const Values b = {seq(3)[1], seq(3)[2]};
  OwnedTensor xt = make(ScalarType::Float, {3, 2, 2}, x);
  OwnedTensor wt = make(ScalarType::Float, {2}, w), bt = make(ScalarType::Float, {2}, b);
  OwnedTensor rm = make(ScalarType::Float, {2}, {0.5, -0.5});
  OwnedTensor rv = make(ScalarType::Float, {2}, {2.0, 0.5});
  OwnedTensor out(ScalarType::Float, {3, 2, 2}), sm(ScalarType::Float, {2}),
      si(ScalarType::Float, {2});
  const KernelContext ctx = KernelCall()
                                .tensor(xt.tensor())
                                .tensor(wt.tensor())
                                .tensor(bt.tensor())
                                .tensor(rm.tensor())
                                .tensor(rv.tensor())
                                .boolean(true)
                                .real(0.1)
                                .real(1e-5)
                                .tensor(out.tensor())
                                .tensor(sm.tensor())
                                .tensor(si.tensor())
                                .run("aten::_native_batch_norm_legit.out");
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  expect_values(values_of(out), {0.2724747, -0.3106007, -0.3947225, -0.5404913, -2.059827,
                                 -2.6429024, -0.1517744, -0.2975433, -1.0880346, -1.67111,
                                 -0.7348498, -0.8806187},
                1e-5);
  expect_values(values_of(sm), {-0.0416667, 0.0416667}, 1e-5);
  expect_values(values_of(si), {0.7774339, 0.7774339}, 1e-5);
  expect_values(values_of(rm), {0.4458333, -0.4458333}, 1e-5);
  expect_values(values_of(rv), {1.9985417, 0.6485417}, 1e-5);

  // no_stats: the same batch statistics, nothing to update.
  OwnedTensor out2(ScalarType::Float, {3, 2, 2}), sm2 = dyn_out(ScalarType::Float, 1),
      si2 = dyn_out(ScalarType::Float, 1);
  auto no_stats = [&](bool training) {
    return KernelCall()
        .tensor(xt.tensor())
        .tensor(wt.tensor())
        .tensor(bt.tensor())
        .boolean(training)
        .real(0.1)
        .real(1e-5)
        .tensor(out2.tensor())
        .tensor(sm2.tensor())
        .tensor(si2.tensor())
        .run("aten::_native_batch_norm_legit.no_stats_out");
  };
  ASSERT_FALSE(no_stats(true).failed());
  EXPECT_EQ(values_of(out2), values_of(out));
  EXPECT_EQ(shape_of(sm2), (Sizes{2}));
  expect_values(values_of(si2), {0.7774339, 0.7774339}, 1e-5);
  EXPECT_TRUE(no_stats(false).failed());
}

KernelContext run_layer_norm(OwnedTensor& x, std::vector<int64_t> shape, OwnedTensor* w,
                             OwnedTensor* b, double eps, OwnedTensor& out, OwnedTensor& mean,
                             OwnedTensor& rstd) {
  KernelCall call;
  call.tensor(x.tensor()).ints(std::move(shape));
  if (w) call.tensor(w->tensor());
  else call.none();
  if (b) call.tensor(b->tensor());
  else call.none();
  return call.real(eps)
      .tensor(out.tensor())
      .tensor(mean.tensor())
      .tensor(rstd.tensor())
      .run("aten::native_layer_norm.out");
}

TEST(NnNorm, LayerNorm) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                        ScalarType::BFloat16}) {
    SCOPED_TRACE(scalar_type_name(dt));
    const Sizes s = {2, 3, 4};
    OwnedTensor x = make(dt, s, random_values(24, 90));
    OwnedTensor w = make(dt, {3, 4}, random_values(12, 91));
    OwnedTensor b = make(dt, {3, 4}, random_values(12, 92));
    OwnedTensor out = dyn_out(dt, 3), mean = dyn_out(dt, 3), rstd = dyn_out(dt, 3);
    const KernelContext ctx = run_layer_norm(x, {3, 4}, &w, &b, 1e-5, out, mean, rstd);
    ASSERT_FALSE(ctx.failed()) << ctx.message();
    EXPECT_EQ(shape_of(out), s);
    EXPECT_EQ(shape_of(mean), (Sizes{2, 1, 1}));
    EXPECT_EQ(shape_of(rstd), (Sizes{2, 1, 1}));
    const Values xv = values_of(x), wv = values_of(w), bv = values_of(b);
    Values want(24), want_mean(2), want_rstd(2);
    for (int r = 0; r < 2; ++r) {
      const Values row(xv.begin() + r * 12, xv.begin() + (r + 1) * 12);
      const double m = sum_of(row) / 12;
      double ss = 0;
      for (double v : row) ss += (v - m) * (v - m);
      const double rs = 1 / std::sqrt(ss / 12 + 1e-5);
      want_mean[r] = m;
      want_rstd[r] = rs;
      for (int i = 0; i < 12; ++i) want[r * 12 + i] = (row[i] - m) * rs * wv[i] + bv[i];
    }
    const double tol = tolerance(dt) * 4;
    expect_values(values_of(out), want, tol, "out");
    expect_values(values_of(mean), want_mean, tol, "mean");
    expect_values(values_of(rstd), want_rstd, tol, "rstd");

    // Over the last dim only, no affine.
    OwnedTensor m2 = dyn_out(dt, 3), r2 = dyn_out(dt, 3);
    ASSERT_FALSE(run_layer_norm(x, {4}, nullptr, nullptr, 1e-5, out, m2, r2).failed());
    EXPECT_EQ(shape_of(m2), (Sizes{2, 3, 1}));
    for (int r = 0; r < 6; ++r) {
      const Values row(xv.begin() + r * 4, xv.begin() + (r + 1) * 4);
      const double m = sum_of(row) / 4;
      double ss = 0;
      for (double v : row) ss += (v - m) * (v - m);
      for (int i = 0; i < 4; ++i) want[r * 4 + i] = (row[i] - m) / std::sqrt(ss / 4 + 1e-5);
    }
    expect_values(values_of(out), want, tol, "last dim");
  }
}

TEST(NnNorm, LayerNormRejectsBadArguments) {
  OwnedTensor x(ScalarType::Float, {2, 3});
  OwnedTensor out = dyn_out(ScalarType::Float, 2), m = dyn_out(ScalarType::Float, 2),
              r = dyn_out(ScalarType::Float, 2);
  EXPECT_TRUE(run_layer_norm(x, {4}, nullptr, nullptr, 1e-5, out, m, r).failed());
  EXPECT_TRUE(run_layer_norm(x, {}, nullptr, nullptr, 1e-5, out, m, r).failed());
  EXPECT_TRUE(run_layer_norm(x, {1, 2, 3}, nullptr, nullptr, 1e-5, out, m, r).failed());
  OwnedTensor w(ScalarType::Float, {2});
  EXPECT_TRUE(run_layer_norm(x, {3}, &w, nullptr, 1e-5, out, m, r).failed());
  OwnedTensor wd(ScalarType::Double, {3});
  EXPECT_TRUE(run_layer_norm(x, {3}, &wd, nullptr, 1e-5, out, m, r).failed());
  OwnedTensor m1 = dyn_out(ScalarType::Float, 1);
  EXPECT_TRUE(run_layer_norm(x, {3}, nullptr, nullptr, 1e-5, out, m1, r).failed());
  OwnedTensor xi(ScalarType::Long, {2, 3}), oi = dyn_out(ScalarType::Long, 2);
  EXPECT_EQ(run_layer_norm(xi, {3}, nullptr, nullptr, 1e-5, oi, m, r).error(),
            Error::NotSupported);
}

TEST(NnNorm, GroupNormMatchesTorch) {
  // torch: native_group_norm(seq[2,4,3], seq(4)+1, seq(5)[1:], N=2, C=4, HxW=3, group=2, 1e-5)
  OwnedTensor x = make(ScalarType::Float, {2, 4, 3}, seq(24));
  OwnedTensor w = make(ScalarType::Float, {4}, seq(4, 1.0));
  const Values b5 = seq(5);
  OwnedTensor b = make(ScalarType::Float, {4}, Values(b5.begin() + 1, b5.end()));
  OwnedTensor out = dyn_out(ScalarType::Float, 3), mean = dyn_out(ScalarType::Float, 2),
              rstd = dyn_out(ScalarType::Float, 2);
  auto run = [&](OwnedTensor& in, int64_t n, int64_t c, int64_t hxw, int64_t g) {
    return KernelCall()
        .tensor(in.tensor())
        .tensor(w.tensor())
        .tensor(b.tensor())
        .integer(n)
        .integer(c)
        .integer(hxw)
        .integer(g)
        .real(1e-5)
        .tensor(out.tensor())
        .tensor(mean.tensor())
        .tensor(rstd.tensor())
        .run("aten::native_group_norm.out");
  };
  const KernelContext ctx = run(x, 2, 4, 3, 2);
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  EXPECT_EQ(shape_of(mean), (Sizes{2, 2}));
  expect_values(values_of(out),
                {0.2138456, -0.3716926, -0.9572309, -0.5731923, -0.7195768, -0.8659614,
                 -0.4819228, -0.1891537, 0.1036154, 1.3659614, 2.0978842, 2.8298071, -0.2952111,
                 -0.909004, -1.5227968, -0.7216474, -0.8750956, -0.159004, -0.2273944, 0.079502,
                 0.3863984, 2.1082371, 2.8754782, -0.7049801},
                1e-5);
  expect_values(values_of(mean), {-0.125, 0.125, -0.3333333, -0.0833333}, 1e-6);
  expect_values(values_of(rstd), {0.7807177, 0.7807177, 0.8183905, 0.8183905}, 1e-6);
  EXPECT_TRUE(run(x, 2, 4, 3, 3).failed());  // 4 channels, 3 groups
  EXPECT_TRUE(run(x, 2, 4, 4, 2).failed());  // wrong HxW
  EXPECT_TRUE(run(x, 1, 4, 3, 2).failed());  // wrong N
}

}  // namespace
}  // namespace ember
