"""Operators whose printed Relay form differs from the builder API's call (the parser's table).

TVM 0.19 prints an operator call as its operands, then its attributes. For most operators
that is the builder API's signature; for these it is not (measured on what TVM prints after
its passes):

- ``variance(%x, %mean, axis=[-1], keepdims=True)``: SimplifyInference's layer/group/
  instance norms pass the mean as an operand (the builder takes it as ``with_mean``);
- ``stack(%t)``: StackAttrs' default ``axis=0`` is not printed (CombineParallelDense's
  ``to_batch`` form);
- ``nn.pad(%x, 0.5f, pad_width=[[0, 0], [1, 1]])``: the pad value is the second operand;
- ``nn.contrib_conv2d_NCHWc`` / ``nn.contrib_depthwise_conv2d_NCHWc``: AlterOpLayout's
  blocked convolutions on TVM's x86 targets (``data_layout="NCHW4c"``,
  ``kernel_layout="OIHW4i4o"``, ``out_layout="NCHW4c"``; depthwise ``OIHW1i4o``): the
  builders are TVM's ``relay.nn.contrib_conv2d_nchwc`` names (relay_mlir.op.nn);
- ``nn.fast_softmax`` (FastMath): read as ``nn.softmax``.
- ``qnn.simulated_quantize(%x, 1 /* ty=int32 */, %scale, %zp)`` /
  ``qnn.simulated_dequantize(%x, 2, %scale, %zp, out_dtype="")``: the dtype code is the
  second operand (the builders take a dtype name last) and the parameters are already
  reshaped; dequantize's ``out_dtype`` (TVM's DequantizeAttrs, unused: always ``""``) is
  dropped.
- relay.quantize's own operators (python/relay_mlir/quantize/hints.py), as TVM prints its
  annotate/calibrate stages: ``relay.op.annotation.simulated_quantize(%x, %dom_scale,
  %clip_min, %clip_max, kind=1)`` and ``annotation.cast_hint(%x, dtype="int8")``;
- ``collapse_sum_to(%x, meta[relay.Constant][0], shape=[3, 1])``: the shape is also an
  operand (a constant); ``sparse_to_dense(%i, %v, 0f, output_shape=[4, 5])``: the values
  and default before the shape; ``matrix_set_diag(%x, %d, k1=-1, k2=1,
  super_diag_right_align=False, ...)``: MatrixSetDiagAttrs, not the builder's ``k`` and
  ``align``; ``contrib_reverse_reshape``: the builder is ``reverse_reshape``.

Each entry takes the printed operands positionally and the attributes by name.
"""
from __future__ import annotations

from typing import Callable, Dict

from . import op as _op
from .annotation import (CAST_HINT, DEVICE_COPY, ON_DEVICE, SIMULATED_QUANTIZE, cast_hint,
                         device_copy_text_form, on_device_text_form)
from .annotation import simulated_quantize as simulated_quantize_hint
from .expr import Expr
from .op._make import _call, _int

def variance(data: Expr, mean: Expr, **attrs) -> Expr:
    """``variance(%x, %mean, ...)``: the builder's ``with_mean``."""
    return _op.variance(data, with_mean=mean, **attrs)


def stack(data, axis: int = 0) -> Expr:
    """``stack(%t)``: TVM omits the default ``axis=0``."""
    return _op.stack(data, axis)


def pad(data: Expr, pad_value: Expr, pad_width, pad_mode: str = "constant") -> Expr:
    """``nn.pad(%x, <value>, pad_width=[[b, a], ..])``; relay-mlir prints ``pad_width``
    flattened (``[b0, a0, b1, a1, ..]``), read back as pairs."""
    if isinstance(pad_width, (list, tuple)) and all(isinstance(p, int) for p in pad_width):
        if len(pad_width) % 2:
            raise ValueError("a flattened 'pad_width' needs (before, after) pairs, "
                             f"got {len(pad_width)} entries")
        pad_width = [pad_width[i:i + 2] for i in range(0, len(pad_width), 2)]
    return _op.nn.pad(data, pad_width, pad_value, pad_mode)


