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

import re
from typing import Optional, Sequence, Union

import numpy as np

from ..expr import Call, Constant, Expr, TupleWrapper, const
from . import dyn as _dyn
from ._make import _bool, _call, _int, _ints, _opt_int, _str

__all__ = [
    "relu", "dense", "bias_add", "conv2d", "max_pool2d", "avg_pool2d",
    "global_avg_pool2d", "batch_flatten", "softmax", "batch_norm",
    "matmul", "batch_matmul", "conv1d", "conv3d", "conv2d_transpose", "conv1d_transpose",
    "conv3d_transpose",
    "max_pool1d", "avg_pool1d", "max_pool3d", "avg_pool3d", "global_max_pool2d",
    "adaptive_avg_pool2d", "adaptive_max_pool2d", "layer_norm", "group_norm",
    "adaptive_avg_pool1d", "adaptive_max_pool1d", "adaptive_avg_pool3d", "adaptive_max_pool3d",
    "global_avg_pool1d", "global_max_pool1d", "global_avg_pool3d", "global_max_pool3d",
    "instance_norm", "l2_normalize", "lrn", "log_softmax", "leaky_relu", "prelu",
    "gelu", "dropout", "dropout_raw", "pad", "upsampling", "depth_to_space",
    "space_to_depth", "mirror_pad", "upsampling3d",
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


# -- operator library (Relay 0.19 keyword names and defaults) ---------------
def _float(name: str, v: object) -> float:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.floating, np.integer)):
        raise TypeError(f"'{name}' must be a float, got {v!r}")
    return float(v)


def _tuple_n(v: Optional[Pair], name: str, n: int) -> Optional[list]:
    """An int or a sequence of ints; a single int is repeated ``n`` times."""
    if v is None:
        return None
    vals = _ints(v, name)
    return vals * n if len(vals) == 1 and not hasattr(v, "__len__") else vals


def matmul(tensor_a: Expr, tensor_b: Expr, units: Optional[int] = None, out_dtype: str = "",
           transpose_a: bool = False, transpose_b: bool = False) -> Call:
    """``tensor_a · tensor_b`` with optional transposes (``relay.nn.matmul``).

    ``tensor_a`` is ``[d..., k]`` (``[d..., k, m]`` if ``transpose_a``);
    ``tensor_b`` is ``[k, units]`` (``[units, k]`` if ``transpose_b``).

    >>> import relay_mlir as relay
    >>> relay.nn.matmul(relay.var("a", shape=(2, 8)), relay.var("b", shape=(8, 4))).attrs["transpose_b"]
    False
    """
    return _call("nn.matmul", [tensor_a, tensor_b], units=_opt_int("units", units),
                 out_dtype=_dtype("out_dtype", out_dtype), transpose_a=_bool("transpose_a", transpose_a),
                 transpose_b=_bool("transpose_b", transpose_b))


def batch_matmul(tensor_a: Expr, tensor_b: Expr, out_dtype: str = "", transpose_a: bool = False,
                 transpose_b: bool = True) -> Call:
    """Batched ``x · yᵀ`` (``relay.nn.batch_matmul``); ``x`` is ``[b, m, k]``,
    ``y`` is ``[b, n, k]`` by default (``transpose_b=True``); a batch of 1
    broadcasts.

    >>> import relay_mlir as relay
    >>> relay.nn.batch_matmul(relay.var("x", shape=(2, 3, 4)), relay.var("y", shape=(2, 5, 4))).op.name
    'nn.batch_matmul'
    """
    return _call("nn.batch_matmul", [tensor_a, tensor_b], out_dtype=_dtype("out_dtype", out_dtype),
                 transpose_a=_bool("transpose_a", transpose_a), transpose_b=_bool("transpose_b", transpose_b))


def _conv_nd(name: str, n: int, data, weight, strides, padding, dilation, groups, channels,
             kernel_size, data_layout, kernel_layout, out_layout, out_dtype, **extra) -> Call:
    return _call(name, [data, weight], strides=_tuple_n(strides, "strides", n),
                 padding=_tuple_n(padding, "padding", n), dilation=_tuple_n(dilation, "dilation", n),
                 groups=_int("groups", groups), channels=_opt_int("channels", channels),
                 kernel_size=_tuple_n(kernel_size, "kernel_size", n),
                 data_layout=_str("data_layout", data_layout),
                 kernel_layout=_str("kernel_layout", kernel_layout),
                 out_layout=_str("out_layout", out_layout), out_dtype=_dtype("out_dtype", out_dtype),
                 **extra)


