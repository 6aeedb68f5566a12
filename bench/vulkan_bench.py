"""The Vulkan backend against the CPU backend, model by model, in one command:

    .venv/bin/python bench/vulkan_bench.py [--models a,b] [--zoo a,b] [--rounds R]
        [--runs N] [--threads T] [--no-llm] [--markdown bench/VULKAN_RESULTS.md] [--json f]

Each model (the benchmark's float models, bench/bench_models.py, and a few
zoo models, examples/zoo.py) is exported twice: for the GPU
(`backends=(VulkanBackend(), CpuBackend())`, the CPU backend taking what the
GPU declines) and for the CPU backend alone. Both run in this process on the
same inputs: their outputs must agree, then they are timed in interleaved
rounds (the median round's time per run), so that a busy machine slows both
alike. The GPU program is then profiled once: per-op GPU times (timestamp
queries around each dispatch) list its slowest ops and flag any op whose
time per FLOP is far above the model's median (a pathology: a layer 100x
slower than its neighbours). SmolLM2-135M 4-bit decode (one token per call,
KV cache) adds tokens/s for both programs.

On lavapipe (Mesa's software Vulkan, make test-vulkan) the numbers only
show pathologies; on a real GPU they are the table bench/VULKAN_RESULTS.md
keeps (`make bench-vulkan`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import ember
from bench_models import MODELS
from ember.backends.cpu import CpuBackend
from ember.backends.vulkan import VulkanBackend, device

from examples import zoo

GPU = VulkanBackend.id
DEFAULT_MODELS = [name for name in MODELS if not name.endswith("_int8")]
DEFAULT_ZOO = ["vit", "bert", "llama", "gpt2", "convnext", "whisper_encoder"]
# An op is flagged when its time per unit of work exceeds the model's median
# by this; an output element counts as ELEMENT_WORK FLOPs of work.
PATHOLOGY_FACTOR = 30.0
ELEMENT_WORK = 10


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def time_interleaved(modules: dict[str, object], inputs, rounds: int, runs: int) -> dict[str, float]:
    """ms per run of each module: the median of `rounds` rounds of `runs`
    runs, the modules taking turns within each round."""
    samples: dict[str, list[float]] = {name: [] for name in modules}
    for module in modules.values():
        module.forward(*inputs)  # warm up (pipelines, caches)
    for _ in range(rounds):
        for name, module in modules.items():
            start = time.perf_counter()
            for _ in range(runs):
                module.forward(*inputs)
            samples[name].append((time.perf_counter() - start) * 1e3 / runs)
    return {name: statistics.median(values) for name, values in samples.items()}


def max_difference(a, b) -> float:
    return max(float((torch.as_tensor(x).double() - torch.as_tensor(y).double()).abs().max())
               for x, y in zip(_tuple(a), _tuple(b)))


def _output_elements(op: str) -> int:
    """Elements of a delegate op's output, from its profile name ("Conv2d [1x96x112x112]")."""
    match = re.search(r"\[([0-9x]+)\]", op)
    return math.prod(int(s) for s in match.group(1).split("x")) if match else 0


def profile_ops(module, inputs, program, top: int, runs: int) -> tuple[list[dict], list[dict]]:
    """The GPU program's slowest ops, and its pathologies: delegate ops whose
    time per unit of work (FLOPs + ELEMENT_WORK per output element, so that a
    layout op or a norm counts for its memory traffic) is far above the
    median (portable ops and the delegate calls' own overhead are listed, not
    judged). Times are the mean of `runs` profiled runs."""
    flops = {p.node: p.flops for p in program.placements}
    profile = module.profile(*inputs, runs=runs)
    rows = [{"op": r.op, "node": r.node, "ms": r.ms_per_run, "share": r.share,
             "flops": flops.get(r.node, 0),
             "work": flops.get(r.node, 0) + ELEMENT_WORK * _output_elements(r.op)}
            for r in profile.rows]
    rows.sort(key=lambda r: -r["ms"])
    judged = [r for r in rows if _output_elements(r["op"]) > 0 and r["ms"] > 0]
    rates = [r["ms"] / r["work"] for r in judged]
    median = statistics.median(rates) if rates else 0.0
    slow = [dict(r, factor=(r["ms"] / r["work"]) / median) for r in judged
            if median > 0 and r["ms"] / r["work"] > PATHOLOGY_FACTOR * median]
    return rows[:top], slow