def fast_softmax(data: Expr, axis: int = -1) -> Expr:
    """``nn.fast_softmax`` (TVM 0.19's FastMath makes ``nn.softmax`` one: softmax through
    ``fast_exp``). relay-mlir has no such operator (its FastMath leaves softmax): read as the
    ``nn.softmax`` it approximates."""
    return _op.nn.softmax(data, axis)


def simulated_quantize(data: Expr, out_dtype: Expr, output_scale: Expr, output_zero_point: Expr,
                       axis: int = -1) -> Expr:
    """``qnn.simulated_quantize(%x, <code>, %scale, %zp)``: the operands as printed."""
    return _call("qnn.simulated_quantize", [data, out_dtype, output_scale, output_zero_point],
                 axis=_int("axis", axis))


def simulated_dequantize(data: Expr, in_dtype: Expr, input_scale: Expr, input_zero_point: Expr,
                         axis: int = -1, out_dtype: str = "") -> Expr:
    """``qnn.simulated_dequantize(%x, <code>, %scale, %zp, out_dtype="")``."""
    if out_dtype not in ("", None):
        raise ValueError(f"'out_dtype' of qnn.simulated_dequantize is unused in TVM 0.19 (always "
                         f"\"\"), got {out_dtype!r}")
    return _call("qnn.simulated_dequantize", [data, in_dtype, input_scale, input_zero_point],
                 axis=_int("axis", axis))


def collapse_sum_to(data: Expr, shape_operand: Expr = None, shape=None, dtype=None) -> Expr:
    """``collapse_sum_to(%x, <shape constant>, shape=[..])`` (or InitOpAttrs in the metadata
    section, with an empty ``dtype``): the attribute (or, without it, the constant operand)
    is the shape."""
    return _op.collapse_sum_to(data, shape if shape is not None else shape_operand)


def sparse_to_dense(sparse_indices: Expr, sparse_values: Expr, default_value: Expr,
                    output_shape) -> Expr:
    """``sparse_to_dense(%i, %v, <default>, output_shape=[..])``."""
    return _op.sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value)


def matrix_set_diag(data: Expr, diagonal: Expr, k1: int = 0, k2: int = 0,
                    super_diag_right_align: bool = True, sub_diag_right_align: bool = False) -> Expr:
    """``matrix_set_diag`` with TVM's MatrixSetDiagAttrs."""
    align = ("RIGHT" if super_diag_right_align else "LEFT") + "_" + \
        ("RIGHT" if sub_diag_right_align else "LEFT")
    return _op.matrix_set_diag(data, diagonal, (k1, k2), align)


TEXT_FORMS: Dict[str, Callable[..., Expr]] = {
    "variance": variance, "stack": stack, "nn.pad": pad,
    _op.nn.CONV2D_NCHWC: _op.nn.contrib_conv2d_nchwc,
    _op.nn.DEPTHWISE_CONV2D_NCHWC: _op.nn.contrib_depthwise_conv2d_nchwc,
    "nn.fast_softmax": fast_softmax,
    "qnn.simulated_quantize": simulated_quantize, "qnn.simulated_dequantize": simulated_dequantize,
    SIMULATED_QUANTIZE: simulated_quantize_hint, CAST_HINT: cast_hint,  # relay.quantize's
    "collapse_sum_to": collapse_sum_to, "sparse_to_dense": sparse_to_dense,
    "matrix_set_diag": matrix_set_diag, "contrib_reverse_reshape": _op.reverse_reshape,
    ON_DEVICE: on_device_text_form, DEVICE_COPY: device_copy_text_form,  # devices (docs/byoc.md)
}
# operators whose first operand is a tuple (the parser reads a tuple variable field by field)
TUPLE_OPERAND_OPS = frozenset({"concatenate", "stack", "einsum", "meshgrid"})
