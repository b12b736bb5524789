#!/usr/bin/env python3
"""Writes test/data/relay_text/: Relay programs printed by TVM 0.19 and TVM's outputs.

Runs in a Python that has TVM 0.19 with Relay (a side venv; relay-mlir never
depends on TVM)::

    TOPHUB_LOCATION=NONE /path/to/tvm-venv/bin/python scripts/tvm_text_corpus.py [NAME ...]

For each program it writes ``<name>.relay`` (``mod.astext(show_meta_data=True)``)
and ``<name>.npz`` with what TVM computed; test/python/test_text_corpus.py
parses the text with ``relay_mlir.fromtext`` and checks our results against it.

Tensor programs (``relay.testing`` workloads at small sizes, plus a small
program with constants in the ``#[metadata]`` section) run with
``relay.build`` (opt_level 3, ``llvm -mcpu=<host cpu>``) and the graph
executor. Their inputs AND weights are all parameters of ``@main``; none are
committed: both sides regenerate them with ``corpus_inputs`` below (the test
keeps an identical copy, so a divergence fails the test). The rule, for the
i-th parameter of ``@main`` (name, shape, dtype), with ``rs =
np.random.RandomState(seed + i)``:

* integer dtype: ``rs.randint(0, 4, shape)``; bool: ``rs.randint(0, 2, shape) != 0``;
* name ending ``_var``/``moving_var`` or ``_gamma`` (batch-norm variance and
  scale): ``rs.uniform(0.5, 1.5, shape)``, positive;
* i > 0 and rank >= 2 (weights): ``rs.uniform(-1, 1, shape) / sqrt(prod(shape[1:]))``
  (fan-in scaled, so deep nets neither explode nor vanish);
* otherwise (model inputs, biases, means, betas): ``rs.uniform(-1, 1, shape)``;

then ``.astype(dtype)``. The seed is stored in the .npz (``seed``) with the
tolerances (``rtol``, ``atol``) the test uses and the outputs ``out_0``,
``out_1``, ... (a tuple result is flattened in order).

Language programs (Prelude functions used by a small ``@main``, refs,
closures, a recursive loop, a gradient) run with TVM's interpreter
(``relay.create_executor("debug", mod=mod)``) on the inputs stored in the
.npz as ``in_0``, ``in_1``, ...; their ``.npz`` has ``kind = "language"``.
"""
from __future__ import annotations

import os
import sys
from typing import Callable, Dict, List, Sequence, Tuple

import numpy as np

import tvm
from tvm import relay
from tvm.contrib import graph_executor
from tvm.relay import testing
from tvm.relay.prelude import Prelude

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "data", "relay_text")
SEED = 0


