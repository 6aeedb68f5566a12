"""Architectures the benchmark does not name (examples/unseen_models.py), tried as
a new user would: the default `ember.export` (CPU backend) against the
portable-only export and ONNX Runtime, at 1 and 2 threads, outputs checked
against eager.

    .venv/bin/python bench/unseen_architectures.py [--rounds 3] [--seconds 1]
        [--markdown bench/UNSEEN.md]

Each peer runs in this process through its Python API (Ember's binding, an
onnxruntime InferenceSession), so both pay one Python call per run. Rounds
interleave the peers; each keeps its lowest median (see run_bench.py --rounds).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import ember
import onnxruntime as ort

from examples.unseen_models import CASES

PEERS = ("ember_cpu", "ember_portable", "ort")


def median_ms(run, seconds: float, max_runs: int = 200) -> float:
    run()  # warm-up
    times = []
    deadline = time.perf_counter() + seconds
    while len(times) < 3 or (time.perf_counter() < deadline and len(times) < max_runs):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def runners(name: str, workdir: Path, threads: int):
    """Per peer, a callable running the model once and its output."""
    factory, _, shape = CASES[name]
    torch.manual_seed(0)
    model = factory().eval()
    x = torch.randn(shape)
    with torch.no_grad():
        expected = model(x).numpy()
    out: dict = {}
    for peer, backends in (("ember_cpu", None), ("ember_portable", ())):
        path = workdir / f"{name}_{peer}.pte"
        if not path.exists():
            ember.export(model, (x,), backends=backends).save(path)
        module = ember.runtime.load(str(path), threads=threads)
        out[peer] = (lambda m=module: m.forward(x), module.forward(x))
    onnx_path = workdir / f"{name}.onnx"
    if not onnx_path.exists():
        torch.onnx.export(model, (x,), str(onnx_path), dynamo=False, opset_version=17)
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])
    feed = {session.get_inputs()[0].name: x.numpy()}
    out["ort"] = (lambda: session.run(None, feed), session.run(None, feed)[0])
    diffs = {peer: float(np.abs(np.asarray(o) - expected).max()) for peer, (_, o) in out.items()}
    return {peer: run for peer, (run, _) in out.items()}, diffs


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=1.0, help="time box per measurement")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--markdown", type=Path, help="write the table here")
    args = p.parse_args(argv)
    threads_list = [int(t) for t in args.threads.split(",")]
    lines = [("| model | input | thr | Ember CPU ms | Ember portable ms | ONNX Runtime ms | "
              "CPU / portable | CPU / ORT | max abs diff (CPU, ORT) |"),
             "|---|---|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for name in CASES:
            for threads in threads_list:
                print(f"== {name} t{threads}: exporting and measuring", flush=True)
                runs, diffs = runners(name, workdir, threads)
                best = {peer: float("inf") for peer in PEERS}
                for _ in range(args.rounds):
                    for peer in PEERS:
                        best[peer] = min(best[peer], median_ms(runs[peer], args.seconds))
                shape = "x".join(map(str, CASES[name][2]))
                line = (f"| {name} | {shape} | {threads} | {best['ember_cpu']:.3f} | "
                        f"{best['ember_portable']:.3f} | {best['ort']:.3f} | "
                        f"{best['ember_cpu'] / best['ember_portable']:.2f} | "
                        f"{best['ember_cpu'] / best['ort']:.2f} | "
                        f"{diffs['ember_cpu']:.1e}, {diffs['ort']:.1e} |")
                print(line, flush=True)
                lines.append(line)
    if args.markdown:
        command = " ".join(argv if argv is not None else sys.argv[1:])
        header = ["# Architectures the benchmark does not name", "",
                  f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
                  f"- Command: `.venv/bin/python bench/unseen_architectures.py {command}`",
                  (f"- Best of {args.rounds} interleaved rounds, each the median of up to 200 "
                   f"runs in {args.seconds:g} s; in-process Python calls for every peer."), ""]
        args.markdown.write_text("\n".join(header + lines) + "\n")
        print(f"wrote {args.markdown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
