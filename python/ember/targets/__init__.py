"""Targets Ember builds programs and images for beyond the host: cortex_m
(bare-metal Cortex-M4 and Cortex-M55 boards under QEMU)."""
