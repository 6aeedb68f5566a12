"""Zero padding folded into the convolution that reads it. TF-ported models
(EfficientNet-Lite's "same" convolutions) call F.pad before every
convolution: a copy of the activation with zeros around it, often as long as
the convolution itself (19% of EfficientNet-Lite0 on the CPU backend), and
for a 1x1 convolution a copy with no zeros at all.

A `constant_pad_nd` of zeros whose only user is a 2-D convolution reading it
as its input becomes that convolution's own padding when it pads H and W
symmetrically and nothing else; one of widths all zero (a plain copy) is
dropped wherever it leads. The result is the same numbers: a convolution's
padding is zeros. Asymmetric pads (stride-2 "same") stay, as ATen's
convolution pads both sides alike.
"""

from __future__ import annotations

import torch
from torch.fx import Node

from ember.passes.graph import ProgramGraph

aten = torch.ops.aten


def fold_conv_padding(program: ProgramGraph) -> ProgramGraph:
    for node in list(program.graph.nodes):
        if node.op == "call_function" and node.target is aten.constant_pad_nd.default:
            _fold(program, node)
    return program.recompile()


def _fold(program: ProgramGraph, pad: Node) -> None:
    x, widths = pad.args[0], pad.args[1]
    value = pad.args[2] if len(pad.args) > 2 else pad.kwargs.get("value", 0)
    if value != 0 or not isinstance(x, Node) or not all(isinstance(w, int) for w in widths):
        return
    users = list(pad.users)
    if any(u.op == "output" for u in users):
        return  # an output must not become its input
    if all(w == 0 for w in widths):
        pad.replace_all_uses_with(x)
        program.graph.erase_node(pad)
        return
    if len(widths) != 4 or len(users) != 1:
        return
    left, right, top, bottom = widths
    conv = users[0]
    if not (conv.op == "call_function" and conv.target is aten.convolution.default
            and conv.args[0] is pad and left == right and top == bottom and left >= 0 and top >= 0):
        return
    _, weight, bias, stride, padding, dilation, transposed, output_padding, groups = conv.args
    if transposed or len(padding) != 2:
        return
    conv.args = (x, weight, bias, stride, [padding[0] + top, padding[1] + left], dilation,
                 transposed, output_padding, groups)
    program.graph.erase_node(pad)
