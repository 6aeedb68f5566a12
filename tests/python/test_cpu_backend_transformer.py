"""The CPU backend on transformers, against eager PyTorch at 1 and 2 threads:
products of two runtime values (MatMul), views and layout ops, embeddings,
attention fused into one op (flash-style kernel) for several lengths, heads,
head dims and masks, and four small transformer models.

Softmax, LayerNorm, RMSNorm and reductions are another op family's work:
until it lands, the model cases expect exactly those ops to stay portable
(EXPECTED_PORTABLE) and everything else to run on the backend."""

import math
import os

import ember
import pytest
import torch
from conftest import assert_matches_eager
from cpu_backend_util import run
from ember.backends.cpu import CpuBackend

F = torch.nn.functional

# What the model cases may leave on portable kernels for now: the norms and
# reductions of the vector-math family (LayerNorm; RMSNorm as pow, mean,
# rsqrt and a weight multiply whose first operand broadcasts; mean pooling).
EXPECTED_PORTABLE = {"aten::native_layer_norm.default", "aten::pow.Tensor_Scalar",
                     "aten::mean.dim", "aten::rsqrt.default", "aten::mul.Tensor"}


def portable_ops(program) -> set[str]:
    return {p.op for p in program.placements if p.where == "portable"}


# --- products of runtime values ---

class BatchedProducts(torch.nn.Module):
    """bmm/matmul of activations: plain, a transposed operand (read in place),
    a broadcast batch, 4-D with a head split."""

    def forward(self, x, y, w):
        a = torch.bmm(x, y)                        # [4, 9, 5] @ [4, 5, 7]
        b = torch.bmm(x, x.transpose(1, 2))        # transposed right operand
        c = torch.bmm(y.transpose(1, 2), y)        # transposed left operand
        d = torch.matmul(x, w)                     # [4, 9, 5] @ [1, 5, 3]: broadcast batch
        h = x.reshape(2, 2, 9, 5)
        e = torch.matmul(h, h.transpose(-1, -2))   # 4-D
        return a, b, c, d, e


def test_products_of_runtime_values(tmp_pte):
    torch.manual_seed(0)
    x, y, w = torch.randn(4, 9, 5), torch.randn(4, 5, 7), torch.randn(1, 5, 3)
    backend, program = run(BatchedProducts(), (x, y, w), tmp_pte)
    assert "MatMul" in backend.ops
    assert not any("bmm" in op for op in portable_ops(program)), program.report()


