"""The Nature DQN (Mnih et al. 2015), relay-mlir's own (TVM's is ``relay_mlir.testing.dqn``).

conv 8x8/4 -> relu -> conv 4x4/2 -> relu -> conv 3x3/1 -> relu -> flatten
-> dense ``hidden`` -> relu -> dense ``num_actions`` (Q-values). The
paper's input is 4 stacked 84x84 frames; ``channels`` scales the convs.

Weights are named like the ``state_dict`` of
``relay_mlir.models.torch_models.DQN``.

Example::

    >>> from relay_mlir.models import dqn
    >>> mod, params = dqn.get_workload(num_actions=6)
    >>> params["fc1.weight"].shape, params["fc2.weight"].shape
    ((512, 3136), (6, 512))
"""
from __future__ import annotations

from typing import Dict, Sequence, Tuple

import numpy as np

from .. import expr as E
from ..module import IRModule
from ..op import nn
from .layers import ParamBuilder

__all__ = ["get_workload", "dqn", "conv_out"]


def conv_out(n: int, k: int, s: int) -> int:
    """Output size of an unpadded convolution."""
    return (n - k) // s + 1


def dqn(batch_size: int = 1, num_actions: int = 18, image_shape: Sequence[int] = (4, 84, 84),
        channels: Sequence[int] = (32, 64, 64), hidden: int = 512, dtype: str = "float32"):
    """The network as ``(Function, ParamBuilder)``; ``main(data, weights...)``."""
    pb = ParamBuilder(dtype)
    data = E.var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    c1, c2, c3 = channels
    x = nn.relu(pb.conv2d(data, "conv1", image_shape[0], c1, 8, 4, bias=True))
    x = nn.relu(pb.conv2d(x, "conv2", c1, c2, 4, 2, bias=True))
    x = nn.relu(pb.conv2d(x, "conv3", c2, c3, 3, 1, bias=True))
    h = conv_out(conv_out(conv_out(image_shape[1], 8, 4), 4, 2), 3, 1)
    w = conv_out(conv_out(conv_out(image_shape[2], 8, 4), 4, 2), 3, 1)
    x = nn.batch_flatten(x)
    x = nn.relu(pb.dense(x, "fc1", c3 * h * w, hidden))
    x = pb.dense(x, "fc2", hidden, num_actions)
    return E.Function([data] + pb.weights(), x), pb


def get_workload(batch_size: int = 1, num_actions: int = 18,
                 image_shape: Sequence[int] = (4, 84, 84), channels: Sequence[int] = (32, 64, 64),
                 hidden: int = 512, dtype: str = "float32",
                 seed: int = 0) -> Tuple[IRModule, Dict[str, np.ndarray]]:
    """``(mod, params)``: Q-values of ``data`` (NCHW frames) with seeded weights."""
    fn, pb = dqn(batch_size, num_actions, image_shape, channels, hidden, dtype)
    return IRModule.from_expr(fn), pb.init(seed)
