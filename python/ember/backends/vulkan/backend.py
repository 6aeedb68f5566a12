"""VulkanBackend: the ember.backends.Backend of Ember's GPU delegate.

It claims what the CPU backend's lowering turns into the ops the Vulkan
runtime runs (every float op family: products, convolutions, elementwise
ops and activations, norms, softmax, pools, attention, layout ops and the
4/8-bit block linears), plus the LLM ops of ops_llm.py, and writes the CPU
backend's blob for it: the two
runtimes read the same format, so a delegate the GPU cannot take (no
driver, a missing feature, no memory) can run on the CPU backend instead
when the application asks for that fallback. What it declines (int8
quantized units, dynamic shapes) goes to the next backend listed or to the
portable kernels, and the export report says why.
"""

from __future__ import annotations

from collections.abc import Mapping

from torch.fx import Node

from ember.backends.backend import Backend, check_op_support, dynamic_shape
from ember.backends.cpu import backend as _cpu_backend  # noqa: F401  (registers the op families)
from ember.backends.cpu import lowering, ops_quant
from ember.backends.vulkan import ops_llm
from ember.cpu_fb import DataType, Graph, OpParams
from ember.passes.graph import ExportError, ProgramGraph

# The op kinds of the blob the runtime side runs (backends/vulkan/runtime/ops).
RUNS = frozenset({
    "Linear", "MatMul", "Conv2d", "Binary", "Unary", "Pool2d", "AdaptiveAvgPool2d", "Softmax",
    "LayerNorm", "Reduce", "Permute", "Reshape", "Concat", "Pad", "Embedding", "Attention",
    "ToLayout", "QLinear",
})
_OP_NAMES = {v: k for k, v in vars(OpParams.OpParams).items() if not k.startswith("_")}

# What the CPU backend claims that the GPU does not run: the int8 units and
# conversions of statically or dynamically quantized programs.
_INT8_TARGETS = frozenset({ops_quant.QUANTIZE, ops_quant.DEQUANTIZE})
SUPPORT = {target: support for target, support in lowering.SUPPORT.items()
           if target not in _INT8_TARGETS} | ops_llm.SUPPORT
_CLAIMS = [claims for claims in lowering.CLAIMS if claims is not ops_quant.claims]
_GROUPS = [find for find in lowering.GROUPS if find is not ops_quant.groups]


class VulkanBackend(Backend):
    """Claims the float32 ops the Vulkan runtime runs (SUPPORT), static shapes.

    `weights="float16"` stores the weights of linear layers and convolutions
    as halves on the device (half the memory and the bandwidth; each weight
    rounded to 11 significant bits, the arithmetic stays float32). The CPU
    fallback ignores it."""

    id = "EmberVulkanBackend"
    WEIGHTS = ("float32", "float16")

    def __init__(self, weights: str = "float32"):
        if weights not in self.WEIGHTS:
            raise ValueError(f"weights must be one of {self.WEIGHTS}, not {weights!r}")
        super().__init__({"weights": weights.encode()} if weights != "float32" else None)
        self.weights = weights

    def check_node(self, node: Node, program: ProgramGraph) -> str | None:
        # The blob's plan (and the command buffer) are static.
        reason = dynamic_shape(node)
        if reason is not None:
            return reason
        if ops_quant.claims(node, program):
            return "int8 quantized ops run on the CPU backend, not the GPU"
        if any(claims(node, program) for claims in _CLAIMS):
            return None
        reason = check_op_support(node, SUPPORT)
        return reason if reason is not None else lowering.check_constant_args(node, program)

    def fused_groups(self, program: ProgramGraph) -> list[set[Node]]:
        return [group for find in _GROUPS for group in find(program)]

    def preprocess(self, subgraph: ProgramGraph, compile_specs: Mapping[str, bytes]) -> bytes:
        blob = lowering.lower(subgraph, ops_llm.LOWERINGS)
        graph = Graph.Graph.GetRootAs(blob, 0)
        for i in range(graph.OpsLength()):
            kind = _OP_NAMES.get(graph.Ops(i).ParamsType(), "?")
            if kind not in RUNS:
                raise ExportError(f"the Vulkan backend claimed a subgraph that lowers to {kind}, "
                                  "which its runtime does not run")
        for i in range(graph.ValuesLength()):
            if graph.Values(i).Dtype() == DataType.DataType.Int8:
                raise ExportError("the Vulkan backend claimed a subgraph with int8 values")
        return blob


def device() -> dict:
    """The GPU the runtime's Vulkan backend would run on ("device", "type",
    "api_version", "max_storage_buffer_range", "device_local_bytes",
    "timestamps"), or why there is none ("available" False, "reason")."""
    from ember import runtime

    probe = getattr(runtime._C, "vulkan_device", None)
    if probe is None:
        return {"available": False,
                "reason": "this build of Ember has no Vulkan backend: it was built without the "
                          "Vulkan headers or glslc (apt-get install libvulkan-dev glslc, then "
                          "make build; make test-vulkan does both)"}
    return probe()


def set_fallback_to_cpu(enabled: bool) -> None:
    """Whether a Vulkan delegate the GPU cannot take (no driver, a missing
    feature, not enough device memory) loads on the CPU backend instead of
    failing; applies to programs loaded afterwards. EMBER_VULKAN_FALLBACK=cpu
    in the environment turns it on for any application."""
    from ember import runtime

    setter = getattr(runtime._C, "vulkan_set_fallback", None)
    if setter is None:
        raise RuntimeError(device()["reason"])
    setter(bool(enabled))
