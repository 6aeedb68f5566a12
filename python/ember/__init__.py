"""Ember: run PyTorch models on devices.

    import ember
    program = ember.export(model, (example_input,))
    program.save("model.pte")
    outputs = ember.runtime.load("model.pte").forward(example_input)
"""

from ember import backends, diagnose, llm, runtime
from ember.devtools.validator import validate
from ember.exporter import ExportedProgram, Method, export, export_methods
from ember.passes.graph import ExportError
from ember.quantize import QuantizedModel, quantize

__all__ = ["ExportError", "ExportedProgram", "Method", "QuantizedModel", "backends", "diagnose",
           "export", "export_methods", "llm", "quantize", "runtime", "validate"]
