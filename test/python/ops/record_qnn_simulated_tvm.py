"""Prints TVM 0.19's results of the cases of test_qnn_simulated.py (pasted there as
literals) and writes the fixtures of test_quantize_tvm_text.py (data/quantize/).

Run with the side venv (TVM 0.19 with Relay), from this directory:
    TOPHUB_LOCATION=NONE /work/tvmvenv/bin/python record_qnn_simulated_tvm.py
Each case is compiled by ``relay.build`` for llvm at opt_level 3 (2 where opt_level 3
refuses it) and run by the graph executor.
"""
import collections
from pathlib import Path

import numpy as np
import tvm
from tvm import relay
from tvm.contrib import graph_executor
from tvm.relay.qnn.op import _make as qnn_make

X32 = np.array([0, 1, -1, 5, -5, 7, -7, 100, -100, 12345, -12345, 2**30, -2**30, 2**31 - 1,
                -2**31, 3, -3, 65535], "int32")
X23 = X32[:6].reshape(2, 3)
F = np.array([2.5, -2.5, 0.5, -0.5, 1.5, np.nan, np.inf, -np.inf, -300.0, 1.2, 3.75, 200.0, 0.05,
              -63.49, 63.5, -64.5, -199.65, -199.15, -198.65, -198.15, -197.65, -197.15, -196.65,
              -196.15], "float32")
F23 = np.array([[1, 2, 3], [-4, -5, 6.5]], "float32")
D = np.array([1.25, -7.5, 1e10, 0.1], "float64")


def run(fn, *args):
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(fn))
    try:
        with tvm.transform.PassContext(opt_level=3):
            lib = relay.build(mod, target="llvm")
    except tvm.TVMError as e:
        print("  (opt_level 3 refuses:", str(e).strip().splitlines()[-1][:100], "-> opt_level 2)")
        with tvm.transform.PassContext(opt_level=2):
            lib = relay.build(mod, target="llvm")
    g = graph_executor.GraphModule(lib["default"](tvm.cpu()))
    for p, a in zip(fn.params, args):
        g.set_input(p.name_hint, a)
    g.run()
    return g.get_output(0).numpy().tolist()


def c(v, dtype="int32"):
    return relay.const(np.array(v, dtype))


def fixed_point_cases():
    x = relay.var("x", shape=X32.shape, dtype="int32")
    for m, s in [(1073741824, 0), (1073741824, -1), (1610612736, 3), (2147483647, 0),
                 (-1073741824, 0), (1073741824, 31), (1431655765, -31), (1431655765, -32),
                 (1431655765, -5), (0, 5), (2142531584, -7)]:
        print("fpm", (m, s), run(relay.Function([x], relay.fixed_point_multiply(x, m, s)), X32))
    for m, s in [(1610612736, 2), (2142531584, -7)]:
        y = relay.fixed_point_multiply(relay.cast(x, "int64"), m, s)
        y = relay.cast(relay.clip(y, -2147483647, 2147483647), "int32")
        print("fpm64", (m, s), run(relay.Function([x], y), X32))
    xa = relay.var("x", shape=(2, 3), dtype="int32")
    per_axis = relay.op._make.fixed_point_multiply_per_axis
    m3, l3, r3 = c([1073741824, 1610612736, 2147483647]), c([0, 2, 1]), c([1, 0, 3])
    for lf, rf in [(True, True), (False, True), (True, False)]:
        print("per_axis", lf, rf, run(relay.Function([xa], per_axis(xa, m3, l3, r3, lf, rf, [1])), X23))
    print("axis0", run(relay.Function([xa], per_axis(xa, c([1073741824, 1610612736]), c([0, 1]),
                                                     c([1, 0]), True, True, [0])), X23))
    print("no_axes", run(relay.Function([xa], per_axis(xa, c(1431655765), c(1), c(2), True, True, [])),
                         X23))
    m6 = c([[1073741824, 1610612736, 1431655765], [2147483647, 1073741824, 1288490189]])
    print("axes01", run(relay.Function([xa], per_axis(xa, m6, c([[0, 1, 2], [0, 0, 1]]),
                                                      c([[1, 0, 3], [2, 2, 0]]), True, True, [0, 1])), X23))


