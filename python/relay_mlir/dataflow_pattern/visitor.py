"""``DFPatternVisitor``: visits every node of a pattern once (TVM's C++ ``DFPatternVisitor``).

``visit(p)`` calls ``visit_<kind>`` (``visit_call``, ``visit_wildcard``, ...) once per node;
the default handlers visit the sub-patterns, in the order ``partition`` numbers inputs.

>>> from relay_mlir.dataflow_pattern import DFPatternVisitor, is_op, wildcard
>>> class CountWildcards(DFPatternVisitor):
...     def __init__(self):
...         super().__init__()
...         self.n = 0
...     def visit_wildcard(self, p):
...         self.n += 1
>>> w = wildcard()
>>> v = CountWildcards()
>>> v.visit(is_op("add")(w, w) * wildcard())
>>> v.n
2
"""
from __future__ import annotations

import re
from typing import Any, Set

from .pattern import DFPattern, WildcardPattern
from .pattern_graph import pattern_inputs

__all__ = ["DFPatternVisitor"]


def _kind(cls: type) -> str:
    name = cls.__name__[:-len("Pattern")] if cls.__name__.endswith("Pattern") else cls.__name__
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class DFPatternVisitor:
    """Subclass it and override ``visit_<kind>`` for the kinds you care about: ``alt``,
    ``attr``, ``call``, ``constant``, ``data_type``, ``dominator``, ``expr``, ``function``,
    ``if``, ``let``, ``shape``, ``tuple``, ``tuple_get_item``, ``type``, ``var``, ``wildcard``."""

    def __init__(self) -> None:
        self.visited: Set[DFPattern] = set()

    def visit(self, pattern: DFPattern) -> None:
        if not isinstance(pattern, DFPattern):
            raise TypeError(f"DFPatternVisitor visits dataflow patterns, got {pattern!r}")
        if pattern in self.visited:
            return
        self.visited.add(pattern)
        for cls in type(pattern).__mro__:
            handler = getattr(self, "visit_" + _kind(cls), None)
            if handler is not None and cls is not DFPattern:
                handler(pattern)
                return
        self.visit_children(pattern)

    def visit_children(self, pattern: DFPattern) -> None:
        kids = pattern_inputs(pattern)
        if isinstance(pattern, WildcardPattern) and pattern.redirect is not None:
            kids = [pattern.redirect]
        for p in kids:
            self.visit(p)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("visit_") and name != "visit_children":
            return self.visit_children
        raise AttributeError(name)
