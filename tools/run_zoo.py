"""Exports and runs every model of the zoo (examples/zoo.py) on Ember, against eager.

    .venv/bin/python tools/run_zoo.py                 # all models, writes docs/models.md
    .venv/bin/python tools/run_zoo.py --only bert     # one model (repeatable), prints only
    .venv/bin/python tools/run_zoo.py --json out.json # also the raw results as JSON

For each model it records: whether torch.export captures it, whether Ember
exports and runs it, the max abs error against eager (and that error relative
to the output's scale, max(1, max|expected|)), the cosine similarity, the .pte
size and the activation arena size (ExportedProgram.memory_plan.arena_size).

Each model runs in its own subprocess (so that a crash or a hang in one is
recorded as that model's failure); --in-process runs them in this process.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

ATOL = 1e-4  # max abs error, relative to max(1, max|expected|)
MIN_COSINE = 0.99999

# status values
PASS = "pass"
MISMATCH = "mismatch"  # ran, but outside tolerance
EXPORT_FAIL = "torch.export fails"  # torch.export itself cannot capture the model
DECOMPOSE_FAIL = "core ATen decomposition fails"  # torch's run_decompositions raised
EMBER_EXPORT_FAIL = "ember export fails"  # Ember's lowering/emission raised
RUNTIME_FAIL = "runtime fails"  # the C++ runtime refused or failed to run the .pte
EAGER_FAIL = "eager fails"
DEGENERATE = "degenerate output"  # eager's output tests nothing (zeros, denormals, constant)
CRASH = "crash"

# An eager output this small or this flat checks nothing (and runs on slow
# denormal paths): the model needs a scaled initialisation (examples/zoo.py).
MIN_OUTPUT_ABSMAX = 1e-3
MIN_OUTPUT_STD = 1e-6
TIMED_RUNS = 5


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(error).__name__}: {first}"[:300]


def compare(actual, expected) -> dict:
    import torch

    actual = torch.as_tensor(actual)
    result = {"shape": list(expected.shape), "dtype": str(expected.dtype).replace("torch.", "")}
    if actual.shape != expected.shape:
        result["error"] = f"shape {tuple(actual.shape)} != {tuple(expected.shape)}"
        return result
    if actual.dtype != expected.dtype:
        result["error"] = f"dtype {actual.dtype} != {expected.dtype}"
        return result
    a, e = actual.double().flatten(), expected.double().flatten()
    scale = max(1.0, float(e.abs().max())) if e.numel() else 1.0
    err = float((a - e).abs().max()) if e.numel() else 0.0
    denom = float(a.norm() * e.norm())
    cos = float(a @ e) / denom if denom > 0 else (1.0 if float(a.norm()) == float(e.norm()) else 0.0)
    result.update(max_abs_error=err, scale=scale, rel_error=err / scale, cosine=cos,
                  output_absmax=float(e.abs().max()) if e.numel() else 0.0)
    return result


def degenerate(expected) -> str | None:
    """Why eager's output cannot tell a right answer from a wrong one, if so."""
    e = expected.double().flatten()
    if e.numel() == 0:
        return None
    absmax = float(e.abs().max())
    if absmax < MIN_OUTPUT_ABSMAX:
        return f"max|output| is {absmax:.1e}: zeros or denormals"
    if e.numel() > 1 and float(e.std()) < MIN_OUTPUT_STD:
        return f"output is constant (std {float(e.std()):.1e})"
    return None