def conv1d(data: Expr, weight: Expr, strides: Pair = 1, padding: Pair = 0, dilation: Pair = 1,
           groups: int = 1, channels: Optional[int] = None, kernel_size: Optional[Pair] = None,
           data_layout: str = "NCW", kernel_layout: str = "OIW", out_layout: str = "",
           out_dtype: str = "") -> Call:
    """1-D convolution (``relay.nn.conv1d``); ``padding`` is ``p`` or ``(left, right)``.

    Layouts ``NCW``/``OIW`` or ``NWC``/``WIO``.

    >>> import relay_mlir as relay
    >>> relay.nn.conv1d(relay.var("x", shape=(1, 3, 8)), relay.var("w", shape=(4, 3, 3)), padding=1).attrs["padding"]
    [1]
    """
    return _conv_nd("nn.conv1d", 1, data, weight, strides, padding, dilation, groups, channels,
                    kernel_size, data_layout, kernel_layout, out_layout, out_dtype)


def conv3d(data: Expr, weight: Expr, strides: Pair = (1, 1, 1), padding: Pair = (0, 0, 0),
           dilation: Pair = (1, 1, 1), groups: int = 1, channels: Optional[int] = None,
           kernel_size: Optional[Pair] = None, data_layout: str = "NCDHW",
           kernel_layout: str = "OIDHW", out_layout: str = "", out_dtype: str = "") -> Call:
    """3-D convolution (``relay.nn.conv3d``); ``padding`` has 1, 3 or 6 entries.

    Layouts ``NCDHW``/``OIDHW`` or ``NDHWC``/``DHWIO``.
    """
    return _conv_nd("nn.conv3d", 3, data, weight, strides, padding, dilation, groups, channels,
                    kernel_size, data_layout, kernel_layout, out_layout, out_dtype)


def conv2d_transpose(data: Expr, weight: Expr, strides: Pair = (1, 1), padding: Pair = (0, 0),
                     dilation: Pair = (1, 1), groups: int = 1, channels: Optional[int] = None,
                     kernel_size: Optional[Pair] = None, data_layout: str = "NCHW",
                     kernel_layout: str = "IOHW", out_layout: str = "",
                     output_padding: Pair = (0, 0), out_dtype: str = "") -> Call:
    """2-D transposed convolution (``relay.nn.conv2d_transpose``).

    The weight is ``IOHW``: ``[in_channels, channels // groups, kh, kw]``.

    >>> import relay_mlir as relay
    >>> relay.nn.conv2d_transpose(relay.var("x", shape=(1, 4, 5, 5)), relay.var("w", shape=(4, 2, 3, 3)), strides=2).attrs["kernel_layout"]
    'IOHW'
    """
    return _call("nn.conv2d_transpose", [data, weight], strides=_pair(strides, "strides"),
                 padding=_pair(padding, "padding"), dilation=_pair(dilation, "dilation"),
                 groups=_int("groups", groups), channels=_opt_int("channels", channels),
                 kernel_size=_pair(kernel_size, "kernel_size"),
                 data_layout=_str("data_layout", data_layout),
                 kernel_layout=_str("kernel_layout", kernel_layout),
                 out_layout=_str("out_layout", out_layout),
                 output_padding=_pair(output_padding, "output_padding"),
                 out_dtype=_dtype("out_dtype", out_dtype))


def conv1d_transpose(data: Expr, weight: Expr, strides: Pair = (1,), padding: Pair = (0,),
                     dilation: Pair = (1,), groups: int = 1, channels: Optional[int] = None,
                     kernel_size: Optional[Pair] = None, data_layout: str = "NCW",
                     kernel_layout: str = "IOW", out_layout: str = "",
                     output_padding: Pair = (0,), out_dtype: str = "") -> Call:
    """1-D transposed convolution (``relay.nn.conv1d_transpose``); the weight is ``IOW``:
    ``[in_channels, channels // groups, k]``.

    >>> import relay_mlir as relay
    >>> relay.nn.conv1d_transpose(relay.var("x", shape=(1, 4, 5)), relay.var("w", shape=(4, 2, 3)), strides=2).attrs["strides"]
    [2]
    """
    return _conv_nd("nn.conv1d_transpose", 1, data, weight, strides, padding, dilation, groups, channels,
                    kernel_size, data_layout, kernel_layout, out_layout, out_dtype,
                    output_padding=_tuple_n(output_padding, "output_padding", 1))


def conv3d_transpose(data: Expr, weight: Expr, strides: Pair = (1, 1, 1), padding: Pair = (0, 0, 0),
                     dilation: Pair = (1, 1, 1), groups: int = 1, channels: Optional[int] = None,
                     kernel_size: Optional[Pair] = None, data_layout: str = "NCDHW",
                     kernel_layout: str = "IODHW", out_layout: str = "",
                     output_padding: Pair = (0, 0, 0), out_dtype: str = "") -> Call:
    """3-D transposed convolution (``relay.nn.conv3d_transpose``); the weight is ``IODHW``:
    ``[in_channels, channels // groups, kd, kh, kw]``."""
    return _conv_nd("nn.conv3d_transpose", 3, data, weight, strides, padding, dilation, groups, channels,
                    kernel_size, data_layout, kernel_layout, out_layout, out_dtype,
                    output_padding=_tuple_n(output_padding, "output_padding", 3))


