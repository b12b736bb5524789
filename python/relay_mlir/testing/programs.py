"""Language programs: the Relay features beyond tensors, each with inputs and a numpy expectation.

Every ``Program`` has a module (``main`` is the entry), inputs, and the
expected result computed here with plain Python/numpy, independently of
relay-mlir. The tests run each through the reference interpreter
(``create_executor("debug")``) and compiled (``create_executor("vm")``) and
compare both with the expectation; the benchmarks reuse ``tree_lstm`` and
``rnn``.

    >>> from relay_mlir.testing import programs
    >>> p = programs.get("closure_twice")
    >>> [a.shape for a in p.inputs]
    [(3,), ()]
"""
from __future__ import annotations

from typing import Callable, Dict, List, NamedTuple, Optional

import numpy as np

from .. import op
from ..adt import (Clause, Constructor, Match, PatternConstructor, PatternTuple, PatternVar,
                   PatternWildcard, TypeData)
from ..expr import Function, GlobalVar, If, Let, RefCreate, RefRead, RefWrite, Tuple, TupleGetItem, const, var
from ..module import IRModule
from ..prelude import Prelude
from ..ty import Any, FuncType, GlobalTypeVar, TensorType, TupleType, TypeVar

__all__ = ["Program", "get", "names", "PROGRAMS", "adt_to_python"]


class Program(NamedTuple):
    name: str
    mod: IRModule
    inputs: List[np.ndarray]
    expected: object          # numpy arrays, tuples, or ("Cons", [...]) for ADT values
    what: str                 # the feature the program exercises


def _i32(v) -> np.ndarray:
    return np.array(v, dtype="int32")


def _f32(*shape, seed=0) -> np.ndarray:
    return np.random.RandomState(seed).uniform(-1, 1, shape).astype("float32")


def adt_to_python(value) -> object:
    """An ADT value (interpreter or compiled) as nested ``(constructor name, [fields])``."""
    fields = getattr(value, "fields", None)
    if fields is not None:
        ctor = getattr(value, "constructor", None)
        name = getattr(ctor, "name_hint", ctor) if ctor is not None else getattr(value, "name", None)
        return (name, [adt_to_python(f) for f in fields])
    if isinstance(value, (tuple, list)):
        return tuple(adt_to_python(v) for v in value)
    return value


# ---------------------------------------------------------------------------------------
def loop() -> Program:
    """The Relay paper's Fig. 2: a while loop as a local recursive function."""
    n, x = var("n", shape=(), dtype="int32"), var("x", shape=(3,))
    i, acc = var("i", shape=(), dtype="int32"), var("acc", shape=(3,))
    lp = var("loop")
    body = If(op.equal(i, const(0)), acc, lp(op.subtract(i, const(1)), op.add(acc, x)))
    main = Function([n, x], Let(lp, Function([i, acc], body, TensorType((3,))),
                                lp(n, op.zeros_like(x))))
    xs = _f32(3)
    return Program("loop", IRModule.from_expr(main), [_i32(7), xs], np.float32(7) * xs,
                   "local recursive closure capturing a value")


def recursion() -> Program:
    """Global non-tail recursion and mutual recursion."""
    mod = IRModule()
    fact, even, odd = GlobalVar("fact"), GlobalVar("even"), GlobalVar("odd")
    n = var("n", shape=(), dtype="int64")
    mod[fact] = Function([n], If(op.less_equal(n, const(1, "int64")), const(1, "int64"),
                                 op.multiply(n, fact(op.subtract(n, const(1, "int64"))))))
    m = var("m", shape=(), dtype="int32")
    mod[even] = Function([m], If(op.equal(m, const(0)), const(True), odd(op.subtract(m, const(1)))))
    k = var("k", shape=(), dtype="int32")
    mod[odd] = Function([k], If(op.equal(k, const(0)), const(False), even(op.subtract(k, const(1)))))
    a, b = var("a", shape=(), dtype="int64"), var("b", shape=(), dtype="int32")
    mod["main"] = Function([a, b], Tuple([fact(a), even(b), odd(b)]))
    return Program("recursion", mod, [np.array(15, "int64"), _i32(17)],
                   (np.array(1307674368000, "int64"), np.array(False), np.array(True)),
                   "global and mutual recursion")


