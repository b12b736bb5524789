"""Numerics of shape_of, ndarray_size and the dyn.* operators on llvm-cpu.

One module, compiled once; every case runs at two or more sizes with the
same compiled function (that is the point of run-time shapes). References
are numpy (``np.shape``, ``np.reshape``, ``np.broadcast_to``, ``np.full``);
all exact. Requests that do not fit the data fail at run time (checked).
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay

ANY = relay.Any()
R = np.random.default_rng(11)


def rand(*shape, dtype="float32"):
    if np.dtype(dtype).kind == "f":
        return R.uniform(-2.0, 2.0, size=shape).astype(dtype)
    return R.integers(-100, 100, size=shape).astype(dtype)


CASES = {}


def case(name, params, body, runs, reference):
    vs = [relay.var(n, shape=s, dtype=d) for n, s, d in params]
    out = body(*vs)
    if isinstance(out, (list, tuple)):
        out = relay.Tuple(list(out))
    CASES[name] = (relay.Function(vs, out), runs, reference, None)  # exact


case("shape_of", [("x", (ANY, 3, ANY), "float32")],
     lambda x: (relay.shape_of(x), relay.shape_of(x, "int64"), relay.ndarray_size(x, "int64")),
     [[rand(2, 3, 4)], [rand(5, 3, 1)], [rand(0, 3, 2)]],
     lambda x: (np.array(x.shape, "int32"), np.array(x.shape, "int64"), np.array(x.size, "int64")))
case("shape_of_scalar", [("x", (), "int8")], lambda x: relay.ndarray_size(x),
     [[np.array(3, "int8")]], lambda x: np.array(1, "int32"))
case("dyn.reshape", [("x", (ANY, 4), "float32"), ("s", (2,), "int64")],
     lambda x, s: relay.reshape(x, s),
     [[rand(3, 4), np.array([2, 6], "int64")], [rand(6, 4), np.array([-1, 3], "int64")],
      [rand(2, 4), np.array([0, -1], "int64")]],
     lambda x, s: x.reshape([x.shape[0] if v == 0 else v for v in s]))
case("dyn.reshape_to_3d", [("x", (ANY,), "int32"), ("s", (3,), "int32")],
     lambda x, s: relay.reshape(x, s),
     [[rand(24, dtype="int32"), np.array([2, 3, 4], "int32")],
      [rand(6, dtype="int32"), np.array([1, -1, 2], "int32")]],
     lambda x, s: x.reshape(list(s)))
case("dyn.reshape_to_scalar", [("x", (ANY,), "float32"), ("s", (0,), "int64")],
     lambda x, s: relay.reshape(x, s),
     [[rand(1), np.zeros((0,), "int64")]], lambda x, s: x.reshape(()))
# shape arithmetic in the program: flatten all but the first dim
case("dyn.reshape_from_shape_of", [("x", (ANY, ANY, 2), "float32")],
     lambda x: relay.reshape(x, relay.concatenate(
         [relay.strided_slice(relay.shape_of(x, "int64"), [0], [1]), relay.const([-1], "int64")], 0)),
     [[rand(2, 3, 2)], [rand(4, 1, 2)]], lambda x: x.reshape(x.shape[0], -1))
case("dyn.broadcast_to", [("x", (ANY, 1), "float32"), ("s", (3,), "int64")],
     lambda x, s: relay.broadcast_to(x, s),
     [[rand(3, 1), np.array([2, 3, 4], "int64")], [rand(1, 1), np.array([1, 5, 2], "int64")]],
     lambda x, s: np.broadcast_to(x, tuple(s)))
case("dyn.fills (dyn.zeros, dyn.ones, dyn.full)", [("s", (2,), "int32"), ("v", (), "float32")],
     lambda s, v: (relay.zeros(s, "int8"), relay.ones(s, "float16"), relay.full(v, s),
                   relay.full(v, s, "int32")),
     [[np.array([2, 3], "int32"), np.array(-2.5, "float32")],
      [np.array([0, 4], "int32"), np.array(7.0, "float32")]],
     lambda s, v: (np.zeros(s, "int8"), np.ones(s, "float16"), np.full(s, v, "float32"),
                   np.full(s, np.trunc(v), "int32")))
# the dyn forms of slicing, tiling, padding and index operators (random argument sweeps:
# ops/test_dyn_index_ops.py)
case("dyn.strided_slice", [("x", (ANY, 5), "float32"), ("b", (2,), "int64"), ("e", (2,), "int64"),
                           ("s", (2,), "int64")],
     lambda x, b, e, s: relay.strided_slice(x, b, e, s),
     [[rand(4, 5), np.array([1, -1], "int64"), np.array([9, 0], "int64"), np.array([2, -2], "int64")],
      [rand(3, 5), np.array([2, 0], "int64"), np.array([0, 5], "int64"), np.array([1, 1], "int64")]],
     lambda x, b, e, s: x[int(b[0]):int(e[0]):int(s[0]), int(b[1]):int(e[1]):int(s[1])])
case("dyn.tile", [("x", (ANY, 2), "int32"), ("r", (3,), "int64")], lambda x, r: relay.tile(x, r),
     [[rand(3, 2, dtype="int32"), np.array([2, 1, 3], "int64")],
      [rand(1, 2, dtype="int32"), np.array([1, 0, 2], "int64")]],
     lambda x, r: np.tile(x, r))
case("dyn.nn.pad", [("x", (ANY, 3), "float32"), ("w", (2, 2), "int64")],
     lambda x, w: (relay.nn.pad(x, w, 1.5), relay.nn.pad(x, w, pad_mode="reflect")),
     [[rand(2, 3), np.array([[1, 0], [2, 1]], "int64")], [rand(4, 3), np.array([[0, 3], [0, 0]], "int64")]],
     lambda x, w: (np.pad(x, w.tolist(), constant_values=np.float32(1.5)), np.pad(x, w.tolist(), mode="reflect")))
case("dyn.one_hot", [("i", (ANY,), "int32"), ("d", (), "int64")],
     lambda i, d: relay.one_hot(i, relay.const(1), relay.const(0), d, -1, "int32"),
     [[np.array([0, 3, 1, -1], "int32"), np.array(4, "int64")], [np.array([2], "int32"), np.array(2, "int64")]],
     lambda i, d: (i[:, None] == np.arange(int(d))).astype("int32"))
case("dyn.squeeze and dyn.expand_dims", [("x", (ANY, 1, 3), "float32"), ("a", (1,), "int64"),
                                         ("e", (), "int64")],
     lambda x, a, e: (relay.squeeze(x, a), relay.expand_dims(x, e, 2)),
     [[rand(2, 1, 3), np.array([-2], "int64"), np.array(0, "int64")],
      [rand(1, 1, 3), np.array([1], "int64"), np.array(-1, "int64")]],
     lambda x, a, e: (np.squeeze(x, int(a[0])), np.expand_dims(x, (int(e), int(e) + 1) if e >= 0 else (-2, -1))))
case("dyn.topk", [("x", (2, ANY), "float32"), ("k", (), "int32")],
     lambda x, k: relay.topk(x, k, axis=1, dtype="int64").astuple(),
     [[np.array([[3, 1, 2, 5], [0, 4, 9, 8]], "float32"), np.array(3, "int32")],
      [np.array([[1, 2], [2, 1]], "float32"), np.array(0, "int32")]],
     # (k < 1: the whole axis, as in Relay)
     lambda x, k: (-np.sort(-x, axis=1)[:, :int(k) or None],
                   np.argsort(-x, axis=1, kind="stable")[:, :int(k) or None]))

NAMES = list(CASES)


@pytest.fixture(scope="module")
def compiled():
    mod = relay.IRModule({f"case{i}": CASES[n][0] for i, n in enumerate(NAMES)})
    return relay.compile(mod, target="llvm-cpu")


def _check(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", NAMES)
def test_dynamic(compiled, name):
    _, runs, reference, _ = CASES[name]
    for inputs in runs:
        _check(compiled.run(f"case{NAMES.index(name)}", *inputs), reference(*inputs))


@pytest.mark.parametrize("name, args", [
    ("dyn.reshape", [np.zeros((3, 4), "float32"), np.array([5, 5], "int64")]),
    ("dyn.reshape", [np.zeros((3, 4), "float32"), np.array([-1, -1], "int64")]),
    ("dyn.broadcast_to", [np.zeros((3, 1), "float32"), np.array([2, 4, 4], "int64")]),
])
def test_requests_that_do_not_fit_fail_at_run_time(compiled, name, args):
    with pytest.raises(Exception, match="relay.dyn"):
        compiled.run(f"case{NAMES.index(name)}", *args)


def test_types():
    x = relay.var("x", shape=(ANY, 3))
    s = relay.var("s", shape=(2,), dtype="int64")
    y = relay.reshape(x, s)
    z = relay.shape_of(x)
    relay.transform.InferType()(relay.IRModule.from_expr(relay.Tuple([y, z])))
    assert y.checked_type == relay.TensorType((ANY, ANY))
    assert z.checked_type == relay.TensorType((2,), "int32")


def test_dynamic_to_static_keeps_static_models_static():
    x = relay.var("x", shape=(2, 6))
    y = relay.nn.relu(relay.reshape(x, relay.const([3, 4], "int64")))
    text = relay.lower_to_iree_input(relay.IRModule.from_expr(relay.Function([x], y)))
    assert "tensor<3x4xf32>" in text and "cf.assert" not in text
