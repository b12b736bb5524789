"""The reference interpreter (``create_executor("debug")``) on the language.

Every test states its expected value with numpy or plain Python, computed
independently of the interpreter. No compilation except the one
``kind="vm"`` test at the end.
"""
from __future__ import annotations

import time

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.adt import (Clause, Constructor, Match, PatternConstructor, PatternTuple,
                            PatternVar, PatternWildcard, TypeData)
from relay_mlir.errors import RelayRuntimeError
from relay_mlir.interpreter import Closure, ConstructorValue, Interpreter, RefValue
from relay_mlir.prelude import Prelude

I32 = relay.TensorType((), "int32")


def i32(v):
    return relay.const(v, "int32")


def ivar(name):
    return relay.var(name, shape=(), dtype="int32")


def run(expr, mod=None):
    """The value of a closed expression."""
    return relay.create_executor("debug", mod=mod).evaluate(expr)


def py_list(v):
    """A Relay List value as a Python list of its elements (iteratively)."""
    out = []
    while True:
        assert isinstance(v, ConstructorValue), v
        if v.name == "Nil":
            return out
        assert v.name == "Cons" and len(v.fields) == 2
        out.append(v.fields[0])
        v = v.fields[1]


def ints(v):
    return [int(x) for x in py_list(v)]


def relay_list(p, values):
    """A Relay expression building the List of ``values`` (int32 consts or Exprs)."""
    e = p.nil()
    for x in reversed(values):
        e = p.cons(x if isinstance(x, relay.Expr) else i32(x), e)
    return e


@pytest.fixture
def p():
    return Prelude(relay.IRModule())


# -- values and the executor API -------------------------------------------------------------
def test_main_callable_and_dtypes():
    x = relay.var("x", shape=(3,), dtype="int32")
    y = relay.var("y", shape=(3,), dtype="float32")
    mod = relay.IRModule.from_expr(relay.Function([x, y], relay.Tuple([x + x, relay.cast(x, "float32") * y])))
    f = relay.create_executor("debug", mod=mod).evaluate()
    a, b = f(np.array([1, 2, 3], "int32"), np.array([0.5, 0.5, 2.0], "float32"))
    assert a.dtype == np.int32 and b.dtype == np.float32
    np.testing.assert_array_equal(a, [2, 4, 6])
    np.testing.assert_array_equal(b, [0.5, 1.0, 6.0])
    # keyword arguments by parameter name, as TVM's evaluate() callable
    a2, _ = f(y=np.ones(3, "float32"), x=np.array([5, 6, 7], "int32"))
    np.testing.assert_array_equal(a2, [10, 12, 14])


def test_evaluate_closed_expression_and_function():
    assert int(run(relay.const(2) + relay.const(3))) == 5
    x = ivar("x")
    f = run(relay.Function([x], x * i32(10)))
    assert int(f(4)) == 40 and f(np.array(4, "int32")).dtype == np.int32
    assert run(relay.Tuple([])) == ()


def test_target_strings_map_to_llvm_cpu():
    from relay_mlir.executor import normalize_target
    assert normalize_target("llvm") == "llvm-cpu"
    assert normalize_target("llvm -mcpu=skylake") == "llvm-cpu"
    assert relay.create_executor("vm", target="llvm").target == "llvm-cpu"
    with pytest.raises(ValueError, match="unknown executor kind"):
        relay.create_executor("nonsense")


# -- functions, recursion, closures ------------------------------------------------------------
def test_paper_loop_local_recursive_let():
    """The Relay paper's loop: ``let %loop = fn(%i, %acc) { if (%i == n) %acc else %loop(...) }``."""
    i, acc, loop = ivar("i"), ivar("acc"), relay.var("loop")
    body = relay.If(relay.equal(i, i32(10)), acc, loop(i + i32(1), acc + i * i))
    prog = relay.Let(loop, relay.Function([i, acc], body), loop(i32(0), i32(0)))
    assert int(run(prog)) == sum(k * k for k in range(10))


