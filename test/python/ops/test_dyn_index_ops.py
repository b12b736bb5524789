"""dyn.strided_slice, strided_set, dyn.tile, dyn.nn.pad, dyn.one_hot, dyn.squeeze,
dyn.expand_dims and dyn.topk against numpy over random run-time arguments.

One module compiled once (llvm-cpu), each function run on 40 random argument sets (bounds
past either end, negative strides, zero repeats, negative pad widths = crops, reflect
widths larger than the dim, k = 0 and k = dim, ...) and the same sets through the
reference interpreter. References are numpy's own (Python slicing, ``np.tile``,
``np.pad``, assignment to a Python slice for strided_set, comparison with ``arange`` for one_hot, ``np.squeeze``, ``np.expand_dims``, a
stable argsort for topk), written here independently of the kernels; all exact.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay

R = np.random.default_rng(5)
ANY = relay.Any()
RUNS = 40


def _vec(name, n, dtype="int64"):
    return relay.var(name, shape=(n,), dtype=dtype)


def _slice_ref(x, b, e, s):
    return x[tuple(slice(int(b[a]), int(e[a]), int(s[a])) for a in range(len(b)))]


def _slice_args():
    x = R.standard_normal((R.integers(1, 6), R.integers(1, 6), 3)).astype("float32")
    b = R.integers(-8, 8, size=2)
    e = R.integers(-8, 8, size=2)
    s = R.choice([-3, -2, -1, 1, 2, 3], size=2).astype("int32")
    return [x, b, e, s]


def _set_args(strides=True):
    """strided_set's arguments: ``v`` of the slice's shape (possibly empty)."""
    x, b, e, s = _slice_args()
    if not strides:
        s = np.ones(2, "int32")
    v = R.standard_normal(_slice_ref(x, b, e, s).shape).astype("float32")
    return [x, v, b, e, s] if strides else [x, v, b, e]


def _set_ref(x, v, b, e, s=np.ones(2, "int32")):
    out = x.copy()
    out[tuple(slice(int(b[a]), int(e[a]), int(s[a])) for a in range(len(b)))] = v
    return out


def _tile_args():
    x = R.standard_normal((R.integers(1, 4), R.integers(0, 4))).astype("float32")
    return [x, R.integers(0, 4, size=3)]


def _pad_constant_args():
    x = R.standard_normal((R.integers(2, 6), R.integers(2, 6))).astype("float32")
    w = np.stack([R.integers(-1, 4, size=2), R.integers(-1, 4, size=2)], axis=1)  # (rank, 2)
    return [x, w]


def _pad_constant_ref(x, w):
    crop = tuple(slice(max(-b, 0), x.shape[a] - max(-e, 0)) for a, (b, e) in enumerate(w))
    return np.pad(x[crop], [(max(b, 0), max(e, 0)) for b, e in w], constant_values=np.float32(0.5))


def _pad_mode_args():
    x = R.standard_normal((R.integers(1, 5), R.integers(1, 5))).astype("float32")
    return [x, R.integers(0, 7, size=(2, 2))]


def _one_hot_args():
    return [R.integers(-2, 7, size=(R.integers(1, 5), 2)).astype("int32"), np.array(R.integers(0, 7), "int32")]


def _one_hot_ref(i, d):
    hot = i[None, :, :] == np.arange(int(d)).reshape(-1, 1, 1)
    return np.where(hot, np.float32(2.0), np.float32(-1.0))


def _squeeze_args():
    shape = [int(v) for v in R.integers(2, 4, size=4)]
    axes = R.choice(4, size=2, replace=False)
    for a in axes:
        shape[a] = 1
    neg = R.integers(0, 2, size=2).astype(bool)
    return [R.standard_normal(shape).astype("float32"), np.where(neg, axes - 4, axes)]


def _expand_args():
    return [R.standard_normal((R.integers(1, 4), 3)).astype("float32"), np.array(R.integers(-3, 3), "int64")]


def _expand_ref(x, a):
    a = int(a)
    a = a + x.ndim + 1 if a < 0 else a
    return x.reshape(x.shape[:a] + (1, 1) + x.shape[a:])


def _topk_args():
    n = int(R.integers(1, 7))
    x = R.permutation(3 * n * 4).astype("float32")[: 3 * n].reshape(3, n)  # distinct values: no ties
    return [x, np.array(R.integers(0, n + 1), "int32")]


def _topk_ref(x, k, ascend):
    k = int(k) if k >= 1 else x.shape[1]  # (Relay: k < 1 selects the whole axis)
    order = np.argsort(x if ascend else -x, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(x, order, axis=1), order.astype("int64")


CASES = {
    "strided_slice": (
        lambda: ([x := relay.var("x", shape=(ANY, ANY, 3)), b := _vec("b", 2), e := _vec("e", 2),
                  s := _vec("s", 2, "int32")], relay.strided_slice(x, b, e, s)),
        _slice_args, _slice_ref),
    "strided_slice_size": (
        lambda: ([x := relay.var("x", shape=(ANY, ANY, 3)), b := _vec("b", 2), e := _vec("e", 2),
                  relay.var("s", shape=(2,), dtype="int32")],
                 relay.strided_slice(x, b, e, slice_mode="size")),
        lambda: [a if i == 0 else R.integers(0 if i == 1 else -1, 6, size=2) for i, a in enumerate(_slice_args())],
        lambda x, b, e, s: x[tuple(slice(int(b[a]), None if e[a] < 0 else int(b[a] + e[a])) for a in range(2))]),
    # run-time strides (a select per element), and constant strides (a tensor.insert_slice)
    "strided_set": (
        lambda: ([x := relay.var("x", shape=(ANY, ANY, 3)), v := relay.var("v", shape=(ANY, ANY, 3)),
                  b := _vec("b", 2), e := _vec("e", 2), s := _vec("s", 2, "int32")],
                 relay.strided_set(x, v, b, e, s)),
        _set_args, _set_ref),
    "strided_set_unit_strides": (
        lambda: ([x := relay.var("x", shape=(ANY, ANY, 3)), v := relay.var("v", shape=(ANY, ANY, 3)),
                  b := _vec("b", 2), e := _vec("e", 2)], relay.strided_set(x, v, b, e)),
        lambda: _set_args(strides=False), _set_ref),
    "tile": (
        lambda: ([x := relay.var("x", shape=(ANY, ANY)), r := _vec("r", 3)], relay.tile(x, r)),
        _tile_args, np.tile),
    "pad_constant": (
        lambda: ([x := relay.var("x", shape=(ANY, ANY)), w := relay.var("w", shape=(2, 2), dtype="int64")],
                 relay.nn.pad(x, w, 0.5)),
        _pad_constant_args, _pad_constant_ref),
    "pad_edge": (
        lambda: ([x := relay.var("x", shape=(ANY, ANY)), w := relay.var("w", shape=(2, 2), dtype="int64")],
                 relay.nn.pad(x, w, pad_mode="edge")),
        _pad_mode_args, lambda x, w: np.pad(x, w.tolist(), mode="edge")),
    "pad_reflect": (
        lambda: ([x := relay.var("x", shape=(ANY, ANY)), w := relay.var("w", shape=(2, 2), dtype="int64")],
                 relay.nn.pad(x, w, pad_mode="reflect")),
        _pad_mode_args, lambda x, w: np.pad(x, w.tolist(), mode="reflect")),
    "one_hot": (
        lambda: ([i := relay.var("i", shape=(ANY, 2), dtype="int32"), d := relay.var("d", shape=(), dtype="int32")],
                 relay.one_hot(i, relay.const(2.0), relay.const(-1.0), d, 0, "float32")),
        _one_hot_args, _one_hot_ref),
    "squeeze": (
        lambda: ([x := relay.var("x", shape=(ANY, ANY, ANY, ANY)), a := _vec("a", 2)], relay.squeeze(x, a)),
        _squeeze_args, lambda x, a: np.squeeze(x, axis=tuple(int(v) for v in a))),
    "expand_dims": (
        lambda: ([x := relay.var("x", shape=(ANY, 3)), a := relay.var("a", shape=(), dtype="int64")],
                 relay.expand_dims(x, a, num_newaxis=2)),
        _expand_args, _expand_ref),
    "topk": (
        lambda: ([x := relay.var("x", shape=(3, ANY)), k := relay.var("k", shape=(), dtype="int32")],
                 relay.topk(x, k, axis=1, dtype="int64").astuple()),
        _topk_args, lambda x, k: _topk_ref(x, k, False)),
    "topk_ascend": (
        lambda: ([x := relay.var("x", shape=(3, ANY)), k := relay.var("k", shape=(), dtype="int32")],
                 relay.topk(x, k, axis=-1, is_ascend=True, dtype="int64").astuple()),
        _topk_args, lambda x, k: _topk_ref(x, k, True)),
}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def compiled():
    fns = {}
    for i, name in enumerate(NAMES):
        params, body = CASES[name][0]()
        fns[f"f{i}"] = relay.Function(params, body)
    return relay.compile(relay.IRModule(fns), target="llvm-cpu")


def _as_list(v):
    if isinstance(v, (list, tuple)):
        return [np.asarray(getattr(x, "numpy", lambda x=x: x)()) for x in v]
    return [np.asarray(getattr(v, "numpy", lambda: v)())]


@pytest.mark.parametrize("name", NAMES)
def test_against_numpy(compiled, name):
    build, make_args, reference = CASES[name]
    params, body = build()
    interp = relay.create_executor("debug", mod=relay.IRModule.from_expr(relay.Function(params, body))).evaluate()
    op = body.op.name if isinstance(body, relay.Call) else body.fields[0].tuple_value.op.name
    assert op.startswith("dyn.") or op == "strided_set", op
    for _ in range(RUNS):
        args = make_args()
        want = _as_list(reference(*args))
        for got in (_as_list(compiled.run(f"f{NAMES.index(name)}", *args)), _as_list(interp(*args))):
            assert len(got) == len(want)
            for g, w in zip(got, want):
                assert g.shape == w.shape, (name, [a.tolist() for a in args[1:]], g.shape, w.shape)
                np.testing.assert_array_equal(g, w.astype(g.dtype), err_msg=f"{name} {args[1:]}")
