"""Side-by-side benchmark: Ember vs ExecuTorch (portable, XNNPACK), ONNX Runtime, torch eager.

    .venv/bin/python bench/run_bench.py [--models a,b] [--threads 1,2] [--runs N]
        [--seconds S] [--warmup W] [--json out.json] [--markdown bench/RESULTS.md]

Every model is built and exported once (bench/prepare.py, in a subprocess); then
every peer is measured in its own subprocess (bench/worker.py, or the native
`ember_run` for Ember) so that load time and peak RSS are per peer.  A peer that
fails on a model is reported with a short reason; the run goes on.
See bench/README.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
VENV_BIN = Path(sys.executable).parent
sys.path.insert(0, str(HERE))

from bench_models import MODELS

PEERS = ["ember", "ember_cpu", "et_portable", "et_xnnpack", "ort", "eager"]
PEER_LABELS = {
    "ember": "Ember (portable)",
    "ember_cpu": "Ember CPU backend",
    "et_portable": "ExecuTorch portable",
    "et_xnnpack": "ExecuTorch XNNPACK",
    "ort": "ONNX Runtime",
    "eager": "torch eager",
}
# Peers whose kernels are single-threaded: measured once, reported at every thread count.
SINGLE_THREADED = {"ember", "et_portable"}
ARTIFACT = {"ember": "ember.pte", "ember_cpu": "ember_cpu.pte", "et_portable": "et_portable.pte",
            "et_xnnpack": "et_xnnpack.pte", "ort": "model.onnx", "eager": "model.pt"}
PREPARE_KEY = {"ember": "ember", "ember_cpu": "ember_cpu", "et_portable": "et_portable",
               "et_xnnpack": "et_xnnpack",
               "ort": "onnx", "eager": "eager"}


# --------------------------------------------------------------------------- subprocesses

def _hwm(pid: int) -> int:
    """Peak resident set (VmHWM) of a live process, in bytes; 0 if unreadable."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run_measured(cmd: list[str], timeout: float, log: Path, env: dict | None = None) -> dict:
    """Runs cmd; returns rc, wall time, peak RSS and whether it timed out.

    Peak RSS is the child's VmHWM (the kernel's high-water mark of its own address
    space since exec), polled every 10 ms until it exits; the child's ru_maxrss is not
    used, since Linux carries the forking parent's high-water mark across exec."""
    start = time.perf_counter()
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
    peak = 0
    timed_out = False
    while True:
        pid, status, _ = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        peak = max(peak, _hwm(proc.pid))
        if time.perf_counter() - start > timeout:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            pid, status, _ = os.wait4(proc.pid, 0)
            break
        time.sleep(0.01)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return {
        "rc": proc.returncode,
        "timed_out": timed_out,
        "wall_s": time.perf_counter() - start,
        "peak_rss": peak,
        "log": log.read_text(errors="replace")[-4000:],
    }


def tail_reason(log: str, default: str) -> str:
    lines = [ln.strip() for ln in log.strip().splitlines() if ln.strip()]
    for line in reversed(lines):
        if re.search(r"(Error|error|Exception|failed|cannot|Aborted|Segmentation)", line):
            return line[:200]
    return (lines[-1][:200] if lines else default)


# --------------------------------------------------------------------------- machine / sizes

def machine_info() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for mod in ("torch", "executorch", "onnxruntime", "onnx", "transformers", "numpy"):
        try:
            from importlib.metadata import version
            versions[mod] = version(mod)
        except Exception:  # noqa: BLE001
            versions[mod] = "n/a"
    try:
        affinity = len(os.sched_getaffinity(0))
    except Exception:  # noqa: BLE001
        affinity = os.cpu_count()
    mem = "n/a"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return {
        "cpu": cpu, "logical_cpus": os.cpu_count(), "usable_cpus": affinity, "memory": mem,
        "os": platform.platform(), "python": platform.python_version(), "versions": versions,
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }


