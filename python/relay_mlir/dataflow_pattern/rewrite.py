"""``rewrite`` with ``DFPatternCallback``s, as in TVM 0.19.

For each callback in turn, the matches of its pattern are found (``PatternGrouper``) and the
expression is rebuilt bottom-up; at each match's root the callback gets ``pre`` (the
original node), ``post`` (the node with rewritten inputs) and ``node_map`` (each pattern
node → the rewritten expressions it matched) and returns the replacement. The whole round
repeats until the expression no longer changes (structurally), at most 100 rounds, unless a
callback was made with ``rewrite_once=True``.

>>> import relay_mlir as relay
>>> from relay_mlir.dataflow_pattern import DFPatternCallback, is_op, wildcard, rewrite
>>> class ExpToSigmoid(DFPatternCallback):
...     def __init__(self):
...         super().__init__()
...         self.x = wildcard()
...         self.pattern = is_op("exp")(self.x)
...     def callback(self, pre, post, node_map):
...         return relay.sigmoid(node_map[self.x][0])
>>> rewrite(ExpToSigmoid(), relay.exp(relay.var("a", shape=(2,)))).op.name
'sigmoid'
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Union

from ..expr import Expr, TupleWrapper
from ..module import IRModule
from .grouper import Group, PatternGrouper
from .partition import GroupRewriter
from .pattern import DFPattern
from .structural import structural_equal

__all__ = ["DFPatternCallback", "rewrite"]

_MAX_ROUNDS = 100


class DFPatternCallback:
    """Subclass it: set ``self.pattern`` and define ``callback(pre, post, node_map)``.

    ``require_type=True`` types the expression before each match (for callbacks that read
    ``checked_type``); ``rewrite_once=True`` runs one round only.
    """

    def __init__(self, require_type: bool = False, rewrite_once: bool = False) -> None:
        self.pattern: Optional[DFPattern] = None
        self.require_type = require_type
        self.rewrite_once = rewrite_once

    def rewrite(self, expr: Expr) -> Expr:
        """``rewrite(self, expr)``."""
        return rewrite(self, expr)

    def callback(self, pre: Expr, post: Expr, node_map: Dict[DFPattern, List[Expr]]) -> Expr:
        raise NotImplementedError("a DFPatternCallback subclass must define callback(pre, post, node_map)")


class _Rewriter(GroupRewriter):
    def __init__(self, grouper: PatternGrouper, callback: DFPatternCallback) -> None:
        super().__init__(grouper.groups, grouper.gid_of)
        self.callback = callback

    def on_root(self, group: Group, pre: Expr, post: Expr) -> Expr:
        node_map = {p: [self.rewritten(e) for e in es] for p, es in group.matched.items()}
        out = self.callback.callback(pre, post, node_map)
        if isinstance(out, TupleWrapper):
            out = out.astuple()
        if not isinstance(out, Expr):
            raise TypeError(f"{type(self.callback).__name__}.callback returned {out!r}, "
                            "expected a relay expression")
        return out


def _checked(callbacks: Union[DFPatternCallback, Sequence[DFPatternCallback]]) -> List[DFPatternCallback]:
    cbs = [callbacks] if isinstance(callbacks, DFPatternCallback) else list(callbacks)
    for cb in cbs:
        if not isinstance(cb, DFPatternCallback):
            raise TypeError(f"rewrite expects DFPatternCallbacks, got {cb!r}")
        if not isinstance(cb.pattern, DFPattern):
            raise ValueError(f"{type(cb).__name__}.pattern must be set to a dataflow pattern "
                             f"before rewriting, got {cb.pattern!r}")
    return cbs


def _typed(expr: Expr) -> Expr:
    IRModule.from_expr(expr).to_mlir(infer=True)  # types the expression's nodes
    return expr


def rewrite(callbacks: Union[DFPatternCallback, Sequence[DFPatternCallback]], expr: Expr,
            mod: Optional[object] = None) -> Expr:
    """``tvm.relay.dataflow_pattern.rewrite``: ``expr`` rewritten by ``callbacks``."""
    cbs = _checked(callbacks)
    if isinstance(expr, TupleWrapper):
        expr = expr.astuple()
    if not isinstance(expr, Expr):
        raise TypeError(f"rewrite expects a relay expression, got {expr!r}")
    post, rounds = expr, 0
    while True:
        last = post
        for cb in cbs:
            if cb.require_type:
                post = _typed(post)
            grouper = PatternGrouper()
            grouper.group_matches(cb.pattern, post)
            post = _Rewriter(grouper, cb).visit(post)
            rounds += 1
        if structural_equal(last, post, map_free_vars=True) or any(cb.rewrite_once for cb in cbs):
            return post
        if rounds >= _MAX_ROUNDS:
            raise RuntimeError(f"rewrite: observed {_MAX_ROUNDS} rewrite passes and the expression "
                               "still changes; are two callbacks undoing each other?")
