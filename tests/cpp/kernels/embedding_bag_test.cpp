// Tests of _embedding_bag.out (bag_ops.cpp) and all four of its outputs:
// the bags, offset2bag, bag_size and max_indices.
// Expected values were generated with PyTorch 2.13 (torch.ops.aten.* on
// float64 inputs) and pasted.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cpp/kernels/kernel_expect.h"

namespace ember::testing {
namespace {

// Five indices into a 4 x 3 table, cut into bags by `offsets`.
const Values kTable = {-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5};

struct EmbeddingBagCase {
  const char* name;
  Values offsets;
  int64_t mode;  // 0 sum, 1 mean, 2 max
  bool per_sample_weights;
  bool include_last_offset;
  int64_t padding_idx;
  Sizes out_shape;
  Values want;
  // torch's sum fast path (Float weights, no padding_idx) leaves offset2bag
  // empty; Double weights take the general path, which fills it.
  Values want_offset2bag_double;
  Values want_offset2bag_float;
  // With include_last_offset, bag_size has one entry per offset, as torch's
  // meta function (which the exporter plans by) shapes it; the eager CPU
  // kernel drops the last.
  Values want_bag_size;
  Sizes max_indices_shape;
  Values want_max_indices;
};

const EmbeddingBagCase kEmbeddingBagCases[] = {
    {"Mode0", {0.0, 2.0, 2.0}, 0, false, false, -1,
     {3, 3}, {-1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 4.5, 6.0, 7.5},
     {0.0, 0.0, 2.0, 2.0, 2.0}, {},
     {0.0, 0.0, 0.0}, {3}, {0.0, 0.0, 0.0}},
    {"Mode0PaddingIdx", {0.0, 2.0, 2.0}, 0, false, false, 3,
     {3, 3}, {-1.0, 0.0, 1.0, 0.0, 0.0, 0.0, -0.5, 0.0, 0.5},
     {0.0, 0.0, 2.0, 2.0, 2.0}, {0.0, 0.0, 2.0, 2.0, 2.0},
     {0.0, 0.0, 0.0}, {3}, {0.0, 0.0, 0.0}},
    {"Mode1", {0.0, 2.0, 2.0}, 1, false, false, -1,
     {3, 3}, {-0.5, 0.0, 0.5, 0.0, 0.0, 0.0, 1.5, 2.0, 2.5},
     {0.0, 0.0, 2.0, 2.0, 2.0}, {0.0, 0.0, 2.0, 2.0, 2.0},
     {2.0, 0.0, 3.0}, {3}, {2.0, 0.0, 3.0}},
    {"Mode1PaddingIdx", {0.0, 2.0, 2.0}, 1, false, false, 3,
     {3, 3}, {-0.5, 0.0, 0.5, 0.0, 0.0, 0.0, -0.5, 0.0, 0.5},
     {0.0, 0.0, 2.0, 2.0, 2.0}, {0.0, 0.0, 2.0, 2.0, 2.0},
     {2.0, 0.0, 1.0}, {3}, {2.0, 0.0, 1.0}},
    {"Mode2", {0.0, 2.0, 2.0}, 2, false, false, -1,
     {3, 3}, {1.0, 1.5, 2.0, 0.0, 0.0, 0.0, 2.5, 3.0, 3.5},
     {0.0, 0.0, 2.0, 2.0, 2.0}, {0.0, 0.0, 2.0, 2.0, 2.0},
     {2.0, 0.0, 3.0}, {3, 3}, {2.0, 2.0, 2.0, 0.0, 0.0, 0.0, 3.0, 3.0, 3.0}},
    {"Mode2PaddingIdx", {0.0, 2.0, 2.0}, 2, false, false, 3,
     {3, 3}, {1.0, 1.5, 2.0, 0.0, 0.0, 0.0, -0.5, 0.0, 0.5},
     {0.0, 0.0, 2.0, 2.0, 2.0}, {0.0, 0.0, 2.0, 2.0, 2.0},
     {2.0, 0.0, 1.0}, {3, 3}, {2.0, 2.0, 2.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0}},
    {"PerSampleWeights", {0.0, 2.0, 2.0}, 0, true, false, -1,
     {3, 3}, {0.0, 1.5, 3.0, 0.0, 0.0, 0.0, 21.0, 27.0, 33.0},
     {0.0, 0.0, 2.0, 2.0, 2.0}, {},
     {0.0, 0.0, 0.0}, {3}, {0.0, 0.0, 0.0}},
    {"IncludeLastOffset", {0.0, 2.0, 5.0}, 1, false, true, -1,
     {2, 3}, {-0.5, 0.0, 0.5, 1.5, 2.0, 2.5},
     {0.0, 0.0, 1.0, 1.0, 1.0}, {0.0, 0.0, 1.0, 1.0, 1.0},
     {2.0, 3.0, 0.0}, {2}, {2.0, 3.0}},
    {"IncludeLastOffsetMax", {0.0, 1.0, 5.0}, 2, false, true, -1,
     {2, 3}, {-2.0, -1.5, -1.0, 2.5, 3.0, 3.5},
     {0.0, 1.0, 1.0, 1.0, 1.0}, {0.0, 1.0, 1.0, 1.0, 1.0},
     {1.0, 4.0, 0.0}, {2, 3}, {0.0, 0.0, 0.0, 3.0, 3.0, 3.0}},
};

TEST(EmbeddingBag, MatchesTorch) {
  OwnedTensor indices = make(ScalarType::Long, {5}, {0, 2, 1, 3, 3});
  for (const EmbeddingBagCase& c : kEmbeddingBagCases) {
    SCOPED_TRACE(c.name);
    OwnedTensor offsets = make(ScalarType::Long, {3}, c.offsets);
    for (ScalarType dt : kFloatDoubleTypes) {
      OwnedTensor weight = make(dt, {4, 3}, kTable);
      OwnedTensor psw = make(dt, {5}, {1, 2, 3, 4, 5});
      OwnedTensor o0 = dyn_out(dt, 2), o1 = dyn_out(ScalarType::Long, 1),
                  o2 = dyn_out(ScalarType::Long, 1),
                  o3 = dyn_out(ScalarType::Long, static_cast<int>(c.max_indices_shape.size()));
      Call call;
      call.tensor(weight.tensor()).tensor(indices.tensor()).tensor(offsets.tensor())
          .boolean(false).integer(c.mode).boolean(false);
      tensor_or_none(call, c.per_sample_weights ? &psw.tensor() : nullptr);
      call.boolean(c.include_last_offset).integer(c.padding_idx).tensor(o0.tensor())
          .tensor(o1.tensor()).tensor(o2.tensor()).tensor(o3.tensor());
      expect_ok(call.run("aten::_embedding_bag.out"), o0, c.out_shape, c.want, tol(dt));
      EXPECT_EQ(values_of(o1), dt == ScalarType::Double ? c.want_offset2bag_double
                                                        : c.want_offset2bag_float);
      EXPECT_EQ(values_of(o2), c.want_bag_size);
      EXPECT_EQ(values_of(o3), c.want_max_indices);
      EXPECT_EQ(Sizes(o3.tensor().sizes().begin(), o3.tensor().sizes().end()),
                c.max_indices_shape);
    }
  }
}

TEST(EmbeddingBag, BadInputsFail) {
  OwnedTensor w(ScalarType::Float, {4, 3});
  OwnedTensor o0 = dyn_out(ScalarType::Float, 2), o1 = dyn_out(ScalarType::Long, 1),
              o2 = dyn_out(ScalarType::Long, 1), o3 = dyn_out(ScalarType::Long, 2);
  auto run = [&](std::vector<double> idx, std::vector<double> off, int64_t mode, int64_t pad) {
    OwnedTensor i = make(ScalarType::Long, {static_cast<int32_t>(idx.size())}, idx);
    OwnedTensor f = make(ScalarType::Long, {static_cast<int32_t>(off.size())}, off);
    Call c;
    c.tensor(w.tensor()).tensor(i.tensor()).tensor(f.tensor()).boolean(false).integer(mode)
        .boolean(false).none().boolean(false).integer(pad).tensor(o0.tensor())
        .tensor(o1.tensor()).tensor(o2.tensor()).tensor(o3.tensor());
    return c.run("aten::_embedding_bag.out");
  };
  expect_fail(run({0, 4}, {0}, 0, -1), "_embedding_bag");     // index past the table
  expect_fail(run({0, -1}, {0}, 0, -1), "_embedding_bag");    // negative index
  expect_fail(run({0, 1}, {1}, 0, -1), "_embedding_bag");     // offsets must start at 0
  expect_fail(run({0, 1}, {0, 3}, 0, -1), "_embedding_bag");  // offset past indices
  expect_fail(run({0, 1}, {0, 1}, 3, -1), "_embedding_bag");  // mode
  expect_fail(run({0, 1}, {0, 1}, 0, 4), "_embedding_bag");   // padding_idx
  ASSERT_FALSE(run({0, 1}, {0, 1}, 2, -1).failed());
}

}  // namespace
}  // namespace ember::testing
