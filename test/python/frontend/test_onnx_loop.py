"""ONNX Loop and Scan (frontend/onnx_loop.py): Relay loops (a self-recursive function).

Each model is compiled once and run on several inputs against onnxruntime: run-time trip
counts (0, 1 and more iterations), a condition that stops the loop early, scan inputs read in
reverse, scan outputs stacked on another axis or reversed, a Scan over a sequence length known
only at run time. Tolerances: sums of a few float32 values in the same order as onnxruntime:
rtol=1e-6, atol=1e-6; integer results exact. A body that changes a loop-carried value's rank
is refused at import (one whose size changes gets run-time dims); a slice of another shape
than the body declares is a run-time error."""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper as oh  # noqa: E402

import relay_mlir as relay  # noqa: E402
from relay_mlir.frontend import from_onnx  # noqa: E402
from ort_runner import OrtRunner  # noqa: E402

F32, I64, BOOL = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
_RNG = np.random.default_rng(3)
TOL = dict(rtol=1e-6, atol=1e-6)


def _vi(name, t, shape):
    return oh.make_tensor_value_info(name, t, shape)


def _model(nodes, inputs, outputs, opset=17):
    g = oh.make_graph(nodes, "g", [_vi(*i) for i in inputs], [_vi(*o) for o in outputs])
    return oh.make_model(g, opset_imports=[oh.make_opsetid("", opset)], ir_version=8)


def _f32(*shape):
    return _RNG.standard_normal(shape).astype(np.float32)


# -- Scan ---------------------------------------------------------------------------------------
def _cumsum_body(width):
    return oh.make_graph(
        [oh.make_node("Add", ["s_in", "x_t"], ["s_out"]),
         oh.make_node("Mul", ["s_out", "x_t"], ["y_t"])],
        "body", [_vi("s_in", F32, [width]), _vi("x_t", F32, [width])],
        [_vi("s_out", F32, [width]), _vi("y_t", F32, [width])])


@pytest.mark.parametrize("in_dir,out_axis,out_dir", [(0, 0, 0), (1, 1, 0), (0, 1, 1)])
def test_scan_static_length(in_dir, out_axis, out_dir):
    node = oh.make_node("Scan", ["s0", "x"], ["s", "y"], body=_cumsum_body(3), num_scan_inputs=1,
                        scan_input_directions=[in_dir], scan_output_axes=[out_axis],
                        scan_output_directions=[out_dir])
    r = OrtRunner(_model([node], [("s0", F32, [3]), ("x", F32, [5, 3])],
                       [("s", F32, None), ("y", F32, None)]))
    for _ in range(2):
        r.check(_f32(3), _f32(5, 3), **TOL)


def test_scan_runtime_length_compiled_once():
    """The sequence length is a `?` dim: one compile, lengths 1, 2 and 7; the scan input is read
    along axis 1."""
    node = oh.make_node("Scan", ["s0", "x"], ["s", "y"], body=_cumsum_body(4), num_scan_inputs=1,
                        scan_input_axes=[1])
    r = OrtRunner(_model([node], [("s0", F32, [4]), ("x", F32, [4, "T"])],
                       [("s", F32, None), ("y", F32, None)]))
    for t in (1, 2, 7):
        r.check(_f32(4), _f32(4, t), **TOL)


def test_scan_two_inputs_of_different_runtime_lengths_is_a_runtime_error():
    body = oh.make_graph([oh.make_node("Add", ["a", "b"], ["c"]), oh.make_node("Add", ["s", "c"], ["s2"])],
                         "body", [_vi("s", F32, [2]), _vi("a", F32, [2]), _vi("b", F32, [2])],
                         [_vi("s2", F32, [2])])
    node = oh.make_node("Scan", ["s0", "x", "z"], ["s"], body=body, num_scan_inputs=2)
    r = OrtRunner(_model([node], [("s0", F32, [2]), ("x", F32, ["T", 2]), ("z", F32, ["U", 2])],
                       [("s", F32, None)]))
    r.check(_f32(2), _f32(3, 2), _f32(3, 2), **TOL)
    with pytest.raises(relay.RelayRuntimeError):
        r.exe(_f32(2), _f32(3, 2), _f32(4, 2))


# -- Loop ---------------------------------------------------------------------------------------
def _loop_model(cond_limit=None):
    """v <- v * 0.5 + i while i < M (and sum(v) < cond_limit); a scan output of v + i."""
    nodes = [oh.make_node("Cast", ["i"], ["i_f"], to=F32),
             oh.make_node("Constant", [], ["half"], value=oh.make_tensor("h", F32, [], [0.5])),
             oh.make_node("Mul", ["v_in", "half"], ["vh"]),
             oh.make_node("Add", ["vh", "i_f"], ["v_out"]),
             oh.make_node("Add", ["v_out", "i_f"], ["y"])]
    if cond_limit is None:
        nodes.append(oh.make_node("Identity", ["c_in"], ["c_out"]))
    else:
        nodes += [oh.make_node("ReduceSum", ["v_out"], ["tot"], keepdims=0),
                  oh.make_node("Constant", [], ["lim"], value=oh.make_tensor("l", F32, [], [cond_limit])),
                  oh.make_node("Less", ["tot", "lim"], ["c_out"])]
    body = oh.make_graph(nodes, "body", [_vi("i", I64, []), _vi("c_in", BOOL, []), _vi("v_in", F32, [2, 3])],
                         [_vi("c_out", BOOL, []), _vi("v_out", F32, [2, 3]), _vi("y", F32, [2, 3])])
    node = oh.make_node("Loop", ["M", "cond", "v0"], ["v", "ys"], body=body)
    return _model([node], [("M", I64, []), ("cond", BOOL, []), ("v0", F32, [2, 3])],
                  [("v", F32, None), ("ys", F32, None)])


