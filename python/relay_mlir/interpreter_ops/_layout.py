"""Data layouts of the image ops (conv, pool, resize, ...): to and from channels-first."""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from ..errors import RelayRuntimeError


def _blocked(layout: str) -> bool:
    """``layout`` has a sub-axis (NCHW8c: channels blocked, as AlterOpLayout leaves pools)."""
    return not layout.isupper()


def _primal(layout: str) -> str:
    return "".join(c for c in layout if c.isupper())


def _to_cf(x: np.ndarray, layout: str, canon: str) -> np.ndarray:
    """``x`` (in ``layout``) transposed to the canonical layout ``canon`` (same letters; a
    blocked ``layout`` is first unblocked, as layout_transform does)."""
    if _blocked(layout):
        from .transform import _layout_transform
        x = _layout_transform([x], {"src_layout": layout, "dst_layout": _primal(layout)})
        layout = _primal(layout)
    if layout == canon:
        return x
    if sorted(layout) != sorted(canon):
        raise RelayRuntimeError(f"the debug interpreter does not support layout '{layout}' here")
    return np.transpose(x, [layout.index(c) for c in canon])


def _from_cf(x: np.ndarray, canon: str, layout: str) -> np.ndarray:
    if _blocked(layout):
        from .transform import _layout_transform
        return _layout_transform([_from_cf(x, canon, _primal(layout))],
                                 {"src_layout": _primal(layout), "dst_layout": layout})
    if layout == canon:
        return x
    return np.transpose(x, [canon.index(c) for c in layout])


_SPATIAL = {1: "W", 2: "HW", 3: "DHW"}


def _pads(padding: Optional[Sequence[int]], n: int):
    p = list(padding or [0] * n)
    if len(p) == 1:
        p = p * (2 * n)
    if len(p) == n:
        p = p + p
    if len(p) != 2 * n:
        raise RelayRuntimeError(f"padding {padding} does not fit {n} spatial dims")
    return p[:n], p[n:]
