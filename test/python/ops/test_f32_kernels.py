"""relay-vnni-matmul's f32 kernels (``float32``: f32 matmuls, convolutions and depthwise
convolutions with constant weights on ``vfmadd``, the activations read where they are;
test/lit/transforms/f32-kernels.mlir checks their IR) against numpy in float64: dense layers
whose sizes divide none of the GEMM's tiles (rows % 6, columns % 16 and % 64), B read as
[N, K] and as [K, N], batch matmuls with constant weights (Winograd's products) or of two
activations (B read in place), softmax along the last axis, convolutions with strides, dilation, odd channel counts, asymmetric
and non-zero padding, depthwise convolutions (strides, dilation, channels not in 16s, kernel
rows of 1-5 taps, asymmetric padding), NCHW models (their layout converted), epilogues
(bias, relu, relu6, a residual add), and the same programs with IREE's kernels
(``RELAY_MLIR_CPU_KERNELS=none``).

Tolerance: the float32 dot-product bound |fl(x.y) - x.y| <= k u sum |x_i y_i| (u = 2^-24,
times 2 for the bias and epilogue roundings), elementwise. The tests with the kernel on
are skipped on a host without AVX-512 F (``cpu_kernels.for_target``)."""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir import cpu_kernels
from relay_mlir.testing import numpy_ref as ref

from _cpu_kernel_shapes import DEPTHWISE as _SHAPES

needs_avx512 = pytest.mark.skipif(cpu_kernels.for_target("llvm-cpu") == "none",
                                  reason="the host CPU has no AVX-512 F: relay.compile does not "
                                         "use the kernel there")
KERNELS = [pytest.param("avx512", marks=needs_avx512), "none"]

R = np.random.default_rng(30)
U = 2.0 ** -24


def _f32(shape):
    return R.standard_normal(shape).astype(np.float32)


def _compile(fn, monkeypatch, kernels):
    monkeypatch.setenv("RELAY_MLIR_CPU_KERNELS", kernels)
    return relay.compile(relay.IRModule.from_expr(fn), target="llvm-cpu")


def _assert_within_bound(got, want, magnitude, k):
    """|got - want| <= 2 k u magnitude (+ a few ulps of want) elementwise."""
    bound = 2 * (k + 2) * U * magnitude + 4 * U * np.abs(want)
    err = np.abs(got.astype(np.float64) - want)
    assert np.all(err <= bound), f"max error {err.max():.3g}, max excess {(err - bound).max():.3g}"


# (m, k, n): one tile exactly, every tail at once, several workgroups, a GEMV, k = 1
DENSE = [(6, 8, 64), (7, 10, 20), (50, 129, 70), (1, 300, 1000), (200, 64, 33), (5, 1, 17)]


@pytest.mark.parametrize("m,k,n", DENSE, ids=[f"{m}x{k}x{n}" for m, k, n in DENSE])
@pytest.mark.parametrize("kernels", KERNELS)
def test_dense_bias_relu(kernels, m, k, n, monkeypatch):
    x = relay.var("x", shape=(m, k))
    w, bias = _f32((n, k)), _f32((n,))
    y = relay.nn.relu(relay.nn.bias_add(relay.nn.dense(x, relay.const(w)), relay.const(bias)))
    exe = _compile(relay.Function([x], y), monkeypatch, kernels)
    assert (f"relay_f32_gemm_{m}x{n}x{k}" in exe.iree_input) == (kernels != "none")
    if kernels != "none":
        # the bias and relu are the kernel's epilogue: one dispatch, nothing after it
        assert exe.iree_input.count('"flow.dispatch"') == 1
    a = _f32((m, k))
    want = np.maximum(a.astype(np.float64) @ w.T.astype(np.float64) + bias, 0)
    _assert_within_bound(exe(a), want, np.abs(a) @ np.abs(w.T) + np.abs(bias), k)


