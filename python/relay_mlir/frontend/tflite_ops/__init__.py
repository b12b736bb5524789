"""The TFLite operator converters, one module per family (conv, elementwise, pool,
shape); ``CONVERTERS`` maps a builtin operator's name to its converter."""
from . import conv, elementwise, pool, shape  # noqa: F401  (register the converters)
from ._base import CONVERTERS, DTYPES, Op, QParams

__all__ = ["CONVERTERS", "DTYPES", "Op", "QParams"]
