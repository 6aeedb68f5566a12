// EventTracer: optional per-instruction hooks for profiling and debugging
// (timing, intermediate outputs). The executor checks one pointer per
// instruction, so a method without a tracer pays nothing else; delegates
// reach the tracer through their contexts and check it once per execute.
// A concrete tracer (events and captured tensors in memory the application
// supplies) is extension/devtools/devtools_tracer.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"

namespace ember {

class EventTracer {
 public:
  virtual ~EventTracer() = default;
  virtual void begin_instruction(size_t index) = 0;
  // `args` are the instruction's values after it ran (outputs included).
  virtual void end_instruction(size_t index, Span<EValue*> args) = 0;
  // One operator inside a delegate ran from start_ns to end_ns (pal_time_ns),
  // during the current instruction. `name` is a static string (the op's
  // kind), `debug_handle` the exported graph node it came from (0: unknown),
  // `out_sizes` its output's sizes. Tracers that do not care ignore it.
  virtual void delegate_op(const char* name, uint32_t debug_handle, uint64_t start_ns,
                           uint64_t end_ns, Span<const int32_t> out_sizes) {
    (void)name, (void)debug_handle, (void)start_ns, (void)end_ns, (void)out_sizes;
  }
  // An operator inside a delegate wrote the value of exported node
  // `debug_handle`: `nbytes` at `data`, logical `sizes`, laid out in
  // `dim_order`. Valid during the call only; tracers that capture copy it.
  virtual void delegate_op_output(uint32_t debug_handle, ScalarType dtype,
                                  Span<const int32_t> sizes, Span<const uint8_t> dim_order,
                                  const void* data, size_t nbytes) {
    (void)debug_handle, (void)dtype, (void)sizes, (void)dim_order, (void)data, (void)nbytes;
  }
  // Whether delegate_op_output keeps the values (a debugging run): a
  // delegate that runs some ops fused then runs them one by one, so that
  // each reports its own; otherwise it reports a fused group as one op.
  virtual bool captures_outputs() const { return false; }
};

}  // namespace ember
