"""FlattenAtrousConv: ``batch_to_space_nd(conv2d(space_to_batch_nd(x)))`` as one dilated conv2d.

TensorFlow writes an atrous (dilated) convolution of rate ``r`` as ``space_to_batch_nd``
(block ``[r, r]``), an undilated ``conv2d`` and ``batch_to_space_nd``. TVM 0.19's
FlattenAtrousConv (src/relay/transforms/flatten_atrous_conv.cc; PassInfo
"FlattenAtrousConv", opt level 0, requires InferType) turns the three into one ``nn.conv2d``
with ``dilation = block_shape`` on ``x``, for an NHWC conv2d (others are left alone).

TVM gives the new conv "SAME" padding computed from ``x``'s size, whatever the original
padded and cropped, so a VALID atrous conv (no padding, no crops) becomes a conv of another
output size and TVM's type checker rejects the result (measured in the side venv). Here the
padding is what the three operators compute: ``before = paddings[i][0] - crops[i][0]``,
``after = paddings[i][1] - crops[i][1]`` (equal to TVM's for TensorFlow's SAME pattern). The
rewrite needs a 2-entry ``block_shape``, ``pad_value`` 0, a conv2d with strides 1, dilation
1 and no padding of its own, and paddings at least the crops; otherwise the three stay.

Why a Python pass: it was written when ``nn.space_to_batch_nd`` / ``nn.batch_to_space_nd``
were operators of the expression tree only; they are dialect operators now (issue 31), so a
rewrite pattern in lib/Transforms could replace this pass (not done yet).
"""
from __future__ import annotations

from typing import Optional

from .expr import Call, Expr, Op
from .expr_functor import ExprMutator
from .op import nn
from .op.nn import BATCH_TO_SPACE, SPACE_TO_BATCH

__all__ = ["flatten_atrous_conv"]


def _is(e: Expr, name: str) -> bool:
    return isinstance(e, Call) and isinstance(e.op, Op) and e.op.name == name


def _flattened(b2s: Call, conv: Call, s2b: Call, data: Expr, weight: Expr) -> Optional[Expr]:
    """The dilated conv2d equal to ``b2s(conv(s2b(data), weight))``, or None."""
    block = list(s2b.attrs["block_shape"])
    a = conv.attrs
    if len(block) != 2 or list(b2s.attrs["block_shape"]) != block \
            or float(s2b.attrs["pad_value"]) != 0.0 or a.get("data_layout") != "NHWC" \
            or list(a["strides"]) != [1, 1] or list(a["dilation"]) != [1, 1] \
            or any(a["padding"]):
        return None
    pads, crops = s2b.attrs["paddings"], b2s.attrs["crops"]
    before = [p[0] - c[0] for p, c in zip(pads, crops)]
    after = [p[1] - c[1] for p, c in zip(pads, crops)]
    if min(before + after) < 0:
        return None
    return nn.conv2d(data, weight, padding=before + after, dilation=block, groups=a["groups"],
                     channels=a.get("channels"), kernel_size=a.get("kernel_size"),
                     data_layout=a["data_layout"], kernel_layout=a["kernel_layout"],
                     out_layout=a.get("out_layout", ""), out_dtype=a.get("out_dtype") or "")


class _Flattener(ExprMutator):
    def visit_call(self, call: Call) -> Expr:
        new = super().visit_call(call)
        if not _is(call, BATCH_TO_SPACE) or not _is(call.args[0], "nn.conv2d") \
                or not _is(call.args[0].args[0], SPACE_TO_BATCH):
            return new
        conv, s2b = call.args[0], call.args[0].args[0]
        got = _flattened(call, conv, s2b, self.visit(s2b.args[0]), self.visit(conv.args[1]))
        return new if got is None else got


def flatten_atrous_conv(fn):
    """``fn`` with each atrous conv pattern flattened (module docstring)."""
    return _Flattener().visit(fn)
