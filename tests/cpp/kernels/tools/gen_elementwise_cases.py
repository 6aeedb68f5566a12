"""Generates torch-parity cases for tests/cpp/kernels/elementwise_test.cpp.

Each case calls the aten out-variant with `out=`, records the arguments in
schema order and the expected output (or that torch raised).
"""
import math
import random
import sys

import numpy as np
import torch

random.seed(0)
torch.manual_seed(0)

f16, bf16, f32, f64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
i8, u8, i16, i32, i64, b = torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool
DT = {u8: "Byte", i8: "Char", i16: "Short", i32: "Int", i64: "Long", f16: "Half", f32: "Float",
      f64: "Double", b: "Bool", bf16: "BFloat16"}


class T:
    """A tensor argument: random values of `dtype` unless given."""

    def __init__(self, dtype, shape, vals=None, lo=-3.0, hi=3.0, nonzero=False):
        n = math.prod(shape)
        if vals is None:
            if dtype == b:
                vals = [random.random() < 0.5 for _ in range(n)]
            elif dtype.is_floating_point:
                vals = [round(random.uniform(lo, hi), 2) for _ in range(n)]
            else:
                l, h = (0, 10) if dtype == u8 else (int(lo) - 2, int(hi) + 2)
                vals = [random.randint(l, h) for _ in range(n)]
                if nonzero:
                    vals = [v if v != 0 else 1 for v in vals]
        self.t = torch.tensor(vals, dtype=dtype).reshape(shape)


def lit(v, dtype=torch.float64):
    """Shortest literal that gives `v` back in `dtype`."""
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, int):
        return str(v) if abs(v) < 2**53 else repr(float(v))
    v = float(v)
    if math.isnan(v):
        return "kNaN"
    if math.isinf(v):
        return "kInf" if v > 0 else "-kInf"
    if dtype in (torch.float32, torch.bfloat16):
        r = str(np.float32(v))
    elif dtype == torch.float16:
        r = str(np.float16(v))
    else:
        r = repr(v)
    if "." not in r and "e" not in r:
        r += ".0"
    return r


def tensor_lit(t):
    vals = ", ".join(lit(x, t.dtype) for x in t.flatten().tolist())
    shape = ", ".join(str(s) for s in t.shape)
    return f"T(ScalarType::{DT[t.dtype]}, {{{shape}}}, {{{vals}}})"


def arg_lit(v):
    if isinstance(v, T):
        return tensor_lit(v.t)
    if v is None:
        return "None()"
    if isinstance(v, bool):
        return f"B({'true' if v else 'false'})"
    if isinstance(v, int):
        return f"I({v})"
    if isinstance(v, float):
        return f"R({lit(v)})"
    if isinstance(v, str):
        return f'S("{v}")'
    if isinstance(v, (list, tuple)):
        return "L({" + ", ".join(str(x) for x in v) + "})"
    raise TypeError(v)


out_lines = []


def case(name, *args, out_dtype=None):
    """`name` is the out-variant (e.g. 'add.out'); args in schema order."""
    opname, overload = name.split(".")
    op = getattr(getattr(torch.ops.aten, opname), overload)
    schema = op._schema
    in_args = [a for a in schema.arguments if not a.is_out]
    assert len(args) == len(in_args), (name, len(args), [a.name for a in in_args])
    pos, kw = [], {}
    for a, v in zip(in_args, args):
        pv = v.t if isinstance(v, T) else v
        if a.kwarg_only:
            kw[a.name] = pv
        else:
            pos.append(pv)
    # out dtype: torch's functional result unless given
    fn_name = opname
    try:
        ref = _functional(opname, overload, pos, kw)
        dtype = out_dtype or ref.dtype
        out = torch.empty(ref.shape, dtype=dtype)
        op(*pos, **kw, out=out)
        expected = out
        fail = False
    except Exception as e:  # torch raises: the kernel must fail too
        fail = True
        msg = str(e).splitlines()[0][:60]
        tensors = [a.t for a in args if isinstance(a, T)]
        first = tensors[1] if name.startswith("where") else (tensors[0] if tensors else None)
        dtype = out_dtype or (first.dtype if first is not None else torch.float32)
        expected = torch.empty(_guess_shape(args), dtype=dtype)
    argstr = ", ".join(arg_lit(v) for v in args)
    if fail:
        shape = ", ".join(str(d) for d in expected.shape)
        out_lines.append(f'    {{"aten::{name}", {{{argstr}}}, Fails(ScalarType::{DT[dtype]}, {{{shape}}})}},  // {msg}')
    else:
        out_lines.append(f'    {{"aten::{name}", {{{argstr}}}, {tensor_lit(expected)}}},')


