"""Finding the disjoint matches of a pattern in an expression (TVM 0.19's ``PatternGrouper``).

The grouper visits the expression from the result towards the inputs and, at each node not
yet in a group, tries the pattern. A match becomes a ``Group``: its root, what each pattern
node matched, its inputs (the expressions the pattern's leaves matched, in the pattern's post
order; operators, functions and constants a constant pattern matched are kept inside) and the
function literal that computes it from them. A match is dropped when it overlaps an earlier
group, or when one of its inner nodes is used outside the match (unless that use only feeds
the match's root). Functions already partitioned (``PartitionedFromPattern``) are not looked
into. ``partition`` and ``rewrite`` are built on it.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

from ..adt import Match
from ..expr import Call, Constant, Expr, Function, If, Let, Op, Tuple, TupleGetItem, Var
from ..expr_functor import ExprMutator
from .graph import expr_inputs
from .matcher import TUPLE_ARG_OPS, DFPatternMatcher, FieldsTuple
from .pattern import (AltPattern, CallPattern, ConstantPattern, DFPattern, DominatorPattern,
                      ExprPattern, FunctionPattern, TuplePattern)
from .pattern_graph import pattern_inputs, pattern_post_order

__all__ = ["Group", "PatternGrouper"]


class Group:
    """One match: ``root``, ``matched`` (pattern → expressions), ``args`` (the inputs),
    ``function`` (the match as a function of its inputs), ``name`` (the op names in post
    order, each followed by ``_``)."""

    def __init__(self, root: Expr, matched: Dict[DFPattern, List[Expr]]) -> None:
        self.root, self.matched = root, matched
        self.args: List[Expr] = []
        self.function: Optional[Function] = None
        self.name = ""
        self.gid = 0


class _Extractor(ExprMutator):
    """Rebuilds the match with its inputs replaced by the new parameters and records the
    names TVM's ``MatchExtractor`` gives the visited nodes."""

    def __init__(self, inputs: Dict[Expr, Var], tuple_inputs: Set[Call]) -> None:
        super().__init__()
        self.memo_map.update(inputs)
        self.tuple_inputs = tuple_inputs
        self.name = ""

    def _dispatch(self, expr: Expr) -> Expr:
        out = super()._dispatch(expr)
        if isinstance(expr, Call) and isinstance(expr.op, Op) and expr.op.name in TUPLE_ARG_OPS \
                and expr not in self.tuple_inputs:
            self.name += "Tuple_"  # TVM's tuple argument, inside the match
        self.name += _node_name(expr)
        return out


def _node_name(e: Expr) -> str:
    if isinstance(e, Call):
        return e.op.name + "_" if isinstance(e.op, Op) else "Call_"
    if isinstance(e, Tuple):
        return "Tuple_"
    if isinstance(e, Function):
        return "Function"
    if isinstance(e, Let):
        return "Let_"
    if isinstance(e, If):
        return "If_"
    if isinstance(e, TupleGetItem):
        return f"TupleGetItem{e.index}_"
    if isinstance(e, Match):
        return "Match_"
    return ""


def _inner_nodes(body: Expr) -> Set[Expr]:
    seen: Set[Expr] = set()
    stack = [body]
    while stack:
        e = stack.pop()
        if e in seen:
            continue
        seen.add(e)
        stack.extend(expr_inputs(e))
    return seen


