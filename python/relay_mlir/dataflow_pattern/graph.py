"""An indexed dataflow graph of an expression with its post-dominator tree.

TVM 0.19's ``IndexedGraph<Expr>``: every sub-expression (operators, variables and function
parameters included) is a node, in post order (a call's callee, then its arguments); each
node knows its inputs and its users (``outputs``). A node's dominator parent is the least
common ancestor of its users in the tree (the root, the whole expression, has none), so
``a.dominates(b)`` says every path from ``b`` to the result goes through ``a``. The matcher
uses it for ``dominates`` patterns and ``partition`` to keep a match whose inner nodes feed
only the match.
"""
from __future__ import annotations

from typing import Dict, List, Optional

from ..adt import Match
from ..expr import Call, Expr, Function, If, Let, TupleWrapper
from ..expr_functor import dataflow_children

__all__ = ["GraphNode", "IndexedGraph", "expr_inputs"]


def _unwrap(e: Expr) -> Expr:
    return e.astuple() if isinstance(e, TupleWrapper) else e


def expr_inputs(e: Expr) -> List[Expr]:
    """The sub-expressions ``e`` uses, in TVM's visiting order."""
    if isinstance(e, Call):
        return [e.op] + list(e.args)
    if isinstance(e, Function):
        return list(e.params) + [e.body]
    if isinstance(e, Let):
        return [e.value, e.var, e.body]
    if isinstance(e, If):
        return [e.cond, e.true_branch, e.false_branch]
    if isinstance(e, Match):
        return [e.data] + [c.rhs for c in e.clauses]
    return dataflow_children(e)  # tuples, projections, references


class GraphNode:
    """One expression of the graph: ``ref`` (the expression), ``index`` (post order),
    ``inputs``, ``outputs`` (users), ``dominator_parent`` and ``dominator_children``."""

    __slots__ = ("ref", "index", "inputs", "outputs", "depth", "dominator_parent",
                 "dominator_children")

    def __init__(self, ref: Expr, index: int) -> None:
        self.ref, self.index = ref, index
        self.inputs: List[GraphNode] = []
        self.outputs: List[GraphNode] = []
        self.depth = 0
        self.dominator_parent: Optional[GraphNode] = None
        self.dominator_children: List[GraphNode] = []

    def dominates(self, other: "GraphNode") -> bool:
        """Whether ``other`` is below this node in the dominator tree."""
        stack, seen = [self], set()
        while stack:
            for child in stack.pop().dominator_children:
                if id(child) in seen:
                    continue
                if child is other:
                    return True
                seen.add(id(child))
                stack.append(child)
        return False


class IndexedGraph:
    """The graph of ``expr``: ``topological_order`` (post order) and ``node(e)``."""

    def __init__(self, expr: Expr) -> None:
        self.nodes: Dict[Expr, GraphNode] = {}
        self.topological_order: List[GraphNode] = []
        root = _unwrap(expr)
        self._index(root)
        for node in self.topological_order:
            for e in expr_inputs(node.ref):
                inp = self.nodes[_unwrap(e)]
                inp.outputs.append(node)
                node.inputs.append(inp)
        self._post_dominators(self.nodes[root])

    def node(self, e: Expr) -> GraphNode:
        return self.nodes[_unwrap(e)]

    def _index(self, root: Expr) -> None:
        stack = [(root, False)]
        while stack:
            e, ready = stack.pop()
            if e in self.nodes:
                continue
            if ready:
                n = GraphNode(e, len(self.topological_order))
                self.nodes[e] = n
                self.topological_order.append(n)
                continue
            stack.append((e, True))
            for child in reversed(expr_inputs(e)):
                child = _unwrap(child)
                if child not in self.nodes:
                    stack.append((child, False))

    def _post_dominators(self, root: GraphNode) -> None:
        for node in reversed(self.topological_order):
            parent = None if node is root else _common_ancestor(node.outputs)
            node.depth = 1 if parent is None else parent.depth + 1
            node.dominator_parent = parent
            if parent is not None:
                parent.dominator_children.append(node)


def _common_ancestor(nodes: List[GraphNode]) -> Optional[GraphNode]:
    if not nodes:
        return None
    out: Optional[GraphNode] = nodes[0]
    for n in nodes[1:]:
        out = _pair_ancestor(out, n)
    return out


def _pair_ancestor(a: Optional[GraphNode], b: Optional[GraphNode]) -> Optional[GraphNode]:
    while a is not b:
        if a is None or b is None:
            return None
        if a.depth < b.depth:
            b = b.dominator_parent
        elif a.depth > b.depth:
            a = a.dominator_parent
        else:
            a, b = a.dominator_parent, b.dominator_parent
    return a
