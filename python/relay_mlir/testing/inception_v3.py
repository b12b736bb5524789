"""Inception v3 (Szegedy et al. 2015), as TVM 0.19's ``relay.testing.inception_v3``.

Every convolution is ``Conv``: conv2d ``<name><suffix>_conv1`` + batch_norm
``<name><suffix>_bn`` (scale=False, eps 2e-5) + relu. A stem of five convs and two max
pools, blocks ``mixed`` .. ``mixed_10`` (Inception 7A x3, 7B, 7C x4, 7D, 7E x2), an 8x8
avg_pool, batch_flatten, dense ``fc1_weight`` + bias ``fc2_bias`` (TVM's names), softmax.
A block is a list of towers concatenated on the channels; a tower is a chain of convs
(optionally after a pool) and 7E's towers fork into two last convs.

    >>> mod, params = get_workload()
    >>> list(params)[:2], list(params)[-2:]
    (['conv_conv1_weight', 'conv_bn_gamma'], ['fc1_weight', 'fc2_bias'])
"""
import relay_mlir as relay

from . import layers
from .init import create_workload

__all__ = ["Conv", "Pooling", "get_net", "get_workload"]


def Conv(data, num_filter, kernel=(1, 1), stride=(1, 1), pad=(0, 0), name=None, suffix=""):
    """conv2d + batch_norm (scale=False, eps 2e-5) + relu, named ``<name><suffix>_conv1/_bn``."""
    conv = layers.conv2d(data=data, channels=int(num_filter), kernel_size=kernel, strides=stride,
                         padding=pad, name=f"{name}{suffix}_conv1")
    return relay.nn.relu(layers.batch_norm_infer(data=conv, epsilon=2e-5, scale=False, name=f"{name}{suffix}_bn"))


def Pooling(data, kernel, stride, pad, pool_type, name):
    """max_pool2d, or avg_pool2d counting the padding (``name`` is unused, as in TVM)."""
    if pool_type == "max":
        return relay.nn.max_pool2d(data, pool_size=kernel, strides=stride, padding=pad)
    if pool_type == "avg":
        return relay.nn.avg_pool2d(data, pool_size=kernel, strides=stride, padding=pad, count_include_pad=True)
    raise ValueError("Invalid pooling type: " + pool_type)


# A conv step: (filters, kernel, pad, stride, suffix); a tower: (name suffix, pool or None,
# steps, fork steps or None). Kernel/pad/stride default to 1x1 / 0 / 1.
def _c(filters, suffix, kernel=(1, 1), pad=(0, 0), stride=(1, 1)):
    return (filters, kernel, pad, stride, suffix)


def _block_7a(n1, n3r, n31, n32, n5r, n5, pool, proj):
    return [("_conv", None, [_c(n1, "")], None),
            ("_tower", None, [_c(n5r, "_conv"), _c(n5, "_conv_1", (5, 5), (2, 2))], None),
            ("_tower_1", None, [_c(n3r, "_conv"), _c(n31, "_conv_1", (3, 3), (1, 1)),
                                _c(n32, "_conv_2", (3, 3), (1, 1))], None),
            ("_tower_2", (pool, (1, 1), (1, 1)), [_c(proj, "_conv")], None)]


def _block_7b(n3, nd3r, nd31, nd32):
    return [("_conv", None, [_c(n3, "", (3, 3), (0, 0), (2, 2))], None),
            ("_tower", None, [_c(nd3r, "_conv"), _c(nd31, "_conv_1", (3, 3), (1, 1)),
                              _c(nd32, "_conv_2", (3, 3), (0, 0), (2, 2))], None),
            (None, ("max", (2, 2), (0, 0)), [], None)]


def _block_7c(n1, d7r, d71, d72, q7r, q71, q72, q73, q74, pool, proj):
    return [("_conv", None, [_c(n1, "")], None),
            ("_tower", None, [_c(d7r, "_conv"), _c(d71, "_conv_1", (1, 7), (0, 3)),
                              _c(d72, "_conv_2", (7, 1), (3, 0))], None),
            ("_tower_1", None, [_c(q7r, "_conv"), _c(q71, "_conv_1", (7, 1), (3, 0)),
                                _c(q72, "_conv_2", (1, 7), (0, 3)), _c(q73, "_conv_3", (7, 1), (3, 0)),
                                _c(q74, "_conv_4", (1, 7), (0, 3))], None),
            ("_tower_2", (pool, (1, 1), (1, 1)), [_c(proj, "_conv")], None)]


