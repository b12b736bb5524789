"""Elementwise, reduction and shape-transform operators (Relay's top-level ops).

Keyword names and defaults are Relay's (``python/tvm/relay/op/tensor.py``,
``transform.py``, ``reduce.py``). Each function only builds a ``Call``;
attributes are passed through by name and converted by generic rules in
``relay_mlir.emit``.

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(2, 3))
    >>> relay.sum(relay.exp(x), axis=1, keepdims=True).attrs
    {'axis': [1], 'keepdims': True, 'exclude': False}
"""
from __future__ import annotations

from typing import Optional, Sequence, Union

import numpy as np

from ..annotation import device_copy  # TVM 0.19's relay.op.device_copy (relay.op.tensor)
from ..expr import Call, Constant, Expr, Tuple
from ..ty import canonical_dtype
from . import dyn as _dyn
from ._make import IntList, _bool, _call, _float, _int, _ints

__all__ = [
    "add", "subtract", "multiply", "divide", "maximum", "minimum",
    "negative", "exp", "log", "sqrt", "tanh", "sigmoid",
    "reshape", "transpose", "concatenate", "sum", "mean",
]
__all__ += ["device_copy"]
# elementwise
__all__ += [
    "abs", "ceil", "floor", "round", "trunc", "sign", "log2", "log10", "rsqrt",
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "acosh", "asinh", "atanh", "erf",
    "fast_exp", "fast_tanh", "fast_erf", "logical_not", "bitwise_not",
    "isnan", "isinf", "isfinite", "copy", "clip", "cast", "cast_like",
    "floor_divide", "trunc_divide", "mod", "trunc_mod", "floor_mod", "power",
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "logical_and", "logical_or", "logical_xor",
    "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift",
    "where",
]

# -- binary, broadcasting ---------------------------------------------------
def add(lhs: Expr, rhs: Expr) -> Call:
    """Elementwise ``lhs + rhs`` with numpy broadcasting.

    >>> import relay_mlir as relay
    >>> relay.add(relay.var("a", shape=(4, 1)), relay.var("b", shape=(3,))).op.name
    'add'
    """
    return _call("add", [lhs, rhs])


def subtract(lhs: Expr, rhs: Expr) -> Call:
    """Elementwise ``lhs - rhs`` with broadcasting (``relay.subtract``)."""
    return _call("subtract", [lhs, rhs])


def multiply(lhs: Expr, rhs: Expr) -> Call:
    """Elementwise ``lhs * rhs`` with broadcasting (``relay.multiply``)."""
    return _call("multiply", [lhs, rhs])


def divide(lhs: Expr, rhs: Expr) -> Call:
    """Elementwise ``lhs / rhs`` with broadcasting (``relay.divide``)."""
    return _call("divide", [lhs, rhs])


def maximum(lhs: Expr, rhs: Expr) -> Call:
    """Elementwise maximum with broadcasting (``relay.maximum``)."""
    return _call("maximum", [lhs, rhs])


def minimum(lhs: Expr, rhs: Expr) -> Call:
    """Elementwise minimum with broadcasting (``relay.minimum``)."""
    return _call("minimum", [lhs, rhs])


# -- unary -----------------------------------------------------------------
def negative(data: Expr) -> Call:
    """``-data`` (``relay.negative``).

    >>> import relay_mlir as relay
    >>> relay.negative(relay.var("x", shape=(2,))).op.name
    'negative'
    """
    return _call("negative", [data])


def exp(data: Expr) -> Call:
    """``e ** data`` (``relay.exp``)."""
    return _call("exp", [data])


def log(data: Expr) -> Call:
    """Natural logarithm (``relay.log``)."""
    return _call("log", [data])


def sqrt(data: Expr) -> Call:
    """Square root (``relay.sqrt``)."""
    return _call("sqrt", [data])


def tanh(data: Expr) -> Call:
    """Hyperbolic tangent (``relay.tanh``)."""
    return _call("tanh", [data])


def sigmoid(data: Expr) -> Call:
    """``1 / (1 + e ** -data)`` (``relay.sigmoid``)."""
    return _call("sigmoid", [data])


