"""torch dtypes as the .pte ScalarType numbers (schema/scalar_type.fbs)."""

from __future__ import annotations

import torch

SCALAR_TYPE: dict[torch.dtype, int] = {
    torch.uint8: 0,
    torch.int8: 1,
    torch.int16: 2,
    torch.int32: 3,
    torch.int64: 4,
    torch.float16: 5,
    torch.float32: 6,
    torch.float64: 7,
    torch.complex32: 8,
    torch.complex64: 9,
    torch.complex128: 10,
    torch.bool: 11,
    torch.bfloat16: 15,
    torch.uint16: 27,
    torch.uint32: 28,
    torch.uint64: 29,
}

# torch.memory_format and torch.layout arguments, numbered as ExecuTorch does.
MEMORY_FORMAT: dict[torch.memory_format, int] = {
    torch.contiguous_format: 0,
    torch.preserve_format: 1,
}
LAYOUT: dict[torch.layout, int] = {torch.strided: 0}


def scalar_type(dtype: torch.dtype) -> int:
    try:
        return SCALAR_TYPE[dtype]
    except KeyError:
        raise ValueError(f"dtype {dtype} cannot be stored in a .pte") from None
