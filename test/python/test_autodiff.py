"""relay_mlir.transform.gradient: TVM 0.19's API and results, beyond-TVM programs,
DLVM-style declarations, higher derivatives and the errors.

TVM's results come from scripts/tvm_gradients.py (TVM 0.19 side venv): the
same Relay text parsed by both systems, TVM's outputs in
test/data/gradients/<name>.npz. Ours run in the reference interpreter
(rtol 1e-5) and compiled for llvm-cpu (rtol 1e-4).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.errors import CompileError

DATA = Path(__file__).resolve().parent.parent / "data" / "gradients"
TVM_PROGRAMS = sorted(p.stem for p in DATA.glob("*.relay"))


def _flatten(v):
    if isinstance(v, (tuple, list)):
        return [a for x in v for a in _flatten(x)]
    return [np.asarray(v)]


def _interpret(fn, *args):
    return relay.create_executor("debug", mod=relay.IRModule.from_expr(fn)).evaluate()(*args)


def test_tvm_corpus_present():
    assert len(TVM_PROGRAMS) >= 11, TVM_PROGRAMS


@pytest.mark.parametrize("name", TVM_PROGRAMS)
def test_gradient_matches_tvm(name):
    mod = relay.fromtext((DATA / f"{name}.relay").read_text())
    ref = np.load(DATA / f"{name}.npz")
    inputs = [ref[f"in_{i}"] for i in range(len(mod["main"].params))]
    values = [ref[k] for k in sorted(k for k in ref.files if k.startswith("value_"))]
    grads = [ref[f"grad_{i}"] for i in range(len(inputs))]
    g = relay.transform.gradient(mod["main"], mod=mod, mode=str(ref["mode"]))
    value, got = _interpret(g, *inputs)
    for a, b in zip(_flatten(value), values):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert len(got) == len(grads)
    for k, (a, b) in enumerate(zip(got, grads)):
        assert np.asarray(a).shape == b.shape and np.asarray(a).dtype == b.dtype, (k, a, b)
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=f"{name}: gradient {k} vs TVM")
    compiled = relay.compile(relay.IRModule.from_expr(g), target="llvm-cpu").run("main", *inputs)
    for a, b in zip(_flatten(compiled), values + grads):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5, err_msg=f"{name}: compiled vs TVM")


def test_fig5_identity():
    """The Relay paper's Fig. 5: the gradient of the identity is (d, (ones_like(d),))."""
    d = relay.var("d", shape=(4,))
    g = relay.transform.gradient(relay.Function([d], d))
    text = g.astext()
    assert "ones_like(%d)" in text and "fn" in text.splitlines()[1]
    for construct in ("ref", "RefCreate", "%f(", "let %"):
        assert construct not in text, text
    value, (dd,) = _interpret(g, np.arange(4, dtype="float32"))
    np.testing.assert_array_equal(dd, np.ones(4, "float32"))


def test_beyond_tvm_closure_and_comparison():
    """Programs TVM 0.19 fails on: a let-bound closure called twice; a comparison on the path."""
    x = relay.var("x", shape=(3,))
    k = relay.var("k", shape=(3,))
    a = relay.var("a", shape=(3,))
    f = relay.var("f")
    body = relay.Let(f, relay.Function([a], a * k), relay.sum(relay.Call(f, [relay.Call(f, [x])])))
    g = relay.transform.gradient(relay.Function([x, k], body))
    xv = np.array([1.0, -2.0, 0.5], "float32")
    kv = np.array([0.5, 3.0, -1.0], "float32")
    value, (dx, dk) = _interpret(g, xv, kv)
    np.testing.assert_allclose(value, np.sum(xv * kv * kv), rtol=1e-6)
    np.testing.assert_allclose(dx, kv * kv, rtol=1e-6)
    np.testing.assert_allclose(dk, 2 * xv * kv, rtol=1e-6)

    s = relay.sum(x)
    cond = relay.If(relay.greater(s, relay.const(0.0)), relay.sum(x * x), relay.sum(relay.tanh(x)))
    g = relay.transform.gradient(relay.Function([x], cond))
    for xv in (np.array([1.0, 2.0, -0.5], "float32"), np.array([-1.0, 0.2, -0.5], "float32")):
        _, (dx,) = _interpret(g, xv)
        want = 2 * xv if xv.sum() > 0 else 1 - np.tanh(xv) ** 2
        np.testing.assert_allclose(dx, want, rtol=1e-6)


