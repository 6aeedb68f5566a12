"""Runs a Cortex-M image of targets/cortex-m under QEMU and reads what its
runner printed: the outputs (bit for bit), the memory it used, the
instructions of each step and of each operator; and the image's flash and
RAM from its sections.

    python -m ember.targets.cortex_m.run build/cortex-m55 kws [--expected kws.expected.npz]

prints the result (the top class, and how the outputs compare with the host
runtime's and the quantized model's in eager PyTorch), flash, RAM and
instructions. The build folder's cortex_m_build.json (written by CMake)
says which board and QEMU command the images are for.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field

import numpy as np

_DTYPES = {"Float": np.float32, "Char": np.int8, "Byte": np.uint8, "Int": np.int32,
           "Long": np.int64, "Short": np.int16, "Double": np.float64, "Bool": np.bool_}
# Sections of an image (targets/cortex-m/boards/sections.ld) by where they live.
FLASH_SECTIONS = (".vectors", ".text.fast", ".text", ".rodata", ".ember_model", ".ARM.exidx",
                  ".data", ".tdata")  # initial values of .data are in flash too
RAM_SECTIONS = (".data", ".tdata", ".tbss", ".bss")


@dataclass
class BuildInfo:
    folder: str
    cpu: str
    board: str
    kernels: str
    icount_shift: int
    qemu: list[str]

    @staticmethod
    def of(folder: str) -> BuildInfo:
        with open(os.path.join(folder, "cortex_m_build.json")) as f:
            info = json.load(f)
        return BuildInfo(folder, info["cpu"], info["board"], info["kernels"],
                         int(info["icount_shift"]), list(info["qemu"]))

    def image(self, name: str) -> str:
        """The path of image `name` (a model's name, or a test's: kernel_tester)."""
        for candidate in (f"ember_cm_model_{name}.elf", f"ember_cm_{name}.elf"):
            path = os.path.join(self.folder, "targets", "cortex-m", candidate)
            if os.path.exists(path):
                return path
        raise FileNotFoundError(f"no image {name!r} in {self.folder}")


@dataclass
class RunnerOutput:
    status: int
    text: str
    outputs: list[np.ndarray] = field(default_factory=list)
    memory: dict[str, int] = field(default_factory=dict)
    instructions: dict[str, int] = field(default_factory=dict)
    ops: dict[str, tuple[int, int]] = field(default_factory=dict)  # op -> (calls, instructions)


def run(info: BuildInfo, elf: str, timeout: float = 300) -> RunnerOutput:
    result = subprocess.run([*info.qemu, elf], capture_output=True, text=True, timeout=timeout,
                            check=False)  # a failing image's status is the result
    return parse(result.returncode, result.stdout + result.stderr)


def parse(status: int, text: str) -> RunnerOutput:
    out = RunnerOutput(status, text)
    shape: tuple[str, list[int]] | None = None
    words: list[int] = []

    def flush() -> None:
        if shape is None:
            return
        dtype = np.dtype(_DTYPES[shape[0]])
        count = int(np.prod(shape[1])) if shape[1] else 1
        if dtype.itemsize > 4 or len(words) != count:
            out.outputs.append(np.zeros(0))  # too large or wide to print: checksum only
            return
        raw = np.array(words, dtype=np.uint32).astype(f"u{dtype.itemsize}")
        out.outputs.append(raw.view(dtype).reshape(shape[1]))

    for line in text.splitlines():
        if m := re.match(r"output (\d+) (\w+) \[([\d,]*)\]", line):
            flush()
            shape, words = (m.group(2), [int(s) for s in m.group(3).split(",") if s]), []
        elif line.startswith("data "):
            words += [int(w, 16) for w in line.split()[1:]]
        elif m := re.match(r"memory (\w+) (\d+)", line):
            out.memory[m.group(1)] = int(m.group(2))
        elif m := re.match(r"instructions (\w+) (\d+)", line):
            out.instructions[m.group(1)] = int(m.group(2))
        elif m := re.match(r"op (\S+) calls (\d+) instructions (\d+)", line):
            out.ops[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    flush()
    return out


def section_sizes(elf: str) -> dict[str, int]:
    size = shutil.which("arm-none-eabi-size") or "arm-none-eabi-size"
    text = subprocess.run([size, "-A", elf], capture_output=True, text=True, check=True).stdout
    sizes = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit():
            sizes[parts[0]] = int(parts[1])
    return sizes


@dataclass
class Footprint:
    """An image's flash and RAM, in bytes."""

    code: int        # text
    rodata: int      # read-only data besides the program
    program: int     # the .pte in flash
    static_ram: int  # data + bss (the runtime's, the C library's, the runner's)
    arena: int       # the planned activations
    method_pool: int
    stack: int       # the deepest the stack went

    @property
    def flash(self) -> int:
        return self.code + self.rodata + self.program

    @property
    def ram(self) -> int:
        return self.static_ram + self.arena + self.method_pool + self.stack

    @property
    def runtime_ram(self) -> int:
        """RAM beyond the planned arena: method tables, statics, stack."""
        return self.ram - self.arena


