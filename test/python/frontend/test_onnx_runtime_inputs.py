"""ONNX importer: inputs only known at run time that the importer still converts exactly
(reduction axes, CumSum/CumProd axis, Trilu's k, Pad's constant_value), types recovered
by Relay type inference or from declared outputs, 16-bit softmax/conv/matmul precision and
the inverse hyperbolic functions, float Mod, bool ReduceMax/Min. Models are compared with
onnxruntime (with numpy where onnxruntime lacks the op or the form)."""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper as oh  # noqa: E402

import relay_mlir as relay  # noqa: E402
from relay_mlir.frontend import UnsupportedError, from_onnx  # noqa: E402

_NP = {TensorProto.FLOAT: np.float32, TensorProto.FLOAT16: np.float16, TensorProto.INT64: np.int64,
       TensorProto.INT32: np.int32}


def _model(nodes, inputs, outputs, opset=18, inits=()):
    g = oh.make_graph(nodes, "g", [oh.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                      [oh.make_tensor_value_info(n, t, s) for n, t, s in outputs], initializer=list(inits))
    return oh.make_model(g, opset_imports=[oh.make_opsetid("", opset)], ir_version=10)


def _check(model, feeds, rtol=1e-5, atol=1e-6, want=None):
    if want is None:
        want = ort.InferenceSession(model.SerializeToString(),
                                    providers=["CPUExecutionProvider"]).run(None, feeds)
    exe = relay.compile(from_onnx(model), target="llvm-cpu")
    names = [i.name for i in model.graph.input]
    got = exe(*[feeds[k] for k in names])
    got = list(got) if isinstance(got, (list, tuple)) else [got]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g = np.asarray(g)
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=atol)


@pytest.mark.parametrize("axes,keep,out", [
    ([2], 0, [3, 4]),        # do not keep dims: axis 1 or 2 is only known at run time
    ([-2], 0, [3, 4]),
    ([1], 1, [3, 1, 4]),
    ([0, 1], 0, [4]),
])
def test_reduce_runtime_axes(axes, keep, out) -> None:
    m = _model([oh.make_node("ReduceSum", ["x", "axes"], ["y"], keepdims=keep)],
               [("x", TensorProto.FLOAT, [3, 4, 4]), ("axes", TensorProto.INT64, [len(axes)])],
               [("y", TensorProto.FLOAT, out)], opset=13)
    x = np.random.default_rng(0).standard_normal((3, 4, 4)).astype(np.float32)
    _check(m, {"x": x, "axes": np.array(axes, np.int64)})


@pytest.mark.parametrize("noop", [0, 1])
def test_reduce_runtime_empty_axes(noop) -> None:
    out = [3, 4, 4] if noop else [1, 1, 1]
    m = _model([oh.make_node("ReduceMax", ["x", "axes"], ["y"], keepdims=1, noop_with_empty_axes=noop)],
               [("x", TensorProto.FLOAT, [3, 4, 4]), ("axes", TensorProto.INT64, [0])],
               [("y", TensorProto.FLOAT, out)])
    x = np.random.default_rng(1).standard_normal((3, 4, 4)).astype(np.float32)
    _check(m, {"x": x, "axes": np.zeros((0,), np.int64)})


def test_reduce_runtime_axes_shape_from_declared_output() -> None:
    # ReduceSum's own output type is unknown to ONNX; Sqrt's declared output fixes it
    m = _model([oh.make_node("ReduceSum", ["x", "axes"], ["s"], keepdims=1),
                oh.make_node("Sqrt", ["s"], ["y"])],
               [("x", TensorProto.FLOAT, [3, 2, 5]), ("axes", TensorProto.INT64, [1])],
               [("y", TensorProto.FLOAT, [3, 2, 1])])
    x = np.random.default_rng(2).random((3, 2, 5)).astype(np.float32)
    _check(m, {"x": x, "axes": np.array([-1], np.int64)})


def test_reduce_runtime_axes_ambiguous_shape_is_unsupported() -> None:
    m = _model([oh.make_node("ReduceSum", ["x", "axes"], ["y"], keepdims=1)],
               [("x", TensorProto.FLOAT, [3, 4, 4]), ("axes", TensorProto.INT64, [1])],
               [("y", TensorProto.FLOAT, None)])
    with pytest.raises(UnsupportedError, match="ReduceSum.*axes"):
        from_onnx(m)


