"""MobileNet v1 (Howard et al. 2017), as TVM 0.19's ``relay.testing.mobilenet``.

``conv_block_1`` (3x3/2 conv, batch_norm, relu) then 13 ``separable_conv_block_N``
(3x3 depthwise conv ``_weight`` + ``_bn1`` + relu, 1x1 ``_conv2`` + ``_bn2`` + relu),
global_avg_pool, batch_flatten, dense ``fc_weight`` + ``fc_bias``, softmax. As in TVM,
``conv_block``'s batch_norm always uses axis 1 and the depthwise weights are typed
variables named without "depthwise" (so Xavier uses the usual fan for them).

    >>> mod, params = get_workload(image_shape=(3, 32, 32), num_classes=10)
    >>> len(params), params["separable_conv_block_1_weight"].shape
    (137, (32, 1, 3, 3))
"""
import relay_mlir as relay

from . import layers
from .init import create_workload

__all__ = ["conv_block", "separable_conv_block", "mobile_net", "get_workload"]

# (depthwise channels, pointwise channels, downsample) of blocks 1..13 (alpha 1)
_BLOCKS = [(32, 64, False), (64, 128, True), (128, 128, False), (128, 256, True), (256, 256, False),
           (256, 512, True)] + [(512, 512, False)] * 5 + [(512, 1024, True), (1024, 1024, False)]
_SHALLOW_TAIL = [(512, 1024, True), (1024, 1024, True)]


def conv_block(data, name, channels, kernel_size=(3, 3), strides=(1, 1), padding=(1, 1),
               epsilon=1e-5, layout="NCHW"):
    """conv2d ``<name>_conv`` + batch_norm ``<name>_bn`` (axis 1, as TVM) + relu."""
    conv = layers.conv2d(data=data, channels=channels, kernel_size=kernel_size, strides=strides,
                         padding=padding, data_layout=layout,
                         kernel_layout=layers.conv_kernel_layout(layout), name=name + "_conv")
    return relay.nn.relu(layers.batch_norm_infer(data=conv, epsilon=epsilon, name=name + "_bn"))


def separable_conv_block(data, name, depthwise_channels, pointwise_channels, kernel_size=(3, 3),
                         downsample=False, padding=(1, 1), epsilon=1e-5, layout="NCHW", dtype="float32"):
    """Depthwise 3x3 conv (typed weight ``<name>_weight``) + bn + relu, pointwise 1x1 + bn + relu."""
    if layout == "NCHW":
        wshape = (depthwise_channels, 1) + tuple(kernel_size)
    elif layout == "NHWC":
        wshape = tuple(kernel_size) + (depthwise_channels, 1)
    else:
        raise ValueError("Invalid layout: " + layout)
    bn_axis = layout.index("C")
    strides = (2, 2) if downsample else (1, 1)
    out = layers.conv2d(data=data, weight=relay.var(name + "_weight", shape=wshape, dtype=dtype),
                        channels=depthwise_channels, groups=depthwise_channels, kernel_size=kernel_size,
                        strides=strides, padding=padding, data_layout=layout,
                        kernel_layout=layers.conv_kernel_layout(layout, True), name=name + "_depthwise_conv1")
    out = relay.nn.relu(layers.batch_norm_infer(data=out, epsilon=epsilon, axis=bn_axis, name=name + "_bn1"))
    out = layers.conv2d(data=out, channels=pointwise_channels, kernel_size=(1, 1), strides=(1, 1),
                        padding=(0, 0), data_layout=layout, kernel_layout=layers.conv_kernel_layout(layout),
                        name=name + "_conv2")
    return relay.nn.relu(layers.batch_norm_infer(data=out, epsilon=epsilon, axis=bn_axis, name=name + "_bn2"))


def mobile_net(num_classes=1000, data_shape=(1, 3, 224, 224), dtype="float32", alpha=1.0,
               is_shallow=False, layout="NCHW"):
    """The network as a relay Function (``is_shallow``: blocks 7-8 replace 7-13)."""
    data = relay.var("data", shape=data_shape, dtype=dtype)
    body = conv_block(data, "conv_block_1", int(32 * alpha), strides=(2, 2), layout=layout)
    blocks = _BLOCKS[:6] + _SHALLOW_TAIL if is_shallow else _BLOCKS
    for i, (dw, pw, down) in enumerate(blocks, start=1):
        body = separable_conv_block(body, f"separable_conv_block_{i}", int(dw * alpha), int(pw * alpha),
                                    downsample=down, layout=layout, dtype=dtype)
    flatten = relay.nn.batch_flatten(relay.nn.global_avg_pool2d(data=body, layout=layout))
    fc = relay.nn.dense(flatten, relay.var("fc_weight"), units=num_classes)
    softmax = relay.nn.softmax(relay.nn.bias_add(fc, relay.var("fc_bias")))
    return relay.Function(relay.analysis.free_vars(softmax), softmax)


def get_workload(batch_size=1, num_classes=1000, image_shape=(3, 224, 224), dtype="float32", layout="NCHW"):
    """``(mod, params)`` of MobileNet (alpha 1, not shallow; Xavier weights, seed 0)."""
    return create_workload(mobile_net(num_classes=num_classes, data_shape=(batch_size,) + tuple(image_shape),
                                      dtype=dtype, alpha=1.0, is_shallow=False, layout=layout))
