"""``partition``: each match of a pattern becomes a function literal called in place.

TVM 0.19's ``PatternPartitioner``: the groups of ``PatternGrouper`` are rewritten bottom-up;
a group whose root passes ``check(root)`` is replaced by ``Call(fn, inputs)`` where ``fn``
computes the match from parameters ``FunctionVar_<n>_<i>`` and carries
``PartitionedFromPattern`` (the matched op names in post order, each followed by ``_``)
and the given ``attrs``.

>>> import relay_mlir as relay
>>> from relay_mlir.dataflow_pattern import is_op, wildcard
>>> x, w = relay.var("x", shape=(1, 4)), relay.var("w", shape=(2, 4))
>>> p = is_op("nn.relu")(is_op("nn.dense")(wildcard(), wildcard()))
>>> out = p.partition(relay.nn.relu(relay.nn.dense(x, w)), {"Composite": "dense_relu"})
>>> out.op.attrs["PartitionedFromPattern"], out.op.attrs["Composite"]
('nn.dense_nn.relu_', 'dense_relu')
"""
from __future__ import annotations

import warnings
from typing import Callable, Dict, Optional

from ..expr import Call, Expr, Function, Tuple
from ..expr_functor import ExprMutator
from .grouper import Group, PatternGrouper
from .matcher import FieldsTuple, checked_args
from .pattern import DFPattern, FunctionPattern

__all__ = ["partition", "GroupRewriter"]


class GroupRewriter(ExprMutator):
    """A mutator that calls ``on_root(group, pre, post)`` at the root of each group."""

    def __init__(self, groups: Dict[int, Group], gid_of: Dict[Expr, int]) -> None:
        super().__init__()
        self.groups, self.gid_of = groups, gid_of

    def _dispatch(self, pre: Expr) -> Expr:
        post = super()._dispatch(pre)
        gid = self.gid_of.get(pre)
        if gid is not None and self.groups[gid].root is pre:
            return self.on_root(self.groups[gid], pre, post)
        return post

    def on_root(self, group: Group, pre: Expr, post: Expr) -> Expr:
        raise NotImplementedError

    def rewritten(self, e: Expr) -> Expr:
        if isinstance(e, FieldsTuple):  # TVM's tuple argument: the call's rewritten arguments
            return Tuple([self.rewritten(f) for f in e.fields])
        return self.memo_map.get(e, e)


class _Partitioner(GroupRewriter):
    def __init__(self, grouper: PatternGrouper, attrs: Dict[str, object],
                 check: Callable[[Expr], bool]) -> None:
        super().__init__(grouper.groups, grouper.gid_of)
        self.attrs, self.check = attrs, check

    def on_root(self, group: Group, pre: Expr, post: Expr) -> Expr:
        if not self.check(pre):
            return post
        fn = group.function
        attrs = {"PartitionedFromPattern": group.name}
        attrs.update(self.attrs)
        fn = Function(fn.params, fn.body, fn.ret_type, fn.type_params, attrs)
        return Call(fn, [self.rewritten(a) for a in group.args])


def partition(pattern: DFPattern, expr: Expr, attrs: Optional[Dict[str, object]] = None,
              check: Callable[[Expr], bool] = lambda x: True) -> Expr:
    """``tvm.relay.dataflow_pattern.partition``: ``expr`` with each match of ``pattern``
    replaced by a call of a function literal computing it."""
    expr = checked_args("partition", pattern, expr)
    if attrs is not None and not isinstance(attrs, dict):
        raise TypeError(f"partition's attrs must be a dict of attribute values, got {attrs!r}")
    if not callable(check):
        raise TypeError(f"partition's check must be a function of the matched root, got {check!r}")
    if isinstance(pattern, FunctionPattern):
        warnings.warn("partitioning a Function pattern that isn't called doesn't make sense: "
                      "the expression is left as it is", stacklevel=2)
        return expr
    grouper = PatternGrouper()
    grouper.group_matches(pattern, expr)
    return _Partitioner(grouper, dict(attrs or {}), check).visit(expr)


DFPattern.partition = partition  # ``pattern.partition(expr, attrs, check)``, as in TVM
