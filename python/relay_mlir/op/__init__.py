"""Relay operators: ``relay_mlir.op`` (tensor ops) and ``relay_mlir.op.nn``.

The public functions are re-exported at the package top level and as
``relay_mlir.nn``, mirroring ``tvm.relay`` and ``tvm.relay.nn``.
"""
from __future__ import annotations

from ..expr import Op
from . import nn
from .tensor import *  # noqa: F401,F403
from .tensor import __all__ as _tensor_all


def get(name: str) -> Op:
    """The operator called ``name`` (``relay_mlir.op.get("nn.relu")``)."""
    return Op.get(name)


__all__ = list(_tensor_all) + ["nn", "get"]
