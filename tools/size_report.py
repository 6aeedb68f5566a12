"""What each part of a linked Ember program costs in bytes (docs/size.md).

    size_report.py build/size/ember_min_run [--json out.json] [--detail]

Reads the GNU ld link map the size builds write beside each executable
(`<exe>.map`, CMake option EMBER_MINSIZE) and sums, per component, the input
sections the linker kept: code (.text), read-only data (.rodata, exception
and unwind tables included), initialised data (.data) and zeroed data (.bss).
Components follow the source tree: the core (runtime/), the portable kernels
per op file, the optimized kernels per family, the CPU backend, the program's
main, the C++ and C runtime libraries when linked statically, and the rest.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

KINDS = ("text", "rodata", "data", "bss")

# An input section line: " .text._ZN...  0xaddr  0xsize  path(member)" (the
# name may sit alone on the line before when it is long).
_SECTION = re.compile(r"^ (\.[\w.$@-]+)?\s*(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+(\S.*)$")
_NAME_ONLY = re.compile(r"^ (\.[\w.$@-]+)\s*$")


def _kind(section: str) -> str | None:
    for prefix, kind in ((".text", "text"), (".rodata", "rodata"), (".data.rel.ro", "rodata"),
                         (".data", "data"), (".bss", "bss"), (".tbss", "bss"),
                         (".tdata", "data"), (".eh_frame", "rodata"), (".gcc_except_table",
                                                                       "rodata"),
                         (".init_array", "data"), (".fini_array", "data")):
        if section.startswith(prefix):
            return kind
    return None


def component(path: str) -> str:
    """The component an input file belongs to."""
    p = path.replace("\\", "/")
    member = re.search(r"\(([^)]+)\)$", p)
    obj = member.group(1) if member else p
    if re.search(r"lib(std)?c\+\+|libsupc\+\+|libgcc|libc\.a|libm\.a|/crt|libc_nonshared",
                 p):
        return "libc/libstdc++ (static)"
    m = re.search(r"(runtime/(?:core|executor|kernel|backend))/", p)
    if m:
        return "core: " + m.group(1).split("/")[1]
    m = re.search(r"kernels/portable/util/", p)
    if m:
        return "portable: util"
    m = re.search(r"kernels/portable/(\w+)\.cpp", p)
    if m:
        return "portable: " + m.group(1)
    if "kernels/prim/" in p:
        return "prim ops"
    m = re.search(r"kernels/optimized/([\w-]+)/", p)
    if m:
        return "optimized: " + m.group(1)
    if "kernels/optimized/" in p:
        return "optimized: ops"
    if "backends/cpu/" in p:
        return "cpu backend"
    if "extension/threadpool" in p:
        return "thread pool"
    if "tools/" in p:
        return "main"
    # Objects named only by archive member (libember_runtime.a(error.cpp.o)).
    for lib, name in (("libember_runtime", "core"), ("libember_portable_kernels", "portable"),
                      ("libember_optimized_kernels", "optimized"),
                      ("libember_cpu_backend", "cpu backend")):
        if lib in p:
            return f"{name}: {obj}"
    return "other"


def parse_map(text: str) -> dict[str, dict[str, int]]:
    """Bytes per component and kind from a GNU ld map's memory map."""
    sizes: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(KINDS, 0))
    lines = text.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith("Linker script and memory map"))
    except StopIteration:
        raise ValueError("not a GNU ld map (no 'Linker script and memory map')") from None
    pending: str | None = None
    for line in lines[start:]:
        only = _NAME_ONLY.match(line)
        if only:
            pending = only.group(1)
            continue
        m = _SECTION.match(line)
        if not m:
            pending = None
            continue
        section = m.group(1) or pending
        pending = None
        size = int(m.group(3), 16)
        path = m.group(4).strip()
        if section is None or size == 0 or path.startswith("*") or "load address" in path:
            continue
        kind = _kind(section)
        if kind is None:
            continue
        sizes[component(path)][kind] += size
    return dict(sizes)


def summarize(sizes: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """Per-component sizes folded into the groups docs/size.md reports."""
    groups: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(KINDS, 0))
    for name, kinds in sizes.items():
        group = name.split(":")[0]
        for k in KINDS:
            groups[group][k] += kinds[k]
    return dict(groups)


def _table(rows: dict[str, dict[str, int]]) -> str:
    out = [f"{'component':40} {'text':>10} {'rodata':>10} {'data':>8} {'bss':>8}"]
    for name, k in sorted(rows.items(), key=lambda kv: -(kv[1]["text"] + kv[1]["rodata"])):
        out.append(f"{name:40} {k['text']:>10,} {k['rodata']:>10,} {k['data']:>8,} {k['bss']:>8,}")
    total = {kind: sum(k[kind] for k in rows.values()) for kind in KINDS}
    out.append(f"{'total':40} {total['text']:>10,} {total['rodata']:>10,} {total['data']:>8,} "
               f"{total['bss']:>8,}")
    return "\n".join(out)


def report(executable: str) -> dict:
    exe = Path(executable)
    map_path = Path(str(exe) + ".map")
    if not map_path.exists():
        raise FileNotFoundError(f"{map_path}: no link map (configure with -DEMBER_MINSIZE=ON)")
    sizes = parse_map(map_path.read_text(errors="replace"))
    return {"executable": str(exe), "file_bytes": exe.stat().st_size, "components": sizes,
            "groups": summarize(sizes)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("executables", nargs="+")
    parser.add_argument("--detail", action="store_true", help="every component, not the groups")
    parser.add_argument("--json", help="write the numbers here too")
    args = parser.parse_args(argv)
    results = []
    try:
        for exe in args.executables:
            r = report(exe)
            results.append(r)
            print(f"== {exe} ({r['file_bytes']:,} bytes on disk)")
            print(_table(r["components"] if args.detail else r["groups"]))
            print()
    except (OSError, ValueError) as e:
        print(f"size_report: {e}", file=sys.stderr)
        return 1
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
