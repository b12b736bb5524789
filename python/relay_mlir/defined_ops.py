"""Operators of the expression tree that have no dialect operator yet (issue 31).

Users build, print, parse, count and interpret them as TVM's operators; the emitter
(relay_mlir.emit) writes each call as its definition in operators the dialect has, so a
module holding them types, compiles and runs. ``DEFINED_AT_EMISSION`` maps an operator name
to ``definition(call, shape_of)``, which returns the call's value built from ordinary
operators; ``shape_of(operand)`` is an operand's static shape as emitted (a located error
if it is not static). Each entry leaves this table when its dialect operator lands.

- ``nn.contrib_conv2d_NCHWc``, ``nn.contrib_depthwise_conv2d_NCHWc``: relay_mlir.blocked_conv
  (TVM's AlterOpLayout on x86);
- ``nn.space_to_batch_nd``, ``nn.batch_to_space_nd``: relay_mlir.space_batch.
"""
from __future__ import annotations

from typing import Callable, Dict, List

from .blocked_conv import DEFINITIONS as _BLOCKED_CONV
from .expr import Call, Expr
from .space_batch import DEFINITIONS as _SPACE_BATCH

__all__ = ["DEFINED_AT_EMISSION"]

DEFINED_AT_EMISSION: Dict[str, Callable[[Call, Callable[[Expr], List[int]]], Expr]] = {
    **_BLOCKED_CONV, **_SPACE_BATCH}
