"""Encode throughput of Ember's tokenizer against Hugging Face `tokenizers`.

Both encode the same text, a test corpus repeated to about 1 MB, on one
thread: as one string (warm: after a first encode has filled the word caches;
cold: a fresh tokenizer) and as its paragraphs (Hugging Face's encode_batch).
Run it on a quiet machine:

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
    from gguf import GGUFReader

    hf = hf_tokenizer(GGUFReader(str(gguf)))
    ember_ids = ember.encode(text)
    hf_ids = hf.encode(text, add_special_tokens=False).ids
    assert ember_ids == hf_ids, "the two disagree on the benchmark text"

    paragraphs = text.split("\n\n")
    fresh = [Tokenizer(gguf) for _ in range(args.runs)]
    rows = [
        ("ember, one string, warm", best_seconds(lambda: ember.encode(text), args.runs)),
        ("ember, one string, cold", min(best_seconds(lambda t=t: t.encode(text), 1) for t in fresh)),
        ("hf, one string, warm", best_seconds(lambda: hf.encode(text, add_special_tokens=False), args.runs)),
        ("ember, paragraphs", best_seconds(lambda: [ember.encode(p) for p in paragraphs], args.runs)),
        ("hf, paragraphs (batch)", best_seconds(lambda: hf.encode_batch(paragraphs, add_special_tokens=False), args.runs)),
    ]
    load = best_seconds(lambda: Tokenizer(gguf), 3)
    print(f"text: {megabytes:.2f} MB ({len(paragraphs)} paragraphs), {len(ember_ids)} tokens; "
          f"Ember loads the GGUF's tokenizer in {load * 1e3:.0f} ms")
    print(f"load average {os.getloadavg()[0]:.2f}; one thread each (RAYON_NUM_THREADS=1)")
    for name, seconds in rows:
        print(f"  {name:26s} {megabytes / seconds:7.1f} MB/s  ({seconds * 1e3:6.0f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
