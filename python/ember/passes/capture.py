"""The first passes: capture a model with torch.export, decompose it to core
ATen with PyTorch's own decompositions, and lift it into a ProgramGraph."""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import torch

from ember.passes.decompositions import KEPT_WHOLE, extra_decompositions
from ember.passes.graph import ExportError, ProgramGraph
from ember.passes.training_ops import refuse_training_ops


def capture(
    model: torch.nn.Module,
    example_inputs: Sequence[Any] | torch.Tensor,
    dynamic_shapes: Mapping[str, Any] | Sequence[Any] | None = None,
) -> torch.export.ExportedProgram:
    """Captures `model` (in eval mode, without gradients) with torch.export."""
    if not isinstance(model, torch.nn.Module):
        raise ExportError(f"expected a torch.nn.Module, got {type(model).__name__}")
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    model = model.eval()
    try:
        with torch.no_grad():
            return torch.export.export(model, tuple(example_inputs), dynamic_shapes=dynamic_shapes)
    except Exception as error:  # torch raises many types; all mean "cannot capture"
        raise ExportError(f"torch.export could not capture the model: {first_line(error)}") from error


def decompose(program: torch.export.ExportedProgram) -> torch.export.ExportedProgram:
    """Lowers to core ATen with PyTorch's decompositions (and Ember's attention)."""
    refuse_training_ops(program)  # before decomposition turns them into random ops
    try:
        with warnings.catch_warnings():  # torch 2.13 warns about its own pytree specs here
            warnings.simplefilter("ignore", FutureWarning)
            program = program.run_decompositions(_decompositions())
    except Exception as error:  # a failure inside PyTorch's own decompositions
        raise ExportError(
            f"PyTorch could not decompose the model to core ATen: {first_line(error)}"
        ) from error
    refuse_training_ops(program)
    return _without_effect_tokens(program)


def _without_effect_tokens(program: torch.export.ExportedProgram) -> torch.export.ExportedProgram:
    """Ops with side effects (linalg's error checks: _linalg_check_errors) are
    threaded through effect tokens in the exported graph; a program runs its
    instructions in order anyway, so they become plain calls."""
    if not program.graph_signature.input_tokens and not program.graph_signature.output_tokens:
        return program
    from torch.export._remove_effect_tokens_pass import _remove_effect_tokens

    return _remove_effect_tokens(program)


def lift(program: torch.export.ExportedProgram) -> ProgramGraph:
    """The exported program as a ProgramGraph: parameters, buffers and lifted
    constants become constant placeholders; the rest are user inputs.

    A buffer the model mutates (a KV cache) becomes a mutable-buffer
    placeholder instead, with its initial data. torch.export returns each
    mutation's new value as an extra leading output; here it becomes an
    explicit `copy_` into the buffer at the end of the graph (ExecuTorch's
    write-back), which `reinplace_buffer_updates` later turns into an
    in-place update where it can."""
    signature = program.graph_signature
    output_kinds = torch.export.graph_signature.OutputKind
    for spec in signature.output_specs:
        if spec.kind == output_kinds.USER_INPUT_MUTATION:
            raise ExportError(f"the model mutates its input {spec.target}; mutate a registered "
                              "buffer instead, or return the new value")
    mutated = set(signature.buffers_to_mutate.values())
    data = {**program.state_dict, **program.constants}
    module = torch.fx.GraphModule(program.graph_module, program.graph_module.graph)
    placeholders = [n for n in module.graph.nodes if n.op == "placeholder"]
    constants: dict[str, torch.Tensor] = {}
    buffers: dict[str, torch.Tensor] = {}
    buffer_names: dict[str, str] = {}
    buffer_nodes: dict[str, torch.fx.Node] = {}
    for node, spec in zip(placeholders, signature.input_specs):
        if spec.kind == torch.export.graph_signature.InputKind.USER_INPUT:
            if not isinstance(node.meta.get("val"), torch.Tensor):
                raise ExportError(
                    f"input {node.name}: only tensor inputs are supported, got {node.meta.get('val')!r}")
            continue
        if spec.target not in data:
            raise ExportError(f"input {node.name}: no data for {spec.target}")
        value = data[spec.target]
        if not isinstance(value, torch.Tensor):
            raise ExportError(f"input {node.name}: constant {spec.target} is a "
                              f"{type(value).__name__}, not a tensor")
        if spec.target in mutated:
            buffers[node.target] = value.detach().clone().contiguous()
            buffer_names[node.target] = spec.target
            buffer_nodes[spec.target] = node
        else:
            constants[node.target] = value.detach()
    if mutated:
        _write_back_mutations(module.graph, signature, buffer_nodes)
        module.recompile()
    return ProgramGraph(module, constants, dict(program.range_constraints),
                        program.call_spec.in_spec, program.call_spec.out_spec,
                        buffers=buffers, buffer_names=buffer_names)


