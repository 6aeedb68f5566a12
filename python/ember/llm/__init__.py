"""Ember's LLM support: the byte-level BPE tokenizer (GGUF or Ember .tokenizer files).

    from ember.llm import Tokenizer
    tokenizer = Tokenizer("model.tokenizer")
    ids = tokenizer.encode("Hello world")
"""

from ember.llm.tokenizer import StreamDecoder, Tokenizer, write_tokenizer

__all__ = ["StreamDecoder", "Tokenizer", "write_tokenizer"]