def test_global_and_mutual_recursion():
    mod = relay.IRModule()
    fact, even, odd = relay.GlobalVar("fact"), relay.GlobalVar("even"), relay.GlobalVar("odd")
    n = ivar("n")
    mod[fact] = relay.Function([n], relay.If(relay.less_equal(n, i32(1)), i32(1), n * fact(n - i32(1))))
    n1, n2 = ivar("n"), ivar("n")
    mod[even] = relay.Function([n1], relay.If(relay.equal(n1, i32(0)), relay.const(True), odd(n1 - i32(1))))
    mod[odd] = relay.Function([n2], relay.If(relay.equal(n2, i32(0)), relay.const(False), even(n2 - i32(1))))
    assert int(run(fact(i32(10)), mod)) == 3628800
    assert bool(run(even(i32(17)), mod)) is False
    assert bool(run(odd(i32(17)), mod)) is True
    assert run(even(i32(0)), mod).dtype == np.bool_


def test_closure_passed_to_higher_order_global():
    mod = relay.IRModule()
    twice = relay.GlobalVar("twice")
    f, x = relay.var("f"), ivar("x")
    mod[twice] = relay.Function([f, x], f(f(x)))
    k, y = ivar("k"), ivar("y")
    # the closure captures k = 5: twice(fn(y) { y * 2 + k }, 3) = (3*2+5)*2+5
    prog = relay.Let(k, i32(5), twice(relay.Function([y], y * i32(2) + k), i32(3)))
    assert int(run(prog, mod)) == (3 * 2 + 5) * 2 + 5
    # a global used as a value
    sq, z = relay.GlobalVar("sq"), ivar("z")
    mod[sq] = relay.Function([z], z * z)
    assert int(run(twice(sq, i32(3)), mod)) == 81


def test_currying_and_closure_capture():
    x, y = ivar("x"), ivar("y")
    add = relay.Function([x], relay.Function([y], x - y))
    a = relay.var("add")
    f3 = relay.var("f3")
    prog = relay.Let(a, add, relay.Let(f3, a(i32(3)), relay.Tuple([f3(i32(4)), a(i32(10))(i32(1)), f3(i32(0))])))
    assert [int(v) for v in run(prog)] == [-1, 9, 3]
    # a returned closure is callable from Python
    g = run(add(i32(100)))
    assert callable(g) and int(g(1)) == 99
    assert isinstance(Interpreter().evaluate(add(i32(100))), Closure)


# -- the Prelude ------------------------------------------------------------------------------
def test_prelude_map_foldl_foldr_order(p):
    xs = relay_list(p, [1, 2, 3, 4])
    k, x, acc = ivar("k"), ivar("x"), ivar("acc")
    # map with a capturing closure
    prog = relay.Let(k, i32(10), p.map(relay.Function([x], x * k + i32(1)), xs))
    assert ints(run(prog, p.mod)) == [11, 21, 31, 41]
    # foldl: ((((100-1)-2)-3)-4); foldr: 1-(2-(3-(4-100)))
    a1, b1 = ivar("acc"), ivar("x")
    assert int(run(p.foldl(relay.Function([a1, b1], a1 - b1), i32(100), xs), p.mod)) == 90
    a2, b2 = ivar("x"), ivar("acc")
    assert int(run(p.foldr(relay.Function([a2, b2], a2 - b2), i32(100), xs), p.mod)) == 1 - (2 - (3 - (4 - 100)))
    # building lists: foldl with Cons reverses, foldr with Cons copies
    l, e = relay.var("l"), relay.var("e")
    assert ints(run(p.foldl(relay.Function([l, e], p.cons(e, l)), p.nil(), xs), p.mod)) == [4, 3, 2, 1]
    assert ints(run(p.foldr(p.cons, p.nil(), xs), p.mod)) == [1, 2, 3, 4]
    assert int(run(p.sum(xs), p.mod)) == 10