# -- elementwise: more unary ---------------------------------------------------
# Dtype rules (checked by the type relations): math functions on floats;
# abs/sign/rounding/clip on floats or integers (rounding is the identity on
# integers); logical_* on bool; bitwise_* on integers or bool; shifts on
# integers; comparisons on any dtype, with a bool result.
def _unary(name: str, doc: str):
    def fn(data: Expr) -> Call:
        return _call(name, [data])
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{doc} (``relay.{name}``)."
    return fn


abs = _unary("abs", "Elementwise absolute value ``|data|``")  # noqa: A001
ceil = _unary("ceil", "Elementwise ceiling (identity on integers)")
floor = _unary("floor", "Elementwise floor (identity on integers)")
round = _unary("round", "Elementwise round half away from zero, as TVM (identity on integers)")  # noqa: A001
trunc = _unary("trunc", "Elementwise round towards zero (identity on integers)")
sign = _unary("sign", "Elementwise sign: -1, 0 or 1")
log2 = _unary("log2", "Elementwise base-2 logarithm")
log10 = _unary("log10", "Elementwise base-10 logarithm")
rsqrt = _unary("rsqrt", "Elementwise ``1 / sqrt(data)``")
sin = _unary("sin", "Elementwise sine")
cos = _unary("cos", "Elementwise cosine")
tan = _unary("tan", "Elementwise tangent")
asin = _unary("asin", "Elementwise arc sine")
acos = _unary("acos", "Elementwise arc cosine")
atan = _unary("atan", "Elementwise arc tangent")
sinh = _unary("sinh", "Elementwise hyperbolic sine")
cosh = _unary("cosh", "Elementwise hyperbolic cosine")
acosh = _unary("acosh", "Elementwise inverse hyperbolic cosine (NaN below 1)")
asinh = _unary("asinh", "Elementwise inverse hyperbolic sine")
atanh = _unary("atanh", "Elementwise inverse hyperbolic tangent (+-inf at +-1)")
erf = _unary("erf", "Elementwise Gauss error function")
logical_not = _unary("logical_not", "Elementwise ``not data`` on bool tensors")
bitwise_not = _unary("bitwise_not", "Elementwise ``~data`` on integer or bool tensors")
isnan = _unary("isnan", "Elementwise NaN test of a float tensor (bool result)")
isinf = _unary("isinf", "Elementwise infinity test of a float tensor (bool result)")
isfinite = _unary("isfinite", "Elementwise finiteness test of a float tensor (bool result)")
copy = _unary("copy", "A copy of ``data``")


def fast_exp(x: Expr) -> Call:
    """``e ** x`` allowing a fast approximation (``relay.fast_exp``)."""
    return _call("fast_exp", [x])


def fast_tanh(x: Expr) -> Call:
    """``tanh(x)`` allowing a fast approximation (``relay.fast_tanh``)."""
    return _call("fast_tanh", [x])


def fast_erf(x: Expr) -> Call:
    """``erf(x)`` allowing a fast approximation (``relay.fast_erf``)."""
    return _call("fast_erf", [x])


def clip(a: Expr, a_min: float, a_max: float) -> Call:
    """Clamps ``a`` to ``[a_min, a_max]``: ``max(min(a, a_max), a_min)`` (``relay.clip``).

    On integer tensors the bounds are truncated to the dtype.

    >>> import relay_mlir as relay
    >>> relay.clip(relay.var("x", shape=(4,)), 0, 6).attrs
    {'a_min': 0.0, 'a_max': 6.0}
    """
    return _call("clip", [a], a_min=_float("a_min", a_min), a_max=_float("a_max", a_max))


def cast(data: Expr, dtype: str) -> Call:
    """Converts ``data`` to ``dtype`` (``relay.cast``).

    Float to integer truncates towards zero; any dtype to ``bool`` is ``!= 0``.

    >>> import relay_mlir as relay
    >>> relay.cast(relay.var("x", shape=(4,)), "int32").attrs
    {'dtype': 'int32'}
    """
    if not isinstance(dtype, str):
        dtype = np.dtype(dtype).name
    return _call("cast", [data], dtype=canonical_dtype(dtype))  # (TVM's "e4m3_float8" too)


