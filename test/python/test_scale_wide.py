"""Wide programs and large ONNX graphs (issue 13, item 4).

- 10,000-way fan-out and fan-in from the builder API: one value used by
  10,000 ops whose results meet in one 10,000-operand ``concatenate``
  (and a 10,000-field tuple), inferred and lowered to IREE input; the same
  graph 1,000 wide is compiled and run against numpy.
- The same shape of graph as an ONNX model (``Concat`` of 10,000 inputs),
  and a 100,000-node ONNX chain: imported, inferred and lowered to IREE
  input without recursion limits; the Concat model 1,000 wide compiled and
  run.

iree-compile itself needs more than 8 minutes for the 10,000-wide
programs (each add is its own dispatch on this 2-core machine), so the
runs use 1,000. Shapes are tiny so that the measured cost is the per-node
cost.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from relay_mlir.frontend import from_onnx  # noqa: E402

WIDE = 10_000
RUN_WIDE = 1_000  # compiled and run (see the module docstring)


def _fan(width: int):
    x = relay.var("x", shape=(2,))
    ys = [relay.add(x, relay.const(np.float32(i))) for i in range(width)]
    return x, ys


def _fan_module(width: int):
    x, ys = _fan(width)
    return relay.IRModule.from_expr(relay.Function([x], relay.concatenate(ys, axis=0)))


def test_10k_fan_out_fan_in_infers_and_lowers():
    mod = relay.transform.InferType()(_fan_module(WIDE))
    assert mod["main"].body.checked_type == relay.TensorType((2 * WIDE,))
    text = relay.lower_to_iree_input(mod)
    assert "relay." not in text and "func.func @main" in text


@pytest.mark.slow
def test_1k_fan_out_fan_in_compiles_and_runs():
    exe = relay.compile(_fan_module(RUN_WIDE))
    xv = np.array([0.5, -1.0], "float32")
    want = np.concatenate([xv + np.float32(i) for i in range(RUN_WIDE)])
    np.testing.assert_array_equal(exe(xv), want)


def test_10k_field_tuple_infers_and_lowers():
    x, ys = _fan(WIDE)
    tup = relay.Tuple(ys)
    body = relay.add(relay.TupleGetItem(tup, 0), relay.TupleGetItem(tup, WIDE - 1))
    mod = relay.transform.InferType()(relay.IRModule.from_expr(relay.Function([x], body)))
    assert mod["main"].body.checked_type == relay.TensorType((2,))
    text = relay.lower_to_iree_input(mod)
    assert "relay." not in text


def _model(nodes, inputs, outputs, initializers=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 9
    return model


def _onnx_chain(n_nodes: int):
    """Relu/Add alternating ``n_nodes`` times on a (1, 4) input."""
    one = numpy_helper.from_array(np.full((1, 4), 0.25, "float32"), "one")
    nodes, prev = [], "x"
    for i in range(n_nodes):
        out = f"t{i}"
        if i % 2:
            nodes.append(helper.make_node("Add", [prev, "one"], [out]))
        else:
            nodes.append(helper.make_node("Relu", [prev], [out]))
        prev = out
    nodes.append(helper.make_node("Identity", [prev], ["y"]))
    return _model(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                  [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])], [one])


@pytest.mark.slow
def test_100k_node_onnx_chain_imports_and_lowers():
    mod = from_onnx(_onnx_chain(100_000))
    mod = relay.transform.InferType()(mod)
    assert mod["main"].body.checked_type == relay.TensorType((1, 4))
    text = relay.lower_to_iree_input(mod)
    assert "relay." not in text and "func.func @main" in text


def _onnx_concat(width: int):
    nodes = []
    for i in range(width):
        c = helper.make_node("Constant", [], [f"c{i}"],
                             value=numpy_helper.from_array(np.array([float(i)], "float32")))
        nodes += [c, helper.make_node("Add", ["x", f"c{i}"], [f"a{i}"])]
    nodes.append(helper.make_node("Concat", [f"a{i}" for i in range(width)], ["y"], axis=0))
    return _model(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                  [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2 * width])])


def test_10k_way_onnx_concat_imports_and_lowers():
    mod = relay.transform.InferType()(from_onnx(_onnx_concat(WIDE)))
    assert mod["main"].body.checked_type == relay.TensorType((2 * WIDE,))
    assert "relay." not in relay.lower_to_iree_input(mod)


@pytest.mark.slow
def test_1k_way_onnx_concat_compiles_and_runs():
    exe = relay.compile(from_onnx(_onnx_concat(RUN_WIDE)))
    xv = np.array([1.5, -2.0], "float32")
    want = np.concatenate([xv + np.float32(i) for i in range(RUN_WIDE)])
    np.testing.assert_array_equal(exe(xv), want)
