"""More reductions: ``max``, ``min``, ``prod``, ``all``, ``any``, ``argmax``, ``argmin``, ``variance``, ``std``.

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(2, 3))
    >>> relay.argmax(x, axis=1).attrs
    {'axis': [1], 'keepdims': False, 'exclude': False, 'select_last_index': False}
    >>> relay.variance(x, axis=1).args[1].op.name   # the mean is an operand, as in Relay
    'mean'
"""
from __future__ import annotations

from typing import Optional

from ..expr import Call, Expr, Tuple, TupleWrapper
from ._make import IntList, _bool, _call, _ints
from .tensor import add, exp, log, mean, sqrt, subtract, sum as _sum

__all__ = ["max", "min", "prod", "all", "any", "argmax", "argmin", "variance", "std", "logsumexp",
           "mean_variance", "mean_std"]


def _reduce(name: str, data: Expr, axis, keepdims, exclude, **extra) -> Call:
    return _call(name, [data], axis=_ints(axis, "axis"), keepdims=_bool("keepdims", keepdims),
                 exclude=_bool("exclude", exclude), **extra)


def max(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,  # noqa: A001
        exclude: bool = False) -> Call:
    """Maximum over ``axis`` (``relay.max``)."""
    return _reduce("max", data, axis, keepdims, exclude)


def min(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,  # noqa: A001
        exclude: bool = False) -> Call:
    """Minimum over ``axis`` (``relay.min``)."""
    return _reduce("min", data, axis, keepdims, exclude)


def prod(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,
         exclude: bool = False) -> Call:
    """Product over ``axis`` (``relay.prod``)."""
    return _reduce("prod", data, axis, keepdims, exclude)


def all(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,  # noqa: A001
        exclude: bool = False) -> Call:
    """Logical and over ``axis`` (``relay.all``)."""
    return _reduce("all", data, axis, keepdims, exclude)


def any(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,  # noqa: A001
        exclude: bool = False) -> Call:
    """Logical or over ``axis`` (``relay.any``)."""
    return _reduce("any", data, axis, keepdims, exclude)


def argmax(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,
           exclude: bool = False, select_last_index: bool = False) -> Call:
    """Index of the maximum over ``axis`` (``relay.argmax``)."""
    return _reduce("argmax", data, axis, keepdims, exclude,
                   select_last_index=_bool("select_last_index", select_last_index))


def argmin(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,
           exclude: bool = False, select_last_index: bool = False) -> Call:
    """Index of the minimum over ``axis`` (``relay.argmin``)."""
    return _reduce("argmin", data, axis, keepdims, exclude,
                   select_last_index=_bool("select_last_index", select_last_index))


def variance(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,
             exclude: bool = False, unbiased: bool = False, with_mean: Optional[Expr] = None) -> Call:
    """Variance over ``axis`` (``relay.variance``); the mean is computed unless given."""
    m = with_mean if with_mean is not None else mean(data, axis, keepdims=True, exclude=exclude)
    return _call("variance", [data, m], axis=_ints(axis, "axis"), keepdims=_bool("keepdims", keepdims),
                 exclude=_bool("exclude", exclude), unbiased=_bool("unbiased", unbiased))


def std(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,
        exclude: bool = False, unbiased: bool = False) -> Call:
    """Standard deviation, ``sqrt(variance(...))`` (``relay.std``)."""
    return sqrt(variance(data, axis, keepdims, exclude, unbiased))


def logsumexp(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False) -> Call:
    """``log(sum(exp(data)))`` over ``axis``, computed stably (``relay.logsumexp``)."""
    m = max(data, axis, keepdims=True)
    s = _sum(exp(subtract(data, m)), axis, keepdims=keepdims)
    return add(log(s), m if keepdims else _reduce("max", data, axis, False, False))


def mean_variance(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,
                  exclude: bool = False, unbiased: bool = False) -> TupleWrapper:
    """``(mean, variance)`` over ``axis`` (``relay.mean_variance``)."""
    m = mean(data, axis, keepdims=True, exclude=exclude)
    var = variance(data, axis, keepdims, exclude, unbiased, with_mean=m)
    if not keepdims:
        m = mean(data, axis, keepdims=False, exclude=exclude)
    return TupleWrapper(Tuple([m, var]), 2)


def mean_std(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,
             exclude: bool = False) -> TupleWrapper:
    """``(mean, std)`` over ``axis`` (``relay.mean_std``)."""
    m = mean(data, axis, keepdims=True, exclude=exclude)
    sd = sqrt(variance(data, axis, keepdims, exclude, False, with_mean=m))
    if not keepdims:
        m = mean(data, axis, keepdims=False, exclude=exclude)
    return TupleWrapper(Tuple([m, sd]), 2)
