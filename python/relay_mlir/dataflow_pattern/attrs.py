"""Attribute values as TVM 0.19 stores them, for ``has_attr``.

relay-mlir's builders keep some attributes as the user wrote them where TVM's Python
builders normalise: TVM stores a convolution's or pooling's ``padding`` with one
(before, after) pair per spatial axis (``conv2d(padding=(1, 1))`` has
``padding=[1, 1, 1, 1]``), so ``has_attr({"padding": [1, 1, 1, 1]})`` matches it.

>>> import relay_mlir as relay
>>> c = relay.nn.conv2d(relay.var("x"), relay.var("w"), padding=(1, 2))
>>> tvm_call_attr(c, "padding")
[1, 2, 1, 2]
"""
from __future__ import annotations

import re

from ..expr import Call, Op

__all__ = ["tvm_call_attr", "MISSING"]

MISSING = object()
_SPATIAL = re.compile(r"(conv|pool)([123])d")


def _pad_tuple(padding: object, rank: int) -> object:
    if isinstance(padding, (int,)) and not isinstance(padding, bool):
        return [padding] * (2 * rank)
    if not isinstance(padding, (list, tuple)):
        return padding
    pad = list(padding)
    if len(pad) == 1:
        return pad * (2 * rank)
    if len(pad) == rank:
        return pad + pad
    return pad


def tvm_call_attr(call: Call, key: str) -> object:
    """The attribute ``key`` of an operator call as TVM 0.19 would hold it (or ``MISSING``)."""
    if key not in call.attrs:
        return MISSING
    value = call.attrs[key]
    if key == "padding" and isinstance(call.op, Op):
        m = _SPATIAL.search(call.op.name)
        if m and "global" not in call.op.name and "adaptive" not in call.op.name:
            return _pad_tuple(value, int(m.group(2)))
    return value
