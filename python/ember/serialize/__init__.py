"""Writing and reading .pte files."""

from ember.serialize.pte import serialize_program

__all__ = ["serialize_program"]