def runtime_size(workdir: Path) -> dict:
    """Stripped size of ember_run, plus per-kernel-file text sizes for the per-model estimate."""
    binary = VENV_BIN / "ember_run"
    info: dict = {"binary": str(binary)}
    if not binary.exists():
        info["error"] = "ember_run not found"
        return info
    copy = workdir / "ember_run.stripped"
    shutil.copy(binary, copy)
    strip = shutil.which("strip")
    if strip:
        subprocess.run([strip, "--strip-all", str(copy)], check=False, capture_output=True)
        info["stripped"] = True
    else:
        info["stripped"] = False
    info["stripped_size"] = copy.stat().st_size
    info["unstripped_size"] = binary.stat().st_size

    # Which source file registers each operator, and the .text size of its object.
    op_file: dict[str, str] = {}
    for cpp in sorted((REPO / "kernels").rglob("*.cpp")):
        for op in re.findall(r'EMBER_REGISTER_KERNEL\(\s*"([^"]+)"', cpp.read_text(errors="replace")):
            op_file[op] = cpp.name
    info["op_file"] = op_file
    sizes: dict[str, int] = {}
    size_tool = shutil.which("size")
    objdir = None
    for candidate in ("build/py", "build/dev", "build/demo"):
        d = REPO / candidate / "CMakeFiles/ember_portable_kernels_lib.dir/kernels"
        if d.is_dir() and len(list(d.rglob("*.cpp.o"))) >= 10:
            objdir = d
            break
    if size_tool and objdir is not None:
        for obj in sorted(objdir.rglob("*.cpp.o")):
            res = subprocess.run([size_tool, str(obj)], capture_output=True, text=True, check=False)
            rows = res.stdout.strip().splitlines()
            if res.returncode == 0 and len(rows) >= 2:
                sizes[obj.name[:-2]] = int(rows[1].split()[0])  # text
        info["kernel_objects"] = str(objdir.relative_to(REPO))
    info["kernel_text_sizes"] = sizes
    return info


def kernels_needed_size(rt: dict, operators: list[str]) -> dict:
    """Approximation: stripped binary minus the .text of kernel source files that
    register none of the model's operators (file granularity, from build objects)."""
    if "stripped_size" not in rt:
        return {"size": None, "method": "n/a"}
    sizes = rt.get("kernel_text_sizes") or {}
    needed_files = {rt["op_file"].get(op) for op in operators} - {None}
    unknown = [op for op in operators if op not in rt["op_file"]]
    if not sizes:
        return {"size": rt["stripped_size"], "method": "whole runtime (no per-kernel estimate)",
                "kernel_files": sorted(needed_files), "unmapped_ops": unknown}
    unneeded = sum(v for k, v in sizes.items() if k not in needed_files)
    return {"size": max(rt["stripped_size"] - unneeded, 0),
            "method": "estimate: stripped ember_run minus .text of unneeded kernel files",
            "kernel_files": sorted(needed_files), "unmapped_ops": unknown}


# --------------------------------------------------------------------------- measuring

def stats(times: list[float]) -> dict:
    if not times:
        return {}
    arr = np.asarray(times)
    return {"runs": len(times), "median_ms": float(np.median(arr)),
            "p90_ms": float(np.percentile(arr, 90)), "min_ms": float(arr.min()),
            "mean_ms": float(arr.mean())}


def compare(model_dir: Path, out_path: Path) -> dict:
    try:
        ref = np.load(model_dir / "reference.npy").astype(np.float64)
        out = np.load(out_path).astype(np.float64)
        if out.shape != ref.shape:
            if out.size == ref.size:
                out = out.reshape(ref.shape)
            else:
                return {"max_abs_diff": None, "diff_note": f"shape {out.shape} vs {ref.shape}"}
        diff = float(np.abs(out - ref).max())
        scale = float(np.abs(ref).max()) or 1.0
        return {"max_abs_diff": diff, "max_rel_diff": diff / scale}
    except Exception as exc:  # noqa: BLE001
        return {"max_abs_diff": None, "diff_note": f"no output ({type(exc).__name__})"}


def _pythonpath() -> str:
    """The subprocesses' PYTHONPATH: the caller's first (a worktree measures its own
    build of `ember` that way), then this repository's sources."""
    parts = [os.environ.get("PYTHONPATH", ""), str(REPO / "python"), str(REPO)]
    return os.pathsep.join(p for p in parts if p)


