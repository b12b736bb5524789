"""Reductions and index-producing ONNX ops: Reduce*, ArgMax/ArgMin, TopK, CumSum."""
from __future__ import annotations



from ...op import dyn as D
from ._base import Node, fmt_shape, register
from .elementwise import _float_only
from ._symshape import runtime_check


def _axes(n: Node, input_since: int):
    """The reduction axes: None (all), a list, or ``_Runtime`` candidates for run-time axes."""
    if n.opset >= input_since:
        if n.has(1) and not n.is_const(1):
            return _runtime_axes(n)
        if n.has(1):
            return [int(a) for a in n.const(1, "axes").reshape(-1)]
        return None
    axes = n.attr("axes", None)
    return None if axes is None else [int(a) for a in axes]


class _Runtime(list):
    """Run-time axes: ``[(axes, condition)]``, every candidate the declared types allow
    (each gives the same result type); the result is selected at run time."""


_MAX_CANDIDATES = 16


def _runtime_axes(n: Node):
    """Axes only known at run time (input 1): the candidates of their static length that the
    declared input/output shapes allow, each with a run-time condition (axes == candidate as a set)."""
    import itertools
    xs = n.shape(0)
    ls = n.shape(1)
    if xs is None or ls is None or len(ls) != 1 or ls[0] is None:
        raise n.unsupported("input 1 (axes) is only known at run time and its length is unknown")
    count = int(ls[0])
    if count == 0:
        return []
    if count > len(xs):
        raise n.invalid(f"input 1 (axes) has {count} entries, more than the rank {len(xs)} of the data")
    keep = bool(n.attr("keepdims", 1))
    r = len(xs)
    out = n.static_out_shape()

    def result(axes):
        return tuple(1 if i in axes else xs[i] for i in range(r)) if keep else \
            tuple(xs[i] for i in range(r) if i not in axes)

    def fits(shape):
        return out is None or (len(shape) == len(out) and all(
            a is None or a == b for a, b in zip(shape, out)))

    cands = [c for c in itertools.combinations(range(r), count) if fits(result(c))]
    shapes = {result(c) for c in cands}
    if not cands or len(cands) > _MAX_CANDIDATES or len(shapes) != 1 or None in next(iter(shapes)):
        raise n.unsupported("input 1 (axes) is only known at run time and the declared shapes "
                            "do not determine the result shape")
    ax = n.expr(1)
    dt = n.dtype(1)
    norm = n.op("where")(n.op("less")(ax, n.scalar(0, dtype=dt)), n.op("add")(ax, n.scalar(r, dtype=dt)), ax)

    def conds(norm):
        out = []
        for c in cands:
            cond = None
            for a in c:
                hit = n.op("any")(n.op("equal")(norm, n.scalar(a, dtype=dt)))
                cond = hit if cond is None else n.op("logical_and")(cond, hit)
            out.append(cond)
        return out
    # the run-time axes must be one of the candidates (checked: a clear run-time error, never a
    # reduction over other axes than asked); the selection depends on the checked value
    ok = None
    for cond in conds(norm):
        ok = cond if ok is None else n.op("logical_or")(ok, cond)
    zero = runtime_check(n, ok)
    norm = n.op("add")(norm, zero if dt == "int64" else n.op("cast")(zero, dt))
    sel = _Runtime()
    for c, cond in zip(cands, conds(norm)):
        sel.append((list(c), cond))
    if len(sel) == 1:  # the value depends on the check
        sel.append((list(cands[0]), sel[0][1]))
    return sel


def select(n: Node, options):
    """``where(c1, v1, where(c2, v2, ... vk))`` over ``[(condition, value)]`` (the last is the default)."""
    y = options[-1][1]
    for cond, v in reversed(options[:-1]):
        y = n.op("where")(cond, v, y)
    return y