def _guess_shape(args):
    """The out shape a failing call would have had, so that the kernel's
    failure comes from the real problem rather than from `out`."""
    shapes = [a.t.shape for a in args if isinstance(a, T)]
    lists = [a for a in args if isinstance(a, list)]
    if lists:
        return lists[0]
    try:
        return torch.broadcast_shapes(*shapes)
    except Exception:
        return shapes[0]


def _functional(opname, overload, pos, kw):
    base = getattr(torch.ops.aten, opname)
    fov = {"out": "default", "Scalar_out": "Scalar", "Tensor_out": "Tensor", "out_mode": "Tensor_mode",
           "Scalar_mode_out": "Scalar_mode", "self_out": "self", "decimals_out": "decimals",
           "Tensor_Tensor_out": "Tensor_Tensor", "Tensor_Scalar_out": "Tensor_Scalar",
           "Scalar_Tensor_out": "Scalar_Tensor"}[overload]
    if opname in ("add", "sub", "mul", "div") and overload == "out":
        fov = "Tensor"
    if opname == "pow" and overload == "Scalar_out":
        fov = "Scalar"
    if opname in ("empty",):
        fov = "memory_format"
    return getattr(base, fov)(*pos, **kw)


FLOATS = [f32, f64, f16, bf16]
INTS = [u8, i8, i16, i32, i64]
REALS = INTS + FLOATS


