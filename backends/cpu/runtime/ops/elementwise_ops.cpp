// Elementwise ops: Binary (add, sub, mul, div of two values or a value and a
// number, with broadcasting) and Unary (activations), each with an optional
// fused clamp, split across the pool in contiguous chunks.
#include <cmath>
#include <new>

#include "backends/cpu/runtime/ops/op_util.h"

namespace ember::cpu {
namespace {

constexpr int64_t kMinChunk = 4096;  // elements: below this a thread costs more than it saves

template <typename Fn>
inline void apply(cpu_fb::BinaryOp op, Fn&& each) {
  switch (op) {
    case cpu_fb::BinaryOp::Add: each([](float a, float b) { return a + b; }); break;
    case cpu_fb::BinaryOp::Sub: each([](float a, float b) { return a - b; }); break;
    case cpu_fb::BinaryOp::Mul: each([](float a, float b) { return a * b; }); break;
    case cpu_fb::BinaryOp::Div: each([](float a, float b) { return a / b; }); break;
  }
}

inline float clamp(float v, float low, float high) { return v < low ? low : (v > high ? high : v); }

// How b lines up with the output: the same elements, one number, a vector
// repeating every `inner` elements (per channel in NHWC, a trailing-dim bias
// in plain), or a general broadcast through strides.
enum class Broadcast : uint8_t { Same, Scalar, Inner, Strided };

class BinaryOp final : public CpuOp {
 public:
  cpu_fb::BinaryOp op;
  uint32_t a, b, out;
  Broadcast broadcast;
  float scalar = 0;
  float low, high;
  int64_t numel = 0;
  int64_t inner = 1;  // Inner: b has `inner` values
  // Strided: the output's sizes and b's strides per output dim (0 where b broadcasts).
  int dim = 0;
  int64_t sizes[kMaxDims] = {};
  int64_t b_strides[kMaxDims] = {};

  void run(const ExecState& state) const override {
    const float* pa = state.data[a];
    const float* pb = broadcast == Broadcast::Scalar ? nullptr : state.data[b];
    float* po = state.data[out];
    apply(op, [&](auto f) {
      parallel_for(state.pool, numel, kMinChunk, [&](int64_t begin, int64_t end) {
        switch (broadcast) {
          case Broadcast::Same:
            for (int64_t i = begin; i < end; ++i) po[i] = clamp(f(pa[i], pb[i]), low, high);
            break;
          case Broadcast::Scalar:
            for (int64_t i = begin; i < end; ++i) po[i] = clamp(f(pa[i], scalar), low, high);
            break;
          case Broadcast::Inner:
            for (int64_t i = begin; i < end; ++i) {
              po[i] = clamp(f(pa[i], pb[i % inner]), low, high);
            }
            break;
          case Broadcast::Strided:
            for (int64_t i = begin; i < end; ++i) {
              int64_t rest = i, offset = 0;
              for (int d = dim - 1; d >= 0; --d) {
                offset += (rest % sizes[d]) * b_strides[d];
                rest /= sizes[d];
              }
              po[i] = clamp(f(pa[i], pb[offset]), low, high);
            }
            break;
        }
      });
    });
  }
};

float gelu(float x) { return 0.5f * x * (1.0f + std::erf(x * 0.70710678118654752f)); }
float gelu_tanh(float x) {
  const float inner = 0.7978845608028654f * (x + 0.044715f * x * x * x);
  return 0.5f * x * (1.0f + std::tanh(inner));
}
float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
float hardswish(float x) { return x * clamp(x + 3.0f, 0.0f, 6.0f) / 6.0f; }

class UnaryOp final : public CpuOp {
 public:
  cpu_fb::UnaryOp op;
  uint32_t in, out;
  float low, high;
  int64_t numel;

  void run(const ExecState& state) const override {
    const float* x = state.data[in];
    float* y = state.data[out];
    parallel_for(state.pool, numel, kMinChunk, [&](int64_t begin, int64_t end) {
      switch (op) {
        case cpu_fb::UnaryOp::Relu:
        case cpu_fb::UnaryOp::Clamp:
          for (int64_t i = begin; i < end; ++i) {
            const float v = x[i];
            y[i] = v < low ? low : (v > high ? high : v);  // NaN stays NaN
          }
          return;
        case cpu_fb::UnaryOp::Gelu: map(x, y, begin, end, gelu); return;
        case cpu_fb::UnaryOp::GeluTanh: map(x, y, begin, end, gelu_tanh); return;
        case cpu_fb::UnaryOp::Silu: map(x, y, begin, end, [](float v) { return v * sigmoid(v); }); return;
        case cpu_fb::UnaryOp::Sigmoid: map(x, y, begin, end, sigmoid); return;
        case cpu_fb::UnaryOp::Tanh: map(x, y, begin, end, [](float v) { return std::tanh(v); }); return;
        case cpu_fb::UnaryOp::HardSwish: map(x, y, begin, end, hardswish); return;
        default: return;  // refused at init
      }
    });
  }

