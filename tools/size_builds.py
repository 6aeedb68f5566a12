"""Right-sized builds of reference programs, their sizes, and the size gate.

    size_builds.py [--out build/size] [--cpu] [--full] [--check] [--json FILE]
    size_builds.py --pte my_model.pte [--pte other.pte] [--detail]

For each reference program (MobileNetV2 exported portable-only; with --cpu
also the default export, delegated to the CPU backend) this exports the
.pte, configures a selective size build for it (only its kernels and dtypes,
-Oz, unused sections dropped, no log strings, no event tracer or limits),
builds ember_min_run and ember_size_core, checks the program's output
against eager PyTorch, and prints what each part costs (tools/size_report.py).
--full adds a size build of the whole portable library (every op and dtype).
--check compares the numbers with tests/size/budgets.json and exits 1 when
one is over. --pte builds the same right-sized program for your own .pte
files instead (one selection from all of them), runs it once on generated
inputs and prints its table. docs/size.md explains the numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import size_report  # noqa: E402

BUDGETS = ROOT / "tests" / "size" / "budgets.json"
SIZE_FLAGS = [
    "-DCMAKE_BUILD_TYPE=MinSizeRel", "-DCMAKE_CXX_FLAGS_MINSIZEREL=-Oz -DNDEBUG",
    "-DEMBER_MINSIZE=ON", "-DEMBER_LOG_STRINGS=OFF", "-DEMBER_EVENT_TRACER=OFF",
    "-DEMBER_RUNTIME_LIMITS=OFF", "-DEMBER_BUILD_TESTS=OFF",
]


def step(message: str) -> None:
    print(f"== size: {message}", flush=True)


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, **kw)


def export_reference(out: Path, backend: str) -> tuple[Path, Path, np.ndarray]:
    """MobileNetV2 (seeded weights) as a .pte, its input as raw bytes, and
    eager's output."""
    import torch

    import ember
    sys.path.insert(0, str(ROOT))
    from examples.models import mobilenet_v2

    pte = out / f"mobilenet_v2_{backend}.pte"
    x_path = out / "mobilenet_v2_input.bin"
    torch.manual_seed(0)
    model = mobilenet_v2().eval()
    x = torch.randn(1, 3, 224, 224)
    with torch.no_grad():
        expected = model(x).numpy()
    step(f"exporting MobileNetV2 ({backend}) to {pte}")
    options = {"backends": ()} if backend == "portable" else {}  # else the default: CPU backend
    ember.export(model, (x,), **options).save(str(pte))
    x.numpy().tofile(x_path)
    return pte, x_path, expected


def configure_and_build(tree: Path, extra: list[str], targets: list[str]) -> None:
    launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"] if shutil.which("ccache") else []
    step(f"configuring {tree}")
    run(["cmake", "-S", str(ROOT), "-B", str(tree), "-G", "Ninja", *SIZE_FLAGS, *launcher,
         *extra], stdout=subprocess.DEVNULL)
    step(f"building {' '.join(targets)} in {tree}")
    jobs = os.environ.get("JOBS", "2")
    # Ninja's own [n/total] lines are the progress.
    run(["ninja", "-C", str(tree), f"-j{jobs}", *targets])


def check_output(exe: Path, pte: Path, x_path: Path, expected: np.ndarray, tree: Path) -> float:
    out_dir = tree / "outputs"
    out_dir.mkdir(exist_ok=True)
    run([str(exe), str(pte), "--input", str(x_path), "--output-dir", str(out_dir)],
        stdout=subprocess.DEVNULL)
    got = np.fromfile(out_dir / "output0.bin", dtype=np.float32).reshape(expected.shape)
    return float(np.abs(got - expected).max())


def stripped_bytes(exe: Path) -> int:
    stripped = exe.with_name(exe.name + ".stripped")
    run(["strip", "-o", str(stripped), str(exe)])
    return stripped.stat().st_size


def measures(tree: Path, exe_name: str) -> dict:
    exe = size_report.report(str(tree / exe_name))
    core = size_report.report(str(tree / "ember_size_core"))
    core_group = core["groups"].get("core", {})
    total = {k: sum(c[k] for c in exe["groups"].values()) for k in size_report.KINDS}
    return {
        "core_bytes": core_group.get("text", 0) + core_group.get("rodata", 0),
        "program_bytes": total["text"] + total["rodata"] + total["data"],
        "program_ram_bytes": total["data"] + total["bss"],
        "stripped_file_bytes": stripped_bytes(tree / exe_name),
        "groups": exe["groups"],
        "components": exe["components"],
    }


