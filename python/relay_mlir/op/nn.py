"""Neural-network operators, ``relay_mlir.nn`` (Relay's ``relay.nn``).

Keyword names and defaults follow ``python/tvm/relay/op/nn/nn.py``.

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(1, 3, 8, 8))
    >>> w = relay.var("w", shape=(4, 3, 3, 3))
    >>> y = relay.nn.conv2d(x, w, padding=(1, 1), channels=4, kernel_size=(3, 3))
    >>> y.attrs["padding"], y.attrs["strides"]
    ([1, 1], [1, 1])
"""
from __future__ import annotations

from typing import Optional, Sequence, Union

import numpy as np

from ..expr import Call, Expr, TupleWrapper
from .tensor import _bool, _call, _int, _ints, _opt_int, _str

__all__ = [
    "relu", "dense", "bias_add", "conv2d", "max_pool2d", "avg_pool2d",
    "global_avg_pool2d", "batch_flatten", "softmax", "batch_norm",
]

Pair = Union[int, Sequence[int]]


def _pair(v: Optional[Pair], name: str) -> Optional[list]:
    if v is None:
        return None
    vals = _ints(v, name)
    return vals * 2 if len(vals) == 1 and not hasattr(v, "__len__") else vals


def _dtype(name: str, v: str) -> str:
    return _str(name, v)


def relu(data: Expr) -> Call:
    """``max(data, 0)`` (``relay.nn.relu``).

    >>> import relay_mlir as relay
    >>> relay.nn.relu(relay.var("x", shape=(4,))).op.name
    'nn.relu'
    """
    return _call("nn.relu", [data])


def dense(data: Expr, weight: Expr, units: Optional[int] = None, out_dtype: str = "") -> Call:
    """``data · weightᵀ`` (``relay.nn.dense``); weight is ``[units, k]``.

    >>> import relay_mlir as relay
    >>> relay.nn.dense(relay.var("x", shape=(1, 8)), relay.var("w", shape=(4, 8)), units=4).attrs
    {'units': 4, 'out_dtype': ''}
    """
    return _call("nn.dense", [data, weight], units=_opt_int("units", units),
                 out_dtype=_dtype("out_dtype", out_dtype))


def bias_add(data: Expr, bias: Expr, axis: int = 1) -> Call:
    """Adds a 1-D ``bias`` along ``axis`` (``relay.nn.bias_add``)."""
    return _call("nn.bias_add", [data, bias], axis=_int("axis", axis))


def conv2d(data: Expr, weight: Expr, strides: Pair = (1, 1), padding: Pair = (0, 0),
           dilation: Pair = (1, 1), groups: int = 1, channels: Optional[int] = None,
           kernel_size: Optional[Pair] = None, data_layout: str = "NCHW",
           kernel_layout: str = "OIHW", out_layout: str = "", out_dtype: str = "") -> Call:
    """2-D convolution (``relay.nn.conv2d``).

    ``padding`` has 1, 2 or 4 entries (``[top, left, bottom, right]``).
    Layouts ``NCHW``/``OIHW`` or ``NHWC``/``HWIO``.

    >>> import relay_mlir as relay
    >>> c = relay.nn.conv2d(relay.var("x", shape=(1, 3, 8, 8)), relay.var("w", shape=(4, 3, 3, 3)), strides=2)
    >>> c.attrs["strides"]
    [2, 2]
    """
    return _call("nn.conv2d", [data, weight], strides=_pair(strides, "strides"),
                 padding=_pair(padding, "padding"), dilation=_pair(dilation, "dilation"),
                 groups=_int("groups", groups), channels=_opt_int("channels", channels),
                 kernel_size=_pair(kernel_size, "kernel_size"),
                 data_layout=_str("data_layout", data_layout),
                 kernel_layout=_str("kernel_layout", kernel_layout),
                 out_layout=_str("out_layout", out_layout), out_dtype=_dtype("out_dtype", out_dtype))


def max_pool2d(data: Expr, pool_size: Pair = (1, 1), strides: Pair = (1, 1),
               dilation: Pair = (1, 1), padding: Pair = (0, 0), layout: str = "NCHW",
               out_layout: str = "", ceil_mode: bool = False) -> Call:
    """2-D max pooling (``relay.nn.max_pool2d``); padded cells never win.

    >>> import relay_mlir as relay
    >>> relay.nn.max_pool2d(relay.var("x", shape=(1, 2, 4, 4)), pool_size=2, strides=2).attrs["pool_size"]
    [2, 2]
    """
    return _call("nn.max_pool2d", [data], pool_size=_pair(pool_size, "pool_size"),
                 strides=_pair(strides, "strides"), dilation=_pair(dilation, "dilation"),
                 padding=_pair(padding, "padding"), layout=_str("layout", layout),
                 out_layout=_str("out_layout", out_layout), ceil_mode=_bool("ceil_mode", ceil_mode))


def avg_pool2d(data: Expr, pool_size: Pair = (1, 1), strides: Pair = (1, 1),
               dilation: Pair = (1, 1), padding: Pair = (0, 0), layout: str = "NCHW",
               out_layout: str = "", ceil_mode: bool = False,
               count_include_pad: bool = False) -> Call:
    """2-D average pooling (``relay.nn.avg_pool2d``).

    With ``count_include_pad=False`` (Relay's default) padded cells are not
    counted in the divisor.
    """
    return _call("nn.avg_pool2d", [data], pool_size=_pair(pool_size, "pool_size"),
                 strides=_pair(strides, "strides"), dilation=_pair(dilation, "dilation"),
                 padding=_pair(padding, "padding"), layout=_str("layout", layout),
                 out_layout=_str("out_layout", out_layout), ceil_mode=_bool("ceil_mode", ceil_mode),
                 count_include_pad=_bool("count_include_pad", count_include_pad))


def global_avg_pool2d(data: Expr, layout: str = "NCHW", out_layout: str = "") -> Call:
    """Mean over the spatial dims, kept as size 1 (``relay.nn.global_avg_pool2d``)."""
    return _call("nn.global_avg_pool2d", [data], layout=_str("layout", layout),
                 out_layout=_str("out_layout", out_layout))


def batch_flatten(data: Expr) -> Call:
    """Flattens all dims but the first (``relay.nn.batch_flatten``)."""
    return _call("nn.batch_flatten", [data])


def softmax(data: Expr, axis: int = -1) -> Call:
    """Softmax along ``axis`` (``relay.nn.softmax``)."""
    return _call("nn.softmax", [data], axis=_int("axis", axis))


def batch_norm(data: Expr, gamma: Expr, beta: Expr, moving_mean: Expr, moving_var: Expr,
               axis: int = 1, epsilon: float = 1e-5, center: bool = True,
               scale: bool = True) -> TupleWrapper:
    """Inference-mode batch normalisation (``relay.nn.batch_norm``).

    Returns a ``TupleWrapper`` of ``(normalized, moving_mean, moving_var)``;
    use ``bn[0]`` as in Relay.

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(1, 4, 2, 2))
    >>> g, b, m, v = (relay.var(n, shape=(4,)) for n in "gbmv")
    >>> len(relay.nn.batch_norm(x, g, b, m, v))
    3
    """
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float, np.floating, np.integer)):
        raise TypeError(f"'epsilon' must be a float, got {epsilon!r}")
    call = _call("nn.batch_norm", [data, gamma, beta, moving_mean, moving_var], axis=_int("axis", axis),
                 epsilon=float(epsilon), center=_bool("center", center), scale=_bool("scale", scale))
    return TupleWrapper(call, 3)
