"""nn.conv2d computed by the strategy it asks for (``relay.conv_strategy``: direct, im2col,
winograd), against numpy: each strategy on shapes the cost rules give to another one (a
large map as im2col, 16 channels as Winograd, a Winograd-sized map direct), padded, strided
and dilated. How bench/strategies.py measures them; the lowering's IR is in
test/lit/conversion/conv-strategy.mlir. IREE's kernels compute them here
(``RELAY_MLIR_CPU_KERNELS=none``): our f32 GEMM would take the im2col and direct forms'
contractions (test_f32_kernels.py).

Tolerances: rtol 1e-4 / atol 1e-4 x the largest |result| (Winograd F(4x4) rounds up to
5e-6 of it, test_conv_winograd.py).
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.errors import CompileError
from relay_mlir.testing import numpy_ref as ref

R = np.random.default_rng(32)

# (name, NHWC input, HWIO kernel, strides, padding, dilation, strategies)
SHAPES = [
    ("3x3_56x56", (1, 58, 58, 16), (3, 3, 16, 8), (1, 1), (0, 0), (1, 1), ["im2col", "winograd", "direct"]),
    ("3x3_pad_16ch", (2, 14, 13, 16), (3, 3, 16, 16), (1, 1), (1, 1), (1, 1), ["winograd", "im2col", "direct"]),
    ("3x3_64ch", (1, 14, 14, 64), (3, 3, 64, 64), (1, 1), (1, 1), (1, 1), ["direct", "im2col", "winograd"]),
    ("5x5_stride2_dil", (1, 23, 21, 8), (5, 5, 8, 12), (2, 2), (2, 1), (2, 1), ["im2col", "direct"]),
    ("1x1_stride2", (1, 15, 15, 32), (1, 1, 32, 24), (2, 2), (0, 0), (1, 1), ["im2col", "direct"]),
]


def _source(x_shape, weight, strides, padding, dilation, strategy):
    x = relay.var("x", shape=x_shape)
    fn = relay.Function([x], relay.nn.conv2d(x, relay.const(weight), strides=strides, padding=padding,
                                             dilation=dilation, data_layout="NHWC", kernel_layout="HWIO"))
    text = relay.IRModule.from_expr(fn).to_mlir(infer=True).text()
    text, k = re.subn(r"(relay\.nn\.conv2d [^{]*\{)", rf'\1relay.conv_strategy = "{strategy}", ', text)
    assert k == 1
    return text


@pytest.mark.parametrize("name,x_shape,w_shape,strides,padding,dilation,strategies", SHAPES,
                         ids=[s[0] for s in SHAPES])
def test_asked_strategy_matches_numpy(name, x_shape, w_shape, strides, padding, dilation, strategies,
                                      monkeypatch):
    monkeypatch.setenv("RELAY_MLIR_CPU_KERNELS", "none")
    w = R.standard_normal(w_shape).astype(np.float32)
    x = R.standard_normal(x_shape).astype(np.float32)
    want = ref.conv2d(x, w, strides=strides, padding=padding, dilation=dilation,
                      data_layout="NHWC", kernel_layout="HWIO")
    for strategy in strategies:
        exe = relay.compile(_source(x_shape, w, strides, padding, dilation, strategy), target="llvm-cpu")
        form = {"winograd": "linalg.batch_matmul", "im2col": "linalg.matmul",
                "direct": "linalg.conv_2d_nhwc_hwcf"}[strategy]
        assert form in exe.iree_input, f"{strategy} not taken"
        got = np.asarray(exe(x))
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * float(np.abs(want).max()),
                                   err_msg=f"{name} as {strategy}")


def test_strategy_that_cannot_compute_is_a_located_error():
    w = R.standard_normal((3, 3, 32, 32)).astype(np.float32)
    with pytest.raises(CompileError, match='asks for relay.conv_strategy "winograd", which does not compute it'):
        relay.compile(_source((1, 15, 15, 32), w, (2, 2), (0, 0), (1, 1), "winograd"), target="llvm-cpu")
