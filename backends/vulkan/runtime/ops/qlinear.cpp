// QLinear: x @ W^T with W in Q4_1 or Q8_0 blocks (kernels/portable/llm_ops.h
// has the format: panels of 16 rows for the CPU's SIMD lanes), repacked once
// at init for qlinear.comp: one invocation per output row, so neighbouring
// invocations read neighbouring words (the block scales as [nb][n] words,
// the codes as [nb][words per block][n]). Same size as the blocks.
#include "backends/cpu/runtime/ops/op_util.h"
#include "backends/vulkan/runtime/ops/ops.h"

namespace ember::vulkan {
namespace {

constexpr uint64_t kPanelRows = 16;

uint64_t block_bytes(int bits) { return bits == 4 ? 20 : (bits == 8 ? 34 : 0); }
uint64_t words_per_block(int bits) { return bits == 4 ? 4 : 8; }

// dims: bits, n, k.
void pack_blocks(const PackJob& job, uint8_t* dst) {
  const int bits = static_cast<int>(job.dims[0]);
  const uint64_t n = static_cast<uint64_t>(job.dims[1]), nb = static_cast<uint64_t>(job.dims[2]) / 32;
  const uint64_t block = block_bytes(bits), words = words_per_block(bits);
  uint32_t* scales = reinterpret_cast<uint32_t*>(dst);
  uint32_t* codes = scales + nb * n;
  for (uint64_t r = 0; r < n; ++r) {
    const uint64_t first = r - r % kPanelRows, lane = r % kPanelRows;
    const uint64_t h = n - first < kPanelRows ? n - first : kPanelRows;
    for (uint64_t b = 0; b < nb; ++b) {
      const uint8_t* at = job.src + first * nb * block + b * h * block;
      uint32_t d = static_cast<uint32_t>(at[2 * lane]) | (static_cast<uint32_t>(at[2 * lane + 1]) << 8);
      if (bits == 4) {
        const uint32_t m = static_cast<uint32_t>(at[2 * h + 2 * lane]) |
                           (static_cast<uint32_t>(at[2 * h + 2 * lane + 1]) << 8);
        d |= m << 16;
        for (uint64_t c = 0; c < 4; ++c) {
          const uint8_t* q = at + 4 * h + c * 4 * h + 4 * lane;
          uint32_t word = 0;
          for (uint32_t i = 0; i < 4; ++i) {
            word |= static_cast<uint32_t>(q[i] & 0x0F) << (4 * i);
            word |= static_cast<uint32_t>(q[i] >> 4) << (4 * (4 + i));
          }
          codes[(b * words + c) * n + r] = word;
        }
      } else {
        for (uint64_t c = 0; c < 8; ++c) {
          const uint8_t* q = at + 2 * h + c * 4 * h + 4 * lane;
          codes[(b * words + c) * n + r] = static_cast<uint32_t>(q[0]) |
                                           (static_cast<uint32_t>(q[1]) << 8) |
                                           (static_cast<uint32_t>(q[2]) << 16) |
                                           (static_cast<uint32_t>(q[3]) << 24);
        }
      }
      scales[b * n + r] = d;
    }
  }
}

}  // namespace

Error encode_qlinear(Encoder& enc, const cpu_fb::Op* op) {
  const cpu_fb::QLinear* params = op->params_as_QLinear();
  cpu::OpValues v;
  if (params == nullptr || !cpu::read_op_values(enc.build(), op, 1, 1, &v) ||
      params->weight() >= enc.build().num_values ||
      enc.value(params->weight()).kind != ValueKind::Constant) {
    return Error::InvalidProgram;
  }
  const ValueInfo& x = enc.value(v.in[0]);
  const ValueInfo& out = enc.value(v.out);
  const uint64_t block = block_bytes(params->bits());
  if (block == 0 || params->n() <= 0 || params->k() <= 0 || params->k() % 32 != 0) {
    EMBER_LOG(Error, "vulkan backend: QLinear has bad parameters");
    return Error::InvalidProgram;
  }
  const uint64_t n = static_cast<uint64_t>(params->n()), k = static_cast<uint64_t>(params->k());
  if (value_bytes(enc.value(params->weight())) < n * (k / 32) * block || x.dim < 1 ||
      x.layout != Layout::Plain || out.layout != Layout::Plain ||
      x.dtype != DataType::Float32 || out.dtype != DataType::Float32 ||
      static_cast<uint64_t>(x.sizes[x.dim - 1]) != k || out.dim < 1 ||
      static_cast<uint64_t>(out.sizes[out.dim - 1]) != n || x.numel / k != out.numel / n) {
    EMBER_LOG(Error, "vulkan backend: QLinear's values do not match its weights");
    return Error::InvalidProgram;
  }
  const uint64_t nb = k / 32, m = x.numel / k;
  Result<BufferRef> w = enc.packed(params->weight(), nb * n * (1 + words_per_block(params->bits())) * 4,
                                   pack_blocks, {params->bits(), params->n(), params->k()});
  if (!w.ok()) return w.error();
  Result<BufferRef> rx = enc.ref(v.in[0]);
  Result<BufferRef> ry = enc.ref(v.out);
  if (!rx.ok() || !ry.ok()) return Error::InvalidProgram;
  if (m == 0) return Error::Ok;
  Params p;
  p.u(m).u(n).u(k);
  return enc.dispatch(params->bits() == 4 ? Shader::qlinear_q4 : Shader::qlinear_q8,
                      {rx.get(), w.get(), ry.get()}, p, groups_for(n, 64), groups_for(m, 4));
}

}  // namespace ember::vulkan
