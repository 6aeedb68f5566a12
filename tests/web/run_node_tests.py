"""Runs the JavaScript API's tests (tests/web/*.test.mjs) with Node's own
test runner against a built package folder, on the programs fixtures.py
exports (cached: exported again only when the exporter changes).

    .venv/bin/python tests/web/run_node_tests.py --js build/wasm/js \
        --fixtures build/py/binding-fixtures [--only api]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--js", required=True, help="the package folder (ember.mjs and the modules)")
    parser.add_argument("--fixtures", required=True, help="where fixtures.py writes the programs")
    parser.add_argument("--only", action="append", default=[],
                        help="run only tests/web/<name>.test.mjs (repeatable)")
    parser.add_argument("--selective", action="store_true",
                        help="--js is a selective build's package (the web demo's): run only "
                             "selective.test.mjs, which the other runs skip")
    args = parser.parse_args()
    js = Path(args.js).resolve()
    if not (js / "ember.mjs").exists() or not (js / "ember-wasm.wasm").exists():
        print(f"{js} holds no built package: build the wasm target first", file=sys.stderr)
        return 2
    subprocess.run([sys.executable, str(HERE / "fixtures.py"), args.fixtures], check=True)
    files = sorted(HERE.glob("*.test.mjs"))
    if args.selective:
        args.only = ["selective"]
    if args.only:
        files = [f for f in files if f.name.split(".")[0] in args.only]
    env = dict(os.environ, EMBER_JS_DIR=str(js), EMBER_FIXTURES=str(Path(args.fixtures).resolve()),
               EMBER_SELECTIVE="1" if args.selective else "0")
    start = time.monotonic()
    # One process per file (Node's runner does that): each loads the module
    # its own way (threaded or not).
    result = subprocess.run(["node", "--test", *map(str, files)], env=env, check=False)
    print(f"node --test: {len(files)} files, {time.monotonic() - start:.1f} s, "
          f"{'passed' if result.returncode == 0 else 'FAILED'}")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
