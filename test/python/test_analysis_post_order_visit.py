"""relay.analysis.post_order_visit against TVM 0.19 (the node orders recorded in the side venv,
/work/tvmvenv, with the same programs built by TVM's Python API)."""
from __future__ import annotations

import relay_mlir as relay
from relay_mlir.analysis import post_order_visit
from relay_mlir.expr import Call, Op, Var


def name(e) -> str:
    if isinstance(e, Op):
        return "Op:" + e.name
    if isinstance(e, Var):
        return "Var:" + e.name_hint
    if isinstance(e, Call):
        return "Call:" + (e.op.name if isinstance(e.op, Op) else "?")
    return type(e).__name__


def order(e) -> list:
    out = []
    post_order_visit(e, lambda n: out.append(name(n)))
    return out


def test_dag_if_and_tuples_as_tvm():
    x = relay.var("x", shape=(2,))
    y = relay.exp(x)
    f = relay.Function([x], relay.Tuple([y + y, relay.If(relay.const(True), y, x),
                                         relay.TupleGetItem(relay.Tuple([x]), 0)]))
    assert order(f) == ["Var:x", "Op:add", "Op:exp", "Call:exp", "Call:add", "Constant", "If",
                        "Tuple", "TupleGetItem", "Tuple", "Function"]


def test_let_and_closure_as_tvm():
    x, g, p = relay.var("x", shape=(2,)), relay.var("g"), relay.var("p", shape=(2,))
    f = relay.Function([x], relay.Let(g, relay.Function([p], x), relay.Call(g, [x])))
    assert order(f) == ["Var:x", "Var:p", "Function", "Var:g", "Call:?", "Let", "Function"]


def test_deep_chain_is_iterative():
    x = relay.var("x", shape=(2,))
    e = x
    for _ in range(5000):
        e = relay.negative(e)
    assert len(order(e)) == 5002   # x, the operator, 5000 calls
