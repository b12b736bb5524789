"""Padded window ops under relay-mlir's llvm-cpu flags, against numpy.

The llvm-cpu target lets IREE fuse a zero padding into the window op that
reads it (``--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops``:
depthwise convolutions read their windows from the unpadded input), and the
lowering keeps the padded input of a direct float convolution behind a
``util.optimization_barrier`` (IREE 3.13's direct convolution is slower with
the pad fused; test/lit/conversion/conv-pad-barrier.mlir). These programs put
padded convolutions (direct, depthwise, both layouts, strides, dilation,
uneven padding, padding and rows no window reads) and pools (ceil mode,
count_include_pad) after elementwise producers, as in MobileNetV2 and
ResNet, and compare the compiled results with numpy's (float64
reference; tolerance rtol 1e-4, atol 1e-5 for float32 sums of up to 72 terms).
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.compiler import get_target
from relay_mlir.testing import numpy_ref as ref

TOL = dict(rtol=1e-4, atol=1e-5)
R = np.random.default_rng(30)


def rand(*shape):
    return R.uniform(-2.0, 2.0, size=shape).astype("float32")


def test_the_cpu_target_fuses_paddings_into_consumers():
    assert "--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops" in \
        get_target("llvm-cpu").speed_flags


# (layout, input shape, kernel shape (in the layout's kernel layout), conv attrs)
CONVS = {
    # direct, > 256 output pixels (not im2col): the padded input behind a barrier
    "direct_nhwc": ("NHWC", (1, 20, 20, 8), (3, 3, 8, 16), dict(padding=(1, 1))),
    "direct_nhwc_stride2_uneven": ("NHWC", (1, 41, 39, 3), (3, 3, 3, 8),
                                   dict(padding=(0, 1, 2, 1), strides=(2, 2))),
    "direct_nchw_dilated": ("NCHW", (1, 4, 24, 24), (8, 4, 3, 3),
                            dict(padding=(2, 2), dilation=(2, 2))),
    "direct_nchw_stride4_cropped": ("NCHW", (1, 3, 67, 67), (8, 3, 3, 3),
                                    dict(padding=(1, 1), strides=(4, 4))),
    # depthwise: the padding fused into the convolution
    "depthwise_nhwc": ("NHWC", (1, 21, 21, 16), (3, 3, 16, 1), dict(padding=(1, 1), groups=16)),
    "depthwise_nhwc_stride2": ("NHWC", (1, 28, 28, 8), (3, 3, 8, 1),
                               dict(padding=(1, 1), strides=(2, 2), groups=8)),
    "depthwise_nchw_uneven": ("NCHW", (1, 6, 17, 15), (6, 1, 5, 5),
                              dict(padding=(2, 1, 0, 3), groups=6)),
}


@pytest.mark.parametrize("name", CONVS)
def test_padded_convolution_after_relu(name):
    layout, xs, ws, attrs = CONVS[name]
    kernel_layout = ("HWOI" if attrs.get("groups", 1) > 1 else "HWIO") if layout == "NHWC" else "OIHW"
    x, w = relay.var("x", shape=xs), relay.var("w", shape=ws)
    y = relay.nn.conv2d(relay.nn.relu(x), w, data_layout=layout, kernel_layout=kernel_layout, **attrs)
    mod = relay.IRModule.from_expr(relay.Function([x, w], relay.clip(y, 0.0, 6.0)))
    x0, w0 = rand(*xs), rand(*ws)
    got = relay.compile(mod, target="llvm-cpu")(x0, w0)
    want = np.clip(ref.conv2d(np.maximum(x0, 0), w0, data_layout=layout, kernel_layout=kernel_layout,
                              **attrs), 0.0, 6.0)
    np.testing.assert_allclose(np.asarray(got), want, **TOL)


def test_depthwise_after_pointwise_as_in_mobilenet():
    """1x1 expansion, relu6, padded stride-2 depthwise, relu6, 1x1 projection."""
    x = relay.var("x", shape=(1, 16, 30, 30))
    w1, wd, w2 = rand(48, 16, 1, 1), rand(48, 1, 3, 3), rand(8, 48, 1, 1)
    h = relay.clip(relay.nn.conv2d(x, relay.const(w1)), 0.0, 6.0)
    h = relay.clip(relay.nn.conv2d(h, relay.const(wd), padding=(1, 1), strides=(2, 2), groups=48), 0.0, 6.0)
    y = relay.nn.conv2d(h, relay.const(w2))
    x0 = rand(1, 16, 30, 30)
    got = relay.compile(relay.IRModule.from_expr(relay.Function([x], y)), target="llvm-cpu")(x0)
    h0 = np.clip(ref.conv2d(x0, w1), 0, 6)
    h0 = np.clip(ref.conv2d(h0, wd, padding=(1, 1), strides=(2, 2), groups=48), 0, 6)
    np.testing.assert_allclose(np.asarray(got), ref.conv2d(h0, w2), rtol=1e-4, atol=1e-4)


# (pool, ceil_mode, count_include_pad): padding that no window reads is left out of the
# padded input, which must not change an average's divisor
POOLS = [("max", False, False), ("max", True, False), ("avg", False, False),
         ("avg", False, True), ("avg", True, False), ("avg", True, True)]


@pytest.mark.parametrize("pool,ceil_mode,count_include_pad", POOLS)
def test_padded_pools(pool, ceil_mode, count_include_pad):
    x = relay.var("x", shape=(1, 8, 20, 19))
    pre = relay.nn.relu(x) - relay.const(1.0)  # negative values: max padding is -inf, not 0
    attrs = dict(pool_size=(3, 3), strides=(2, 2), padding=(1, 1), ceil_mode=ceil_mode)
    if pool == "max":
        y = relay.nn.max_pool2d(pre, **attrs)
    else:
        y = relay.nn.avg_pool2d(pre, count_include_pad=count_include_pad, **attrs)
    x0 = rand(1, 8, 20, 19)
    got = relay.compile(relay.IRModule.from_expr(relay.Function([x], y)), target="llvm-cpu")(x0)
    p0 = np.maximum(x0, 0) - 1.0
    want = (ref.max_pool2d(p0, (3, 3), (2, 2), padding=(1, 1), ceil_mode=ceil_mode) if pool == "max"
            else ref.avg_pool2d(p0, (3, 3), (2, 2), padding=(1, 1), ceil_mode=ceil_mode,
                                count_include_pad=count_include_pad))
    assert np.asarray(got).shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, **TOL)


# Padded 1x1 integer convolutions (qnn.conv2d: int32 sums of the centred input), where IREE
# 3.13 with the padding fused into the convolution lost the low padding and shifted the
# result by it (25 of 176 cases wrong before the lowering kept a 1x1 window's padding a
# tensor of its own): direct, depthwise and grouped with a multiplier, both layouts.
# (layout, groups, output channels, padding, strides, dtype)
PADDED_1X1 = [("NCHW", 3, 3, (1, 0, 1, 0), (1, 2), "int8"),
              ("NHWC", 3, 3, (1, 1, 1, 1), (1, 1), "uint8"),
              ("NCHW", 1, 4, (1, 1, 1, 1), (1, 1), "int8"),
              ("NCHW", 3, 6, (1, 0, 1, 0), (1, 1), "int8")]


@pytest.mark.parametrize("layout,groups,out_channels,padding,strides,dtype", PADDED_1X1)
def test_padded_1x1_integer_convolution(layout, groups, out_channels, padding, strides, dtype):
    lo, hi = (-128, 128) if dtype == "int8" else (0, 256)
    zp = -17 if dtype == "int8" else 131
    x0 = R.integers(lo, hi, (1, 3, 9, 5)).astype(dtype)
    w0 = R.integers(-128, 128, (out_channels, 3 // groups, 1, 1)).astype("int8")
    kernel_layout = "OIHW" if layout == "NCHW" else ("HWOI" if groups > 1 else "HWIO")
    xin = x0 if layout == "NCHW" else x0.transpose(0, 2, 3, 1).copy()
    win = w0 if layout == "NCHW" else w0.transpose(2, 3, 0, 1).copy() if groups > 1 else w0.transpose(2, 3, 1, 0).copy()
    x = relay.var("x", shape=xin.shape, dtype=dtype)
    y = relay.qnn.op.conv2d(x, relay.const(win), relay.const(zp, "int32"), relay.const(0, "int32"),
                            relay.const(0.01), relay.const(0.02), kernel_size=(1, 1), channels=out_channels,
                            strides=strides, padding=padding, groups=groups, data_layout=layout,
                            kernel_layout=kernel_layout)
    got = np.asarray(relay.compile(relay.IRModule.from_expr(relay.Function([x], y)), target="llvm-cpu")(xin))
    want = ref.conv2d(x0.astype(np.float64) - zp, w0.astype(np.float64), padding=padding, strides=strides,
                      groups=groups).astype(np.int64)
    if layout == "NHWC":
        want = want.transpose(0, 2, 3, 1)
    assert got.dtype == np.int32 and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


# Pools whose padding covers some spatial dims and not others (ceil mode's overhang after W
# only, padding (0, 1)): IREE 3.13 took minutes to compile them with the padding fused (144-case
# sweep: every hang had an unpadded spatial dim), so their padded input is a tensor of its own.
@pytest.mark.parametrize("pool,attrs", [
    ("max", dict(pool_size=(3, 3), strides=(2, 2), ceil_mode=True)),
    ("avg", dict(pool_size=(3, 3), strides=(2, 2), ceil_mode=True)),
    ("max", dict(pool_size=(3, 3), strides=(2, 2), padding=(0, 1))),
])
def test_pools_padded_along_one_spatial_dim(pool, attrs):
    x = relay.var("x", shape=(2, 2, 7, 8))
    y = relay.nn.max_pool2d(x, **attrs) if pool == "max" else relay.nn.avg_pool2d(x, **attrs)
    x0 = rand(2, 2, 7, 8)
    got = relay.compile(relay.IRModule.from_expr(relay.Function([x], y)), target="llvm-cpu")(x0)
    pads = attrs.get("padding", (0, 0))
    want = (ref.max_pool2d(x0, (3, 3), (2, 2), padding=pads, ceil_mode=attrs.get("ceil_mode", False))
            if pool == "max" else ref.avg_pool2d(x0, (3, 3), (2, 2), padding=pads, ceil_mode=True))
    assert np.asarray(got).shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, **TOL)
