"""relay.transform.EliminateCommonSubexpr (relay-eliminate-common-subexpr; docs/passes.md).

Programs built with the TVM-style API; each test checks the operators left in ``mod["main"]``
and that the reference interpreter gives the same outputs before and after (exact: merging
computes nothing differently). The counts in ``TVM`` were measured by running TVM 0.19's
EliminateCommonSubexpr on the same programs (relay.analysis.post_order_visit over main,
counting Op calls).
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.expr import Call, TupleGetItem

from pass_checks import function_pass_counts, mod_of as _mod, node_counts, outputs as _outputs

ECSE = relay.transform.EliminateCommonSubexpr

x = relay.var("x", shape=(2, 3))
y = relay.var("y", shape=(2, 3))
c = relay.var("c", shape=(), dtype="bool")
p = relay.var("p", shape=(2, 3))


def _programs():
    s = relay.split(x, 3, axis=1)
    return {
        "basic": relay.add(relay.exp(x), relay.exp(x)),
        "chain": relay.Tuple([relay.exp(x + y), relay.exp(x + y)]),
        "attrs": relay.Tuple([relay.sum(x, axis=1), relay.sum(x, axis=0), relay.sum(x, axis=1)]),
        "scalar_const": relay.Tuple([x + relay.const(1.0), x + relay.const(1.0), x + relay.const(2.0)]),
        "tensor_const": relay.Tuple([x + relay.const(np.ones(3, "float32")),
                                     x + relay.const(np.ones(3, "float32"))]),
        "swapped": relay.Tuple([x + y, y + x]),
        "cast": relay.Tuple([relay.cast(x, "float16"), relay.cast(x, "float16"), relay.cast(x, "int32")]),
        "concat": relay.Tuple([relay.concatenate([x, y], 0), relay.concatenate([x, y], 0)]),
        "split_fields": relay.Tuple([relay.exp(s[0]), relay.exp(s[0]), relay.split(x, 3, axis=1)[0]]),
        "dropout": relay.Tuple([relay.nn.dropout(x), relay.nn.dropout(x)]),
        "zeros": relay.Tuple([relay.zeros((2, 3), "float32") + x, relay.zeros((2, 3), "float32") + x]),
        "branches": relay.If(c, relay.exp(x), relay.exp(x) * y),
        "branch_and_after": relay.If(c, relay.exp(x), y) + relay.exp(x),
        "closure": relay.Tuple([relay.Call(relay.Function([p], relay.exp(x) + p), [y]), relay.exp(x)]),
    }


# TVM 0.19's operator counts after the pass, for each program above.
TVM = {
    "basic": {"add": 1, "exp": 1},
    "chain": {"add": 1, "exp": 1},
    "attrs": {"sum": 2},
    "scalar_const": {"add": 2},
    "tensor_const": {"add": 2},
    "swapped": {"add": 2},
    "cast": {"cast": 2},
    "concat": {"concatenate": 1},
    "split_fields": {"exp": 1, "split": 1},
    "dropout": {"nn.dropout": 2},
    "zeros": {"add": 2, "zeros": 2},     # zeros() has no operands: never merged, so the adds differ
    "branches": {"exp": 1, "multiply": 1},
    "branch_and_after": {"add": 1, "exp": 1},
    "closure": {"add": 1, "exp": 1},
}


def _args(mod, rng):
    out = []
    for param in mod["main"].params:
        t = param.type_annotation
        out.append(np.array(True) if t.dtype == "bool" else rng.standard_normal([int(d) for d in t.shape]).astype(t.dtype))
    return out


@pytest.mark.parametrize("name", sorted(TVM))
def test_merged_as_tvm(name):
    mod = _mod(_programs()[name])
    out = ECSE()(mod)
    assert node_counts(out) == TVM[name]
    assert out["main"].body.checked_type == relay.transform.InferType()(mod)["main"].body.checked_type
    rng = np.random.default_rng(0)
    args = _args(mod, rng)
    if name == "dropout":     # the interpreter's dropout is the identity at inference
        args = [np.abs(a) for a in args]
    for flag in ([True, False] if any(p.name_hint == "c" for p in mod["main"].params) else [None]):
        if flag is not None:
            args = [np.array(flag) if a.dtype == bool else a for a in args]
        for before, after in zip(_outputs(mod, args), _outputs(out, args)):
            np.testing.assert_array_equal(after, before)


def test_the_kept_call_is_shared():
    out = ECSE()(_mod(relay.add(relay.exp(x), relay.exp(x))))
    body = out["main"].body
    assert body.args[0] is body.args[1]
    # a field read of one tuple value merges (the second split is first merged into the first)
    s = relay.split(x, 3, axis=1)
    out = ECSE()(_mod(relay.Tuple([s[0], relay.split(x, 3, axis=1)[0], s[1]])))
    f = out["main"].body.fields
    assert isinstance(f[0], TupleGetItem) and f[0] is f[1] and f[2] is not f[0]


def test_fskip():
    # TVM 0.19: fskip(add) keeps both adds (exp merged: {add: 2, exp: 1}); fskip(exp) keeps both
    # exps, and then the adds' operands differ ({add: 2, exp: 2}).
    body = relay.Tuple([relay.exp(x) + y, relay.exp(x) + y])
    mod = _mod(body)
    asked = []

    def skip_add(e):
        asked.append(e)
        return isinstance(e, Call) and e.op.name == "add"

    out = ECSE(skip_add)(mod)
    assert node_counts(out) == {"add": 2, "exp": 1}
    assert {e.op.name for e in asked} == {"add", "exp"}          # asked of operator calls only
    assert "cse_skip" not in out.to_mlir().text()                  # the mark is gone
    out = ECSE(fskip=lambda e: isinstance(e, Call) and e.op.name == "exp")(mod)
    assert node_counts(out) == {"add": 2, "exp": 2}
    assert node_counts(ECSE(fskip=None)(mod)) == {"add": 1, "exp": 1}
    # TupleGetItems are asked too
    s = relay.split(x, 3, axis=1)
    out = ECSE(lambda e: isinstance(e, TupleGetItem))(_mod(relay.Tuple([relay.exp(s[0]), relay.exp(relay.split(x, 3, axis=1)[0])])))
    assert node_counts(out) == {"exp": 2, "split": 1}
    with pytest.raises(TypeError, match="fskip must be callable"):
        ECSE(3)


def _effects_program():
    # let r = ref(x); let f = fn(q) { r := !r + q }; (f(y), f(y), !r, !r): TVM 0.19 gives x + 2y
    r, q, f = relay.var("r"), relay.var("q", shape=(2, 3)), relay.var("f")
    bump = relay.Function([q], relay.RefWrite(r, relay.RefRead(r) + q))
    return _mod(relay.Let(r, relay.RefCreate(x), relay.Let(f, bump, relay.Tuple([
        relay.Call(f, [y]), relay.Call(f, [y]), relay.RefRead(r), relay.RefRead(r)]))))


def test_effects_are_not_merged():
    # Reference reads and calls of functions (here one that writes a reference) stay: TVM merges
    # calls of operators only (TVM 0.19: the same counts before and after).
    mod = _effects_program()
    out = ECSE()(mod)
    assert node_counts(out) == node_counts(mod) == {"add": 1, "ref_read": 3, "ref_write": 1}


def test_effects_keep_their_order():
    # Read back from the pass's MLIR, the calls that write r stay before the reads of r (the
    # import used to leave the calls as graph nodes evaluated after the let-bound reads: x).
    mod = _effects_program()
    args = _args(mod, np.random.default_rng(1))
    run = relay.create_executor("debug", mod=mod).evaluate()
    np.testing.assert_allclose(np.asarray(run(*args)[3]), args[0] + 2 * args[1], rtol=1e-6)
    for after in (ECSE()(mod), relay.transform.SimplifyInference()(mod)):
        out = relay.create_executor("debug", mod=after).evaluate()(*args)
        np.testing.assert_allclose(np.asarray(out[2]), args[0] + 2 * args[1], rtol=1e-6)
        np.testing.assert_allclose(np.asarray(out[3]), args[0] + 2 * args[1], rtol=1e-6)


def test_effects_in_globals_and_branches_keep_their_order():
    # A global function that writes its reference argument, and an if whose branch writes it,
    # both read as graph nodes of a tuple with reads of the reference after them:
    # (@bump(r, y); if c { r := !r * 2 }; !r, !r) is 2(x + y) when c, x + y otherwise.
    m = relay.IRModule()
    rp, q = relay.var("r"), relay.var("q", shape=(2, 3))
    bump = relay.GlobalVar("bump")
    m[bump] = relay.Function([rp, q], relay.RefWrite(rp, relay.RefRead(rp) + q))
    r = relay.var("rr")
    double = relay.If(c, relay.RefWrite(r, relay.RefRead(r) * relay.const(2.0)), relay.Tuple([]))
    m["main"] = relay.Function([x, y, c], relay.Let(r, relay.RefCreate(x), relay.Tuple([
        relay.Call(bump, [r, y]), double, relay.RefRead(r), relay.RefRead(r) + relay.const(0.0)])))
    xs, ys = np.arange(6, dtype="float32").reshape(2, 3), np.ones((2, 3), "float32")
    for cond, want in ((True, 2 * (xs + ys)), (False, xs + ys)):
        args = (xs, ys, np.array(cond))
        for mod in (m, ECSE()(m), relay.transform.DeadCodeElimination()(m)):
            out = relay.create_executor("debug", mod=mod).evaluate()(*args)
            np.testing.assert_array_equal(np.asarray(out[2]), want)
            np.testing.assert_array_equal(np.asarray(out[3]), want)


def test_pass_info_and_opt_level():
    p_ = ECSE()
    # TVM 0.19: FunctionPass "EliminateCommonSubexpr", opt level 3, requires InferType.
    mod = _mod(relay.add(relay.exp(x), relay.exp(x)))
    skipped, run = function_pass_counts(p_, mod, "EliminateCommonSubexpr", 3)
    assert (skipped, run) == ({"add": 1, "exp": 2}, {"add": 1, "exp": 1})
    assert node_counts(mod) == {"add": 1, "exp": 2}                  # the input is unchanged