class MatrixProducts(torch.nn.Module):
    """mm of two activations (not a linear layer): plain, a transposed operand
    with a fused relu, 3-D @ 2-D (a view and an mm), and the Gram matrix of a
    convolution's tokens (views of channels-last data)."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 6, 2, stride=2)

    def forward(self, x, y, z, image):
        a = torch.mm(x, y)                         # [9, 5] @ [5, 7]
        b = torch.relu(x @ x.t())                  # [9, 5] @ [5, 9], relu fused
        c = z @ y                                  # [2, 9, 5] @ [5, 7]
        tokens = self.conv(image).flatten(2).transpose(1, 2)  # [1, 16, 6]
        d = tokens @ tokens.transpose(1, 2)
        return a, b, c, d


def test_matrix_products_of_runtime_values(tmp_pte):
    torch.manual_seed(8)
    inputs = (torch.randn(9, 5), torch.randn(5, 7), torch.randn(2, 9, 5), torch.randn(1, 3, 8, 8))
    backend, program = run(MatrixProducts(), inputs, tmp_pte)
    assert backend.ops.count("MatMul") == 4, backend.ops
    assert "Unary" not in backend.ops, backend.ops  # the relu is the product's clamp
    assert portable_ops(program) == set(), program.report()


class SharedWeightProducts(torch.nn.Module):
    """A linear layer on a transposed 3-D input, as nn.MultiheadAttention's
    in-projection does with batch_first: the export expands the weight over
    the batch into a bmm, which the backend runs as one linear layer. A bmm
    with a different constant matrix per batch stays a MatMul."""

    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(12, 8))
        self.per_batch = torch.nn.Parameter(torch.randn(5, 8, 3))

    def forward(self, x):                          # [3, 5, 8]
        t = x.transpose(0, 1)                      # [5, 3, 8]: rows not one run
        return F.linear(t, self.weight), torch.bmm(t, self.per_batch)


def test_a_weight_shared_by_every_batch_is_one_linear_layer(tmp_pte):
    torch.manual_seed(3)
    backend, program = run(SharedWeightProducts(), (torch.randn(3, 5, 8),), tmp_pte)
    assert backend.ops.count("Linear") == 1 and backend.ops.count("MatMul") == 1, backend.ops
    assert portable_ops(program) == set(), program.report()


def test_multihead_attention_batch_first_stores_its_weight_once(tmp_pte):
    torch.manual_seed(4)
    attention = torch.nn.MultiheadAttention(64, 4, batch_first=True)

    class SelfAttention(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.attention = attention

        def forward(self, x):
            return self.attention(x, x, x, need_weights=False)[0]

    backend, _ = run(SelfAttention(), (torch.randn(4, 32, 64),), tmp_pte)
    assert "Linear" in backend.ops and "MatMul" not in backend.ops, backend.ops
    # The in-projection weight (192 x 64 floats, 48 KiB) once, not once per
    # token (32 copies: 1.5 MiB).
    assert os.path.getsize(tmp_pte) < 256 * 1024


# --- layout ---

class Layouts(torch.nn.Module):
    def forward(self, x, y):
        a = x.permute(2, 0, 1).contiguous() * 2.0         # a transpose, copied
        b = x[:, 1:5:2, :] + 1.0                          # a strided slice
        c = x[:, 3] - 1.0                                 # select
        d = torch.cat([x, y, x], dim=1) * 1.5             # concat
        e = x.unsqueeze(1).expand(2, 3, 6, 4).reshape(6, 6, 4) + 0.0  # expand
        f = x.reshape(2, 24).t().contiguous() + 0.0       # reshape of a transpose
        g = x.view(2, 6, 2, 2).transpose(1, 2).squeeze(0) if x.shape[0] == 1 else x.flatten(1)
        return a, b, c, d, e, f, g + 0.0, -x


def test_layout_ops(tmp_pte):
    torch.manual_seed(1)
    x, y = torch.randn(2, 6, 4), torch.randn(2, 3, 4)
    backend, program = run(Layouts(), (x, y), tmp_pte)
    assert portable_ops(program) == set(), program.report()
    assert {"Permute", "Concat"} <= set(backend.ops)


class Pads(torch.nn.Module):
    """F.pad in constant mode: the last dims, every dim, a crop (negative
    pad), a fill value, a pad of a transposed view."""

    def forward(self, x):
        a = F.pad(x, (1, 2, 0, 3)) * 1.0
        b = F.pad(x, (2, 0, 1, 1, 0, 2), value=0.5) + 0.0
        c = F.pad(x, (-1, 2, 1, -2), value=-3.0) * 2.0
        d = F.pad(x.transpose(1, 2), (0, 1)) - 1.0
        return a, b, c, d


def test_constant_pad(tmp_pte):
    torch.manual_seed(9)
    backend, program = run(Pads(), (torch.randn(2, 5, 7),), tmp_pte)
    assert backend.ops.count("Pad") == 4, backend.ops
    assert portable_ops(program) == set(), program.report()


class SamePadded(torch.nn.Module):
    """TF-style "same" padding (EfficientNet-Lite's): an asymmetric pad of the
    spatial dims between channels-last convolutions, a crop, a channel pad."""

    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.down = torch.nn.Conv2d(8, 8, 3, stride=2, groups=8)
        self.head = torch.nn.Conv2d(10, 4, 1)

    def forward(self, x):
        y = self.down(F.pad(self.stem(x), (0, 1, 0, 1)))
        y = F.pad(y, (-1, 2, 1, -1), value=0.5)
        return self.head(F.pad(y, (0, 0, 0, 0, 1, 1)))


def test_a_pad_between_convolutions_stays_channels_last(tmp_pte):
    torch.manual_seed(10)
    backend, program = run(SamePadded(), (torch.randn(2, 3, 13, 11),), tmp_pte)
    assert backend.ops.count("Pad") == 3, backend.ops
    # One conversion in, one out: none around the pads.
    assert backend.ops.count("ToLayout") == 2, backend.ops
    assert portable_ops(program) == set(), program.report()


class PatchTokens(torch.nn.Module):
    """ViT's patch embedding: a convolution (channels-last on the backend),
    flattened and transposed into tokens (a view of the NHWC data: no copy),
    a class token prepended, the class token selected at the end."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 4, stride=4)
        self.cls = torch.nn.Parameter(torch.randn(1, 1, 8))
        self.pos = torch.nn.Parameter(torch.randn(1, 17, 8))

    def forward(self, x):
        tokens = self.conv(x).flatten(2).transpose(1, 2)
        tokens = torch.cat([self.cls.expand(x.shape[0], -1, -1), tokens], dim=1) + self.pos
        return tokens[:, 0] * 2.0, tokens


def test_patch_tokens(tmp_pte):
    torch.manual_seed(2)
    backend, program = run(PatchTokens(), (torch.randn(1, 3, 16, 16),), tmp_pte)
    assert portable_ops(program) == set(), program.report()
    # The token view of the convolution's channels-last output is an alias:
    # the only layout change is the image's, into the convolution.
    assert backend.ops.count("ToLayout") == 1, backend.ops


class Lookup(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.table = torch.nn.Embedding(50, 16)

    def forward(self, ids):
        return self.table(ids) * 2.0


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32])
def test_embedding(dtype, tmp_pte):
    torch.manual_seed(3)
    ids = torch.randint(0, 50, (2, 7), dtype=dtype)
    backend, program = run(Lookup(), (ids,), tmp_pte)
    assert "Embedding" in backend.ops and portable_ops(program) == set(), program.report()


