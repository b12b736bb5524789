"""Builders of the qnn operators, with TVM 0.19's signatures and defaults
(python/tvm/relay/qnn/op/qnn.py).

Scales and zero points are Relay expressions: a 0-d constant for the whole
tensor, or a 1-D constant with one entry per channel along ``axis``. Scales
are float32, zero points int32; plain Python numbers and numpy arrays are
made constants of those dtypes (TVM wants ``relay.const``).

    >>> import relay_mlir as relay
    >>> q = relay.qnn.op.requantize(relay.var("x", shape=(2,), dtype="int32"),
    ...                             relay.const(0.25), relay.const(0), relay.const(0.5), relay.const(1))
    >>> q.attrs["rounding"], q.attrs["out_dtype"]
    ('None', 'int8')
"""
from __future__ import annotations

from typing import Optional, Sequence, Union

import numpy as np

from ...expr import Call, Expr, Tuple, const
from ...op.nn import conv2d as _nn_conv2d
from ...op.nn import conv2d_transpose as _nn_conv2d_transpose
from ...op._make import _call, _int, _opt_int, _str
from ...op.tensor import reshape as _reshape

Param = Union[Expr, float, int, np.ndarray]

_ROUNDINGS = ("None", "UPWARD", "TONEAREST")
_COMPUTE_DTYPES = ("None", "int64", "float32", "float64")


def _param(name: str, v: Param, dtype: str) -> Expr:
    """A scale (``float32``) or zero point (``int32``) operand."""
    if isinstance(v, Expr):
        return v
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.number, np.ndarray, list, tuple)):
        raise TypeError(f"'{name}' must be a relay expression or a number, got {v!r}")
    return const(np.asarray(v, dtype=dtype))


def _choice(name: str, v: object, allowed) -> str:
    s = _str(name, v)
    if s not in allowed:
        raise ValueError(f"'{name}' must be one of {', '.join(allowed)}, got {s!r}")
    return s


def quantize(data: Expr, output_scale: Param, output_zero_point: Param, axis: int = -1,
             out_dtype: str = "int8") -> Call:
    """``clip(round(data / output_scale) + output_zero_point)`` (``relay.qnn.op.quantize``).

    float32 in; rounds half away from zero; ``out_dtype`` int8, uint8, int16,
    uint16 or int32.
    """
    return _call("qnn.quantize", [data, _param("output_scale", output_scale, "float32"),
                                  _param("output_zero_point", output_zero_point, "int32")],
                 axis=_int("axis", axis), out_dtype=_str("out_dtype", out_dtype))


def dequantize(data: Expr, input_scale: Param, input_zero_point: Param, axis: int = -1,
               out_dtype: str = "float32") -> Call:
    """``float32(int32(data) - input_zero_point) * input_scale`` (``relay.qnn.op.dequantize``)."""
    return _call("qnn.dequantize", [data, _param("input_scale", input_scale, "float32"),
                                    _param("input_zero_point", input_zero_point, "int32")],
                 axis=_int("axis", axis), out_dtype=_str("out_dtype", out_dtype))


def requantize(data: Expr, input_scale: Param, input_zero_point: Param, output_scale: Param,
               output_zero_point: Param, axis: int = -1, rounding: str = "None",
               compute_dtype: str = "None", out_dtype: str = "int8") -> Call:
    """Integers with one (scale, zero point) to another's (``relay.qnn.op.requantize``).

    TVM 0.19's fixed-point arithmetic: the multiplier ``input_scale /
    output_scale`` as a Q31 mantissa and a shift, in int64; ``rounding``
    "None" (TVM's requantize_config default) and "UPWARD" round ties to
    +inf, "TONEAREST" away from zero. ``input_scale``/``input_zero_point``
    may be per channel along ``axis``; the scales must be constants.
    """
    return _call("qnn.requantize",
                 [data, _param("input_scale", input_scale, "float32"),
                  _param("input_zero_point", input_zero_point, "int32"),
                  _param("output_scale", output_scale, "float32"),
                  _param("output_zero_point", output_zero_point, "int32")],
                 axis=_int("axis", axis), rounding=_choice("rounding", rounding, _ROUNDINGS),
                 compute_dtype=_choice("compute_dtype", compute_dtype, _COMPUTE_DTYPES),
                 out_dtype=_str("out_dtype", out_dtype))


