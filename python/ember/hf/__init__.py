"""Hugging Face models in one command: `ember export --hf DIR -o model.pte`.

DIR is what `save_pretrained` writes (config.json and the weights, with the
tokenizer or image processor beside them); nothing is downloaded. The task
head comes from config.json (or `task=`): image classification, sequence
classification, feature extraction, causal LM (ember_llm runs the program)
or Whisper's speech-to-text (an encoder and a decoder method sharing the
cross-attention cache). Beside the .pte go the model card `<stem>.json`
(task, each method's inputs and outputs by name, labels, notes), the
tokenizer (`<stem>.tokenizer`, Ember's file, where it converts) and the
image preprocessing (`<stem>.preprocess.json`).

    from ember.hf import export_hf
    result = export_hf("./tiny-vit", "vit.pte")
    print(result.summary())

transformers is imported here only, never by `import ember`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from ember.hf.tasks import TASKS, read_config, task_of

__all__ = ["TASKS", "HfExport", "export_hf", "load_model"]


@dataclass
class HfExport:
    """What `export_hf` wrote and learned."""

    program: Any  # ember.ExportedProgram
    task: str
    output: str
    files: list[str] = field(default_factory=list)  # written beside the .pte
    notes: list[str] = field(default_factory=list)
    card: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> str:
        lines = [f"wrote {self.output} ({self.task}): {self.program.report(nodes=False)}"]
        lines += [f"wrote {path}" for path in self.files]
        lines += [f"note: {note}" for note in self.notes]
        return "\n".join(lines)


def load_model(directory: str, task: str) -> torch.nn.Module:
    """The model in `directory` with the Auto class of `task`, float32, eval,
    from local files only."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a directory export never reaches a hub
    import transformers

    auto = getattr(transformers, TASKS[task][0])
    try:
        model = auto.from_pretrained(directory, local_files_only=True, dtype=torch.float32,
                                     attn_implementation="sdpa")
    except ValueError:  # the architecture has no SDPA attention: its eager one
        model = auto.from_pretrained(directory, local_files_only=True, dtype=torch.float32,
                                     attn_implementation="eager")
    return model.eval()


def export_hf(directory: str, output: str, task: str | None = None,
              max_seq_len: int | None = None, max_context: int | None = None,
              quantize: str | None = None,
              calibration: Sequence[Any] | str | None = None, group_size: int = 32,
              backends: Sequence[Any] | None = None) -> HfExport:
    """Exports the model saved in `directory` to `output` with everything a
    runner needs beside it. `max_seq_len` bounds a text model's input length
    (a causal LM's: the longest chunk one call prefills, default 128)."""
    config = read_config(directory)
    task = task or task_of(config)
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}; Ember exports {', '.join(TASKS)}")
    model = load_model(directory, task)
    if task == "causal-lm":
        result = _export_causal_lm(model, directory, output, max_context, max_seq_len or 128,
                                   quantize, backends)
    elif task == "speech-seq2seq":
        from ember.hf.whisper import export_whisper

        program, methods, notes = export_whisper(model, max_context, backends)
        result = HfExport(program, task, output, notes=notes, card={"methods": methods})
        program.save(output)
        _tokenizer(directory, output, result)
    else:
        result = _export_head(model, directory, output, task, max_seq_len, quantize,
                              calibration, group_size, backends)
    result.card = {"task": task, "source": os.path.abspath(directory),
                   "architecture": (config.get("architectures") or [type(model).__name__])[0],
                   **result.card, "notes": result.notes}
    card = os.path.splitext(output)[0] + ".json"
    with open(card, "w", encoding="utf-8") as f:
        json.dump(result.card, f, indent=2)
    result.files.insert(0, card)
    return result


def _export_head(model: torch.nn.Module, directory: str, output: str, task: str,
                 max_seq_len: int | None, quantize: str | None,
                 calibration: Sequence[Any] | None, group_size: int,
                 backends: Sequence[Any] | None) -> HfExport:
    import ember
    from ember.hf.heads import build_head

    head = build_head(model, max_seq_len)
    module: torch.nn.Module = head.module
    if isinstance(calibration, (str, os.PathLike)):  # samples from .npy/.npz files
        from ember.cli_quantize import calibration_samples

        calibration = calibration_samples(os.fspath(calibration), head.example_inputs,
                                          [i.name for i in head.inputs])
    if quantize:
        module = ember.quantize(module, head.example_inputs, scheme=quantize,
                                calibration=calibration, group_size=group_size,
                                dynamic_shapes=head.dynamic_shapes)
        head.notes.append(f"quantized ({quantize}): {module.report().splitlines()[0]}")
    program = ember.export(module, head.example_inputs, head.dynamic_shapes, backends=backends)
    program.save(output)
    card: dict[str, Any] = {"methods": {"forward": {
        "inputs": [i.card() for i in head.inputs], "outputs": head.outputs}}}
    labels = getattr(model.config, "id2label", None)
    if task in ("image-classification", "sequence-classification") and labels:
        card["labels"] = {str(k): v for k, v in sorted(labels.items())}
    result = HfExport(program, task, output, notes=head.notes, card=card)
    if head.inputs[0].name == "pixel_values":
        _preprocessing(directory, output, result)
    else:
        _tokenizer(directory, output, result)
    return result


def _export_causal_lm(model: torch.nn.Module, directory: str, output: str,
                      max_context: int | None, max_prefill: int, quantize: str | None,
                      backends: Sequence[Any] | None) -> HfExport:
    from ember.hf.causal_lm import export_causal_lm

    program, config, notes = export_causal_lm(model, max_context, max_prefill, quantize, backends)
    program.save(output)
    card = {"methods": {"forward": {
        "inputs": [{"name": "tokens", "shape": [1, "S"], "dtype": "int64"},
                   {"name": "input_pos", "shape": ["S"], "dtype": "int64"}],
        "outputs": ["logits"]}},
        "max_context": config.max_context, "vocab_size": config.vocab_size}
    result = HfExport(program, "causal-lm", output, notes=notes, card=card)
    _tokenizer(directory, output, result)
    return result


def _tokenizer(directory: str, output: str, result: HfExport) -> None:
    from ember.hf.tokenizer import write_beside

    path, note = write_beside(directory, output)
    if path is not None:
        result.files.append(path)
        result.card["tokenizer"] = os.path.basename(path)
    result.notes.append(note)


# Keys of preprocessor_config.json a runner needs to prepare an image.
_IMAGE_KEYS = ("do_resize", "size", "resample", "do_center_crop", "crop_size", "do_rescale",
               "rescale_factor", "do_normalize", "image_mean", "image_std", "do_convert_rgb")


def _preprocessing(directory: str, output: str, result: HfExport) -> None:
    path = os.path.join(directory, "preprocessor_config.json")
    if not os.path.isfile(path):
        result.notes.append("no preprocessor_config.json: the program takes pixel_values as the "
                            "model does, preprocessed by the caller")
        return
    with open(path, encoding="utf-8") as f:
        settings = json.load(f)
    kept = {k: settings[k] for k in _IMAGE_KEYS if k in settings}
    kept["layout"] = "pixel_values [1, C, H, W], float32, RGB"
    target = os.path.splitext(output)[0] + ".preprocess.json"
    with open(target, "w", encoding="utf-8") as f:
        json.dump(kept, f, indent=2)
    result.files.append(target)
    result.card["preprocessing"] = os.path.basename(target)
