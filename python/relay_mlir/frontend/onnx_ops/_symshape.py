"""Shape arithmetic kept in the program: small integer tensors computed from shapes.

An ONNX export with dynamic axes computes shapes at run time
(``Shape -> Gather -> Unsqueeze -> Concat -> Reshape``). The importer keeps such
a value as a ``Sym``: the Relay expression that computes it at run time
(``shape_of``, ``take``, ``concatenate``, ...) together with what is known about
each entry at import time (``elems``): an ``int`` (known), a ``Dim`` (dim
``axis`` of the tensor expression ``of``: equal to it, value unknown) or
``None`` (unknown). A ``Sym`` whose entries are all known is folded to a numpy
array, so static models import exactly as before; otherwise the consumers
(``Reshape``, ``Expand``, ``ConstantOfShape``, ``Tile``, ``Range``, ...) use the
known entries statically and the run-time value for the rest (``dyn.*`` ops,
checked at run time).

``SYM_CONVERTERS`` are tried first for a node with a ``Sym`` input; a
converter returning ``None`` leaves the node to the ordinary converter (on
``Sym.expr``), whose result is then a plain run-time value.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence

import numpy as np

from ... import expr as E
from ...op import dyn as D
from .elementwise import _onnx_dtype
from ._base import lookup, relay_type

__all__ = ["Dim", "Sym", "SYM_CONVERTERS", "sym_of", "elems_expr", "shape_sym", "checked_nonneg",
           "runtime_check", "depend", "axes_are_one_of"]


class Dim:
    """Entry of a shape value equal to dim ``axis`` of the tensor expression ``of``."""

    __slots__ = ("of", "axis")

    def __init__(self, of: E.Expr, axis: int) -> None:
        self.of, self.axis = of, axis

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dim) and other.of is self.of and other.axis == self.axis

    def __hash__(self) -> int:
        return hash((id(self.of), self.axis))

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Dim(#{id(self.of) & 0xffff:x}, {self.axis})"


Elem = object  # int | Dim | None


class Sym:
    """A 0-d or 1-d integer tensor computed at run time from shapes.

    ``expr`` computes it; ``elems`` (one per entry) says what is known;
    ``scalar`` marks a 0-d tensor (one entry)."""

    __slots__ = ("expr", "elems", "scalar", "dtype")

    def __init__(self, expr: Optional[E.Expr], elems: Sequence[Elem], scalar: bool, dtype: str) -> None:
        self.expr, self.elems, self.scalar, self.dtype = expr, list(elems), scalar, dtype
        assert not scalar or len(self.elems) == 1

    @property
    def shape(self) -> tuple:
        return () if self.scalar else (len(self.elems),)

    def known(self) -> bool:
        return all(isinstance(e, (int, np.integer)) for e in self.elems)

    def array(self) -> np.ndarray:
        return np.array([int(e) for e in self.elems], dtype=self.dtype).reshape(self.shape)


def _is_int(e) -> bool:
    return isinstance(e, (int, np.integer)) and not isinstance(e, bool)


def sym_of(n, i: int) -> Optional[Sym]:
    """Input ``i`` as a ``Sym``: its ``Sym``, or a constant 0-d/1-d integer array as one."""
    if not n.has(i):
        return None
    s = n.syms[i] if i < len(n.syms) else None
    if s is not None:
        return s
    v = n.inputs[i]
    if isinstance(v, np.ndarray) and v.ndim <= 1 and v.dtype.kind in "iu" and v.size <= 64:
        return Sym(None, [int(x) for x in v.reshape(-1)], v.ndim == 0, v.dtype.name)
    return None


def _shape_of(n, x: E.Expr) -> E.Expr:
    """``shape_of(x)`` as int64, one expression per tensor (memoised on the importer)."""
    memo = n.shape_memo
    e = memo.get(id(x))
    if e is None or e[0] is not x:
        e = (x, n.op("shape_of")(x, dtype="int64"))
        memo[id(x)] = e
    return e[1]


def _elem_expr(n, e: Elem, sym: Optional[Sym], i: int, dtype: str) -> E.Expr:
    """A 1-element 1-d expression of entry ``e`` (entry ``i`` of ``sym``)."""
    if _is_int(e):
        return n.constant(np.array([int(e)], dtype=dtype))
    if isinstance(e, Dim):
        x = n.op("take")(_shape_of(n, e.of), n.constant(np.array([e.axis], np.int64)), axis=0)
        return x if dtype == "int64" else n.op("cast")(x, dtype)
    assert sym is not None and sym.expr is not None
    src = sym.expr if not sym.scalar else n.op("reshape")(sym.expr, [1])
    x = n.op("take")(src, n.constant(np.array([i], np.int64)), axis=0) if not sym.scalar else src
    return x if sym.dtype == dtype else n.op("cast")(x, dtype)


def elems_expr(n, elems: Sequence[Elem], dtype: str, sources: Sequence[Optional[tuple]] = ()) -> E.Expr:
    """A 1-d ``dtype`` expression of ``elems``; ``sources[i]`` = ``(sym, j)`` for an unknown entry
    (``None``) taken from entry ``j`` of ``sym``. Runs of known entries become one constant."""
    pieces: List[E.Expr] = []
    run: List[int] = []
    for i, e in enumerate(elems):
        if _is_int(e):
            run.append(int(e))
            continue
        if run:
            pieces.append(n.constant(np.array(run, dtype=dtype)))
            run = []
        src = sources[i] if i < len(sources) else None
        if e is None:
            assert src is not None, "an unknown entry needs its source"
            pieces.append(_elem_expr(n, None, src[0], src[1], dtype))
        else:
            pieces.append(_elem_expr(n, e, None, i, dtype))
    if run or not pieces:
        pieces.append(n.constant(np.array(run, dtype=dtype)))
    return pieces[0] if len(pieces) == 1 else n.op("concatenate")(pieces, axis=0)


# ---------------------------------------------------------------------------
# converters on Sym inputs (None: not handled, the ordinary converter runs)
# ---------------------------------------------------------------------------
SYM_CONVERTERS: Dict[str, Callable] = {}


def _sym_conv(*op_types: str):
    def deco(fn):
        for t in op_types:
            SYM_CONVERTERS[t] = fn
        return fn
    return deco


def shape_sym(n, x: E.Expr, shape: Sequence[Optional[int]], start: int = 0, end: Optional[int] = None) -> Sym:
    """``Shape(x)[start:end]`` with ``x``'s static dims known."""
    r = len(shape)
    idx = list(range(r))[slice(start, end)]
    elems = [shape[i] if shape[i] is not None else Dim(x, i) for i in idx]
    full = _shape_of(n, x)
    expr = full if idx == list(range(r)) else n.op("take")(full, n.constant(np.array(idx, np.int64)), axis=0)
    return Sym(expr, elems, False, "int64")


