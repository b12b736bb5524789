"""The qnn operator cases that test_qnn.py checks against TVM 0.19.

Pure data, shared by the test and by record_qnn_tvm.py (which ran them in
TVM 0.19 and wrote qnn_tvm_results.json): each case names a
``relay.qnn.op`` builder, its tensor inputs (seeded random values, made by
``inputs(case)``), its constant quantization parameters (in call order after
the tensors) and its keyword attributes.
"""
from __future__ import annotations

from typing import Dict, List

import numpy as np


def T(shape, dtype, lo=None, hi=None, ties=None):
    """A tensor input: random integers of ``dtype`` in [lo, hi], or float32
    in [lo, hi] where every other value is (k + 0.5) * ``ties`` (a rounding tie)."""
    return {"shape": list(shape), "dtype": dtype, "lo": lo, "hi": hi, "ties": ties}


def P(value, dtype):
    """A constant parameter (scalar or per-channel list)."""
    return {"value": value, "dtype": dtype}


F, I = "float32", "int32"

CASES: Dict[str, dict] = {
    # quantize(data, output_scale, output_zero_point, axis, out_dtype)
    "quantize_int8": dict(op="quantize", tensors=[T((4, 16), F, -8, 8, ties=0.0625)],
                          params=[P(0.0625, F), P(3, I)], attrs={}),
    "quantize_uint8_saturating": dict(op="quantize", tensors=[T((64,), F, -30, 30, ties=0.1)],
                                      params=[P(0.1, F), P(128, I)], attrs={"out_dtype": "uint8"}),
    "quantize_int32": dict(op="quantize", tensors=[T((32,), F, -1e4, 1e4, ties=0.37)],
                           params=[P(0.37, F), P(-7, I)], attrs={"out_dtype": "int32"}),
    "quantize_per_channel_axis1": dict(op="quantize", tensors=[T((2, 3, 8), F, -4, 4, ties=0.05)],
                                       params=[P([0.05, 0.02, 0.3], F), P([0, -5, 9], I)],
                                       attrs={"axis": 1}),
    "quantize_per_channel_last_int16": dict(op="quantize", tensors=[T((5, 4), F, -50, 50)],
                                            params=[P([0.001, 0.01, 0.1, 1.0], F),
                                                    P([10, -10, 0, 100], I)],
                                            attrs={"out_dtype": "int16"}),
    # dequantize(data, input_scale, input_zero_point, axis, out_dtype)
    "dequantize_int8": dict(op="dequantize", tensors=[T((4, 16), "int8")],
                            params=[P(0.0371, F), P(-3, I)], attrs={}),
    "dequantize_uint8": dict(op="dequantize", tensors=[T((64,), "uint8")],
                             params=[P(0.2, F), P(128, I)], attrs={}),
    "dequantize_int32_per_channel": dict(op="dequantize", tensors=[T((3, 8), I, -100000, 100000)],
                                         params=[P([1e-3, 2.5e-4, 0.7], F), P([0, 5, -5], I)],
                                         attrs={"axis": 0}),
    "dequantize_float16": dict(op="dequantize", tensors=[T((32,), I, -2 ** 20, 2 ** 20)],
                               params=[P(0.5, F), P(0, I)], attrs={"out_dtype": "float16"}),
    # requantize(data, in_scale, in_zp, out_scale, out_zp, axis, rounding, compute_dtype, out_dtype)
    "requantize_int32_to_int8": dict(op="requantize", tensors=[T((4, 32), I, -3000, 3000)],
                                     params=[P(0.013, F), P(0, I), P(0.31, F), P(-4, I)], attrs={}),
    "requantize_tonearest": dict(op="requantize", tensors=[T((128,), I, -400, 400)],
                                 params=[P(0.25, F), P(1, I), P(1.0, F), P(0, I)],
                                 attrs={"rounding": "TONEAREST"}),
    "requantize_upward_ties": dict(op="requantize", tensors=[T((128,), I, -400, 400)],
                                   params=[P(0.25, F), P(1, I), P(1.0, F), P(0, I)],
                                   attrs={"rounding": "UPWARD"}),
    "requantize_per_channel": dict(op="requantize", tensors=[T((2, 3, 16), I, -2 ** 16, 2 ** 16)],
                                   params=[P([0.002, 0.0003, 0.05], F), P([1, -2, 3], I),
                                           P(0.4, F), P(7, I)],
                                   attrs={"axis": 1}),
    "requantize_per_channel_tonearest": dict(op="requantize", tensors=[T((6, 4), I, -5000, 5000)],
                                             params=[P([0.02, 0.03, 0.5, 0.125], F), P([0, 0, 0, 0], I),
                                                     P(0.25, F), P(0, I)],
                                             attrs={"rounding": "TONEAREST"}),
    "requantize_int8_to_uint8_upscale": dict(op="requantize", tensors=[T((64,), "int8")],
                                             params=[P(0.9, F), P(-1, I), P(0.11, F), P(128, I)],
                                             attrs={"out_dtype": "uint8"}),
    "requantize_uint8_to_int16": dict(op="requantize", tensors=[T((64,), "uint8")],
                                      params=[P(0.07, F), P(120, I), P(0.0011, F), P(0, I)],
                                      attrs={"out_dtype": "int16"}),
    "requantize_to_int32": dict(op="requantize", tensors=[T((64,), I, -2 ** 24, 2 ** 24)],
                                params=[P(0.5, F), P(3, I), P(0.125, F), P(-9, I)],
                                attrs={"out_dtype": "int32"}),
    "requantize_int64_input": dict(op="requantize", tensors=[T((32,), "int64", -2 ** 20, 2 ** 20)],
                                   params=[P(0.3, F), P(1, I), P(0.5, F), P(2, I)], attrs={}),
    # dense(data, weight, input_zp, kernel_zp, input_scale, kernel_scale, units, out_dtype)
    "dense_int8": dict(op="dense", tensors=[T((3, 24), "int8"), T((5, 24), "int8")],
                       params=[P(3, I), P(-2, I), P(0.5, F), P(0.25, F)], attrs={"units": 5}),
    "dense_uint8_int8_per_channel": dict(op="dense", tensors=[T((4, 16), "uint8"), T((6, 16), "int8")],
                                         params=[P(128, I), P([1, -2, 0, 3, 4, -5], I), P(0.02, F),
                                                 P([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], F)],
                                         attrs={"units": 6}),
    "dense_uint8": dict(op="dense", tensors=[T((6, 8), "uint8"), T((4, 8), "uint8")],
                           params=[P(100, I), P(120, I), P(0.1, F), P(0.1, F)], attrs={"units": 4}),
    # batch_matmul(x, y, x_zp, y_zp, x_scale, y_scale, out_dtype)
    "batch_matmul_int8": dict(op="batch_matmul", tensors=[T((2, 3, 16), "int8"), T((2, 5, 16), "int8")],
                              params=[P(1, I), P(2, I), P(0.5, F), P(0.25, F)], attrs={}),
    "batch_matmul_uint8_broadcast": dict(op="batch_matmul",
                                         tensors=[T((3, 4, 8), "uint8"), T((1, 6, 8), "uint8")],
                                         params=[P(128, I), P(7, I), P(0.5, F), P(0.25, F)], attrs={}),
    # conv2d(data, kernel, input_zp, kernel_zp, input_scale, kernel_scale, kernel_size, channels, ...)
    "conv2d_int8_pad_stride": dict(op="conv2d", tensors=[T((1, 3, 9, 9), "int8"), T((4, 3, 3, 3), "int8")],
                                   params=[P(5, I), P(-2, I), P(0.5, F), P(0.25, F)],
                                   attrs={"kernel_size": [3, 3], "channels": 4, "padding": [1, 1],
                                          "strides": [2, 2]}),
    "conv2d_uint8_per_channel": dict(op="conv2d", tensors=[T((2, 2, 7, 6), "uint8"), T((3, 2, 2, 3), "int8")],
                                     params=[P(128, I), P([1, 0, -3], I), P(0.1, F), P([0.1, 0.2, 0.3], F)],
                                     attrs={"kernel_size": [2, 3], "channels": 3, "padding": [1, 0, 2, 1],
                                            "dilation": [2, 1]}),
    "conv2d_depthwise": dict(op="conv2d", tensors=[T((1, 4, 6, 6), "int8"), T((4, 1, 3, 3), "int8")],
                             params=[P(-7, I), P(2, I), P(0.5, F), P(0.5, F)],
                             attrs={"kernel_size": [3, 3], "channels": 4, "groups": 4, "padding": [1, 1]}),
    "conv2d_nhwc_hwio": dict(op="conv2d", tensors=[T((1, 5, 5, 3), "uint8"), T((3, 3, 3, 2), "uint8")],
                             params=[P(120, I), P(130, I), P(0.5, F), P(0.5, F)],
                             attrs={"kernel_size": [3, 3], "channels": 2, "padding": [1, 1],
                                    "data_layout": "NHWC", "kernel_layout": "HWIO"}),
    # add/subtract/mul(lhs, rhs, lhs_scale, lhs_zp, rhs_scale, rhs_zp, out_scale, out_zp, lhs_axis, rhs_axis)
    "add_int8": dict(op="add", tensors=[T((4, 16), "int8"), T((4, 16), "int8")],
                     params=[P(0.5, F), P(3, I), P(0.25, F), P(-2, I), P(0.7, F), P(5, I)], attrs={}),
    "add_uint8_broadcast": dict(op="add", tensors=[T((3, 8), "uint8"), T((8,), "uint8")],
                                params=[P(0.05, F), P(128, I), P(0.2, F), P(100, I), P(0.1, F), P(120, I)],
                                attrs={}),
    "add_lhs_per_channel": dict(op="add", tensors=[T((2, 3, 4), "int8"), T((2, 3, 4), "int8")],
                                params=[P([0.1, 0.2, 0.3], F), P([1, 2, 3], I), P(0.25, F), P(0, I),
                                        P(0.3, F), P(-1, I)], attrs={"lhs_axis": 1}),
    "add_int32": dict(op="add", tensors=[T((32,), I, -10 ** 6, 10 ** 6), T((32,), I, -10 ** 6, 10 ** 6)],
                      params=[P(0.01, F), P(0, I), P(0.03, F), P(0, I), P(0.02, F), P(0, I)], attrs={}),
    "subtract_int8": dict(op="subtract", tensors=[T((4, 16), "int8"), T((4, 16), "int8")],
                          params=[P(0.5, F), P(3, I), P(0.25, F), P(-2, I), P(0.7, F), P(5, I)], attrs={}),
    "subtract_uint8": dict(op="subtract", tensors=[T((64,), "uint8"), T((64,), "uint8")],
                           params=[P(0.1, F), P(128, I), P(0.1, F), P(128, I), P(0.1, F), P(128, I)],
                           attrs={}),
    "mul_int8": dict(op="mul", tensors=[T((4, 16), "int8"), T((4, 16), "int8")],
                     params=[P(0.5, F), P(3, I), P(0.25, F), P(-2, I), P(0.7, F), P(5, I)], attrs={}),
    "mul_uint8_broadcast": dict(op="mul", tensors=[T((3, 8), "uint8"), T((1, 8), "uint8")],
                                params=[P(0.03, F), P(128, I), P(0.011, F), P(0, I), P(0.02, F), P(10, I)],
                                attrs={}),
    # concatenate(data, input_scales, input_zero_points, output_scale, output_zero_point, axis):
    # params are the n scales, the n zero points, then the output's
    "concatenate_requantize_some": dict(op="concatenate", tensors=[T((2, 3), "int8"), T((2, 4), "int8"),
                                                                   T((2, 2), "int8")],
                                        params=[P(0.5, F), P(0.25, F), P(0.3, F), P(1, I), P(0, I), P(-2, I),
                                                P(0.5, F), P(1, I)], attrs={"axis": 1}),
    "concatenate_uint8_axis0": dict(op="concatenate", tensors=[T((1, 4), "uint8"), T((3, 4), "uint8")],
                                    params=[P(0.1, F), P(0.2, F), P(128, I), P(120, I), P(0.15, F), P(125, I)],
                                    attrs={"axis": 0}),
    # avg_pool2d(data, input_scale, input_zp, output_scale, output_zp, pool_size, strides, padding,
    # dilation, ceil_mode, count_include_pad, layout, out_layout)
    "avg_pool2d_nhwc_requantize": dict(op="avg_pool2d", tensors=[T((1, 5, 5, 3), "uint8")],
                                       params=[P(0.1, F), P(128, I), P(0.2, F), P(120, I)],
                                       attrs={"pool_size": [2, 2], "strides": [2, 2], "padding": [0, 0],
                                              "dilation": [1, 1]}),
    "avg_pool2d_nchw_same_params": dict(op="avg_pool2d", tensors=[T((1, 2, 6, 6), "int8")],
                                        params=[P(0.5, F), P(-3, I), P(0.5, F), P(-3, I)],
                                        attrs={"pool_size": [3, 3], "strides": [2, 2], "padding": [1, 1],
                                               "dilation": [1, 1], "ceil_mode": True,
                                               "count_include_pad": False, "layout": "NCHW"}),
    "avg_pool2d_include_pad": dict(op="avg_pool2d", tensors=[T((1, 4, 4, 2), "int8")],
                                   params=[P(0.3, F), P(5, I), P(0.25, F), P(-1, I)],
                                   attrs={"pool_size": [3, 3], "strides": [1, 1], "padding": [1, 1],
                                          "dilation": [1, 1]}),
    # conv2d_transpose(data, weight, input_zp, kernel_zp, input_scale, kernel_scale, ...)
    "conv2d_transpose_int8": dict(op="conv2d_transpose", tensors=[T((1, 4, 5, 5), "int8"),
                                                                  T((4, 2, 3, 3), "int8")],
                                  params=[P(3, I), P(-2, I), P(0.5, F), P(0.25, F)],
                                  attrs={"strides": [2, 2], "padding": [1, 1], "output_padding": [1, 1],
                                         "kernel_size": [3, 3], "channels": 2}),
    "conv2d_transpose_uint8_per_channel": dict(op="conv2d_transpose",
                                               tensors=[T((2, 3, 4, 3), "uint8"), T((3, 3, 2, 2), "uint8")],
                                               params=[P(128, I), P(120, I), P(0.1, F), P([0.1, 0.2, 0.3], F)],
                                               attrs={"kernel_size": [2, 2], "channels": 3,
                                                      "padding": [0, 1, 1, 0], "strides": [1, 2]}),
    # the unary ops (x, scale, zero_point, output_scale, output_zero_point): TVM's lookup tables
    "abs_int8": dict(op="abs", tensors=[T((4, 64), "int8")], params=[P(0.05, F), P(-3, I), P(0.04, F), P(-128, I)],
                     attrs={}),
    "exp_int8": dict(op="exp", tensors=[T((4, 64), "int8")], params=[P(0.02, F), P(10, I), P(0.05, F), P(-128, I)],
                     attrs={}),
    "log_uint8": dict(op="log", tensors=[T((4, 64), "uint8")], params=[P(0.1, F), P(20, I), P(0.03, F), P(100, I)],
                      attrs={}),
    "sigmoid_int8": dict(op="sigmoid", tensors=[T((4, 64), "int8")],
                         params=[P(0.0625, F), P(0, I), P(1 / 256, F), P(-128, I)], attrs={}),
    "sigmoid_uint8": dict(op="sigmoid", tensors=[T((4, 64), "uint8")],
                          params=[P(0.05, F), P(128, I), P(1 / 256, F), P(0, I)], attrs={}),
    "tanh_int8": dict(op="tanh", tensors=[T((4, 64), "int8")], params=[P(0.025, F), P(2, I), P(1 / 128, F), P(0, I)],
                      attrs={}),
    "erf_int8": dict(op="erf", tensors=[T((4, 64), "int8")], params=[P(0.02, F), P(-1, I), P(1 / 128, F), P(0, I)],
                     attrs={}),
    "sqrt_uint8": dict(op="sqrt", tensors=[T((4, 64), "uint8")], params=[P(0.5, F), P(0, I), P(0.1, F), P(0, I)],
                       attrs={}),
    "rsqrt_int8": dict(op="rsqrt", tensors=[T((4, 64), "int8")], params=[P(0.1, F), P(-128, I), P(0.02, F), P(-128, I)],
                       attrs={}),
    "hardswish_int8": dict(op="hardswish", tensors=[T((4, 64), "int8")],
                           params=[P(0.05, F), P(3, I), P(0.04, F), P(-20, I)], attrs={}),
    # leaky_relu(x, alpha, input_scale, input_zp, output_scale, output_zp)
    "leaky_relu_same_params": dict(op="leaky_relu", tensors=[T((4, 64), "int8")],
                                   params=[P(0.1, F), P(3, I), P(0.1, F), P(3, I)], attrs={"alpha": 0.1}),
    "leaky_relu_uint8_requantize": dict(op="leaky_relu", tensors=[T((4, 64), "uint8")],
                                        params=[P(0.05, F), P(128, I), P(0.04, F), P(100, I)],
                                        attrs={"alpha": 0.2}),
    # softmax(x, scale, zero_point, output_scale, output_zero_point, axis); int8 only
    "softmax_int8": dict(op="softmax", tensors=[T((3, 8), "int8")],
                         params=[P(0.02, F), P(0, I), P(1 / 256, F), P(-128, I)], attrs={}),
    "softmax_axis0": dict(op="softmax", tensors=[T((6, 5), "int8", -60, 60)],
                          params=[P(0.05, F), P(2, I), P(1 / 128, F), P(0, I)], attrs={"axis": 0}),
    # a coarse scale over the whole int8 range: quotients clipped at 20, rows shifted by their
    # largest quotient (TVM 0.19's form; the unclipped form differed in 21 of 30 random cases)
    "softmax_clipped_quotients": dict(op="softmax", tensors=[T((6, 16), "int8")],
                                      params=[P(0.3, F), P(5, I), P(1 / 128, F), P(0, I)], attrs={}),
    "softmax_fine_scale": dict(op="softmax", tensors=[T((5, 9), "int8")],
                               params=[P(0.004, F), P(-7, I), P(1 / 128, F), P(0, I)], attrs={"axis": 0}),
}