def test_loop_runtime_trip_count():
    r = OrtRunner(_loop_model())
    for m in (0, 1, 4):
        r.check(np.array(m, np.int64), np.array(True), _f32(2, 3), **TOL)
    r.check(np.array(3, np.int64), np.array(False), _f32(2, 3), **TOL)  # no iteration


def test_loop_condition_stops_early():
    r = OrtRunner(_loop_model(cond_limit=12.0))
    v0 = np.zeros((2, 3), np.float32)
    for m in (2, 10, 100):   # the condition ends it after a few iterations
        r.check(np.array(m, np.int64), np.array(True), v0, **TOL)


def test_loop_scan_output_declared_static_checked():
    """ONNX's test_loop11: the scan output is a Slice of run-time bounds declared float[1]."""
    x = oh.make_tensor("xs", F32, [5], [1, 2, 3, 4, 5])
    body = oh.make_graph(
        [oh.make_node("Identity", ["c_in"], ["c_out"]),
         oh.make_node("Constant", [], ["x"], value=x),
         oh.make_node("Constant", [], ["one"], value=oh.make_tensor("o", I64, [1], [1])),
         oh.make_node("Unsqueeze", ["i", "zero"], ["start"]),
         oh.make_node("Add", ["start", "one"], ["end"]),
         oh.make_node("Slice", ["x", "start", "end"], ["s"]),
         oh.make_node("Add", ["y_in", "s"], ["y_out"]),
         oh.make_node("Identity", ["y_out"], ["scan"])],
        "body", [_vi("i", I64, []), _vi("c_in", BOOL, []), _vi("y_in", F32, [1])],
        [_vi("c_out", BOOL, []), _vi("y_out", F32, [1]), _vi("scan", F32, [1])],
        initializer=[oh.make_tensor("zero", I64, [1], [0])])
    node = oh.make_node("Loop", ["M", "cond", "y0"], ["y", "ys"], body=body)
    r = OrtRunner(_model([node], [("M", I64, []), ("cond", BOOL, []), ("y0", F32, [1])],
                       [("y", F32, None), ("ys", F32, None)]))
    for m in (1, 3, 5):
        r.check(np.array(m, np.int64), np.array(True), _f32(1), **TOL)
    with pytest.raises(relay.RelayRuntimeError):   # slice 5:6 of 5 elements is empty, not [1]
        r.exe(np.array(6, np.int64), np.array(True), _f32(1))


def test_loop_carried_value_growing_each_iteration():
    """A carried value that doubles its length every iteration (ONNX lets loop-carried values
    change shape): its parameter gets a `?` dim; compiled once, run for 0, 1 and 3 iterations."""
    body = oh.make_graph(
        [oh.make_node("Identity", ["c_in"], ["c_out"]),
         oh.make_node("Concat", ["v_in", "v_in"], ["v_out"], axis=0)],
        "body", [_vi("i", I64, []), _vi("c_in", BOOL, []), _vi("v_in", F32, [2])],
        [_vi("c_out", BOOL, []), _vi("v_out", F32, [4])])
    node = oh.make_node("Loop", ["M", "", "v0"], ["v"], body=body)
    r = OrtRunner(_model([node], [("M", I64, []), ("v0", F32, [2])], [("v", F32, None)]))
    for m in (0, 1, 3):
        r.check(np.array(m, np.int64), _f32(2), **TOL)


def test_generation_loop_appending_a_token_each_step():
    """A decoding loop as exported models write it: the tokens so far [1, T] grow by one token
    an iteration (the next token computed from the tokens so far), until a stop token or the
    trip count."""
    nodes = [
        oh.make_node("ReduceSum", ["tok", "ax1"], ["s"], keepdims=1),
        oh.make_node("Mod", ["s", "seven"], ["nxt"]),
        oh.make_node("Concat", ["tok", "nxt"], ["tok2"], axis=1),
        oh.make_node("Equal", ["nxt", "stop"], ["is_stop"]),
        oh.make_node("Not", ["is_stop"], ["go"]),
        oh.make_node("Squeeze", ["go"], ["c_out"]),
    ]
    body = oh.make_graph(
        nodes, "body", [_vi("i", I64, []), _vi("c_in", BOOL, []), _vi("tok", I64, [1, "T"])],
        [_vi("c_out", BOOL, []), _vi("tok2", I64, [1, "T2"])],
        initializer=[oh.make_tensor("ax1", I64, [1], [1]), oh.make_tensor("seven", I64, [], [7]),
                     oh.make_tensor("stop", I64, [], [0])])
    node = oh.make_node("Loop", ["M", "", "t0"], ["tokens"], body=body)
    r = OrtRunner(_model([node], [("M", I64, []), ("t0", I64, [1, "T0"])], [("tokens", I64, None)]))
    for m, start in [(0, [3]), (5, [3]), (10, [1, 2]), (10, [5, 6, 4])]:
        r.check(np.array(m, np.int64), np.array([start], np.int64))