@_sym_conv("Identity")
def _identity(n):
    return n.syms[0]


@_sym_conv("Gather")
def _gather(n):
    s = n.syms[0]
    if s is None or s.scalar or not n.is_const(1):
        return None
    axis = int(n.attr("axis", 0))
    if axis not in (0, -1):
        return None
    idx = n.const(1)
    if idx.ndim > 1 or idx.dtype.kind not in "iu":
        return None
    k = len(s.elems)
    flat = [int(i) for i in idx.reshape(-1)]
    if any(not -k <= i < k for i in flat):
        raise n.invalid(f"index {flat} out of range for a shape of {k} entries")
    flat = [i + k if i < 0 else i for i in flat]
    elems = [s.elems[i] for i in flat]
    expr = n.op("take")(s.expr, n.constant(np.array(flat, np.int64).reshape(idx.shape)), axis=0)
    sym = Sym(expr, elems, idx.ndim == 0, s.dtype)
    return sym


@_sym_conv("Unsqueeze", "Squeeze", "Reshape")
def _reshape_like(n):
    """0-d <-> 1-element 1-d (the only reshapes of a shape value that keep it small)."""
    s = n.syms[0]
    if s is None:
        return None
    if n.op_type == "Unsqueeze" and s.scalar:
        scalar = False
    elif n.op_type == "Squeeze" and not s.scalar and len(s.elems) == 1:
        scalar = True
    elif n.op_type == "Reshape" and n.is_const(1) and n.const(1).ndim == 1 and n.const(1).size <= 1:
        target = [int(v) for v in n.const(1)]
        if target not in ([], [-1], [len(s.elems)]) or (not target and len(s.elems) != 1):
            return None
        scalar = not target
    else:
        return None
    if n.op_type == "Unsqueeze":
        axes = [int(a) for a in n.const(1, "axes")] if n.opset >= 13 else [int(a) for a in n.attr("axes")]
        if [a for a in axes] not in ([0], [-1]):
            return None
    elif n.op_type == "Squeeze":
        if n.opset >= 13:
            axes = [int(a) for a in n.const(1, "axes")] if n.has(1) else [0]
        else:
            axes = n.attr("axes", [0])
        if list(axes) not in ([0], [-1]):
            return None
    else:
        n.ignore("allowzero", "axis")
    expr = n.op("reshape")(s.expr, [] if scalar else [len(s.elems)])
    return Sym(expr, s.elems, scalar, s.dtype)


