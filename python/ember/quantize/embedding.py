"""Quantized embedding tables, after PT2E's convert.

The quantizer annotates an embedding's table as a weight (int8 per row, or
signed 4-bit groups along the row in the 4-bit schemes), so convert leaves
`dequantize(table) -> aten.embedding(table, indices)`. Run as written, that
dequantizes the whole table on every call (for BERT, 94 MB of float32 to
read 128 rows of it). This pass turns each such pair into one op that
dequantizes only the rows it picks, ExecuTorch's embedding_byte (int8 codes)
and embedding_4bit (two codes a byte, element 2j in the high nibble),
declared by ember.quantize.ops. The embedding node keeps its name, so the
accuracy report finds it.
"""

from __future__ import annotations

import torch
from torch.fx import GraphModule, Node
from torchao.quantization.pt2e.utils import create_getattr_from_value

from ember.quantize import ops
from ember.quantize.observers import constant_value

aten = torch.ops.aten
qd = torch.ops.quantized_decomposed


def _int8_table(model: GraphModule, dequantize: Node) -> tuple | None:
    """The embedding_byte arguments of a per-row dequantize of an int8 table."""
    table, scales, zero_points, axis, qmin, qmax, dtype = dequantize.args[:7]
    codes, zero = constant_value(model, table), constant_value(model, zero_points)
    if codes is None or codes.dim() != 2 or axis != 0 or dtype not in (torch.int8, torch.uint8):
        return None
    if zero is not None and bool(zero.any()):
        # embedding_byte's zero points are typed as its scales.
        with model.graph.inserting_before(dequantize):
            zero_points = create_getattr_from_value(
                model, model.graph, "_embedding_zero_points",
                zero.to(constant_value(model, scales).dtype))
    else:
        zero_points = None
    return ops.embedding_byte, (table, scales, zero_points, qmin, qmax)


def _int4_table(model: GraphModule, dequantize: Node) -> tuple | None:
    """The embedding_4bit arguments of a group dequantize of a packed table."""
    unpacked, scales, zero_points = dequantize.args[:3]
    if not (isinstance(unpacked, Node) and unpacked.target is ops.unpack_int4):
        return None
    packed = constant_value(model, unpacked.args[0])
    if packed is None or packed.dim() != 2 or zero_points is not None:
        return None
    # ember_quant's packing puts element 2j in the low nibble, ExecuTorch's in
    # the high one.
    swapped = ((packed << 4) | (packed >> 4)).to(torch.uint8)
    with model.graph.inserting_before(dequantize):
        table = create_getattr_from_value(model, model.graph, "_embedding_int4", swapped)
    return ops.embedding_4bit, (table, scales, None, -8, 7)


def _attributes(graph: torch.fx.Graph) -> set[str]:
    return {str(node.target) for node in graph.nodes if node.op == "get_attr"}


def fuse_quantized_embeddings(model: GraphModule) -> GraphModule:
    graph = model.graph
    referenced = _attributes(graph)
    for node in list(graph.nodes):
        if node.op != "call_function" or node.target is not aten.embedding.default:
            continue
        dequantize, indices = node.args[0], node.args[1]
        if not isinstance(dequantize, Node):
            continue
        fused = None
        if dequantize.target is qd.dequantize_per_channel.default:
            fused = _int8_table(model, dequantize)
        elif dequantize.target is qd.dequantize_per_channel_group.default:
            fused = _int4_table(model, dequantize)
        if fused is None:
            continue
        target, args = fused
        node.target, node.args, node.kwargs = target, (*args, indices), {}
        for dead in (dequantize, *dequantize.all_input_nodes):
            if not dead.users and dead.op == "call_function":
                graph.erase_node(dead)
    graph.eliminate_dead_code()
    # A table no op reads any more would still be exported with the module.
    for name in referenced - _attributes(graph):
        owner, _, attr = name.rpartition(".")
        delattr(model.get_submodule(owner) if owner else model, attr)
    graph.lint()
    model.recompile()
    return model