@pytest.mark.parametrize("op", ["CumSum", "CumProd"])
@pytest.mark.parametrize("axis", [0, 1, -1, -2])
@pytest.mark.parametrize("reverse", [0, 1])
def test_cumulative_runtime_axis(op, axis, reverse) -> None:
    m = _model([oh.make_node(op, ["x", "axis"], ["y"], reverse=reverse)],
               [("x", TensorProto.FLOAT, [3, 4]), ("axis", TensorProto.INT64, [])],
               [("y", TensorProto.FLOAT, [3, 4])], opset=26 if op == "CumProd" else 14)
    x = np.random.default_rng(3).uniform(0.5, 1.5, (3, 4)).astype(np.float32)
    want = None
    if op == "CumProd":  # opset 26: newer than onnxruntime; numpy is the reference
        xr = np.flip(x, axis) if reverse else x
        want = np.cumprod(xr, axis=axis)
        want = [np.flip(want, axis) if reverse else want]
    _check(m, {"x": x, "axis": np.array(axis, np.int64)}, want=want)


@pytest.mark.parametrize("upper", [0, 1])
@pytest.mark.parametrize("k", [-2, 0, 1, 5])
def test_trilu_runtime_k(upper, k) -> None:
    m = _model([oh.make_node("Trilu", ["x", "k"], ["y"], upper=upper)],
               [("x", TensorProto.FLOAT, [2, 4, 5]), ("k", TensorProto.INT64, [])],
               [("y", TensorProto.FLOAT, [2, 4, 5])], opset=14)
    x = np.random.default_rng(4).standard_normal((2, 4, 5)).astype(np.float32)
    _check(m, {"x": x, "k": np.array(k, np.int64)})


def test_pad_runtime_constant_value() -> None:
    pads = oh.make_tensor("pads", TensorProto.INT64, [4], [1, 0, 0, 2])
    m = _model([oh.make_node("Pad", ["x", "pads", "v"], ["y"], mode="constant")],
               [("x", TensorProto.FLOAT, [2, 3]), ("v", TensorProto.FLOAT, [])],
               [("y", TensorProto.FLOAT, [3, 5])], inits=[pads])
    x = np.random.default_rng(5).standard_normal((2, 3)).astype(np.float32)
    _check(m, {"x": x, "v": np.array(-7.5, np.float32)})


def test_type_from_relay_inference() -> None:
    # Reshape to Shape(x) of a transposed value: ONNX leaves the Reshape untyped; the
    # NegativeLogLikelihoodLoss after it needs ranks (found by Relay type inference)
    shape = oh.make_tensor("s", TensorProto.INT64, [2], [5, 6])
    m = _model([oh.make_node("Transpose", ["x"], ["t"], perm=[1, 0]),
                oh.make_node("Shape", ["t"], ["ts"]),
                oh.make_node("Reshape", ["t", "s"], ["r"]),
                oh.make_node("Transpose", ["r"], ["xt"], perm=[1, 0]),
                oh.make_node("NegativeLogLikelihoodLoss", ["xt", "target"], ["y"], reduction="mean")],
               [("x", TensorProto.FLOAT, [6, 5]), ("target", TensorProto.INT64, [6])],
               [("y", TensorProto.FLOAT, [])], opset=13, inits=[shape])
    rng = np.random.default_rng(6)
    _check(m, {"x": rng.standard_normal((6, 5)).astype(np.float32),
               "target": rng.integers(0, 5, (6,)).astype(np.int64)})


def test_softmax_float16_accumulates_in_float32() -> None:
    m = _model([oh.make_node("Softmax", ["x"], ["y"], axis=-1)],
               [("x", TensorProto.FLOAT16, [8, 64])], [("y", TensorProto.FLOAT16, [8, 64])], opset=13)
    x = np.random.default_rng(7).uniform(-4, 4, (8, 64)).astype(np.float16)
    # one ulp of float16: onnxruntime and the reference may round the last bit differently
    _check(m, {"x": x}, rtol=1e-3, atol=1e-4)