def _pool_nd(name: str, n: int, data, pool_size, strides, dilation, padding, layout, out_layout,
             ceil_mode, **extra) -> Call:
    return _call(name, [data], pool_size=_tuple_n(pool_size, "pool_size", n),
                 strides=_tuple_n(strides, "strides", n), dilation=_tuple_n(dilation, "dilation", n),
                 padding=_tuple_n(padding, "padding", n), layout=_str("layout", layout),
                 out_layout=_str("out_layout", out_layout), ceil_mode=_bool("ceil_mode", ceil_mode),
                 **extra)


def max_pool1d(data: Expr, pool_size: Pair = (1,), strides: Pair = (1,), dilation: Pair = (1,),
               padding: Pair = (0,), layout: str = "NCW", out_layout: str = "",
               ceil_mode: bool = False) -> Call:
    """1-D max pooling (``relay.nn.max_pool1d``), layout ``NCW`` or ``NWC``."""
    return _pool_nd("nn.max_pool1d", 1, data, pool_size, strides, dilation, padding, layout,
                    out_layout, ceil_mode)


def avg_pool1d(data: Expr, pool_size: Pair = (1,), strides: Pair = (1,), dilation: Pair = (1,),
               padding: Pair = (0,), layout: str = "NCW", out_layout: str = "",
               ceil_mode: bool = False, count_include_pad: bool = False) -> Call:
    """1-D average pooling (``relay.nn.avg_pool1d``)."""
    return _pool_nd("nn.avg_pool1d", 1, data, pool_size, strides, dilation, padding, layout,
                    out_layout, ceil_mode, count_include_pad=_bool("count_include_pad", count_include_pad))


def max_pool3d(data: Expr, pool_size: Pair = (1, 1, 1), strides: Pair = (1, 1, 1),
               dilation: Pair = (1, 1, 1), padding: Pair = (0, 0, 0), layout: str = "NCDHW",
               out_layout: str = "", ceil_mode: bool = False) -> Call:
    """3-D max pooling (``relay.nn.max_pool3d``), layout ``NCDHW`` or ``NDHWC``.

    >>> import relay_mlir as relay
    >>> relay.nn.max_pool3d(relay.var("x", shape=(1, 2, 4, 4, 4)), pool_size=2).attrs["pool_size"]
    [2, 2, 2]
    """
    return _pool_nd("nn.max_pool3d", 3, data, pool_size, strides, dilation, padding, layout,
                    out_layout, ceil_mode)


def avg_pool3d(data: Expr, pool_size: Pair = (1, 1, 1), strides: Pair = (1, 1, 1),
               dilation: Pair = (1, 1, 1), padding: Pair = (0, 0, 0), layout: str = "NCDHW",
               out_layout: str = "", ceil_mode: bool = False, count_include_pad: bool = False) -> Call:
    """3-D average pooling (``relay.nn.avg_pool3d``)."""
    return _pool_nd("nn.avg_pool3d", 3, data, pool_size, strides, dilation, padding, layout,
                    out_layout, ceil_mode, count_include_pad=_bool("count_include_pad", count_include_pad))


def global_max_pool2d(data: Expr, layout: str = "NCHW", out_layout: str = "") -> Call:
    """Max over the spatial dims, kept as size 1 (``relay.nn.global_max_pool2d``)."""
    return _call("nn.global_max_pool2d", [data], layout=_str("layout", layout),
                 out_layout=_str("out_layout", out_layout))


def _output_size(v) -> list:
    if v is None:
        return []
    return _ints(v, "output_size")


def _adaptive_pool(name: str, data: Expr, output_size, layout: str, out_layout: str) -> Call:
    return _call(name, [data], output_size=_output_size(output_size), layout=_str("layout", layout),
                 out_layout=_str("out_layout", out_layout))


def adaptive_avg_pool2d(data: Expr, output_size: Optional[Pair] = None, layout: str = "NCHW",
                        out_layout: str = "") -> Call:
    """Average pooling to ``output_size`` (``relay.nn.adaptive_avg_pool2d``).

    ``None`` keeps the input size; an int gives a square output.

    >>> import relay_mlir as relay
    >>> relay.nn.adaptive_avg_pool2d(relay.var("x", shape=(1, 2, 7, 7)), output_size=3).attrs["output_size"]
    [3]
    """
    return _adaptive_pool("nn.adaptive_avg_pool2d", data, output_size, layout, out_layout)


