"""External code generators: what a vendor registers for a ``Compiler`` name.

TVM 0.19 registers a codegen as the packed function ``relay.ext.<compiler>``
(``tvm.register_func("relay.ext.dnnl")``): when a module is built, each external function
(a global with ``Compiler="<compiler>"``, made by ``PartitionGraph``) is handed to it, and it
returns a runtime module exporting a function named after the function's
``global_symbol``. Here ``register_codegen(compiler, fn)`` (or the same ``register_func``
through ``relay_mlir.tvm``) registers ``fn(func)``; ``relay_mlir.compile`` calls it with each
external function of that compiler and ``fn`` returns what IREE is to run for it:

- ``MLIR(text)``: MLIR that defines ``func.func @<global_symbol>`` with the function's
  signature (``signature(func).mlir_type``), in any dialect IREE accepts (linalg, tensor,
  arith, a ``flow.dispatch`` of your own ``hal.executable``, ...). Other symbols it
  defines must be unique in the module (prefix them with the global symbol). A plain
  ``str`` is taken as ``MLIR``.
- ``CSource(code, entry)`` or ``ObjectFile(path_or_bytes, entry)``: a C function (compiled
  with the system C compiler, or a prebuilt ELF object for the host) linked into IREE's
  llvm-cpu executable (IREE's custom-dispatch static linking) and called once per call:
  ``void entry(const T0 *in0, ..., T *out0, ..., void *workspace)`` with dense row-major
  tensors, inputs in parameter order, then the outputs (a tuple's fields in order), then a
  scratch buffer of ``workspace_bytes`` if that is not 0. ``entry`` defaults to the global
  symbol. Everything else in the object must be ``static``.
- ``Device(target)``: run the function on another IREE device (issue 34's multi-device
  compile; not available yet, an error says so).
- ``None``: relay-mlir lowers the function itself, as it does when no codegen is registered.

>>> _ = register_codegen("doc_example", lambda func: None)
>>> get_codegen("doc_example") is not None, "doc_example" in registered_codegens()
(True, True)
>>> unregister_codegen("doc_example")
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Union

__all__ = ["register_codegen", "get_codegen", "unregister_codegen", "registered_codegens", "MLIR",
           "CSource", "ObjectFile", "Device", "CodegenResult"]

_CODEGENS: Dict[str, Callable] = {}


def register_codegen(compiler: str, fn: Optional[Callable] = None, override: bool = False):
    """Registers ``fn(func)`` as the code generator of ``Compiler="<compiler>"`` functions
    (without ``fn``: a decorator). A second registration is an error unless ``override``
    (TVM's ``register_func`` rule)."""
    if not isinstance(compiler, str) or not compiler:
        raise TypeError(f"register_codegen: the compiler name must be a non-empty string, got {compiler!r}")

    def _register(f: Callable) -> Callable:
        if not callable(f):
            raise TypeError(f"register_codegen('{compiler}'): expected a function of the external "
                            f"function, got {f!r}")
        if compiler in _CODEGENS and not override:
            raise ValueError(f"a codegen for compiler '{compiler}' is already registered "
                             "(pass override=True to replace it)")
        _CODEGENS[compiler] = f
        return f

    return _register(fn) if fn is not None else _register


def get_codegen(compiler: str) -> Optional[Callable]:
    """The code generator registered for ``compiler``, or None."""
    return _CODEGENS.get(compiler)


def unregister_codegen(compiler: str) -> None:
    """Removes ``compiler``'s code generator (if any)."""
    _CODEGENS.pop(compiler, None)


def registered_codegens() -> List[str]:
    """The compiler names with a code generator."""
    return sorted(_CODEGENS)


@dataclass(frozen=True)
class MLIR:
    """Route (a): MLIR text defining ``func.func @<global_symbol>`` (a ``module {...}``
    wrapper is allowed; its body is taken)."""

    text: str


@dataclass(frozen=True)
class CSource:
    """Route (b): C source with the entry point ``entry`` (None: the global symbol),
    compiled with the system C compiler (``$CC``, else ``cc``/``gcc``/``clang``) and
    ``flags`` added."""

    code: str
    entry: Optional[str] = None
    workspace_bytes: int = 0
    flags: tuple = ()


@dataclass(frozen=True)
class ObjectFile:
    """Route (b): a relocatable ELF object for the host (a path or its bytes) defining
    ``entry`` (None: the global symbol); built freestanding (no libc, no TLS, no globals)."""

    object: Union[str, bytes, "os.PathLike[str]"]
    entry: Optional[str] = None
    workspace_bytes: int = 0


@dataclass(frozen=True)
class Device:
    """Route (c): run the external function on the IREE target ``target`` (``"vulkan"``...)."""

    target: str


CodegenResult = Union[MLIR, CSource, ObjectFile, Device, str, None]
