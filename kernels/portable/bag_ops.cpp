// embedding_bag: sums, means or maxima of bags of embedding rows. Bag b holds
// indices[offsets[b] : offsets[b + 1]] (the last bag runs to the end of
// indices unless include_last_offset). Rows equal to padding_idx are skipped.
// Besides the result, torch returns three index tensors for the backward
// pass; they get the shapes torch's meta function gives them (what the
// exporter planned) and the values torch's CPU kernel writes. This file holds
// _embedding_bag_forward_only (what export leaves for F.embedding_bag);
// _embedding_bag.out is in misc_ops.cpp.
#include <cmath>
#include <optional>

#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

enum Mode : int64_t { kSum = 0, kMean = 1, kMax = 2 };

void write_index(Tensor& t, int64_t i, int64_t v) {
  if (t.scalar_type() == ScalarType::Long) {
    t.mutable_data_ptr<int64_t>()[i] = v;
  } else {
    t.mutable_data_ptr<int32_t>()[i] = static_cast<int32_t>(v);
  }
}

bool check_index_dtype(KernelContext& ctx, const char* op, const Tensor& t, const char* name) {
  if (!shape::is_index_dtype(t.scalar_type())) {
    ctx.fail(Error::InvalidArgument, "%s: %s must be int64 or int32, got %s", op, name,
             scalar_type_name(t.scalar_type()));
    return false;
  }
  return check_contiguous(ctx, op, t);
}

bool resize_1d(KernelContext& ctx, const char* op, Tensor& t, int64_t n) {
  const int64_t sizes[1] = {n};
  return resize_output(ctx, t, Span<const int64_t>(sizes, 1), op);
}

// Where bag b starts and ends in `indices`.
struct Bags {
  const Tensor& offsets;
  int64_t num_bags;
  int64_t num_indices;
  int64_t begin(int64_t b) const { return shape::read_index(offsets, b); }
  int64_t end(int64_t b) const {
    return b + 1 < offsets.size(0) ? shape::read_index(offsets, b + 1) : num_indices;
  }
};

// Columns are the outer loop so that each result element accumulates in a
// register (float for 16-bit weights) without a scratch row.
template <typename T>
void bag_reduce(const Bags& bags, int64_t mode, int64_t padding_idx, const Tensor& weight,
                const Tensor& indices, const Tensor* per_sample_weights, Tensor& out,
                Tensor& max_indices) {
  using Acc = acc_t<T>;
  const int64_t dim = weight.size(1);
  const T* w = weight.const_data_ptr<T>();
  const T* psw = per_sample_weights != nullptr ? per_sample_weights->const_data_ptr<T>() : nullptr;
  T* dst = out.mutable_data_ptr<T>();
  for (int64_t b = 0; b < bags.num_bags; ++b) {
    const int64_t begin = bags.begin(b), end = bags.end(b);
    for (int64_t c = 0; c < dim; ++c) {
      Acc acc = 0;
      int64_t count = 0;
      int64_t best_row = -1;
      for (int64_t j = begin; j < end; ++j) {
        const int64_t row = shape::read_index(indices, j);
        if (row == padding_idx) continue;
        const Acc v = static_cast<Acc>(w[row * dim + c]);
        ++count;
        if (mode == kMax) {
          // torch's `>`: a NaN after the first row does not replace the max.
          if (best_row < 0 || v > acc) {
            acc = v;
            best_row = row;
          }
        } else {
          acc += psw != nullptr ? v * static_cast<Acc>(psw[j]) : v;
        }
      }
      if (mode == kMean && count > 0) acc /= static_cast<Acc>(count);
      dst[b * dim + c] = static_cast<T>(acc);
      if (mode == kMax) write_index(max_indices, b * dim + c, best_row < 0 ? 0 : best_row);
    }
  }
}

