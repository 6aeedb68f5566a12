// EventTracer: optional per-instruction hooks for profiling and debugging
// (timing, intermediate outputs). The executor checks one pointer per
// instruction, so a method without a tracer pays nothing else.
#pragma once

#include <cstddef>

#include "runtime/core/evalue.h"
#include "runtime/core/span.h"

namespace ember {

class EventTracer {
 public:
  virtual ~EventTracer() = default;
  virtual void begin_instruction(size_t index) = 0;
  // `args` are the instruction's values after it ran (outputs included).
  virtual void end_instruction(size_t index, Span<EValue*> args) = 0;
};

}  // namespace ember
