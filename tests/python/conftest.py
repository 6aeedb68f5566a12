import os
import sys

import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)  # so that tests can import examples.models


@pytest.fixture
def tmp_pte(tmp_path):
    return str(tmp_path / "model.pte")


def assert_matches_eager(actual, expected, atol=1e-4):
    """Max abs error below atol, relative to the output's scale when it exceeds 1."""
    actual = torch.as_tensor(actual)
    assert actual.shape == expected.shape, f"shape {tuple(actual.shape)} != {tuple(expected.shape)}"
    assert actual.dtype == expected.dtype, f"dtype {actual.dtype} != {expected.dtype}"
    scale = max(1.0, float(expected.abs().max())) if expected.numel() else 1.0
    error = float((actual.double() - expected.double()).abs().max()) if expected.numel() else 0.0
    assert error <= atol * scale, f"max abs error {error:.3e} exceeds {atol * scale:.3e}"
