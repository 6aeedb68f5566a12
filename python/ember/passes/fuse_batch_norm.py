"""Batch norm folded into the convolution before it: in eval mode a batch norm
is a per-channel scale and shift, which the convolution's weight and bias can
absorb, so the program runs one op (and stores one weight) instead of two.

    w' = w * s,  b' = (b - mean) * s + beta,  s = gamma / sqrt(var + eps)

Only when every operand is a constant and the convolution feeds nothing but
the batch norm; a transposed convolution scales its weight's dim 1 instead.
"""

from __future__ import annotations

import operator

import torch
from torch.fx import Node

from ember.passes.graph import ProgramGraph

aten = torch.ops.aten


def fuse_batch_norm(program: ProgramGraph) -> ProgramGraph:
    for node in list(program.graph.nodes):
        if node.op == "call_function" and node.target is aten._native_batch_norm_legit_no_training.default:
            _fuse(program, node)
    program.drop_unused_constants()
    return program.recompile()


def _fuse(program: ProgramGraph, norm: Node) -> None:
    conv, gamma, beta, mean, var, _momentum, eps = norm.args
    if not (isinstance(conv, Node) and conv.op == "call_function"
            and conv.target is aten.convolution.default and len(conv.users) == 1):
        return
    x, weight, bias, stride, padding, dilation, transposed, output_padding, groups = conv.args
    if not all(program.is_constant(n) for n in (weight, gamma, beta, mean, var)):
        return
    if bias is not None and not program.is_constant(bias):
        return
    # Only the normalized output may be used (not the saved mean/invstd).
    users = list(norm.users)
    if not all(u.target is operator.getitem and u.args[1] == 0 for u in users):
        return
    w = program.constant(weight)
    if w.dtype not in (torch.float32, torch.float64):
        return  # half-precision weights would lose the fold's precision
    scale = program.constant(gamma) / torch.sqrt(program.constant(var) + eps)
    b = program.constant(bias) if bias is not None else torch.zeros_like(scale)
    new_bias = (b - program.constant(mean)) * scale + program.constant(beta)
    if transposed:  # weight [in, out / groups, kh, kw]: out channel c is group c // (out/groups)
        out_per_group = w.shape[1]
        per_group = scale.reshape(groups, 1, out_per_group)
        new_weight = (w.reshape(groups, -1, out_per_group, *w.shape[2:])
                      * per_group.reshape(groups, 1, out_per_group, *[1] * (w.dim() - 2))
                      ).reshape(w.shape)
    else:
        new_weight = w * scale.reshape(-1, *[1] * (w.dim() - 1))
    w_node = program.add_constant(new_weight.to(w.dtype).contiguous(), f"{weight.name}_bn", weight)
    b_node = program.add_constant(new_bias.to(w.dtype).contiguous(), f"{norm.name}_bias", norm)
    with program.graph.inserting_after(norm):
        fused = program.graph.call_function(
            aten.convolution.default,
            (x, w_node, b_node, stride, padding, dilation, transposed, output_padding, groups))
    fused.meta.update(conv.meta)
    fused.meta["val"] = users[0].meta["val"] if users else conv.meta["val"]
    if users:  # the fused conv's value is the batch norm's output: its node's handle
        fused.meta["debug_handle"] = users[0].meta.get("debug_handle", 0)
    for user in users:
        user.replace_all_uses_with(fused)
        program.graph.erase_node(user)
    program.graph.erase_node(norm)
    program.graph.erase_node(conv)