def measure_worker(peer: str, model_dir: Path, threads: int, args, worker_peer: str | None = None) -> dict:
    worker_peer = worker_peer or peer
    result_path = model_dir / f"result_{worker_peer}_t{threads}.json"
    result_path.unlink(missing_ok=True)
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), HF_HUB_OFFLINE="1",
               PYTHONPATH=_pythonpath())
    cmd = [sys.executable, str(HERE / "worker.py"), worker_peer, str(model_dir), str(threads),
           str(args.runs), str(args.seconds), str(args.warmup), str(args.warmup_seconds),
           str(result_path),
           str(max(args.timeout - 10, args.timeout * 0.8))]
    proc = run_measured(cmd, args.timeout, model_dir / f"log_{worker_peer}_t{threads}.txt", env)
    row: dict = {"peak_rss": proc["peak_rss"], "wall_s": proc["wall_s"]}
    if proc["timed_out"]:
        return {**row, "status": "failed",
                "reason": f"no result within --timeout {args.timeout:.0f} s (load + one run too slow)"}
    if proc["rc"] != 0 or not result_path.exists():
        return {**row, "status": "failed",
                "reason": tail_reason(proc["log"], f"exit code {proc['rc']}")}
    res = json.loads(result_path.read_text())
    row.update(status="ok", load_ms=res.get("load_ms"), threads_used=res.get("threads_used"),
               first_run_ms=res.get("first_run_ms"), warmup_runs=res.get("warmup_runs"),
               rss_before_load=res.get("rss_before_load"), times_ms=res["times_ms"],
               **stats(res["times_ms"]))
    notes = [n for n in (res.get("load_note"), res.get("note")) if n]
    if notes:
        row["note"] = "; ".join(notes)
    if row.get("rss_before_load"):
        row["model_rss_delta"] = max(proc["peak_rss"] - row["rss_before_load"], 0)
    row.update(compare(model_dir, model_dir / f"out_{worker_peer}_t{threads}.npy"))
    return row


RUN_LINE = re.compile(r"run: (\d+) runs after (\d+) warm-up: median ([\d.]+) ms, min ([\d.]+) ms, "
                      r"mean ([\d.]+) ms")
LOAD_LINE = re.compile(r"load ([\d.]+) ms, init ([\d.]+) ms(?:, planned memory ([\d.]+ \w+))?")


