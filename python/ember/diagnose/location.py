"""Where in the user's code an export failure happened.

Three sources, tried in this order by the classifier: the traceback of the
exception (torch.export traces in non-strict mode, so the user's `forward`
is on the stack when a guard fails), the `stack_trace` of the graph node an
Ember pass names in its message, and the line torch quotes in its message
("The following call raised this error: File ..."). Frames inside torch,
Ember and Python's own library are skipped; a frame in another installed
package (transformers' modeling files) counts, and the user's own frame
that called into it is kept as `caller`.
"""

from __future__ import annotations

import linecache
import os
import re
import sysconfig
import traceback
from dataclasses import dataclass
from types import TracebackType

import torch

_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep
_EMBER_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_STDLIB_DIR = sysconfig.get_paths()["stdlib"] + os.sep
_SITE_DIRS = tuple({sysconfig.get_paths()[k] + os.sep for k in ("purelib", "platlib")})


@dataclass
class Location:
    """One line of source: where a failing value was made or used."""

    filename: str
    lineno: int
    function: str = ""
    # The user's own frame that called into a library frame (a model built
    # from transformers' classes), when the line itself is in the library.
    caller: Location | None = None

    @property
    def source(self) -> str:
        return linecache.getline(self.filename, self.lineno).strip()

    def short(self) -> str:
        return f"{_display(self.filename)}:{self.lineno}"

    def describe(self) -> str:
        where = f"{self.short()}" + (f" in {self.function}" if self.function else "")
        text = f"{where}: {self.source}" if self.source else where
        if self.caller is not None:
            text += f"\n  called from {self.caller.short()}: {self.caller.source}"
        return text


def _display(filename: str) -> str:
    """A path as a user reads it: relative to the working directory when
    below it, from the package name when inside site-packages."""
    for site in _SITE_DIRS:
        if filename.startswith(site):
            return filename[len(site):]
    try:
        relative = os.path.relpath(filename)
    except ValueError:
        return filename
    return relative if not relative.startswith("..") else filename


def is_internal(filename: str) -> bool:
    """torch, Ember, the standard library and generated code: never the user's line."""
    if not filename or filename.startswith("<"):
        return True
    path = os.path.abspath(filename)
    if path.startswith((_TORCH_DIR, _EMBER_DIR)):
        return True
    return path.startswith(_STDLIB_DIR) and not path.startswith(_SITE_DIRS)


def is_library(filename: str) -> bool:
    return any(os.path.abspath(filename).startswith(site) for site in _SITE_DIRS)


def from_frames(frames: list[tuple[str, int, str]]) -> Location | None:
    """The innermost frame outside torch and Ember, with the innermost frame
    of the user's own code as its caller when that one is in a library."""
    outside = [f for f in frames if not is_internal(f[0])]
    if not outside:
        return None
    filename, lineno, function = outside[-1]
    location = Location(filename, lineno, function)
    if is_library(filename):
        own = [f for f in outside if not is_library(f[0])]
        # The export call itself is not where the model failed.
        own = [f for f in own if not is_export_call(f)]
        if own:
            location.caller = Location(*own[-1])
    return location


def is_export_call(frame: tuple[str, int, str]) -> bool:
    line = linecache.getline(frame[0], frame[1])
    return bool(re.search(r"\b(export|export_methods|quantize|doctor|diagnose)\(", line))


def from_traceback(tb: TracebackType | None) -> Location | None:
    frames = [(f.filename, f.lineno or 0, f.name) for f in traceback.extract_tb(tb)]
    # Frames above the model's forward (the script that called ember.export)
    # are not where the failing value was made.
    return from_frames([f for f in frames if not is_export_call(f)])


def from_exception(error: BaseException) -> Location | None:
    """The user's line in the exception chain, innermost exception first."""
    chain: list[BaseException] = []
    while error is not None and error not in chain:
        chain.append(error)
        error = error.__cause__ or error.__context__
    for exc in reversed(chain):
        location = from_traceback(exc.__traceback__)
        if location is not None:
            return location
    for exc in reversed(chain):
        location = from_message(str(exc))
        if location is not None:
            return location
    return None


_QUOTED = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')


def from_message(text: str) -> Location | None:
    """The last user frame torch quotes in its message."""
    frames = [(f, int(line), name) for f, line, name in _QUOTED.findall(text)]
    return from_frames(frames)


def from_stack_trace(trace: str | None) -> Location | None:
    """The user's line in a graph node's `stack_trace` metadata."""
    return from_message(trace or "")


def from_node(node: torch.fx.Node) -> Location | None:
    return from_stack_trace(node.meta.get("stack_trace"))