def cast_like(data: Expr, dtype_like: Expr) -> Call:
    """Converts ``data`` to the dtype of ``dtype_like`` (``relay.cast_like``)."""
    return _call("cast_like", [data, dtype_like])


# -- fixed point (TVM 0.19's relay.fixed_point_multiply; relay.quantize's realize) --
__all__ += ["fixed_point_multiply", "fixed_point_multiply_per_axis"]


def fixed_point_multiply(data: Expr, multiplier: int, shift: int) -> Call:
    """``data * multiplier * 2^(shift - 31)`` in fixed point (``relay.fixed_point_multiply``).

    TVM 0.19's ``q_multiply_shift``: int32 (or int64) ``data``; in int64
    ``((data << max(shift, 0)) * multiplier + 2^(30 + max(-shift, 0))) >> (31 + max(-shift, 0))``
    (rounding half up), truncated to int32. ``multiplier`` is a Q31 mantissa (int32).

    >>> import relay_mlir as relay
    >>> relay.fixed_point_multiply(relay.var("x", shape=(4,), dtype="int32"), 1 << 30, -1).attrs
    {'multiplier': 1073741824, 'shift': -1}
    """
    return _call("fixed_point_multiply", [data], multiplier=_int("multiplier", multiplier),
                 shift=_int("shift", shift))


def fixed_point_multiply_per_axis(x: Expr, y: Expr, lshift: Expr, rshift: Expr,
                                  is_lshift_required: bool, is_rshift_required: bool,
                                  axes: IntList) -> Call:
    """``fixed_point_multiply`` with an int32 multiplier ``y`` and shifts ``lshift`` /
    ``rshift`` per index along ``axes`` (TVM 0.19's
    ``relay.op._make.fixed_point_multiply_per_axis``: TVM has no other builder).

    ``x << lshift`` only if ``is_lshift_required``; ``is_rshift_required`` does not change
    the result (as in TVM's LLVM code).
    """
    return _call("fixed_point_multiply_per_axis", [x, y, lshift, rshift],
                 is_lshift_required=_bool("is_lshift_required", is_lshift_required),
                 is_rshift_required=_bool("is_rshift_required", is_rshift_required),
                 axes=_ints(axes, "axes") or [])


# -- elementwise: more binary, broadcasting -------------------------------------
def _binary(name: str, doc: str):
    def fn(lhs: Expr, rhs: Expr) -> Call:
        return _call(name, [lhs, rhs])
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{doc} with numpy broadcasting (``relay.{name}``)."
    return fn


floor_divide = _binary("floor_divide", "Elementwise ``floor(lhs / rhs)``")
trunc_divide = _binary("trunc_divide", "Elementwise ``trunc(lhs / rhs)`` (C's integer division)")
mod = _binary("mod", "Elementwise remainder of truncated division (sign of ``lhs``)")
trunc_mod = _binary("trunc_mod", "Elementwise remainder of truncated division (sign of ``lhs``; C's ``%``, "
                    "``fmod``)")
floor_mod = _binary("floor_mod", "Elementwise remainder of floor division (sign of ``rhs``)")
power = _binary("power", "Elementwise ``lhs ** rhs`` on floats")
equal = _binary("equal", "Elementwise ``lhs == rhs`` (bool result)")
not_equal = _binary("not_equal", "Elementwise ``lhs != rhs`` (bool result)")
less = _binary("less", "Elementwise ``lhs < rhs`` (bool result)")
less_equal = _binary("less_equal", "Elementwise ``lhs <= rhs`` (bool result)")
greater = _binary("greater", "Elementwise ``lhs > rhs`` (bool result)")
greater_equal = _binary("greater_equal", "Elementwise ``lhs >= rhs`` (bool result)")
logical_and = _binary("logical_and", "Elementwise ``lhs and rhs`` on bool tensors")
logical_or = _binary("logical_or", "Elementwise ``lhs or rhs`` on bool tensors")
logical_xor = _binary("logical_xor", "Elementwise ``lhs xor rhs`` on bool tensors")
bitwise_and = _binary("bitwise_and", "Elementwise ``lhs & rhs`` on integer or bool tensors")
bitwise_or = _binary("bitwise_or", "Elementwise ``lhs | rhs`` on integer or bool tensors")
bitwise_xor = _binary("bitwise_xor", "Elementwise ``lhs ^ rhs`` on integer or bool tensors")
left_shift = _binary("left_shift", "Elementwise ``lhs << rhs`` on integers")
right_shift = _binary("right_shift", "Elementwise ``lhs >> rhs`` on integers (arithmetic if signed)")


