"""Constant folding: an op whose inputs are all constants (a weight transpose,
a reshape of a bias) is computed once at export, so the program stores its
result instead of recomputing it on every run.

Quantization patterns are data, not constants to fold: a `dequantize` of an
int8 or int4 weight stays in the graph (folding it would store the weight in
float again and undo the quantization). Quantizing a float constant is folded,
which is how a quantized weight gets stored.
"""

from __future__ import annotations

import torch
from torch.fx import Node

from ember.passes.graph import ProgramGraph

# Operator namespaces whose dequantize-style ops must stay in the graph.
_QUANT_NAMESPACES = ("quantized_decomposed", "torchao", "ember_quant")


def is_dequantize(node: Node) -> bool:
    """A dequantize, or an unpack of packed 4-bit weights (which would store
    them as int8 again)."""
    target = node.target
    if not isinstance(target, torch._ops.OpOverload):
        return False
    name = target._schema.name
    return target.namespace in _QUANT_NAMESPACES and ("dequantize" in name or "unpack" in name)


def _foldable(node: Node, program: ProgramGraph) -> bool:
    if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
        return False
    inputs = node.all_input_nodes
    if not inputs or not all(program.is_constant(n) for n in inputs):
        return False
    return torch.Tag.nondeterministic_seeded not in node.target.tags and not is_dequantize(node)


def fold_constants(program: ProgramGraph) -> ProgramGraph:
    """Folds ops on constants in the top-level graph; drops constants left unused."""
    for node in list(program.graph.nodes):
        if not _foldable(node, program):
            continue
        args, kwargs = torch.fx.node.map_arg((node.args, node.kwargs), program.constant)
        with torch.no_grad():
            result = node.target(*args, **kwargs)
        if not isinstance(result, torch.Tensor):
            continue  # multi-output ops (and scalars) stay as ops
        folded = program.add_constant(result.detach().contiguous(), f"_folded_{node.name}", node)
        node.replace_all_uses_with(folded)
        program.graph.erase_node(node)
    for node in list(program.graph.nodes):
        _drop_select_of_all_true(node, program)
    program.drop_unused_constants()
    return program.recompile()


def _drop_select_of_all_true(node: Node, program: ProgramGraph) -> None:
    """where(c, a, b) with a constant c that is all True is a: the safe-softmax guard
    of a scaled_dot_product_attention whose mask is known at export, for one."""
    if node.op != "call_function" or node.target is not torch.ops.aten.where.self:
        return
    condition, chosen = node.args[0], node.args[1]
    if not (isinstance(condition, Node) and program.is_constant(condition)
            and isinstance(chosen, Node)):
        return
    mine, theirs = node.meta.get("val"), chosen.meta.get("val")
    if not (isinstance(mine, torch.Tensor) and isinstance(theirs, torch.Tensor)):
        return
    if mine.shape != theirs.shape or mine.dtype != theirs.dtype:
        return  # the select broadcasts or promotes: it is not a no-op
    if bool(program.constant(condition).all()):
        node.replace_all_uses_with(chosen)
        program.graph.erase_node(node)
