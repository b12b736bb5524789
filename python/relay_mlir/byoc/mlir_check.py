"""Checking the MLIR an external codegen hands back, with IREE's own parser.

The MLIR of route (a) may use any dialect IREE accepts (``flow``, ``stream``, ``hal``, ...),
which relay-mlir's MLIR does not know, so it is parsed and verified with IREE's in-process
MLIR (``iree.compiler.ir``, which coexists with relay-mlir's: test_imports). The result must
define ``func.func @<symbol>`` with the external function's type; a ``module {...}`` wrapper
is unwrapped. The text itself goes into the lowered program (IREE 3.13 prints some attributes
in a form it cannot parse back, e.g. an embedded ``#hal.executable.object``).
"""
from __future__ import annotations

import re
from typing import List, Tuple

from ..errors import CompileError, Diagnostic

__all__ = ["checked_ops"]


def _parse_error(err, what: str, where: Diagnostic) -> CompileError:
    notes = [Diagnostic("error", d.message, "<codegen output>", *_line_col(d.location))
             for d in getattr(err, "error_diagnostics", [])]
    detail = notes[0].message if notes else str(err).strip().splitlines()[-1]
    return CompileError(f"{what} returned MLIR that is not valid: {detail}", [where, *notes])


def _line_col(loc) -> Tuple[int, int]:
    text = str(loc)  # loc("-":3:7)
    try:
        line, col = text.rsplit(":", 2)[-2:]
        return int(line), int(col.rstrip(")"))
    except ValueError:
        return 0, 0


def checked_ops(text: str, symbol: str, expected_type: str, what: str,
                where: Diagnostic) -> Tuple[str, List[str]]:
    """``(the ops' text, the top-level symbols they define)`` of the codegen's MLIR
    ``text``, which must define ``func.func @<symbol>`` of type ``expected_type``."""
    from iree.compiler import ir

    if not isinstance(text, str):
        raise CompileError(f"{what} returned {type(text).__name__} as MLIR; expected text", [where])
    with ir.Context():
        try:
            module = ir.Module.parse(text)
        except ir.MLIRError as err:
            raise _parse_error(err, what, where) from None
        ops = list(module.body.operations)
        if re.match(r"\s*(//[^\n]*\n\s*)*module\b", text):  # parsed as the module itself
            text = _module_body(text, ops)
        symbols = [ir.StringAttr(op.operation.attributes["sym_name"]).value for op in ops
                   if "sym_name" in op.operation.attributes]
        funcs = [op for op in ops if op.operation.name == "func.func"
                 and ir.StringAttr(op.operation.attributes["sym_name"]).value == symbol]
        if not funcs:
            raise CompileError(f"{what} returned MLIR that does not define func.func @{symbol} "
                               f"(it defines: {', '.join('@' + s for s in symbols) or 'nothing'})",
                               [where])
        got = ir.TypeAttr(funcs[0].operation.attributes["function_type"]).value
        if got != ir.Type.parse(expected_type):
            raise CompileError(f"{what} returned func.func @{symbol} of type {got}; the external "
                               f"function's signature is {expected_type}", [where])
        return text, symbols


def _module_body(text: str, ops) -> str:
    """The text of a ``module {...}``'s body: from its first op to the module's ``}``."""
    if not ops:
        return ""
    line, col = _line_col(ops[0].operation.location)
    lines = text.splitlines(keepends=True)
    start = sum(len(ln) for ln in lines[:line - 1]) + col - 1
    return text[start:text.rstrip().rfind("}")]
