"""The failure kinds Ember recognises, each with the rewrite that fixes it.

`KINDS` is the catalogue (docs/export.md has one section per entry, under
the same id). `classify` turns an exception from capture or from any later
export pass into a Diagnosis: it finds the kind from the exception's type
and message, the user's line from the traceback or the graph, and writes the
rewrite from the code at that line (ember.diagnose.rewrites).
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from ember.diagnose import fixes, location, rewrites
from ember.diagnose.location import Location
from ember.diagnose.report import Diagnosis, Kind

KINDS: dict[str, Kind] = {k.id: k for k in [
    Kind("data-dependent-branch", "a Python branch on a tensor's value",
         "torch.export records one path through forward; an `if` whose condition depends on "
         "the input's values picks a path that other inputs would not take."),
    Kind("data-dependent-loop", "a Python loop counted by a tensor's value",
         "torch.export unrolls Python loops; a trip count read from a tensor is not known "
         "while it traces."),
    Kind("data-dependent-size", "a size read from a tensor's value",
         "the size of a tensor comes from the values of another (int(t), t.item()); torch.export "
         "needs to know it is a valid size, and Ember how large it can get."),
    Kind("tensor-to-python-number", "a tensor turned into a Python number",
         "float(t) or t.item() leaves the graph: Python code then computes with a number that "
         "torch.export only knows as a symbol."),
    Kind("unsupported-python-construct", "Python code that needs real tensor data",
         ".numpy(), .tolist() into NumPy and similar calls need the tensor's memory, which "
         "does not exist while torch.export traces."),
    Kind("opaque-kernel", "a kernel torch.export cannot see into",
         "a C++/CUDA extension or ctypes call reads the tensor's data pointer; torch.export "
         "traces with tensors that have no data."),
    Kind("unregistered-output-type", "forward returns an object torch.export does not know",
         "program outputs are tensors (in tuples, lists and dicts); other classes need "
         "registering as pytree nodes."),
    Kind("cache-object-output", "forward returns a Hugging Face cache object",
         "a transformers model called with its defaults returns its KV cache (DynamicCache), "
         "which is not a tensor."),
    Kind("example-size-0-or-1", "a dynamic dim has size 0 or 1 in the example input",
         "torch.export specializes sizes 0 and 1 (they broadcast differently), so a dynamic dim "
         "needs an example of size 2 or more."),
    Kind("specialized-dynamic-dim", "a dim marked dynamic is fixed by the code",
         "the model only works for one size of this dim, so it cannot be dynamic."),
    Kind("dynamic-dim-constraint", "a dynamic dim's range allows sizes the model cannot take",
         "the code works for some sizes in the declared range only (a relation between dims, "
         "a divisibility, a smaller maximum)."),
    Kind("missing-upper-bound", "a dynamic dim without an upper bound",
         "Ember plans every tensor's memory before running, so each dynamic dim needs a maximum."),
    Kind("unbounded-data-dependent-size", "a data-dependent size without an upper bound",
         "a size read from a tensor's values has no maximum, so Ember cannot plan its memory."),
    Kind("input-mutation", "forward changes its input in place",
         "a program does not write into its caller's tensors; Ember refuses rather than drop "
         "the write."),
    Kind("non-tensor-input", "an input that is not a tensor",
         "a program's inputs are tensors; a Python number or object would be fixed at export."),
    Kind("training-mode-op", "an op in training mode",
         "dropout and batch norm in training mode draw random numbers or update statistics."),
    Kind("unsupported-operator", "an operator Ember has no kernel for",
         "the op survived PyTorch's decompositions and Ember has no kernel for it."),
    Kind("wrong-number-of-inputs", "the example inputs do not match forward's parameters",
         "forward was called with a different number of inputs than it takes."),
    Kind("inputs-do-not-fit", "the model fails on the example inputs in PyTorch too",
         "running the model eagerly on the same inputs raises the same error: the inputs' "
         "shapes or dtypes are not what the model expects."),
    Kind("tensor-attribute-assigned", "forward assigns a tensor attribute",
         "a plain tensor attribute assigned in forward is frozen at its export value; the "
         "program would not keep the update."),
    Kind("cond-branch-returns-input", "a torch.cond branch returns its input unchanged",
         "the outputs of a branch must be new tensors; one that passes an operand through "
         "would alias it."),
    Kind("dynamic-shapes-mismatch", "dynamic_shapes does not match forward's inputs",
         "dynamic_shapes takes one entry per input of forward, nested as the inputs are."),
    Kind("unknown", "torch.export could not capture the model",
         "Ember does not recognise this failure; the original message follows."),
]}


@dataclass
class Context:
    """What the classifier may look at besides the exception."""

    model: Any = None
    example_inputs: tuple[Any, ...] = ()
    dynamic_shapes: Any = None
    program: Any = None  # the last ProgramGraph an Ember pass saw, if capture succeeded


def _chain(error: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    while error is not None and error not in chain:
        chain.append(error)
        error = error.__cause__
    return chain


def _message(error: BaseException) -> str:
    """The innermost message, without torch's advice to use draft_export."""
    text = str(_chain(error)[-1])
    cut = text.find("The error above occurred when calling torch.export.export")
    return (text[:cut] if cut >= 0 else text).strip()