 private:
  template <typename Fn>
  void map(const float* x, float* y, int64_t begin, int64_t end, Fn fn) const {
    for (int64_t i = begin; i < end; ++i) y[i] = clamp(fn(x[i]), low, high);
  }
};

// Whether plain b, right-aligned, equals out's trailing dims with only 1s before.
bool trailing(const ValueInfo& b, const ValueInfo& out) {
  if (b.layout != Layout::Plain || out.layout != Layout::Plain || b.dim > out.dim) return false;
  int first = 0;
  while (first < b.dim && b.sizes[first] == 1) ++first;
  for (int d = first; d < b.dim; ++d) {
    if (b.sizes[d] != out.sizes[out.dim - b.dim + d]) return false;
  }
  return true;
}

}  // namespace

Result<CpuOp*> make_binary(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Binary* params = op->params_as_Binary();
  OpValues v;
  const size_t inputs = params != nullptr && params->has_scalar() ? 1 : 2;
  if (params == nullptr || !read_op_values(ctx, op, inputs, inputs, &v)) return Error::InvalidProgram;
  if (params->op() > cpu_fb::BinaryOp::MAX) return Error::InvalidProgram;
  const ValueInfo& a = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  if (!same_sizes(a, out) || a.layout != out.layout) return Error::InvalidProgram;
  BinaryOp* made = new (std::nothrow) BinaryOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->op = params->op();
  made->a = v.in[0];
  made->out = v.out;
  made->numel = static_cast<int64_t>(out.numel);
  BuildContext::clamp_bounds(op, &made->low, &made->high);
  if (inputs == 1) {
    made->broadcast = Broadcast::Scalar;
    made->scalar = params->scalar();
    return static_cast<CpuOp*>(made);
  }
  made->b = v.in[1];
  const ValueInfo& b = ctx.values[v.in[1]];
  bool ok = true;
  if (same_sizes(b, out) && b.layout == out.layout) {
    made->broadcast = Broadcast::Same;
  } else if (b.numel == 1) {
    made->broadcast = Broadcast::Inner;
    made->inner = 1;
  } else if (out.layout == Layout::NHWC) {
    // Only a per-channel operand ([C], [C, 1, 1] or [1, C, 1, 1]) meets an NHWC output.
    made->broadcast = Broadcast::Inner;
    made->inner = out.sizes[1];
    ok = b.layout == Layout::Plain && b.numel == static_cast<size_t>(out.sizes[1]);
  } else if (trailing(b, out)) {
    // A bias over the last dims ([N] against [M, N]): repeats every b.numel.
    made->broadcast = Broadcast::Inner;
    made->inner = static_cast<int64_t>(b.numel);
  } else {
    // Plain: align b's dims to the right of out's and read it through strides.
    made->broadcast = Broadcast::Strided;
    made->dim = out.dim;
    ok = b.layout == Layout::Plain && b.dim <= out.dim;
    int64_t stride = 1;
    for (int d = out.dim - 1; ok && d >= 0; --d) {
      const int bd = d - (out.dim - b.dim);
      made->sizes[d] = out.sizes[d];
      const int64_t size = bd >= 0 ? b.sizes[bd] : 1;
      ok = size == 1 || size == out.sizes[d];
      made->b_strides[d] = size == 1 ? 0 : stride;
      stride *= size;
    }
  }
  if (!ok) {
    delete made;
    return Error::InvalidProgram;
  }
  return static_cast<CpuOp*>(made);
}

Result<CpuOp*> make_unary(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Unary* params = op->params_as_Unary();
  OpValues v;
  if (params == nullptr || !read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  if (!same_sizes(in, out) || in.layout != out.layout) return Error::InvalidProgram;
  switch (params->op()) {
    case cpu_fb::UnaryOp::Relu: case cpu_fb::UnaryOp::Clamp: case cpu_fb::UnaryOp::Gelu:
    case cpu_fb::UnaryOp::GeluTanh: case cpu_fb::UnaryOp::Silu: case cpu_fb::UnaryOp::Sigmoid:
    case cpu_fb::UnaryOp::Tanh: case cpu_fb::UnaryOp::HardSwish:
      break;
    default:
      return Error::NotSupported;
  }
  UnaryOp* made = new (std::nothrow) UnaryOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->op = params->op();
  made->in = v.in[0];
  made->out = v.out;
  made->numel = static_cast<int64_t>(out.numel);
  BuildContext::clamp_bounds(op, &made->low, &made->high);
  if (params->op() == cpu_fb::UnaryOp::Relu && made->low == -INFINITY) made->low = 0.0f;
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
