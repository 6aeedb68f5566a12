// Small helpers the CPU backend's ops share: checked access to an op's value
// lists, and the row-major strides of a value's logical sizes.
#pragma once

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <new>

#include "backends/cpu/runtime/ops/ops.h"
#include "runtime/core/log.h"

namespace ember::cpu {

// Logs why a factory refuses its op and returns InvalidProgram. Every refusal
// says why: init wraps the reason into the message naming the op and its
// node, which the exporter shows when it keeps such a claim off the backend.
inline Error refuse(const char* format, ...) __attribute__((format(printf, 1, 2)));
inline Error refuse(const char* format, ...) {
  char why[320];
  va_list args;
  va_start(args, format);
  std::vsnprintf(why, sizeof(why), format, args);
  va_end(args);
  EMBER_LOG(Error, "cpu backend: %s", why);
  return Error::InvalidProgram;
}

// Value ids of an op's inputs and outputs, checked against the delegate.
struct OpValues {
  uint32_t in[4];
  uint32_t out;
  size_t num_in;
};

// Fills `v` when `op` has between min_in and max_in inputs and one output,
// all naming existing values; logs and returns false otherwise.
inline bool read_op_values(const BuildContext& ctx, const cpu_fb::Op* op, size_t min_in,
                           size_t max_in, OpValues* v) {
  const auto* ins = op->inputs();
  const auto* outs = op->outputs();
  const size_t n = ins != nullptr ? ins->size() : 0;
  if (n < min_in || n > max_in || n > 4 || outs == nullptr || outs->size() != 1) {
    EMBER_LOG(Error, "cpu backend: op has %zu inputs (expects %zu..%zu) and %u outputs", n, min_in,
              max_in, outs != nullptr ? outs->size() : 0);
    return false;
  }
  for (size_t i = 0; i < n; ++i) {
    v->in[i] = ins->Get(static_cast<flatbuffers::uoffset_t>(i));
    if (v->in[i] >= ctx.num_values) {
      refuse("input %zu names value %u of %zu", i, v->in[i], ctx.num_values);
      return false;
    }
  }
  v->out = outs->Get(0);
  v->num_in = n;
  if (v->out >= ctx.num_values) {
    refuse("the output names value %u of %zu", v->out, ctx.num_values);
    return false;
  }
  const ValueKind kind = ctx.values[v->out].kind;
  // An op writes scratch or output values only, never inputs or constants.
  if (kind != ValueKind::Scratch && kind != ValueKind::Output) {
    refuse("the output (value %u) is an input or a constant", v->out);
    return false;
  }
  return true;
}

inline bool same_sizes(const ValueInfo& a, const ValueInfo& b) {
  if (a.dim != b.dim) return false;
  for (int i = 0; i < a.dim; ++i) {
    if (a.sizes[i] != b.sizes[i]) return false;
  }
  return true;
}

// Backend-owned float arrays, 64-byte aligned (a cache line, any vector).
inline float* new_floats(size_t n) {
  return static_cast<float*>(::operator new[](n > 0 ? n * sizeof(float) : 1,
                                              std::align_val_t{64}, std::nothrow));
}
inline void delete_floats(float* p) {
  if (p != nullptr) ::operator delete[](p, std::align_val_t{64});
}


// A residual (an op's second input) must lie as the output does, so that an
// output float's offset locates its addend: as many floats, the same layout
// (and sizes, for NHWC; a plain one may be a view of other sizes).
inline bool residual_fits(const BuildContext& ctx, const OpValues& v) {
  if (v.num_in < 2) return true;
  const ValueInfo& r = ctx.values[v.in[1]];
  const ValueInfo& out = ctx.values[v.out];
  if (r.numel != out.numel || r.layout != out.layout ||
      (out.layout == Layout::NHWC && !same_sizes(r, out)) || r.dtype != DataType::Float32 ||
      v.in[1] == v.out) {
    EMBER_LOG(Error, "cpu backend: a residual differs from the output it is added to");
    return false;
  }
  return true;
}

// The ops that read or write 1-byte values (int8 data, an attention's bool
// mask), each checking them in its factory; any other op given one would read
// it as wider elements, past its end.
inline bool takes(cpu_fb::OpParams type, DataType dtype) {
  if (dtype == DataType::Bool) return type == cpu_fb::OpParams::Attention;
  if (dtype != DataType::Int8) return true;
  switch (type) {
    case cpu_fb::OpParams::Qs8Convert:
    case cpu_fb::OpParams::Qs8Conv2d:
    case cpu_fb::OpParams::Qs8Linear:
    case cpu_fb::OpParams::Qs8Binary:
    case cpu_fb::OpParams::ToLayout:
    case cpu_fb::OpParams::Reshape:
    case cpu_fb::OpParams::Pool2d:  // a max pool of int8 codes
    case cpu_fb::OpParams::Pad:     // a constant pad of int8 codes
      return true;
    default:
      return false;
  }
}

// The first value `op` names that it cannot take, or nullptr.
inline const ValueInfo* untakeable_value(const BuildContext& ctx, const cpu_fb::Op* op) {
  for (const auto* list : {op->inputs(), op->outputs()}) {
    if (list == nullptr) continue;
    for (const uint32_t v : *list) {
      if (v < ctx.num_values && !takes(op->params_type(), ctx.values[v].dtype)) return &ctx.values[v];
    }
  }
  return nullptr;
}

}  // namespace ember::cpu