def test_embedding_of_a_runtime_table(tmp_pte):
    class Computed(torch.nn.Module):
        def forward(self, ids, table):
            return F.embedding(ids, table), F.embedding(ids, table * 2.0 + 1.0)

    torch.manual_seed(10)
    ids = torch.randint(0, 30, (3, 5))
    backend, program = run(Computed(), (ids, torch.randn(30, 8)), tmp_pte)
    assert backend.ops.count("Embedding") == 2, backend.ops
    assert portable_ops(program) == set(), program.report()


def test_embedding_index_out_of_range_fails_the_call(tmp_pte):
    model = Lookup().eval()
    ember.export(model, (torch.zeros(1, 3, dtype=torch.long),), backends=[CpuBackend()]).save(tmp_pte)
    with pytest.raises(ValueError, match="InvalidArgument"):
        ember.runtime.load(tmp_pte).forward(torch.tensor([[1, 50, 2]]))


# --- attention ---

class Sdpa(torch.nn.Module):
    """Multi-head attention through scaled_dot_product_attention (Ember's
    decomposition: matmul, scale, masked_fill or add, softmax, matmul)."""

    def __init__(self, dim, heads, causal=False, scale=None):
        super().__init__()
        self.qkv, self.out = torch.nn.Linear(dim, 3 * dim), torch.nn.Linear(dim, dim)
        self.heads, self.causal, self.scale = heads, causal, scale

    def forward(self, x, mask=None):
        b, n, d = x.shape
        q, k, v = (t.view(b, n, self.heads, d // self.heads).transpose(1, 2)
                   for t in self.qkv(x).split(d, -1))
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=self.causal,
                                           scale=self.scale)
        return self.out(y.transpose(1, 2).reshape(b, n, d))


