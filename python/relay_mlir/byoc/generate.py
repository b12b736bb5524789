"""Running the code generators: each external function is handed to its codegen once per compile.

``compile()`` asks twice: first (``device_route``) whether any codegen wants another IREE
device for its function (route (c), decided before lowering), then (``external_code``) for the
code of the others, after lowering. ``generated(mod)`` calls each codegen once and remembers
its answer for the function until ``forget`` (the second ask), so a codegen runs once per
compile. A codegen that raises is a ``CompileError`` located at the external function.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Tuple

from ..errors import CompileError, Diagnostic
from ..expr import Function
from ..module import IRModule
from .codegen import get_codegen
from .partition_graph import external_functions

__all__ = ["Generated", "generated", "forget"]


@dataclass
class Generated:
    """One external function ``name`` (Compiler ``compiler``) and its codegen's ``result``;
    ``what`` and ``where`` name and locate it in errors."""

    name: str
    fn: Function
    compiler: str
    result: object
    what: str
    where: Diagnostic


# id(function) -> (function, codegen, Generated): answers kept between compile()'s two asks
_ANSWERS: Dict[int, Tuple[Function, Callable, Generated]] = {}


def _located(message: str, fn: Function) -> Diagnostic:
    span = getattr(fn.body, "span", None) or getattr(fn, "span", None)
    if span is None:
        return Diagnostic("error", message)
    return Diagnostic("error", message, span.filename, span.line, span.col)


def _run(codegen: Callable, fn: Function, what: str, where: Diagnostic):
    try:
        return codegen(fn)
    except CompileError as e:
        raise CompileError(f"{what} failed: {e.message}", [where, *e.diagnostics]) from e
    except Exception as e:  # a vendor's codegen may raise anything: report it located
        raise CompileError(f"{what} raised {type(e).__name__}: {e}", [where]) from e


def generated(mod: IRModule) -> List[Generated]:
    """The answers of the registered codegens for ``mod``'s external functions (those whose
    ``Compiler`` has a codegen), asking each codegen once."""
    out = []
    for gv, fn in external_functions(mod):
        compiler = fn.attrs["Compiler"]
        codegen = get_codegen(compiler)
        if codegen is None:
            continue
        kept = _ANSWERS.get(id(fn))
        if kept is not None and kept[0] is fn and kept[1] is codegen:
            out.append(kept[2])
            continue
        name = gv.name_hint
        what = f"codegen '{compiler}' for function '{name}'"
        where = _located(f"external function '{name}' (Compiler=\"{compiler}\")", fn)
        answer = Generated(name, fn, compiler, _run(codegen, fn, what, where), what, where)
        _ANSWERS[id(fn)] = (fn, codegen, answer)
        out.append(answer)
    return out


def forget(mod: IRModule) -> None:
    """Drops the answers kept for ``mod``'s external functions."""
    for _, fn in external_functions(mod):
        _ANSWERS.pop(id(fn), None)
