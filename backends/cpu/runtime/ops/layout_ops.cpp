// Layout operations: ToLayout (NCHW <-> NHWC at the edges of convolution
// chains) and Reshape (a copy: same elements, other sizes).
#include <cstring>
#include <new>

#include "backends/cpu/runtime/ops/op_util.h"

namespace ember::cpu {
namespace {

class ToLayoutOp final : public CpuOp {
 public:
  ToLayoutOp(uint32_t in, uint32_t out, const ValueInfo& info, bool to_nhwc)
      : in_(in), out_(out), n_(info.sizes[0]), c_(info.sizes[1]),
        hw_(static_cast<int64_t>(info.sizes[2]) * info.sizes[3]), to_nhwc_(to_nhwc) {}

  void run(const ExecState& state) const override {
    const float* src = state.data[in_];
    float* dst = state.data[out_];
    const int64_t c = c_, hw = hw_;
    const bool to_nhwc = to_nhwc_;
    // Blocks of 32 pixels x 32 channels keep both sides' lines in cache.
    constexpr int64_t kBlock = 32;
    const int64_t pixel_blocks = (hw + kBlock - 1) / kBlock;
    parallel_for(state.pool, n_ * pixel_blocks, 4, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) {
        const int64_t n = t / pixel_blocks;
        const int64_t p0 = (t % pixel_blocks) * kBlock;
        const int64_t p1 = p0 + kBlock < hw ? p0 + kBlock : hw;
        const float* s = src + n * c * hw;
        float* d = dst + n * c * hw;
        for (int64_t c0 = 0; c0 < c; c0 += kBlock) {
          const int64_t c1 = c0 + kBlock < c ? c0 + kBlock : c;
          for (int64_t p = p0; p < p1; ++p) {
            for (int64_t ch = c0; ch < c1; ++ch) {
              if (to_nhwc) {
                d[p * c + ch] = s[ch * hw + p];
              } else {
                d[ch * hw + p] = s[p * c + ch];
              }
            }
          }
        }
      }
    });
  }

 private:
  uint32_t in_, out_;
  int64_t n_, c_, hw_;
  bool to_nhwc_;
};

class CopyOp final : public CpuOp {
 public:
  CopyOp(uint32_t in, uint32_t out, size_t numel) : in_(in), out_(out), numel_(numel) {}
  void run(const ExecState& state) const override {
    if (state.data[in_] != state.data[out_]) {
      std::memcpy(state.data[out_], state.data[in_], numel_ * sizeof(float));
    }
  }

 private:
  uint32_t in_, out_;
  size_t numel_;
};

}  // namespace

Result<CpuOp*> make_to_layout(const BuildContext& ctx, const cpu_fb::Op* op) {
  OpValues v;
  if (!read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  if (!same_sizes(in, out) || in.dim != 4 || in.layout == out.layout) return Error::InvalidProgram;
  CpuOp* made = new (std::nothrow) ToLayoutOp(v.in[0], v.out, in, out.layout == Layout::NHWC);
  if (made == nullptr) return Error::MemoryAllocationFailed;
  return made;
}

Result<CpuOp*> make_reshape(const BuildContext& ctx, const cpu_fb::Op* op) {
  OpValues v;
  if (!read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& in = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  if (in.numel != out.numel || in.layout != Layout::Plain || out.layout != Layout::Plain) {
    return Error::InvalidProgram;
  }
  CpuOp* made = new (std::nothrow) CopyOp(v.in[0], v.out, in.numel);
  if (made == nullptr) return Error::MemoryAllocationFailed;
  return made;
}

}  // namespace ember::cpu
