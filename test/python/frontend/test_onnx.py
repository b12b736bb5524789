"""ONNX importer: a core subset of the ONNX backend node tests, and hand-built models.

The node tests are regenerated in memory from the installed ``onnx``
(``collect_testcases``); outputs are compared with the tests' expected
outputs at the tests' own tolerances (ONNX's defaults rtol=1e-3, atol=1e-7).
The hand-built models check symbolic dims, several outputs, initializers,
the unsupported-op/attribute errors and node locations in diagnostics; one
small CNN is compared with onnxruntime when it is installed.
"""
from __future__ import annotations

import functools

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper as oh, numpy_helper  # noqa: E402

import relay_mlir as relay  # noqa: E402
from relay_mlir.frontend import UnsupportedError, from_onnx  # noqa: E402

# A fixed core subset of the node tests (all pass; the full list with
# IREE's own path as the peer is in docs/onnx-conformance.md).
CORE = [
    "test_conv_with_strides_padding",
    "test_conv_with_autopad_same",
    "test_maxpool_2d_pads",
    "test_averagepool_2d_strides",
    "test_globalaveragepool",
    "test_gemm_all_attributes",
    "test_matmul_3d",
    "test_batchnorm_epsilon",
    "test_instancenorm_example",
    "test_layer_normalization_3d_axis1_epsilon",
    "test_reshape_reduced_dims",
    "test_unsqueeze_axis_1",
    "test_squeeze",
    "test_matmul_4d",
    "test_transpose_all_permutations_2",
    "test_flatten_axis2",
    "test_concat_3d_axis_negative_1",
    "test_reduce_sum_keepdims_example",
    "test_reduce_mean_default_axes_keepdims_example",
    "test_softmax_axis_1",
    "test_logsoftmax_large_number",
    "test_leakyrelu",
    "test_clip_default_min",
    "test_add_bcast",
    "test_div",
    "test_sigmoid",
    "test_depthtospace_crd_mode_example",
    # halves round to even in ONNX (relay.round is TVM's: away from zero)
    "test_round",
    "test_quantizelinear",
    # recurrent layers (the converters are checked more widely in test_onnx_rnn.py)
    "test_lstm_defaults",
    "test_lstm_with_initial_bias",
    "test_lstm_with_peepholes",
    "test_lstm_batchwise",
    "test_lstm_reverse",
    "test_lstm_bidirectional",
    "test_gru_defaults",
    "test_gru_with_initial_bias",
    "test_gru_seq_length",
    "test_gru_batchwise",
    "test_gru_reverse",
    "test_gru_bidirectional",
    "test_simple_rnn_defaults",
    "test_simple_rnn_with_initial_bias",
    "test_rnn_seq_length",
    "test_simple_rnn_batchwise",
    "test_simple_rnn_reverse",
    "test_simple_rnn_bidirectional",
    # indexing, selection, casts, comparisons, padding
    "test_slice",
    "test_gather_0",
    "test_where_example",
    "test_cast_FLOAT_to_DOUBLE",
    "test_reduce_max_default_axes_keepdim_example",
    "test_split_equal_parts_1d_opset18",
    "test_equal",
    "test_argmax_default_axis_example",
    "test_constant_pad",
    # narrow element types beyond TVM (docs/quantization.md): float8 saturating casts, int4
    "test_cast_FLOAT_to_FLOAT8E4M3FN",
    "test_cast_no_saturate_FLOAT16_to_FLOAT8E5M2",
    "test_quantizelinear_int4",
]

@functools.lru_cache(maxsize=None)
def _cases():
    from onnx.backend.test.case.node import collect_testcases
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {c.name: c for c in collect_testcases() if c.kind == "node"}


def _run_case(name: str) -> None:
    case = _cases().get(name)
    if case is None:
        pytest.skip(f"{name} not in onnx {onnx.__version__}")
    exe = relay.compile(from_onnx(case.model), target="llvm-cpu")
    for inputs, outputs in case.data_sets:
        inputs = [numpy_helper.to_array(v) if isinstance(v, onnx.TensorProto) else v for v in inputs]
        outputs = [numpy_helper.to_array(v) if isinstance(v, onnx.TensorProto) else v for v in outputs]
        got = exe(*inputs)
        if not isinstance(got, tuple):
            got = (got,)
        assert len(got) == len(outputs)
        for g, w in zip(got, outputs):
            w = np.asarray(w)
            g = np.asarray(g)
            assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
            np.testing.assert_allclose(g, w, rtol=case.rtol, atol=case.atol)


@pytest.mark.parametrize("name", CORE)
def test_node(name: str) -> None:
    _run_case(name)


