"""Ember's Llama, its quantized formats, its export with a KV cache, the
GGUF import and the runner, on tiny random-weight models (SmolLM2 itself is
in test_smollm2.py, in the slow tier)."""

import copy
import dataclasses

import ember
import numpy as np
import pytest
import torch
from conftest import assert_matches_eager
from ember.llm import gguf_import, llama, quant
from ember.llm import ops as llm_ops
from ember.llm.export import export_llama
from ember.llm.runner import Runner, Sampler

CONFIG = llama.LlamaConfig(vocab_size=96, dim=64, n_layers=2, n_heads=4, n_kv_heads=2,
                           hidden_dim=128, max_context=24, rope_theta=10000.0)


def _hf_model(config, weights):
    """transformers' LlamaForCausalLM with the same (float) weights."""
    from transformers import LlamaConfig, LlamaForCausalLM

    hf = LlamaForCausalLM(LlamaConfig(
        vocab_size=config.vocab_size, hidden_size=config.dim, intermediate_size=config.hidden_dim,
        num_hidden_layers=config.n_layers, num_attention_heads=config.n_heads,
        num_key_value_heads=config.n_kv_heads, rms_norm_eps=config.norm_eps,
        rope_theta=config.rope_theta, max_position_embeddings=config.max_context,
        tie_word_embeddings=config.tie_embeddings)).eval()
    names = {"attention_norm": "input_layernorm", "ffn_norm": "post_attention_layernorm",
             "wq": "self_attn.q_proj", "wk": "self_attn.k_proj", "wv": "self_attn.v_proj",
             "wo": "self_attn.o_proj", "gate": "mlp.gate_proj", "up": "mlp.up_proj",
             "down": "mlp.down_proj"}
    state = {"model.embed_tokens.weight": weights["embedding"], "model.norm.weight": weights["norm"],
             "lm_head.weight": weights["embedding"]}
    for name, value in weights.items():
        if name.startswith("layers."):
            _, i, leaf = name.split(".")
            state[f"model.layers.{i}.{names[leaf]}.weight"] = value
    hf.load_state_dict(state)
    return hf


def _dense(weights):
    return gguf_import.convert_weights(weights, "float")


@pytest.mark.parametrize("fmt", [quant.Q4_1, quant.Q8_0], ids=lambda f: f.name)
def test_block_formats_are_ggufs_and_hold_their_values_exactly(fmt):
    from gguf import GGMLQuantizationType
    from gguf.quants import quantize as gguf_quantize

    torch.manual_seed(0)
    weight = torch.randn(6, 96) * 0.1
    blocks = quant.quantize(weight, fmt)
    qtype = GGMLQuantizationType.Q4_1 if fmt is quant.Q4_1 else GGMLQuantizationType.Q8_0
    reference = gguf_quantize(weight.numpy(), qtype).reshape(6, 3, fmt.block_bytes)
    # Byte for byte what llama.cpp's reference quantizer writes, but for codes
    # that a rounding tie may send either way (then one code apart).
    differ = (quant.to_gguf(blocks, fmt).numpy() != reference).sum()
    assert differ <= 2, f"{differ} bytes differ from gguf's quantizer"
    values = quant.dequantize(blocks, fmt)
    assert torch.equal(quant.quantize(values, fmt), blocks)  # exact: no error added
    bound = 0.5 * (weight.abs().max() / 127 if fmt is quant.Q8_0 else weight.max() / 7.5)
    assert float((values - weight).abs().max()) <= bound + 1e-6


