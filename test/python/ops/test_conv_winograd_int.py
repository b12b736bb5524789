"""Integer nn.conv2d (int8 x int8 -> int32, quantized models) by Winograd F(2x2, 3x3)
(ConvWinograd.cpp, Conv2DWinograd in Conv.cpp) on llvm-cpu: exact.

The filter is transformed as (2G) g (2G)^T in int16, the input tiles in int16, the products
and the output transform in int32, and the result (4x the convolution) shifted right by 2.
Every step after the int16 operands is a ring operation mod 2^32, so the result is exact
whenever 4x it fits in int32, which the pattern checks from the weights (128 * sum |w| per
output channel). Each case is compiled twice in one module, with its weight a constant
(Winograd: asked for with ``relay.conv_strategy`` where it is smaller than the rule's
kWinogradMinMacs) and as an argument (the im2col form), and both must equal an int64 numpy
convolution bit for bit.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import relay_mlir as relay

from _nn_common import WINOGRAD_MIN_MACS, asking_conv_strategy, call_in_nchw, conv3x3_macs
from relay_mlir.compiler import lower_to_iree_input

rng = np.random.default_rng(27)

# name -> (N, C, H, W, O, padding (top, left, bottom, right), layout, Winograd can compute it)
CASES = {
    "random_14x14": (1, 32, 14, 14, 48, (1, 1, 1, 1), "NHWC", True),
    "odd_asymmetric_pad_batch2": (2, 32, 13, 11, 32, (2, 1, 0, 3), "NCHW", True),
    "extremes_7x7x64": (1, 64, 7, 7, 32, (1, 1, 1, 1), "NHWC", True),
    # transforms beyond 16 MB: computed in chunks of tile-row bands
    "chunked_112x112": (1, 64, 112, 112, 64, (1, 1, 1, 1), "NHWC", True),
    # 4 * 128 * sum|w| >= 2^31 for an output channel: the im2col form
    "too_large_for_int32": (1, 3700, 4, 4, 32, (1, 1, 1, 1), "NHWC", False),
    # fewer than kWinogradMinChannels: the im2col form
    "few_channels": (1, 16, 10, 10, 16, (1, 1, 1, 1), "NHWC", False),
}


def _weights(name):
    n, c, h, w, o, pad, layout, _ = CASES[name]
    if name == "extremes_7x7x64":  # products of -128 * -128 and 127 * -128, all of one sign
        return np.full((o, c, 3, 3), -128, np.int8)
    if name == "too_large_for_int32":
        return np.full((o, c, 3, 3), 127, np.int8)
    return rng.integers(-128, 128, (o, c, 3, 3), dtype=np.int8)


def _inputs(name):
    n, c, h, w, o, pad, layout, _ = CASES[name]
    if name == "extremes_7x7x64":
        return np.full((n, c, h, w), -128, np.int8)
    return rng.integers(-128, 128, (n, c, h, w), dtype=np.int8)


MIN_MACS = WINOGRAD_MIN_MACS


def macs(name):
    return conv3x3_macs(CASES[name])


# the cases Winograd computes only when asked for
ASKED = [k for k in CASES if CASES[k][7] and macs(k) < MIN_MACS]
WEIGHTS = {k: _weights(k) for k in CASES}
INPUTS = {k: _inputs(k) for k in CASES}


def np_conv3x3(x, w, pad):
    """x [N, C, H, W], w [O, C, 3, 3] in int64."""
    top, left, bottom, right = pad
    xp = np.pad(x.astype(np.int64), [(0, 0), (0, 0), (top, bottom), (left, right)])
    oh, ow = xp.shape[2] - 2, xp.shape[3] - 2
    out = np.zeros((x.shape[0], w.shape[0], oh, ow), np.int64)
    for i in range(3):
        for j in range(3):
            out += np.einsum("nchw,oc->nohw", xp[:, :, i:i + oh, j:j + ow], w[:, :, i, j].astype(np.int64))
    return out


def build(name, weight_as_argument):
    n, c, h, w_, o, pad, layout, _ = CASES[name]
    nhwc = layout == "NHWC"
    x = relay.var("x", shape=(n, h, w_, c) if nhwc else (n, c, h, w_), dtype="int8")
    weight = WEIGHTS[name].transpose(2, 3, 1, 0).copy() if nhwc else WEIGHTS[name]
    wt = relay.var("w", shape=weight.shape, dtype="int8") if weight_as_argument else relay.const(weight)
    y = relay.nn.conv2d(x, wt, padding=pad, data_layout=layout, kernel_layout="HWIO" if nhwc else "OIHW",
                        out_dtype="int32")
    return relay.Function([x, wt] if weight_as_argument else [x], y)


def _fn(name, direct):
    return ("direct_" if direct else "wino_") + name


@pytest.fixture(scope="module")
def exe():
    # IREE's kernels only: with our AVX-512 VNNI kernel (relay_mlir.cpu_kernels) integer
    # convolutions take the patch matmul instead (test_vnni_matmul.py)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RELAY_MLIR_CPU_KERNELS", "none")
        module = relay.IRModule({_fn(k, d): build(k, d) for k in CASES for d in (False, True)})
        return relay.compile(asking_conv_strategy(module, "winograd", [_fn(k, False) for k in ASKED]))


def run(exe, name, direct):
    nhwc = CASES[name][6] == "NHWC"
    x = INPUTS[name]
    return call_in_nchw(exe, _fn(name, direct), x, WEIGHTS[name] if direct else None, nhwc)


@pytest.mark.parametrize("name", list(CASES))
def test_integer_winograd_is_exact(exe, name):
    want = np_conv3x3(INPUTS[name], WEIGHTS[name], CASES[name][5])
    assert np.abs(want).max() < 2 ** 31
    wino, direct = run(exe, name, False), run(exe, name, True)
    assert wino.dtype == np.int32 and wino.shape == want.shape
    np.testing.assert_array_equal(direct, want)
    np.testing.assert_array_equal(wino, want)


def test_extremes_reach_the_largest_products():
    """The all -128 case sums 9 * 64 products of 16384: 4x that needs 24 of int32's bits."""
    want = np_conv3x3(INPUTS["extremes_7x7x64"], WEIGHTS["extremes_7x7x64"], (1, 1, 1, 1))
    assert want.max() == 9 * 64 * 128 * 128


@pytest.mark.parametrize("name", list(CASES))
def test_which_convolutions_take_winograd(name):
    """Winograd's products are a batch_matmul of 16 int16 matrices (one per chunk), by the
    rule from kWinogradMinMacs on and when asked for below it; the argument-weight form and
    the refused cases have none."""
    assert ASKED and any(CASES[k][7] and k not in ASKED for k in CASES)
    for direct in (False, True):
        for asked in (False, True) if name in ASKED and not direct else (False,):
            mod = relay.IRModule.from_expr(build(name, direct))
            text = lower_to_iree_input(asking_conv_strategy(mod, "winograd", ["main"]) if asked else mod)
            batches = re.findall(r"linalg\.batch_matmul ins\(%\S+, %\S+ : tensor<16x\d+x\d+xi16>", text)
            if direct or not CASES[name][7] or (name in ASKED and not asked):
                assert batches == [], (name, direct, asked)
            else:
                assert len(batches) >= 1 + (name == "chunked_112x112"), (name, len(batches))
