"""Ember: run PyTorch models on devices.

    import ember
    program = ember.export(model, (example_input,))
    program.save("model.pte")
    outputs = ember.runtime.load("model.pte").forward(example_input)
"""

from ember import backends, llm, runtime
from ember.exporter import ExportedProgram, export
from ember.passes.graph import ExportError

__all__ = ["ExportError", "ExportedProgram", "backends", "export", "llm", "runtime"]
