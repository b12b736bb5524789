"""Operator attributes: ``register_op_attr(op_name, attr_key, value=None, level=10)``.

TVM 0.19's ``tvm.ir.register_op_attr`` (also ``relay.op.register_op_attr``): attaches a
value to an operator under a key. BYOC uses the key ``"target.<compiler>"`` with a function
of the call that says whether that compiler takes it (``AnnotateTarget`` asks it); the
dataflow patterns' ``has_attr`` on an operator reads these values. Called with a value it
registers it; without, it is a decorator. As in TVM, a second registration at the same
level is an error, a higher level replaces the value and a lower one is ignored.

>>> from relay_mlir.op import register_op_attr
>>> @register_op_attr("nn.relu", "target.doc_example")
... def _relu(expr):
...     return True
>>> get_op_attr("nn.relu", "target.doc_example") is _relu
True
>>> reset_op_attr("nn.relu", "target.doc_example")
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

__all__ = ["register_op_attr", "get_op_attr", "reset_op_attr", "has_op_attr_key"]

# (op name, attribute key) -> (value, level)
_ATTRS: Dict[Tuple[str, str], Tuple[Any, int]] = {}


def _check_names(op_name: object, attr_key: object) -> None:
    if not isinstance(op_name, str) or not op_name:
        raise TypeError(f"register_op_attr: the operator name must be a string such as "
                        f"'nn.conv2d', got {op_name!r}")
    if not isinstance(attr_key, str) or not attr_key:
        raise TypeError(f"register_op_attr: the attribute key must be a string such as "
                        f"'target.dnnl', got {attr_key!r}")


def register_op_attr(op_name: str, attr_key: str, value: Optional[Any] = None,
                     level: int = 10) -> Any:
    """Registers ``value`` as ``op_name``'s attribute ``attr_key`` (or returns a decorator
    that registers the function it decorates)."""
    _check_names(op_name, attr_key)

    def _register(v: Any) -> Any:
        old = _ATTRS.get((op_name, attr_key))
        if old is not None and old[1] == level:
            raise ValueError(f"Attribute {attr_key} of {op_name} is already registered with "
                             f"same plevel={level}")
        if old is None or old[1] < level:
            _ATTRS[(op_name, attr_key)] = (v, level)
        return v

    return _register(value) if value is not None else _register


def get_op_attr(op_name: str, attr_key: str, default: Any = None) -> Any:
    """The value registered as ``op_name``'s ``attr_key``, or ``default``."""
    entry = _ATTRS.get((op_name, attr_key))
    return default if entry is None else entry[0]


def has_op_attr_key(attr_key: str) -> bool:
    """Whether any operator has attribute ``attr_key`` (TVM's ``Op::HasAttrMap``)."""
    return any(key == attr_key for _, key in _ATTRS)


def reset_op_attr(op_name: str, attr_key: str) -> None:
    """Removes ``op_name``'s ``attr_key`` (TVM's ``Op.reset_attr``)."""
    _ATTRS.pop((op_name, attr_key), None)


def annotate_function(op_name: str, target: str) -> Optional[Callable[..., Any]]:
    """The ``"target.<target>"`` attribute of ``op_name`` (None if it has none)."""
    return get_op_attr(op_name, "target." + target)
