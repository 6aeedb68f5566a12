"""Ember for language models: the byte-level BPE tokenizer (GGUF or Ember
.tokenizer files), Llama-architecture models from GGUF files exported with a
KV cache (`ember.llm.export`, `ember llm export`), and the runner that
generates text (`ember.llm.runner.Runner`) with the sampler of
extension/llm/sampler.

    from ember.llm import Tokenizer
    ids = Tokenizer("model.tokenizer").encode("Hello world")

    ember llm export --gguf model.gguf --quant 4bit -o model.pte
    text, stats = ember.llm.runner.Runner("model.pte").generate("Once upon a time")
"""

from ember.llm.tokenizer import StreamDecoder, Tokenizer, write_tokenizer

__all__ = ["StreamDecoder", "Tokenizer", "write_tokenizer"]