def binary_cases():
    for dt in [f32, i32, f16, bf16, f64, i64, u8, i8, i16, b]:
        case("add.out", T(dt, [2, 3]), T(dt, [3]), 1)
        case("mul.out", T(dt, [2, 1]), T(dt, [3]))
        case("sub.out", T(dt, [2, 3]), T(dt, [2, 3]), 1)
        case("maximum.out", T(dt, [2, 3]), T(dt, [1, 3]))
        case("minimum.out", T(dt, [3]), T(dt, [2, 3]))
        case("div.out", T(dt, [2, 3]), T(dt, [3], nonzero=True))
    # alpha, mixed dtypes, 0-d participation, scalars
    case("add.out", T(f32, [2, 3]), T(f32, [3]), 2.5)
    case("add.out", T(i32, [4]), T(i64, [4]), 3)
    case("add.out", T(i32, [4]), T(f32, [4]), 1)
    case("add.out", T(f16, [4]), T(f32, []), 1)
    case("add.out", T(i32, [4]), T(i64, []), 1)
    case("add.out", T(i32, [4]), T(f64, []), 1)
    case("add.out", T(b, [4]), T(u8, [4]), 1)
    case("add.out", T(i32, [4]), T(i32, [4]), 0.5)
    case("add.out", T(f32, [4]), T(f32, [4]), True)
    case("add.out", T(f32, [3]), T(f32, [3]), 1, out_dtype=f64)
    case("add.out", T(f32, [3]), T(f32, [3]), 1, out_dtype=i32)
    case("add.out", T(f32, []), T(f32, []), 1)
    case("add.out", T(f32, [0, 3]), T(f32, [3]), 1)
    case("add.out", T(f32, [2, 3]), T(f32, [2]), 1)
    for dt in [f32, i32, u8, f16, b, i64]:
        case("add.Scalar_out", T(dt, [2, 3]), 2, 1)
        case("add.Scalar_out", T(dt, [2, 3]), 1.5, 1)
        case("mul.Scalar_out", T(dt, [2, 3]), 3, )
        case("mul.Scalar_out", T(dt, [2, 3]), -0.5)
        case("sub.Scalar_out", T(dt, [4]), 2, 2)
        case("div.Scalar_out", T(dt, [4]), 4)
    case("add.Scalar_out", T(i8, [3], [1, 100, -100]), 1000, 1)
    case("add.Scalar_out", T(u8, [3], [1, 2, 3]), -1, 1)
    case("add.Scalar_out", T(f32, [3]), True, 1)
    case("mul.Scalar_out", T(b, [3]), True)
    case("mul.Scalar_out", T(i32, [2], [2, 3]), 2**40)
    case("rsub.Tensor_out", T(f32, [2, 3]), T(f32, [3]), 2)
    case("rsub.Tensor_out", T(i32, [2, 3]), T(i32, [3]), 2)
    case("rsub.Scalar_out", T(i64, [2]), 1, 2)
    case("rsub.Scalar_out", T(f16, [3]), 1.5, 1)
    case("rsub.Scalar_out", T(b, [3]), 1, 1)
    # true division
    case("div.out", T(f32, [4], [1., -1., 0., 5.]), T(f32, [4], [0., 0., 0., 2.]))
    case("div.out", T(i32, [4], [7, -7, 7, -7]), T(i32, [4], [2, 2, -2, -2]))
    case("div.out", T(i32, [2], [1, 0]), T(i32, [2], [0, 0]))
    case("div.Scalar_out", T(i64, [3]), 2.5)
    # rounding modes
    for mode in ["trunc", "floor"]:
        for dt in [f32, f64, f16, bf16, i32, i64, i8, u8, i16]:
            case("div.out_mode", T(dt, [2, 3]), T(dt, [3], nonzero=True), mode)
        case("div.out_mode", T(i32, [4], [7, -7, 7, -7]), T(i32, [4], [2, 2, -2, -2]), mode)
        case("div.out_mode", T(f32, [6], [5., -5, 5, -5, 1, -1]), T(f32, [6], [3., 3, -3, -3, 0, 0]), mode)
        case("div.out_mode", T(i32, [2], [1, 2]), T(i32, [2], [1, 0]), mode)
        case("div.Scalar_mode_out", T(i8, [2], [5, -5]), 2.5, mode)
        case("div.Scalar_mode_out", T(i64, [3], [5, -5, 6]), -2, mode)
        case("div.Scalar_mode_out", T(i64, [3], [5, -5, 6]), 0, mode)
        case("div.out_mode", T(b, [2]), T(b, [2]), mode)
    case("div.out_mode", T(f32, [2, 3]), T(f32, [3]), None)
    case("div.out_mode", T(i32, [2, 3]), T(i32, [3], nonzero=True), None)
    case("div.Scalar_mode_out", T(i32, [2]), 3, None)
    # floor_divide, remainder, fmod
    for dt in [f32, f64, f16, i32, i64, i8, u8]:
        case("floor_divide.out", T(dt, [2, 3]), T(dt, [3], nonzero=True))
        case("remainder.Tensor_out", T(dt, [2, 3]), T(dt, [3], nonzero=True))
        case("fmod.Tensor_out", T(dt, [2, 3]), T(dt, [3], nonzero=True))
    case("floor_divide.out", T(i32, [4], [5, -5, 5, -5]), T(i32, [4], [3, 3, -3, -3]))
    case("floor_divide.out", T(i32, [1], [5]), T(i32, [1], [0]))
    case("floor_divide.out", T(f16, [2], [5., -5.]), T(f16, [2], [0., 0.]))
    case("floor_divide.Scalar_out", T(i64, [4], [5, -5, 7, -7]), 2)
    case("floor_divide.Scalar_out", T(f32, [4], [5, -5, 7, -7]), -2.5)
    case("remainder.Tensor_out", T(f32, [5], [5., -5, 5, -5, 0]), T(f32, [5], [3., 3, -3, -3, 0]))
    case("remainder.Tensor_out", T(i32, [4], [5, -5, 5, -5]), T(i32, [4], [3, 3, -3, -3]))
    case("remainder.Tensor_out", T(i32, [1], [5]), T(i32, [1], [0]))
    case("remainder.Scalar_out", T(i64, [4], [5, -5, 7, -7]), 3)
    case("remainder.Scalar_out", T(f32, [4], [5, -5, 7, -7]), -2.5)
    case("remainder.Scalar_Tensor_out", 5, T(i64, [2], [3, -3]))
    case("remainder.Scalar_Tensor_out", 5.5, T(i32, [2], [3, -3]))
    case("fmod.Tensor_out", T(f32, [4], [5., -5, 5, -5]), T(f32, [4], [3., 3, -3, -3]))
    case("fmod.Tensor_out", T(i32, [4], [5, -5, 5, -5]), T(i32, [4], [3, 3, -3, -3]))
    case("fmod.Tensor_out", T(i32, [1], [5]), T(i32, [1], [0]))
    case("fmod.Scalar_out", T(i64, [4], [5, -5, 7, -7]), 3)
    case("fmod.Scalar_out", T(f16, [4], [5, -5, 7, -7]), 2.5)
    case("remainder.Tensor_out", T(b, [2]), T(b, [2]))
    # pow
    for dt in [f32, f64, f16, bf16]:
        case("pow.Tensor_Tensor_out", T(dt, [2, 3], lo=0.1, hi=3), T(dt, [3]))
        case("pow.Tensor_Scalar_out", T(dt, [4]), 2)
        case("pow.Tensor_Scalar_out", T(dt, [4], lo=0, hi=4), 0.5)
    for dt in [i32, i64, u8, i8]:
        case("pow.Tensor_Tensor_out", T(dt, [2, 3], lo=-2, hi=2), T(dt, [3], lo=0, hi=3))
        case("pow.Tensor_Scalar_out", T(dt, [4], lo=-3, hi=3), 3)
    case("pow.Tensor_Tensor_out", T(i64, [4], [2, 1, -1, -1]), T(i64, [4], [-1, -2, -3, -2]))
    case("pow.Tensor_Scalar_out", T(i64, [2]), -1)
    case("pow.Tensor_Scalar_out", T(i32, [2], [2, 3]), 40)
    case("pow.Tensor_Scalar_out", T(i32, [2], [2, 3]), 0.5)
    case("pow.Tensor_Tensor_out", T(f16, [2]), T(f64, [2]))
    case("pow.Scalar_out", 2, T(i64, [3], [0, 2, 3]))
    case("pow.Scalar_out", 2.5, T(i64, [3], [0, 2, 3]))
    case("pow.Scalar_out", 2, T(f32, [3], [0.5, 2, -1]))
    case("pow.Tensor_Tensor_out", T(b, [2]), T(b, [2]))
    # maximum/minimum NaN and mixed
    nan = float("nan")
    case("maximum.out", T(f32, [3], [1., nan, 2.]), T(f32, [3], [nan, 2., 1.]))
    case("minimum.out", T(f32, [3], [1., nan, 2.]), T(f32, [3], [nan, 2., 1.]))
    case("minimum.out", T(u8, [2], [1, 5]), T(i8, [2], [-1, 7]))
    case("maximum.out", T(i32, [2]), T(f16, [2]))
    # atan2
    for dt in [f32, f64, f16, i32, b]:
        case("atan2.out", T(dt, [2, 3]), T(dt, [3]))
    case("atan2.out", T(f16, [2]), T(i64, [2]))
    # bitwise / logical
    for dt in [i32, i64, u8, i8, i16, b]:
        case("bitwise_and.Tensor_out", T(dt, [2, 3]), T(dt, [3]))
        case("bitwise_or.Tensor_out", T(dt, [2, 3]), T(dt, [3]))
        case("bitwise_xor.Tensor_out", T(dt, [2, 3]), T(dt, [3]))
    case("bitwise_or.Tensor_out", T(u8, [2], [1, 4]), T(i8, [2], [2, -1]))
    case("bitwise_and.Scalar_out", T(i64, [3], [3, 5, 6]), 6)
    case("bitwise_or.Scalar_out", T(u8, [3], [1, 2, 4]), 256)
    case("bitwise_xor.Scalar_out", T(b, [3]), True)
    case("bitwise_and.Scalar_out", T(b, [2], [True, False]), 1)
    case("bitwise_and.Tensor_out", T(f32, [2]), T(f32, [2]))
    case("bitwise_and.Scalar_out", T(i32, [2]), 2.0)
    for name in ["logical_and.out", "logical_or.out", "logical_xor.out"]:
        case(name, T(b, [2, 3]), T(b, [3]))
        case(name, T(f32, [4], [1., 0., nan, 0.]), T(i32, [4], [2, 2, 0, 0]))
        case(name, T(i8, [3]), T(b, [3]), out_dtype=f32)


