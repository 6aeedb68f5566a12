// What a profile says, for people and for trace viewers: the Chrome trace
// (Perfetto's JSON loader reads it too) and a table of time per operator,
// from the events a DevtoolsTracer recorded over one or more runs. Used
// after execution (these allocate). `info` may be null (no source lines).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "extension/devtools/debug_info.h"
#include "extension/devtools/devtools_tracer.h"

namespace ember {

// {"traceEvents": [{"name", "cat", "ph": "X", "ts", "dur", "pid", "tid", "args"}...],
//  "displayTimeUnit": "ms"}: ts and dur in microseconds from the first event.
std::string chrome_trace_json(const std::vector<TraceEvent>& events, const DebugInfo* info);

// One row per operator of the program (an instruction, or an op inside a
// delegate; a delegate call's own time beyond its ops is a row too), most
// time first: time per run, share of the total, calls, node and source line.
struct ProfileRow {
  std::string op;
  std::string node;
  std::string source;
  double ms_per_run = 0;
  double share = 0;  // of the instructions' total time
  size_t calls = 0;
};
std::vector<ProfileRow> profile_rows(const std::vector<TraceEvent>& events, const DebugInfo* info,
                                     size_t runs);
std::string profile_table(const std::vector<ProfileRow>& rows, size_t runs, size_t dropped);

}  // namespace ember
