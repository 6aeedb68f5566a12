"""Generates docs/ops.md: which ATen ops Ember's runtime supports, in which dtypes.

    EMBER_OPS_RESULTS=/tmp/ops.json .venv/bin/python -m pytest -q -p no:logging -m slow \
        tests/python/test_ops.py
    EMBER_OPINFO_RESULTS=/tmp/opinfo.json .venv/bin/python -m pytest -q -p no:logging -m slow \
        tests/python/test_opinfo.py
    .venv/bin/python tools/gen_ops_doc.py /tmp/ops.json [more.json ...] --opinfo /tmp/opinfo.json \
        [-o docs/ops.md]

After rerunning only some specs (-k), name the current document first so the
specs not rerun keep their results: gen_ops_doc.py docs/ops.md /tmp/new.json ...

Sources:
  * the kernel registry (ember._C.kernel_dtypes(): each kernel and the dtypes it
    declares for its first tensor input; the runtime refuses others at load),
  * the core ATen ops (overloads of torch.ops.aten tagged torch.Tag.core),
  * the results file that tests/python/test_ops.py writes when EMBER_OPS_RESULTS
    is set: {"results": {spec: {dtype: "pass"|"fail"}}, "kernels": {spec: [kernel]}},
  * the results file of tests/python/test_opinfo.py (EMBER_OPINFO_RESULTS):
    {op: {dtype: [status, reason, samples]}}, for the OpInfo pass rate.

The second table lists the ops outside core ATen that programs call: every
registered kernel whose functional op is not core, and every kernel a test
found missing.

A core op is *supported* when the runtime registers a kernel under the name of
its out-variant (ember.passes.out_variants). Its tested dtypes come from the
test specs whose exported programs call that kernel: a dtype passes when at
least one such spec passes in it, and fails when such specs ran in it and none
passed (the failure may come from another op in the same spec; see the per-spec
table at the end).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import torch

DTYPE_ORDER = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
               "uint8", "bool", "complex64", "complex128"]
SHORT = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "int8": "i8",
         "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8", "bool": "bool",
         "complex64": "c64", "complex128": "c128"}
# The runtime's ScalarType names (kernel_dtypes) -> torch's.
FROM_SCALAR_TYPE = {"Float": "float32", "Double": "float64", "Half": "float16",
                    "BFloat16": "bfloat16", "Char": "int8", "Short": "int16", "Int": "int32",
                    "Long": "int64", "Byte": "uint8", "Bool": "bool", "ComplexFloat": "complex64",
                    "ComplexDouble": "complex128"}


def core_aten_ops() -> list[torch._ops.OpOverload]:
    ops = []
    for packet_name in sorted(dir(torch.ops.aten)):
        try:
            packet = getattr(torch.ops.aten, packet_name)
        except Exception:  # noqa: BLE001, S112 (torch.ops lists packets that fail to load)
            continue
        if not isinstance(packet, torch._ops.OpOverloadPacket):
            continue
        for overload in packet.overloads():
            op = getattr(packet, overload)
            if torch.Tag.core in op.tags:
                ops.append(op)
    return sorted(ops, key=str)


def kernel_for(op, registered: set[str]) -> str | None:
    """The out-variant's kernel name; for ops without one (sym_size, ...), the op's own name
    when the runtime registers it (prim ops that return scalars)."""
    from ember.passes.out_variants import kernel_name, out_variant

    out = out_variant(op)
    if out is not None:
        return kernel_name(out)
    own = kernel_name(op)
    return own if own in registered else None


def _dtypes(names) -> str:
    names = [d for d in DTYPE_ORDER if d in names]
    return " ".join(SHORT[d] for d in names) if names else ""


def _declared(declared: dict, kernel: str) -> str:
    names = declared[kernel]
    if names is None:
        return "(no tensor input)"
    return _dtypes([FROM_SCALAR_TYPE[n] for n in names if n in FROM_SCALAR_TYPE])


def load_results(paths: list[str]) -> tuple[dict[str, dict[str, str]], dict[str, list[str]]]:
    """Merges results files: shards of one run, or a rerun of some specs after a fix. A
    (spec, dtype) result in a later file replaces an earlier one. A path ending in .md is
    an earlier docs/ops.md, read by results_from_doc (name it first)."""
    results: dict[str, dict[str, str]] = {}
    kernels: dict[str, set[str]] = {}
    for path in paths:
        if path.endswith(".md"):
            data = results_from_doc(path)
        else:
            with open(path) as f:
                data = json.load(f)
        for spec, by_dtype in data.get("results", {}).items():
            results.setdefault(spec, {}).update(by_dtype)
        for spec, names in data.get("kernels", {}).items():
            if path.endswith(".md"):
                kernels[spec] = set(names)
            else:
                kernels.setdefault(spec, set()).update(names)
    return results, {spec: sorted(names) for spec, names in kernels.items()}


def results_from_doc(path: str) -> dict:
    """The per-spec table ("## Test specs") of a docs/ops.md generated earlier,
    as a results file: so a rerun of some specs (the new ones, after a fix)
    updates the document without rerunning the whole ~45-minute matrix. Specs
    the new results name replace these."""
    long_of = {short: name for name, short in SHORT.items()}
    results: dict[str, dict[str, str]] = {}
    kernels: dict[str, list[str]] = {}
    in_table = False
    with open(path) as f:
        for line in f:
            if line.startswith("## "):
                in_table = line.strip() == "## Test specs"
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not in_table or len(cells) != 4 or cells[0] in ("spec", "---"):
                continue
            spec, passes, fails, names = cells
            results[spec] = {long_of[d]: "pass" for d in passes.split()}
            results[spec].update({long_of[d]: "fail" for d in fails.split()})
            kernels[spec] = [k.strip("`") for k in names.split(", ") if k]
    return {"results": results, "kernels": kernels}


def functional_of_kernels() -> dict[str, torch._ops.OpOverload]:
    """Kernel name -> the functional op whose out-variant it is (the first one
    found; a kernel can serve several overloads)."""
    from ember.passes.out_variants import kernel_name, out_variant

    found: dict[str, torch._ops.OpOverload] = {}
    for packet_name in sorted(dir(torch.ops.aten)):
        try:
            packet = getattr(torch.ops.aten, packet_name)
        except Exception:  # noqa: BLE001, S112 (torch.ops lists packets that fail to load)
            continue
        if not isinstance(packet, torch._ops.OpOverloadPacket):
            continue
        for overload in packet.overloads():
            op = getattr(packet, overload)
            if any(a.is_out for a in op._schema.arguments):
                continue
            try:
                out = out_variant(op)
            except Exception:  # noqa: BLE001, S112 (torch.ops lists packets that fail to load)
                continue
            if out is not None:
                found.setdefault(kernel_name(out), op)
    return found


def _status_columns(kernel: str | None, by_kernel: dict[str, dict[str, list[str]]]):
    statuses = by_kernel.get(kernel, {}) if kernel else {}
    passed = [d for d, s in statuses.items() if "pass" in s]
    failed = [d for d, s in statuses.items() if "pass" not in s]
    return passed, failed


def load_opinfo(paths: list[str]) -> dict[str, dict[str, list]]:
    merged: dict[str, dict[str, list]] = {}
    for path in paths:
        with open(path) as f:
            for op, by_dtype in json.load(f).items():
                merged.setdefault(op, {}).update(by_dtype)
    return merged


def opinfo_section(opinfo: dict[str, dict[str, list]]) -> list[str]:
    """The OpInfo pass rate: an op passes when every tested dtype passes; ops
    torch.export cannot capture in any dtype, random ops and ops without samples
    are left out of the rate and listed apart."""
    passing, failing, outside = [], [], []
    for op in sorted(opinfo):
        statuses = {d: r[0] for d, r in opinfo[op].items()}
        tested = {d: st for d, st in statuses.items() if st in ("pass", "fail")}
        if not tested:
            reasons = sorted({f"{r[0]}: {r[1]}" if r[1] else r[0] for r in opinfo[op].values()})
            outside.append((op, "; ".join(reasons)))
        elif all(st == "pass" for st in tested.values()):
            passing.append((op, tested))
        else:
            failing.append((op, tested))
    captured = len(passing) + len(failing)
    rate = 100.0 * len(passing) / captured if captured else 0.0
    lines = [
        "## OpInfo ops through Ember",
        "",
        ("`tests/python/test_opinfo.py` runs PyTorch's own sample inputs "
         "(`torch.testing._internal.common_methods_invocations.op_db`) of every op, in float32 "
         "and the integer and complex dtypes it supports (int64, int32, uint8, bool, complex64), "
         "through `ember.export` and the runtime, and compares with eager. An op passes when "
         "every sample torch.export captures matches in every tested dtype."),
        "",
        (f"**{len(passing)} of the {captured} ops torch.export captures pass ({rate:.1f}%).** "
         f"{len(outside)} more are outside the rate: torch.export captures none of their "
         "samples, their results are random, or OpInfo has no samples for the tested dtypes."),
        "",
        "### Ops that fail",
        "",
        "| op | passes | fails | reason (first failing dtype) |",
        "|---|---|---|---|",
    ]
    for op, tested in failing:
        bad = [d for d in DTYPE_ORDER if tested.get(d) == "fail"]
        reason = opinfo[op][bad[0]][1].replace("|", "\\|").replace("\n", " ")
        lines.append(f"| `{op}` | {_dtypes([d for d, st in tested.items() if st == 'pass'])} | "
                     f"{_dtypes(bad)} | {reason} |")
    lines += ["", "### Ops outside the rate", "", "| op | why |", "|---|---|"]
    for op, why in outside:
        lines.append(f"| `{op}` | {why.replace('|', '/')} |")
    lines += ["", "### Ops that pass", "",
              ", ".join(f"`{op}`" for op, _ in passing), ""]
    return lines


def generate(results_paths: list[str], opinfo_paths: list[str] | None = None) -> str:
    import ember._C

    declared = ember._C.kernel_dtypes()
    registered = set(declared)
    results, spec_kernels = load_results(results_paths)

    # kernel -> dtype -> [status of each spec that called it]
    by_kernel: dict[str, dict[str, list[str]]] = {}
    specs_of_kernel: dict[str, set[str]] = {}
    for spec, kernels in spec_kernels.items():
        for kernel in kernels:
            specs_of_kernel.setdefault(kernel, set()).add(spec)
            for dtype, status in results.get(spec, {}).items():
                by_kernel.setdefault(kernel, {}).setdefault(dtype, []).append(status)

    rows = []
    n_supported = n_passing = 0
    core = core_aten_ops()
    core_kernels = set()
    for op in core:
        kernel = kernel_for(op, registered)
        core_kernels.add(kernel)
        supported = kernel is not None and kernel in registered
        passed, failed = _status_columns(kernel, by_kernel)
        n_supported += supported
        n_passing += supported and bool(passed)
        name = str(op).removeprefix("aten.")
        rows.append(
            f"| `{name}` | {'yes' if supported else 'no'} | "
            f"{('`' + kernel + '`') if kernel else '(no out variant)'} | "
            f"{_declared(declared, kernel) if supported else ''} | {_dtypes(passed)} | "
            f"{_dtypes(failed)} | {', '.join(sorted(specs_of_kernel.get(kernel, ())))} |")

    # Non-core: registered aten kernels of non-core ops, and kernels tests found missing.
    functional = functional_of_kernels()
    missing = {k for ks in spec_kernels.values() for k in ks if k not in registered}
    opinfo = load_opinfo(opinfo_paths or [])
    for by_dtype in opinfo.values():
        for record in by_dtype.values():
            reason = record[1] if len(record) > 1 else ""
            if reason.startswith("no kernel for "):
                missing.add(reason.removeprefix("no kernel for ").split()[0])
    noncore_rows = []
    n_noncore = n_noncore_supported = 0
    for kernel in sorted((registered | missing) - core_kernels):
        if not kernel.startswith("aten::"):
            continue
        op = functional.get(kernel)
        if op is not None and torch.Tag.core in op.tags:
            continue
        supported = kernel in registered
        passed, failed = _status_columns(kernel, by_kernel)
        n_noncore += 1
        n_noncore_supported += supported
        name = str(op).removeprefix("aten.") if op is not None else kernel.removeprefix("aten::")
        noncore_rows.append(
            f"| `{name}` | {'yes' if supported else 'no'} | `{kernel}` | "
            f"{_declared(declared, kernel) if supported else ''} | {_dtypes(passed)} | "
            f"{_dtypes(failed)} | {', '.join(sorted(specs_of_kernel.get(kernel, ())))} |")

    lines = [
        "# Operator coverage",
        "",
        ("Generated by `tools/gen_ops_doc.py` from the kernel registry, the core ATen op set "
         f"(torch {torch.__version__.split('+')[0]}, `torch.Tag.core`) and the results of "
         "`tests/python/test_ops.py` and `tests/python/test_opinfo.py`. Do not edit by hand."),
        "",
        (f"**Supported core ATen ops: {n_supported} / {len(core)}** (a kernel is registered "
         f"for the op's out-variant); {n_passing} of them pass the op tests in at least one "
         f"dtype. **Non-core ops: {n_noncore_supported} / {n_noncore}** of those that programs "
         "call have a kernel (second table)."),
        "",
        (f"Kernels registered: {len(registered)}. Test specs run: {len(results)}; "
         f"(spec, dtype) pairs passing: "
         f"{sum(s == 'pass' for r in results.values() for s in r.values())} / "
         f"{sum(len(r) for r in results.values())}."),
        "",
        "Dtypes: " + ", ".join(f"{v} = {k}" for k, v in SHORT.items()) + ". "
        "*Declared* lists the dtypes the kernel declares for its first tensor input; the runtime "
        "refuses any other when it loads a program, naming the op and the dtype. *Passes* lists the dtypes in which at least one test spec that calls the kernel matches eager "
        "PyTorch; *fails* lists dtypes that were tested and never passed (the cause may be another op in "
        "the same spec: see the per-spec table). Ops with no tested dtypes were not reached by a test.",
        "",
        ("Tolerances: float32 rtol/atol 1e-5, float64 1e-7, float16 1e-3, bfloat16 1e-2, "
         "complex64 1e-5, complex128 1e-7 (scaled up for accumulating ops, see "
         "tests/python/op_specs.py); integers and bool exact; NaN positions equal."),
        "",
        "## Core ATen ops",
        "",
        "| op | supported | kernel | declared | passes | fails | test specs |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        "## Ops outside core ATen",
        "",
        ("Ops that torch.export leaves in a program because PyTorch has no core ATen "
         "decomposition for them: every such op with an Ember kernel, and every one a test "
         "found missing."),
        "",
        "| op | supported | kernel | declared | passes | fails | test specs |",
        "|---|---|---|---|---|---|---|",
        *noncore_rows,
        "",
    ]
    if opinfo:
        lines += opinfo_section(opinfo)
    lines += [
        "## Test specs",
        "",
        "Every spec of tests/python/op_specs.py that ran, with the kernels its program calls.",
        "",
        "| spec | passes | fails | kernels |",
        "|---|---|---|---|",
    ]
    for spec in sorted(results):
        r = results[spec]
        lines.append(
            f"| {spec} | {_dtypes([d for d, s in r.items() if s == 'pass'])} | "
            f"{_dtypes([d for d, s in r.items() if s != 'pass'])} | "
            f"{', '.join('`' + k + '`' for k in spec_kernels.get(spec, []))} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="*",
                        help="JSON file(s) written by test_ops.py (EMBER_OPS_RESULTS), or an earlier "
                             "docs/ops.md to carry forward; "
                             "default: $EMBER_OPS_RESULTS")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("-o", "--output", default=os.path.join(root, "docs", "ops.md"))
    parser.add_argument("--opinfo", action="append", default=[],
                        help="JSON file(s) written by test_opinfo.py (EMBER_OPINFO_RESULTS)")
    args = parser.parse_args(argv)
    paths = args.results or ([os.environ["EMBER_OPS_RESULTS"]] if os.environ.get("EMBER_OPS_RESULTS")
                             else [])
    text = generate(paths, args.opinfo)
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "w") as f:
        f.write(text)
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