def dense(data: Expr, weight: Expr, input_zero_point: Param, kernel_zero_point: Param,
          input_scale: Param, kernel_scale: Param, units: Optional[int],
          out_dtype: str = "int32") -> Call:
    """Exact int32 ``(data - input_zp) · (weight - kernel_zp)ᵀ`` (``relay.qnn.op.dense``).

    ``kernel_zero_point`` / ``kernel_scale`` are 0-d or per output unit.
    """
    return _call("qnn.dense", [data, weight, _param("input_zero_point", input_zero_point, "int32"),
                               _param("kernel_zero_point", kernel_zero_point, "int32"),
                               _param("input_scale", input_scale, "float32"),
                               _param("kernel_scale", kernel_scale, "float32")],
                 units=_opt_int("units", units), out_dtype=_str("out_dtype", out_dtype))


def batch_matmul(x: Expr, y: Expr, x_zero_point: Param, y_zero_point: Param, x_scale: Param,
                 y_scale: Param, out_dtype: str = "int32") -> Call:
    """Exact int32 batched ``(x - x_zp) · (y - y_zp)ᵀ`` (``relay.qnn.op.batch_matmul``)."""
    return _call("qnn.batch_matmul", [x, y, _param("x_zero_point", x_zero_point, "int32"),
                                      _param("y_zero_point", y_zero_point, "int32"),
                                      _param("x_scale", x_scale, "float32"),
                                      _param("y_scale", y_scale, "float32")],
                 out_dtype=_str("out_dtype", out_dtype))


def conv2d(data: Expr, kernel: Expr, input_zero_point: Param, kernel_zero_point: Param,
           input_scale: Param, kernel_scale: Param, kernel_size: Sequence[int], channels: int,
           strides=(1, 1), padding=(0, 0), dilation=(1, 1), groups: int = 1,
           data_layout: str = "NCHW", kernel_layout: str = "OIHW", out_layout: str = "",
           out_dtype: str = "int32") -> Call:
    """Exact int32 2-D convolution of ``data - input_zp`` and ``kernel - kernel_zp``
    (``relay.qnn.op.conv2d``); ``nn.conv2d``'s attributes, padding with the input
    zero point; the kernel's parameters 0-d or per output channel."""
    attrs = _nn_conv2d(data, kernel, strides=strides, padding=padding, dilation=dilation,
                       groups=groups, channels=channels, kernel_size=kernel_size,
                       data_layout=data_layout, kernel_layout=kernel_layout,
                       out_layout=out_layout, out_dtype=out_dtype).attrs
    return _call("qnn.conv2d", [data, kernel, _param("input_zero_point", input_zero_point, "int32"),
                                _param("kernel_zero_point", kernel_zero_point, "int32"),
                                _param("input_scale", input_scale, "float32"),
                                _param("kernel_scale", kernel_scale, "float32")], **attrs)


def _binary(name: str, lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale, rhs_zero_point,
            output_scale, output_zero_point, lhs_axis, rhs_axis) -> Call:
    return _call(name, [lhs, rhs, _param("lhs_scale", lhs_scale, "float32"),
                        _param("lhs_zero_point", lhs_zero_point, "int32"),
                        _param("rhs_scale", rhs_scale, "float32"),
                        _param("rhs_zero_point", rhs_zero_point, "int32"),
                        _param("output_scale", output_scale, "float32"),
                        _param("output_zero_point", output_zero_point, "int32")],
                 lhs_axis=_int("lhs_axis", lhs_axis), rhs_axis=_int("rhs_axis", rhs_axis))


