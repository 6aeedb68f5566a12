#include "backends/cpu/runtime/profile.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "runtime/core/log.h"
#include "runtime/core/platform.h"

namespace ember::cpu {
namespace {

constexpr size_t kNumKinds = static_cast<size_t>(cpu_fb::OpParams::MAX) + 1;

// "[1x128x768]": the sizes of value `out`, cut short to fit.
void format_sizes(const ValueInfo& out, char* buf, size_t size) {
  int used = std::snprintf(buf, size, "[");
  for (int k = 0; k < out.dim && used < static_cast<int>(size) - 14; ++k) {
    used += std::snprintf(buf + used, size - used, k > 0 ? "x%d" : "%d", out.sizes[k]);
  }
  std::snprintf(buf + used, size - used, "]");
}

}  // namespace

DelegateProfile* make_profile(const Delegate& d, const cpu_fb::Graph* graph) {
  const char* env = std::getenv("EMBER_CPU_PROFILE");
  if (env == nullptr || env[0] == '\0' || std::strcmp(env, "0") == 0) return nullptr;
  DelegateProfile* p = new (std::nothrow) DelegateProfile();
  if (p == nullptr) return nullptr;
  p->ops = new (std::nothrow) OpProfile[d.num_ops > 0 ? d.num_ops : 1];
  if (p->ops == nullptr) {
    delete p;
    return nullptr;
  }
  p->num_ops = d.num_ops;
  p->per_op = std::strcmp(env, "ops") == 0;
  for (size_t i = 0; i < d.num_ops; ++i) {
    const cpu_fb::Op* op = graph->ops()->Get(static_cast<flatbuffers::uoffset_t>(i));
    p->ops[i].kind = op->params_type();
    p->ops[i].out = op->outputs()->Get(0);
  }
  return p;
}

void run_profiled(const Delegate& d, const ExecState& state) {
  DelegateProfile& p = *d.profile;
  for (size_t i = 0; i < d.num_ops; ++i) {
    const uint64_t start = pal_time_ns();
    d.ops[i]->run(state);  // parallel ops return when every thread is done
    p.ops[i].ns += pal_time_ns() - start;
  }
  ++p.executes;
}

void log_profile(const Delegate& d) {
  const DelegateProfile& p = *d.profile;
  if (p.executes == 0) return;
  uint64_t total = 0;
  uint64_t kind_ns[kNumKinds] = {};
  size_t kind_ops[kNumKinds] = {};
  for (size_t i = 0; i < p.num_ops; ++i) {
    const size_t kind = static_cast<size_t>(p.ops[i].kind);
    if (kind >= kNumKinds) continue;  // validated at init; kept safe here
    total += p.ops[i].ns;
    kind_ns[kind] += p.ops[i].ns;
    ++kind_ops[kind];
  }
  const double ms = 1e-6;
  const double share = total > 0 ? 100.0 / static_cast<double>(total) : 0.0;
  EMBER_LOG(Info, "cpu profile: delegate of %zu ops, %llu executes, %.3f ms per execute", p.num_ops,
            static_cast<unsigned long long>(p.executes),
            static_cast<double>(total) * ms / static_cast<double>(p.executes));
  EMBER_LOG(Info, "cpu profile: %-12s %8s %12s %8s", "op", "calls", "total ms", "share");
  // By kind, most time first (a selection sort over at most kNumKinds).
  bool shown[kNumKinds] = {};
  for (;;) {
    size_t best = kNumKinds;
    for (size_t k = 0; k < kNumKinds; ++k) {
      if (!shown[k] && kind_ops[k] > 0 && (best == kNumKinds || kind_ns[k] > kind_ns[best])) {
        best = k;
      }
    }
    if (best == kNumKinds) break;
    shown[best] = true;
    EMBER_LOG(Info, "cpu profile: %-12s %8llu %12.3f %7.1f%%",
              cpu_fb::EnumNameOpParams(static_cast<cpu_fb::OpParams>(best)),
              static_cast<unsigned long long>(kind_ops[best] * p.executes),
              static_cast<double>(kind_ns[best]) * ms, static_cast<double>(kind_ns[best]) * share);
  }
  if (!p.per_op) return;
  for (size_t i = 0; i < p.num_ops; ++i) {
    char sizes[96];
    format_sizes(d.values[p.ops[i].out], sizes, sizeof(sizes));
    EMBER_LOG(Info, "cpu profile: op %3zu %-12s %-24s %10.3f ms %6.1f%%", i,
              cpu_fb::EnumNameOpParams(p.ops[i].kind), sizes,
              static_cast<double>(p.ops[i].ns) * ms, static_cast<double>(p.ops[i].ns) * share);
  }
}

}  // namespace ember::cpu
