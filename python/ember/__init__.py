"""Ember: run PyTorch models on devices.

    import ember
    program = ember.export(model, (example_input,))
    program.save("model.pte")
    outputs = ember.runtime.load("model.pte").forward(example_input)
"""

from ember.export.api import ExportedProgram
from ember.export.api import export as export_model
from ember.export.graph_lowering import ExportError
from ember import runtime

__all__ = ["ExportError", "ExportedProgram", "export_model", "runtime"]
