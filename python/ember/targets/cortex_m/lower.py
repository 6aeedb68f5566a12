"""The export pass that puts a static int8 program (ember.quantize's "int8"
scheme, docs/quantization.md) on the Cortex-M int8 kernels.

Each quantized unit, a float op between the dequantize of its int8 inputs
and the quantize of its output, becomes one ember_cortex_m op on the int8
values: convolution (depthwise too) and linear layers with their relu /
relu6, add, max / average pooling (and a global mean), softmax. A linear
layer whose output stays float (a model's output) becomes the fully
connected op with a float output. Reshapes and permutes between quantized
ops (same parameters both sides) move the int8 values directly. What is
left, the quantize of a float input and the dequantize before a float op,
becomes the Cortex-M quantize / dequantize ops.

Convolutions and pools run on NHWC tensors: the pass keeps a value NHWC from
one such op to the next and converts (a permute) only where a value meets
an op that needs the NCHW layout the model was written in.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any

import torch
from torch._subclasses.fake_tensor import FakeTensor
from torch.fx import Graph, Node

from ember.backends.cpu.lowering import CLAMPS, clamp_bounds
from ember.passes.graph import ExportError, ProgramGraph
from ember.targets.cortex_m import ops, quant
from ember.targets.cortex_m.ops import cm
from ember.targets.cortex_m.targets import Target, conv2d_scratch_bytes

aten = torch.ops.aten
qd = torch.ops.quantized_decomposed
QUANTIZE = qd.quantize_per_tensor.default
DEQUANTIZE = qd.dequantize_per_tensor.default
DEQUANTIZE_CHANNEL = qd.dequantize_per_channel.default
# Ops that move int8 values without changing them: they run on the int8
# tensor when their input and output share quantization parameters.
_MOVES = {aten.view.default, aten.permute.default, aten.squeeze.dim, aten.squeeze.dims,
          aten.unsqueeze.default, aten.clone.default, aten.slice.Tensor}
NCHW, NHWC = "nchw", "nhwc"
TO_NHWC, TO_NCHW = [0, 2, 3, 1], [0, 3, 1, 2]


@dataclass(frozen=True)
class QParams:
    scale: float
    zero_point: int
    qmin: int
    qmax: int


def qparams(node: Any) -> QParams | None:
    """The int8 parameters of a quantize / dequantize_per_tensor node."""
    if not isinstance(node, Node) or node.target not in (QUANTIZE, DEQUANTIZE):
        return None
    scale, zero, qmin, qmax, dtype = node.args[1:6]
    if (dtype != torch.int8 or not isinstance(scale, float) or not scale > 0
            or not -128 <= qmin <= zero <= qmax <= 127):
        return None
    return QParams(scale, int(zero), int(qmin), int(qmax))


@dataclass
class Lowering:
    """What the pass did, for the export report."""

    target: Target
    ops: dict[str, int] = field(default_factory=dict)  # Cortex-M op -> count
    left_float: dict[str, int] = field(default_factory=dict)  # float op -> count
    layout_permutes: int = 0

    def count(self, op: str) -> None:
        self.ops[op] = self.ops.get(op, 0) + 1

    def __str__(self) -> str:
        done = ", ".join(f"{n} {op}" for op, n in sorted(self.ops.items()))
        text = f"Cortex-M ({self.target.name}, {self.target.variant} kernels): {done or 'nothing'}"
        if self.layout_permutes:
            text += f"; {self.layout_permutes} layout permutes"
        if self.left_float:
            text += "; left in float: " + ", ".join(
                f"{n} {op}" for op, n in sorted(self.left_float.items()))
        return text


class _Pass:
    def __init__(self, program: ProgramGraph, target: Target) -> None:
        self.program = program
        self.graph: Graph = program.graph
        self.target = target
        self.report = Lowering(target)
        # An int8 value (a quantize node of the original graph) -> the node
        # that now computes it, in each layout made so far.
        self.layouts: dict[Node, dict[str, Node]] = {}
        self.replaced: set[Node] = set()  # quantize nodes whose value a new op computes

    # --- values and layouts ---

    def value(self, q: Node, layout: str, before: Node) -> Node:
        """The int8 value `q` in `layout` (NCHW: the model's own), made with a
        permute before `before` when only the other layout exists yet."""
        made = self.layouts.setdefault(q, {NCHW: q} if q not in self.replaced else {})
        if layout in made:
            return made[layout]
        source_layout, source = next(iter(made.items()))
        shape = _shape(source)
        if len(shape) != 4:
            raise _Skip()
        n, c, h, w = shape if source_layout == NCHW else (shape[0], shape[3], shape[1], shape[2])
        if h == 1 and w == 1:
            # [N, 1, 1, C] NHWC and [N, C, 1, 1] NCHW are the same bytes.
            sizes = [n, 1, 1, c] if layout == NHWC else [n, c, 1, 1]
            node = self._call(aten.view.default, (source, sizes), before)
        else:
            order = TO_NHWC if layout == NHWC else TO_NCHW
            node = self._call(aten.permute.default, (source, order), before)
            self.report.layout_permutes += 1
        made[layout] = node
        return node

    def produce(self, q: Node, node: Node, layout: str) -> None:
        """`node` now computes int8 value `q` in `layout`. Until finish(), q
        reads `node` instead of the float op it quantized, so that what only
        fed q (the unit's float ops) is dead code."""
        self.replaced.add(q)
        self.layouts[q] = {layout: node}
        q.args = (node, *q.args[1:])

    def _call(self, target: Any, args: tuple, before: Node) -> Node:
        with self.graph.inserting_before(before):
            node = self.graph.call_function(target, args)
        node.meta["val"] = _evaluate(target, args)
        node.meta["stack_trace"] = before.meta.get("stack_trace")
        return node

    def constant(self, data: torch.Tensor, name: str, like: Node) -> Node:
        return self.program.add_constant(data.contiguous(), name, like)

    # --- matching ---

    def dequantized(self, node: Any, reader: Node) -> tuple[Node, QParams] | None:
        """(the int8 value, its parameters) when `node` is a dequantize_per_tensor
        of an int8 value that only `reader` reads."""
        p = qparams(node)
        if p is None or node.target is not DEQUANTIZE or list(node.users) != [reader]:
            return None
        source = node.args[0]
        if not isinstance(source, Node) or qparams(source) is None or source.target is not QUANTIZE:
            return None
        return source, p

    def quantized_output(self, node: Node) -> tuple[Node | None, Node, QParams] | None:
        """(the fused relu / relu6 or None, the quantize, its parameters) that
        alone read `node`'s output."""
        users = list(node.users)
        if len(users) != 1:
            return None
        clamp = None
        if users[0].target in CLAMPS:
            clamp = users[0]
            low, _ = clamp_bounds(clamp)
            if low != 0.0 or len(clamp.users) != 1:
                return None
            users = list(clamp.users)
        q = users[0]
        p = qparams(q)
        if p is None or q.target is not QUANTIZE:
            return None
        return clamp, q, p

    def weight(self, node: Any, reader: Node) -> tuple[torch.Tensor, torch.Tensor] | None:
        """(int8 weight, float64 scales) of a symmetric per-output-channel
        dequantize_per_channel of a constant that only `reader` reads."""
        if (not isinstance(node, Node) or node.target is not DEQUANTIZE_CHANNEL
                or list(node.users) != [reader]):
            return None
        w, scales, zeros = node.args[:3]
        if (node.args[3] != 0 or node.args[6] != torch.int8 or not self.program.is_constant(w)
                or not self.program.is_constant(scales)):
            return None
        if zeros is not None and (not self.program.is_constant(zeros)
                                  or self.program.constant(zeros).any()):
            return None
        return self.program.constant(w), self.program.constant(scales).to(torch.float64)

    def float_constant(self, node: Any) -> torch.Tensor | None:
        if node is None:
            return None
        if not self.program.is_constant(node):
            raise _Skip("a bias that is not a constant")
        return self.program.constant(node).to(torch.float64)

    # --- the units ---

    def run(self) -> Lowering:
        for node in list(self.graph.nodes):
            if node.op != "call_function":
                continue
            lower = _UNITS.get(node.target)
            if lower is None:
                continue
            try:
                lower(self, node)
            except _Skip:
                pass
        self.finish()
        return self.report

    def finish(self) -> None:
        """Readers outside the new ops take the new values in NCHW; the
        quantize / dequantize left become the Cortex-M conversions."""
        self.graph.eliminate_dead_code()
        for q in [q for q in self.graph.nodes if q in self.replaced]:
            readers = list(q.users)
            if readers:
                first = min(readers, key=_position(self.graph))
                nchw = self.value(q, NCHW, first)
                for reader in readers:
                    reader.replace_input_with(q, nchw)
            self.graph.erase_node(q)
        for node in list(self.graph.nodes):
            p = qparams(node)
            if p is None or node.op != "call_function" or node in self.replaced:
                continue
            if node.target is QUANTIZE:
                new = self._call(cm.quantize_s8.default,
                                 (node.args[0], p.scale, p.zero_point, p.qmin, p.qmax), node)
                self.report.count("quantize_s8")
            else:
                new = self._call(cm.dequantize_s8.default, (node.args[0], p.scale, p.zero_point),
                                 node)
                self.report.count("dequantize_s8")
            node.replace_all_uses_with(new)
            self.graph.erase_node(node)
        for node in self.graph.nodes:
            if (node.op == "call_function" and isinstance(node.target, torch._ops.OpOverload)
                    and node.target.namespace == "aten" and _is_float(node)
                    and node.target not in (aten.view.default, aten.permute.default)):
                name = node.target._schema.name.replace("aten::", "")
                self.report.left_float[name] = self.report.left_float.get(name, 0) + 1
        self.graph.eliminate_dead_code()
        self.program.drop_unused_constants()

    def conv(self, node: Node) -> None:
        x, weight, bias, stride, padding, dilation, transposed, _, groups = node.args
        source = self.dequantized(x, node)
        out = self.quantized_output(node)
        w = self.weight(weight, node)
        if source is None or out is None or w is None or transposed or len(_shape(node)) != 4:
            raise _Skip()
        (q_in, p_in), (clamp, q_out, p_out), (w_int8, w_scales) = source, out, w
        in_c = _shape(x)[1]
        out_c, _, kh, kw = w_int8.shape
        depthwise = groups != 1
        if depthwise and (groups != in_c or out_c % in_c):
            raise _Skip()
        bias_f = self.float_constant(bias)
        real = p_in.scale * w_scales / p_out.scale
        mult, shift = _per_channel_multipliers(real)
        # bias in int32 at scale s_in * s_w, with the input zero point's part
        # folded in: sum over all taps of w times zero point.
        sum_w = w_int8.to(torch.int64).sum(dim=(1, 2, 3))
        bias_q = _round_bias(bias_f, p_in.scale * w_scales, out_c) - p_in.zero_point * sum_w
        if not quant.fits_int32(bias_q, 1 << 30):
            raise _Skip()
        low, high = _output_range(clamp, p_out)
        xv = self.value(q_in, NHWC, q_out)
        values = {"stride_h": stride[0], "stride_w": stride[1], "pad_h": padding[0],
                  "pad_w": padding[1], "dilation_h": dilation[0], "dilation_w": dilation[1],
                  "input_zero_point": p_in.zero_point, "output_zero_point": p_out.zero_point,
                  "activation_min": low, "activation_max": high, "depth_multiplier": out_c // in_c}
        if depthwise:
            w_dw = w_int8.reshape(out_c, kh, kw).permute(1, 2, 0)  # [kh, kw, out_c]
            params = ops.pack(ops.DEPTHWISE_PARAMS, values, bias_q, mult, shift)
            new = self._call(cm.depthwise_conv2d_s8.default,
                             (xv, self.constant(w_dw, f"{node.name}_weight", node),
                              self.constant(params, f"{node.name}_params", node)), q_out)
            self.report.count("depthwise_conv2d_s8")
        else:
            scratch = conv2d_scratch_bytes(self.target, (kh, kw), tuple(stride), tuple(padding),
                                           in_c)
            params = ops.pack(ops.CONV_PARAMS, values, bias_q, mult, shift)
            call = self._call(cm.conv2d_s8.default,
                              (xv, self.constant(w_int8.permute(0, 2, 3, 1), f"{node.name}_weight",
                                                 node),
                               self.constant(params, f"{node.name}_params", node), scratch), q_out)
            new = self._call(operator.getitem, (call, 0), q_out)
            self.report.count("conv2d_s8")
        self.produce(q_out, new, NHWC)

    def linear(self, node: Node) -> None:
        if node.target is aten.addmm.default:
            if node.kwargs.get("beta", 1) != 1 or node.kwargs.get("alpha", 1) != 1:
                raise _Skip()
            bias, x, wt = node.args[:3]
        else:
            bias, (x, wt) = None, node.args[:2]
        if (not isinstance(wt, Node) or wt.target is not aten.permute.default
                or list(wt.args[1]) != [1, 0] or list(wt.users) != [node]):
            raise _Skip()
        source = self.dequantized(x, node)
        w = self.weight(wt.args[0], wt)
        if source is None or w is None:
            raise _Skip()
        (q_in, p_in), (w_int8, w_scales) = source, w
        bias_f = self.float_constant(bias)
        out_c = w_int8.shape[0]
        sum_w = w_int8.to(torch.int64).sum(dim=1)
        xv = self.value(q_in, NCHW, node)
        out = self.quantized_output(node)
        weight = self.constant(w_int8, f"{node.name}_weight", node)
        if out is None:
            # A float output (the model's): scale the exact int32 sums.
            zero_part = (-p_in.zero_point * sum_w).to(torch.int32)
            if not quant.fits_int32(zero_part, 1 << 30):
                raise _Skip()
            scale = (p_in.scale * w_scales).to(torch.float32)
            fbias = None if bias_f is None else self.constant(
                bias_f.to(torch.float32), f"{node.name}_float_bias", node)
            new = self._call(cm.fully_connected_s8_f32.default,
                             (xv, weight, self.constant(zero_part, f"{node.name}_bias", node),
                              self.constant(scale, f"{node.name}_scale", node), fbias), node)
            node.replace_all_uses_with(new)
            self.report.count("fully_connected_s8_f32")
            return
        clamp, q_out, p_out = out
        mult, shift = _per_channel_multipliers(p_in.scale * w_scales / p_out.scale)
        bias_q = _round_bias(bias_f, p_in.scale * w_scales, out_c) - p_in.zero_point * sum_w
        if not quant.fits_int32(bias_q, 1 << 30):
            raise _Skip()
        low, high = _output_range(clamp, p_out)
        params = ops.pack(ops.FC_PARAMS, {"output_zero_point": p_out.zero_point,
                                          "activation_min": low, "activation_max": high},
                          bias_q, mult, shift)
        new = self._call(cm.fully_connected_s8.default,
                         (xv, weight, self.constant(params, f"{node.name}_params", node)), q_out)
        self.report.count("fully_connected_s8")
        self.produce(q_out, new, NCHW)

    def add(self, node: Node) -> None:
        if len(node.args) != 2 or node.kwargs.get("alpha", 1) != 1:
            raise _Skip()
        a, b = (self.dequantized(arg, node) for arg in node.args)
        out = self.quantized_output(node)
        if (a is None or b is None or out is None or _shape(node.args[0]) != _shape(node)
                or _shape(node.args[1]) != _shape(node)):
            raise _Skip()
        (q_a, p_a), (q_b, p_b), (clamp, q_out, p_out) = a, b, out
        # Elementwise: any layout, as long as both agree; NHWC where either has it.
        layout = NHWC if (NHWC in self.layouts.get(q_a, {}) or NHWC in self.layouts.get(q_b, {})) \
            and len(_shape(node)) == 4 else NCHW
        values = quant.add_params(p_a.scale, p_b.scale, p_out.scale)
        low, high = _output_range(clamp, p_out)
        values.update(a_zero_point=p_a.zero_point, b_zero_point=p_b.zero_point,
                      output_zero_point=p_out.zero_point, activation_min=low, activation_max=high)
        params = self.constant(ops.pack(ops.ADD_PARAMS, values), f"{node.name}_params", node)
        new = self._call(cm.add_s8.default,
                         (self.value(q_a, layout, q_out), self.value(q_b, layout, q_out), params),
                         q_out)
        self.report.count("add_s8")
        self.produce(q_out, new, layout)

    def _pool_io(self, node: Node, result: Node) -> tuple[Node, QParams, Node]:
        """(int8 input, its parameters, the output's quantize) of a pool whose
        input and output share parameters."""
        source = self.dequantized(node.args[0], node)
        users = list(result.users)
        if source is None or len(users) != 1:
            raise _Skip()
        q_out = users[0]
        if q_out.target is not QUANTIZE or qparams(q_out) != source[1]:
            raise _Skip()
        return source[0], source[1], q_out

    def max_pool(self, node: Node) -> None:
        args = list(node.args) + [None] * (6 - len(node.args))
        _, kernel, stride, padding, dilation, ceil_mode = args[:6]
        values = [u for u in node.users if u.target is operator.getitem and u.args[1] == 0]
        if (len(values) != 1 or len(node.users) != 1 or ceil_mode
                or (dilation and list(dilation) != [1, 1]) or len(_shape(node.args[0])) != 4):
            raise _Skip()
        q_in, p, q_out = self._pool_io(node, values[0])
        kernel, stride, padding = _pair(kernel), _pair(stride or kernel), _pair(padding or 0)
        params = ops.pack(ops.MAX_POOL_PARAMS, {
            "kernel_h": kernel[0], "kernel_w": kernel[1], "stride_h": stride[0],
            "stride_w": stride[1], "pad_h": padding[0], "pad_w": padding[1],
            "activation_min": p.qmin, "activation_max": p.qmax})
        new = self._call(cm.max_pool2d_s8.default,
                         (self.value(q_in, NHWC, q_out),
                          self.constant(params, f"{node.name}_params", node)), q_out)
        self.report.count("max_pool2d_s8")
        self.produce(q_out, new, NHWC)

    def avg_pool(self, node: Node) -> None:
        args = list(node.args) + [None] * (7 - len(node.args))
        _, kernel, stride, padding, ceil_mode, count_include_pad, divisor = args[:7]
        count_include_pad = True if count_include_pad is None else count_include_pad
        if ceil_mode or divisor is not None or len(_shape(node.args[0])) != 4:
            raise _Skip()
        q_in, p, q_out = self._pool_io(node, node)
        kernel = _pair(kernel)
        self._avg(q_in, p, q_out, kernel, _pair(stride or kernel), _pair(padding or 0),
                  bool(count_include_pad))

    def mean(self, node: Node) -> None:
        x, dims = node.args[:2]
        keepdim = node.args[2] if len(node.args) > 2 else node.kwargs.get("keepdim", False)
        shape = _shape(x)
        if len(shape) != 4 or sorted(d % 4 for d in dims) != [2, 3]:
            raise _Skip()
        q_in, p, q_out = self._pool_io(node, node)
        pooled = self._avg(q_in, p, q_out, [shape[2], shape[3]], [1, 1], [0, 0], True,
                           produce=False)
        if keepdim:
            self.produce(q_out, pooled, NHWC)
        else:  # [N, 1, 1, C] is [N, C] in memory
            self.produce(q_out, self._call(aten.view.default, (pooled, [shape[0], shape[1]]),
                                           q_out), NCHW)

    def _avg(self, q_in: Node, p: QParams, q_out: Node, kernel, stride, padding,
             count_include_pad: bool, produce: bool = True) -> Node:
        params = ops.pack(ops.AVG_POOL_PARAMS, {
            "kernel_h": kernel[0], "kernel_w": kernel[1], "stride_h": stride[0],
            "stride_w": stride[1], "pad_h": padding[0], "pad_w": padding[1],
            "count_include_pad": int(count_include_pad), "zero_point": p.zero_point,
            "activation_min": p.qmin, "activation_max": p.qmax})
        new = self._call(cm.avg_pool2d_s8.default,
                         (self.value(q_in, NHWC, q_out),
                          self.constant(params, f"{q_out.name}_pool_params", q_out)), q_out)
        self.report.count("avg_pool2d_s8")
        if produce:
            self.produce(q_out, new, NHWC)
        return new

    def softmax(self, node: Node) -> None:
        x, dim = node.args[:2]
        source = self.dequantized(x, node)
        users = list(node.users)
        if source is None or len(users) != 1 or dim % len(_shape(x)) != len(_shape(x)) - 1:
            raise _Skip()
        q_out = users[0]
        p_out = qparams(q_out)
        if p_out is None or q_out.target is not QUANTIZE:
            raise _Skip()
        q_in, p_in = source
        params = ops.pack(ops.SOFTMAX_PARAMS, {
            "inv_output_scale_q16": quant.softmax_inv_scale(p_out.scale),
            "output_zero_point": p_out.zero_point}, quant.softmax_table(p_in.scale))
        new = self._call(cm.softmax_s8.default,
                         (self.value(q_in, NCHW, q_out),
                          self.constant(params, f"{node.name}_params", node)), q_out)
        self.report.count("softmax_s8")
        self.produce(q_out, new, NCHW)

    def move(self, node: Node) -> None:
        """A reshape or permute between int8 values of the same parameters."""
        source = self.dequantized(node.args[0], node)
        users = list(node.users)
        if source is None or len(users) != 1 or users[0].target is not QUANTIZE \
                or qparams(users[0]) != source[1]:
            raise _Skip()
        q_in, q_out = source[0], users[0]
        xv = self.value(q_in, NCHW, q_out)
        if node.target is aten.clone.default:
            # Nothing writes a value in place: a copy is the value itself.
            self.produce(q_out, xv, NCHW)
            return
        new = self._call(node.target, (xv, *node.args[1:]), q_out)
        self.produce(q_out, new, NCHW)


class _Skip(Exception):
    """The node is not a unit these kernels take; it stays as it is."""


_UNITS = {
    aten.convolution.default: _Pass.conv,
    aten.addmm.default: _Pass.linear,
    aten.mm.default: _Pass.linear,
    aten.add.Tensor: _Pass.add,
    aten.max_pool2d_with_indices.default: _Pass.max_pool,
    aten.avg_pool2d.default: _Pass.avg_pool,
    aten.mean.dim: _Pass.mean,
    aten._softmax.default: _Pass.softmax,
    **{op: _Pass.move for op in _MOVES},
}


def _shape(node: Any) -> list[int]:
    return list(node.meta["val"].shape)


def _is_float(node: Node) -> bool:
    value = node.meta.get("val")
    return isinstance(value, torch.Tensor) and value.dtype.is_floating_point


def _position(graph: Graph):
    order = {n: i for i, n in enumerate(graph.nodes)}
    return lambda node: order[node]


def _pair(value: Any) -> list[int]:
    if isinstance(value, int):
        return [value, value]
    value = list(value)
    return value * 2 if len(value) == 1 else value


def _output_range(clamp: Node | None, p: QParams) -> tuple[int, int]:
    """The int8 bounds of the output's quantization and a fused relu / relu6."""
    if clamp is None:
        return p.qmin, p.qmax
    low, high = clamp_bounds(clamp)
    return (quant.quantize_float(low, p.scale, p.zero_point, p.qmin, p.qmax),
            quant.quantize_float(high, p.scale, p.zero_point, p.qmin, p.qmax))


def _per_channel_multipliers(real: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    pairs = [quant.quantize_multiplier(float(r)) for r in real]
    return (torch.tensor([m for m, _ in pairs], dtype=torch.int32),
            torch.tensor([s for _, s in pairs], dtype=torch.int32))


def _round_bias(bias: torch.Tensor | None, scale: torch.Tensor, channels: int) -> torch.Tensor:
    """A float bias in int32 steps of the accumulator's scale (int64 here)."""
    if bias is None:
        return torch.zeros(channels, dtype=torch.int64)
    return torch.round(bias / scale).to(torch.int64)


def _evaluate(target: Any, args: tuple) -> Any:
    """The result's shape and dtype (a node's `val`), from the op on zeros."""
    def real(a: Any) -> Any:
        if isinstance(a, Node):
            val = a.meta["val"]
            if isinstance(val, torch.Tensor) and not isinstance(val, FakeTensor):
                return val  # a constant (params say the output's shape)
            if isinstance(val, torch.Tensor):
                return torch.zeros(val.shape, dtype=val.dtype)
            return tuple(torch.zeros(v.shape, dtype=v.dtype) for v in val)
        return a
    with torch.no_grad():
        result = target(*[real(a) for a in args])
    # The program's permutes are copies (permute_copy): contiguous.
    return result.contiguous() if isinstance(result, torch.Tensor) else result


def lower_to_cortex_m(target: Target):
    """The pass for `target`; its report lands on the pass (`.report`)."""
    def lower(program: ProgramGraph) -> ProgramGraph:
        lower.report = _Pass(program, target).run()
        return program.recompile()
    lower.__name__ = "lower_to_cortex_m"
    lower.report = None
    return lower


__all__ = ["ExportError", "Lowering", "lower_to_cortex_m"]
