"""The integer contractions of ConvInteger / MatMulInteger / QLinearConv / QLinearMatMul
(and the QDQ groups fused into them) as int8 x int8 -> int32 ops.

``Σ (x - zx)(w - zw)`` is computed as a contraction of the raw 8-bit operands with
an int32 accumulator (``nn.conv2d`` / ``nn.dense`` with ``out_dtype="int32"``,
which lower to linalg convolutions and matmuls of i8 operands: the form IREE's
data tiling and its VNNI mmt4d kernels take) plus a constant per output channel:

* the weight is a constant; ``w' = w - zw`` must fit int8 (always when ``zw`` is 0,
  onnxruntime's symmetric int8 weights);
* uint8 data ``x`` becomes int8 ``x - 128`` (its zero point ``zx - 128``), so both
  operands are signed (linalg's named contractions extend both operands alike);
* ``Σ (x' - zx')·w' = Σ x'·w' - zx'·Σw'``: the second term is a constant per output
  channel (per column of a MatMul), folded with a Conv's int32 bias. A Conv's input
  is padded with ``zx'`` first, so a padded position contributes ``(zx' - zx')·w' = 0``
  as onnxruntime's padding with the zero point does.

A MatMul of two activations of rank 3 or more (attention's Q·Kᵀ: B computed at run time, per-tensor
constant zero points) is ``nn.batch_matmul`` of the int8 operands with TVM's qnn
correction ``Σa'b' - zb'·Σa' - za'·Σb' + k·za'·zb'`` (row and column sums in int32).

Anything else (a zero point that is not a constant, ``w - zw`` outside int8, 1-D/3-D
convolutions, batched MatMul weights, other ranks) returns None and the caller uses the
int32 form of the shifted operands; both are exact.

    >>> import numpy as np
    >>> w = np.array([[1, -2], [3, 4]], np.int8)
    >>> _weight_i8(w, np.array([1], np.int8), 0)
    array([[ 0, -3],
           [ 2,  3]], dtype=int8)
    >>> _weight_i8(np.array([-128, 5], np.int8), np.array([3], np.int8), 0) is None   # -131
    True
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from . import nn as _nn
from ._base import Node


def _weight_i8(w: np.ndarray, zw: Optional[np.ndarray], axis: int) -> Optional[np.ndarray]:
    """``w - zw`` (zw 1 element, or one per index of ``axis``) as int8, or None if it does not fit."""
    v = w.astype(np.int32)
    if zw is not None:
        z = zw.astype(np.int32).reshape(-1)
        shape = [1] * v.ndim
        if z.size > 1:
            shape[axis] = z.size
        v = v - (z.reshape(shape) if z.size > 1 else z[0])
    if v.min(initial=0) < -128 or v.max(initial=0) > 127:
        return None
    return v.astype(np.int8)


def _const_or_none(n: Node, i: Optional[int]):
    """(ok, array or None): input ``i`` as a constant array; absent is (True, None)."""
    if i is None or not n.has(i):
        return True, None
    if not n.is_const(i):
        return False, None
    return True, n.const(i)


def _signed_data(n: Node, x: int, zx: Optional[np.ndarray]):
    """Input ``x`` as int8 and its zero point as an int (uint8 data shifted by -128)."""
    z = 0 if zx is None else int(zx.reshape(-1)[0])
    if n.dtype(x) == "int8":
        return n.expr(x), z
    wide = n.op("subtract")(n.op("cast")(n.expr(x), "int16"), n.constant(np.int16(128)))
    return n.op("cast")(wide, "int8"), z - 128


def _operands(n: Node, x: int, xz: Optional[int], w: int, wz: Optional[int], axis: int):
    """(int8 data, its zero point, int8 constant weight w - zw), or None (see the module doc)."""
    if n.dtype(x) not in ("uint8", "int8") or not n.is_const(w):
        return None
    ok_x, zx = _const_or_none(n, xz)
    ok_w, zw = _const_or_none(n, wz)
    if not (ok_x and ok_w) or (zx is not None and zx.size != 1):
        return None
    w8 = _weight_i8(n.const(w), zw, axis)
    if w8 is None:
        return None
    data, z = _signed_data(n, x, zx)
    return data, z, w8


def conv_i8(n: Node, x: int, xz: Optional[int], w: int, wz: Optional[int], bias: Optional[int]):
    """The int32 Conv of the module doc (NCHW 2-D), or None."""
    xs, ws = n.shape(x), n.shape(w)
    if xs is None or ws is None or len(xs) != 4 or (bias is not None and not n.is_const(bias)):
        return None
    ops = _operands(n, x, xz, w, wz, 0)
    if ops is None:
        return None
    data, z, w8 = ops
    kernel = _nn._window_attr(n, "kernel_shape", 2, list(ws[2:]))
    if list(kernel) != list(ws[2:]):
        return None
    strides, dil = _nn._window_attr(n, "strides", 2), _nn._window_attr(n, "dilations", 2)
    pads = _nn._pads(n, xs[2:], kernel, strides, dil)
    if any(pads):
        width = [[0, 0], [0, 0], [pads[0], pads[2]], [pads[1], pads[3]]]
        data = n.op("nn.pad")(data, width, pad_value=n.constant(np.int8(z)))
    y = n.op("nn.conv2d")(data, n.constant(w8), strides=strides, padding=[0, 0, 0, 0], dilation=dil,
                          groups=int(n.attr("group", 1)), channels=int(ws[0]), kernel_size=kernel,
                          out_dtype="int32")
    shift = -z * w8.astype(np.int64).sum(axis=(1, 2, 3))
    if bias is not None:
        shift = shift + n.const(bias).astype(np.int64).reshape(-1)
    if not np.any(shift):
        return y
    return n.op("add")(y, n.constant(shift.astype(np.int32).reshape(1, -1, 1, 1)))


def _batch_matmul_i8(n: Node, a: int, az: Optional[int], b: int, bz: Optional[int]):
    """[..., m, k] · [..., k, n] (the same static leading dims) of two activations with 0-d
    constant zero points, or None."""
    sa, sb = n.shape(a), n.shape(b)
    ok_a, za = _const_or_none(n, az)
    ok_b, zb = _const_or_none(n, bz)
    if not (ok_a and ok_b) or any(z is not None and z.size != 1 for z in (za, zb)) \
            or len(sa) < 3 or list(sa[:-2]) != list(sb[:-2]) or None in (*sa, *sb) \
            or n.dtype(b) not in ("uint8", "int8"):
        return None
    (x, zx), (y, zy) = _signed_data(n, a, za), _signed_data(n, b, zb)
    if len(sa) > 3:  # [..., m, k]: the leading dims as one batch
        x, y = n.op("reshape")(x, [-1, *sa[-2:]]), n.op("reshape")(y, [-1, *sb[-2:]])
    mm = n.op("nn.batch_matmul")(x, y, out_dtype="int32", transpose_b=False)

    def total(v, axis):
        return n.op("sum")(n.op("cast")(v, "int32"), axis=[axis], keepdims=True)

    r = mm
    if zy:
        r = n.op("subtract")(r, n.op("multiply")(total(x, 2), n.constant(np.int32(zy))))
    if zx:
        r = n.op("subtract")(r, n.op("multiply")(total(y, 1), n.constant(np.int32(zx))))
    if zx and zy:
        r = n.op("add")(r, n.constant(np.int32(int(sa[-1]) * zx * zy)))
    return n.op("reshape")(r, [*sa[:-1], sb[-1]]) if len(sa) > 3 else r


def matmul_i8(n: Node, a: int, az: Optional[int], b: int, bz: Optional[int]):
    """The int32 MatMul of the module doc (a 2-D constant B, zero point per column; or two
    3-D activations), or None."""
    sa, sb = n.shape(a), n.shape(b)
    if sa is None or sb is None:
        return None
    if not n.is_const(b) and n.dtype(a) in ("uint8", "int8"):
        return _batch_matmul_i8(n, a, az, b, bz)
    if len(sb) != 2 or len(sa) < 2:
        return None
    ops = _operands(n, a, az, b, bz, 1)
    if ops is None:
        return None
    data, z, b8 = ops
    y = n.op("nn.dense")(data, n.constant(np.ascontiguousarray(b8.T)), units=int(sb[1]), out_dtype="int32")
    shift = -z * b8.astype(np.int64).sum(axis=0)
    if not np.any(shift):
        return y
    return n.op("add")(y, n.constant(shift.astype(np.int32)))