def test_conv_float16_accumulates_in_float32() -> None:
    m = _model([oh.make_node("Conv", ["x", "w"], ["y"])],
               [("x", TensorProto.FLOAT16, [1, 16, 6, 6]), ("w", TensorProto.FLOAT16, [4, 16, 3, 3])],
               [("y", TensorProto.FLOAT16, [1, 4, 4, 4])], opset=11)
    rng = np.random.default_rng(8)
    feeds = {"x": rng.uniform(-1, 1, (1, 16, 6, 6)).astype(np.float16),
             "w": rng.uniform(-1, 1, (4, 16, 3, 3)).astype(np.float16)}
    _check(m, feeds, rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("op,lo,hi", [("Asinh", -5, 5), ("Acosh", 1, 6), ("Atanh", -0.95, 0.95)])
def test_inverse_hyperbolic(op, lo, hi) -> None:
    m = _model([oh.make_node(op, ["x"], ["y"])], [("x", TensorProto.FLOAT, [64])],
               [("y", TensorProto.FLOAT, [64])], opset=9)
    x = np.random.default_rng(9).uniform(lo, hi, (64,)).astype(np.float32)
    _check(m, {"x": x}, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("elem", [TensorProto.FLOAT, TensorProto.FLOAT16])
def test_float_mod_floor_semantics(elem) -> None:
    dt = _NP[elem]
    m = _model([oh.make_node("Mod", ["a", "b"], ["y"], fmod=0)],
               [("a", elem, [8]), ("b", elem, [8])], [("y", elem, [8])], opset=13)
    a = np.array([-4.5, 7.25, 5.0, -3.0, 0.0, -0.0, 6.0, -2.5], dt)
    b = np.array([2.0, -3.0, -2.5, 3.0, -2.0, 2.0, np.inf, -np.inf], dt)
    with np.errstate(invalid="ignore"):
        want = [np.mod(a, b)]
    exe = relay.compile(from_onnx(m), target="llvm-cpu")
    got = np.asarray(exe(a, b))
    np.testing.assert_array_equal(got, want[0])
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want[0]))  # signed zeros too


def test_float64_mod_is_unsupported() -> None:
    m = _model([oh.make_node("Mod", ["a", "b"], ["y"], fmod=1)],
               [("a", TensorProto.DOUBLE, [4]), ("b", TensorProto.DOUBLE, [4])],
               [("y", TensorProto.DOUBLE, [4])], opset=13)
    with pytest.raises(UnsupportedError, match="Mod.*float64"):
        from_onnx(m)


@pytest.mark.parametrize("op", ["ReduceMax", "ReduceMin"])
@pytest.mark.parametrize("shape", [(2, 3, 4), (2, 0, 4)])
def test_reduce_bool(op, shape) -> None:
    axes = oh.make_tensor("axes", TensorProto.INT64, [1], [1])
    m = _model([oh.make_node(op, ["x", "axes"], ["y"], keepdims=1)],
               [("x", TensorProto.BOOL, list(shape))], [("y", TensorProto.BOOL, [2, 1, 4])],
               opset=18, inits=[axes])
    x = np.random.default_rng(10).random(shape) > 0.5
    want = (np.ones if op == "ReduceMin" else np.zeros)((2, 1, 4), bool) if 0 in shape else \
        (x.min if op == "ReduceMin" else x.max)(axis=1, keepdims=True)
    _check(m, {"x": x}, want=[want])


def test_conv_transpose_output_shape_beyond_full_output() -> None:
    # stride 3 over 3x3 gives 9x9; output_shape 10x8: one extra row (output padding), one col cropped
    m = _model([oh.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[3, 2], output_shape=[10, 8])],
               [("x", TensorProto.FLOAT, [1, 1, 3, 3]), ("w", TensorProto.FLOAT, [1, 2, 3, 3])],
               [("y", TensorProto.FLOAT, [1, 2, 10, 8])], opset=11)
    rng = np.random.default_rng(11)
    _check(m, {"x": rng.standard_normal((1, 1, 3, 3)).astype(np.float32),
               "w": rng.standard_normal((1, 2, 3, 3)).astype(np.float32)})


def test_split_zero_size_pieces() -> None:
    split = oh.make_tensor("split", TensorProto.INT64, [3], [2, 0, 2])
    m = _model([oh.make_node("Split", ["x", "split"], ["a", "b", "c"], axis=1)],
               [("x", TensorProto.FLOAT, [3, 4])],
               [("a", TensorProto.FLOAT, [3, 2]), ("b", TensorProto.FLOAT, [3, 0]),
                ("c", TensorProto.FLOAT, [3, 2])], opset=13, inits=[split])
    _check(m, {"x": np.arange(12, dtype=np.float32).reshape(3, 4)})


def test_bfloat16_softmax_is_unsupported() -> None:
    m = _model([oh.make_node("Softmax", ["x"], ["y"])], [("x", TensorProto.BFLOAT16, [2, 6])],
               [("y", TensorProto.BFLOAT16, [2, 6])], opset=13)
    with pytest.raises(UnsupportedError, match="bfloat16 Softmax"):
        from_onnx(m)


# ---------------------------------------------------------------------------
# shape inputs known only at run time: used as values (compiled once, several
# values), or checked at run time; bad values are a RelayRuntimeError from the
# compiled module, never a crash or a silently different shape
# ---------------------------------------------------------------------------
F, I64 = TensorProto.FLOAT, TensorProto.INT64


def _compiled(model):
    return relay.compile(from_onnx(model), target="llvm-cpu")