def closure_twice() -> Program:
    """A capturing closure passed to a higher-order global."""
    mod = IRModule()
    twice = GlobalVar("twice")
    t = TensorType((3,))
    f, x = var("f", FuncType([t], t)), var("x", t)
    mod[twice] = Function([f, x], f(f(x)))
    y, k, z = var("y", t), var("k", shape=()), var("z", t)
    mod["main"] = Function([y, k], twice(Function([z], op.multiply(z, k)), y))
    ys, ks = _f32(3), np.array(1.5, "float32")
    return Program("closure_twice", mod, [ys, ks], ys * ks * ks, "closure passed to a higher-order function")


def currying() -> Program:
    """A global returning a closure, and a closure returning a closure."""
    mod = IRModule()
    adder = GlobalVar("adder")
    t = TensorType((2,))
    a, b = var("a", t), var("b", t)
    mod[adder] = Function([a], Function([b], op.subtract(a, b)))
    x, y, p, q = var("x", t), var("y", t), var("p", t), var("q", t)
    curry = Function([p], Function([q], op.multiply(p, q)))
    c = var("c")
    mod["main"] = Function([x, y], Let(c, curry, Tuple([adder(x)(y), c(y)(x), c(x)(adder(y)(x))])))
    xs, ys = _f32(2, seed=1), _f32(2, seed=2)
    return Program("currying", mod, [xs, ys], (xs - ys, ys * xs, xs * (ys - xs)),
                   "functions returning closures")


def _py_list(p: Prelude, items):
    lst = p.nil()
    for it in reversed(items):
        lst = p.cons(it, lst)
    return lst


def prelude_folds() -> Program:
    """Prelude map/foldl/foldr with capturing closures whose order matters."""
    mod = IRModule()
    p = Prelude(mod)
    t = TensorType((2,))
    xs = [var(f"x{i}", t) for i in range(3)]
    w = var("w", t)
    e, acc = var("e", t), var("acc", t)
    lst = var("lst")
    scaled = var("scaled")
    body = Let(lst, _py_list(p, xs),
               Let(scaled, p.map(Function([e], op.multiply(e, w)), lst),
                   Tuple([p.foldl(Function([acc, e], op.subtract(op.multiply(acc, const(2.0)), e)),
                                  op.zeros_like(w), scaled),
                          p.foldr(Function([e, acc], op.subtract(op.multiply(acc, const(2.0)), e)),
                                  op.zeros_like(w), scaled),
                          p.length(lst),
                          p.nth(scaled, const(1))])))
    mod["main"] = Function(xs + [w], body)
    vals = [_f32(2, seed=i + 3) for i in range(3)]
    wv = _f32(2, seed=9)
    sc = [v * wv for v in vals]
    left = np.zeros(2, "float32")
    for s in sc:
        left = left * 2 - s
    right = np.zeros(2, "float32")
    for s in reversed(sc):
        right = right * 2 - s
    return Program("prelude_folds", mod, vals + [wv], (left, right, _i32(3), sc[1]),
                   "Prelude map/foldl/foldr/length/nth with capturing closures")


