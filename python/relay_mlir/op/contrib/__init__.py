"""BYOC helpers: ``relay_mlir.op.contrib`` (``tvm.relay.op.contrib``).

``register_pattern_table(compiler)`` registers a function returning a compiler's pattern
table (a list of ``(name, pattern)`` or ``(name, pattern, check)``), ``get_pattern_table``
looks one up; ``MergeComposite(get_pattern_table("x"))`` then makes the composites.
"""
from .register import get_pattern_table, register_pattern_table

__all__ = ["get_pattern_table", "register_pattern_table"]
