"""Small ops transformer models need that no op family claims yet: neg (the
rotate_half of rotary embeddings), run as a multiply by -1 on the Binary op."""

from __future__ import annotations

import torch
from torch.fx import Node

from ember.backends.cpu.lowering import Builder, lowers, static_sizes
from ember.cpu_fb import Binary, BinaryOp, OpParams

aten = torch.ops.aten


@lowers(aten.neg.default)
def _neg(b: Builder, node: Node) -> int:
    params = Binary.BinaryT()
    params.op, params.hasScalar, params.scalar = BinaryOp.BinaryOp.Mul, True, -1.0
    x = b.input(node.args[0])
    out = b.value(static_sizes(node), layout=b.values[x].layout)
    b.op(OpParams.OpParams.Binary, params, [x], out)
    return out
