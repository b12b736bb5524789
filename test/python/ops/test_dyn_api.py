"""TVM 0.19's Python API with run-time shape arguments (Relay's dyn family, argwhere, unique)
against TVM 0.19's own results.

The programs are test/python/ops/dyn_cases.py, written once against the API both systems
share; scripts/tvm_dyn_expectations.py ran them in TVM 0.19 and wrote test/data/dyn/. Here
they are compiled once (one module, llvm-cpu) and run on every input set (sizes down to 1, and
0 elements for argwhere/full), and the reference interpreter runs them too. TVM 0.19 fails to
compile its own dyn resize2d with linear/cubic (an LLVM codegen error), so resize is also
compared with relay-mlir's static image.resize2d at the same size. unique's padded results
are compared on their defined prefix (``num_unique`` entries; TVM leaves the rest undefined).
"""
from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.errors import RelayRuntimeError

sys.path.insert(0, os.path.dirname(__file__))
from dyn_cases import CASES  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "dyn")
NAMES = list(CASES)


def _outs(v):
    if isinstance(v, (list, tuple)):
        return [np.asarray(x.numpy() if hasattr(x, "numpy") else x) for x in v]
    return [np.asarray(v.numpy() if hasattr(v, "numpy") else v)]


@pytest.fixture(scope="module")
def compiled():
    fns = {}
    for i, name in enumerate(NAMES):
        params, body = CASES[name][0](relay)
        fns[f"case{i}"] = relay.Function(params, body)
    return relay.compile(relay.IRModule(fns), target="llvm-cpu")


def _expected(name):
    path = os.path.join(DATA, name + ".npz")
    return np.load(path) if os.path.exists(path) else None


def _compare(name, got, want):
    if name.startswith("unique"):
        num = int(want[3][0])
        assert [g.dtype for g in got] == [w.dtype for w in want]
        for j, (g, w) in enumerate(zip(got, want)):
            if j in (0, 1, 4):  # output, indices, counts: defined on the first num_unique entries
                g, w = g[:num], w[:num]
            np.testing.assert_array_equal(g, w, err_msg=f"{name} output {j}")
        return
    assert len(got) == len(want)
    for j, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, (name, j, g.dtype, g.shape, w.dtype, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, err_msg=f"{name} output {j}")


@pytest.mark.parametrize("name", [n for n in NAMES if _expected(n) is not None])
def test_against_tvm(compiled, name):
    exp = _expected(name)
    inputs = CASES[name][1]
    for k, args in enumerate(inputs):
        want = [exp[f"out_{k}_{j}"] for j in range(sum(1 for f in exp.files if f.startswith(f"out_{k}_")))]
        got = _outs(compiled.run(f"case{NAMES.index(name)}", *args))
        _compare(name, got, want)


@pytest.mark.parametrize("name", ["strided_slice", "pad_reflect", "tile", "topk", "resize_cubic_half_pixel",
                                  "squeeze", "expand_dims", "argwhere_float", "unique_unsorted_counts"])
def test_interpreter_agrees(compiled, name):
    params, body = CASES[name][0](relay)
    run = relay.create_executor("debug", mod=relay.IRModule.from_expr(relay.Function(params, body))).evaluate()
    for args in CASES[name][1]:
        got = _outs(run(*args))
        want = _outs(compiled.run(f"case{NAMES.index(name)}", *args))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("resize")])