def bench_model(name: str, build, args, workdir: Path) -> dict:
    log(f"== {name}: building and exporting")
    model, inputs = build()
    model = model.eval()
    result: dict = {"model": name}
    try:
        gpu = ember.export(model, inputs, backends=(VulkanBackend(), CpuBackend()))
        cpu = ember.export(model, inputs, backends=(CpuBackend(),))
    except Exception as error:  # noqa: BLE001  (a model that fails is reported, the run goes on)
        result["error"] = f"export: {type(error).__name__}: {str(error).splitlines()[0][:120]}"
        log(f"   {result['error']}")
        return result
    on_gpu = [p for p in gpu.placements if p.where == GPU]
    result["gpu_ops"] = f"{len(on_gpu)}/{len(gpu.placements)}"
    total = sum(p.flops for p in gpu.placements)
    result["gpu_flops"] = sum(p.flops for p in on_gpu) / total if total else 0.0
    result["gflop"] = total / 1e9
    paths = {"gpu": str(workdir / f"{name}_vk.pte"), "cpu": str(workdir / f"{name}_cpu.pte")}
    gpu.save(paths["gpu"])
    cpu.save(paths["cpu"])
    start = time.perf_counter()
    modules = {"gpu": ember.runtime.load(paths["gpu"], threads=args.threads)}
    result["load_ms"] = (time.perf_counter() - start) * 1e3
    modules["cpu"] = ember.runtime.load(paths["cpu"], threads=args.threads)
    result["max_diff"] = max_difference(modules["gpu"].forward(*inputs),
                                        modules["cpu"].forward(*inputs))
    log(f"   timing ({args.rounds} rounds of {args.runs} runs each)")
    times = time_interleaved(modules, inputs, args.rounds, args.runs)
    result["gpu_ms"], result["cpu_ms"] = times["gpu"], times["cpu"]
    result["speedup"] = times["cpu"] / times["gpu"] if times["gpu"] > 0 else 0.0
    result["top_ops"], result["pathologies"] = profile_ops(modules["gpu"], inputs, gpu,
                                                           args.profile_top, args.rounds)
    log(f"   GPU {times['gpu']:.2f} ms, CPU backend {times['cpu']:.2f} ms, "
        f"CPU/GPU {result['speedup']:.2f}x, max|diff| {result['max_diff']:.1e}, "
        f"{len(result['pathologies'])} pathological op(s)")
    return result


def bench_llm(args, workdir: Path) -> dict | None:
    """SmolLM2-135M 4-bit decode, one token per call: tokens/s of the GPU
    program and of the CPU backend's."""
    from ember.llm import gguf_import, llama

    try:
        path = gguf_import.smollm2_path()
    except FileNotFoundError as error:
        log(f"== smollm2: skipped ({error})")
        return None
    log("== smollm2_4bit_decode: reading the GGUF, exporting")
    gguf = gguf_import.read_gguf(path, max_context=256)
    weights = gguf_import.convert_weights(gguf.weights, "4bit")
    example = (torch.zeros(1, 1, dtype=torch.long), torch.arange(1))
    result: dict = {"model": "smollm2_4bit_decode"}
    modules = {}
    for key, backends in (("gpu", (VulkanBackend(), CpuBackend())), ("cpu", (CpuBackend(),))):
        model = llama.Llama(gguf.config, weights, last_logits_only=True).eval()
        program = ember.export_methods({"forward": ember.Method(model, example, None)},
                                       backends=backends)
        if key == "gpu":
            # No FLOP share: the exporter has no estimate for ember.llm's ops.
            on_gpu = [p for p in program.placements if p.where == GPU]
            result["gpu_ops"] = f"{len(on_gpu)}/{len(program.placements)}"
        pte = str(workdir / f"smollm2_{key}.pte")
        program.save(pte)
        modules[key] = ember.runtime.load(pte, threads=args.threads)
    steps = args.llm_tokens
    tokens_per_s = {}
    outputs = {}
    for key, module in modules.items():  # each decodes the same tokens from position 0
        module.reset_state()
        start = time.perf_counter()
        for position in range(steps):
            outputs[key] = module.forward(torch.tensor([[1 + position]]), torch.tensor([position]))
        tokens_per_s[key] = steps / (time.perf_counter() - start)
    result["max_diff"] = max_difference(outputs["gpu"], outputs["cpu"])
    result["gpu_tok_s"], result["cpu_tok_s"] = tokens_per_s["gpu"], tokens_per_s["cpu"]
    result["gpu_ms"], result["cpu_ms"] = 1e3 / tokens_per_s["gpu"], 1e3 / tokens_per_s["cpu"]
    result["speedup"] = tokens_per_s["gpu"] / tokens_per_s["cpu"]
    log(f"   GPU {tokens_per_s['gpu']:.1f} tokens/s, CPU backend {tokens_per_s['cpu']:.1f} "
        f"tokens/s ({steps} tokens)")
    return result