def _write_back_mutations(graph: torch.fx.Graph, signature: Any,
                          buffer_nodes: dict[str, torch.fx.Node]) -> None:
    """Replaces the mutation outputs by `copy_(buffer, new value)` nodes."""
    output = graph.output_node()
    results = list(output.args[0])
    kept = []
    mutation = torch.export.graph_signature.OutputKind.BUFFER_MUTATION
    for result, spec in zip(results, signature.output_specs):
        if spec.kind != mutation:
            kept.append(result)
            continue
        buffer = buffer_nodes[spec.target]
        if result is buffer:
            continue  # mutated and restored: nothing to write
        with graph.inserting_before(output):
            write = graph.call_function(torch.ops.aten.copy_.default, (buffer, result))
        write.meta["val"] = buffer.meta.get("val")
        write.meta["stack_trace"] = getattr(result, "meta", {}).get("stack_trace")
    output.args = (tuple(kept),)


def _decompositions() -> Any:
    table = torch.export.default_decompositions()
    table[torch.ops.aten.scaled_dot_product_attention.default] = _attention
    table.update(extra_decompositions())
    for op in KEPT_WHOLE:
        table.pop(op, None)
    return table


def _attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
               enable_gqa=False):
    """scaled_dot_product_attention in its math form. PyTorch's own decomposition goes
    through the CPU flash-attention op, whose decomposition views tensors that a
    head split left non-contiguous (GPT-2 fails there); this one reshapes nothing."""
    if dropout_p != 0.0:
        raise ValueError("scaled_dot_product_attention with dropout_p > 0 is random; "
                         "export the model in eval mode with dropout 0")
    if enable_gqa:
        groups = query.size(-3) // key.size(-3)
        key = key.repeat_interleave(groups, -3)
        value = value.repeat_interleave(groups, -3)
    factor = 1.0 / math.sqrt(query.size(-1)) if scale is None else scale
    scores = torch.matmul(query, key.transpose(-2, -1)) * factor
    if is_causal:
        keep = torch.ones(query.size(-2), key.size(-2), dtype=torch.bool, device=query.device).tril()
        scores = scores.masked_fill(keep.logical_not(), float("-inf"))
    if attn_mask is None:
        return torch.matmul(scores.softmax(-1), value)
    if attn_mask.dtype == torch.bool:
        scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        sees_a_key = attn_mask.any(-1, keepdim=True)
    else:
        scores = scores + attn_mask
        sees_a_key = (attn_mask != float("-inf")).any(-1, keepdim=True)
    # torch gives 0 for a query whose every key is masked, where a plain softmax of
    # all -inf gives NaN. The rows are found from the mask alone and zeroed after the
    # second product, so the pattern softmax -> bmm that backends fuse stays intact
    # (the CPU backend's attention absorbs this guard); a mask known at export folds
    # it away (constant_folding).
    attended = torch.matmul(scores.softmax(-1), value)
    return torch.where(sees_a_key, attended, 0.0)


def first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
