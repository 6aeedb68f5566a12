"""Ember for language models: Llama-architecture models from GGUF files,
exported with a KV cache (`export`), and a runner that generates text
(`Runner`) with the sampler of extension/llm/sampler.

    ember llm export --gguf model.gguf --quant 4bit -o model.pte
    runner = ember.llm.Runner("model.pte")
    print(runner.generate("Once upon a time", max_new_tokens=64))
"""
