"""PyTorch's OpInfo sample inputs through Ember, compared with eager.

`torch.testing._internal.common_methods_invocations.op_db` lists every public
function with sample inputs. For one (OpInfo, dtype) this module exports all
of its samples as one program (each sample's tensors are inputs, its other
arguments constants), runs it on the C++ runtime and compares every output
with eager PyTorch. When the whole batch fails, each sample is tried alone, so
that a sample torch.export cannot capture is left out rather than sinking the
others, and the failure names the first sample that fails through Ember.

An op's outcome in a dtype is one of:
  pass          every sample torch.export captures matches eager
  fail          some captured sample fails; `reason` says where and why
  not_captured  torch.export captures none of its samples (outside Ember)
  random        eager gives different results for the same inputs
  training_only every captured sample asks for training-mode behaviour (dropout,
                batch norm updating running statistics), which export refuses
  no_samples    OpInfo has no samples for that dtype
"""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import torch
from torch.utils import _pytree as pytree
from torch.utils._python_dispatch import TorchDispatchMode

# The dtypes tried for each op, where the op supports them: float32, the
# integer dtypes and complex64.
OPINFO_DTYPES = (torch.float32, torch.int64, torch.int32, torch.uint8, torch.bool, torch.complex64)
DTYPE_NAMES = {torch.float32: "float32", torch.int64: "int64", torch.int32: "int32",
               torch.uint8: "uint8", torch.bool: "bool", torch.complex64: "complex64"}

# Samples per (op, dtype): OpInfo lists up to a few hundred for some ops; the
# first ones cover the shapes and arguments, the rest mostly repeat them.
MAX_SAMPLES = 24

TOLERANCE = {  # dtype -> (rtol, atol), float32 math against eager float32 math
    torch.float32: (1e-4, 1e-5),
    torch.float64: (1e-7, 1e-7),
    torch.complex64: (1e-4, 1e-5),
    torch.complex128: (1e-7, 1e-7),
    torch.float16: (1e-3, 1e-3),
    torch.bfloat16: (1e-2, 1e-2),
}


@dataclasses.dataclass
class Outcome:
    status: str  # pass | fail | not_captured | random | training_only | no_samples
    reason: str = ""
    samples: int = 0  # samples that torch.export captured


def op_name(info: Any) -> str:
    return info.name + (f".{info.variant_test_name}" if info.variant_test_name else "")


def op_infos() -> list[Any]:
    from torch.testing._internal.common_methods_invocations import op_db

    return sorted(op_db, key=op_name)


def dtypes_of(info: Any) -> list[torch.dtype]:
    supported = info.supported_dtypes("cpu")
    return [d for d in OPINFO_DTYPES if d in supported]


class _Hole:
    """Where a sample's tensor goes among its other (constant) arguments."""

    def __repr__(self) -> str:
        return "<tensor>"


HOLE = _Hole()


class _SampleModule(torch.nn.Module):
    """Calls the op on every sample; the samples' tensors come in as inputs."""

    def __init__(self, fn: Callable[..., Any], layouts: list[tuple[Any, list[Any], int]]):
        super().__init__()
        self.fn = fn
        self.layouts = layouts  # per sample: (spec, leaves with HOLE where a tensor goes, count)

    def forward(self, *tensors: torch.Tensor) -> tuple[torch.Tensor, ...]:
        results: list[torch.Tensor] = []
        position = 0
        for spec, leaves, count in self.layouts:
            given = iter(tensors[position:position + count])
            position += count
            filled = [next(given) if leaf is HOLE else leaf for leaf in leaves]
            args, kwargs = pytree.tree_unflatten(filled, spec)
            results += tensor_leaves(self.fn(*args, **kwargs))
        return tuple(results)


def tensor_leaves(result: Any) -> list[torch.Tensor]:
    """The op's results as tensors: Python numbers (x.item(), aminmax of a
    0-d tensor...) become 0-d tensors, so a program can return them."""
    leaves = []
    for leaf in pytree.tree_leaves(result):
        if isinstance(leaf, torch.Tensor):
            leaves.append(leaf)
        elif isinstance(leaf, (bool, int, float, complex, torch.SymInt, torch.SymFloat,
                               torch.SymBool)):
            leaves.append(torch.as_tensor(leaf))
    return leaves


def _layout(sample: Any) -> tuple[tuple[Any, list[Any], int], list[torch.Tensor]]:
    leaves, spec = pytree.tree_flatten(((sample.input, *sample.args), dict(sample.kwargs)))
    tensors = [leaf for leaf in leaves if isinstance(leaf, torch.Tensor)]
    holes = [HOLE if isinstance(leaf, torch.Tensor) else leaf for leaf in leaves]
    return (spec, holes, len(tensors)), tensors


