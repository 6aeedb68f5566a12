// Qs8Conv2d: a statically quantized convolution on channels-last int8 data,
// weights packed once at init with their column sums, int32 bias and
// per-channel requantization scales: a depthwise one on qs8-dwconv, a 1x1
// stride-1 unpadded one as one GEMM over the pixels (qs8-gemm), any other on
// the indirect qs8 GEMM (per output pixel and tap a pointer to the input
// pixel's channels; padding points at a row of the input's zero point),
// except one of few input channels (an RGB stem): 3 channels a tap would
// leave the GEMM's k-groups mostly padding, so each run copies its input
// into a zero-point-padded image (C <= 4: a small copy) whose kernel rows
// are runs of kw * C bytes, kh taps for the indirect GEMM.
#include <new>

#include "backends/cpu/runtime/ops/qs8_util.h"
#include "kernels/optimized/qs8-dwconv/qs8_dwconv.h"
#include "kernels/optimized/qs8-gemm/qs8_gemm.h"

namespace ember::cpu {
namespace {

using namespace kernels::optimized;  // NOLINT: the qs8 families' names

class Qs8ConvOp final : public CpuOp {
 public:
  enum class Path { Pointwise, Indirect, Depthwise, Rows };

  uint32_t x, out;
  Path path;
  size_t pixels, in_c, out_c, taps, groups;
  Qs8RequantParams requant;
  uint8_t* packed = nullptr;
  size_t packed_bytes = 0;  // all groups
  int8_t* zero = nullptr;   // in_c bytes of the input's zero point
  const int8_t** indirection = nullptr;
  size_t indirection_size = 0;
  const Qs8GemmConfig* gemm = nullptr;
  const Qs8DwconvConfig* dw = nullptr;
  Qs8DwconvShape dw_shape{};
  Qs8ConvShape shape{};  // Rows
  int8_t a_zero = 0;

  ~Qs8ConvOp() override {
    delete_bytes(packed);
    delete_bytes(reinterpret_cast<uint8_t*>(zero));
    delete[] indirection;
  }
  size_t owned_bytes() const override {
    return packed_bytes + in_c + indirection_size * sizeof(int8_t*);
  }
  // Rows: the padded input; then, for the GEMM paths, room to gather A once
  // when the weights span several N blocks (qs8_gemm_a_workspace_bytes).
  size_t padded_bytes() const {
    return path == Path::Rows ? (shape.batch * padded_h() * padded_w() * in_c + 63) / 64 * 64
                              : 0;
  }
  size_t workspace_bytes = 0;
  size_t temp_bytes(size_t) const override { return padded_bytes() + workspace_bytes; }
  // Set once the path is known.
  void size_workspace() {
    switch (path) {
      case Path::Pointwise:
        workspace_bytes = qs8_gemm_a_workspace_bytes(*gemm, pixels, out_c, 1, in_c, false);
        break;
      case Path::Indirect:
        workspace_bytes = qs8_gemm_a_workspace_bytes(*gemm, pixels, out_c / groups, taps,
                                                     in_c / groups, false);
        break;
      case Path::Rows:
        workspace_bytes =
            qs8_gemm_a_workspace_bytes(*gemm, pixels, out_c, shape.kh, shape.kw * in_c, false);
        break;
      case Path::Depthwise: workspace_bytes = 0; break;
    }
  }

  // Rows: the input copied into a zero-point-padded image, so that each
  // kernel row of a pixel's taps is one run of kw * C bytes.
  size_t padded_h() const { return shape.in_h + 2 * shape.pad_h; }
  size_t padded_w() const { return shape.in_w + 2 * shape.pad_w; }
  void pad_input(const int8_t* in, int8_t* padded, ThreadPool* pool) const {
    const size_t hp = padded_h(), row = padded_w() * in_c;
    const size_t edge = shape.pad_w * in_c, inner = shape.in_w * in_c;
    parallel_for(pool, static_cast<int64_t>(shape.batch * hp), 32, [&](int64_t begin, int64_t end) {
      for (size_t r = static_cast<size_t>(begin); r < static_cast<size_t>(end); ++r) {
        int8_t* dst = padded + r * row;
        const size_t y = r % hp;
        if (y < shape.pad_h || y >= shape.pad_h + shape.in_h) {
          std::memset(dst, a_zero, row);
          continue;
        }
        std::memset(dst, a_zero, edge);
        std::memcpy(dst + edge, in + ((r / hp) * shape.in_h + y - shape.pad_h) * inner, inner);
        std::memset(dst + edge + inner, a_zero, edge);
      }
    });
  }