def test_prelude_list_functions(p):
    xs = relay_list(p, [5, 6, 7, 8, 9])
    ys = relay_list(p, [1, 2])
    assert int(run(p.nth(xs, i32(3)), p.mod)) == 8
    assert int(run(p.length(xs), p.mod)) == 5
    assert int(run(p.length(p.nil()), p.mod)) == 0
    assert ints(run(p.rev(xs), p.mod)) == [9, 8, 7, 6, 5]
    assert ints(run(p.concat(xs, ys), p.mod)) == [5, 6, 7, 8, 9, 1, 2]
    assert ints(run(p.update(xs, i32(1), i32(60)), p.mod)) == [5, 60, 7, 8, 9]
    zipped = py_list(run(p.zip(xs, ys), p.mod))  # stops at the shorter list
    assert [(int(a), int(b)) for a, b in zipped] == [(5, 1), (6, 2)]
    x = ivar("x")
    odd = relay.Function([x], relay.equal(relay.mod(x, i32(2)), i32(1)))
    assert ints(run(p.filter(odd, xs), p.mod)) == [5, 7, 9]
    assert int(run(p.hd(xs), p.mod)) == 5 and ints(run(p.tl(xs), p.mod)) == [6, 7, 8, 9]


def test_prelude_iterate_compose(p):
    x = ivar("x")
    f = relay.Function([x], x * i32(2) + i32(1))
    # iterate(f, 4) = f . f . f . f: 3 -> 7 -> 15 -> 31 -> 63
    assert int(run(p.iterate(f, i32(4))(i32(3)), p.mod)) == 63
    assert int(run(p.iterate(f, i32(0))(i32(3)), p.mod)) == 3
    y = ivar("y")
    g = relay.Function([y], y - i32(5))
    assert int(run(p.compose(f, g)(i32(10)), p.mod)) == (10 - 5) * 2 + 1


def test_prelude_tree_size_and_tmap(p):
    def leaf(v):
        return p.rose(i32(v), p.nil())
    # 1(2, 3(4, 5, 6), 7)
    t = p.rose(i32(1), relay_list(p, [leaf(2), p.rose(i32(3), relay_list(p, [leaf(4), leaf(5), leaf(6)])),
                                      leaf(7)]))
    assert int(run(p.size(t), p.mod)) == 7
    x = ivar("x")
    mapped = run(p.tmap(relay.Function([x], x * x), t), p.mod)

    def preorder(tv):
        out, stack = [], [tv]
        while stack:
            cur = stack.pop()
            assert cur.name == "Rose"
            out.append(int(cur.fields[0]))
            stack.extend(reversed(py_list(cur.fields[1])))
        return out
    assert preorder(mapped) == [k * k for k in [1, 2, 3, 4, 5, 6, 7]]


def test_prelude_unfoldr_and_map_accuml(p):
    # unfoldr(fn(s) { if s == 0 None else Some((s - 1, s * 10)) }, 3) = [30, 20, 10]
    s = ivar("s")
    step = relay.Function([s], relay.If(relay.equal(s, i32(0)), p.none(),
                                        p.some(relay.Tuple([s - i32(1), s * i32(10)]))))
    assert ints(run(p.unfoldr(step, i32(3)), p.mod)) == [30, 20, 10]
    assert ints(run(p.unfoldl(step, i32(3)), p.mod)) == [10, 20, 30]
    # map_accuml: running sums (acc, x) -> (acc + x, acc * x)
    acc, x = ivar("acc"), ivar("x")
    f = relay.Function([acc, x], relay.Tuple([acc + x, acc * x]))
    final, ys = run(p.map_accuml(f, i32(1), relay_list(p, [2, 3, 4])), p.mod)
    # accs 1, 3, 6 -> outputs 2, 9, 24 consed in order of processing: [24, 9, 2]
    assert int(final) == 10 and ints(ys) == [24, 9, 2]


# -- user ADTs, patterns ----------------------------------------------------------------------
def _user_tree(mod):
    Tree = relay.GlobalTypeVar("Tree2")
    a = relay.TypeVar("a")
    leaf = Constructor("Leaf", [a], Tree)
    node = Constructor("Node", [Tree(a), Tree(a)], Tree)
    mod[Tree] = TypeData(Tree, [a], [leaf, node])
    return Tree, leaf, node


def test_user_tree_sum_by_recursive_match():
    mod = relay.IRModule()
    Tree, leaf, node = _user_tree(mod)
    tsum = relay.GlobalVar("tsum")
    t, v, l, r = relay.var("t"), ivar("v"), relay.var("l"), relay.var("r")
    mod[tsum] = relay.Function([t], Match(t, [
        Clause(PatternConstructor(leaf, [PatternVar(v)]), v),
        Clause(PatternConstructor(node, [PatternVar(l), PatternVar(r)]), tsum(l) + tsum(r))]))
    tree = node(node(leaf(i32(1)), leaf(i32(2))), node(leaf(i32(3)), node(leaf(i32(4)), leaf(i32(5)))))
    assert int(run(tsum(tree), mod)) == 15
    val = run(tree, mod)
    assert isinstance(val, ConstructorValue) and val.constructor is node and val.name == "Node"
    assert val.tag == node.tag and mod.get_constructor(val.tag) is node


