"""``relay_mlir.op.annotation``: TVM 0.19's ``tvm.relay.op.annotation`` spelling of
``relay_mlir.annotation`` (in TVM both names are one module, ``relay.op.annotation.annotation``).

>>> import relay_mlir as relay
>>> relay.op.annotation.on_device is relay.annotation.on_device
True
"""
from __future__ import annotations

import sys

from ..annotation import (checkpoint, compiler_begin, compiler_end, function_on_device, on_device,
                          stop_fusion)

__all__ = ["compiler_begin", "compiler_end", "on_device", "function_on_device", "stop_fusion",
           "checkpoint", "annotation"]

annotation = sys.modules[__name__]  # tvm.relay.op.annotation.annotation
