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

void DevtoolsTracer::capture(size_t index, Span<EValue*> args) {
  const uint64_t mask = out_masks_[index];
  for (size_t k = 0; k < args.size() && k < 64; ++k) {
    if ((mask >> k & 1) == 0 || args[k] == nullptr || !args[k]->is_tensor()) continue;
    const Tensor& t = args[k]->to_tensor();
    const size_t nbytes = t.nbytes();
    // 16-byte aligned, so that readers may view the bytes as any dtype.
    const size_t offset = (data_used_ + 15) / 16 * 16;
    if (num_records_ >= records_.size() || offset > data_.size() ||
        nbytes > data_.size() - offset || t.dim() > 16) {
      ++dropped_captures_;
      continue;
    }
    CapturedTensor& r = records_[num_records_++];
    r.instruction = static_cast<uint32_t>(index);
    r.arg = static_cast<uint32_t>(k);
    r.dtype = t.scalar_type();
    r.dim = static_cast<uint8_t>(t.dim());
    for (int d = 0; d < t.dim(); ++d) {
      r.sizes[d] = t.sizes()[d];
      r.dim_order[d] = t.dim_order()[d];
    }
    r.offset = offset;
    r.nbytes = nbytes;
    if (nbytes > 0) std::memcpy(data_.data() + offset, t.const_data_ptr(), nbytes);
    data_used_ = offset + nbytes;
  }
}

}  // namespace ember
