"""The Backend interface (what a delegate claims and how it lowers it) and a
table-driven helper for the common checks: op, dtypes, static shapes."""

from __future__ import annotations

import abc
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import torch
from torch.fx import Node

from ember.passes.graph import ProgramGraph, op_name

log = logging.getLogger("ember.export")


class Backend(abc.ABC):
    """An Ember delegate, ahead-of-time side.

    `id` is the name the runtime looks the backend up by (BackendDelegate.id in
    the .pte). `compile_specs` travel with every delegate blob to the runtime's
    init, as key -> bytes.
    """

    id: ClassVar[str]

    def __init__(self, compile_specs: Mapping[str, bytes] | None = None):
        self.compile_specs = dict(compile_specs or {})

    @abc.abstractmethod
    def check_node(self, node: Node, program: ProgramGraph) -> str | None:
        """None when this backend can run `node`, else a short reason why not
        (shown in the export report)."""

    def fused_groups(self, program: ProgramGraph) -> list[set[Node]]:
        """Sets of claimed nodes this backend lowers only together (a pattern
        it runs as one op): the partitioner puts each set in one subgraph, or
        leaves it to the portable kernels. No groups by default."""
        return []

    @abc.abstractmethod
    def preprocess(self, subgraph: ProgramGraph, compile_specs: Mapping[str, bytes]) -> bytes:
        """The blob the runtime side gets at init for `subgraph`: a graph whose
        user inputs are the delegate call's inputs, in order, and whose outputs
        are its outputs. Its constants (weights) belong to the delegate."""

    def validate(self, processed: bytes, compile_specs: Mapping[str, bytes]) -> str | None:
        """None when this backend's runtime side accepts `processed`, else why
        not. By default: the runtime's own init (then destroy) through
        ember._C, when this build links a backend of this id; a backend it
        does not link is not checked."""
        return validate_with_runtime(self.id, processed, compile_specs)

    def refused_nodes(self, nodes: Sequence[Node], processed: bytes | None,
                      reason: str) -> set[Node]:
        """Which of `nodes` (a subgraph whose blob `processed` init refused
        with `reason`) to withhold from this backend before partitioning
        again; all of them by default."""
        return set(nodes)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(id={self.id!r})"


def validate_with_runtime(backend_id: str, processed: bytes,
                          compile_specs: Mapping[str, bytes]) -> str | None:
    """Backend.validate's default: init's reason for refusing `processed`, or
    None (accepted, or no runtime backend of that id to ask)."""
    try:
        from ember import _C
    except ImportError:  # the exporter without the runtime: nothing to ask
        return None
    if backend_id not in _C.registered_backends():
        return None
    refused = _C.validate_delegate_blob(backend_id, processed, dict(compile_specs))
    if refused is None:
        return None
    error, message = refused
    if error == "MemoryAllocationFailed":
        # Out of memory here says nothing of the device that loads the program.
        log.warning("%s: could not check a delegate blob: %s", backend_id, message)
        return None
    return message or error


@dataclass
class OpSupport:
    """What a backend runs of one operator: the dtypes its tensors may have,
    whether dynamic shapes are allowed, and any further constraint (a function
    of the node returning None or the reason it is not supported)."""

    dtypes: frozenset[torch.dtype]
    dynamic_shapes: bool = False
    constraint: Callable[[Node], str | None] | None = field(default=None)


def check_op_support(node: Node, table: Mapping[Any, OpSupport]) -> str | None:
    """check_node for a backend described by a table {OpOverload: OpSupport}."""
    if node.op != "call_function":
        return f"{node.op} nodes are not delegated"
    support = table.get(node.target)
    if support is None:
        return f"{op_name(node)} is not supported"
    for what, value in _tensors(node):
        if value.dtype not in support.dtypes:
            return f"{what} has dtype {str(value.dtype).replace('torch.', '')}"
    if not support.dynamic_shapes:
        reason = dynamic_shape(node)
        if reason is not None:
            return reason
    return support.constraint(node) if support.constraint is not None else None


def dynamic_shape(node: Node) -> str | None:
    """Which of node's tensors has a dynamic shape, if any."""
    for what, value in _tensors(node):
        if any(not isinstance(s, int) for s in value.shape):
            return f"{what} has a dynamic shape"
    return None


def _tensors(node: Node) -> Iterable[tuple[str, torch.Tensor]]:
    for i, arg in enumerate(node.all_input_nodes):
        value = arg.meta.get("val")
        if isinstance(value, torch.Tensor):
            yield f"input {i}", value
    result = node.meta.get("val")
    results = result if isinstance(result, (tuple, list)) else [result]
    for i, value in enumerate(results):
        if isinstance(value, torch.Tensor):
            yield f"output {i}", value
