// Tests of _cdist_forward.out and _pdist_forward.out (misc_ops.cpp) for the
// p-norms with their own code paths: 0, 1, 2, infinity and a general p.
// Expected values were generated with PyTorch 2.13 (torch.ops.aten.* on
// float64 inputs) and pasted; inputs are seq() (kernel_expect.h).
#include <cstdint>

#include <gtest/gtest.h>

#include "tests/cpp/kernels/kernel_expect.h"

namespace ember::testing {
namespace {

// cdist of a 2 x 3 x 4 batch against one 5 x 4 set, and pdist of 5 rows of 3.
struct DistanceCase {
  double p;
  Values want_cdist;
  Values want_pdist;
};

const DistanceCase kDistanceCases[] = {
    {2.0,
     {2.091650066335189, 7.390872749547241, 5.989574275355469, 1.8371173070873836, 6.154266812545585, 6.528782428600298, 2.8939592256975564, 7.044501401802686, 5.88430114796991, 5.968668193156661, 5.0373604199024715, 7.1501748230375455, 2.806243040080456, 3.2210246816812815, 7.079901129253148, 2.806243040080456, 7.1501748230375455, 5.0373604199024715, 1.695582495781317, 6.234981956669963, 5.425633603552677, 6.2599920127744575, 7.224091638399945, 5.09288719686584, 2.680951323690902, 6.25, 6.046693311223912, 6.108395861435308, 5.344389581607987, 6.968679932383177},
     {3.897114317029974, 0.4330127018922193, 4.330127018922194, 0.8660254037844386, 3.4641016151377544, 0.4330127018922193, 3.031088913245535, 3.897114317029974, 0.4330127018922193, 3.4641016151377544}},
    {1.0,
     {3.5, 14.0, 11.5, 3.0, 10.5, 11.5, 5.5, 11.5, 11.5, 8.5, 9.5, 14.0, 4.5, 5.5, 14.0, 4.5, 14.0, 9.5, 3.0, 11.5, 7.25, 9.75, 13.75, 8.75, 4.75, 12.25, 9.75, 7.75, 10.25, 12.75},
     {6.75, 0.75, 7.5, 1.5, 6.0, 0.75, 5.25, 6.75, 0.75, 6.0}},
    {0.0,
     {4.0, 4.0, 4.0, 3.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 3.0, 4.0, 4.0, 3.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 3.0, 4.0, 4.0, 4.0},
     {3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0}},
    {kInf,
     {1.75, 5.0, 4.0, 1.5, 5.25, 4.75, 2.0, 5.25, 3.75, 5.5, 3.5, 4.5, 2.25, 2.5, 4.25, 2.25, 4.5, 3.5, 1.25, 4.75, 5.25, 5.75, 4.75, 4.25, 1.75, 4.0, 5.0, 6.0, 3.5, 4.75},
     {2.25, 0.25, 2.5, 0.5, 2.0, 0.25, 1.75, 2.25, 0.25, 2.0}},
    {3.0,
     {1.866255578408624, 6.131916385288904, 4.922986542436304, 1.6158260175239127, 5.503441372440915, 5.620284113244008, 2.395709928531392, 6.196340625876255, 4.769998784037475, 5.624238580063721, 4.191232656052206, 5.787094770782048, 2.47644543667097, 2.802039330655387, 5.680641210756374, 2.47644543667097, 5.787094770782048, 4.191232656052206, 1.457119170812864, 5.300717833233722, 5.2752000852505825, 5.852752740571265, 5.952018946238275, 4.51359060049484, 2.2724098041409397, 5.060311252185408, 5.357750724674303, 6.010542806613663, 4.390624406352423, 5.839952803068249},
     {3.245061533191669, 0.36056239257685213, 3.6056239257685205, 0.7211247851537042, 2.8844991406148166, 0.36056239257685213, 2.5239367480379644, 3.245061533191669, 0.36056239257685213, 2.8844991406148166}},
};

TEST(Distance, CdistMatchesTorch) {
  const Values a_in = seq(24, 0.25), b_in = seq(20, 0.5, 0.25);
  for (const DistanceCase& c : kDistanceCases) {
    SCOPED_TRACE(::testing::Message() << "p " << c.p);
    for (ScalarType dt : kFloatTypes) {
      OwnedTensor a = make(dt, {2, 3, 4}, a_in);
      OwnedTensor b = make(dt, {1, 5, 4}, b_in);
      OwnedTensor out = dyn_out(dt, 3);
      Call call;
      call.tensor(a.tensor()).tensor(b.tensor()).real(c.p).none().tensor(out.tensor());
      expect_ok(call.run("aten::_cdist_forward.out"), out, {2, 3, 5}, c.want_cdist, tol(dt) * 2);
    }
  }
}

TEST(Distance, PdistMatchesTorch) {
  const Values a_in = seq(15, 0.25);
  for (const DistanceCase& c : kDistanceCases) {
    SCOPED_TRACE(::testing::Message() << "p " << c.p);
    for (ScalarType dt : kFloatTypes) {
      OwnedTensor a = make(dt, {5, 3}, a_in);
      OwnedTensor out = dyn_out(dt, 1);
      Call call;
      call.tensor(a.tensor()).real(c.p).tensor(out.tensor());
      expect_ok(call.run("aten::_pdist_forward.out"), out, {10}, c.want_pdist, tol(dt) * 2);
    }
  }
}

TEST(Distance, BadInputsFail) {
  OwnedTensor a(ScalarType::Float, {2, 3, 4});
  OwnedTensor b(ScalarType::Float, {3, 5, 4});
  OwnedTensor c3(ScalarType::Float, {5, 3});
  OwnedTensor ai(ScalarType::Int, {3, 4});
  OwnedTensor out = dyn_out(ScalarType::Float, 3);
  OwnedTensor out_i = dyn_out(ScalarType::Int, 2);
  auto cdist = [&](Tensor& x, Tensor& y, double p, Tensor& o) {
    Call c;
    c.tensor(x).tensor(y).real(p).none().tensor(o);
    return c.run("aten::_cdist_forward.out");
  };
  expect_fail(cdist(a.tensor(), b.tensor(), 2, out.tensor()), "_cdist_forward");   // batch
  expect_fail(cdist(a.tensor(), c3.tensor(), 2, out.tensor()), "_cdist_forward");  // columns
  expect_fail(cdist(a.tensor(), a.tensor(), -1, out.tensor()), "_cdist_forward");  // p
  const KernelContext ints = cdist(ai.tensor(), ai.tensor(), 2, out_i.tensor());
  ASSERT_TRUE(ints.failed());
  EXPECT_EQ(ints.error(), Error::NotSupported);
  Call c;
  c.tensor(a.tensor()).real(2.0).tensor(out.tensor());
  expect_fail(c.run("aten::_pdist_forward.out"), "_pdist_forward");  // 3-D
}

}  // namespace
}  // namespace ember::testing
