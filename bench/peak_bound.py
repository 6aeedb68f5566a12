"""How close each benchmark row runs to what this CPU can compute.

Reads a `run_bench.py --json` result, counts each model's multiply-adds
(torch's FlopCounterMode over the float model: matmuls and convolutions, 2
operations a multiply-add; an int8 row does the same operations in int8),
measures this machine's ceilings with Ember's own benches, and writes, per
model and thread count: Ember CPU's and the faster peer's operations per
second as a share of the ceiling, and the share that Ember would need to run
at 0.8x the faster peer. A row that needs more than 100% cannot reach 0.8x by
kernel speed: only by doing fewer operations (Winograd, as ResNet's 3x3
convolutions already are) or by a machine with more compute.

Ceilings, one thread (times the thread count for more):
- f32: `ember_gemm_bench`'s FMA peak (independent FMA chains at the widest
  vector width the CPU has, the hardware's limit, not a GEMM's);
- int8: the best GEMM rate of `ember_qgemm_bench` over three compute-bound
  shapes (VNNI/AMX/AVX2 int8 GEMM, the fastest int8 kernel here, not a
  hardware limit: an int8 row above 100% beats Ember's own GEMM).

    .venv/bin/python bench/peak_bound.py --json RESULTS.json --markdown PEAK.md
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import torch
from torch.utils.flop_counter import FlopCounterMode

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
import bench_models
from run_bench import PEER_LABELS, against_faster_peer

INT8_SHAPES = "784x512x2304,3136x64x576,128x768x768"


def model_gflop(name: str) -> float:
    """Operations of one forward pass of the row's float model, in GFLOP."""
    base = bench_models.QUANTIZED.get(name, (name, None))[0]
    torch.manual_seed(0)
    model, inputs = bench_models.build(base)
    counter = FlopCounterMode(display=False)
    with torch.no_grad(), counter:
        model(*inputs)
    return counter.get_total_flops() / 1e9


def f32_peak(build: Path) -> float:
    out = subprocess.run([str(build / "ember_gemm_bench"), "--sizes", "64x64x64", "--threads", "1",
                          "--seconds", "0.2"], capture_output=True, text=True, check=True).stdout
    return float(re.search(r"measured FMA peak, 1 thread: ([0-9.]+)", out).group(1))


def int8_rate(build: Path) -> float:
    out = subprocess.run([str(build / "ember_qgemm_bench"), "--sizes", INT8_SHAPES, "--threads",
                          "1", "--seconds", "0.5"], capture_output=True, text=True,
                         check=True).stdout
    # Rows: MxNxK kind threads variant f32 qs8 ...; the best qs8 GOP/s of any variant.
    rates = [float(m.group(1)) for m in re.finditer(r"^\S+\s+gemm\s+1\s+\S+\s+[0-9.]+\s+([0-9.]+)",
                                                     out, re.MULTILINE)]
    return max(rates)


def share(gflop: float, ms: float, ceiling: float) -> str:
    """GFLOP in ms against a ceiling in GFLOP/s, as a percentage."""
    return f"{100 * gflop / (ms / 1e3) / ceiling:.0f}%"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", required=True, help="a run_bench.py --json result")
    parser.add_argument("--build", default=str(ROOT.parent / "build" / "py"))
    parser.add_argument("--markdown", help="write the table here too")
    args = parser.parse_args()

    data = json.loads(Path(args.json).read_text())
    build = Path(args.build)
    print("[peak_bound] measuring the f32 FMA peak and the int8 GEMM rate ...", flush=True)
    ceilings = {"f32": f32_peak(build), "int8": int8_rate(build)}
    lines = [
        (f"Ceilings, one thread: f32 FMA peak {ceilings['f32']:.1f} GFLOP/s "
         f"(`ember_gemm_bench`), int8 GEMM {ceilings['int8']:.1f} GOP/s "
         f"(`ember_qgemm_bench --sizes {INT8_SHAPES}`, best variant); "
         f"bench run of {data['machine']['date']} on {data['machine']['cpu']}."),
        "",
        ("| model | GFLOP | thr | Ember CPU ms | % of ceiling | faster peer | peer ms | "
         "% of ceiling | 0.8x needs |"),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for result in data["results"]:
        name = result["model"]
        print(f"[peak_bound] counting {name} ...", flush=True)
        gflop = model_gflop(name)
        ceiling = ceilings["int8" if name in bench_models.QUANTIZED else "f32"]
        for threads, ours_row, peer_row in against_faster_peer(result):
            ours, theirs = ours_row["median_ms"], peer_row["median_ms"]
            ceiling_t = threads * ceiling
            lines.append(
                f"| {name} | {gflop:.2f} | {threads} | {ours:.2f} | "
                f"{share(gflop, ours, ceiling_t)} | {PEER_LABELS[peer_row['peer']]} | "
                f"{theirs:.2f} | {share(gflop, theirs, ceiling_t)} | "
                f"{share(gflop, 0.8 * theirs, ceiling_t)} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
