"""``tvm.instrument``: pass instruments (``PassInstrument``, ``pass_instrument``,
``PassTimingInstrument``, ``PrintBeforeAll``, ``PrintAfterAll``, ...), as
``relay_mlir.pass_infra`` implements them."""
from __future__ import annotations

from .. import pass_infra as _pi
from ..pass_infra import INSTRUMENT as __all__  # noqa: F401

globals().update({_n: getattr(_pi, _n) for _n in __all__})
