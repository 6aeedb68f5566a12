// Border padding of the last 1, 2 or 3 dims: reflection_padNd mirrors the
// input about its edge elements, replication_padNd repeats them. Negative
// padding crops, as in PyTorch. Elements are moved as raw words, so every
// dtype PyTorch pads is served by one loop.
#include <cstdint>
#include <cstring>

#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

enum class PadMode { Reflect, Replicate };

// The padded dims, padded at the front to three (size 1, no padding).
struct PadPlan {
  int64_t planes = 1;
  int64_t in[3] = {1, 1, 1};
  int64_t out[3] = {1, 1, 1};
  int64_t left[3] = {0, 0, 0};
};

// PyTorch's source index for output position j of a dim (both modes; the
// offsets handle negative padding).
int64_t source_index(PadMode mode, int64_t j, int64_t in, int64_t pad_l) {
  const int64_t i_start = pad_l < 0 ? -pad_l : 0;
  const int64_t o_start = pad_l > 0 ? pad_l : 0;
  int64_t ix;
  if (j < pad_l) {
    ix = mode == PadMode::Reflect ? 2 * pad_l - j : pad_l;
  } else if (j < in + pad_l) {
    ix = j;
  } else {
    ix = mode == PadMode::Reflect ? 2 * (in + pad_l - 1) - j : in + pad_l - 1;
  }
  return ix - o_start + i_start;
}

template <typename W>
void pad_words(const PadPlan& p, PadMode mode, const void* src_v, void* dst_v) {
  const W* src = static_cast<const W*>(src_v);
  W* dst = static_cast<W*>(dst_v);
  const int64_t in_plane = p.in[0] * p.in[1] * p.in[2];
  const int64_t out_plane = p.out[0] * p.out[1] * p.out[2];
  for (int64_t c = 0; c < p.planes; ++c) {
    const W* s = src + c * in_plane;
    W* d = dst + c * out_plane;
    for (int64_t z = 0; z < p.out[0]; ++z) {
      const int64_t iz = source_index(mode, z, p.in[0], p.left[0]);
      for (int64_t y = 0; y < p.out[1]; ++y) {
        const int64_t iy = source_index(mode, y, p.in[1], p.left[1]);
        const W* row = s + (iz * p.in[1] + iy) * p.in[2];
        W* out_row = d + (z * p.out[1] + y) * p.out[2];
        for (int64_t x = 0; x < p.out[2]; ++x) {
          out_row[x] = row[source_index(mode, x, p.in[2], p.left[2])];
        }
      }
    }
  }
}