def _ort(model, feeds):
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)


def _same(exe, model, feeds):
    want = _ort(model, feeds)
    got = exe(*[feeds[i.name] for i in model.graph.input])
    got = list(got) if isinstance(got, (list, tuple)) else [got]
    for g, w in zip(got, want):
        g = np.asarray(g)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


def test_runtime_expand_tile_constant_of_shape_range():
    m = _model([oh.make_node("Expand", ["x", "s"], ["e"]),
                oh.make_node("Tile", ["x", "r"], ["t"]),
                oh.make_node("ConstantOfShape", ["s"], ["c"], value=oh.make_tensor("v", F, [1], [2.5])),
                oh.make_node("Range", ["a", "b", "d"], ["g"])],
               [("x", F, [3, 1]), ("s", I64, [3]), ("r", I64, [2]), ("a", I64, []), ("b", I64, []),
                ("d", I64, [])],
               [("e", F, None), ("t", F, None), ("c", F, None), ("g", I64, None)])
    exe = _compiled(m)
    x = np.arange(3, dtype=np.float32).reshape(3, 1)
    i = lambda *v: np.array(v, np.int64)  # noqa: E731
    for s, r, (a, b, d) in [((2, 3, 4), (1, 2), (0, 5, 1)), ((1, 1, 1), (3, 1), (7, -2, -3)),
                            ((2, 1, 1), (2, 2), (4, 4, 1))]:
        _same(exe, m, {"x": x, "s": i(*s), "r": i(*r), "a": np.array(a, np.int64), "b": np.array(b, np.int64),
                       "d": np.array(d, np.int64)})
    feeds = {"x": x, "s": i(2, 2, 4), "r": i(1, 1), "a": np.array(0, np.int64), "b": np.array(3, np.int64), "d": np.array(1, np.int64)}
    with pytest.raises(relay.RelayRuntimeError, match="broadcast_to"):  # 3 does not broadcast to 2
        exe(*[feeds[k.name] for k in m.graph.input])
    feeds.update(s=i(2, 3, 4), d=np.array(0, np.int64))
    with pytest.raises(relay.RelayRuntimeError, match="arange"):  # step 0
        exe(*[feeds[k.name] for k in m.graph.input])
    feeds.update(d=np.array(1, np.int64), s=i(2, -3, 4))
    with pytest.raises(relay.RelayRuntimeError):  # negative dim
        exe(*[feeds[k.name] for k in m.graph.input])


def test_runtime_split_onehot_topk():
    m = _model([oh.make_node("Split", ["x", "sp"], ["p", "q"], axis=1),
                oh.make_node("OneHot", ["ix", "depth", "vals"], ["o"], axis=-1),
                oh.make_node("TopK", ["x", "k"], ["tv", "ti"], axis=1)],
               [("x", F, [2, 5]), ("sp", I64, [2]), ("ix", I64, [3]), ("depth", I64, [1]), ("k", I64, [1])],
               [("p", F, None), ("q", F, None), ("o", F, None), ("tv", F, None), ("ti", I64, None)],
               inits=[onnx.numpy_helper.from_array(np.array([0.5, 3.0], np.float32), "vals")])
    exe = _compiled(m)
    x = np.random.default_rng(0).standard_normal((2, 5)).astype(np.float32)
    i = lambda *v: np.array(v, np.int64)  # noqa: E731
    for sp, depth, k in [((2, 3), 4, 2), ((5, 0), 1, 5), ((0, 5), 6, 0)]:
        _same(exe, m, {"x": x, "sp": i(*sp), "ix": i(0, -1, 3), "depth": i(depth), "k": i(k)})
    base = {"x": x, "sp": i(2, 3), "ix": i(0, 1, 2), "depth": i(3), "k": i(2)}
    # sizes that do not sum to the dim / a negative size, depth 0, a result above 2^40
    # elements, k above the dim / negative
    for bad in ({"sp": i(2, 2)}, {"sp": i(6, -1)}, {"depth": i(0)}, {"depth": i(2**39)}, {"k": i(6)},
                {"k": i(-1)}):
        feeds = dict(base, **bad)
        with pytest.raises(relay.RelayRuntimeError):
            exe(*[feeds[k.name] for k in m.graph.input])


def test_topk_of_constant_k_zero_is_empty():
    """A constant k of 0 gives empty results as in onnxruntime (relay's static topk reads k < 1
    as the whole axis: the importer used to return all 5 entries)."""
    m = _model([oh.make_node("TopK", ["x", "k"], ["v", "i"], axis=1)], [("x", F, [3, 5])],
               [("v", F, None), ("i", I64, None)],
               inits=[onnx.numpy_helper.from_array(np.array([0], np.int64), "k")])
    _same(_compiled(m), m, {"x": np.random.default_rng(1).standard_normal((3, 5)).astype(np.float32)})