def test_option(p):
    x, v = ivar("x"), ivar("v")
    get_or = relay.Function([x], Match(x, [Clause(PatternConstructor(p.some, [PatternVar(v)]), v),
                                           Clause(PatternConstructor(p.none), i32(-1))]))
    g = relay.var("g")
    prog = relay.Let(g, get_or, relay.Tuple([g(p.some(i32(42))), g(p.none())]))
    assert [int(a) for a in run(prog, p.mod)] == [42, -1]


def test_nested_patterns_and_tuples(p):
    """Clauses in order; nested constructor patterns; a PatternTuple; a value
    whose outer constructor differs from the first clause's."""
    x, y, rest, z, w = ivar("x"), ivar("y"), relay.var("rest"), ivar("z"), relay.var("w")
    d = relay.var("d")
    classify = relay.Function([d], Match(d, [
        # (Cons(x, Cons(y, _)), Some(z)) -> x + y + z
        Clause(PatternTuple([PatternConstructor(p.cons, [PatternVar(x), PatternConstructor(
            p.cons, [PatternVar(y), PatternWildcard()])]), PatternConstructor(p.some, [PatternVar(z)])]),
            x + y + z),
        # (Cons(x, rest), _) -> x * 100 + length(rest)
        Clause(PatternTuple([PatternConstructor(p.cons, [PatternVar(w), PatternVar(rest)]), PatternWildcard()]),
               w * i32(100) + p.length(rest)),
        Clause(PatternWildcard(), i32(-7))]))
    c = relay.var("c")
    prog = relay.Let(c, classify, relay.Tuple([
        c(relay.Tuple([relay_list(p, [1, 2, 3]), p.some(i32(10))])),   # first clause
        c(relay.Tuple([relay_list(p, [1, 2, 3]), p.none()])),          # None: second clause
        c(relay.Tuple([relay_list(p, [4]), p.some(i32(10))])),          # inner Nil: second clause
        c(relay.Tuple([p.nil(), p.some(i32(10))]))]))                   # outer Nil: wildcard
    assert [int(v) for v in run(prog, p.mod)] == [13, 102, 400, -7]


def test_match_failure_is_a_runtime_error(p):
    x = ivar("x")
    partial = Match(p.some(i32(3)), [Clause(PatternConstructor(p.none), i32(0))], complete=False)
    with pytest.raises(RelayRuntimeError, match=r"match failed: no clause matches value Some\(\[?3"):
        run(partial, p.mod)
    # hd of an empty list
    with pytest.raises(RelayRuntimeError, match="match failed: no clause matches value Nil()"):
        run(p.hd(p.nil()), p.mod)
    assert issubclass(RelayRuntimeError, RuntimeError) and relay.RelayRuntimeError is RelayRuntimeError
    del x


# -- references -------------------------------------------------------------------------------
def test_ref_mutated_in_a_loop():
    r, i, loop = relay.var("r"), ivar("i"), relay.var("loop")
    u, u2 = relay.var("u"), relay.var("u2")
    # loop(i): if i == 0 then () else { r := !r * 2 + i; loop(i - 1) }
    body = relay.If(relay.equal(i, i32(0)), relay.Tuple([]),
                    relay.Let(u, relay.RefWrite(r, relay.RefRead(r) * i32(2) + i),
                              loop(i - i32(1))))
    prog = relay.Let(r, relay.RefCreate(i32(1)),
                     relay.Let(loop, relay.Function([i], body),
                               relay.Let(u2, loop(i32(5)), relay.RefRead(r))))
    want = 1
    for k in range(5, 0, -1):
        want = want * 2 + k
    assert int(run(prog)) == want