def test_shared_subexpression_without_anf():
    """A graph with sharing (no let): the shared node's adjoint is the sum of its uses."""
    x = relay.var("x", shape=(3,))
    y = relay.exp(x)
    g = relay.transform.gradient(relay.Function([x], relay.sum(y * y + y)))
    xv = np.array([0.1, -0.3, 0.7], "float32")
    _, (dx,) = _interpret(g, xv)
    np.testing.assert_allclose(dx, 2 * np.exp(2 * xv) + np.exp(xv), rtol=1e-5)


def test_declarations_wrt_keeping_seedable():
    x = relay.var("x", shape=(3,))
    w = relay.var("w", shape=(3,))
    f = relay.Function([x, w], x * w)
    xv, wv = np.array([1.0, 2.0, 3.0], "float32"), np.array([4.0, 5.0, 6.0], "float32")
    seed = np.array([1.0, -1.0, 0.5], "float32")
    g = relay.transform.gradient(f, wrt=["w"], keeping=False, seedable=True)
    assert [p.name_hint for p in g.params] == ["x", "w", "seed"]
    (dw,) = _interpret(g, xv, wv, seed)
    np.testing.assert_allclose(dw, seed * xv)
    g = relay.transform.gradient(f, wrt=[1, 0])
    value, (dw, dx) = _interpret(g, xv, wv)
    np.testing.assert_allclose(value, xv * wv)
    np.testing.assert_allclose(dw, xv)
    np.testing.assert_allclose(dx, wv)


def test_second_derivative():
    x = relay.var("x", shape=())
    g = relay.transform.gradient(relay.Function([x], x * x * x), keeping=False)
    y = relay.var("y", shape=())
    dfdx = relay.Function([y], relay.TupleGetItem(relay.Call(g, [y]), 0))
    h = relay.transform.gradient(dfdx)
    value, (d2,) = _interpret(h, np.array(2.0, "float32"))
    assert float(value) == pytest.approx(12.0) and float(d2) == pytest.approx(12.0)


def test_integer_parameter_gets_zero_gradient():
    x = relay.var("x", shape=(3,))
    i = relay.var("i", shape=(3,), dtype="int32")
    g = relay.transform.gradient(relay.Function([x, i], relay.sum(x * relay.cast(i, "float32"))))
    _, (dx, di) = _interpret(g, np.ones(3, "float32"), np.array([1, 2, 3], "int32"))
    np.testing.assert_array_equal(dx, [1, 2, 3])
    assert di.dtype == np.int32 and not di.any()


def test_errors_are_compile_errors():
    x = relay.var("x", shape=(4,))
    # every relay operator has a rule now; a rule's own limit is the located error
    idx = relay.const(np.array([1, 0], "int32"))
    upd = relay.scatter_elements(x, idx, relay.const(np.array([2.0, 3.0], "float32")), 0, "mul")
    with pytest.raises(CompileError, match=r'the gradient of `scatter_elements` with reduction "mul" is not '
                                          r'implemented yet'):
        relay.transform.gradient(relay.Function([x], relay.sum(upd)))
    t2 = relay.TensorType((2,), "float32")
    fp = relay.var("fp", relay.FuncType([t2], t2))
    with pytest.raises(CompileError, match="can only differentiate with respect to tensors, tuples and ADT values"):
        relay.transform.gradient(relay.Function([fp, x], relay.sum(x)))
    with pytest.raises(CompileError, match="'nope', which is not a parameter"):
        relay.transform.gradient(relay.Function([x], relay.sum(x)), wrt=["nope"])
    with pytest.raises(CompileError, match="parameter #3"):
        relay.transform.gradient(relay.Function([x], relay.sum(x)), wrt=[3])
    with pytest.raises(CompileError, match="unknown mode"):
        relay.transform.gradient(relay.Function([x], relay.sum(x)), mode="sideways")
    y = relay.var("y", shape=(4,))
    with pytest.raises(CompileError, match="free variables: y"):
        relay.transform.gradient(relay.Function([x], relay.sum(x * y)))
    with pytest.raises(CompileError, match="result is 'tensor<4xi32>'"):
        relay.transform.gradient(relay.Function([x], relay.cast(x, "int32")))


def _pow_module():
    mod = relay.IRModule()
    pw = relay.GlobalVar("pow")
    x = relay.var("x", shape=(3,))
    n = relay.var("n", shape=(), dtype="int32")
    body = relay.If(relay.equal(n, relay.const(0, "int32")), relay.ones_like(x),
                    x * relay.Call(pw, [x, n - relay.const(1, "int32")]))
    mod[pw] = relay.Function([x, n], body)
    y = relay.var("y", shape=(3,))
    k = relay.var("k", shape=(), dtype="int32")
    return mod, relay.Function([y, k], relay.sum(relay.sin(relay.Call(pw, [y, k]))))