@pytest.mark.parametrize("kernels", KERNELS)
def test_matmul_weights_k_by_n_and_residual(kernels, monkeypatch):
    """nn.matmul with a [K, N] weight, then a residual add of a whole tensor (an epilogue
    operand read per result)."""
    m, k, n = 23, 45, 37
    x, skip = relay.var("x", shape=(m, k)), relay.var("s", shape=(m, n))
    w = _f32((k, n))
    exe = _compile(relay.Function([x, skip], relay.add(relay.nn.matmul(x, relay.const(w)), skip)),
                   monkeypatch, kernels)
    assert ("relay_f32_gemm_" in exe.iree_input) == (kernels != "none")
    a, s = _f32((m, k)), _f32((m, n))
    want = a.astype(np.float64) @ w.astype(np.float64) + s
    _assert_within_bound(exe(a, s), want, np.abs(a) @ np.abs(w) + np.abs(s), k)


# (batch, m, k, n, transpose_b): every tail at once, B read as [batch, N, K], a batch of one,
# Winograd F(4x4)'s 36 matrices
BATCHES = [(3, 7, 10, 20, False), (5, 13, 33, 70, True), (1, 6, 16, 64, True), (36, 16, 40, 24, False)]


@pytest.mark.parametrize("batch,m,k,n,tb", BATCHES, ids=[f"{b}x{m}x{k}x{n}{'_tb' if t else ''}"
                                                        for b, m, k, n, t in BATCHES])
@pytest.mark.parametrize("kernels", KERNELS)
def test_batch_matmul_constant_weights(kernels, batch, m, k, n, tb, monkeypatch):
    """nn.batch_matmul with a constant B: one dispatch of the GEMM over the matrices (the
    grid's z), each packed in turn, a bias over the columns and relu in its epilogue."""
    x = relay.var("x", shape=(batch, m, k))
    w, bias = _f32((batch, n, k) if tb else (batch, k, n)), _f32((n,))
    y = relay.nn.relu(relay.add(relay.nn.batch_matmul(x, relay.const(w), transpose_b=tb),
                                relay.const(bias)))
    exe = _compile(relay.Function([x], y), monkeypatch, kernels)
    name = f"relay_f32_batch_gemm_{batch}x{m}x{n}x{k}" if batch > 1 else f"relay_f32_gemm_{m}x{n}x{k}"
    assert (name in exe.iree_input) == (kernels != "none")
    if kernels != "none":
        assert exe.iree_input.count('"flow.dispatch"') == 1
    a = _f32((batch, m, k))
    wkn = (w.transpose(0, 2, 1) if tb else w).astype(np.float64)
    want = np.maximum(a.astype(np.float64) @ wkn + bias, 0)
    _assert_within_bound(exe(a), want, np.abs(a) @ np.abs(wkn) + np.abs(bias), k)


# (batch, m, k, n): B an activation read in place (N in 16s), or left to IREE (N = 40)
ACTIVATION_B = [(3, 7, 10, 64, True), (2, 197, 197, 64, True), (4, 5, 9, 16, True), (2, 6, 8, 40, False)]


@pytest.mark.parametrize("batch,m,k,n,taken", ACTIVATION_B,
                         ids=[f"{b}x{m}x{k}x{n}" for b, m, k, n, _ in ACTIVATION_B])
@pytest.mark.parametrize("kernels", KERNELS)
def test_batch_matmul_of_activations(kernels, batch, m, k, n, taken, monkeypatch):
    """nn.batch_matmul of two activations (attention's P.V): B read where it is, [batch, K,
    N] row-major, when N comes in 16s; no pack dispatch before it."""
    x, y = relay.var("x", shape=(batch, m, k)), relay.var("y", shape=(batch, k, n))
    exe = _compile(relay.Function([x, y], relay.nn.batch_matmul(x, y, transpose_b=False)),
                   monkeypatch, kernels)
    name = f"relay_f32_batch_gemm_{batch}x{m}x{n}x{k}_b_e"
    assert (name in exe.iree_input) == (kernels != "none" and taken)
    a, b = _f32((batch, m, k)), _f32((batch, k, n))
    want = a.astype(np.float64) @ b.astype(np.float64)
    _assert_within_bound(exe(a, b), want, np.abs(a).astype(np.float64) @ np.abs(b), k)


