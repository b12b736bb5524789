"""relay.transform.DeadCodeElimination (relay-dead-code-elimination; docs/passes.md).

Programs built with the TVM-style API; each test checks what is left in ``mod["main"]`` and
that the reference interpreter gives the same outputs before and after (exact: nothing is
recomputed differently). Facts marked "TVM 0.19" were observed by running TVM 0.19's
DeadCodeElimination on the same programs.
"""
from __future__ import annotations

import numpy as np

import relay_mlir as relay
from relay_mlir.expr import If
from relay_mlir.transform import PassContext, Sequential

from pass_checks import node_counts as kinds


def run(mod, *args):
    return np.asarray(relay.create_executor("debug", mod=mod).evaluate()(*args))


def test_dead_pure_lets_go():
    # TVM 0.19: let %y = exp(%x); let %z = log(%y); %x + %x  ->  add(%x, %x)
    x, y, z = relay.var("x", shape=(2,)), relay.var("y"), relay.var("z")
    mod = relay.IRModule.from_expr(relay.Function([x], relay.Let(y, relay.exp(x), relay.Let(z, relay.log(y), x + x))))
    out = relay.transform.DeadCodeElimination()(mod)
    assert kinds(out) == {"add": 1}
    a = np.array([1.0, -2.0], "float32")
    np.testing.assert_array_equal(run(out, a), run(mod, a))


def _ref_program():
    # let %r = ref(%x); let %w = (%r := %x * 2); !%r   (%w is unused)
    x, r, w = relay.var("x", shape=(2,)), relay.var("r"), relay.var("w")
    body = relay.Let(r, relay.RefCreate(x),
                     relay.Let(w, relay.RefWrite(r, x * relay.const(2.0)), relay.RefRead(r)))
    return relay.IRModule.from_expr(relay.Function([x], body))


def test_a_dead_write_is_an_effect():
    # TVM 0.19: the default keeps the let of the write (result [2, 2] for ones); with
    # ignore_impurity=True it goes and the read sees the initial value ([1, 1]).
    mod = _ref_program()
    ones = np.ones(2, "float32")
    np.testing.assert_array_equal(run(mod, ones), [2, 2])
    out = relay.transform.DeadCodeElimination()(mod)
    assert kinds(out) == {"multiply": 1, "ref_write": 1, "ref_read": 1}
    np.testing.assert_array_equal(run(out, ones), [2, 2])
    out = relay.transform.DeadCodeElimination(ignore_impurity=True)(mod)
    assert kinds(out) == {"ref_read": 1}
    np.testing.assert_array_equal(run(out, ones), [1, 1])


def test_dead_calls_of_pure_and_impure_functions():
    # A call of a pure global function is dead; a call of one that writes a reference is not.
    mod = relay.IRModule()
    q = relay.var("q", shape=(2,))
    mod["pure"] = relay.Function([q], relay.exp(q))
    rr, w = relay.var("rr", relay.RefType(relay.TensorType((2,), "float32"))), relay.var("w")
    mod["writes"] = relay.Function([rr], relay.Let(w, relay.RefWrite(rr, relay.exp(relay.RefRead(rr))),
                                                   relay.const(0.0)))
    x, r, u1, u2 = relay.var("x", shape=(2,)), relay.var("r"), relay.var("u1"), relay.var("u2")
    body = relay.Let(r, relay.RefCreate(x),
                     relay.Let(u1, relay.Call(mod.get_global_var("pure"), [x]),
                               relay.Let(u2, relay.Call(mod.get_global_var("writes"), [r]), relay.RefRead(r))))
    mod["main"] = relay.Function([x], body)
    out = relay.transform.DeadCodeElimination()(mod)
    calls = []

    class Callees(relay.ExprVisitor):
        def visit_call(self, call):
            if isinstance(call.op, relay.GlobalVar):
                calls.append(call.op.name_hint)
            super().visit_call(call)

    Callees().visit(out["main"])
    assert calls == ["writes"]
    a = np.array([0.5, 1.0], "float32")
    np.testing.assert_allclose(run(out, a), np.exp(a), rtol=1e-6)
    np.testing.assert_allclose(run(mod, a), np.exp(a), rtol=1e-6)


def test_inline_once_moves_a_value_into_its_branch():
    # TVM 0.19 with inline_once=True: let %a = exp(%x); if (%c) { %a } else { %x }
    #   ->  if (%c) { exp(%x) } else { %x }; without it the let stays before the if.
    c, x, a = relay.var("c", shape=(), dtype="bool"), relay.var("x", shape=(2,)), relay.var("a")
    mod = relay.IRModule.from_expr(relay.Function([c, x], relay.Let(a, relay.exp(x), relay.If(c, a, x))))
    out = relay.transform.DeadCodeElimination(inline_once=True)(mod)
    # As TVM prints it: the if is the body and exp is in its then branch.
    assert isinstance(out["main"].body, If)
    assert out["main"].body.true_branch.op.name == "exp"
    # In the MLIR the pass runs on, the exp moved from before the relay.if into its then
    # region (test/lit/transforms/dead-code-elimination.mlir checks both forms). Read back
    # into expressions, the program without inline_once is the same graph: a node used only in
    # a branch is evaluated there, and the let TVM keeps is not kept by the MLIR round trip.
    v = np.array([0.0, 1.0], "float32")
    for cond in (True, False):
        np.testing.assert_array_equal(run(out, np.array(cond), v), run(mod, np.array(cond), v))


def test_pass_info_and_sequential():
    p = relay.transform.DeadCodeElimination()
    # TVM 0.19: ModulePass "DeadCodeElimination", opt level 1, requires InferType; defaults
    # inline_once=False, ignore_impurity=False.
    assert isinstance(p, relay.transform.ModulePass)
    assert (p.info.name, p.info.opt_level, p.info.required) == ("DeadCodeElimination", 1, ("InferType",))
    assert (p.inline_once, p.ignore_impurity) == (False, False)
    x, y = relay.var("x", shape=(2,)), relay.var("y")
    mod = relay.IRModule.from_expr(relay.Function([x], relay.Let(y, relay.exp(x), relay.negative(x))))
    with PassContext(opt_level=0):     # skipped: the dead let is still there
        assert kinds(Sequential([p])(mod)) == {"exp": 1, "negative": 1}
    with PassContext(opt_level=1):
        assert kinds(Sequential([p])(mod)) == {"negative": 1}


def test_passes_keep_dead_effects_and_their_order():
    # Reading a pass's MLIR back keeps unused ops with effects as lets, and reference reads and
    # writes in order (it dropped unused ops: FoldConstant lost the write and gave [1, 1]).
    ones = np.ones(2, "float32")
    out = relay.transform.FoldConstant()(_ref_program())
    assert kinds(out) == {"multiply": 1, "ref_write": 1, "ref_read": 1}
    np.testing.assert_array_equal(run(out, ones), [2, 2])
    # let %a = !%r; %r := %x * 3; %a + !%r  reads before and after the write.
    x, r, a, w = relay.var("x", shape=(2,)), relay.var("r"), relay.var("a"), relay.var("w")
    body = relay.Let(r, relay.RefCreate(x), relay.Let(a, relay.RefRead(r), relay.Let(
        w, relay.RefWrite(r, x * relay.const(3.0)), a + relay.RefRead(r))))
    mod = relay.IRModule.from_expr(relay.Function([x], body))
    np.testing.assert_array_equal(run(mod, ones), [4, 4])
    np.testing.assert_array_equal(run(relay.transform.DeadCodeElimination()(mod), ones), [4, 4])
