"""``CompileError`` and located diagnostics.

Every failure to build, infer, lower or compile a program raises
``CompileError``; its ``diagnostics`` list holds ``file:line:col`` located
messages gathered from MLIR (``relay-infer-type``, verifiers, the parser)
and from ``iree-compile``.

Example::

    >>> from relay_mlir.errors import CompileError, Diagnostic
    >>> e = CompileError("type inference failed",
    ...                  [Diagnostic("error", "'relay.add' op shape mismatch", "m.py", 3, 5)])
    >>> print(e)
    type inference failed
    m.py:3:5: error: 'relay.add' op shape mismatch
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, List, Optional

__all__ = ["Diagnostic", "CompileError", "RelayRuntimeError", "diagnostics_from_text"]


@dataclass
class Diagnostic:
    """One located message: ``file:line:col: severity: message``."""

    severity: str
    message: str
    file: Optional[str] = None
    line: int = 0
    col: int = 0
    notes: List["Diagnostic"] = field(default_factory=list)

    @property
    def location(self) -> str:
        """``file:line:col`` (or ``<unknown>``)."""
        if self.file is None:
            return "<unknown>"
        return f"{self.file}:{self.line}:{self.col}"

    def __str__(self) -> str:
        s = f"{self.location}: {self.severity}: {self.message}"
        for n in self.notes:
            s += "\n" + str(n)
        return s


class CompileError(Exception):
    """A program could not be built, type-checked, lowered or compiled.

    ``diagnostics`` holds the located messages; ``str(err)`` shows them one
    per line after the summary.
    """

    def __init__(self, message: str, diagnostics: Iterable[Diagnostic] = ()) -> None:
        self.message = message
        self.diagnostics: List[Diagnostic] = list(diagnostics)
        super().__init__(message)

    def __str__(self) -> str:
        lines = [self.message] + [str(d) for d in self.diagnostics]
        return "\n".join(lines)


class RelayRuntimeError(RuntimeError):
    """A program failed while running: a match with no matching clause, a run-time
    shape that does not fit (``dyn.reshape``), an operator without a numpy kernel in
    the debug interpreter, ... Raised by the interpreter and by compiled code."""


class InputShapeError(RelayRuntimeError, ValueError):
    """An input does not fit the compiled program's signature: a rank, a static
    dimension or an element type other than the ones it was compiled for (a
    ``relay.Any()`` dimension takes any size). Also a ValueError, as numpy's."""


_DIAG_RE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note|remark): (?P<msg>.*)$")


def diagnostics_from_text(text: str) -> List[Diagnostic]:
    """Parses ``file:line:col: error: msg`` lines (iree-compile, mlir-opt output).

    Notes are attached to the preceding error.

    >>> [str(d) for d in diagnostics_from_text("a.mlir:2:8: error: bad op\\n  %b = foo\\n")]
    ['a.mlir:2:8: error: bad op']
    """
    out: List[Diagnostic] = []
    for line in text.splitlines():
        m = _DIAG_RE.match(line.strip())
        if not m:
            continue
        d = Diagnostic(m["sev"], m["msg"].rstrip(), m["file"], int(m["line"]), int(m["col"]))
        if d.severity == "note" and out:
            out[-1].notes.append(d)
        else:
            out.append(d)
    return out
