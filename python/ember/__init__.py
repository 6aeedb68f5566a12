"""Ember: run PyTorch models on devices.

    import ember
    program = ember.export(model, (example_input,))
    program.save("model.pte")
    outputs = ember.runtime.load("model.pte").forward(example_input)
"""

from ember import runtime
from ember.compiler.api import ExportedProgram, export
from ember.compiler.graph_lowering import ExportError

__all__ = ["ExportError", "ExportedProgram", "export", "runtime"]
