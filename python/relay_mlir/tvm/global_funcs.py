"""``tvm.register_func`` / ``tvm.get_global_func`` for the one kind of global function Relay
code registers that relay-mlir calls: external codegens, ``"relay.ext.<compiler>"``.

TVM 0.19 registers a BYOC code generator as the packed function ``relay.ext.<compiler>``
(``register_func(name, f=None, override=False)``, a decorator without ``f``; a second
registration without ``override`` is an error). Here that name registers ``f`` with
``relay_mlir.byoc.register_codegen(compiler, f)``, so ``relay.build`` / ``relay_mlir.compile``
hand it each ``Compiler="<compiler>"`` function (docs/byoc.md). Other names are refused:
nothing in relay-mlir would call them.

    >>> import relay_mlir.tvm as tvm
    >>> @tvm.register_func("relay.ext.doc_example")
    ... def _codegen(func):
    ...     return None
    >>> tvm.get_global_func("relay.ext.doc_example") is _codegen
    True
    >>> from relay_mlir.byoc import unregister_codegen; unregister_codegen("doc_example")
"""
from __future__ import annotations

from typing import Callable, Optional

from ..byoc.codegen import get_codegen, register_codegen

__all__ = ["register_func", "get_global_func"]

_PREFIX = "relay.ext."


def _compiler(name: str) -> str:
    rest = name[len(_PREFIX):] if name.startswith(_PREFIX) else ""
    if not rest or "." in rest:
        raise ValueError(f"tvm.register_func('{name}'): relay-mlir calls registered functions only "
                         f"as external codegens, '{_PREFIX}<compiler>' (docs/byoc.md); nothing would "
                         "call this one")
    return rest


def register_func(func_name, f: Optional[Callable] = None, override: bool = False):
    """TVM's ``register_func`` for ``"relay.ext.<compiler>"`` names (``func_name`` may be the
    function itself, named by its ``__name__``, as in TVM)."""
    if callable(func_name):
        f, func_name = func_name, func_name.__name__
    if not isinstance(func_name, str):
        raise ValueError("expect string function name")
    compiler = _compiler(func_name)

    def register(fn: Callable) -> Callable:
        if get_codegen(compiler) is not None and not override:
            raise ValueError(f"Global PackedFunc {func_name} is already registered")
        return register_codegen(compiler, fn, override=True)

    return register(f) if f is not None else register


def get_global_func(name: str, allow_missing: bool = False) -> Optional[Callable]:
    """The codegen registered as ``name`` (``"relay.ext.<compiler>"``); None or TVM's
    error if there is none."""
    rest = name[len(_PREFIX):] if isinstance(name, str) and name.startswith(_PREFIX) else None
    fn = get_codegen(rest) if rest else None
    if fn is None and not allow_missing:
        raise ValueError(f"Cannot find global function {name}")
    return fn
