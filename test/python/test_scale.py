"""Deep and shared programs: traversals are iterative and memoised, the pipeline is linear.

The chain is the one a user writes in a loop,
``y = tanh(dense(relu(add(y, x)), w))``: four operators per step, tiny
shapes, so the time measured is the per-op cost of the builder, emission,
inference and lowering. Linearity is asserted by a ratio of times, never by
an absolute wall-clock.
"""
from __future__ import annotations

import time

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.analysis import bound_vars


def chain(n_ops: int):
    """``(x, w, body)``: the user's loop, ``n_ops`` operators (a multiple of 4)."""
    x = relay.var("x", shape=(1, 4))
    w = relay.var("w", shape=(4, 4))
    y = x
    for _ in range(n_ops // 4):
        y = relay.tanh(relay.nn.dense(relay.nn.relu(relay.add(y, x)), w))
    return x, w, y


def numpy_chain(n_ops: int, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    y = x
    for _ in range(n_ops // 4):
        y = np.tanh(np.maximum(y + x, 0) @ w.T)
    return y


def diamond(depth: int):
    """``y = y + y`` ``depth`` times: a DAG of ``depth`` calls, a tree of 2**depth."""
    x = relay.var("x", shape=(2,))
    y = x
    for _ in range(depth):
        y = relay.add(y, y)
    return x, y


class CallCounter(relay.ExprVisitor):
    def __init__(self):
        super().__init__()
        self.calls = 0
        self.vars = 0

    def visit_call(self, call):
        self.calls += 1
        super().visit_call(call)

    def visit_var(self, var):
        self.vars += 1


# -- ExprVisitor / ExprMutator / free_vars ------------------------------------------
def test_visitor_deep_chain_visits_each_node_once():
    x, w, y = chain(100_000)
    c = CallCounter()
    c.visit(y)
    assert (c.calls, c.vars) == (100_000, 2)


def test_visitor_dag_is_linear():
    _, y = diamond(200)  # 2**200 paths: only memoisation finishes this
    c = CallCounter()
    c.visit(y)
    assert (c.calls, c.vars) == (200, 1)


def test_visitor_override_of_visit_let_sees_every_let():
    x = relay.var("x", shape=(2,))
    body = x
    for i in range(3000):
        body = relay.Let(relay.var(f"v{i}"), relay.exp(x), body)

    class LetCounter(relay.ExprVisitor):
        def __init__(self):
            super().__init__()
            self.n = 0

        def visit_let(self, let):
            self.n += 1
            super().visit_let(let)

    plain = CallCounter()
    plain.visit(body)  # the base class walks the chain in a loop
    assert plain.calls == 3000
    counter = LetCounter()
    counter.visit(relay.Let(relay.var("a"), x, relay.Let(relay.var("b"), x, x)))
    assert counter.n == 2


def test_mutator_identity_returns_same_objects():
    _, _, y = chain(40_000)
    assert relay.ExprMutator().visit(y) is y
    fn = relay.Function([relay.var("p")], relay.Tuple([y, y]))
    assert relay.ExprMutator().visit(fn) is fn


def test_mutator_rebuilds_changed_path_and_keeps_sharing():
    x, y = diamond(300)
    x2 = relay.var("x2", shape=(2,))

    class Rename(relay.ExprMutator):
        def visit_var(self, var):
            return x2 if var is x else var

    new = Rename().visit(y)
    assert new is not y
    # still a DAG: both operands of every add are one object
    node, depth = new, 0
    while isinstance(node, relay.Call):
        assert node.args[0] is node.args[1]
        node, depth = node.args[0], depth + 1
    assert node is x2 and depth == 300
    assert relay.free_vars(new) == [x2]
    assert new.span is y.span  # rebuilt nodes keep the user's location


def test_mutator_replaces_calls_deep():
    x, w, y = chain(20_000)

    class TanhToSigmoid(relay.ExprMutator):
        def visit_call(self, call):
            new = super().visit_call(call)
            if new.op.name == "tanh":
                return relay.sigmoid(new.args[0])
            return new

    new = TanhToSigmoid().visit(y)
    ops = {}

    class Names(relay.ExprVisitor):
        def visit_op(self, op):
            ops[op.name] = ops.get(op.name, 0) + 1

    Names().visit(new)
    # visit_op runs once per distinct Op (memoised): every kind appears once
    assert sorted(ops) == ["add", "nn.dense", "nn.relu", "sigmoid"]
    assert new.op.name == "sigmoid" and y.op.name == "tanh"


def test_free_vars_deep_and_shared():
    x, w, y = chain(20_000)
    assert relay.free_vars(y) == [x, w]
    _, d = diamond(500)
    assert [v.name_hint for v in relay.free_vars(d)] == ["x"]
    # a deep Let chain: each let's variable is bound, the free ones are not
    a = relay.var("a", shape=(2,))
    body, names = a, []
    for i in range(5000):
        v = relay.var(f"v{i}", shape=(2,))
        body = relay.Let(v, relay.add(body, a), v)
        names.append(v)
    assert relay.free_vars(body) == [a]
    assert set(bound_vars(body)) == set(names)
    # closure parameters are bound, captures are free
    k, z = relay.var("k"), relay.var("z")
    assert relay.free_vars(relay.Function([z], relay.add(z, k))) == [k]


# -- the whole pipeline -------------------------------------------------------------
def _build_infer_lower(n_ops: int):
    t0 = time.perf_counter()
    x, w, y = chain(n_ops)
    mod = relay.IRModule.from_expr(relay.Function([x, w], y))
    t1 = time.perf_counter()
    mod = relay.transform.InferType()(mod)
    t2 = time.perf_counter()
    text = relay.lower_to_iree_input(mod)
    t3 = time.perf_counter()
    assert y.checked_type == relay.TensorType((1, 4))
    assert "relay." not in text and "linalg.matmul" in text
    return t1 - t0, t2 - t1, t3 - t2


@pytest.mark.slow
def test_100k_ops_build_infer_lower_in_linear_time():
    small = _build_infer_lower(10_000)
    big = _build_infer_lower(100_000)
    report = {stage: f"{s:.2f}s -> {b:.2f}s" for stage, s, b in zip(("build", "infer", "lower"), small, big)}
    print("10k -> 100k ops:", report)
    # 10x the ops: a linear pipeline takes ~10x the time; quadratic would be 100x
    assert sum(big) / sum(small) < 20, report


def test_deep_let_chain_infers():
    a = relay.var("a", shape=(2, 3))
    vs = [relay.var(f"v{i}") for i in range(5000)]
    # let v0 = a + a in let v1 = v0 + a in ... vN
    expr = vs[-1]
    prev = [a] + vs[:-1]
    for v, p in zip(reversed(vs), reversed(prev)):
        expr = relay.Let(v, relay.add(p, a), expr)
    mod = relay.transform.InferType()(relay.IRModule.from_expr(expr))
    assert mod["main"].body.checked_type == relay.TensorType((2, 3))
    assert vs[0].checked_type == vs[-1].checked_type == relay.TensorType((2, 3))


@pytest.mark.slow
def test_20k_ops_compile_and_run_match_numpy():
    n = 20_000
    x, w, y = chain(n)
    exe = relay.compile(relay.IRModule.from_expr(relay.Function([x, w], y)))
    rng = np.random.default_rng(0)
    xv = rng.standard_normal((1, 4)).astype("float32")
    wv = (0.5 * rng.standard_normal((4, 4))).astype("float32")
    out = exe(xv, wv)
    print(f"20k ops: lower {exe.lower_time_s:.1f}s, iree-compile {exe.iree_time_s:.1f}s")
    np.testing.assert_allclose(out, numpy_chain(n, xv, wv), rtol=1e-5, atol=1e-6)


def test_nested_ifs_and_closures_emit_and_infer():
    # region nesting is the one place emission recurses: 500 levels still work
    x = relay.var("x", shape=(2,))
    c = relay.var("c", shape=(), dtype="bool")
    e = x
    for _ in range(500):
        e = relay.If(c, relay.exp(e), x)
    mod = relay.transform.InferType()(relay.IRModule.from_expr(relay.Function([c, x], e)))
    assert mod["main"].body.checked_type == relay.TensorType((2,))
    f = relay.Function([x], relay.exp(x))
    for _ in range(200):
        p = relay.var("p", shape=(2,))
        f = relay.Function([p], relay.Call(f, [p]))
    mod = relay.transform.InferType()(relay.IRModule.from_expr(relay.Function([x], relay.Call(f, [x]))))
    assert mod["main"].body.checked_type == relay.TensorType((2,))
