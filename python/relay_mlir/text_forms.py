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
  ``kernel_layout="OIHW4i4o"``, ``out_layout="NCHW4c"``; depthwise ``OIHW1i4o``).
  relay-mlir has no blocked convolution operator (docs/optimizer.md, "AlterOpLayout"):
  such a call reads as its definition, ``layout_transform``s to NCHW/OIHW around an
  ``nn.conv2d`` and back to ``out_layout``, so TVM's program runs with TVM's values;
- ``nn.fast_softmax`` (FastMath): read as ``nn.softmax``.

Each entry takes the printed operands positionally and the attributes by name.
"""
from __future__ import annotations

import re
from typing import Callable, Dict, Optional, Sequence

from . import op as _op
from .expr import Expr

_NCHWC = re.compile(r"^NCHW([0-9]+)c$")
_OIHWIO = re.compile(r"^OIHW([0-9]+)i([0-9]+)o$")


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


def _blocked_layouts(name: str, data_layout: str, kernel_layout: str, out_layout: str) -> str:
    """Checks TVM's NCHW[x]c / OIHW[x]i[y]o layouts; returns the output layout."""
    if not _NCHWC.match(data_layout):
        raise ValueError(f"{name}: data_layout must be NCHW<n>c (e.g. NCHW4c), got {data_layout!r}")
    if not _OIHWIO.match(kernel_layout):
        raise ValueError(f"{name}: kernel_layout must be OIHW<n>i<m>o (e.g. OIHW4i4o), "
                         f"got {kernel_layout!r}")
    out_layout = out_layout or data_layout
    if not _NCHWC.match(out_layout):
        raise ValueError(f"{name}: out_layout must be NCHW<n>c (e.g. NCHW4c), got {out_layout!r}")
    return out_layout


def _conv2d_nchwc(name: str, data: Expr, kernel: Expr, strides: Sequence[int] = (1, 1),
                  padding: Sequence[int] = (0, 0), dilation: Sequence[int] = (1, 1), groups: int = 1,
                  channels: Optional[int] = None, kernel_size: Optional[Sequence[int]] = None,
                  data_layout: str = "NCHW1c", kernel_layout: str = "OIHW1i1o", out_layout: str = "",
                  out_dtype: str = "") -> Expr:
    """TVM's blocked convolution as ``nn.conv2d`` in NCHW/OIHW between layout_transforms."""
    out_layout = _blocked_layouts(name, data_layout, kernel_layout, out_layout)
    x = _op.layout_transform(data, data_layout, "NCHW")
    w = _op.layout_transform(kernel, kernel_layout, "OIHW")
    y = _op.nn.conv2d(x, w, strides=strides, padding=padding, dilation=dilation, groups=groups,
                      channels=channels, kernel_size=kernel_size, out_dtype=out_dtype)
    return _op.layout_transform(y, "NCHW", out_layout)


def conv2d_nchwc(data: Expr, kernel: Expr, **attrs) -> Expr:
    """``nn.contrib_conv2d_NCHWc`` (TVM 0.19's x86 AlterOpLayout for ``nn.conv2d``)."""
    return _conv2d_nchwc("nn.contrib_conv2d_NCHWc", data, kernel, **attrs)


def depthwise_conv2d_nchwc(data: Expr, kernel: Expr, **attrs) -> Expr:
    """``nn.contrib_depthwise_conv2d_NCHWc`` (its kernel ``OIHW1i<n>o``, ``groups`` = channels)."""
    return _conv2d_nchwc("nn.contrib_depthwise_conv2d_NCHWc", data, kernel, **attrs)


def fast_softmax(data: Expr, axis: int = -1) -> Expr:
    """``nn.fast_softmax`` (TVM 0.19's FastMath makes ``nn.softmax`` one: softmax through
    ``fast_exp``). relay-mlir has no such operator (its FastMath leaves softmax): read as the
    ``nn.softmax`` it approximates."""
    return _op.nn.softmax(data, axis)


TEXT_FORMS: Dict[str, Callable[..., Expr]] = {
    "variance": variance, "stack": stack, "nn.pad": pad,
    "nn.contrib_conv2d_NCHWc": conv2d_nchwc,
    "nn.contrib_depthwise_conv2d_NCHWc": depthwise_conv2d_nchwc,
    "nn.fast_softmax": fast_softmax,
}
# operators whose first operand is a tuple (the parser reads a tuple variable field by field)
TUPLE_OPERAND_OPS = frozenset({"concatenate", "stack", "einsum", "meshgrid"})
