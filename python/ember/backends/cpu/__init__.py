"""Ember's CPU backend, ahead-of-time side: what it claims (support.py) and how
a claimed subgraph becomes its blob (lowering.py). Its runtime side is
backends/cpu/runtime, registered under the same id."""

from ember.backends.cpu.backend import CpuBackend

__all__ = ["CpuBackend"]