def _load_corpus_inputs():
    """relay_mlir.testing.corpus_inputs, loaded by path: this script runs in the TVM
    venv, where relay_mlir is not installed (the module needs only numpy)."""
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "relay_mlir",
                        "testing", "corpus_inputs.py")
    spec = importlib.util.spec_from_file_location("corpus_inputs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.corpus_inputs


corpus_inputs = _load_corpus_inputs()


def _main_params(mod) -> List[Tuple[str, Tuple[int, ...], str]]:
    res = []
    for p in mod["main"].params:
        t = p.checked_type if p.checked_type is not None else p.type_annotation
        res.append((p.name_hint, tuple(int(d) for d in t.shape), t.dtype))
    return res


def _flatten(value) -> List[np.ndarray]:
    if isinstance(value, (tvm.runtime.container.ADT, list, tuple)):
        out = []
        for v in value:
            out += _flatten(v)
        return out
    if isinstance(value, tvm.nd.NDArray):
        return [value.numpy()]
    return [np.asarray(value)]


def _has_let(fn) -> bool:
    found = []
    relay.analysis.post_order_visit(fn, lambda e: found.append(1) if isinstance(e, relay.Let) else None)
    return bool(found)


def _target() -> str:
    return "llvm -mcpu=" + tvm.target.codegen.llvm_get_system_cpu()


def _write_text(name: str, mod) -> None:
    with open(os.path.join(OUT_DIR, name + ".relay"), "w") as f:
        f.write(mod.astext(show_meta_data=True))
        f.write("\n")


def run_tensor(name: str, mod, rtol: float, atol: float) -> None:
    mod = relay.transform.InferType()(mod)
    _write_text(name, mod)
    params = _main_params(mod)
    inputs = corpus_inputs(params, SEED)
    if _has_let(mod["main"]):
        # the graph executor cannot run let bindings: the Relay VM, also opt_level 3
        executor = "vm"
        with tvm.transform.PassContext(opt_level=3):
            ex = relay.create_executor("vm", mod=mod, device=tvm.cpu(), target=_target())
            outs = _flatten(ex.evaluate()(*inputs))
    else:
        executor = "graph"
        with tvm.transform.PassContext(opt_level=3):
            lib = relay.build(mod, target=_target())
        m = graph_executor.GraphModule(lib["default"](tvm.cpu()))
        for (pname, _, _), a in zip(params, inputs):
            m.set_input(pname, a)
        m.run()
        outs = [m.get_output(i).numpy() for i in range(m.get_num_outputs())]
    np.savez_compressed(os.path.join(OUT_DIR, name + ".npz"), kind="tensor", executor=executor, seed=SEED, rtol=rtol,
                        atol=atol, **{f"out_{i}": o for i, o in enumerate(outs)})
    print(f"{name}: {len(params)} params, outputs {[o.shape for o in outs]}", flush=True)


def run_language(name: str, mod, inputs: Sequence[np.ndarray], prune: bool = True) -> None:
    mod = relay.transform.InferType()(mod)
    if prune:
        # only the Prelude functions main uses (the whole Prelude is prelude_full)
        mod = relay.transform.RemoveUnusedFunctions(["main"])(mod)
    _write_text(name, mod)
    ex = relay.create_executor("debug", mod=mod, device=tvm.cpu(), target="llvm")
    outs = _flatten(ex.evaluate()(*inputs))
    np.savez_compressed(os.path.join(OUT_DIR, name + ".npz"), kind="language", rtol=1e-5, atol=1e-6,
                        **{f"in_{i}": a for i, a in enumerate(inputs)},
                        **{f"out_{i}": o for i, o in enumerate(outs)})
    print(f"{name}: outputs {[o.shape for o in outs]}", flush=True)


def _smallest_square(make: Callable[[int], object], lo: int, hi: int) -> int:
    """The smallest s in [lo, hi] for which make(s) type checks with every intermediate
    shape positive (TVM's type relations accept e.g. a pool larger than its input and
    give a negative size). Bisection: larger inputs only grow the shapes."""
    def ok(s: int) -> bool:
        try:
            mod = relay.transform.InferType()(make(s))
        except Exception:  # noqa: BLE001 - TVM raises TVMError/ValueError/AssertionError
            return False
        bad = []

        def visit(e):
            if isinstance(e, relay.Call):
                t = e.checked_type
                for tt in (t.fields if isinstance(t, relay.TupleType) else [t]):
                    if isinstance(tt, relay.TensorType) and any(int(d) <= 0 for d in tt.shape):
                        bad.append(e)
        relay.analysis.post_order_visit(mod["main"], visit)
        return not bad
    if not ok(hi):
        raise RuntimeError(f"size {hi} is not accepted")
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    return hi


# ---- tensor programs ----------------------------------------------------------------------------

def _consts_program():
    """Constants of several dtypes in the metadata section, scalars printed inline."""
    rs = np.random.RandomState(7)
    x = relay.var("data", shape=(2, 8), dtype="float32")
    w = relay.const(rs.uniform(-1, 1, (4, 8)).astype("float32"))
    b = relay.const(rs.uniform(-1, 1, (4,)).astype("float32"))
    idx = relay.const(np.array([3, 0, 1], "int64"))
    y = relay.nn.bias_add(relay.nn.dense(x, w), b)
    y = relay.take(y, idx, axis=1)
    y = relay.where(relay.greater(y, relay.const(0.0)), y, relay.multiply(y, relay.const(0.1)))
    z = relay.cast(relay.const(np.array([[1, -2, 3]], "int32")), "float32")
    out = relay.Tuple([relay.add(y, z), relay.sum(y, axis=[1], keepdims=True)])
    return tvm.IRModule.from_expr(relay.Function([x], out))


def _meta_attrs_program():
    """Operators registered without an attrs type, whose attributes TVM prints to the metadata
    section (cumsum(%x, meta[relay.attrs.ScanopAttrs][0])), and an arange whose bound is a
    call (printed again as stop=meta[relay.Call][0])."""
    x = relay.var("data", shape=(3, 4), dtype="float32")
    c = relay.add(relay.cumsum(x, axis=1), relay.cumprod(x, axis=0, exclusive=True))
    s = relay.scatter_nd(c, relay.const(np.array([[0, 2]], "int32")),
                         relay.const(np.ones((2, 4), "float32")), mode="add")
    e = relay.scatter_elements(s, relay.const(np.array([[1, 0, 2, 3]] * 3, "int32")), x, axis=1,
                               reduction="add")
    n = relay.take(relay.shape_of(x), relay.const(1))
    r = relay.cast(relay.arange(relay.const(0), n, relay.const(1), dtype="int32"), "float32")
    return tvm.IRModule.from_expr(relay.Function([x], relay.add(e, r)))


def _tvm019_ops_program():
    """TVM 0.19's operators relay-mlir added in session 27 in one program (unravel_index left
    out: TVM's own LLVM codegen rejects its vectorised floormod at opt_level 3); trilu and
    collapse_sum_to print their attributes to the metadata section."""
    x = relay.var("x", shape=(2, 3, 4), dtype="float32")
    d = relay.var("d", shape=(2, 3, 3), dtype="float32")
    a = relay.var("a", shape=(3,), dtype="float32")
    b = relay.var("b", shape=(4,), dtype="float32")
    p = relay.var("p", shape=(4, 3), dtype="float32")
    t = relay.var("t", shape=(4, 3), dtype="float32")
    n = relay.var("lengths", shape=(2,), dtype="int32")

    def k(v, dt):
        return relay.const(np.array(v, dtype=dt))
    outs = [relay.trilu(x, 1, upper=False),
            relay.matrix_set_diag(x, d, k=(-1, 1), align="LEFT_RIGHT"),
            relay.meshgrid([a, b], indexing="xy")[1],
            relay.reverse_reshape(x, (-1, 0)),
            relay.collapse_sum_to(x, (3, 1)),
            relay.sliding_window(x, 1, (2, 2), (1, 2)),
            relay.sequence_mask(x, n, -1.0, axis=1),
            relay.reverse_sequence(x, n, 1, 0),
            relay.invert_permutation(relay.concatenate([n, k([0, 3], "int32")], 0) * k([0, 0, 1, 1], "int32")
                                     + k([1, 2, 0, 0], "int32")),
            relay.searchsorted(relay.sort(a), b, right=True),
            relay.reinterpret(x, "int32"),
            relay.nn.dilate(x, (1, 2, 1), 0.5),
            relay.sparse_to_dense(k([[0, 1], [2, 3], [1, 0]], "int32"), (3, 4), a, k(-1.0, "float32")),
            relay.nn.cross_entropy(relay.sigmoid(p), t),
            relay.nn.cross_entropy_with_logits(p, t),
            relay.nn.nll_loss(p, k([2, 0, 1, 2], "int32"), k([0.5, 1.0, 2.0], "float32"), "mean", 1)]
    return tvm.IRModule.from_expr(relay.Function([x, d, a, b, p, t, n], relay.Tuple(outs)))


TENSOR: Dict[str, Callable[[], Tuple[object, float, float]]] = {
    "mlp": lambda: (testing.mlp.get_workload(batch_size=1)[0], 1e-4, 1e-5),
    "resnet18": lambda: (testing.resnet.get_workload(batch_size=1, num_classes=10, num_layers=18,
                                                     image_shape=(3, 32, 32))[0], 1e-3, 1e-4),
    "mobilenet": lambda: (testing.mobilenet.get_workload(batch_size=1, num_classes=10,
                                                         image_shape=(3, 32, 32))[0], 1e-3, 1e-4),
    "dqn": lambda: (testing.dqn.get_workload(batch_size=1)[0], 1e-4, 1e-5),
    "vgg11": lambda: (testing.vgg.get_workload(batch_size=1, num_classes=10, image_shape=(3, 32, 32),
                                               num_layers=11)[0], 1e-3, 1e-4),
    "squeezenet": lambda: (testing.squeezenet.get_workload(batch_size=1, num_classes=10,
                                                           image_shape=(3, 64, 64))[0], 1e-3, 1e-4),
    "inception_v3": lambda: (testing.inception_v3.get_workload(
        batch_size=1, num_classes=10,
        image_shape=(3,) + (_smallest_square(lambda s: testing.inception_v3.get_workload(
            batch_size=1, num_classes=10, image_shape=(3, s, s))[0], 75, 299),) * 2)[0], 1e-3, 1e-4),
    "densenet": lambda: (testing.densenet.get_workload(
        densenet_size=121, classes=10, batch_size=1,
        image_shape=(3,) + (_smallest_square(lambda s: testing.densenet.get_workload(
            densenet_size=121, classes=10, batch_size=1, image_shape=(3, s, s))[0], 200, 224),) * 2)[0],
        1e-3, 1e-4),
    "lstm": lambda: (testing.lstm.get_workload(iterations=4, num_hidden=16)[0], 1e-4, 1e-5),
    "dcgan": lambda: (testing.dcgan.get_workload(batch_size=1, ngf=16, random_len=16)[0], 1e-3, 1e-4),
    "synthetic": lambda: (testing.synthetic.get_workload()[0], 1e-4, 1e-5),
    "consts": lambda: (_consts_program(), 1e-5, 1e-6),
    "meta_attrs": lambda: (_meta_attrs_program(), 1e-5, 1e-6),
    "tvm019_ops": lambda: (_tvm019_ops_program(), 1e-5, 1e-6),
}


# ---- language programs --------------------------------------------------------------------------

def _prelude_module():
    mod = tvm.IRModule()
    p = Prelude(mod)
    return mod, p


def _list(mod, items):
    _, cons_c, nil_c = mod.get_type("List")
    out = nil_c()
    for it in reversed(items):
        out = cons_c(it, out)
    return out


def lang_list_map_fold():
    """map, foldl and foldr over a List of tensors (foldr with subtract: order matters)."""
    mod, _ = _prelude_module()
    x = relay.var("x", shape=(3,), dtype="float32")
    xs = _list(mod, [x, relay.add(x, relay.const(1.0)), relay.multiply(x, relay.const(2.0))])
    t = relay.var("t", shape=(3,), dtype="float32")
    doubled = mod.get_global_var("map")(relay.Function([t], relay.multiply(t, relay.const(2.0))), xs)
    a = relay.var("a", shape=(3,), dtype="float32")
    b = relay.var("b", shape=(3,), dtype="float32")
    zero = relay.zeros((3,), "float32")
    sl = mod.get_global_var("foldl")(relay.Function([a, b], relay.subtract(a, b)), zero, doubled)
    a2 = relay.var("a", shape=(3,), dtype="float32")
    b2 = relay.var("b", shape=(3,), dtype="float32")
    sr = mod.get_global_var("foldr")(relay.Function([a2, b2], relay.subtract(a2, b2)), zero, doubled)
    n = mod.get_global_var("length")(doubled)
    mod["main"] = relay.Function([x], relay.Tuple([sl, sr, n]))
    return mod, [np.array([1.0, -2.0, 0.5], "float32")]


def lang_option():
    """Option: Some/None built by a function, consumed by match."""
    mod, _ = _prelude_module()
    _, some, none = mod.get_type("Option")
    x = relay.var("x", shape=(2,), dtype="float32")
    c = relay.var("c", shape=(), dtype="bool")
    opt_t = relay.TypeCall(mod.get_global_type_var("Option"), [relay.TensorType((2,), "float32")])
    # return types annotated: TVM infers globals in hash order
    mk = relay.Function([x, c], relay.If(c, some(x), none()), opt_t)
    opt = relay.var("o", opt_t)
    v = relay.var("v")
    getter = relay.Function([opt], relay.Match(opt, [
        relay.Clause(relay.PatternConstructor(some, [relay.PatternVar(v)]), relay.add(v, relay.const(1.0))),
        relay.Clause(relay.PatternConstructor(none, []), relay.zeros((2,), "float32")),
    ]), relay.TensorType((2,), "float32"))
    f = relay.GlobalVar("get_or_zero")
    mod[f] = getter
    m = relay.GlobalVar("mk")
    mod[m] = mk
    xm = relay.var("x", shape=(2,), dtype="float32")
    mod["main"] = relay.Function([xm], relay.Tuple([
        f(m(xm, relay.const(True))), f(m(xm, relay.const(False)))]))
    return mod, [np.array([3.0, -1.0], "float32")]


def lang_tree_size():
    """Rose tree: Prelude @size and @tmap."""
    mod, _ = _prelude_module()
    _, rose = mod.get_type("Tree")
    _, cons, nil = mod.get_type("List")
    x = relay.var("x", shape=(), dtype="int32")

    def leaf(v):
        return rose(v, nil())
    t = rose(x, cons(leaf(relay.add(x, relay.const(1))),
                     cons(rose(relay.const(5), cons(leaf(relay.const(7)), nil())), nil())))
    y = relay.var("y", shape=(), dtype="int32")
    t2 = mod.get_global_var("tmap")(relay.Function([y], relay.multiply(y, relay.const(2))), t)
    mod["main"] = relay.Function([x], relay.Tuple([mod.get_global_var("size")(t2), x]))
    return mod, [np.array(3, "int32")]


def lang_refs():
    """ref, ref_read, ref_write sequenced with let."""
    x = relay.var("x", shape=(2, 2), dtype="float32")
    r = relay.var("r")
    u = relay.var("u")
    u2 = relay.var("u2")
    body = relay.Let(r, relay.RefCreate(x),
                     relay.Let(u, relay.RefWrite(r, relay.add(relay.RefRead(r), relay.const(1.0))),
                               relay.Let(u2, relay.RefWrite(r, relay.multiply(relay.RefRead(r), x)),
                                         relay.RefRead(r))))
    mod = tvm.IRModule.from_expr(relay.Function([x], body))
    return mod, [np.array([[1.0, 2.0], [3.0, -4.0]], "float32")]


def lang_closures():
    """Closures and currying: fn(a) { fn(b) { a * b + c } } captured and applied twice."""
    x = relay.var("x", shape=(3,), dtype="float32")
    y = relay.var("y", shape=(3,), dtype="float32")
    a = relay.var("a", shape=(3,), dtype="float32")
    b = relay.var("b", shape=(3,), dtype="float32")
    add3 = relay.var("curried")
    inner = relay.Function([b], relay.add(relay.multiply(a, b), x))
    outer = relay.Function([a], inner)
    f = relay.var("f")
    body = relay.Let(add3, outer,
                     relay.Let(f, add3(y), relay.Tuple([f(x), f(y), add3(x)(x)])))
    mod = tvm.IRModule.from_expr(relay.Function([x, y], body))
    return mod, [np.array([1.0, 2.0, 3.0], "float32"), np.array([0.5, -1.0, 2.0], "float32")]


def lang_loop():
    """A recursive loop: a recursive let and a recursive global."""
    i = relay.var("i", shape=(), dtype="int32")
    acc = relay.var("acc", shape=(2,), dtype="float32")
    loop = relay.var("loop", relay.FuncType([relay.TensorType((), "int32"), relay.TensorType((2,), "float32")],
                                            relay.TensorType((2,), "float32")))
    body = relay.If(relay.less(i, relay.const(5)),
                    loop(relay.add(i, relay.const(1)), relay.add(relay.multiply(acc, relay.const(0.5)),
                                                                 relay.cast(i, "float32"))),
                    acc)
    x = relay.var("x", shape=(2,), dtype="float32")
    let_loop = relay.Let(loop, relay.Function([i, acc], body), loop(relay.const(0), x))
    mod = tvm.IRModule()
    g = relay.GlobalVar("fact")
    n = relay.var("n", shape=(), dtype="int32")
    mod[g] = relay.Function([n], relay.If(relay.less_equal(n, relay.const(1)), relay.const(1),
                                          relay.multiply(n, g(relay.subtract(n, relay.const(1))))),
                            relay.TensorType((), "int32"))
    k = relay.var("k", shape=(), dtype="int32")
    mod["main"] = relay.Function([x, k], relay.Tuple([let_loop, g(k)]))
    return mod, [np.array([1.0, -3.0], "float32"), np.array(5, "int32")]


def lang_gradient():
    """relay.transform.gradient (higher order AD, uses refs) of x * y + exp(x), after InferType."""
    x = relay.var("x", shape=(2, 3), dtype="float32")
    y = relay.var("y", shape=(2, 3), dtype="float32")
    f = relay.Function([x, y], relay.add(relay.multiply(x, y), relay.exp(x)))
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(f))
    g = relay.transform.gradient(mod["main"], mod=mod)
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(g))
    rs = np.random.RandomState(3)
    return mod, [rs.uniform(-1, 1, (2, 3)).astype("float32"), rs.uniform(-1, 1, (2, 3)).astype("float32")]


