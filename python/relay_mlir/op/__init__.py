"""Relay operators: ``relay_mlir.op`` (tensor ops) and ``relay_mlir.op.nn``.

The public functions are re-exported at the package top level and as
``relay_mlir.nn``, mirroring ``tvm.relay`` and ``tvm.relay.nn``.
"""
from __future__ import annotations

from ..expr import Op
from . import nn
from . import image
from . import dyn
from .tensor import *  # noqa: F401,F403
from .tensor import __all__ as _tensor_all
from .reduce import *  # noqa: F401,F403
from .reduce import __all__ as _reduce_all
from .index import *  # noqa: F401,F403
from .index import __all__ as _index_all
from .transform import *  # noqa: F401,F403
from .transform import __all__ as _transform_all
from .op_attr import OpPattern, register_op_attr
from . import contrib
from . import annotation


def get(name: str) -> Op:
    """The operator called ``name`` (``relay_mlir.op.get("nn.relu")``)."""
    return Op.get(name)


__all__ = list(_tensor_all) + list(_transform_all) + list(_reduce_all) + list(_index_all) + ["nn", "image", "dyn", "get",
    "OpPattern", "register_op_attr", "contrib", "annotation"]
