"""Compiles sources of a CMake tree with clang++ -fsyntax-only, with the flags
that tree gives each file: a build-only check that code GCC accepts also
builds with clang, as `make fuzz` (libFuzzer) needs. `make test` runs it
(make check-clang-syntax) on the files where the compilers differ most: the
ISA variant files (intrinsics and feature macros: -mavx512*, -mamx-*), the
optimized kernels' drivers and CPU feature detection, and the fuzz
harnesses' sources.

    python tools/check_clang_syntax.py build/py [--all] [--jobs N]

--all checks every file of the tree instead. Exit status 0 when every file
compiles, 1 otherwise (each failure's first errors are printed); 0 with a
note when clang++ is not installed and --require-clang is not given.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Sources the fuzz build (tests/fuzz/CMakeLists.txt) adds to the runtime's:
# compiled here with the flags of a harness file the tree has.
FUZZ_SOURCES = ("tests/fuzz/fuzz_harness.cpp", "tests/fuzz/fuzz_main.cpp",
                "tests/backend/test_backend.cpp")
# Flags only GCC knows: clang refuses these (the tree gets them under GCC
# only), and warns of the rest and goes on (quietened, so real warnings show).
GCC_ONLY = ("-ftree-", "-fno-tree-")
CLANG_QUIET = ["-Wno-unknown-warning-option", "-Wno-ignored-optimization-argument"]


def selected(entry: dict, everything: bool) -> bool:
    if everything:
        return True
    path = os.path.relpath(entry["file"], ROOT)
    args = entry["args"]
    isa = any(a.startswith(("-mavx", "-mamx", "-mf16c", "-mfma", "-march")) for a in args)
    return isa or path.startswith(("kernels/optimized/", "tests/fuzz/", "tests/backend/"))


def clang_command(entry: dict, clang: str) -> list[str]:
    """The entry's compile command for clang++ -fsyntax-only: same defines,
    includes, standard and ISA flags; no output file."""
    args = entry["args"][1:]
    out: list[str] = [clang, "-fsyntax-only", *CLANG_QUIET]
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD") or a == entry["file"] or a.startswith(GCC_ONLY):
            continue
        out.append(a)
    out.append(entry["file"])
    return out


def load_entries(build: str) -> list[dict]:
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = json.load(f)
    for e in entries:
        e["args"] = e["arguments"] if "arguments" in e else shlex.split(e["command"])
        e["file"] = os.path.normpath(os.path.join(e["directory"], e["file"]))
    # The fuzz sources a tree does not compile, with a harness file's flags
    # (fuzz_harness.cpp is built everywhere for the regression test).
    known = {e["file"] for e in entries}
    template = next((e for e in entries if e["file"].endswith("tests/fuzz/fuzz_harness.cpp")), None)
    if template is not None:
        for rel in FUZZ_SOURCES:
            path = os.path.join(ROOT, rel)
            if path not in known and os.path.exists(path):
                args = [path if a == template["file"] else a for a in template["args"]]
                if rel.endswith("fuzz_main.cpp"):
                    args.insert(1, "-DEMBER_FUZZ_HARNESS=load_program")
                entries.append({"directory": template["directory"], "file": path, "args": args})
    return entries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build", help="a configured CMake tree (compile_commands.json)")
    parser.add_argument("--all", action="store_true", help="every file of the tree")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--require-clang", action="store_true",
                        help="fail rather than skip when clang++ is missing")
    args = parser.parse_args()
    clang = shutil.which("clang++")
    if clang is None:
        print("== clang syntax: skipped, clang++ is not installed (make fuzz installs it)")
        return 1 if args.require_clang else 0
    entries = [e for e in load_entries(args.build) if selected(e, args.all)]
    start = time.monotonic()

    def check(entry: dict) -> tuple[dict, subprocess.CompletedProcess]:
        return entry, subprocess.run(clang_command(entry, clang), cwd=entry["directory"],
                                     capture_output=True, text=True, check=False)

    failed = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for entry, result in pool.map(check, entries):
            if result.returncode != 0:
                failed += 1
                errors = [line for line in result.stderr.splitlines() if "error" in line]
                print(f"FAILED {os.path.relpath(entry['file'], ROOT)}")
                print("\n".join("  " + line for line in (errors or result.stderr.splitlines())[:6]))
    print(f"== clang syntax: {len(entries) - failed}/{len(entries)} files compile with "
          f"{os.path.basename(clang)} ({time.monotonic() - start:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