@pytest.mark.parametrize("fmt", [quant.Q4_1, quant.Q8_0], ids=lambda f: f.name)
def test_panel_order_holds_gguf_blocks_exactly(fmt):
    from gguf import GGMLQuantizationType
    from gguf.quants import dequantize as gguf_dequantize
    from gguf.quants import quantize as gguf_quantize

    qtype = GGMLQuantizationType.Q4_1 if fmt is quant.Q4_1 else GGMLQuantizationType.Q8_0
    weight = torch.randn(37, 64, generator=torch.Generator().manual_seed(4)).numpy()
    rows = torch.from_numpy(gguf_quantize(weight, qtype).reshape(37, 2, fmt.block_bytes))
    blocks = quant.from_gguf(rows, fmt)  # two full panels of 16 rows and one of 5
    assert not torch.equal(blocks, rows)
    assert torch.equal(quant.to_gguf(blocks, fmt), rows)
    expected = torch.from_numpy(gguf_dequantize(rows.numpy(), qtype)).reshape(37, 64)
    assert torch.equal(quant.dequantize(blocks, fmt), expected)
    picked = torch.tensor([36, 0, 17, 31])
    assert torch.equal(quant.dequantize_rows(blocks, fmt, picked), expected[picked])


def test_llama_matches_transformers_across_cache_calls():
    weights = llama.random_weights(CONFIG, seed=1)
    model = llama.Llama(CONFIG, weights, last_logits_only=False).eval()
    hf = _hf_model(CONFIG, weights)
    tokens = torch.randint(0, CONFIG.vocab_size, (1, 12), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        expected = hf(tokens).logits
        parts = [model(tokens[:, :5], torch.arange(5)), model(tokens[:, 5:6], torch.tensor([5])),
                 model(tokens[:, 6:], torch.arange(6, 12))]
    assert_matches_eager(torch.cat(parts, dim=1), expected, atol=1e-4)


def _greedy_eager(model, prompt, steps):
    model = copy.deepcopy(model)
    out = []
    with torch.no_grad():
        logits = model(torch.tensor([prompt]), torch.arange(len(prompt)))
        position = len(prompt)
        for _ in range(steps):
            token = int(logits[0, -1].argmax())
            out.append(token)
            logits = model(torch.tensor([[token]]), torch.tensor([position]))
            position += 1
    return out


@pytest.fixture(scope="module", params=["float", "4bit", "8bit", "mixed"])
def exported(request, tmp_path_factory):
    weights = llama.random_weights(CONFIG, seed=3, bits=None if request.param == "float" else 4)
    if request.param == "mixed":  # a GGUF's mix: layer 0's v in Q8_0, its q and k in Q4_1
        weights["layers.0.wv"] = gguf_import.convert_weights(
            {"wv": weights["layers.0.wv"]}, "8bit")["wv"]
    weights = gguf_import.convert_weights(weights, "4bit" if request.param == "mixed" else
                                          request.param)
    path = str(tmp_path_factory.mktemp("llm") / f"tiny_{request.param}.pte")
    program = export_llama(CONFIG, weights, bos_id=1, eos_id=2, max_prefill=8)
    program.save(path)
    return request.param, weights, path, program


def test_exported_llama_is_stateful_and_matches_eager(exported):
    quant_name, weights, path, program = exported
    if quant_name != "float":
        assert "ember::qlinear.out" in program.operators
    # q, k and v as one linear, gate and up as one, where their weights concatenate.
    model = llama.Llama(CONFIG, weights)
    fused = [layer.attention.qkv.fused is not None for layer in model.layers]
    assert fused == ([False, True] if quant_name == "mixed" else [True, True])
    assert all(layer.feed_forward.gate_up.fused is not None for layer in model.layers)
    assert "aten::index_put_" in program.operators and "aten::copy_" not in program.operators
    model = llama.Llama(CONFIG, weights).eval()
    module = ember.runtime.load(path, threads=2)
    assert module.run("get_max_context_len") == CONFIG.max_context
    prompt = torch.tensor([[5, 17, 3, 60, 9, 44, 2, 8, 11, 70]])  # longer than max_prefill 8
    with torch.no_grad():
        expected = model(prompt[:, :6], torch.arange(6))
        assert_matches_eager(module.run("forward", prompt[:, :6], torch.arange(6)), expected)
        expected = model(prompt[:, 6:], torch.arange(6, 10))
        assert_matches_eager(module.run("forward", prompt[:, 6:], torch.arange(6, 10)), expected)


def test_runner_greedy_matches_eager_and_stops_where_asked(exported):
    _, weights, path, _ = exported
    model = llama.Llama(CONFIG, weights).eval()
    prompt = [4, 8, 15, 16, 23, 42, 7, 1, 9, 30, 12]  # two prefill chunks
    expected = _greedy_eager(model, prompt, 8)
    runner = Runner(path, threads=1)
    ids, stats = runner.generate_ids(prompt, max_new_tokens=8, stop_ids=[])
    if 2 in expected:  # the model's eos, which stops generation
        expected = expected[:expected.index(2) + 1]
    assert ids == expected
    assert stats["prompt_tokens"] == len(prompt) and stats["generated_tokens"] == len(ids)
    assert stats["decode_tokens_per_s"] > 0 and stats["peak_rss_bytes"] > 0
    # A stop id ends it at its first appearance.
    runner.reset()
    stop = expected[3]
    ids, stats = runner.generate_ids(prompt, max_new_tokens=8, stop_ids=[stop])
    assert ids == expected[:expected.index(stop) + 1] and stats["stop"] == "end of sequence"
    # The context (24) holds the prompt and 13 more tokens at most.
    runner.reset()
    ids, stats = runner.generate_ids(prompt, max_new_tokens=50, temperature=1.0, seed=3)
    if stats["stop"] != "end of sequence":
        assert stats["stop"] == "context full" and len(prompt) + len(ids) == CONFIG.max_context + 1
    runner.reset()
    with pytest.raises(ValueError, match="context"):
        runner.generate_ids(list(range(30)), max_new_tokens=2)


def test_runner_sampling_is_reproducible_under_a_seed(exported):
    _, _, path, _ = exported
    runner = Runner(path, threads=1)
    settings = {"max_new_tokens": 6, "temperature": 0.9, "top_k": 20, "top_p": 0.9,
                "repetition_penalty": 1.3, "stop_ids": []}
    first, _ = runner.generate_ids([3, 1, 4, 1, 5], seed=11, **settings)
    runner.reset()
    again, _ = runner.generate_ids([3, 1, 4, 1, 5], seed=11, **settings)
    runner.reset()
    other = [runner.generate_ids([3, 1, 4, 1, 5], seed=s, **settings)[0] for s in (12, 13, 14)
             if runner.reset() is None]
    assert first == again
    assert any(o != first for o in other)


def test_sampler_greedy_and_degenerate_filters_pick_the_max():
    logits = np.array([0.1, 3.0, -2.0, 2.9, 0.0], dtype=np.float32)
    for settings in ({}, {"temperature": 0.7, "top_k": 1}, {"temperature": 0.7, "top_p": 1e-6}):
        assert Sampler(5, seed=1, **settings).sample(logits) == 1


def test_sampler_draws_the_filtered_distribution():
    """Frequencies over many draws against the distribution that Hugging Face's
    processors (repetition penalty, temperature, top-k, top-p) give."""
    from transformers import (
        RepetitionPenaltyLogitsProcessor,
        TemperatureLogitsWarper,
        TopKLogitsWarper,
        TopPLogitsWarper,
    )

    logits = torch.tensor([[1.0, 2.0, 0.5, -1.0, 1.5, 0.0, 2.2, -0.5]])
    history = torch.tensor([[6, 1]])
    processed = RepetitionPenaltyLogitsProcessor(1.5)(history, logits.clone())
    processed = TemperatureLogitsWarper(0.8)(history, processed)
    processed = TopKLogitsWarper(5)(history, processed)
    processed = TopPLogitsWarper(0.8)(history, processed)
    expected = torch.softmax(processed[0], dim=-1).numpy()
    sampler = Sampler(8, temperature=0.8, top_k=5, top_p=0.8, repetition_penalty=1.5, seed=7)
    draws = 20000
    counts = np.bincount([sampler.sample(logits[0].numpy(), [6, 1]) for _ in range(draws)],
                         minlength=8) / draws
    assert np.all(counts[expected == 0] == 0)
    assert np.abs(counts - expected).max() < 0.015


def test_sampler_rejects_bad_settings():
    for settings in ({"top_p": 0.0}, {"top_k": -1}, {"repetition_penalty": 0.0}):
        with pytest.raises(ValueError, match="sampler"):
            Sampler(8, **settings)


def test_projections_run_as_one_linear_where_the_weights_concatenate():
    """Linears that read the same input (q, k, v; gate, up) run as one where
    their weights concatenate, as separate ones otherwise: the same outputs."""
    torch.manual_seed(6)
    x = torch.randn(3, 64)
    floats = [torch.randn(n, 64) * 0.2 for n in (64, 32, 32)]
    q4 = [(quant.quantize(w, quant.Q4_1), 4) for w in floats]
    q8 = (quant.quantize(floats[2], quant.Q8_0), 8)
    partial_panel = [(quant.quantize(torch.randn(n, 64) * 0.2, quant.Q4_1), 4) for n in (24, 32)]
    biases = [torch.randn(n) for n in (64, 32, 32)]
    cases = [(floats, [None] * 3, True), (q4, [None] * 3, True), (q4, biases, True),
             (q4[:2] + [q8], [None] * 3, False), (floats[:2] + [q8], [None] * 3, False),
             (partial_panel, [None] * 2, False), (q4, [biases[0], None, None], False)]
    for weights, bias, fuses in cases:
        projections = llama.Projections(weights, bias)
        assert (projections.fused is not None) == fuses
        with torch.no_grad():
            got = projections(x)
            want = [llama.make_linear(w, b)(x) for w, b in zip(weights, bias, strict=True)]
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            torch.testing.assert_close(g, w, rtol=1e-5, atol=1e-5)


def test_qlinear_on_the_cpu_backend_matches_eager():
    """Static shapes: the CPU backend claims the quantized linear layers."""
    torch.manual_seed(4)
    for bits, fmt in ((4, quant.Q4_1), (8, quant.Q8_0)):
        blocks = quant.quantize(torch.randn(40, 96) * 0.2, fmt)
        model = torch.nn.Sequential(llama.QuantLinear(blocks, bits), torch.nn.ReLU()).eval()
        for rows in (1, 7):
            x = torch.randn(rows, 96)
            program = ember.export(model, (x,))
            assert any(p.where == "EmberCpuBackend" and "qlinear" in p.op
                       for p in program.placements), program.report()
            path = f"/tmp/ember_qlinear_{bits}_{rows}.pte"
            program.save(path)
            with torch.no_grad():
                assert_matches_eager(ember.runtime.load(path, threads=2).forward(x), model(x),
                                     atol=1e-4)


def _write_gguf(path, config, weights):
    """A GGUF file as llama.cpp's converter writes one: q/k rows permuted
    for its RoPE, linear weights in Q4_1, the embedding in Q8_0."""
    import gguf

    writer = gguf.GGUFWriter(path, "llama")
    writer.add_block_count(config.n_layers)
    writer.add_context_length(config.max_context)
    writer.add_embedding_length(config.dim)
    writer.add_feed_forward_length(config.hidden_dim)
    writer.add_head_count(config.n_heads)
    writer.add_head_count_kv(config.n_kv_heads)
    writer.add_layer_norm_rms_eps(config.norm_eps)
    writer.add_rope_freq_base(config.rope_theta)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)

    def permute(w, heads):
        return w.reshape(heads, 2, w.shape[0] // heads // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)

    names = {"attention_norm": "attn_norm", "wq": "attn_q", "wk": "attn_k", "wv": "attn_v",
             "wo": "attn_output", "ffn_norm": "ffn_norm", "gate": "ffn_gate", "up": "ffn_up",
             "down": "ffn_down"}
    Q = gguf.GGMLQuantizationType
    for name, value in weights.items():
        w = value.numpy()
        if name == "embedding":
            writer.add_tensor("token_embd.weight", gguf.quants.quantize(w, Q.Q8_0), raw_dtype=Q.Q8_0)
            continue
        if name == "norm":
            writer.add_tensor("output_norm.weight", w)
            continue
        _, i, leaf = name.split(".")
        target = f"blk.{i}.{names[leaf]}.weight"
        if w.ndim == 1:
            writer.add_tensor(target, w)
            continue
        if leaf in ("wq", "wk"):
            w = permute(w, config.n_heads if leaf == "wq" else config.n_kv_heads)
        writer.add_tensor(target, gguf.quants.quantize(w, Q.Q4_1), raw_dtype=Q.Q4_1)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def test_gguf_import_restores_the_weights_and_matches_transformers(tmp_path):
    weights = llama.random_weights(CONFIG, seed=5)
    path = str(tmp_path / "tiny.gguf")
    _write_gguf(path, CONFIG, weights)
    model = gguf_import.read_gguf(path, max_context=CONFIG.max_context)
    # GGUF stores eps as float32.
    assert abs(model.config.norm_eps - CONFIG.norm_eps) < 1e-9
    assert dataclasses.replace(model.config, norm_eps=CONFIG.norm_eps) == CONFIG
    assert (model.bos_id, model.eos_id) == (1, 2)
    # Blocks as in the file: the 4-bit import adds no error to them.
    assert model.weights["layers.0.up"][1] == 4 and model.weights["embedding"][1] == 8
    assert gguf_import.convert_weights(model.weights, "4bit")["layers.1.wq"] is model.weights[
        "layers.1.wq"]
    dense = _dense(model.weights)
    hf = _hf_model(CONFIG, dense)  # transformers on the file's (dequantized) weights
    ember_model = llama.Llama(CONFIG, model.weights, last_logits_only=False).eval()
    tokens = torch.tensor([[3, 14, 15, 92, 65, 35]])
    with torch.no_grad():
        assert_matches_eager(ember_model(tokens, torch.arange(6)), hf(tokens).logits, atol=1e-4)
    # q and k came back in transformers' order: close to the original weights.
    for name in ("layers.0.wq", "layers.1.wk"):
        assert float((dense[name] - weights[name]).abs().max()) < 0.05


def test_llm_export_cli_writes_program_and_tokenizer(tmp_path):
    from ember.cli import main

    path = str(tmp_path / "tiny.gguf")
    _write_gguf(path, CONFIG, llama.random_weights(CONFIG, seed=6))
    out = str(tmp_path / "tiny.pte")
    assert main(["llm", "export", "--gguf", path, "--quant", "8bit", "--max-context", "16",
                 "-o", out, "-q"]) == 0
    runner = Runner(out, threads=1)
    assert runner.metadata["max_context"] == 16 and runner.metadata["eos_id"] == 2
    ids, _ = runner.generate_ids([5, 6, 7], max_new_tokens=3, stop_ids=[])
    assert len(ids) <= 3


class _Fused(torch.nn.Module):
    """The fused ops against their core-ATen forms."""

    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.rand(16) + 0.5, requires_grad=False)

    def forward(self, x, cos, sin):
        from ember.llm import ops

        return (ops.rms_norm(x, self.weight, 1e-5), ops.rope(x, cos, sin),
                ops.swiglu(x, x.flip(-1)))


