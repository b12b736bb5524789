"""nn.conv2d by Winograd F(4x4, 3x3) and F(2x2, 3x3) (ConvWinograd.cpp) on llvm-cpu.

Every 3x3, stride-1 float32 convolution with a constant weight, a static
size, >= 32 channels in and out, at least kWinogradMinMacs (32 M) multiply-
adds and transforms within 128 MB is lowered by Winograd's algorithm
(Conv2DWinograd in Conv.cpp picks the tile; transforms beyond 16 MB are
computed in chunks of images or tile-row bands); the smaller cases here ask
for it (``relay.conv_strategy``), the rule's choice is checked separately.
Each case is compiled twice in one module: with its weight a constant
(Winograd) and with the same weight passed as an argument (the direct or
im2col form, which Winograd never takes), and both are compared with an
independent float64 numpy reference (a sum over the 9 kernel offsets of
strided windows). On a CPU with AVX-512 the products run on our GEMM kernel
(relay-vnni-matmul's batch form: test_f32_kernels.py).

Stated bounds, max |error| / max |reference|: the direct form 2e-6; F(2x2)
(transform entries 0, +-1, +-1/2) 2e-6; F(4x4) (entries up to 8 and
fractions of 24) 3e-5. Measured on these cases (2026-12-06): direct
<= 1.2e-6, F(2x2) 5.7e-7, F(4x4) 2.9e-6 to 5.1e-6 (5-10x the direct form's).
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import relay_mlir as relay

from _nn_common import WINOGRAD_MIN_MACS, asking_conv_strategy, call_in_nchw, conv3x3_macs

rng = np.random.default_rng(26)

# name -> (N, C, H, W, O, padding (top, left, bottom, right), layout, F(m) expected)
CASES = {
    "f4_14x14": (1, 32, 14, 14, 48, (1, 1, 1, 1), "NCHW", 4),
    "f4_odd_asymmetric_pad_batch2": (2, 32, 13, 11, 32, (2, 1, 0, 3), "NCHW", 4),
    "f4_valid_9x9": (1, 64, 9, 9, 64, (0, 0, 0, 0), "NCHW", 4),
    "f2_few_tiles_7x7x128": (1, 128, 7, 7, 128, (1, 1, 1, 1), "NCHW", 2),
    "f4_nhwc": (1, 40, 6, 5, 32, (1, 1, 1, 1), "NHWC", 4),
    "f4_bias_relu_28x28": (1, 32, 28, 28, 32, (1, 1, 1, 1), "NCHW", 4),
    # transforms beyond 16 MB: in chunks (kWinogradChunkBytes)
    "f4_bands_169x170": (1, 32, 169, 170, 32, (2, 1, 0, 1), "NCHW", 4),
    "f4_images_batch11": (11, 32, 56, 56, 32, (1, 1, 1, 1), "NHWC", 4),
}
# the chunks of the cases computed in chunks, all of one shape: 5 bands of 9 tile rows (the
# image extended to 45 rows of tiles, its output cropped to 169 rows); 11 chunks of one image
# (2 images fit, but chunks hold a divisor of the batch)
CHUNKS = {"f4_bands_169x170": 5, "f4_images_batch11": 11}
BOUND = {2: 2e-6, 4: 3e-5}
MIN_MACS = WINOGRAD_MIN_MACS


def macs(name):
    return conv3x3_macs(CASES[name])
DIRECT_BOUND = 2e-6


def np_conv3x3(x, w, pad):
    """x [N, C, H, W], w [O, C, 3, 3] in float64."""
    top, left, bottom, right = pad
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0), (top, bottom), (left, right)])
    oh, ow = xp.shape[2] - 2, xp.shape[3] - 2
    out = np.zeros((x.shape[0], w.shape[0], oh, ow))
    for i in range(3):
        for j in range(3):
            out += np.einsum("nchw,oc->nohw", xp[:, :, i:i + oh, j:j + ow], w[:, :, i, j].astype(np.float64))
    return out


def build(name, weight_as_argument):
    n, c, h, w_, o, pad, layout, _ = CASES[name]
    nhwc = layout == "NHWC"
    x = relay.var("x", shape=(n, h, w_, c) if nhwc else (n, c, h, w_))
    wshape = (3, 3, c, o) if nhwc else (o, c, 3, 3)
    wt = relay.var("w", shape=wshape) if weight_as_argument else relay.const(WEIGHTS[name].astype(np.float32)
                                                                             if not nhwc else
                                                                             WEIGHTS[name].transpose(2, 3, 1, 0).copy())
    y = relay.nn.conv2d(x, wt, padding=pad, data_layout=layout, kernel_layout="HWIO" if nhwc else "OIHW")
    if "bias_relu" in name:
        y = relay.nn.relu(relay.nn.bias_add(y, relay.const(BIASES[name])))
    return relay.Function([x, wt] if weight_as_argument else [x], y)


WEIGHTS = {k: (rng.standard_normal((o, c, 3, 3)) / np.sqrt(9 * c)).astype(np.float32)
           for k, (n, c, h, w, o, pad, layout, m) in CASES.items()}
BIASES = {k: rng.standard_normal(CASES[k][4]).astype(np.float32) for k in CASES}
INPUTS = {k: rng.standard_normal((n, c, h, w)).astype(np.float32)
          for k, (n, c, h, w, o, pad, layout, m) in CASES.items()}


def _fn(name, direct):
    return ("direct_" if direct else "wino_") + name


@pytest.fixture(scope="module")
def module():
    return relay.IRModule({_fn(k, d): build(k, d) for k in CASES for d in (False, True)})


@pytest.fixture(scope="module")
def exe(module):
    return relay.compile(asking_conv_strategy(module, "winograd", [_fn(k, False) for k in CASES]),
                         target="llvm-cpu")


def reference(name):
    out = np_conv3x3(INPUTS[name], WEIGHTS[name], CASES[name][5])
    if "bias_relu" in name:
        out = np.maximum(out + BIASES[name][None, :, None, None], 0)
    return out


def run(exe, name, direct):
    x = INPUTS[name]
    nhwc = CASES[name][6] == "NHWC"
    return call_in_nchw(exe, _fn(name, direct), x, WEIGHTS[name] if direct else None, nhwc)


@pytest.mark.parametrize("name", list(CASES))
def test_winograd_matches_numpy_within_its_bound(exe, name):
    want = reference(name)
    scale = np.abs(want).max()
    wino, direct = run(exe, name, False), run(exe, name, True)
    assert wino.shape == want.shape and direct.shape == want.shape
    direct_err = np.abs(direct - want).max() / scale
    wino_err = np.abs(wino - want).max() / scale
    assert direct_err <= DIRECT_BOUND, direct_err
    assert wino_err <= BOUND[CASES[name][7]], (wino_err, direct_err)


def test_each_case_takes_the_tile_its_rule_gives():
    """The constant-weight functions are lowered by Winograd with the expected tile (their
    products are a batch_matmul of n*n = 36 or 16 matrices, one per chunk) when they ask for
    it, and by the rule alone from kWinogradMinMacs on; the argument-weight ones never."""
    from relay_mlir.compiler import lower_to_iree_input
    assert {macs(k) >= MIN_MACS for k in CASES} == {True, False}
    for name, case in CASES.items():
        m = case[-1]
        for direct in (False, True):
            fn = build(name, direct)
            for asked in (False, True) if not direct else (False,):
                mod = relay.IRModule.from_expr(fn)
                text = lower_to_iree_input(asking_conv_strategy(mod, "winograd", ["main"]) if asked else mod)
                batches = re.findall(r"linalg\.batch_matmul ins\(%\S+, %\S+ : tensor<(\d+)x", text)
                winograd = not direct and (asked or macs(name) >= MIN_MACS)
                want = [str((m + 2) ** 2)] * CHUNKS.get(name, 1) if winograd else []
                assert batches == want, (name, direct, asked, batches)