def add(lhs: Expr, rhs: Expr, lhs_scale: Param, lhs_zero_point: Param, rhs_scale: Param,
        rhs_zero_point: Param, output_scale: Param, output_zero_point: Param,
        lhs_axis: int = -1, rhs_axis: int = -1) -> Call:
    """Quantized ``lhs + rhs`` (``relay.qnn.op.add``): each operand requantized to the
    output scale (UPWARD), added in int32, plus the output zero point, clipped."""
    return _binary("qnn.add", lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale, rhs_zero_point,
                   output_scale, output_zero_point, lhs_axis, rhs_axis)


def subtract(lhs: Expr, rhs: Expr, lhs_scale: Param, lhs_zero_point: Param, rhs_scale: Param,
             rhs_zero_point: Param, output_scale: Param, output_zero_point: Param,
             lhs_axis: int = -1, rhs_axis: int = -1) -> Call:
    """Quantized ``lhs - rhs`` (``relay.qnn.op.subtract``), as :func:`add`."""
    return _binary("qnn.subtract", lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale,
                   rhs_zero_point, output_scale, output_zero_point, lhs_axis, rhs_axis)


def mul(lhs: Expr, rhs: Expr, lhs_scale: Param, lhs_zero_point: Param, rhs_scale: Param,
        rhs_zero_point: Param, output_scale: Param, output_zero_point: Param,
        lhs_axis: int = -1, rhs_axis: int = -1) -> Call:
    """Quantized ``lhs * rhs`` (``relay.qnn.op.mul``): ``(lhs - zp)(rhs - zp)`` in int32
    at the scale ``float32(lhs_scale * rhs_scale)``, requantized to the output's."""
    return _binary("qnn.mul", lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale, rhs_zero_point,
                   output_scale, output_zero_point, lhs_axis, rhs_axis)


def concatenate(data, input_scales: Sequence[Param], input_zero_points: Sequence[Param],
                output_scale: Param, output_zero_point: Param, axis: int) -> Call:
    """Joins quantized tensors along ``axis`` (``relay.qnn.op.concatenate``).

    As TVM 0.19: a tensor whose constant (scale, zero point) equal the
    output's is taken as is, the others are requantized to the output's.
    ``data`` is a list/tuple or a ``relay.Tuple``; the call's arguments are
    the tensors, their scales, their zero points, then the output's scale and
    zero point (the dialect op's operands).
    """
    fields = list(data.fields) if isinstance(data, Tuple) else list(data)
    scales = list(input_scales.fields) if isinstance(input_scales, Tuple) else list(input_scales)
    zps = (list(input_zero_points.fields) if isinstance(input_zero_points, Tuple)
           else list(input_zero_points))
    if not fields or len(scales) != len(fields) or len(zps) != len(fields):
        raise ValueError(f"qnn.concatenate: {len(fields)} tensors need as many input_scales and "
                         f"input_zero_points, got {len(scales)} and {len(zps)}")
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise ValueError("For now, we only support integer axis")
    args = fields + [_param(f"input_scales[{i}]", s, "float32") for i, s in enumerate(scales)]
    args += [_param(f"input_zero_points[{i}]", z, "int32") for i, z in enumerate(zps)]
    args += [_param("output_scale", output_scale, "float32"),
             _param("output_zero_point", output_zero_point, "int32")]
    return _call("qnn.concatenate", args, axis=_int("axis", axis))


def _pair(name: str, v) -> list:
    vals = [v, v] if isinstance(v, (int, np.integer)) else list(v)
    return [_int(name, x) for x in vals]


