// Tester for the f32 binary family: every variant this CPU supports against
// the same operation in plain C++ (each op is one IEEE operation, so results
// must match exactly, NaN for NaN), in each form (vector-vector,
// vector-number, rows against a repeating vector) on edge sizes, in place
// and with fused clamps; then the broadcast plan against index arithmetic on
// random shapes, broadcasts (either operand smaller), memory orders (NHWC)
// and ranges that split rows, as threads do.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/optimized/f32-vbinary/f32_vbinary.h"

namespace ember::kernels::optimized {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

const F32BinaryOp kOps[] = {F32BinaryOp::Add,  F32BinaryOp::Sub,  F32BinaryOp::Mul,
                            F32BinaryOp::Div,  F32BinaryOp::RSub, F32BinaryOp::RDiv,
                            F32BinaryOp::Max,  F32BinaryOp::Min};
static_assert(sizeof(kOps) / sizeof(kOps[0]) == kF32BinaryOpCount, "every op is tested");

float apply(F32BinaryOp op, float a, float b, const F32VBinaryParams& p) {
  float v = 0;
  switch (op) {
    case F32BinaryOp::Add: v = a + b; break;
    case F32BinaryOp::Sub: v = a - b; break;
    case F32BinaryOp::Mul: v = a * b; break;
    case F32BinaryOp::Div: v = a / b; break;
    case F32BinaryOp::RSub: v = b - a; break;
    case F32BinaryOp::RDiv: v = b / a; break;
    // torch.maximum / torch.minimum: NaN when either operand is NaN.
    case F32BinaryOp::Max: v = std::isnan(a) || std::isnan(b) ? kNan : std::max(a, b); break;
    case F32BinaryOp::Min: v = std::isnan(a) || std::isnan(b) ? kNan : std::min(a, b); break;
  }
  return v < p.min ? p.min : (v > p.max ? p.max : v);
}

bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

std::vector<const F32VBinaryConfig*> supported_variants() {
  std::vector<const F32VBinaryConfig*> out;
  for (size_t i = 0; i < f32_vbinary_num_variants(); ++i) {
    const F32VBinaryConfig& cfg = f32_vbinary_variant(i);
    if (f32_vbinary_variant_supported(cfg)) out.push_back(&cfg);
  }
  return out;
}

// Random values with the special ones sprinkled in.
std::vector<float> values(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  const float specials[] = {0.0f, -0.0f, kInf, -kInf, kNan, 1e-40f, -3e38f, 3e38f};
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = (gen() % 11 == 0) ? specials[gen() % 8] : dist(gen);
  return v;
}

const size_t kSizes[] = {0,  1,  2,  3,  4,  5,  7,  8,  9,  15,   16,   17,  31,
                         32, 33, 47, 48, 49, 63, 64, 65, 1023, 1024, 1025};
const F32VBinaryParams kClamps[] = {{-kInf, kInf}, {0.0f, kInf}, {0.0f, 6.0f}, {-1.5f, 2.0f}};

TEST(F32VBinary, VectorVectorAndVectorNumber) {
  for (const F32VBinaryConfig* cfg : supported_variants()) {
    for (F32BinaryOp op : kOps) {
      const size_t o = static_cast<size_t>(op);
      for (const F32VBinaryParams& p : kClamps) {
        for (size_t n : kSizes) {
          const std::vector<float> a = values(n, static_cast<uint32_t>(n + 1));
          const std::vector<float> b = values(n, static_cast<uint32_t>(n + 1000));
          std::vector<float> y(n + 16, 777.0f);
          cfg->vv[o](n, a.data(), b.data(), y.data(), &p);
          for (size_t i = 0; i < n; ++i) {
            ASSERT_TRUE(same(y[i], apply(op, a[i], b[i], p)))
                << cfg->name << " vv " << f32_binary_op_name(op) << " n=" << n << " [" << i << "] "
                << a[i] << ", " << b[i] << " -> " << y[i];
          }
          for (size_t i = n; i < n + 16; ++i) ASSERT_EQ(y[i], 777.0f) << "wrote past the end";
          const float scalar = n % 3 == 0 ? -1.25f : 3.0f;
          cfg->vs[o](n, a.data(), scalar, y.data(), &p);
          for (size_t i = 0; i < n; ++i) {
            ASSERT_TRUE(same(y[i], apply(op, a[i], scalar, p)))
                << cfg->name << " vs " << f32_binary_op_name(op) << " n=" << n << " [" << i << "]";
          }
          for (size_t i = n; i < n + 16; ++i) ASSERT_EQ(y[i], 777.0f) << "wrote past the end";
          // In place: y is a.
          std::vector<float> in_place = a;
          cfg->vv[o](n, in_place.data(), b.data(), in_place.data(), &p);
          for (size_t i = 0; i < n; ++i) ASSERT_TRUE(same(in_place[i], apply(op, a[i], b[i], p)));
        }
      }
    }
  }
}

TEST(F32VBinary, RowsAgainstARepeatingVector) {
  const size_t channels[] = {1, 3, 7, 8, 9, 15, 16, 17, 24, 32, 33, 48, 96};
  const size_t row_counts[] = {0, 1, 2, 5, 17};
  for (const F32VBinaryConfig* cfg : supported_variants()) {
    for (F32BinaryOp op : kOps) {
      for (size_t c : channels) {
        for (size_t rows : row_counts) {
          const F32VBinaryParams& p = kClamps[(c + rows) % 4];
          const std::vector<float> a = values(rows * c, static_cast<uint32_t>(c * 7 + rows));
          const std::vector<float> b = values(c, static_cast<uint32_t>(c));
          std::vector<float> y(rows * c + 16, 777.0f);
          cfg->rows[static_cast<size_t>(op)](rows, c, a.data(), b.data(), y.data(), &p);
          for (size_t r = 0; r < rows; ++r) {
            for (size_t j = 0; j < c; ++j) {
              ASSERT_TRUE(same(y[r * c + j], apply(op, a[r * c + j], b[j], p)))
                  << cfg->name << " rows " << f32_binary_op_name(op) << " c=" << c << " rows="
                  << rows << " [" << r << "," << j << "]";
            }
          }
          for (size_t i = rows * c; i < rows * c + 16; ++i) ASSERT_EQ(y[i], 777.0f);
        }
      }
    }
  }
}

// A random broadcast problem: out sizes, each operand's sizes (1 where it
// repeats), a memory order for the output, and each operand read either in
// that order (same memory order as out) or row-major in logical order.
struct Problem {
  int dims;
  size_t sizes[5];     // logical
  bool a_full[5], b_full[5];
  int order[5];        // memory position -> logical dim
};

// Strides in out's memory order for an operand stored contiguously in
// `own_order` over its own sizes (1 where it repeats).
void operand_strides(const Problem& pr, const bool* full, const int* own_order,
                     ptrdiff_t* strides, size_t* numel) {
  ptrdiff_t logical[5];
  ptrdiff_t s = 1;
  for (int p = pr.dims - 1; p >= 0; --p) {
    const int d = own_order[p];
    logical[d] = s;
    s *= static_cast<ptrdiff_t>(full[d] ? pr.sizes[d] : 1);
  }
  *numel = static_cast<size_t>(s);
  for (int p = 0; p < pr.dims; ++p) {
    const int d = pr.order[p];
    strides[p] = full[d] && pr.sizes[d] > 1 ? logical[d] : 0;
  }
}

TEST(F32VBinary, BroadcastPlanMatchesIndexArithmetic) {
  std::mt19937 gen(42);
  const int identity[5] = {0, 1, 2, 3, 4};
  for (int trial = 0; trial < 400; ++trial) {
    Problem pr;
    pr.dims = 1 + static_cast<int>(gen() % 5);
    for (int d = 0; d < pr.dims; ++d) {
      const size_t choices[] = {1, 2, 3, 7, 8, 16, 17};
      pr.sizes[d] = choices[gen() % 7];
      pr.a_full[d] = gen() % 4 != 0;
      pr.b_full[d] = gen() % 2 != 0;
      pr.order[d] = d;
    }
    if (pr.dims == 4 && gen() % 2 == 0) {  // NHWC: N, H, W, C in memory
      pr.order[1] = 2;
      pr.order[2] = 3;
      pr.order[3] = 1;
    }
    // a in out's memory order; b either too or in its own logical order.
    const bool b_logical = gen() % 2 == 0;
    size_t a_numel, b_numel;
    ptrdiff_t a_strides[5], b_strides[5];
    operand_strides(pr, pr.a_full, pr.order, a_strides, &a_numel);
    operand_strides(pr, pr.b_full, b_logical ? identity : pr.order, b_strides, &b_numel);
    size_t mem_sizes[5];
    size_t numel = 1;
    for (int p = 0; p < pr.dims; ++p) {
      mem_sizes[p] = pr.sizes[pr.order[p]];
      numel *= mem_sizes[p];
    }
    F32BinaryPlan plan;
    ASSERT_TRUE(f32_binary_plan(pr.dims, mem_sizes, a_strides, b_strides, &plan));
    ASSERT_EQ(plan.numel, numel);
    const std::vector<float> a = values(a_numel, static_cast<uint32_t>(trial));
    const std::vector<float> b = values(b_numel, static_cast<uint32_t>(trial + 5000));
    const F32BinaryOp op = kOps[trial % 6];
    const F32VBinaryParams& p = kClamps[trial % 4];
    std::vector<float> want(numel);
    for (size_t i = 0; i < numel; ++i) {
      size_t rest = i;
      ptrdiff_t ao = 0, bo = 0;
      for (int k = pr.dims - 1; k >= 0; --k) {
        const size_t idx = rest % mem_sizes[k];
        rest /= mem_sizes[k];
        ao += static_cast<ptrdiff_t>(idx) * a_strides[k];
        bo += static_cast<ptrdiff_t>(idx) * b_strides[k];
      }
      want[i] = apply(op, a[ao], b[bo], p);
    }
    for (const F32VBinaryConfig* cfg : supported_variants()) {
      // Whole, and cut into uneven ranges (threads' shares split rows).
      std::vector<float> y(numel, 777.0f);
      f32_vbinary_run(*cfg, op, plan, a.data(), b.data(), y.data(), 0, numel, p);
      std::vector<float> y2(numel, 777.0f);
      size_t begin = 0;
      while (begin < numel) {
        const size_t end = std::min(numel, begin + 1 + gen() % 40);
        f32_vbinary_run(*cfg, op, plan, a.data(), b.data(), y2.data(), begin, end, p);
        begin = end;
      }
      for (size_t i = 0; i < numel; ++i) {
        ASSERT_TRUE(same(y[i], want[i])) << cfg->name << " trial " << trial << " [" << i << "]";
        ASSERT_TRUE(same(y2[i], want[i]))
            << cfg->name << " trial " << trial << " in ranges [" << i << "]";
      }
    }
  }
}

TEST(F32VBinary, PlanMergesDimsIntoRows) {
  // [N, H, W, C] NHWC data against a per-channel vector: one run of N*H*W
  // rows of C, b repeating.
  const size_t sizes[] = {2, 5, 6, 24};
  const ptrdiff_t a_strides[] = {5 * 6 * 24, 6 * 24, 24, 1};
  const ptrdiff_t b_strides[] = {0, 0, 0, 1};
  F32BinaryPlan plan;
  ASSERT_TRUE(f32_binary_plan(4, sizes, a_strides, b_strides, &plan));
  EXPECT_EQ(plan.dims, 2);
  EXPECT_EQ(plan.sizes[0], 60u);
  EXPECT_EQ(plan.sizes[1], 24u);
  EXPECT_EQ(plan.b_strides[0], 0);
  // Same shapes collapse to one dim; a number to one dim with b stride 0.
  const ptrdiff_t zero[] = {0, 0, 0, 0};
  ASSERT_TRUE(f32_binary_plan(4, sizes, a_strides, a_strides, &plan));
  EXPECT_EQ(plan.dims, 1);
  ASSERT_TRUE(f32_binary_plan(4, sizes, a_strides, zero, &plan));
  EXPECT_EQ(plan.dims, 1);
  EXPECT_EQ(plan.b_strides[0], 0);
  EXPECT_FALSE(f32_binary_plan(9, sizes, a_strides, b_strides, &plan));
}

}  // namespace
}  // namespace ember::kernels::optimized
