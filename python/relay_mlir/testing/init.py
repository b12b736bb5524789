"""Parameter initializers and ``create_workload``, as TVM 0.19's ``relay.testing.init``.

An initializer is called as ``init(name, array)`` and fills the numpy ``array`` in place,
choosing by the end of the name as TVM does: ``*weight`` -> ``_init_weight`` (abstract),
``*bias``/``*beta``/``*mean`` -> 0, ``*gamma``/``*var`` -> 1, anything else a ValueError.
``Xavier(rnd_type="uniform", factor_type="avg", magnitude=3)`` draws
``uniform(-s, s)`` with ``s = sqrt(magnitude / factor)``, ``factor`` the average (or the
in / out) fan of the weight's shape (``shape[1] * prod(shape[2:])`` in,
``shape[0] * prod(shape[2:])`` out), or ``prod(shape[2:])`` when the name contains
"depthwise". ``Constant()`` fills every weight with ``1 / size``.

``create_workload(net, initializer=None, seed=0)`` types ``net`` (InferType solves untyped
weights from their operators, as TVM's), seeds numpy's global generator with ``seed`` and
initializes every parameter but ``data`` in parameter order, like TVM: the same numpy calls
in the same order, so the values equal TVM 0.19's for the same network.

    >>> import numpy as np
    >>> w = np.zeros((4, 2, 3, 3), "float32")
    >>> np.random.seed(0); Xavier()("conv_weight", w)
    >>> bool(np.abs(w).max() <= np.sqrt(3 / ((2 * 9 + 4 * 9) / 2)))
    True
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

import numpy as np

from ..expr import Function
from ..module import IRModule
from ..transform import InferType

__all__ = ["Initializer", "Xavier", "Constant", "create_workload"]


class Initializer:
    """Base class: dispatches on the end of the parameter name (see the module docstring)."""

    _BY_SUFFIX = (("weight", "_init_weight"), ("bias", "_init_bias"), ("gamma", "_init_gamma"),
                  ("beta", "_init_beta"), ("mean", "_init_mean"), ("var", "_init_var"))

    def __init__(self, **kwargs) -> None:
        self._kwargs = kwargs

    def __call__(self, desc: str, arr: np.ndarray) -> None:
        for suffix, method in self._BY_SUFFIX:
            if desc.endswith(suffix):
                getattr(self, method)(desc, arr)
                return
        self._init_default(desc, arr)

    def _init_bias(self, _name: str, arr: np.ndarray) -> None:
        arr[...] = 0.0

    def _init_gamma(self, _name: str, arr: np.ndarray) -> None:
        arr[...] = 1.0

    def _init_beta(self, _name: str, arr: np.ndarray) -> None:
        arr[...] = 0.0

    def _init_mean(self, _name: str, arr: np.ndarray) -> None:
        arr[...] = 0.0

    def _init_var(self, _name: str, arr: np.ndarray) -> None:
        arr[...] = 1.0

    def _init_weight(self, name: str, arr: np.ndarray) -> None:
        raise NotImplementedError(f"{type(self).__name__} does not initialize weights ({name})")

    def _init_default(self, name: str, _arr: np.ndarray) -> None:
        raise ValueError(f"unknown initialization pattern for {name!r}: the name must end in "
                         "'weight', 'bias', 'gamma', 'beta', 'mean' or 'var'")


class Xavier(Initializer):
    """Xavier/Glorot uniform initialization of weights (TVM 0.19's defaults)."""

    def __init__(self, rnd_type: str = "uniform", factor_type: str = "avg", magnitude: float = 3) -> None:
        super().__init__(rnd_type=rnd_type, factor_type=factor_type, magnitude=magnitude)
        if rnd_type != "uniform":
            raise ValueError(f"Xavier: rnd_type must be 'uniform' (as in TVM 0.19), got {rnd_type!r}")
        if factor_type not in ("avg", "in", "out"):
            raise ValueError(f"Xavier: factor_type must be 'avg', 'in' or 'out', got {factor_type!r}")
        self.rnd_type, self.factor_type, self.magnitude = rnd_type, factor_type, float(magnitude)

    def _init_weight(self, name: str, arr: np.ndarray) -> None:
        shape = arr.shape
        if len(shape) < 2:
            raise ValueError(f"Xavier initializer cannot be applied to vector {name}: it needs >= 2 dims")
        receptive = float(np.prod(shape[2:])) if len(shape) > 2 else 1.0
        fans = {"in": shape[1] * receptive, "out": shape[0] * receptive}
        fans["avg"] = (fans["in"] + fans["out"]) / 2.0
        factor = receptive if "depthwise" in name else fans[self.factor_type]
        bound = np.sqrt(self.magnitude / factor)
        arr[...] = np.random.uniform(-bound, bound, size=shape)


class Constant(Initializer):
    """Every weight element is ``1 / size`` (the weights of a tensor sum to 1)."""

    def _init_weight(self, _name: str, arr: np.ndarray) -> None:
        arr[...] = 1.0 / arr.size


def create_workload(net: Function, initializer: Optional[Initializer] = None,
                    seed: int = 0) -> Tuple[IRModule, Dict[str, object]]:
    """``(mod, params)`` of ``net``: ``mod`` is typed; ``params`` maps each parameter name
    but ``data`` to an NDArray (``relay_mlir.tvm.nd``), in parameter order (a name used by
    several parameters keeps its first place and its last value, as TVM's dict does)."""
    from ..tvm.runtime.ndarray import array as nd_array

    if not isinstance(net, Function):
        raise TypeError(f"create_workload expects a relay Function, got {type(net).__name__}")
    mod = InferType()(IRModule.from_expr(net))
    np.random.seed(seed)
    initializer = initializer if initializer else Xavier()
    params: Dict[str, object] = {}
    types = {p.name_hint: p.checked_type for p in mod["main"].params}
    for name, ty in types.items():
        if name == "data":
            continue
        value = np.zeros([int(d) for d in ty.shape], ty.dtype)
        initializer(name, value)
        params[name] = nd_array(value)
    return mod, params
