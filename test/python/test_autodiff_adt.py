"""relay.transform.gradient through ADTs and ``match`` (docs/autodiff.md, "ADTs").

TVM 0.19 cannot check these: its higher-order gradient of a ``match`` fails
("contains free variables") and it refuses ADT parameters ("input parameters
need to be tensor"). The references are closed forms in numpy (float64,
rtol 1e-10) and, for the tree program, central differences in float64
(rtol 1e-6); every program runs in the reference interpreter and compiled
for llvm-cpu (the ADT helpers are recursive functions: recursion
eliminated, closures defunctionalized).
"""
from __future__ import annotations

import numpy as np

import relay_mlir as relay
from conftest import gradient_runners
from relay_mlir.adt import (Clause, Constructor, Match, PatternConstructor, PatternVar, PatternWildcard,
                            TypeData)
from relay_mlir.adt_value import ADT
from relay_mlir.prelude import Prelude
from relay_mlir.ty import GlobalTypeVar

F64 = relay.TensorType((3,), "float64")
X = np.array([0.5, -1.0, 1.2])
W = np.array([0.3, 0.7, -0.4])


def _dtanh(v):
    return 1 - np.tanh(v) ** 2




def _list_module():
    mod = relay.IRModule()
    p = Prelude(mod)
    cons, nil = p.mod.get_type("List")[1:3]
    return mod, p.mod.get_global_type_var("List"), cons, nil


def _items(value):
    """The fields of a List value (interpreter's ConstructorValue or the executable's ADT)."""
    out = []
    while getattr(value.constructor, "name_hint", value.constructor) == "Cons":
        out.append(np.asarray(value.fields[0]))
        value = value.fields[1]
    return out


def test_match_with_nested_pattern_and_wildcards():
    """A list built from x, matched two levels deep (a wildcard tail and a wildcard clause)."""
    mod, _, cons, nil = _list_module()
    x = relay.var("x", F64)
    h, h2 = relay.var("h"), relay.var("h2")
    lst = cons(x * x, cons(relay.sin(x), nil()))
    body = Match(lst, [Clause(PatternConstructor(cons, [PatternVar(h), PatternConstructor(
        cons, [PatternVar(h2), PatternWildcard()])]), h * h2), Clause(PatternWildcard(), x)])
    interp, compiled = gradient_runners(mod, relay.transform.gradient(relay.Function([x], relay.sum(body)), mod=mod))
    want = 2 * X * np.sin(X) + X * X * np.cos(X)
    for run in (interp, compiled):
        value, (dx,) = run(X)
        np.testing.assert_allclose(dx, want, rtol=1e-10)
        np.testing.assert_allclose(value, np.sum(X * X * np.sin(X)), rtol=1e-10)


def _sum_tanh(mod, list_type, cons, nil):
    """@sum_tanh(l) = match l { Cons(h, t) => tanh(h) + sum_tanh(t); Nil => 0 } (recursive)."""
    gv = relay.GlobalVar("sum_tanh")
    lst, h, t = relay.var("l", list_type(F64)), relay.var("h"), relay.var("t")
    mod[gv] = relay.Function([lst], Match(lst, [
        Clause(PatternConstructor(cons, [PatternVar(h), PatternVar(t)]), relay.tanh(h) + relay.Call(gv, [t])),
        Clause(PatternConstructor(nil, []), relay.zeros((3,), "float64"))]), F64)
    return gv


def test_recursive_function_over_a_list():
    """The pullback form: a recursive function taking a List, its match around the recursive call."""
    mod, List, cons, nil = _list_module()
    sum_tanh = _sum_tanh(mod, List, cons, nil)
    x, w = relay.var("x", F64), relay.var("w", F64)
    f = relay.Function([x, w], relay.sum(relay.Call(sum_tanh, [cons(x * w, cons(relay.sin(x), cons(w, nil())))])))
    g = relay.transform.gradient(f, mod=mod)
    assert "sum_tanh$vjp" in [gv.name_hint for gv in mod.get_global_vars()]
    interp, compiled = gradient_runners(mod, g)
    want_x = _dtanh(X * W) * W + _dtanh(np.sin(X)) * np.cos(X)
    want_w = _dtanh(X * W) * X + _dtanh(W)
    for run in (interp, compiled):
        _, (dx, dw) = run(X, W)
        np.testing.assert_allclose(dx, want_x, rtol=1e-10)
        np.testing.assert_allclose(dw, want_w, rtol=1e-10)