def _diagnosis(kind: str, where: Location | None, detail: str, fix: str = "",
               alternative: str = "", original: str = "", safe_fix: Any = None,
               rewrite: rewrites.Rewrite | None = None) -> Diagnosis:
    return Diagnosis(KINDS[kind], where, detail, fix, alternative, original, safe_fix, rewrite)


def classify(error: BaseException, context: Context) -> Diagnosis:
    """The diagnosis of `error`, raised while exporting `context.model`."""
    original = _message(error)
    innermost = _chain(error)[-1]
    for matcher in _MATCHERS:
        found = matcher(innermost, original, error, context)
        if found is not None:
            found.original = found.original or original
            return found
    return _diagnosis("unknown", location.from_exception(error), "", "", original=original)


Matcher = Callable[[BaseException, str, BaseException, Context], "Diagnosis | None"]


def _on(pattern: str) -> Callable[..., Matcher]:
    """A matcher for messages that `pattern` finds: the function gets the match."""
    compiled = re.compile(pattern, re.MULTILINE)

    def wrap(build: Callable[..., Diagnosis]) -> Matcher:
        def matcher(innermost: BaseException, message: str, error: BaseException,
                    context: Context) -> Diagnosis | None:
            found = compiled.search(message)
            return None if found is None else build(found, message, error, context)

        return matcher

    return wrap


# --- data-dependent values -------------------------------------------------

_DATA_DEPENDENT = re.compile(r"data-dependent expression (.+?) \(unhinted")


def _data_dependent(innermost, message, error, context) -> Diagnosis | None:
    found = _DATA_DEPENDENT.search(message)
    if found is None and "GuardOnDataDependentSymNode" not in type(innermost).__name__:
        return None
    expr = found.group(1) if found else ""
    where = location.from_exception(error)
    return data_dependent_at(where, expr, message)


