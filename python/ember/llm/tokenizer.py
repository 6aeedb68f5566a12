"""The byte-level BPE tokenizer of LLMs, and Ember's own tokenizer file.

`Tokenizer` runs the C++ tokenizer (extension/llm/tokenizer) on a GGUF file or
on an Ember `.tokenizer` file; `write_tokenizer` makes the latter from a GGUF,
so that a `.pte` can ship with a 1 MB tokenizer instead of its 100 MB GGUF:

    python -m ember.llm.tokenizer model.gguf -o model.tokenizer

The file layout is described in extension/llm/tokenizer/README.md; the C++
side writes the same bytes (`ember_tokenize model.gguf --write ...`).
"""

from __future__ import annotations

import argparse
import os
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ember import _C

MAGIC = b"EMTK"
VERSION = 1
PRE_TOKENIZERS = ("gpt2", "smollm")
NO_TOKEN = -1
FLAG_ADD_BOS = 1
FLAG_ADD_EOS = 2
# llama.cpp's token types (tokenizer.ggml.token_type).
TOKEN_TYPE_CONTROL = 3
TOKEN_TYPE_USER_DEFINED = 4

Message = Mapping[str, str]
PathLike = str | os.PathLike[str]


class Tokenizer:
    """A byte-level BPE tokenizer loaded from a GGUF or Ember `.tokenizer` file.

    Gives the ids Hugging Face `tokenizers` gives for the same vocabulary, merges
    and pre-tokenizer. Not safe to share between threads (it caches words).
    """

    def __init__(self, path: PathLike) -> None:
        self.path = Path(path)
        self._impl = _C.Tokenizer(os.fspath(path))

    def encode(self, text: str, allow_special: bool = True) -> list[int]:
        """The ids of `text`; special tokens written in it (`<|im_start|>`) become
        their ids unless `allow_special` is False. A str with lone surrogates,
        which has no UTF-8, raises UnicodeEncodeError."""
        return self._impl.encode(text.encode("utf-8"), allow_special)

    def encode_bytes(self, data: bytes, allow_special: bool = True) -> list[int]:
        """The ids of raw bytes, UTF-8 or not (each invalid byte sequence is
        pre-tokenized as punctuation; byte-level BPE encodes any byte)."""
        return self._impl.encode(bytes(data), allow_special)

    def decode(self, ids: Iterable[int], skip_special: bool = False) -> str:
        """The text of `ids`; bytes that are not valid UTF-8 become U+FFFD."""
        return self._impl.decode(list(ids), skip_special)

    def decode_bytes(self, ids: Iterable[int], skip_special: bool = False) -> bytes:
        return self._impl.decode_bytes(list(ids), skip_special)

    def stream(self, skip_special: bool = False) -> StreamDecoder:
        """A decoder for ids as they are generated (complete UTF-8 only)."""
        return StreamDecoder(self, skip_special)

    def token_bytes(self, token_id: int) -> bytes:
        return self._impl.token_bytes(token_id)

    def token_id(self, token: bytes | str) -> int | None:
        return self._impl.token_id(token.encode() if isinstance(token, str) else token)

    def is_special(self, token_id: int) -> bool:
        return self._impl.is_special(token_id)

    def apply_chat_template(
        self, messages: Sequence[Message], add_generation_prompt: bool = False
    ) -> str:
        """The conversation as the file's chat template renders it (ChatML family);
        a template Ember does not recognise raises ValueError."""
        pairs = []
        for i, message in enumerate(messages):
            if "role" not in message or "content" not in message:
                raise ValueError(f"message {i} needs a 'role' and a 'content'")
            pairs.append((str(message["role"]), str(message["content"])))
        return self._impl.apply_chat_template(pairs, add_generation_prompt)

    def serialize(self) -> bytes:
        """This tokenizer as an Ember `.tokenizer` file."""
        return self._impl.serialize()

    @property
    def vocab_size(self) -> int:
        return self._impl.vocab_size

    @property
    def bos_id(self) -> int | None:
        return self._impl.bos_id

    @property
    def eos_id(self) -> int | None:
        return self._impl.eos_id

    @property
    def pad_id(self) -> int | None:
        return self._impl.pad_id

    @property
    def add_bos(self) -> bool:
        return self._impl.add_bos

    @property
    def pre_tokenizer(self) -> str:
        return self._impl.pre_tokenizer

    @property
    def chat_template(self) -> str:
        return self._impl.chat_template

    @property
    def chat_template_kind(self) -> str | None:
        """"chatml" or "chatml-default-system"; None without a recognised template."""
        return self._impl.chat_template_kind


