"""Measures one peer on one prepared model, in its own process (so its RSS is its own).

    python bench/worker.py PEER MODEL_DIR THREADS RUNS SECONDS WARMUP RESULT.json BUDGET_S

PEER is eager | ember_py | ember_cpu_py | et_portable | et_xnnpack | ort.  Writes RESULT.json with
load time, per-run latencies (ms), RSS after imports (before the model is loaded),
and saves the output as out_<peer>_t<threads>.npy in MODEL_DIR.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np


def rss_bytes() -> int:
    try:
        import psutil
        return psutil.Process().memory_info().rss
    except Exception:  # noqa: BLE001
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def timed_loop(fn, runs: int, seconds: float, warmup: int, warmup_s: float, first_s: float,
               deadline: float) -> tuple[list[float], int, str]:
    """Warm-up (at least `warmup` more runs and at least `warmup_s` seconds, at most half
    the time box), then time until `runs` runs or `seconds` have passed (at least 3 runs
    unless that would pass twice the time box).  Never starts a run that would likely end
    after `deadline` (perf_counter time); a model whose first run exceeded the time box gets
    no further warm-up.

    The time floor matters for threads: on a VM a freshly started worker thread runs slowly
    for its first ~100-200 ms (measured: 2-thread MobileNetV2 took 4.2 ms per run for the
    first ~30 runs and 3.0 ms after, in Ember and in ExecuTorch's pthreadpool alike), so a
    run-count warm-up timed the operating system's settling, not the peer."""
    note = ""
    last = first_s
    fits = lambda: time.perf_counter() + last * 1.2 < deadline
    start = time.perf_counter()
    done_warmup = 0
    if first_s < seconds:
        limit_s = min(warmup_s, seconds / 2)
        while fits():
            elapsed = time.perf_counter() - start
            if elapsed > seconds / 2 or (done_warmup >= warmup and elapsed >= limit_s):
                break
            t0 = time.perf_counter()
            fn()
            last = time.perf_counter() - t0
            done_warmup += 1
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < runs:
        if not fits():
            note = "stopped early: out of time (--timeout)"
            break
        t0 = time.perf_counter()
        fn()
        last = time.perf_counter() - t0
        times.append(last * 1e3)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and (len(times) >= 3 or elapsed >= 2 * seconds):
            break
    return times, done_warmup, note


def preimport_pickled_modules(path: Path) -> None:
    """Imports the Python modules a pickled nn.Module refers to (e.g. transformers'
    modeling files), so that the eager peer's load time is unpickling, not importing."""
    import importlib
    import pickletools
    import zipfile
    try:
        with zipfile.ZipFile(path) as zf:
            name = next(n for n in zf.namelist() if n.endswith("data.pkl"))
            data = zf.read(name)
        for op, arg, _ in pickletools.genops(data):
            # GLOBAL's argument is "module name"; STACK_GLOBAL's module is a plain string.
            if isinstance(arg, str) and arg[:1].isalpha() and "." in arg.split(" ")[0]:
                try:
                    importlib.import_module(arg.split(" ")[0])
                except Exception:  # noqa: BLE001, S110
                    pass
    except Exception:  # noqa: BLE001, S110 - best effort only
        pass


def main() -> int:
    started = time.perf_counter()
    peer, model_dir, threads, runs, seconds, warmup, warmup_s, result_path, budget = sys.argv[1:10]
    deadline = started + float(budget)
    model_dir = Path(model_dir)
    threads, runs, seconds, warmup = int(threads), int(runs), float(seconds), int(warmup)
    warmup_s = float(warmup_s)
    inputs = [np.load(p) for p in sorted(model_dir.glob("input_*.npy"),
                                          key=lambda p: int(p.stem.split("_")[1]))]
    result: dict = {"peer": peer, "threads_requested": threads}

    if peer == "eager":
        import torch
        torch.set_num_threads(threads)
        result["threads_used"] = torch.get_num_threads()
        tensors = [torch.from_numpy(x) for x in inputs]
        pt = model_dir / "model.pt"
        preimport_pickled_modules(pt)  # imports are not load time (other peers import first too)
        result["rss_before_load"] = rss_bytes()
        t0 = time.perf_counter()
        if pt.exists():
            model = torch.load(pt, weights_only=False)
        else:
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            import bench_models
            model = bench_models.build(json.loads((model_dir / "prepare.json").read_text())["model"])[0]
            result["load_note"] = "rebuilt (not picklable)"
        model.eval()
        result["load_ms"] = (time.perf_counter() - t0) * 1e3

        def run():
            with torch.inference_mode():
                return model(*tensors)
        to_numpy = lambda y: y.detach().numpy()

    elif peer in ("ember_py", "ember_cpu_py"):
        from ember import runtime as ember_runtime
        # ember.pte runs portable kernels on one thread; ember_cpu.pte the CPU
        # backend on the method's pool of `threads`.
        cpu = peer == "ember_cpu_py"
        result["threads_used"] = threads if cpu else 1
        result["rss_before_load"] = rss_bytes()
        t0 = time.perf_counter()
        module = ember_runtime.load(model_dir / ("ember_cpu.pte" if cpu else "ember.pte"),
                                    threads=threads if cpu else 1)
        result["load_ms"] = (time.perf_counter() - t0) * 1e3

        def run():
            return module.forward(*inputs)
        to_numpy = lambda y: np.asarray(y[0] if isinstance(y, tuple) else y)

    elif peer in ("et_portable", "et_xnnpack"):
        import torch
        from executorch.runtime import Runtime
        torch.set_num_threads(1)
        if peer == "et_xnnpack":
            from executorch.extension.pybindings import portable_lib
            portable_lib._unsafe_reset_threadpool(threads)
            result["threads_used"] = portable_lib._threadpool_get_thread_count()
        else:
            result["threads_used"] = 1  # portable kernels are single-threaded
        tensors = [torch.from_numpy(x) for x in inputs]
        runtime = Runtime.get()
        result["rss_before_load"] = rss_bytes()
        t0 = time.perf_counter()
        program = runtime.load_program(model_dir / f"{peer}.pte")
        method = program.load_method("forward")
        result["load_ms"] = (time.perf_counter() - t0) * 1e3

        def run():
            return method.execute(tensors)
        to_numpy = lambda y: y[0].detach().numpy()

    elif peer == "ort":
        import onnxruntime as ort
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        result["threads_used"] = threads
        result["rss_before_load"] = rss_bytes()
        t0 = time.perf_counter()
        session = ort.InferenceSession(str(model_dir / "model.onnx"), options,
                                       providers=["CPUExecutionProvider"])
        result["load_ms"] = (time.perf_counter() - t0) * 1e3
        feed = {meta.name: x for meta, x in zip(session.get_inputs(), inputs)}

        def run():
            return session.run(None, feed)
        to_numpy = lambda y: y[0]
    else:
        raise SystemExit(f"unknown peer {peer}")

    t0 = time.perf_counter()
    first = run()
    first_s = time.perf_counter() - t0
    result["first_run_ms"] = first_s * 1e3
    np.save(model_dir / f"out_{peer}_t{threads}.npy", np.asarray(to_numpy(first), dtype=np.float32))
    times, done_warmup, note = timed_loop(run, runs, seconds, max(warmup - 1, 0), warmup_s, first_s, deadline)
    result["warmup_runs"] = done_warmup + 1
    if not times:   # too slow for even one more run: report the cold first run, say so
        times = [first_s * 1e3]
        result["warmup_runs"] = 0
        note = "only the first (cold) run fit in --timeout"
    if note:
        result["note"] = note
    result["times_ms"] = times
    result["rss_end"] = rss_bytes()
    Path(result_path).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