def test_ref_through_a_closure_counter():
    r, tick, u1, u2, u3 = relay.var("r"), relay.var("tick"), relay.var("u1"), relay.var("u2"), relay.var("u3")
    # tick() writes r := !r + 1 and returns the old value; the closure shares the cell
    old = relay.var("old")
    tick_fn = relay.Function([], relay.Let(old, relay.RefRead(r),
                                           relay.Let(u1, relay.RefWrite(r, old + i32(1)), old)))
    prog = relay.Let(r, relay.RefCreate(i32(10)), relay.Let(tick, tick_fn, relay.Tuple([
        tick(), tick(), relay.Let(u2, relay.RefWrite(r, i32(100)), tick()), relay.RefRead(r)])))
    assert [int(v) for v in run(prog)] == [10, 11, 100, 101]
    v = run(relay.RefCreate(i32(3)))
    assert isinstance(v, RefValue) and int(v.value) == 3
    assert run(relay.RefWrite(relay.RefCreate(i32(1)), i32(2))) == ()
    del u3


def test_arguments_evaluate_left_to_right():
    r = relay.var("r")
    x, y = ivar("x"), ivar("y")
    f = relay.Function([x, y], x * i32(10) + y)

    def bump(v):  # r := v; returns v
        u = relay.var("u")
        return relay.Let(u, relay.RefWrite(r, i32(v)), relay.RefRead(r))
    # f(bump(1), bump(2)) then !r: the second argument ran last
    prog = relay.Let(r, relay.RefCreate(i32(0)), relay.Tuple([f(bump(1), bump(2)), relay.RefRead(r)]))
    assert [int(v) for v in run(prog)] == [12, 2]


# -- tensors in data structures, polymorphism --------------------------------------------------
def test_list_of_tensors_with_different_lengths(p):
    arrs = [np.arange(n, dtype="float32") * (n + 1) for n in (1, 4, 2, 7)]
    xs = relay_list(p, [relay.const(a) for a in arrs])
    t = relay.var("t")
    summed = p.map(relay.Function([t], relay.sum(t)), xs)
    got = [float(v) for v in py_list(run(summed, p.mod))]
    assert got == [float(a.sum()) for a in arrs]
    vals = py_list(run(p.rev(xs), p.mod))
    for g, w in zip(vals, arrs[::-1]):
        assert g.shape == w.shape and g.dtype == np.float32
        np.testing.assert_array_equal(g, w)


def test_generic_function_at_two_types():
    mod = relay.IRModule()
    a = relay.TypeVar("a")
    ident, pair = relay.GlobalVar("ident"), relay.GlobalVar("pair")
    x = relay.Var("x", a)
    mod[ident] = relay.Function([x], x, a, [a])
    y = relay.Var("y", a)
    mod[pair] = relay.Function([y], relay.Tuple([ident(y), ident(y)]), None, [a])
    ints_, floats = run(relay.Tuple([pair(i32(3)), pair(relay.const(np.array([1.5, 2.5], "float32")))]), mod)
    assert [int(v) for v in ints_] == [3, 3] and ints_[0].dtype == np.int32
    assert floats[0].dtype == np.float32
    np.testing.assert_array_equal(floats[1], [1.5, 2.5])


def test_generic_prelude_length_at_two_element_types(p):
    xs = relay_list(p, [1, 2, 3])
    ys = relay_list(p, [relay.Tuple([relay.const(1.0), i32(1)])] * 5)
    assert [int(v) for v in run(relay.Tuple([p.length(xs), p.length(ys)]), p.mod)] == [3, 5]


def test_shadowed_variable_is_restored():
    """A Var bound again inside its own scope (not well-formed Relay, but the
    builder allows it): the inner binding ends with its scope."""
    x = ivar("x")
    prog = relay.Let(x, i32(1), relay.Tuple([relay.Let(x, i32(2), x), x]))
    assert [int(v) for v in run(prog)] == [2, 1]


def test_uncovered_op_is_a_clear_error():
    call = relay.Call(relay.Op.get("nn.not_an_op"), [relay.const(1.0)])
    with pytest.raises(RelayRuntimeError, match="the debug interpreter has no kernel for 'nn.not_an_op'"):
        run(call)