def user_tree() -> Program:
    """A user-defined Tree[A] summed by recursive match."""
    mod = IRModule()
    Tree = GlobalTypeVar("BTree")
    a = TypeVar("a")
    Leaf = Constructor("Leaf", [a], Tree)
    Node = Constructor("Node", [Tree(a), Tree(a)], Tree)
    mod[Tree] = TypeData(Tree, [a], [Leaf, Node])
    tsum = GlobalVar("tsum")
    t = var("t", Tree(TensorType((2,))))
    v, l, r = var("v"), var("l"), var("r")
    mod[tsum] = Function([t], Match(t, [
        Clause(PatternConstructor(Leaf, [PatternVar(v)]), v),
        Clause(PatternConstructor(Node, [PatternVar(l), PatternVar(r)]), op.add(tsum(l), op.multiply(tsum(r), const(2.0))))]))
    xs = [var(f"x{i}", shape=(2,)) for i in range(4)]
    tree = Node(Node(Leaf(xs[0]), Leaf(xs[1])), Node(Leaf(xs[2]), Node(Leaf(xs[3]), Leaf(xs[0]))))
    mod["main"] = Function(xs, tsum(tree))
    vals = [_f32(2, seed=i + 10) for i in range(4)]
    exp = (vals[0] + 2 * vals[1]) + 2 * (vals[2] + 2 * (vals[3] + 2 * vals[0]))
    return Program("user_tree", mod, vals, exp, "user ADT with recursive match")


def option() -> Program:
    """Option: a partial division and a default."""
    mod = IRModule()
    p = Prelude(mod)
    safe = GlobalVar("safe_div")
    a, b = var("a", shape=()), var("b", shape=())
    mod[safe] = Function([a, b], If(op.equal(b, const(0.0)), p.none(), p.some(op.divide(a, b))))
    x, y, z = var("x", shape=()), var("y", shape=()), var("z", shape=())
    v = var("v")

    def get(o):
        return Match(o, [Clause(PatternConstructor(p.some, [PatternVar(var("v"))]), const(1.0)),
                         Clause(PatternConstructor(p.none), const(-1.0))])
    r = var("r")
    body = Tuple([get(safe(x, y)), get(safe(x, z)),
                  Match(safe(x, y), [Clause(PatternConstructor(p.some, [PatternVar(v)]), v),
                                     Clause(PatternWildcard(), const(0.0))])])
    mod["main"] = Function([x, y, z], body)
    return Program("option", mod, [np.array(3.0, "float32"), np.array(2.0, "float32"),
                                   np.array(0.0, "float32")],
                   (np.array(1.0, "float32"), np.array(-1.0, "float32"), np.array(1.5, "float32")),
                   "Option Some/None")


def nested_patterns() -> Program:
    """Nested constructor patterns inside tuple patterns, incl. values whose outer constructor differs."""
    mod = IRModule()
    p = Prelude(mod)
    t = TensorType((2,))
    f = GlobalVar("f")
    l1, l2 = var("l1", p.l(t)), var("l2", p.l(t))
    a, b, c = var("a"), var("b"), var("c")
    mod[f] = Function([l1, l2], Match(Tuple([l1, l2]), [
        Clause(PatternTuple([PatternConstructor(p.cons, [PatternVar(a), PatternConstructor(
            p.cons, [PatternVar(b), PatternWildcard()])]), PatternConstructor(p.nil)]), op.add(a, b)),
        Clause(PatternTuple([PatternConstructor(p.nil), PatternConstructor(p.cons, [PatternVar(c), PatternWildcard()])]),
               op.negative(c)),
        Clause(PatternWildcard(), op.zeros((2,), "float32"))]))
    x, y = var("x", t), var("y", t)
    one = p.cons(x, p.nil())
    two = p.cons(x, p.cons(y, p.nil()))
    mod["main"] = Function([x, y], Tuple([f(two, p.nil()), f(one, p.nil()), f(p.nil(), two), f(two, one)]))
    xs, ys = _f32(2, seed=20), _f32(2, seed=21)
    z = np.zeros(2, "float32")
    return Program("nested_patterns", mod, [xs, ys], (xs + ys, z, -xs, z), "nested and tuple patterns")


