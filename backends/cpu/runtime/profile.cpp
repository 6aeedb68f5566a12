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
    // The factories checked the op's values; an op without one reports no sizes.
    const bool has_out = op->outputs() != nullptr && op->outputs()->size() > 0 &&
                         op->outputs()->Get(0) < d.num_values;
    info[i].out = has_out ? op->outputs()->Get(0) : kNoOutput;
  }
  return info;
}

void run_traced(const Delegate& d, const ExecState& state, EventTracer& tracer) {
  for (size_t i = 0; i < d.num_ops; ++i) {
    const uint64_t start = pal_time_ns();
    d.ops[i]->run(state);  // parallel ops return when every thread is done
    const uint64_t end = pal_time_ns();
    const OpTraceInfo& info = d.trace_info[i];
    const Span<const int32_t> sizes =
        info.out == kNoOutput ? Span<const int32_t>()
                              : Span<const int32_t>(d.values[info.out].sizes,
                                                    static_cast<size_t>(d.values[info.out].dim));
    tracer.delegate_op(info.kind, info.debug_handle, start, end, sizes);
  }
}

}  // namespace ember::cpu