def data_dependent_at(where: Location | None, expr: str, message: str = "") -> Diagnosis:
    """A data-dependent guard at `where` on the symbolic expression `expr`
    (u0: an int read from a tensor, zuf0: a float)."""
    source = rewrites.source_at(where.filename, where.lineno) if where else None
    statement = source.statement if source else None
    value = f" ({expr})" if expr else ""
    if isinstance(statement, ast.If):
        rewrite = rewrites.branch_to_cond(source)
        return _diagnosis(
            "data-dependent-branch", where,
            f"the condition{value} depends on the input's values. Put both branches in the "
            "graph: torch.cond runs the one the values pick (both must return tensors of the "
            "same shapes and dtypes)",
            rewrite.code if rewrite else "torch.cond(pred, true_fn, false_fn, (operands,))",
            rewrite.alternative if rewrite else "torch.where(pred, a, b) when both are cheap",
            message, rewrite=rewrite)
    if isinstance(statement, (ast.For, ast.While)):
        rewrite = rewrites.loop_to_while_loop(source)
        return _diagnosis(
            "data-dependent-loop", where,
            f"the number of iterations{value} depends on the input's values. torch's while_loop "
            "keeps the loop in the graph (the carried values keep their shapes)",
            rewrite.code if rewrite else
            "from torch._higher_order_ops import while_loop\n"
            "carried = while_loop(cond_fn, body_fn, (counter, *carried))",
            "loop a fixed maximum number of times and mask the extra steps", message,
            rewrite=rewrite)
    is_float = expr.startswith(("zuf", "zf")) or (statement is not None and re.search(
        r"\bmath\.|\bfloat\(", ast.unparse(statement)) is not None)
    if is_float:
        return python_number_at(where, message)
    rewrite = rewrites.size_as_mask(source) if source else None
    return _diagnosis(
        "data-dependent-size", where,
        f"a size{value} is read from a tensor's values into Python. Select with a mask instead: "
        "the same elements, and no size in Python (Ember bounds the result by the input's size)",
        rewrite.code if rewrite else "x[torch.arange(x.shape[0]) < t]  # not x[:int(t)]",
        "keep the shape static and zero the rest: x * (torch.arange(x.shape[0]) < t)",
        message, rewrite=rewrite)


def python_number_at(where: Location | None, message: str = "") -> Diagnosis:
    """A tensor read into a Python number that the graph still needs (aten.item)."""
    source = rewrites.source_at(where.filename, where.lineno) if where else None
    rewrite = rewrites.keep_tensor(source) if source else None
    return _diagnosis(
        "tensor-to-python-number", where,
        "the value is read out of a tensor (.item(), int(t), float(t)) and used as a Python "
        "number; a program computes on tensors only. Keep it a tensor: torch's functions take "
        "tensors, and a size taken from it is a mask over the largest size",
        rewrite.code if rewrite else "keep the value a tensor: drop float()/int()/.item()",
        "x[torch.arange(x.shape[0]) < t]  # a slice up to a tensor's value", message,
        rewrite=rewrite)


# --- outputs and inputs ----------------------------------------------------



@_on(r"Found <class '([\w.]+)'> in output")
def _output_type(found, message, error, context) -> Diagnosis:
    qualified = found.group(1)
    name = qualified.rsplit(".", 1)[-1]
    where = _return_line(context.model)
    if qualified.startswith("transformers.") and "Cache" in name:
        return _diagnosis(
            "cache-object-output", where,
            f"the model returns its KV cache, a {name}. For one call, ask for no cache: the "
            "logits are the same. For generation, export with a static cache "
            "(`ember export --hf DIR`, which does both)",
            "outputs = model(input_ids, use_cache=False)",
            "ember export --hf DIR  (a static KV cache with prefill/decode, as ember_llm runs)",
            safe_fix=fixes.hf_without_cache(context.model))
    safe = fixes.flatten_outputs(context.model, context.example_inputs)
    return _diagnosis(
        "unregistered-output-type", where,
        f"forward returns a {name}. Return its tensors (a tuple or a dict), or register the "
        "class with torch's pytree so that torch.export can flatten it",
        f"return (out.field_a, out.field_b)  # the tensors of the {name}",
        f"torch.utils._pytree.register_dataclass({name})  # for a dataclass of tensors",
        safe_fix=safe)


def _forward_source(model: Any) -> tuple[str, int, list[str]] | None:
    """(file, first line, lines) of model's forward, under its decorators."""
    forward = getattr(type(model), "forward", None) if model is not None else None
    if forward is None:
        return None
    forward = inspect.unwrap(forward)
    try:
        lines, start = inspect.getsourcelines(forward)
        filename = inspect.getsourcefile(forward)
    except (OSError, TypeError):
        return None
    return (filename, start, lines) if filename else None