def median_ms(module, inputs) -> float:
    module.forward(*inputs)  # warm-up
    times = []
    for _ in range(TIMED_RUNS):
        t = time.perf_counter()
        module.forward(*inputs)
        times.append((time.perf_counter() - t) * 1e3)
    return sorted(times)[len(times) // 2]


def run_model(name: str, workdir: str) -> dict:
    """Exports, runs and compares one zoo model; never raises."""
    import ember
    import torch
    from ember import ExportError

    from examples import zoo

    entry = zoo.get(name)
    rec: dict = {"name": name, "source": entry.source, "description": entry.description}
    t0 = time.perf_counter()
    try:
        model, inputs = entry.build()
        with torch.no_grad():
            expected = model(*inputs)
        if not isinstance(expected, torch.Tensor):
            raise TypeError(f"forward returned {type(expected).__name__}, not a tensor")
        rec["params"] = sum(p.numel() for p in model.parameters())
    except Exception as error:  # noqa: BLE001
        rec.update(status=EAGER_FAIL, error=_one_line(error))
        return rec
    rec["inputs"] = [list(t.shape) for t in inputs]
    reason = degenerate(expected)
    if reason is not None:
        rec.update(status=DEGENERATE, error=reason)
        return rec

    t1 = time.perf_counter()
    try:
        program = ember.export(model, inputs)
    except ExportError as error:
        msg = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
        status = EXPORT_FAIL if "torch.export could not capture" in msg else EMBER_EXPORT_FAIL
        rec.update(status=status, error=msg[:300])
        return rec
    except Exception as error:  # noqa: BLE001
        tb = traceback.format_exc()
        status = DECOMPOSE_FAIL if "run_decompositions" in tb else EMBER_EXPORT_FAIL
        rec.update(status=status, error=_one_line(error), traceback=tb[-2000:])
        return rec
    rec["export_s"] = round(time.perf_counter() - t1, 2)
    rec["pte_bytes"] = len(program.buffer)
    rec["arena_bytes"] = int(program.memory_plan.arena_size)
    rec["tensor_bytes"] = int(program.memory_plan.total_tensor_bytes)
    rec["num_operators"] = len(program.operators)
    rec["operators"] = program.operators
    rec["instructions"] = len(program.instructions)
    rec["delegated_ops"] = program.delegated_fraction()
    rec["delegated_flops"] = program.delegated_flops_fraction()

    path = os.path.join(workdir, f"{name}.pte")
    try:
        program.save(path)
        t2 = time.perf_counter()
        actual = ember.runtime.load(path).forward(*inputs)
        rec["run_s"] = round(time.perf_counter() - t2, 3)
    except Exception as error:  # noqa: BLE001
        rec.update(status=RUNTIME_FAIL, error=_one_line(error))
        return rec
    finally:
        if os.path.exists(path):
            os.remove(path)

    rec.update(compare(actual, expected))
    if "error" in rec:
        rec["status"] = MISMATCH
    elif rec["rel_error"] <= ATOL and rec["cosine"] >= MIN_COSINE:
        rec["status"] = PASS
    else:
        rec["status"] = MISMATCH
        rec["error"] = (f"max abs error {rec['max_abs_error']:.3e} (relative {rec['rel_error']:.3e}),"
                        f" cosine {rec['cosine']:.7f}")
    if rec["status"] == PASS:
        rec.update(_speed(model, inputs, path, program))
    rec["total_s"] = round(time.perf_counter() - t0, 2)
    return rec


def _speed(model, inputs, path: str, program) -> dict:
    """Median latency at one thread with the default backends and portable-only."""
    import ember

    try:
        program.save(path)
        delegated_ms = median_ms(ember.runtime.load(path, threads=1), inputs)
        ember.export(model, inputs, backends=()).save(path)
        portable_ms = median_ms(ember.runtime.load(path, threads=1), inputs)
    except Exception as error:  # noqa: BLE001  (timing is extra: never fail the model on it)
        return {"speed_error": _one_line(error)}
    finally:
        if os.path.exists(path):
            os.remove(path)
    return {"ms": round(delegated_ms, 3), "portable_ms": round(portable_ms, 3)}


def run_isolated(name: str, timeout: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "result.json")
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", name, "--json", out]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                                  check=False)
        except subprocess.TimeoutExpired:
            return {"name": name, "status": CRASH, "error": f"timed out after {timeout:.0f} s"}
        if proc.returncode == 0 and os.path.exists(out):
            with open(out) as f:
                return json.load(f)[0]
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [""]
        return {"name": name, "status": CRASH,
                "error": f"worker exited with {proc.returncode}: {tail[0][:200]}"}


def _size(n) -> str:
    if n is None:
        return "—"
    if n >= 1 << 20:
        return f"{n / (1 << 20):.2f} MiB"
    return f"{n / 1024:.1f} KiB"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def write_markdown(results: list[dict], path: str) -> None:
    import torch
    import transformers

    passed = sum(r["status"] == PASS for r in results)
    lines = [
        "# Model zoo",
        "",
        "<!-- Generated by tools/run_zoo.py; do not edit by hand. -->",
        "",
        "Every model of `examples/zoo.py` exported with `ember.export`, run on Ember's C++ runtime",
        "and compared with eager PyTorch on the same seeded inputs. Hugging Face models are built",
        "from small configs with seeded random weights; `minilm_sentence` is the real",
        "all-MiniLM-L6-v2 sentence encoder on real tokenized text.",
        "",
        f"A model passes when its max abs error is at most {ATOL:g} × max(1, max|expected|)",
        f"and the cosine similarity with eager is at least {MIN_COSINE}; it fails as",
        f"\"{DEGENERATE}\" when eager's output is below {MIN_OUTPUT_ABSMAX:g} in magnitude or",
        "constant, which would test nothing. Arena is the planned activation arena",
        "(`ExportedProgram.memory_plan.arena_size`). Models export with the default backends",
        "(the CPU backend): *ops* and *FLOPs* are the shares it runs; *ms* is the median",
        f"latency of {TIMED_RUNS} runs at one thread through the Python binding and *vs portable*",
        "the speed-up over the same model exported with `backends=()` (small models: a",
        "noisy, shared machine; bench/ is where speed is measured).",
        "",
        (f"**{passed} of {len(results)} pass** (torch {torch.__version__}, "
         f"transformers {transformers.__version__})."),
        "",
        "Regenerate with `.venv/bin/python tools/run_zoo.py`.",
        "",
        ("| model | source | status | max abs error | rel. error | cosine | .pte size | arena "
         "| ops | FLOPs | ms | vs portable |"),
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        err = f"{r['max_abs_error']:.2e}" if "max_abs_error" in r else "—"
        rel = f"{r['rel_error']:.2e}" if "rel_error" in r else "—"
        cos = f"{r['cosine']:.7f}" if "cosine" in r else "—"
        ops = f"{r['delegated_ops']:.0%}" if "delegated_ops" in r else "—"
        flops = f"{r['delegated_flops']:.0%}" if "delegated_flops" in r else "—"
        ms = f"{r['ms']:.2f}" if "ms" in r else "—"
        speedup = f"{r['portable_ms'] / r['ms']:.1f}x" if r.get("ms") else "—"
        lines.append(
            f"| {r['name']} | {r.get('source', '')} | {r['status']} | {err} | {rel} | {cos} | "
            f"{_size(r.get('pte_bytes'))} | {_size(r.get('arena_bytes'))} | {ops} | {flops} | "
            f"{ms} | {speedup} |")
    failures = [r for r in results if r["status"] != PASS]
    if failures:
        lines += ["", "## Failures", ""]
        for r in failures:
            lines.append(f"- **{r['name']}** ({r['status']}): `{_md_escape(r.get('error', ''))}`")
    lines += ["", "## Models", "", "| model | description | inputs | parameters |", "|---|---|---|---:|"]
    for r in results:
        shapes = ", ".join("×".join(map(str, s)) for s in r.get("inputs", []))
        params = f"{r['params']:,}" if "params" in r else "—"
        lines.append(f"| {r['name']} | {_md_escape(r.get('description', ''))} | {shapes} | {params} |")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="run only this model (repeatable); does not rewrite docs/models.md")
    parser.add_argument("--json", metavar="PATH", help="write the raw results as JSON")
    parser.add_argument("--markdown", metavar="PATH", default=os.path.join(ROOT, "docs", "models.md"),
                        help="where to write the table (default docs/models.md)")
    parser.add_argument("--no-markdown", action="store_true", help="do not write the table")
    parser.add_argument("--in-process", action="store_true",
                        help="run every model in this process (no crash isolation)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per model")
    parser.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    parser.add_argument("--worker", metavar="NAME", help=argparse.SUPPRESS)
    parser.add_argument("--from-json", metavar="PATH", nargs="+",
                        help="write the table from earlier --json results instead of running")
    args = parser.parse_args(argv)

    os.environ["OMP_NUM_THREADS"] = str(args.threads)
    import torch

    torch.set_num_threads(args.threads)

    if args.worker:
        with tempfile.TemporaryDirectory() as tmp:
            results = [run_model(args.worker, tmp)]
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
        return 0

    from examples import zoo

    if args.from_json:
        merged = {}
        for path in args.from_json:
            with open(path) as f:
                merged.update((r["name"], r) for r in json.load(f))
        results = [merged[n] for n in zoo.names() if n in merged]
        write_markdown(results, args.markdown)
        print(f"wrote {os.path.relpath(args.markdown, ROOT)} ({len(results)} models)")
        return 0

    names = args.only or zoo.names()
    for name in names:
        zoo.get(name)  # fail fast on unknown names
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            t0 = time.perf_counter()
            rec = run_model(name, tmp) if args.in_process else run_isolated(name, args.timeout)
            rec.setdefault("source", zoo.get(name).source)
            rec.setdefault("description", zoo.get(name).description)
            results.append(rec)
            detail = (f"err {rec['max_abs_error']:.2e} cos {rec['cosine']:.7f} "
                      f"delegated {rec.get('delegated_ops', 0):.0%} ops "
                      f"{rec.get('delegated_flops', 0):.0%} flops"
                      + (f" {rec['ms']:.2f} ms, {rec['portable_ms'] / rec['ms']:.1f}x portable"
                         if rec.get("ms") else "")
                      if "cosine" in rec else rec.get("error", ""))
            print(f"{name:20s} {rec['status']:20s} {time.perf_counter() - t0:6.1f}s  {detail}",
                  flush=True)
            if args.json:  # written as it goes, so an interrupted run keeps what it measured
                with open(args.json, "w") as f:
                    json.dump(results, f, indent=1)

    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    if not args.only and not args.no_markdown:
        write_markdown(results, args.markdown)
        print(f"wrote {os.path.relpath(args.markdown, ROOT)}")
    passed = sum(r["status"] == PASS for r in results)
    print(f"{passed}/{len(results)} pass")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
