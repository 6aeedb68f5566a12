"""Weight-only quantized linear layers (`ember::qlinear`, ember.llm.ops): the
4-bit (Q4_1) or 8-bit (Q8_0) blocks go into the blob as they are, read in
place by the quantized GEMM (kernels/optimized/f32-qgemm)."""

from __future__ import annotations

import numpy as np
import torch
from torch.fx import Node

import ember.llm.ops  # noqa: F401  (defines the ember::qlinear operator)
from ember.backends.backend import OpSupport
from ember.backends.cpu.lowering import CONSTANT_ARGS, PLAIN, Builder, lowers, static_sizes
from ember.cpu_fb import OpParams, QLinear, ValueKind

qlinear = torch.ops.ember.qlinear.default
# The blocks are read in place from the blob: a weight passed in at run time
# stays on the portable kernel.
CONSTANT_ARGS[qlinear] = (1,)


def _claim(node: Node) -> str | None:
    if node.args[2] not in (4, 8):
        return f"{node.args[2]}-bit weights have no block format"
    return None


@lowers(qlinear, support=OpSupport(frozenset({torch.float32, torch.uint8}), constraint=_claim))
def _qlinear(b: Builder, node: Node) -> int:
    x, blocks, bits = node.args
    data = b.subgraph.constant(blocks).contiguous()
    raw = data.view(-1).numpy().tobytes()
    raw += b"\0" * (-len(raw) % 4)  # constants are whole floats
    b.constants.append(np.frombuffer(raw, dtype=np.uint8).tobytes())
    weight = b.value([len(raw) // 4], kind=ValueKind.ValueKind.Constant,
                     index=len(b.constants) - 1)
    params = QLinear.QLinearT()
    params.weight, params.bits = weight, int(bits)
    params.n, params.k = int(data.shape[0]), int(data.shape[1]) * 32
    out = b.value(static_sizes(node))
    b.op(OpParams.OpParams.QLinear, params, [b.in_layout(b.input(x), PLAIN)], out)
    return out
