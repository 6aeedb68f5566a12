// Tester for the f32 attention family: every attention variant this CPU
// supports, paired with every supported f32 GEMM variant, against attention
// computed naively in double (the full score matrix, softmax, product), on
// edge sizes, several key/value blocks (the online softmax), causal,
// additive and bool masks, broadcast and head-interleaved strides, and
// threads.
//
// Tolerance: outputs are convex combinations of v's rows (|v| <= 1), so an
// error of eps in every score moves an output by at most ~2 eps; the scores
// (|q|, |k| <= 1, scale 1/sqrt(d)) carry d * 2^-24 * sqrt(d) of rounding, the
// exp polynomial ~2^-22 relative: 2e-5 covers d <= 128 with margin.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "extension/threadpool/worker_pool.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"

namespace ember::kernels::optimized {
namespace {

// BoolKeep: a bool mask [b, 1, i, j] whose true keeps a score (dropped ones
// -inf, key 0 always kept); BoolDrop: whose true drops it, to finfo.min (a
// query may lose every key: then a uniform average, as torch gives).
enum class MaskKind { None, Full, Broadcast, Causal, CausalAndMask, BoolKeep, BoolDrop };

struct Case {
  size_t batch, heads, q_len, kv_len, d, e;
  MaskKind mask = MaskKind::None;
  // Interleaved: q, k, v, out laid out [b, row, h, d] (a head split of a
  // linear layer's output) rather than [b, h, row, d].
  bool interleaved = false;
  bool broadcast_kv = false;  // k and v shared by every head (stride 0)
};

std::string describe(const Case& c) {
  static const char* masks[] = {"none",        "full",      "broadcast", "causal",
                                "causal+mask", "bool keep", "bool drop"};
  char buf[200];
  std::snprintf(buf, sizeof(buf), "b %zu h %zu L %zu S %zu d %zu e %zu mask %s%s%s", c.batch,
                c.heads, c.q_len, c.kv_len, c.d, c.e, masks[static_cast<int>(c.mask)],
                c.interleaved ? " interleaved" : "", c.broadcast_kv ? " kv-broadcast" : "");
  return buf;
}

// An operand [b, h, rows, cols] in memory, with its strides.
struct Operand {
  std::vector<float> data;
  ptrdiff_t strides[3];
};

Operand make_operand(const Case& c, size_t rows, size_t cols, bool broadcast_heads,
                     std::mt19937& gen) {
  Operand o;
  const size_t heads = broadcast_heads ? 1 : c.heads;
  o.data.resize(c.batch * heads * rows * cols + 1);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (float& x : o.data) x = dist(gen);
  const ptrdiff_t hs =
      broadcast_heads ? 0 : static_cast<ptrdiff_t>(c.interleaved ? cols : rows * cols);
  const ptrdiff_t rs = static_cast<ptrdiff_t>(c.interleaved ? heads * cols : cols);
  o.strides[0] = static_cast<ptrdiff_t>(heads * rows * cols);
  o.strides[1] = hs;
  o.strides[2] = rs;
  return o;
}

float at(const Operand& o, size_t b, size_t h, size_t r, size_t col) {
  return o.data[b * o.strides[0] + h * o.strides[1] + r * o.strides[2] + col];
}

void run_case(const F32AttentionConfig& cfg, const F32GemmConfig& gemm, const Case& c,
              ThreadPool* pool) {
  SCOPED_TRACE(std::string(cfg.name) + "/" + gemm.name + ": " + describe(c));
  std::mt19937 gen(static_cast<uint32_t>(c.q_len * 131 + c.kv_len * 7 + c.d));
  Operand q = make_operand(c, c.q_len, c.d, false, gen);
  Operand k = make_operand(c, c.kv_len, c.d, c.broadcast_kv, gen);
  Operand v = make_operand(c, c.kv_len, c.e, c.broadcast_kv, gen);
  Operand out = make_operand(c, c.q_len, c.e, false, gen);  // garbage to overwrite
  const float sentinel = out.data.back();

  // The additive mask: [b, h, i, j] full, or [i, j] broadcast over b and h,
  // with some -inf (never a whole row) and some finfo.min entries.
  std::vector<float> mask;
  ptrdiff_t mask_strides[4] = {};
  const bool has_mask = c.mask == MaskKind::Full || c.mask == MaskKind::Broadcast ||
                        c.mask == MaskKind::CausalAndMask;
  if (has_mask) {
    const bool full = c.mask == MaskKind::Full;
    const size_t n = (full ? c.batch * c.heads : 1) * c.q_len * c.kv_len;
    mask.resize(n);
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    for (size_t i = 0; i < n; ++i) {
      const size_t j = i % c.kv_len;
      mask[i] = j > 0 && i % 7 == 3 ? -INFINITY : (j > 0 && i % 11 == 5 ? -3.4e38f : dist(gen));
    }
    mask_strides[3] = 1;
    mask_strides[2] = static_cast<ptrdiff_t>(c.kv_len);
    mask_strides[1] = full ? static_cast<ptrdiff_t>(c.q_len * c.kv_len) : 0;
    mask_strides[0] = full ? static_cast<ptrdiff_t>(c.heads * c.q_len * c.kv_len) : 0;
  }
  const bool causal = c.mask == MaskKind::Causal || c.mask == MaskKind::CausalAndMask;
  const bool bool_keeps = c.mask == MaskKind::BoolKeep;
  const bool has_bool_mask = bool_keeps || c.mask == MaskKind::BoolDrop;
  const float masked_score = bool_keeps ? -INFINITY : -3.4e38f;
  std::vector<uint8_t> bool_mask;
  if (has_bool_mask) {
    bool_mask.resize(c.batch * c.q_len * c.kv_len);
    std::bernoulli_distribution keep(0.6);
    for (size_t i = 0; i < bool_mask.size(); ++i) {
      const bool kept = i % c.kv_len == 0 ? bool_keeps || i / c.kv_len % 5 != 3 : keep(gen);
      bool_mask[i] = static_cast<uint8_t>(kept == bool_keeps ? 1 : 0);
    }
    mask_strides[3] = 1;
    mask_strides[2] = static_cast<ptrdiff_t>(c.kv_len);
    mask_strides[1] = 0;
    mask_strides[0] = static_cast<ptrdiff_t>(c.q_len * c.kv_len);
  }

  F32AttentionProblem p;
  p.batch = c.batch;
  p.heads = c.heads;
  p.q_len = c.q_len;
  p.kv_len = c.kv_len;
  p.head_dim = c.d;
  p.v_head_dim = c.e;
  p.q = q.data.data();
  p.k = k.data.data();
  p.v = v.data.data();
  p.out = out.data.data();
  for (int i = 0; i < 3; ++i) {
    p.q_strides[i] = q.strides[i];
    p.k_strides[i] = k.strides[i];
    p.v_strides[i] = v.strides[i];
    p.out_strides[i] = out.strides[i];
  }
  if (has_mask || has_bool_mask) {
    p.mask = has_mask ? mask.data() : nullptr;
    p.bool_mask = has_bool_mask ? bool_mask.data() : nullptr;
    p.bool_mask_keeps = bool_keeps;
    p.masked_score = masked_score;
    for (int i = 0; i < 4; ++i) p.mask_strides[i] = mask_strides[i];
  }
  p.scale = 1.0f / std::sqrt(static_cast<float>(c.d > 0 ? c.d : 1));
  p.causal = causal;

  const size_t threads = pool != nullptr ? pool->num_threads() : 1;
  std::vector<float> temp(f32_attention_temp_bytes(gemm, p, threads) / sizeof(float) + 16);
  f32_attention(cfg, gemm, p, pool, temp.data());

  std::vector<double> scores(c.kv_len);
  for (size_t b = 0; b < c.batch; ++b) {
    for (size_t h = 0; h < c.heads; ++h) {
      for (size_t i = 0; i < c.q_len; ++i) {
        double mx = -INFINITY;
        for (size_t j = 0; j < c.kv_len; ++j) {
          double s = 0;
          for (size_t t = 0; t < c.d; ++t) s += double(at(q, b, h, i, t)) * at(k, b, h, j, t);
          s *= p.scale;
          if (has_mask) {
            s += mask[b * mask_strides[0] + h * mask_strides[1] + i * mask_strides[2] + j];
          }
          if (has_bool_mask &&
              (bool_mask[b * mask_strides[0] + i * mask_strides[2] + j] != 0) != bool_keeps) {
            s = masked_score;
          }
          if (causal && j > i) s = -INFINITY;
          scores[j] = s;
          mx = s > mx ? s : mx;
        }
        double sum = 0;
        for (size_t j = 0; j < c.kv_len; ++j) {
          scores[j] = std::exp(scores[j] - mx);
          sum += scores[j];
        }
        for (size_t col = 0; col < c.e; ++col) {
          double o = 0;
          for (size_t j = 0; j < c.kv_len; ++j) o += scores[j] * at(v, b, h, j, col);
          o = c.kv_len > 0 ? o / sum : 0.0;
          const float got = at(out, b, h, i, col);
          ASSERT_NEAR(got, o, 2e-5) << "at b " << b << " h " << h << " i " << i << " e " << col;
        }
      }
    }
  }
  // Nothing past the output's elements was touched.
  EXPECT_EQ(out.data.back(), sentinel);
}

std::vector<Case> cases() {
  std::vector<Case> all;
  // Edge sizes: one row, one key, tails of the 12x32, 6x16 and 4x8 tiles
  // (keys are the score product's columns), d and e not multiples of 8 or
  // 16, a q tile of 64 and more.
  for (size_t l : {1, 5, 17, 64, 65, 130}) {
    for (size_t s : {1, 7, 16, 31, 32, 33, 65, 128}) {
      all.push_back({1, 2, l, s, 16, 16});
    }
  }
  all.push_back({1, 1, 9, 9, 3, 5});
  all.push_back({1, 1, 9, 9, 0, 5});
  all.push_back({2, 3, 20, 20, 33, 31});
  all.push_back({1, 2, 20, 45, 17, 47});
  all.push_back({1, 2, 40, 64, 48, 65});
  // Model shapes: BERT (12 x 128 x 64), ViT-S (6 x 197 x 64), MiniLM (d 32).
  all.push_back({1, 12, 128, 128, 64, 64, MaskKind::Broadcast, true});
  all.push_back({1, 6, 197, 197, 64, 64, MaskKind::None, true});
  all.push_back({1, 12, 128, 128, 32, 32, MaskKind::None, true});
  // Masks and causal, square and not.
  for (MaskKind m : {MaskKind::Full, MaskKind::Broadcast, MaskKind::Causal,
                     MaskKind::CausalAndMask}) {
    all.push_back({2, 2, 40, 40, 24, 24, m});
    all.push_back({1, 3, 70, 100, 16, 8, m, true});
    all.push_back({1, 3, 100, 70, 16, 8, m});
  }
  for (MaskKind m : {MaskKind::BoolKeep, MaskKind::BoolDrop}) {
    all.push_back({2, 3, 40, 40, 24, 24, m});
    all.push_back({2, 3, 70, 100, 16, 8, m, true});
    all.push_back({1, 2, 30, 300, 32, 32, m});  // two key blocks
  }
  // Several key blocks (online softmax), cached per head and not.
  all.push_back({1, 2, 70, 300, 32, 32});
  all.push_back({1, 2, 300, 300, 64, 64, MaskKind::Causal, true});
  all.push_back({1, 1, 40, 1000, 64, 64, MaskKind::Broadcast});
  all.push_back({1, 1, 130, 700, 64, 64, MaskKind::Causal});
  all.push_back({1, 4, 33, 50, 16, 16, MaskKind::None, false, true});
  // No keys: zeros.
  all.push_back({1, 2, 3, 0, 8, 8});
  return all;
}

TEST(F32Attention, EveryVariantMatchesTheReference) {
  size_t ran = 0;
  for (size_t a = 0; a < f32_attention_num_variants(); ++a) {
    const F32AttentionConfig& cfg = f32_attention_variant(a);
    if (!f32_attention_variant_supported(cfg)) continue;
    for (size_t g = 0; g < f32_gemm_num_variants(); ++g) {
      const F32GemmConfig& gemm = f32_gemm_variant(g);
      if (!f32_gemm_variant_supported(gemm)) continue;
      for (const Case& c : cases()) run_case(cfg, gemm, c, nullptr);
      std::printf("f32 attention variant %s with f32 gemm %s: checked\n", cfg.name, gemm.name);
      ++ran;
    }
  }
  EXPECT_GE(ran, 1u);
}

TEST(F32Attention, ThreadsSplitHeadsAndQueryTiles) {
  WorkerPool pool(2);
  const F32AttentionConfig& cfg = f32_attention_config();
  const F32GemmConfig& gemm = f32_gemm_config();
  // Heads dividing evenly and not, one head with several query tiles.
  run_case(cfg, gemm, {1, 12, 128, 128, 64, 64, MaskKind::Broadcast, true}, &pool);
  run_case(cfg, gemm, {1, 3, 65, 65, 32, 32, MaskKind::Causal}, &pool);
  run_case(cfg, gemm, {1, 1, 200, 600, 64, 64, MaskKind::Full}, &pool);
  run_case(cfg, gemm, {2, 4, 1, 2000, 64, 64}, &pool);  // one query row per task
}

// The row operations of attention over a KV cache (sdpa_cached_op.cpp): every
// row length up to past the widest variant's vector (tails), query counts
// across the 4-query step, odd and even key counts, against double sums.
TEST(F32Attention, ScoresAndAccumulateMatchDouble) {
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const size_t ld = 9;
  for (size_t v = 0; v < f32_attention_num_variants(); ++v) {
    const F32AttentionConfig& cfg = f32_attention_variant(v);
    if (!f32_attention_variant_supported(cfg)) continue;
    for (size_t nq : {1, 3, 4, 6}) {
      for (size_t len : {0, 1, 2, 7}) {
        for (size_t d = 0; d <= 40; d += (d < 18 ? 1 : 11)) {
          std::vector<float> q(nq * d), keys(len * d), out(nq * ld, 7.0f), y(nq * d + 1);
          for (float& x : q) x = dist(gen);
          for (float& x : keys) x = dist(gen);
          for (float& x : y) x = dist(gen);
          std::vector<const float*> rows(nq);
          std::vector<float*> outs(nq);
          for (size_t g = 0; g < nq; ++g) rows[g] = q.data() + g * d, outs[g] = y.data() + g * d;
          cfg.scores(nq, rows.data(), keys.data(), len, d, 0.5f, out.data(), ld);
          for (size_t g = 0; g < nq; ++g) {
            for (size_t t = 0; t < ld; ++t) {
              double want = 7.0;  // past len: untouched
              if (t < len) {
                want = 0.0;
                for (size_t i = 0; i < d; ++i) want += double{q[g * d + i]} * keys[t * d + i];
                want *= 0.5;
              }
              ASSERT_NEAR(out[g * ld + t], want, 1e-5)
                  << cfg.name << " nq " << nq << " len " << len << " d " << d;
            }
          }
          // The values are the keys, the weights the scores just computed.
          const std::vector<float> before = y;
          cfg.accumulate(nq, outs.data(), keys.data(), len, d, out.data(), ld);
          for (size_t g = 0; g < nq; ++g) {
            for (size_t i = 0; i < d; ++i) {
              double want = before[g * d + i];
              for (size_t t = 0; t < len; ++t) want += double{out[g * ld + t]} * keys[t * d + i];
              ASSERT_NEAR(y[g * d + i], want, 1e-5)
                  << cfg.name << " nq " << nq << " len " << len << " d " << d << " i " << i;
            }
          }
          EXPECT_EQ(y.back(), before.back()) << cfg.name << ": nothing past the last row";
        }
      }
    }
  }
}

// A query whose every key is masked: NaN under a plain softmax (torch's
// softmax of all -inf), exactly 0 under the safe one (torch's math
// scaled_dot_product_attention); the other rows are the same either way.
// 300 keys span several key blocks, so the online softmax sees the row empty
// block after block.
TEST(F32Attention, SafeSoftmaxZeroesQueriesWithEveryKeyMasked) {
  const size_t L = 9, S = 300, D = 16;
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> q(L * D), k(S * D), v(S * D), mask(L * S, 0.0f);
  for (float& x : q) x = dist(gen);
  for (float& x : k) x = dist(gen);
  for (float& x : v) x = dist(gen);
  for (size_t j = 0; j < S; ++j) mask[2 * S + j] = mask[7 * S + j] = -INFINITY;
  for (size_t j = 0; j + 1 < S; ++j) mask[4 * S + j] = -INFINITY;  // one key left: not empty
  const F32AttentionConfig& cfg = f32_attention_config();
  const F32GemmConfig& gemm = f32_gemm_config();
  auto run = [&](bool safe) {
    std::vector<float> out(L * D, 7.0f);
    F32AttentionProblem p;
    p.q_len = L;
    p.kv_len = S;
    p.head_dim = p.v_head_dim = D;
    p.q = q.data();
    p.k = k.data();
    p.v = v.data();
    p.out = out.data();
    p.q_strides[2] = p.k_strides[2] = p.v_strides[2] = p.out_strides[2] = D;
    p.mask = mask.data();
    p.mask_strides[2] = S;
    p.mask_strides[3] = 1;
    p.safe_softmax = safe;
    std::vector<float> temp(f32_attention_temp_bytes(gemm, p, 1) / sizeof(float) + 16);
    f32_attention(cfg, gemm, p, nullptr, temp.data());
    return out;
  };
  const std::vector<float> plain = run(false), safe = run(true);
  for (size_t i = 0; i < L; ++i) {
    for (size_t e = 0; e < D; ++e) {
      const float a = plain[i * D + e], b = safe[i * D + e];
      if (i == 2 || i == 7) {
        EXPECT_TRUE(std::isnan(a)) << "row " << i;
        EXPECT_EQ(b, 0.0f) << "row " << i;
      } else {
        EXPECT_TRUE(std::isfinite(a)) << "row " << i;
        EXPECT_EQ(a, b) << "row " << i << " col " << e;
      }
    }
  }
  for (size_t e = 0; e < D; ++e) EXPECT_NEAR(safe[4 * D + e], v[(S - 1) * D + e], 1e-6);
}

TEST(F32Attention, TheChosenVariantIsSupported) {
  EXPECT_TRUE(f32_attention_variant_supported(f32_attention_config()));
}

}  // namespace
}  // namespace ember::kernels::optimized
