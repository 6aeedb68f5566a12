// Per-op timing for the CPU backend, for answering "which operator takes the
// time": with EMBER_CPU_PROFILE set in the environment when a program is
// loaded, each delegate times each of its ops over all executes and, when
// destroyed, logs a table per op kind (calls, total ms, share of the
// delegate's time); EMBER_CPU_PROFILE=ops adds one line per op.
// Unset (the default), execute checks one pointer and runs the ops as usual.
// Profiling allocates at init only: execute adds to counters it owns.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/cpu/runtime/delegate.h"
#include "backends/cpu/schema/cpu_delegate_generated.h"

namespace ember::cpu {

struct OpProfile {
  cpu_fb::OpParams kind;
  uint32_t out;     // output value, for its sizes
  uint64_t ns = 0;  // summed over executes
};

struct DelegateProfile {
  OpProfile* ops = nullptr;
  size_t num_ops = 0;
  uint64_t executes = 0;
  bool per_op = false;  // EMBER_CPU_PROFILE=ops: a line per op too
  ~DelegateProfile() { delete[] ops; }
};

// A profile for `d`'s ops when EMBER_CPU_PROFILE is set (and not "0"), else null.
DelegateProfile* make_profile(const Delegate& d, const cpu_fb::Graph* graph);
// Runs d's ops, timing each into d.profile.
void run_profiled(const Delegate& d, const ExecState& state);
// Logs d's table; called as d is destroyed.
void log_profile(const Delegate& d);

}  // namespace ember::cpu