def call(ops, name: str, xs, cs):
    """The case's call of ``ops.<op>`` (``relay.qnn.op`` of relay_mlir or TVM) on the tensor
    expressions ``xs`` and parameter constants ``cs``, in the op's own argument order."""
    case = CASES[name]
    attrs = dict(case["attrs"])
    f = getattr(ops, case["op"])
    if case["op"] == "concatenate":
        n = len(xs)
        return f(list(xs), cs[:n], cs[n:2 * n], cs[2 * n], cs[2 * n + 1], **attrs)
    if case["op"] == "leaky_relu":
        return f(xs[0], attrs.pop("alpha"), *cs, **attrs)
    return f(*xs, *cs, **attrs)


def inputs(name: str) -> List[np.ndarray]:
    """The case's tensor inputs, from a seed derived from its name."""
    rng = np.random.RandomState(sum(map(ord, name)) * 7919 % (2 ** 31))
    out = []
    for t in CASES[name]["tensors"]:
        dt = np.dtype(t["dtype"])
        if dt.kind == "f":
            x = rng.uniform(t["lo"], t["hi"], size=t["shape"]).astype(dt)
            if t["ties"]:
                flat = x.reshape(-1)
                k = np.floor(flat[::2] / t["ties"])
                flat[::2] = ((k + 0.5) * t["ties"]).astype(dt)
            out.append(x)
        else:
            info = np.iinfo(dt)
            lo = info.min if t["lo"] is None else t["lo"]
            hi = info.max if t["hi"] is None else t["hi"]
            out.append(rng.randint(lo, hi + 1, size=t["shape"], dtype=np.int64).astype(dt))
    return out


