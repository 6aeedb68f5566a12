"""The `ember` command line.

    ember export examples/models.py:mobilenet_v2 --input-shape 1x3x224x224 -o mbv2.pte
    ember export model.py:factory --input-shape 1x3x224x224 --quantize int8 --calibration imgs/
    ember export --hf ./my-hf-model -o model.pte      # a save_pretrained directory
    ember doctor model.py:factory --input-shape 1x8   # why it does not export, and the fix
    ember run mbv2.pte
    ember validate examples/models.py:mobilenet_v2 --input-shape 1x3x224x224 --html report.html
    ember llm export --gguf smollm2 --quant 4bit -o smollm2.pte
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import sys
import time
from typing import Any

_DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
           "uint8", "bool"]


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


def _parse_shape(text: str) -> list[int]:
    try:
        dims = [int(d) for d in text.lower().split("x")] if text else []
    except ValueError:
        raise CliError(f"bad --input-shape '{text}': expected sizes like 1x3x224x224") from None
    if any(d < 0 for d in dims):
        raise CliError(f"bad --input-shape '{text}': sizes must be non-negative")
    return dims


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got '{text}'") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got '{text}'")
    return value


def _load_factory(spec: str) -> Any:
    path, sep, name = spec.rpartition(":")
    if not sep or not path or not name:
        raise CliError(f"bad model '{spec}': expected <file.py>:<factory>")
    if not os.path.isfile(path):
        raise CliError(f"no such file: {path}")
    module_name = os.path.splitext(os.path.basename(path))[0]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    factory = getattr(module, name, None)
    if factory is None or not callable(factory):
        raise CliError(f"{path} has no callable '{name}'")
    return factory


def _example_inputs(shapes: list[str], dtypes: list[str]) -> tuple[Any, ...]:
    import torch

    if not shapes:
        raise CliError("give each model input an --input-shape")
    if dtypes and len(dtypes) != len(shapes):
        raise CliError(f"{len(shapes)} --input-shape but {len(dtypes)} --input-dtype")
    inputs = []
    for i, shape in enumerate(shapes):
        dtype = getattr(torch, dtypes[i] if dtypes else "float32")
        dims = _parse_shape(shape)
        if dtype.is_floating_point:
            inputs.append(torch.randn(dims, dtype=dtype))
        elif dtype == torch.bool:
            inputs.append(torch.rand(dims) > 0.5)
        else:
            inputs.append(torch.randint(0, 10, dims, dtype=dtype))
    return tuple(inputs)


def _dynamic_shapes(specs: list[str], num_inputs: int) -> Any:
    import torch

    if not specs:
        return None
    shapes: list[dict[int, Any]] = [{} for _ in range(num_inputs)]
    for spec in specs:
        try:
            index, dim, maximum = (int(p) for p in spec.split(":"))
        except ValueError:
            raise CliError(f"bad --dynamic-dim '{spec}': expected INPUT:DIM:MAX") from None
        if not 0 <= index < num_inputs:
            raise CliError(f"--dynamic-dim '{spec}': input {index} does not exist")
        shapes[index][dim] = torch.export.Dim(f"d{index}_{dim}", min=1, max=maximum)
    return tuple(shapes)


def _model_and_inputs(args: argparse.Namespace) -> tuple[Any, tuple[Any, ...], Any]:
    import torch

    factory = _load_factory(args.model)
    model = factory()
    if not isinstance(model, torch.nn.Module):
        raise CliError(f"{args.model} returned a {type(model).__name__}, not a torch.nn.Module")
    inputs = _example_inputs(args.input_shape, args.input_dtype)
    return model, inputs, _dynamic_shapes(args.dynamic_dim, len(inputs))


def _log_passes(args: argparse.Namespace, prefix: str = "ember export") -> None:
    if not args.quiet:  # each pass as it finishes: exports of big models take a while
        logging.basicConfig(format=f"{prefix}: %(message)s")
        logging.getLogger("ember.export").setLevel(logging.INFO)


def _cmd_export(args: argparse.Namespace) -> int:
    import ember

    with ember.diagnose.verbose_while(args.verbose):
        return _export(args)


def _export(args: argparse.Namespace) -> int:
    import ember

    if args.hf:
        if args.model:
            raise CliError("give a model file or --hf DIR, not both")
        from ember.hf.cli import export_hf_command

        _log_passes(args)
        return export_hf_command(args)
    if not args.model:
        raise CliError("give the model as <file.py>:<factory>, or --hf DIR")
    if args.calibration and not args.quantize:
        raise CliError("--calibration needs --quantize")
    model, inputs, dynamic_shapes = _model_and_inputs(args)
    _log_passes(args)
    backends = () if args.portable else None  # None: the default, the CPU backend
    if args.quantize:
        from ember.cli_quantize import calibration_samples, forward_names, quantize_for_export

        samples = calibration_samples(args.calibration, inputs, forward_names(model)) \
            if args.calibration else None
        model = quantize_for_export(model, inputs, args.quantize, samples, args.group_size,
                                    dynamic_shapes)
    program = ember.export(model, inputs, dynamic_shapes, backends=backends)
    program.save(args.output)
    print(f"wrote {args.output}: {program.report()}")
    return 0


def _cmd_doctor(args: argparse.Namespace) -> int:
    import ember

    model, inputs, dynamic_shapes = _model_and_inputs(args)
    backends = () if args.portable else None
    with ember.diagnose.verbose_while(args.verbose):
        report = ember.diagnose.doctor(model, inputs, dynamic_shapes, backends=backends)
    print(report.render(args.verbose))
    return 0 if report.ok else 1


def ember_diagnosed_error() -> type[Exception]:
    from ember.diagnose import DiagnosedExportError

    return DiagnosedExportError


def _cmd_run(args: argparse.Namespace) -> int:
    import numpy as np

    import ember

    if os.path.isdir(args.program):
        raise CliError(f"{args.program} is a directory, not a .pte program file")
    if not os.path.isfile(args.program):
        raise CliError(f"no such file: {args.program}")
    if not args.verbose:  # failures are reported in one line, with the runtime's reason
        ember.runtime.set_log_level("fatal")
    start = time.perf_counter()
    module = ember.runtime.load(args.program, max_memory_bytes=args.max_memory_bytes,
                                max_instructions=args.max_instructions)
    loaded = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    inputs = []
    for i, (dtype, shape, _) in enumerate(module.input_specs()):
        if shape is None or dtype == "bfloat16":
            raise CliError(f"input {i} is a {dtype}: ember run makes only tensor inputs numpy "
                           "has a dtype for (use ember_run or the Python API)")
        if dtype.startswith("float"):
            inputs.append(rng.standard_normal(shape).astype(dtype))
        elif dtype == "bool":
            inputs.append(rng.random(shape) > 0.5)
        else:
            inputs.append(rng.integers(0, 10, shape).astype(dtype))
    outputs = module.forward(*inputs)
    ran = time.perf_counter()
    for i, out in enumerate(outputs if isinstance(outputs, tuple) else (outputs,)):
        flat = np.asarray(out).reshape(-1)[:8]
        print(f"output {i}: {np.asarray(out).dtype} {list(np.shape(out))}: {flat}")
    print(f"load {1e3 * (loaded - start):.2f} ms, first run {1e3 * (ran - loaded):.2f} ms")
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    import torch

    import ember

    factory = _load_factory(args.model)
    model = factory()
    if not isinstance(model, torch.nn.Module):
        raise CliError(f"{args.model} returned a {type(model).__name__}, not a torch.nn.Module")
    torch.manual_seed(args.seed)
    inputs = _example_inputs(args.input_shape, args.input_dtype)
    backends = () if args.portable else None
    report = ember.validate(model, inputs, backends=backends, quantize=args.quantize,
                            sqnr_flag_db=args.sqnr_flag_db)
    print(report)
    if args.html:
        profile = None
        if args.profile:
            import tempfile

            with tempfile.TemporaryDirectory(prefix="ember-validate-") as tmp:
                program = ember.export(ember.quantize(model, inputs, scheme=args.quantize)
                                       if args.quantize else model, inputs, backends=backends)
                path = os.path.join(tmp, "model.pte")
                program.save(path)
                profile = ember.runtime.load(path).profile(*inputs, runs=args.profile)
        report.to_html(args.html, profile)
        print(f"wrote {args.html}")
    return 0 if report.ok else 1


_QUANT_SCHEMES = ["int8", "int8-dynamic", "8da4w", "int8-weight", "int4-weight"]


def _hf_tasks() -> list[str]:
    from ember.hf.tasks import TASKS  # no transformers import: only the names

    return list(TASKS)


def _model_arguments(parser: argparse.ArgumentParser) -> None:
    """The model's inputs and the export's options, shared by export and doctor."""
    parser.add_argument("--input-shape", action="append", default=[],
                        help="shape of one input, e.g. 1x3x224x224 (repeat per input)")
    parser.add_argument("--input-dtype", action="append", default=[], choices=_DTYPES,
                        help="dtype of each input (default float32)")
    parser.add_argument("--dynamic-dim", action="append", default=[],
                        help="INPUT:DIM:MAX marks a dynamic dim with an upper bound")
    parser.add_argument("--portable", action="store_true",
                        help="no backend: a portable-only program (the kind ExecuTorch runs)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="on failure, PyTorch's whole message too (and torch's logs)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ember", description="Export and run PyTorch models.")
    commands = parser.add_subparsers(dest="command", required=True)
    export = commands.add_parser("export", help="export a model to a .pte file")
    export.add_argument("model", nargs="?",
                        help="<file.py>:<factory>, a function returning an nn.Module")
    _model_arguments(export)
    export.add_argument("--hf", metavar="DIR",
                        help="a Hugging Face model directory (save_pretrained: config.json and "
                             "weights); inputs, outputs and the tokenizer come from it")
    export.add_argument("--task", choices=_hf_tasks(),
                        help="with --hf: the head to export (default: from config.json)")
    export.add_argument("--max-seq-len", type=int, default=None,
                        help="with --hf: the longest input sequence (text models; default "
                             "min(128, the model's maximum); causal LMs: the longest chunk one "
                             "call prefills, default 128)")
    export.add_argument("--max-context", type=int, default=None,
                        help="with --hf, causal LMs: tokens the KV cache holds (default "
                             "min(1024, the model's maximum))")
    export.add_argument("-o", "--output", required=True, help="the .pte file to write")
    export.add_argument("-q", "--quiet", action="store_true", help="do not log each export pass")
    export.add_argument("--quantize", choices=_QUANT_SCHEMES, default=None,
                        help="quantize first (ember.quantize): int8 (static, calibrated), "
                             "int8-dynamic, 8da4w, int8-weight, int4-weight")
    export.add_argument("--calibration", metavar="DIR_OR_NPY",
                        help="with --quantize: calibration samples, a .npy/.npz file (samples "
                             "along dim 0) or a directory of them (default: the example input)")
    export.add_argument("--group-size", type=int, default=32, choices=[32, 64, 128],
                        help="with --quantize 8da4w/int4-weight: weights per scale")
    export.set_defaults(handler=_cmd_export)
    doctor = commands.add_parser(
        "doctor", help="run the export without writing it: why a model does not export, where "
                       "in its code, and the rewrite that fixes it")
    doctor.add_argument("model", help="<file.py>:<factory>, a function returning an nn.Module")
    _model_arguments(doctor)
    doctor.set_defaults(handler=_cmd_doctor)
    run = commands.add_parser("run", help="run a .pte file on random inputs")
    run.add_argument("program")
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--max-memory-bytes", type=_non_negative, default=0,
                     help="refuse a program asking for more memory than this (0: no limit)")
    run.add_argument("--max-instructions", type=_non_negative, default=0,
                     help="stop a run after this many instructions (0: no limit)")
    run.add_argument("-v", "--verbose", action="store_true", help="show the runtime's log too")
    run.set_defaults(handler=_cmd_run)
    validate = commands.add_parser(
        "validate", help="compare Ember with eager PyTorch, op by op; exit 1 when the outputs "
                         "are out of tolerance")
    validate.add_argument("model", help="<file.py>:<factory>, a function returning an nn.Module")
    validate.add_argument("--input-shape", action="append", default=[],
                          help="shape of one input, e.g. 1x3x224x224 (repeat per input)")
    validate.add_argument("--input-dtype", action="append", default=[], choices=_DTYPES,
                          help="dtype of each input (default float32)")
    validate.add_argument("--portable", action="store_true", help="no backend: portable kernels")
    validate.add_argument("--quantize", choices=_QUANT_SCHEMES, default=None,
                          help="quantize with this scheme first (calibrated on the inputs)")
    validate.add_argument("--sqnr-flag-db", type=float, default=20.0,
                          help="flag quantized layers whose SQNR against float is below this")
    validate.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    validate.add_argument("--html", help="write a self-contained HTML report here")
    validate.add_argument("--profile", type=int, default=0, metavar="RUNS",
                          help="with --html: profile this many runs into the report too")
    validate.set_defaults(handler=_cmd_validate)
    from ember.llm.cli import add_commands as add_llm_commands
    from ember.selective import add_command as add_selective_command

    add_llm_commands(commands)
    add_selective_command(commands)
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except CliError as error:
        print(f"ember: {error}", file=sys.stderr)
        return 2
    except ember_diagnosed_error() as error:
        print(f"ember: {error.diagnosis.render(getattr(args, 'verbose', False))}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, OSError) as error:
        print(f"ember: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
