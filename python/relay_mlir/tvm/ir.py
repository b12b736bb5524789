"""``tvm.ir``: ``IRModule``, ``register_op_attr``, ``transform`` (``tvm.transform``),
``structural_equal`` / ``assert_structural_equal``.

TVM 0.19: ``tvm.ir.structural_equal(lhs, rhs, map_free_vars=False)`` compares expressions,
functions, types or whole modules (the same global names, each function structurally
equal); ``assert_structural_equal`` raises ``ValueError`` ("StructuralEqual check failed")
when they differ. Expressions are compared by ``relay_mlir.dataflow_pattern.structural``.

TVM 0.19: ``tvm.ir.register_op_attr(op_name, attr_key, value=None, level=10)``
registers an attribute of an operator (``"target.<compiler>"`` functions for BYOC,
``FTVMLegalize``, ...), as a decorator when ``value`` is None. It forwards to
``relay_mlir.op.register_op_attr`` when relay-mlir has one; otherwise it raises
``NotImplementedError`` naming issue 34 (the BYOC issue that brings it).
"""
from __future__ import annotations

from ..dataflow_pattern.structural import structural_equal as _expr_equal
from ..expr import Expr, Op  # Op: tvm.ir.Op (isinstance(call.op, tvm.ir.Op) in visitors)
from ..module import IRModule
from . import transform

__all__ = ["IRModule", "Op", "register_op_attr", "transform", "structural_equal", "assert_structural_equal"]


def structural_equal(lhs: object, rhs: object, map_free_vars: bool = False) -> bool:
    """Whether ``lhs`` and ``rhs`` (expressions, types or modules) are structurally equal."""
    if isinstance(lhs, IRModule) or isinstance(rhs, IRModule):
        if not (isinstance(lhs, IRModule) and isinstance(rhs, IRModule)):
            return False
        left = {gv.name_hint: f for gv, f in lhs.functions.items()}
        right = {gv.name_hint: f for gv, f in rhs.functions.items()}
        return left.keys() == right.keys() and all(
            structural_equal(left[k], right[k], map_free_vars) for k in left)
    if isinstance(lhs, Expr) and isinstance(rhs, Expr):
        return _expr_equal(lhs, rhs, map_free_vars)
    return lhs == rhs


def assert_structural_equal(lhs: object, rhs: object, map_free_vars: bool = False) -> None:
    """Raises ``ValueError`` if ``lhs`` and ``rhs`` are not structurally equal (TVM's class)."""
    if not structural_equal(lhs, rhs, map_free_vars):
        raise ValueError(f"StructuralEqual check failed:\n{lhs}\nvs\n{rhs}")


def register_op_attr(op_name: str, attr_key: str, value=None, level: int = 10):
    from .. import op

    forward = getattr(op, "register_op_attr", None)
    if forward is None:
        raise NotImplementedError(
            f"tvm.ir.register_op_attr('{op_name}', '{attr_key}'): relay-mlir has no operator "
            "attribute registry yet; it comes with issue 34 (BYOC / pattern partitioning)")
    return forward(op_name, attr_key, value, level)