@_sym_conv("Concat")
def _concat(n):
    parts = [sym_of(n, i) for i in range(len(n))]
    if any(p is None or p.scalar for p in parts):
        return None
    if int(n.attr("axis")) not in (0, -1):
        return None
    dtype = parts[0].dtype
    elems, sources = [], []
    for p in parts:
        for j, e in enumerate(p.elems):
            elems.append(e)
            sources.append((p, j))
    expr = elems_expr(n, elems, dtype, sources)
    return Sym(expr, elems, False, dtype)


@_sym_conv("Slice")
def _slice(n):
    s = n.syms[0]
    if s is None or s.scalar:
        return None
    if n.opset >= 10:
        if not all(n.is_const(i) for i in range(1, len(n)) if n.has(i)):
            return None
        starts, ends = n.const_ints(1, "starts"), n.const_ints(2, "ends")
        axes = n.const_ints(3, "axes") if n.has(3) else [0]
        steps = n.const_ints(4, "steps") if n.has(4) else [1]
    else:
        starts, ends = n.attr("starts"), n.attr("ends")
        axes, steps = n.attr("axes", [0]), [1]
    if len(starts) != 1 or list(axes) not in ([0], [-1]) or len(ends) != 1 or len(steps) != 1 or steps[0] == 0:
        return None
    idx = list(range(len(s.elems)))[slice(int(starts[0]), int(ends[0]), int(steps[0]))]
    elems = [s.elems[i] for i in idx]
    if not idx:
        return np.zeros((0,), s.dtype)
    expr = n.op("take")(s.expr, n.constant(np.array(idx, np.int64)), axis=0)
    return Sym(expr, elems, False, s.dtype)


@_sym_conv("Cast")
def _cast(n):
    s = n.syms[0]
    dst = _onnx_dtype(n, n.attr("to"))
    n.ignore("saturate", "round_mode")
    if np.dtype(dst).kind not in "iu" or dst in ("int8", "uint8", "int16", "uint16"):
        return None
    expr = s.expr if dst == s.dtype else n.op("cast")(s.expr, dst)
    return Sym(expr, s.elems, s.scalar, dst)


def _sym_pair(n):
    """The two shape-value inputs of a binary node and their lengths, if both are shape
    values of lengths that broadcast (equal, or one of them 1); None otherwise."""
    a, b = sym_of(n, 0), sym_of(n, 1)
    if a is None or b is None:
        return None
    la, lb = len(a.elems), len(b.elems)
    if la != lb and 1 not in (la, lb):
        return None
    return a, b, la, lb


def _arith(fn):
    def conv(n):
        pair = _sym_pair(n)
        if pair is None:
            return None
        a, b, la, lb = pair
        k = max(la, lb)
        elems = []
        for i in range(k):
            x, y = a.elems[0 if la == 1 else i], b.elems[0 if lb == 1 else i]
            elems.append(fn(x, y))
        expr = lookup(n.op_type, n.opset)(n)  # the ordinary converter on the run-time values
        if not isinstance(expr, E.Expr):
            return None
        return Sym(expr, elems, a.scalar and b.scalar, a.dtype if a.expr is not None else b.dtype)
    return conv


def _known2(op):
    def f(x, y):
        if _is_int(x) and _is_int(y):
            return op(int(x), int(y))
        return None
    return f


def _mul(x, y):
    if _is_int(x) and int(x) == 1:
        return y
    if _is_int(y) and int(y) == 1:
        return x
    return _known2(lambda p, q: p * q)(x, y)