def avg_pool2d(data: Expr, input_scale: Param, input_zero_point: Param, output_scale: Param,
               output_zero_point: Param, pool_size=(1, 1), strides=(1, 1), padding=(0, 0),
               dilation=(1, 1), ceil_mode: bool = False, count_include_pad: bool = True,
               layout: str = "NHWC", out_layout: str = "") -> Call:
    """Quantized 2-D average pooling (``relay.qnn.op.avg_pool2d``; NHWC by default).

    TVM 0.19: requantized to the output's parameters in int32 (only widened
    when they are equal), ``nn.avg_pool2d`` in int32 (truncating), clipped, cast.
    TVM's Python requires the window attributes; its text omits those at their
    defaults, which are the defaults here.
    """
    return _call("qnn.avg_pool2d", [data, _param("input_scale", input_scale, "float32"),
                                    _param("input_zero_point", input_zero_point, "int32"),
                                    _param("output_scale", output_scale, "float32"),
                                    _param("output_zero_point", output_zero_point, "int32")],
                 pool_size=_pair("pool_size", pool_size), strides=_pair("strides", strides),
                 padding=_pair("padding", padding), dilation=_pair("dilation", dilation),
                 ceil_mode=bool(ceil_mode), count_include_pad=bool(count_include_pad),
                 layout=_str("layout", layout), out_layout=_str("out_layout", out_layout))


def conv2d_transpose(data: Expr, weight: Expr, input_zero_point: Param, kernel_zero_point: Param,
                     input_scale: Param, kernel_scale: Param, strides=(1, 1), padding=(0, 0),
                     dilation=(1, 1), groups: int = 1, channels: Optional[int] = None,
                     kernel_size=None, data_layout: str = "NCHW", kernel_layout: str = "IOHW",
                     out_layout: str = "", output_padding=(0, 0), out_dtype: str = "int32") -> Call:
    """Exact integer transposed convolution of ``data - input_zp`` and ``weight -
    kernel_zp`` (``relay.qnn.op.conv2d_transpose``; TVM 0.19's legalization)."""
    attrs = _nn_conv2d_transpose(data, weight, strides=strides, padding=padding,
                                 dilation=dilation, groups=groups, channels=channels,
                                 kernel_size=kernel_size, data_layout=data_layout,
                                 kernel_layout=kernel_layout, out_layout=out_layout,
                                 output_padding=output_padding, out_dtype=out_dtype).attrs
    return _call("qnn.conv2d_transpose",
                 [data, weight, _param("input_zero_point", input_zero_point, "int32"),
                  _param("kernel_zero_point", kernel_zero_point, "int32"),
                  _param("input_scale", input_scale, "float32"),
                  _param("kernel_scale", kernel_scale, "float32")], **attrs)


def _unary(name: str, x, scale, zero_point, output_scale, output_zero_point, **attrs) -> Call:
    return _call(name, [x, _param("scale", scale, "float32"),
                        _param("zero_point", zero_point, "int32"),
                        _param("output_scale", output_scale, "float32"),
                        _param("output_zero_point", output_zero_point, "int32")], **attrs)


def _lookup_op(fn: str, what: str):
    def build(x: Expr, scale: Param, zero_point: Param, output_scale: Param,
              output_zero_point: Param) -> Call:
        return _unary("qnn." + fn, x, scale, zero_point, output_scale, output_zero_point)
    build.__name__ = build.__qualname__ = fn
    build.__doc__ = (f"Quantized {what} (``relay.qnn.op.{fn}``): as TVM 0.19, a lookup table of "
                     "every input value dequantized, the float32 function applied, quantized.")
    return build


abs = _lookup_op("abs", "|x|")  # noqa: A001 - TVM's name
exp = _lookup_op("exp", "e^x")
log = _lookup_op("log", "natural logarithm")
sigmoid = _lookup_op("sigmoid", "1 / (1 + e^-x)")
tanh = _lookup_op("tanh", "hyperbolic tangent")
erf = _lookup_op("erf", "Gauss error function")
sqrt = _lookup_op("sqrt", "square root")
rsqrt = _lookup_op("rsqrt", "1 / sqrt(x)")
hardswish = _lookup_op("hardswish", "x * clip(x + 3, 0, 6) / 6")