def test_fused_ops_match_their_definitions(tmp_pte):
    torch.manual_seed(8)
    x, cos, sin = torch.randn(1, 3, 5, 16), torch.randn(5, 16), torch.randn(5, 16)
    model = _Fused().eval()
    norm = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * model.weight
    rotated = torch.cat((-x[..., 8:], x[..., :8]), dim=-1)
    expected = (norm, x * cos + rotated * sin, torch.nn.functional.silu(x) * x.flip(-1))
    ember.export(model, (x, cos, sin), backends=()).save(tmp_pte)
    got = ember.runtime.load(tmp_pte, threads=1).forward(x, cos, sin)
    for g, e in zip(got, expected):
        assert_matches_eager(g, e, atol=1e-5)


class _SwiGlu(torch.nn.Module):
    def forward(self, gate, up):
        from ember.llm import ops

        return ops.swiglu(gate, up)


def test_swiglu_of_a_prefill_matches_eager(tmp_pte):
    """A prefill's MLP rows: many of the optimized kernel's chunks (the last
    one partial), split over two threads, with gates far into SiLU's tails."""
    torch.manual_seed(9)
    gate, up = torch.randn(2, 37, 1536) * 8, torch.randn(2, 37, 1536)
    ember.export(_SwiGlu().eval(), (gate, up), backends=()).save(tmp_pte)
    got = ember.runtime.load(tmp_pte, threads=2).forward(gate, up)
    assert_matches_eager(got, torch.nn.functional.silu(gate) * up, atol=1e-5)


