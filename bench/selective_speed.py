"""A selective build runs as fast as the full build (docs/size.md).

    .venv/bin/python bench/selective_speed.py [--rounds 5] [--runs 20] [--threads 1,2]

Exports MobileNetV2 twice (portable-only and with the CPU backend), builds
`ember_run` in a Release (-O3) tree selected from those two programs
(build/selective-speed), and times both programs on it and on the full
build's `ember_run` (build/py), in interleaved rounds so that the machine's
drift hits both alike. Prints each one's median and the ratio selective/full
(1.00 = the same speed); the outputs of the two builds must be equal.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
FULL = ROOT / "build" / "py" / "ember_run"
TREE = ROOT / "build" / "selective-speed"
RUN_LINE = re.compile(r"median ([\d.]+) ms")


def export(out: Path) -> list[Path]:
    import torch

    import ember
    sys.path.insert(0, str(ROOT))
    from examples.models import mobilenet_v2

    torch.manual_seed(0)
    model = mobilenet_v2().eval()
    x = torch.randn(1, 3, 224, 224)
    np.save(out / "input.npy", x.numpy())
    ptes = []
    for name, options in (("portable", {"backends": ()}), ("cpu", {})):
        pte = out / f"mobilenet_v2_{name}.pte"
        print(f"== exporting MobileNetV2 ({name}) to {pte}", flush=True)
        ember.export(model, (x,), **options).save(str(pte))
        ptes.append(pte)
    return ptes


def build(ptes: list[Path]) -> Path:
    launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"] if shutil.which("ccache") else []
    print(f"== configuring {TREE} (Release, selected from the two programs)", flush=True)
    subprocess.run(["cmake", "-S", str(ROOT), "-B", str(TREE), "-G", "Ninja",
                    "-DCMAKE_BUILD_TYPE=Release", "-DEMBER_BUILD_PYTHON=OFF",
                    f"-DEMBER_SELECT_FROM={';'.join(map(str, ptes))}", *launcher],
                   check=True, stdout=subprocess.DEVNULL)
    jobs = os.environ.get("JOBS", "2")
    subprocess.run(["ninja", "-C", str(TREE), f"-j{jobs}", "ember_run"], check=True)
    return TREE / "ember_run"


def time_once(exe: Path, pte: Path, x: Path, threads: int, runs: int, out: Path) -> float:
    out.mkdir(parents=True, exist_ok=True)
    log = subprocess.run([str(exe), str(pte), "--input", str(x), "--threads", str(threads),
                          "--runs", str(runs), "--warmup", "3", "--output-dir", str(out)],
                         check=True, capture_output=True, text=True).stdout
    m = RUN_LINE.search(log)
    if not m:
        raise RuntimeError(f"{exe}: no timing line in\n{log}")
    return float(m.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--threads", default="1,2")
    args = parser.parse_args()
    if not FULL.exists():
        print(f"{FULL} is missing: run `make build` first", file=sys.stderr)
        return 1
    work = ROOT / "build" / "selective-speed-models"
    work.mkdir(parents=True, exist_ok=True)
    ptes = export(work)
    selective = build(ptes)
    x = work / "input.npy"
    print(f"== load average {os.getloadavg()[0]:.2f}; {args.rounds} interleaved rounds of "
          f"{args.runs} runs", flush=True)
    print(f"{'program':28} {'threads':>7} {'full ms':>9} {'selective ms':>13} {'ratio':>6}")
    for pte in ptes:
        for threads in (int(t) for t in args.threads.split(",")):
            full, sel = [], []
            for _ in range(args.rounds):
                full.append(time_once(FULL, pte, x, threads, args.runs, work / "out_full"))
                sel.append(time_once(selective, pte, x, threads, args.runs, work / "out_sel"))
            same = np.array_equal(np.load(work / "out_full" / "output_0.npy"),
                                  np.load(work / "out_sel" / "output_0.npy"))
            f, s = statistics.median(full), statistics.median(sel)
            print(f"{pte.stem:28} {threads:>7} {f:>9.2f} {s:>13.2f} {s / f:>6.2f}"
                  f"{'' if same else '  OUTPUTS DIFFER'}", flush=True)
            if not same:
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