def compare_cases():
    nan = float("nan")
    for name in ["eq", "ne", "lt", "le", "gt", "ge"]:
        for dt in [f32, i32, f16, bf16, f64, i64, u8, i8, i16, b]:
            case(f"{name}.Tensor_out", T(dt, [2, 3], lo=-1, hi=1), T(dt, [3], lo=-1, hi=1))
        case(f"{name}.Tensor_out", T(f32, [4], [1., nan, 2., -0.]), T(f32, [4], [1., nan, nan, 0.]))
        case(f"{name}.Tensor_out", T(i32, [3], [1, 2, 3]), T(f32, [3], [1.5, 2., 2.5]))
        case(f"{name}.Tensor_out", T(f16, [3], [1, 2, 3]), T(f32, [], [2.]))
        case(f"{name}.Tensor_out", T(b, [2], [True, False]), T(f32, [2], [1., 1.]))
        case(f"{name}.Scalar_out", T(f32, [4], [1., nan, 2., 3.]), 2)
        case(f"{name}.Scalar_out", T(i32, [3], [1, 2, 3]), 1.5)
        case(f"{name}.Scalar_out", T(i64, [3], [1, 2, 3]), 2)
        case(f"{name}.Scalar_out", T(u8, [2], [1, 255]), -1)
        case(f"{name}.Scalar_out", T(b, [2], [True, False]), True)
        case(f"{name}.Scalar_out", T(bf16, [3], [0.5, 1, 2]), 1.0)
        case(f"{name}.Scalar_out", T(i32, [3], [1, 2, 3]), 2, out_dtype=f32)


