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


def mod_of(body):
    """A module whose ``main`` is ``body`` over its free variables."""
    import relay_mlir as relay

    return relay.IRModule.from_expr(relay.Function(relay.analysis.free_vars(body), body))


def outputs(mod, args) -> list:
    """``mod["main"]``'s outputs on ``args`` (reference interpreter), as arrays."""
    import numpy as np
    import relay_mlir as relay

    out = relay.create_executor("debug", mod=mod).evaluate()(*args)
    return [np.asarray(o) for o in out] if isinstance(out, (list, tuple)) else [np.asarray(out)]


def random_args(mod, rng) -> list:
    """Standard-normal arguments for ``mod["main"]``'s parameters (static shapes)."""
    return [rng.standard_normal([int(d) for d in p.type_annotation.shape]).astype(p.type_annotation.dtype)
            for p in mod["main"].params]


def assert_same_outputs(mod, out, seed: int = 0) -> None:
    """``out`` gives ``mod``'s outputs (shapes, dtypes, values to 1e-5) on random arguments."""
    import numpy as np

    args = random_args(mod, np.random.default_rng(seed))
    for before, after in zip(outputs(mod, args), outputs(out, args)):
        assert after.shape == before.shape and after.dtype == before.dtype
        np.testing.assert_allclose(after, before, rtol=1e-5, atol=1e-5)


def function_pass_counts(p, mod, name: str, opt_level: int) -> tuple:
    """Checks that ``p`` is the FunctionPass ``name`` of ``opt_level`` requiring InferType, and
    returns the ``node_counts`` of ``Sequential([p])(mod)`` in a PassContext of ``opt_level - 1``
    (the pass is skipped) and of ``opt_level`` (it runs)."""
    from relay_mlir.transform import FunctionPass, PassContext, Sequential

    assert isinstance(p, FunctionPass)
    assert (p.info.name, p.info.opt_level, p.info.required) == (name, opt_level, ("InferType",))
    counts = []
    for level in (opt_level - 1, opt_level):
        with PassContext(opt_level=level):
            counts.append(node_counts(Sequential([p])(mod)))
    return tuple(counts)


def under_target(p, mod, target, opt_level: int = 3):
    """``p(mod)`` in a PassContext of ``opt_level`` under ``tvm.target.Target(target)`` (none
    if ``target`` is None): how TVM scripts run its target-dependent passes."""
    from relay_mlir.transform import PassContext
    from relay_mlir.tvm.target import Target

    with PassContext(opt_level=opt_level):
        if target is None:
            return p(mod)
        with Target(target):
            return p(mod)