# ---------------------------------------------------------------------------
# hand-built models
# ---------------------------------------------------------------------------
def _model(nodes, inputs, outputs, initializers=(), opset: int = 17, name: str = "g"):
    g = oh.make_graph(nodes, name, inputs, outputs, initializer=list(initializers))
    m = oh.make_model(g, opset_imports=[oh.make_opsetid("", opset)])
    m.ir_version = 10
    return m


def _vi(name, shape, t=TensorProto.FLOAT):
    return oh.make_tensor_value_info(name, t, shape)


def test_symbolic_dims_become_any() -> None:
    m = _model([oh.make_node("Relu", ["x"], ["h"], name="relu"),
                oh.make_node("Mul", ["h", "h"], ["y"], name="sq")],
               [_vi("x", ["batch", 3, None])], [_vi("y", ["batch", 3, None])])
    mod = from_onnx(m)
    p = mod["main"].params[0]
    assert str(p.type_annotation) == "tensor<?x3x?xf32>"
    assert "tensor<?x3x?xf32>" in mod.mlir()
    exe = relay.compile(mod)
    x = np.random.default_rng(0).standard_normal((2, 3, 5)).astype("float32")
    np.testing.assert_allclose(exe(x), np.maximum(x, 0) ** 2, rtol=1e-6)
    # the `shapes` argument fixes dims
    mod2 = from_onnx(m, shapes={"x": (4, 3, 2)})
    assert str(mod2["main"].params[0].type_annotation) == "tensor<4x3x2xf32>"


def test_multiple_outputs_make_a_tuple() -> None:
    m = _model([oh.make_node("Add", ["a", "b"], ["s"], name="add"),
                oh.make_node("Sub", ["a", "b"], ["d"], name="sub")],
               [_vi("a", [2, 3]), _vi("b", [3])], [_vi("s", [2, 3]), _vi("d", [2, 3])])
    mod = from_onnx(m)
    assert isinstance(mod["main"].body, relay.Tuple)
    a = np.arange(6, dtype="float32").reshape(2, 3)
    b = np.array([1, 2, 3], "float32")
    s, d = relay.compile(mod)(a, b)
    np.testing.assert_array_equal(s, a + b)
    np.testing.assert_array_equal(d, a - b)