def _block_7d(n3r, n3, d7r, d71, d72, d73, pool):
    return [("_tower", None, [_c(n3r, "_conv"), _c(n3, "_conv_1", (3, 3), (0, 0), (2, 2))], None),
            ("_tower_1", None, [_c(d7r, "_conv"), _c(d71, "_conv_1", (1, 7), (0, 3)),
                                _c(d72, "_conv_2", (7, 1), (3, 0)), _c(d73, "_conv_3", (3, 3), (0, 0), (2, 2))],
             None),
            (None, (pool, (2, 2), (0, 0)), [], None)]


def _block_7e(n1, d3r, d31, d32, n3d3r, n3, n3d31, n3d32, pool, proj):
    fork = lambda a, b: [_c(a, "_mixed_conv", (1, 3), (0, 1)), _c(b, "_mixed_conv_1", (3, 1), (1, 0))]
    return [("_conv", None, [_c(n1, "")], None),
            ("_tower", None, [_c(d3r, "_conv")], fork(d31, d32)),
            ("_tower_1", None, [_c(n3d3r, "_conv"), _c(n3, "_conv_1", (3, 3), (1, 1))], fork(n3d31, n3d32)),
            ("_tower_2", (pool, (1, 1), (1, 1)), [_c(proj, "_conv")], None)]


def _inception(data, towers, name):
    """Concatenation (axis 1) of the towers' outputs, a forked tower giving two."""
    outs = []
    for tower, pool, steps, fork in towers:
        out = data
        if pool is not None:
            pool_type, stride, pad = pool
            out = Pooling(out, (3, 3), stride, pad, pool_type, name=f"{pool_type}_pool_{name}_pool")
        for filters, kernel, pad, stride, suffix in steps:
            out = Conv(out, filters, kernel=kernel, pad=pad, stride=stride, name=name + tower, suffix=suffix)
        if fork is None:
            outs.append(out)
        else:
            outs += [Conv(out, f, kernel=k, pad=p, stride=s, name=name + tower, suffix=sfx)
                     for f, k, p, s, sfx in fork]
    return relay.concatenate(outs, axis=1)


_BLOCKS = [
    ("mixed", _block_7a(64, 64, 96, 96, 48, 64, "avg", 32)),
    ("mixed_1", _block_7a(64, 64, 96, 96, 48, 64, "avg", 64)),
    ("mixed_2", _block_7a(64, 64, 96, 96, 48, 64, "avg", 64)),
    ("mixed_3", _block_7b(384, 64, 96, 96)),
    ("mixed_4", _block_7c(192, 128, 128, 192, 128, 128, 128, 128, 192, "avg", 192)),
    ("mixed_5", _block_7c(192, 160, 160, 192, 160, 160, 160, 160, 192, "avg", 192)),
    ("mixed_6", _block_7c(192, 160, 160, 192, 160, 160, 160, 160, 192, "avg", 192)),
    ("mixed_7", _block_7c(192, 192, 192, 192, 192, 192, 192, 192, 192, "avg", 192)),
    ("mixed_8", _block_7d(192, 320, 192, 192, 192, 192, "max")),
    ("mixed_9", _block_7e(320, 384, 384, 384, 448, 384, 384, 384, "avg", 192)),
    ("mixed_10", _block_7e(320, 384, 384, 384, 448, 384, 384, 384, "max", 192)),
]


def get_net(batch_size, num_classes, image_shape, dtype):
    """Inception v3 as a relay Function of ``data`` (``(batch_size,) + image_shape``)."""
    data = relay.var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    out = Conv(data, 32, kernel=(3, 3), stride=(2, 2), name="conv")
    out = Conv(out, 32, kernel=(3, 3), name="conv_1")
    out = Conv(out, 64, kernel=(3, 3), pad=(1, 1), name="conv_2")
    out = Pooling(out, kernel=(3, 3), stride=(2, 2), pool_type="max", pad=(0, 0), name="pool")
    out = Conv(out, 80, kernel=(1, 1), name="conv_3")
    out = Conv(out, 192, kernel=(3, 3), name="conv_4")
    out = Pooling(out, kernel=(3, 3), stride=(2, 2), pool_type="max", pad=(0, 0), name="pool1")
    for name, towers in _BLOCKS:
        out = _inception(out, towers, name)
    out = Pooling(out, kernel=(8, 8), stride=(1, 1), pool_type="avg", pad=(0, 0), name="global_pool")
    fc1 = relay.nn.dense(relay.nn.batch_flatten(out), relay.var("fc1_weight"), units=num_classes)
    net = relay.nn.softmax(relay.nn.bias_add(fc1, relay.var("fc2_bias"), axis=-1))
    return relay.Function(relay.analysis.free_vars(net), net)


def get_workload(batch_size=1, num_classes=1000, image_shape=(3, 299, 299), dtype="float32"):
    """``(mod, params)`` of Inception v3 (Xavier weights, seed 0)."""
    return create_workload(get_net(batch_size, num_classes, image_shape, dtype))