# softmax shapes: rows of whole zmm's, of a tail only, of both; ranks 2-4; fewer rows than
# the grid's 16 blocks
SOFTMAX = [(591, 197), (4, 16), (3, 5), (2, 3, 50), (1, 2, 3, 33)]


@pytest.mark.parametrize("shape", SOFTMAX, ids=["x".join(map(str, s)) for s in SOFTMAX])
@pytest.mark.parametrize("kernels", KERNELS)
def test_softmax_last_axis(kernels, shape, monkeypatch):
    """nn.softmax along the last axis: one dispatch of the softmax kernel; a row holding
    -inf (a masked attention score) gives 0 there. Float32 exp and sum: within 2e-6 of
    the float64 result, relatively, plus 1e-7 absolutely."""
    x = relay.var("x", shape=shape)
    exe = _compile(relay.Function([x], relay.nn.softmax(x)), monkeypatch, kernels)
    rows, n = int(np.prod(shape[:-1])), shape[-1]
    assert (f"relay_f32_softmax_{rows}x{n}" in exe.iree_input) == (kernels != "none")
    a = 4 * _f32(shape)
    a.reshape(-1, n)[0, n // 2] = -np.inf
    e = np.exp(a.astype(np.float64) - a.max(-1, keepdims=True))
    want = e / e.sum(-1, keepdims=True)
    got = exe(a)
    assert got.reshape(-1, n)[0, n // 2] == 0
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-7)


@needs_avx512
def test_softmax_other_axis_is_left_to_iree(monkeypatch):
    x = relay.var("x", shape=(4, 33))
    exe = _compile(relay.Function([x], relay.nn.softmax(x, axis=0)), monkeypatch, "avx512")
    assert "relay_f32_softmax" not in exe.iree_input
    a = _f32((4, 33))
    e = np.exp(a.astype(np.float64) - a.max(0))
    np.testing.assert_allclose(exe(a), e / e.sum(0), rtol=2e-6, atol=1e-7)


# (name, NHWC input, HWIO kernel, strides, padding, dilation)
CONVS = [
    ("3x3_s2", (1, 17, 15, 12), (3, 3, 12, 40), (2, 2), (1, 1), (1, 1)),
    ("8x8_s4_4ch", (1, 84, 84, 4), (8, 8, 4, 32), (4, 4), (0, 0), (1, 1)),
    ("5x3_dilated", (1, 20, 19, 8), (5, 3, 8, 20), (1, 2), (2, 1), (2, 3)),
    ("7x7_s2_3ch", (1, 30, 30, 3), (7, 7, 3, 16), (2, 2), (3, 3), (1, 1)),
    ("3x3_5ch_batch2", (2, 12, 11, 5), (3, 3, 5, 18), (1, 1), (2, 2), (1, 1)),
    ("1x1_pixels", (1, 9, 9, 24), (1, 1, 24, 36), (1, 1), (0, 0), (1, 1)),
    ("3x2_asym_pad", (1, 11, 13, 16), (3, 2, 16, 24), (2, 1), (0, 1, 2, 3), (1, 1)),
    ("1x1_s2_trimmed", (1, 11, 12, 16), (1, 1, 16, 24), (2, 2), (0, 0), (1, 1)),
]


@pytest.mark.parametrize("name,xs,ws,strides,padding,dilation", CONVS, ids=[c[0] for c in CONVS])
@pytest.mark.parametrize("kernels", KERNELS)
def test_conv2d_nhwc(kernels, name, xs, ws, strides, padding, dilation, monkeypatch):
    x = relay.var("x", shape=xs)
    w, bias = _f32(ws), _f32((ws[3],))
    y = relay.nn.conv2d(x, relay.const(w), strides=strides, padding=padding, dilation=dilation,
                        data_layout="NHWC", kernel_layout="HWIO")
    exe = _compile(relay.Function([x], relay.nn.relu(relay.add(y, relay.const(bias)))),
                   monkeypatch, kernels)
    if kernels == "none":
        assert "relay_f32_" not in exe.iree_input
    a = _f32(xs)
    conv = ref.conv2d(a.astype(np.float64), w.astype(np.float64), strides=strides,
                      padding=padding, dilation=dilation, data_layout="NHWC",
                      kernel_layout="HWIO")
    mag = ref.conv2d(np.abs(a).astype(np.float64), np.abs(w).astype(np.float64), strides=strides,
                     padding=padding, dilation=dilation, data_layout="NHWC",
                     kernel_layout="HWIO")
    k = ws[0] * ws[1] * ws[2]
    _assert_within_bound(exe(a), np.maximum(conv + bias, 0), mag + np.abs(bias), k)


# the 8-bit kernel's shapes and a 5x5 window (the f32 kernel takes any kernel width)
DEPTHWISE = _SHAPES + [("5x5_s1_20ch", (1, 12, 12, 20), (5, 5), (1, 1), (2, 2), (1, 1))]


@pytest.mark.parametrize("name,xs,k,strides,padding,dilation", DEPTHWISE, ids=[c[0] for c in DEPTHWISE])
@pytest.mark.parametrize("kernels", KERNELS)
def test_depthwise_conv2d(kernels, name, xs, k, strides, padding, dilation, monkeypatch):
    """Depthwise NHWC convolutions with bias + relu6: our depthwise kernel
    (``relay_f32_dwconv_*``, its zero padding put in by the kernel) or IREE's."""
    c = xs[3]
    x = relay.var("x", shape=xs)
    w, bias = _f32((k[0], k[1], c, 1)), _f32((c,))
    y = relay.nn.conv2d(x, relay.const(w), strides=strides, padding=padding, dilation=dilation,
                        groups=c, channels=c, kernel_size=k, data_layout="NHWC",
                        kernel_layout="HWOI")
    exe = _compile(relay.Function([x], relay.clip(relay.add(y, relay.const(bias)), 0.0, 6.0)),
                   monkeypatch, kernels)
    assert ("relay_f32_dwconv_" in exe.iree_input) == (kernels != "none"), name
    if kernels != "none":
        assert "tensor.pad" not in exe.iree_input, name
    a = _f32(xs)
    pads = padding if len(padding) == 4 else (padding[0], padding[1]) * 2
    padded = np.pad(a.astype(np.float64),
                    ((0, 0), (pads[0], pads[2]), (pads[1], pads[3]), (0, 0)))
    oh = (padded.shape[1] - (k[0] - 1) * dilation[0] - 1) // strides[0] + 1
    ow = (padded.shape[2] - (k[1] - 1) * dilation[1] - 1) // strides[1] + 1
    conv, mag = np.zeros((xs[0], oh, ow, c)), np.zeros((xs[0], oh, ow, c))
    for i in range(k[0]):
        for j in range(k[1]):
            y0, x0 = i * dilation[0], j * dilation[1]
            window = padded[:, y0:y0 + (oh - 1) * strides[0] + 1:strides[0],
                            x0:x0 + (ow - 1) * strides[1] + 1:strides[1], :]
            conv += window * w[i, j, :, 0]
            mag += np.abs(window * w[i, j, :, 0])
    _assert_within_bound(exe(a), np.clip(conv + bias, 0, 6), mag + np.abs(bias), k[0] * k[1])


@needs_avx512
def test_convolution_kinds_take_the_kernel(monkeypatch):
    """A direct convolution is the kernel's implicit im2col (its zero padding put in by the
    kernel: no tensor.pad left), a 1x1 one a GEMM over the pixels; an input of 3 channels
    keeps its padding a copy (the kernel's per-tap selects would not pay there)."""
    x = relay.var("x", shape=(1, 9, 9, 16))
    y = relay.nn.conv2d(x, relay.const(_f32((3, 3, 16, 16))), padding=(1, 1),
                        data_layout="NHWC", kernel_layout="HWIO")
    z = relay.nn.conv2d(y, relay.const(_f32((1, 1, 16, 8))), data_layout="NHWC",
                        kernel_layout="HWIO")
    exe = _compile(relay.Function([x], z), monkeypatch, "avx512")
    assert "relay_f32_gemm_81x8x16" in exe.iree_input
    assert "relay_f32_conv_1x9x9x16_3x3_s1x1_d1x1_16_p1x1v0_" in exe.iree_input
    assert "tensor.pad" not in exe.iree_input
    x = relay.var("x", shape=(1, 9, 9, 3))
    y = relay.nn.conv2d(x, relay.const(_f32((3, 3, 3, 16))), padding=(1, 1),
                        data_layout="NHWC", kernel_layout="HWIO")
    exe = _compile(relay.Function([x], y), monkeypatch, "avx512")
    assert "relay_f32_conv_1x11x11x3_3x3_s1x1_d1x1_16_e" in exe.iree_input
    assert "tensor.pad" in exe.iree_input


@pytest.mark.parametrize("kernels", KERNELS)
def test_nonzero_padding_value(kernels, monkeypatch):
    """nn.pad with 1.5 before a convolution: the kernel reads only zero paddings in place,
    this one is materialized first."""
    x = relay.var("x", shape=(1, 7, 6, 8))
    p = relay.nn.pad(x, ((0, 0), (1, 2), (2, 1), (0, 0)), pad_value=1.5)
    w = _f32((3, 3, 8, 12))
    y = relay.nn.conv2d(p, relay.const(w), data_layout="NHWC", kernel_layout="HWIO")
    exe = _compile(relay.Function([x], y), monkeypatch, kernels)
    a = _f32((1, 7, 6, 8))
    padded = np.pad(a, ((0, 0), (1, 2), (2, 1), (0, 0)), constant_values=1.5).astype(np.float64)
    want = ref.conv2d(padded, w.astype(np.float64), data_layout="NHWC", kernel_layout="HWIO")
    mag = ref.conv2d(np.abs(padded), np.abs(w).astype(np.float64), data_layout="NHWC",
                     kernel_layout="HWIO")
    _assert_within_bound(exe(a), want, mag, 72)


@pytest.mark.parametrize("kernels", KERNELS)
def test_nchw_model_with_pool_and_classifier(kernels, monkeypatch):
    """A small NCHW CNN as TVM users write it (layout converted to NHWC): conv + bias + relu,
    a depthwise conv, a 1x1 conv, global pooling and a dense classifier."""
    x = relay.var("x", shape=(1, 3, 16, 16))
    h = relay.nn.relu(relay.nn.bias_add(
        relay.nn.conv2d(x, relay.const(_f32((16, 3, 3, 3))), strides=(2, 2), padding=(1, 1)),
        relay.const(_f32((16,)))))
    h = relay.nn.conv2d(h, relay.const(_f32((16, 1, 3, 3))), padding=(1, 1), groups=16)
    h = relay.nn.relu(relay.nn.conv2d(h, relay.const(_f32((24, 16, 1, 1)))))
    h = relay.nn.batch_flatten(relay.nn.global_avg_pool2d(h))
    wd = _f32((10, 24))
    out = relay.nn.dense(h, relay.const(wd))
    fn = relay.Function([x], out)
    exe = _compile(fn, monkeypatch, kernels)
    a = _f32((1, 3, 16, 16))
    want = relay.create_executor("debug", mod=relay.IRModule.from_expr(fn)).evaluate()(a)
    np.testing.assert_allclose(exe(a), np.asarray(want), rtol=1e-4, atol=1e-4)


@needs_avx512
def test_avx512_set_leaves_int8_to_iree(monkeypatch):
    """``avx512`` (no VNNI) takes f32 contractions only: an int8 dense stays IREE's."""
    x = relay.var("x", shape=(8, 32), dtype="int8")
    w = R.integers(-128, 128, (16, 32), dtype=np.int8)
    exe = _compile(relay.Function([x], relay.nn.dense(x, relay.const(w), out_dtype="int32")),
                   monkeypatch, "avx512")
    assert "relay_vnni_" not in exe.iree_input and "relay_f32_" not in exe.iree_input
    a = R.integers(-128, 128, (8, 32), dtype=np.int8)
    np.testing.assert_array_equal(exe(a), a.astype(np.int64) @ w.astype(np.int64).T)