def markdown(results: list[dict], info: dict, args) -> str:
    lines = [
        "# Vulkan backend vs CPU backend",
        "",
        (f"`bench/vulkan_bench.py` ({info['date']}): device **{info['device']}** "
         f"({info['type']}), CPU backend on {info['cpu']} with {args.threads or 'all'} thread(s), "
         f"load average {info['load']}. Times are the median of {args.rounds} interleaved "
         f"rounds of {args.runs} runs; speedup is CPU backend time / GPU program time. GPU ops "
         "and FLOPs: the share of the model the GPU runs (the rest on the CPU backend)."),
        "",
        ("| model | GFLOP | GPU ops | GPU FLOPs | GPU program ms | CPU backend ms | speedup "
         "| load ms | max abs diff |"),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        if "error" in r:
            lines.append(f"| {r['model']} | | | | {r['error']} | | | | |")
            continue
        gflop = f"{r['gflop']:.3g}" if "gflop" in r else ""
        load = f"{r['load_ms']:.0f}" if "load_ms" in r else ""
        share = f"{r['gpu_flops']:.0%}" if "gpu_flops" in r else ""
        lines.append(f"| {r['model']} | {gflop} | {r['gpu_ops']} | {share} | "
                     f"{r['gpu_ms']:.2f} | {r['cpu_ms']:.2f} | {r['speedup']:.2f}x | {load} | "
                     f"{r['max_diff']:.1e} |")
    llm = [r for r in results if "gpu_tok_s" in r]
    for r in llm:
        lines += ["", (f"{r['model']}: GPU program {r['gpu_tok_s']:.1f} tokens/s, CPU backend "
                       f"{r['cpu_tok_s']:.1f} tokens/s.")]
    lines += ["", "## Slowest GPU ops per model (GPU timestamps)", ""]
    for r in results:
        if not r.get("top_ops"):
            continue
        ops = ", ".join(f"{o['op']} {o['ms']:.2f} ms ({o['share']:.0%})" for o in r["top_ops"])
        lines.append(f"- **{r['model']}**: {ops}")
    lines += ["", (f"## Pathologies (time per unit of work over {PATHOLOGY_FACTOR:.0f}x the "
                   f"model's median; work = FLOPs + {ELEMENT_WORK} per output element)"), ""]
    flagged = [(r["model"], p) for r in results for p in r.get("pathologies", [])]
    if not flagged:
        lines.append("None.")
    for model, p in flagged:
        lines.append(f"- {model}: {p['op']} ({p['node']}) {p['ms']:.2f} ms for "
                     f"{p['flops'] / 1e6:.2f} MFLOP, {p['factor']:.0f}x the median rate")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS),
                        help="benchmark models (bench/bench_models.py), comma separated; '' none")
    parser.add_argument("--zoo", default=",".join(DEFAULT_ZOO),
                        help="zoo models (examples/zoo.py), comma separated; '' none")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--threads", type=int, default=0, help="CPU threads (0: one per core)")
    parser.add_argument("--profile-top", type=int, default=5)
    parser.add_argument("--no-llm", action="store_true", help="leave out SmolLM2 decode")
    parser.add_argument("--llm-tokens", type=int, default=16)
    parser.add_argument("--markdown", help="write the table here")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    info = device()
    if not info["available"]:
        sys.exit(f"no Vulkan device: {info['reason']}")
    info.update(date=dt.date.today().isoformat(), cpu=platform.processor() or platform.machine(),
                load=f"{os.getloadavg()[0]:.1f}")
    log(f"device: {info['device']} ({info['type']})")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        builds = [(n, lambda n=n: MODELS[n][0]()) for n in filter(None, args.models.split(","))]
        builds += [(f"zoo:{n}", zoo.get(n).build) for n in filter(None, args.zoo.split(","))]
        for name, build in builds:
            try:
                results.append(bench_model(name, build, args, workdir))
            except Exception as error:  # noqa: BLE001  (reported, the run goes on)
                message = f"{type(error).__name__}: {str(error).splitlines()[0][:120]}"
                log(f"   failed: {message}")
                results.append({"model": name, "error": message})
        if not args.no_llm:
            llm = bench_llm(args, workdir)
            if llm is not None:
                results.append(llm)
    text = markdown(results, info, args)
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    if args.json:
        Path(args.json).write_text(json.dumps({"device": info, "results": results}, indent=1))


if __name__ == "__main__":
    main()
