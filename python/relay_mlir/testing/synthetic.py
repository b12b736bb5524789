"""A small synthetic network, as TVM 0.19's ``relay.testing.synthetic``.

Two rounds of ``relu(dense(reshape(x, (-1, W)))) reshaped like x`` + ``softmax(conv2d 3x3
pad 1, C -> C)``; between them bias_add (``bias``) and batch_norm (``batch_norm_*``).
Weights ``dense_weight``/``conv_weight``/``dense2_weight``/``conv2_weight`` are typed
(``wtype``, default ``dtype``); ``get_workload`` uses the ``Constant`` initializer.

    >>> mod, params = get_workload()
    >>> list(params)[:3]
    ['dense_weight', 'conv_weight', 'bias']
"""
import relay_mlir as relay

from . import layers
from .init import Constant, create_workload

__all__ = ["get_net", "get_workload"]


def _dense_conv_sum(x, data, names, input_shape, wtype):
    width = input_shape[3]
    dense = relay.nn.relu(relay.nn.dense(
        relay.reshape(x, [-1, width]), relay.var(names[0], shape=[width, width], dtype=wtype)))
    channels = input_shape[1]
    conv = relay.nn.softmax(relay.nn.conv2d(
        x, relay.var(names[1], shape=[channels, channels, 3, 3], dtype=wtype), padding=1, kernel_size=3))
    return relay.add(relay.reshape_like(dense, data), conv)


def get_net(input_shape=(1, 3, 24, 12), dtype="float32", wtype=None):
    """The synthetic network as a relay Function of ``data`` of ``input_shape`` (NCHW)."""
    wtype = dtype if wtype is None else wtype
    data = relay.var("data", shape=input_shape, dtype=dtype)
    first = _dense_conv_sum(data, data, ("dense_weight", "conv_weight"), input_shape, wtype)
    # TVM passes dtype= without a shape here: the bias's type is left to inference.
    biased = layers.batch_norm_infer(relay.nn.bias_add(first, relay.var("bias")), name="batch_norm")
    out = _dense_conv_sum(biased, data, ("dense2_weight", "conv2_weight"), input_shape, wtype)
    return relay.Function(relay.analysis.free_vars(out), out)


def get_workload(input_shape=(1, 3, 24, 12), dtype="float32", wtype=None):
    """``(mod, params)`` of the synthetic network (``Constant`` weights)."""
    return create_workload(get_net(input_shape=input_shape, dtype=dtype, wtype=wtype),
                           initializer=Constant())
