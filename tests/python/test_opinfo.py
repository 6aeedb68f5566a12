"""PyTorch's OpInfo sample inputs (op_db) through Ember, compared with eager.

Every OpInfo whose samples torch.export captures is run in float32 and in the
integer and complex dtypes it supports (opinfo_harness.OPINFO_DTYPES), all of
its samples batched into one exported program per dtype.

Tiers:
  default   a fixed sample of the ops in float32 (1 in FAST_EVERY by a hash of
            the name): `pytest tests/python/test_opinfo.py`
  slow      every op in every tested dtype: `pytest -m slow tests/python/test_opinfo.py`
            (EMBER_OPINFO_SHARD=k/n splits it across processes)

Ops that fail for a known reason are xfail(strict=True) with that reason
(KNOWN_FAILURES below), so a fix makes the suite fail until the entry goes.
EMBER_OPINFO_RESULTS=path writes every outcome ({op: {dtype: [status, reason,
samples]}}) for tools/gen_ops_doc.py, which reports the pass rate in docs/ops.md.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

import pytest
import torch
from opinfo_harness import DTYPE_NAMES, Outcome, dtypes_of, op_infos, op_name, run_op

FAST_EVERY = 25


def _scaled_compare(actual: list[Any], expected: list[torch.Tensor]) -> None:
    """Linear algebra results, which accumulate rounding over a whole matrix:
    within 1e-4 (float32; 1e-10 for float64) of the output's largest magnitude.
    Ember computes them in double, torch in the input's dtype."""
    for i, (a, e) in enumerate(zip(actual, expected)):
        a = torch.as_tensor(a)
        assert a.shape == e.shape and a.dtype == e.dtype, (
            f"output {i}: {a.dtype}{list(a.shape)} != {e.dtype}{list(e.shape)}")
        if not (e.dtype.is_floating_point or e.dtype.is_complex):
            assert torch.equal(a, e), f"output {i}: values differ"
            continue
        if e.numel() == 0:
            continue
        finite = torch.isfinite(e)
        assert torch.equal(finite, torch.isfinite(a)), f"output {i}: non-finite values differ"
        tol = 1e-10 if e.dtype in (torch.float64, torch.complex128) else 1e-4
        scale = max(1.0, float(e[finite].abs().max())) if finite.any() else 1.0
        error = float((a[finite] - e[finite]).abs().max()) if finite.any() else 0.0
        assert error <= tol * scale, f"output {i}: max error {error:.3e} > {tol * scale:.3e}"


def _abs_compare(actual: list[Any], expected: list[torch.Tensor]) -> None:
    """For decompositions unique only up to the signs of their vectors (svd,
    eigh): values equal, vectors equal in magnitude."""
    _scaled_compare([torch.as_tensor(a).abs() for a in actual], [e.abs() for e in expected])


COMPARATORS = {"linalg.svd": _abs_compare, "svd": _abs_compare, "linalg.eigh": _abs_compare}
# Ops of linear algebra: compared relative to the output's scale.
LINALG_OPS = ("linalg.", "matrix_exp", "pinverse", "cholesky", "lu", "triangular_solve", "qr",
              "geqrf", "ormqr", "inverse", "det", "logdet", "slogdet", "matrix_power",
              "householder_product")


def comparator_of(name: str) -> Any:
    if name in COMPARATORS:
        return COMPARATORS[name]
    return _scaled_compare if name.startswith(LINALG_OPS) else None

