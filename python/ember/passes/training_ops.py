"""Refuses ops that only make sense while training: dropout and rrelu with
their random noise, and batch norm that updates its running statistics.

ember.export captures a model in eval mode, which turns nn.Dropout and
nn.BatchNorm into their inference forms; these ops remain only when a model
asks for training behaviour explicitly (F.dropout(x, training=True),
F.batch_norm(..., training=True) with running statistics, F.rrelu(training=
True)). A device program would then give random results, or results that
depend on every previous input, so export stops with a message that says
what to change. Batch norm over the batch's own statistics without running
ones (instance norm decomposes to it) is a pure function and stays.
"""

from __future__ import annotations

from typing import Any

import torch
from torch.fx import Node

from ember.passes.graph import ExportError, user_frame

aten = torch.ops.aten

_EVAL_HINT = "export the model in eval mode (model.eval(), or training=False in the call)"


def _arg(node: Node, index: int, name: str, default: Any = None) -> Any:
    if len(node.args) > index:
        return node.args[index]
    return node.kwargs.get(name, default)


def _why(node: Node) -> str | None:
    target = node.target
    if target in (aten.native_dropout.default, aten.dropout.default, aten.feature_dropout.default,
                  aten.alpha_dropout.default, aten.feature_alpha_dropout.default):
        p = _arg(node, 1, "p", 0.5)
        train = _arg(node, 2, "train", True)
        if train is not False and p != 0:
            return f"dropout (p={p}) in training mode zeroes random elements"
    if target in (aten.rrelu_with_noise.default, aten.rrelu_with_noise_functional.default,
                  aten.rrelu.default):
        training = _arg(node, 4 if target is not aten.rrelu.default else 3, "training", False)
        if training:
            return "rrelu in training mode draws random slopes"
    if target in (aten._batch_norm_with_update.default,
                  aten._batch_norm_with_update_functional.default):
        return "batch norm in training mode updates its running statistics"
    if target in (aten._native_batch_norm_legit.default,
                  aten._native_batch_norm_legit_functional.default,
                  aten.native_batch_norm.default, aten.batch_norm.default):
        has_stats = _arg(node, 3, "running_mean") is not None
        if _arg(node, 5, "training", False) and has_stats:
            return "batch norm in training mode updates its running statistics"
    return None


def refuse_training_ops(program: torch.export.ExportedProgram) -> None:
    for module in program.graph_module.modules():
        if not isinstance(module, torch.fx.GraphModule):
            continue
        for node in module.graph.nodes:
            if node.op != "call_function":
                continue
            why = _why(node)
            if why is None:
                continue
            filename, lineno, _, _ = user_frame(node)
            where = f" (at {filename}:{lineno})" if filename else ""
            raise ExportError(f"{node.name}: {why}{where}; {_EVAL_HINT}")