def lang_prelude_full():
    """All of TVM's Prelude (List/Option/Tree functions and the tensor array ADTs and
    functions for every dtype, which use shape_of and dynamic-shape operators)."""
    mod, _ = _prelude_module()
    x = relay.var("x", shape=(2,), dtype="float32")
    mod["main"] = relay.Function([x], mod.get_global_var("id")(x))
    return mod, [np.array([1.0, 2.0], "float32")]


LANGUAGE = {
    "lang_list_map_fold": lang_list_map_fold,
    "lang_option": lang_option,
    "lang_tree_size": lang_tree_size,
    "lang_refs": lang_refs,
    "lang_closures": lang_closures,
    "lang_loop": lang_loop,
    "lang_gradient": lang_gradient,
    "prelude_full": lang_prelude_full,
}


def main(argv: Sequence[str]) -> int:
    os.makedirs(OUT_DIR, exist_ok=True)
    names = list(argv) or list(TENSOR) + list(LANGUAGE)
    for name in names:
        if name in TENSOR:
            mod, rtol, atol = TENSOR[name]()
            run_tensor(name, mod, rtol, atol)
        elif name in LANGUAGE:
            mod, inputs = LANGUAGE[name]()
            run_language(name, mod, inputs, prune=name != "prelude_full")
        else:
            print(f"unknown program {name!r}; known: {', '.join(list(TENSOR) + list(LANGUAGE))}")
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