def _reduce(relay_name: str, input_since: int = 18, pre=None, post=None, float_only: bool = False):
    def conv(n: Node):
        if float_only:
            _float_only(n)
        keep = bool(n.attr("keepdims", 1))
        noop = bool(n.attr("noop_with_empty_axes", 0)) if n.opset >= input_since else False
        axes = _axes(n, input_since)
        if isinstance(axes, _Runtime):
            return select(n, [(cond, one(n, a, keep, noop)) for a, cond in axes])
        return one(n, axes, keep, noop)

    def one(n: Node, axes, keep: bool, noop: bool):
        if axes is not None and len(axes) == 0:
            axes = None
        x = n.expr(0)
        if axes is None and noop:
            return x if pre is None else pre(n, x)
        r = n.rank(0)
        if axes is not None:
            axes = sorted(set(n.check_axes(axes, r, "reduction axes", unique=False)))
        if pre is not None:
            x = pre(n, x)
        if n.dtype(0) == "bool" and relay_name in ("max", "min"):
            # reduced as uint8 (iree-compile fails on i1 reductions over empty dims)
            y = n.op(relay_name)(n.op("cast")(x, "uint8"), axis=axes, keepdims=keep)
            return n.op("cast")(y, "bool")
        y = n.op(relay_name)(x, axis=axes, keepdims=keep)
        return y if post is None else post(n, y)
    return conv


def _square(n, x):
    return n.op("multiply")(x, x)


def _abs(n, x):
    return n.op("abs")(x)


def _sqrt(n, y):
    return n.op("sqrt")(y)


def _log(n, y):
    return n.op("log")(y)


register("ReduceSum", since=1)(_reduce("sum", 13))
register("ReduceMean", since=1)(_reduce("mean", 18))
register("ReduceMax", since=1)(_reduce("max", 18))
register("ReduceMin", since=1)(_reduce("min", 18))
register("ReduceProd", since=1)(_reduce("prod", 18))
register("ReduceSumSquare", since=1)(_reduce("sum", 18, pre=_square))
register("ReduceL1", since=1)(_reduce("sum", 18, pre=_abs))
register("ReduceL2", since=1)(_reduce("sum", 18, pre=_square, post=_sqrt, float_only=True))
register("ReduceLogSum", since=1)(_reduce("sum", 18, post=_log, float_only=True))


@register("ReduceLogSumExp", since=1)
def _reduce_log_sum_exp(n: Node):
    _float_only(n)
    keep = bool(n.attr("keepdims", 1))
    noop = bool(n.attr("noop_with_empty_axes", 0)) if n.opset >= 18 else False
    axes = _axes(n, 18)
    if isinstance(axes, _Runtime):
        return select(n, [(cond, _log_sum_exp(n, a, keep, noop)) for a, cond in axes])
    return _log_sum_exp(n, axes, keep, noop)


def _log_sum_exp(n: Node, axes, keep: bool, noop: bool):
    if axes is not None and len(axes) == 0:
        axes = None
    x = n.expr(0)
    if axes is None and noop:
        return n.op("log")(n.op("exp")(x))
    r = n.rank(0)
    axes = sorted(set(n.check_axes(axes, r, "reduction axes", unique=False))) if axes is not None else list(range(r))
    m = n.op("max")(x, axis=axes, keepdims=True)
    s = n.op("sum")(n.op("exp")(n.op("subtract")(x, m)), axis=axes, keepdims=True)
    y = n.op("add")(n.op("log")(s), m)
    if not keep:
        y = n.op("squeeze")(y, axes)
    return y


def _arg(relay_name: str):
    def conv(n: Node):
        r = n.rank(0)
        axis = n.axis("axis", r, 0)
        if n.shape(0)[axis] == 0:  # (iree-compile also crashes on it: SIGFPE)
            raise n.invalid(f"{n.op_type} over axis {axis} of size 0 (it has no elements to pick from)")
        keep = bool(n.attr("keepdims", 1))
        last = bool(n.attr("select_last_index", 0))
        kw = {"select_last_index": True} if last else {}
        y = n.op(relay_name)(n.expr(0), axis=[axis], keepdims=keep, **kw)
        return n.op("cast")(y, "int64")
    return conv