def simulated_cases():
    cases = {"q_disable": ("q", F, 0, [0.5], [3], -1), "q_int8": ("q", F, 1, [0.5], [3], -1),
             "q_uint8": ("q", F, 2, [0.5], [3], -1), "q_int32": ("q", F, 3, [0.5], [3], -1),
             "q_code4": ("q", F, 4, [0.5], [3], -1), "q_divides": ("q", F, 3, [0.1], [0], -1),
             "q_axis1": ("q", F23, 1, [0.5, 1, 2], [1, 2, 3], 1),
             "q_axis0": ("q", F23, 2, [0.5, 1], [1, -2], 0),
             "q_scale3_zp1": ("q", F23, 1, [0.5, 1, 2], [1], 1),
             "q_float64": ("q", D, 1, [0.3], [1], -1),
             "dq_disable": ("dq", F, 0, [0.5], [3], -1), "dq_int8": ("dq", F, 1, [0.5], [3], -1),
             "dq_uint8": ("dq", F, 2, [0.5], [3], -1), "dq_int32": ("dq", F, 3, [0.5], [3], -1),
             "dq_code4": ("dq", F, 4, [0.5], [3], -1),
             "dq_axis1": ("dq", F23, 2, [0.5, 1, 2], [1, 2, 3], 1),
             "dq_float64": ("dq", D, 2, [0.3], [1], -1)}
    for name, (op, data, code, scale, zp, axis) in cases.items():
        x = relay.var("x", shape=data.shape, dtype=str(data.dtype))
        make = qnn_make.simulated_quantize if op == "q" else qnn_make.simulated_dequantize
        y = make(x, c(code), c(scale, "float32"), c(zp), axis)
        print(name, run(relay.Function([x], y), data))
    xc = relay.var("x", shape=(4,), dtype="float32")
    q = relay.qnn.op.simulated_quantize(xc, relay.const(0.5), relay.const(3), out_dtype="int8")
    y = relay.qnn.op.simulated_dequantize(q, relay.const(0.5), relay.const(3), in_dtype="uint8")
    print("chain", run(relay.Function([xc], y), np.array([-300, 1.2, 3.75, 200], "float32")))


def cnn_fixtures():
    rng = np.random.default_rng(33)
    x = relay.var("data", shape=(1, 3, 8, 8))
    w1 = relay.const(rng.uniform(-1, 1, (8, 3, 3, 3)).astype("float32"))
    w2 = relay.const(rng.uniform(-0.5, 0.5, (8, 8, 3, 3)).astype("float32"))
    y = relay.nn.relu(relay.nn.conv2d(x, w1, padding=(1, 1), channels=8, kernel_size=(3, 3)))
    z = relay.nn.relu(relay.nn.conv2d(y, w2, padding=(1, 1), channels=8, kernel_size=(3, 3)))
    y = relay.nn.max_pool2d(relay.add(y, z), pool_size=(2, 2), strides=(2, 2))
    y = relay.nn.batch_flatten(relay.nn.global_avg_pool2d(y))
    mod = tvm.IRModule.from_expr(relay.Function([x], y))
    cfg = dict(skip_conv_layers=[], global_scale=8.0, weight_scale="max", round_for_shift=False)
    with relay.quantize.qconfig(**cfg):  # its own qconfig scope: quantize() leaves state behind
        pre = relay.quantize.prerequisite_optimize(mod, {})
        with tvm.transform.PassContext(opt_level=3):
            annotated = relay.quantize.annotate()(relay.quantize.partition()(pre))
            calibrated = relay.quantize.calibrate(None)(annotated, None)
    with relay.quantize.qconfig(**cfg):
        q = relay.quantize.quantize(mod, {})
    data = Path(__file__).parents[1] / "data" / "quantize"
    (data / "tvm019_realized_cnn.txt").write_text(q.astext(show_meta_data=True))
    (data / "tvm019_calibrated_cnn.txt").write_text(calibrated.astext(show_meta_data=True))
    counts = collections.Counter()
    relay.analysis.post_order_visit(q["main"], lambda e: isinstance(e, relay.Call) and isinstance(
        e.op, tvm.ir.Op) and counts.update([f"{e.op.name}:{e.checked_type.dtype}"]))
    print("TVM_COUNTS", dict(sorted(counts.items())))
    inp = rng.normal(0, 1, (1, 3, 8, 8)).astype("float32")
    print("TVM_OUT", run(q["main"], inp))


if __name__ == "__main__":
    fixed_point_cases()
    simulated_cases()
    cnn_fixtures()