def footprint(elf: str, output: RunnerOutput) -> Footprint:
    s = section_sizes(elf)
    data = s.get(".data", 0) + s.get(".tdata", 0)
    program = output.memory.get("program_bytes", 0)
    inputs = s.get(".ember_model", 0) - program
    return Footprint(
        code=s.get(".vectors", 0) + s.get(".text.fast", 0) + s.get(".text", 0),
        rodata=s.get(".rodata", 0) + s.get(".ARM.exidx", 0) + data + max(inputs, 0),
        program=program,
        static_ram=data + s.get(".tbss", 0) + s.get(".bss", 0),
        arena=output.memory.get("arena", 0),
        method_pool=output.memory.get("method_pool_used", 0),
        stack=output.memory.get("stack_used", 0))


def compare(output: RunnerOutput, expected: dict[str, np.ndarray]) -> str:
    got = output.outputs[0] if output.outputs else np.zeros(0)
    host = expected["host"].reshape(got.shape)
    exact = got.dtype == host.dtype and np.array_equal(got.view(np.uint8), host.view(np.uint8))
    eager = expected["eager"].reshape(got.shape)
    text = "bit-exact with the host runtime" if exact else (
        f"differs from the host runtime by up to {np.abs(got - host).max():.3g}")
    text += f"; max |board - eager int8 model| {np.abs(got - eager).max():.3g}"
    if got.ndim == 2 and 1 < got.shape[1] <= 100:  # a classifier's scores
        agree = int(got.argmax()) == int(eager.argmax())
        text += f"; top-1 class {int(got.argmax())} ({'same as' if agree else 'not'} eager's)"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build", help="a Cortex-M build folder (build/cortex-m55)")
    parser.add_argument("image", help="a model's name (kws) or an image's path")
    parser.add_argument("--expected", help="the model's .expected.npz (examples/mcu_models.py)")
    parser.add_argument("--raw", action="store_true",
                        help="print what the image printed (a tester's or bench's lines)")
    args = parser.parse_args(argv)
    info = BuildInfo.of(args.build)
    elf = args.image if args.image.endswith(".elf") else info.image(args.image)
    output = run(info, elf)
    if args.raw:
        print(output.text, end="")
        return output.status
    if output.status != 0 or not output.outputs:
        print(output.text)
        print(f"{os.path.basename(elf)} failed on {info.board} (exit status {output.status})")
        return output.status or 1
    name = os.path.basename(elf)
    print(f"{name} on {info.board} ({info.cpu}, {info.kernels} kernels)")
    got = output.outputs[0]
    print(f"  output {list(got.shape)}: {np.array2string(got.ravel()[:8], precision=4)}"
          + (" ..." if got.size > 8 else ""))
    if args.expected:
        print("  " + compare(output, dict(np.load(args.expected))))
    fp = footprint(elf, output)
    print(f"  flash {fp.flash / 1024:.1f} KiB (code {fp.code / 1024:.1f}, read-only data "
          f"{fp.rodata / 1024:.1f}, program {fp.program / 1024:.1f})")
    print(f"  RAM {fp.ram / 1024:.1f} KiB (arena {fp.arena / 1024:.1f}, method tables "
          f"{fp.method_pool / 1024:.1f}, static data {fp.static_ram / 1024:.1f}, stack "
          f"{fp.stack / 1024:.1f}); beyond the arena {fp.runtime_ram / 1024:.1f} KiB")
    ins = output.instructions
    print(f"  instructions: load {ins.get('load', 0):,}, init {ins.get('init', 0):,}, "
          f"execute {ins.get('execute', 0):,} (QEMU -icount: instructions, not cycles)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