# -- deep programs ---------------------------------------------------------------------------------
def test_tail_loop_one_million_iterations():
    n = 1_000_000
    i, acc, loop = ivar("i"), ivar("acc"), relay.var("loop")
    body = relay.If(relay.equal(i, i32(n)), acc, loop(i + i32(1), acc + i32(3)))
    prog = relay.Let(loop, relay.Function([i, acc], body), loop(i32(0), i32(0)))
    interp = Interpreter(relay.IRModule())
    t0 = time.process_time()
    assert int(interp.evaluate(prog)) == 3 * n
    cpu = time.process_time() - t0
    print(f"\n1e6-iteration tail loop: {cpu:.2f}s CPU, {n / cpu:,.0f} iterations/s, "
          f"{interp.steps / cpu:,.0f} machine steps/s")


def test_non_tail_recursion_depth_100000(p):
    n = 100_000
    mod = relay.IRModule()
    down = relay.GlobalVar("down")
    k = ivar("k")
    # down(k) = k + down(k - 1), down(0) = 0: 100,000 pending additions
    mod[down] = relay.Function([k], relay.If(relay.equal(k, i32(0)), i32(0), k + down(k - i32(1))))
    total = n * (n + 1) // 2  # wraps around in int32, as the program's additions do
    assert int(run(down(i32(n)), mod)) == (total + 2**31) % 2**32 - 2**31
    # a 100,000-element list built by a loop, then Prelude's non-tail-recursive length and map
    i, acc, loop = ivar("i"), relay.var("acc"), relay.var("loop")
    build = relay.Let(loop, relay.Function([i, acc], relay.If(
        relay.equal(i, i32(0)), acc, loop(i - i32(1), p.cons(i, acc)))), loop(i32(n), p.nil()))
    x, x2 = ivar("x"), ivar("x2")
    lst = relay.var("lst")
    prog = relay.Let(lst, build, relay.Tuple([p.length(lst), p.foldr(relay.Function([x, ivar("a")], x), i32(-1), lst),
                                              p.length(p.map(relay.Function([x2], x2), lst))]))
    got = run(prog, p.mod)
    assert [int(v) for v in got] == [n, 1, n]


# -- against the compiler ----------------------------------------------------------------------------
def test_debug_matches_vm_on_a_tensor_program():
    x = relay.var("x", shape=(2, 3))
    w = relay.const(np.arange(12, dtype="float32").reshape(4, 3) / 10)
    y = relay.nn.softmax(relay.nn.dense(relay.nn.relu(x - relay.const(0.5)), w))
    mod = relay.IRModule.from_expr(relay.Function([x], relay.Tuple([y, relay.sum(y, axis=[1])])))
    data = np.random.default_rng(0).uniform(-1, 2, (2, 3)).astype("float32")
    dbg = relay.create_executor("debug", mod=mod).evaluate()(data)
    vm = relay.create_executor("vm", mod=mod, target="llvm").evaluate()(data)
    for a, b in zip(dbg, vm):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_results_do_not_alias_inputs_or_constants():
    c = relay.const(np.arange(6, dtype="float32"))
    x = relay.var("x", shape=(6,))
    mod = relay.IRModule.from_expr(relay.Function([x], relay.Tuple([relay.reshape(x, (2, 3)),
                                                                   relay.reshape(c, (3, 2))])))
    data = np.zeros(6, "float32")
    a, b = relay.create_executor("debug", mod=mod).evaluate()(data)
    a[0, 0] = 7.0
    b[0, 0] = 7.0
    assert data[0] == 0.0 and c.data[0] == 0.0


def test_shared_nodes_are_evaluated_once():
    """A node used twice (a DAG) is one value: TVM 0.19's interpreter gives
    [10, 10, 11] here (checked with scripts/interp_vs_tvm.py's TVM venv), and
    a 60-level DAG x_{k+1} = x_k + x_k does not take 2^60 steps."""
    r, tick, old, u1 = relay.var("r"), relay.var("tick"), relay.var("old"), relay.var("u1")
    tick_fn = relay.Function([], relay.Let(old, relay.RefRead(r),
                                           relay.Let(u1, relay.RefWrite(r, old + i32(1)), old)))
    t = tick()
    prog = relay.Let(r, relay.RefCreate(i32(10)), relay.Let(tick, tick_fn, relay.Tuple([t, t, relay.RefRead(r)])))
    assert [int(v) for v in run(prog)] == [10, 10, 11]
    # inside a function, once per call: each call of g ticks once
    g = relay.var("g")
    t2 = tick()
    prog2 = relay.Let(r, relay.RefCreate(i32(0)), relay.Let(tick, tick_fn, relay.Let(
        g, relay.Function([], relay.Tuple([t2, t2])), relay.Tuple([g(), g(), relay.RefRead(r)]))))
    (a0, a1), (b0, b1), last = run(prog2)
    assert [int(a0), int(a1), int(b0), int(b1), int(last)] == [0, 0, 1, 1, 2]
    x = relay.var("x", shape=(2,))
    y = x
    for _ in range(60):
        y = y + y
    f = run(relay.Function([x], y))
    np.testing.assert_array_equal(f(np.array([1.0, -0.5], "float32")), np.array([2.0**60, -2.0**59], "float32"))