class StreamDecoder:
    """Text for ids one at a time: a character split across tokens comes out once
    its last byte has arrived; `flush()` gives what is held back at the end."""

    def __init__(self, tokenizer: Tokenizer, skip_special: bool = False) -> None:
        self._impl = _C.StreamDecoder(tokenizer._impl, skip_special)

    def push(self, token_id: int) -> str:
        return self._impl.push(token_id)

    def flush(self) -> str:
        return self._impl.flush()

    @property
    def pending(self) -> int:
        """Bytes held back, waiting for the rest of a character."""
        return self._impl.pending


# --- the writer: GGUF metadata -> Ember .tokenizer file ---


@lru_cache(maxsize=1)
def _byte_of_char() -> dict[str, int]:
    """GPT-2's byte alphabet, reversed: the character spelling each byte -> byte."""
    printable = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    chars = {b: chr(b) for b in printable}
    extra = 0x100
    for b in range(256):
        if b not in chars:
            chars[b] = chr(extra)
            extra += 1
    return {c: b for b, c in chars.items()}


def _token_bytes(spelled: bytes) -> bytes:
    """What a GGUF token stands for: its characters mapped back through the byte
    alphabet, or its own UTF-8 when it is not spelled in it (a literal control token)."""
    table = _byte_of_char()
    try:
        return bytes(table[c] for c in spelled.decode("utf-8"))
    except (UnicodeDecodeError, KeyError):
        return spelled


@dataclass
class TokenizerSpec:
    """What an Ember tokenizer file holds (TokenizerData on the C++ side)."""

    tokens: list[bytes]
    types: list[int]
    merges: list[tuple[int, int]]
    added: list[tuple[int, bool, bytes]]  # (id, special, text)
    pre_tokenizer: str
    bos_id: int = NO_TOKEN
    eos_id: int = NO_TOKEN
    pad_id: int = NO_TOKEN
    unk_id: int = NO_TOKEN
    add_bos: bool = False
    add_eos: bool = False
    chat_template: str = ""


def _field(reader: Any, key: str) -> Any:
    return reader.fields.get(key)


def _scalar(reader: Any, key: str, kind: type) -> Any:
    """The value of a scalar key (None when absent), checked to be of `kind`."""
    f = _field(reader, key)
    if f is None:
        return None
    value = f.contents()
    # bool is an int in Python: an integer key must not be a bool, nor a bool key an int.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"GGUF: {key} is not a {kind.__name__}")
    return value


def _string_array(reader: Any, key: str) -> list[bytes] | None:
    f = _field(reader, key)
    if f is None:
        return None
    # Raw bytes, not contents(): a token need not be valid UTF-8.
    return [bytes(f.parts[i]) for i in f.data]