def test_runtime_unsqueeze_squeeze_axes_checked():
    """Axes decide the rank: the declared output shape gives the result and the axes are
    checked at run time against it."""
    m = _model([oh.make_node("Unsqueeze", ["x", "ua"], ["u"]),
                oh.make_node("Squeeze", ["u", "sa"], ["s"])],
               [("x", F, [2, 3]), ("ua", I64, [1]), ("sa", I64, [1])],
               [("u", F, [2, 1, 3]), ("s", F, [2, 3])])
    exe = _compiled(m)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    i = lambda *v: np.array(v, np.int64)  # noqa: E731
    for ua, sa in [(1, 1), (-2, -2), (1, 1)]:
        _same(exe, m, {"x": x, "ua": i(ua), "sa": i(sa)})
    for ua, sa in [(0, 1), (1, 0)]:  # a different (valid) axis would give another shape
        with pytest.raises(relay.RelayRuntimeError):
            exe(x, i(ua), i(sa))


def test_runtime_reduction_axes_single_candidate_checked():
    m = _model([oh.make_node("ReduceSum", ["x", "a"], ["y"], keepdims=1)],
               [("x", F, [2, 3]), ("a", I64, [1])], [("y", F, [1, 3])])
    exe = _compiled(m)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(exe(x, np.array([0], np.int64)), x.sum(0, keepdims=True))
    with pytest.raises(relay.RelayRuntimeError):
        exe(x, np.array([1], np.int64))


def test_runtime_slice_and_pad():
    """Slice starts/ends/steps (and axes) and Pad pads known only at run time."""
    m = _model([oh.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["s"]),
                oh.make_node("Pad", ["x", "p"], ["q"], mode="reflect"),
                oh.make_node("Pad", ["x", "p", "v"], ["c"], mode="constant")],
               [("x", F, [4, 5]), ("st", I64, [2]), ("en", I64, [2]), ("ax", I64, [2]), ("sp", I64, [2]),
                ("p", I64, [4]), ("v", F, [])],
               [("s", F, None), ("q", F, None), ("c", F, None)])
    exe = _compiled(m)
    x = np.arange(20, dtype=np.float32).reshape(4, 5)
    i = lambda *v: np.array(v, np.int64)  # noqa: E731
    for st, en, ax, sp, p in [((0, 1), (3, 5), (0, 1), (1, 2), (1, 0, 2, 1)),
                              ((-1, 10), (-5, 0), (1, 0), (-1, -2), (0, 2, 0, 0)),
                              ((1, 0), (2, 100), (-1, -2), (1, 1), (-1, 1, 1, -2))]:
        _same(exe, m, {"x": x, "st": i(*st), "en": i(*en), "ax": i(*ax), "sp": i(*sp), "p": i(*p),
                       "v": np.array(1.5, np.float32)})
    base = {"x": x, "st": i(0, 0), "en": i(2, 2), "ax": i(0, 1), "sp": i(1, 1), "p": i(0, 0, 0, 0),
            "v": np.array(0, np.float32)}
    # step 0, an axis twice, a negative size, more than 2^40 elements
    for bad in ({"sp": i(0, 1)}, {"ax": i(1, 1)}, {"p": i(0, -6, 0, 0)}, {"p": i(2**25, 2**25, 0, 0)}):
        feeds = dict(base, **bad)
        with pytest.raises(relay.RelayRuntimeError):
            exe(*[feeds[k.name] for k in m.graph.input])


def test_constant_reshape_of_runtime_dims_checked():
    """A constant target shape for a tensor whose dims are known only at run time: the element
    count is checked at run time (a fixed shape that does not fit, or a -1 that does not divide,
    is an error, never a silently different shape)."""
    for shape, inner, good, bad in [([4, 4], [8], 2, 3), ([-1, 3], [8], 3, 2), ([-1, 3], [], 6, 7)]:
        m = _model([oh.make_node("Reshape", ["x", "s"], ["y"])], [("x", F, ["n"] + inner)], [("y", F, None)],
                   inits=[onnx.numpy_helper.from_array(np.array(shape, np.int64), "s")])
        exe = _compiled(m)
        x = np.arange(good * 8 if inner else good, dtype=np.float32).reshape([good] + inner)
        np.testing.assert_array_equal(exe(x), x.reshape(shape))
        with pytest.raises(relay.RelayRuntimeError, match="relay.reshape"):
            exe(np.zeros([bad] + inner, np.float32))
