"""`ember export --hf DIR`: the shell's side of ember.hf.export_hf."""

from __future__ import annotations

import argparse
import time


def export_hf_command(args: argparse.Namespace) -> int:
    from ember.hf import export_hf

    start = time.perf_counter()
    if not args.quiet:
        print(f"exporting {args.hf} (Hugging Face, local files only)", flush=True)
    backends = () if args.portable else None
    result = export_hf(args.hf, args.output, task=args.task, max_seq_len=args.max_seq_len,
                       max_context=args.max_context, quantize=args.quantize,
                       calibration=args.calibration, group_size=args.group_size,
                       backends=backends)
    print(result.summary())
    print(f"done in {time.perf_counter() - start:.1f} s")
    return 0
