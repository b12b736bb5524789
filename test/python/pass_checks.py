"""What the pass tests look at in a transformed module: the operators (and reference
reads/writes) left in ``mod["main"]``, counted by name."""
from __future__ import annotations

import collections

from relay_mlir.expr import Call, Op
from relay_mlir.expr_functor import ExprVisitor


class _NodeCounter(ExprVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.count: collections.Counter = collections.Counter()

    def visit_call(self, call: Call) -> None:
        if isinstance(call.op, Op):
            self.count[call.op.name] += 1
        super().visit_call(call)

    def visit_ref_write(self, r) -> None:
        self.count["ref_write"] += 1
        super().visit_ref_write(r)

    def visit_ref_read(self, r) -> None:
        self.count["ref_read"] += 1
        super().visit_ref_read(r)


def node_counts(mod) -> dict:
    """{operator name, "ref_read", "ref_write": uses in ``mod["main"]``}, sorted by name."""
    v = _NodeCounter()
    v.visit(mod["main"])
    return dict(sorted(v.count.items()))
