"""The tables of docs/embedded.md, measured: every model image of the given
Cortex-M builds run under QEMU, with its flash and RAM, its instructions
per inference, and those of its convolution and fully connected layers,
per kernel variant; and the code each library puts in an image.

    python -m ember.targets.cortex_m.report build/cortex-m4 build/cortex-m4-scalar \\
        build/cortex-m55 build/cortex-m55-dsp build/cortex-m55-scalar

prints Markdown. Instruction counts come from QEMU's -icount (exact and
repeatable, but instructions, not cycles: QEMU is not cycle-accurate).
"""

from __future__ import annotations

import argparse
import os
import re
from collections import defaultdict
from dataclasses import dataclass

from ember.targets.cortex_m.run import BuildInfo, Footprint, RunnerOutput, footprint, run

MODELS = ("kws", "vww", "resnet8", "autoencoder")
# Operators whose instructions make "convolution and fully connected layers".
_LAYERS = re.compile(r"ember_cortex_m::(conv2d|depthwise_conv2d|fully_connected)")
# Libraries of an image as its map file names them, for the code table.
_LIBRARIES = {"libember_runtime.a": "runtime core", "libember_board.a": "board (startup, semihosting)",
              "libember_cortex_m_kernels_lib.a": "Cortex-M int8 kernels",
              "libember_cm_portable_kernels_lib.a": "portable kernels (view_copy)",
              "libc.a": "C library (picolibc)", "libsemihost.a": "C library (picolibc)",
              "libstdc++.a": "C++ runtime (libstdc++, libgcc)",
              "libsupc++.a": "C++ runtime (libstdc++, libgcc)",
              "libgcc.a": "C++ runtime (libstdc++, libgcc)"}


@dataclass
class Run:
    info: BuildInfo
    model: str
    output: RunnerOutput
    footprint: Footprint

    @property
    def layer_instructions(self) -> int:
        return sum(n for op, (_, n) in self.output.ops.items() if _LAYERS.match(op))


def run_all(builds: list[str]) -> list[Run]:
    runs = []
    for folder in builds:
        info = BuildInfo.of(folder)
        for model in MODELS:
            try:
                elf = info.image(model)
            except FileNotFoundError:
                continue
            output = run(info, elf)
            if output.status != 0:
                raise RuntimeError(f"{elf} failed:\n{output.text}")
            runs.append(Run(info, model, output, footprint(elf, output)))
    return runs


def code_by_library(map_path: str) -> dict[str, tuple[int, int]]:
    """(text, read-only data) bytes each library puts in the image (its map
    file's .text* and .rodata* input sections)."""
    sizes: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    section = kind = None
    with open(map_path) as f:
        for line in f:
            if line.startswith((" .text", " .rodata")):
                parts = line.split()
                section = parts[0]
                kind = 0 if section.startswith(".text") else 1
                if len(parts) < 4:
                    continue  # the address, size and file are on the next line
                parts = parts[1:]
            elif section is not None and line.startswith("                "):
                parts = line.split()
            else:
                section = None
                continue
            section = None
            if len(parts) < 3 or not parts[1].startswith("0x"):
                continue
            library = re.sub(r"\(.*", "", os.path.basename(parts[2]))
            sizes[_LIBRARIES.get(library, "the runner and the rest")][kind] += int(parts[1], 16)
    return {name: (text, rodata) for name, (text, rodata) in sizes.items()}


def _kib(n: int) -> str:
    return f"{n / 1024:.1f}"


def markdown(runs: list[Run]) -> str:
    lines = []
    default = [r for r in runs if r.info.kernels != "scalar" and
               r.info.kernels == {"cortex-m4": "dsp", "cortex-m55": "helium"}[r.info.cpu]]
    lines += ["### Flash and RAM per model", "",
              ("| model | board | flash KiB (code + read-only data + program) | RAM KiB (arena + "
               "method tables + static data + stack) | RAM beyond the arena KiB |"),
              "|---|---|---|---|---|"]
    for r in default:
        f = r.footprint
        lines.append(f"| {r.model} | {r.info.board} ({r.info.cpu}) | {_kib(f.flash)} = "
                     f"{_kib(f.code)} + {_kib(f.rodata)} + {_kib(f.program)} | {_kib(f.ram)} = "
                     f"{_kib(f.arena)} + {_kib(f.method_pool)} + {_kib(f.static_ram)} + "
                     f"{_kib(f.stack)} | {_kib(f.runtime_ram)} |")
    lines += ["", "### Instructions per inference (QEMU -icount)", "",
              "| model | board | kernels | per inference | conv + FC layers | layers vs scalar |",
              "|---|---|---|---|---|---|"]
    scalar = {(r.info.cpu, r.model): r for r in runs if r.info.kernels == "scalar"}
    for r in sorted(runs, key=lambda r: (r.model, r.info.cpu, r.info.kernels != "scalar",
                                         r.info.kernels)):
        base = scalar.get((r.info.cpu, r.model))
        ratio = (f"{base.layer_instructions / r.layer_instructions:.1f}x fewer"
                 if base is not None and r is not base and r.layer_instructions else "")
        lines.append(f"| {r.model} | {r.info.cpu} | {r.info.kernels} | "
                     f"{r.output.instructions.get('execute', 0):,} | {r.layer_instructions:,} | "
                     f"{ratio} |")
    if runs:
        elf = runs[0].info.image(runs[0].model)
        lines += ["", (f"### Code and read-only data by library ({runs[0].model} on "
                       f"{runs[0].info.cpu})"), "", "| library | text KiB | read-only data KiB |",
                  "|---|---|---|"]
        libraries = code_by_library(elf + ".map")
        for name, (text, rodata) in sorted(libraries.items(), key=lambda kv: -sum(kv[1])):
            lines.append(f"| {name} | {_kib(text)} | {_kib(rodata)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("builds", nargs="+", help="Cortex-M build folders")
    args = parser.parse_args(argv)
    print(markdown(run_all(args.builds)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
