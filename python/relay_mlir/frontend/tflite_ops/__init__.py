"""The TFLite operator converters, one module per family (conv, elementwise, pool,
shape, arith, tensor, resize); ``CONVERTERS`` maps a builtin operator's name to its converter."""
from . import arith, conv, elementwise, pool, resize, shape, tensor  # noqa: F401  (register the converters)
from ._base import CONVERTERS, DTYPES, Op, QParams

__all__ = ["CONVERTERS", "DTYPES", "Op", "QParams"]