def unary_cases():
    nan, inf = float("nan"), float("inf")
    special = [0., -0., 1., -1., 0.5, nan, inf, -inf]
    float_ops = ["exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "reciprocal", "sin",
                 "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
                 "atanh", "erf", "sigmoid"]
    for name in float_ops:
        for dt in [f32, f64, f16, bf16]:
            case(f"{name}.out", T(dt, [2, 3], lo=-2, hi=2))
        case(f"{name}.out", T(f32, [8], special))
        case(f"{name}.out", T(i32, [4], [-2, 0, 1, 3]))
        case(f"{name}.out", T(b, [2], [True, False]))
        case(f"{name}.out", T(f32, [2], [0.25, 0.75]), out_dtype=f64)
    for name in ["neg", "abs", "sign", "floor", "ceil", "round", "trunc"]:
        for dt in REALS + [b]:
            case(f"{name}.out", T(dt, [2, 3]))
        case(f"{name}.out", T(f32, [8], special))
    case("round.out", T(f32, [6], [0.5, 1.5, 2.5, -0.5, -2.5, 2.4999]))
    case("abs.out", T(i64, [1], [-2**63]))
    case("neg.out", T(i8, [2], [-128, 127]))
    case("abs.out", T(i8, [2], [-128, 127]))
    case("neg.out", T(i32, [2]), out_dtype=f32)
    case("neg.out", T(f32, [2]), out_dtype=i32)
    for dt in [f32, f64, f16, bf16]:
        case("round.decimals_out", T(dt, [4], [1.2345, 125., -2.675, 0.5]), 2)
        case("round.decimals_out", T(dt, [4], [1.2345, 125., -2.675, 15.]), -1)
    case("round.decimals_out", T(i32, [2]), 1)
    for dt in INTS + [b, f32]:
        case("bitwise_not.out", T(dt, [2, 3]))
    for dt in REALS + [b]:
        case("logical_not.out", T(dt, [2, 3]))
        case("isnan.out", T(dt, [2, 3]))
        case("isinf.out", T(dt, [2, 3]))
    case("logical_not.out", T(f32, [8], special))
    case("isnan.out", T(f32, [8], special))
    case("isinf.out", T(f32, [8], special))
    case("logical_not.out", T(f32, [3], [0., 1., nan]), out_dtype=f32)


