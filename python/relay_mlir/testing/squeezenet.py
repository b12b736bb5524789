"""SqueezeNet 1.0 / 1.1 (Iandola et al. 2016), as TVM 0.19's ``relay.testing.squeezenet``.

Stem conv ``conv1`` (+ ``conv1_bias``, relu, 3x3/2 max_pool), fire modules ``fireN``
(squeeze 1x1 ``_input_conv``, expand 1x1 ``_left_conv`` and 3x3 ``_right_conv``
concatenated, each conv with ``_bias`` and relu) with 3x3/2 max_pools between them,
dropout 0.5, ``conv_final`` 1x1 to num_classes + bias + relu, global_avg_pool,
batch_flatten, softmax.

    >>> mod, params = get_workload(image_shape=(3, 64, 64), num_classes=10, version="1.1")
    >>> list(params)[:4]
    ['conv1_weight', 'conv1_bias', 'fire1_input_conv_weight', 'fire1_input_conv_bias']
"""
import relay_mlir as relay

from . import layers
from .init import create_workload

__all__ = ["get_net", "get_workload"]

# per version: stem (channels, kernel, padding), then fire modules (squeeze, expand) with
# "pool" marking a 3x3/2 max_pool
_VERSIONS = {
    "1.0": ((96, 7, 3), [(16, 64), (16, 64), (32, 128), "pool", (32, 128), (48, 192), (48, 192),
                         (64, 256), "pool", (64, 256)]),
    "1.1": ((64, 3, 1), [(16, 64), (16, 64), "pool", (32, 128), (32, 128), "pool", (48, 192),
                         (48, 192), (64, 256), (64, 256)]),
}


def _fire_conv(net, channels, kernel_size, padding, prefix):
    net = layers.conv2d(net, channels=channels, kernel_size=(kernel_size, kernel_size),
                        padding=(padding, padding), name=f"{prefix}_conv")
    return relay.nn.relu(relay.nn.bias_add(net, relay.var(f"{prefix}_conv_bias")))


def _fire(net, squeeze, expand, prefix):
    net = _fire_conv(net, squeeze, 1, 0, f"{prefix}_input")
    left = _fire_conv(net, expand, 1, 0, f"{prefix}_left")
    right = _fire_conv(net, expand, 3, 1, f"{prefix}_right")
    return relay.concatenate((left, right), axis=1)


def get_net(batch_size, image_shape, num_classes, version, dtype):
    """SqueezeNet ``version`` ("1.0" or "1.1") as a relay Function."""
    if version not in _VERSIONS:
        raise ValueError(f"Unsupported SqueezeNet version {version}: 1.0 or 1.1 expected")
    (channels, kernel, pad), modules = _VERSIONS[version]
    net = relay.var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    net = layers.conv2d(net, channels=channels, kernel_size=(kernel, kernel), strides=(2, 2),
                        padding=(pad, pad), name="conv1")
    net = relay.nn.relu(relay.nn.bias_add(net, relay.var("conv1_bias")))
    net = relay.nn.max_pool2d(net, pool_size=(3, 3), strides=(2, 2))
    fire = 0
    for module in modules:
        if module == "pool":
            net = relay.nn.max_pool2d(net, pool_size=(3, 3), strides=(2, 2))
        else:
            fire += 1
            net = _fire(net, module[0], module[1], f"fire{fire}")
    net = relay.nn.dropout(net, rate=0.5)
    net = layers.conv2d(net, channels=num_classes, kernel_size=(1, 1), name="conv_final")
    net = relay.nn.relu(relay.nn.bias_add(net, relay.var("conv_final_bias")))
    net = relay.nn.softmax(relay.nn.batch_flatten(relay.nn.global_avg_pool2d(net)))
    return relay.Function(relay.analysis.free_vars(net), net)


def get_workload(batch_size=1, num_classes=1000, version="1.0", image_shape=(3, 224, 224), dtype="float32"):
    """``(mod, params)`` of SqueezeNet (Xavier weights, seed 0)."""
    return create_workload(get_net(batch_size, image_shape, num_classes, version, dtype))