def refs() -> Program:
    """A ref mutated in a loop and through a closure."""
    n, x = var("n", shape=(), dtype="int32"), var("x", shape=(2,))
    r, i, lp, inc, u1, u2, u3 = (var("r"), var("i", shape=(), dtype="int32"), var("loop"), var("inc"),
                                 var("u1"), var("u2"), var("u3"))
    step = Let(var("w"), RefWrite(r, op.add(RefRead(r), x)), lp(op.subtract(i, const(1))))
    loop_fn = Function([i], If(op.equal(i, const(0)), Tuple([]), step))
    inc_fn = Function([], RefWrite(r, op.multiply(RefRead(r), const(10.0))))
    body = Let(r, RefCreate(op.zeros_like(x)),
               Let(lp, loop_fn,
                   Let(u1, lp(n),
                       Let(inc, inc_fn,
                           Let(u2, inc(), Let(u3, inc(), RefRead(r)))))))
    xs = _f32(2, seed=30)
    return Program("refs", IRModule.from_expr(Function([n, x], body)), [_i32(5), xs],
                   (np.float32(5) * xs) * np.float32(100), "refs mutated in a loop and through a closure")


def dynamic_list() -> Program:
    """A List of tensors with ? dims (different lengths at run time)."""
    mod = IRModule()
    p = Prelude(mod)
    t = TensorType((Any(),))
    x, y = var("x", t), var("y", t)
    e = var("e", t)
    sums = p.map(Function([e], op.sum(e)), p.cons(x, p.cons(y, p.cons(x, p.nil()))))
    mod["main"] = Function([x, y], p.foldl(_fold_sum(), const(0.0), sums))
    xs, ys = _f32(5, seed=40), _f32(3, seed=41)
    return Program("dynamic_list", mod, [xs, ys], np.float32(2 * xs.sum() + ys.sum()),
                   "List of tensors with ? dims")


def _fold_sum() -> Function:
    a, s = var("a", shape=()), var("s", shape=())
    return Function([a, s], op.add(a, s))


def generic_two_types() -> Program:
    """A generic function used at two types (monomorphised before lowering)."""
    mod = IRModule()
    p = Prelude(mod)
    a = TypeVar("a")
    pair = GlobalVar("pair_with")
    u, v = var("u", a), var("v", a)
    mod[pair] = Function([u, v], Tuple([v, u]), TupleType([a, a]), [a])
    x, n = var("x", shape=(2,)), var("n", shape=(), dtype="int32")
    mod["main"] = Function([x, n], Tuple([pair(x, op.negative(x)), pair(n, op.add(n, n)),
                                          p.length(p.cons(x, p.nil())),
                                          p.length(p.cons(n, p.cons(n, p.nil())))]))
    xs = _f32(2, seed=50)
    return Program("generic_two_types", mod, [xs, _i32(4)],
                   ((-xs, xs), (_i32(8), _i32(4)), _i32(1), _i32(2)), "a generic function at two types")


def rnn_cell(mod: IRModule, p: Prelude, d_in: int, d_h: int, seed: int = 0, scale: float = 0.5):
    """Adds ``@rnn(xs: List[Tensor[(1, d_in)]], h: Tensor[(1, d_h)])``, an Elman RNN
    (``h = tanh(x W^T + h U^T)``) applied by tail recursion over the list, whose
    weights are constants drawn uniformly from ``[-scale, scale]`` with ``seed``
    (keep ``scale * sqrt(d_h / 3) < 1`` for a contracting, non-chaotic RNN);
    returns its GlobalVar, ``(W, U)`` and the random state."""
    rng = np.random.RandomState(seed)
    w = rng.uniform(-scale, scale, (d_h, d_in)).astype("float32")
    u = rng.uniform(-scale, scale, (d_h, d_h)).astype("float32")
    run = GlobalVar("rnn")
    xs = var("xs", p.l(TensorType((1, d_in))))
    h = var("h", shape=(1, d_h))
    x, rest = var("x"), var("rest")
    step = op.tanh(op.add(op.nn.dense(x, const(w)), op.nn.dense(h, const(u))))
    mod[run] = Function([xs, h], Match(xs, [
        Clause(PatternConstructor(p.cons, [PatternVar(x), PatternVar(rest)]), run(rest, step)),
        Clause(PatternConstructor(p.nil), h)]))
    return run, (w, u), rng