def activation_cases():
    nan, inf = float("nan"), float("inf")
    special = [0., -0., 1., -1., 0.5, nan, inf, -inf]
    for dt in REALS + [b]:
        case("relu.out", T(dt, [2, 3]))
        case("hardtanh.out", T(dt, [2, 3]), -1, 1)
    case("relu.out", T(f32, [8], special))
    case("hardtanh.out", T(f32, [8], special), -0.5, 2)
    case("hardtanh.out", T(f32, [4], [-5., 1., 5., nan]), 0, 6)
    case("hardtanh.out", T(i8, [3], [-5, 0, 5]), -2, 2)
    case("hardtanh.out", T(i8, [3], [-5, 0, 5]), -1, 300)
    case("hardtanh.out", T(f16, [3], [-5, 0, 5]), -1, 70000.)
    for dt in REALS:
        case("clamp.out", T(dt, [2, 3]), -1, 2)
        case("clamp.out", T(dt, [2, 3]), None, 1)
        case("clamp.out", T(dt, [2, 3]), 0, None)
    case("clamp.out", T(f32, [8], special), -0.5, 0.5)
    case("clamp.out", T(f32, [3], [-5., nan, 5]), nan, 2.)
    case("clamp.out", T(f32, [3], [-5., 1, 5]), 3, 2)
    case("clamp.out", T(i64, [3], [-5, 1, 5]), 0.5, 2)
    case("clamp.out", T(u8, [2], [1, 5]), -1, 300)
    case("clamp.out", T(f32, [2]), None, None)
    case("clamp.out", T(b, [2]), 0, 1)
    for dt in [f32, i32, f16, i64]:
        case("clamp.Tensor_out", T(dt, [2, 3]), T(dt, [3], lo=-2, hi=0), T(dt, [2, 1], lo=0, hi=2))
        case("clamp.Tensor_out", T(dt, [2, 3]), T(dt, [3], lo=-1, hi=0), None)
        case("clamp.Tensor_out", T(dt, [2, 3]), None, T(dt, [1], lo=0, hi=1))
    case("clamp.Tensor_out", T(f32, [2]), T(f32, [2], [nan, 0.]), None)
    case("clamp.Tensor_out", T(i64, [3], [-5, 1, 5]), T(f32, [], [0.5]), None)
    case("clamp.Tensor_out", T(f32, [2]), None, None)
    for dt in FLOATS:
        for approx in ["none", "tanh"]:
            case("gelu.out", T(dt, [2, 3], lo=-4, hi=4), approx)
        case("leaky_relu.out", T(dt, [2, 3]), 0.01)
        case("elu.out", T(dt, [2, 3]), 1, 1, 1)
        case("hardsigmoid.out", T(dt, [2, 4], lo=-5, hi=5))
        case("hardswish.out", T(dt, [2, 4], lo=-5, hi=5))
        case("glu.out", T(dt, [2, 4]), -1)
    case("gelu.out", T(f32, [8], special), "none")
    case("gelu.out", T(f32, [8], special), "tanh")
    case("gelu.out", T(f32, [2]), "bad")
    case("gelu.out", T(i32, [2]), "none")
    case("leaky_relu.out", T(f32, [8], special), 2)
    case("elu.out", T(f32, [8], special), 1.5, 2.0, 3.0)
    case("hardsigmoid.out", T(f32, [8], special))
    case("hardswish.out", T(f32, [8], special))
    case("leaky_relu.out", T(i32, [2]), 0.01)
    case("hardswish.out", T(i32, [2]))
    case("glu.out", T(f32, [4, 2, 3]), 0)
    case("glu.out", T(f32, [4, 2, 3]), 1)
    case("glu.out", T(f32, [4, 2, 3]), -2)
    case("glu.out", T(f32, [4, 2, 3]), 2)
    case("glu.out", T(f32, [4, 2, 3]), 3)
    case("glu.out", T(i32, [2, 4]), 1)


