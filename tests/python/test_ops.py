"""Operator tests, parametrized from the table in op_specs.py.

Each case wraps one op in a tiny nn.Module, exports it with ember.export, runs
it on the C++ runtime and compares with eager PyTorch: dtype and shape exactly,
values within the dtype's tolerance, NaN in the same places.

Tiers:
  default        a fixed sample: of each op's first case in float32 and int32
                 (or the first dtype PyTorch supports), the sixth of
                 (op, dtype) pairs picked by a hash of their names
                 (op_specs.FAST_SAMPLE_EVERY): `pytest tests/python/test_ops.py`
  slow           the full matrix, every case in every dtype PyTorch supports:
                 `pytest -m slow tests/python/test_ops.py` (~5,500 cases; about
                 0.5 s each on an idle core, so run it with -k to slice it, e.g.
                 -k "rand and float32", or split it across processes with
                 EMBER_OPS_SHARD=k/n)
Known failures are xfail(strict=True): op_specs.KNOWN_FAILURES and
op_specs.KNOWN_OUTPUT_DTYPE_FAILURES.

EMBER_OPS_RESULTS=path writes {"results": {op: {dtype: "pass"|"fail"}},
"kernels": {op: [kernel names]}, "errors": {...}} for tools/gen_ops_doc.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import re

import ember
import ember.runtime
import pytest
import torch
from ember.backends.cpu import CpuBackend
from op_specs import (
    DTYPE_NAMES,
    DTYPES_BY_NAME,
    FAST_INT_DTYPE,
    FAST_SAMPLE_EVERY,
    SPECS,
    SPECS_BY_NAME,
    TOLERANCE,
    case_inputs,
    eager_supports,
    known_failure,
)
from torch.utils import _pytree as pytree


class OpModule(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *inputs):
        return self.fn(*inputs)


def _in_fast_sample(name, dtype):
    """A fixed 1-in-FAST_SAMPLE_EVERY sample of the (op, float32|int32) pairs: the default tier
    has to stay under two minutes on a shared 2-core machine, where one export + run costs
    0.5-1.5 s."""
    digest = hashlib.sha1(f"{name}/{DTYPE_NAMES[dtype]}".encode()).digest()
    return digest[0] % FAST_SAMPLE_EVERY == 0


def _fast_params():
    params = []
    for spec in SPECS:
        case = next(iter(spec.cases))
        supported = [d for d in spec.dtypes if eager_supports(spec, case, d)]
        chosen = [d for d in (torch.float32, FAST_INT_DTYPE) if d in supported] or supported[:1]
        params += [(spec.name, DTYPE_NAMES[d], case) for d in chosen if _in_fast_sample(spec.name, d)]
    return params


def _full_params():
    params = []
    for spec in SPECS:
        for d in spec.dtypes:
            for case in spec.cases:
                if eager_supports(spec, case, d):
                    params.append((spec.name, DTYPE_NAMES[d], case))
    # EMBER_OPS_SHARD=k/n keeps every n-th case from the k-th, so n processes
    # (one per core) can share the matrix.
    shard = os.environ.get("EMBER_OPS_SHARD")
    if shard:
        k, n = (int(x) for x in shard.split("/"))
        params = params[k::n]
    return params


def _param(name, dtype, case, *marks):
    reason = known_failure(name, dtype, case)
    marks = list(marks)
    if reason:
        marks.append(pytest.mark.xfail(strict=True, reason=reason))
    return pytest.param(name, dtype, case, marks=marks, id=f"{name}-{dtype}-{case}")


FAST = [_param(*p) for p in _fast_params()]
FULL = [_param(*p, pytest.mark.slow) for p in _full_params()]

# Session results for tools/gen_ops_doc.py.
_RESULTS: dict[str, dict[str, str]] = {}
_KERNELS: dict[str, set[str]] = {}
_ERRORS: dict[str, dict[str, str]] = {}


def _write_results():
    """Rewrites the results file (after every case, so an interrupted run still leaves one)."""
    path = os.environ.get("EMBER_OPS_RESULTS")
    if not path:
        return
    with open(path + ".tmp", "w") as f:
        json.dump({
            "results": _RESULTS,
            "kernels": {k: sorted(v) for k, v in _KERNELS.items()},
            "errors": _ERRORS,
        }, f, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)


def _record(name, dtype, case, ok, error=None):
    by_dtype = _RESULTS.setdefault(name, {})
    # An op passes in a dtype when every case of it passes.
    by_dtype[dtype] = "pass" if ok and by_dtype.get(dtype, "pass") == "pass" else "fail"
    if error is not None:
        _ERRORS.setdefault(name, {})[f"{dtype}/{case}"] = error
    _write_results()


def assert_same(actual, expected, scale=1.0):
    assert actual.shape == expected.shape, f"shape {tuple(actual.shape)} != {tuple(expected.shape)}"
    assert actual.dtype == expected.dtype, f"dtype {actual.dtype} != {expected.dtype}"
    if expected.dtype.is_floating_point or expected.dtype.is_complex:
        rtol, atol = TOLERANCE[expected.dtype]
        torch.testing.assert_close(actual, expected, rtol=rtol * scale, atol=atol * scale, equal_nan=True)
    else:
        assert torch.equal(actual, expected), f"values differ:\n{actual}\n!=\n{expected}"


def run_case(name, dtype, case, tmp_path):
    """The op on the portable kernels and, where the CPU backend claims any of
    it, through the backend too: both must match eager."""
    spec = SPECS_BY_NAME[name]
    inputs = case_inputs(spec, case, DTYPES_BY_NAME[dtype])
    expected = spec.fn(*inputs)
    program = ember.export(OpModule(spec.fn), tuple(inputs), backends=())
    _KERNELS.setdefault(name, set()).update(program.operators)
    _run_and_compare(spec, program, inputs, expected, str(tmp_path / "op.pte"))
    delegated = ember.export(OpModule(spec.fn), tuple(inputs), backends=[CpuBackend()])
    if delegated.delegated_fraction() > 0:
        _run_and_compare(spec, delegated, inputs, expected, str(tmp_path / "op_cpu.pte"))


def _run_and_compare(spec, program, inputs, expected, path):
    program.save(path)
    module = ember.runtime.load(path)
    try:
        actual = module.forward(*inputs)
    except Exception as error:
        # The registry's dtype declarations exist so that this surfaces at load.
        assert "dtype" not in str(error) or "is not supported" not in str(error), (
            f"a kernel refused a dtype when it ran, not at load; fix its registration: {error}")
        raise
    expected_leaves = pytree.tree_leaves(expected)
    actual_leaves = list(actual) if isinstance(actual, (tuple, list)) else [actual]
    assert len(actual_leaves) == len(expected_leaves), (
        f"{len(actual_leaves)} outputs, expected {len(expected_leaves)}")
    for a, e in zip(actual_leaves, expected_leaves):
        assert_same(torch.as_tensor(a), e, spec.tol_scale)


def _hinted_kernels(name):
    from ember.passes.out_variants import kernel_name, out_variant

    kernels = []
    for hint in SPECS_BY_NAME[name].aten:
        packet, _, overload = hint.partition(".")
        out = out_variant(getattr(getattr(torch.ops.aten, packet), overload or "default"))
        if out is not None:
            kernels.append(kernel_name(out))
    return kernels


def _check(name, dtype, case, tmp_path):
    try:
        run_case(name, dtype, case, tmp_path)
    except BaseException as error:
        msg = str(error).strip().splitlines()
        _record(name, dtype, case, False, f"{type(error).__name__}: {msg[0] if msg else ''}"[:300])
        missing = re.search(r"no kernel for operator (\S+)", str(error))
        if missing:
            _KERNELS.setdefault(name, set()).add(missing.group(1))
        if not _KERNELS.get(name):  # never exported: name the kernels it meant to reach
            _KERNELS.setdefault(name, set()).update(_hinted_kernels(name))
        raise
    _record(name, dtype, case, True)


@pytest.mark.parametrize("name,dtype,case", FAST)
def test_op(name, dtype, case, tmp_path):
    _check(name, dtype, case, tmp_path)


@pytest.mark.parametrize("name,dtype,case", FULL)
def test_op_full(name, dtype, case, tmp_path):
    _check(name, dtype, case, tmp_path)


# ------------------------------------------------------------ load-time errors

# Ops that the runtime may lack; the test uses the first whose kernel is not registered.
_MAYBE_MISSING = [
    (torch.special.erfinv, "aten::erfinv"), (torch.signbit, "aten::signbit"),
    (torch.copysign, "aten::copysign"), (torch.hypot, "aten::hypot"),
    (lambda x: torch.cumprod(x, 0), "aten::cumprod"), (torch.special.i0, "aten::i0"),
    (torch.special.entr, "aten::special_entr"), (torch.lgamma, "aten::lgamma"),
    (lambda x: torch.linalg.eigvals(x[:, :3]), "aten::linalg_eig"),  # no kernel (issue 10)
]


def test_missing_op_fails_at_load_naming_it(tmp_path):
    """A program calling an op without a kernel in this runtime is refused by load(), and the
    error names the op's kernel."""
    import ember._C

    registered = {k.partition(".")[0] for k in ember._C.registered_kernels()}
    for fn, kernel in _MAYBE_MISSING:
        if kernel not in registered:
            break
    else:
        pytest.fail("every candidate op has a kernel now; add one the runtime lacks to _MAYBE_MISSING")
    x = torch.rand(3, 4)
    args = (x, x) if fn in (torch.copysign, torch.hypot) else (x,)
    path = str(tmp_path / "missing.pte")
    ember.export(OpModule(fn), args, backends=()).save(path)
    with pytest.raises(ValueError, match=re.escape(kernel)):
        ember.runtime.load(path)


class _ToUInt16(torch.nn.Module):
    def forward(self, x):
        return x.to(torch.uint16)


def test_unsupported_dtype_fails_at_load_naming_kernel(tmp_path):
    """A kernel the runtime has, called in a dtype it lacks (uint16: PyTorch converts to it,
    Ember has no such ScalarType in its kernels), is refused by load(), naming the kernel and
    the dtype."""
    path = str(tmp_path / "to_uint16.pte")
    program = ember.export(_ToUInt16(), (torch.arange(6, dtype=torch.int32),))
    program.save(path)
    kernel = next(op for op in program.operators if "to" in op)
    with pytest.raises(ValueError, match=re.escape(kernel) + r" has no kernel for dtype UInt16"):
        ember.runtime.load(path)
