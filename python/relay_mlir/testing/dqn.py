"""The Nature DQN (Mnih et al. 2015), as TVM 0.19's ``relay.testing.dqn``.

Three conv2d + bias_add + relu (32 8x8/4, 64 4x4/2, 64 3x3/1, no padding), batch_flatten,
dense_add_bias 512 + relu, dense_add_bias num_actions. Parameters ``conv1..3_weight/_bias``,
``dense1_weight/_bias``, ``dense2_weight/_bias``.

    >>> mod, params = get_workload(batch_size=1)
    >>> list(params)[:3]
    ['conv1_weight', 'conv1_bias', 'conv2_weight']
"""
import relay_mlir as relay

from . import layers
from .init import create_workload

__all__ = ["get_net", "get_workload"]

_CONVS = (("conv1", 32, 8, 4), ("conv2", 64, 4, 2), ("conv3", 64, 3, 1))


def get_net(batch_size, num_actions=18, image_shape=(4, 84, 84), dtype="float32", layout="NCHW"):
    """The DQN as a relay Function; ``layout`` is NCHW or NHWC (kernels OIHW / HWIO)."""
    out = relay.var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    for name, channels, kernel, stride in _CONVS:
        bias = relay.var(f"{name}_bias")
        out = layers.conv2d(out, kernel_size=(kernel, kernel), strides=(stride, stride), padding=(0, 0),
                            channels=channels, name=name, data_layout=layout,
                            kernel_layout=layers.conv_kernel_layout(layout))
        out = relay.nn.relu(relay.nn.bias_add(out, bias, layout.index("C")))
    out = relay.nn.batch_flatten(out)
    out = relay.nn.relu(layers.dense_add_bias(out, units=512, name="dense1"))
    out = layers.dense_add_bias(out, units=num_actions, name="dense2")
    return relay.Function(relay.analysis.free_vars(out), out)


def get_workload(batch_size, num_actions=18, image_shape=(4, 84, 84), dtype="float32", layout="NCHW"):
    """``(mod, params)`` of the DQN (Xavier weights, seed 0)."""
    return create_workload(get_net(batch_size, num_actions=num_actions, image_shape=image_shape,
                                   dtype=dtype, layout=layout))
