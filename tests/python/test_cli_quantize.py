"""The shell's side of diagnosis and quantization: `ember doctor`, `ember
export` failing with its diagnosis (and `--verbose`), and `ember export
--quantize SCHEME --calibration DIR_OR_NPY`, which must give the program the
Python API gives for the same model and samples."""

import textwrap

import ember
import numpy as np
import pytest
import torch
from ember.cli import main

MODELS = textwrap.dedent('''
    import torch


    class Branch(torch.nn.Module):
        def forward(self, x):
            if x.sum() > 0:
                return x + 1
            return x - 1


    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            torch.manual_seed(0)
            self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
            self.fc = torch.nn.Linear(8 * 8 * 8, 10)

        def forward(self, x):
            return self.fc(torch.relu(self.conv(x)).flatten(1))


    class TwoInputs(torch.nn.Module):
        def __init__(self):
            super().__init__()
            torch.manual_seed(0)
            self.a = torch.nn.Linear(16, 32)
            self.b = torch.nn.Linear(16, 32)

        def forward(self, x, y):
            return self.a(x) * self.b(y)


    def branch():
        return Branch()


    def net():
        return Net()


    def two_inputs():
        return TwoInputs()
''')


@pytest.fixture
def models(tmp_path):
    path = tmp_path / "models.py"
    path.write_text(MODELS)
    return str(path)


def branch_line(models_path):
    with open(models_path) as f:
        lines = f.read().splitlines()
    return next(i + 1 for i, line in enumerate(lines) if "if x.sum() > 0:" in line)


def test_doctor_prints_the_diagnosis_and_exits_1(models, capsys):
    assert main(["doctor", f"{models}:branch", "--input-shape", "8"]) == 1
    out = capsys.readouterr().out
    assert "[data-dependent-branch]" in out
    assert f"models.py:{branch_line(models)} in forward: if x.sum() > 0:" in out
    assert "torch.cond(x.sum() > 0, then_branch, else_branch, (x,))" in out
    assert "return torch.where(x.sum() > 0, x + 1, x - 1)" in out


def test_doctor_on_a_model_that_exports_exits_0(models, capsys):
    assert main(["doctor", f"{models}:net", "--input-shape", "1x3x8x8"]) == 0
    assert "exports:" in capsys.readouterr().out


def test_export_failure_is_the_diagnosis_and_verbose_adds_pytorchs_message(models, tmp_path,
                                                                          capfd):
    out = str(tmp_path / "m.pte")
    assert main(["export", f"{models}:branch", "--input-shape", "8", "-o", out, "-q"]) == 1
    err = capfd.readouterr().err
    assert err.startswith("ember: torch.export could not capture the model: a Python branch on "
                          "a tensor's value [data-dependent-branch]")
    assert "The following call raised this error" not in err
    assert "def forward" not in err  # no dump of the traced graph
    assert main(["export", f"{models}:branch", "--input-shape", "8", "-o", out, "-q",
                 "--verbose"]) == 1
    assert "The following call raised this error" in capfd.readouterr().err
    assert not ember.diagnose.is_verbose()  # for this command only


def _cli_and_api_outputs(models, tmp_path, scheme, calibration_args, samples, x):
    """The CLI's program and the Python API's, run on x."""
    cli_pte = str(tmp_path / "cli.pte")
    assert main(["export", f"{models}:net", "--input-shape", "1x3x8x8", "-o", cli_pte, "-q",
                 "--quantize", scheme, *calibration_args]) == 0
    import importlib.util

    spec = importlib.util.spec_from_file_location("cli_models", models)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    model = module.net()
    torch.manual_seed(0)  # the CLI's example input
    example = (torch.randn(1, 3, 8, 8),)
    api_pte = str(tmp_path / "api.pte")
    quantized = ember.quantize(model, example, scheme=scheme, calibration=samples)
    ember.export(quantized, example).save(api_pte)
    cli = torch.as_tensor(ember.runtime.load(cli_pte).forward(x))
    api = torch.as_tensor(ember.runtime.load(api_pte).forward(x))
    with torch.no_grad():
        eager = model(x)
    return cli, api, eager


def test_quantize_int8_with_npy_calibration_gives_the_python_apis_program(models, tmp_path,
                                                                          capsys):
    rng = np.random.default_rng(1)
    stacked = rng.standard_normal((6, 1, 3, 8, 8)).astype(np.float32)  # 6 samples, new dim 0
    path = tmp_path / "calib.npy"
    np.save(path, stacked)
    samples = [(torch.from_numpy(s),) for s in stacked]
    x = torch.randn(1, 3, 8, 8)
    cli, api, eager = _cli_and_api_outputs(models, tmp_path, "int8", ["--calibration", str(path)],
                                           samples, x)
    assert torch.equal(cli, api)
    assert "6 calibration samples" in capsys.readouterr().out
    # Quantized, not float: close to eager, not equal.
    assert not torch.equal(cli, eager)
    assert float((cli - eager).norm() / eager.norm()) < 0.1


def test_quantize_8da4w_from_a_directory_of_samples(models, tmp_path):
    rng = np.random.default_rng(2)
    folder = tmp_path / "calib"
    folder.mkdir()
    batch = rng.standard_normal((3, 3, 8, 8)).astype(np.float32)  # 3 rows of the batch dim
    np.save(folder / "a.npy", batch)
    np.save(folder / "b.npy", batch[:1] * 0.5)  # one sample shaped like the input
    samples = [(torch.from_numpy(r).unsqueeze(0),) for r in batch] + \
        [(torch.from_numpy(batch[:1] * 0.5),)]
    x = torch.randn(1, 3, 8, 8)
    cli, api, eager = _cli_and_api_outputs(models, tmp_path, "8da4w",
                                           ["--calibration", str(folder)], samples, x)
    assert torch.equal(cli, api)
    assert float((cli - eager).norm() / eager.norm()) < 0.2


def test_npz_calibration_for_two_inputs_by_parameter_name(models, tmp_path):
    from ember.cli_quantize import calibration_samples

    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 2, 16)).astype(np.float32)
    y = rng.standard_normal((4, 2, 16)).astype(np.float32)
    path = tmp_path / "pairs.npz"
    np.savez(path, y=y, x=x)  # stored y first: matched by name
    example = (torch.zeros(2, 16), torch.zeros(2, 16))
    samples = calibration_samples(str(path), example, ["x", "y"])
    assert len(samples) == 4
    assert torch.equal(samples[2][0], torch.from_numpy(x[2]))
    assert torch.equal(samples[2][1], torch.from_numpy(y[2]))
    out = str(tmp_path / "two.pte")
    assert main(["export", f"{models}:two_inputs", "--input-shape", "2x16", "--input-shape",
                 "2x16", "-o", out, "-q", "--quantize", "int8-dynamic", "--calibration",
                 str(path)]) == 0


def test_calibration_that_does_not_fit_is_a_clear_error(models, tmp_path, capsys):
    path = tmp_path / "bad.npy"
    np.save(path, np.zeros((2, 5), dtype=np.float32))
    code = main(["export", f"{models}:net", "--input-shape", "1x3x8x8", "-o",
                 str(tmp_path / "m.pte"), "-q", "--quantize", "int8", "--calibration", str(path)])
    assert code == 2
    err = capsys.readouterr().err
    assert "shape [2, 5] does not fit the input's [1, 3, 8, 8]" in err
    assert main(["export", f"{models}:net", "--input-shape", "1x3x8x8", "-o",
                 str(tmp_path / "m.pte"), "--calibration", str(path)]) == 2
    assert "--calibration needs --quantize" in capsys.readouterr().err
