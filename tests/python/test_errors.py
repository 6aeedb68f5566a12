"""Bad input to the Python API and the CLI gets a one-line error naming what is wrong."""

import os
import subprocess
import sys
import threading

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
    runner = os.path.join(os.path.dirname(sys.executable), "ember_run")
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


# --- bad input at every API (issue 13) ---

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPAT = f"{ROOT}/tests/compat"
SEEDS = f"{ROOT}/tests/fuzz/seeds"


def _one_line(error: pytest.ExceptionInfo) -> str:
    text = str(error.value)
    assert "\n" not in text
    return text


def test_none_input(mlp_pte):
    with pytest.raises(TypeError) as error:
        ember.runtime.load(mlp_pte).forward(None)
    assert _one_line(error) == "input 0: expected a numpy array or torch tensor, got NoneType"


def test_directory_as_program(tmp_path):
    with pytest.raises(IsADirectoryError) as error:
        ember.runtime.load(tmp_path)
    assert _one_line(error) == f"{tmp_path} is a directory, not a .pte program file"


def test_empty_file_as_program(tmp_path):
    path = tmp_path / "empty.pte"
    path.write_bytes(b"")
    with pytest.raises(ValueError) as error:
        ember.runtime.load(path)
    assert _one_line(error) == f"{path} is empty, not a .pte program"


def test_zero_size_input_for_a_static_shape(mlp_pte):
    with pytest.raises(ValueError) as error:
        ember.runtime.load(mlp_pte).forward(torch.zeros(0, 64))
    assert "input 0 (x): dim 0 must be 4, got 0" in _one_line(error)


def test_past_a_dynamic_dims_bound():
    module = ember.runtime.load(f"{COMPAT}/et12_v0_ember_mlp_dynamic_batch.pte")
    with pytest.raises(ValueError) as error:
        module.forward(torch.zeros(9, 8))
    assert "input 0: dim 0 is 9, past its upper bound of 8" in _one_line(error)


def test_static_dim_of_a_dynamic_input_is_checked_naming_the_input():
    module = ember.runtime.load(f"{COMPAT}/et12_v0_ember_convnet_dynamic_batch.pte")
    with pytest.raises(ValueError) as error:
        module.forward(torch.zeros(2, 1, 8, 8))  # a grey image for an RGB model
    assert _one_line(error).endswith("input 0 (x): dim 1 must be 3, got 1 (the model was "
                                     "exported with only other dims dynamic)")


def test_zero_size_dynamic_batch_runs_like_eager():
    module = ember.runtime.load(f"{COMPAT}/et12_v0_ember_mlp_dynamic_batch.pte")
    assert tuple(module.forward(torch.zeros(0, 8)).shape) == (0, 4)


def test_non_contiguous_inputs_give_the_contiguous_result(mlp_pte):
    module = ember.runtime.load(mlp_pte)
    base = torch.randn(64, 4)
    transposed = base.t()  # a view with swapped strides
    assert not transposed.is_contiguous()
    torch.testing.assert_close(module.forward(transposed), module.forward(transposed.contiguous()))
    strided = np.random.default_rng(0).standard_normal((4, 128)).astype(np.float32)[:, ::2]
    assert not strided.flags.c_contiguous
    np.testing.assert_array_equal(module.forward(strided), module.forward(strided.copy()))


def test_limits_must_be_non_negative_integers(mlp_pte):
    for bad in ({"max_memory_bytes": -1}, {"max_instructions": 1.5}, {"threads": True}):
        with pytest.raises(ValueError, match="must be a non-negative integer"):
            ember.runtime.load(mlp_pte, **bad)


def test_memory_limit_refuses_before_allocating(mlp_pte):
    with pytest.raises(ValueError) as error:
        ember.runtime.load(mlp_pte, max_memory_bytes=1024)
    text = _one_line(error)
    assert "MemoryAllocationFailed" in text and "more than the limit of 1024 bytes" in text
    module = ember.runtime.load(mlp_pte, max_memory_bytes=1 << 20)
    assert module.forward(torch.zeros(4, 64)).shape == (4, 10)


def test_instruction_limit_stops_a_loop():
    x = torch.arange(32, dtype=torch.float32).reshape(4, 8)
    module = ember.runtime.load(f"{SEEDS}/while_loop_portable.pte", max_instructions=12)
    with pytest.raises(ValueError) as error:
        module.forward(x)
    assert "after 12 instructions, the limit the application set" in _one_line(error)
    torch.testing.assert_close(
        ember.runtime.load(f"{SEEDS}/while_loop_portable.pte", max_instructions=1000).forward(x),
        x * 8)


