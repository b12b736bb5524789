"""ONNX Resize/Upsample with scales/sizes known only at run time, NonZero and Unique (output
sizes that depend on the data): each model compiled once and run at several sizes (down to 1
element, and 0 where the op allows it) against onnxruntime, and Resize against ONNX's
reference implementation (onnxruntime maps align_corners coordinates with the integer output
length where the reference and the node tests use scale * input length); bad run-time values
stop the program with RelayRuntimeError."""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper as oh  # noqa: E402

import relay_mlir as relay  # noqa: E402
from relay_mlir.errors import RelayRuntimeError  # noqa: E402
from relay_mlir.frontend import from_onnx  # noqa: E402


def _model(nodes, inputs, outputs, opset=18):
    g = oh.make_graph(nodes, "g", [oh.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                      [oh.make_tensor_value_info(n, t, s) for n, t, s in outputs])
    return oh.make_model(g, opset_imports=[oh.make_opsetid("", opset)], ir_version=10)


def _runs(model, feeds_list, rtol=1e-5, atol=1e-5, reference=False):
    if reference:
        from onnx.reference import ReferenceEvaluator
        sess = ReferenceEvaluator(model)
    else:
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    exe = relay.compile(from_onnx(model), target="llvm-cpu")
    names = [i.name for i in model.graph.input]
    for feeds in feeds_list:
        want = sess.run(None, feeds)
        got = exe(*[feeds[k] for k in names])
        got = list(got) if isinstance(got, (list, tuple)) else [got]
        assert len(got) == len(want)
        for g, w in zip(got, want):
            g = np.asarray(g)
            assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=atol)
    return exe


R = np.random.default_rng(7)


def _x(*shape):
    return R.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("mode,coord", [("nearest", "asymmetric"), ("linear", "half_pixel"),
                                        ("cubic", "align_corners"), ("linear", "pytorch_half_pixel")])
def test_resize_runtime_scales(mode, coord):
    m = _model([oh.make_node("Resize", ["x", "", "s"], ["y"], mode=mode, coordinate_transformation_mode=coord)],
               [("x", TensorProto.FLOAT, [1, 2, "H", "W"]), ("s", TensorProto.FLOAT, [4])],
               [("y", TensorProto.FLOAT, None)])
    s = lambda h, w: np.array([1, 1, h, w], np.float32)  # noqa: E731
    exe = _runs(m, [{"x": _x(1, 2, 4, 5), "s": s(2, 1.5)}, {"x": _x(1, 2, 1, 1), "s": s(3, 2)},
                    {"x": _x(1, 2, 6, 3), "s": s(0.5, 0.7)}], reference=True)
    with pytest.raises(RelayRuntimeError, match="negative"):
        exe(_x(1, 2, 2, 2), s(-1, 1))
    with pytest.raises(RelayRuntimeError, match="2\\^40"):
        exe(_x(1, 2, 2, 2), s(2e6, 2e6))


@pytest.mark.parametrize("mode", ["linear", "cubic"])
def test_resize_antialias_runtime_scales(mode):
    """Antialiasing downsampling: the number of filter taps depends on the run-time scale."""
    m = _model([oh.make_node("Resize", ["x", "", "s"], ["y"], mode=mode, antialias=1, exclude_outside=1)],
               [("x", TensorProto.FLOAT, [1, 1, "H", "W"]), ("s", TensorProto.FLOAT, [4])],
               [("y", TensorProto.FLOAT, None)], opset=19)
    s = lambda h, w: np.array([1, 1, h, w], np.float32)  # noqa: E731
    _runs(m, [{"x": _x(1, 1, 8, 9), "s": s(0.5, 0.3)}, {"x": _x(1, 1, 5, 5), "s": s(0.6, 1.4)},
              {"x": _x(1, 1, 16, 2), "s": s(0.125, 0.5)}], reference=True)


def test_resize_runtime_sizes_and_upsample():
    m = _model([oh.make_node("Resize", ["x", "", "", "sz"], ["y"], mode="linear")],
               [("x", TensorProto.FLOAT, [1, "C", "H", "W"]), ("sz", TensorProto.INT64, [4])],
               [("y", TensorProto.FLOAT, None)])
    _runs(m, [{"x": _x(1, 3, 4, 4), "sz": np.array([1, 3, 7, 2], np.int64)},
              {"x": _x(1, 1, 1, 2), "sz": np.array([1, 1, 1, 1], np.int64)}], reference=True)
    up = _model([oh.make_node("Upsample", ["x", "s"], ["y"], mode="nearest")],
                [("x", TensorProto.FLOAT, [1, 1, "H", "W"]), ("s", TensorProto.FLOAT, [4])],
                [("y", TensorProto.FLOAT, None)], opset=9)
    up.ir_version = 4
    _runs(up, [{"x": _x(1, 1, 2, 3), "s": np.array([1, 1, 2, 3], np.float32)},
               {"x": _x(1, 1, 1, 1), "s": np.array([1, 1, 1, 1], np.float32)}])


