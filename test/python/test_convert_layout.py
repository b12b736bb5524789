"""relay-convert-layout keeps the numbers: a small CNN compiled with and without it.

The network covers the rewrites of the pass: plain, strided, depthwise and
grouped conv2d, batch_norm, bias_add, relu/clip, a broadcast per-channel
constant, max/avg pooling, a residual add, a channel concatenate, a
keep-dims mean, global_avg_pool2d, dense and softmax.

Tolerance: the two compilations differ only in the order of float32
accumulations: atol 1e-5 / rtol 1e-4 on softmax probabilities and on the
pre-softmax features.
"""
from __future__ import annotations

import os
import re

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir import compiler
from relay_mlir import expr as E
from relay_mlir.op import nn

TOL = dict(rtol=1e-4, atol=1e-5)
NO_LAYOUT = "builtin.module(relay-to-iree-input{convert-layout=false})"
LAYOUT = "builtin.module(relay-to-iree-input{convert-layout=true})"


def _net():
    rng = np.random.default_rng(0)
    params = {}

    def weight(name, shape, scale=None):
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        s = scale if scale is not None else np.sqrt(2.0 / fan_in)
        params[name] = (rng.standard_normal(shape) * s).astype("float32")
        return E.var(name, shape=shape, dtype="float32")

    def bn(x, name, c):
        g = weight(f"{name}_g", (c,), 0.2)
        params[f"{name}_g"] += 1.0
        b = weight(f"{name}_b", (c,), 0.1)
        m = weight(f"{name}_m", (c,), 0.1)
        v = weight(f"{name}_v", (c,), 0.1)
        params[f"{name}_v"] = np.abs(params[f"{name}_v"]) + 0.5
        return nn.batch_norm(x, g, b, m, v)[0]

    data = E.var("data", shape=(1, 3, 16, 16), dtype="float32")
    x = nn.relu(bn(nn.conv2d(data, weight("w0", (8, 3, 3, 3)), padding=(1, 1)), "bn0", 8))
    x = nn.max_pool2d(x, pool_size=(3, 3), strides=(2, 2), padding=(1, 1))          # 8x8x8
    # depthwise 3x3 + clip (ReLU6), then a grouped 1x1
    d = nn.conv2d(x, weight("dw", (8, 1, 3, 3)), padding=(1, 1), groups=8, channels=8,
                  kernel_size=(3, 3))
    d = relay.clip(d, 0.0, 6.0)
    d = nn.conv2d(d, weight("gw", (8, 4, 1, 1)), groups=2)
    x = nn.relu(x + d)                                                              # residual
    # per-channel scale as a [C,1,1] constant
    scale = E.const((np.arange(8, dtype="float32").reshape(8, 1, 1) * 0.1 + 0.5))
    x = x * scale
    # two branches concatenated along channels
    a = nn.conv2d(x, weight("wa", (6, 8, 3, 3)), strides=(2, 2), padding=(1, 1))   # 6x4x4
    b = nn.conv2d(nn.avg_pool2d(x, pool_size=(2, 2), strides=(2, 2)), weight("wb", (4, 8, 1, 1)))
    b = nn.bias_add(b, weight("bb", (4,), 0.1))
    x = nn.relu(relay.concatenate([a, b], axis=1))                                  # 10x4x4
    x = x - relay.mean(x, axis=(2, 3), keepdims=True)
    feat = nn.batch_flatten(nn.global_avg_pool2d(x))
    out = nn.softmax(nn.bias_add(nn.dense(feat, weight("fc", (5, 10), 0.5)),
                                 weight("fcb", (5,), 0.1), axis=-1))
    from relay_mlir.module import free_vars
    body = E.Tuple([out, feat])
    fn = E.Function([data] + [v for v in free_vars(body) if v is not data], body)
    x_in = rng.standard_normal((1, 3, 16, 16)).astype("float32")
    return relay.IRModule.from_expr(fn), params, x_in


@pytest.fixture(scope="module")
def net():
    return _net()


def _compile(mod, params, pipeline):
    # IREE's kernels: test_lowered_layouts reads the lowering's linalg forms, which our CPU
    # kernels (relay_mlir.cpu_kernels) would replace by their dispatches
    old, kernels = compiler.PIPELINE, os.environ.get("RELAY_MLIR_CPU_KERNELS")
    compiler.PIPELINE = pipeline
    os.environ["RELAY_MLIR_CPU_KERNELS"] = "none"
    try:
        return relay.compile(mod, params=params)
    finally:
        compiler.PIPELINE = old
        if kernels is None:
            del os.environ["RELAY_MLIR_CPU_KERNELS"]
        else:
            os.environ["RELAY_MLIR_CPU_KERNELS"] = kernels


@pytest.fixture(scope="module")
def exes(net):
    mod, params, _ = net
    return _compile(mod, params, NO_LAYOUT), _compile(mod, params, LAYOUT)


def test_same_numbers(net, exes):
    _, _, x = net
    plain, converted = exes
    (p_out, p_feat), (c_out, c_feat) = plain(x), converted(x)
    assert p_out.shape == (1, 5) and p_feat.shape == (1, 10)
    np.testing.assert_allclose(c_feat, p_feat, **TOL)
    np.testing.assert_allclose(c_out, p_out, **TOL)
    np.testing.assert_allclose(c_out.sum(), 1.0, rtol=1e-5)


def test_lowered_layouts(exes):
    plain, converted = exes
    assert "conv_2d_nchw_fchw" in plain.iree_input
    assert "conv_2d_nhwc_hwcf" not in plain.iree_input
    text = converted.iree_input
    assert "conv_2d_nchw" not in text and "pooling_nchw" not in text
    # NHWC convolutions with these small kernels (<= 128 KB) lower as direct convolutions,
    # the dense as a matmul
    assert "conv_2d_nhwc_hwcf" in text and "depthwise_conv_2d_nhwc_hwc" in text
    assert "linalg.matmul" in text
    assert "pooling_nhwc_max" in text and "pooling_nhwc_sum" in text
    # the body runs without transposes: the only one of a run-time value
    # is the NCHW input's (others, like the grouped conv's weight
    # regrouping, transpose constants, which IREE evaluates at compile time)
    consts = set(re.findall(r"(%[\w.#]+) = arith\.constant", text))
    moved = re.findall(r"linalg\.transpose ins\((%[\w.#]+)", text)
    runtime = [v for v in moved if v not in consts]
    assert len(runtime) == 1 and runtime[0].startswith("%arg0"), moved


def test_default_pipeline_converts(net):
    mod, params, _ = net
    text = relay.lower_to_iree_input(mod, params=params)
    assert "linalg.matmul" in text and "conv_2d_nchw" not in text
