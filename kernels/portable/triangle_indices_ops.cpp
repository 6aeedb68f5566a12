// aten::tril_indices.out and aten::triu_indices.out: the coordinates of a
// row x col matrix's lower (col <= row + offset) or upper (col >= row +
// offset) triangle, as a [2, N] integer tensor of rows then columns, in
// row-major order, as torch lists them.
#include "kernels/portable/util/kernel_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// Row i's columns in the triangle: [first, last), possibly empty. Computed,
// not searched, so a program with huge arguments costs what its output does.
struct ColumnRange {
  int64_t first, last;
};

ColumnRange columns(int64_t i, int64_t cols, int64_t offset, bool lower) {
  const int64_t edge = i + offset;  // the diagonal's column in row i
  if (lower) return {0, edge < 0 ? 0 : (edge + 1 < cols ? edge + 1 : cols)};
  return {edge < 0 ? 0 : (edge < cols ? edge : cols), cols};
}

void triangle_indices(KernelContext& ctx, const char* op, int64_t rows, int64_t cols,
                      int64_t offset, bool lower, Tensor& out) {
  EMBER_KERNEL_CHECK(ctx, rows >= 0 && cols >= 0,
                     "%s: row and col must be non-negative, got %lld and %lld", op,
                     static_cast<long long>(rows), static_cast<long long>(cols));
  // Keeps i + offset and the count in range, and the per-row loop short.
  constexpr int64_t kLimit = int64_t{1} << 31;
  EMBER_KERNEL_CHECK(ctx, rows < kLimit && cols < kLimit && offset > -kLimit && offset < kLimit,
                     "%s: row, col and offset must be below 2^31 in size", op);
  int64_t count = 0;
  for (int64_t i = 0; i < rows; ++i) {
    const ColumnRange range = columns(i, cols, offset, lower);
    count += range.last - range.first;
  }
  const int64_t sizes[2] = {2, count};
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, 2), op)) return;
  EMBER_SWITCH_INT_TYPES(out.scalar_type(),
      ctx.fail(Error::InvalidArgument, "%s: out must be an integer tensor, got %s", op,
               scalar_type_name(out.scalar_type())),
      {
        CTYPE* r = out.mutable_data_ptr<CTYPE>();
        CTYPE* c = r + count;
        for (int64_t i = 0; i < rows; ++i) {
          const ColumnRange range = columns(i, cols, offset, lower);
          for (int64_t j = range.first; j < range.last; ++j) {
            *r++ = static_cast<CTYPE>(i);
            *c++ = static_cast<CTYPE>(j);
          }
        }
      });
}

void tril_indices_out(KernelContext& ctx, int64_t row, int64_t col, int64_t offset, Tensor& out) {
  triangle_indices(ctx, "tril_indices.out", row, col, offset, /*lower=*/true, out);
}

void triu_indices_out(KernelContext& ctx, int64_t row, int64_t col, int64_t offset, Tensor& out) {
  triangle_indices(ctx, "triu_indices.out", row, col, offset, /*lower=*/false, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::tril_indices.out", tril_indices_out, kIntTypes);
EMBER_REGISTER_KERNEL("aten::triu_indices.out", triu_indices_out, kIntTypes);

}  // namespace ember::kernels
