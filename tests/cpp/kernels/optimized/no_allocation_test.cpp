// The optimized matmul kernels allocate nothing on the heap, on every path
// (GEMV, packed tiles, B packed once into temp memory) with and without a
// thread pool: this binary replaces malloc and operator new with counting
// versions, as tests/cpp/runtime/allocation_test.cpp does.
#include <gtest/gtest.h>

#include <vector>

#include "extension/threadpool/worker_pool.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/qs8-dwconv/qs8_dwconv.h"
#include "kernels/optimized/qs8-gemm/qs8_gemm.h"
#include "kernels/optimized/qs8-vbinary/qs8_vbinary.h"
#include "kernels/optimized/qs8-vcvt/qs8_vcvt.h"
#include "runtime/executor/memory_allocator.h"
#include "tests/cpp/counting_allocator.h"
#include "tests/cpp/tensor_factory.h"

namespace ember {
namespace {

using testing::OwnedTensor;

// Calls `name` on `args` in `ctx` and returns the heap allocations made
// during the call alone.
long allocations_during(const char* name, std::vector<EValue*>& args, KernelContext& ctx) {
  const KernelEntry* entry = find_kernel(name);
  EXPECT_NE(entry, nullptr) << name;
  if (entry == nullptr) return -1;
  const Span<EValue*> span(args.data(), args.size());
  const long before = testing::g_allocations.load();
  entry->fn(ctx, span);
  const long after = testing::g_allocations.load();
  EXPECT_FALSE(ctx.failed()) << name << ": " << ctx.message();
  return after - before;
}

TEST(OptimizedMatmul, ExecuteAllocatesNothing) {
#if !defined(EMBER_COUNT_ALLOCATIONS)
  GTEST_SKIP() << "allocation counting is disabled under AddressSanitizer";
#endif
  // The counter sees allocations at all.
  const long start = testing::g_allocations.load();
  { std::vector<int> probe(10); }
  ASSERT_GT(testing::g_allocations.load(), start);

  WorkerPool pool(2);
  std::vector<uint8_t> temp_memory(4 << 20);
  MemoryAllocator temp(temp_memory.data(), temp_memory.size());
  struct Shape {
    int32_t m, n, k;
  };
  // GEMV (m == 1), packed tiles split over N, packed tiles split over M (which
  // packs B once when temp memory is given), several K blocks.
  for (const Shape& s : {Shape{1, 1000, 300}, Shape{64, 512, 64}, Shape{300, 40, 600}}) {
    OwnedTensor a(ScalarType::Float, {s.m, s.k}), b(ScalarType::Float, {s.k, s.n});
    OwnedTensor bias(ScalarType::Float, {s.n}), out(ScalarType::Float, {s.m, s.n});
    for (int64_t i = 0; i < a.tensor().numel(); ++i) a.data<float>()[i] = 0.5f;
    for (int64_t i = 0; i < b.tensor().numel(); ++i) b.data<float>()[i] = 0.25f;
    for (int64_t i = 0; i < s.n; ++i) bias.data<float>()[i] = 1.0f;
    EValue av(&a.tensor()), bv(&b.tensor()), biasv(&bias.tensor()), outv(&out.tensor());
    EValue one(1.0), half(0.5);
    std::vector<EValue*> mm_args = {&av, &bv, &outv};
    std::vector<EValue*> addmm_args = {&biasv, &av, &bv, &one, &half, &outv};
    for (int variant = 0; variant < 3; ++variant) {
      SCOPED_TRACE(::testing::Message() << s.m << "x" << s.n << "x" << s.k << " context "
                                        << variant);
      temp.reset();
      KernelContext ctx(variant == 2 ? &temp : nullptr, variant >= 1 ? &pool : nullptr);
      EXPECT_EQ(allocations_during("aten::mm.out", mm_args, ctx), 0);
      temp.reset();
      EXPECT_EQ(allocations_during("aten::addmm.out", addmm_args, ctx), 0);
      // 0.5 * (k * 0.125) + 1 everywhere.
      EXPECT_FLOAT_EQ(out.data<float>()[0], 0.5f * 0.125f * static_cast<float>(s.k) + 1.0f);
    }
  }
}

TEST(F32Attention, RunAllocatesNothing) {
#if !defined(EMBER_COUNT_ALLOCATIONS)
  GTEST_SKIP() << "allocation counting is disabled under AddressSanitizer";
#endif
  using namespace kernels::optimized;
  WorkerPool pool(2);
  // Several query tiles and key blocks (packed per head and per tile), a
  // broadcast mask, causal; all operands 1: every output is 1.
  const size_t heads = 3, q_len = 130, kv_len = 700, d = 64;
  std::vector<float> q(heads * q_len * d, 1.0f), k(heads * kv_len * d, 1.0f);
  std::vector<float> v(heads * kv_len * d, 1.0f), out(heads * q_len * d, 0.0f);
  std::vector<float> mask(q_len * kv_len, 0.5f);
  F32AttentionProblem p;
  p.heads = heads;
  p.q_len = q_len;
  p.kv_len = kv_len;
  p.head_dim = d;
  p.v_head_dim = d;
  p.q = q.data();
  p.k = k.data();
  p.v = v.data();
  p.out = out.data();
  const ptrdiff_t row = static_cast<ptrdiff_t>(d);
  const ptrdiff_t q_strides[3] = {0, static_cast<ptrdiff_t>(q_len) * row, row};
  const ptrdiff_t kv_strides[3] = {0, static_cast<ptrdiff_t>(kv_len) * row, row};
  for (int i = 0; i < 3; ++i) {
    p.q_strides[i] = p.out_strides[i] = q_strides[i];
    p.k_strides[i] = p.v_strides[i] = kv_strides[i];
  }
  p.mask = mask.data();
  p.mask_strides[2] = static_cast<ptrdiff_t>(kv_len);
  p.mask_strides[3] = 1;
  p.scale = 0.125f;
  const F32GemmConfig& gemm = f32_gemm_config();
  std::vector<float> temp(f32_attention_temp_bytes(gemm, p, pool.num_threads()) / 4 + 16);
  for (bool causal : {false, true}) {
    p.causal = causal;
    const long before = testing::g_allocations.load();
    f32_attention(f32_attention_config(), gemm, p, &pool, temp.data());
    EXPECT_EQ(testing::g_allocations.load() - before, 0) << "causal " << causal;
    EXPECT_FLOAT_EQ(out[0], 1.0f);
    EXPECT_FLOAT_EQ(out.back(), 1.0f);
  }
}

TEST(Int8Kernels, RunAllocatesNothing) {
#if !defined(EMBER_COUNT_ALLOCATIONS)
  GTEST_SKIP() << "allocation counting is disabled under AddressSanitizer";
#endif
  using namespace kernels::optimized;
  WorkerPool pool(2);
  KernelContext ctx(nullptr, &pool);
  // GEMMs large enough to split over both threads; A = 2 with a zero point
  // of 1 and B = 1, so acc = K and a scale of 1 / K gives 1 everywhere.
  const size_t m = 100, n = 300, k = 256;
  const Qs8GemmConfig& cfg = qs8_gemm_config();
  std::vector<int8_t> a(m * k, 2), w(n * k, 1), c(m * n, 0);
  std::vector<float> scale(n, 1.0f / k), ones(n, 1.0f), cf(m * n, 0.0f);
  std::vector<int32_t> a_zero(m, 1);
  std::vector<float> a_scale(m, 1.0f / k);
  Qs8Weights weights;
  weights.data = w.data();
  weights.kc = k;
  weights.n = n;
  weights.k_stride = 1;
  weights.n_stride = static_cast<ptrdiff_t>(k);
  std::vector<uint64_t> packed(qd8_gemm_packed_size(cfg, 1, k, n) / 8 + 1);
  std::vector<uint64_t> packed_dyn(qd8_gemm_packed_size(cfg, 1, k, n) / 8 + 1);
  qs8_gemm_pack_weights(cfg, weights, nullptr, 1, scale.data(), packed.data());
  qd8_gemm_pack_weights(cfg, weights, ones.data(), nullptr, packed_dyn.data());
  Qs8GemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = a.data();
  p.lda = k;
  p.packed_w = packed.data();
  p.c = c.data();
  p.ldc = n;
  Qd8F32GemmProblem q;
  q.m = m;
  q.n = n;
  q.k = k;
  q.a = a.data();
  q.lda = k;
  q.a_zero = a_zero.data();
  q.a_scale = a_scale.data();
  q.packed_w = packed_dyn.data();
  q.c = cf.data();
  q.ldc = n;
  // A 3x3 convolution over a 12x12x8 input, the same numbers per tap.
  const size_t side = 12, ch = 8, taps = 9;
  std::vector<int8_t> x(side * side * ch, 2), zero(ch, 1), wc(n * ch * taps, 1);
  Qs8Weights conv_w;
  conv_w.data = wc.data();
  conv_w.ks = taps;
  conv_w.kc = ch;
  conv_w.n = n;
  conv_w.tap_stride = 1;
  conv_w.k_stride = static_cast<ptrdiff_t>(taps);
  conv_w.n_stride = static_cast<ptrdiff_t>(ch * taps);
  std::vector<float> conv_scale(n, 1.0f / (ch * taps));
  std::vector<uint64_t> packed_conv(qs8_gemm_packed_size(cfg, taps, ch, n) / 8 + 1);
  qs8_gemm_pack_weights(cfg, conv_w, nullptr, 1, conv_scale.data(), packed_conv.data());
  const Qs8ConvShape shape{1, side, side, ch, side, side, 3, 3, 1, 1, 1, 1, 1, 1};
  std::vector<const int8_t*> ind(qs8_igemm_indirection_size(shape));
  qs8_igemm_conv_indirection(shape, zero.data(), ind.data());
  std::vector<int8_t> conv_out(side * side * n, 0);
  Qs8IgemmProblem ip;
  ip.m = side * side;
  ip.n = n;
  ip.kc = ch;
  ip.ks = taps;
  ip.indirection = ind.data();
  ip.a_offset = reinterpret_cast<uintptr_t>(x.data());
  ip.zero = zero.data();
  ip.packed_w = packed_conv.data();
  ip.c = conv_out.data();
  ip.ldc = n;
  // Depthwise 3x3 over the same input.
  const Qs8DwconvShape dw_shape{1, ch, side, side, side, side, 3, 3, 1, 1, 1, 1, 1, 1};
  const Qs8DwconvConfig& dw = qs8_dwconv_config(dw_shape);
  std::vector<int8_t> dw_w(ch * taps, 1), dw_out(side * side * ch, 0);
  std::vector<float> dw_scale(ch, 1.0f / taps);
  std::vector<uint32_t> dw_packed(qs8_dwconv_packed_size(dw, 3, 3, ch) / 4 + 1);
  qs8_dwconv_pack_weights(dw, 3, 3, ch, dw_w.data(), nullptr, 1, dw_scale.data(),
                          dw_packed.data());
  std::vector<const int8_t*> dw_ind(f32_dwconv_indirection_size(dw_shape));
  qs8_dwconv_indirection(dw_shape, zero.data(), dw_ind.data());
  // Conversions and an add over a broadcast plan.
  std::vector<float> fx(40000, 0.5f), fy(40000, 0.0f), row_scale(100);
  std::vector<int32_t> row_zero(100);
  std::vector<int8_t> qx(40000, 0), qa(40000, 3), qy(40000, 0);
  const size_t sizes[2] = {200, 200};
  const ptrdiff_t a_strides[2] = {200, 1}, b_strides[2] = {0, 1};
  F32BinaryPlan plan;
  ASSERT_TRUE(f32_binary_plan(2, sizes, a_strides, b_strides, &plan));

  const long before = testing::g_allocations.load();
  EXPECT_TRUE(qs8_gemm(cfg, p, &ctx));
  EXPECT_TRUE(qd8_f32_gemm(cfg, q, &ctx));
  EXPECT_TRUE(qs8_igemm(cfg, ip, &ctx));
  qs8_dwconv(dw, dw_shape, dw_ind.data(), zero.data(), dw_packed.data(), x.data(), dw_out.data(),
             Qs8RequantParams{}, &pool);
  qs8_quantize(qs8_vcvt_config(), fx.size(), fx.data(), qx.data(), Qs8QuantizeParams{4.0f, 0},
               &pool);
  qs8_dequantize(qs8_vcvt_config(), qx.size(), qx.data(), fy.data(), 0, 0.25f, &pool);
  qs8_quantize_rows_dynamic(qs8_vcvt_config(), 100, 400, fx.data(), 400, row_scale.data(),
                            row_zero.data(), qx.data(), 400, &pool);
  qs8_vbinary_run(qs8_vbinary_config(), Qs8BinaryOp::Add, plan, qa.data(), qa.data(), qy.data(),
                  0, plan.numel, Qs8BinaryParams{});
  EXPECT_EQ(testing::g_allocations.load() - before, 0);
  EXPECT_EQ(c[0], 1);
  EXPECT_EQ(c.back(), 1);
  EXPECT_FLOAT_EQ(cf[0], 1.0f);
  // The centre pixels see all 9 taps: acc = 9 * 8 * (2 - 1), scale 1 / 72.
  EXPECT_EQ(conv_out[(side + 1) * n], 1);
  EXPECT_EQ(dw_out[(side + 1) * ch], 1);
  EXPECT_FLOAT_EQ(fy[0], 0.5f);
  EXPECT_EQ(qy.back(), 6);
}

}  // namespace
}  // namespace ember
