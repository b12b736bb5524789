"""VGG (Simonyan & Zisserman 2014), relay-mlir's own (TVM's is ``relay_mlir.testing.vgg``).

``num_layers`` 11, 13, 16 or 19 conv+dense layers: stacks of conv3x3-relu
(optionally with batch norm) separated by max_pool 2x2/2, then
adaptive_avg_pool2d to ``pool_size`` x ``pool_size``, then
dense-relu-dropout, dense-relu-dropout, dense (logits). ``width`` is the
first stage's channel count (64 in the paper), ``hidden`` the width of the
classifier (4096).

Weights are named like the ``state_dict`` of
``relay_mlir.models.torch_models.VGG`` (``features.0.weight``,
``classifier.6.bias``: the indices of an ``nn.Sequential``).

Example::

    >>> from relay_mlir.models import vgg
    >>> mod, params = vgg.get_workload(num_classes=10, image_shape=(3, 32, 32), width=4, hidden=32, pool_size=1)
    >>> params["features.28.weight"].shape, params["classifier.0.weight"].shape
    ((32, 32, 3, 3), (32, 32))
"""
from __future__ import annotations

from typing import Dict, List, Sequence, Tuple, Union

import numpy as np

from .. import expr as E
from ..module import IRModule
from ..op import nn
from .layers import ParamBuilder

__all__ = ["get_workload", "vgg", "VGG_CONFIGS"]

# channel multipliers of ``width`` per conv; "M" is a max pool
VGG_CONFIGS: Dict[int, List[Union[int, str]]] = {
    11: [1, "M", 2, "M", 4, 4, "M", 8, 8, "M", 8, 8, "M"],
    13: [1, 1, "M", 2, 2, "M", 4, 4, "M", 8, 8, "M", 8, 8, "M"],
    16: [1, 1, "M", 2, 2, "M", 4, 4, 4, "M", 8, 8, 8, "M", 8, 8, 8, "M"],
    19: [1, 1, "M", 2, 2, "M", 4, 4, 4, 4, "M", 8, 8, 8, 8, "M", 8, 8, 8, 8, "M"],
}


def vgg(num_layers: int = 16, batch_size: int = 1, num_classes: int = 1000,
        image_shape: Sequence[int] = (3, 224, 224), width: int = 64, hidden: int = 4096,
        pool_size: int = 7, batch_norm: bool = False, dtype: str = "float32"):
    """The network as ``(Function, ParamBuilder)``; ``main(data, weights...)``."""
    if num_layers not in VGG_CONFIGS:
        raise ValueError(f"num_layers must be one of {sorted(VGG_CONFIGS)}, got {num_layers}")
    pb = ParamBuilder(dtype)
    data = E.var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    x, cin, idx = data, image_shape[0], 0  # idx: position in the twin's nn.Sequential
    for v in VGG_CONFIGS[num_layers]:
        if v == "M":
            x = nn.max_pool2d(x, pool_size=(2, 2), strides=(2, 2))
            idx += 1
            continue
        cout = width * int(v)
        x = pb.conv2d(x, f"features.{idx}", cin, cout, 3, 1, 1, bias=True)
        idx += 1
        if batch_norm:
            x = pb.batch_norm(x, f"features.{idx}", cout)
            idx += 1
        x = nn.relu(x)
        idx += 1
        cin = cout
    x = nn.adaptive_avg_pool2d(x, output_size=(pool_size, pool_size))
    x = nn.batch_flatten(x)
    x = nn.dropout(nn.relu(pb.dense(x, "classifier.0", cin * pool_size * pool_size, hidden)))
    x = nn.dropout(nn.relu(pb.dense(x, "classifier.3", hidden, hidden)))
    x = pb.dense(x, "classifier.6", hidden, num_classes)
    return E.Function([data] + pb.weights(), x), pb


def get_workload(batch_size: int = 1, num_classes: int = 1000,
                 image_shape: Sequence[int] = (3, 224, 224), num_layers: int = 16,
                 width: int = 64, hidden: int = 4096, pool_size: int = 7, batch_norm: bool = False,
                 dtype: str = "float32", seed: int = 0) -> Tuple[IRModule, Dict[str, np.ndarray]]:
    """``(mod, params)``: VGG-``num_layers`` logits of ``data`` (NCHW) with seeded weights."""
    fn, pb = vgg(num_layers, batch_size, num_classes, image_shape, width, hidden, pool_size,
                 batch_norm, dtype)
    return IRModule.from_expr(fn), pb.init(seed)
