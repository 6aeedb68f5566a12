// Quantized linear layers on the int8 GEMMs, weights packed once at init:
//  - Qs8Linear, static: int8 in, int8 out requantized per channel on the
//    qs8 GEMM; or float out (a model output) on the qd8-f32 GEMM, every row
//    with the input's one zero point and scale;
//  - Qd8Linear, dynamic: float in, each row quantized per token while in
//    cache (qs8-vcvt), then the qd8-f32 GEMM (int8 weights) or the 4-bit
//    grouped one (qd8-f32-qb4w-gemm), float out with bias, then the fused
//    residual add and activation (Linear's) and the clamp on each tile.
#include <new>

#include "backends/cpu/runtime/ops/activation.h"
#include "backends/cpu/runtime/ops/qs8_util.h"
#include "kernels/optimized/qd8-f32-qb4w-gemm/qd8_f32_qb4w_gemm.h"
#include "kernels/optimized/qs8-gemm/qs8_gemm.h"
#include "kernels/optimized/qs8-vcvt/qs8_vcvt.h"

namespace ember::cpu {
namespace {

using namespace kernels::optimized;  // NOLINT: the int8 families' names

// What every int8 GEMM problem here shares: m rows of int8 A (row stride k),
// the packed weights, and C [m, n] (of the problem's own output type).
template <typename Problem, typename Out>
void describe_gemm(Problem& p, size_t m, size_t n, size_t k, const int8_t* a,
                   const void* packed, Out* c) {
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = a;
  p.lda = k;
  p.packed_w = packed;
  p.c = c;
  p.ldc = n;
}

// Bytes of `count` elements of T rounded up to 64 (temp memory slices).
template <typename T>
size_t slice_bytes(size_t count) {
  return (count * sizeof(T) + 63) / 64 * 64;
}

class Qs8LinearOp final : public CpuOp {
 public:
  uint32_t x, out;
  size_t m, k, n;
  bool float_output;
  Qs8RequantParams requant;
  Qd8F32Params clamp;
  int32_t* row_zero = nullptr;  // float output: the input's zero point, per row
  float* row_scale = nullptr;
  uint8_t* packed = nullptr;
  size_t packed_bytes = 0;
  const Qs8GemmConfig* gemm = nullptr;

  ~Qs8LinearOp() override {
    delete_bytes(packed);
    delete_floats(reinterpret_cast<float*>(row_zero));
    delete_floats(row_scale);
  }
  size_t owned_bytes() const override { return packed_bytes + (row_zero ? 8 * m : 0); }
  // Where A is gathered once when the weights span several N blocks.
  size_t workspace_bytes = 0;
  size_t temp_bytes(size_t) const override { return workspace_bytes; }

  void run(const ExecState& state) const override {
    const int8_t* a = reinterpret_cast<const int8_t*>(state.data[x]);
    void* workspace = state.op_temp;
    if (float_output) {
      Qd8F32GemmProblem p;
      describe_gemm(p, m, n, k, a, packed, state.data[out]);
      p.a_zero = row_zero;
      p.a_scale = row_scale;
      p.params = clamp;
      p.a_workspace = workspace;
      p.a_workspace_bytes = workspace_bytes;
      qd8_f32_gemm(*gemm, p, state.kernel_context);
      return;
    }
    Qs8GemmProblem p;
    describe_gemm(p, m, n, k, a, packed, reinterpret_cast<int8_t*>(state.data[out]));
    p.requant = requant;
    p.a_workspace = workspace;
    p.a_workspace_bytes = workspace_bytes;
    qs8_gemm(*gemm, p, state.kernel_context);
  }
};

class Qd8LinearOp final : public CpuOp {
 public:
  uint32_t x, out, residual = 0;
  size_t m, k, n, group = 0;  // group > 0: 4-bit weights
  OutputActivation act;
  uint8_t* packed = nullptr;
  size_t packed_bytes = 0;
  const Qs8GemmConfig* gemm = nullptr;
  const Qb4wGemmConfig* qb4w = nullptr;

  // Linears that read one input (q, k and v) quantize it once: the first
  // keeps its quantized rows in memory of its own (own_rows), and the others
  // read them there (rows_from), after it has run. Otherwise the rows are
  // temp memory.
  uint8_t* own_rows = nullptr;
  const Qd8LinearOp* rows_from = nullptr;

