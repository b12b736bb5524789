"""``tvm.relay.backend``: ``Executor`` and ``Runtime``, the descriptions ``relay.build`` takes.

TVM 0.19: ``Executor(name, options=None)`` names ``"graph"`` or ``"aot"`` (others:
"Executor "foo" is not defined"), ``Runtime(name, options=None)`` ``"cpp"`` or ``"crt"``;
``relay.build(..., executor=Executor("graph"), runtime=Runtime("cpp"))``. relay-mlir's build
makes a graph executor factory running on IREE's runtime, so ``relay.build`` accepts
``Executor("graph")`` (its options, e.g. ``link-params``, change nothing: constants are always
in the code) and any ``Runtime``; ``Executor("aot")`` builds for ``tvm.runtime.executor.AotModule``.

    >>> Executor("graph", {"link-params": True}).name, Runtime("cpp").name
    ('graph', 'cpp')
"""
from __future__ import annotations

from typing import Dict, Optional

__all__ = ["Executor", "Runtime"]


class _Described:
    KNOWN: tuple = ()
    WHAT = ""

    def __init__(self, name: str, options: Optional[Dict[str, object]] = None) -> None:
        if name not in self.KNOWN:
            raise ValueError(f'{self.WHAT} "{name}" is not defined (known: {", ".join(self.KNOWN)})')
        self.name = name
        self.attrs = dict(options or {})

    def __repr__(self) -> str:
        return self.name + (str(self.attrs) if self.attrs else "")


class Executor(_Described):
    """TVM's executor description: ``"graph"`` or ``"aot"``."""

    KNOWN = ("graph", "aot")
    WHAT = "Executor"


class Runtime(_Described):
    """TVM's runtime description: ``"cpp"`` or ``"crt"`` (no effect here)."""

    KNOWN = ("cpp", "crt")
    WHAT = "Runtime"
