"""Data layouts of the image ops (conv, pool, resize, ...): to and from channels-first."""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from ..errors import RelayRuntimeError


def _parse_layout(layout: str):
    """``"NCHW4c"`` -> [('N', None), ('C', None), ('H', None), ('W', None), ('c', 4)]."""
    out, num = [], ""
    for ch in layout:
        if ch.isdigit():
            num += ch
        else:
            out.append((ch, int(num) if num else None))
            num = ""
    return out


def layout_transform(x: np.ndarray, src_layout: str, dst_layout: str) -> np.ndarray:
    """``x`` from ``src_layout`` to ``dst_layout`` (Relay's layout_transform: NCHW, NCHW8c, ...)."""
    src, dst = _parse_layout(src_layout), _parse_layout(dst_layout)
    # to the primal layout: merge each sub-axis into its primal axis
    primal = [c for c, _ in src if c.isupper()]
    factors = {c.upper(): f for c, f in src if c.islower()}
    y = x
    letters = [c for c, _ in src]
    # order: the primal axes in src order, each followed by its sub-axis
    perm = []
    for c in primal:
        perm.append(letters.index(c))
        if c in factors:
            perm.append(letters.index(c.lower()))
    y = np.transpose(y, perm)
    shape = []
    k = 0
    for c in primal:
        if c in factors:
            shape.append(y.shape[k] * y.shape[k + 1])
            k += 2
        else:
            shape.append(y.shape[k])
            k += 1
    y = y.reshape(shape)
    # split for dst and permute
    dfactors = {c.upper(): f for c, f in dst if c.islower()}
    split_shape, split_names = [], []
    for c, d in zip(primal, y.shape):
        if c in dfactors:
            f = dfactors[c]
            split_shape += [d // f, f]
            split_names += [c, c.lower()]
        else:
            split_shape.append(d)
            split_names.append(c)
    y = y.reshape(split_shape)
    return np.ascontiguousarray(np.transpose(y, [split_names.index(c) for c, _ in dst]))


def _blocked(layout: str) -> bool:
    """``layout`` has a sub-axis (NCHW8c: channels blocked, as AlterOpLayout leaves pools)."""
    return not layout.isupper()


def _primal(layout: str) -> str:
    return "".join(c for c in layout if c.isupper())


def _to_cf(x: np.ndarray, layout: str, canon: str) -> np.ndarray:
    """``x`` (in ``layout``) transposed to the canonical layout ``canon`` (same letters; a
    blocked ``layout`` is first unblocked, as layout_transform does)."""
    if _blocked(layout):
        x = layout_transform(x, layout, _primal(layout))
        layout = _primal(layout)
    if layout == canon:
        return x
    if sorted(layout) != sorted(canon):
        raise RelayRuntimeError(f"the debug interpreter does not support layout '{layout}' here")
    return np.transpose(x, [layout.index(c) for c in canon])


def _from_cf(x: np.ndarray, canon: str, layout: str) -> np.ndarray:
    if _blocked(layout):
        return layout_transform(_from_cf(x, canon, _primal(layout)), _primal(layout), layout)
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