def spec_from_gguf(gguf: PathLike | Any) -> TokenizerSpec:
    """The tokenizer a GGUF file describes (byte-level BPE only), checked as the
    C++ loader checks it. `gguf` is a path or an open `gguf.GGUFReader` (reading
    SmolLM2's metadata takes the reader a few seconds)."""
    if isinstance(gguf, (str, os.PathLike)):
        from gguf import GGUFReader  # a dependency of the writer only

        reader = GGUFReader(os.fspath(gguf))
    else:
        reader = gguf
    model = _scalar(reader, "tokenizer.ggml.model", str)
    if model != "gpt2":
        raise ValueError(f"GGUF: tokenizer model {model!r} is not supported (only byte-level BPE, 'gpt2')")
    pre = _scalar(reader, "tokenizer.ggml.pre", str)
    if pre not in PRE_TOKENIZERS:
        raise ValueError(f"GGUF: pre-tokenizer {pre!r} is not supported (only {PRE_TOKENIZERS})")
    spelled = _string_array(reader, "tokenizer.ggml.tokens")
    if not spelled:
        raise ValueError("GGUF: no tokenizer.ggml.tokens")
    types_field = _field(reader, "tokenizer.ggml.token_type")
    types = [int(t) for t in types_field.contents()] if types_field is not None else []
    if types and len(types) != len(spelled):
        raise ValueError(f"GGUF: {len(types)} token types for {len(spelled)} tokens")
    id_of_spelling = {s: i for i, s in enumerate(spelled)}  # a repeated spelling: the last id
    merges: list[tuple[int, int]] = []
    for rank, merge in enumerate(_string_array(reader, "tokenizer.ggml.merges") or []):
        parts = merge.split(b" ")
        if len(parts) != 2 or not all(parts):
            raise ValueError(f"GGUF: merge {rank} ({merge!r}) is not two tokens separated by a space")
        try:
            merges.append((id_of_spelling[parts[0]], id_of_spelling[parts[1]]))
        except KeyError as missing:
            raise ValueError(f"GGUF: merge {rank} ({merge!r}) names a token not in the vocabulary") from missing
    added = [
        (i, t == TOKEN_TYPE_CONTROL, spelled[i])
        for i, t in enumerate(types)
        if t in (TOKEN_TYPE_CONTROL, TOKEN_TYPE_USER_DEFINED)
    ]

    def token_id(key: str) -> int:
        value = _scalar(reader, key, int)
        if value is None:
            return NO_TOKEN
        if not 0 <= value < len(spelled):
            raise ValueError(f"GGUF: {key} = {value} is not a token id")
        return value

    return TokenizerSpec(
        tokens=[_token_bytes(s) for s in spelled],
        types=types,
        merges=merges,
        added=added,
        pre_tokenizer=pre,
        bos_id=token_id("tokenizer.ggml.bos_token_id"),
        eos_id=token_id("tokenizer.ggml.eos_token_id"),
        pad_id=token_id("tokenizer.ggml.padding_token_id"),
        unk_id=token_id("tokenizer.ggml.unknown_token_id"),
        add_bos=bool(_scalar(reader, "tokenizer.ggml.add_bos_token", bool)),
        add_eos=bool(_scalar(reader, "tokenizer.ggml.add_eos_token", bool)),
        chat_template=_scalar(reader, "tokenizer.chat_template", str) or "",
    )


def _string(value: bytes) -> bytes:
    return struct.pack("<I", len(value)) + value


def serialize(spec: TokenizerSpec) -> bytes:
    """The Ember tokenizer file for `spec` (layout: extension/llm/tokenizer/README.md)."""
    flags = (FLAG_ADD_BOS if spec.add_bos else 0) | (FLAG_ADD_EOS if spec.add_eos else 0)
    out = bytearray(MAGIC)
    out += struct.pack("<Iiiiii", VERSION, flags, spec.bos_id, spec.eos_id, spec.pad_id, spec.unk_id)
    out += _string(spec.pre_tokenizer.encode())
    out += struct.pack("<I", len(spec.tokens))
    end = 0
    ends = []
    for token in spec.tokens:
        end += len(token)
        ends.append(end)
    out += struct.pack(f"<{len(ends)}I", *ends)
    out += b"".join(spec.tokens)
    out += bytes(spec.types) if spec.types else bytes(len(spec.tokens))
    out += struct.pack("<I", len(spec.merges))
    out += struct.pack(f"<{2 * len(spec.merges)}I", *(i for pair in spec.merges for i in pair))
    out += struct.pack("<I", len(spec.added))
    for token_id, special, text in spec.added:
        out += struct.pack("<IB", token_id, int(special)) + _string(text)
    out += _string(spec.chat_template.encode())
    return bytes(out)


def write_tokenizer(gguf_path: PathLike, out_path: PathLike, **overrides: Any) -> Path:
    """Writes the Ember tokenizer file for the GGUF at `gguf_path` to `out_path`.

    `overrides` replace fields of the spec (`chat_template=...`, `pre_tokenizer=...`),
    for tests and for models whose GGUF says less than it should."""
    spec = spec_from_gguf(gguf_path)
    for name, value in overrides.items():
        if not hasattr(spec, name):
            raise TypeError(f"no tokenizer field {name!r}")
        setattr(spec, name, value)
    out = Path(out_path)
    out.write_bytes(serialize(spec))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ember.llm.tokenizer",
        description="Write Ember's tokenizer file (.tokenizer) from a GGUF model file.",
    )
    parser.add_argument("gguf", help="the GGUF file (byte-level BPE tokenizer)")
    parser.add_argument("-o", "--output", help="the .tokenizer file (default: beside the GGUF)")
    args = parser.parse_args(argv)
    out = Path(args.output) if args.output else Path(args.gguf).with_suffix(".tokenizer")
    write_tokenizer(args.gguf, out)
    tokenizer = Tokenizer(out)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB): {tokenizer.vocab_size} tokens, "
          f"pre-tokenizer {tokenizer.pre_tokenizer}, chat template {tokenizer.chat_template_kind}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
