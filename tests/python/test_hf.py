"""`ember export --hf DIR`: each task head exported from a directory that
save_pretrained wrote (tiny configs, random weights, no hub), run on Ember
and compared with eager transformers; a causal LM generated greedily through
ember_llm and ember.llm.Runner, token for token what `generate` gives; the
tokenizer converted to Ember's file gives Hugging Face's ids."""

import json
import os
import subprocess

import pytest
import torch
from conftest import assert_matches_eager

os.environ["HF_HUB_OFFLINE"] = "1"
transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")

import ember
from ember.hf import export_hf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "python", "data", "tokenizer_corpus.txt")
EMBER_LLM = os.path.join(ROOT, "build", "py", "ember_llm")


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def byte_level_tokenizer(vocab_size=320, digits=False):
    """A byte-level BPE tokenizer trained on the test corpus (GPT-2's
    pre-tokenizer, or SmolLM's digits-first one)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), byte_level]) if digits else byte_level
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    with open(CORPUS, encoding="utf-8") as f:
        tok.train_from_iterator(f.read().splitlines(), trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<|endoftext|>",
                                   eos_token="<|endoftext|>")


def save(directory, model, *extras):
    model.save_pretrained(directory)
    for extra in extras:
        extra.save_pretrained(directory)
    return str(directory)


@pytest.fixture(scope="module")
def llama_dir(tmp_path_factory):
    tokenizer = byte_level_tokenizer()
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=96,
        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
        tie_word_embeddings=False)
    model = transformers.LlamaForCausalLM(config).eval()
    return save(tmp_path_factory.mktemp("llama"), model, tokenizer)


@pytest.fixture(scope="module")
def llama_export(llama_dir, tmp_path_factory):
    pte = str(tmp_path_factory.mktemp("llama_pte") / "llama.pte")
    return export_hf(llama_dir, pte, max_context=80, max_seq_len=16)


def eager(directory, auto="AutoModelForCausalLM"):
    return getattr(transformers, auto).from_pretrained(directory).eval()


def test_causal_lm_generates_through_ember_llm_token_for_token_as_generate(llama_dir,
                                                                          llama_export):
    pte = llama_export.output
    assert llama_export.task == "causal-lm"
    assert os.path.isfile(pte[:-4] + ".tokenizer") and os.path.isfile(pte[:-4] + ".json")
    tokenizer = transformers.AutoTokenizer.from_pretrained(llama_dir)
    model = eager(llama_dir)
    prompt = "The quick brown fox jumps over 12 lazy dogs."  # 20+ tokens: two prefill chunks
    ids = tokenizer(prompt, return_tensors="pt").input_ids
    assert ids.shape[1] > 16
    with torch.no_grad():
        expected = model.generate(ids, max_new_tokens=24, do_sample=False)[0, ids.shape[1]:]
    expected = expected.tolist()
    # ember.llm.Runner: token ids through the C++ session.
    from ember.llm.runner import Runner

    runner = Runner(pte)
    got, _ = runner.generate_ids(ids[0].tolist(), max_new_tokens=24,
                                 stop_ids=[tokenizer.eos_token_id])
    assert got[:len(expected)] == expected
    # ember_llm: text in, text out, with the tokenizer written beside the program.
    if not os.path.isfile(EMBER_LLM):
        pytest.skip("ember_llm is not built")
    run = subprocess.run([EMBER_LLM, pte, "--prompt", prompt, "-n", str(len(expected))],
                         capture_output=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr.decode()
    text = prompt + tokenizer.decode(expected, skip_special_tokens=True)
    assert run.stdout.decode("utf-8", errors="replace") == text


def test_causal_lm_card_and_the_tokenizers_ids(llama_dir, llama_export):
    card = read_json(llama_export.output[:-4] + ".json")
    assert card["task"] == "causal-lm" and card["max_context"] == 80
    assert [i["name"] for i in card["methods"]["forward"]["inputs"]] == ["tokens", "input_pos"]
    from ember.llm import Tokenizer

    ours = Tokenizer(llama_export.output[:-4] + ".tokenizer")
    theirs = transformers.AutoTokenizer.from_pretrained(llama_dir)
    with open(CORPUS, encoding="utf-8") as f:
        lines = [line for line in f.read().splitlines() if line][:40]
    for line in lines + ["<|endoftext|>hello<|endoftext|>", "  spaces\tand\nnewlines  "]:
        assert ours.encode(line) == theirs(line).input_ids, line
    assert ours.eos_id == theirs.eos_token_id


def test_smollm_pre_tokenizer_converts_too(tmp_path):
    from ember.hf.tokenizer import spec_from_hf
    from ember.llm import Tokenizer
    from ember.llm.tokenizer import serialize

    tokenizer = byte_level_tokenizer(digits=True)
    tokenizer.save_pretrained(tmp_path)
    spec = spec_from_hf(str(tmp_path))
    assert spec.pre_tokenizer == "smollm"
    path = tmp_path / "t.tokenizer"
    path.write_bytes(serialize(spec))
    ours = Tokenizer(path)
    for text in ["in 2024 we counted 12345 birds", "x=3.14159; y = 42"]:
        assert ours.encode(text) == tokenizer(text).input_ids


def test_qwen2_with_tied_embeddings_and_qkv_biases_matches_eager(tmp_path):
    torch.manual_seed(1)
    config = transformers.Qwen2Config(
        vocab_size=128, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
        tie_word_embeddings=True)
    model = transformers.Qwen2ForCausalLM(config).eval()
    with torch.no_grad():  # biases are zero at init: make them count
        for layer in model.model.layers:
            for proj in (layer.self_attn.q_proj, layer.self_attn.k_proj, layer.self_attn.v_proj):
                proj.bias.normal_(0, 0.5)
    directory = save(tmp_path / "qwen2", model)
    result = export_hf(directory, str(tmp_path / "qwen2.pte"), max_seq_len=8)
    assert any("no tokenizer" in note for note in result.notes)
    from ember.llm.runner import Runner

    runner = Runner(result.output)
    tokens = torch.randint(0, 128, (1, 11))
    logits = runner.forward(tokens[0].tolist())  # prefill in two chunks
    with torch.no_grad():
        expected = model(tokens).logits[0, -1]
    assert_matches_eager(torch.as_tensor(logits).reshape(-1), expected, atol=1e-4)


def test_an_unsupported_causal_lm_family_says_what_to_do(tmp_path):
    config = transformers.GPT2Config(vocab_size=64, n_embd=32, n_layer=1, n_head=2,
                                     n_positions=32)
    directory = save(tmp_path / "gpt2", transformers.GPT2LMHeadModel(config))
    with pytest.raises(ValueError, match="gpt2.*not supported yet.*--task feature-extraction"):
        export_hf(directory, str(tmp_path / "gpt2.pte"))


def test_image_classification_with_labels_and_preprocessing(tmp_path):
    torch.manual_seed(2)
    labels = {0: "cat", 1: "dog", 2: "fish"}
    config = transformers.ViTConfig(
        image_size=32, patch_size=8, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=128, num_labels=3, id2label=labels,
        label2id={v: k for k, v in labels.items()})
    model = transformers.ViTForImageClassification(config).eval()
    processor = transformers.ViTImageProcessor(size={"height": 32, "width": 32},
                                               image_mean=[0.4, 0.5, 0.6],
                                               image_std=[0.2, 0.25, 0.3])
    directory = save(tmp_path / "vit", model, processor)
    result = export_hf(directory, str(tmp_path / "vit.pte"))
    assert result.task == "image-classification"
    card = read_json(tmp_path / "vit.json")
    assert card["labels"] == {"0": "cat", "1": "dog", "2": "fish"}
    assert card["methods"]["forward"] == {
        "inputs": [{"name": "pixel_values", "shape": [1, 3, 32, 32], "dtype": "float32"}],
        "outputs": ["logits"]}
    pre = read_json(tmp_path / "vit.preprocess.json")
    assert pre["image_mean"] == [0.4, 0.5, 0.6] and pre["image_std"] == [0.2, 0.25, 0.3]
    assert pre["size"] == {"height": 32, "width": 32}
    module = ember.runtime.load(result.output)
    pixels = torch.randn(1, 3, 32, 32)
    with torch.no_grad():
        expected = eager(directory, "AutoModelForImageClassification")(pixels).logits
    assert_matches_eager(module.forward(pixels), expected)


def test_sequence_classification_over_dynamic_lengths(tmp_path):
    torch.manual_seed(3)
    config = transformers.BertConfig(
        vocab_size=200, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=4, max_position_embeddings=64, num_labels=2)
    model = transformers.BertForSequenceClassification(config).eval()
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] +
                               [f"w{i}" for i in range(195)]))
    tokenizer = transformers.BertTokenizerFast(vocab_file=str(vocab))
    directory = save(tmp_path / "bert", model, tokenizer)
    result = export_hf(directory, str(tmp_path / "bert.pte"), max_seq_len=32)
    assert result.task == "sequence-classification"
    # WordPiece is not Ember's tokenizer: the files travel as they are.
    assert os.path.isfile(tmp_path / "bert.hf-tokenizer" / "tokenizer.json")
    assert any("token ids" in note for note in result.notes)
    module = ember.runtime.load(result.output)
    reference = eager(directory, "AutoModelForSequenceClassification")
    for length in (1, 7, 32):
        ids = torch.randint(0, 200, (1, length))
        mask = torch.ones(1, length, dtype=torch.long)
        mask[0, length // 2 + 1:] = 0  # padding the mask hides
        with torch.no_grad():
            expected = reference(input_ids=ids, attention_mask=mask).logits
        assert_matches_eager(module.forward(ids, mask), expected)


def test_feature_extraction_returns_every_tensor_output_by_name(tmp_path):
    torch.manual_seed(4)
    config = transformers.BertConfig(
        vocab_size=100, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
        num_attention_heads=2, max_position_embeddings=40)
    directory = save(tmp_path / "bert_model", transformers.BertModel(config).eval())
    result = export_hf(directory, str(tmp_path / "features.pte"))
    assert result.task == "feature-extraction"
    assert result.card["methods"]["forward"]["outputs"] == ["last_hidden_state", "pooler_output"]
    module = ember.runtime.load(result.output)
    ids = torch.randint(0, 100, (1, 40))
    mask = torch.ones(1, 40, dtype=torch.long)
    with torch.no_grad():
        expected = eager(directory, "AutoModel")(input_ids=ids, attention_mask=mask)
    hidden, pooled = module.forward(ids, mask)
    assert_matches_eager(hidden, expected.last_hidden_state)
    assert_matches_eager(pooled, expected.pooler_output)


def test_cli_export_hf_writes_the_program_and_its_card(llama_dir, tmp_path, capsys):
    from ember.cli import main

    out = str(tmp_path / "cli.pte")
    assert main(["export", "--hf", llama_dir, "-o", out, "-q", "--max-context", "32",
                 "--quantize", "int8-weight"]) == 0
    printed = capsys.readouterr().out
    assert "wrote " + out in printed and "weights 8bit" in printed
    assert read_json(out[:-4] + ".json")["max_context"] == 32
    assert main(["export", "--hf", str(tmp_path / "missing"), "-o", out, "-q"]) == 1
    assert "no such directory" in capsys.readouterr().err


def test_plain_export_of_a_causal_lm_is_fixed_to_return_logits(llama_dir, tmp_path):
    """The issue's example: ember.export(LlamaForCausalLM) used to fail on its
    DynamicCache output; Ember now calls it with use_cache=False, says so,
    and the logits are eager's."""
    model = eager(llama_dir)
    tokens = torch.randint(0, 300, (1, 6))
    program = ember.export(model, (tokens,), backends=())
    assert any("use_cache=False" in fix for fix in program.fixes)
    program.save(str(tmp_path / "plain.pte"))
    logits = ember.runtime.load(str(tmp_path / "plain.pte")).forward(tokens)
    with torch.no_grad():
        assert_matches_eager(logits, model(tokens).logits)
    # Without fixes, the diagnosis says what it is and where.
    from ember.diagnose import DiagnosedExportError, lower_or_explain
    from ember.passes.pipeline import default_passes, lower

    with pytest.raises(DiagnosedExportError) as info:
        lower_or_explain(lower, model, (tokens,), None, default_passes(()), apply_fixes=False)
    diagnosis = info.value.diagnosis
    assert diagnosis.kind.id == "cache-object-output"
    assert diagnosis.location.filename.endswith("modeling_llama.py")
    assert "use_cache=False" in diagnosis.fix


