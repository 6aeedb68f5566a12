#include "extension/devtools/profile_report.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace ember {
namespace {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string sizes_string(const TraceEvent& e) {
  std::string s = "[";
  for (int k = 0; k < e.dim; ++k) s += (k > 0 ? "x" : "") + std::to_string(e.sizes[k]);
  return s + "]";
}

const DebugNode* node_of(const TraceEvent& e, const DebugInfo* info) {
  if (info == nullptr) return nullptr;
  return e.kind == TraceEventKind::DelegateOp ? info->node(e.debug_handle)
                                              : info->instruction_node(e.instruction);
}

std::string format_double(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3f", v);
  return buf;
}

}  // namespace

std::string chrome_trace_json(const std::vector<TraceEvent>& events, const DebugInfo* info) {
  uint64_t origin = UINT64_MAX;
  for (const TraceEvent& e : events) origin = std::min(origin, e.start_ns);
  std::string out = "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  for (size_t i = 0; i < events.size(); ++i) {
    const TraceEvent& e = events[i];
    const bool in_delegate = e.kind == TraceEventKind::DelegateOp;
    const DebugNode* node = node_of(e, info);
    out += "{\"name\": " + json_string(e.name) + ", \"cat\": \"" +
           (in_delegate ? "delegate_op" : "instruction") + "\", \"ph\": \"X\", \"ts\": " +
           format_double(static_cast<double>(e.start_ns - origin) / 1e3) +
           ", \"dur\": " + format_double(static_cast<double>(e.end_ns - e.start_ns) / 1e3) +
           ", \"pid\": 1, \"tid\": " + std::to_string(e.thread) +
           ", \"args\": {\"instruction\": " + std::to_string(e.instruction);
    if (in_delegate) {
      out += ", \"debug_handle\": " + std::to_string(e.debug_handle) +
             ", \"shape\": " + json_string(sizes_string(e));
    }
    if (node != nullptr) {
      out += ", \"node\": " + json_string(node->node) +
             ", \"source\": " + json_string(node->location());
    }
    out += i + 1 < events.size() ? "}},\n" : "}}\n";
  }
  return out + "]}\n";
}

std::vector<ProfileRow> profile_rows(const std::vector<TraceEvent>& events, const DebugInfo* info,
                                     size_t runs) {
  std::set<uint32_t> delegating;  // instructions whose ops were reported
  for (const TraceEvent& e : events) {
    if (e.kind == TraceEventKind::DelegateOp) delegating.insert(e.instruction);
  }
  // Key: (instruction, delegate op's handle, name); a delegate call's own row
  // gets its ops' time subtracted.
  using Key = std::tuple<uint32_t, uint32_t, std::string, int>;
  std::map<Key, std::pair<uint64_t, size_t>> sums;
  std::map<Key, const TraceEvent*> first;
  std::map<uint32_t, int64_t> delegate_rest;
  uint64_t total = 0;
  for (const TraceEvent& e : events) {
    const uint64_t ns = e.end_ns - e.start_ns;
    const bool in_delegate = e.kind == TraceEventKind::DelegateOp;
    if (!in_delegate) total += ns;
    if (!in_delegate && delegating.count(e.instruction) > 0) {
      delegate_rest[e.instruction] += static_cast<int64_t>(ns);
      continue;
    }
    if (in_delegate) delegate_rest[e.instruction] -= static_cast<int64_t>(ns);
    const Key key{e.instruction, in_delegate ? e.debug_handle : 0, e.name, in_delegate ? 1 : 0};
    auto& sum = sums[key];
    sum.first += ns;
    ++sum.second;
    first.emplace(key, &e);
  }
  const double run_count = static_cast<double>(runs > 0 ? runs : 1);
  const double share = total > 0 ? 1.0 / static_cast<double>(total) : 0.0;
  std::vector<ProfileRow> rows;
  for (const auto& [key, sum] : sums) {
    const TraceEvent& e = *first[key];
    ProfileRow row;
    row.op = e.name;
    if (e.kind == TraceEventKind::DelegateOp) row.op += " " + sizes_string(e);
    if (const DebugNode* node = node_of(e, info)) {
      row.node = node->node;
      row.source = node->location();
    }
    row.ms_per_run = static_cast<double>(sum.first) / 1e6 / run_count;
    row.share = static_cast<double>(sum.first) * share;
    row.calls = sum.second;
    rows.push_back(row);
  }
  for (const auto& [instruction, ns] : delegate_rest) {
    ProfileRow row;
    row.op = "(delegate call, outside its ops)";
    const DebugNode* node = info != nullptr ? info->instruction_node(instruction) : nullptr;
    row.node = node != nullptr ? node->node : "instruction " + std::to_string(instruction);
    row.ms_per_run = static_cast<double>(std::max<int64_t>(ns, 0)) / 1e6 / run_count;
    row.share = static_cast<double>(std::max<int64_t>(ns, 0)) * share;
    row.calls = static_cast<size_t>(run_count);
    rows.push_back(row);
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const ProfileRow& a, const ProfileRow& b) { return a.ms_per_run > b.ms_per_run; });
  return rows;
}

std::string profile_table(const std::vector<ProfileRow>& rows, size_t runs, size_t dropped) {
  double total = 0;
  for (const ProfileRow& r : rows) total += r.ms_per_run;
  char line[512];
  std::string out;
  std::snprintf(line, sizeof(line), "profile: %zu run(s), %.3f ms per run in %zu operators%s\n",
                runs, total, rows.size(), dropped > 0 ? " (some events dropped: buffer full)" : "");
  out += line;
  if (dropped > 0) {
    std::snprintf(line, sizeof(line), "dropped events: %zu\n", dropped);
    out += line;
  }
  std::snprintf(line, sizeof(line), "%-44s %10s %7s %6s  %-24s %s\n", "operator", "ms/run",
                "share", "calls", "node", "source");
  out += line;
  for (const ProfileRow& r : rows) {
    std::snprintf(line, sizeof(line), "%-44s %10.3f %6.1f%% %6zu  %-24s %s\n", r.op.c_str(),
                  r.ms_per_run, 100.0 * r.share, r.calls, r.node.c_str(), r.source.c_str());
    out += line;
  }
  return out;
}

}  // namespace ember
