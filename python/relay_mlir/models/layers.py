"""Building blocks of relay-mlir's own model zoo (TVM's are ``relay_mlir.testing.layers``).

Every zoo model is a Relay ``Function`` whose parameters are the model
inputs followed by its weights, in creation order; ``get_workload`` returns
``(IRModule, params)`` with seeded random weights, as
``tvm.relay.testing.*.get_workload`` does, and ``relay_mlir.compile(mod,
params=params)`` bakes the weights in as constants.

Weights are named exactly like the ``state_dict`` keys of the model's
PyTorch twin in ``relay_mlir.models.torch_models`` (``layer1.0.conv1.weight``,
``bn1.running_mean``, ...), so one ``params`` dict serves both:
``torch_models.load_params(module, params)`` and
``torch_models.params_from_torch(module)`` convert between them.

Example::

    >>> import relay_mlir as relay
    >>> from relay_mlir.models.layers import ParamBuilder
    >>> pb = ParamBuilder()
    >>> x = relay.var("x", shape=(1, 8))
    >>> y = pb.dense(x, "fc", 8, 4)
    >>> [name for name, _, _ in pb.specs]
    ['fc.weight', 'fc.bias']
    >>> sorted(pb.init(seed=0)["fc.weight"].shape)
    [4, 8]
"""
from __future__ import annotations

from typing import Dict, List, Sequence, Tuple

import numpy as np

from .. import expr as E
from .. import op
from ..module import IRModule
from ..op import nn

__all__ = ["ParamBuilder", "init_param", "make_workload"]

# (name, shape, kind) of every weight; ``kind`` selects the initialiser.
Spec = Tuple[str, Tuple[int, ...], str]


def init_param(rng: np.random.Generator, shape: Sequence[int], kind: str) -> np.ndarray:
    """One seeded random weight of ``kind``.

    Kinds: ``conv`` (He normal), ``dense`` (normal, std 1/sqrt(fan_in)),
    ``bias`` / ``beta`` / ``mean`` (normal, std 0.1), ``gamma`` / ``var``
    (uniform 0.5..1.5), ``ln_gamma`` (uniform 0.8..1.2), ``embed`` (normal,
    std 0.5), ``lstm`` (uniform +-1/sqrt(hidden), PyTorch's rule; the hidden
    size is ``shape[-1]`` of the recurrent weight, passed as ``lstm:H``).
    The scales keep activations O(1) through deep random networks.
    """
    shape = tuple(int(s) for s in shape)
    if kind == "conv":
        fan_in = int(np.prod(shape[1:]))
        return rng.normal(0.0, np.sqrt(2.0 / fan_in), size=shape)
    if kind == "dense":
        return rng.normal(0.0, 1.0 / np.sqrt(shape[-1]), size=shape)
    if kind in ("bias", "beta", "mean"):
        return rng.normal(0.0, 0.1, size=shape)
    if kind in ("gamma", "var"):
        return rng.uniform(0.5, 1.5, size=shape)
    if kind == "ln_gamma":
        return rng.uniform(0.8, 1.2, size=shape)
    if kind == "embed":
        return rng.normal(0.0, 0.5, size=shape)
    if kind.startswith("lstm:"):
        k = 1.0 / np.sqrt(int(kind.split(":", 1)[1]))
        return rng.uniform(-k, k, size=shape)
    raise ValueError(f"unknown weight kind '{kind}'")