def _add(x, y):
    if _is_int(x) and int(x) == 0:
        return y
    if _is_int(y) and int(y) == 0:
        return x
    return _known2(lambda p, q: p + q)(x, y)


def _sub(x, y):
    if _is_int(y) and int(y) == 0:
        return x
    return _known2(lambda p, q: p - q)(x, y)


def _div(x, y):
    if _is_int(y) and int(y) == 1:
        return x
    return _known2(lambda p, q: int(np.trunc(p / q)) if q else None)(x, y)


SYM_CONVERTERS["Mul"] = _arith(_mul)
SYM_CONVERTERS["Add"] = _arith(_add)
SYM_CONVERTERS["Sub"] = _arith(_sub)
SYM_CONVERTERS["Div"] = _arith(_div)


@_sym_conv("Equal")
def _equal(n):
    """A comparison of shape entries decided at import time (torch exports ``squeeze`` of a dim
    it cannot prove is 1 as ``If(Equal(dim, 1))``): a ``Dim`` entry is resolved by Relay's type
    inference of its tensor when ONNX's shape inference left it unknown. Undecided: None."""
    pair = _sym_pair(n)
    if pair is None:
        return None
    a, b, la, lb = pair
    typed: Dict[int, Optional[tuple]] = {}

    def value(e):
        if _is_int(e):
            return int(e)
        if isinstance(e, Dim):
            if id(e.of) not in typed:
                typed[id(e.of)] = relay_type(e.of)
            t = typed[id(e.of)]
            if t is not None and e.axis < len(t[0]) and t[0][e.axis] is not None:
                return int(t[0][e.axis])
        return None
    out = []
    for i in range(max(la, lb)):
        x, y = value(a.elems[0 if la == 1 else i]), value(b.elems[0 if lb == 1 else i])
        if x is None or y is None:
            return None
        out.append(x == y)
    return np.array(out, bool).reshape(() if a.scalar and b.scalar else (len(out),))


# ---------------------------------------------------------------------------
# run-time checks
# ---------------------------------------------------------------------------
def checked_nonneg(n, sizes: E.Expr) -> E.Expr:
    """``sizes`` (1-d int64), checked at run time to be non-negative (with a product of at most
    2^40): the shape of a ``dyn.zeros`` of those sizes, whose lowering asserts it. Use the
    result, not ``sizes``, so that the check is part of the program (``op.dyn.checked_nonneg``)."""
    return D.checked_nonneg(sizes)


def runtime_check(n, ok: E.Expr) -> E.Expr:
    """A 0-d int64 zero computed from the 0-d bool ``ok``; the program stops with a run-time
    error when ``ok`` is false (cf.assert: "relay.dyn.zeros: a shape entry is negative ...
    [at <model>:<node>:...]", naming the ONNX node). Add the result to a value the node's
    result depends on (or use ``depend``)."""
    return D.runtime_check(ok)


def depend(n, value: E.Expr, zero: E.Expr) -> E.Expr:
    """``value``, made to depend on the run-time check ``zero`` (from ``runtime_check``)."""
    ok = n.op("equal")(zero, n.constant(np.array(0, np.int64)))
    return n.op("where")(ok, value, value)


def axes_are_one_of(n, i: int, rank: int, candidates) -> E.Expr:
    """A run-time check (``runtime_check``) that the 1-d integer input ``i`` (axes of a rank-``rank``
    tensor, negative ones counted from the end) is, as a set, one of ``candidates``."""
    ax = n.expr(i)
    dt = n.dtype(i)
    if dt != "int64":
        ax = n.op("cast")(ax, "int64")
    i64 = lambda v: n.constant(np.array(v, np.int64))  # noqa: E731
    norm = n.op("where")(n.op("less")(ax, i64(0)), n.op("add")(ax, i64(rank)), ax)
    ok = None
    for c in candidates:
        cond = None
        for a in c:
            hit = n.op("any")(n.op("equal")(norm, i64(a)))
            cond = hit if cond is None else n.op("logical_and")(cond, hit)
        if cond is None:
            cond = n.constant(np.array(True))
        ok = cond if ok is None else n.op("logical_or")(ok, cond)
    return runtime_check(n, ok)