def test_nonzero_sizes():
    m = _model([oh.make_node("NonZero", ["x"], ["y"])], [("x", TensorProto.FLOAT, ["A", "B"])],
               [("y", TensorProto.INT64, [2, None])])
    feeds = [{"x": (R.uniform(size=s) < 0.4).astype(np.float32) * _x(*s)} for s in [(4, 6), (1, 1), (3, 2)]]
    feeds.append({"x": np.zeros((2, 5), np.float32)})
    feeds.append({"x": np.zeros((0, 3), np.float32)})
    _runs(m, feeds)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_compress_sizes(axis):
    # condition lengths below, at and past the axis (onnxruntime ignores the entries past
    # it), all-false and empty conditions; one compile serves every size
    kw = {} if axis is None else {"axis": axis}
    m = _model([oh.make_node("Compress", ["x", "c"], ["y"], **kw)],
               [("x", TensorProto.FLOAT, ["A", "B"]), ("c", TensorProto.BOOL, ["N"])],
               [("y", TensorProto.FLOAT, None)])
    feeds = []
    for shape, n in [((3, 4), 2), ((1, 1), 1), ((2, 5), 5), ((4, 3), 7), ((2, 2), 0), ((3, 3), 12)]:
        feeds.append({"x": _x(*shape), "c": R.uniform(size=n) < 0.5})
    feeds.append({"x": _x(2, 3), "c": np.zeros(3, bool)})
    _runs(m, feeds)


@pytest.mark.parametrize("sort", [1, 0])
def test_unique_sizes(sort):
    m = _model([oh.make_node("Unique", ["x"], ["y", "i", "inv", "c"], sorted=sort)],
               [("x", TensorProto.FLOAT, ["N"])],
               [("y", TensorProto.FLOAT, None), ("i", TensorProto.INT64, None),
                ("inv", TensorProto.INT64, None), ("c", TensorProto.INT64, None)])
    feeds = [{"x": R.integers(-3, 3, n).astype(np.float32)} for n in (12, 1, 5)]
    _runs(m, feeds)


@pytest.mark.parametrize("axis,sort", [(0, 1), (1, 1), (-1, 0)])
def test_unique_axis_sizes(axis, sort):
    m = _model([oh.make_node("Unique", ["x"], ["y", "i", "inv", "c"], sorted=sort, axis=axis)],
               [("x", TensorProto.INT64, ["A", 3] if axis == 0 else [3, "B"])],
               [("y", TensorProto.INT64, None), ("i", TensorProto.INT64, None),
                ("inv", TensorProto.INT64, None), ("c", TensorProto.INT64, None)])
    shapes = [(7, 3), (1, 3), (4, 3)] if axis == 0 else [(3, 8), (3, 1), (3, 2)]
    _runs(m, [{"x": R.integers(0, 2, s).astype(np.int64)} for s in shapes])



@pytest.mark.parametrize("center", [0, 1])
def test_nonmaxsuppression_against_onnxruntime(center):
    """NonMaxSuppression (a composition: rank by pairwise comparison, unrolled greedy pass,
    argwhere of the kept boxes) vs onnxruntime on random boxes with ties in the scores, run-time
    thresholds and output limits (0 selected to all), compiled once."""
    B, C, N = 2, 3, 12
    m = _model([oh.make_node("NonMaxSuppression", ["boxes", "scores", "max", "iou", "score"], ["sel"],
                             center_point_box=center)],
               [("boxes", TensorProto.FLOAT, [B, N, 4]), ("scores", TensorProto.FLOAT, [B, C, N]),
                ("max", TensorProto.INT64, [1]), ("iou", TensorProto.FLOAT, [1]),
                ("score", TensorProto.FLOAT, [1])],
               [("sel", TensorProto.INT64, [None, 3])], opset=11)
    feeds = []
    for limit, iou, score in [(3, 0.5, 0.0), (12, 0.3, -1.0), (0, 0.5, 0.0), (1, 0.0, 0.5), (12, 1.0, -10.0)]:
        xy = R.uniform(0, 4, size=(B, N, 2)).astype(np.float32)
        wh = R.uniform(0.5, 3, size=(B, N, 2)).astype(np.float32)
        boxes = np.concatenate([xy, xy + wh], -1) if center == 0 else np.concatenate([xy, wh], -1)
        scores = np.round(R.uniform(0, 1, size=(B, C, N)), 1).astype(np.float32)  # ties
        feeds.append({"boxes": boxes, "scores": scores, "max": np.array([limit], np.int64),
                      "iou": np.array([iou], np.float32), "score": np.array([score], np.float32)})
    _runs(m, feeds)
