"""Selective builds (docs/size.md): the selection read from programs, and a
runtime built from it that runs its program and refuses others by name."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import ember
from ember.selective import select_files

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import gen_selected_kernels  # noqa: E402


class ConvNet(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x)
        return torch.relu(y) + y


class Fn(torch.nn.Module):
    def __init__(self, fn) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *xs):
        return self.fn(*xs)


def _export(tmp: Path, name: str, model: torch.nn.Module, inputs: tuple, **kw) -> Path:
    path = tmp / f"{name}.pte"
    ember.export(model, inputs, **kw).save(str(path))
    return path


def test_selection_names_ops_dtypes_and_promoted_dtype(tmp_path):
    torch.manual_seed(0)
    x = torch.randint(0, 5, (4, 6), dtype=torch.int32)
    pte = _export(tmp_path, "cmp", Fn(lambda a: (a > 1.5, a + a)), (x,), backends=())
    selection = select_files([str(pte)])
    # int > 1.5 compares in Float, a dtype no tensor of the call has.
    assert selection.operators["aten::gt.Scalar_out"] == {"Int", "Bool", "Float"}
    assert selection.operators["aten::add.out"] == {"Int"}
    assert selection.backends == set() and selection.features == set()
    text = selection.to_yaml()
    assert '"aten::gt.Scalar_out":' in text and "features: []" in text


def test_selection_names_backend_ops_and_features(tmp_path):
    torch.manual_seed(0)
    x = torch.randn(1, 3, 16, 16)
    delegated = _export(tmp_path, "conv", ConvNet().eval(), (x,))
    selection = select_files([str(delegated)])
    assert selection.backends == {"EmberCpuBackend"}
    assert "Conv2d" in selection.cpu_backend_ops
    assert "delegates" in selection.features

    from torch._higher_order_ops.cond import cond

    def branchy(a):
        return cond(a.sum() > 0, lambda t: t * 2, lambda t: t - 1, (a,))

    flow = _export(tmp_path, "cond", Fn(branchy), (torch.randn(4),), backends=())
    assert "control_flow" in select_files([str(flow)]).features
    # A model that asks for channels-last inside forward gets a dim-order copy.
    to_cl = Fn(lambda a: (a.contiguous(memory_format=torch.channels_last) + 1))
    channels_last = _export(tmp_path, "cl", to_cl, (x,), backends=())
    assert "dim_orders" in select_files([str(channels_last)]).features


def test_generated_header_and_cmake(tmp_path):
    yaml_path = tmp_path / "s.yaml"
    yaml_path.write_text('operators:\n  "aten::add.out":\n    dtypes: [Float, Long]\n'
                         "backends: [EmberCpuBackend]\ncpu_backend_ops: [Linear]\n"
                         "features: [delegates]\n")
    header, cmake = tmp_path / "h.h", tmp_path / "s.cmake"
    assert gen_selected_kernels.main(["--yaml", str(yaml_path), "--ops", "aten::mm.out",
                                      "--header", str(header), "--cmake", str(cmake)]) == 0
    h = header.read_text()
    assert '{"aten::add.out", 0x50ull}' in h  # Float (6) and Long (4)
    assert '{"aten::mm.out", 0xffffffffffffffffull}' in h
    assert 'kNumSelectedOps = 2' in h and '"Linear",' in h
    # Operators named by hand may be called by any program: no feature left out.
    assert 'set(EMBER_FEATURES_LEFT_OUT "")' in cmake.read_text()
    yaml_path.write_text('operators:\n  "aten::add.out":\n    dtypes: [Floaty]\n')
    assert gen_selected_kernels.main(["--yaml", str(yaml_path), "--header", str(header),
                                      "--cmake", str(cmake)]) == 1


@pytest.fixture(scope="module")
def selective_runtime(tmp_path_factory):
    """ember_min_run built for ConvNet's portable program alone."""
    if shutil.which("ninja") is None:
        pytest.skip("ninja is not installed")
    tmp = tmp_path_factory.mktemp("selective")
    torch.manual_seed(0)
    model = ConvNet().eval()
    x = torch.randn(1, 3, 16, 16)
    pte = _export(tmp, "convnet", model, (x,), backends=())
    tree = ROOT / "build" / "selective-test"
    launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"] if shutil.which("ccache") else []
    subprocess.run(["cmake", "-S", str(ROOT), "-B", str(tree), "-G", "Ninja",
                    "-DCMAKE_BUILD_TYPE=Release", "-DEMBER_BUILD_TESTS=OFF",
                    f"-DEMBER_SELECT_FROM={pte}", *launcher], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", "-C", str(tree), f"-j{os.environ.get('JOBS', '2')}",
                    "ember_min_run"], check=True, stdout=subprocess.DEVNULL)
    return tree / "ember_min_run", model, x, pte, tmp


def _run(exe: Path, pte: Path, inputs: list[np.ndarray], out_dir: Path):
    args = [str(exe), str(pte), "--output-dir", str(out_dir)]
    for i, x in enumerate(inputs):
        path = out_dir / f"input{i}.bin"
        x.tofile(path)
        args += ["--input", str(path)]
    return subprocess.run(args, capture_output=True, text=True)


def test_selective_build_runs_its_program_like_eager(selective_runtime, tmp_path):
    exe, model, x, pte, _ = selective_runtime
    result = _run(exe, pte, [x.numpy()], tmp_path)
    assert result.returncode == 0, result.stderr
    with torch.no_grad():
        expected = model(x).numpy()
    got = np.fromfile(tmp_path / "output0.bin", dtype=np.float32).reshape(expected.shape)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_selective_build_refuses_an_op_it_left_out(selective_runtime, tmp_path):
    exe, _, _, _, tmp = selective_runtime
    x = torch.randn(2, 5)
    pte = _export(tmp, "sigmoid", Fn(torch.sigmoid), (x,), backends=())
    result = _run(exe, pte, [x.numpy()], tmp_path)
    assert result.returncode != 0
    assert "aten::sigmoid.out" in result.stderr and "OperatorMissing" in result.stderr


def test_selective_build_refuses_a_dtype_it_left_out(selective_runtime, tmp_path):
    exe, _, _, _, tmp = selective_runtime
    x = torch.arange(6, dtype=torch.int64).reshape(2, 3)
    pte = _export(tmp, "int_add", Fn(lambda a: a + a), (x,), backends=())
    result = _run(exe, pte, [x.numpy()], tmp_path)
    assert result.returncode != 0
    assert "aten::add.out has no kernel for dtype Long" in result.stderr
