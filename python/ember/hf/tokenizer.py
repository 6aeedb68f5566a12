"""A Hugging Face tokenizer directory as Ember's `.tokenizer` file.

Ember's C++ tokenizer (extension/llm/tokenizer) is byte-level BPE with the
GPT-2 pre-tokenizer or SmolLM's (digits one by one, then GPT-2's). A
`tokenizer.json` of that kind (ByteLevel pre-tokenizer and decoder, a BPE
model) converts exactly: its vocabulary, merges, added tokens (special ones
as control tokens), BOS/EOS from tokenizer_config.json and its chat
template. Any other kind (WordPiece, SentencePiece, another split regex) is
copied beside the program as Hugging Face wrote it, and the export says
that the runner then needs token ids.
"""

from __future__ import annotations

import json
import os
import shutil
from typing import Any

from ember.llm.tokenizer import (
    NO_TOKEN,
    TOKEN_TYPE_CONTROL,
    TOKEN_TYPE_USER_DEFINED,
    TokenizerSpec,
    _token_bytes,
    serialize,
)

_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt",
          "vocab.json", "merges.txt", "tokenizer.model", "chat_template.jinja",
          "added_tokens.json")
_TOKEN_TYPE_NORMAL = 1


def _load_json(directory: str, name: str) -> dict[str, Any]:
    path = os.path.join(directory, name)
    if not os.path.isfile(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _pre_tokenizer(spec: dict[str, Any] | None) -> str:
    """Ember's name for a Hugging Face pre-tokenizer, or raise ValueError why not."""
    if spec is None:
        raise ValueError("no pre-tokenizer")
    kind = spec.get("type")
    if kind == "ByteLevel":
        if spec.get("add_prefix_space"):
            raise ValueError("a ByteLevel pre-tokenizer with add_prefix_space")
        if spec.get("use_regex", True) is False:
            raise ValueError("a ByteLevel pre-tokenizer without GPT-2's regex")
        return "gpt2"
    if kind == "Sequence":
        parts = spec.get("pretokenizers", [])
        types = [p.get("type") for p in parts]
        if types == ["Digits", "ByteLevel"] and parts[0].get("individual_digits") and \
                _pre_tokenizer(parts[1]) == "gpt2":
            return "smollm"
        raise ValueError(f"the pre-tokenizer sequence {types}")
    raise ValueError(f"a {kind} pre-tokenizer")


def _token_text(value: Any) -> str | None:
    if isinstance(value, dict):
        return value.get("content")
    return value if isinstance(value, str) else None


def _chat_template(directory: str, config: dict[str, Any]) -> str:
    template = config.get("chat_template")
    path = os.path.join(directory, "chat_template.jinja")
    if not template and os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            template = f.read()
    if isinstance(template, list):  # named templates: the default one
        template = next((t.get("template") for t in template if t.get("name") == "default"), "")
    return template or ""


def spec_from_hf(directory: str) -> TokenizerSpec:
    """The Ember tokenizer for a Hugging Face tokenizer directory (raises
    ValueError, saying why, when Ember's tokenizer cannot be that one)."""
    data = _load_json(directory, "tokenizer.json")
    if not data:
        raise ValueError("no tokenizer.json (a fast tokenizer) in the directory")
    model = data.get("model") or {}
    if model.get("type") != "BPE":
        raise ValueError(f"a {model.get('type')} model, not byte-level BPE")
    if (data.get("decoder") or {}).get("type") != "ByteLevel":
        raise ValueError(f"a {(data.get('decoder') or {}).get('type')} decoder, not ByteLevel")
    pre = _pre_tokenizer(data.get("pre_tokenizer"))
    if data.get("normalizer"):
        raise ValueError(f"a {data['normalizer'].get('type')} normalizer")
    vocab: dict[str, int] = dict(model.get("vocab") or {})
    added = data.get("added_tokens") or []
    for token in added:
        vocab.setdefault(token["content"], int(token["id"]))
    size = max(vocab.values()) + 1 if vocab else 0
    spelled: list[str | None] = [None] * size
    for text, index in vocab.items():
        spelled[index] = text
    if any(s is None for s in spelled):
        raise ValueError("the vocabulary has gaps in its ids")
    special = {int(t["id"]): bool(t.get("special")) for t in added}
    added_ids = set(special)
    tokens = [s.encode("utf-8") if i in added_ids else _token_bytes(s.encode("utf-8"))
              for i, s in enumerate(spelled)]
    types = [(TOKEN_TYPE_CONTROL if special[i] else TOKEN_TYPE_USER_DEFINED)
             if i in added_ids else _TOKEN_TYPE_NORMAL for i in range(size)]
    merges = []
    for rank, merge in enumerate(model.get("merges") or []):
        left, right = merge.split(" ", 1) if isinstance(merge, str) else merge
        if left not in vocab or right not in vocab:
            raise ValueError(f"merge {rank} ({left!r} {right!r}) names a token not in the vocabulary")
        merges.append((vocab[left], vocab[right]))
    config = _load_json(directory, "tokenizer_config.json")

    def token_id(key: str) -> int:
        text = _token_text(config.get(key))
        return vocab.get(text, NO_TOKEN) if text is not None else NO_TOKEN

    return TokenizerSpec(
        tokens=tokens, types=types, merges=merges,
        added=[(i, special[i], spelled[i].encode("utf-8")) for i in sorted(added_ids)],
        pre_tokenizer=pre, bos_id=token_id("bos_token"), eos_id=token_id("eos_token"),
        pad_id=token_id("pad_token"), unk_id=token_id("unk_token"),
        add_bos=bool(config.get("add_bos_token", False)),
        add_eos=bool(config.get("add_eos_token", False)),
        chat_template=_chat_template(directory, config))


def write_beside(directory: str, pte_path: str) -> tuple[str | None, str]:
    """Writes the tokenizer beside `pte_path`: `<stem>.tokenizer` (Ember's
    file, what ember_llm reads) when it converts, else the Hugging Face files
    in `<stem>.hf-tokenizer/`. Returns (path, a note for the report)."""
    stem = os.path.splitext(pte_path)[0]
    try:
        spec = spec_from_hf(directory)
    except ValueError as why:
        present = [f for f in _FILES if os.path.isfile(os.path.join(directory, f))]
        if not present:
            return None, f"no tokenizer in {directory} ({why})"
        target = stem + ".hf-tokenizer"
        os.makedirs(target, exist_ok=True)
        for name in present:
            shutil.copyfile(os.path.join(directory, name), os.path.join(target, name))
        return target, (f"tokenizer copied to {target}: Ember's tokenizer is byte-level BPE and "
                        f"this one has {why}; run the program on token ids")
    path = stem + ".tokenizer"
    with open(path, "wb") as f:
        f.write(serialize(spec))
    return path, f"tokenizer {path} ({len(spec.tokens)} tokens, pre-tokenizer {spec.pre_tokenizer})"
