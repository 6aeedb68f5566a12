"""The malformed-file corpus (tests/malformed, written by make_malformed.py)
from Python: each file gives its listed error, in one line, at its stage;
and every input the fuzzers ever crashed on loads or fails cleanly. Cases
built on a test-backend program (which ember._C does not link) go through
ember_run_test_backend instead: the ember_run front end."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass

import ember
import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MALFORMED = os.path.join(ROOT, "tests", "malformed")
REGRESSIONS = os.path.join(ROOT, "tests", "fuzz", "regressions")
TEST_BACKEND_RUNNER = os.path.join(ROOT, "build", "py", "tests", "cpp", "ember_run_test_backend")
# The limits make_malformed.py's cases assume.
LIMITS = {"max_memory_bytes": 256 << 20, "max_instructions": 100_000}


@dataclass
class Case:
    file: str
    stage: str
    error: str
    message: str


def _cases() -> list[Case]:
    with open(os.path.join(MALFORMED, "cases.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip() and line[0] != "#"]
    return [Case(*row) for row in rows]


def _zeros(module: ember.runtime.Module) -> list[np.ndarray]:
    return [np.zeros(shape, dtype) for dtype, shape, _ in module.input_specs()]


def _run(path: str) -> tuple[str, str]:
    """(stage that failed, its message) for one file."""
    try:
        module = ember.runtime.load(path, threads=1, **LIMITS)
    except ValueError as error:
        text = str(error)
        return ("init" if text.startswith("cannot initialise") else "load"), text
    try:
        module.forward(*_zeros(module))
    except ValueError as error:
        return "execute", str(error)
    return "ran", ""


def _run_with_test_backend(path: str) -> tuple[str, str]:
    """The same through ember_run (one line on stderr per failure)."""
    result = subprocess.run(
        [TEST_BACKEND_RUNNER, path, "--runs", "1", "--warmup", "0", "--threads", "1",
         "--max-memory", str(LIMITS["max_memory_bytes"]),
         "--max-instructions", str(LIMITS["max_instructions"])],
        capture_output=True, text=True, check=False)
    message = result.stderr.strip()
    if result.returncode == 0:
        return "ran", ""
    if message.startswith("ember_run: cannot initialise"):
        return "init", message
    return ("load" if message.startswith("ember_run: cannot load") else "execute"), message


def test_corpus_has_every_case():
    assert len(_cases()) >= 50


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c.file[:-4])
def test_malformed_file_gives_its_error(case: Case):
    path = os.path.join(MALFORMED, case.file)
    stage, message = _run(path)
    missing = "needs backend 'EmberTestBackend'"
    if missing in message and missing not in case.message:
        stage, message = _run_with_test_backend(path)
    assert stage == case.stage, message
    assert "\n" not in message
    if case.file == "empty_file.pte":  # refused by the Python front end before the runtime
        assert message.endswith("is empty, not a .pte program")
        return
    assert f": {case.error}: " in message, message
    assert case.message in message, message


def _regressions() -> list[str]:
    if not os.path.isdir(REGRESSIONS):
        return []
    return sorted(os.path.join(d, f) for d, _, files in os.walk(REGRESSIONS) for f in files)


@pytest.mark.parametrize("path", _regressions(), ids=os.path.basename)
def test_fuzzing_finding_fails_cleanly(path: str):
    """A crash kills the test process; anything else is fine, since most
    findings are programs no runtime should run."""
    _run(path)