def adaptive_max_pool2d(data: Expr, output_size: Optional[Pair] = None, layout: str = "NCHW",
                        out_layout: str = "") -> Call:
    """Max pooling to ``output_size`` (``relay.nn.adaptive_max_pool2d``)."""
    return _adaptive_pool("nn.adaptive_max_pool2d", data, output_size, layout, out_layout)


def adaptive_avg_pool1d(data: Expr, output_size: Optional[Pair] = None, layout: str = "NCW",
                        out_layout: str = "") -> Call:
    """1-D average pooling to ``output_size`` (``relay.nn.adaptive_avg_pool1d``), layout ``NCW``
    or ``NWC``; ``None`` keeps the input size.

    >>> import relay_mlir as relay
    >>> relay.nn.adaptive_avg_pool1d(relay.var("x", shape=(1, 2, 7)), output_size=3).attrs["output_size"]
    [3]
    """
    return _adaptive_pool("nn.adaptive_avg_pool1d", data, output_size, layout, out_layout)


def adaptive_max_pool1d(data: Expr, output_size: Optional[Pair] = None, layout: str = "NCW",
                        out_layout: str = "") -> Call:
    """1-D max pooling to ``output_size`` (``relay.nn.adaptive_max_pool1d``)."""
    return _adaptive_pool("nn.adaptive_max_pool1d", data, output_size, layout, out_layout)


def adaptive_avg_pool3d(data: Expr, output_size: Optional[Pair] = None, layout: str = "NCDHW",
                        out_layout: str = "") -> Call:
    """3-D average pooling to ``output_size`` (``relay.nn.adaptive_avg_pool3d``), layout
    ``NCDHW`` or ``NDHWC``; ``None`` keeps the input size, an int gives a cube."""
    return _adaptive_pool("nn.adaptive_avg_pool3d", data, output_size, layout, out_layout)


def adaptive_max_pool3d(data: Expr, output_size: Optional[Pair] = None, layout: str = "NCDHW",
                        out_layout: str = "") -> Call:
    """3-D max pooling to ``output_size`` (``relay.nn.adaptive_max_pool3d``)."""
    return _adaptive_pool("nn.adaptive_max_pool3d", data, output_size, layout, out_layout)


# TVM 0.19's global_{avg,max}_pool{1,3}d are these adaptive pools to size 1 (not ops of their own).
def global_avg_pool1d(data: Expr, layout: str = "NCW", out_layout: str = "") -> Call:
    """Mean over W, kept as size 1: ``adaptive_avg_pool1d(data, [1])``, as TVM builds it.

    >>> import relay_mlir as relay
    >>> relay.nn.global_avg_pool1d(relay.var("x", shape=(1, 2, 7))).op.name
    'nn.adaptive_avg_pool1d'
    """
    return adaptive_avg_pool1d(data, [1], layout, out_layout)


def global_max_pool1d(data: Expr, layout: str = "NCW", out_layout: str = "") -> Call:
    """Max over W, kept as size 1: ``adaptive_max_pool1d(data, [1])``, as TVM builds it."""
    return adaptive_max_pool1d(data, [1], layout, out_layout)


def global_avg_pool3d(data: Expr, layout: str = "NCDHW", out_layout: str = "") -> Call:
    """Mean over D, H, W, kept as size 1: ``adaptive_avg_pool3d(data, [1, 1, 1])``, as TVM."""
    return adaptive_avg_pool3d(data, [1, 1, 1], layout, out_layout)


def global_max_pool3d(data: Expr, layout: str = "NCDHW", out_layout: str = "") -> Call:
    """Max over D, H, W, kept as size 1: ``adaptive_max_pool3d(data, [1, 1, 1])``, as TVM."""
    return adaptive_max_pool3d(data, [1, 1, 1], layout, out_layout)


def mirror_pad(data: Expr, pad_width: Sequence[Sequence[int]], mode: str = "SYMMETRIC") -> Call:
    """Pads each dim with its mirror image (``relay.nn.mirror_pad``): ``REFLECT`` leaves the
    border out (pads < the dim), ``SYMMETRIC`` repeats it (pads <= the dim). ``pad_width``
    is ``((before, after), ...)``, one pair per dim (or flattened).

    >>> import relay_mlir as relay
    >>> relay.nn.mirror_pad(relay.var("x", shape=(2, 3)), ((0, 0), (2, 1))).attrs["pad_width"]
    [0, 0, 2, 1]
    """
    flat = [int(p) for p in pad_width] if all(isinstance(p, (int, np.integer)) for p in pad_width) \
        else [int(v) for pair in pad_width for v in pair]
    return _call("nn.mirror_pad", [data], pad_width=flat, mode=_str("mode", mode))


