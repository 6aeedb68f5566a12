"""WebAssembly in Node against the native build, same program, same input,
one thread, in one run: MobileNetV2, EfficientNet-Lite0 int8 and MiniLM.

    .venv/bin/python bench/wasm_bench.py [--js build/wasm/js] [--rounds 3] [--markdown FILE]

The native side is ember_run (build/py) with AVX-512 masked off
(EMBER_CPU_FEATURES_MASK, kernels/optimized/cpu_features.h): the AVX2 + FMA
variants, as an AVX2 machine runs them (--mask 0x8f adds AVX-VNNI's int8
dot products). The wasm side is bench/wasm_bench.mjs on the single-threaded
module (SIMD128). Rounds interleave the two, so a disturbed spell on this
shared machine hits both; each side keeps its lowest median. The outputs
are compared (max abs difference) so that a fast wrong answer cannot pass.
Programs are exported once into build/bench-wasm (the int8 one reuses
examples/web's, out/web/models, when present).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))


def export(cache: Path) -> list[tuple[str, Path, Path, str]]:
    """(name, program, input .npy, note) for each model, exported once."""
    import numpy as np
    import torch

    import bench_models
    import ember

    cache.mkdir(parents=True, exist_ok=True)
    out = []
    for name, factory in (("mobilenet_v2", bench_models.mobilenet_v2),
                          ("minilm", bench_models.minilm)):
        pte, x_file = cache / f"{name}.pte", cache / f"{name}.input.npy"
        if not pte.exists():
            print(f"exporting {name} ...", flush=True)
            model, inputs = factory()
            ember.export(model, inputs).save(str(pte))
            np.save(x_file, inputs[0].numpy())
        out.append((name, pte, x_file, "float32, CPU backend"))
    int8 = ROOT / "out" / "web" / "models" / "efficientnet_lite0_int8.pte"
    if not int8.exists():
        int8 = cache / "efficientnet_lite0_int8.pte"
        if not int8.exists():
            sys.path.insert(0, str(ROOT / "examples" / "web"))
            import prepare

            int8 = prepare.export_models(cache / "efficientnet")["int8"]
    x_file = cache / "efficientnet_lite0.input.npy"
    if not x_file.exists():
        from examples import efficientnet_lite

        np.save(x_file, efficientnet_lite.photo_batch()[0][1].numpy())
    out.append(("efficientnet_lite0_int8", int8, x_file, "int8 (static), CPU backend"))
    del torch
    return out


def native(ember_run: str, pte: Path, x: Path, runs: int, mask: str, outdir: str) -> float:
    env = dict(os.environ, EMBER_CPU_FEATURES_MASK=mask)
    result = subprocess.run([ember_run, str(pte), "--input", str(x), "--runs", str(runs),
                             "--warmup", "3", "--threads", "1", "--print", "0",
                             "--output-dir", outdir], capture_output=True, text=True, env=env,
                            check=True)
    m = re.search(r"median ([0-9.]+) ms", result.stdout)
    if not m:
        raise RuntimeError(result.stdout + result.stderr)
    return float(m.group(1))


def wasm(js: Path, pte: Path, x_npy: Path, runs: int, out: Path) -> dict:
    import numpy as np

    x = np.load(x_npy)
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(x.tobytes())
        f.flush()
        dtype = {"float32": "float32", "int64": "int64"}[str(x.dtype)]
        result = subprocess.run(["node", str(HERE / "wasm_bench.mjs"), "--js", str(js), "--pte",
                                 str(pte), "--input", f.name, "--dtype", dtype, "--dims",
                                 ",".join(map(str, x.shape)), "--runs", str(runs), "--warmup", "3",
                                 "--threads", "1", "--output", str(out)],
                                capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def simd128_floor(gemm_bench: Path) -> str | None:
    """The ratio ember_gemm_bench --simd128-floor measures on this x86 core
    (SIMD128 has no FMA: its GEMM cannot beat that ratio), or None."""
    if not gemm_bench.exists():
        return None
    run = subprocess.run([str(gemm_bench), "--simd128-floor"], capture_output=True, text=True,
                         check=False)
    found = re.search(r"simd128 floor: ([0-9.]+x)", run.stdout)
    return found.group(1) if run.returncode == 0 and found else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--js", default=str(ROOT / "build" / "wasm" / "js"))
    parser.add_argument("--ember-run", default=str(ROOT / "build" / "py" / "ember_run"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--mask", default="0x0f", help="EMBER_CPU_FEATURES_MASK for ember_run")
    parser.add_argument("--cache", default=str(ROOT / "build" / "bench-wasm"))
    parser.add_argument("--markdown", help="write the table here too")
    args = parser.parse_args()
    import numpy as np

    models = export(Path(args.cache))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, pte, x, note in models:
            best_native, best_wasm, load = float("inf"), float("inf"), 0.0
            for r in range(args.rounds):
                best_native = min(best_native, native(args.ember_run, pte, x, args.runs, args.mask, tmp))
                w = wasm(Path(args.js), pte, x, args.runs, Path(tmp) / "wasm.bin")
                best_wasm = min(best_wasm, w["median_ms"])
                load = w["load_ms"]
                print(f"  {name} round {r + 1}: native {best_native:.2f} ms, wasm {w['median_ms']:.2f} ms",
                      flush=True)
            want = np.load(Path(tmp) / "output_0.npy").ravel()
            got = np.fromfile(Path(tmp) / "wasm.bin", dtype=want.dtype)
            diff = float(np.abs(got - want).max())
            rows.append((name, note, best_native, best_wasm, best_wasm / best_native, diff, load,
                         pte.stat().st_size))
    load_avg = os.getloadavg()
    lines = [f"WebAssembly (Node {subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()}, "
             f"SIMD128, 1 thread) vs native ember_run (EMBER_CPU_FEATURES_MASK={args.mask}, 1 thread); "
             f"lowest median of {args.rounds} interleaved rounds x {args.runs} runs; "
             f"load average {load_avg[0]:.1f}",
             "",
             "| model | program | native ms | wasm ms | wasm / native | max abs diff | wasm load ms |",
             "|---|---|---|---|---|---|---|"]
    for name, note, n, w, ratio, diff, load, size in rows:
        lines.append(f"| {name} | {note}, {size / 2**20:.1f} MiB | {n:.2f} | {w:.2f} | {ratio:.2f}x | "
                     f"{diff:.1e} | {load:.0f} |")
    floor = simd128_floor(Path(args.ember_run).parent / "ember_gemm_bench")
    if floor:
        lines += ["", f"This core's floor for a compute-bound f32 kernel, SIMD128's multiply and add "
                      f"against AVX2's FMA (`ember_gemm_bench --simd128-floor`): {floor}"]
    print("\n".join(lines))
    if args.markdown:
        Path(args.markdown).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
