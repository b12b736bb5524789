"""A lowered program's large constants moved into an IREE parameter archive (``.irpa``).

``relay.compile`` hands iree-compile MLIR *text* (IREE 3.13 cannot read MLIR 22
bytecode). Printed inline, every weight crosses as hex digits: VGG-16's 553 MB of
weights were 1.1 GB of text, printed by the worker (a 3.2 GB peak there), parsed
again by iree-compile and read back by the caller. Instead, the worker writes each
large constant's bytes to one archive and the text refers to it by name::

    util.global private @__relay_p3 = #flow.parameter.named<"relay"::"p3"> : tensor<4096x25088xf32>
    %cst = util.global.load immutable @__relay_p3 : tensor<4096x25088xf32>

and iree-compile imports the archive back into the program
(``--iree-parameter-import``, every parameter: ``import_flags``), so the
``.vmfb`` is self-contained as before, with the same constants (results are
bit-identical); only the way the bytes travel changed. IREE's own ONNX path
(``iree-import-onnx --externalize-params``) uses the same archives.

The IREE ops are created generically (this context has no IREE dialects) and
printed in generic form, which iree-compile parses as its own ops.
"""
from __future__ import annotations

from typing import List, Tuple

import numpy as np

from .emit import _ir

__all__ = ["SCOPE", "MIN_BYTES", "move_large_constants", "import_flags"]

SCOPE = "relay"            # the archive's scope in #flow.parameter.named<scope::key>
MIN_BYTES = 1 << 16        # constants smaller than this stay inline in the text
_GLOBAL_PREFIX = "__relay_"


def _movable(ir, attr, min_bytes: int):
    """``attr``'s bytes as a numpy array if it is a non-splat dense int/float constant of at
    least ``min_bytes`` whose storage numpy reads as MLIR lays it out; else None (i1 is
    bit-packed and bf16 has no numpy dtype: those stay inline)."""
    if not isinstance(attr, (ir.DenseFPElementsAttr, ir.DenseIntElementsAttr)) or attr.is_splat:
        return None
    elem = attr.type.element_type
    if isinstance(elem, ir.IntegerType) and elem.width == 1:
        return None
    try:
        arr = np.asarray(attr)
    except (RuntimeError, ValueError, TypeError):
        return None
    return arr if arr.nbytes >= min_bytes else None


def _parameter_index():
    """An empty ``ParameterIndex`` (IREE's archive writer). From IREE's native module: the
    ``iree.runtime`` package loads ml_dtypes on import, ~0.6 s of CPU in every worker."""
    try:
        from iree._runtime_libs._runtime import ParameterIndex
    except ImportError:  # another layout of the IREE wheel
        from iree.runtime import ParameterIndex
    return ParameterIndex()


def _replace_with_parameter(ir, op, key: str, globals_at) -> None:
    """``op`` (an ``arith.constant``) replaced by a load of a new ``util.global`` (at
    ``globals_at``) initialised from the archive's entry ``key``."""
    ty, name = op.results[0].type, f"{_GLOBAL_PREFIX}{key}"
    value = ir.OpaqueAttr.get("flow", f'parameter.named<"{SCOPE}"::"{key}">'.encode(), ty)
    ir.Operation.create("util.global", attributes={
        "sym_name": ir.StringAttr.get(name), "sym_visibility": ir.StringAttr.get("private"),
        "type": ir.TypeAttr.get(ty), "initial_value": value}, loc=op.location, ip=globals_at)
    load = ir.Operation.create("util.global.load", results=[ty], attributes={
        "global": ir.FlatSymbolRefAttr.get(name), "is_immutable": ir.UnitAttr.get()},
        loc=op.location, ip=ir.InsertionPoint(op))
    op.results[0].replace_all_uses_with(load.results[0])
    op.erase()


def move_large_constants(ctx, module_op, archive_path: str, min_bytes: int = MIN_BYTES) -> int:
    """Replaces each ``arith.constant`` of ``module_op`` holding at least ``min_bytes`` with a
    load of a ``util.global`` initialised from the parameter archive written to
    ``archive_path`` (see the module docstring). Returns how many constants moved; with
    none, no archive is written."""
    ir = _ir()
    found: List[Tuple[object, np.ndarray]] = []

    def visit(op):
        op = op.operation
        if op.name == "arith.constant":
            arr = _movable(ir, op.attributes["value"], min_bytes)
            if arr is not None:
                found.append((op, arr))
        return ir.WalkResult.ADVANCE

    with ctx:
        module_op.walk(visit, ir.WalkOrder.PRE_ORDER)
    if not found:
        return 0
    index = _parameter_index()
    allowed = ctx.allow_unregistered_dialects
    ctx.allow_unregistered_dialects = True  # util.global(.load) and #flow.parameter.named
    try:
        with ctx:
            globals_at = ir.InsertionPoint.at_block_begin(module_op.regions[0].blocks[0])  # in key order
            for i, (op, arr) in enumerate(found):
                index.add_buffer(f"p{i}", arr)
                _replace_with_parameter(ir, op, f"p{i}", globals_at)
    finally:
        ctx.allow_unregistered_dialects = allowed
    index.create_archive_file(archive_path)
    return len(found)


def import_flags(archive_path: str) -> List[str]:
    """iree-compile's flags importing every parameter of ``archive_path`` into the program."""
    return [f"--iree-parameter-import={SCOPE}={archive_path}",
            f"--iree-parameter-import-maximum-size={np.iinfo(np.int64).max}"]