def test_forward_from_several_threads_serializes(mlp_pte):
    """One Module used from many Python threads: each call gets its own
    input's result (calls wait their turn, never race)."""
    module = ember.runtime.load(mlp_pte, threads=2)
    inputs = [torch.randn(4, 64) for _ in range(8)]
    expected = [module.forward(x) for x in inputs]
    failures = []

    def worker(k):
        for _ in range(25):
            got = module.forward(inputs[k])
            if not torch.equal(got, expected[k]):
                failures.append(k)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_cli_run_bad_program_files(tmp_path):
    result = _cli("run", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.strip() == f"ember: {tmp_path} is a directory, not a .pte program file"
    empty = tmp_path / "empty.pte"
    empty.write_bytes(b"")
    result = _cli("run", str(empty))
    assert result.returncode == 1
    assert result.stderr.strip() == f"ember: {empty} is empty, not a .pte program"
    result = _cli("run", f"{ROOT}/tests/malformed/kernel_more_args_than_schema.pte")
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1
    assert "takes 2 arguments and returns its 1 out" in result.stderr


def test_cli_run_limits(tmp_path):
    result = _cli("run", f"{SEEDS}/while_loop_portable.pte", "--max-instructions", "12")
    assert result.returncode == 1
    assert "after 12 instructions" in result.stderr
    result = _cli("run", f"{COMPAT}/et12_v0_ember_mlp.pte", "--max-memory-bytes", "-5")
    assert result.returncode == 2
    assert "expected a non-negative integer, got '-5'" in result.stderr


def _ember_run(*args):
    runner = os.path.join(os.path.dirname(sys.executable), "ember_run")
    return subprocess.run([runner, *args], capture_output=True, text=True, check=False)


def test_ember_run_bad_program_files(tmp_path):
    result = _ember_run(str(tmp_path))
    assert result.returncode == 1
    assert f"{tmp_path} is a directory, not a .pte program file" in result.stderr
    empty = tmp_path / "empty.pte"
    empty.write_bytes(b"")
    result = _ember_run(str(empty))
    assert result.returncode == 1
    assert "InvalidProgram: the file is empty, not a .pte program" in result.stderr


def test_ember_run_bad_inputs(mlp_pte, tmp_path):
    wrong_dtype = tmp_path / "f64.npy"
    np.save(wrong_dtype, np.zeros((4, 64), np.float64))
    result = _ember_run(mlp_pte, "--input", str(wrong_dtype))
    assert result.returncode == 1
    assert "input 0 (x): expected dtype Float, got Double" in result.stderr
    fortran = tmp_path / "fortran.npy"
    np.save(fortran, np.asfortranarray(np.zeros((4, 64), np.float32)))
    result = _ember_run(mlp_pte, "--input", str(fortran))
    assert result.returncode == 2
    assert "Fortran-ordered arrays are not supported" in result.stderr
    result = _ember_run(mlp_pte, "--input", str(wrong_dtype), "--input", str(wrong_dtype))
    assert result.returncode == 2
    assert "the model takes 1 inputs, 2 --input files given" in result.stderr


def test_ember_run_flags_and_limits():
    result = _ember_run(f"{COMPAT}/et12_v0_ember_mlp.pte", "--runs", "-1")
    assert result.returncode == 2
    assert "--runs needs an integer from 0 to 2147483647, got '-1'" in result.stderr
    result = _ember_run(f"{COMPAT}/et12_v0_ember_mlp.pte", "--max-memory", "1K")
    assert result.returncode == 1
    assert "more than the limit of 1024 bytes" in result.stderr
    result = _ember_run(f"{COMPAT}/et12_v0_ember_mlp.pte", "--max-memory", "1M", "--runs", "1")
    assert result.returncode == 0, result.stderr
    result = _ember_run(f"{SEEDS}/while_loop_portable.pte", "--max-instructions", "12")
    assert result.returncode == 1
    assert "after 12 instructions" in result.stderr


class _Not(torch.nn.Module):
    def forward(self, mask):
        return torch.logical_not(mask)


def test_bool_input_bytes_must_be_0_or_1(tmp_path):
    path = tmp_path / "not.pte"
    ember.export(_Not(), (torch.zeros(4, dtype=torch.bool),), backends=()).save(path)
    module = ember.runtime.load(path)
    not_a_bool = np.array([1, 0, 7, 1], np.uint8).view(np.bool_)  # numpy keeps the byte
    with pytest.raises(ValueError) as error:
        module.forward(not_a_bool)
    assert _one_line(error).endswith("input 0 (mask): bool element 2 holds 7; a bool is 0 or 1")
    np.testing.assert_array_equal(module.forward(np.array([1, 0, 0, 1], np.bool_)),
                                  [False, True, True, False])