def measure_ember(model_dir: Path, args, peer: str = "ember", threads: int = 1) -> dict:
    """Ember (`ember.pte`, portable kernels, 1 thread) or its CPU backend
    (`ember_cpu.pte`, `threads` threads): per-run latencies (for p90) through the
    Python binding in one subprocess, then the native `ember_run` in another for
    median/min/mean, load+init and peak RSS."""
    py = measure_worker(peer, model_dir, threads, args, worker_peer=f"{peer}_py")
    runs = py.get("runs") or args.runs
    # As many warm-up runs as the binding needed to pass --warmup-seconds: ember_run starts
    # its own threads, which need the same settling time.
    warmup = py.get("warmup_runs") or args.warmup
    out_dir = model_dir / f"{peer}_run_out_t{threads}"
    out_dir.mkdir(exist_ok=True)
    inputs = sorted(model_dir.glob("input_*.npy"), key=lambda p: int(p.stem.split("_")[1]))
    cmd = [str(args.ember_run), str(model_dir / ARTIFACT[peer]), "--threads", str(threads)]
    for p in inputs:
        cmd += ["--input", str(p)]
    cmd += ["--runs", str(runs), "--warmup", str(warmup), "--output-dir", str(out_dir)]
    proc = run_measured(cmd, args.timeout, model_dir / f"log_{peer}_run_t{threads}.txt")
    row: dict = {"peak_rss": proc["peak_rss"], "wall_s": proc["wall_s"], "threads_used": threads,
                 "python_binding": {k: py.get(k) for k in
                                    ("status", "reason", "runs", "median_ms", "p90_ms", "min_ms",
                                     "load_ms", "peak_rss", "times_ms")}}
    run_m, load_m = RUN_LINE.search(proc["log"]), LOAD_LINE.search(proc["log"])
    if proc["timed_out"] or proc["rc"] != 0 or not run_m:
        reason = (f"timeout after {args.timeout:.0f} s" if proc["timed_out"]
                  else tail_reason(proc["log"], f"ember_run exit code {proc['rc']}"))
        if py.get("status") == "ok":   # fall back to the binding's numbers, say so
            row.update({k: py[k] for k in ("runs", "median_ms", "p90_ms", "min_ms", "mean_ms",
                                           "load_ms", "max_abs_diff", "max_rel_diff") if k in py})
            row.update(status="ok", peak_rss=py["peak_rss"],
                       note=f"ember_run failed ({reason}); numbers from Python binding")
            return row
        return {**row, "status": "failed", "reason": reason}
    row.update(status="ok", runs=int(run_m.group(1)), warmup_runs=int(run_m.group(2)),
               median_ms=float(run_m.group(3)), min_ms=float(run_m.group(4)),
               mean_ms=float(run_m.group(5)))
    if load_m:
        row["load_ms"] = float(load_m.group(1)) + float(load_m.group(2))
        row["load_detail"] = {"load_ms": float(load_m.group(1)), "init_ms": float(load_m.group(2)),
                              "planned_memory": load_m.group(3)}
    if py.get("status") == "ok":
        row["p90_ms"] = py["p90_ms"]
        row["p90_source"] = "Python binding (same C++ runtime), same run count"
    else:
        row["p90_note"] = f"no p90: Python binding pass failed ({py.get('reason')})"
    row.update(compare(model_dir, out_dir / "output_0.npy"))
    return row


def cache_keys(name: str) -> dict[str, str]:
    """Keys that change whenever anything shaping a model's artifacts changes: "base"
    (model definitions, exporters' versions, bench code) for every artifact, and
    "ember" (base plus Ember's compiler sources) for ember.pte alone."""
    base = hashlib.sha256(name.encode())
    for f in (HERE / "bench_models.py", HERE / "prepare.py", REPO / "examples" / "models.py"):
        if f.exists():
            base.update(f.read_bytes())
    for mod in ("torch", "executorch", "onnx", "transformers"):
        try:
            from importlib.metadata import version
            base.update(version(mod).encode())
        except Exception:  # noqa: BLE001, S110
            pass
    ember = base.copy()
    for f in sorted((REPO / "python" / "ember").rglob("*.py")):
        ember.update(f.read_bytes())
    return {"base": base.hexdigest(), "ember": ember.hexdigest()}


def prepare_model(name: str, args, workdir: Path) -> tuple[Path, dict]:
    model_dir = workdir / name
    key_file = model_dir / "cache_key.json"
    keys = cache_keys(name)
    old = {}
    if key_file.exists() and not args.no_cache:
        try:
            old = json.loads(key_file.read_text())
        except ValueError:
            old = {}
    complete = (model_dir / "reference.npy").exists() and (model_dir / "prepare.json").exists()
    only = None
    if complete and old.get("base") == keys["base"]:
        if old.get("ember") == keys["ember"]:
            print(f"== {name}: artifacts cached in {model_dir}", flush=True)
            return model_dir, {"prepare_wall_s": 0.0, "prepare_cached": True}
        only = "ember,ember_cpu"
        print(f"== {name}: Ember's compiler changed: re-exporting ember.pte and ember_cpu.pte only",
              flush=True)
    else:
        if model_dir.exists():
            shutil.rmtree(model_dir)
        model_dir.mkdir(parents=True)
        print(f"== {name}: building and exporting (every exporter; slow the first time)", flush=True)
    env = dict(os.environ, HF_HUB_OFFLINE="1", PYTHONPATH=_pythonpath())
    cmd = [sys.executable, str(HERE / "prepare.py"), name, str(model_dir)] + ([only] if only else [])
    prep = run_measured(cmd, args.prepare_timeout, model_dir / "log_prepare.txt", env)
    if (model_dir / "reference.npy").exists() and not prep["timed_out"] and prep["rc"] == 0:
        key_file.write_text(json.dumps(keys))
    print(f"   exports took {prep['wall_s']:.0f} s", flush=True)
    return model_dir, {"prepare_wall_s": prep["wall_s"], "prepare_cached": False,
                       "prepare_timed_out": prep["timed_out"], "prepare_log": prep["log"]}


