"""MobileNetV2 (Sandler et al. 2018) built with the Relay-style API.

stem conv3x3/2-bn-relu6 -> 17 inverted residual blocks (1x1 expand -
depthwise 3x3 - 1x1 linear projection, identity shortcut when shapes allow)
-> conv1x1-bn-relu6 -> global average pool -> dropout -> dense (logits).
``width_mult`` scales every channel count (rounded to multiples of 8);
``last_channel`` is 1280 unless given.

Weights are named like the ``state_dict`` of
``relay_mlir.models.torch_models.MobileNetV2``.

Example::

    >>> from relay_mlir.models import mobilenet_v2
    >>> mod, params = mobilenet_v2.get_workload(num_classes=10, width_mult=0.25, last_channel=64)
    >>> params["features.1.depthwise.conv.weight"].shape   # depthwise: one input channel per group
    (8, 1, 3, 3)
    >>> params["classifier.weight"].shape
    (10, 64)
"""
from __future__ import annotations

from typing import Dict, Optional, Sequence, Tuple

import numpy as np

from .. import expr as E
from ..module import IRModule
from ..op import nn
from .layers import ParamBuilder, relu6

__all__ = ["get_workload", "mobilenet_v2", "INVERTED_RESIDUAL_SETTING", "make_divisible"]

# expansion t, output channels c, repeats n, first stride s (Table 2 of the paper)
INVERTED_RESIDUAL_SETTING = [
    (1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
    (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1),
]


def make_divisible(v: float, divisor: int = 8) -> int:
    """``v`` rounded to a multiple of ``divisor``, never more than 10% below ``v``.

    >>> make_divisible(32 * 0.25), make_divisible(24 * 0.35)
    (8, 8)
    """
    new_v = max(divisor, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


def _conv_bn(pb: ParamBuilder, x: E.Expr, name: str, cin: int, cout: int, k: int, stride: int,
             groups: int, act: bool) -> E.Expr:
    y = pb.conv2d(x, f"{name}.conv", cin, cout, k, stride, (k - 1) // 2, groups=groups)
    y = pb.batch_norm(y, f"{name}.bn", cout)
    return relu6(y) if act else y


def mobilenet_v2(batch_size: int = 1, num_classes: int = 1000,
                 image_shape: Sequence[int] = (3, 224, 224), width_mult: float = 1.0,
                 last_channel: Optional[int] = None, dtype: str = "float32"):
    """The network as ``(Function, ParamBuilder)``; ``main(data, weights...)``."""
    pb = ParamBuilder(dtype)
    data = E.var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    cin = make_divisible(32 * width_mult)
    x = _conv_bn(pb, data, "features.0", image_shape[0], cin, 3, 2, 1, True)
    idx = 1
    for t, c, n, s in INVERTED_RESIDUAL_SETTING:
        cout = make_divisible(c * width_mult)
        for i in range(n):
            stride = s if i == 0 else 1
            name = f"features.{idx}"
            hidden = cin * t
            y = x
            if t != 1:
                y = _conv_bn(pb, y, f"{name}.expand", cin, hidden, 1, 1, 1, True)
            y = _conv_bn(pb, y, f"{name}.depthwise", hidden, hidden, 3, stride, hidden, True)
            y = _conv_bn(pb, y, f"{name}.project", hidden, cout, 1, 1, 1, False)
            x = x + y if (stride == 1 and cin == cout) else y
            cin = cout
            idx += 1
    last = last_channel if last_channel is not None else make_divisible(1280 * max(1.0, width_mult))
    x = _conv_bn(pb, x, f"features.{idx}", cin, last, 1, 1, 1, True)
    x = nn.batch_flatten(nn.global_avg_pool2d(x))
    x = nn.dropout(x, rate=0.2)
    x = pb.dense(x, "classifier", last, num_classes)
    return E.Function([data] + pb.weights(), x), pb


def get_workload(batch_size: int = 1, num_classes: int = 1000,
                 image_shape: Sequence[int] = (3, 224, 224), width_mult: float = 1.0,
                 last_channel: Optional[int] = None, dtype: str = "float32",
                 seed: int = 0) -> Tuple[IRModule, Dict[str, np.ndarray]]:
    """``(mod, params)``: MobileNetV2 logits of ``data`` (NCHW) with seeded weights."""
    fn, pb = mobilenet_v2(batch_size, num_classes, image_shape, width_mult, last_channel, dtype)
    return IRModule.from_expr(fn), pb.init(seed)