  ~Qd8LinearOp() override {
    delete_bytes(packed);
    delete_bytes(own_rows);
  }
  size_t owned_bytes() const override {
    return packed_bytes + (own_rows != nullptr ? rows_bytes() : 0);
  }
  // The quantized rows and their per-token zero points and scales, then
  // room to gather them once for the int8 GEMM (see Qs8LinearOp).
  size_t rows_bytes() const {
    return slice_bytes<int8_t>(m * k) + slice_bytes<int32_t>(m) + slice_bytes<float>(m);
  }
  bool rows_in_temp() const { return own_rows == nullptr && rows_from == nullptr; }
  size_t workspace_bytes = 0;  // the 8-bit GEMM's (see Qs8LinearOp)
  size_t temp_bytes(size_t) const override {
    return (rows_in_temp() ? rows_bytes() : 0) + workspace_bytes;
  }

  void run(const ExecState& state) const override {
    uint8_t* temp = static_cast<uint8_t*>(state.op_temp);
    uint8_t* rows = rows_from != nullptr ? rows_from->own_rows
                    : own_rows != nullptr ? own_rows
                                          : temp;
    int8_t* a = reinterpret_cast<int8_t*>(rows);
    int32_t* zero = reinterpret_cast<int32_t*>(rows + slice_bytes<int8_t>(m * k));
    float* scale = reinterpret_cast<float*>(reinterpret_cast<uint8_t*>(zero) +
                                            slice_bytes<int32_t>(m));
    if (rows_from == nullptr) {
      qs8_quantize_rows_dynamic(qs8_vcvt_config(), m, k, state.data[x], k, scale, zero, a, k,
                                state.pool);
    }
    uint8_t* workspace = temp + (rows_in_temp() ? rows_bytes() : 0);
    const OutputHook hook{&act, state.data[out], act.residual ? state.data[residual] : nullptr};
    Qd8F32Params clamp;
    clamp.min = act.low;
    clamp.max = act.high;
    if (qb4w != nullptr) {
      Qb4wGemmProblem p;
      describe_gemm(p, m, n, k, a, packed, state.data[out]);
      p.group = group;
      p.a_zero = zero;
      p.a_scale = scale;
      p.params = clamp;
      p.activation = hook.row();
      qd8_f32_qb4w_gemm(*qb4w, p, state.kernel_context);
      return;
    }
    Qd8F32GemmProblem p;
    describe_gemm(p, m, n, k, a, packed, state.data[out]);
    p.a_zero = zero;
    p.a_scale = scale;
    p.params = clamp;
    p.activation = hook.row();
    p.a_workspace = workspace;
    p.a_workspace_bytes = workspace_bytes;
    qd8_f32_gemm(*gemm, p, state.kernel_context);
  }
};

// The rows of x [..., k] and of out [..., n], or false when they differ.
bool linear_rows(const ValueInfo& x, const ValueInfo& out, size_t k, size_t n, size_t* m) {
  if (x.dim < 1 || out.dim < 1 || x.layout != Layout::Plain || out.layout != Layout::Plain ||
      k == 0 || n == 0 || static_cast<size_t>(x.sizes[x.dim - 1]) != k ||
      static_cast<size_t>(out.sizes[out.dim - 1]) != n || x.numel / k != out.numel / n) {
    return false;
  }
  *m = x.numel / k;
  return true;
}

Qd8F32Params float_clamp(const cpu_fb::Op* op) {
  Qd8F32Params clamp;
  BuildContext::clamp_bounds(op, &clamp.min, &clamp.max);
  return clamp;
}

Qs8Weights linear_weights(const int8_t* data, size_t k, size_t n) {
  Qs8Weights w;
  w.data = data;
  w.ks = 1;
  w.kc = k;
  w.n = n;
  w.k_stride = 1;
  w.n_stride = static_cast<ptrdiff_t>(k);
  return w;
}

}  // namespace

Result<CpuOp*> make_qs8_linear(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Qs8Linear* p = op->params_as_Qs8Linear();
  OpValues v;
  if (p == nullptr || !read_op_values(ctx, op, 1, 1, &v) || p->weight() >= ctx.num_values) {
    return Error::InvalidProgram;
  }
  const ValueInfo& x = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  const ValueInfo& w = ctx.values[p->weight()];
  size_t m = 0;
  const size_t n = w.dim == 2 ? static_cast<size_t>(w.sizes[0]) : 0;
  const size_t k = w.dim == 2 ? static_cast<size_t>(w.sizes[1]) : 0;
  const int8_t* weight =
      static_cast<const int8_t*>(typed_constant(ctx, p->weight(), DataType::Int8, n * k));
  const float* w_scale =
      static_cast<const float*>(typed_constant(ctx, p->weight_scales(), DataType::Float32, n));
  const float* bias =
      p->bias() >= 0
          ? static_cast<const float*>(typed_constant(ctx, p->bias(), DataType::Float32, n))
          : nullptr;
  const DataType out_type = p->float_output() ? DataType::Float32 : DataType::Int8;
  const Qs8GemmConfig& gemm = qs8_gemm_config_for(k);
  if (!is_int8(x) || out.dtype != out_type || !linear_rows(x, out, k, n, &m) ||
      weight == nullptr || w_scale == nullptr || (p->bias() >= 0 && bias == nullptr) ||
      p->input_zero() < -128 || p->input_zero() > 127 ||
      (!p->float_output() && !valid_int8_range(p->out_min(), p->out_max(), p->output_zero())) ||
      !(p->input_scale() > 0.0f) || !qs8_gemm_supports(gemm, 1, k)) {
    EMBER_LOG(Error, "cpu backend: Qs8Linear's values do not match its parameters");
    return Error::InvalidProgram;
  }
  Qs8LinearOp* made = new (std::nothrow) Qs8LinearOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->x = v.in[0];
  made->out = v.out;
  made->m = m;
  made->k = k;
  made->n = n;
  made->gemm = &gemm;
  made->float_output = p->float_output();
  made->workspace_bytes = qs8_gemm_a_workspace_bytes(gemm, m, n, 1, k, p->float_output());
  const Qs8Weights weights = linear_weights(weight, k, n);
  if (p->float_output()) {
    made->clamp = float_clamp(op);
    made->packed_bytes = qd8_gemm_packed_size(gemm, 1, k, n);
    made->packed = new_bytes(made->packed_bytes);
    made->row_zero = reinterpret_cast<int32_t*>(new_floats(m));
    made->row_scale = new_floats(m);
    if (made->packed == nullptr || made->row_zero == nullptr || made->row_scale == nullptr) {
      delete made;
      return Error::MemoryAllocationFailed;
    }
    for (size_t i = 0; i < m; ++i) {
      made->row_zero[i] = p->input_zero();
      made->row_scale[i] = p->input_scale();
    }
    qd8_gemm_pack_weights(gemm, weights, w_scale, bias, made->packed);
    return static_cast<CpuOp*>(made);
  }
  Qs8Channels channels;
  if (!channels.fill(n, p->input_scale(), w_scale, bias, p->output_scale())) {
    delete made;
    EMBER_LOG(Error, "cpu backend: Qs8Linear has bad scales");
    return Error::InvalidProgram;
  }
  made->requant.zero = p->output_zero();
  made->requant.min = p->out_min();
  made->requant.max = p->out_max();
  made->packed_bytes = qs8_gemm_packed_size(gemm, 1, k, n);
  made->packed = new_bytes(made->packed_bytes);
  if (made->packed == nullptr) {
    delete made;
    return Error::MemoryAllocationFailed;
  }
  qs8_gemm_pack_weights(gemm, weights, channels.bias, p->input_zero(), channels.scale,
                        made->packed);
  return static_cast<CpuOp*>(made);
}

Result<CpuOp*> make_qd8_linear(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Qd8Linear* p = op->params_as_Qd8Linear();
  OpValues v;
  if (p == nullptr || !read_op_values(ctx, op, 1, 2, &v) || !residual_fits(ctx, v) ||
      p->weight() >= ctx.num_values || (p->bits() != 8 && p->bits() != 4)) {
    return Error::InvalidProgram;
  }
  const ValueInfo& x = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  const ValueInfo& w = ctx.values[p->weight()];
  const bool four_bit = p->bits() == 4;
  const size_t n = w.dim == 2 ? static_cast<size_t>(w.sizes[0]) : 0;
  const size_t k = w.dim == 2 ? static_cast<size_t>(w.sizes[1]) * (four_bit ? 2 : 1) : 0;
  const size_t group = four_bit && p->group_size() > 0 ? static_cast<size_t>(p->group_size()) : 0;
  size_t m = 0;
  const auto fail = [](const char* why) -> Result<CpuOp*> {
    EMBER_LOG(Error, "cpu backend: Qd8Linear: %s", why);
    return Error::InvalidProgram;
  };
  if (x.dtype != DataType::Float32 || out.dtype != DataType::Float32 ||
      !linear_rows(x, out, k, n, &m) || (four_bit && (group == 0 || k % group != 0))) {
    return fail("values do not match the weights");
  }
  const int8_t* weight =
      static_cast<const int8_t*>(typed_constant(ctx, p->weight(), DataType::Int8, w.numel));
  const float* w_scale = static_cast<const float*>(
      typed_constant(ctx, p->weight_scales(), DataType::Float32, four_bit ? n * (k / group) : n));
  const float* bias =
      p->bias() >= 0
          ? static_cast<const float*>(typed_constant(ctx, p->bias(), DataType::Float32, n))
          : nullptr;
  if (weight == nullptr || w_scale == nullptr || (p->bias() >= 0 && bias == nullptr)) {
    return fail("bad weights, scales or bias");
  }
  Qd8LinearOp* made = new (std::nothrow) Qd8LinearOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->x = v.in[0];
  made->out = v.out;
  made->residual = v.num_in > 1 ? v.in[1] : 0;
  made->m = m;
  made->k = k;
  made->n = n;
  if (!made->act.read(op, v.num_in > 1)) {
    delete made;
    return Error::InvalidProgram;
  }
  if (four_bit) {
    made->qb4w = &qb4w_gemm_config();
    made->group = group;
    if (!qb4w_gemm_supports(*made->qb4w, k, group)) {
      delete made;
      return fail("the 4-bit GEMM does not take this K and group size");
    }
    // The nibbles as int8 values for packing (init only; the packed panels
    // keep them 4-bit).
    int8_t* values = reinterpret_cast<int8_t*>(new_bytes(n * k));
    made->packed_bytes = qb4w_gemm_packed_size(*made->qb4w, k, n, group);
    made->packed = new_bytes(made->packed_bytes);
    if (values == nullptr || made->packed == nullptr) {
      delete_bytes(reinterpret_cast<uint8_t*>(values));
      delete made;
      return Error::MemoryAllocationFailed;
    }
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(weight);
    for (size_t i = 0; i < n * k / 2; ++i) {
      values[2 * i] = static_cast<int8_t>((bytes[i] & 0xF) - 8);
      values[2 * i + 1] = static_cast<int8_t>((bytes[i] >> 4) - 8);
    }
    Qb4wWeights weights;
    weights.data = values;
    weights.k = k;
    weights.n = n;
    weights.k_stride = 1;
    weights.n_stride = static_cast<ptrdiff_t>(k);
    weights.group = group;
    weights.scale = w_scale;
    const bool packed = qb4w_gemm_pack_weights(*made->qb4w, weights, bias, made->packed);
    delete_bytes(reinterpret_cast<uint8_t*>(values));
    if (!packed) {
      delete made;
      return fail("the 4-bit weights do not pack");
    }
    return static_cast<CpuOp*>(made);
  }
  made->gemm = &qs8_gemm_config_for(k);
  if (!qs8_gemm_supports(*made->gemm, 1, k)) {
    delete made;
    return fail("K is too long for the int8 GEMM");
  }
  made->packed_bytes = qd8_gemm_packed_size(*made->gemm, 1, k, n);
  made->packed = new_bytes(made->packed_bytes);
  if (made->packed == nullptr) {
    delete made;
    return Error::MemoryAllocationFailed;
  }
  made->workspace_bytes = qs8_gemm_a_workspace_bytes(*made->gemm, m, n, 1, k, true);
  qd8_gemm_pack_weights(*made->gemm, linear_weights(weight, k, n), w_scale, bias, made->packed);
  return static_cast<CpuOp*>(made);
}

bool share_qd8_rows(CpuOp* source, CpuOp* follower) {
  // Both are Qd8Linear ops (the caller knows their kinds; no RTTI).
  Qd8LinearOp* first = static_cast<Qd8LinearOp*>(source);
  Qd8LinearOp* next = static_cast<Qd8LinearOp*>(follower);
  if (first == next || first->x != next->x || first->m != next->m || first->k != next->k ||
      next->rows_from != nullptr || next->own_rows != nullptr) {
    return false;
  }
  while (first->rows_from != nullptr) first = const_cast<Qd8LinearOp*>(first->rows_from);
  if (first->own_rows == nullptr) {
    first->own_rows = new_bytes(first->rows_bytes());
    if (first->own_rows == nullptr) return false;
  }
  next->rows_from = first;
  return true;
}

}  // namespace ember::cpu
