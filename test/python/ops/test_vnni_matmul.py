"""relay-vnni-matmul: 8-bit contractions with constant weights computed by our AVX-512 VNNI
kernel (test/lit/transforms/vnni-matmul.mlir checks its IR), against numpy's exact int64
products: dense layers and the patch matmuls of int8 convolutions, sizes that divide none
of the kernel's tiles (rows % 6, columns % 16 and % 64, k % 4), extreme values (-128 x
-128 sums), and the same programs with the kernel off (``RELAY_MLIR_CPU_KERNELS=none``).
The elementwise ops after a contraction run in the kernel's epilogue: requantization to int8
with a residual add (whole-tensor operand), per-column scales and a float activation.
Integer results: equality, no tolerance; float epilogues against numpy within 1e-6 relative.
The tests with the kernel on are skipped on a host without AVX-512 VNNI (the kernel is not
used there: ``cpu_kernels.for_target``)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir import cpu_kernels
from relay_mlir.testing import numpy_ref as ref

from _cpu_kernel_shapes import DEPTHWISE

# the kernel runs only where the host has AVX-512 VNNI; the tests with it off run everywhere
needs_vnni = pytest.mark.skipif(cpu_kernels.for_target("llvm-cpu") != "avx512vnni",
                                reason="the host CPU has no AVX-512 VNNI: relay.compile does not "
                                       "use the kernel there")

R = np.random.default_rng(33)


def _int8(shape, extreme=False):
    if extreme:
        return np.full(shape, -128, np.int8)
    return R.integers(-128, 128, shape, dtype=np.int8)


def _compile(fn, monkeypatch=None, kernels=None):
    if kernels is not None:
        monkeypatch.setenv("RELAY_MLIR_CPU_KERNELS", kernels)
    return relay.compile(relay.IRModule.from_expr(fn), target="llvm-cpu")


# (m, k, n): one tile exactly, every tail at once, several workgroups of both kinds
DENSE = [(6, 8, 64), (7, 10, 20), (50, 129, 70), (1, 300, 1000), (200, 64, 33)]


@needs_vnni
@pytest.mark.parametrize("m,k,n", DENSE, ids=[f"{m}x{k}x{n}" for m, k, n in DENSE])
def test_dense_int8_matches_numpy(m, k, n):
    x = relay.var("x", shape=(m, k), dtype="int8")
    w = _int8((n, k))
    exe = _compile(relay.Function([x], relay.nn.dense(x, relay.const(w), out_dtype="int32")))
    assert f"relay_vnni_gemm_{m}x{n}x{k}" in exe.iree_input
    a = _int8((m, k))
    np.testing.assert_array_equal(exe(a), a.astype(np.int64) @ w.astype(np.int64).T)


@needs_vnni
@pytest.mark.parametrize("tb", [False, True], ids=["kn", "nk"])
def test_batch_matmul_int8_matches_numpy(tb):
    """A batch of int8 products with constant B: one dispatch, each matrix with its own
    correction row (-128 x its column sums), extreme values in one matrix."""
    batch, m, k, n = 4, 9, 21, 35
    x = relay.var("x", shape=(batch, m, k), dtype="int8")
    w = _int8((batch, n, k) if tb else (batch, k, n))
    w[2] = -128
    exe = _compile(relay.Function([x], relay.nn.batch_matmul(x, relay.const(w), out_dtype="int32",
                                                             transpose_b=tb)))
    assert f"relay_vnni_batch_gemm_{batch}x{m}x{n}x{k}" in exe.iree_input
    a = _int8((batch, m, k))
    a[2] = -128
    wkn = (w.transpose(0, 2, 1) if tb else w).astype(np.int64)
    np.testing.assert_array_equal(exe(a), a.astype(np.int64) @ wkn)


@needs_vnni
def test_extreme_values_sum_exactly():
    """-128 x -128 over k = 4096: 2^26 per output, the largest sums an i8 contraction of this
    depth makes (A + 128 is 0 here: the whole result is the column-sum correction)."""
    m, k, n = 13, 4096, 17
    x = relay.var("x", shape=(m, k), dtype="int8")
    w = _int8((n, k), extreme=True)
    exe = _compile(relay.Function([x], relay.nn.dense(x, relay.const(w), out_dtype="int32")))
    a = _int8((m, k), extreme=True)
    np.testing.assert_array_equal(exe(a), np.full((m, n), 128 * 128 * k, np.int64))
    a = np.full((m, k), 127, np.int8)
    np.testing.assert_array_equal(exe(a), a.astype(np.int64) @ w.astype(np.int64).T)


@needs_vnni
def test_two_shapes_in_one_program():
    """Two layers of different shapes: two executables (IREE links them into one, so their
    entry functions need distinct names)."""
    x = relay.var("x", shape=(9, 40), dtype="int8")
    w1, w2 = _int8((24, 40)), _int8((5, 24))
    h = relay.nn.dense(x, relay.const(w1), out_dtype="int32")
    h8 = relay.cast(relay.clip(relay.right_shift(h, relay.const(np.int32(8))), -128, 127), "int8")
    exe = _compile(relay.Function([x], relay.nn.dense(h8, relay.const(w2), out_dtype="int32")))
    assert exe.iree_input.count('"flow.dispatch"') == 2
    a = _int8((9, 40))
    hid = np.clip((a.astype(np.int64) @ w1.astype(np.int64).T) >> 8, -128, 127)
    np.testing.assert_array_equal(exe(a), hid @ w2.astype(np.int64).T)


# (name, NHWC input, HWIO kernel, strides, padding, dilation, our kernel's form)
CONVS = [
    ("3x3_s2", (1, 17, 15, 12), (3, 3, 12, 40), (2, 2), (1, 1), (1, 1), "conv"),
    ("3x3_s1_32ch_batch2", (2, 14, 13, 32), (3, 3, 32, 48), (1, 1), (1, 1), (1, 1), "conv"),
    ("5x3_dilated", (1, 20, 19, 8), (5, 3, 8, 20), (1, 2), (2, 1), (2, 3), "conv"),
    # channels not in groups of 4: padded to them (input and filter), read in place
    ("7x7_s2_3ch", (1, 30, 30, 3), (7, 7, 3, 16), (2, 2), (3, 3), (1, 1), "conv"),
    ("3x3_5ch_dilated_batch2", (2, 12, 11, 5), (3, 3, 5, 18), (1, 1), (2, 2), (2, 2), "conv"),
    ("1x1_pixels", (1, 9, 9, 24), (1, 1, 24, 36), (1, 1), (0, 0), (1, 1), "gemm"),
    # padding put in by the kernel: asymmetric, more at the end than the windows reach
    ("3x2_asym_pad", (1, 11, 13, 16), (3, 2, 16, 24), (2, 1), (0, 1, 2, 3), (1, 1), "conv"),
    ("3x3_no_pad", (1, 10, 9, 8), (3, 3, 8, 17), (1, 1), (0, 0), (1, 1), "conv"),
    # a column no window reaches: the whole input read in place (not a trimmed copy)
    ("1x1_s2_trimmed", (1, 11, 12, 16), (1, 1, 16, 24), (2, 2), (0, 0), (1, 1), "conv_1x11x12x16"),
]


@pytest.mark.parametrize("name,xs,ws,strides,padding,dilation,form", CONVS, ids=[c[0] for c in CONVS])
@pytest.mark.parametrize("kernels", [pytest.param("avx512vnni", marks=needs_vnni), "none"])
def test_conv2d_int8(kernels, name, xs, ws, strides, padding, dilation, form, monkeypatch):
    """int8 NHWC convolutions with an int32 bias-like add after them, with and without the
    kernel: windows read in place (``relay_vnni_conv_*``, channels padded to groups of 4) or,
    for a 1x1 kernel, the pixels as matrix rows (``relay_vnni_gemm_*``)."""
    x = relay.var("x", shape=xs, dtype="int8")
    w = _int8(ws)
    y = relay.nn.conv2d(x, relay.const(w), strides=strides, padding=padding, dilation=dilation,
                        data_layout="NHWC", kernel_layout="HWIO", out_dtype="int32")
    bias = R.integers(-1000, 1000, (ws[3],), dtype=np.int32)
    exe = _compile(relay.Function([x], relay.add(y, relay.const(bias))), monkeypatch, kernels)
    if kernels == "avx512vnni":
        assert f"relay_vnni_{form}_" in exe.iree_input, name
        # the kernel pads the input itself unless the channels need padding too
        pads_itself = form.startswith("conv") and any(padding) and xs[3] % 4 == 0
        assert bool(re.search(r"relay_vnni_conv_\w+_p\d+x\d+v0_", exe.iree_input)) == pads_itself, name
        assert ("tensor.pad" in exe.iree_input) == (any(padding) and not pads_itself), name
    else:
        assert "flow.dispatch" not in exe.iree_input
    a = _int8(xs)
    want = ref.conv2d(a.astype(np.int64), w.astype(np.int64), strides=strides, padding=padding,
                      dilation=dilation, data_layout="NHWC", kernel_layout="HWIO") + bias
    np.testing.assert_array_equal(exe(a), want)


@pytest.mark.parametrize("name,xs,k,strides,padding,dilation", DEPTHWISE, ids=[c[0] for c in DEPTHWISE])
@pytest.mark.parametrize("kernels", [pytest.param("avx512vnni", marks=needs_vnni), "none"])
def test_depthwise_conv2d_int8(kernels, name, xs, k, strides, padding, dilation, monkeypatch):
    """int8 NHWC depthwise convolutions (groups = C, HWOI weights [kh, kw, C, 1]) with an int32
    bias after them, with and without the kernel (``relay_vnni_dwconv_*``), exactly as numpy;
    extreme values (-128 x -128 in every tap) once more."""
    c = xs[3]
    x = relay.var("x", shape=xs, dtype="int8")
    w = _int8((k[0], k[1], c, 1))
    y = relay.nn.conv2d(x, relay.const(w), strides=strides, padding=padding, dilation=dilation,
                        groups=c, channels=c, kernel_size=k, data_layout="NHWC",
                        kernel_layout="HWOI", out_dtype="int32")
    bias = R.integers(-1000, 1000, (c,), dtype=np.int32)
    exe = _compile(relay.Function([x], relay.add(y, relay.const(bias))), monkeypatch, kernels)
    if kernels == "avx512vnni":
        assert f"relay_vnni_dwconv_{xs[0]}x{xs[1]}x{xs[2]}x{xs[3]}_" in exe.iree_input, name
    else:
        assert "flow.dispatch" not in exe.iree_input
    for a in (_int8(xs), _int8(xs, extreme=True)):
        want = ref.conv2d(a.astype(np.int64), w.astype(np.int64), strides=strides,
                          padding=padding, dilation=dilation, groups=c, data_layout="NHWC",
                          kernel_layout="HWOI") + bias
        np.testing.assert_array_equal(exe(a), want)


@pytest.mark.parametrize("kernels", [pytest.param("avx512vnni", marks=needs_vnni), "none"])
def test_conv_padded_with_zero_point(kernels, monkeypatch):
    """nn.pad with the input zero point (-37), then a convolution without padding of its own
    (the quantized importers' form): the kernel reads the unpadded input and puts -37 in the
    padding itself, no pad materialized; stride 2, one more padding row and column at the end
    than the windows reach, extreme values once more."""
    xs, zp = (1, 13, 12, 24), -37
    x = relay.var("x", shape=xs, dtype="int8")
    w = _int8((3, 3, 24, 40))
    padded = relay.nn.pad(x, ((0, 0), (1, 2), (1, 2), (0, 0)), pad_value=relay.const(np.int8(zp)))
    y = relay.nn.conv2d(padded, relay.const(w), strides=(2, 2), kernel_size=(3, 3),
                        data_layout="NHWC", kernel_layout="HWIO", out_dtype="int32")
    exe = _compile(relay.Function([x], y), monkeypatch, kernels)
    if kernels == "avx512vnni":
        assert "relay_vnni_conv_1x13x12x24_3x3_s2x2_d1x1_40_p1x1v219_e" in exe.iree_input
        assert "tensor.pad" not in exe.iree_input
    for a in (_int8(xs), _int8(xs, extreme=True)):
        xp = np.pad(a.astype(np.int64), ((0, 0), (1, 2), (1, 2), (0, 0)), constant_values=zp)
        want = ref.conv2d(xp, w.astype(np.int64), strides=(2, 2), data_layout="NHWC",
                          kernel_layout="HWIO")
        np.testing.assert_array_equal(exe(a), want)


@pytest.mark.parametrize("kernels", [pytest.param("avx512vnni", marks=needs_vnni), "none"])
def test_depthwise_padded_with_zero_point(kernels, monkeypatch):
    """nn.pad with the input zero point (37), then a depthwise convolution without padding of
    its own (the form the quantized ONNX and TFLite importers emit): the kernel reads the
    unpadded input and puts 37 in the padding itself; stride 2 and one more padding row and
    column at the end than the windows reach (convert-relay-to-linalg slices them off)."""
    xs, c, zp = (1, 12, 11, 32), 32, 37
    x = relay.var("x", shape=xs, dtype="int8")
    w = _int8((3, 3, c, 1))
    padded = relay.nn.pad(x, ((0, 0), (1, 2), (1, 2), (0, 0)), pad_value=relay.const(np.int8(zp)))
    y = relay.nn.conv2d(padded, relay.const(w), strides=(2, 2), groups=c, channels=c,
                        kernel_size=(3, 3), data_layout="NHWC", kernel_layout="HWOI",
                        out_dtype="int32")
    exe = _compile(relay.Function([x], y), monkeypatch, kernels)
    if kernels == "avx512vnni":
        assert "relay_vnni_dwconv_1x12x11x32_3x3_s2x2_d1x1_o7x6_p1x1v37_" in exe.iree_input
    a = _int8(xs)
    xp = np.pad(a.astype(np.int64), ((0, 0), (1, 2), (1, 2), (0, 0)), constant_values=zp)
    want = ref.conv2d(xp, w.astype(np.int64), strides=(2, 2), groups=c, data_layout="NHWC",
                      kernel_layout="HWOI")
    np.testing.assert_array_equal(exe(a), want)


def _shift_to_int8(x):
    """uint8 -> int8 by - 128, as the quantized importers spell it (int16 arithmetic)."""
    return relay.cast(relay.subtract(relay.cast(x, "int16"), relay.const(np.int16(128))), "int8")


@pytest.mark.parametrize("kernels", [pytest.param("avx512vnni", marks=needs_vnni), "none"])
def test_uint8_source_read_as_is(kernels, monkeypatch):
    """A contraction (and a depthwise convolution behind a pad of -100) whose int8 operand is
    a uint8 tensor moved down by 128: the kernels read the uint8 bytes as they are (``_u_``
    executables; the shift is not computed, the padding's byte becomes 28), exactly as numpy."""
    u = relay.var("u", shape=(1, 9, 10, 32), dtype="uint8")
    w = _int8((32, 20))
    dense = relay.nn.dense(relay.reshape(_shift_to_int8(u), (90, 32)), relay.const(w.T.copy()),
                           out_dtype="int32")
    f = _int8((3, 3, 32, 1))
    padded = relay.nn.pad(_shift_to_int8(u), ((0, 0), (1, 1), (1, 1), (0, 0)),
                          pad_value=relay.const(np.int8(-100)))
    dw = relay.nn.conv2d(padded, relay.const(f), groups=32, channels=32, kernel_size=(3, 3),
                         data_layout="NHWC", kernel_layout="HWOI", out_dtype="int32")
    g = _int8((3, 3, 32, 20))
    conv = relay.nn.conv2d(padded, relay.const(g), kernel_size=(3, 3), data_layout="NHWC",
                           kernel_layout="HWIO", out_dtype="int32")
    exe = _compile(relay.Function([u], relay.Tuple([dense, dw, conv])), monkeypatch, kernels)
    if kernels == "avx512vnni":
        assert "relay_vnni_gemm_90x20x32_u_e" in exe.iree_input
        assert "relay_vnni_dwconv_1x9x10x32_3x3_s1x1_d1x1_o9x10_p1x1v28_u_e" in exe.iree_input
        assert "relay_vnni_conv_1x9x10x32_3x3_s1x1_d1x1_20_p1x1v28_u_e" in exe.iree_input
    a = R.integers(0, 256, (1, 9, 10, 32), dtype=np.uint8)
    s8 = a.astype(np.int64) - 128
    got_dense, got_dw, got_conv = exe(a)
    np.testing.assert_array_equal(got_dense, s8.reshape(90, 32) @ w.astype(np.int64))
    xp = np.pad(s8, ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=-100)
    want = ref.conv2d(xp, f.astype(np.int64), groups=32, data_layout="NHWC", kernel_layout="HWOI")
    np.testing.assert_array_equal(got_dw, want)
    want = ref.conv2d(xp, g.astype(np.int64), data_layout="NHWC", kernel_layout="HWIO")
    np.testing.assert_array_equal(got_conv, want)


@needs_vnni
def test_depthwise_requantize_epilogue():
    """depthwise 3x3 -> + bias -> x per-channel float scale -> round -> clip -> int8 (the
    requantize a quantized MobileNet runs after each depthwise convolution): one dispatch of
    the depthwise kernel storing int8, bit-exact against numpy's float32 arithmetic."""
    xs, c = (1, 10, 10, 48), 48
    x = relay.var("x", shape=xs, dtype="int8")
    w = _int8((3, 3, c, 1))
    bias = R.integers(-3000, 3000, (c,), dtype=np.int32)
    scale = R.uniform(1e-3, 4e-3, (c,)).astype(np.float32)
    y = relay.nn.conv2d(x, relay.const(w), padding=(1, 1), groups=c, channels=c,
                        kernel_size=(3, 3), data_layout="NHWC", kernel_layout="HWOI",
                        out_dtype="int32")
    f = relay.cast(relay.add(y, relay.const(bias)), "float32") * relay.const(scale)
    q = relay.cast(relay.clip(relay.round(f), -128, 127), "int8")
    exe = _compile(relay.Function([x], q))
    assert _dispatch_results(exe.iree_input) == [f"tensor<{10 * 10 * c}xi8>"]
    assert "relay_vnni_dwconv_" in exe.iree_input
    a = _int8(xs)
    acc = ref.conv2d(a.astype(np.int64), w.astype(np.int64), padding=(1, 1), groups=c,
                     data_layout="NHWC", kernel_layout="HWOI") + bias
    want = np.clip(np.round(acc.astype(np.float32) * scale), -128, 127).astype(np.int8)
    np.testing.assert_array_equal(exe(a), want)


def _dispatch_results(iree_input):
    """The result types of our kernel's dispatches in the lowered program."""
    import re
    return re.findall(r'"flow\.dispatch".*-> (tensor<[^>]*>)', iree_input)


@pytest.mark.parametrize("kernels", [pytest.param("avx512vnni", marks=needs_vnni), "none"])
def test_requantize_epilogue_with_residual(kernels, monkeypatch):
    """conv -> + residual (int32 input, read whole) -> >> 6 -> clip -> int8 -> 1x1 conv of 20
    columns (a partial panel: masked epilogue loads) -> + per-column bias: both contractions
    store their epilogue's result (int8, then int32), bit-exact against numpy."""
    xs, ws1, ws2 = (1, 11, 9, 8), (3, 3, 8, 24), (1, 1, 24, 20)
    x = relay.var("x", shape=xs, dtype="int8")
    res = relay.var("res", shape=(1, 11, 9, 24), dtype="int32")
    w1, w2 = _int8(ws1), _int8(ws2)
    bias = R.integers(-5000, 5000, (20,), dtype=np.int32)
    y = relay.nn.conv2d(x, relay.const(w1), padding=(1, 1), data_layout="NHWC",
                        kernel_layout="HWIO", out_dtype="int32")
    y8 = relay.cast(relay.clip(relay.right_shift(relay.add(y, res), relay.const(np.int32(6))),
                               -128, 127), "int8")
    z = relay.nn.conv2d(y8, relay.const(w2), data_layout="NHWC", kernel_layout="HWIO",
                        out_dtype="int32")
    exe = _compile(relay.Function([x, res], relay.add(z, relay.const(bias))), monkeypatch, kernels)
    if kernels == "avx512vnni":
        assert _dispatch_results(exe.iree_input) == ["tensor<2376xi8>", "tensor<1980xi32>"]
    a, r = _int8(xs), R.integers(-20000, 20000, (1, 11, 9, 24), dtype=np.int32)
    conv = lambda d, w, p: ref.conv2d(d.astype(np.int64), w.astype(np.int64), padding=p,  # noqa: E731
                                      data_layout="NHWC", kernel_layout="HWIO")
    h = np.clip((conv(a, w1, (1, 1)) + r) >> 6, -128, 127)
    np.testing.assert_array_equal(exe(a, r), conv(h, w2, (0, 0)) + bias)


@needs_vnni
def test_float_epilogue_matches_numpy():
    """dense -> float32 -> x per-column scale -> tanh (a math op) -> + a float32 input read
    whole: the kernel stores float32 (37 columns: a partial last panel)."""
    m, k, n = 29, 52, 37
    x = relay.var("x", shape=(m, k), dtype="int8")
    skip = relay.var("skip", shape=(m, n), dtype="float32")
    w = _int8((n, k))
    scale = R.uniform(1e-4, 1e-3, (n,)).astype(np.float32)
    y = relay.cast(relay.nn.dense(x, relay.const(w), out_dtype="int32"), "float32")
    exe = _compile(relay.Function([x, skip], relay.add(relay.tanh(y * relay.const(scale)), skip)))
    assert _dispatch_results(exe.iree_input) == [f"tensor<{m * n}xf32>"]
    a, s = _int8((m, k)), R.standard_normal((m, n)).astype(np.float32)
    want = np.tanh((a.astype(np.int64) @ w.astype(np.int64).T).astype(np.float32) * scale) + s
    np.testing.assert_allclose(exe(a, s), want, rtol=1e-6, atol=1e-6)


def test_forced_kernel_set_is_checked(monkeypatch):
    monkeypatch.setenv("RELAY_MLIR_CPU_KERNELS", "avx9000")
    with pytest.raises(ValueError, match="RELAY_MLIR_CPU_KERNELS"):
        cpu_kernels.for_target("llvm-cpu")


@needs_vnni
def test_gelu_epilogue_matches_numpy():
    """dense -> float32 -> GELU (x read by two branches that join again: x/2 and
    1 + erf(x/sqrt(2))): the whole diamond runs in the kernel's epilogue, which stores
    float32; against numpy's float64 GELU of the same products within 1e-5."""
    import math
    m, k, n = 19, 44, 40
    x = relay.var("x", shape=(m, k), dtype="int8")
    w = _int8((n, k))
    c = lambda v: relay.const(np.float32(v))  # noqa: E731
    y = relay.cast(relay.nn.dense(x, relay.const(w), out_dtype="int32"), "float32") * c(2e-4)
    g = y * c(0.5) * (c(1.0) + relay.erf(y / c(math.sqrt(2.0))))
    exe = _compile(relay.Function([x], g))
    assert _dispatch_results(exe.iree_input) == [f"tensor<{m * n}xf32>"]
    assert "math.erf" not in exe.iree_input.split("func.func @main")[-1]
    a = _int8((m, k))
    yy = (a.astype(np.int64) @ w.astype(np.int64).T) * 2e-4
    want = yy * 0.5 * (1.0 + np.vectorize(math.erf)(yy / math.sqrt(2.0)))
    np.testing.assert_allclose(exe(a), want, rtol=1e-5, atol=1e-5)


def _round_half_even_quantize(y, scale, zero_point):
    """ONNX QuantizeLinear's rounding written with Relay ops as its importer writes it:
    round half away from zero, except at a tie whose rounded value is odd (an i1 tensor
    read beside the float ones: a diamond), then + zero point, clip, int8."""
    c = lambda v: relay.const(np.float32(v))  # noqa: E731
    s = y / c(scale)
    t = relay.trunc(s)
    tie = relay.equal(relay.abs(s - t), c(0.5))
    r = relay.round(s)
    odd = relay.not_equal(relay.floor(r * c(0.5)), r * c(0.5))
    rounded = relay.where(relay.logical_and(tie, odd), t, r)
    return relay.cast(relay.clip(rounded + c(zero_point), -128, 127), "int8")


@pytest.mark.parametrize("kernels", [pytest.param("avx512vnni", marks=needs_vnni), "none"])
def test_round_half_even_quantize_epilogue(kernels, monkeypatch):
    """dense -> float32 scale -> quantize with ties to even (a diamond through i1 values):
    the kernel stores int8; bit-exact against numpy's rint of the same float32 values (the
    scale 1/8 makes many exact ties: products times 0.125 / 0.25)."""
    m, k, n = 23, 36, 48
    x = relay.var("x", shape=(m, k), dtype="int8")
    w = R.integers(-3, 4, (n, k), dtype=np.int8)
    y = relay.cast(relay.nn.dense(x, relay.const(w), out_dtype="int32"), "float32")
    q = _round_half_even_quantize(y * relay.const(np.float32(0.125)), 0.25, -3.0)
    exe = _compile(relay.Function([x], q), monkeypatch, kernels)
    if kernels == "avx512vnni":
        assert _dispatch_results(exe.iree_input) == [f"tensor<{m * n}xi8>"]
    a = R.integers(-9, 10, (m, k), dtype=np.int8)
    s = ((a.astype(np.int64) @ w.astype(np.int64).T).astype(np.float32) * np.float32(0.125)) / np.float32(0.25)
    assert np.any(np.abs(s - np.trunc(s)) == 0.5)  # ties are exercised
    want = np.clip(np.rint(s) - 3, -128, 127).astype(np.int8)
    np.testing.assert_array_equal(exe(a), want)


_WEIGHTS_PROGRAM = '''
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%a: tensor<7x10xi8>) -> tensor<7x20xi32> {
  %src = arith.constant dense<SOURCE> : tensor<SHAPE>
  %w = WEIGHTS
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<7x20xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<7x20xi32>) -> tensor<7x20xi32>
  %r = linalg.matmul ins(%a, %w : tensor<7x10xi8>, tensor<10x20xi8>) outs(%f : tensor<7x20xi32>) -> tensor<7x20xi32>
  return %r : tensor<7x20xi32>
}
'''
_AS_OPS = '''tensor.empty() : tensor<10x20xi8>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%src : tensor<10x20xf32>) outs(%w0 : tensor<10x20xi8>) {
  ^bb0(%x: f32, %o: i8):
    %i = arith.fptosi %x : f32 to i8
    linalg.yield %i : i8
  } -> tensor<10x20xi8>'''
_EVALUATED = '''tensor.empty() : tensor<10x20xi8>
  %t = linalg.transpose ins(%src : tensor<20x10xi8>) outs(%w0 : tensor<10x20xi8>) permutation = [1, 0]
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<10x20xi8>) outs(%w0 : tensor<10x20xi8>) {
  ^bb0(%x: i8, %o: i8):
    %m = arith.constant -128 : i8
    %i = arith.xori %x, %m : i8
    linalg.yield %i : i8
  } -> tensor<10x20xi8>'''


@needs_vnni
@pytest.mark.parametrize("form", ["evaluated", "as_ops"])
def test_weights_packed_at_compile_time_or_by_ops(form):
    """The kernel's weights come from a constant through ops: read and packed by the pass
    when it can evaluate them (a transpose and a byte map: no transpose is left for IREE),
    else packed by ops IREE folds (floats converted to int8); both exact against numpy."""
    if form == "evaluated":
        src = _int8((20, 10))
        w = (src.T.astype(np.uint8) ^ 0x80).astype(np.int8)
        text = _WEIGHTS_PROGRAM.replace("SHAPE", "20x10xi8").replace("%w = WEIGHTS", "%w0 = " + _EVALUATED)
    else:
        w = _int8((10, 20))
        src = w.astype(np.float32)
        text = _WEIGHTS_PROGRAM.replace("SHAPE", "10x20xf32").replace("%w = WEIGHTS", "%w0 = " + _AS_OPS)
    rows = ", ".join("[" + ", ".join(str(v) for v in r) + "]" for r in src.tolist())
    exe = relay.compile(text.replace("SOURCE", "[" + rows + "]"), target="llvm-cpu")
    assert _dispatch_results(exe.iree_input) == ["tensor<140xi32>"]
    main = exe.iree_input.split("func.func @main")[-1]
    assert ("linalg.transpose" in main) == (form == "as_ops")
    a = _int8((7, 10))
    np.testing.assert_array_equal(exe(a), a.astype(np.int64) @ w.astype(np.int64))


@needs_vnni
@pytest.mark.parametrize("steps", [6, 20])
def test_long_epilogue_in_a_loop_matches_numpy(steps):
    """An epilogue of more than 16 ops is applied in a loop over each tile's rows (the
    products through a stack buffer); fewer, unrolled. 23 rows (3 tiles of 6 and a tail of
    5) x 40 columns (a partial last panel): float32 against numpy within 1e-5."""
    m, k, n = 23, 30, 40
    x = relay.var("x", shape=(m, k), dtype="int8")
    w = _int8((n, k))
    y = relay.cast(relay.nn.dense(x, relay.const(w), out_dtype="int32"), "float32")
    a = _int8((m, k))
    ref_y = (a.astype(np.int64) @ w.astype(np.int64).T).astype(np.float32)
    for i in range(steps):
        s, b = np.float32(0.5 + 0.01 * i), np.float32(i - 3)
        y = y * relay.const(s) + relay.const(b)
        ref_y = ref_y * s + b
    exe = _compile(relay.Function([x], y))
    assert _dispatch_results(exe.iree_input) == [f"tensor<{m * n}xf32>"]
    # a multiply and an add per step (constants built in) and the conversion: 13 or 41 ops
    assert ("memref.alloca" in exe.iree_input) == (2 * steps + 1 > 16)
    np.testing.assert_allclose(exe(a), ref_y, rtol=1e-5, atol=1e-5)
