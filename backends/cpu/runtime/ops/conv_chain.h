// A chain of convolutions run band by band: [pointwise expansion ->]
// depthwise -> pointwise projection, MobileNetV2's and EfficientNet's
// inverted residual block. Run op by op, the expanded activation (6x the
// block's channels, 4.8 MB at 112x112x96) goes to memory and is read back by
// the depthwise convolution, whose output goes to memory again for the
// projection: at these sizes the three convolutions wait on memory, not on
// arithmetic. Run as a chain, each thread walks its band of output rows a
// few rows at a time: the expansion of the input rows those need (kept in a
// ring of rows, each row computed once), the depthwise convolution of them,
// and the projection of its rows, all in the thread's cache.
//
// The chain runs the same kernels on the same data as the three ops would,
// so it gives the same bits; init builds it from ops it has already built
// (fuse_conv_chain), and traced runs still run the ops one by one so that
// each reports its own output.
#pragma once

#include "backends/cpu/runtime/ops/conv_op.h"

namespace ember::cpu {

class ConvChainOp final : public CpuOp {
 public:
  void run(const ExecState& state) const override;
  size_t temp_bytes(size_t num_threads) const override;

 private:
  friend ConvChainOp* fuse_conv_chain(const ConvOp*, const ConvOp*, const ConvOp*, size_t);
  struct Band;

  // Floats of each part of one thread's temp memory.
  size_t ring_floats() const;
  size_t depthwise_floats() const { return rows_per_step * dw_row_floats(); }
  size_t dw_row_floats() const {
    return static_cast<size_t>(depthwise->s.out_w * depthwise->s.out_c);
  }
  size_t thread_bytes() const;
  // Runs output rows [begin, end) of the whole batch with one thread's temp.
  void run_band(const ExecState& state, int64_t begin, int64_t end, void* temp) const;

  const ConvOp* expand = nullptr;  // null: the depthwise convolution reads the input
  const ConvOp* depthwise = nullptr;
  const ConvOp* project = nullptr;
  int64_t rows_per_step = 1;  // output rows per step of a band
  int64_t ring_rows = 0;      // expanded rows one step reads, at most
  size_t max_threads = 1;     // bands a run may use: the temp memory holds as many
};

// The chain of these ops (expand may be null) when each reads the one before
// it, they run on the kernels the chain calls, and running them as a chain
// keeps data in cache that would otherwise go to memory; else null (also
// without memory). The ops stay the caller's and must outlive the chain;
// the caller checks that only the next op reads each op's output. Runs
// split over up to `threads` threads.
ConvChainOp* fuse_conv_chain(const ConvOp* expand, const ConvOp* depthwise,
                             const ConvOp* project, size_t threads);

}  // namespace ember::cpu