class _CachedAttention(torch.nn.Module):
    def forward(self, q, k_cache, v_cache, pos):
        return llm_ops.sdpa_cached(q, k_cache, v_cache, pos, 0.2)


@pytest.mark.parametrize("threads", [2, 3, 4])
def test_sdpa_cached_splits_the_keys_of_too_few_heads(threads, tmp_pte):
    """A decode step with fewer (KV head, query) tasks than keep the threads
    busy: each task's keys run in parts merged after. Equal to the
    definition, also where a part sees only infinite scores (that task runs
    again whole) and where a part's scores are far below another's."""
    g = torch.Generator().manual_seed(13)
    q = torch.rand(1, 6, 1, 20, generator=g) + 0.5  # 3 KV heads, 2 query heads each
    k_cache = torch.randn(1, 3, 400, 20, generator=g)
    v_cache = torch.randn(1, 3, 400, 12, generator=g)
    ember.export(_CachedAttention(), (q, k_cache, v_cache, torch.tensor([0])),
                 backends=()).save(tmp_pte)
    module = ember.runtime.load(tmp_pte, threads=threads)
    masked = k_cache.clone()
    masked[:, 1, :150] = float("-inf")  # scores of -inf: the first part of head 1 has no others
    skewed = k_cache.clone()
    skewed[:, 2, 200:] *= 40.0  # head 2's later parts outweigh its first by far
    # (Head 1 of `masked` has no finite score up to position 149: NaN, as in eager.)
    for cache, positions in ((k_cache, (63, 127, 300, 399)), (masked, (300, 399)),
                             (skewed, (127, 300, 399))):
        for position in positions:
            inputs = (q, cache, v_cache, torch.tensor([position]))
            assert_matches_eager(module.forward(*inputs), llm_ops.sdpa_cached(*inputs, 0.2),
                                 atol=1e-5)


