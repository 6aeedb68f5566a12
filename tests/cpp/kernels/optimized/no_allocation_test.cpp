// The optimized matmul kernels allocate nothing on the heap, on every path
// (GEMV, packed tiles, B packed once into temp memory) with and without a
// thread pool: this binary replaces malloc and operator new with counting
// versions, as tests/cpp/runtime/allocation_test.cpp does.
#include <gtest/gtest.h>

#include <vector>

#include "extension/threadpool/worker_pool.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
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

}  // namespace
}  // namespace ember