def measure_peer(peer: str, name: str, threads: int, args, info: dict, model_dir: Path,
                 once: dict[str, dict]) -> dict:
    """One measurement of `peer` at `threads` (a failed export gives a failed row; a
    single-threaded peer measured at another thread count is reused)."""
    export = info["artifacts"].get(PREPARE_KEY[peer])
    base = {"model": name, "peer": peer, "threads": threads}
    if peer == "eager":
        export = export or {"ok": True}
    if not export or not export.get("ok"):
        reason = (export or {}).get("reason", "export did not run (prepare timed out?)")
        print(f"   {peer:12s} t{threads}: export failed: {reason}", flush=True)
        return {**base, "status": "failed", "reason": f"export: {reason}"}
    if peer in SINGLE_THREADED and peer in once and once[peer]["threads"] != threads:
        row = dict(once[peer])
        row.update(base, reused_from_threads=once[peer]["threads"])
    else:
        if peer in ("ember", "ember_cpu"):
            row = measure_ember(model_dir, args, peer, 1 if peer == "ember" else threads)
        else:
            row = measure_worker(peer, model_dir, threads, args)
        row.update(base)
        if peer in SINGLE_THREADED and row.get("status") == "ok":
            kept = once.get(peer)
            if kept is None or row["median_ms"] < kept["median_ms"]:
                once[peer] = row
    artifact = model_dir / ARTIFACT[peer]
    if peer == "ort":
        row["artifact_size"] = sum(p.stat().st_size for p in model_dir.glob("model.onnx*"))
    elif artifact.exists():
        row["artifact_size"] = artifact.stat().st_size
    msg = (f"median {row['median_ms']:.2f} ms" if row.get("status") == "ok"
           else f"FAILED: {row.get('reason')}")
    print(f"   {peer:12s} t{threads}: {msg}", flush=True)
    return row


def bench_model(name: str, args, workdir: Path, rt: dict) -> dict:
    model_dir, prep = prepare_model(name, args, workdir)
    entry: dict = {"model": name, "description": MODELS[name][1],
                   **{k: v for k, v in prep.items() if k != "prepare_log"}}
    if args.prepare_only:
        entry["rows"] = []
        return entry
    prep_json = model_dir / "prepare.json"
    info = json.loads(prep_json.read_text()) if prep_json.exists() else {"artifacts": {}}
    entry.update({k: info.get(k) for k in ("inputs", "output_shape", "params", "build_s")})
    entry["exports"] = info["artifacts"]
    if not (model_dir / "reference.npy").exists():
        reason = ("timeout" if prep.get("prepare_timed_out")
                  else tail_reason(prep.get("prepare_log", ""), "prepare failed"))
        entry["error"] = f"model build failed: {reason}"
        print(f"   model failed: {reason}", flush=True)
        return entry
    ember_ops = info["artifacts"].get("ember", {}).get("operators") or []
    entry["ember_operators"] = ember_ops
    entry["ember_runtime_size"] = kernels_needed_size(rt, ember_ops) if ember_ops else None

    rows = []
    once: dict[str, dict] = {}
    for threads in args.threads:
        # Rounds interleave the peers, so a noisy spell on a shared machine
        # hits them alike; each keeps its least disturbed round (lowest median).
        best: dict[str, dict] = {}
        for round_i in range(args.rounds):
            if args.rounds > 1:
                print(f"   -- t{threads} round {round_i + 1}/{args.rounds}", flush=True)
            for peer in args.peers:
                row = measure_peer(peer, name, threads, args, info, model_dir, once)
                kept = best.get(peer)
                medians = (kept or {}).get("round_medians_ms", [])
                if row.get("status") == "ok" and "reused_from_threads" not in row:
                    medians = [*medians, row["median_ms"]]
                if kept is None or (row.get("status") == "ok" and
                                    (kept.get("status") != "ok" or
                                     row["median_ms"] < kept["median_ms"])):
                    kept = row
                if args.rounds > 1:
                    kept["round_medians_ms"] = medians
                best[peer] = kept
        rows.extend(best[peer] for peer in args.peers)
    # Ratios to Ember's median at the same thread count (Ember itself runs 1 thread).
    for threads in args.threads:
        ember = next((r for r in rows if r["peer"] == "ember" and r["threads"] == threads
                      and r.get("status") == "ok"), None)
        for r in rows:
            if r["threads"] == threads and r.get("status") == "ok" and ember:
                r["ratio_to_ember"] = r["median_ms"] / ember["median_ms"]
    entry["rows"] = rows
    return entry


