#include "extension/devtools/devtools_tracer.h"

#include <atomic>
#include <cstring>

#include "runtime/core/platform.h"

namespace ember {

uint32_t trace_thread_id() {
  static std::atomic<uint32_t> next{0};
  thread_local const uint32_t id = next.fetch_add(1, std::memory_order_relaxed);
  return id;
}

// Null when profiling is off (no event buffer) or the buffer is full.
TraceEvent* DevtoolsTracer::next_event() {
  if (events_.empty()) return nullptr;
  if (num_events_ >= events_.size()) {
    ++dropped_events_;
    return nullptr;
  }
  return &events_[num_events_++];
}

void DevtoolsTracer::begin_instruction(size_t index) {
  current_ = index;
  start_ns_ = pal_time_ns();
}

void DevtoolsTracer::end_instruction(size_t index, Span<EValue*> args) {
  const uint64_t end = pal_time_ns();
  if (TraceEvent* e = next_event()) {
    e->name = method_ != nullptr ? method_->instruction_name(index) : "";
    e->start_ns = start_ns_;
    e->end_ns = end;
    e->instruction = static_cast<uint32_t>(index);
    e->debug_handle = 0;
    e->thread = trace_thread_id();
    e->kind = TraceEventKind::Instruction;
    e->dim = 0;
  }
  if (index < out_masks_.size() && out_masks_[index] != 0) capture(index, args);
}

void DevtoolsTracer::delegate_op(const char* name, uint32_t debug_handle, uint64_t start_ns,
                                 uint64_t end_ns, Span<const int32_t> out_sizes) {
  TraceEvent* e = next_event();
  if (e == nullptr) return;
  e->name = name != nullptr ? name : "";
  e->start_ns = start_ns;
  e->end_ns = end_ns;
  e->instruction = static_cast<uint32_t>(current_);
  e->debug_handle = debug_handle;
  e->thread = trace_thread_id();
  e->kind = TraceEventKind::DelegateOp;
  const size_t dim = out_sizes.size() < 6 ? out_sizes.size() : 6;
  e->dim = static_cast<uint8_t>(dim);
  for (size_t k = 0; k < dim; ++k) e->sizes[k] = out_sizes[k];
}

CapturedTensor* DevtoolsTracer::reserve(size_t nbytes, size_t dim) {
  // 16-byte aligned, so that readers may view the bytes as any dtype.
  const size_t offset = (data_used_ + 15) / 16 * 16;
  if (num_records_ >= records_.size() || offset > data_.size() ||
      nbytes > data_.size() - offset || dim > 16) {
    ++dropped_captures_;
    return nullptr;
  }
  CapturedTensor& r = records_[num_records_++];
  r = CapturedTensor();
  r.instruction = static_cast<uint32_t>(current_);
  r.offset = offset;
  r.nbytes = nbytes;
  r.dim = static_cast<uint8_t>(dim);
  data_used_ = offset + nbytes;
  return &r;
}

void DevtoolsTracer::capture(size_t index, Span<EValue*> args) {
  const uint64_t mask = out_masks_[index];
  for (size_t k = 0; k < args.size() && k < 64; ++k) {
    if ((mask >> k & 1) == 0 || args[k] == nullptr || !args[k]->is_tensor()) continue;
    const Tensor& t = args[k]->to_tensor();
    CapturedTensor* r = reserve(t.nbytes(), static_cast<size_t>(t.dim()));
    if (r == nullptr) continue;
    r->instruction = static_cast<uint32_t>(index);
    r->arg = static_cast<uint32_t>(k);
    r->dtype = t.scalar_type();
    for (int d = 0; d < t.dim(); ++d) {
      r->sizes[d] = t.sizes()[d];
      r->dim_order[d] = t.dim_order()[d];
    }
    if (r->nbytes > 0) std::memcpy(data_.data() + r->offset, t.const_data_ptr(), r->nbytes);
  }
}

void DevtoolsTracer::delegate_op_output(uint32_t debug_handle, ScalarType dtype,
                                        Span<const int32_t> sizes, Span<const uint8_t> dim_order,
                                        const void* data, size_t nbytes) {
  if (records_.empty() || debug_handle == 0 || sizes.size() != dim_order.size()) return;
  CapturedTensor* r = reserve(nbytes, sizes.size());
  if (r == nullptr) return;
  r->debug_handle = debug_handle;
  r->dtype = dtype;
  for (size_t d = 0; d < sizes.size(); ++d) {
    r->sizes[d] = sizes[d];
    r->dim_order[d] = dim_order[d];
  }
  if (nbytes > 0) std::memcpy(data_.data() + r->offset, data, nbytes);
}

}  // namespace ember
