"""relay-mlir's own torchvision-style ResNets (TVM's v2 ResNet is ``relay_mlir.testing.resnet``).

Two families share ``get_workload``:

* ``num_layers=None`` (the default): the small ResNet-style demo CNN of
  ``relay-mlir demo`` - stem conv3x3-bn-relu -> max_pool 3x3/2 (pad 1) ->
  identity residual block -> strided residual block (shortcut: avg_pool 2x2
  + conv1x1-bn) -> global_avg_pool2d -> batch_flatten -> dense -> bias_add
  -> softmax. Its weights are named ``stem_weight``, ... and
  ``numpy_ref.resnet_forward`` computes it in numpy.
* ``num_layers=18|34|50|101|152``: the ResNet v1 of He et al. (basic blocks
  for 18/34, bottlenecks for 50+; conv7x7/2 stem, max_pool, four stages,
  global average pool, fully connected), returning logits. ``width`` is the
  channel count of the first stage (64 in the paper; 8 keeps CI cheap).
  Weights are named like the ``state_dict`` of
  ``relay_mlir.models.torch_models.ResNet`` (``layer1.0.conv1.weight``).

Example::

    >>> from relay_mlir.models import resnet
    >>> mod, params = resnet.get_workload(batch_size=1, image_shape=(3, 16, 16))
    >>> [p.name_hint for p in mod["main"].params][:2]
    ['data', 'stem_weight']
    >>> params["fc_weight"].shape
    (10, 32)
    >>> mod, params = resnet.get_workload(num_layers=18, num_classes=5, width=8)
    >>> params["layer4.1.conv2.weight"].shape, params["fc.weight"].shape
    ((64, 64, 3, 3), (5, 64))
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .. import expr as E
from ..analysis import free_vars
from ..module import IRModule
from ..op import nn

__all__ = ["get_net", "get_workload", "init_params", "resnet"]

# blocks per stage and block kind, as in He et al.
RESNET_SPECS = {
    18: ("basic", (2, 2, 2, 2)),
    34: ("basic", (3, 4, 6, 3)),
    50: ("bottleneck", (3, 4, 6, 3)),
    101: ("bottleneck", (3, 4, 23, 3)),
    152: ("bottleneck", (3, 8, 36, 3)),
}


def _conv_bn(x: E.Expr, name: str, in_ch: int, out_ch: int, k: int, stride: int, pad: int,
             relu: bool, specs: List[Tuple[str, tuple]], dtype: str) -> E.Expr:
    w = E.var(f"{name}_weight", shape=(out_ch, in_ch, k, k), dtype=dtype)
    specs.append((w.name_hint, (out_ch, in_ch, k, k)))
    y = nn.conv2d(x, w, strides=(stride, stride), padding=(pad, pad), channels=out_ch,
                  kernel_size=(k, k))
    bn_vars = []
    for suffix in ("gamma", "beta", "moving_mean", "moving_var"):
        v = E.var(f"{name}_bn_{suffix}", shape=(out_ch,), dtype=dtype)
        specs.append((v.name_hint, (out_ch,)))
        bn_vars.append(v)
    y = nn.batch_norm(y, *bn_vars, epsilon=2e-5)[0]
    return nn.relu(y) if relu else y


def get_net(batch_size: int = 1, num_classes: int = 10, image_shape: Sequence[int] = (3, 32, 32),
            width: int = 16, dtype: str = "float32") -> Tuple[E.Function, List[Tuple[str, tuple]]]:
    """The network as a ``Function`` of ``data`` and its weights, plus ``(name, shape)`` of each weight."""
    specs: List[Tuple[str, tuple]] = []
    c = image_shape[0]
    data = E.var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    x = _conv_bn(data, "stem", c, width, 3, 1, 1, True, specs, dtype)
    x = nn.max_pool2d(x, pool_size=(3, 3), strides=(2, 2), padding=(1, 1))
    y = _conv_bn(x, "stage1_conv1", width, width, 3, 1, 1, True, specs, dtype)
    y = _conv_bn(y, "stage1_conv2", width, width, 3, 1, 1, False, specs, dtype)
    x = nn.relu(x + y)
    y = _conv_bn(x, "stage2_conv1", width, 2 * width, 3, 2, 1, True, specs, dtype)
    y = _conv_bn(y, "stage2_conv2", 2 * width, 2 * width, 3, 1, 1, False, specs, dtype)
    s = nn.avg_pool2d(x, pool_size=(2, 2), strides=(2, 2))
    s = _conv_bn(s, "stage2_proj", width, 2 * width, 1, 1, 0, False, specs, dtype)
    x = nn.relu(s + y)
    x = nn.batch_flatten(nn.global_avg_pool2d(x))
    fc_w = E.var("fc_weight", shape=(num_classes, 2 * width), dtype=dtype)
    fc_b = E.var("fc_bias", shape=(num_classes,), dtype=dtype)
    specs += [(fc_w.name_hint, (num_classes, 2 * width)), (fc_b.name_hint, (num_classes,))]
    x = nn.bias_add(nn.dense(x, fc_w, units=num_classes), fc_b, axis=-1)
    x = nn.softmax(x, axis=-1)
    by_name = {v.name_hint: v for v in _collect_vars(x)}
    params = [data] + [by_name[name] for name, _ in specs]  # weights in creation order
    return E.Function(params, x), specs


def _collect_vars(body: E.Expr) -> List[E.Var]:
    return free_vars(body)


def init_params(specs: Sequence[Tuple[str, tuple]], seed: int = 0,
                dtype: str = "float32") -> Dict[str, np.ndarray]:
    """Seeded random weights: He-normal convs, bn stats near identity, small dense."""
    rng = np.random.default_rng(seed)
    out: Dict[str, np.ndarray] = {}
    for name, shape in specs:
        if name.endswith("_bn_gamma") or name.endswith("_bn_moving_var"):
            v = rng.uniform(0.5, 1.5, size=shape)
        elif name.endswith("_bn_beta") or name.endswith("_bn_moving_mean") or name.endswith("_bias"):
            v = rng.normal(0.0, 0.1, size=shape)
        elif name == "fc_weight":  # keep the logits O(1) so softmax is not saturated
            v = rng.normal(0.0, 0.5 / np.sqrt(shape[1]), size=shape)
        else:
            fan_in = int(np.prod(shape[1:]))
            v = rng.normal(0.0, np.sqrt(2.0 / fan_in), size=shape)
        out[name] = v.astype(dtype)
    return out


def _block(pb, x: E.Expr, name: str, kind: str, in_ch: int, ch: int, stride: int,
           eps: float) -> Tuple[E.Expr, int]:
    """One residual block (torchvision's layout: stride on the 3x3 conv)."""
    expansion = 1 if kind == "basic" else 4
    out_ch = ch * expansion
    if kind == "basic":
        y = nn.relu(pb.batch_norm(pb.conv2d(x, f"{name}.conv1", in_ch, ch, 3, stride, 1),
                                  f"{name}.bn1", ch, eps))
        y = pb.batch_norm(pb.conv2d(y, f"{name}.conv2", ch, ch, 3, 1, 1), f"{name}.bn2", ch, eps)
    else:
        y = nn.relu(pb.batch_norm(pb.conv2d(x, f"{name}.conv1", in_ch, ch, 1), f"{name}.bn1", ch, eps))
        y = nn.relu(pb.batch_norm(pb.conv2d(y, f"{name}.conv2", ch, ch, 3, stride, 1),
                                  f"{name}.bn2", ch, eps))
        y = pb.batch_norm(pb.conv2d(y, f"{name}.conv3", ch, out_ch, 1), f"{name}.bn3", out_ch, eps)
    if stride != 1 or in_ch != out_ch:
        x = pb.batch_norm(pb.conv2d(x, f"{name}.downsample.0", in_ch, out_ch, 1, stride),
                          f"{name}.downsample.1", out_ch, eps)
    return nn.relu(x + y), out_ch


def resnet(num_layers: int = 18, batch_size: int = 1, num_classes: int = 1000,
           image_shape: Sequence[int] = (3, 224, 224), width: int = 64, dtype: str = "float32",
           eps: float = 1e-5):
    """ResNet-``num_layers`` as ``(Function, ParamBuilder)``; ``main(data, weights...)``."""
    from .layers import ParamBuilder
    if num_layers not in RESNET_SPECS:
        raise ValueError(f"num_layers must be one of {sorted(RESNET_SPECS)}, got {num_layers}")
    kind, blocks = RESNET_SPECS[num_layers]
    pb = ParamBuilder(dtype)
    data = E.var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    x = pb.conv2d(data, "conv1", image_shape[0], width, 7, 2, 3)
    x = nn.relu(pb.batch_norm(x, "bn1", width, eps))
    x = nn.max_pool2d(x, pool_size=(3, 3), strides=(2, 2), padding=(1, 1))
    in_ch = width
    for stage, n in enumerate(blocks):
        ch = width * 2 ** stage
        for b in range(n):
            stride = 2 if (stage > 0 and b == 0) else 1
            x, in_ch = _block(pb, x, f"layer{stage + 1}.{b}", kind, in_ch, ch, stride, eps)
    x = nn.batch_flatten(nn.global_avg_pool2d(x))
    x = pb.dense(x, "fc", in_ch, num_classes)
    return E.Function([data] + pb.weights(), x), pb


def get_workload(batch_size: int = 1, num_classes: Optional[int] = None,
                 image_shape: Sequence[int] = (3, 32, 32), width: Optional[int] = None,
                 dtype: str = "float32", seed: int = 0,
                 num_layers: Optional[int] = None) -> Tuple[IRModule, Dict[str, np.ndarray]]:
    """``(mod, params)``, shaped like ``relay.testing``'s ``get_workload`` results.

    ``mod["main"]`` takes ``data`` and every weight; pass ``params`` to
    ``relay_mlir.compile(mod, params=params)`` to bake the weights in.

    Without ``num_layers`` this is the demo CNN (``num_classes`` 10, ``width``
    16, softmax output); with ``num_layers`` in 18, 34, 50, 101, 152 it is
    that ResNet (``num_classes`` 1000, ``width`` 64, logits output).
    """
    if num_layers is not None:
        fn, pb = resnet(num_layers, batch_size, 1000 if num_classes is None else num_classes,
                        image_shape, 64 if width is None else width, dtype)
        return IRModule.from_expr(fn), pb.init(seed)
    fn, specs = get_net(batch_size, 10 if num_classes is None else num_classes, image_shape,
                        16 if width is None else width, dtype)
    return IRModule.from_expr(fn), init_params(specs, seed, dtype)
