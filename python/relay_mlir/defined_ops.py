"""Operators of the expression tree that have no dialect operator yet (issue 31).

Users build, print, parse, count and interpret them as TVM's operators; the emitter
(relay_mlir.emit) writes each call as its definition in operators the dialect has, so a
module holding them types, compiles and runs. ``DEFINED_AT_EMISSION`` maps an operator name
to ``definition(call, shape_of)``, which returns the call's value built from ordinary
operators; ``shape_of(operand)`` is an operand's static shape as emitted (a located error
if it is not static). The definition's last operator carries ``DEFINED_MARK`` (the call's
operator and attributes), and the MLIR importer (relay_mlir.mlir_import) rebuilds the call
from it where a pass left the definition intact (``regroup``; the blocked convolutions so
far; elsewhere the call stays the operators it computes with).
Each entry leaves this table when its dialect operator lands.

- ``nn.contrib_conv2d_NCHWc``, ``nn.contrib_depthwise_conv2d_NCHWc``: relay_mlir.blocked_conv
  (TVM's AlterOpLayout on x86);
- ``nn.space_to_batch_nd``, ``nn.batch_to_space_nd``: relay_mlir.space_batch.
"""
from __future__ import annotations

import json
from typing import Callable, Dict, List

from .blocked_conv import DEFINITIONS as _BLOCKED_CONV, REGROUPS as _BLOCKED_CONV_REGROUPS
from .expr import Call, Expr
from .space_batch import DEFINITIONS as _SPACE_BATCH

__all__ = ["DEFINED_AT_EMISSION", "DEFINED_MARK", "mark", "regroup"]

DEFINED_AT_EMISSION: Dict[str, Callable[[Call, Callable[[Expr], List[int]]], Expr]] = {
    **_BLOCKED_CONV, **_SPACE_BATCH}

#: the discardable attribute the emitter puts on a definition's last op: the call's operator
#: and attributes (JSON), so that the MLIR importer can rebuild the call after a pass
DEFINED_MARK = "relay_mlir.defined"
_REGROUPS = {**_BLOCKED_CONV_REGROUPS}


def mark(call: Call) -> str:
    """``DEFINED_MARK``'s value for ``call``."""
    return json.dumps({"op": call.op.name, "attrs": dict(call.attrs)}, sort_keys=True)


def regroup(marked: str, final: Call) -> Expr:
    """The call ``marked`` names, rebuilt from its definition read back from MLIR (``final``:
    the definition's last operator) where the definition is intact; else ``final`` (a pass
    rewrote the definition: it stays the operators it computes with)."""
    info = json.loads(marked)
    fn = _REGROUPS.get(info["op"])
    got = fn(info["op"], info["attrs"], final) if fn is not None else None
    return final if got is None else got