def test_gradient_with_respect_to_a_list_parameter_is_a_list():
    """Beyond TVM: d/dl of sum(sum_tanh(l) * w) is a List of the same length."""
    mod, List, cons, nil = _list_module()
    sum_tanh = _sum_tanh(mod, List, cons, nil)
    lst, w = relay.var("l", List(F64)), relay.var("w", F64)
    interp, compiled = gradient_runners(mod, relay.transform.gradient(
        relay.Function([lst, w], relay.sum(relay.Call(sum_tanh, [lst]) * w)), mod=mod))
    items = [np.array([0.1, 0.2, 0.3]), np.array([-0.5, 0.4, 1.0]), np.array([2.0, -3.0, 0.0])]
    for n in (0, 1, 3):
        value = ADT(nil.tag, "Nil", (), adt="List")
        for it in reversed(items[:n]):
            value = ADT(cons.tag, "Cons", (it, value), adt="List")
        for run in (interp, compiled):
            _, (dl, dw) = run(value, W)
            got = _items(dl)
            assert len(got) == n
            for g, it in zip(got, items):
                np.testing.assert_allclose(g, _dtanh(it) * W, rtol=1e-10)
            np.testing.assert_allclose(dw, sum((np.tanh(it) for it in items[:n]), np.zeros(3)), rtol=1e-10)


def _tree_module():
    """Tree = Leaf(tensor) | Node(Tree, Tree) (no type parameters) and
    @reduce(t, w) = match t { Leaf(v) => tanh(v * w); Node(a, b) => tanh(reduce(a) + reduce(b)) * w }."""
    mod = relay.IRModule()
    tree = GlobalTypeVar("Tree")
    leaf = Constructor("Leaf", [F64], tree)
    node = Constructor("Node", [tree(), tree()], tree)
    mod[tree] = TypeData(tree, [], [leaf, node])
    gv = relay.GlobalVar("reduce")
    t, w, v, a, b = (relay.var("t", tree()), relay.var("w", F64), relay.var("v"), relay.var("a"),
                     relay.var("b"))
    mod[gv] = relay.Function([t, w], Match(t, [
        Clause(PatternConstructor(leaf, [PatternVar(v)]), relay.tanh(v * w)),
        Clause(PatternConstructor(node, [PatternVar(a), PatternVar(b)]),
               relay.tanh(relay.Call(gv, [a, w]) + relay.Call(gv, [b, w])) * w)]), F64)
    return mod, tree, leaf, node, gv


def _tree_value(leaf, node, leaves):
    """((l0, l1), l2) as an ADT value."""
    mk_leaf = [ADT(leaf.tag, "Leaf", (v,), adt="Tree") for v in leaves]
    return ADT(node.tag, "Node", (ADT(node.tag, "Node", (mk_leaf[0], mk_leaf[1]), adt="Tree"), mk_leaf[2]),
               adt="Tree")


def _tree_loss(leaves, w, x):
    def red(t):
        if isinstance(t, np.ndarray):
            return np.tanh(t * w)
        return np.tanh(red(t[0]) + red(t[1])) * w
    return np.sum(red(((leaves[0] * x, leaves[1]), leaves[2])) * x)


def test_tree_recursion_matches_central_differences():
    """A TreeLSTM-like reduction over a user ADT input: d/dw, d/dx and d/dtree (a Tree)."""
    mod, tree, leaf, node, reduce_fn = _tree_module()
    t, w, x = relay.var("t", tree()), relay.var("w", F64), relay.var("x", F64)
    # the first leaf is scaled by x inside the program: a match and constructs on the path
    l0, rest0, rest1 = relay.var("l0"), relay.var("rest0"), relay.var("rest1")
    rebuilt = Match(t, [
        Clause(PatternConstructor(node, [PatternConstructor(node, [PatternConstructor(leaf, [PatternVar(l0)]),
                                                                   PatternVar(rest0)]), PatternVar(rest1)]),
               node(node(leaf(l0 * x), rest0), rest1)),
        Clause(PatternWildcard(), t)])
    f = relay.Function([t, w, x], relay.sum(relay.Call(reduce_fn, [rebuilt, w]) * x))
    interp, compiled = gradient_runners(mod, relay.transform.gradient(f, mod=mod))
    rng = np.random.default_rng(7)
    leaves = [rng.normal(size=3) for _ in range(3)]
    wv, xv = rng.normal(size=3), rng.normal(size=3)
    eps = 1e-6

    def fd(k, i):
        def at(delta):
            ls, ww, xx = [v.copy() for v in leaves], wv.copy(), xv.copy()
            target = ls[k] if k < 3 else (ww if k == 3 else xx)
            target[i] += delta
            return _tree_loss(ls, ww, xx)
        return (at(eps) - at(-eps)) / (2 * eps)

    want_leaves = [np.array([fd(k, i) for i in range(3)]) for k in range(3)]
    want_w = np.array([fd(3, i) for i in range(3)])
    want_x = np.array([fd(4, i) for i in range(3)])
    for run in (interp, compiled):
        value, (dt, dw, dx) = run(_tree_value(leaf, node, leaves), wv, xv)
        np.testing.assert_allclose(value, _tree_loss(leaves, wv, xv), rtol=1e-10)
        np.testing.assert_allclose(dw, want_w, rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(dx, want_x, rtol=1e-6, atol=1e-9)
        inner, right = dt.fields
        got = [np.asarray(inner.fields[0].fields[0]), np.asarray(inner.fields[1].fields[0]),
               np.asarray(right.fields[0])]
        for g, want in zip(got, want_leaves):
            np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-9)

