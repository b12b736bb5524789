"""``relay_mlir.tvm.parser``: TVM 0.19's legacy ``tvm.parser`` module, whose functions are
deprecated aliases of ``tvm.relay``'s (each warns ``DeprecationWarning: tvm.parser.parse is
deprecated, use tvm.relay.parse instead``, as TVM's do).

    >>> import warnings
    >>> import relay_mlir.tvm as tvm
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     mod = tvm.parser.parse('#[version = "0.0.5"]\\ndef @main(%x: float32) { %x }')
    >>> mod["main"].params[0].name_hint
    'x'
"""
from __future__ import annotations

import functools
import warnings

from .. import parser as _parser
from .. import transform as _transform

__all__ = ["parse", "parse_expr", "fromtext", "SpanCheck"]


def _deprecated(name: str, impl):
    @functools.wraps(impl)
    def wrapper(*args, **kwargs):
        warnings.warn(f"tvm.parser.{name} is deprecated, use tvm.relay.{name} instead",
                      DeprecationWarning, stacklevel=2)
        return impl(*args, **kwargs)
    wrapper.__doc__ = f"Deprecated, use ``tvm.relay.{name}`` instead."
    return wrapper


parse = _deprecated("parse", _parser.parse)
parse_expr = _deprecated("parse_expr", _parser.parse_expr)
fromtext = _deprecated("fromtext", _parser.fromtext)
SpanCheck = _deprecated("SpanCheck", _transform.SpanCheck)