def fill_cases():
    nan = float("nan")
    for dt in [f32, i32, f16, bf16, f64, i64, u8, b]:
        case("where.self_out", T(b, [2, 3]), T(dt, [2, 3]), T(dt, [3]))
    case("where.self_out", T(b, [2, 1]), T(f32, [3]), T(f32, []))
    case("where.self_out", T(b, [2]), T(i32, [2]), T(f32, [], [0.5]))
    case("where.self_out", T(b, [2]), T(f16, [2]), T(f64, [], [0.5]))
    case("where.self_out", T(b, [2]), T(i64, [2]), T(b, [2]))
    case("where.self_out", T(b, [2]), T(i32, [2]), T(f32, [2]))
    case("where.self_out", T(b, []), T(f32, []), T(f32, []))
    case("where.self_out", T(b, [2]), T(f32, [3]), T(f32, [3]))
    for dt in [f32, i32, f16, bf16, i64, u8, b]:
        case("masked_fill.Scalar_out", T(dt, [2, 3]), T(b, [3]), 1)
    case("masked_fill.Scalar_out", T(f32, [2]), T(b, [2, 1]), 0.5)
    case("masked_fill.Scalar_out", T(i64, [2]), T(b, [2], [True, False]), 2.5)
    case("masked_fill.Scalar_out", T(f32, [2]), T(b, [2], [True, False]), float("-inf"))
    case("masked_fill.Scalar_out", T(i8, [2]), T(b, [2], [True, False]), 1000)
    case("masked_fill.Scalar_out", T(f32, [2]), T(u8, [2], [1, 0]), 1.0)
    for dt in [f32, i32, f16, bf16, f64, i64, u8, i8, i16, b]:
        case("full.out", [2, 3], 3, out_dtype=dt)
        case("fill.Scalar_out", T(dt, [2, 2]), 1)
        case("full_like.out", T(f32, [3]), 2, None, out_dtype=dt)
    case("full.out", [2], 2.7, out_dtype=i32)
    case("full.out", [2], -1, out_dtype=u8)
    case("full.out", [2], 300, out_dtype=u8)
    case("full.out", [2], nan, out_dtype=i32)
    case("full.out", [2], nan, out_dtype=f32)
    case("full.out", [2], 70000., out_dtype=f16)
    case("full.out", [2], 1e40, out_dtype=f32)
    case("full.out", [2], float("inf"), out_dtype=f16)
    case("full.out", [2], True, out_dtype=f32)
    case("full.out", [], 1.5, out_dtype=f32)
    case("full.out", [0, 2], 1.5, out_dtype=f32)
    case("fill.Scalar_out", T(b, [2]), 5)
    case("fill.Scalar_out", T(i32, [2]), 2.5)
    case("fill.Tensor_out", T(i32, [2]), T(f32, [], [2.5]))
    case("fill.Tensor_out", T(f32, [2, 2]), T(i64, [], [7]))
    case("fill.Tensor_out", T(f32, [2]), T(b, [], [True]))
    case("fill.Tensor_out", T(f32, [2]), T(f32, [1], [1.]))
    case("full_like.out", T(f32, [2, 3]), 1.5, 0, out_dtype=f16)
    case("full_like.out", T(i32, [2, 3]), 1.5, 1)
    for dt in [f32, i64, b, f16]:
        case("scalar_tensor.out", 2.5, out_dtype=dt)
        case("zeros.out", [2, 3], out_dtype=dt)
        case("ones.out", [3], out_dtype=dt)
    case("scalar_tensor.out", True, out_dtype=f32)


def main():
    section = sys.argv[1]
    {"binary": binary_cases, "compare": compare_cases, "unary": unary_cases,
     "activation": activation_cases, "fill": fill_cases}[section]()
    print("\n".join(out_lines))


main()