def upsampling3d(data: Expr, scale_d: float = 1, scale_h: float = 1, scale_w: float = 1,
                 layout: str = "NCDHW", method: str = "nearest_neighbor",
                 coordinate_transformation_mode: str = "half_pixel") -> Call:
    """3-D upsampling (``relay.nn.upsampling3d``): sizes ``round(d * scale_d)``, ...; ``method``
    ``nearest_neighbor`` or ``trilinear`` with topi's resize3d coordinate mapping."""
    return _call("nn.upsampling3d", [data], scale_d=_float("scale_d", scale_d),
                 scale_h=_float("scale_h", scale_h), scale_w=_float("scale_w", scale_w),
                 layout=_str("layout", layout), method=_str("method", method),
                 coordinate_transformation_mode=_str("coordinate_transformation_mode",
                                                     coordinate_transformation_mode))


def layer_norm(data: Expr, gamma: Expr, beta: Expr, axis: int = -1, epsilon: float = 1e-5,
               center: bool = True, scale: bool = True) -> Call:
    """Layer normalisation over ``axis`` (``relay.nn.layer_norm``)."""
    return _call("nn.layer_norm", [data, gamma, beta], axis=_int("axis", axis),
                 epsilon=_float("epsilon", epsilon), center=_bool("center", center),
                 scale=_bool("scale", scale))


def group_norm(data: Expr, gamma: Expr, beta: Expr, num_groups: int, axis: int = 1,
               epsilon: float = 1e-5, center: bool = True, scale: bool = True) -> Call:
    """Group normalisation (``relay.nn.group_norm``): the channels (``axis``)
    in ``num_groups`` groups, each normalised with the dims after ``axis``."""
    return _call("nn.group_norm", [data, gamma, beta], num_groups=_int("num_groups", num_groups),
                 axis=_int("axis", axis), epsilon=_float("epsilon", epsilon),
                 center=_bool("center", center), scale=_bool("scale", scale))


def instance_norm(data: Expr, gamma: Expr, beta: Expr, axis: int = 1, epsilon: float = 1e-5,
                  center: bool = True, scale: bool = True) -> Call:
    """Instance normalisation (``relay.nn.instance_norm``): each (batch,
    channel) slice normalised over the other dims."""
    return _call("nn.instance_norm", [data, gamma, beta], axis=_int("axis", axis),
                 epsilon=_float("epsilon", epsilon), center=_bool("center", center),
                 scale=_bool("scale", scale))


def l2_normalize(data: Expr, eps: float, axis: Optional[Sequence[int]] = None) -> Call:
    """``data / sqrt(max(sum(data², axis), eps))`` (``relay.nn.l2_normalize``).

    >>> import relay_mlir as relay
    >>> relay.nn.l2_normalize(relay.var("x", shape=(2, 3)), eps=1e-10, axis=[1]).attrs
    {'eps': 1e-10, 'axis': [1]}
    """
    return _call("nn.l2_normalize", [data], eps=_float("eps", eps),
                 axis=_ints(axis, "axis") if axis is not None else [])


def lrn(data: Expr, size: int = 5, axis: int = 1, bias: float = 2, alpha: float = 0.00001,
        beta: float = 0.75) -> Call:
    """Local response normalisation (``relay.nn.lrn``):
    ``data / (bias + alpha / size * Σ data²)^beta`` over ``size`` neighbours
    along ``axis``."""
    return _call("nn.lrn", [data], size=_int("size", size), axis=_int("axis", axis),
                 bias=_float("bias", bias), alpha=_float("alpha", alpha), beta=_float("beta", beta))


def log_softmax(data: Expr, axis: int = -1) -> Call:
    """``log(softmax(data))`` along ``axis`` (``relay.nn.log_softmax``)."""
    return _call("nn.log_softmax", [data], axis=_int("axis", axis))


def leaky_relu(data: Expr, alpha: float = 0.01) -> Call:
    """``data`` where positive, ``alpha * data`` elsewhere (``relay.nn.leaky_relu``)."""
    return _call("nn.leaky_relu", [data], alpha=_float("alpha", alpha))


def prelu(data: Expr, alpha: Expr, axis: int = 1) -> Call:
    """Leaky relu with a slope per channel: ``alpha`` is 1-D along ``axis``
    (``relay.nn.prelu``)."""
    return _call("nn.prelu", [data, alpha], axis=_int("axis", axis))


def gelu(data: Expr) -> Call:
    """``data * Φ(data) = data * (1 + erf(data / √2)) / 2``: the exact
    (erf) GELU that Relay frontends compose from ``erf``, as one op
    ``nn.gelu``.

    >>> import relay_mlir as relay
    >>> relay.nn.gelu(relay.var("x", shape=(4,))).op.name
    'nn.gelu'
    """
    return _call("nn.gelu", [data])


def dropout_raw(data: Expr, rate: float = 0.5) -> TupleWrapper:
    """The raw ``nn.dropout`` call: a 2-tuple ``(output, mask)``."""
    return TupleWrapper(_call("nn.dropout", [data], rate=_float("rate", rate)), 2)