void pad_nd(KernelContext& ctx, const char* op, PadMode mode, int nd, const Tensor& self,
            IntArrayRef padding, Tensor& out) {
  EMBER_KERNEL_CHECK(ctx, self.dim() == nd + 1 || self.dim() == nd + 2,
                     "%s: expected a %d-D or %d-D input, got %d-D", op, nd + 1, nd + 2,
                     self.dim());
  EMBER_KERNEL_CHECK(ctx, padding.size() == static_cast<size_t>(2 * nd),
                     "%s: padding must have %d values, got %zu", op, 2 * nd, padding.size());
  if (!nn::check_same_dtype(ctx, op, self, "self", out, "out") ||
      !check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, out)) {
    return;
  }
  const ScalarType type = self.scalar_type();
  if (type == ScalarType::Bool || !is_valid_scalar_type(static_cast<int>(type)) ||
      (!is_floating_type(type) && !is_integral_type(type, false))) {
    fail_dtype(ctx, op, type);
    return;
  }
  for (int d = 1; d < self.dim(); ++d) {
    EMBER_KERNEL_CHECK(ctx, self.size(d) > 0, "%s: only the first dim may be empty", op);
  }
  PadPlan p;
  const int lead = self.dim() - nd;
  for (int d = 0; d < lead; ++d) p.planes *= self.size(d);
  int64_t sizes[5];
  for (int d = 0; d < lead; ++d) sizes[d] = self.size(d);
  for (int i = 0; i < nd; ++i) {
    // padding lists the last dim first: (left, right) pairs from the innermost out.
    const int dim = self.dim() - 1 - i;
    const int slot = 2 - i;
    const int64_t l = padding[2 * i], r = padding[2 * i + 1];
    const int64_t in = self.size(dim);
    // Bounded so that the sums below cannot overflow.
    EMBER_KERNEL_CHECK(ctx, l > -(int64_t{1} << 40) && l < (int64_t{1} << 40) &&
                                r > -(int64_t{1} << 40) && r < (int64_t{1} << 40),
                       "%s: padding is out of range", op);
    if (mode == PadMode::Reflect) {
      EMBER_KERNEL_CHECK(ctx, l < in && r < in,
                         "%s: padding (%lld, %lld) must be less than the input size %lld of "
                         "dim %d", op, static_cast<long long>(l), static_cast<long long>(r),
                         static_cast<long long>(in), dim);
    }
    const int64_t o = in + l + r;
    EMBER_KERNEL_CHECK(ctx, o >= 1, "%s: the output size of dim %d would be %lld", op, dim,
                       static_cast<long long>(o));
    // A crop deeper than the input would read outside it.
    EMBER_KERNEL_CHECK(ctx, -l < in && -r < in, "%s: padding crops away all of dim %d", op, dim);
    p.in[slot] = in;
    p.out[slot] = o;
    p.left[slot] = l;
    sizes[dim] = o;
  }
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, self.dim()), op)) return;
  switch (self.element_size()) {
    case 1: pad_words<uint8_t>(p, mode, self.const_data_ptr(), out.mutable_data_ptr()); break;
    case 2: pad_words<uint16_t>(p, mode, self.const_data_ptr(), out.mutable_data_ptr()); break;
    case 4: pad_words<uint32_t>(p, mode, self.const_data_ptr(), out.mutable_data_ptr()); break;
    case 8: pad_words<uint64_t>(p, mode, self.const_data_ptr(), out.mutable_data_ptr()); break;
    default: fail_dtype(ctx, op, type);
  }
}

void reflection_pad1d_out(KernelContext& ctx, const Tensor& self, IntArrayRef padding,
                          Tensor& out) {
  pad_nd(ctx, "reflection_pad1d.out", PadMode::Reflect, 1, self, padding, out);
}
void reflection_pad2d_out(KernelContext& ctx, const Tensor& self, IntArrayRef padding,
                          Tensor& out) {
  pad_nd(ctx, "reflection_pad2d.out", PadMode::Reflect, 2, self, padding, out);
}
void reflection_pad3d_out(KernelContext& ctx, const Tensor& self, IntArrayRef padding,
                          Tensor& out) {
  pad_nd(ctx, "reflection_pad3d.out", PadMode::Reflect, 3, self, padding, out);
}
void replication_pad1d_out(KernelContext& ctx, const Tensor& self, IntArrayRef padding,
                           Tensor& out) {
  pad_nd(ctx, "replication_pad1d.out", PadMode::Replicate, 1, self, padding, out);
}
void replication_pad2d_out(KernelContext& ctx, const Tensor& self, IntArrayRef padding,
                           Tensor& out) {
  pad_nd(ctx, "replication_pad2d.out", PadMode::Replicate, 2, self, padding, out);
}
void replication_pad3d_out(KernelContext& ctx, const Tensor& self, IntArrayRef padding,
                           Tensor& out) {
  pad_nd(ctx, "replication_pad3d.out", PadMode::Replicate, 3, self, padding, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::reflection_pad1d.out", reflection_pad1d_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::reflection_pad2d.out", reflection_pad2d_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::reflection_pad3d.out", reflection_pad3d_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::replication_pad1d.out", replication_pad1d_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::replication_pad2d.out", replication_pad2d_out, kRealTypes);
EMBER_REGISTER_KERNEL("aten::replication_pad3d.out", replication_pad3d_out, kRealTypes);

}  // namespace ember::kernels
