"""Structural equality of expressions, the comparison TVM's ``StructuralEqual`` makes.

Two expressions are equal when they have the same shape of nodes, operators (by name),
attributes, constants (dtype, shape and values) and variables. A variable bound inside both
(a function parameter, a let variable) equals its counterpart; a free variable equals only
itself, unless ``map_free_vars`` (then free variables pair up consistently), as in TVM 0.19.

>>> import relay_mlir as relay
>>> x = relay.var("x", shape=(2,))
>>> structural_equal(relay.exp(x), relay.exp(x)), structural_equal(relay.exp(x), relay.log(x))
(True, False)
"""
from __future__ import annotations

from typing import Dict, List, Tuple as PyTuple

import numpy as np

from ..expr import (Call, Constant, Expr, Function, GlobalVar, If, Let, Op, RefCreate, RefRead,
                    RefWrite, Tuple, TupleGetItem, TupleWrapper, Var)

__all__ = ["structural_equal", "attr_equal"]


def attr_equal(a: object, b: object) -> bool:
    """Attribute values: sequences element-wise, numbers by value, the rest with ``==``."""
    if isinstance(a, (list, tuple, np.ndarray)) or isinstance(b, (list, tuple, np.ndarray)):
        if not isinstance(a, (list, tuple, np.ndarray)) or not isinstance(b, (list, tuple, np.ndarray)):
            return False
        a, b = list(a), list(b)
        return len(a) == len(b) and all(attr_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, Expr) or isinstance(b, Expr):
        return isinstance(a, Expr) and isinstance(b, Expr) and structural_equal(a, b)
    if isinstance(a, (bool, np.bool_)) != isinstance(b, (bool, np.bool_)):
        return False
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _unwrap(e: object) -> object:
    return e.astuple() if isinstance(e, TupleWrapper) else e


def _same_constant(a: Constant, b: Constant) -> bool:
    return (a.data.dtype == b.data.dtype and a.data.shape == b.data.shape
            and bool(np.array_equal(a.data, b.data, equal_nan=True)))


def _same_attrs(a: Dict[str, object], b: Dict[str, object]) -> bool:
    return a.keys() == b.keys() and all(attr_equal(a[k], b[k]) for k in a)


class _Equal:
    def __init__(self, map_free_vars: bool) -> None:
        self.map_free_vars = map_free_vars
        self.vars: Dict[Var, Var] = {}
        self.back: Dict[Var, Var] = {}
        self.work: List[PyTuple[object, object]] = []
        self.seen: set = set()

    def bind(self, a: Var, b: Var) -> bool:
        if a in self.vars or b in self.back:
            return self.vars.get(a) is b
        self.vars[a], self.back[b] = b, a
        return True

    def push(self, xs: List[object], ys: List[object]) -> bool:
        if len(xs) != len(ys):
            return False
        self.work.extend(zip(xs, ys))
        return True

    def node(self, a: object, b: object) -> bool:
        """Compares one pair of nodes and queues their parts."""
        if type(a) is not type(b):
            return False
        if isinstance(a, Var):
            if a in self.vars or b in self.back:
                return self.vars.get(a) is b
            return a is b or (self.map_free_vars and self.bind(a, b))
        if isinstance(a, Op):
            return a.name == b.name
        if isinstance(a, GlobalVar):
            return a is b or a.name_hint == b.name_hint
        if isinstance(a, Constant):
            return _same_constant(a, b)
        if isinstance(a, Call):
            return _same_attrs(a.attrs, b.attrs) and self.push([a.op] + a.args, [b.op] + b.args)
        if isinstance(a, Tuple):
            return self.push(a.fields, b.fields)
        if isinstance(a, TupleGetItem):
            return a.index == b.index and self.push([a.tuple_value], [b.tuple_value])
        if isinstance(a, Function):
            if len(a.params) != len(b.params) or not _same_attrs(a.attrs, b.attrs):
                return False
            if not all(self.bind(p, q) for p, q in zip(a.params, b.params)):
                return False
            return self.push([a.body], [b.body])
        if isinstance(a, Let):
            return self.bind(a.var, b.var) and self.push([a.value, a.body], [b.value, b.body])
        if isinstance(a, If):
            return self.push([a.cond, a.true_branch, a.false_branch],
                             [b.cond, b.true_branch, b.false_branch])
        if isinstance(a, (RefCreate, RefRead, RefWrite)):
            names = {RefCreate: ["value"], RefRead: ["ref"], RefWrite: ["ref", "value"]}[type(a)]
            return self.push([getattr(a, n) for n in names], [getattr(b, n) for n in names])
        return a is b  # ADT matches and constructors: by identity

    def run(self, a: Expr, b: Expr) -> bool:
        self.work.append((a, b))
        while self.work:
            x, y = self.work.pop()
            x, y = _unwrap(x), _unwrap(y)
            key = (id(x), id(y))
            if key in self.seen:
                continue
            self.seen.add(key)
            if x is y and not isinstance(x, (Function, Let)):
                continue
            if not self.node(x, y):
                return False
        return True


def structural_equal(a: Expr, b: Expr, map_free_vars: bool = False) -> bool:
    """Whether ``a`` and ``b`` are structurally equal (TVM's ``tvm.ir.structural_equal``)."""
    return _Equal(map_free_vars).run(a, b)