def dropout(data: Expr, rate: float = 0.5) -> Expr:
    """Dropout (``relay.nn.dropout``): field 0 of ``nn.dropout``; the
    identity when compiled for inference.

    >>> import relay_mlir as relay
    >>> relay.nn.dropout(relay.var("x", shape=(4,))).tuple_value.op.name
    'nn.dropout'
    """
    return dropout_raw(data, rate)[0]


def pad(data: Expr, pad_width: Sequence[Sequence[int]], pad_value: Union[float, Expr] = 0.0,
        pad_mode: str = "constant") -> Call:
    """Pads ``data`` (``relay.nn.pad``).

    ``pad_width`` is ``((before, after), ...)`` per dim (stored flattened);
    ``pad_value`` a number or a 0-d expression; ``pad_mode`` ``"constant"``,
    ``"edge"`` or ``"reflect"``. A numeric ``pad_value`` takes the dtype of
    ``data`` when ``data`` has a known type (float32 otherwise).

    >>> import relay_mlir as relay
    >>> relay.nn.pad(relay.var("x", shape=(2, 3)), ((0, 0), (1, 2))).attrs["pad_width"]
    [0, 0, 1, 2]

    An expression ``pad_width`` (a (rank, 2) integer tensor) is ``dyn.nn.pad``.
    """
    if isinstance(pad_width, Constant):
        pad_width = pad_width.data.tolist()
    if isinstance(pad_width, Expr):
        if not isinstance(pad_value, Expr):
            pad_value = const(pad_value, _dyn.type_of(data)[1])
        return _dyn.pad(data, pad_width, pad_value, _str("pad_mode", pad_mode))
    flat = []
    for pair in pad_width:
        vals = _ints(pair, "pad_width")
        if len(vals) != 2:
            raise TypeError(f"'pad_width' entries must be (before, after) pairs, got {pair!r}")
        flat.extend(vals)
    if not isinstance(pad_value, Expr):
        dtype = "float32"
        ta = getattr(data, "type_annotation", None)
        if ta is not None and getattr(ta, "dtype", None):
            dtype = ta.dtype
        pad_value = const(pad_value, dtype)
    return _call("nn.pad", [data, pad_value], pad_width=flat, pad_mode=_str("pad_mode", pad_mode))


def upsampling(data: Expr, scale_h: float = 1, scale_w: float = 1, layout: str = "NCHW",
               method: str = "nearest_neighbor", align_corners: bool = False) -> Call:
    """2-D upsampling (``relay.nn.upsampling``) to ``round(h * scale_h)``,
    ``round(w * scale_w)``; ``method`` ``"nearest_neighbor"`` or
    ``"bilinear"``. Expressions (0-d floats) for the scales give
    ``dyn.nn.upsampling``."""
    if isinstance(scale_h, Constant):
        scale_h = float(scale_h.data)
    if isinstance(scale_w, Constant):
        scale_w = float(scale_w.data)
    if isinstance(scale_h, Expr) or isinstance(scale_w, Expr):
        sh, sw = (s if isinstance(s, Expr) else const(np.array(s, "float32")) for s in (scale_h, scale_w))
        return _dyn.upsampling(data, sh, sw, _str("layout", layout), _str("method", method),
                               _bool("align_corners", align_corners))
    return _call("nn.upsampling", [data], scale_h=_float("scale_h", scale_h),
                 scale_w=_float("scale_w", scale_w), layout=_str("layout", layout),
                 method=_str("method", method), align_corners=_bool("align_corners", align_corners))


def depth_to_space(data: Expr, block_size: int, layout: str = "NCHW", mode: str = "DCR") -> Call:
    """Channel blocks to spatial blocks (``relay.nn.depth_to_space``); ``mode``
    ``"DCR"`` or ``"CRD"``."""
    return _call("nn.depth_to_space", [data], block_size=_int("block_size", block_size),
                 layout=_str("layout", layout), mode=_str("mode", mode))


def space_to_depth(data: Expr, block_size: int, layout: str = "NCHW") -> Call:
    """Spatial blocks to channels (``relay.nn.space_to_depth``)."""
    return _call("nn.space_to_depth", [data], block_size=_int("block_size", block_size),
                 layout=_str("layout", layout))


# -- TVM's blocked convolutions (x86 AlterOpLayout) and space/batch block moves (FlattenAtrousConv)

CONV2D_NCHWC = "nn.contrib_conv2d_NCHWc"
DEPTHWISE_CONV2D_NCHWC = "nn.contrib_depthwise_conv2d_NCHWc"
_NCHWC = re.compile(r"^NCHW([0-9]+)c$")
_OIHWIO = re.compile(r"^OIHW([0-9]+)i([0-9]+)o$")


