"""Helpers shared by the CPU backend's test files (importable as tests/python
is on sys.path, as op_specs is)."""

from ember.backends.cpu import CpuBackend
from ember.cpu_fb import Graph, OpParams

OP_NAMES = {v: k for k, v in vars(OpParams.OpParams).items() if not k.startswith("_")}


class RecordingCpuBackend(CpuBackend):
    """The CPU backend, keeping the op kinds of every blob it lowers, in order
    (`ops`: "MatMul", "LayerNorm", ...)."""

    def __init__(self):
        super().__init__()
        self.ops: list[str] = []

    def preprocess(self, subgraph, compile_specs):
        blob = super().preprocess(subgraph, compile_specs)
        graph = Graph.Graph.GetRootAs(blob, 0)
        self.ops += [OP_NAMES[graph.Ops(i).ParamsType()] for i in range(graph.OpsLength())]
        return blob