# --------------------------------------------------------------------------- output

COLUMNS = ["model", "thr", "peer", "median ms", "p90 ms", "x Ember", "load ms", "peak RSS MB",
           "model RSS MB", "file KB", "max|diff|", "note"]


def table_rows(results: list[dict]) -> list[list[str]]:
    out = []
    for entry in results:
        if entry.get("error"):
            out.append([entry["model"], "-", "(all)", "-", "-", "-", "-", "-", "-", "-", "-",
                        entry["error"][:90]])
            continue
        for r in entry["rows"]:
            label = PEER_LABELS[r["peer"]]
            if r.get("status") != "ok":
                out.append([r["model"], str(r["threads"]), label, "FAILED", "-", "-", "-",
                            _mb(r.get("peak_rss")), "-", _kb(r.get("artifact_size")), "-",
                            (r.get("reason") or "")[:90]])
                continue
            notes = []
            if r["peer"] in SINGLE_THREADED:
                notes.append("1 thread (single-threaded kernels)")
            elif r.get("threads_used") not in (None, r["threads"]):
                notes.append(f"{r['threads_used']} threads used")
            if r.get("note"):
                notes.append(r["note"])
            if r.get("p90_source"):
                notes.append("p90 via Python binding")
            if r.get("runs", 0) < 5:
                notes.append(f"{r.get('runs')} timed run(s)")
            diff = r.get("max_abs_diff")
            out.append([
                r["model"], str(r["threads"]), label, f"{r['median_ms']:.2f}",
                f"{r['p90_ms']:.2f}" if r.get("p90_ms") is not None else "n/a",
                f"{r['ratio_to_ember']:.2f}" if r.get("ratio_to_ember") is not None else "-",
                f"{r['load_ms']:.1f}" if r.get("load_ms") is not None else "-",
                _mb(r.get("peak_rss")), _mb(r.get("model_rss_delta")),
                _kb(r.get("artifact_size")),
                f"{diff:.1e}" if diff is not None else r.get("diff_note", "-"),
                "; ".join(notes)[:90],
            ])
    return out


def _mb(v) -> str:
    return f"{v / 2**20:.0f}" if v else "-"


def _kb(v) -> str:
    return f"{v / 1024:.0f}" if v else "-"


def text_table(rows: list[list[str]]) -> str:
    widths = [max(len(COLUMNS[i]), *(len(r[i]) for r in rows)) if rows else len(COLUMNS[i])
              for i in range(len(COLUMNS))]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    return "\n".join([line(COLUMNS), line(["-" * w for w in widths]), *map(line, rows)])


