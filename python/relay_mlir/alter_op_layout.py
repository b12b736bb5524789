"""TVM 0.19's AlterOpLayout on its x86 (``llvm``) targets: NCHW convolutions blocked as NCHW{n}c.

The pass is ``relay-alter-op-layout{simd-lanes=N}`` (lib/Transforms/AlterOpLayout.cpp, rewrite
patterns); ``relay.transform.AlterOpLayout`` runs it with the lanes of the current
``tvm.target.Target``. This module says what it does and gives TVM's tiles (``conv_blocks``).

What TVM does (measured in the side venv, untuned: AutoTVM's fallback configuration;
python/tvm/topi/x86/conv2d_alter_op.py and the ``_fallback_schedule`` of
conv2d_avx_common.py / depthwise_conv2d.py):

- With no current ``tvm.target.Target``, or one that is not a CPU, nothing changes.
- Each ``nn.conv2d`` with ``NCHW`` data and an ``OIHW`` kernel, ``groups`` 1 or depthwise
  (groups = input channels = output channels), becomes ``nn.contrib_conv2d_NCHWc``
  (depthwise: ``nn.contrib_depthwise_conv2d_NCHWc``) with data ``NCHW{ic}c``, kernel
  ``OIHW{ic}i{oc}o`` (depthwise ``OIHW1i{oc}o``) and result ``NCHW{oc}c``: ``oc`` is the
  largest divisor of the output channels not above the target's 32-bit SIMD lanes
  (relay_mlir.x86_target), ``ic`` the largest divisor of the input channels not above ``oc``.
  Grouped (not depthwise) convolutions, a depthwise channel multiplier above 1 and NHWC
  convolutions stay ``nn.conv2d``.
- ``layout_transform``s go at the edges: the data into the blocked layout (from a blocked
  producer with another block: ``NCHW{a}c -> NCHW{b}c``), each kernel into its layout, and a
  blocked value back to NCHW where an operator needs NCHW (and for the function's result).
- Elementwise operators run blocked, and so do binary broadcast operators whose other
  operand is a scalar, an NCHW tensor of the same channels (``layout_transform`` of it) or a
  ``[C, 1, 1]`` tensor (CanonicalizeOps' bias: ``expand_dims(axis=0)``, then
  ``layout_transform``), and ``concatenate`` on the channel axis of fields all blocked
  alike (otherwise each field goes back to NCHW, as in TVM).

- Pools of a blocked value run blocked: ``nn.max_pool2d`` / ``avg_pool2d`` /
  ``global_avg_pool2d`` / ``global_max_pool2d`` / ``adaptive_avg_pool2d`` /
  ``adaptive_max_pool2d`` with ``layout="NCHW{n}c"``; so do ``sum`` / ``mean`` / ``max`` /
  ``min`` / ``prod`` with an axis: N, H, W keep their positions,
  reducing C reduces its block too (``axis=[1, 4]``; ``exclude`` alike); with ``keepdims``
  the result stays blocked (``NCHW1c`` once C is reduced), without it the result is brought
  back to its primal layout at once (``NC{n}c -> NC``; none needed once C is reduced).
  Without an axis a reduction gets the NCHW value, as in TVM.

Not done here (TVM also runs these blocked; here they get the NCHW value): ``argmax`` /
``argmin`` (blocked after a blocked conv, the module failed in iree-compile: a linalg.yield
count error, not investigated yet), an elementwise op after a reduction without keepdims
(TVM keeps ``NC{n}c``), ``nn.bias_add`` without
CanonicalizeOps first; TVM's int8
``OIHW{n}i{m}o4i`` kernels of VNNI targets (int8 convolutions on a target with more than 4
lanes stay ``nn.conv2d``).

A value bound by ``let`` is seen through (MLIR has no lets); TVM gives the users of a
let-bound variable the NCHW value. ``compile()`` never runs the pass (the layouts for IREE are
chosen in relay-to-iree-input, docs/optimizer.md). Its blocked convolutions are dialect
operators (``relay.nn.contrib_conv2d_NCHWc``, lowered as ``layout_transform`` +
``nn.conv2d`` + ``layout_transform``), so its result compiles and survives MLIR passes as it
is.

    >>> conv_blocks(12, 16, 8)   # (ic, oc) for 12 -> 16 channels with AVX2's 8 lanes
    (6, 8)
"""
from __future__ import annotations

from typing import Tuple

__all__ = ["conv_blocks"]


def _largest_divisor(n: int, limit: int) -> int:
    return next(b for b in range(limit, 0, -1) if n % b == 0)


def conv_blocks(in_channels: int, out_channels: int, lanes: int) -> Tuple[int, int]:
    """TVM's fallback tiles (ic, oc) that relay-alter-op-layout blocks a conv2d by: oc the
    largest divisor of the output channels up to ``lanes``, ic the largest divisor of the
    input channels up to oc."""
    oc = _largest_divisor(out_channels, lanes)
    return _largest_divisor(in_channels, oc), oc
