// Embedding tables with quantized rows, ExecuTorch's
// quantized_decomposed::embedding_byte.out (int8 / uint8 codes) and
// embedding_4bit.out (two 4-bit codes a byte): rows of indices are picked
// and only those rows dequantized, so a program never holds the float table.
// Each computes what ExecuTorch's reference (dequantize_per_channel_group of
// the whole table, then aten.embedding) computes, in the same types: the
// scales' dtype is the arithmetic's and the output's; (q - zero_point) and
// the product each round to it, as PyTorch's tensor ops round.
//
// weight [rows, codes] (4-bit: [rows, dim / 2], element 2j in the high nibble
// of byte j, each stored as q + 8); scales [rows] or [rows, groups], zero
// points null or shaped and typed as the scales; groups split a row evenly.
#include <cstdint>

#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// EMBER_KERNEL_CHECK for the checks that return whether they passed.
#define CHECK_OR_FALSE(cond, ...)                          \
  do {                                                     \
    if (!(cond)) {                                         \
      ctx.fail(::ember::Error::InvalidArgument, __VA_ARGS__); \
      return false;                                        \
    }                                                      \
  } while (0)

// The table's shape and parameters, checked once.
struct QuantizedTable {
  int64_t rows = 0;
  int64_t dim = 0;         // floats a row dequantizes to
  int64_t group_size = 0;  // of dim
  int64_t groups = 0;      // a row
};

bool check_table(KernelContext& ctx, const char* op, const Tensor& weight, int64_t codes_a_byte,
                 const Tensor& scales, const Tensor* zero_points, const Tensor& indices,
                 Tensor& out, QuantizedTable* table) {
  CHECK_OR_FALSE(weight.dim() == 2, "%s: weight must be 2-d, got rank %d", op,
                 weight.dim());
  CHECK_OR_FALSE(scales.dim() == 1 || scales.dim() == 2,
                 "%s: scales must be 1-d or 2-d, got rank %d", op, scales.dim());
  CHECK_OR_FALSE(scales.size(0) == weight.size(0),
                 "%s: %lld rows of scales for %lld rows of weight", op,
                 static_cast<long long>(scales.size(0)),
                 static_cast<long long>(weight.size(0)));
  if (!shape::check_index_tensor(ctx, op, indices)) return false;
  CHECK_OR_FALSE(indices.dim() < kTensorDimensionLimit,
                 "%s: indices rank %d is too high", op, indices.dim());
  CHECK_OR_FALSE(out.scalar_type() == scales.scalar_type(),
                 "%s: out must be %s (the scales' dtype), not %s", op,
                 scalar_type_name(scales.scalar_type()), scalar_type_name(out.scalar_type()));
  if (zero_points != nullptr) {
    CHECK_OR_FALSE(zero_points->scalar_type() == scales.scalar_type() &&
                       zero_points->numel() == scales.numel(),
                   "%s: zero points must be shaped and typed as the scales (%s, %lld)", op,
                   scalar_type_name(scales.scalar_type()),
                   static_cast<long long>(scales.numel()));
  }
  for (const Tensor* t : {&weight, &scales, zero_points}) {
    if (t != nullptr && !check_contiguous(ctx, op, *t)) return false;
  }
  table->rows = weight.size(0);
  table->dim = weight.size(1) * codes_a_byte;
  table->groups = scales.dim() == 2 ? scales.size(1) : 1;
  CHECK_OR_FALSE(table->groups > 0 && table->dim % table->groups == 0,
                 "%s: %lld groups do not split a row of %lld", op,
                 static_cast<long long>(table->groups), static_cast<long long>(table->dim));
  table->group_size = table->dim / table->groups;
  if (!shape::check_index_values(ctx, op, indices, table->rows)) return false;
  int64_t sizes[kTensorDimensionLimit];
  for (int i = 0; i < indices.dim(); ++i) sizes[i] = indices.size(i);
  sizes[indices.dim()] = table->dim;
  return resize_output(ctx, out,
                       Span<const int64_t>(sizes, static_cast<size_t>(indices.dim() + 1)), op);
}

