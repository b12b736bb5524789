"""The converter registry and ``_Ctx``, the view of one FX node a converter gets.

A converter is registered for ATen op packets (``"conv2d"``) or overloads
(``"squeeze.dims"``) with ``@_register``; it takes a ``_Ctx`` (the node, its
arguments by schema name, helpers) and returns a ``_TV`` (a Relay expression with
its torch shape and dtype), a tuple or list of them, or None.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ... import expr as E
from ..common import UnsupportedError

_CONVERTERS: Dict[str, Callable] = {}


def _register(*names: str):
    """Registers a converter for ATen op packets (``"conv2d"``) or overloads (``"squeeze.dims"``)."""
    def deco(fn):
        for n in names:
            _CONVERTERS[n] = fn
        return fn
    return deco


def supported_ops() -> List[str]:
    """The ATen ops (``aten.<name>`` packets, or ``<name>.<overload>``) with a converter."""
    return sorted(_CONVERTERS)


_DTYPES = {
    "float32": "float32", "float64": "float64", "float16": "float16", "int64": "int64",
    "int32": "int32", "int16": "int16", "int8": "int8", "uint8": "uint8", "bool": "bool",
}


def _dtype_name(torch_dtype) -> str:
    name = str(torch_dtype).replace("torch.", "")
    if name not in _DTYPES:
        raise ValueError(name)
    return _DTYPES[name]


class _TV:
    """Shape and dtype of a Relay expression standing for a torch tensor."""

    __slots__ = ("expr", "shape", "dtype")

    def __init__(self, expr: E.Expr, shape: Tuple[int, ...], dtype: str) -> None:
        self.expr, self.shape, self.dtype = expr, tuple(shape), dtype

    @property
    def ndim(self) -> int:
        return len(self.shape)


class _Ctx:
    """What a converter sees: the node, its normalised arguments and helpers."""

    def __init__(self, imp: Any, node, args: Dict[str, Any]) -> None:  # imp: torch._Importer
        self.imp, self.node, self.a = imp, node, args

    # -- errors --------------------------------------------------------------------
    @property
    def op_name(self) -> str:
        return _op_name(self.node.target)

    def unsupported(self, why: str) -> UnsupportedError:
        return self.imp.unsupported(self.node, why)

    # -- output type ---------------------------------------------------------------
    def out(self, i: Optional[int] = None) -> Tuple[Tuple[int, ...], str]:
        val = self.node.meta.get("val")
        if i is not None:
            val = val[i]
        return self.imp.tensor_type(val, self.node)

    # -- operands --------------------------------------------------------------------
    def tv(self, v: Any, dtype: Optional[str] = None) -> _TV:
        """``v`` (an expression, a constant tensor or a Python number) as a typed expression."""
        return self.imp.as_tv(v, dtype, self.node)

    def ex(self, v: Any, dtype: Optional[str] = None) -> E.Expr:
        return self.tv(v, dtype).expr

    def result(self, expr: E.Expr, i: Optional[int] = None) -> _TV:
        shape, dtype = self.out(i)
        return _TV(expr, shape, dtype)


def _op_name(target) -> str:
    return str(target) if not callable(target) or not hasattr(target, "__name__") or \
        hasattr(target, "_schema") else f"{getattr(target, '__module__', '')}.{target.__name__}"


def _packet(target) -> Tuple[str, str]:
    """(packet name, overload name) of an ATen OpOverload, e.g. ("add", "Tensor")."""
    name = getattr(target, "_schema", None)
    if name is None:
        return "", ""
    full = target._schema.name  # "aten::add"
    ns, _, base = full.partition("::")
    return (base if ns == "aten" else full), (target._overloadname or "default")


def _normalize(target, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Dict[str, Any]:
    """Arguments of an OpOverload call by schema name, defaults filled in."""
    out: Dict[str, Any] = {}
    schema = target._schema
    for i, a in enumerate(schema.arguments):
        if i < len(args) and not a.kwarg_only:
            out[a.name] = args[i]
        elif a.name in kwargs:
            out[a.name] = kwargs[a.name]
        elif a.has_default_value():
            out[a.name] = a.default_value
        else:
            out[a.name] = None
    return out


def _has_tv(v: Any) -> bool:
    if isinstance(v, _TV):
        return True
    if isinstance(v, (list, tuple)):
        return any(_has_tv(x) for x in v)
    if isinstance(v, dict):
        return any(_has_tv(x) for x in v.values())
    return False


def _const_np(v: Any) -> Optional[np.ndarray]:
    """The numpy value of a constant operand (a torch tensor), else None."""
    if hasattr(v, "detach") and hasattr(v, "numpy"):
        return v.detach().cpu().contiguous().numpy()
    return None


def _axis(a: int, ndim: int) -> int:
    return a + ndim if a < 0 else a

