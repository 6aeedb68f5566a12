// MatMul: a batched product of two runtime values on the f32 GEMM family.
// Each operand is read in place through its strides when its rows are
// contiguous (any row and batch stride, 0 for a broadcast batch); otherwise
// (a transposed operand) it is first copied dense into op temp memory.
#include <cmath>
#include <cstring>
#include <new>

#include "backends/cpu/runtime/ops/op_util.h"
#include "backends/cpu/runtime/ops/view_util.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"

namespace ember::cpu {
namespace {

using kernels::optimized::F32GemmProblem;
using kernels::optimized::f32_gemm;
using kernels::optimized::f32_gemm_config;

// One operand: [batch, rows, cols] at offset + b * s[0] + r * s[1] + c * s[2].
struct Operand {
  uint32_t value;
  int64_t offset;
  int64_t strides[3];
  int64_t rows, cols;
  int64_t batches;  // 1 when broadcast over the batch (stride 0)
  bool copy;        // rows not contiguous: made dense in temp first
  size_t temp_floats() const { return copy ? static_cast<size_t>(batches * rows * cols) : 0; }
};

class MatMulOp final : public CpuOp {
 public:
  Operand a, b;
  uint32_t out;
  int64_t batch, m, k, n;
  float low = -INFINITY, high = INFINITY;  // a fused relu or clamp (mm)

  size_t temp_bytes(size_t) const override {
    return (a.temp_floats() + b.temp_floats()) * sizeof(float) + 64;
  }

  void run(const ExecState& state) const override {
    float* temp = static_cast<float*>(state.op_temp);
    size_t lda, ldb, a_batch, b_batch;
    const float* pa = prepare(state, a, temp, &lda, &a_batch);
    const float* pb = prepare(state, b, temp + a.temp_floats(), &ldb, &b_batch);
    F32GemmProblem p;
    p.batch = static_cast<size_t>(batch);
    p.m = static_cast<size_t>(m);
    p.n = static_cast<size_t>(n);
    p.k = static_cast<size_t>(k);
    p.a = pa;
    p.lda = lda;
    p.a_batch_stride = a_batch;
    p.b = pb;
    p.ldb = ldb;
    p.b_batch_stride = b_batch;
    p.c = state.data[out];
    p.ldc = static_cast<size_t>(n);
    p.c_batch_stride = static_cast<size_t>(m * n);
    f32_gemm(f32_gemm_config(), p, state.kernel_context);
    clamp_in_place(state.data[out], static_cast<size_t>(batch * m * n), low, high);
  }

 private:
  // The operand's data with contiguous rows: in place, or copied into dst.
  static const float* prepare(const ExecState& state, const Operand& o, float* dst, size_t* ld,
                              size_t* batch_stride) {
    const float* src = state.data[o.value] + o.offset;
    if (!o.copy) {
      *ld = static_cast<size_t>(o.strides[1]);
      *batch_stride = static_cast<size_t>(o.strides[0]);
      return src;
    }
    // Row r of the copy reads column-wise from the source: for a transposed
    // operand consecutive rows read neighbouring elements, which stay cached.
    const int64_t total_rows = o.batches * o.rows;
    parallel_for(state.pool, total_rows, 64, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) {
        const float* s = src + (t / o.rows) * o.strides[0] + (t % o.rows) * o.strides[1];
        float* d = dst + t * o.cols;
        for (int64_t c = 0; c < o.cols; ++c) d[c] = s[c * o.strides[2]];
      }
    });
    *ld = static_cast<size_t>(o.cols);
    *batch_stride = o.batches > 1 ? static_cast<size_t>(o.rows * o.cols) : 0;
    return dst;
  }
};

// Fills `o` for value `id` read as [batch, rows, cols]: through `strides`
// when given, else dense with a batch of 1 (broadcast) or `batch`.
bool read_operand(const BuildContext& ctx, uint32_t id, const flatbuffers::Vector<int64_t>* strides,
                  int64_t offset, int64_t batch, int64_t rows, int64_t cols, Operand* o) {
  o->value = id;
  o->rows = rows;
  o->cols = cols;
  if (!matmul_operand(ctx.values[id], strides, offset, batch, rows, cols, &o->offset, o->strides)) {
    return false;
  }
  o->batches = o->strides[0] == 0 ? 1 : batch;
  o->copy = o->strides[2] != 1 && cols > 1;
  if (cols <= 1) o->strides[2] = 1;
  return true;
}

}  // namespace

Result<CpuOp*> make_matmul(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::MatMul* params = op->params_as_MatMul();
  OpValues v;
  if (params == nullptr || !read_op_values(ctx, op, 2, 2, &v)) return Error::InvalidProgram;
  const ValueInfo& out = ctx.values[v.out];
  if (out.dtype != DataType::Float32 || out.layout != Layout::Plain || out.dim < 2) {
    return refuse("a matmul writes a plain float value of rank 2 or more");
  }
  const int64_t m = out.sizes[out.dim - 2], n = out.sizes[out.dim - 1];
  const int64_t batch = m * n > 0 ? static_cast<int64_t>(out.numel) / (m * n) : 0;
  int64_t k = params->k();
  if (params->a_strides() == nullptr) {
    const ValueInfo& a = ctx.values[v.in[0]];
    k = a.dim >= 1 ? a.sizes[a.dim - 1] : -1;
  }
  if (k < 0 || k > (int64_t{1} << 31)) {
    return refuse("a matmul over k = %lld", static_cast<long long>(k));
  }
  MatMulOp* made = new (std::nothrow) MatMulOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->out = v.out;
  made->batch = batch;
  made->m = m;
  made->k = k;
  made->n = n;
  BuildContext::clamp_bounds(op, &made->low, &made->high);
  if (batch == 0 || k == 0) {
    // Nothing to read: an empty output, or zeros (f32_gemm writes them).
    made->a = Operand{v.in[0], 0, {0, 0, 1}, m, k, 1, false};
    made->b = Operand{v.in[1], 0, {0, 0, 1}, k, n, 1, false};
    return static_cast<CpuOp*>(made);
  }
  if (!read_operand(ctx, v.in[0], params->a_strides(), params->a_offset(), batch, m, k, &made->a) ||
      !read_operand(ctx, v.in[1], params->b_strides(), params->b_offset(), batch, k, n, &made->b)) {
    delete made;
    return refuse("a matmul operand is not a plain float view inside its value (batch %lld, "
                  "m %lld, k %lld, n %lld)", static_cast<long long>(batch),
                  static_cast<long long>(m), static_cast<long long>(k), static_cast<long long>(n));
  }
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