def samples_of(info: Any, dtype: torch.dtype, limit: int = MAX_SAMPLES) -> list[Any]:
    torch.manual_seed(0)
    out = []
    for sample in info.sample_inputs("cpu", dtype, requires_grad=False):
        if len(out) == limit:
            break
        leaves = pytree.tree_leaves(((sample.input, *sample.args), dict(sample.kwargs)))
        # Sparse, quantized and non-CPU tensors are outside Ember's .pte.
        if any(isinstance(t, torch.Tensor) and (t.layout != torch.strided or t.is_quantized)
               for t in leaves):
            continue
        out.append(sample)
    return out


def _clone(tensors: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    return [t.detach().clone() for t in tensors]


def _eager(fn: Callable[..., Any], layouts: list, tensors: list[torch.Tensor], seed: int) -> Any:
    torch.manual_seed(seed)
    with torch.no_grad():
        return _SampleModule(fn, layouts)(*_clone(tensors))


def _same(a: Any, b: Any) -> bool:
    try:
        compare(list(a), list(b), torch.float64)
        return True
    except AssertionError:
        return False


def compare(actual: list[Any], expected: list[torch.Tensor], dtype: torch.dtype,
            comparator: Callable[[list[Any], list[torch.Tensor]], None] | None = None) -> None:
    assert len(actual) == len(expected), f"{len(actual)} outputs, expected {len(expected)}"
    if comparator is not None:
        comparator(actual, expected)
        return
    for i, (a, e) in enumerate(zip(actual, expected)):
        a = torch.as_tensor(a)
        assert a.shape == e.shape, f"output {i}: shape {tuple(a.shape)} != {tuple(e.shape)}"
        assert a.dtype == e.dtype, f"output {i}: dtype {a.dtype} != {e.dtype}"
        if e.dtype.is_floating_point or e.dtype.is_complex:
            rtol, atol = TOLERANCE.get(e.dtype, TOLERANCE[torch.float32])
            try:
                torch.testing.assert_close(a, e, rtol=rtol, atol=atol, equal_nan=True)
            except AssertionError as error:
                raise AssertionError(f"output {i}: {_mismatch_line(error)}") from None
        else:
            assert torch.equal(a, e), f"output {i}: values differ"


def _mismatch_line(error: AssertionError) -> str:
    text = str(error)
    found = re.search(r"Greatest absolute difference: [^\n]*", text)
    return found.group(0) if found else text.splitlines()[0]


def _through_ember(fn: Callable[..., Any], layouts: list, tensors: list[torch.Tensor],
                   path: str) -> list[Any]:
    import ember
    import ember.runtime

    program = ember.export(_SampleModule(fn, layouts), tuple(_clone(tensors)), backends=())
    program.save(path)
    module = ember.runtime.load(path)
    result = module.forward(*tensors)
    return list(result) if isinstance(result, tuple) else [result]


class NotCaptured(Exception):
    """torch.export could not capture the samples: outside Ember."""


class TrainingOnly(Exception):
    """Ember refuses the samples by design: training-mode behaviour (dropout,
    batch norm updating running statistics), which a device program must not
    have (ember.passes.training_ops)."""


TRAINING_HINT = "export the model in eval mode"


def _run_batch(fn: Callable[..., Any], batch: list[tuple[tuple, list[torch.Tensor]]],
               dtype: torch.dtype, path: str,
               comparator: Callable[[list[Any], list[torch.Tensor]], None] | None) -> None:
    """Raises NotCaptured, or SampleFailure when Ember fails."""
    from ember import ExportError

    layouts = [layout for layout, _ in batch]
    tensors = [t for _, ts in batch for t in ts]
    expected = list(_eager(fn, layouts, tensors, 0))
    try:
        actual = _through_ember(fn, layouts, tensors, path)
    except ExportError as error:
        if str(error).startswith("torch.export could not capture"):
            raise NotCaptured(str(error)) from None
        if TRAINING_HINT in str(error):
            raise TrainingOnly(str(error)) from None
        raise SampleFailure(None, error) from None
    except Exception as error:  # noqa: BLE001 (any failure is the outcome)
        raise SampleFailure(None, error) from None
    # Compare sample by sample, so a mismatch names its sample.
    counts = [len(tensor_leaves(_eager(fn, [layout], ts, 0))) for layout, ts in batch]
    if sum(counts) != len(actual):
        raise SampleFailure(None, AssertionError(
            f"{len(actual)} outputs, expected {sum(counts)}"))
    start = 0
    for index, count in enumerate(counts):
        try:
            compare(actual[start:start + count], expected[start:start + count], dtype, comparator)
        except Exception as error:  # noqa: BLE001 (any failure is the outcome)
            raise SampleFailure(index, error) from None
        start += count


class SampleFailure(Exception):
    def __init__(self, index: int | None, error: BaseException):
        super().__init__(str(error))
        self.index = index  # in the batch; None when the batch as a whole failed
        self.error = error


def _classify(fn: Callable[..., Any], one: tuple[tuple, list[torch.Tensor]]) -> str:
    """"ok", "not_captured" (torch.export fails) or "training" (Ember refuses
    its training-mode ops) for one sample."""
    from ember import ExportError
    from ember.passes.capture import decompose

    layout, tensors = one
    try:
        with torch.no_grad():
            exported = torch.export.export(_SampleModule(fn, [layout]), tuple(_clone(tensors)))
    except Exception:  # noqa: BLE001 (any failure is the outcome)
        return "not_captured"
    try:
        decompose(exported)  # refuses training-mode ops, before and after decomposing
    except ExportError as error:
        return "training" if TRAINING_HINT in str(error) else "ok"
    return "ok"


def run_op(info: Any, dtype: torch.dtype, workdir: str | None = None,
           comparator: Callable[[list[Any], list[torch.Tensor]], None] | None = None,
           limit: int = MAX_SAMPLES) -> Outcome:
    samples = samples_of(info, dtype, limit)
    if not samples:
        return Outcome("no_samples")
    batch = [_layout(s) for s in samples]
    fn = info.op
    # The random ops (dropout, bernoulli, rand_like...) give another result
    # under another seed; nothing to compare with. Ops returning uninitialized
    # memory (empty, new_empty...) are compared in shape and dtype only.
    uninitialized = op_name(info) in UNINITIALIZED
    if uninitialized:
        comparator = _same_shapes
    try:
        with _SeededOps() as seeded:
            first = _eager(fn, [b[0] for b in batch], [t for b in batch for t in b[1]], 0)
        second = _eager(fn, [b[0] for b in batch], [t for b in batch for t in b[1]], 1)
    except Exception as error:  # noqa: BLE001 (eager itself rejects a sample)
        return Outcome("not_captured", f"eager fails: {_first_line(error)}")
    if not uninitialized and (seeded.seen or not _same(first, second)):
        return Outcome("random", "eager results depend on the random seed")
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        path = os.path.join(tmp, "op.pte")
        kept = list(range(len(batch)))
        try:
            _run_batch(fn, batch, dtype, path, comparator)
            return Outcome("pass", samples=len(batch))
        except (NotCaptured, TrainingOnly):
            # Leave out the samples torch.export cannot capture and those in
            # training mode, try the rest.
            kinds = [_classify(fn, one) for one in batch]
            kept = [i for i, kind in enumerate(kinds) if kind == "ok"]
            if not kept:
                if "training" in kinds:
                    return Outcome("training_only", "every sample asks for training-mode "
                                   "behaviour, which export refuses by design")
                return Outcome("not_captured", "torch.export captures none of its samples")
        except SampleFailure as failure:
            return Outcome("fail", _failure_text(failure, samples, kept), len(batch))
        try:
            _run_batch(fn, [batch[i] for i in kept], dtype, path, comparator)
            return Outcome("pass", samples=len(kept))
        except (NotCaptured, TrainingOnly) as error:  # each captures alone but not together
            return Outcome("fail", f"the samples capture one by one, not together: {error}",
                           len(kept))
        except SampleFailure as failure:
            return Outcome("fail", _failure_text(failure, samples, kept), len(kept))


def _failure_text(failure: SampleFailure, samples: list[Any], kept: list[int]) -> str:
    text = _error_text(failure.error)
    if failure.index is None:
        return text
    index = kept[failure.index]
    return f"sample {index} ({describe(samples[index])}): {text}"


# OpInfos whose results are uninitialized memory: only shapes and dtypes count.
UNINITIALIZED = {"empty", "empty_like", "empty_strided", "empty_permuted", "new_empty",
                 "new_empty_strided"}


def _same_shapes(actual: list[Any], expected: list[torch.Tensor]) -> None:
    for i, (a, e) in enumerate(zip(actual, expected)):
        a = torch.as_tensor(a)
        assert a.shape == e.shape and a.dtype == e.dtype, (
            f"output {i}: {a.dtype}{list(a.shape)} != {e.dtype}{list(e.shape)}")


class _SeededOps(TorchDispatchMode):
    """Notes whether eager ran an op that draws from the random generator."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = False

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        if torch.Tag.nondeterministic_seeded in getattr(func, "tags", ()):
            self.seen = True
        return func(*args, **(kwargs or {}))


def describe(sample: Any) -> str:
    def one(x: Any) -> str:
        if isinstance(x, torch.Tensor):
            return f"{str(x.dtype).removeprefix('torch.')}{list(x.shape)}"
        if isinstance(x, (list, tuple)):
            return "[" + ", ".join(one(v) for v in x) + "]"
        return repr(x)
    parts = [one(sample.input), *(one(a) for a in sample.args),
             *(f"{k}={one(v)}" for k, v in sample.kwargs.items())]
    text = ", ".join(parts)
    return text if len(text) < 120 else text[:117] + "..."


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:240] if text else type(error).__name__


def _error_text(error: BaseException) -> str:
    text = _first_line(error)
    missing = re.search(r"no kernel for operator (\S+)", str(error))
    if missing:
        return f"no kernel for {missing.group(1)}"
    return f"{type(error).__name__}: {text}"


def iter_cases(names: set[str] | None = None) -> Iterator[tuple[str, Any, torch.dtype]]:
    for info in op_infos():
        name = op_name(info)
        if names is not None and name not in names:
            continue
        for dtype in dtypes_of(info):
            yield name, info, dtype
