"""VGG (Simonyan & Zisserman 2014), as TVM 0.19's ``relay.testing.vgg``.

Five stages of 3x3 pad-1 conv2d ``convS_K`` + bias_add (+ batch_norm ``bnS_K`` when
``batch_norm``) + relu, each stage ending in a 2x2/2 max_pool; then ``fc6``/``fc7`` (4096,
relu, dropout 0.5) and ``fc8`` (num_classes), softmax.

    >>> mod, params = get_workload(1, num_classes=10, image_shape=(3, 32, 32))
    >>> list(params)[:3], len(params)
    (['conv1_1_weight', 'conv1_1_bias', 'conv2_1_weight'], 22)
"""
import relay_mlir as relay

from . import layers as wrapper
from .init import create_workload

__all__ = ["get_feature", "get_classifier", "get_net", "get_workload"]

_SPECS = {11: [1, 1, 2, 2, 2], 13: [2, 2, 2, 2, 2], 16: [2, 2, 3, 3, 3], 19: [2, 2, 4, 4, 4]}
_FILTERS = [64, 128, 256, 512, 512]


def get_feature(internal_layer, layers, filters, batch_norm=False):
    """The convolution stages: ``layers[i]`` convs of ``filters[i]`` channels in stage i."""
    for i, num in enumerate(layers):
        for j in range(num):
            name = f"conv{i + 1}_{j + 1}"
            internal_layer = wrapper.conv2d(data=internal_layer, kernel_size=(3, 3), padding=(1, 1),
                                            channels=filters[i], name=name)
            internal_layer = relay.nn.bias_add(internal_layer, relay.var(name + "_bias"))
            if batch_norm:
                internal_layer = wrapper.batch_norm_infer(data=internal_layer, name=f"bn{i + 1}_{j + 1}")
            internal_layer = relay.nn.relu(internal_layer)
        internal_layer = relay.nn.max_pool2d(internal_layer, pool_size=(2, 2), strides=(2, 2))
    return internal_layer


def get_classifier(input_data, num_classes):
    """batch_flatten, fc6/fc7 (4096, relu, dropout 0.5), fc8."""
    out = relay.nn.batch_flatten(input_data)
    for name in ("fc6", "fc7"):
        out = relay.nn.dropout(relay.nn.relu(wrapper.dense_add_bias(data=out, units=4096, name=name)), rate=0.5)
    return wrapper.dense_add_bias(data=out, units=num_classes, name="fc8")


def get_net(batch_size, image_shape, num_classes, dtype, num_layers=11, batch_norm=False):
    """VGG-``num_layers`` (11, 13, 16 or 19) as a relay Function."""
    if num_layers not in _SPECS:
        raise ValueError(f"Invalid num_layers {num_layers}. Choices are 11,13,16,19.")
    data = relay.var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    symbol = relay.nn.softmax(get_classifier(get_feature(data, _SPECS[num_layers], _FILTERS, batch_norm),
                                             num_classes))
    return relay.Function(relay.analysis.free_vars(symbol), symbol)


def get_workload(batch_size, num_classes=1000, image_shape=(3, 224, 224), dtype="float32",
                 num_layers=11, batch_norm=False):
    """``(mod, params)`` of VGG (Xavier weights, seed 0)."""
    return create_workload(get_net(batch_size, image_shape, num_classes, dtype, num_layers, batch_norm))
