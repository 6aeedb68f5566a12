"""Bad input to the Python API and the CLI gets a one-line error naming what is wrong."""

import subprocess
import sys

import ember
import numpy as np
import pytest
import torch

from examples import models


@pytest.fixture(scope="module")
def mlp_pte(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("pte") / "mlp.pte")
    ember.export(models.seeded(models.MLP), (torch.randn(4, 64),)).save(path)
    return path


def test_missing_file():
    with pytest.raises(FileNotFoundError, match="no such program file"):
        ember.runtime.load("/nonexistent/model.pte")


def test_not_a_program(tmp_path):
    path = tmp_path / "junk.pte"
    path.write_bytes(b"this is not a flatbuffer at all, just text")
    with pytest.raises(ValueError, match="InvalidProgram"):
        ember.runtime.load(str(path))


def test_wrong_number_of_inputs(mlp_pte):
    module = ember.runtime.load(mlp_pte)
    with pytest.raises(ValueError, match="takes 1 input"):
        module.forward(torch.randn(4, 64), torch.randn(4, 64))


def test_wrong_shape(mlp_pte):
    with pytest.raises(ValueError, match=r"dim 1 must be 64, got 32"):
        ember.runtime.load(mlp_pte).forward(torch.randn(4, 32))


def test_wrong_rank(mlp_pte):
    with pytest.raises(ValueError, match="rank 2"):
        ember.runtime.load(mlp_pte).forward(torch.randn(4, 64, 1))


def test_wrong_dtype(mlp_pte):
    with pytest.raises(ValueError, match="expected dtype Float, got Double"):
        ember.runtime.load(mlp_pte).forward(np.zeros((4, 64), np.float64))


def test_unsupported_input_type(mlp_pte):
    with pytest.raises(TypeError, match="input 0"):
        ember.runtime.load(mlp_pte).forward("not a tensor")


def test_export_rejects_non_module():
    with pytest.raises(ember.ExportError, match="nn.Module"):
        ember.export(lambda x: x, (torch.randn(2),))


def test_unbounded_dynamic_dim_is_refused():
    batch = torch.export.Dim("batch")  # no max
    with pytest.raises(ember.ExportError, match="upper bound"):
        ember.export(models.seeded(models.MLP), (torch.randn(4, 64),),
                           dynamic_shapes=({0: batch},))


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "ember.cli", *args], capture_output=True, text=True, check=False)


def test_cli_missing_model_file(tmp_path):
    result = _cli("export", "nope.py:make", "--input-shape", "1x2", "-o", str(tmp_path / "x.pte"))
    assert result.returncode == 2
    assert result.stderr.strip() == "ember: no such file: nope.py"


def test_cli_bad_shape(tmp_path):
    result = _cli("export", "examples/models.py:mlp", "--input-shape", "4xz", "-o",
                  str(tmp_path / "x.pte"))
    assert result.returncode == 2
    assert "bad --input-shape '4xz'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_cli_export_then_run(tmp_path):
    out = str(tmp_path / "mlp.pte")
    result = _cli("export", "examples/models.py:mlp", "--input-shape", "2x64", "-o", out)
    assert result.returncode == 0, result.stderr
    assert "activation arena" in result.stdout
    result = _cli("run", out)
    assert result.returncode == 0, result.stderr
    assert "output 0: float32 [2, 10]" in result.stdout


def test_ember_run_reports_bad_inputs(mlp_pte, tmp_path):
    runner = __import__("os").path.join(__import__("os").path.dirname(sys.executable), "ember_run")
    bad = tmp_path / "bad.npy"
    np.save(bad, np.zeros((4, 32), np.float32))
    result = subprocess.run([runner, mlp_pte, "--input", str(bad)], capture_output=True, text=True, check=False)
    assert result.returncode != 0
    assert "dim 1 must be 64, got 32" in result.stderr
    result = subprocess.run([runner, "/nonexistent.pte"], capture_output=True, text=True, check=False)
    assert result.returncode != 0
    assert "cannot load /nonexistent.pte" in result.stderr
    result = subprocess.run([runner, mlp_pte, "--runs", "2"], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "median" in result.stdout and "output 0: Float [4x10]" in result.stdout
