"""ResNet v2 (pre-activation, He et al. 2016 "Identity Mappings"), as TVM 0.19's
``relay.testing.resnet``.

``data`` -> batch_norm ``bn_data`` (scale=False, eps 2e-5) -> ``conv0`` (3x3/1 for images
of height <= 32, else 7x7/2 + ``bn0`` + relu + max_pool 3x3/2) -> stages of residual units
``stageS_unitU`` (``_bn1``, ``_conv1``, ``_bn2``, ``_conv2`` [, ``_bn3``, ``_conv3`` with
bottlenecks], ``_sc`` shortcut conv on a unit's first block) -> ``bn1`` -> relu ->
global_avg_pool -> batch_flatten -> ``fc1`` dense + bias -> softmax.
Heights <= 28 use TVM's CIFAR rules (3 stages; num_layers = 6n+2, or 9n+2 >= 164).

    >>> mod, params = get_workload(num_layers=18, image_shape=(3, 32, 32), num_classes=10)
    >>> list(params)[:5]
    ['bn_data_gamma', 'bn_data_beta', 'bn_data_moving_mean', 'bn_data_moving_var', 'conv0_weight']
    >>> len(params)
    95
"""
import relay_mlir as relay

from . import layers
from .init import create_workload

__all__ = ["residual_unit", "resnet", "get_net", "get_workload"]

_IMAGENET_UNITS = {18: [2, 2, 2, 2], 34: [3, 4, 6, 3], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3],
                   152: [3, 8, 36, 3], 200: [3, 24, 36, 3], 269: [3, 30, 48, 8]}


def _bn_relu(data, name, bn_axis):
    return relay.nn.relu(layers.batch_norm_infer(data=data, epsilon=2e-5, axis=bn_axis, name=name))


def residual_unit(data, num_filter, stride, dim_match, name, bottle_neck=True,
                  data_layout="NCHW", kernel_layout="IOHW"):
    """One pre-activation unit: (bn, relu, conv) x 2, or x 3 with the 1/4-width bottleneck;
    plus ``data`` itself (``dim_match``) or a strided 1x1 conv ``<name>_sc`` of the first
    activation."""
    bn_axis = data_layout.index("C")
    conv = dict(data_layout=data_layout, kernel_layout=kernel_layout)
    if bottle_neck:
        blocks = [(int(num_filter * 0.25), (1, 1), stride, (0, 0)),
                  (int(num_filter * 0.25), (3, 3), (1, 1), (1, 1)),
                  (num_filter, (1, 1), (1, 1), (0, 0))]
    else:
        blocks = [(num_filter, (3, 3), stride, (1, 1)), (num_filter, (3, 3), (1, 1), (1, 1))]
    out, first_act = data, None
    for k, (channels, kernel, strides, padding) in enumerate(blocks, start=1):
        act = _bn_relu(out, f"{name}_bn{k}", bn_axis)
        first_act = act if first_act is None else first_act
        out = layers.conv2d(data=act, channels=channels, kernel_size=kernel, strides=strides,
                            padding=padding, name=f"{name}_conv{k}", **conv)
    if dim_match:
        shortcut = data
    else:
        shortcut = layers.conv2d(data=first_act, channels=num_filter, kernel_size=(1, 1),
                                 strides=stride, name=f"{name}_sc", **conv)
    return relay.add(out, shortcut)


def _stem(data, filter0, height, data_layout, kernel_layout, bn_axis):
    conv = dict(data_layout=data_layout, kernel_layout=kernel_layout, name="conv0", channels=filter0)
    if height <= 32:  # CIFAR-sized images
        return layers.conv2d(data=data, kernel_size=(3, 3), strides=(1, 1), padding=(1, 1), **conv)
    body = layers.conv2d(data=data, kernel_size=(7, 7), strides=(2, 2), padding=(3, 3), **conv)
    body = _bn_relu(body, "bn0", bn_axis)
    return relay.nn.max_pool2d(data=body, pool_size=(3, 3), strides=(2, 2), padding=(1, 1),
                               layout=data_layout)


def resnet(units, num_stages, filter_list, num_classes, data_shape, bottle_neck=True,
           layout="NCHW", dtype="float32"):
    """The network as a relay Function (``filter_list[0]`` is the stem's width)."""
    if len(units) != num_stages:
        raise ValueError(f"resnet: {len(units)} unit counts for {num_stages} stages")
    kernel_layout = "OIHW" if layout == "NCHW" else "HWIO"
    bn_axis = layout.index("C")
    data = relay.var("data", shape=data_shape, dtype=dtype)
    data = layers.batch_norm_infer(data=data, epsilon=2e-5, axis=bn_axis, scale=False, name="bn_data")
    height = data_shape[1] if layout == "NHWC" else data_shape[2]
    body = _stem(data, filter_list[0], height, layout, kernel_layout, bn_axis)
    for i in range(num_stages):
        for j in range(units[i]):
            stride = (1 if i == 0 else 2,) * 2 if j == 0 else (1, 1)
            body = residual_unit(body, filter_list[i + 1], stride, j > 0, name=f"stage{i + 1}_unit{j + 1}",
                                 bottle_neck=bottle_neck, data_layout=layout, kernel_layout=kernel_layout)
    body = relay.nn.global_avg_pool2d(data=_bn_relu(body, "bn1", bn_axis), layout=layout)
    net = relay.nn.softmax(layers.dense_add_bias(data=relay.nn.batch_flatten(body), units=num_classes,
                                                 name="fc1"))
    return relay.Function(relay.analysis.free_vars(net), net)


def _spec(num_layers, height):
    """(units, num_stages, filter_list, bottle_neck) as TVM 0.19 chooses them."""
    if height <= 28:
        if (num_layers - 2) % 9 == 0 and num_layers >= 164:
            return [(num_layers - 2) // 9] * 3, 3, [16, 64, 128, 256], True
        if (num_layers - 2) % 6 == 0 and num_layers < 164:
            return [(num_layers - 2) // 6] * 3, 3, [16, 16, 32, 64], False
        raise ValueError(f"no experiments done on num_layers {num_layers}")
    if num_layers not in _IMAGENET_UNITS:
        raise ValueError(f"no experiments done on num_layers {num_layers} "
                         f"(choose one of {sorted(_IMAGENET_UNITS)})")
    if num_layers >= 50:
        return _IMAGENET_UNITS[num_layers], 4, [64, 256, 512, 1024, 2048], True
    return _IMAGENET_UNITS[num_layers], 4, [64, 64, 128, 256, 512], False


def get_net(batch_size, num_classes, num_layers=50, image_shape=(3, 224, 224), layout="NCHW",
            dtype="float32", **kwargs):
    """The ResNet of ``num_layers`` for ``image_shape`` (CHW, or HWC with layout NHWC)."""
    height = image_shape[0] if layout == "NHWC" else image_shape[1]
    units, num_stages, filter_list, bottle_neck = _spec(num_layers, height)
    return resnet(units=units, num_stages=num_stages, filter_list=filter_list, num_classes=num_classes,
                  data_shape=(batch_size,) + tuple(image_shape), bottle_neck=bottle_neck,
                  layout=layout, dtype=dtype)


def get_workload(batch_size=1, num_classes=1000, num_layers=18, image_shape=(3, 224, 224),
                 layout="NCHW", dtype="float32", **kwargs):
    """``(mod, params)`` of the ResNet (Xavier weights, seed 0)."""
    return create_workload(get_net(batch_size=batch_size, num_classes=num_classes, num_layers=num_layers,
                                   image_shape=image_shape, dtype=dtype, layout=layout, **kwargs))
