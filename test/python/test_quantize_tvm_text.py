"""TVM 0.19's printed text of relay.quantize's stages parses here and runs to TVM's results,
and this compiler's relay.quantize emits TVM's operators (``fixed_point_multiply`` included).

The fixtures in data/quantize/ are TVM 0.19's ``mod.astext(show_meta_data=True)`` (side
venv, TOPHUB_LOCATION=NONE) of a small CNN (conv -> relu -> conv -> relu, a residual add,
max_pool2d, global_avg_pool2d, batch_flatten; weights ``default_rng(33).uniform``) quantized by
``relay.quantize.quantize(mod, {})`` under ``qconfig(skip_conv_layers=[], global_scale=8.0,
weight_scale="max", round_for_shift=False)``: the realized module
(tvm019_realized_cnn.txt) and the calibrated one before realize
(tvm019_calibrated_cnn.txt: ``relay.op.annotation.simulated_quantize``,
``annotation.cast_hint``, ``annotation.stop_fusion``). TVM_OUT is TVM's output of the
realized module (``relay.build``, llvm, opt_level 3, graph executor) on the input below;
TVM_COUNTS its operator calls by name and result dtype.
"""
import collections
from pathlib import Path

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.quantize import calls, qconfig, quantize
from relay_mlir.quantize import realize as realize_pass

DATA = Path(__file__).parent / "data" / "quantize"
TVM_OUT = np.array([[3.0625, 4.5, 3.5625, 3.875, 5.0625, 6.5, 4.0625, 5.0625]], "float32")
TVM_COUNTS = {"add:int32": 1, "annotation.stop_fusion:int8": 4, "cast:float32": 1, "cast:int32": 5,
              "cast:int64": 2, "cast:int8": 6, "clip:float32": 1, "clip:int32": 1, "clip:int64": 2,
              "fixed_point_multiply:int64": 2, "multiply:float32": 2, "nn.batch_flatten:int32": 1,
              "nn.conv2d:int32": 2, "nn.global_avg_pool2d:int32": 1, "nn.max_pool2d:int8": 1,
              "nn.relu:int32": 2, "round:float32": 1}
QCONFIG = dict(skip_conv_layers=[], global_scale=8.0, weight_scale="max", round_for_shift=False)


def _weights_and_input():
    rng = np.random.default_rng(33)
    w1 = rng.uniform(-1, 1, (8, 3, 3, 3)).astype("float32")
    w2 = rng.uniform(-0.5, 0.5, (8, 8, 3, 3)).astype("float32")
    return w1, w2, rng.normal(0, 1, (1, 3, 8, 8)).astype("float32")


def _float_cnn():
    w1, w2, _ = _weights_and_input()
    x = relay.var("data", shape=(1, 3, 8, 8))
    conv = lambda d, w: relay.nn.conv2d(d, relay.const(w), padding=(1, 1), channels=8,  # noqa: E731
                                        kernel_size=(3, 3))
    y = relay.nn.relu(conv(x, w1))
    y = relay.add(y, relay.nn.relu(conv(y, w2)))
    y = relay.nn.global_avg_pool2d(relay.nn.max_pool2d(y, pool_size=(2, 2), strides=(2, 2)))
    return relay.IRModule.from_expr(relay.Function([x], relay.nn.batch_flatten(y)))


def _counts(mod, keep_stop_fusion=True):
    c = collections.Counter()
    for call in calls(mod["main"]):
        c[f"{call.op.name}:{call.checked_type.dtype}"] += 1
    if not keep_stop_fusion:
        c.pop("annotation.stop_fusion:int8", None)
    return dict(c)


def _tvm_counts_without_hints():
    return {k: v for k, v in TVM_COUNTS.items() if not k.startswith("annotation.")}


def test_realized_text_parses_and_matches_tvm():
    mod = relay.fromtext((DATA / "tvm019_realized_cnn.txt").read_text())
    mod = relay.transform.InferType()(mod)
    assert _counts(mod) == TVM_COUNTS
    x = _weights_and_input()[2]
    np.testing.assert_array_equal(relay.create_executor("debug", mod).evaluate()(x), TVM_OUT)
    np.testing.assert_array_equal(relay.compile(mod, target="llvm-cpu")(x), TVM_OUT)


def test_calibrated_text_parses_and_realizes_as_tvm():
    """TVM's calibrate-stage text (quantize's own annotation operators) parses to
    relay_mlir.quantize's hints; realize here gives TVM's realized operators and output.
    (TVM 0.19's own parser refuses this text: "relay.attrs.SimulatedQuantizeAttrs: does not
    have field 'kind'": the quantizer's attributes share their name with qnn's.)"""
    mod = relay.fromtext((DATA / "tvm019_calibrated_cnn.txt").read_text())
    names = collections.Counter(c.op.name for c in calls(mod["main"]))
    assert names["relay.op.annotation.simulated_quantize"] == 6 and names["annotation.cast_hint"] == 4
    with qconfig(**QCONFIG):  # realize, then FoldConstant (int8 weights), as quantize's last steps
        q = relay.transform.FoldConstant()(realize_pass()(mod))
    assert _counts(q) == _tvm_counts_without_hints()
    x = _weights_and_input()[2]
    np.testing.assert_array_equal(relay.create_executor("debug", q).evaluate()(x), TVM_OUT)


def test_quantize_emits_tvm_operators():
    """relay.quantize here on the same float CNN: TVM's operators and dtypes (fusion hints
    aside), fixed_point_multiply included, and TVM's output exactly."""
    with qconfig(**QCONFIG):
        q = quantize(_float_cnn(), params={})
    assert _counts(q) == _tvm_counts_without_hints()
    x = _weights_and_input()[2]
    np.testing.assert_array_equal(relay.create_executor("debug", q).evaluate()(x), TVM_OUT)
    np.testing.assert_array_equal(relay.compile(q, target="llvm-cpu")(x), TVM_OUT)


def test_tvm_parser_module():
    """``tvm.parser`` (TVM 0.19's deprecated aliases) warns and parses as ``relay.parse``."""
    import relay_mlir.tvm as tvm
    with pytest.warns(DeprecationWarning, match="tvm.parser.parse is deprecated"):
        mod = tvm.parser.parse((DATA / "tvm019_realized_cnn.txt").read_text())
    assert _counts(relay.transform.InferType()(mod)) == TVM_COUNTS
    with pytest.warns(DeprecationWarning):
        e = tvm.parser.parse_expr("add(1f, 2f)")
    assert e.op.name == "add"
    with pytest.warns(DeprecationWarning):
        assert tvm.parser.fromtext('#[version = "0.0.5"]\ndef @main() { 1f }')["main"] is not None
    with pytest.warns(DeprecationWarning):
        span_check = tvm.parser.SpanCheck()
    assert span_check(mod) is mod