def size_own_programs(ptes: list[Path], out: Path, detail: bool) -> int:
    """A right-sized build for the user's programs: build, run once, report."""
    from ember.selective import select_files

    missing = [str(p) for p in ptes if not p.is_file()]
    if missing:
        print(f"size: no such file: {', '.join(missing)}", file=sys.stderr)
        return 1
    selection = select_files([str(p) for p in ptes])
    exe = "ember_min_run_cpu" if selection.backends else "ember_min_run"
    tree = out / ("own_" + "_".join(p.stem for p in ptes))[:80]
    select = ";".join(str(p) for p in ptes)
    configure_and_build(tree, [f"-DEMBER_SELECT_FROM={select}"], [exe, "ember_size_core"])
    for pte in ptes:
        step(f"running {pte.name} once on generated inputs")
        run([str(tree / exe), str(pte)], stdout=subprocess.DEVNULL)
    numbers = measures(tree, exe)
    print(size_report._table(numbers["components"] if detail else numbers["groups"]))
    print(f"\n{exe}: {numbers['program_bytes']:,} bytes of code and data "
          f"({numbers['stripped_file_bytes']:,} stripped on disk), "
          f"{numbers['program_ram_bytes']:,} bytes of static RAM; the core alone "
          f"{numbers['core_bytes']:,}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(ROOT / "build" / "size"))
    parser.add_argument("--cpu", action="store_true", help="also the CPU-backend export")
    parser.add_argument("--full", action="store_true",
                        help="also a size build of the whole portable library")
    parser.add_argument("--check", action="store_true", help=f"fail over {BUDGETS.name}")
    parser.add_argument("--json", help="write the numbers here")
    parser.add_argument("--pte", action="append", default=[],
                        help="size a build selected from this program instead (repeatable)")
    parser.add_argument("--detail", action="store_true", help="with --pte: every component")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.pte:
        return size_own_programs([Path(p).resolve() for p in args.pte], out, args.detail)
    started = time.time()
    results: dict[str, dict] = {}

    for backend in ["portable"] + (["cpu"] if args.cpu else []):
        pte, x_path, expected = export_reference(out, backend)
        tree = out / f"mobilenet_v2_{backend}"
        exe = "ember_min_run" if backend == "portable" else "ember_min_run_cpu"
        configure_and_build(tree, [f"-DEMBER_SELECT_FROM={pte}"], [exe, "ember_size_core"])
        error = check_output(tree / exe, pte, x_path, expected, tree)
        step(f"{exe} on {pte.name}: max abs error against eager {error:.2e}")
        if error > 1e-3:
            print(f"size: the selective build's output differs from eager ({error})",
                  file=sys.stderr)
            return 1
        results[f"mobilenet_v2_{backend}"] = measures(tree, exe)
        print(size_report._table(results[f"mobilenet_v2_{backend}"]["groups"]))

    if args.full:
        tree = out / "full"
        configure_and_build(tree, [], ["ember_min_run"])
        full = size_report.report(str(tree / "ember_min_run"))
        portable = full["groups"].get("portable", {})
        results["full_portable"] = {
            "portable_bytes": portable.get("text", 0) + portable.get("rodata", 0),
            "groups": full["groups"]}
        print(size_report._table(full["groups"]))
        # What the optional runtime parts cost: the core with its messages,
        # the event tracer and the limits built in.
        tree = out / "core_all_features"
        configure_and_build(tree, ["-DEMBER_LOG_STRINGS=ON", "-DEMBER_EVENT_TRACER=ON",
                                   "-DEMBER_RUNTIME_LIMITS=ON",
                                   f"-DEMBER_SELECT_FROM={out / 'mobilenet_v2_portable.pte'}"],
                            ["ember_size_core"])
        core = size_report.report(str(tree / "ember_size_core"))["groups"].get("core", {})
        results["core_all_features"] = {"core_bytes": core.get("text", 0) + core.get("rodata", 0)}

    summary = {
        "core (no kernels, selective, no strings)": results["mobilenet_v2_portable"]["core_bytes"],
        "MobileNetV2 portable program": results["mobilenet_v2_portable"]["program_bytes"],
        "MobileNetV2 portable program, stripped file":
            results["mobilenet_v2_portable"]["stripped_file_bytes"],
    }
    if "mobilenet_v2_cpu" in results:
        summary["MobileNetV2 CPU-backend program"] = results["mobilenet_v2_cpu"]["program_bytes"]
        summary["MobileNetV2 CPU-backend program, stripped file"] = \
            results["mobilenet_v2_cpu"]["stripped_file_bytes"]
    if "full_portable" in results:
        summary["full portable library"] = results["full_portable"]["portable_bytes"]
        summary["core with messages, event tracer, limits"] = \
            results["core_all_features"]["core_bytes"]
    print()
    for name, value in summary.items():
        print(f"{name:45} {value:>12,} bytes")
    step(f"done in {time.time() - started:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "results": results}, indent=1))
    if args.check:
        budgets = json.loads(BUDGETS.read_text())["bytes"]
        over = [f"{k}: {summary[k]:,} > budget {budgets[k]:,}" for k in summary
                if k in budgets and summary[k] > budgets[k]]
        if over:
            print("size: over budget (tests/size/budgets.json):\n  " + "\n  ".join(over),
                  file=sys.stderr)
            return 1
        step("every size within its budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
