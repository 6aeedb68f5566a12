// Tester for the int8 binary family: every variant this CPU supports, add
// and mul, vector-vector and vector-number on lengths around every vector
// width, then broadcast shapes (rows against a per-channel vector, a scalar
// tensor, a permuted operand, ranges that split rows) through the plan.
//
// Tolerance: equal to the float-emulating reference (the arithmetic
// qs8_vbinary.h states, which every variant computes), and within 1 LSB of
// PyTorch's reference, dequantize -> op in double -> quantize.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kernels/optimized/qs8-vbinary/qs8_vbinary.h"
#include "tests/cpp/kernels/optimized/int8_test_util.h"

namespace ember::kernels::optimized {
namespace {

using testing::random_int8;
using testing::round_clamp;

std::vector<const Qs8VBinaryConfig*> supported_variants() {
  std::vector<const Qs8VBinaryConfig*> out;
  for (size_t i = 0; i < qs8_vbinary_num_variants(); ++i) {
    const Qs8VBinaryConfig& v = qs8_vbinary_variant(i);
    if (qs8_vbinary_variant_supported(v)) out.push_back(&v);
  }
  return out;
}

// The qparams of an op: operands' and output's scales and zero points.
struct Quant {
  float a_scale, b_scale, out_scale;
  int a_zero, b_zero, out_zero;
  int out_min = -128, out_max = 127;
};

Qs8BinaryParams params_for(Qs8BinaryOp op, const Quant& q) {
  Qs8BinaryParams p;
  p.a_zero = q.a_zero;
  p.b_zero = q.b_zero;
  if (op == Qs8BinaryOp::Add) {
    p.a_mult = q.a_scale / q.out_scale;
    p.b_mult = q.b_scale / q.out_scale;
  } else {
    p.a_mult = q.a_scale * q.b_scale / q.out_scale;
  }
  p.out_zero = q.out_zero;
  p.out_min = q.out_min;
  p.out_max = q.out_max;
  return p;
}

// The kernels' arithmetic, in float.
int emulate(Qs8BinaryOp op, int a, int b, const Qs8BinaryParams& p) {
  const float v = op == Qs8BinaryOp::Add
                      ? std::fma(static_cast<float>(a - p.a_zero), p.a_mult,
                                 static_cast<float>(b - p.b_zero) * p.b_mult)
                      : static_cast<float>((a - p.a_zero) * (b - p.b_zero)) * p.a_mult;
  return round_clamp(v, p.out_zero, p.out_min, p.out_max);
}

// PyTorch's reference: dequantize, op, quantize (the op in double here).
int reference(Qs8BinaryOp op, int a, int b, const Quant& q) {
  const double da = (a - q.a_zero) * static_cast<double>(q.a_scale);
  const double db = (b - q.b_zero) * static_cast<double>(q.b_scale);
  const double v = op == Qs8BinaryOp::Add ? da + db : da * db;
  return round_clamp(v / q.out_scale, q.out_zero, q.out_min, q.out_max);
}

const Quant kQuants[] = {
    {0.05f, 0.03f, 0.07f, -5, 12, 3},
    {0.011f, 0.2f, 0.09f, 127, -128, -20, -20, 127},  // far zero points, a fused relu
    {0.5f, 0.5f, 0.25f, 0, 0, 0, -10, 10},            // a narrow clamp
    {0.25f, 1e-8f, 0.1f, 3, -7, 1},  // scales 2^25 apart (wasmsimd: its scalar fallback)
};

void expect_close(const char* what, Qs8BinaryOp op, int a, int b, int got, const Quant& q,
                  const Qs8BinaryParams& p, int* reported) {
  const int want = emulate(op, a, b, p);
  const int exact = reference(op, a, b, q);
  if ((got != want || std::abs(got - exact) > 1) && (*reported)++ < 5) {
    ADD_FAILURE() << what << " " << (op == Qs8BinaryOp::Add ? "add" : "mul") << "(" << a << ", "
                  << b << ") = " << got << ", want " << want << " (exact " << exact << ")";
  }
}

TEST(Qs8VBinary, VectorVectorAndVectorNumber) {
  for (const Qs8VBinaryConfig* cfg : supported_variants()) {
    for (Qs8BinaryOp op : {Qs8BinaryOp::Add, Qs8BinaryOp::Mul}) {
      for (const Quant& q : kQuants) {
        const Qs8BinaryParams p = params_for(op, q);
        for (size_t n : {1, 2, 7, 15, 16, 17, 31, 32, 33, 64, 100, 1000}) {
          SCOPED_TRACE(std::string(cfg->name) + " n " + std::to_string(n));
          const std::vector<int8_t> a = random_int8(n, static_cast<uint32_t>(n));
          const std::vector<int8_t> b = random_int8(n, static_cast<uint32_t>(n) + 9);
          std::vector<int8_t> y(n + 1, 55);
          int reported = 0;
          cfg->vv[static_cast<size_t>(op)](n, a.data(), b.data(), y.data(), &p);
          for (size_t i = 0; i < n; ++i) expect_close("vv", op, a[i], b[i], y[i], q, p, &reported);
          EXPECT_EQ(y[n], 55) << "wrote past the end";
          for (int bv : {-128, -1, 0, 77, 127}) {
            cfg->vs[static_cast<size_t>(op)](n, a.data(), static_cast<int8_t>(bv), y.data(), &p);
            for (size_t i = 0; i < n; ++i) expect_close("vs", op, a[i], bv, y[i], q, p, &reported);
          }
          // In place: y is a.
          std::vector<int8_t> inplace = a;
          cfg->vv[static_cast<size_t>(op)](n, inplace.data(), b.data(), inplace.data(), &p);
          for (size_t i = 0; i < n; ++i) {
            expect_close("in place", op, a[i], b[i], inplace[i], q, p, &reported);
          }
        }
      }
    }
  }
}

// A broadcast op: output `sizes` (row-major, contiguous), a and b read
// through strides in elements.
struct BroadcastCase {
  const char* what;
  std::vector<size_t> sizes;
  std::vector<ptrdiff_t> a_strides, b_strides;
  size_t a_size, b_size;  // elements the operands hold
};

TEST(Qs8VBinary, BroadcastPlans) {
  const BroadcastCase cases[] = {
      {"same shape", {3, 5, 7}, {35, 7, 1}, {35, 7, 1}, 105, 105},
      {"rows x per-channel vector", {2, 9, 33}, {297, 33, 1}, {0, 0, 1}, 594, 33},
      {"per-channel vector x rows", {6, 40}, {0, 1}, {40, 1}, 40, 240},
      {"a scalar tensor", {4, 19}, {19, 1}, {0, 0}, 76, 1},
      {"column vector", {5, 17}, {17, 1}, {1, 0}, 85, 5},
      {"b transposed", {7, 11}, {11, 1}, {1, 7}, 77, 77},
  };
  for (const Qs8VBinaryConfig* cfg : supported_variants()) {
    for (Qs8BinaryOp op : {Qs8BinaryOp::Add, Qs8BinaryOp::Mul}) {
      const Quant& q = kQuants[0];
      const Qs8BinaryParams p = params_for(op, q);
      for (const BroadcastCase& c : cases) {
        SCOPED_TRACE(std::string(cfg->name) + ": " + c.what);
        F32BinaryPlan plan;
        ASSERT_TRUE(f32_binary_plan(static_cast<int>(c.sizes.size()), c.sizes.data(),
                                    c.a_strides.data(), c.b_strides.data(), &plan));
        const std::vector<int8_t> a = random_int8(c.a_size, 3);
        const std::vector<int8_t> b = random_int8(c.b_size, 4);
        std::vector<int8_t> y(plan.numel);
        // In three ranges that split rows, as threads would take them.
        const size_t cuts[] = {0, plan.numel / 3 + 1, 2 * plan.numel / 3 + 2, plan.numel};
        for (int r = 0; r < 3; ++r) {
          qs8_vbinary_run(*cfg, op, plan, a.data(), b.data(), y.data(), cuts[r], cuts[r + 1], p);
        }
        int reported = 0;
        for (size_t i = 0; i < plan.numel; ++i) {
          // The output index as coordinates, then each operand's offset.
          size_t rest = i;
          ptrdiff_t ao = 0, bo = 0;
          for (int d = static_cast<int>(c.sizes.size()) - 1; d >= 0; --d) {
            const size_t idx = rest % c.sizes[d];
            rest /= c.sizes[d];
            ao += static_cast<ptrdiff_t>(idx) * c.a_strides[d];
            bo += static_cast<ptrdiff_t>(idx) * c.b_strides[d];
          }
          expect_close("plan", op, a[ao], b[bo], y[i], q, p, &reported);
        }
      }
    }
  }
}

TEST(Qs8VBinary, ChosenVariantIsSupported) {
  EXPECT_TRUE(qs8_vbinary_variant_supported(qs8_vbinary_config()));
  std::string names;
  for (const Qs8VBinaryConfig* cfg : supported_variants()) names += std::string(" ") + cfg->name;
  std::printf("qs8-vbinary variants tested:%s\n", names.c_str());
}

}  // namespace
}  // namespace ember::kernels::optimized