@pytest.mark.parametrize("threads", [1, 2])
def test_sdpa_cached_matches_its_definition(threads, tmp_pte):
    """The optimized kernel's edges: 17 query heads a KV head (two runs of at
    most 16), keys past one 256-key chunk, queries at different positions,
    a head size with a vector tail and a value size unlike it."""
    g = torch.Generator().manual_seed(12)
    q = torch.randn(1, 34, 3, 20, generator=g)
    k_cache = torch.randn(1, 2, 600, 20, generator=g)
    v_cache = torch.randn(1, 2, 600, 12, generator=g)
    pos = torch.tensor([0, 300, 599])

    class Attention(torch.nn.Module):
        def forward(self, q, k_cache, v_cache, pos):
            return llm_ops.sdpa_cached(q, k_cache, v_cache, pos, 0.2)

    inputs = (q, k_cache, v_cache, pos)
    ember.export(Attention(), inputs, backends=()).save(tmp_pte)
    module = ember.runtime.load(tmp_pte, threads=threads)
    assert_matches_eager(module.forward(*inputs), llm_ops.sdpa_cached(*inputs, 0.2), atol=1e-5)
    with pytest.raises(Exception, match="outside the cache"):
        module.forward(q, k_cache, v_cache, torch.tensor([0, 300, 600]))