def params(name: str) -> List[np.ndarray]:
    return [np.asarray(p["value"], dtype=p["dtype"]) for p in CASES[name]["params"]]


# A quantized program as TVM 0.19 prints it (``mod.astext()`` of quantize ->
# conv2d -> per-channel requantize -> add -> mul -> dequantize); its inputs
# are ``program_inputs()``.
PROGRAM_TEXT = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3, 6, 6), float32], %w: Tensor[(4, 3, 3, 3), int8]) -> Tensor[(1, 4, 6, 6), float32] {
  %0 = qnn.quantize(%x, 0.05f, 3, out_dtype="int8");
  %1 = qnn.conv2d(%0, %w, 3, 0, 0.05f, 0.02f, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3], out_dtype="int32");
  %2 = qnn.requantize(%1, 0.001f, 0, 2f, -2, axis=1, out_dtype="int8");
  %3 = qnn.add(%2, %2, 2f, -2, 2f, -2, 4f, 0);
  %4 = qnn.mul(%3, %3, 4f, 0, 4f, 0, 500f, 1);
  qnn.dequantize(%4, 500f, 1, out_dtype="float32")
}
"""


def program_inputs() -> List[np.ndarray]:
    rng = np.random.RandomState(33)
    return [rng.uniform(-6, 6, size=(1, 3, 6, 6)).astype("float32"),
            rng.randint(-128, 128, size=(4, 3, 3, 3)).astype("int8")]
