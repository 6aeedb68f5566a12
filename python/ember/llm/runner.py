"""Generating text from Python: the C++ runner (extension/llm: session,
sampler, generation loop) with the tokenizer beside the program.

    runner = ember.llm.Runner("smollm2.pte")
    text, stats = runner.generate("The capital of France is", max_new_tokens=32)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from ember import _C
from ember.llm.export import tokenizer_path


class Runner:
    """A loaded LLM program (from `ember llm export`). Token-level calls
    (`generate_ids`, `forward`) need no tokenizer; text calls load the one
    beside the program (or `tokenizer`)."""

    def __init__(self, program: str | os.PathLike[str], threads: int = 0,
                 tokenizer: str | os.PathLike[str] | None = None):
        program = os.fspath(program)
        if not os.path.isfile(program):
            raise FileNotFoundError(f"no such program file: {program}")
        self._session = _C.LlmSession(program, threads)
        self.metadata: dict[str, int] = dict(self._session.metadata)
        self._tokenizer_path = os.fspath(tokenizer) if tokenizer else tokenizer_path(program)
        self._tokenizer: Any = None

    @property
    def tokenizer(self) -> Any:
        if self._tokenizer is None:
            from ember.llm.tokenizer import Tokenizer

            if not os.path.isfile(self._tokenizer_path):
                raise FileNotFoundError(f"no tokenizer at {self._tokenizer_path}")
            self._tokenizer = Tokenizer(self._tokenizer_path)
        return self._tokenizer

    @property
    def position(self) -> int:
        """Tokens in the KV caches."""
        return self._session.position

    def reset(self) -> None:
        """Empties the KV caches (a new conversation)."""
        self._session.reset()

    def forward(self, tokens: Sequence[int]) -> Any:
        """Runs tokens at the next positions; the logits after the last one."""
        return self._session.forward(list(tokens))

    def generate_ids(self, prompt: Sequence[int], max_new_tokens: int = 128,
                     temperature: float = 0.0, top_k: int = 0, top_p: float = 1.0,
                     repetition_penalty: float = 1.0, seed: int = 0,
                     stop_ids: Sequence[int] = (),
                     on_token: Callable[[int], bool | None] | None = None,
                     ) -> tuple[list[int], dict[str, Any]]:
        """Generates after `prompt` (continuing the caches); returns the new
        ids and the timings (prefill and decode tokens/s, time to first token,
        peak memory, why it stopped)."""
        def callback(token: int) -> bool:
            return on_token is None or on_token(token) is not False

        ids, stats = self._session.generate(list(prompt), max_new_tokens, temperature, top_k,
                                            top_p, repetition_penalty, seed, list(stop_ids),
                                            callback)
        return list(ids), dict(stats)

    def generate(self, prompt: str, max_new_tokens: int = 128, chat: bool = False,
                 stream: Callable[[str], None] | None = None, **sampling: Any
                 ) -> tuple[str, dict[str, Any]]:
        """Generates text after `prompt` (with `chat`, the prompt as a user
        message in the model's chat template); `stream` gets each piece of
        text as soon as it is whole UTF-8."""
        tok = self.tokenizer
        if chat:
            text = tok.apply_chat_template([{"role": "user", "content": prompt}],
                                           add_generation_prompt=True)
            ids = tok.encode(text)
        else:
            ids = tok.encode(prompt)
            bos = self.metadata.get("bos_id", -1)
            if tok.add_bos and bos >= 0:
                ids = [bos, *ids]
        decoder = tok.stream(skip_special=True)
        pieces: list[str] = []

        def on_token(token: int) -> bool:
            piece = decoder.push(token)
            pieces.append(piece)
            if stream is not None and piece:
                stream(piece)
            return True

        _, stats = self.generate_ids(ids, max_new_tokens, on_token=on_token, **sampling)
        tail = decoder.flush()
        if tail:
            pieces.append(tail)
            if stream is not None:
                stream(tail)
        return "".join(pieces), stats

    @staticmethod
    def format_stats(stats: dict[str, Any]) -> str:
        return (f"prompt {stats['prompt_tokens']} tokens, generated {stats['generated_tokens']} "
                f"({stats['stop']}); time to first token {stats['first_token_ms']:.1f} ms; "
                f"prefill {stats['prefill_tokens_per_s']:.1f} tokens/s, decode "
                f"{stats['decode_tokens_per_s']:.1f} tokens/s; peak memory "
                f"{stats['peak_rss_bytes'] / 2**20:.1f} MiB")


class Sampler:
    """The runner's sampler on its own: next token from logits under a seed."""

    def __init__(self, vocab_size: int, temperature: float = 0.0, top_k: int = 0,
                 top_p: float = 1.0, repetition_penalty: float = 1.0, seed: int = 0):
        self._sampler = _C.Sampler(vocab_size, temperature, top_k, top_p, repetition_penalty,
                                   seed)

    def sample(self, logits: Any, history: Sequence[int] = ()) -> int:
        import numpy as np

        return int(self._sampler.sample(np.asarray(logits, dtype=np.float32).reshape(-1),
                                        list(history)))
