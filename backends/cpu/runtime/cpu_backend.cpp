#include "backends/cpu/runtime/cpu_backend.h"

#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <new>

#include "backends/cpu/runtime/ops/conv_chain.h"
#include "backends/cpu/runtime/ops/op_util.h"
#include "backends/cpu/runtime/ops/ops.h"
#include "backends/cpu/runtime/profile.h"
#include "backends/cpu/schema/cpu_delegate_generated.h"
#include "runtime/core/log.h"
#include "runtime/kernel/kernel_selection.h"

namespace ember::cpu {
namespace {

constexpr const char* kName = CpuBackend::kName;

using Factory = Result<CpuOp*> (*)(const BuildContext&, const cpu_fb::Op*);

// Whether this build has op kind `kind`: a selective build (docs/size.md)
// compiles only the kinds its programs' blobs use, so the factories of the
// others are never referenced and the linker drops them with their kernels.
constexpr bool kind_built(const char* kind) {
#if defined(EMBER_SELECTED_KERNELS_HEADER)
  for (size_t i = 0; i < selection::kNumSelectedCpuOps; ++i) {
    if (selection::names_equal(selection::kSelectedCpuOps[i], kind)) return true;
  }
  return false;
#else
  return kind != nullptr;
#endif
}

#define EMBER_CPU_OP_KIND_(kind, factory) \
  case cpu_fb::OpParams::kind:            \
    return kind_built(#kind) ? factory : nullptr;

// Null for a kind this build lacks or that does not exist.
Factory factory_for(cpu_fb::OpParams type) {
  switch (type) {
    EMBER_CPU_OP_KIND_(Linear, make_linear)
    EMBER_CPU_OP_KIND_(Conv2d, make_conv2d)
    EMBER_CPU_OP_KIND_(Binary, make_binary)
    EMBER_CPU_OP_KIND_(Unary, make_unary)
    EMBER_CPU_OP_KIND_(ToLayout, make_to_layout)
    EMBER_CPU_OP_KIND_(Reshape, make_reshape)
    EMBER_CPU_OP_KIND_(Softmax, make_softmax)
    EMBER_CPU_OP_KIND_(LayerNorm, make_layer_norm)
    EMBER_CPU_OP_KIND_(Pool2d, make_pool2d)
    EMBER_CPU_OP_KIND_(AdaptiveAvgPool2d, make_adaptive_avg_pool2d)
    EMBER_CPU_OP_KIND_(Reduce, make_reduce)
    EMBER_CPU_OP_KIND_(Permute, make_permute)
    EMBER_CPU_OP_KIND_(Concat, make_concat)
    EMBER_CPU_OP_KIND_(Embedding, make_embedding)
    EMBER_CPU_OP_KIND_(MatMul, make_matmul)
    EMBER_CPU_OP_KIND_(Attention, make_attention)
    EMBER_CPU_OP_KIND_(Pad, make_pad)
    EMBER_CPU_OP_KIND_(QLinear, make_qlinear)
    EMBER_CPU_OP_KIND_(Qs8Convert, make_qs8_convert)
    EMBER_CPU_OP_KIND_(Qs8Conv2d, make_qs8_conv2d)
    EMBER_CPU_OP_KIND_(Qs8Linear, make_qs8_linear)
    EMBER_CPU_OP_KIND_(Qs8Binary, make_qs8_binary)
    EMBER_CPU_OP_KIND_(Qd8Linear, make_qd8_linear)
    default: return nullptr;
  }
}
#undef EMBER_CPU_OP_KIND_

// Logs why init refuses op `index`: its kind, the exported node it came from
// (its debug handle, which the exporter maps back to the node and shows in
// its report) and `why`; returns `error`. The exporter runs this init on
// every blob it makes and parses "op N (Kind, node H)" to withhold the node.
Error refuse_op(size_t index, const cpu_fb::Op* op, Error error, const char* why) {
  // `why` may be the thread's last error message, which logging overwrites.
  constexpr char kPrefix[] = "cpu backend: ";  // the factories' messages start so
  if (why != nullptr && std::strncmp(why, kPrefix, sizeof(kPrefix) - 1) == 0) {
    why += sizeof(kPrefix) - 1;
  }
  char reason[384];
  std::snprintf(reason, sizeof(reason), "%s",
                why != nullptr && why[0] != '\0' ? why : "its values or parameters do not fit it");
  EMBER_LOG(Error, "%s: op %zu (%s, node %u) refused: %s", kName, index,
            cpu_fb::EnumNameOpParams(op->params_type()), op->debug_handle(), reason);
  return error != Error::Ok ? error : Error::InvalidProgram;
}

// Whether values a and b occupy different memory (an op that reads one
// while writing the other must not find them overlapping: the planner may
// put a value in the memory of one that died at the op before).
bool values_apart(const Delegate& d, uint32_t a, uint32_t b) {
  const ValueInfo& x = d.values[a];
  const ValueInfo& y = d.values[b];
  if (x.kind != ValueKind::Scratch || y.kind != ValueKind::Scratch) return a != b;
  return x.offset + x.numel * element_size(x.dtype) <= y.offset ||
         y.offset + y.numel * element_size(y.dtype) <= x.offset;
}

// Whether op i is a Pad of H and W that only the op at i + 1 reads, and
// that op now reads the Pad's input instead (CpuOp::absorb_pad: the float
// and int8 depthwise convolutions, whose taps in their padding read the
// fill anyway): TF-style models pad before every stride-2 depthwise layer,
// and the copy cost as much as the layer. The Pad then runs only for a
// tracer that captures outputs, which reports every op's value (the
// convolution's output is the same either way).
bool fold_pad_into_next(const cpu_fb::Graph* graph, Delegate* d, size_t i,
                        const uint32_t* readers) {
  const auto* ops = graph->ops();
  const auto* op = ops->Get(static_cast<flatbuffers::uoffset_t>(i));
  const auto* next = ops->Get(static_cast<flatbuffers::uoffset_t>(i + 1));
  const cpu_fb::Pad* pad = op->params_as_Pad();
  if (pad == nullptr || next->inputs() == nullptr || next->inputs()->size() == 0 ||
      next->outputs() == nullptr || next->outputs()->size() != 1) {
    return false;
  }
  const uint32_t in = op->inputs()->Get(0), out = op->outputs()->Get(0);
  const ValueInfo& x = d->values[in];
  const ValueInfo& y = d->values[out];
  const auto* pads = pad->pads();  // (before, after) from the last dim: W, H, C, N
  if (next->inputs()->Get(0) != out || readers[out] != 1 ||
      !values_apart(*d, in, next->outputs()->Get(0)) || x.layout != Layout::NHWC || x.dim != 4 ||
      pads == nullptr || pads->size() > 8) {
    return false;
  }
  int64_t p[8] = {};
  for (size_t k = 0; k < pads->size(); ++k) {
    p[k] = pads->Get(static_cast<flatbuffers::uoffset_t>(k));
    if (p[k] < 0 || (k >= 4 && p[k] != 0)) return false;  // a crop, or C or N padded
  }
  if (x.sizes[3] + p[0] + p[1] != y.sizes[3] || x.sizes[2] + p[2] + p[3] != y.sizes[2]) {
    return false;
  }
  return d->ops[i + 1]->absorb_pad(in, x.sizes[2], x.sizes[3], p[2], p[0], pad->value());
}

// Builds d's schedule: its ops, less the pads fold_pad_into_next folds,
// with each run of convolutions that fuse_conv_chain takes ([pointwise ->]
// depthwise -> pointwise, each output read by the next op only) replaced by
// the chain. EMBER_CPU_CONV_CHAINS=0 in the environment at load keeps the
// ops one by one (to compare).
Error schedule_conv_chains(const cpu_fb::Graph* graph, size_t threads, Delegate* d) {
  const char* env = std::getenv("EMBER_CPU_CONV_CHAINS");
  const bool enabled = env == nullptr || std::strcmp(env, "0") != 0;
  const auto* ops = graph->ops();
  if (!enabled || d->num_ops < 2) return Error::Ok;
  // Readers per value; a delegate output counts as one more.
  uint32_t* readers = new (std::nothrow) uint32_t[d->num_values]();
  uint32_t* order = new (std::nothrow) uint32_t[d->num_ops];
  d->schedule = new (std::nothrow) CpuOp*[d->num_ops];
  d->schedule_last = new (std::nothrow) uint32_t[d->num_ops];
  d->chains = new (std::nothrow) CpuOp*[d->num_ops];
  if (readers == nullptr || order == nullptr || d->schedule == nullptr ||
      d->schedule_last == nullptr || d->chains == nullptr) {
    delete[] readers;
    delete[] order;
    EMBER_LOG(Error, "%s: no memory", kName);
    return Error::MemoryAllocationFailed;
  }
  for (size_t i = 0; i < d->num_ops; ++i) {
    const auto* inputs = ops->Get(static_cast<flatbuffers::uoffset_t>(i))->inputs();
    for (size_t j = 0; inputs != nullptr && j < inputs->size(); ++j) {
      const uint32_t v = inputs->Get(static_cast<flatbuffers::uoffset_t>(j));
      if (v < d->num_values) ++readers[v];
    }
  }
  for (size_t v = 0; v < d->num_values; ++v) readers[v] += d->values[v].kind != ValueKind::Scratch;
  // The ops a run runs, in order.
  size_t num_order = 0, folded = 0;
  for (size_t i = 0; i < d->num_ops; ++i) {
    if (i + 1 < d->num_ops && fold_pad_into_next(graph, d, i, readers)) {
      ++folded;
      continue;
    }
    order[num_order++] = static_cast<uint32_t>(i);
  }
  auto conv = [&](size_t k) -> const ConvOp* {
    if (k >= num_order) return nullptr;
    const bool is_conv = ops->Get(order[k])->params_type() == cpu_fb::OpParams::Conv2d;
    return is_conv ? static_cast<const ConvOp*>(d->ops[order[k]]) : nullptr;  // make_conv2d's
  };
  auto feeds_next_only = [&](const ConvOp* a, const ConvOp* b) {
    return a != nullptr && b != nullptr && b->x == a->out && readers[a->out] == 1;
  };
  // The chain writes its output while it still reads its input.
  auto apart = [&](uint32_t a, uint32_t b) { return values_apart(*d, a, b); };
  for (size_t k = 0; k < num_order;) {
    ConvChainOp* chain = nullptr;
    size_t taken = 0;
    if (feeds_next_only(conv(k), conv(k + 1)) && feeds_next_only(conv(k + 1), conv(k + 2)) &&
        apart(conv(k)->x, conv(k + 2)->out)) {
      chain = fuse_conv_chain(conv(k), conv(k + 1), conv(k + 2), threads);
      taken = 3;
    }
    if (chain == nullptr && feeds_next_only(conv(k), conv(k + 1)) &&
        apart(conv(k)->x, conv(k + 1)->out)) {
      chain = fuse_conv_chain(nullptr, conv(k), conv(k + 1), threads);
      taken = 2;
    }
    if (chain == nullptr) {
      taken = 1;
    } else {
      d->chains[d->num_chains++] = chain;
      const size_t temp = chain->temp_bytes(threads);
      if (temp > d->op_temp_bytes) d->op_temp_bytes = temp;
    }
    d->schedule[d->num_scheduled] = chain != nullptr ? chain : d->ops[order[k]];
    d->schedule_last[d->num_scheduled++] = order[k + taken - 1];
    k += taken;
  }
  delete[] readers;
  delete[] order;
  if (d->num_chains == 0 && folded == 0) {  // runs go through d->ops as before
    delete[] d->schedule;
    delete[] d->schedule_last;
    delete[] d->chains;
    d->schedule = nullptr, d->schedule_last = nullptr, d->chains = nullptr;
    d->num_scheduled = 0;
  }
  return Error::Ok;
}

Error read_values(const cpu_fb::Graph* graph, Delegate* d) {
  const auto* values = graph->values();
  d->num_values = values != nullptr ? values->size() : 0;
  d->values = new (std::nothrow) ValueInfo[d->num_values > 0 ? d->num_values : 1];
  d->data = new (std::nothrow) float*[d->num_values > 0 ? d->num_values : 1];
  EMBER_CHECK_OR_RETURN(d->values != nullptr && d->data != nullptr, Error::MemoryAllocationFailed,
                        "%s: no memory for %zu values", kName, d->num_values);
  return read_value_infos(graph, d->values, d->num_values, kName);
}

}  // namespace

Result<const cpu_fb::Graph*> verify_graph(const FreeableBuffer& blob, const char* who) {
  const auto* bytes = static_cast<const uint8_t*>(blob.data());
  flatbuffers::Verifier verifier(bytes, blob.size());
  EMBER_CHECK_OR_RETURN(blob.size() >= 8 && cpu_fb::GraphBufferHasIdentifier(bytes) &&
                            cpu_fb::VerifyGraphBuffer(verifier),
                        Error::DelegateInvalidCompatibility,
                        "%s: the delegate blob is not a valid ECP1 graph", who);
  // Constants are read in place (64-byte aligned in the blob), so the blob
  // must be aligned too: segments are, an inline copy may not be.
  EMBER_CHECK_OR_RETURN(reinterpret_cast<uintptr_t>(bytes) % 16 == 0,
                        Error::DelegateInvalidCompatibility, "%s: blob is misaligned", who);
  return cpu_fb::GetGraph(bytes);
}

Error read_value_infos(const cpu_fb::Graph* graph, ValueInfo* out, size_t num_values,
                       const char* who) {
  const auto* values = graph->values();
  if (num_values != (values != nullptr ? values->size() : 0)) return Error::InvalidProgram;
  const size_t num_constants = graph->constants() != nullptr ? graph->constants()->size() : 0;
  for (size_t v = 0; v < num_values; ++v) {
    const cpu_fb::Value* value = values->Get(static_cast<flatbuffers::uoffset_t>(v));
    ValueInfo& info = out[v];
    info = ValueInfo{};
    const auto* sizes = value->sizes();
    info.dim = sizes != nullptr ? static_cast<int>(sizes->size()) : 0;
    EMBER_CHECK_OR_RETURN(info.dim <= kMaxDims, Error::InvalidProgram, "%s: value %zu has rank %d",
                          who, v, info.dim);
    info.numel = 1;
    // At most 2^40 elements, or what a 32-bit size_t can count (WebAssembly).
    constexpr size_t kMaxNumel = sizeof(size_t) >= 8 ? size_t(uint64_t{1} << 40) : SIZE_MAX / 16;
    for (int k = 0; k < info.dim; ++k) {
      const int32_t s = sizes->Get(static_cast<flatbuffers::uoffset_t>(k));
      EMBER_CHECK_OR_RETURN(s >= 0 && info.numel <= kMaxNumel / static_cast<size_t>(s > 0 ? s : 1),
                            Error::InvalidProgram, "%s: value %zu has a bad size", who, v);
      info.sizes[k] = s;
      info.numel *= static_cast<size_t>(s);
    }
    info.layout = static_cast<Layout>(value->layout());
    info.kind = static_cast<ValueKind>(value->kind());
    info.index = value->index();
    info.offset = value->offset();
    info.dtype = static_cast<DataType>(value->dtype());
    EMBER_CHECK_OR_RETURN(info.dtype <= DataType::Bool, Error::InvalidProgram,
                          "%s: value %zu has unknown dtype %d", who, v,
                          static_cast<int>(info.dtype));
    const size_t elem = element_size(info.dtype);
    EMBER_CHECK_OR_RETURN(info.layout == Layout::Plain || (info.layout == Layout::NHWC && info.dim >= 3 &&
                                                           (info.dtype == DataType::Float32 ||
                                                            info.dtype == DataType::Int8)),
                          Error::InvalidProgram, "%s: value %zu has a bad layout", who, v);
    switch (info.kind) {
      case ValueKind::Input:
        EMBER_CHECK_OR_RETURN(info.index < graph->num_inputs(), Error::InvalidProgram,
                              "%s: value %zu is input %u of %u", who, v, info.index,
                              graph->num_inputs());
        break;
      case ValueKind::Output:
        EMBER_CHECK_OR_RETURN(info.index < graph->num_outputs(), Error::InvalidProgram,
                              "%s: value %zu is output %u of %u", who, v, info.index,
                              graph->num_outputs());
        break;
      case ValueKind::Constant: {
        EMBER_CHECK_OR_RETURN(info.index < num_constants, Error::InvalidProgram,
                              "%s: value %zu is constant %u of %zu", who, v, info.index,
                              num_constants);
        const auto* data = graph->constants()->Get(info.index)->data();
        EMBER_CHECK_OR_RETURN(data != nullptr && data->size() == info.numel * elem,
                              Error::InvalidProgram, "%s: constant %u does not hold %zu elements",
                              who, info.index, info.numel);
        break;
      }
      case ValueKind::Scratch:
        EMBER_CHECK_OR_RETURN(info.offset <= graph->scratch_bytes() &&
                                  info.numel * elem <= graph->scratch_bytes() - info.offset,
                              Error::InvalidProgram, "%s: value %zu lies outside the scratch memory",
                              who, v);
        EMBER_CHECK_OR_RETURN(info.offset % 16 == 0, Error::InvalidProgram,
                              "%s: value %zu is misaligned", who, v);
        break;
      default:
        EMBER_LOG(Error, "%s: value %zu has unknown kind %d", who, v, static_cast<int>(info.kind));
        return Error::InvalidProgram;
    }
  }
  return Error::Ok;
}

const float* BuildContext::constant(uint32_t v) const {
  if (v >= num_values || values[v].kind != ValueKind::Constant) return nullptr;
  return reinterpret_cast<const float*>(graph->constants()->Get(values[v].index)->data()->data());
}

void clamp_in_place(float* data, size_t n, float low, float high) {
  if (low == -INFINITY && high == INFINITY) return;
  for (size_t i = 0; i < n; ++i) {
    // NaN passes through, as torch.clamp lets it.
    const float v = data[i];
    data[i] = v < low ? low : (v > high ? high : v);
  }
}

Delegate::~Delegate() {
  for (size_t i = 0; i < num_chains; ++i) delete chains[i];
  delete[] chains;
  delete[] schedule;
  delete[] schedule_last;
  delete[] trace_info;
  for (size_t i = 0; i < num_ops; ++i) delete ops[i];
  delete[] ops;
  delete[] values;
  delete[] data;
}

Result<DelegateHandle*> CpuBackend::init(BackendInitContext& context, FreeableBuffer* processed,
                                         Span<const CompileSpec>) const {
  Result<const cpu_fb::Graph*> verified = verify_graph(*processed, kName);
  if (!verified.ok()) return verified.error();
  const cpu_fb::Graph* graph = verified.get();
  Delegate* d = new (std::nothrow) Delegate();
  EMBER_CHECK_OR_RETURN(d != nullptr, Error::MemoryAllocationFailed, "%s: no memory", kName);
  d->num_inputs = graph->num_inputs();
  d->num_outputs = graph->num_outputs();
  d->scratch_bytes = graph->scratch_bytes();
  Error err = read_values(graph, d);
  const auto* ops = graph->ops();
  const size_t num_ops = ops != nullptr ? ops->size() : 0;
  if (err == Error::Ok) {
    d->ops = new (std::nothrow) CpuOp*[num_ops > 0 ? num_ops : 1]();
    if (d->ops == nullptr) err = Error::MemoryAllocationFailed;
  }
  const size_t threads =
      context.thread_pool() != nullptr ? context.thread_pool()->num_threads() : 1;
  BuildContext build{d->values, d->num_values, graph};
  // Per value, the first Qd8Linear that reads it: later ones share its
  // per-token quantization (share_qd8_rows).
  CpuOp** qd8_reader = nullptr;
  if (err == Error::Ok) {
    qd8_reader = new (std::nothrow) CpuOp*[d->num_values > 0 ? d->num_values : 1]();
    if (qd8_reader == nullptr) err = Error::MemoryAllocationFailed;
  }
  for (size_t i = 0; err == Error::Ok && i < num_ops; ++i) {
    const cpu_fb::Op* op = ops->Get(static_cast<flatbuffers::uoffset_t>(i));
    const Factory factory = factory_for(op->params_type());
    if (factory == nullptr) {
      const char* kind = cpu_fb::EnumNameOpParams(op->params_type());
      err = refuse_op(i, op, Error::InvalidProgram,
                      kind[0] != '\0' ? "its kind is not in this selective build" : "unknown op kind");
      break;
    }
    if (op->activation() != nullptr && op->params_type() != cpu_fb::OpParams::Linear &&
        op->params_type() != cpu_fb::OpParams::Conv2d &&
        op->params_type() != cpu_fb::OpParams::Qd8Linear) {
      err = refuse_op(i, op, Error::InvalidProgram, "this op cannot apply a fused activation");
      break;
    }
    if (const ValueInfo* bad = untakeable_value(build, op)) {
      err = refuse_op(i, op, Error::InvalidProgram, bad->dtype == DataType::Bool
                                                        ? "this op cannot take bool values"
                                                        : "this op cannot take int8 values");
      break;
    }
    // The factory logs why it refuses the op; that reason goes into the
    // message naming the op, the last error a caller sees.
    clear_last_error_message();
    Result<CpuOp*> made = factory(build, op);
    if (!made.ok()) {
      err = refuse_op(i, op, made.error(), last_error_message());
      break;
    }
    d->ops[i] = made.get();
    d->num_ops = i + 1;
    if (op->params_type() == cpu_fb::OpParams::Qd8Linear) {
      // The factory checked the op's input index.
      CpuOp*& first = qd8_reader[op->inputs()->Get(0)];
      if (first == nullptr) {
        first = d->ops[i];
      } else {
        share_qd8_rows(first, d->ops[i]);
      }
    }
    const size_t temp = d->ops[i]->temp_bytes(threads);
    if (temp > d->op_temp_bytes) d->op_temp_bytes = temp;
  }
  delete[] qd8_reader;
  if (err == Error::Ok && kind_built("Conv2d")) err = schedule_conv_chains(graph, threads, d);
  if (err != Error::Ok) {
    delete d;
    return err;
  }
  d->trace_info = make_trace_info(*d, graph);
  if (d->trace_info == nullptr) {
    delete d;
    EMBER_LOG(Error, "%s: no memory", kName);
    return Error::MemoryAllocationFailed;
  }
  d->blob = static_cast<FreeableBuffer&&>(*processed);
  // Scratch values, then the largest op temp, each 64-byte aligned.
  context.request_temp_bytes((d->scratch_bytes + 63) / 64 * 64 + d->op_temp_bytes + 128);
  return static_cast<DelegateHandle*>(d);
}

Error CpuBackend::execute(BackendExecutionContext& context, DelegateHandle* handle,
                          Span<EValue*> args) const {
  Delegate& d = *static_cast<Delegate*>(handle);
  if (args.size() != size_t{d.num_inputs} + d.num_outputs) {
    EMBER_LOG(Error, "%s: called with %zu values, expects %u", kName, args.size(),
              d.num_inputs + d.num_outputs);
    return Error::InvalidArgument;
  }
  uint8_t* scratch = static_cast<uint8_t*>(context.allocate_temp((d.scratch_bytes + 63) / 64 * 64 + 64, 64));
  void* op_temp = d.op_temp_bytes > 0 ? context.allocate_temp(d.op_temp_bytes, 64) : nullptr;
  if (scratch == nullptr || (d.op_temp_bytes > 0 && op_temp == nullptr)) {
    EMBER_LOG(Error, "%s: not enough temp memory", kName);
    return Error::MemoryAllocationFailed;
  }
  for (size_t v = 0; v < d.num_values; ++v) {
    const ValueInfo& info = d.values[v];
    switch (info.kind) {
      case ValueKind::Input:
      case ValueKind::Output: {
        const size_t arg = info.kind == ValueKind::Input ? info.index : d.num_inputs + info.index;
        if (!args[arg]->is_tensor()) return Error::InvalidArgument;
        Tensor& t = args[arg]->to_tensor();
        const ScalarType expected = scalar_type_of(info.dtype);
        if (t.scalar_type() != expected || static_cast<size_t>(t.numel()) != info.numel ||
            !t.is_contiguous_dim_order()) {
          EMBER_LOG(Error, "%s: argument %zu is not a contiguous %s tensor of %zu elements",
                    kName, arg, scalar_type_name(expected), info.numel);
          return Error::InvalidArgument;
        }
        d.data[v] = t.mutable_data_ptr<float>();
        break;
      }
      case ValueKind::Constant:
        d.data[v] = const_cast<float*>(reinterpret_cast<const float*>(
            cpu_fb::GetGraph(d.blob.data())->constants()->Get(info.index)->data()->data()));
        break;
      case ValueKind::Scratch:
        d.data[v] = reinterpret_cast<float*>(scratch + info.offset);
        break;
    }
  }
  KernelContext kernel_context(nullptr, context.thread_pool());
  const ExecState state{d.data, context.thread_pool(), &kernel_context, op_temp};
  if (context.event_tracer() == nullptr) {
    CpuOp* const* ops = d.schedule != nullptr ? d.schedule : d.ops;
    const size_t n = d.schedule != nullptr ? d.num_scheduled : d.num_ops;
    for (size_t i = 0; i < n; ++i) ops[i]->run(state);
  } else {
    run_traced(d, state, *context.event_tracer());
  }
  // An op that found bad data (an embedding index out of range) failed the
  // kernel context; its output is defined (zeros) but the call is an error.
  if (kernel_context.failed()) {
    EMBER_LOG(Error, "%s: %s", kName, kernel_context.message());
    return kernel_context.error();
  }
  return Error::Ok;
}

void CpuBackend::destroy(DelegateHandle* handle) const { delete static_cast<Delegate*>(handle); }

size_t CpuBackend::num_outputs(DelegateHandle* handle) const {
  return static_cast<const Delegate*>(handle)->num_outputs;
}

size_t CpuBackend::owned_bytes(DelegateHandle* handle) const {
  const Delegate& d = *static_cast<const Delegate*>(handle);
  size_t total = d.num_values * (sizeof(ValueInfo) + sizeof(float*)) + d.num_ops * sizeof(CpuOp*);
  for (size_t i = 0; i < d.num_ops; ++i) total += d.ops[i]->owned_bytes();
  return total;
}

Error register_cpu_backend() {
  static CpuBackend backend;
  static const Error registered = register_backend(CpuBackend::kName, &backend);
  return registered;
}

}  // namespace ember::cpu