def test_initializers_become_constants() -> None:
    rng = np.random.default_rng(1)
    w = rng.standard_normal((4, 3)).astype("float32")
    b = rng.standard_normal((4,)).astype("float32")
    m = _model([oh.make_node("Gemm", ["x", "w", "b"], ["y"], name="fc", transB=1, alpha=0.5)],
               [_vi("x", [2, 3])], [_vi("y", [2, 4])],
               [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    mod = from_onnx(m)
    assert [p.name_hint for p in mod["main"].params] == ["x"]
    assert "relay.constant" in mod.mlir()
    x = rng.standard_normal((2, 3)).astype("float32")
    np.testing.assert_allclose(relay.compile(mod)(x), 0.5 * x @ w.T + b, rtol=1e-5, atol=1e-6)


def test_shape_subgraph_is_folded() -> None:
    # Shape -> Gather -> Unsqueeze -> Concat -> Reshape, as exported by PyTorch
    m = _model([oh.make_node("Shape", ["x"], ["s"], name="shape"),
                oh.make_node("Gather", ["s", "i0"], ["n"], name="gather", axis=0),
                oh.make_node("Unsqueeze", ["n", "ax"], ["n1"], name="unsq"),
                oh.make_node("Concat", ["n1", "m1"], ["shp"], name="cat", axis=0),
                oh.make_node("Reshape", ["x", "shp"], ["y"], name="flat")],
               [_vi("x", [2, 3, 4])], [_vi("y", [2, 12])],
               [numpy_helper.from_array(np.array(0, np.int64), "i0"),
                numpy_helper.from_array(np.array([0], np.int64), "ax"),
                numpy_helper.from_array(np.array([-1], np.int64), "m1")])
    mod = from_onnx(m)
    x = np.arange(24, dtype="float32").reshape(2, 3, 4)
    np.testing.assert_array_equal(relay.compile(mod)(x), x.reshape(2, 12))


def test_unsupported_op_names_op_node_and_opset() -> None:
    m = _model([oh.make_node("Det", ["x"], ["y"], name="my_det")], [_vi("x", [3, 3])], [_vi("y", [])],
               opset=17)
    with pytest.raises(UnsupportedError) as ei:
        from_onnx(m)
    e = ei.value
    assert isinstance(e, relay.CompileError)
    assert (e.op_type, e.node_name, e.opset) == ("Det", "my_det", 17)
    msg = str(e)
    assert "Det" in msg and "my_det" in msg and "opset 17" in msg


def test_unsupported_attribute_is_an_error() -> None:
    m = _model([oh.make_node("Relu", ["x"], ["y"], name="r", bogus=3)], [_vi("x", [2])], [_vi("y", [2])])
    with pytest.raises(UnsupportedError, match=r"Relu node 'r' \(opset 17\).*bogus"):
        from_onnx(m)
    m = _model([oh.make_node("MaxPool", ["x"], ["y"], name="mp", kernel_shape=[2, 2], storage_order=1)],
               [_vi("x", [1, 1, 4, 4])], [_vi("y", [1, 1, 3, 3])])
    with pytest.raises(UnsupportedError, match="storage_order"):
        from_onnx(m)


def test_runtime_shape_input_is_used() -> None:
    """A shape known only at run time is used as a value (dyn.reshape), checked at run time."""
    m = _model([oh.make_node("Reshape", ["x", "s"], ["y"], name="rs")],
               [_vi("x", [2, 3]), _vi("s", [2], TensorProto.INT64)], [_vi("y", [3, 2])])
    exe = relay.compile(from_onnx(m), target="llvm-cpu")
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    for shape in ([3, 2], [1, 6], [-1, 2], [2, 0]):  # (the declared [3, 2] is not trusted)
        want = x.reshape([d if d != 0 else x.shape[i] for i, d in enumerate(shape)]) if 0 in shape \
            else x.reshape(shape)
        got = exe(x, np.array(shape, np.int64))
        np.testing.assert_array_equal(got, want)
    with pytest.raises(relay.RelayRuntimeError, match="relay.dyn.reshape"):
        exe(x, np.array([4, 2], np.int64))


def test_runtime_shape_input_of_unknown_length_is_unsupported() -> None:
    m = _model([oh.make_node("Reshape", ["x", "s"], ["y"], name="rs")],
               [_vi("x", [2, 3]), _vi("s", ["n"], TensorProto.INT64)], [_vi("y", None)])
    with pytest.raises(UnsupportedError, match=r"Reshape node 'rs'.*length"):
        from_onnx(m)


def test_diagnostics_point_at_the_onnx_node() -> None:
    # inconsistent shapes: the type error is reported at the ONNX node
    m = _model([oh.make_node("Relu", ["a"], ["h"], name="act"),
                oh.make_node("MatMul", ["h", "b"], ["y"], name="bad_matmul")],
               [_vi("a", [2, 3]), _vi("b", [4, 5])], [_vi("y", None)], name="net")
    mod = from_onnx(m)
    with pytest.raises(relay.CompileError) as ei:
        relay.compile(mod)
    files = [d.file or "" for d in ei.value.diagnostics]
    assert any(f == "net:bad_matmul" for f in files), ei.value
    d = next(d for d in ei.value.diagnostics if d.file == "net:bad_matmul")
    assert d.line == 2  # the second node of the graph


def test_opset_below_7_is_rejected() -> None:
    m = _model([oh.make_node("Relu", ["x"], ["y"])], [_vi("x", [2])], [_vi("y", [2])], opset=6)
    with pytest.raises(UnsupportedError, match="opset 6"):
        from_onnx(m)


def test_small_cnn_matches_onnxruntime(tmp_path) -> None:
    ort = pytest.importorskip("onnxruntime", reason="onnxruntime is optional (pip install onnxruntime)")
    rng = np.random.default_rng(2)
    w1 = rng.standard_normal((4, 3, 3, 3)).astype("float32") * 0.3
    b1 = rng.standard_normal((4,)).astype("float32")
    w2 = rng.standard_normal((10, 4 * 4 * 4)).astype("float32") * 0.1
    b2 = rng.standard_normal((10,)).astype("float32")
    nodes = [
        oh.make_node("Conv", ["x", "w1", "b1"], ["c"], name="conv1", pads=[1, 1, 1, 1]),
        oh.make_node("Relu", ["c"], ["r"], name="relu1"),
        oh.make_node("MaxPool", ["r"], ["p"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
        oh.make_node("Flatten", ["p"], ["f"], name="flat", axis=1),
        oh.make_node("Gemm", ["f", "w2", "b2"], ["g"], name="fc", transB=1),
        oh.make_node("Softmax", ["g"], ["y"], name="prob", axis=-1),
    ]
    inits = [numpy_helper.from_array(a, n) for a, n in ((w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"))]
    m = _model(nodes, [_vi("x", ["N", 3, 8, 8])], [_vi("y", ["N", 10])], inits, opset=13)
    path = tmp_path / "cnn.onnx"
    onnx.save(m, str(path))
    x = rng.standard_normal((2, 3, 8, 8)).astype("float32")
    want = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    mod = from_onnx(str(path), shapes={"x": (2, 3, 8, 8)})
    np.testing.assert_allclose(relay.compile(mod)(x), want, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("name", ["relay_mlir.frontend", "relay_mlir.frontend.onnx"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
