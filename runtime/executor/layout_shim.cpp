#include "runtime/executor/layout_shim.h"

namespace ember {
namespace detail {

Error make_twin(Tensor* original, bool output, MemoryAllocator* alloc, LayoutShim* shim) {
  const int dim = original->dim();
  auto* sizes = alloc->allocate_array<SizesType>(dim);
  auto* dim_order = alloc->allocate_array<DimOrderType>(dim);
  auto* strides = alloc->allocate_array<StridesType>(dim);
  // Room for the original at its largest: its planned capacity, or its bytes.
  const size_t capacity =
      original->capacity_bytes() > 0 ? original->capacity_bytes() : original->nbytes();
  void* data = alloc->allocate(capacity > 0 ? capacity : 1, 64);
  if (sizes == nullptr || dim_order == nullptr || strides == nullptr || data == nullptr) {
    return Error::MemoryAllocationFailed;
  }
  for (int d = 0; d < dim; ++d) {
    sizes[d] = static_cast<SizesType>(original->size(d));
    dim_order[d] = static_cast<DimOrderType>(d);
  }
  shim->original = original;
  shim->output = output;
  shim->twin = Tensor(original->scalar_type(), dim, sizes, dim_order, strides, data, capacity,
                      TensorShapeDynamism::DynamicBound);
  shim->value = EValue(&shim->twin);
  if (shim->fixed) copy_across_dim_orders(*original, shim->twin);
  return Error::Ok;
}

}  // namespace detail

void copy_into_twins(Span<LayoutShim> shims) {
  for (LayoutShim& shim : shims) {
    if (shim.output || shim.fixed) continue;
    // Within capacity by construction: the twin has the original's capacity.
    (void)shim.twin.resize(shim.original->sizes());
    copy_across_dim_orders(*shim.original, shim.twin);
  }
}

Error copy_out_of_twins(Span<LayoutShim> shims) {
  for (LayoutShim& shim : shims) {
    if (!shim.output) continue;
    if (shim.original->resize(shim.twin.sizes()) != Error::Ok) return Error::InvalidState;
    copy_across_dim_orders(shim.twin, *shim.original);
  }
  return Error::Ok;
}

}  // namespace ember