def blocked_out_layout(name: str, data_layout: str, kernel_layout: str, out_layout: str) -> str:
    """Checks TVM's ``NCHW{n}c`` / ``OIHW{n}i{m}o`` layouts of a blocked convolution (a
    ValueError naming the expected form); returns the output layout (``out_layout``, or
    ``data_layout`` when empty, as in TVM)."""
    if not isinstance(data_layout, str) or not _NCHWC.match(data_layout):
        raise ValueError(f"{name}: data_layout must be NCHW<n>c (e.g. NCHW4c), got {data_layout!r}")
    if not isinstance(kernel_layout, str) or not _OIHWIO.match(kernel_layout):
        raise ValueError(f"{name}: kernel_layout must be OIHW<n>i<m>o (e.g. OIHW4i4o), "
                         f"got {kernel_layout!r}")
    out_layout = out_layout or data_layout
    if not isinstance(out_layout, str) or not _NCHWC.match(out_layout):
        raise ValueError(f"{name}: out_layout must be NCHW<n>c (e.g. NCHW4c), got {out_layout!r}")
    return out_layout


def _blocked_conv(name: str, data: Expr, kernel: Expr, strides, padding, dilation, groups,
                  channels, kernel_size, data_layout, kernel_layout, out_layout, out_dtype) -> Call:
    blocked_out_layout(name, data_layout, kernel_layout, out_layout)
    # nn.conv2d's builder checks and normalises the shared attributes
    attrs = dict(conv2d(data, kernel, strides=strides, padding=padding, dilation=dilation,
                        groups=groups, channels=channels, kernel_size=kernel_size,
                        out_dtype=out_dtype).attrs)
    attrs.update(data_layout=data_layout, kernel_layout=kernel_layout, out_layout=out_layout)
    return _call(name, [data, kernel], **attrs)


def contrib_conv2d_nchwc(data: Expr, kernel: Expr, strides: Pair = (1, 1), padding: Pair = (0, 0),
                         dilation: Pair = (1, 1), groups: int = 1, channels: Optional[int] = None,
                         kernel_size: Optional[Pair] = None, data_layout: str = "NCHW1c",
                         kernel_layout: str = "OIHW1i1o", out_layout: str = "",
                         out_dtype: str = "") -> Call:
    """``nn.contrib_conv2d_NCHWc``: TVM 0.19's x86 AlterOpLayout convolution
    (python/tvm/topi/x86/conv2d_alter_op.py), TVM's signature: the data ``NCHW{n}c``
    (channels split into blocks of ``n``, the block innermost), the kernel ``OIHW{n}i{m}o``,
    the result ``out_layout`` (``NCHW{m}c``; empty: ``data_layout``); ``channels`` and
    ``groups`` count whole channels. The dialect's ``relay.nn.contrib_conv2d_NCHWc``
    (typed as nn.conv2d of the unblocked operands, lowered through it).

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(1, 2, 5, 5, 4))
    >>> w = relay.var("w", shape=(2, 2, 3, 3, 4, 4))
    >>> y = relay.nn.contrib_conv2d_nchwc(x, w, padding=(1, 1), channels=8, kernel_size=(3, 3),
    ...                                   data_layout="NCHW4c", kernel_layout="OIHW4i4o",
    ...                                   out_layout="NCHW4c")
    >>> relay.transform.InferType()(relay.IRModule.from_expr(y))["main"].body.checked_type
    TensorType([1, 2, 5, 5, 4], float32)
    """
    return _blocked_conv(CONV2D_NCHWC, data, kernel, strides, padding, dilation, groups,
                         channels, kernel_size, data_layout, kernel_layout, out_layout, out_dtype)


def contrib_depthwise_conv2d_nchwc(data: Expr, kernel: Expr, strides: Pair = (1, 1),
                                   padding: Pair = (0, 0), dilation: Pair = (1, 1),
                                   groups: int = 1, channels: Optional[int] = None,
                                   kernel_size: Optional[Pair] = None,
                                   data_layout: str = "NCHW1c", kernel_layout: str = "OIHW1i1o",
                                   out_layout: str = "", out_dtype: str = "") -> Call:
    """``nn.contrib_depthwise_conv2d_NCHWc`` (kernel ``OIHW1i{n}o``, ``groups`` = the input
    channels), TVM 0.19's signature."""
    return _blocked_conv(DEPTHWISE_CONV2D_NCHWC, data, kernel, strides, padding, dilation,
                         groups, channels, kernel_size, data_layout, kernel_layout, out_layout,
                         out_dtype)


def _pairs(name: str, op: str, v, m: int) -> list:
    pairs = [_ints(p, name) for p in v] if isinstance(v, (list, tuple)) else None
    if pairs is None or len(pairs) != m or any(len(p) != 2 or min(p) < 0 for p in pairs):
        raise ValueError(f"{op}: {name} must be {m} [before, after] pairs of integers >= 0 "
                         f"(one per block_shape entry), got {v!r}")
    return pairs


