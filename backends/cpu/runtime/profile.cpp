#include "backends/cpu/runtime/profile.h"

#include <new>

#include "runtime/core/platform.h"

namespace ember::cpu {

OpTraceInfo* make_trace_info(const Delegate& d, const cpu_fb::Graph* graph) {
  OpTraceInfo* info = new (std::nothrow) OpTraceInfo[d.num_ops > 0 ? d.num_ops : 1];
  if (info == nullptr) return nullptr;
  for (size_t i = 0; i < d.num_ops; ++i) {
    const cpu_fb::Op* op = graph->ops()->Get(static_cast<flatbuffers::uoffset_t>(i));
    info[i].kind = cpu_fb::EnumNameOpParams(op->params_type());
    info[i].debug_handle = op->debug_handle();
    info[i].value_handle = op->value_handle();
    // The factories checked the op's values; an op without one reports no sizes.
    const bool has_out = op->outputs() != nullptr && op->outputs()->size() > 0 &&
                         op->outputs()->Get(0) < d.num_values;
    info[i].out = has_out ? op->outputs()->Get(0) : kNoOutput;
  }
  return info;
}

namespace {

// The value an op wrote, as the tracer takes it: logical sizes and the order
// its layout keeps them in memory (NHWC: N, H, W, C).
void report_output(const Delegate& d, const ExecState& state, const OpTraceInfo& info,
                   EventTracer& tracer) {
  const ValueInfo& v = d.values[info.out];
  if (v.dtype != DataType::Float32 && v.dtype != DataType::Int64 && v.dtype != DataType::Int32) {
    return;  // a type the tracer's reader may not know
  }
  const ScalarType dtype = scalar_type_of(v.dtype);
  uint8_t order[kMaxDims];
  for (int k = 0; k < v.dim; ++k) order[k] = static_cast<uint8_t>(k);
  if (v.layout == Layout::NHWC) {
    if (v.dim != 4) return;
    order[1] = 2, order[2] = 3, order[3] = 1;
  } else if (v.layout != Layout::Plain) {
    return;
  }
  tracer.delegate_op_output(info.value_handle, dtype,
                            Span<const int32_t>(v.sizes, static_cast<size_t>(v.dim)),
                            Span<const uint8_t>(order, static_cast<size_t>(v.dim)),
                            state.data[info.out], v.numel * element_size(dtype));
}

}  // namespace

void run_traced(const Delegate& d, const ExecState& state, EventTracer& tracer) {
  const bool fused = d.schedule != nullptr && !tracer.captures_outputs();
  const size_t n = fused ? d.num_scheduled : d.num_ops;
  for (size_t i = 0; i < n; ++i) {
    CpuOp* op = fused ? d.schedule[i] : d.ops[i];
    // A chain of ops reports as its last op's node and output.
    const size_t last = fused ? d.schedule_last[i] : i;
    const uint64_t start = pal_time_ns();
    op->run(state);  // parallel ops return when every thread is done
    const uint64_t end = pal_time_ns();
    const OpTraceInfo& info = d.trace_info[last];
    const Span<const int32_t> sizes =
        info.out == kNoOutput ? Span<const int32_t>()
                              : Span<const int32_t>(d.values[info.out].sizes,
                                                    static_cast<size_t>(d.values[info.out].dim));
    tracer.delegate_op(op == d.ops[last] ? info.kind : "ConvChain", info.debug_handle, start, end,
                       sizes);
    if (info.value_handle != 0 && info.out != kNoOutput) report_output(d, state, info, tracer);
  }
}

}  // namespace ember::cpu