def rnn(steps: int = 5, d_in: int = 4, d_h: int = 8, seed: int = 0) -> Program:
    """A recursive RNN over a List of time steps (weights are constants)."""
    mod = IRModule()
    p = Prelude(mod)
    run, (w, u), rng = rnn_cell(mod, p, d_in, d_h, seed)
    ins = [var(f"x{i}", shape=(1, d_in)) for i in range(steps)]
    h0 = var("h0", shape=(1, d_h))
    mod["main"] = Function(ins + [h0], run(_py_list(p, ins), h0))
    vals = [rng.uniform(-1, 1, (1, d_in)).astype("float32") for _ in range(steps)]
    h0v = np.zeros((1, d_h), "float32")
    hv = h0v
    for xv in vals:
        hv = np.tanh(xv @ w.T + hv @ u.T).astype("float32")
    return Program("rnn", mod, vals + [h0v], hv, "recursive RNN over a List")


def _rose(p: Prelude, spec, leaves):
    """A Rose tree expression from a nested spec: an int (leaf index) or (index, [children])."""
    if isinstance(spec, int):
        return p.rose(leaves[spec], p.nil())
    idx, kids = spec
    return p.rose(leaves[idx], _py_list(p, [_rose(p, k, leaves) for k in kids]))


def tree_lstm_cell(mod: IRModule, p: Prelude, d_in: int, d_h: int, seed: int = 0):
    """Adds ``@tree_lstm(t: Tree[Tensor[(1, d_in)]]) -> (h, c)``, a child-sum TreeLSTM cell
    whose weights are constants drawn from ``seed``; returns its GlobalVar and ``(W, U)``."""
    rng = np.random.RandomState(seed)
    W = {g: rng.uniform(-0.5, 0.5, (d_h, d_in)).astype("float32") for g in "iofu"}
    U = {g: rng.uniform(-0.5, 0.5, (d_h, d_h)).astype("float32") for g in "iofu"}
    state_t = TupleType([TensorType((1, d_h)), TensorType((1, d_h))])
    cell = GlobalVar("tree_lstm")
    t = var("t", p.tree(TensorType((1, d_in))))
    x, kids = var("x"), var("children")
    states, h_sum = var("states"), var("h_sum")
    acc, s = var("acc", shape=(1, d_h)), var("s", state_t)
    i_g, o_g, u_g, c = var("i"), var("o"), var("u"), var("c")

    def gate(g, hh):
        return op.add(op.nn.dense(x, const(W[g])), op.nn.dense(hh, const(U[g])))
    acc2, s2 = var("acc2", shape=(1, d_h)), var("s2", state_t)
    fc = op.multiply(op.sigmoid(gate("f", TupleGetItem(s2, 0))), TupleGetItem(s2, 1))
    body = Let(states, p.map(cell, kids),
               Let(h_sum, p.foldl(Function([acc, s], op.add(acc, TupleGetItem(s, 0))),
                                  op.zeros((1, d_h), "float32"), states),
                   Let(i_g, op.sigmoid(gate("i", h_sum)),
                       Let(o_g, op.sigmoid(gate("o", h_sum)),
                           Let(u_g, op.tanh(gate("u", h_sum)),
                               Let(c, op.add(op.multiply(i_g, u_g),
                                             p.foldl(Function([acc2, s2], op.add(acc2, fc)),
                                                     op.zeros((1, d_h), "float32"), states)),
                                   Tuple([op.multiply(o_g, op.tanh(c)), c])))))))
    mod[cell] = Function([t], Match(t, [Clause(PatternConstructor(p.rose, [PatternVar(x), PatternVar(kids)]),
                                               body)]), state_t)
    return cell, (W, U), rng