def _block_shape(op: str, block_shape) -> list:
    block = _ints(block_shape, "block_shape")
    if not block or min(block) < 1:
        raise ValueError(f"{op}: block_shape must be a non-empty list of integers >= 1, "
                         f"got {block_shape!r}")
    return block


SPACE_TO_BATCH = "nn.space_to_batch_nd"
BATCH_TO_SPACE = "nn.batch_to_space_nd"
#: attributes of (before, after) pairs, which the dialect holds flattened (as nn.pad's pad_width)
PAIRED_ATTRS = frozenset({"paddings", "crops"})


def space_to_batch_nd(data: Expr, block_shape: Sequence[int], paddings, pad_value=0) -> Call:
    """``relay.nn.space_to_batch_nd`` (TVM 0.19's signature and topi semantics): for data
    ``[N, S1..SM, rest...]`` and ``block_shape = [b1..bM]``, pads each ``Si`` by
    ``paddings[i] = [before, after]`` (with ``pad_value``) to ``Pi`` (a multiple of ``bi``)
    and moves the blocks into the batch: ``[b1*..*bM*N, P1/b1, .., PM/bM, rest...]`` with
    ``out[(i1*b2*..*bM + .. + iM)*N + n, y1, .., yM, ...] = padded[n, y1*b1 + i1, .., yM*bM + iM, ...]``.

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(1, 4, 4, 3))
    >>> y = relay.nn.space_to_batch_nd(x, block_shape=[2, 2], paddings=[[0, 0], [0, 0]])
    >>> relay.transform.InferType()(relay.IRModule.from_expr(y))["main"].body.checked_type
    TensorType([4, 2, 2, 3], float32)
    """
    block = _block_shape("nn.space_to_batch_nd", block_shape)
    return _call("nn.space_to_batch_nd", [data], block_shape=block,
                 paddings=_pairs("paddings", "nn.space_to_batch_nd", paddings, len(block)),
                 pad_value=_float("pad_value", pad_value))


def batch_to_space_nd(data: Expr, block_shape: Sequence[int], crops) -> Call:
    """``relay.nn.batch_to_space_nd`` (TVM 0.19's signature): the inverse of
    ``space_to_batch_nd``, then ``crops[i] = [begin, end]`` removed from each spatial dim."""
    block = _block_shape("nn.batch_to_space_nd", block_shape)
    return _call("nn.batch_to_space_nd", [data], block_shape=block,
                 crops=_pairs("crops", "nn.batch_to_space_nd", crops, len(block)))


__all__ += ["contrib_conv2d_nchwc", "contrib_depthwise_conv2d_nchwc", "space_to_batch_nd",
            "batch_to_space_nd"]


# --- TVM 0.19's nn.dilate and losses (RelayNNOps.td) ----------------------------------------------

def dilate(data: Expr, strides: Sequence[int], dilation_value: float = 0.0) -> Call:
    """Spreads the elements ``strides`` apart (one stride >= 1 per dim), filling the gaps with
    ``dilation_value`` (``relay.nn.dilate``): a dim ``d`` becomes ``(d - 1) * s + 1``.

    >>> import relay_mlir as relay
    >>> relay.nn.dilate(relay.var("x", shape=(2, 3)), (1, 2)).attrs
    {'strides': [1, 2], 'dilation_value': 0.0}
    """
    return _call("nn.dilate", [data], strides=_ints(strides, "strides"),
                 dilation_value=_float("dilation_value", dilation_value))


def cross_entropy(predictions: Expr, targets: Expr) -> Call:
    """``-sum(log(predictions) * targets) / batch`` of ``[batch, classes]`` operands
    (``relay.nn.cross_entropy``)."""
    return _call("nn.cross_entropy", [predictions, targets])


def cross_entropy_with_logits(predictions: Expr, targets: Expr) -> Call:
    """``-sum(predictions * targets) / batch`` (``relay.nn.cross_entropy_with_logits``)."""
    return _call("nn.cross_entropy_with_logits", [predictions, targets])


def nll_loss(predictions: Expr, targets: Expr, weights: Expr, reduction: str = "mean",
             ignore_index: int = -100) -> Call:
    """Negative log likelihood (``relay.nn.nll_loss``): ``predictions`` ``[N, C, d...]``,
    integer ``targets`` ``[N, d...]``, ``weights`` ``[C]``; ``reduction`` ``mean``, ``sum`` or
    ``none``; targets equal to ``ignore_index`` count 0."""
    return _call("nn.nll_loss", [predictions, targets, weights], reduction=_str("reduction", reduction),
                 ignore_index=_int("ignore_index", ignore_index))


__all__ += ["dilate", "cross_entropy", "cross_entropy_with_logits", "nll_loss"]