// Writes the picked rows: code(row, j) is the integer code of element j.
template <typename CodeAt>
void dequantize_rows(KernelContext& ctx, const char* op, const QuantizedTable& table,
                     const Tensor& scales, const Tensor* zero_points, const Tensor& indices,
                     Tensor& out, CodeAt code) {
  EMBER_SWITCH_FLOAT_TYPES(
      scales.scalar_type(),
      ctx.fail(Error::NotSupported, "%s: scales of dtype %s are not supported", op,
               scalar_type_name(scales.scalar_type())),
      {
        using S = CTYPE;
        // Half and bfloat16 arithmetic is float's, rounded to S after each op.
        using C = std::conditional_t<std::is_same_v<S, double>, double, float>;
        const S* sc = scales.const_data_ptr<S>();
        const S* zp = zero_points != nullptr ? zero_points->const_data_ptr<S>() : nullptr;
        S* y = out.mutable_data_ptr<S>();
        for (int64_t i = 0; i < indices.numel(); ++i) {
          const int64_t row = shape::read_index(indices, i);
          for (int64_t g = 0; g < table.groups; ++g) {
            const int64_t at = row * table.groups + g;
            const C scale = static_cast<C>(sc[at]);
            for (int64_t j = g * table.group_size; j < (g + 1) * table.group_size; ++j) {
              const C q = static_cast<C>(code(row, j));
              const C centered =
                  zp != nullptr ? static_cast<C>(static_cast<S>(q - static_cast<C>(zp[at]))) : q;
              y[i * table.dim + j] = static_cast<S>(centered * scale);
            }
          }
        }
      });
}

bool check_range(KernelContext& ctx, const char* op, int64_t qmin, int64_t qmax, int64_t lo,
                 int64_t hi) {
  CHECK_OR_FALSE(qmin <= qmax && qmin >= lo && qmax <= hi,
                 "%s: [quant_min, quant_max] = [%lld, %lld] does not fit [%lld, %lld]", op,
                 static_cast<long long>(qmin), static_cast<long long>(qmax),
                 static_cast<long long>(lo), static_cast<long long>(hi));
  return true;
}

void embedding_byte_out(KernelContext& ctx, const Tensor& weight, const Tensor& scales,
                        const Tensor* zero_points, int64_t qmin, int64_t qmax,
                        const Tensor& indices, Tensor& out) {
  constexpr const char* op = "embedding_byte.out";
  QuantizedTable table;
  const ScalarType type = weight.scalar_type();
  EMBER_KERNEL_CHECK(ctx, type == ScalarType::Char || type == ScalarType::Byte,
                     "%s: weight must be int8 or uint8, not %s", op, scalar_type_name(type));
  const bool is_signed = type == ScalarType::Char;
  if (!check_range(ctx, op, qmin, qmax, is_signed ? -128 : 0, is_signed ? 127 : 255) ||
      !check_table(ctx, op, weight, 1, scales, zero_points, indices, out, &table)) {
    return;
  }
  const int64_t dim = table.dim;
  if (is_signed) {
    const int8_t* w = weight.const_data_ptr<int8_t>();
    dequantize_rows(ctx, op, table, scales, zero_points, indices, out,
                    [w, dim](int64_t row, int64_t j) { return int{w[row * dim + j]}; });
  } else {
    const uint8_t* w = weight.const_data_ptr<uint8_t>();
    dequantize_rows(ctx, op, table, scales, zero_points, indices, out,
                    [w, dim](int64_t row, int64_t j) { return int{w[row * dim + j]}; });
  }
}

void embedding_4bit_out(KernelContext& ctx, const Tensor& weight, const Tensor& scales,
                        const Tensor* zero_points, int64_t qmin, int64_t qmax,
                        const Tensor& indices, Tensor& out) {
  constexpr const char* op = "embedding_4bit.out";
  QuantizedTable table;
  EMBER_KERNEL_CHECK(ctx, weight.scalar_type() == ScalarType::Byte,
                     "%s: weight must be uint8 (two codes a byte), not %s", op,
                     scalar_type_name(weight.scalar_type()));
  if (!check_range(ctx, op, qmin, qmax, -8, 7) ||
      !check_table(ctx, op, weight, 2, scales, zero_points, indices, out, &table)) {
    return;
  }
  const uint8_t* w = weight.const_data_ptr<uint8_t>();
  const int64_t row_bytes = weight.size(1);
  dequantize_rows(ctx, op, table, scales, zero_points, indices, out,
                  [w, row_bytes](int64_t row, int64_t j) {
                    const uint8_t byte = w[row * row_bytes + j / 2];
                    return (j % 2 == 0 ? byte >> 4 : byte & 0x0F) - 8;
                  });
}

#undef CHECK_OR_FALSE

}  // namespace

EMBER_REGISTER_KERNEL("quantized_decomposed::embedding_byte.out", embedding_byte_out,
                      dtype_bit(ScalarType::Char) | dtype_bit(ScalarType::Byte));
EMBER_REGISTER_KERNEL("quantized_decomposed::embedding_4bit.out", embedding_4bit_out,
                      dtype_bit(ScalarType::Byte));

}  // namespace ember::kernels
