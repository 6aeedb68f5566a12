"""Where an installed wheel keeps Ember's C++ SDK: the headers, the static
libraries, libember (the C ABI) and the CMake package.

    cmake -S app -B build -DCMAKE_PREFIX_PATH=$(python -m ember.sdk --prefix)
    cc app.c -I$(python -m ember.sdk --include-dir) -L$(python -m ember.sdk --lib-dir) -lember

An editable install (`make build`) has no SDK here: `make install PREFIX=...`
installs one from the source tree.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent


class SdkMissing(RuntimeError):
    """This ember has no C++ SDK beside it (an editable install)."""


def prefix() -> Path:
    """The directory to put on CMAKE_PREFIX_PATH (it holds include/ and lib/)."""
    if not (_ROOT / "lib" / "cmake" / "ember" / "emberConfig.cmake").is_file():
        raise SdkMissing(f"no C++ SDK under {_ROOT}: this ember is not installed from a wheel "
                         "(in a source tree, `make install PREFIX=...` installs the SDK)")
    return _ROOT


def cmake_dir() -> Path:
    """The directory holding emberConfig.cmake (for ember_DIR)."""
    return prefix() / "lib" / "cmake" / "ember"


def include_dir() -> Path:
    """The include directory: <ember/ember.h>, and the C++ headers under ember/."""
    return prefix() / "include"


def lib_dir() -> Path:
    return prefix() / "lib"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ember.sdk", description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    for flag, fn in (("--prefix", prefix), ("--cmake-dir", cmake_dir),
                     ("--include-dir", include_dir), ("--lib-dir", lib_dir)):
        group.add_argument(flag, action="store_const", const=fn, dest="what")
    args = parser.parse_args(argv)
    try:
        print(args.what())
    except SdkMissing as error:
        print(f"python -m ember.sdk: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
