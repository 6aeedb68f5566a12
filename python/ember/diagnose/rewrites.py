"""Concrete rewrites of the user's own code, made from its syntax tree.

A diagnosis names a line; these functions read the function around it and
write the code that replaces it: an `if` on a tensor's value becomes
`torch.cond` with the two branches as functions (or `torch.where` when each
branch is one expression), a loop counted by a tensor becomes `while_loop`,
a size read from a tensor gets its `torch._check` bounds, a tensor turned
into a Python number stays a tensor. Each returns None when the code is not
of the shape it knows; the diagnosis then shows the general pattern.
"""

from __future__ import annotations

import ast
import linecache
import textwrap
from dataclasses import dataclass

# Calls that turn a tensor into a Python value: torch.export must then know
# the value, which it does not while tracing.
_TO_PYTHON = {"int", "float", "bool"}
_TO_PYTHON_METHODS = {"item", "tolist"}
_INDENT = "    "


@dataclass
class Source:
    """A function of the user's file and the statement at one of its lines."""

    function: ast.FunctionDef | ast.AsyncFunctionDef
    statement: ast.stmt
    block: list[ast.stmt]  # the statement list holding `statement`


def source_at(filename: str, lineno: int) -> Source | None:
    """The innermost function and statement at `filename:lineno`."""
    lines = linecache.getlines(filename)
    if not lines:
        return None
    try:
        tree = ast.parse("".join(lines), filename)
    except SyntaxError:
        return None
    function = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.lineno <= lineno <= (node.end_lineno or node.lineno) and \
                (function is None or node.lineno >= function.lineno):
            function = node
    if function is None:
        return None
    found = _statement(function.body, lineno)
    return Source(function, *found) if found else None


def _statement(block: list[ast.stmt], lineno: int) -> tuple[ast.stmt, list[ast.stmt]] | None:
    """The innermost statement at `lineno` whose header (not body) holds it."""
    for stmt in block:
        if not stmt.lineno <= lineno <= (stmt.end_lineno or stmt.lineno):
            continue
        for field in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and all(isinstance(s, ast.stmt) for s in inner):
                found = _statement(inner, lineno)
                if found is not None:
                    return found
        return stmt, block
    return None


def _strip_to_python(expr: ast.expr) -> ast.expr:
    """`float(t)`, `t.item()` -> `t`, `int(t)` -> `t.long()` (which truncates
    as int() does), `bool(t)` -> `t.bool()`: keeps a value a tensor."""

    class Strip(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            self.generic_visit(node)
            if isinstance(node.func, ast.Name) and node.func.id in _TO_PYTHON and \
                    len(node.args) == 1 and not node.keywords:
                method = {"int": "long", "bool": "bool"}.get(node.func.id)
                if method is None:
                    return node.args[0]
                return ast.Call(ast.Attribute(node.args[0], method, ast.Load()), [], [])
            if isinstance(node.func, ast.Attribute) and node.func.attr in _TO_PYTHON_METHODS \
                    and not node.args:
                return node.func.value
            return node

    return Strip().visit(ast.parse(ast.unparse(expr), mode="eval")).body


def _names(nodes: list[ast.AST], ctx: type) -> list[str]:
    """Plain names in `nodes` with context `ctx` (Load or Store), first use first."""
    seen: list[str] = []
    for root in nodes:
        for node in ast.walk(root):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ctx) and node.id not in seen:
                seen.append(node.id)
            elif ctx is ast.Store and isinstance(node, ast.AugAssign) and \
                    isinstance(node.target, ast.Name) and node.target.id not in seen:
                seen.append(node.target.id)
    return seen


def _locals_before(function: ast.FunctionDef | ast.AsyncFunctionDef, lineno: int) -> list[str]:
    """Parameters and names assigned in `function` before `lineno` (but `self`)."""
    args = function.args
    names = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    earlier = [s for s in function.body if (s.end_lineno or s.lineno) < lineno]
    names += [n for n in _names(earlier, ast.Store) if n not in names]
    return [n for n in names if n != "self"]


def _returns(block: list[ast.stmt]) -> bool:
    return bool(block) and isinstance(block[-1], ast.Return)


def _body(block: list[ast.stmt], extra: str = "") -> str:
    text = "\n".join(ast.unparse(s) for s in block) or "pass"
    if extra:
        text += "\n" + extra
    return textwrap.indent(text, _INDENT)