def _return_line(model: Any) -> Location | None:
    """The last `return` of model.forward, where an output is made."""
    source = _forward_source(model)
    if source is None:
        return None
    filename, start, lines = source
    returns = [i for i, line in enumerate(lines) if line.strip().startswith("return")]
    return Location(filename, start + (returns[-1] if returns else 0), "forward")


def _forward_line(model: Any) -> Location | None:
    source = _forward_source(model)
    return Location(source[0], source[1], "forward") if source else None


_ARGUMENTS = re.compile(r"missing (a|\d+) required (positional )?argument|too many positional "
                        r"arguments|takes \d+ positional arguments? but \d+ (were|was) given|"
                        r"got an unexpected keyword argument")


def _wrong_inputs(innermost, message, error, context) -> Diagnosis | None:
    if not isinstance(innermost, TypeError) or not _ARGUMENTS.search(message):
        return None
    forward = getattr(context.model, "forward", None)
    try:
        parameters = [p for p in inspect.signature(forward).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        parameters = []
    required = [p.name for p in parameters if p.default is p.empty]
    given = len(context.example_inputs)
    names = ", ".join(p.name for p in parameters)
    return _diagnosis(
        "wrong-number-of-inputs", _forward_line(context.model),
        f"forward({names}) takes {len(required)} required input(s)"
        f"{f' (of {len(parameters)})' if len(parameters) != len(required) else ''}; the export "
        f"gave {given}",
        f"give one example input per parameter: ember.export(model, ({', '.join(required)},))",
        "ember export ... " + " ".join(f"--input-shape <{n}>" for n in required), message)


def _numpy(innermost, message, error, context) -> Diagnosis | None:
    if not re.search(r"\.numpy\(\) is not supported|tolist|Cannot convert a FakeTensor to "
                     r"numpy|__array__", message):
        return None
    where = location.from_exception(error)
    return _diagnosis(
        "unsupported-python-construct", where,
        "the model hands a tensor to NumPy (or reads its elements in Python), which needs data "
        "that torch.export does not have. Do the same with torch's functions",
        "np.tanh(x.numpy()) -> torch.tanh(x); np.concatenate -> torch.cat; "
        "[f(v) for v in x.tolist()] -> f(x) on the whole tensor", "", message)


def _data_pointer(innermost, message, error, context) -> Diagnosis | None:
    if "Cannot access data pointer of Tensor" not in message and \
            "Cannot access storage of" not in message:
        return None
    where = location.from_exception(error)
    return _diagnosis(
        "opaque-kernel", where,
        "the model calls code that reads the tensor's memory (data_ptr(), a C++ extension). "
        "Register that code as a custom op with a fake (shape-only) implementation; then give "
        "Ember a kernel for it, or write it with torch ops",
        "@torch.library.custom_op(\"mylib::op\", mutates_args=())\n"
        "def op(x: torch.Tensor) -> torch.Tensor: ...\n"
        "@op.register_fake\n"
        "def _(x): return torch.empty_like(x)", "", message)


# --- dynamic shapes --------------------------------------------------------

_SPECIALIZED = re.compile(r"You marked (\w+) as dynamic but your code specialized it to be a "
                          r"constant \((\d+)\)")
_NOT_ALL = re.compile(r"Not all values of (\w+) = (\S+) in the specified range (.+?) satisfy "
                      r"the generated guard (.+?)\.?$", re.MULTILINE)


def _constraints(innermost, message, error, context) -> Diagnosis | None:
    if "Constraints violated" not in message:
        return None
    specialized = _SPECIALIZED.search(message)
    suggested = _suggested_fixes(message)
    if specialized:
        name, size = specialized.group(1), int(specialized.group(2))
        dims = _dims_named(context, name)
        small = [(i, d) for i, d in dims if _example_size(context, i, d) in (0, 1)]
        if size in (0, 1) and small:
            i, d = small[0]
            return _diagnosis(
                "example-size-0-or-1", _export_call(error),
                f"input {i} has size {size} in dim {d}, which is marked dynamic ({name}); "
                "torch.export specializes sizes 0 and 1. Give an example of size 2 or more "
                "(Ember does so by itself: the values of an example do not change the program)",
                f"example = torch.randn(...)  # with size >= 2 in dim {d} of input {i}",
                f"ember export ... --input-shape with {d and 'dim ' + str(d) or 'the first dim'} "
                f">= 2", message, fixes.grow_example_dims(small))
        where = _guard_location(context, name)
        return _diagnosis(
            "specialized-dynamic-dim", where,
            f"the code fixes {name} to {size}. Make that line take any size (read sizes from "
            f"the input: x.shape[{dims[0][1] if dims else 0}], reshape(-1, ...)), or leave the "
            "dim static",
            f"{name} = {size}  # i.e. drop it from dynamic_shapes",
            "", message)
    violations = _NOT_ALL.findall(message)
    names = list(dict.fromkeys(v[0] for v in violations))
    where = _guard_location(context, names[0]) if names else None
    guards = "; ".join(dict.fromkeys(f"{name}: {_readable(guard)}"
                                     for name, _, _, guard in violations[:2]))
    fix = "\n".join(suggested) if suggested else \
        f"narrow the range of {', '.join(names)} to the sizes the code takes"
    return _diagnosis(
        "dynamic-dim-constraint", where,
        f"the code only works when {guards}. Declare the dims that way (torch suggests the "
        "fix below), or change the line to take every size in the range",
        fix, "ember export ... --dynamic-dim INPUT:DIM:MAX with the maximum above", message)


def _readable(guard: str) -> str:
    """torch's guard as the user writes it: L['x'].size()[0] -> x.shape[0]."""
    return re.sub(r"L\['(\w+)'\]\.size\(\)\[(\d+)\]", r"\1.shape[\2]", guard)


def _suggested_fixes(message: str) -> list[str]:
    if "Suggested fixes:" not in message:
        return []
    tail = message.split("Suggested fixes:", 1)[1]
    return [line.strip() for line in tail.splitlines() if line.strip() and "=" in line][:6]


def _dims_named(context: Context, name: str) -> list[tuple[int, int]]:
    """(input index, dim) of every dim declared with the Dim called `name`."""
    found = []
    shapes = context.dynamic_shapes
    if isinstance(shapes, dict):
        shapes = list(shapes.values())
    for i, spec in enumerate(shapes or []):
        items = spec.items() if isinstance(spec, dict) else enumerate(spec or [])
        for d, dim in items:
            if getattr(dim, "__name__", None) == name:
                found.append((i, d))
    return found


def _example_size(context: Context, index: int, dim: int) -> int | None:
    inputs = context.example_inputs
    if index < len(inputs) and isinstance(inputs[index], torch.Tensor) and \
            dim < inputs[index].dim():
        return int(inputs[index].shape[dim])
    return None


def _guard_location(context: Context, name: str) -> Location | None:
    """The user's line that added a guard on the dim `name`: draft_export
    re-traces and logs where each guard came from."""
    if context.model is None:
        return None
    from ember.diagnose.draft import guard_locations

    for where, _ in guard_locations(context.model, context.example_inputs, context.dynamic_shapes):
        return where
    return None


# --- Ember's own passes ----------------------------------------------------

_AT = re.compile(r"\(at ([^()]+):(\d+)\)")


@_on(r"^(.*?): dynamic size (.+?) has no upper bound")
def _missing_bound(found, message, error, context) -> Diagnosis:
    symbol = found.group(2)
    dims = _symbol_dims(context, symbol)
    where_dim = ", ".join(f"input {i} dim {d}" for i, d in dims) or f"the dim {symbol}"
    first = dims[0] if dims else (0, 0)
    name = _dim_name(context, *first) or f"d{first[0]}_{first[1]}"
    return _diagnosis(
        "missing-upper-bound", _export_call(error),
        f"{where_dim} is dynamic without a maximum ({name}). Give it one; Ember plans memory "
        "for the largest size",
        f"torch.export.Dim(\"{name}\", min=1, max=64)  # in dynamic_shapes",
        f"ember export ... --dynamic-dim {first[0]}:{first[1]}:64", message)


def _dim_name(context: Context, index: int, dim: int) -> str | None:
    """The name of the Dim the caller gave input `index`, dim `dim`."""
    shapes = context.dynamic_shapes
    if isinstance(shapes, dict):
        shapes = list(shapes.values())
    try:
        spec = shapes[index]
        return getattr(spec[dim] if isinstance(spec, (list, tuple)) else spec.get(dim),
                       "__name__", None)
    except (TypeError, IndexError, KeyError, AttributeError):
        return None


def _symbol_dims(context: Context, symbol: str) -> list[tuple[int, int]]:
    program = context.program
    if program is None:
        return []
    found = []
    for i, node in enumerate(program.user_inputs()):
        fake = node.meta.get("val")
        for d, size in enumerate(getattr(fake, "shape", ())):
            if isinstance(size, torch.SymInt) and str(size.node.expr) == symbol:
                found.append((i, d))
    return found


def _export_call(error: BaseException) -> Location | None:
    """The user's line that called ember.export (where dynamic_shapes were
    given): on the stack now, since the diagnosis runs inside that call."""
    import traceback

    frames = [(f.filename, f.lineno or 0, f.name) for f in traceback.extract_stack()]
    calls = [f for f in frames if not location.is_internal(f[0]) and location.is_export_call(f)]
    return Location(*calls[-1]) if calls else None


@_on(r"^(.*?): the data-dependent size (.+?) has no upper bound")
def _unbounded_data(found, message, error, context) -> Diagnosis:
    symbol = found.group(2)
    where, dim = _symbol_origin(context, symbol)
    source = rewrites.source_at(where.filename, where.lineno) if where else None
    names = rewrites.assigned_names(source) if source else []
    size = f"{names[0]}.shape[{dim}]" if names else "y.shape[0]"
    fix = f"torch._check({size} <= MAX_SIZE)  # right after it is made; MAX_SIZE: its largest"
    hint = message.split("; ")[1] if message.count("; ") >= 2 else ""
    return _diagnosis(
        "unbounded-data-dependent-size", where,
        f"the size {symbol} comes from a tensor's values and nothing bounds it"
        f"{' (' + hint + ')' if hint else ''}. Bound it with torch._check right where it is "
        "made; Ember plans memory for that maximum (and the kernel refuses a larger value at "
        "run time)", fix, "", message)


def _symbol_origin(context: Context, symbol: str) -> tuple[Location | None, int]:
    """The line of the first graph node whose value has `symbol` in its
    shape, and the dim it is in."""
    program = context.program
    if program is None:
        return None, 0
    from ember.passes.graph import all_graphs

    pattern = re.compile(rf"\b{re.escape(symbol)}\b")
    for module in all_graphs(program):
        for node in module.graph.nodes:
            value = node.meta.get("val")
            for v in value if isinstance(value, (tuple, list)) else [value]:
                for d, size in enumerate(getattr(v, "shape", ())):
                    if isinstance(size, torch.SymInt) and pattern.search(str(size.node.expr)):
                        where = location.from_node(node)
                        if where is not None:
                            return where, d
    return None, 0


def _symbol_origin_of_item(context: Context) -> Location | None:
    program = context.program
    if program is None:
        return None
    for node in program.graph.nodes:
        if "local_scalar_dense" in str(node.target) or str(node.target).endswith("item.default"):
            return location.from_node(node)
    return None




@_on(r"the model mutates its input (\w+)")
def _input_mutation(found, message, error, context) -> Diagnosis:
    name = found.group(1)
    where = _mutation_line(context.model, name)
    return _diagnosis(
        "input-mutation", where,
        f"forward writes into its input {name}. Work on a copy (or keep the state in a "
        "registered buffer, which the program keeps between calls)",
        f"{name} = {name}.clone()  # first, then the in-place op on the copy",
        f"{name} = {name} + ...  # the out-of-place op", message)


def _mutation_line(model: Any, name: str) -> Location | None:
    forward = _forward_line(model)
    if forward is None:
        return None
    source = rewrites.source_at(forward.filename, forward.lineno + 1)
    if source is None:
        return forward
    for node in ast.walk(source.function):
        target = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr.endswith("_") and not node.func.attr.startswith("_"):
            target = node.func.value
        elif isinstance(node, ast.AugAssign):
            target = node.target
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
            target = node.targets[0].value
        if isinstance(target, ast.Name) and target.id == name:
            return Location(forward.filename, node.lineno, "forward")
    return forward




@_on(r"input (\w+): only tensor inputs are supported, got (.+)$")
def _non_tensor(found, message, error, context) -> Diagnosis:
    name, value = found.group(1), found.group(2)
    return _diagnosis(
        "non-tensor-input", _forward_line(context.model),
        f"input {name} is {value}, not a tensor. Pass it as a tensor, or make it part of the "
        "model (an attribute set in __init__, functools.partial) so that it is not an input",
        f"ember.export(model, (..., torch.tensor({value})))",
        f"self.{name} = {value}  # in __init__, and read self.{name} in forward", message)


def _training(innermost, message, error, context) -> Diagnosis | None:
    if "in training mode" not in message:
        return None
    found = _AT.search(message)
    where = Location(found.group(1), int(found.group(2))) if found else None
    return _diagnosis(
        "training-mode-op", where,
        "this op runs as in training (random dropout masks, batch statistics). Export the "
        "model in eval mode, and let functional calls follow it",
        "F.dropout(x, p, training=self.training)  # not training=True",
        "model.eval() before export (ember.export does it for modules)", message)


def _unsupported_op(innermost, message, error, context) -> Diagnosis | None:
    if "has no out-variant" not in message and "is not supported yet" not in message:
        return None
    found = _AT.search(message)
    where = Location(found.group(1), int(found.group(2))) if found else None
    if "_local_scalar_dense" in message:  # t.item(): Ember has no kernel reading a tensor out
        return python_number_at(where or _symbol_origin_of_item(context), message)
    op = re.search(r"operator (\S+)", message)
    return _diagnosis(
        "unsupported-operator", where,
        f"Ember has no kernel for {op.group(1) if op else 'this op'} (docs/ops.md lists those "
        "it has). Write the computation with ops it has, or register a custom op with a kernel",
        "express it with supported ops (see docs/ops.md)", "", message)


@_on(r"The tensor attribute self\.(\w+) was assigned during export")
def _attribute(found, message, error, context) -> Diagnosis:
    name = found.group(1)
    forward = _forward_line(context.model)
    where = forward
    if forward is not None:
        source = rewrites.source_at(forward.filename, forward.lineno + 1)
        stmt = rewrites.find_attribute_assignment(source.function, name) if source else None
        if stmt is not None:
            where = Location(forward.filename, stmt.lineno, "forward")
    return _diagnosis(
        "tensor-attribute-assigned", where,
        f"forward assigns self.{name}, a plain tensor attribute: the program would keep its "
        "value at export and never update it. Register it as a buffer and update it in place "
        "(Ember keeps buffers between calls)",
        f"self.register_buffer(\"{name}\", torch.zeros(...))  # in __init__\n"
        f"self.{name}.copy_(new_value)  # in forward, instead of self.{name} = new_value",
        "", message)


def _eager_fails(innermost, message, error, context) -> Diagnosis | None:
    """Last resort before "unknown": if the model fails on these inputs in
    eager PyTorch too, the inputs are the problem."""
    if context.model is None or not isinstance(innermost, (RuntimeError, ValueError,
                                                            IndexError, TypeError)):
        return None
    try:
        with torch.no_grad():
            context.model(*context.example_inputs)
    except Exception as eager:  # noqa: BLE001  the model's own error on these inputs
        where = location.from_traceback(eager.__traceback__)
        shapes = ", ".join(f"{tuple(x.shape)} {str(x.dtype).replace('torch.', '')}"
                           if isinstance(x, torch.Tensor) else type(x).__name__
                           for x in context.example_inputs)
        return _diagnosis(
            "inputs-do-not-fit", where,
            f"eager PyTorch fails the same way on these inputs ({shapes}): "
            f"{str(eager).strip().splitlines()[0] if str(eager).strip() else type(eager).__name__}",
            "give inputs of the shapes and dtypes the model expects"
            + _expected_by(context.model, where), "", message)
    return None


def _expected_by(model: Any, where: Location | None) -> str:
    """What the first layer expects, when it says (Linear's in_features, Conv's channels)."""
    for module in model.modules() if isinstance(model, torch.nn.Module) else []:
        if isinstance(module, torch.nn.Linear):
            return f" (the first Linear takes {module.in_features} features in the last dim)"
        if isinstance(module, torch.nn.modules.conv._ConvNd):
            return f" (the first convolution takes {module.in_channels} channels in dim 1)"
        if isinstance(module, torch.nn.Embedding):
            return f" (the embedding takes integer ids below {module.num_embeddings})"
    return ""


@_on(r"mismatch between the structure of `inputs` and `dynamic_shapes`: (.+?)(\n|$)")
def _shapes_mismatch(found, message, error, context) -> Diagnosis:
    given = len(context.example_inputs)
    return _diagnosis(
        "dynamic-shapes-mismatch", _export_call(error),
        f"{found.group(1).rstrip('.')}. Give one entry per input, in forward's order (None for "
        "an input with no dynamic dim); a `*args` parameter is one input, a tuple",
        f"dynamic_shapes=({', '.join(['{0: batch}'] + ['None'] * (given - 1))})",
        "ember export ... --dynamic-dim INPUT:DIM:MAX (INPUT counts from 0)", message)


@_on(r"(cond_true|cond_false)\w* might be aliasing the input")
def _cond_alias(found, message, error, context) -> Diagnosis:
    branch = "true" if found.group(1) == "cond_true" else "false"
    return _diagnosis(
        "cond-branch-returns-input", _aliasing_cond(error, branch == "true"),
        f"the {branch} branch of a torch.cond returns one of its operands as it is. Return a "
        "copy of it instead",
        "return x.clone()  # in that branch, for each operand it passes through", "", message)


def _aliasing_cond(error: BaseException, true_branch: bool) -> Location | None:
    """The line of the torch.cond whose branch returns an operand: the graph
    is the one capture handed to decompose (a local of that frame)."""
    tb = error.__traceback__
    program = None
    while tb is not None:
        candidate = tb.tb_frame.f_locals.get("program")
        if isinstance(candidate, torch.export.ExportedProgram):
            program = candidate
        tb = tb.tb_next
    if program is None:
        return None
    module = program.graph_module
    for node in module.graph.nodes:
        if node.target is not torch.ops.higher_order.cond:
            continue
        branch = getattr(module, node.args[1 if true_branch else 2].target, None)
        if branch is None:
            continue
        outputs = branch.graph.output_node().args[0]
        if any(getattr(o, "op", "") == "placeholder" for o in outputs):
            return location.from_node(node)
    return None


_MATCHERS = [_output_type, _wrong_inputs, _numpy, _data_pointer, _constraints, _data_dependent,
             _missing_bound, _unbounded_data, _input_mutation, _non_tensor, _training,
             _unsupported_op, _attribute, _cond_alias, _shapes_mismatch, _eager_fails]

__all__ = ["KINDS", "Context", "classify", "data_dependent_at", "python_number_at"]
