"""DenseNet (Huang et al. 2017), as TVM 0.19's ``relay.testing.densenet`` builds it.

``conv1`` 7x7/2 + ``batch1`` + relu + 3x3/2 max_pool, dense blocks of layers
``batch_1_B_L`` + relu + 1x1 ``conv2d_1_B_L`` (bn_size * growth) + ``batch_2_B_L`` + relu
+ 3x3 ``conv2d_2_B_L`` (growth), transitions ``batch_t_B`` + relu + 1x1 ``conv_t_B`` +
2x2/2 avg_pool, then ``batch2`` + relu + 7x7 avg_pool + ``dense`` (dense + bias).

As in TVM 0.19 (whose port differs from the paper), each layer of a block reads the
previous layer's output only, the block's output concatenates its layers' outputs, and
the transition's width is half the *paper's* feature count: the network is TVM's.

    >>> mod, params = get_workload(batch_size=1, image_shape=(3, 224, 224), classes=10)
    >>> list(params)[:2], len(params)
    (['conv1_weight', 'batch1_gamma'], 606)
"""
import relay_mlir as relay

from . import layers
from .init import create_workload

__all__ = ["get_workload"]

_SPECS = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]),
          169: (69, 32, [6, 12, 32, 32]), 201: (64, 32, [6, 12, 48, 32])}


def _bn_relu(data, name):
    return relay.nn.relu(layers.batch_norm_infer(data, name=name))


def _dense_layer(data, growth_rate, bn_size, index):
    conv1 = layers.conv2d(_bn_relu(data, f"batch_1_{index}"), channels=bn_size * growth_rate,
                          kernel_size=(1, 1), name=f"conv2d_1_{index}")
    return layers.conv2d(_bn_relu(conv1, f"batch_2_{index}"), channels=growth_rate, kernel_size=(3, 3),
                         padding=(1, 1), name=f"conv2d_2_{index}")


def _dense_block(data, num_layers, bn_size, growth_rate, index):
    outs, out = [], data
    for i in range(num_layers):
        out = _dense_layer(out, growth_rate, bn_size, f"{index}_{i}")
        outs.append(out)
    return relay.concatenate(outs, 1)


def _transition(data, num_output_features, index):
    conv = layers.conv2d(_bn_relu(data, f"batch_t_{index}"), channels=num_output_features,
                         kernel_size=(1, 1), name=f"conv_t_{index}")
    return relay.nn.avg_pool2d(conv, pool_size=(2, 2), strides=(2, 2))


def _dense_net(num_init_features, growth_rate, block_config, data_shape, data_dtype, bn_size=4, classes=1000):
    data = relay.var("data", shape=data_shape, dtype=data_dtype)
    conv1 = layers.conv2d(data, channels=num_init_features, kernel_size=(7, 7), strides=(2, 2),
                          padding=(3, 3), name="conv1")
    out = relay.nn.max_pool2d(_bn_relu(conv1, "batch1"), pool_size=(3, 3), strides=(2, 2), padding=(1, 1))
    num_features = num_init_features
    for i, num_layers in enumerate(block_config):
        out = _dense_block(out, num_layers, bn_size, growth_rate, i)
        num_features += num_layers * growth_rate
        if i != len(block_config) - 1:
            out = _transition(out, num_features // 2, i)
            num_features //= 2
    flat = relay.nn.batch_flatten(relay.nn.avg_pool2d(_bn_relu(out, "batch2"), pool_size=(7, 7)))
    ret = layers.dense_add_bias(flat, units=classes, name="dense")
    return relay.Function(relay.analysis.free_vars(ret), ret)


def get_workload(densenet_size=121, classes=1000, batch_size=4, image_shape=(3, 224, 224), dtype="float32"):
    """``(mod, params)`` of DenseNet-``densenet_size`` (121, 161, 169 or 201; Xavier, seed 0)."""
    if densenet_size not in _SPECS:
        raise ValueError(f"densenet_size must be one of {sorted(_SPECS)}, got {densenet_size}")
    num_init_features, growth_rate, block_config = _SPECS[densenet_size]
    return create_workload(_dense_net(num_init_features, growth_rate, block_config,
                                      (batch_size,) + tuple(image_shape), dtype, 4, classes))