def tree_lstm(spec=(0, [1, (2, [3, 4]), 5]), d_in: int = 4, d_h: int = 8, seed: int = 0,
              num_leaves: Optional[int] = None) -> Program:
    """A child-sum TreeLSTM over a Rose tree (the Relay paper's dynamic model)."""
    mod = IRModule()
    p = Prelude(mod)
    cell, (W, U), rng = tree_lstm_cell(mod, p, d_in, d_h, seed)
    n = num_leaves if num_leaves is not None else _count(spec)
    leaves = [var(f"x{i}", shape=(1, d_in)) for i in range(n)]
    mod["main"] = Function(leaves, TupleGetItem(cell(_rose(p, spec, leaves)), 0))
    vals = [rng.uniform(-1, 1, (1, d_in)).astype("float32") for _ in range(n)]

    def sig(z):
        return 1 / (1 + np.exp(-z))

    def ref(node):
        idx, children = (node, []) if isinstance(node, int) else node
        xv = vals[idx]
        kid_states = [ref(k) for k in children]
        hs = sum((k[0] for k in kid_states), np.zeros((1, d_h), "float32"))
        ig = sig(xv @ W["i"].T + hs @ U["i"].T)
        og = sig(xv @ W["o"].T + hs @ U["o"].T)
        ug = np.tanh(xv @ W["u"].T + hs @ U["u"].T)
        cv = ig * ug + sum((sig(xv @ W["f"].T + hk @ U["f"].T) * ck for hk, ck in kid_states),
                           np.zeros((1, d_h), "float32"))
        return (og * np.tanh(cv)).astype("float32"), cv.astype("float32")
    return Program("tree_lstm", mod, vals, ref(spec)[0], "TreeLSTM over a Rose tree")


def _count(spec) -> int:
    if isinstance(spec, int):
        return spec + 1
    idx, kids = spec
    return max([idx + 1] + [_count(k) for k in kids])


def long_loop(n: int = 1_000_000) -> Program:
    """A tail-recursive global loop of ``n`` iterations (no stack growth allowed)."""
    mod = IRModule()
    lp = GlobalVar("count")
    i, acc = var("i", shape=(), dtype="int32"), var("acc", shape=(), dtype="int32")
    mod[lp] = Function([i, acc], If(op.equal(i, const(0)), acc,
                                    lp(op.subtract(i, const(1)), op.add(acc, const(3)))))
    k = var("k", shape=(), dtype="int32")
    mod["main"] = Function([k], lp(k, const(0)))
    return Program("long_loop", mod, [_i32(n)], _i32(3 * n), "tail recursion, 1e6 iterations")


def deep_recursion(n: int = 100_000) -> Program:
    """Non-tail recursion of depth ``n``."""
    mod = IRModule()
    f = GlobalVar("sum_to")
    i = var("i", shape=(), dtype="int64")
    mod[f] = Function([i], If(op.equal(i, const(0, "int64")), const(0, "int64"),
                              op.add(i, f(op.subtract(i, const(1, "int64"))))))
    k = var("k", shape=(), dtype="int64")
    mod["main"] = Function([k], f(k))
    return Program("deep_recursion", mod, [np.array(n, "int64")], np.array(n * (n + 1) // 2, "int64"),
                   "non-tail recursion, depth 1e5")


def no_match() -> Program:
    """A match with no clause for the value: a run-time error (expected is None)."""
    mod = IRModule()
    p = Prelude(mod)
    x = var("x", shape=(2,))
    h = var("h", shape=(2,))
    head = Match(p.nil(), [Clause(PatternConstructor(p.cons, [PatternVar(h), PatternWildcard()]), h)],
                 complete=False)
    mod["main"] = Function([x], op.add(x, head))
    return Program("no_match", mod, [_f32(2)], None, "incomplete match fails at run time")


PROGRAMS: Dict[str, Callable[[], Program]] = {
    f.__name__: f for f in (loop, recursion, closure_twice, currying, prelude_folds, user_tree, option,
                            nested_patterns, refs, dynamic_list, generic_two_types, rnn, tree_lstm,
                            long_loop, deep_recursion, no_match)}


def names() -> List[str]:
    return list(PROGRAMS)


def get(name: str) -> Program:
    return PROGRAMS[name]()