def where(condition: Expr, x: Expr, y: Expr) -> Call:
    """``x`` where ``condition`` is non-zero, else ``y`` (``relay.where``).

    The three operands broadcast together; ``x`` and ``y`` share a dtype.

    >>> import relay_mlir as relay
    >>> c = relay.var("c", shape=(4, 1), dtype="bool")
    >>> relay.where(c, relay.var("x", shape=(3,)), relay.var("y", shape=())).op.name
    'where'
    """
    return _call("where", [condition, x, y])


# -- transforms ------------------------------------------------------------
def reshape(data: Expr, newshape: IntList, allowzero: bool = False) -> Call:
    """``relay.reshape(data, newshape, allowzero=False)`` with Relay's codes 0, -1, -2, -3, -4;
    an expression ``newshape`` (a 1-d integer tensor) gives ``dyn.reshape``.

    >>> import relay_mlir as relay
    >>> relay.reshape(relay.var("x", shape=(2, 3, 4)), (0, -1)).attrs
    {'newshape': [0, -1], 'allowzero': False}
    """
    if isinstance(newshape, Constant):  # as TVM: a constant shape is the static operator
        newshape = newshape.data.reshape(-1).tolist()
    if isinstance(newshape, Expr):  # a shape computed at run time
        return _dyn.reshape(data, newshape, allowzero)
    return _call("reshape", [data], newshape=_ints(newshape, "newshape"),
                 allowzero=_bool("allowzero", allowzero))


def transpose(data: Expr, axes: Optional[Sequence[int]] = None) -> Call:
    """Permutes dims (``relay.transpose``); ``axes=None`` reverses them.

    >>> import relay_mlir as relay
    >>> relay.transpose(relay.var("x", shape=(2, 3)), (1, 0)).attrs
    {'axes': [1, 0]}
    """
    return _call("transpose", [data], axes=_ints(axes, "axes"))


def concatenate(data: Union[Sequence[Expr], Tuple], axis: int = 0) -> Call:
    """Joins a tuple/list of tensors along ``axis`` (``relay.concatenate``).

    >>> import relay_mlir as relay
    >>> a, b = relay.var("a", shape=(1, 2)), relay.var("b", shape=(1, 3))
    >>> len(relay.concatenate((a, b), axis=1).args)
    2
    """
    if isinstance(data, Tuple):
        fields = data.fields
    elif isinstance(data, (list, tuple)):
        fields = list(data)
    else:
        raise TypeError("concatenate takes a relay_mlir.Tuple or a list/tuple of expressions")
    if not fields:
        raise ValueError("relay.concatenate requires data to be non-empty.")
    return _call("concatenate", fields, axis=_int("axis", axis))


# -- reductions ------------------------------------------------------------
def sum(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,  # noqa: A001
        exclude: bool = False) -> Call:
    """Sum over ``axis`` (all axes when None), ``relay.sum``.

    >>> import relay_mlir as relay
    >>> relay.sum(relay.var("x", shape=(2, 3))).attrs
    {'axis': None, 'keepdims': False, 'exclude': False}
    """
    return _call("sum", [data], axis=_ints(axis, "axis"), keepdims=_bool("keepdims", keepdims),
                 exclude=_bool("exclude", exclude))


def mean(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,
         exclude: bool = False) -> Call:
    """Mean over ``axis`` (all axes when None), ``relay.mean``."""
    return _call("mean", [data], axis=_ints(axis, "axis"), keepdims=_bool("keepdims", keepdims),
                 exclude=_bool("exclude", exclude))
