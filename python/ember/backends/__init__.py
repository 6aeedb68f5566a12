"""Backends: the ahead-of-time side of Ember's delegates.

A backend says, node by node, what it can run (`check_node`); the exporter's
partitioner groups the nodes it claims into connected subgraphs, and the
backend's `preprocess` turns each subgraph into the bytes its runtime side
(a C++ BackendInterface registered under the same `id`) reads at init:

    class MyBackend(ember.backends.Backend):
        id = "MyBackend"
        def check_node(self, node): ...      # None, or why not
        def preprocess(self, subgraph, compile_specs): ...   # -> bytes

    ember.export(model, inputs, backends=[MyBackend()])
"""

from ember.backends.backend import Backend, OpSupport, check_op_support

__all__ = ["Backend", "OpSupport", "check_op_support"]