def _single_expression(block: list[ast.stmt]) -> tuple[str, ast.expr] | None:
    """("return", e) for `return e`; (name, e) for `name = e`; else None."""
    if len(block) != 1:
        return None
    stmt = block[0]
    if isinstance(stmt, ast.Return) and stmt.value is not None:
        return "return", stmt.value
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
            isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id, stmt.value
    return None


@dataclass
class Rewrite:
    """Code that replaces lines `first`..`last` of the user's file."""

    code: str
    first: int
    last: int
    alternative: str = ""  # a second, simpler form where it applies

    def __str__(self) -> str:
        return self.code


def branch_to_cond(source: Source) -> Rewrite | None:
    """An `if` on a tensor's value as torch.cond (and torch.where when each
    branch is a single expression)."""
    stmt = source.statement
    if not isinstance(stmt, ast.If):
        return None
    test = _strip_to_python(stmt.test)
    then, other = stmt.body, stmt.orelse
    last = stmt.end_lineno or stmt.lineno
    if not other and _returns(then):
        # `if c: return a` followed by the rest of the block: that rest is the else.
        rest = source.block[source.block.index(stmt) + 1:]
        if not _returns(rest):
            return None
        other, last = rest, rest[-1].end_lineno or rest[-1].lineno
    known = _locals_before(source.function, stmt.lineno)
    if _returns(then) and _returns(other):
        outputs: list[str] = []
        result = "return "
    elif not _returns(then) and not _returns(other):
        outputs = [n for n in _names([*then, *other], ast.Store)]
        if not outputs:
            return None
        result = ", ".join(outputs) + " = "
    else:
        return None
    loaded = _names([*then, *other], ast.Load)
    one_sided = [n for n in outputs if n not in _names(then, ast.Store)
                 or n not in _names(other, ast.Store)]
    operands = [n for n in known if n in loaded or n in one_sided]
    params = ", ".join(operands)

    def returned(block: list[ast.stmt]) -> str:
        # A value a branch passes through is returned as a copy: a branch of
        # torch.cond may not return its input itself.
        assigned = _names(block, ast.Store)
        values = [n if n in assigned else f"{n}.clone()" for n in outputs]
        return f"return {', '.join(values)}" if outputs else ""

    code = (f"def then_branch({params}):\n{_body(then, returned(then))}\n"
            f"def else_branch({params}):\n{_body(other, returned(other))}\n"
            f"{result}torch.cond({ast.unparse(test)}, then_branch, else_branch, "
            f"({params}{',' if len(operands) == 1 else ''}))")
    alternative = ""
    a, b = _single_expression(then), _single_expression(other)
    if a and b and a[0] == b[0]:
        target = "return " if a[0] == "return" else f"{a[0]} = "
        alternative = (f"{target}torch.where({ast.unparse(test)}, {ast.unparse(a[1])}, "
                       f"{ast.unparse(b[1])})")
    return Rewrite(code, stmt.lineno, last, alternative)


def loop_to_while_loop(source: Source) -> Rewrite | None:
    """`for i in range(<tensor>)` or `while <tensor>` as torch's while_loop."""
    stmt = source.statement
    known = _locals_before(source.function, stmt.lineno)
    if isinstance(stmt, ast.For) and isinstance(stmt.iter, ast.Call) and \
            isinstance(stmt.iter.func, ast.Name) and stmt.iter.func.id == "range" and \
            len(stmt.iter.args) == 1 and isinstance(stmt.target, ast.Name) and not stmt.orelse:
        carried = [n for n in _names(stmt.body, ast.Store) if n in known]
        if not carried:
            return None
        bound = ast.unparse(_strip_to_python(stmt.iter.args[0]))
        names = ", ".join(["step", "count", *carried])
        index = "" if stmt.target.id == "_" else f"{stmt.target.id} = step\n"
        body = textwrap.indent(index, _INDENT) + _body(
            stmt.body, f"return step + 1, count.clone(), {', '.join(carried)}")
        code = ("from torch._higher_order_ops import while_loop\n"
                f"def cond_fn({names}):\n{_INDENT}return step < count\n"
                f"def body_fn({names}):\n{body}\n"
                f"_, _, {', '.join(carried)} = while_loop(cond_fn, body_fn, "
                f"(torch.zeros((), dtype=torch.int64), {bound}, {', '.join(carried)}))")
        return Rewrite(code, stmt.lineno, stmt.end_lineno or stmt.lineno)
    if isinstance(stmt, ast.While) and not stmt.orelse:
        carried = [n for n in _names(stmt.body, ast.Store) if n in known]
        if not carried:
            return None
        names = ", ".join(carried)
        tail = "," if len(carried) == 1 else ""
        code = ("from torch._higher_order_ops import while_loop\n"
                f"def cond_fn({names}):\n{_INDENT}return {ast.unparse(_strip_to_python(stmt.test))}\n"
                f"def body_fn({names}):\n{_body(stmt.body, f'return {names}{tail}')}\n"
                f"{names}{tail} = while_loop(cond_fn, body_fn, ({names}{tail}))")
        return Rewrite(code, stmt.lineno, stmt.end_lineno or stmt.lineno)
    return None


