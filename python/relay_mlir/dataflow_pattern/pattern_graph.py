"""The nodes of a pattern in post order, with their inputs (TVM's ``IndexedGraph<DFPattern>``).

``partition`` turns the expressions matched by a pattern's leaves into the parameters of
the partitioned function in this order.
"""
from __future__ import annotations

from typing import Dict, List

from .pattern import (AltPattern, AttrPattern, CallPattern, DataTypePattern, DFPattern,
                      DominatorPattern, FunctionPattern, IfPattern, LetPattern, ShapePattern,
                      TupleGetItemPattern, TuplePattern, TypePattern, WildcardPattern)

__all__ = ["pattern_inputs", "pattern_post_order"]


def pattern_inputs(p: DFPattern) -> List[DFPattern]:
    """The sub-patterns ``p`` is built from (a redirected wildcard has none, as in TVM)."""
    if isinstance(p, AltPattern):
        return [p.left, p.right]
    if isinstance(p, (AttrPattern, DataTypePattern, ShapePattern, TypePattern)):
        return [p.pattern]
    if isinstance(p, CallPattern):
        return [p.op] + list(p.args or [])
    if isinstance(p, DominatorPattern):
        return [p.parent, p.path, p.child]
    if isinstance(p, FunctionPattern):
        return list(p.params or []) + [p.body]
    if isinstance(p, TupleGetItemPattern):
        return [p.tuple_value]
    if isinstance(p, TuplePattern):
        return list(p.fields or [])
    if isinstance(p, IfPattern):
        return [p.cond, p.true_branch, p.false_branch]
    if isinstance(p, LetPattern):
        return [p.var, p.value, p.body]
    return []


def _visit_order(p: DFPattern) -> List[DFPattern]:
    kids = pattern_inputs(p)
    if isinstance(p, WildcardPattern) and p.redirect is not None:
        kids = [p.redirect]
    return kids


def pattern_post_order(root: DFPattern) -> List[DFPattern]:
    """Every pattern node reachable from ``root``, children first."""
    order: List[DFPattern] = []
    done: Dict[DFPattern, bool] = {}
    stack = [(root, False)]
    while stack:
        p, ready = stack.pop()
        if p in done:
            continue
        if ready:
            done[p] = True
            order.append(p)
            continue
        stack.append((p, True))
        for child in reversed(_visit_order(p)):
            if child not in done:
                stack.append((child, False))
    return order
