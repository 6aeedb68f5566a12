// Per-op events for the application's event tracer: when the execution
// context carries one, each of a delegate's ops is timed and reported
// (its kind, the exported node's debug handle, its output's sizes) through
// EventTracer::delegate_op. Without a tracer, execute checks one pointer and
// runs the ops as usual. What the events need is read from the blob at init.
#pragma once

#include <cstdint>

#include "backends/cpu/runtime/delegate.h"
#include "backends/cpu/schema/cpu_delegate_generated.h"
#include "runtime/executor/event_tracer.h"

namespace ember::cpu {

constexpr uint32_t kNoOutput = 0xffffffffu;

struct OpTraceInfo {
  const char* kind = "";    // the op's kind, a static string
  uint32_t debug_handle = 0;
  uint32_t value_handle = 0;  // the node whose value the output is, 0: none
  uint32_t out = kNoOutput;  // the output value, for its sizes
};

// One entry per op of `graph` (d.num_ops of them), or null without memory.
OpTraceInfo* make_trace_info(const Delegate& d, const cpu_fb::Graph* graph);
// Runs d's schedule (its ops one by one when the tracer captures outputs;
// a chain reports as "ConvChain" with its last op's node and output),
// reporting each to `tracer` with, for ops that write a node's
// value, that value (which a capturing tracer copies).
void run_traced(const Delegate& d, const ExecState& state, EventTracer& tracer);

}  // namespace ember::cpu
