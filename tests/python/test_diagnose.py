"""Export diagnoses (ember.diagnose): each failure kind, on a model that shows
it (diagnose_models.py), gets the user's line and the rewrite for its kind;
the rewrites written from the user's code export and compute what the model
computes; the fixes Ember applies by itself leave the numbers unchanged."""

import inspect
import math
import textwrap

import diagnose_models
import ember
import numpy as np
import pytest
import torch
from conftest import assert_matches_eager
from diagnose_models import case
from ember.diagnose import KINDS, DiagnosedExportError, ExportWarning, doctor

# model -> (kind, a piece of the rewrite the diagnosis must show)
CASES = {
    "branch": ("data-dependent-branch", "torch.cond(y.sum() > 0, then_branch, else_branch, (y,))"),
    "branch_assigns": ("data-dependent-branch", "h, out = torch.cond(scale > 0"),
    "loop": ("data-dependent-loop", "while_loop(cond_fn, body_fn"),
    "slice": ("data-dependent-size", "x[torch.arange(x.shape[0]) < x.argmax()]"),
    "python_number": ("tensor-to-python-number", "x / torch.sqrt(x.abs().max())"),
    "item": ("tensor-to-python-number", "peak = x.max()"),
    "numpy": ("unsupported-python-construct", "torch.tanh(x)"),
    "data_pointer": ("opaque-kernel", "torch.library.custom_op"),
    "object_out": ("unregistered-output-type", "register_dataclass(Thing)"),
    "reshape": ("dynamic-dim-constraint", "batch = 4*_batch"),
    "fixed_batch": ("specialized-dynamic-dim", "drop it from dynamic_shapes"),
    "no_max": ("missing-upper-bound", "max=64"),
    "input_mutation": ("input-mutation", "x = x.clone()"),
    "non_tensor_input": ("non-tensor-input", "torch.tensor(3)"),
    "training_dropout": ("training-mode-op", "training=self.training"),
    "two_inputs": ("wrong-number-of-inputs", "--input-shape <x> --input-shape <y>"),
    "mismatch": ("inputs-do-not-fit", "takes 8 features"),
    "bincount": ("unbounded-data-dependent-size", "torch._check(counts.shape[0] <= MAX_SIZE)"),
    "cond_pass_through": ("cond-branch-returns-input", "return x.clone()"),
    "varargs": ("dynamic-shapes-mismatch", "dynamic_shapes=({0: batch}, None)"),
    "custom_op": ("unsupported-operator", "supported ops (see docs/ops.md)"),
}


def marker_line(model: torch.nn.Module, kind: str) -> int:
    """The line of `# diagnose: KIND` in the model's class (or its forward's
    def line when the marker is there)."""
    lines, start = inspect.getsourcelines(type(model))
    for i, line in enumerate(lines):
        if f"# diagnose: {kind}" in line:
            return start + i
    raise AssertionError(f"no marker for {kind} in {type(model).__name__}")


def diagnose(name, backends=()):
    model, inputs, shapes = case(name)
    with pytest.raises(DiagnosedExportError) as info:
        ember.export(model, inputs, shapes, backends=backends)
    return model, info.value


@pytest.mark.parametrize("name", list(CASES))
def test_each_failure_kind_gets_its_line_and_its_rewrite(name):
    kind, rewrite = CASES[name]
    model, error = diagnose(name)
    diagnosis = error.diagnosis
    assert diagnosis.kind.id == kind, str(error)
    if kind in ("missing-upper-bound", "dynamic-shapes-mismatch"):  # where the dims were given
        assert diagnosis.location.filename == __file__
        assert "ember.export(" in diagnosis.location.source
    else:
        assert diagnosis.location is not None, str(error)
        assert diagnosis.location.filename == diagnose_models.__file__
        assert diagnosis.location.lineno == marker_line(model, kind), str(error)
    assert rewrite in diagnosis.fix + "\n" + diagnosis.alternative, str(error)
    text = str(error)
    assert f"[{kind}]" in text and f"docs/export.md#{kind}" in text
    # The original message stays: its first line in the text, all of it on the error.
    assert diagnosis.original and diagnosis.original.splitlines()[0] in text
    assert error.original == diagnosis.original
    assert error.__cause__ is not None


def test_the_catalogue_has_ten_or_more_kinds_and_docs_for_each():
    import os

    kinds = [k for k in KINDS if k != "unknown"]
    assert len(kinds) >= 10
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "export.md")) as f:
        docs = f.read()
    for kind in kinds:
        assert f'<a id="{kind}"></a>' in docs, f"docs/export.md has no section for {kind}"


def test_verbose_keeps_pytorchs_whole_message():
    _, error = diagnose("branch")
    text = error.diagnosis.render(verbose=True)
    assert "Could not guard on data-dependent expression" in text
    assert "The following call raised this error" in text  # beyond its first line
    assert "The following call raised this error" not in str(error)


def test_a_failed_capture_prints_no_graph_dump(capfd):
    diagnose("branch")
    captured = capfd.readouterr()
    assert "def forward" not in captured.err and "def forward" not in captured.out


def test_the_item_case_is_diagnosed_with_the_cpu_backend_too():
    _, error = diagnose("item", backends=None)
    assert error.diagnosis.kind.id == "tensor-to-python-number"


# --- the rewrites, applied to the user's code, export and match eager ----------


