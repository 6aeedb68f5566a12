// One CPU-backend delegate as init builds it: its values (where each tensor's
// data is and how it is laid out) and its ops, each holding what it prepared
// once (packed weights, geometry). execute resolves the values' data and runs
// the ops in order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/thread_pool.h"
#include "runtime/executor/data_loader.h"
#include "runtime/kernel/kernel_context.h"

namespace ember::cpu {

constexpr int kMaxDims = 8;

enum class Layout : uint8_t { Plain = 0, NHWC = 1 };
enum class ValueKind : uint8_t { Input = 0, Output = 1, Constant = 2, Scratch = 3 };
// Float32 for data; Int64 and Int32 for indices (Embedding's input); Int8
// for quantized data (the Qs8 ops), and as constants the bytes of int8 or
// packed 4-bit weights; Bool for an attention's mask.
enum class DataType : uint8_t { Float32 = 0, Int64 = 1, Int32 = 2, Int8 = 3, Bool = 4 };

inline size_t element_size(DataType t) {
  return t == DataType::Int64 ? 8 : (t == DataType::Int8 || t == DataType::Bool ? 1 : 4);
}

// The tensor type a delegate argument of this type must have.
inline ScalarType scalar_type_of(DataType t) {
  switch (t) {
    case DataType::Int64: return ScalarType::Long;
    case DataType::Int32: return ScalarType::Int;
    case DataType::Int8: return ScalarType::Char;
    case DataType::Bool: return ScalarType::Bool;
    default: return ScalarType::Float;
  }
}

struct ValueInfo {
  int32_t sizes[kMaxDims];  // logical sizes, PyTorch's order
  int dim;
  Layout layout;
  ValueKind kind;
  uint32_t index;
  uint64_t offset;
  size_t numel;
  DataType dtype;
};

// What an op's run() sees: the data of every value, the pool, a kernel
// context for the optimized kernels (the pool, no temp memory), and the
// temp memory the op asked for at init (op_temp, 64-byte aligned).
struct ExecState {
  float* const* data;
  ThreadPool* pool;
  KernelContext* kernel_context;
  void* op_temp;
};

// An op of a delegate. Built at init (where it may allocate), run without
// allocating. No RTTI: ops are only called through this interface.
class CpuOp {
 public:
  virtual ~CpuOp() = default;
  virtual void run(const ExecState& state) const = 0;
  // Bytes the op holds (packed weights...), for the backend's report.
  virtual size_t owned_bytes() const { return 0; }
  // Temp bytes one run needs beyond the delegate's scratch values, when run
  // with up to `num_threads` threads (ExecState::op_temp).
  virtual size_t temp_bytes(size_t num_threads) const {
    (void)num_threads;
    return 0;
  }
  // Whether the op now reads value `x` ([batch, in_h, in_w, C]) in place of
  // its input, which is x with `top` rows and `left` columns of `fill`
  // before it and any number after (the pad fold, cpu_backend.cpp): only an
  // op whose taps in its own padding read `fill` anyway says yes.
  virtual bool absorb_pad(uint32_t x, int64_t in_h, int64_t in_w, int64_t top, int64_t left,
                          float fill) {
    (void)x, (void)in_h, (void)in_w, (void)top, (void)left, (void)fill;
    return false;
  }
};

struct OpTraceInfo;

struct Delegate {
  ValueInfo* values = nullptr;
  size_t num_values = 0;
  CpuOp** ops = nullptr;
  size_t num_ops = 0;
  // What a run runs: ops in order, with chains of them that run faster as
  // one op (ops/conv_chain.h) in their place; null: the ops. A run whose
  // tracer captures outputs runs the ops one by one, each reporting its own.
  CpuOp** schedule = nullptr;
  uint32_t* schedule_last = nullptr;  // per entry, the last op it runs
  size_t num_scheduled = 0;
  CpuOp** chains = nullptr;  // owned; each in the schedule
  size_t num_chains = 0;
  float** data = nullptr;  // per value, filled by execute
  uint32_t num_inputs = 0;
  uint32_t num_outputs = 0;
  uint64_t scratch_bytes = 0;
  size_t op_temp_bytes = 0;
  FreeableBuffer blob;  // kept: constants are read in place
  OpTraceInfo* trace_info = nullptr;  // per op, for the event tracer (profile.h)
  ~Delegate();
};

}  // namespace ember::cpu
