"""The C ABI's symbol list (extension/c_api/ember.symbols) against the
header's declarations, a built libember and the C test's calls.

    python tests/package/check_symbols.py [--library path/to/libember.so.1]

A function added to the header but not to the list (or the reverse), a
symbol the library exports beyond the list or lacks, or a function the C
test never calls, is reported and fails the check."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "include" / "ember" / "ember.h"
SYMBOLS = ROOT / "extension" / "c_api" / "ember.symbols"
C_TEST = Path(__file__).resolve().parent / "c_api_test.c"


def header_functions(header: Path) -> list[str]:
    """The functions ember.h declares (EMBER_API ... name(...))."""
    text = header.read_text()
    return re.findall(r"^EMBER_API\b[^(;]*?\b(ember_\w+)\(", text, flags=re.MULTILINE)


def listed_symbols(symbols: Path) -> list[str]:
    return [line.strip() for line in symbols.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def library_symbols(library: Path) -> tuple[list[str], list[str]]:
    """The library's exported functions, and any other symbol it defines
    (other than its version node)."""
    out = subprocess.run(["nm", "-D", "--defined-only", str(library)], check=True,
                         capture_output=True, text=True).stdout
    functions, others = [], []
    for line in out.splitlines():
        parts = line.split()
        kind, name = parts[-2], parts[-1].split("@")[0]
        if kind == "A" and re.fullmatch(r"EMBER_\d+", name):
            continue  # the version node
        (functions if kind in ("T", "W") and name.startswith("ember_") else others).append(name)
    return functions, others


def versions(library: Path) -> set[str]:
    """The version nodes the exported functions carry (objdump -T)."""
    out = subprocess.run(["objdump", "-T", str(library)], check=True, capture_output=True,
                         text=True).stdout
    return {m.group(1) for m in re.finditer(r"\s(EMBER_\d+)\s+ember_\w+$", out, re.MULTILINE)}


def problems(library: Path | None = None, header: Path = HEADER,
             symbols: Path = SYMBOLS) -> list[str]:
    """Every disagreement between the header, the list, the C test and (when
    given) the library, as one line each."""
    found: list[str] = []
    listed = listed_symbols(symbols)
    declared = header_functions(header)
    if len(set(listed)) != len(listed):
        found.append("ember.symbols lists a function twice")
    for name in sorted(set(declared) - set(listed)):
        found.append(f"{name} is declared in ember.h but not in ember.symbols")
    for name in sorted(set(listed) - set(declared)):
        found.append(f"{name} is in ember.symbols but not declared in ember.h")
    test_source = C_TEST.read_text()
    for name in listed:
        if not re.search(rf"\b{name}\(", test_source):
            found.append(f"{name} is never called by tests/package/c_api_test.c")
    if library is not None:
        exported, others = library_symbols(library)
        for name in sorted(set(listed) - set(exported)):
            found.append(f"{library.name} does not export {name}")
        for name in sorted(set(exported) - set(listed)):
            found.append(f"{library.name} exports {name}, which ember.symbols does not list")
        for name in sorted(others):
            found.append(f"{library.name} exports {name}, which is not part of the C ABI")
        major = re.search(r"#define EMBER_ABI_VERSION_MAJOR (\d+)", header.read_text()).group(1)
        if versions(library) != {f"EMBER_{major}"}:
            found.append(f"{library.name}: functions carry versions {sorted(versions(library))}, "
                         f"expected EMBER_{major}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", type=Path, help="a built libember.so to check too")
    args = parser.parse_args(argv)
    found = problems(args.library)
    for line in found:
        print(f"check_symbols: {line}", file=sys.stderr)
    if not found:
        print(f"check_symbols: {len(listed_symbols(SYMBOLS))} functions: header, list"
              f"{', library' if args.library else ''} and C test agree")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
