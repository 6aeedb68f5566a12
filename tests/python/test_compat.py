"""Golden .pte files (tests/compat/) keep loading and giving the same answers.

Each golden was written once, by an Ember or ExecuTorch release, with its
inputs and eager outputs beside it (tools/make_golden.py). A change that
breaks an old file fails here.
"""

import glob
import os
from pathlib import Path

import ember
import numpy as np
import pytest
import torch
from conftest import ROOT, assert_matches_eager

GOLDEN_DIR = os.path.join(ROOT, "tests", "compat")
GOLDENS = sorted(glob.glob(os.path.join(GOLDEN_DIR, "*.pte")))


def test_goldens_exist():
    assert len(GOLDENS) >= 6


@pytest.mark.parametrize("path", GOLDENS, ids=[os.path.basename(p) for p in GOLDENS])
def test_golden_runs_and_matches(path):
    data = np.load(path[: -len(".pte")] + ".npz")
    inputs = [torch.from_numpy(data[k]) for k in sorted(k for k in data if k.startswith("input_"))]
    expected = torch.from_numpy(data["expected_0"])
    assert_matches_eager(ember.runtime.load(path).forward(*inputs), expected, atol=1e-5)


def test_newer_format_is_refused_clearly(tmp_path):
    data = bytearray(Path(GOLDENS[0]).read_bytes())
    data[4:8] = b"ET13"
    path = tmp_path / "future.pte"
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="NotSupported.*'ET13' is not supported"):
        ember.runtime.load(str(path))


def test_unknown_extended_header_fields_are_ignored(tmp_path):
    """A newer writer may grow the extended header; older readers skip the rest."""
    data = bytearray(Path(GOLDEN_DIR, "et12_v0_ember_mlp.pte").read_bytes())
    assert data[8:12] == b"eh00"
    length = int.from_bytes(data[12:16], "little")
    # Claim 8 more header bytes, as a future field would; this reader must
    # ignore them and still find the program and its segments.
    data[12:16] = (length + 8).to_bytes(4, "little")
    path = tmp_path / "longer_header.pte"
    path.write_bytes(bytes(data))
    npz = np.load(os.path.join(GOLDEN_DIR, "et12_v0_ember_mlp.npz"))
    out = ember.runtime.load(str(path)).forward(torch.from_numpy(npz["input_0"]))
    assert_matches_eager(out, torch.from_numpy(npz["expected_0"]), atol=1e-5)