class PatternGrouper:
    """``group_matches(pattern, expr)`` → ``{gid: Group}``; ``gid_of`` maps each node of a
    group to its id."""

    def __init__(self) -> None:
        self.groups: Dict[int, Group] = {}
        self.gid_of: Dict[Expr, int] = {}
        self._graph_number = 0
        self._gid = 0

    def group_matches(self, pattern: DFPattern, expr: Expr) -> Dict[int, Group]:
        self.groups, self.gid_of = {}, {}
        self.pattern = pattern
        self.pattern_order = pattern_post_order(pattern)
        self.matcher = DFPatternMatcher(expr)
        skipped: Set[Expr] = set()
        for node in reversed(self.matcher.graph.topological_order):
            current = node.ref
            if current in self.gid_of:
                continue
            if isinstance(current, Function) and "PartitionedFromPattern" in current.attrs:
                skipped.add(current)
                skipped |= _inner_nodes(current.body)
            if current not in skipped and self.matcher.match(pattern, current):
                self._create_group(current)
        return self.groups

    def _fuzzy(self, memo: Dict[DFPattern, List[Expr]]) -> Set[Expr]:
        """Nodes matched by a dominator's parent/path or inside a matched function: never inputs."""
        fuzzy: Set[Expr] = set()
        for p in self.pattern_order:
            if isinstance(p, DominatorPattern):
                for q in (p.parent, p.path):
                    fuzzy.update(memo.get(q, []))
            if isinstance(p, FunctionPattern):
                for fn in memo.get(p, []):
                    fuzzy |= _inner_nodes(fn.body)
        return fuzzy

    def _create_group(self, root: Expr) -> None:
        memo = {p: list(es) for p, es in self.matcher.memo.items()}
        fuzzy = self._fuzzy(memo)
        group = Group(root, memo)
        inputs: Dict[Expr, Var] = {}
        params: List[Var] = []
        tuple_inputs: Set[Call] = set()

        def make_input(e: Expr, p: DFPattern) -> None:
            if isinstance(e, FieldsTuple):  # relay-mlir's call has the fields as arguments
                tuple_inputs.add(e.call)
                for f in e.fields:
                    make_input(f, p)
                return
            if e in inputs or e in fuzzy or isinstance(e, (Op, Function)) or self._embed_const(e, p):
                return  # an expression two leaves matched is one parameter
            inputs[e] = Var(f"FunctionVar_{self._graph_number}_{len(params)}")
            group.args.append(e)
            params.append(inputs[e])

        for p in self.pattern_order:
            if isinstance(p, TuplePattern) and p.fields is None:
                for m in memo.get(p, []):
                    for f in m.fields:
                        make_input(f, p)
            elif isinstance(p, CallPattern) and p.args is None:
                for m in memo.get(p, []):
                    for a in m.args:
                        make_input(a, p)
            elif not pattern_inputs(p):
                for m in memo.get(p, []):
                    make_input(m, p)
        self._graph_number += 1
        extractor = _Extractor(inputs, tuple_inputs)
        body = extractor.visit(root)
        group.function = Function(params, body)
        group.name = extractor.name
        inner = [e for e in extractor.memo_map if e not in inputs]
        if not self._valid(root, body, inner, extractor.memo_map, inputs):
            return
        self._gid += 1
        group.gid = self._gid
        for e in inner:
            self.gid_of[e] = group.gid
        self.groups[group.gid] = group

    def _valid(self, root: Expr, body: Expr, inner: List[Expr], memo: Dict[Expr, Expr],
               inputs: Dict[Expr, Var]) -> bool:
        """No overlap with an earlier group, and no inner node used outside the match."""
        graph = self.matcher.graph
        inside = set(inner)
        for e in inner:
            if isinstance(e, (Op, Function, Constant)):
                continue
            if e in self.gid_of:
                return False
            if memo[e] is body or e not in graph.nodes:
                continue
            for user in graph.node(e).outputs:
                if user.ref not in inside and not graph.node(root).dominates(user):
                    return False
        return True

    def _embed_const(self, e: Expr, p: DFPattern) -> bool:
        """A constant matched by ``is_constant()`` or ``is_expr(constant)`` stays inside."""
        if not isinstance(e, Constant):
            return False
        if isinstance(p, ConstantPattern):
            return True
        if isinstance(p, ExprPattern):
            return isinstance(p.expr, Constant)
        if isinstance(p, AltPattern):
            side = p.left if DFPatternMatcher(e).match(p.left, e) else p.right
            return self._embed_const(e, side)
        return False