void embedding_bag_impl(KernelContext& ctx, const char* op, const Tensor& weight,
                        const Tensor& indices, const Tensor& offsets, int64_t mode,
                        const Tensor* per_sample_weights, bool include_last_offset,
                        int64_t padding_idx, Tensor& out, Tensor& offset2bag, Tensor& bag_size,
                        Tensor& max_indices) {
  EMBER_KERNEL_CHECK(ctx, weight.dim() == 2, "%s: weight must be 2-d, got rank %d", op,
                     weight.dim());
  EMBER_KERNEL_CHECK(ctx, indices.dim() == 1 && offsets.dim() == 1,
                     "%s: indices and offsets must be 1-d, got ranks %d and %d", op,
                     indices.dim(), offsets.dim());
  EMBER_KERNEL_CHECK(ctx, mode == kSum || mode == kMean || mode == kMax,
                     "%s: mode %lld is not 0 (sum), 1 (mean) or 2 (max)", op,
                     static_cast<long long>(mode));
  if (!check_index_dtype(ctx, op, indices, "indices") ||
      !check_index_dtype(ctx, op, offsets, "offsets") ||
      !check_index_dtype(ctx, op, offset2bag, "offset2bag") ||
      !check_index_dtype(ctx, op, bag_size, "bag_size") ||
      !check_index_dtype(ctx, op, max_indices, "max_indices") ||
      !nn::check_same_dtype(ctx, op, weight, "weight", out, "out") ||
      !check_contiguous(ctx, op, weight) || !check_contiguous(ctx, op, out)) {
    return;
  }
  if (per_sample_weights != nullptr) {
    EMBER_KERNEL_CHECK(ctx, mode == kSum, "%s: per_sample_weights only work with mode='sum'", op);
    EMBER_KERNEL_CHECK(ctx, per_sample_weights->dim() == 1 &&
                                per_sample_weights->numel() == indices.numel(),
                       "%s: per_sample_weights must be 1-d with one weight per index", op);
    if (!nn::check_same_dtype(ctx, op, weight, "weight", *per_sample_weights,
                              "per_sample_weights") ||
        !check_contiguous(ctx, op, *per_sample_weights)) {
      return;
    }
  }
  const int64_t num_offsets = offsets.size(0);
  EMBER_KERNEL_CHECK(ctx, !include_last_offset || num_offsets >= 1,
                     "%s: include_last_offset needs at least one offset", op);
  const Bags bags{offsets, num_offsets - (include_last_offset ? 1 : 0), indices.size(0)};
  const int64_t num_weights = weight.size(0);
  const int64_t dim = weight.size(1);

  // Every index and bag boundary is checked before any row is read.
  for (int64_t j = 0; j < bags.num_indices; ++j) {
    const int64_t row = shape::read_index(indices, j);
    EMBER_KERNEL_CHECK(ctx, row >= 0 && row < num_weights,
                       "%s: index %lld is out of range for %lld embeddings", op,
                       static_cast<long long>(row), static_cast<long long>(num_weights));
  }
  EMBER_KERNEL_CHECK(ctx, num_offsets == 0 || bags.begin(0) == 0, "%s: offsets[0] must be 0", op);
  for (int64_t b = 0; b < bags.num_bags; ++b) {
    EMBER_KERNEL_CHECK(ctx, bags.begin(b) <= bags.end(b) && bags.end(b) <= bags.num_indices,
                       "%s: offsets must be non-decreasing and at most the number of indices",
                       op);
  }

  // Shapes as torch's meta function gives them, which is what the exporter
  // planned: offset2bag is skipped on the CPU fast path of sum (float/half
  // weights, no padding_idx; eager torch also counts bfloat16 in, its meta
  // function does not); bag_size has one entry per offset.
  const bool fast_path_sum =
      (weight.scalar_type() == ScalarType::Float || weight.scalar_type() == ScalarType::Half) &&
      padding_idx < 0;
  const bool has_offset2bag = mode != kSum || !fast_path_sum;
  const int64_t out_sizes[2] = {bags.num_bags, dim};
  if (!resize_output(ctx, out, Span<const int64_t>(out_sizes, 2), op) ||
      !resize_1d(ctx, op, offset2bag, has_offset2bag ? bags.num_indices : 0) ||
      !resize_1d(ctx, op, bag_size, num_offsets) ||
      !(mode == kMax ? resize_output(ctx, max_indices, Span<const int64_t>(out_sizes, 2), op)
                     : resize_1d(ctx, op, max_indices, bags.num_bags))) {
    return;
  }

  EMBER_SWITCH_FLOAT_TYPES(weight.scalar_type(), return fail_dtype(ctx, op,
                                                                       weight.scalar_type()),
    bag_reduce<CTYPE>(bags, mode, padding_idx, weight, indices, per_sample_weights, out,
                      max_indices));

  if (has_offset2bag) {
    // Indices after the last bag's end (include_last_offset with a last
    // offset short of the end) belong to the last bag, as in torch.
    for (int64_t j = 0; j < bags.num_indices; ++j) {
      write_index(offset2bag, j, bags.num_bags > 0 ? bags.num_bags - 1 : 0);
    }
    for (int64_t b = 0; b < bags.num_bags; ++b) {
      for (int64_t j = bags.begin(b); j < bags.end(b); ++j) write_index(offset2bag, j, b);
    }
  }
  // torch's CPU kernel counts the non-padding rows of each bag for mean and
  // max (and leaves zeros for sum); for mean it also returns the counts as
  // max_indices.
  for (int64_t b = 0; b < bag_size.numel(); ++b) {
    int64_t count = 0;
    if (mode != kSum && b < bags.num_bags) {
      for (int64_t j = bags.begin(b); j < bags.end(b); ++j) {
        count += shape::read_index(indices, j) != padding_idx ? 1 : 0;
      }
    }
    write_index(bag_size, b, count);
    // max_indices has num_bags <= num_offsets entries outside mode max.
    if (mode != kMax && b < max_indices.numel()) write_index(max_indices, b, count);
  }
}