def test_resize_matches_static_resize(compiled, name):
    """The run-time-size composition against relay-mlir's static image.resize2d at each size."""
    _, method, mode = name.split("_", 2)
    method = {"nearest": "nearest_neighbor"}.get(method, method)
    for x, size in CASES[name][1]:
        xv = relay.var("x", shape=x.shape)
        static = relay.compile(relay.IRModule.from_expr(relay.Function(
            [xv], relay.image.resize2d(xv, [int(s) for s in size], None, "NCHW", method, mode, "", -0.5, 0, 0.0,
                                       None))), target="llvm-cpu")
        want = np.asarray(static(x))
        got = np.asarray(compiled.run(f"case{NAMES.index(name)}", x, size))
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_numpy_where_tvm_is_wrong(compiled):
    """Cases TVM 0.19 gets wrong itself (dyn_cases.py), against numpy."""
    run = lambda name, *a: _outs(compiled.run(f"case{NAMES.index(name)}", *a))[0]  # noqa: E731
    x = np.arange(20, dtype="float32").reshape(4, 5)
    for b, e, s in [([-10, 0], [10, 100], [3, 4]), ([10, -1], [-10, -100], [-1, -2]), ([2, 5], [1, 0], [1, 1])]:
        got = run("strided_slice", x, np.array(b), np.array(e), np.array(s))
        np.testing.assert_array_equal(got, x[b[0]:e[0]:s[0], b[1]:e[1]:s[1]])
    y = np.zeros((1, 1, 1, 3), "float32")
    assert run("squeeze", y, np.array([-2, 0])).shape == (1, 3)
    assert run("expand_dims", np.zeros((1, 3), "float32"), np.array(-1)).shape == (1, 3, 1, 1)
    assert run("expand_dims", np.zeros((2, 3), "float32"), np.array(-3)).shape == (1, 1, 2, 3)
    a, b, c = (relay.var(n, shape=(), dtype="float32") for n in "abc")
    exe = relay.compile(relay.IRModule.from_expr(relay.Function([a, b, c], relay.arange(a, b, c))))
    for lo, hi, st in [(1, 7, 1.5), (0, 1, 1), (5, -1, -2), (0, 0, 1)]:
        args = [np.float32(v) for v in (lo, hi, st)]
        np.testing.assert_allclose(np.asarray(exe(*args)), np.arange(*args, dtype="float32"))


def test_argwhere_unique_numpy(compiled):
    """argwhere/unique against numpy on random data at several sizes, including 0 and 1."""
    rng = np.random.default_rng(3)
    aw = f"case{NAMES.index('argwhere_float')}"
    un = f"case{NAMES.index('unique_sorted_counts')}"
    for shape in [(0, 0), (1, 1), (3, 1), (5, 8), (17, 3)]:
        c = (rng.uniform(size=shape) < 0.3).astype("float32")
        got = np.asarray(compiled.run(aw, c))
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, np.argwhere(c).astype("int32").reshape(-1, 2))
    for n in [0, 1, 2, 9, 40]:
        x = rng.integers(-4, 4, n).astype("int32")
        out, idx, inv, num, counts = _outs(compiled.run(un, x))
        u, i, v, c = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
        k = int(num[0])
        assert k == len(u)
        np.testing.assert_array_equal(out[:k], u)
        np.testing.assert_array_equal(idx[:k], i)
        np.testing.assert_array_equal(inv, v.reshape(-1))
        np.testing.assert_array_equal(counts[:k], c)


@pytest.mark.parametrize("name, args, match", [
    ("strided_slice", [np.zeros((4, 5), "float32"), np.array([0, 0]), np.array([1, 1]), np.array([0, 1])],
     "a stride is 0"),
    ("pad_constant", [np.zeros((2, 3), "float32"), np.array([[-3, 0], [0, 0]])], "negative"),
    ("tile", [np.zeros((2, 3), "float32"), np.array([1, -1, 1])], "negative"),
    ("tile", [np.zeros((2, 3), "float32"), np.array([2**20, 2**20, 2**10])], "2\\^40"),
    ("topk", [np.zeros((2, 6), "float32"), np.array(7, "int32")], "k is not in"),
    ("one_hot", [np.zeros(3, "int32"), np.array(-2, "int32")], "negative"),
    ("one_hot", [np.zeros(2**11, "int32"), np.array(2**30, "int32")], "2\\^40"),
    ("pad_edge", [np.zeros((2, 3), "float32"), np.array([[2**21, 0], [0, 2**20]])], "2\\^40"),
    ("resize_linear_half_pixel", [np.zeros((1, 2, 3, 3), "float32"), np.array([2, -4])], "negative"),
    ("resize_nearest_asymmetric", [np.zeros((1, 2, 3, 3), "float32"), np.array([2**21, 2**21])], "2\\^40"),
    ("resize_nearest_asymmetric", [np.zeros((1, 2, 3, 3), "float32"), np.array([2**20, 2**20])], "2\\^40"),
    ("squeeze", [np.zeros((1, 4, 1, 3), "float32"), np.array([0, 1])], "squeezed dim is not 1"),
    ("squeeze", [np.zeros((1, 4, 1, 3), "float32"), np.array([0, 0])], "given twice"),
    ("expand_dims", [np.zeros((2, 3), "float32"), np.array(4)], "axis is out of range"),
])
def test_bad_runtime_values_fail_cleanly(compiled, name, args, match):
    with pytest.raises(RelayRuntimeError, match=match):
        compiled.run(f"case{NAMES.index(name)}", *args)


