"""A multilayer perceptron, as TVM 0.19's ``relay.testing.mlp``.

batch_flatten(data) -> dense 128 -> relu -> dense 64 -> relu -> dense num_classes ->
softmax, every dense followed by bias_add (``fc1..fc3_weight/_bias``).

    >>> mod, params = get_workload(batch_size=1)
    >>> list(params)
    ['fc1_weight', 'fc1_bias', 'fc2_weight', 'fc2_bias', 'fc3_weight', 'fc3_bias']
    >>> params["fc1_weight"].shape
    (128, 784)
"""
import relay_mlir as relay

from .init import create_workload

__all__ = ["get_net", "get_workload"]


def get_net(batch_size, num_classes=10, image_shape=(1, 28, 28), dtype="float32"):
    """The MLP as a relay Function of ``data`` (``(batch_size,) + image_shape``) and its weights."""
    data = relay.var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    out = relay.nn.batch_flatten(data)
    for i, units in enumerate((128, 64, num_classes), start=1):
        out = relay.nn.dense(out, relay.var(f"fc{i}_weight"), units=units)
        out = relay.nn.bias_add(out, relay.var(f"fc{i}_bias"), axis=-1)
        if i < 3:
            out = relay.nn.relu(out)
    out = relay.nn.softmax(out)
    return relay.Function(relay.analysis.free_vars(out), out)


def get_workload(batch_size, num_classes=10, image_shape=(1, 28, 28), dtype="float32"):
    """``(mod, params)`` of the MLP (Xavier weights, seed 0)."""
    return create_workload(get_net(batch_size, num_classes, image_shape, dtype))
