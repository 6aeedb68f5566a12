"""Running .pte programs from Python on Ember's C++ runtime.

    module = ember.runtime.load("model.pte")
    logits = module.forward(image)        # numpy in -> numpy out; torch in -> torch out
"""

from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np

from ember import _C

# ScalarType codes (schema/scalar_type.fbs) of the numpy dtypes that have one.
_NUMPY_CODES = {
    np.dtype(np.uint8): 0, np.dtype(np.int8): 1, np.dtype(np.int16): 2, np.dtype(np.int32): 3,
    np.dtype(np.int64): 4, np.dtype(np.float16): 5, np.dtype(np.float32): 6,
    np.dtype(np.float64): 7, np.dtype(np.complex64): 9, np.dtype(np.complex128): 10,
    np.dtype(np.bool_): 11,
}
_CODE_NAMES = {0: "uint8", 1: "int8", 2: "int16", 3: "int32", 4: "int64", 5: "float16",
               6: "float32", 7: "float64", 9: "complex64", 10: "complex128", 11: "bool",
               15: "bfloat16"}
_BFLOAT16 = 15
_FLOAT16 = 5


class Module:
    """A loaded program; call forward() with one array or tensor per input.

    `threads` is how many threads kernels and backends may use (the caller's
    included): 0 means one per available core, 1 runs on the calling thread.

    For programs you do not trust, `max_memory_bytes` bounds the memory the
    method may take (planned arenas, method tables, delegate temp memory),
    checked before it is allocated, and `max_instructions` the instructions
    one forward may run (a program that loops forever stops with an error).
    0 means no limit.

    Calls of forward() on one Module from several threads run one at a
    time; load a Module per thread to run in parallel.
    """

    def __init__(self, path: str | os.PathLike[str], threads: int = 0, *,
                 max_memory_bytes: int = 0, max_instructions: int = 0):
        path = os.fspath(path)
        if os.path.isdir(path):
            raise IsADirectoryError(f"{path} is a directory, not a .pte program file")
        if not os.path.isfile(path):
            raise FileNotFoundError(f"no such program file: {path}")
        if os.path.getsize(path) == 0:
            raise ValueError(f"{path} is empty, not a .pte program")
        for name, value in (("threads", threads), ("max_memory_bytes", max_memory_bytes),
                            ("max_instructions", max_instructions)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        self._module = _C.Module(path, threads, max_memory_bytes, max_instructions)
        self._lock = threading.Lock()
        self.path = path

    @property
    def num_inputs(self) -> int:
        return self._module.num_inputs

    @property
    def num_threads(self) -> int:
        return self._module.num_threads

    @property
    def method_allocator_bytes(self) -> int:
        """Method-table memory the loaded method took (what a heap-free app supplies)."""
        return self._module.method_allocator_bytes

    @property
    def delegate_bytes(self) -> int:
        """Memory the delegates hold themselves (packed weights, plans)."""
        return self._module.delegate_bytes

    @property
    def planned_bytes(self) -> int:
        return self._module.planned_bytes

    @property
    def methods(self) -> list[str]:
        """The program's method names ("forward", or e.g. "decode" and "prefill")."""
        return list(self._module.method_names)

    def input_specs(self, method: str | None = None) -> list[tuple[str, list[int], bool]]:
        """(dtype, shape or upper bounds, dynamic) of each input of `method`
        (by default forward, or the program's first method)."""
        name = self._module.default_method if method is None else method
        return [(_CODE_NAMES.get(code, str(code)), sizes, dynamic)
                for code, sizes, dynamic in self._module.input_info(name)]

    def run(self, method: str, *inputs: Any) -> Any:
        """Runs `method` on one array or tensor per input. Mutable buffers (KV
        caches) keep what a call wrote for the next call, of any method."""
        as_torch = any(_is_torch_tensor(x) for x in inputs)
        converted = [_to_array(x, i) for i, x in enumerate(inputs)]
        with self._lock:  # the runtime refuses a second caller; here it waits its turn
            results = self._module.run(method, converted)
        outputs = [_from_array(array, code, as_torch) for array, code in results]
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def reset_state(self) -> None:
        """Mutable buffers back to their initial values (a new sequence)."""
        self._module.reset_state()

    def _debug_info_path(self, debug_info: str | os.PathLike[str] | None) -> str:
        """The debug info to read: the one given, else the exporter's file
        next to the program when there is one, else none ("")."""
        if debug_info is not None:
            return os.fspath(debug_info)
        default = self.path + ".debug"
        return default if os.path.isfile(default) else ""

    def profile(self, *inputs: Any, runs: int = 1, trace: str | os.PathLike[str] | None = None,
                debug_info: str | os.PathLike[str] | None = None, method: str | None = None,
                max_events: int = 1 << 16) -> Any:
        """Runs `method` (forward by default) `runs` times with the profiling
        tracer; returns an ember.devtools.profiler.Profile (the table of time
        per operator, the events). `trace` names a Chrome trace file to write.
        At most `max_events` events per run are kept; the rest are counted."""
        from ember.devtools.profiler import Profile, ProfileRow, TraceEvent

        if runs < 1 or max_events < 1:
            raise ValueError("runs and max_events must be at least 1")
        name = self._module.default_method if method is None else method
        converted = [_to_array(x, i) for i, x in enumerate(inputs)]
        # The exporter's debug info describes the default method only.
        info = self._debug_info_path(debug_info) if name == self._module.default_method else ""
        table, rows, events, wall, dropped = self._module.profile(
            name, converted, runs, max_events, info, "" if trace is None else os.fspath(trace))
        return Profile(table, [ProfileRow(*r) for r in rows], [TraceEvent(*e) for e in events],
                       list(wall), dropped)

    def intermediates(self, *inputs: Any, debug_info: str | os.PathLike[str] | None = None,
                      max_bytes: int = 1 << 30) -> Any:
        """Runs forward once in debug mode: every instruction's outputs that
        stand for a node of the exported graph (portable ops, the delegates'
        outputs) are captured. Returns ember.devtools.intermediates.Intermediates
        (by debug handle, with nodes and source lines). Needs the debug info."""
        from ember.devtools.intermediates import capture

        path = self._debug_info_path(debug_info)
        if not path:
            raise FileNotFoundError(f"no debug info for {self.path}: export with "
                                    "ExportedProgram.save, which writes it next to the .pte")
        return capture(self._module, [_to_array(x, i) for i, x in enumerate(inputs)], path,
                       max_bytes)

    def forward(self, *inputs: Any) -> Any:
        if len(inputs) != self.num_inputs:
            raise ValueError(f"forward takes {self.num_inputs} input(s), got {len(inputs)}")
        return self.run(self._module.default_method, *inputs)

    __call__ = forward


def load(path: str | os.PathLike[str], threads: int = 0, *, max_memory_bytes: int = 0,
         max_instructions: int = 0) -> Module:
    """Loads a .pte program; see Module for the arguments."""
    return Module(path, threads, max_memory_bytes=max_memory_bytes,
                  max_instructions=max_instructions)


_LOG_LEVELS = {"debug": 0, "info": 1, "error": 2, "fatal": 3}


def set_log_level(level: str) -> None:
    """The least severe runtime log message printed to stderr ("debug",
    "info" (the default), "error" or "fatal"). Errors reach Python as
    exceptions whatever the level."""
    if level not in _LOG_LEVELS:
        raise ValueError(f"log level must be one of {', '.join(_LOG_LEVELS)}, got {level!r}")
    _C.set_log_level(_LOG_LEVELS[level])


def _is_torch_tensor(x: Any) -> bool:
    return type(x).__module__.startswith("torch") and hasattr(x, "numpy")


def _to_array(x: Any, index: int) -> tuple[np.ndarray, int]:
    if _is_torch_tensor(x):
        import torch

        x = x.detach().cpu().resolve_conj().resolve_neg().contiguous()
        if x.dtype == torch.bfloat16:
            return x.view(torch.int16).numpy(), _BFLOAT16
        x = x.numpy()
    if x is None or not isinstance(x, (np.ndarray, np.generic, int, float, bool)):
        raise TypeError(f"input {index}: expected a numpy array or torch tensor, got {type(x).__name__}")
    array = np.asarray(x)  # (ascontiguousarray would turn a 0-d input into 1-d)
    if not array.flags.c_contiguous:
        array = np.ascontiguousarray(array)
    code = _NUMPY_CODES.get(array.dtype)
    if code is None:
        raise TypeError(f"input {index}: dtype {array.dtype} is not supported")
    return array, code


def _from_array(array: Any, code: int, as_torch: bool) -> Any:
    if code == _FLOAT16:
        array = array.view(np.float16)  # float16 travels as 16-bit integers
    if code < 0 or not as_torch:
        if code == _BFLOAT16 and not as_torch:
            # numpy has no bfloat16: widen to float32 (exact).
            return (array.astype(np.uint32) << 16).view(np.float32)
        return array
    import torch

    tensor = torch.from_numpy(array)
    return tensor.view(torch.bfloat16) if code == _BFLOAT16 else tensor