def test_constant_arguments_give_static_ops():
    x = relay.var("x", shape=(4, 6))
    i64 = lambda v: relay.const(v, "int64")  # noqa: E731
    assert relay.strided_slice(x, i64([1, 0]), i64([3, 6]), i64([1, 2])).op.name == "strided_slice"
    assert relay.nn.pad(x, i64([[1, 1], [0, 2]])).op.name == "nn.pad"
    assert relay.tile(x, i64([2, 1])).op.name == "tile"
    assert relay.topk(x, relay.const(np.array(2, "int32")), ret_type="values").op.name == "topk"
    assert relay.one_hot(relay.var("i", shape=(3,), dtype="int32"), relay.const(1.0), relay.const(0.0),
                         relay.const(np.array(5, "int32")), -1, "float32").op.name == "one_hot"
    assert relay.image.resize2d(relay.var("y", shape=(1, 1, 2, 2)), i64([4, 4])).op.name == "image.resize2d"
    assert relay.squeeze(relay.var("z", shape=(1, 3)), i64([0])).op.name == "squeeze"
    assert relay.expand_dims(x, i64(1)).op.name == "expand_dims"
    assert relay.reshape(x, i64([6, 4])).op.name == "reshape"
    assert relay.nn.upsampling(relay.var("v", shape=(1, 1, 2, 2)), relay.const(2.0), 3.0).op.name == "nn.upsampling"


def test_result_types():
    """Dims that depend on run-time values are ?, the others keep their static value."""
    A = relay.Any()
    x = relay.var("x", shape=(A, 5))
    b = relay.var("b", shape=(2,), dtype="int64")
    c = relay.var("c", shape=(3, 4), dtype="bool")
    u = relay.var("u", shape=(6,), dtype="float32")
    outs = [relay.strided_slice(x, b, b, b), relay.argwhere(c), relay.unique(u, True, True).astuple(),
            relay.tile(x, relay.var("r", shape=(2,), dtype="int64"))]
    relay.transform.InferType()(relay.IRModule.from_expr(relay.Tuple(outs)))
    assert outs[0].checked_type == relay.TensorType((A, A))
    assert outs[1].checked_type == relay.TensorType((A, 2), "int32")
    assert [f.shape for f in outs[2].checked_type.fields] == [(6,), (6,), (6,), (1,), (6,)]
    assert outs[3].checked_type == relay.TensorType((A, A))


def test_constant_arguments_fold_to_static_shapes():
    """dyn operators built on constant arguments (as the ONNX importer and Python callers
    may) become static operators in DynamicToStatic (relay-dynamic-to-static): static result
    types, and the same values; resize (a composition) folds its index arithmetic."""
    from relay_mlir.op import dyn
    i64 = lambda v: relay.const(v, "int64")  # noqa: E731
    x = relay.var("x", shape=(4, 6))
    outs = [dyn.strided_slice(x, i64([1, -1]), i64([4, 0]), i64([2, -2])),
            dyn.pad(x, i64([[1, 0], [2, 3]]), relay.const(1.0), "reflect"),
            dyn.tile(x, i64([2, 1, 1])),
            dyn.one_hot(relay.var("i", shape=(3,), dtype="int32"), relay.const(1.0), relay.const(0.0),
                        i64(5), 0, "float32"),
            dyn.squeeze(relay.var("s", shape=(1, 3, 1)), i64([0, -1])),
            dyn.expand_dims(x, i64(-1), 2),
            dyn.topk(x, i64(2), axis=0, ret_type="values"),
            dyn.resize2d(relay.var("y", shape=(1, 1, 3, 3)), i64([5, 2]), method="linear")]
    mod = relay.IRModule.from_expr(relay.Tuple(outs))
    relay.transform.InferType()(mod)
    assert [o.op.name for o in outs[:7]] == ["dyn.strided_slice", "dyn.nn.pad", "dyn.tile", "dyn.one_hot",
                                             "dyn.squeeze", "dyn.expand_dims", "dyn.topk"]
    assert outs[0].checked_type.shape[0] is not None and not isinstance(outs[0].checked_type.shape[0], int)
    body = relay.transform.DynamicToStatic()(mod)["main"].body
    assert [f.op.name for f in body.fields[:7]] == ["strided_slice", "nn.pad", "tile", "one_hot", "squeeze",
                                                    "expand_dims", "topk"]
    assert [tuple(f.checked_type.shape) for f in body.fields] == [
        (2, 3), (5, 11), (2, 4, 6), (5, 3), (3,), (4, 6, 1, 1), (2, 6), (1, 1, 5, 2)]
    X = np.arange(24, dtype="float32").reshape(4, 6)
    got = relay.create_executor("debug", mod=relay.IRModule.from_expr(relay.Function([x], outs[0]))).evaluate()(X)
    np.testing.assert_array_equal(np.asarray(got.numpy() if hasattr(got, "numpy") else got), X[1:4:2, -1:0:-2])