def markdown_table(rows: list[list[str]]) -> str:
    esc = lambda s: s.replace("|", "\\|")
    out = ["| " + " | ".join(map(esc, COLUMNS)) + " |", "|" + "---|" * len(COLUMNS)]
    out += ["| " + " | ".join(esc(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def size_lines(results: list[dict], rt: dict) -> list[str]:
    lines = []
    if "stripped_size" in rt:
        lines.append(f"Ember runtime: `ember_run` stripped {rt['stripped_size'] / 1024:.0f} KiB "
                     f"(installed binary {rt['unstripped_size'] / 1024:.0f} KiB); this is the whole "
                     "runtime with every portable kernel linked in.")
    else:
        lines.append(f"Ember runtime size: n/a ({rt.get('error')})")
    for entry in results:
        est = entry.get("ember_runtime_size")
        if not est:
            continue
        ops = entry.get("ember_operators") or []
        size = f"{est['size'] / 1024:.0f} KiB" if est.get("size") else "n/a"
        lines.append(f"- {entry['model']}: {len(ops)} operators ({', '.join(ops)}); kernel files "
                     f"{', '.join(est.get('kernel_files', []))}; runtime with only those kernel "
                     f"files ~{size} ({est['method']})")
    return lines


FAST_PEERS = ("et_xnnpack", "ort")


def against_faster_peer(entry: dict):
    """Per thread count of one model's result: (threads, Ember CPU's row, the
    row of the faster of ExecuTorch+XNNPACK and ONNX Runtime), where both ran."""
    by_key = {(r["peer"], r["threads"]): r for r in entry.get("rows", [])
              if r.get("status") == "ok"}
    for threads in sorted({t for _, t in by_key}):
        ours = by_key.get(("ember_cpu", threads))
        peers = [by_key[(p, threads)] for p in FAST_PEERS if (p, threads) in by_key]
        if ours is not None and peers:
            yield threads, ours, min(peers, key=lambda r: r["median_ms"])


def summary_lines(results: list[dict]) -> list[str]:
    """Ember's CPU backend against the faster of ExecuTorch+XNNPACK and ONNX
    Runtime, per model and thread count (the issue's target: ratio <= 1.0)."""
    lines = ["| model | thr | Ember CPU ms | faster peer | peer ms | Ember CPU / peer |",
             "|---|---|---|---|---|---|"]
    for entry in results:
        for threads, ours, best in against_faster_peer(entry):
            lines.append(f"| {entry['model']} | {threads} | {ours['median_ms']:.2f} | "
                         f"{PEER_LABELS[best['peer']]} | {best['median_ms']:.2f} | "
                         f"{ours['median_ms'] / best['median_ms']:.2f} |")
    return lines if len(lines) > 2 else []


def write_markdown(path: Path, results: list[dict], machine: dict, rt: dict, args, rows) -> None:
    v = machine["versions"]
    text = [
        "# Ember side-by-side benchmark", "",
        f"- Date: {machine['date']}",
        (f"- CPU: {machine['cpu']} ({machine['logical_cpus']} logical CPUs, "
         f"{machine['usable_cpus']} usable), memory {machine['memory']}"),
        f"- Load average at start: {machine['load_average']}",
        f"- OS: {machine['os']}, Python {machine['python']}",
        (f"- torch {v['torch']}, executorch {v['executorch']}, onnxruntime {v['onnxruntime']}, "
         f"onnx {v['onnx']}, transformers {v['transformers']}"),
        f"- Command: `{' '.join(args.argv)}`",
        (f"- Runs: warm-up at least {args.warmup} runs and {args.warmup_seconds:g} s, then up to {args.runs} timed runs or "
         f"{args.seconds:g} s per measurement (at least 3 runs unless over 2x the time box)"
         + (f"; {args.rounds} rounds with the peers interleaved, each peer's lowest median kept"
            if args.rounds > 1 else "")),
        "",
        ("Columns: median / p90 latency of one forward pass; `x Ember` = peer median / Ember "
         "median at the same thread count (above 1: Ember is faster); load = program load + "
         "method init (eager: torch.load of the pickled module); peak RSS = the measuring "
         "process's peak resident set (Python peers include the interpreter and their imports); "
         "model RSS = peak minus RSS just before loading the model (Python peers only); "
         "file = .pte / .onnx / pickled module size; max|diff| = max abs difference to torch eager "
         "(computed once in the export process)."),
        ("Ember and ExecuTorch portable are single-threaded: measured once and repeated at each "
         "thread count. Ember's median/min/load/RSS come from the native `ember_run`; its p90 "
         "from the Python binding over the same run count."),
        "",
        "## Ember's CPU backend against the faster peer", "",
        *summary_lines(results), "",
        "## All peers", "",
        markdown_table(rows), "",
        "## Runtime size", "",
        *size_lines(results, rt), "",
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(text))


# --------------------------------------------------------------------------- main

def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--models", default=",".join(MODELS),
                   help=f"comma list from: {', '.join(MODELS)} (default: all)")
    p.add_argument("--peers", default=",".join(PEERS), help=f"comma list from: {', '.join(PEERS)}")
    p.add_argument("--threads", default="1,2", help="comma list of thread counts (default 1,2)")
    p.add_argument("--runs", type=int, default=20, help="max timed runs per measurement (20)")
    p.add_argument("--seconds", type=float, default=5.0, help="time box per measurement (5 s)")
    p.add_argument("--warmup", type=int, default=3, help="least warm-up runs (3)")
    p.add_argument("--warmup-seconds", type=float, default=0.5,
                   help="least warm-up time, so that new threads have settled (0.5 s; "
                        "warm-up never takes more than half the time box)")
    p.add_argument("--rounds", type=int, default=1,
                   help="measure every peer this many times, interleaved, and keep each "
                        "peer's lowest median (1)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="budget of one measurement subprocess, in seconds: it stops timing in "
                        "time, and is killed after this (60)")
    p.add_argument("--prepare-timeout", type=float, default=600.0,
                   help="kill a model's build/export subprocess after this many seconds (600)")
    p.add_argument("--ember-run", type=Path, default=VENV_BIN / "ember_run",
                   help="the ember_run binary for the ember and ember_cpu peers "
                        "(default: the venv's)")
    p.add_argument("--json", type=Path, help="write full results as JSON here")
    p.add_argument("--markdown", type=Path, help="write a markdown report here")
    p.add_argument("--workdir", type=Path, default=HERE / ".cache",
                   help="artifacts (exports, inputs, outputs, logs) live here and are reused "
                        "while the models, exporters and versions are unchanged (bench/.cache)")
    p.add_argument("--no-cache", action="store_true", help="re-export every model")
    p.add_argument("--prepare-only", action="store_true",
                   help="only build and export (fill the cache), measure nothing")
    args = p.parse_args(argv)
    args.argv = [".venv/bin/python", "bench/run_bench.py", *(argv if argv is not None else sys.argv[1:])]
    args.models = [m.strip() for m in args.models.split(",") if m.strip()]
    args.peers = [m.strip() for m in args.peers.split(",") if m.strip()]
    args.threads = [int(t) for t in args.threads.split(",") if t.strip()]
    if args.rounds < 1:
        p.error("--rounds must be at least 1")
    for m in args.models:
        if m not in MODELS:
            p.error(f"unknown model {m!r}; choose from {', '.join(MODELS)}")
    for peer in args.peers:
        if peer not in PEERS:
            p.error(f"unknown peer {peer!r}; choose from {', '.join(PEERS)}")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    start = time.perf_counter()
    workdir = args.workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    machine = machine_info()
    print(f"machine: {machine['cpu']}, {machine['usable_cpus']} usable CPUs, load {machine['load_average']}")
    rt = runtime_size(workdir)
    results = []
    for name in args.models:
        try:
            results.append(bench_model(name, args, workdir, rt))
        except Exception as exc:  # noqa: BLE001 - one model's bug must not end the run
            results.append({"model": name, "description": MODELS[name][1],
                            "error": f"benchmark error: {type(exc).__name__}: {exc}"[:200]})
    rows = table_rows(results)
    print()
    print(text_table(rows))
    print()
    print("\n".join(size_lines(results, rt)))
    total = time.perf_counter() - start
    print(f"\ntotal {total:.0f} s")
    if args.json:
        rt_public = {k: v for k, v in rt.items() if k != "op_file"}
        payload = {"machine": machine, "settings": {k: getattr(args, k) for k in
                   ("models", "peers", "threads", "runs", "seconds", "warmup", "warmup_seconds", "timeout")},
                   "ember_runtime": rt_public, "total_s": total, "results": results}
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=1, default=str))
        print(f"wrote {args.json}")
    if args.markdown:
        write_markdown(args.markdown, results, machine, rt, args, rows)
        print(f"wrote {args.markdown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
