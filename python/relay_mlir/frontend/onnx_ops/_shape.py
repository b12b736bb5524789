"""Shape helpers shared by the converters (reshape with dynamic dims, unsqueeze, ...)."""
from __future__ import annotations

from typing import Optional, Sequence

from ._base import fmt_shape, have_op, Node
from ._symshape import Dim, elems_expr


def reshape(n: Node, x, target: Sequence[Optional[int]], src: Optional[Sequence[Optional[int]]] = None):
    """Reshapes ``x`` to ``target`` (None = unknown dim).

    Unknown dims are expressed with Relay's codes: ``0`` when the dim stays
    at the same position as in ``src`` and is the same input dim, else one
    ``-1``.
    """
    newshape = []
    unknown = 0
    # 0 (copy) only where the unknown dims correspond one to one: as many in src as in target
    # (an unknown target dim may otherwise be a product of several src dims)
    same_unknowns = src is not None and sum(d is None for d in src) == sum(d is None for d in target)
    for i, d in enumerate(target):
        if d is not None:
            newshape.append(int(d))
        elif same_unknowns and i < len(src) and src[i] is None and all(
                src[k] is not None or target[k] is None for k in range(i)) and _same_prefix(src, target, i):
            newshape.append(0)
        else:
            newshape.append(-1)
            unknown += 1
    if unknown > 1:
        raise n.unsupported(f"reshape to {fmt_shape(target)} needs at most one unknown dim")
    if src is not None and list(src) == list(target) and all(d is not None for d in target):
        return x
    return n.op("reshape")(x, newshape)


def _same_prefix(src, target, i) -> bool:
    return list(src[:i]) == list(target[:i])


def unsqueeze(n: Node, x, shape: Sequence[Optional[int]], axes: Sequence[int]):
    """Inserts size-1 dims at ``axes`` (normalized, of the output)."""
    out_rank = len(shape) + len(axes)
    axes = sorted(n.check_axes(axes, out_rank, "unsqueeze axes"))
    target, it = [], iter(shape)
    for i in range(out_rank):
        target.append(1 if i in axes else next(it))
    if sum(1 for d in shape if d is None) > 1 or (any(d is None for d in shape) and
                                                 not _reshape_ok(shape, target)):
        if have_op("expand_dims"):
            for a in axes:
                x = n.op("expand_dims")(x, a, 1)
            return x
    return reshape(n, x, target, shape)


def squeeze(n: Node, x, shape: Sequence[Optional[int]], axes: Sequence[int]):
    r = len(shape)
    axes = sorted(n.check_axes(axes, r, "squeeze axes"))
    for a in axes:
        if shape[a] is not None and shape[a] != 1:
            raise n.unsupported(f"cannot squeeze axis {a} of size {shape[a]}")
    target = [d for i, d in enumerate(shape) if i not in axes]
    if sum(1 for d in shape if d is None) > 1:
        if have_op("squeeze"):
            return n.op("squeeze")(x, axes)
    return reshape(n, x, target, shape)


def _reshape_ok(src, target) -> bool:
    return sum(1 for d in target if d is None) <= 1


def prod(ds) -> Optional[int]:
    p = 1
    for d in ds:
        if d is None:
            return None
        p *= int(d)
    return p


def dims_of(x, shape: Sequence[Optional[int]]) -> list:
    """The dims of ``x`` (static shape ``shape``): ints where static, else ``Dim(x, i)``."""
    return [d if d is not None else Dim(x, i) for i, d in enumerate(shape)]


def reshape_dims(n: Node, x, elems) -> object:
    """Reshapes ``x`` to ``elems`` (ints, one of them possibly -1, or ``Dim``s: dims of
    tensors known at run time) for reshapes the importer itself makes (the element count
    agrees by construction): Relay's static codes when at most one entry is unknown (0 for
    ``x``'s own dim at its position), else ``dyn.reshape`` on the run-time shape."""
    codes, unknown = [], 0
    for i, e in enumerate(elems):
        if isinstance(e, Dim):
            if e.of is x and e.axis == i:
                codes.append(0)
            else:
                codes.append(-1)
                unknown += 1
        else:
            codes.append(int(e))
            unknown += int(e) == -1
    if unknown <= 1:
        return n.op("reshape")(x, codes)
    # (the entries are sizes, a run-time 0 among them too: allowzero)
    return n.op("reshape")(x, elems_expr(n, elems, "int64"), allowzero=True)
