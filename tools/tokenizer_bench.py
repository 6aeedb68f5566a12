"""Encode throughput of Ember's tokenizer against Hugging Face `tokenizers`.

Both encode the same text, a test corpus repeated to about 1 MB, on one
thread, as one string (the warm figures: after a first encode has filled each
side's word cache) and from a fresh tokenizer (cold). Run it on a quiet machine:

    .venv/bin/python tools/tokenizer_bench.py [--gguf PATH] [--repeat 300] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("RAYON_NUM_THREADS", "1")  # one thread for Hugging Face too
sys.path.insert(0, str(ROOT / "tests" / "python"))

from ember.llm import Tokenizer
from test_tokenizer import CORPUS, hf_tokenizer, smollm2_gguf


def best_seconds(fn, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gguf", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=300, help="copies of the corpus")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    gguf = args.gguf or smollm2_gguf()
    text = CORPUS.read_bytes().decode() * args.repeat
    megabytes = len(text.encode()) / 1e6

    ember = Tokenizer(gguf)
    hf = hf_tokenizer(gguf)
    ember_ids = ember.encode(text)
    hf_ids = hf.encode(text, add_special_tokens=False).ids
    assert ember_ids == hf_ids, "the two disagree on the benchmark text"

    rows = [
        ("ember warm", best_seconds(lambda: ember.encode(text), args.runs)),
        ("hf warm", best_seconds(lambda: hf.encode(text, add_special_tokens=False), args.runs)),
        ("ember cold", best_seconds(lambda: Tokenizer(gguf).encode(text), 1)),
    ]
    load = best_seconds(lambda: Tokenizer(gguf), 1)
    print(f"text: {megabytes:.2f} MB, {len(ember_ids)} tokens; load {load * 1e3:.0f} ms (GGUF)")
    print(f"load avg: {os.getloadavg()[0]:.2f}")
    for name, seconds in rows:
        print(f"{name:12s} {megabytes / seconds:7.1f} MB/s  ({seconds * 1e3:.0f} ms)")
    print(f"ember / hf (warm): {rows[1][1] / rows[0][1]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