def test_recursive_function_by_pullbacks():
    """Recursion (TVM's higher_order territory): d/dx sum(sin(x^n)) through a recursive
    @pow, by pullback closures; interpreter and compiled (closures defunctionalized,
    recursion eliminated) against numpy."""
    mod, f = _pow_module()
    g = relay.transform.gradient(f, mod=mod)
    assert "pow$vjp" in [gv.name_hint for gv in mod.get_global_vars()]
    full = relay.IRModule()
    full.update(mod)
    full["main"] = g
    run = relay.create_executor("debug", mod=full).evaluate()
    exe = relay.compile(full, target="llvm-cpu")
    xv = np.array([0.5, -1.0, 1.2], "float32")
    for n in (0, 1, 3, 10):
        want = n * xv.astype("float64") ** (n - 1) * np.cos(xv.astype("float64") ** n) if n else np.zeros(3)
        value, (dx, dn) = run(xv, np.array(n, "int32"))
        np.testing.assert_allclose(dx, want, rtol=1e-4, atol=1e-5)
        assert not np.asarray(dn).any()
        cvalue, (cdx, _) = exe.run("main", xv, np.array(n, "int32"))
        np.testing.assert_allclose(cdx, want, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(cvalue, value, rtol=1e-5)


def test_recursive_rnn_matches_finite_differences():
    """h <- tanh(W h + x) repeated n times by a recursive function; dL/dW, dL/dx in float64
    against central differences (interpreter), and compiled."""
    mod = relay.IRModule()
    step = relay.GlobalVar("rnn")
    w = relay.var("w", shape=(3, 3), dtype="float64")
    x = relay.var("x", shape=(3,), dtype="float64")
    h = relay.var("h", shape=(3,), dtype="float64")
    n = relay.var("n", shape=(), dtype="int32")
    nxt = relay.tanh(relay.sum(w * h, axis=1) + x)
    mod[step] = relay.Function([w, x, h, n], relay.If(
        relay.equal(n, relay.const(0, "int32")), h,
        relay.Call(step, [w, x, nxt, n - relay.const(1, "int32")])))
    ws = relay.var("ws", shape=(3, 3), dtype="float64")
    xs = relay.var("xs", shape=(3,), dtype="float64")
    hs = relay.var("hs", shape=(3,), dtype="float64")
    loss = relay.Function([ws, xs, hs], relay.sum(relay.Call(step, [ws, xs, hs, relay.const(4, "int32")])
                                                 * relay.const(np.array([1.0, -2.0, 0.5]), "float64")))
    g = relay.transform.gradient(loss, mod=mod)
    full = relay.IRModule()
    full.update(mod)
    full["main"] = g
    run = relay.create_executor("debug", mod=full).evaluate()
    fmod = relay.IRModule()
    fmod.update(mod)
    fmod["main"] = loss
    f = relay.create_executor("debug", mod=fmod).evaluate()
    rng = np.random.default_rng(3)
    args = [rng.normal(size=(3, 3)) * 0.5, rng.normal(size=3), rng.normal(size=3)]
    _, grads = run(*args)
    for k, a in enumerate(args):
        fd = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            p = [b.copy() for b in args]
            m = [b.copy() for b in args]
            p[k][idx] += 1e-6
            m[k][idx] -= 1e-6
            fd[idx] = (float(f(*p)) - float(f(*m))) / 2e-6
        np.testing.assert_allclose(grads[k], fd, rtol=1e-5, atol=1e-8)


def test_forward_mode_through_take():
    x = relay.var("x", shape=(4, 3), dtype="float64")
    f = relay.Function([x], relay.tanh(relay.take(x, relay.const([3, 0, 3], "int64"), axis=0)))
    j = relay.transform.jvp(f)
    rng = np.random.default_rng(2)
    xv, tx = rng.normal(size=(4, 3)), rng.normal(size=(4, 3))
    _, tangent = _interpret(j, xv, tx)
    run_f = relay.create_executor("debug", mod=relay.IRModule.from_expr(f)).evaluate()
    fd = (run_f(xv + 1e-6 * tx) - run_f(xv - 1e-6 * tx)) / 2e-6
    np.testing.assert_allclose(tangent, fd, rtol=1e-5, atol=1e-8)


def test_forward_mode_through_conv_and_pool():
    x = relay.var("x", shape=(1, 2, 6, 6), dtype="float64")
    w = relay.var("w", shape=(3, 2, 3, 3), dtype="float64")
    f = relay.Function([x, w], relay.nn.max_pool2d(
        relay.nn.relu(relay.nn.conv2d(x, w, padding=(1, 1))), (2, 2), strides=(2, 2)))
    j = relay.transform.jvp(f)
    rng = np.random.default_rng(1)
    xv, wv, tx, tw = [rng.normal(size=s) for s in [(1, 2, 6, 6), (3, 2, 3, 3)] * 2]
    _, tangent = _interpret(j, xv, wv, tx, tw)
    run_f = relay.create_executor("debug", mod=relay.IRModule.from_expr(f)).evaluate()
    h = 1e-6
    fd = (run_f(xv + h * tx, wv + h * tw) - run_f(xv - h * tx, wv - h * tw)) / (2 * h)
    np.testing.assert_allclose(tangent, fd, rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("which", ["layer", "softmax", "branch"])
def test_forward_mode_matches_reverse_mode_and_differences(which):
    """jvp(x, t) = J t: against central differences of f along t (float64) and, for a
    scalar projection, against the reverse mode (<grad of <w, f>, t>)."""
    x = relay.var("x", shape=(2, 3), dtype="float64")
    w = relay.var("w", shape=(4, 3), dtype="float64")
    if which == "layer":
        body = relay.tanh(relay.nn.dense(x, w))
    elif which == "softmax":
        body = relay.nn.softmax(relay.nn.dense(x, w) * relay.const(0.5, "float64"))
    else:
        s = relay.sum(x)
        body = relay.If(relay.greater(s, relay.const(0.0, "float64")),
                        relay.exp(relay.nn.dense(x, w)), relay.nn.dense(x * x, w))
    f = relay.Function([x, w], body)
    j = relay.transform.jvp(f)
    rng = np.random.default_rng(7)
    xv, wv = rng.normal(size=(2, 3)), rng.normal(size=(4, 3))
    tx, tw = rng.normal(size=(2, 3)), rng.normal(size=(4, 3))
    value, tangent = _interpret(j, xv, wv, tx, tw)
    run_f = relay.create_executor("debug", mod=relay.IRModule.from_expr(f)).evaluate()
    np.testing.assert_allclose(value, run_f(xv, wv), rtol=1e-12)
    h = 1e-6
    fd = (run_f(xv + h * tx, wv + h * tw) - run_f(xv - h * tx, wv - h * tw)) / (2 * h)
    np.testing.assert_allclose(tangent, fd, rtol=1e-5, atol=1e-8)
    proj = rng.normal(size=(2, 4))
    scalar = relay.Function([x, w], relay.sum(body * relay.const(proj, "float64")))
    _, (gx, gw) = _interpret(relay.transform.gradient(scalar), xv, wv)
    np.testing.assert_allclose(np.sum(tangent * proj), np.sum(gx * tx) + np.sum(gw * tw), rtol=1e-9)


def test_forward_mode_is_straight_line_and_compiles():
    x = relay.var("x", shape=(2, 3))
    w = relay.var("w", shape=(4, 3))
    j = relay.transform.jvp(relay.Function([x, w], relay.tanh(relay.nn.dense(x, w))))
    text = j.astext()
    assert "fn (%a" not in text and "ref" not in text and "%f(" not in text
    assert [p.name_hint for p in j.params] == ["x", "w", "x_dot", "w_dot"]
    rng = np.random.default_rng(7)
    args = [rng.normal(size=s).astype("float32") for s in [(2, 3), (4, 3), (2, 3), (4, 3)]]
    want = _interpret(j, *args)
    got = relay.compile(relay.IRModule.from_expr(j), target="llvm-cpu").run("main", *args)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_reduction_over_no_axis_and_empty_axis_list():
    """max with exclude=True listing every axis reduces over none (its gradient is the
    identity; fuzz finding K1); an empty axis list means every axis, as in the typing rule."""
    x = relay.var("x", shape=(5, 4))
    xv = np.random.default_rng(0).normal(size=(5, 4)).astype("float32")
    f = relay.Function([x], relay.sum(relay.tanh(relay.max(x, axis=[-2, 1], exclude=True, keepdims=True))))
    _, (dx,) = _interpret(relay.transform.gradient(f), xv)
    np.testing.assert_allclose(dx, 1 - np.tanh(xv) ** 2, rtol=1e-5)
    g = relay.Function([x], relay.max(x, axis=[]))
    _, (dx,) = _interpret(relay.transform.gradient(g), xv)
    want = (xv == xv.max()).astype("float32")
    np.testing.assert_allclose(dx, want)
