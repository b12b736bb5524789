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

Each entry takes the printed operands positionally and the attributes by name.
"""
from __future__ import annotations

from typing import Callable, Dict

from . import op as _op
from .annotation import DEVICE_COPY, ON_DEVICE, device_copy_text_form, on_device_text_form
from .expr import Expr

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


TEXT_FORMS: Dict[str, Callable[..., Expr]] = {
    "variance": variance, "stack": stack, "nn.pad": pad,
    _op.nn.CONV2D_NCHWC: _op.nn.contrib_conv2d_nchwc,
    _op.nn.DEPTHWISE_CONV2D_NCHWC: _op.nn.contrib_depthwise_conv2d_nchwc,
    "nn.fast_softmax": fast_softmax,
    ON_DEVICE: on_device_text_form, DEVICE_COPY: device_copy_text_form,  # devices (docs/byoc.md)
}
# operators whose first operand is a tuple (the parser reads a tuple variable field by field)
TUPLE_OPERAND_OPS = frozenset({"concatenate", "stack", "einsum", "meshgrid"})