def _conversion(stmt: ast.stmt) -> tuple[ast.Call, ast.expr] | None:
    """The first `int(t)` / `float(t)` / `t.item()` / `t.tolist()` in `stmt`."""
    for node in ast.walk(stmt):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name) and node.func.id in _TO_PYTHON and len(node.args) == 1:
            return node, node.args[0]
        if isinstance(node.func, ast.Attribute) and node.func.attr in _TO_PYTHON_METHODS:
            return node, node.func.value
    return None


def _replace(root: ast.stmt, old: ast.AST, new: ast.expr) -> str:
    class Swap(ast.NodeTransformer):
        def visit(self, node: ast.AST) -> ast.AST:
            return new if node is old else super().visit(node)

    return ast.unparse(Swap().visit(root))


def size_as_mask(source: Source) -> Rewrite | None:
    """`x[:int(t)]` -> `x[torch.arange(x.shape[0]) < t]`: the same elements,
    selected by a mask, so that no size is read into Python (Ember bounds a
    mask's result by the input's size by itself)."""
    stmt = source.statement
    found = _conversion(stmt)
    if found is None:
        return None
    call, tensor = found
    for node in ast.walk(stmt):
        if not isinstance(node, ast.Subscript):
            continue
        dims = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        for d, dim in enumerate(dims):
            if not isinstance(dim, ast.Slice) or dim.step is not None:
                continue
            upper = dim.upper is not None and any(n is call for n in ast.walk(dim.upper))
            lower = dim.lower is not None and any(n is call for n in ast.walk(dim.lower))
            if upper == lower or (upper and dim.lower is not None) or \
                    (lower and dim.upper is not None):
                continue
            index = f"torch.arange({ast.unparse(node.value)}.shape[{d}])"
            bound = (dim.upper if upper else dim.lower)
            value = ast.unparse(bound).replace(ast.unparse(call), ast.unparse(tensor))
            mask = ast.parse(f"{index} {'<' if upper else '>='} {value}", mode="eval").body
            dims[d] = mask
            new_slice = ast.Tuple(dims, ast.Load()) if len(dims) > 1 else dims[0]
            replaced = ast.Subscript(node.value, new_slice, node.ctx)
            return Rewrite(_replace(stmt, node, replaced), stmt.lineno,
                           stmt.end_lineno or stmt.lineno)
    return None


def keep_tensor(source: Source) -> Rewrite | None:
    """`math.f(float(t))` -> `torch.f(t)`: the number stays a tensor in the graph."""
    stmt = source.statement

    class Tensorize(ast.NodeTransformer):
        changed = False

        def visit_Call(self, node: ast.Call) -> ast.AST:
            self.generic_visit(node)
            if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                    and node.func.value.id == "math":
                node.func.value = ast.Name("torch", ast.Load())
                self.changed = True
            return node

    tree = ast.parse(ast.unparse(stmt))
    stripped = ast.parse(ast.unparse(_strip_to_python(tree.body[0].value))) \
        if isinstance(tree.body[0], (ast.Return, ast.Assign, ast.Expr)) and \
        getattr(tree.body[0], "value", None) is not None else None
    if stripped is None:
        return None
    changer = Tensorize()
    expr = changer.visit(stripped).body[0].value
    first = tree.body[0]
    first.value = expr
    text = ast.unparse(first)
    if text == ast.unparse(stmt):
        return None
    return Rewrite(text, stmt.lineno, stmt.end_lineno or stmt.lineno)


def assigned_names(source: Source) -> list[str]:
    """Names a statement assigns (`n = ...` -> ["n"])."""
    return _names([source.statement], ast.Store)


def find_attribute_assignment(function: ast.FunctionDef | ast.AsyncFunctionDef,
                              attribute: str) -> ast.stmt | None:
    """The statement in `function` assigning `self.<attribute>`."""
    for node in ast.walk(function):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            if isinstance(target, ast.Attribute) and target.attr == attribute and \
                    isinstance(target.value, ast.Name) and target.value.id == "self":
                return node
    return None