# op name -> reason, for every dtype; (op name, dtype name) -> reason, for one.
# Generated from the results of the last whole run (EMBER_OPINFO_RESULTS), the
# reason shortened to its first line; docs/ops.md lists them with their dtypes.
KNOWN_FAILURES: dict[Any, str] = {
    '_native_batch_norm_legit': 'ExportError: the model mutates its input tensors_3; mutate a registered buffer instead, or return the new value',
    ('_upsample_bilinear2d_aa', 'uint8'): 'ValueError: cannot initialise forward: OperatorMissing: instruction 0: aten::_upsample_bilinear2d_aa.out has no kernel for dtype Byte (argument 0); it',
    ('bincount', 'int32'): "ExportError: alloc (out of bincount): the data-dependent size u0 has no upper bound; bincount has as many bins as the input's largest value + 1, which",
    ('bincount', 'int64'): "ExportError: alloc (out of bincount): the data-dependent size u0 has no upper bound; bincount has as many bins as the input's largest value + 1, which",
    'chalf': 'ValueError: cannot initialise forward: OperatorMissing: instruction 0: aten::_to_copy.out has no kernel for dtype ComplexHalf (argument 3); it support',
    'hash_tensor': 'no kernel for aten::hash_tensor.out',
    'histogramdd': 'no kernel for aten::_histogramdd_bin_edges.out',
    'linalg.eig': 'no kernel for aten::linalg_eig.out',
    'linalg.eigvals': 'no kernel for aten::linalg_eig.out',
    'linalg.ldl_factor': 'no kernel for aten::linalg_ldl_factor_ex.out',
    'linalg.ldl_factor_ex': 'no kernel for aten::linalg_ldl_factor_ex.out',
    'linalg.ldl_solve': 'no kernel for aten::linalg_ldl_solve.out',
    ('linspace', 'uint8'): 'AssertionError: output 0: values differ',
    'nn.functional.embedding': 'ExportError: the model mutates its input tensors_10; mutate a registered buffer instead, or return the new value',
    'nn.functional.embedding_bag': 'ExportError: the model mutates its input tensors_28; mutate a registered buffer instead, or return the new value',
    ('nn.functional.interpolate.bicubic', 'uint8'): 'AssertionError: output 0: values differ',
    ('nn.functional.interpolate.bilinear', 'uint8'): 'ValueError: cannot initialise forward: OperatorMissing: instruction 0: aten::upsample_bilinear2d.vec_out has no kernel for dtype Byte (argument 0); it',
    'nn.functional.linear_cross_entropy.chunked': 'ExportError: _linear_cross_entropy_batch_chunked: operator torch_nn._linear_cross_entropy_batch_chunked.default has no out-variant, so Ember cannot ru',
    'nn.functional.linear_cross_entropy.chunked_none': 'ExportError: _linear_cross_entropy_batch_chunked_no_reduction: operator torch_nn._linear_cross_entropy_batch_chunked_no_reduction.default has no out-v',
    ('nn.functional.upsample_bilinear', 'uint8'): 'ValueError: cannot initialise forward: OperatorMissing: instruction 0: aten::upsample_bilinear2d.vec_out has no kernel for dtype Byte (argument 0); it',
    'repeat_interleave': 'ExportError: alloc_14 (out of repeat_interleave): the data-dependent size u0 has no upper bound; bound it where it is made, e.g. torch._check(y.shape[',
    ('special.legendre_polynomial_p', 'int32'): 'AssertionError: output 0: Greatest absolute difference: 2.0 at index (2, 3) (up to 1e-05 allowed)',
    ('special.legendre_polynomial_p', 'int64'): 'AssertionError: output 0: Greatest absolute difference: 2.0 at index (2, 3) (up to 1e-05 allowed)',
    'tensor_split': 'ExportError: _local_scalar_dense: operator aten._local_scalar_dense.default has no out-variant, so Ember cannot run it',
    'to_sparse': 'no kernel for aten::_to_sparse.out',
    ('topk', 'int32'): 'AssertionError: output 1: values differ',
    ('topk', 'int64'): 'AssertionError: output 1: values differ',
    ('topk', 'uint8'): 'AssertionError: output 1: values differ',
}


def _known(name: str, dtype: str) -> str | None:
    return KNOWN_FAILURES.get((name, dtype)) or KNOWN_FAILURES.get(name)


_INFOS = {op_name(info): info for info in op_infos()}


def _in_fast_sample(name: str) -> bool:
    return hashlib.sha1(name.encode()).digest()[0] % FAST_EVERY == 0


def _params(fast: bool) -> list[Any]:
    params = []
    for name, info in _INFOS.items():
        dtypes = dtypes_of(info)
        if fast:
            if not _in_fast_sample(name) or torch.float32 not in dtypes:
                continue
            dtypes = [torch.float32]
        for dtype in dtypes:
            dname = DTYPE_NAMES[dtype]
            marks = [] if fast else [pytest.mark.slow]
            reason = _known(name, dname)
            if reason:
                marks.append(pytest.mark.xfail(strict=True, reason=reason))
            params.append(pytest.param(name, dname, marks=marks, id=f"{name}-{dname}"))
    shard = os.environ.get("EMBER_OPINFO_SHARD")
    if shard and not fast:
        k, n = (int(x) for x in shard.split("/"))
        params = params[k::n]
    return params


_RESULTS: dict[str, dict[str, list[Any]]] = {}


def _record(name: str, dtype: str, outcome: Outcome) -> None:
    path = os.environ.get("EMBER_OPINFO_RESULTS")
    _RESULTS.setdefault(name, {})[dtype] = [outcome.status, outcome.reason, outcome.samples]
    if not path:
        return
    with open(path + ".tmp", "w") as f:
        json.dump(_RESULTS, f, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)


def _check(name: str, dtype: str, tmp_path: Any) -> None:
    info = _INFOS[name]
    torch_dtype = next(d for d, n in DTYPE_NAMES.items() if n == dtype)
    outcome = run_op(info, torch_dtype, str(tmp_path), comparator_of(name))
    _record(name, dtype, outcome)
    if outcome.status == "fail":
        pytest.fail(outcome.reason, pytrace=False)
    if outcome.status != "pass":
        pytest.skip(f"{outcome.status}: {outcome.reason}")


@pytest.mark.parametrize("name,dtype", _params(fast=True))
def test_opinfo_sample(name: str, dtype: str, tmp_path: Any) -> None:
    _check(name, dtype, tmp_path)


@pytest.mark.parametrize("name,dtype", _params(fast=False))
def test_opinfo(name: str, dtype: str, tmp_path: Any) -> None:
    _check(name, dtype, tmp_path)
