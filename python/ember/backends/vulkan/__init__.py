"""Ember's Vulkan backend, ahead-of-time side: what the GPU runs of a program
(backend.py). Its runtime side is backends/vulkan/runtime, registered under
the same id; `device()` says which GPU that runtime would use, or why none.

    program = ember.export(model, inputs, backends=(VulkanBackend(), CpuBackend()))
"""

from ember.backends.vulkan.backend import VulkanBackend, device, set_fallback_to_cpu

__all__ = ["VulkanBackend", "device", "set_fallback_to_cpu"]