class EagerAttention(torch.nn.Module):
    """HF's eager form: q @ k^T / sqrt(d) + mask, softmax, @ v; separate
    projections, a static all-zero padding mask built from arange."""

    def __init__(self, dim, heads):
        super().__init__()
        self.q, self.k, self.v = (torch.nn.Linear(dim, dim) for _ in range(3))
        self.heads = heads

    def forward(self, x):
        b, n, d = x.shape
        split = lambda t: t.view(b, n, self.heads, -1).permute(0, 2, 1, 3)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        keep = (torch.arange(n) >= 0)[None, None, :, None].expand(b, 1, n, n)
        mask = torch.where(keep, 0.0, torch.finfo(torch.float32).min)
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(d // self.heads) + mask
        y = torch.matmul(scores.softmax(-1), v)
        return y.permute(0, 2, 1, 3).contiguous().view(b, n, d)


def assert_fused(backend, program):
    assert backend.ops.count("Attention") >= 1, backend.ops
    assert "MatMul" not in backend.ops, backend.ops
    assert portable_ops(program) == set(), program.report()


@pytest.mark.parametrize("length", [1, 7, 64, 130, 300])
@pytest.mark.parametrize("causal", [False, True])
def test_attention_lengths(length, causal, tmp_pte):
    torch.manual_seed(length)
    backend, program = run(Sdpa(32, 2, causal=causal), (torch.randn(1, length, 32),), tmp_pte)
    assert_fused(backend, program)


@pytest.mark.parametrize("dim,heads", [(8, 1), (48, 6), (128, 2), (96, 3)])
def test_attention_heads_and_head_dims(dim, heads, tmp_pte):
    torch.manual_seed(dim)
    backend, program = run(Sdpa(dim, heads, scale=0.3), (torch.randn(1, 19, dim),), tmp_pte)
    assert_fused(backend, program)


@pytest.mark.parametrize("shape", [(1, 1, 23, 23), (23, 23), (2, 1, 23, 23), (2, 4, 23, 23)])
def test_attention_additive_mask_input(shape, tmp_pte):
    torch.manual_seed(4)
    x, mask = torch.randn(2, 23, 32), torch.randn(shape)
    mask[..., 5] = float("-inf")
    backend, program = run(Sdpa(32, 4), (x, mask), tmp_pte)
    assert_fused(backend, program)


def test_attention_static_bool_mask(tmp_pte):
    class Windowed(Sdpa):
        def forward(self, x):
            n = x.shape[1]
            i = torch.arange(n)
            window = (i[:, None] - i[None, :]).abs() <= 3   # a constant, not causal
            return super().forward(x, window)

    backend, program = run(Windowed(32, 2), (torch.randn(1, 20, 32),), tmp_pte)
    assert_fused(backend, program)


def test_attention_query_seeing_no_key_is_zero_and_fused(tmp_pte):
    """torch gives 0 for a query whose every key is masked; the decomposition's guard
    for it is absorbed by the Attention op (safe softmax), for a mask known at export
    and for one given at run time."""
    class Blinded(Sdpa):
        def forward(self, x):
            n = x.shape[1]
            i = torch.arange(n)
            window = ((i[:, None] - i[None, :]).abs() <= 3) & (i[:, None] != 5)
            return super().forward(x, window)

    backend, program = run(Blinded(32, 2), (torch.randn(1, 20, 32),), tmp_pte)
    assert_fused(backend, program)
    torch.manual_seed(6)
    mask = torch.randn(2, 1, 23, 23)
    mask[0, :, 4] = float("-inf")
    backend, program = run(Sdpa(32, 4), (torch.randn(2, 23, 32), mask), tmp_pte)
    assert_fused(backend, program)


class MaskedFillAttention(torch.nn.Module):
    """softmax(masked_fill(q k^T / 4, ...)) v with a bool mask given at run time:
    HF's `masked_fill(~keep, finfo.min)`, or `masked_fill(pad, -inf)`."""

    def __init__(self, mask_keeps):
        super().__init__()
        self.mask_keeps = mask_keeps

    def forward(self, q, k, v, mask):
        scores = q @ k.transpose(-1, -2) / 4
        if self.mask_keeps:
            scores = scores.masked_fill(~mask, torch.finfo(torch.float32).min)
        else:
            scores = scores.masked_fill(mask, float("-inf"))
        return scores.softmax(-1) @ v


def test_attention_reads_a_bool_mask_given_at_run_time(tmp_pte):
    """A bool mask computed from inputs (HF's padding masks) is read by the
    Attention op itself, the masked_fill's negation absorbed: through SDPA
    (a query seeing no key gets 0, as torch gives), HF's finfo.min fill (a
    query seeing no key averages every value, as torch's softmax does) and a
    -inf fill of the padding; each with a second mask at run time."""
    torch.manual_seed(8)
    keep = torch.rand(2, 1, 21, 21) < 0.6
    keep[..., 0] = True
    keep[1, :, 3] = False
    sdpa = Sdpa(32, 4).eval()
    backend, program = run(sdpa, (torch.randn(2, 21, 32), keep), tmp_pte)
    assert_fused(backend, program)
    x, other = torch.randn(2, 21, 32), torch.rand(2, 1, 21, 21) < 0.3
    assert_matches_eager(ember.runtime.load(tmp_pte).forward(x, other), sdpa(x, other).detach())

    q, k, v = torch.randn(2, 3, 9, 16), torch.randn(2, 3, 12, 16), torch.randn(2, 3, 12, 8)
    keep = torch.rand(2, 1, 9, 12) < 0.7
    keep[..., 0] = True
    for mask_keeps, mask in ((True, keep), (False, ~keep)):
        model = MaskedFillAttention(mask_keeps)
        backend, program = run(model, (q, k, v, mask), tmp_pte)
        assert_fused(backend, program)
        other = torch.rand(2, 1, 9, 12) < 0.5
        other[..., 0] = mask_keeps
        if mask_keeps:
            other[1, :, 2] = False  # a query that sees no key
        assert_matches_eager(ember.runtime.load(tmp_pte).forward(q, k, v, other),
                             model(q, k, v, other))


def test_attention_batch_and_eager_form(tmp_pte):
    torch.manual_seed(5)
    backend, program = run(EagerAttention(48, 4), (torch.randn(2, 33, 48),), tmp_pte)
    assert_fused(backend, program)
    backend, program = run(EagerAttention(48, 4), (torch.randn(1, 33, 48),), tmp_pte)
    assert_fused(backend, program)
    # Batch 1: the head split and merge are read and written in place.
    assert "Permute" not in backend.ops, backend.ops


def test_attention_probabilities_used_elsewhere_stay_unfused(tmp_pte):
    class Probs(torch.nn.Module):
        def forward(self, q, k, v):
            p = (q @ k.transpose(-1, -2)).softmax(-1)
            return p @ v, p.sum(-1)

    torch.manual_seed(6)
    q, k, v = torch.randn(1, 2, 9, 8), torch.randn(1, 2, 9, 8), torch.randn(1, 2, 9, 8)
    backend, _ = run(Probs(), (q, k, v), tmp_pte)
    assert "Attention" not in backend.ops


def test_malformed_attention_blob_fails_at_init(tmp_pte, monkeypatch):
    from ember.backends.cpu import ops_attention

    original = ops_attention._split

    def out_of_bounds(view, heads):
        strides = original(view, heads)
        return (strides[0], strides[1], strides[2] * 1000, strides[3])

    monkeypatch.setattr(ops_attention, "_split", out_of_bounds)
    model, x = Sdpa(16, 2).eval(), torch.randn(1, 9, 16)

    class Unchecked(CpuBackend):
        def validate(self, processed, compile_specs):
            return None  # no export-time check: the program must reach init

    ember.export(model, (x,), backends=[Unchecked()]).save(tmp_pte)
    with pytest.raises(ValueError, match=r"cannot initialise.*\(Attention, node \d+\) refused"):
        ember.runtime.load(tmp_pte)
    # With it, the exporter finds the refusal and runs the attention on the
    # portable kernels instead: the program loads and is right.
    program = ember.export(model, (x,), backends=[CpuBackend()])
    assert any(p.init_refused for p in program.placements)
    program.save(tmp_pte)
    assert_matches_eager(ember.runtime.load(tmp_pte).forward(x), model(x))


# --- models at small sizes ---

def tiny_bert():
    from transformers import BertConfig, BertModel
    config = BertConfig(vocab_size=120, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=128, max_position_embeddings=64,
                        attn_implementation="eager")
    model = BertModel(config, add_pooling_layer=False)
    return Wrapped(model, "last_hidden_state"), (torch.randint(0, 120, (1, 24)),)


def tiny_minilm():
    """MiniLM's shape at small size: a BERT encoder, mean-pooled."""
    from transformers import BertConfig, BertModel
    config = BertConfig(vocab_size=100, hidden_size=48, num_hidden_layers=2, num_attention_heads=12,
                        intermediate_size=96, max_position_embeddings=64,
                        attn_implementation="eager")
    return MeanPooled(BertModel(config)), (torch.randint(0, 100, (1, 20)),)


def tiny_vit():
    from transformers import ViTConfig, ViTModel
    config = ViTConfig(hidden_size=48, num_hidden_layers=2, num_attention_heads=3,
                       intermediate_size=96, image_size=32, patch_size=8,
                       attn_implementation="eager")
    return Wrapped(ViTModel(config, add_pooling_layer=False), "last_hidden_state"), \
        (torch.randn(1, 3, 32, 32),)


def tiny_llama():
    from transformers import LlamaConfig, LlamaForCausalLM
    config = LlamaConfig(vocab_size=200, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=64,
                         use_cache=False, attn_implementation="eager")
    return Wrapped(LlamaForCausalLM(config), "logits", {"use_cache": False}), \
        (torch.randint(0, 200, (1, 16)),)


def tiny_llama_gqa_sdpa():
    """Grouped-query attention (2 key/value heads for 4 query heads) through
    HF's sdpa path: one causal mask shared by both layers, which the RMSNorms
    (portable) cut into separate delegates."""
    from transformers import LlamaConfig, LlamaForCausalLM
    config = LlamaConfig(vocab_size=200, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                         use_cache=False, attn_implementation="sdpa")
    return Wrapped(LlamaForCausalLM(config), "logits", {"use_cache": False}), \
        (torch.randint(0, 200, (1, 16)),)


class Wrapped(torch.nn.Module):
    def __init__(self, model, field, kwargs=None):
        super().__init__()
        self.model, self.field, self.kwargs = model, field, kwargs or {}

    def forward(self, x):
        return getattr(self.model(x, **self.kwargs), self.field)


class MeanPooled(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids):
        return self.model(ids).last_hidden_state.mean(dim=1)


MODELS = {"bert": tiny_bert, "minilm": tiny_minilm, "vit": tiny_vit, "llama": tiny_llama,
          "llama_gqa_sdpa": tiny_llama_gqa_sdpa}
# The sdpa path's int64 position ids (arange + offset, unsqueeze) feed the
# mask builder too, so they are not all static-claimed: they stay portable.
EXTRA_PORTABLE = {"llama_gqa_sdpa": {"aten::arange.start_step", "aten::add.Tensor",
                                     "aten::unsqueeze.default"}}


@pytest.mark.parametrize("name", list(MODELS))
def test_small_transformer_models(name, tmp_pte):
    torch.manual_seed(7)
    model, inputs = MODELS[name]()
    backend, program = run(model, inputs, tmp_pte)
    left = portable_ops(program)
    assert left <= EXPECTED_PORTABLE | EXTRA_PORTABLE.get(name, set()), program.report()
    # Every attention runs as one op, and no product of activations is left.
    assert backend.ops.count("Attention") == 2, backend.ops
    assert "MatMul" not in backend.ops, backend.ops


# --- the per-op profile (the runtime's tracer; tests/python/test_devtools.py has the rest) ---


def test_profile_table_per_op_kind(tmp_pte):
    backend, _ = run(Sdpa(32, 2, causal=True), (torch.randn(1, 40, 32),), tmp_pte, threads=(1,))
    module = ember.runtime.load(tmp_pte, threads=2)
    profile = module.profile(torch.randn(1, 40, 32), runs=3)
    in_delegate = [e for e in profile.events if e.in_delegate]
    # Each op of the delegate, in order, once per run.
    assert [e.name for e in in_delegate] == 3 * backend.ops, profile.table
    calls: dict[str, int] = {}
    for row in profile.rows:
        kind = row.op.split()[0]
        if kind in backend.ops:
            calls[kind] = calls.get(kind, 0) + row.calls
    assert calls == {kind: 3 * backend.ops.count(kind) for kind in set(backend.ops)}, profile.table
    assert abs(sum(row.share for row in profile.rows) - 1.0) < 1e-6, profile.table