def test_loop_carried_value_changing_rank_is_refused():
    body = oh.make_graph(
        [oh.make_node("Identity", ["c_in"], ["c_out"]),
         oh.make_node("Unsqueeze", ["v_in", "zero"], ["v_out"])],
        "body", [_vi("i", I64, []), _vi("c_in", BOOL, []), _vi("v_in", F32, [2])],
        [_vi("c_out", BOOL, []), _vi("v_out", F32, [1, 2])],
        initializer=[oh.make_tensor("zero", I64, [1], [0])])
    node = oh.make_node("Loop", ["M", "", "v0"], ["v"], body=body)
    m = _model([node], [("M", I64, []), ("v0", F32, [2])], [("v", F32, None)])
    with pytest.raises(relay.frontend.UnsupportedError,
                       match="loop-carried value 0 changes type from float32\\[2\\] to float32\\[1, 2\\]"):
        from_onnx(m)


def test_while_loop_without_trip_count_reading_outer_values():
    """No trip count (a while loop on the body's condition); the body reads graph inputs
    `w` and `lim` of the enclosing graph (free variables of the loop function)."""
    body = oh.make_graph(
        [oh.make_node("Add", ["v", "w"], ["v2"]), oh.make_node("ReduceSum", ["v2"], ["t"], keepdims=0),
         oh.make_node("Less", ["t", "lim"], ["c2"])],
        "body", [_vi("i", I64, []), _vi("c", BOOL, []), _vi("v", F32, [3])],
        [_vi("c2", BOOL, []), _vi("v2", F32, [3])])
    node = oh.make_node("Loop", ["", "c0", "v0"], ["v"], body=body)
    r = OrtRunner(_model([node], [("c0", BOOL, []), ("v0", F32, [3]), ("w", F32, [3]), ("lim", F32, [])],
                         [("v", F32, None)]))
    zero = np.zeros(3, np.float32)
    for w, lim in [([1, 2, 3], 50), ([1, 1, 1], 5), ([1, 1, 1], -1)]:
        r.check(np.array(True), zero, np.array(w, np.float32), np.array(lim, np.float32), **TOL)


def test_nested_loops_and_a_run_time_batch():
    """A Loop in a Loop's body (the inner trip count is the outer iteration number), carrying
    a [B, 2] value whose B is a run-time dim."""
    inner = oh.make_graph(
        [oh.make_node("Identity", ["ci"], ["co"]), oh.make_node("Cast", ["j"], ["jf"], to=F32),
         oh.make_node("Add", ["a", "jf"], ["a2"])],
        "inner", [_vi("j", I64, []), _vi("ci", BOOL, []), _vi("a", F32, ["B", 2])],
        [_vi("co", BOOL, []), _vi("a2", F32, ["B", 2])])
    outer = oh.make_graph(
        [oh.make_node("Identity", ["c"], ["c2"]), oh.make_node("Loop", ["i", "c", "v"], ["v2"], body=inner),
         oh.make_node("Tanh", ["v2"], ["v3"])],
        "outer", [_vi("i", I64, []), _vi("c", BOOL, []), _vi("v", F32, ["B", 2])],
        [_vi("c2", BOOL, []), _vi("v3", F32, ["B", 2])])
    node = oh.make_node("Loop", ["M", "c0", "v0"], ["v"], body=outer)
    r = OrtRunner(_model([node], [("M", I64, []), ("c0", BOOL, []), ("v0", F32, ["B", 2])],
                         [("v", F32, None)]))
    for m, b in [(0, 1), (1, 3), (4, 2)]:
        r.check(np.array(m, np.int64), np.array(True), _f32(b, 2), **TOL)


def test_scan8_batch_axis_and_direction():
    """Scan-8: a batch axis 0 on states and scan inputs (one scan per batch element), the
    scan input read in reverse (`directions`), sequence_lens absent."""
    node = oh.make_node("Scan", ["", "s0", "x"], ["s", "y"], body=_cumsum_body(3),
                        num_scan_inputs=1, directions=[1])
    r = OrtRunner(_model([node], [("s0", F32, [2, 3]), ("x", F32, [2, 4, 3])],
                         [("s", F32, None), ("y", F32, None)], opset=8))
    for _ in range(2):
        r.check(_f32(2, 3), _f32(2, 4, 3), **TOL)