def test_foreign_adt_inputs_and_bound_params(p):
    """ADT inputs shaped like compiled code's ADT values (.tag, .constructor
    name, .fields) become this module's constructor values; ``params`` binds
    parameters of main by name."""
    class ADT:  # the attributes of relay_mlir.adt_value.ADT
        def __init__(self, c, fields):
            self.tag, self.constructor, self.fields = c.tag, c.name_hint, fields
    xs = relay.var("xs", p.l(I32))
    k = ivar("k")
    p.mod["main"] = relay.Function([xs, k], p.length(xs) * k)
    lst = ADT(p.cons, [np.array(4, "int32"), ADT(p.cons, [np.array(5, "int32"), ADT(p.nil, [])])])
    f = relay.create_executor("debug", mod=p.mod, params={"k": np.array(10, "int32")}).evaluate()
    assert int(f(lst)) == 20
    bad = ADT(p.cons, [])
    bad.constructor = "Nil"
    with pytest.raises(RelayRuntimeError, match="is 'Cons' in the module, not 'Nil'"):
        f(bad)


def test_vm_executor_closed_expression_and_function():
    assert int(relay.create_executor("vm").evaluate(relay.const(6) * relay.const(7))) == 42
    x = relay.var("x", shape=(3,), dtype="int32")
    f = relay.create_executor("graph", target="llvm").evaluate(relay.Function([x], relay.cumsum(x)))
    np.testing.assert_array_equal(f(x=np.array([1, 2, 3], "int32")), [1, 3, 6])


def test_assert_values_close_compares_interpreter_and_compiled_style_values(p):
    from relay_mlir.interpreter import assert_values_close

    class ADT:  # compiled code's ADT values: the constructor by name
        def __init__(self, name, fields):
            self.constructor, self.fields = name, fields
    v = run(relay_list(p, [1, 2]), p.mod)
    assert_values_close(v, ADT("Cons", [np.array(1, "int32"), ADT("Cons", [np.array(2, "int32"), ADT("Nil", [])])]))
    with pytest.raises(AssertionError, match="constructor"):
        assert_values_close(v, ADT("Cons", [np.array(1, "int32"), ADT("Nil", [])]))
    with pytest.raises(AssertionError, match="dtype"):
        assert_values_close(np.array(1, "int32"), np.array(1, "int64"))
    assert_values_close((np.array([1.0, np.nan], "float32"),), (np.array([1.0 + 1e-7, np.nan], "float32"),), rtol=1e-6)
    with pytest.raises(AssertionError):
        assert_values_close(np.array([1.0], "float32"), np.array([1.1], "float32"), rtol=1e-6)


def test_deep_expression_trees():
    """A 50,000-op dataflow chain and a 50,000-let ANF chain (no Python recursion)."""
    n = 50_000
    one = relay.const(np.ones(2, "float32"))
    x = relay.var("x", shape=(2,))
    y = x
    for _ in range(n):
        y = relay.add(y, one)
    np.testing.assert_array_equal(run(relay.Function([x], y))(np.zeros(2, "float32")), [n, n])
    vs = [relay.var(f"v{i}") for i in range(n)]
    e = vs[-1]
    for i in range(n - 1, -1, -1):
        e = relay.Let(vs[i], relay.subtract(vs[i - 1] if i else x, one), e)
    np.testing.assert_array_equal(run(relay.Function([x], e))(np.zeros(2, "float32")), [-n, -n])