class ParamBuilder:
    """Creates weight ``Var``s (recording name, shape and initialiser) and common layers.

    Layer helpers take the PyTorch module path as ``name`` and create
    ``name.weight`` / ``name.bias`` / ``name.running_mean`` ... like
    ``torch.nn`` does, so names match the twin's ``state_dict``.
    """

    def __init__(self, dtype: str = "float32") -> None:
        self.dtype = dtype
        self.specs: List[Spec] = []
        self.vars: Dict[str, E.Var] = {}

    # -- weights -------------------------------------------------------------
    def param(self, name: str, shape: Sequence[int], kind: str) -> E.Var:
        """A new weight variable ``name`` of ``shape``."""
        if name in self.vars:
            raise ValueError(f"weight '{name}' created twice")
        shape = tuple(int(s) for s in shape)
        v = E.var(name, shape=shape, dtype=self.dtype)
        self.vars[name] = v
        self.specs.append((name, shape, kind))
        return v

    def weights(self) -> List[E.Var]:
        """The weight variables in creation order."""
        return [self.vars[name] for name, _, _ in self.specs]

    def init(self, seed: int = 0) -> Dict[str, np.ndarray]:
        """Seeded random values for every weight (in creation order, so a
        model's weights do not change when another model is added)."""
        rng = np.random.default_rng(seed)
        return {name: init_param(rng, shape, kind).astype(self.dtype)
                for name, shape, kind in self.specs}

    # -- layers ----------------------------------------------------------------
    def conv2d(self, x: E.Expr, name: str, in_ch: int, out_ch: int, kernel: int, stride: int = 1,
               padding: int = 0, groups: int = 1, bias: bool = False) -> E.Expr:
        """``nn.Conv2d(in_ch, out_ch, kernel, stride, padding, groups=groups, bias=bias)``."""
        w = self.param(f"{name}.weight", (out_ch, in_ch // groups, kernel, kernel), "conv")
        y = nn.conv2d(x, w, strides=(stride, stride), padding=(padding, padding), groups=groups,
                      channels=out_ch, kernel_size=(kernel, kernel))
        if bias:
            y = nn.bias_add(y, self.param(f"{name}.bias", (out_ch,), "bias"), axis=1)
        return y

    def batch_norm(self, x: E.Expr, name: str, ch: int, eps: float = 1e-5) -> E.Expr:
        """``nn.BatchNorm2d(ch, eps)`` in inference mode."""
        g = self.param(f"{name}.weight", (ch,), "gamma")
        b = self.param(f"{name}.bias", (ch,), "beta")
        m = self.param(f"{name}.running_mean", (ch,), "mean")
        v = self.param(f"{name}.running_var", (ch,), "var")
        return nn.batch_norm(x, g, b, m, v, axis=1, epsilon=eps)[0]

    def dense(self, x: E.Expr, name: str, in_features: int, out_features: int,
              bias: bool = True) -> E.Expr:
        """``nn.Linear(in_features, out_features)`` on the last axis of ``x``."""
        w = self.param(f"{name}.weight", (out_features, in_features), "dense")
        y = nn.dense(x, w, units=out_features)
        if bias:
            y = nn.bias_add(y, self.param(f"{name}.bias", (out_features,), "bias"), axis=-1)
        return y

    def layer_norm(self, x: E.Expr, name: str, features: int, eps: float = 1e-5) -> E.Expr:
        """``nn.LayerNorm(features, eps)`` over the last axis."""
        g = self.param(f"{name}.weight", (features,), "ln_gamma")
        b = self.param(f"{name}.bias", (features,), "beta")
        return nn.layer_norm(x, g, b, axis=-1, epsilon=eps)

    def embedding(self, ids: E.Expr, name: str, num: int, dim: int) -> E.Expr:
        """``nn.Embedding(num, dim)``: rows of the table at ``ids``."""
        table = self.param(f"{name}.weight", (num, dim), "embed")
        return op.take(table, ids, axis=0)


def make_workload(inputs: Sequence[E.Var], body: E.Expr, pb: ParamBuilder,
                  seed: int) -> Tuple[IRModule, Dict[str, np.ndarray]]:
    """``(IRModule, params)``: ``main(inputs..., weights...)`` and seeded weights."""
    fn = E.Function(list(inputs) + pb.weights(), body)
    return IRModule.from_expr(fn), pb.init(seed)


def relu6(x: E.Expr) -> E.Expr:
    """``min(max(x, 0), 6)`` (``nn.ReLU6``)."""
    return op.clip(x, 0.0, 6.0)
