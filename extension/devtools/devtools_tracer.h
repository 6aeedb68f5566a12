// DevtoolsTracer: the EventTracer behind profiling and intermediate outputs.
// Profiling records every instruction's and every delegate operator's start,
// end and thread into an event buffer the application supplies; debug mode
// copies the output tensors of each instruction into a capture buffer the
// application supplies too. Nothing is allocated while a method executes: a
// full buffer drops what does not fit and counts it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"
#include "runtime/executor/event_tracer.h"
#include "runtime/executor/method.h"

namespace ember {

enum class TraceEventKind : uint8_t { Instruction = 0, DelegateOp = 1 };

struct TraceEvent {
  const char* name = "";     // the operator (instruction) or the op kind (delegate op)
  uint64_t start_ns = 0;     // pal_time_ns
  uint64_t end_ns = 0;
  uint32_t instruction = 0;  // for a delegate op: the delegate call's instruction
  uint32_t debug_handle = 0; // delegate ops: the exported node's handle (0: unknown)
  uint32_t thread = 0;       // a small id per thread, 0 for the first seen
  TraceEventKind kind = TraceEventKind::Instruction;
  uint8_t dim = 0;           // delegate ops: the output's rank (sizes cut at 6)
  int32_t sizes[6] = {};
};

// One captured tensor: its bytes lie at `offset` in the capture data, in the
// tensor's own dim order (the sizes are logical, dim_order says the layout).
struct CapturedTensor {
  uint32_t instruction = 0;
  uint32_t arg = 0;  // position among the instruction's arguments (not for delegate ops)
  uint32_t debug_handle = 0;  // delegate ops: the node whose value this is; else 0
  ScalarType dtype = ScalarType::Float;
  uint8_t dim = 0;
  int32_t sizes[16] = {};
  uint8_t dim_order[16] = {};
  size_t offset = 0;
  size_t nbytes = 0;
};

class DevtoolsTracer : public EventTracer {
 public:
  // Profiling: events go into `events`, in the order they end.
  void set_event_buffer(Span<TraceEvent> events) {
    events_ = events;
    num_events_ = dropped_events_ = 0;
  }
  // Debug mode: after instruction i, the tensors at the argument positions
  // set in out_masks[i] (bit k: argument k is an output) are copied into
  // `data` and described in `records`. Instructions past out_masks, and
  // arguments past 64, are not captured.
  void set_capture_buffers(Span<CapturedTensor> records, Span<uint8_t> data,
                           Span<const uint64_t> out_masks) {
    records_ = records;
    data_ = data;
    out_masks_ = out_masks;
    num_records_ = data_used_ = dropped_captures_ = 0;
  }
  // Forgets what was recorded and captured; keeps the buffers.
  void reset() {
    num_events_ = dropped_events_ = 0;
    num_records_ = data_used_ = dropped_captures_ = 0;
  }

  size_t num_events() const { return num_events_; }
  size_t dropped_events() const { return dropped_events_; }
  const TraceEvent& event(size_t i) const { return events_[i]; }
  size_t num_captured() const { return num_records_; }
  size_t dropped_captures() const { return dropped_captures_; }
  const CapturedTensor& captured(size_t i) const { return records_[i]; }
  const uint8_t* capture_data() const { return data_.data(); }

  // Names instruction events after `method`'s operators (else they are "").
  void set_method(const Method* method) { method_ = method; }

  void begin_instruction(size_t index) override;
  void end_instruction(size_t index, Span<EValue*> args) override;
  void delegate_op(const char* name, uint32_t debug_handle, uint64_t start_ns, uint64_t end_ns,
                   Span<const int32_t> out_sizes) override;
  void delegate_op_output(uint32_t debug_handle, ScalarType dtype, Span<const int32_t> sizes,
                          Span<const uint8_t> dim_order, const void* data,
                          size_t nbytes) override;
  bool captures_outputs() const override { return records_.size() > 0; }

 private:
  TraceEvent* next_event();
  void capture(size_t index, Span<EValue*> args);
  // A record and room for nbytes in the capture data, or null (counted as dropped).
  CapturedTensor* reserve(size_t nbytes, size_t dim);

  Span<TraceEvent> events_;
  size_t num_events_ = 0;
  size_t dropped_events_ = 0;
  Span<CapturedTensor> records_;
  Span<uint8_t> data_;
  Span<const uint64_t> out_masks_;
  size_t num_records_ = 0;
  size_t data_used_ = 0;
  size_t dropped_captures_ = 0;
  const Method* method_ = nullptr;
  size_t current_ = 0;
  uint64_t start_ns_ = 0;
};

// A small id for the calling thread: 0, 1, 2... in the order threads first ask.
uint32_t trace_thread_id();

}  // namespace ember
