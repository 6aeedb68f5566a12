"""Layout operations: reshapes and copies."""

from __future__ import annotations

import torch
from torch.fx import Node

from ember.backends.backend import OpSupport
from ember.backends.cpu.lowering import (
    FLOAT,
    PLAIN,
    Builder,
    lowers,
    static_sizes,
)
from ember.cpu_fb import OpParams, Reshape

aten = torch.ops.aten


def _row_major_clone(node: Node) -> str | None:
    if node.kwargs.get("memory_format") not in (None, torch.contiguous_format, torch.preserve_format):
        return f"memory format {node.kwargs['memory_format']}"
    return None


@lowers(aten.view.default)
@lowers(aten.clone.default, support=OpSupport(FLOAT, constraint=_row_major_clone))
def _reshape(b: Builder, node: Node) -> int:
    out = b.value(static_sizes(node))
    b.op(OpParams.OpParams.Reshape, Reshape.ReshapeT(), [b.in_layout(b.input(node.args[0]), PLAIN)],
         out)
    return out