# TVM's printed text of every case parses (slice_like and cast_like in TVM's own strided_slice
# expansion, attributes printed to the metadata section: cumsum, unique, dyn.expand_dims, ...)
TEXT_CASES = [n for n in NAMES if os.path.exists(os.path.join(DATA, n + ".relay"))]


def test_tvm_text_of_dyn_ops(compiled):
    """TVM 0.19's text of the dyn programs (dyn.nn.pad, dyn.tile, ... with the placeholder
    attributes TVM prints) parses and gives TVM's results; where TVM's results are wrong (no
    expectations stored), the results of the same program built with the Python API (checked
    against numpy above)."""
    fns = {}
    for i, name in enumerate(TEXT_CASES):
        with open(os.path.join(DATA, name + ".relay")) as f:
            fns[f"t{i}"] = relay.fromtext(f.read())["main"]
    exe = relay.compile(relay.IRModule(fns), target="llvm-cpu")
    for i, name in enumerate(TEXT_CASES):
        exp = _expected(name)
        for k, args in enumerate(CASES[name][1]):
            got = _outs(exe.run(f"t{i}", *args))
            if exp is None:
                want = _outs(compiled.run(f"case{NAMES.index(name)}", *args))
                assert len(got) == len(want)
                for g, w in zip(got, want):
                    assert g.dtype == w.dtype and g.shape == w.shape
                    np.testing.assert_array_equal(g, w)
                continue
            want = [exp[f"out_{k}_{j}"] for j in range(sum(1 for f in exp.files if f.startswith(f"out_{k}_")))]
            _compare(name, got, want)


def test_ill_typed_shape_operand_says_why():
    """A run-time shape computation that does not type-check is reported with its type error
    when a dyn operator needs its length (it was 'the type ... is not known')."""
    x = relay.var("x", shape=(1, 2, relay.Any(), relay.Any()))
    size = relay.multiply(relay.strided_slice(relay.shape_of(x, "int64"), [2], [4]),
                          relay.const(np.array([2, 2])))  # an int32 constant, as in TVM
    with pytest.raises(TypeError, match="(?s)does not type-check.*operand dtypes differ: lhs is 'i64', rhs is 'i32'"):
        relay.image.resize2d(x, size)


def test_argwhere_of_a_mask_built_from_an_arange():
    """argwhere of ``c & (arange(len(c)) < d)`` with d a run-time product of dims: iree-compile
    failed on it ("exceeded stack allocation limit": the composition read the fused mask twice,
    element against element, and IREE gave it a private copy of unbounded size)."""
    A = relay.Any()
    c = relay.var("c", shape=(A,), dtype="bool")
    x = relay.var("x", shape=(A, A))
    n = relay.take(relay.shape_of(c, "int64"), relay.const(0, "int64"))
    d = relay.take(relay.shape_of(relay.reshape(x, [-1]), "int64"), relay.const(0, "int64"))
    pos = relay.arange(relay.const(0, "int64"), n, relay.const(1, "int64"), dtype="int64")
    body = relay.argwhere(relay.logical_and(c, relay.less(pos, d)))
    exe = relay.compile(relay.IRModule.from_expr(relay.Function([c, x], body)), target="llvm-cpu")
    rng = np.random.default_rng(5)
    for length, shape in [(4, (1, 3)), (1, (1, 1)), (9, (2, 2)), (5, (0, 3)), (3, (2, 5))]:
        cv = rng.uniform(size=length) < 0.6
        want = np.argwhere(cv & (np.arange(length) < int(np.prod(shape)))).astype("int32")
        got = np.asarray(exe(cv, np.zeros(shape, "float32")))
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
