"""Pattern tables by compiler name, as TVM 0.19's ``relay.op.contrib.register``.

>>> from relay_mlir.dataflow_pattern import is_op, wildcard
>>> @register_pattern_table("doc_example")
... def _table():
...     return [("doc_example.relu", is_op("nn.relu")(wildcard()))]
>>> [name for name, _ in get_pattern_table("doc_example")]
['doc_example.relu']
>>> get_pattern_table("nobody") is None
True
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional

__all__ = ["register_pattern_table", "get_pattern_table", "registered_pattern_tables"]

_TABLES: Dict[str, list] = {}


def register_pattern_table(compiler: str, table: Optional[Callable[[], list]] = None):
    """Registers ``table()`` (called once, now) as ``compiler``'s pattern table; without
    ``table`` it is a decorator."""
    if not isinstance(compiler, str) or not compiler:
        raise TypeError(f"register_pattern_table: the compiler name must be a string, got {compiler!r}")

    def _register(t: Callable[[], list]) -> Callable[[], list]:
        if not callable(t):
            raise TypeError(f"register_pattern_table('{compiler}'): expected a function returning "
                            f"the pattern table, got {t!r}")
        _TABLES[compiler] = t()
        return t

    return _register(table) if table is not None else _register


def get_pattern_table(compiler: str) -> Optional[list]:
    """``compiler``'s pattern table, or None if none is registered (as in TVM)."""
    return _TABLES.get(compiler)


def registered_pattern_tables() -> List[str]:
    """The compiler names with a pattern table."""
    return sorted(_TABLES)