register("ArgMax", since=1)(_arg("argmax"))
register("ArgMin", since=1)(_arg("argmin"))


@register("TopK", since=10)
def _topk(n: Node):
    r = n.rank(0)
    axis = n.axis("axis", r, -1)
    if not n.is_const(1):
        return _topk_runtime(n, axis)
    k = int(n.const_scalar(1, "k"))
    if k == 0:  # (the static topk reads k < 1 as the whole axis; dyn.topk of 0 is empty)
        return _topk_runtime(n, axis)
    dim = n.shape(0)[axis]
    if k < 0 or (dim is not None and k > dim):
        raise n.invalid(f"k={k} is out of range for axis {axis} of size {dim}")
    largest = bool(n.attr("largest", 1))
    n.expect("sorted", 1, default=1)
    out = n.op("topk")(n.expr(0), k=k, axis=axis, ret_type="both", is_ascend=not largest, dtype="int64")
    return [out[0], out[1]]


def _topk_runtime(n: Node, axis: int):
    """k known only at run time: ``dyn.topk`` (k is checked at run time to lie in [0, dim])."""
    ks = n.shape(1)
    if ks is None or len(ks) > 1 or any(d not in (1, None) for d in ks):
        raise n.invalid(f"input 1 (k) must hold one element, got shape {fmt_shape(ks)}")
    x = n.expr(0)
    largest = bool(n.attr("largest", 1))
    n.expect("sorted", 1, default=1)
    k = n.expr(1)
    if n.dtype(1) != "int64":
        k = n.op("cast")(k, "int64")
    k = n.op("reshape")(k, [])
    out = D.topk(x, k, axis, "both", not largest, "int64")
    return [out[0], out[1]]


def _scan(relay_name: str):
    def conv(n: Node):
        exclusive = bool(n.attr("exclusive", 0))
        reverse = bool(n.attr("reverse", 0))
        r = n.rank(0)
        if r == 0:
            raise n.invalid(f"{n.op_type} of a rank-0 input (it has no axis to scan)")

        def one(axis: int):
            x = n.expr(0)
            if reverse:
                x = n.op("reverse")(x, axis)
            y = n.op(relay_name)(x, axis=axis, exclusive=exclusive)
            if reverse:
                y = n.op("reverse")(y, axis)
            return y

        if n.has(1) and not n.is_const(1):
            # a run-time axis: every axis gives the same shape; select the one asked for
            if r == 1:
                return one(0)
            ax = n.expr(1)
            if n.rank(1) != 0:
                ax = n.op("reshape")(ax, [])
            dt = n.dtype(1)
            opts = []
            for a in range(r):
                cond = n.op("logical_or")(n.op("equal")(ax, n.scalar(a, dtype=dt)),
                                          n.op("equal")(ax, n.scalar(a - r, dtype=dt)))
                opts.append((cond, one(a)))
            return select(n, opts)
        axis = int(n.const_scalar(1, "axis"))
        return one(n.check_axis(axis, r, "input 'axis'"))
    return conv


register("CumSum", since=11)(_scan("cumsum"))
register("CumProd", since=26)(_scan("cumprod"))


@register("Hardmax", since=13)
def _hardmax(n: Node):
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    axis = n.axis("axis", len(xs), -1)
    if xs[axis] is None:
        raise n.unsupported("hardmax over an unknown dim")
    if 0 in xs:
        return n.expr(0)  # an empty tensor is its own hardmax (and argmax over 0 elements is undefined)
    idx = n.op("argmax")(n.expr(0), axis=[axis], keepdims=False)
    dt = n.dtype(0)
    return n.op("one_hot")(idx, n.scalar(1, dtype=dt), n.scalar(0, dtype=dt), int(xs[axis]), axis, dt)