// _embedding_bag and _embedding_bag_forward_only compute the same outputs;
// scale_grad_by_freq and sparse only affect the gradient.
void embedding_bag_out(KernelContext& ctx, const Tensor& weight, const Tensor& indices,
                       const Tensor& offsets, bool scale_grad_by_freq, int64_t mode, bool sparse,
                       const Tensor* per_sample_weights, bool include_last_offset,
                       int64_t padding_idx, Tensor& out0, Tensor& out1, Tensor& out2,
                       Tensor& out3) {
  (void)scale_grad_by_freq;
  (void)sparse;
  embedding_bag_impl(ctx, "_embedding_bag.out", weight, indices, offsets, mode,
                     per_sample_weights, include_last_offset, padding_idx, out0, out1, out2,
                     out3);
}

// embedding_renorm: weight with every row that indices name scaled down to
// p-norm max_norm when it is longer (torch: by max_norm / (norm + 1e-7)).
// Each row once, however often it is named.
void embedding_renorm_out(KernelContext& ctx, const Tensor& self, const Tensor& indices,
                          double max_norm, double norm_type, Tensor& out) {
  const char* op = "embedding_renorm.out";
  EMBER_KERNEL_CHECK(ctx, self.dim() == 2, "%s: expected a 2-D weight", op);
  if (!check_index_dtype(ctx, op, indices, "indices") || !check_contiguous(ctx, op, self) ||
      !check_contiguous(ctx, op, out) || !check_contiguous(ctx, op, indices) ||
      !nn::check_same_dtype(ctx, op, self, "weight", out, "out") ||
      !resize_output(ctx, out, self.sizes(), op)) {
    return;
  }
  const int64_t rows = self.size(0), dim = self.size(1);
  for (int64_t i = 0; i < indices.numel(); ++i) {
    const int64_t r = shape::read_index(indices, i);
    EMBER_KERNEL_CHECK(ctx, r >= 0 && r < rows, "%s: index %lld is out of range for %lld rows",
                       op, static_cast<long long>(r), static_cast<long long>(rows));
  }
  EMBER_SWITCH_FLOAT_TYPES(self.scalar_type(), return fail_dtype(ctx, op, self.scalar_type()), {
    using M = opmath_t<CTYPE>;
    const CTYPE* src = self.const_data_ptr<CTYPE>();
    CTYPE* dst = out.mutable_data_ptr<CTYPE>();
    for (int64_t e = 0; e < self.numel(); ++e) dst[e] = src[e];
    for (int64_t i = 0; i < indices.numel(); ++i) {
      const int64_t r = shape::read_index(indices, i);
      bool seen = false;
      for (int64_t j = 0; j < i && !seen; ++j) seen = shape::read_index(indices, j) == r;
      if (seen) continue;
      CTYPE* row = dst + r * dim;
      double norm = 0;
      for (int64_t c = 0; c < dim; ++c) {
        const double v = std::fabs(static_cast<double>(row[c]));
        if (norm_type == 2) norm += v * v;
        else if (norm_type == 1) norm += v;
        else norm += std::pow(v, norm_type);
      }
      norm = norm_type == 2 ? std::sqrt(norm) : norm_type == 1 ? norm : std::pow(norm, 1 / norm_type);
      if (norm > max_norm) {
        const M scale = static_cast<M>(max_norm / (norm + 1e-7));
        for (int64_t c = 0; c < dim; ++c) row[c] = convert<CTYPE>(static_cast<M>(row[c]) * scale);
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_embedding_bag.out", embedding_bag_out, kFloatTypes);
EMBER_REGISTER_KERNEL("aten::_embedding_bag_forward_only.out", embedding_bag_out, kFloatTypes);

EMBER_REGISTER_KERNEL("aten::embedding_renorm.out", embedding_renorm_out, kFloatTypes);

}  // namespace ember::kernels
