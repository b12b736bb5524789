"""``tvm.ir``: ``IRModule``, ``register_op_attr``, ``transform`` (``tvm.transform``).

TVM 0.19: ``tvm.ir.register_op_attr(op_name, attr_key, value=None, level=10)``
registers an attribute of an operator (``"target.<compiler>"`` functions for BYOC,
``FTVMLegalize``, ...), as a decorator when ``value`` is None. It forwards to
``relay_mlir.op.register_op_attr`` when relay-mlir has one; otherwise it raises
``NotImplementedError`` naming issue 34 (the BYOC issue that brings it).
"""
from __future__ import annotations

from ..module import IRModule
from . import transform

__all__ = ["IRModule", "register_op_attr", "transform"]


def register_op_attr(op_name: str, attr_key: str, value=None, level: int = 10):
    from .. import op

    forward = getattr(op, "register_op_attr", None)
    if forward is None:
        raise NotImplementedError(
            f"tvm.ir.register_op_attr('{op_name}', '{attr_key}'): relay-mlir has no operator "
            "attribute registry yet; it comes with issue 34 (BYOC / pattern partitioning)")
    return forward(op_name, attr_key, value, level)
