"""``relay.quantize.qconfig``: the automatic quantizer's settings, as TVM 0.19's ``QConfig``.

``qconfig(**overrides)`` makes a configuration from TVM 0.19's defaults; used as a context
manager (``with qconfig(...):``) it is what ``current_qconfig()`` returns inside the block
(outside every block: the defaults). As in TVM, its fields cannot be assigned, an unknown
name is an error, and ``get_nbit_by_kind``/``get_dtype_by_kind`` read the field of an
annotation kind.

>>> from relay_mlir.quantize import qconfig, current_qconfig
>>> current_qconfig().global_scale
8.0
>>> with qconfig(calibrate_mode="percentile", skip_dense_layer=False):
...     current_qconfig().calibrate_mode, current_qconfig().skip_conv_layers
('percentile', [0])
"""
from __future__ import annotations

import threading
from typing import Dict, List

__all__ = ["QAnnotateKind", "QConfig", "qconfig", "current_qconfig"]


class QAnnotateKind:
    """TVM's annotation kinds: which ``nbit_*``/``dtype_*`` field a quantized value uses."""

    IDENTITY = 0
    INPUT = 1
    WEIGHT = 2
    ACTIVATION = 3

    NAMES = {IDENTITY: "identity", INPUT: "input", WEIGHT: "weight", ACTIVATION: "activation"}


_DEFAULTS: Dict[str, object] = {
    "nbit_input": 8,
    "nbit_weight": 8,
    "nbit_activation": 32,
    "dtype_input": "int8",
    "dtype_weight": "int8",
    "dtype_activation": "int32",
    "calibrate_mode": "global_scale",
    "global_scale": 8.0,
    "weight_scale": "power2",
    "skip_dense_layer": True,
    "skip_conv_layers": [0],
    "do_simulation": False,
    "round_for_shift": True,
    "debug_enabled_ops": None,
    "rounding": "UPWARD",
    "calibrate_chunk_by": -1,
    "partition_conversions": "disabled",
}

_CHOICES = {
    "calibrate_mode": ("global_scale", "kl_divergence", "percentile"),
    "weight_scale": ("power2", "max"),
    "rounding": ("UPWARD", "TONEAREST"),
    "partition_conversions": ("disabled", "enabled", "fully_integral"),
}


def _checked(name: str, value: object) -> object:
    if name in _CHOICES and value not in _CHOICES[name]:
        raise ValueError(f"qconfig: {name} must be one of {', '.join(map(repr, _CHOICES[name]))}, "
                         f"got {value!r}")
    if name == "skip_conv_layers" and value is not None:
        return [int(i) for i in value]  # type: ignore[union-attr]
    if name == "debug_enabled_ops" and value is not None:
        return [str(n) for n in value]  # type: ignore[union-attr]
    if name == "global_scale":
        if not float(value) > 0:  # type: ignore[arg-type]
            raise ValueError(f"qconfig: global_scale must be positive, got {value!r}")
        return float(value)  # type: ignore[arg-type]
    return value


class QConfig:
    """An immutable quantization configuration; make one with ``qconfig(...)``."""

    def __init__(self, fields: Dict[str, object]) -> None:
        object.__setattr__(self, "_fields", fields)

    def __getattr__(self, name: str) -> object:
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(f"QConfig has no field '{name}'") from None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"'QConfig' object cannot set attribute '{name}'")

    def guard(self, call) -> bool:
        """True if ``call``'s operator may be quantized (``debug_enabled_ops`` lists them)."""
        return self.debug_enabled_ops is None or call.op.name in self.debug_enabled_ops

    def get_nbit_by_kind(self, kind: int) -> int:
        return self._fields["nbit_" + QAnnotateKind.NAMES[kind]]  # type: ignore[return-value]

    def get_dtype_by_kind(self, kind: int) -> str:
        return self._fields["dtype_" + QAnnotateKind.NAMES[kind]]  # type: ignore[return-value]

    def __enter__(self) -> "QConfig":
        _scopes().append(self)
        return self

    def __exit__(self, *exc) -> None:
        _scopes().pop()

    def __repr__(self) -> str:
        return "qconfig(" + ", ".join(f"{k}={v!r}" for k, v in self._fields.items()) + ")"


class _Scopes(threading.local):
    def __init__(self) -> None:
        self.stack: List[QConfig] = []


_STATE = _Scopes()
_DEFAULT = QConfig(dict(_DEFAULTS))


def _scopes() -> List[QConfig]:
    return _STATE.stack


def qconfig(**kwargs: object) -> QConfig:
    """A configuration: TVM 0.19's defaults with ``kwargs`` replacing fields by name."""
    unknown = sorted(set(kwargs) - set(_DEFAULTS))
    if unknown:
        raise TypeError(f"qconfig: unknown field(s) {', '.join(unknown)}; "
                        f"the fields are {', '.join(_DEFAULTS)}")
    fields = {k: _checked(k, kwargs.get(k, v)) for k, v in _DEFAULTS.items()}
    return QConfig(fields)


def current_qconfig() -> QConfig:
    """The innermost ``with qconfig(...)`` configuration, or the defaults."""
    stack = _scopes()
    return stack[-1] if stack else _DEFAULT