  // The depthwise path takes a pad of the input's zero point: its taps in
  // the padding read `zero`, which holds that code (an indirection buffer
  // rebuilt for x, or the direct kernel's own bounds).
  bool absorb_pad(uint32_t x_id, int64_t in_h, int64_t in_w, int64_t top, int64_t left,
                  float fill) override {
    Qs8DwconvShape unpadded{};
    if (path != Path::Depthwise || fill != static_cast<float>(zero[0]) ||
        !f32_dwconv_unpadded_input(dw_shape, in_h, in_w, top, left, &unpadded) ||
        &qs8_dwconv_config(unpadded) != dw) {  // the packed weights are that variant's
      return false;
    }
    x = x_id;
    dw_shape = unpadded;
    if (indirection != nullptr) qs8_dwconv_indirection(dw_shape, zero, indirection);
    return true;
  }

  void run(const ExecState& state) const override {
    const int8_t* in = reinterpret_cast<const int8_t*>(state.data[x]);
    int8_t* o = reinterpret_cast<int8_t*>(state.data[out]);
    switch (path) {
      case Path::Pointwise: {
        Qs8GemmProblem p;
        p.m = pixels;
        p.n = out_c;
        p.k = in_c;
        p.a = in;
        p.lda = in_c;
        p.packed_w = packed;
        p.c = o;
        p.ldc = out_c;
        p.requant = requant;
        p.a_workspace = state.op_temp;
        p.a_workspace_bytes = workspace_bytes;
        qs8_gemm(*gemm, p, state.kernel_context);
        break;
      }
      case Path::Indirect: {
        const size_t cg = in_c / groups, og = out_c / groups;
        for (size_t g = 0; g < groups; ++g) {
          Qs8IgemmProblem p;
          p.m = pixels;
          p.n = og;
          p.kc = cg;
          p.ks = taps;
          p.indirection = indirection;
          p.a_offset = reinterpret_cast<uintptr_t>(in + g * cg);
          p.zero = zero;
          p.packed_w = packed + g * (packed_bytes / groups);
          p.c = o + g * og;
          p.ldc = out_c;
          p.requant = requant;
          p.a_workspace = state.op_temp;  // each group gathers its own A in turn
          p.a_workspace_bytes = workspace_bytes;
          qs8_igemm(*gemm, p, state.kernel_context);
        }
        break;
      }
      case Path::Depthwise:
        qs8_dwconv(*dw, dw_shape, indirection, zero, packed, in, o, requant, state.pool);
        break;
      case Path::Rows: {
        int8_t* padded = static_cast<int8_t*>(state.op_temp);
        pad_input(in, padded, state.pool);
        Qs8IgemmProblem p;
        p.m = pixels;
        p.n = out_c;
        p.kc = shape.kw * in_c;
        p.ks = shape.kh;
        p.indirection = indirection;
        p.a_offset = reinterpret_cast<uintptr_t>(padded);
        p.zero = zero;
        p.packed_w = packed;
        p.c = o;
        p.ldc = out_c;
        p.requant = requant;
        p.a_workspace = static_cast<uint8_t*>(state.op_temp) + padded_bytes();
        p.a_workspace_bytes = workspace_bytes;
        qs8_igemm(*gemm, p, state.kernel_context);
        break;
      }
    }
  }
};

// Input channels up to which a convolution takes the Rows path: an RGB stem,
// and the narrow layers of microcontroller-size models, where gathering A a
// tap of C bytes at a time cost more than the GEMM (two thirds of a 16 -> 16
// 3x3 layer's time on AVX512-VNNI); the Rows path gathers kh runs of kw C.
// Measured on Emerald Rapids (3x3 pairs at 48x48 and 24x24, int8, 1 thread):
// 0.70-0.93x of the time for C = 8 to 32 on VNNI, AMX and AVX2, 0.96-1.01x at
// 48 and 64.
constexpr int64_t kRowsMaxChannels = 32;

int32_t param(const flatbuffers::Vector<int32_t>* v, size_t i, int32_t fallback) {
  return v != nullptr && v->size() > i ? v->Get(static_cast<flatbuffers::uoffset_t>(i)) : fallback;
}

}  // namespace

Result<CpuOp*> make_qs8_conv2d(const BuildContext& ctx, const cpu_fb::Op* op) {
  const cpu_fb::Qs8Conv2d* p = op->params_as_Qs8Conv2d();
  OpValues v;
  if (p == nullptr || !read_op_values(ctx, op, 1, 1, &v)) return Error::InvalidProgram;
  const ValueInfo& x = ctx.values[v.in[0]];
  const ValueInfo& out = ctx.values[v.out];
  const auto fail = [](const char* why) -> Result<CpuOp*> {
    EMBER_LOG(Error, "cpu backend: Qs8Conv2d: %s", why);
    return Error::InvalidProgram;
  };
  if (!is_int8(x) || !is_int8(out) || x.dim != 4 || out.dim != 4 || x.layout != Layout::NHWC ||
      out.layout != Layout::NHWC || p->weight() >= ctx.num_values) {
    return fail("needs NHWC int8 values of rank 4");
  }
  const ValueInfo& w = ctx.values[p->weight()];
  const int64_t batch = x.sizes[0], in_c = x.sizes[1], in_h = x.sizes[2], in_w = x.sizes[3];
  const int64_t out_c = out.sizes[1], out_h = out.sizes[2], out_w = out.sizes[3];
  const int64_t groups = p->groups();
  const int64_t sh = param(p->stride(), 0, 1), sw = param(p->stride(), 1, 1);
  const int64_t ph = param(p->padding(), 0, 0), pw = param(p->padding(), 1, 0);
  const int64_t dh = param(p->dilation(), 0, 1), dw = param(p->dilation(), 1, 1);
  if (w.dim != 4 || groups < 1 || in_c % groups != 0 || out_c % groups != 0 ||
      w.sizes[0] != out_c || w.sizes[1] != in_c / groups || sh < 1 || sw < 1 || dh < 1 ||
      dw < 1 || ph < 0 || pw < 0 || out.sizes[0] != batch) {
    return fail("weights do not fit the values");
  }
  const int64_t kh = w.sizes[2], kw = w.sizes[3];
  if (out_h != (in_h + 2 * ph - dh * (kh - 1) - 1) / sh + 1 ||
      out_w != (in_w + 2 * pw - dw * (kw - 1) - 1) / sw + 1 || out_h < 1 || out_w < 1) {
    return fail("the output size does not follow from the geometry");
  }
  const size_t co = static_cast<size_t>(out_c);
  const int8_t* weight =
      static_cast<const int8_t*>(typed_constant(ctx, p->weight(), DataType::Int8, w.numel));
  const float* w_scale =
      static_cast<const float*>(typed_constant(ctx, p->weight_scales(), DataType::Float32, co));
  const float* bias =
      p->bias() >= 0
          ? static_cast<const float*>(typed_constant(ctx, p->bias(), DataType::Float32, co))
          : nullptr;
  if (weight == nullptr || w_scale == nullptr || (p->bias() >= 0 && bias == nullptr) ||
      !valid_int8_range(p->out_min(), p->out_max(), p->output_zero()) ||
      p->input_zero() < -128 || p->input_zero() > 127) {
    return fail("bad weights, scales, bias or clamp");
  }
  Qs8Channels channels;
  if (!channels.fill(co, p->input_scale(), w_scale, bias, p->output_scale())) {
    return fail("bad scales");
  }
  Qs8ConvOp* made = new (std::nothrow) Qs8ConvOp();
  if (made == nullptr) return Error::MemoryAllocationFailed;
  made->x = v.in[0];
  made->out = v.out;
  made->pixels = static_cast<size_t>(batch * out_h * out_w);
  made->in_c = static_cast<size_t>(in_c);
  made->out_c = co;
  made->taps = static_cast<size_t>(kh * kw);
  made->groups = static_cast<size_t>(groups);
  made->requant.zero = p->output_zero();
  made->requant.min = p->out_min();
  made->requant.max = p->out_max();
  const int8_t a_zero = static_cast<int8_t>(p->input_zero());
  made->zero = reinterpret_cast<int8_t*>(new_bytes(made->in_c));
  if (made->zero == nullptr) {
    delete made;
    return Error::MemoryAllocationFailed;
  }
  std::memset(made->zero, a_zero, made->in_c);
  const auto z = [](int64_t s) { return static_cast<size_t>(s); };
  if (groups == in_c && groups == out_c) {
    made->path = Qs8ConvOp::Path::Depthwise;
    made->dw_shape = Qs8DwconvShape{z(batch), co, z(in_h), z(in_w), z(out_h), z(out_w), z(kh),
                                    z(kw), z(sh), z(sw), z(ph), z(pw), z(dh), z(dw)};
    made->dw = &qs8_dwconv_config(made->dw_shape);
    made->packed_bytes = qs8_dwconv_packed_size(*made->dw, z(kh), z(kw), co);
    made->packed = new_bytes(made->packed_bytes);
    const bool indirect = qs8_dwconv_uses_indirection(*made->dw);
    if (indirect) {
      made->indirection_size = f32_dwconv_indirection_size(made->dw_shape);
      made->indirection = new (std::nothrow) const int8_t*[made->indirection_size + 1];
    }
    if (made->packed == nullptr || (indirect && made->indirection == nullptr)) {
      delete made;
      return Error::MemoryAllocationFailed;
    }
    qs8_dwconv_pack_weights(*made->dw, z(kh), z(kw), co, weight, channels.bias, a_zero,
                            channels.scale, made->packed);
    if (indirect) qs8_dwconv_indirection(made->dw_shape, made->zero, made->indirection);
    return static_cast<CpuOp*>(made);
  }
  const size_t cg = z(in_c / groups), og = z(out_c / groups);
  made->gemm = &qs8_gemm_config_for(cg);
  if (!qs8_gemm_supports(*made->gemm, made->taps, cg)) {
    delete made;
    return fail("K is too long for the int8 GEMM");
  }
  const bool pointwise = kh == 1 && kw == 1 && sh == 1 && sw == 1 && ph == 0 && pw == 0 &&
                         groups == 1;
  const Qs8ConvShape shape{z(batch), z(in_h), z(in_w), z(in_c), z(out_h), z(out_w), z(kh),
                           z(kw),    z(sh),   z(sw),   z(ph),   z(pw),    z(dh),    z(dw)};
  const Qs8GemmConfig& rows_gemm = qs8_gemm_config_for(z(kw) * made->in_c);
  if (!pointwise && groups == 1 && in_c <= kRowsMaxChannels && dw == 1 && kw > 1 &&
      qs8_gemm_supports(rows_gemm, made->taps / z(kw), z(kw) * made->in_c)) {
    // An indirect GEMM of kh taps of kw * C bytes: the weights in (ky, kx,
    // channel) order, kernel rows as taps.
    made->path = Qs8ConvOp::Path::Rows;
    made->gemm = &rows_gemm;
    made->shape = shape;
    made->a_zero = a_zero;
    made->size_workspace();
    const size_t row_k = z(kw) * made->in_c, k = made->taps * made->in_c;
    int8_t* reordered = reinterpret_cast<int8_t*>(new_bytes(k * co));
    made->packed_bytes = qs8_gemm_packed_size(*made->gemm, z(kh), row_k, co);
    made->packed = new_bytes(made->packed_bytes);
    made->indirection_size = made->pixels * z(kh);
    made->indirection = new (std::nothrow) const int8_t*[made->indirection_size + 1];
    // Zeros for the driver's padding rows: a whole kernel row's worth.
    delete_bytes(reinterpret_cast<uint8_t*>(made->zero));
    made->zero = reinterpret_cast<int8_t*>(new_bytes(row_k));
    if (reordered == nullptr || made->packed == nullptr || made->indirection == nullptr ||
        made->zero == nullptr) {
      delete_bytes(reinterpret_cast<uint8_t*>(reordered));
      delete made;
      return Error::MemoryAllocationFailed;
    }
    std::memset(made->zero, a_zero, row_k);
    for (size_t o = 0; o < co; ++o) {
      for (size_t t = 0; t < made->taps; ++t) {
        for (size_t c = 0; c < made->in_c; ++c) {
          reordered[(o * made->taps + t) * made->in_c + c] =
              weight[(o * made->in_c + c) * made->taps + t];
        }
      }
    }
    Qs8Weights weights;
    weights.data = reordered;
    weights.ks = z(kh);
    weights.kc = row_k;
    weights.n = co;
    weights.tap_stride = static_cast<ptrdiff_t>(row_k);
    weights.k_stride = 1;
    weights.n_stride = static_cast<ptrdiff_t>(k);
    qs8_gemm_pack_weights(*made->gemm, weights, channels.bias, p->input_zero(), channels.scale,
                          made->packed);
    delete_bytes(reinterpret_cast<uint8_t*>(reordered));
    // Pixel m's kernel row ky starts at padded pixel (n, oy * sh + ky * dh, ox * sw).
    const size_t hp = made->padded_h(), wp = made->padded_w();
    for (size_t m = 0; m < made->pixels; ++m) {
      const size_t n = m / z(out_h * out_w), oy = m / z(out_w) % z(out_h), ox = m % z(out_w);
      for (size_t ky = 0; ky < z(kh); ++ky) {
        const size_t pixel = (n * hp + oy * z(sh) + ky * z(dh)) * wp + ox * z(sw);
        made->indirection[m * z(kh) + ky] =
            reinterpret_cast<const int8_t*>(static_cast<uintptr_t>(pixel * made->in_c));
      }
    }
    return static_cast<CpuOp*>(made);
  }
  made->path = pointwise ? Qs8ConvOp::Path::Pointwise : Qs8ConvOp::Path::Indirect;
  made->size_workspace();
  // Per group, packed panels (a multiple of 4 bytes: groups stay aligned).
  const size_t group_bytes = (qs8_gemm_packed_size(*made->gemm, made->taps, cg, og) + 63) / 64 * 64;
  made->packed_bytes = group_bytes * made->groups;
  made->packed = new_bytes(made->packed_bytes);
  if (made->packed == nullptr) {
    delete made;
    return Error::MemoryAllocationFailed;
  }
  for (size_t g = 0; g < made->groups; ++g) {
    Qs8Weights weights;
    weights.data = weight + g * og * cg * made->taps;
    weights.ks = made->taps;
    weights.kc = cg;
    weights.n = og;
    weights.tap_stride = 1;
    weights.k_stride = static_cast<ptrdiff_t>(made->taps);
    weights.n_stride = static_cast<ptrdiff_t>(cg * made->taps);
    qs8_gemm_pack_weights(*made->gemm, weights, channels.bias + g * og, p->input_zero(),
                          channels.scale + g * og, made->packed + g * group_bytes);
  }
  if (pointwise) return static_cast<CpuOp*>(made);
  made->indirection_size = qs8_igemm_indirection_size(shape);
  made->indirection = new (std::nothrow) const int8_t*[made->indirection_size + 1];
  if (made->indirection == nullptr) {
    delete made;
    return Error::MemoryAllocationFailed;
  }
  qs8_igemm_conv_indirection(shape, made->zero, made->indirection);
  return static_cast<CpuOp*>(made);
}

}  // namespace ember::cpu
