"""``relay_mlir.tvm.relay``: ``tvm.relay`` for ported scripts.

It is relay-mlir's builder API (``relay_mlir``'s names, the same objects: ``var``,
``Function``, ``nn``, ``transform``, ``analysis``, ...; any name not defined here is
looked up in ``relay_mlir``, and ``relay_mlir.tvm.relay.X`` imports as
``relay_mlir.X``) plus what only TVM's ``relay`` has, or has with another shape:

- ``build`` (-> graph executor factory), ``vm`` (``vm.compile``), ``create_executor``
  (NDArray results; ``"graph"`` gives a list for tuples) — ``build_module``, ``vm``;
- ``frontend`` (``from_onnx`` / ``from_pytorch`` returning ``(mod, params)``),
  imported when first used;
- ``testing``: ``relay_mlir.testing`` (TVM's workloads, ``get_workload``);
- ``save_param_dict`` / ``load_param_dict`` (TVM's params format).

It is a package of its own, not ``relay_mlir`` itself, because those names already
mean something else in ``relay_mlir`` (``relay_mlir.create_executor`` returns numpy,
``relay_mlir.frontend.from_onnx`` returns a module) and keep their signatures there.

    >>> import relay_mlir, relay_mlir.tvm.relay as relay
    >>> relay.var is relay_mlir.var, relay.nn is relay_mlir.nn, relay.build.__module__
    (True, True, 'relay_mlir.tvm.relay.build_module')
"""
from __future__ import annotations

import importlib as _importlib

import relay_mlir as _base
from relay_mlir import *  # noqa: F401,F403  (the builder API)
from relay_mlir import __all__ as _base_all

from .build_module import build, build_config, create_executor, optimize  # noqa: E402
from . import vm  # noqa: E402
from ..runtime.params import load_param_dict, save_param_dict  # noqa: E402

__all__ = [n for n in _base_all if n not in ("compile", "create_executor")] + [
    "build", "build_config", "create_executor", "optimize", "vm", "frontend", "testing", "save_param_dict", "load_param_dict"]


def __getattr__(name: str):
    if name == "frontend" or not hasattr(_base, name):
        try:
            return _importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module '{__name__}' has no attribute '{name}'") from None
    return getattr(_base, name)