def leaky_relu(x: Expr, *args, **kwargs) -> Call:
    """Quantized leaky relu in fixed point (``relay.qnn.op.leaky_relu``, TVM 0.19's form).

    ``leaky_relu(x, alpha, input_scale, input_zero_point, output_scale,
    output_zero_point)`` as TVM's Python; TVM's text prints ``alpha`` as an
    attribute after the four parameters, which is accepted too.
    """
    if "alpha" in kwargs and len(args) == 4 and len(kwargs) == 1:
        alpha, params = kwargs["alpha"], list(args)
    else:
        names = ["alpha", "input_scale", "input_zero_point", "output_scale", "output_zero_point"]
        bound = dict(zip(names, args), **kwargs)
        missing = [n for n in names if n not in bound]
        if missing or len(bound) != len(names):
            raise TypeError(f"leaky_relu takes x, {', '.join(names)}; got {len(args)} positional and "
                            f"{sorted(kwargs)} keyword arguments")
        alpha, params = bound["alpha"], [bound[n] for n in names[1:]]
    input_scale, input_zero_point, output_scale, output_zero_point = params
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.number)):
        raise TypeError(f"'alpha' must be a number, got {alpha!r}")
    return _unary("qnn.leaky_relu", x, input_scale, input_zero_point, output_scale,
                  output_zero_point, alpha=float(alpha))


def softmax(x: Expr, scale: Param, zero_point: Param, output_scale: Param,
            output_zero_point: Param, axis: int = -1) -> Call:
    """TVM 0.19's integer softmax of int8 ``x`` (``relay.qnn.op.softmax``)."""
    return _unary("qnn.softmax", x, scale, zero_point, output_scale, output_zero_point,
                  axis=_int("axis", axis))


# -- simulated quantization (TVM 0.19's qnn.simulated_quantize / simulated_dequantize) --------
#: TVM 0.19's dtype codes of the simulated ops (topi.nn.qnn.SQNN_DTYPE_TO_CODE)
SQNN_DTYPE_TO_CODE = {"disable": 0, "int8": 1, "uint8": 2, "int32": 3}


def _dtype_code(name: str, v: object) -> Expr:
    """A dtype name as TVM's int32 code constant; an expression (a run-time code) as is."""
    if isinstance(v, Expr):
        return v
    s = _str(name, v)
    if s not in SQNN_DTYPE_TO_CODE:
        raise ValueError(f"'{name}' must be one of {', '.join(SQNN_DTYPE_TO_CODE)} or an int32 "
                         f"expression, got {s!r}")
    return const(np.int32(SQNN_DTYPE_TO_CODE[s]))


def _flat(name: str, v: Param, dtype: str) -> Expr:
    """A parameter reshaped to 1-D, as TVM's builders wrap it (``reshape(p, [-1])``)."""
    return _reshape(_param(name, v, dtype), [-1])


def simulated_quantize(data: Expr, output_scale: Param, output_zero_point: Param, axis: int = -1,
                       out_dtype: Union[str, Expr] = "int8") -> Call:
    """``qnn.quantize``'s values kept in float (``relay.qnn.op.simulated_quantize``).

    ``clip(round(data / output_scale) + output_zero_point)`` to ``out_dtype``'s range
    (``"int8"``, ``"uint8"``, ``"int32"``; ``"disable"`` or any other code passes ``data``),
    rounding half away from zero. ``out_dtype`` may be an int32 expression (TVM's code, chosen
    at run time). The parameters are reshaped to 1-D as in TVM (one value, or one per channel
    along ``axis``).
    """
    return _call("qnn.simulated_quantize",
                 [data, _dtype_code("out_dtype", out_dtype),
                  _flat("output_scale", output_scale, "float32"),
                  _flat("output_zero_point", output_zero_point, "int32")],
                 axis=_int("axis", axis))


def simulated_dequantize(data: Expr, input_scale: Param, input_zero_point: Param, axis: int = -1,
                         in_dtype: Union[str, Expr] = "int8") -> Call:
    """``qnn.dequantize``'s values from float data (``relay.qnn.op.simulated_dequantize``):
    ``(data - input_zero_point) * input_scale`` for an integer ``in_dtype``, ``data`` for
    ``"disable"`` (or any other code)."""
    return _call("qnn.simulated_dequantize",
                 [data, _dtype_code("in_dtype", in_dtype),
                  _flat("input_scale", input_scale, "float32"),
                  _flat("input_zero_point", input_zero_point, "int32")],
                 axis=_int("axis", axis))