def rewritten(model: torch.nn.Module, rewrite) -> torch.nn.Module:
    """The model with its forward's lines replaced by the diagnosis's rewrite."""
    lines, start = inspect.getsourcelines(type(model).forward)
    first, last = rewrite.first - start, rewrite.last - start
    indent = lines[first][:len(lines[first]) - len(lines[first].lstrip())]
    body = lines[:first] + [indent + line + "\n" for line in rewrite.code.splitlines()] + \
        lines[last + 1:]
    namespace = {"torch": torch, "math": math, "np": np}
    exec(textwrap.dedent("".join(body)), namespace)  # noqa: S102  the test's own rewrite
    cls = type(type(model).__name__ + "Rewritten", (type(model),),
               {"forward": namespace["forward"]})
    fixed = cls.__new__(cls)
    fixed.__dict__.update(model.__dict__)
    return fixed


REWRITE_INPUTS = {  # inputs that take each path: both branches, several trip counts, ...
    "branch": [torch.rand(8), -torch.rand(8)],
    "branch_assigns": [torch.rand(2, 4) + 0.1, -torch.rand(2, 4) - 0.1],
    "loop": [torch.rand(4) * 0.5, torch.rand(4) + 0.6, torch.zeros(4)],
    "slice": [torch.randn(8), torch.tensor([5.0, 1, 2, 3, 4, 6, 0, 1])],
    "python_number": [torch.randn(6), torch.randn(6) * 10],
    "item": [torch.randn(6), torch.randn(6) - 3],
}


@pytest.mark.parametrize("name", list(REWRITE_INPUTS))
def test_the_rewrite_exports_and_matches_the_original_model(name, tmp_pte):
    model, error = diagnose(name)
    rewrite = error.diagnosis.rewrite
    assert rewrite is not None, str(error)
    fixed = rewritten(model, rewrite)
    inputs = REWRITE_INPUTS[name]
    ember.export(fixed, (inputs[0],)).save(tmp_pte)
    module = ember.runtime.load(tmp_pte)
    for x in inputs:
        with torch.no_grad():
            expected = model(x.clone())
        expected = expected if isinstance(expected, torch.Tensor) else expected[0]
        actual = module.forward(x)
        assert_matches_eager(actual, expected, atol=1e-5)


def test_the_torch_where_form_of_a_branch_matches_too(tmp_pte):
    model, error = diagnose("branch")
    alternative = error.diagnosis.rewrite.alternative
    assert alternative == "return torch.where(y.sum() > 0, y + 1, y - 1)"
    rewrite = error.diagnosis.rewrite
    rewrite.code = alternative
    fixed = rewritten(model, rewrite)
    ember.export(fixed, (torch.randn(8),)).save(tmp_pte)
    module = ember.runtime.load(tmp_pte)
    for x in REWRITE_INPUTS["branch"]:
        assert_matches_eager(module.forward(x), model(x))


# --- fixes Ember applies by itself ----------------------------------------------


def test_a_dataclass_output_is_exported_as_its_fields(tmp_pte):
    model, inputs, _ = case("dataclass_out")
    program = ember.export(model, inputs, backends=())
    assert any("Pair" in fix for fix in program.fixes)
    assert "fixed by Ember" in program.report()
    program.save(tmp_pte)
    first, second = ember.runtime.load(tmp_pte).forward(*inputs)
    expected = model(*inputs)
    assert_matches_eager(first, expected.first)
    assert_matches_eager(second, expected.second)


def test_a_dynamic_dim_with_an_example_of_size_one_is_exported_dynamic(tmp_pte):
    model, inputs, shapes = case("size_one")
    program = ember.export(model, inputs, shapes, backends=())
    assert any("size 2" in fix for fix in program.fixes)
    program.save(tmp_pte)
    module = ember.runtime.load(tmp_pte)
    for batch in (1, 5, 64):
        x = torch.randn(batch, 4)
        assert_matches_eager(module.forward(x), model(x))


def test_a_tensor_attribute_assigned_in_forward_is_a_warning_with_its_line():
    model, inputs, _ = case("counter")
    with pytest.warns(ExportWarning, match=r"tensor-attribute-assigned(.|\n)*self.calls") as w:
        ember.export(model, inputs, backends=())
    line = marker_line(model, "tensor-attribute-assigned")
    assert any(f"diagnose_models.py:{line}" in str(r.message) for r in w)


def test_an_error_that_is_not_about_the_model_keeps_its_message():
    with pytest.raises(ember.ExportError, match="Backend instances") as info:
        ember.export(torch.nn.ReLU(), (torch.randn(2),), backends=["cpu"])
    assert not isinstance(info.value, DiagnosedExportError)


# --- doctor ----------------------------------------------------------------------


class TwoProblems(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            x = x * 2
        n = int(x.argmax())
        return x[:n]


def test_doctor_lists_every_data_dependent_place_at_once():
    report = doctor(TwoProblems(), (torch.randn(8),), backends=())
    assert not report.ok
    first = report.problems[0]
    assert first.kind.id == "data-dependent-branch"
    _, start = inspect.getsourcelines(TwoProblems.forward)
    assert first.location.lineno == start + 1
    assert [m.location.lineno for m in first.more] == [start + 3]
    assert first.more[0].kind.id == "data-dependent-size"
    assert "also [data-dependent-size]" in str(report)


def test_doctor_says_a_good_model_exports():
    report = doctor(torch.nn.Linear(4, 2), (torch.randn(3, 4),))
    assert report.ok and "instructions" in str(report)


def test_doctor_warns_about_a_model_that_exports_but_would_differ():
    model, inputs, _ = case("counter")
    with pytest.warns(ExportWarning):
        report = doctor(model, inputs, backends=())
    assert report.ok and [w.kind.id for w in report.warnings] == ["tensor-attribute-assigned"]
    text = str(report)
    assert "exports, but: forward assigns a tensor attribute" in text and "exports:" in text