def test_whisper_encoder_and_decoder_share_the_cross_attention_cache(tmp_path):
    torch.manual_seed(5)
    config = transformers.WhisperConfig(
        vocab_size=100, num_mel_bins=16, encoder_layers=2, encoder_attention_heads=4,
        decoder_layers=2, decoder_attention_heads=4, d_model=64, encoder_ffn_dim=128,
        decoder_ffn_dim=128, max_source_positions=32, max_target_positions=40,
        decoder_start_token_id=1, eos_token_id=2, pad_token_id=0, bos_token_id=1)
    model = transformers.WhisperForConditionalGeneration(config).eval()
    directory = save(tmp_path / "whisper", model)
    result = export_hf(directory, str(tmp_path / "whisper.pte"))
    assert result.task == "speech-seq2seq"
    assert set(result.card["methods"]) == {"encoder", "decoder"}
    module = ember.runtime.load(result.output)
    assert module.run("get_decoder_start_token_id") == 1
    reference = eager(directory, "AutoModelForSpeechSeq2Seq")
    for utterance in range(2):  # the second encoder call replaces the first's caches
        features = torch.randn(1, 16, 64)
        states = module.run("encoder", features)
        with torch.no_grad():
            assert_matches_eager(states, reference.model.encoder(features).last_hidden_state)
        # Prefill two forced tokens in one call, then decode greedily, token by token.
        tokens = [1, 5 + utterance]
        logits = module.run("decoder", torch.tensor([tokens]), torch.arange(2))
        for _ in range(8):
            with torch.no_grad():
                expected = reference(input_features=features,
                                     decoder_input_ids=torch.tensor([tokens])).logits[0, -1]
            assert_matches_eager(torch.as_tensor(logits)[0, -1], expected, atol=1e-4)
            tokens.append(int(expected.argmax()))
            logits = module.run("decoder", torch.tensor([tokens[-1:]]),
                                torch.tensor([len(tokens) - 1]))


def test_import_ember_and_its_cli_do_not_import_transformers():
    import sys

    code = ("import sys, ember, ember.cli, ember.hf, ember.hf.tasks\n"
            "assert 'transformers' not in sys.modules, 'transformers imported'\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stderr
