#!/usr/bin/env python3
"""Random well-typed relay programs, differentially tested (issue 13).

Each program is built with the Python builder API from a seeded numpy RNG
(program ``i`` of seed ``S`` depends only on ``(S, i)``): 1-3 parameters of
small static shapes (rank 0-4, dims 1-5; float32 mostly, some int32/bool),
then a pool of live values from which every new node picks operands whose
types fit: elementwise unary/binary ops with broadcasting, comparisons and
logic, reductions, shape transforms, indexing/sorting, nn ops (dense,
matmul, batch_matmul, conv1d/2d, pools, norms, softmax, pad, ...), tuples
and ``tuple_get_item``, ``let``, ``if`` on a computed condition, calls of
helper global functions and of local closures (capturing outer values).

Every node is checked as it is built: its type is inferred by the C++
typing rules (``InferType`` on the node over placeholder parameters) and
its value computed by the reference interpreter on the program's actual
inputs (a "shadow" evaluation). The shadow values keep the program
numerically tame and the comparison meaningful:

* values whose magnitude exceeds ``MAX_MAG`` (or are not finite) are dropped;
  log/sqrt/rsqrt/divide/power get operands made positive (``abs(x) + c``),
  asin/acos/tan clipped operands;
* discontinuous ops (floor, round, sign, comparisons, argmax, argsort, casts
  to int, ...) are only applied where the result cannot flip under float32
  rounding differences: on values computed exactly (data movement, max/min,
  ...) or whose distance to the discontinuity exceeds a margin.

A node the typing rules refuse is redone with another op (counted as
``rejected``; they are generator mistakes, or typing-rule bugs to look at
with ``-v``).

Each program then runs, in a worker process with a timeout, through

* the reference interpreter (``create_executor("debug")``: numpy kernels),
* ``relay.compile(mod, "llvm-cpu")`` with the default pipeline,
* the same with ``relay-to-iree-input{convert-layout=false}`` (``--configs``
  adds ``partial-eval``: ``relay-partial-eval`` first),
* and, for programs with float parameters, the gradient of ``sum`` of the
  float outputs (``relay.transform.gradient``), interpreted vs compiled.

Float results must agree within ``rtol=1e-4, atol=1e-4*(1+max|ref|)``,
int/bool results exactly, shapes and dtypes exactly. Verdicts:

  pass, mismatch, compile_error (a CompileError on a well-typed program),
  interp_error (the interpreter raised), exception (anything else raised),
  crash (the worker died), timeout.

A gradient the pass refuses for lack of a rule counts as ``unsupported``
(not a finding).

Usage::

    python fuzz/random_programs.py --seed 0 --count 200
    python fuzz/random_programs.py --seed 0 --only 17 -v --print   # one program
    python fuzz/random_programs.py --seed 0 --count 1000 --md docs/fuzzing_programs.md

Findings (program text, inputs, verdict) are written to ``fuzz/findings/``
(``--findings-dir``). Exit status 1 if any program is not ``pass``.
"""
from __future__ import annotations

import argparse
import collections
import json
import multiprocessing as mp
import os
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_MAG = 30.0          # drop values larger than this (keeps float32 errors small)
RTOL = 1e-4
ATOL = 1e-4

FLOAT, INT, BOOL = "float32", "int32", "bool"


def _relay():
    import relay_mlir as relay
    return relay


# ---------------------------------------------------------------------------
# the pool of live values


@dataclass
class Val:
    expr: object                     # the relay expression (a Var when let-bound)
    ty: object                       # ("t", shape, dtype) or ("tup", [types])
    value: object                    # the shadow value (np.ndarray or tuple)
    exact: bool = False              # computed exactly (no rounding differences possible)
    uses: int = 0

    @property
    def is_tensor(self) -> bool:
        return self.ty[0] == "t"

    @property
    def shape(self) -> tuple:
        return self.ty[1]

    @property
    def dtype(self) -> str:
        return self.ty[2]

    @property
    def rank(self) -> int:
        return len(self.ty[1])


@dataclass
class Node:
    """A candidate node: operands from the pool and a builder over their exprs."""
    args: List[Val]
    build: Callable
    op: str
    exact: bool = False


def _ty_of(t) -> tuple:
    relay = _relay()
    if isinstance(t, relay.TensorType):
        return ("t", tuple(int(d) for d in t.shape), str(t.dtype))
    if isinstance(t, relay.TupleType):
        return ("tup", [_ty_of(f) for f in t.fields])
    raise TypeError(f"unsupported type {t!r}")


def _relay_ty(ty):
    relay = _relay()
    if ty[0] == "t":
        return relay.TensorType(list(ty[1]), ty[2])
    return relay.TupleType([_relay_ty(f) for f in ty[1]])


def _maxabs(v) -> float:
    if isinstance(v, tuple):
        return max([_maxabs(f) for f in v] + [0.0])
    a = np.asarray(v)
    if a.size == 0:
        return 0.0
    if a.dtype == np.bool_:
        return 1.0
    return float(np.max(np.abs(a.astype("float64"))))


def _finite(v) -> bool:
    if isinstance(v, tuple):
        return all(_finite(f) for f in v)
    a = np.asarray(v)
    return a.dtype.kind != "f" or bool(np.all(np.isfinite(a)))


class CompileRejected(Exception):
    pass


# ---------------------------------------------------------------------------
# the generator


class Generator:
    def __init__(self, seed: int, index: int, n_ops: int = 12, allow: Optional[set] = None,
                 verbose: bool = False) -> None:
        self.rng = np.random.default_rng([seed, index])
        self.n_ops = n_ops
        self.verbose = verbose
        self.pool: List[Val] = []
        self.stmts: List[Tuple[object, object]] = []   # (Var or None, expr) in order
        self.params: List[object] = []
        self.inputs: List[np.ndarray] = []
        self.helpers: Dict[str, object] = {}         # name -> Function
        self.helper_gv: Dict[str, object] = {}
        self.rejected: List[Tuple[str, str]] = []
        self.ops_used: List[str] = []
        self.nvar = 0
        self.table = [(w, name, fn) for (w, name, fn) in self._table() if allow is None or name in allow]

    # -- random helpers -----------------------------------------------------
    def r(self, n: int) -> int:
        return int(self.rng.integers(n))

    def coin(self, p: float = 0.5) -> bool:
        return bool(self.rng.random() < p)

    def choice(self, seq):
        return seq[self.r(len(seq))]

    def rand_shape(self, rank: Optional[int] = None) -> tuple:
        if rank is None:
            rank = self.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])
        return tuple(int(self.rng.integers(1, 6)) for _ in range(rank))

    def rand_value(self, shape, dtype, lo=-2.0, hi=2.0) -> np.ndarray:
        if dtype == FLOAT:
            return np.asarray(self.rng.uniform(lo, hi, size=shape), FLOAT)
        if dtype == INT:
            return np.asarray(self.rng.integers(-5, 6, size=shape), INT)
        return np.asarray(self.rng.random(size=shape) < 0.5, np.bool_)

    def fresh(self, prefix: str = "v") -> str:
        self.nvar += 1
        return f"{prefix}{self.nvar}"

    # -- the pool -------------------------------------------------------------
    def tensors(self, dtype=None, min_rank=0, max_rank=9, pred=None) -> List[Val]:
        out = []
        for v in self.pool:
            if not v.is_tensor:
                continue
            if dtype is not None and (v.dtype not in dtype if isinstance(dtype, (tuple, list)) else v.dtype != dtype):
                continue
            if not (min_rank <= v.rank <= max_rank):
                continue
            if pred is not None and not pred(v):
                continue
            out.append(v)
        return out

    def pick(self, cands: List[Val]) -> Optional[Val]:
        if not cands:
            return None
        # prefer recent and unused values (deeper programs, fewer dead values)
        w = np.array([(1.0 + i) * (2.0 if c.uses == 0 else 1.0) for i, c in enumerate(cands)])
        return cands[int(self.rng.choice(len(cands), p=w / w.sum()))]

    def pick_float(self, **kw) -> Optional[Val]:
        return self.pick(self.tensors(FLOAT, **kw))

    def const_val(self, value: np.ndarray) -> Val:
        relay = _relay()
        value = np.asarray(value)
        return Val(relay.const(value), ("t", tuple(value.shape), _dtype_name(value.dtype)), value, exact=True)

    # -- adding a node: type by InferType, value by the interpreter -----------
    def _module(self, main):
        relay = _relay()
        mod = relay.IRModule()
        for name, fn in self.helpers.items():
            mod[self.helper_gv[name]] = fn
        mod["main"] = main
        return mod

    def infer_and_eval(self, args: List[Val], build: Callable):
        """(type, value) of ``build`` applied to ``args``, computed over placeholders."""
        relay = _relay()
        from relay_mlir.interpreter import Interpreter
        ph = [relay.var(f"p{i}", type_annotation=_relay_ty(a.ty)) for i, a in enumerate(args)]
        body = build(*ph)
        if isinstance(body, relay.TupleWrapper):
            body = body.astuple()
        fn = relay.Function(ph, body)
        mod = self._module(fn)
        try:
            mod = relay.transform.InferType()(mod)
        except relay.CompileError as e:
            raise CompileRejected(str(e).strip().splitlines()[-1])
        ty = _ty_of(mod["main"].body.checked_type)
        it = Interpreter(self._module(fn))
        try:
            with np.errstate(all="ignore"):
                value = it.call_closure(it.evaluate(fn), [a.value for a in args], {})
        except relay.RelayRuntimeError as e:
            # a documented run-time error of the interpreter (e.g. a max-pool
            # window entirely in the padding): the node is redone, not a finding
            raise CompileRejected(f"run-time error: {e}")
        return ty, value

    def add(self, node: Node, let: Optional[bool] = None) -> Optional[Val]:
        relay = _relay()
        try:
            ty, value = self.infer_and_eval(node.args, node.build)
        except CompileRejected as e:
            self.rejected.append((node.op, str(e)))
            if self.verbose:
                print(f"  rejected {node.op}: {e}", file=sys.stderr)
            return None
        if not _finite(value) or _maxabs(value) > MAX_MAG:
            return None
        _check_shadow(ty, value, node.op)
        expr = node.build(*[a.expr for a in node.args])
        if isinstance(expr, relay.TupleWrapper):
            expr = expr.astuple()
        if let is None:
            let = self.coin(0.35)
        if let:
            v = relay.var(self.fresh("x"), type_annotation=_relay_ty(ty) if self.coin(0.5) else None)
            self.stmts.append((v, expr))
            expr = v
        else:
            self.stmts.append((None, expr))
        for a in node.args:
            a.uses += 1
        out = Val(expr, ty, value, exact=node.exact and all(a.exact for a in node.args))
        self.pool.append(out)
        self.ops_used.append(node.op)
        return out

    # -- making operands safe ---------------------------------------------------
    def positive(self, v: Val, c: float = 0.5) -> Optional[Val]:
        """abs(v) + c (as a node): a value safe for log/sqrt/division."""
        relay = _relay()
        cc = float(self.choice([c, 1.0, 1.5]))
        return self.add(Node([v], lambda a: relay.add(relay.abs(a), relay.const(cc)), "abs+c"), let=False)

    def bounded(self, v: Val, lim: float) -> Optional[Val]:
        relay = _relay()
        if _maxabs(v.value) <= lim:
            return v
        if self.coin():
            return self.add(Node([v], lambda a: relay.clip(a, -lim, lim), "clip", exact=True), let=False)
        return self.add(Node([v], lambda a: relay.multiply(relay.tanh(a), relay.const(float(lim))), "tanh*c"),
                        let=False)

    def robust(self, v: Val, points: Callable[[np.ndarray], np.ndarray]) -> bool:
        """Whether a discontinuous op of ``v`` is safe: v exact, or every element's
        distance to the discontinuities (``points(x)``, elementwise) is large."""
        if v.exact or v.dtype != FLOAT:
            return True
        x = v.value.astype("float64")
        margin = 1e-3 * (1.0 + _maxabs(x))
        return bool(np.all(np.abs(points(x)) > margin))

    # -- ops --------------------------------------------------------------------
    def _table(self):
        return [
            (10, "unary", self.op_unary),
            (3, "unary_domain", self.op_unary_domain),
            (2, "rounding", self.op_rounding),
            (10, "binary", self.op_binary),
            (2, "divide", self.op_divide),
            (1, "power", self.op_power),
            (3, "compare", self.op_compare),
            (2, "logic", self.op_logic),
            (2, "where", self.op_where),
            (2, "int_arith", self.op_int_arith),
            (2, "cast", self.op_cast),
            (5, "reduce", self.op_reduce),
            (1, "argreduce", self.op_argreduce),
            (1, "bool_reduce", self.op_bool_reduce),
            (3, "reshape", self.op_reshape),
            (3, "transpose", self.op_transpose),
            (2, "expand_squeeze", self.op_expand_squeeze),
            (2, "concat_stack", self.op_concat_stack),
            (2, "split", self.op_split),
            (3, "strided_slice", self.op_strided_slice),
            (2, "take", self.op_take),
            (1, "gather", self.op_gather),
            (1, "tile_repeat", self.op_tile_repeat),
            (1, "reverse", self.op_reverse),
            (1, "broadcast_to", self.op_broadcast_to),
            (1, "clip", self.op_clip),
            (1, "like", self.op_like),
            (1, "cumsum", self.op_cumsum),
            (1, "sort", self.op_sort),
            (1, "one_hot", self.op_one_hot),
            (3, "dense", self.op_dense),
            (1, "batch_matmul", self.op_batch_matmul),
            (2, "softmax", self.op_softmax),
            (2, "nn_act", self.op_nn_act),
            (2, "conv2d", self.op_conv2d),
            (1, "conv1d", self.op_conv1d),
            (2, "pool2d", self.op_pool2d),
            (1, "global_pool", self.op_global_pool),
            (1, "bias_add", self.op_bias_add),
            (1, "norm", self.op_norm),
            (1, "pad", self.op_pad),
            (1, "einsum", self.op_einsum),
            (3, "tuple", self.op_tuple),
            (3, "if", self.op_if),
            (2, "closure", self.op_closure),
            (2, "global_call", self.op_global_call),
        ]

    UNARY = ["tanh", "sigmoid", "sin", "cos", "atan", "erf", "abs", "negative", "copy", "exp",
             "sinh", "cosh", "fast_tanh", "fast_erf", "fast_exp"]
    UNARY_MAG = {"exp": 3.0, "sinh": 3.0, "cosh": 3.0, "fast_exp": 3.0}
    EXACT_UNARY = {"abs", "negative", "copy"}

    def op_unary(self):
        relay = _relay()
        name = self.choice(self.UNARY)
        v = self.pick_float()
        if v is None:
            return None
        if name in self.UNARY_MAG:
            v = self.bounded(v, self.UNARY_MAG[name])
            if v is None:
                return None
        f = getattr(relay, name)
        return Node([v], lambda a: f(a), name, exact=name in self.EXACT_UNARY)

    def op_unary_domain(self):
        relay = _relay()
        name = self.choice(["log", "log2", "log10", "sqrt", "rsqrt", "asin", "acos", "tan"])
        v = self.pick_float()
        if v is None:
            return None
        if name in ("asin", "acos"):
            v = self.add(Node([v], lambda a: relay.clip(a, -0.9, 0.9), "clip", exact=True), let=False)
        elif name == "tan":
            v = self.add(Node([v], lambda a: relay.clip(a, -1.2, 1.2), "clip", exact=True), let=False)
        else:
            v = self.positive(v)
        if v is None:
            return None
        f = getattr(relay, name)
        return Node([v], lambda a: f(a), name)

    def op_rounding(self):
        relay = _relay()
        name = self.choice(["floor", "ceil", "round", "trunc", "sign"])
        pts = {"floor": lambda x: x - np.round(x), "ceil": lambda x: x - np.round(x),
               "trunc": lambda x: x - np.round(x), "round": lambda x: x - np.floor(x) - 0.5,
               "sign": lambda x: x}[name]
        v = self.pick(self.tensors((FLOAT, INT), pred=lambda v: self.robust(v, pts)))
        if v is None:
            return None
        f = getattr(relay, name)
        return Node([v], lambda a: f(a), name, exact=True)

    def _broadcast_partner(self, v: Val, dtypes) -> Optional[Val]:
        """A pool value (or a new constant) whose shape broadcasts with v's."""
        def fits(u):
            a, b = u.shape, v.shape
            for x, y in zip(reversed(a), reversed(b)):
                if x != y and x != 1 and y != 1:
                    return False
            return u is not v or self.coin(0.3)
        cands = self.tensors(dtypes, pred=fits)
        if cands and self.coin(0.7):
            return self.pick(cands)
        # a constant of a broadcastable shape: a suffix of v's shape with some dims 1
        k = self.r(v.rank + 1)
        shape = tuple(d if self.coin(0.7) else 1 for d in v.shape[v.rank - k:])
        return self.const_val(self.rand_value(shape, dtypes[0] if isinstance(dtypes, (tuple, list)) else dtypes))

    def op_binary(self):
        relay = _relay()
        name = self.choice(["add", "subtract", "multiply", "maximum", "minimum"])
        v = self.pick_float()
        if v is None:
            return None
        u = self._broadcast_partner(v, FLOAT)
        if u is None:
            return None
        f = getattr(relay, name)
        args = [v, u] if self.coin() else [u, v]
        return Node(args, lambda a, b: f(a, b), name, exact=name in ("maximum", "minimum"))

    def op_divide(self):
        relay = _relay()
        v = self.pick_float()
        if v is None:
            return None
        u = self._broadcast_partner(v, FLOAT)
        if u is None:
            return None
        d = self.positive(u, 1.0)
        if d is None:
            return None
        if self.coin(0.3):
            # floor_divide / floor_mod / mod: discontinuous, exact operands only
            name = self.choice(["floor_divide", "floor_mod", "mod"])
            if not (v.exact and d.exact):
                return None
            f = getattr(relay, name)
            return Node([v, d], lambda a, b: f(a, b), name)
        return Node([v, d], lambda a, b: relay.divide(a, b), "divide")

    def op_power(self):
        relay = _relay()
        v = self.pick_float()
        if v is None:
            return None
        base = self.positive(v, 0.5)
        if base is None:
            return None
        if self.coin():
            e = self.const_val(np.asarray(self.rng.uniform(-2, 2, size=base.shape[base.rank - self.r(base.rank + 1):]),
                                          FLOAT))
        else:
            e = self.const_val(np.array(self.choice([0.5, 2.0, 3.0, -1.0]), FLOAT))
        return Node([base, e], lambda a, b: relay.power(a, b), "power")

    def op_compare(self):
        relay = _relay()
        name = self.choice(["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"])
        v = self.pick(self.tensors((FLOAT, INT)))
        if v is None:
            return None
        u = self._broadcast_partner(v, v.dtype)
        if u is None or u.dtype != v.dtype:
            return None
        if not (v.exact and u.exact):
            try:
                diff = np.asarray(v.value, "float64") - np.asarray(u.value, "float64")
            except ValueError:
                return None
            if not np.all(np.abs(diff) > 1e-3 * (1 + _maxabs(v.value) + _maxabs(u.value))):
                return None
        f = getattr(relay, name)
        return Node([v, u], lambda a, b: f(a, b), name, exact=True)

    def op_logic(self):
        relay = _relay()
        v = self.pick(self.tensors(BOOL))
        if v is None:
            return None
        if self.coin(0.3):
            name = self.choice(["logical_not", "bitwise_not"])
            f = getattr(relay, name)
            return Node([v], lambda a: f(a), name, exact=True)
        name = self.choice(["logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"])
        u = self._broadcast_partner(v, BOOL)
        f = getattr(relay, name)
        return Node([v, u], lambda a, b: f(a, b), name, exact=True)

    def op_where(self):
        relay = _relay()
        x = self.pick(self.tensors((FLOAT, INT)))
        if x is None:
            return None
        y = self._broadcast_partner(x, x.dtype)
        if y.dtype != x.dtype:
            return None
        try:
            out = np.broadcast_shapes(x.shape, y.shape)
        except ValueError:
            return None
        c = self.pick(self.tensors(BOOL, pred=lambda b: _broadcasts(b.shape, out)))
        if c is None:
            return None
        return Node([c, x, y], lambda c_, a, b: relay.where(c_, a, b), "where", exact=True)

    def op_int_arith(self):
        relay = _relay()
        v = self.pick(self.tensors(INT))
        if v is None:
            return None
        name = self.choice(["add", "subtract", "multiply", "maximum", "minimum", "bitwise_and", "bitwise_or",
                            "bitwise_xor", "left_shift", "right_shift", "floor_divide", "floor_mod", "mod",
                            "divide", "abs", "negative", "relu", "clip", "bitwise_not"])
        if name in ("abs", "negative", "bitwise_not"):
            f = getattr(relay, name)
            return Node([v], lambda a: f(a), "int_" + name, exact=True)
        if name == "relu":
            return Node([v], lambda a: relay.nn.relu(a), "int_relu", exact=True)
        if name == "clip":
            lo = int(self.rng.integers(-4, 1))
            hi = lo + int(self.rng.integers(1, 6))
            return Node([v], lambda a: relay.clip(a, lo, hi), "int_clip", exact=True)
        u = self._broadcast_partner(v, INT)
        if u is None or u.dtype != INT:
            return None
        if name in ("left_shift", "right_shift"):
            u = self.add(Node([u], lambda a: relay.clip(a, 0, 3), "int_clip", exact=True), let=False)
        elif name in ("floor_divide", "floor_mod", "mod", "divide"):
            u = self.add(Node([u], lambda a: relay.add(relay.abs(a), relay.const(1)), "abs+1", exact=True), let=False)
        if u is None:
            return None
        if name == "multiply" and (_maxabs(v.value) > 1000 or _maxabs(u.value) > 1000):
            return None
        f = getattr(relay, name)
        return Node([v, u], lambda a, b: f(a, b), "int_" + name, exact=True)

    def op_cast(self):
        relay = _relay()
        v = self.pick(self.tensors())
        if v is None:
            return None
        to = self.choice([FLOAT, INT, BOOL])
        if to == v.dtype:
            to = FLOAT if v.dtype != FLOAT else INT
        if v.dtype == FLOAT and to != FLOAT:
            pts = (lambda x: x - np.round(x)) if to == INT else (lambda x: x)
            if not self.robust(v, pts):
                return None
        if self.coin(0.2):
            like = self.const_val(np.zeros((), np.bool_ if to == BOOL else to))
            return Node([v, like], lambda a, b: relay.cast_like(a, b), "cast_like", exact=True)
        return Node([v], lambda a: relay.cast(a, to), "cast", exact=True)

    def _axes(self, rank: int) -> Optional[list]:
        if rank == 0 or self.coin(0.2):
            return None
        k = int(self.rng.integers(1, rank + 1))
        axes = sorted(self.rng.choice(rank, size=k, replace=False).tolist())
        return [a - rank if self.coin(0.3) else a for a in axes]

    def op_reduce(self):
        relay = _relay()
        name = self.choice(["sum", "mean", "max", "min", "prod", "logsumexp", "std", "variance"])
        v = self.pick_float()
        if v is None:
            return None
        if name in ("prod", "logsumexp"):
            v = self.bounded(v, 2.0)
            if v is None:
                return None
        axis, keep = self._axes(v.rank), self.coin(0.4)
        if name == "variance":
            if self.coin():
                return Node([v], lambda a: relay.variance(a, axis=axis, keepdims=keep), name)
            return Node([v], lambda a: relay.mean_variance(a, axis=axis, keepdims=keep), "mean_variance")
        f = getattr(relay, name)
        # exclude=True listing every axis reduces over none (bug K1 of
        # docs/fuzzing_programs.md, fixed: the max/min gradient divided by the count)
        if name in ("sum", "mean", "max", "min") and axis is not None and self.coin(0.15):
            return Node([v], lambda a: f(a, axis=axis, keepdims=keep, exclude=True), name + "_exclude",
                        exact=name in ("max", "min"))
        return Node([v], lambda a: f(a, axis=axis, keepdims=keep), name, exact=name in ("max", "min"))

    def _gap_ok(self, v: Val, axis: int) -> bool:
        """No two elements along ``axis`` closer than the rounding margin (or exact)."""
        if v.exact or v.dtype != FLOAT:
            return True
        s = np.sort(v.value.astype("float64"), axis=axis)
        if s.shape[axis] < 2:
            return True
        return bool(np.abs(np.diff(s, axis=axis)).min() >= 1e-3 * (1 + _maxabs(v.value)))

    def op_argreduce(self):
        relay = _relay()
        name = self.choice(["argmax", "argmin"])
        v = self.pick(self.tensors((FLOAT, INT), min_rank=1))
        if v is None:
            return None
        axis = self.r(v.rank)
        keep = self.coin(0.3)
        if not self._gap_ok(v, axis):
            return None
        f = getattr(relay, name)
        return Node([v], lambda a: f(a, axis=[axis], keepdims=keep), name, exact=True)

    def op_bool_reduce(self):
        relay = _relay()
        v = self.pick(self.tensors(BOOL, min_rank=1))
        if v is None:
            return None
        name = self.choice(["all", "any"])
        axis, keep = self._axes(v.rank), self.coin(0.3)
        f = getattr(relay, name)
        return Node([v], lambda a: f(a, axis=axis, keepdims=keep), name, exact=True)

    def op_reshape(self):
        relay = _relay()
        v = self.pick(self.tensors())
        if v is None:
            return None
        n = int(np.prod(v.shape)) if v.shape else 1
        dims, rest = [], n
        for _ in range(self.r(4)):
            divs = [d for d in range(1, rest + 1) if rest % d == 0]
            d = self.choice(divs)
            dims.append(d)
            rest //= d
        if rest != 1 or not dims or self.coin(0.3):
            dims.append(rest)
        self.rng.shuffle(dims)
        newshape = [int(d) for d in dims]
        if self.coin(0.2):
            like = self.const_val(np.zeros(newshape, FLOAT))
            return Node([v, like], lambda a, b: relay.reshape_like(a, b), "reshape_like", exact=True)
        if self.coin(0.3) and newshape:
            newshape[self.r(len(newshape))] = -1
        return Node([v], lambda a: relay.reshape(a, newshape), "reshape", exact=True)

    def op_transpose(self):
        relay = _relay()
        v = self.pick(self.tensors(min_rank=1))
        if v is None:
            return None
        perm = None if self.coin(0.2) else self.rng.permutation(v.rank).tolist()
        return Node([v], lambda a: relay.transpose(a, perm), "transpose", exact=True)

    def op_expand_squeeze(self):
        relay = _relay()
        v = self.pick(self.tensors(max_rank=4))
        if v is None:
            return None
        ones = [i for i, d in enumerate(v.shape) if d == 1]
        if ones and self.coin():
            axis = None if self.coin(0.3) else sorted(self.rng.choice(ones, size=self.r(len(ones)) + 1,
                                                                      replace=False).tolist())
            return Node([v], lambda a: relay.squeeze(a, axis), "squeeze", exact=True)
        axis = int(self.rng.integers(-v.rank - 1, v.rank + 1))
        k = 1 if v.rank >= 3 else int(self.rng.integers(1, 3))
        return Node([v], lambda a: relay.expand_dims(a, axis, k), "expand_dims", exact=True)

    def op_concat_stack(self):
        relay = _relay()
        v = self.pick(self.tensors())
        if v is None:
            return None
        if self.coin() or v.rank == 0:
            same = [u for u in self.tensors(v.dtype) if u.shape == v.shape]
            others = [self.pick(same) for _ in range(self.r(2) + 1)]
            axis = int(self.rng.integers(-v.rank - 1, v.rank + 1))
            return Node([v] + others, lambda *xs: relay.stack(list(xs), axis), "stack", exact=True)
        axis = self.r(v.rank)
        fits = [u for u in self.tensors(v.dtype, min_rank=v.rank, max_rank=v.rank)
                if all(a == b for i, (a, b) in enumerate(zip(u.shape, v.shape)) if i != axis)]
        others = [self.pick(fits) for _ in range(self.r(2) + 1)]
        ax = axis - v.rank if self.coin(0.3) else axis
        return Node([v] + others, lambda *xs: relay.concatenate(list(xs), ax), "concatenate", exact=True)

    def op_split(self):
        relay = _relay()
        v = self.pick(self.tensors(min_rank=1, pred=lambda u: max(u.shape) > 1))
        if v is None:
            return None
        axis = self.choice([i for i, d in enumerate(v.shape) if d > 1])
        d = v.shape[axis]
        if self.coin():
            spec = self.choice([s for s in range(1, d + 1) if d % s == 0])
        else:
            k = self.r(min(3, d - 1)) + 1
            spec = sorted(self.rng.choice(np.arange(1, d), size=k, replace=False).tolist())
        return Node([v], lambda a: relay.split(a, spec, axis).astuple(), "split", exact=True)

    def op_strided_slice(self):
        relay = _relay()
        v = self.pick(self.tensors(min_rank=1))
        if v is None:
            return None
        begin, end, strides = [], [], []
        for d in v.shape:
            s = self.choice([1, 1, 1, 2, -1])
            if s > 0:
                b = self.r(d)
                e = int(self.rng.integers(b + 1, d + 2))  # may exceed d: clamped
            else:
                b = int(self.rng.integers(0, d))
                e = int(self.rng.integers(-1, b)) if (self.coin(0.5) and b > 0) else -d - 1
            begin.append(b)
            end.append(e)
            strides.append(s)
        if self.coin(0.3) and v.rank > 1:
            axes = sorted(self.rng.choice(v.rank, size=self.r(v.rank) + 1, replace=False).tolist())
            b2, e2, s2 = [begin[a] for a in axes], [end[a] for a in axes], [strides[a] for a in axes]
            return Node([v], lambda a: relay.strided_slice(a, b2, e2, s2, axes=axes), "strided_slice_axes",
                        exact=True)
        return Node([v], lambda a: relay.strided_slice(a, begin, end, strides), "strided_slice", exact=True)

    def op_take(self):
        relay = _relay()
        v = self.pick(self.tensors(min_rank=1))
        if v is None:
            return None
        axis = None if self.coin(0.2) else self.r(v.rank)
        n = int(np.prod(v.shape)) if axis is None else v.shape[axis]
        mode = self.choice(["clip", "wrap", "fast"])
        lo, hi = (-n, 2 * n) if mode in ("clip", "wrap") else (0, n)
        idx = np.asarray(self.rng.integers(lo, hi, size=self.rand_shape(self.r(3))), INT)
        iv = self.const_val(idx)
        return Node([v, iv], lambda a, i: relay.take(a, i, axis=axis, mode=mode), "take_" + mode, exact=True)

    def op_gather(self):
        relay = _relay()
        v = self.pick(self.tensors(min_rank=1))
        if v is None:
            return None
        axis = self.r(v.rank)
        shape = tuple(int(self.rng.integers(1, d + 1)) for d in v.shape)
        iv = self.const_val(np.asarray(self.rng.integers(0, v.shape[axis], size=shape), INT))
        return Node([v, iv], lambda a, i: relay.gather(a, axis, i), "gather", exact=True)

    def op_tile_repeat(self):
        relay = _relay()
        v = self.pick(self.tensors(max_rank=3))
        if v is None:
            return None
        if self.coin() or v.rank == 0:
            reps = [int(self.rng.integers(1, 3)) for _ in range(self.r(v.rank + 1) + 1)]
            return Node([v], lambda a: relay.tile(a, reps), "tile", exact=True)
        axis = self.r(v.rank)
        rep = int(self.rng.integers(1, 4))
        return Node([v], lambda a: relay.repeat(a, rep, axis), "repeat", exact=True)

    def op_reverse(self):
        relay = _relay()
        v = self.pick(self.tensors(min_rank=1))
        if v is None:
            return None
        axis = int(self.rng.integers(-v.rank, v.rank))
        return Node([v], lambda a: relay.reverse(a, axis), "reverse", exact=True)

    def op_broadcast_to(self):
        relay = _relay()
        v = self.pick(self.tensors(max_rank=3))
        if v is None:
            return None
        extra = self.rand_shape(self.r(2))
        shape = list(extra) + [d if d != 1 else int(self.rng.integers(1, 4)) for d in v.shape]
        return Node([v], lambda a: relay.broadcast_to(a, shape), "broadcast_to", exact=True)

    def op_clip(self):
        relay = _relay()
        v = self.pick_float()
        if v is None:
            return None
        lo = float(np.float32(self.rng.uniform(-2, 0.5)))
        hi = float(np.float32(lo + self.rng.uniform(0.1, 2)))
        return Node([v], lambda a: relay.clip(a, lo, hi), "clip", exact=True)

    def op_like(self):
        relay = _relay()
        v = self.pick(self.tensors())
        if v is None:
            return None
        k = self.choice(["zeros_like", "ones_like", "full_like", "collapse_sum_like", "broadcast_to_like"])
        if k == "full_like":
            fill = self.const_val(np.array(self.rng.uniform(-2, 2), FLOAT))
            return Node([v, fill], lambda a, b: relay.full_like(a, b), k, exact=True)
        if k in ("collapse_sum_like", "broadcast_to_like"):
            if v.dtype != FLOAT:
                return None
            small = tuple(d if self.coin(0.6) else 1 for d in v.shape[v.rank - self.r(v.rank + 1):])
            tgt = self.const_val(np.zeros(small, FLOAT))
            if k == "collapse_sum_like":
                return Node([v, tgt], lambda a, b: relay.collapse_sum_like(a, b), k)
            return Node([tgt, v], lambda a, b: relay.add(relay.broadcast_to_like(a, b), b), k)
        f = getattr(relay, k)
        return Node([v], lambda a: f(a), k, exact=True)

    def op_cumsum(self):
        relay = _relay()
        v = self.pick_float(min_rank=1)
        if v is None:
            return None
        name = self.choice(["cumsum", "cumprod"])
        if name == "cumprod":
            v = self.bounded(v, 1.5)
            if v is None:
                return None
        axis = None if self.coin(0.2) else int(self.rng.integers(-v.rank, v.rank))
        excl = self.coin(0.3)
        f = getattr(relay, name)
        return Node([v], lambda a: f(a, axis=axis, exclusive=excl), name)

    def op_sort(self):
        relay = _relay()
        v = self.pick(self.tensors((FLOAT, INT), min_rank=1))
        if v is None:
            return None
        axis = int(self.rng.integers(-v.rank, v.rank))
        asc = self.coin()
        name = self.choice(["sort", "argsort", "topk"])
        if name != "sort" and not self._gap_ok(v, axis):
            return None
        if name == "sort":
            return Node([v], lambda a: relay.sort(a, axis=axis, is_ascend=asc), name, exact=True)
        if name == "argsort":
            return Node([v], lambda a: relay.argsort(a, axis=axis, is_ascend=asc), name, exact=True)
        k = int(self.rng.integers(1, v.shape[axis] + 1))
        rt = self.choice(["both", "values", "indices"])
        return Node([v], lambda a: _tw(relay.topk(a, k=k, axis=axis, ret_type=rt, is_ascend=asc)), "topk_" + rt,
                    exact=True)

    def op_one_hot(self):
        relay = _relay()
        v = self.pick(self.tensors(INT, max_rank=2))
        if v is None:
            return None
        depth = int(self.rng.integers(1, 6))
        axis = int(self.rng.integers(-1, v.rank + 1))
        on, off = self.const_val(np.array(1.5, FLOAT)), self.const_val(np.array(-0.5, FLOAT))
        return Node([v, on, off], lambda i, a, b: relay.one_hot(i, a, b, depth, axis, FLOAT), "one_hot", exact=True)

    def _weight(self, shape) -> Val:
        """A float operand of ``shape``: a pool value of that shape, or a constant."""
        same = self.tensors(FLOAT, pred=lambda u: u.shape == tuple(shape))
        if same and self.coin(0.5):
            return self.pick(same)
        return self.const_val(self.rand_value(tuple(shape), FLOAT, -1, 1))

    def op_dense(self):
        relay = _relay()
        v = self.pick_float(min_rank=1)
        if v is None:
            return None
        k = v.shape[-1]
        n = int(self.rng.integers(1, 6))
        kind = self.choice(["dense", "matmul", "matmul_t"])
        if kind == "dense" or v.rank != 2:
            w = self._weight((n, k))
            return Node([v, w], lambda a, b: relay.nn.dense(a, b), "dense")
        if kind == "matmul":
            w = self._weight((k, n))
            return Node([v, w], lambda a, b: relay.nn.matmul(a, b), "matmul")
        w = self._weight((n, k))
        return Node([v, w], lambda a, b: relay.nn.matmul(a, b, transpose_b=True), "matmul_tb")

    def op_batch_matmul(self):
        relay = _relay()
        v = self.pick_float(min_rank=3, max_rank=3)
        if v is None:
            return None
        b, m, k = v.shape
        n = int(self.rng.integers(1, 6))
        ta, tb = self.coin(0.3), self.coin(0.7)
        kk = m if ta else k
        bb = self.choice([b, 1])
        w = self._weight((bb, n, kk) if tb else (bb, kk, n))
        return Node([v, w], lambda x, y: relay.nn.batch_matmul(x, y, transpose_a=ta, transpose_b=tb),
                    "batch_matmul")

    def op_softmax(self):
        relay = _relay()
        v = self.pick_float(min_rank=1)
        if v is None:
            return None
        axis = int(self.rng.integers(-v.rank, v.rank))
        log = self.coin()
        f = relay.nn.log_softmax if log else relay.nn.softmax
        return Node([v], lambda a: f(a, axis=axis), "log_softmax" if log else "softmax")

    def op_nn_act(self):
        relay = _relay()
        v = self.pick_float()
        if v is None:
            return None
        k = self.choice(["relu", "leaky_relu", "gelu", "prelu", "l2_normalize", "batch_flatten", "dropout"])
        if k == "relu":
            return Node([v], lambda a: relay.nn.relu(a), k, exact=True)
        if k == "leaky_relu":
            al = float(self.choice([0.01, 0.1, 0.5]))
            return Node([v], lambda a: relay.nn.leaky_relu(a, al), k)
        if k == "gelu":
            return Node([v], lambda a: relay.nn.gelu(a), k)
        if k == "prelu" and v.rank >= 1:
            axis = self.r(v.rank)
            al = self._weight((v.shape[axis],))
            return Node([v, al], lambda a, b: relay.nn.prelu(a, b, axis), k)
        if k == "l2_normalize" and v.rank >= 1:
            ax = self._axes(v.rank) or [v.rank - 1]
            return Node([v], lambda a: relay.nn.l2_normalize(a, 1e-6, ax), k)
        if k == "batch_flatten" and v.rank >= 1:
            return Node([v], lambda a: relay.nn.batch_flatten(a), k, exact=True)
        if k == "dropout":
            return Node([v], lambda a: relay.nn.dropout(a, 0.3), k, exact=True)
        return None

    def _nchw(self, rank=4) -> Optional[Val]:
        """A float value of ``rank`` (reshaping one into it if there is none)."""
        relay = _relay()
        v = self.pick_float(min_rank=rank, max_rank=rank)
        if v is None and self.coin(0.6):
            v = self.pick_float(min_rank=1)
            if v is None:
                return None
            n = int(np.prod(v.shape))
            shape = [1] * (rank - 1) + [n]
            if rank == 4 and n % 4 == 0 and n >= 8:
                shape = [1, 2, 2, n // 4]
            elif rank >= 3 and n % 2 == 0 and n >= 4:
                shape[-2], shape[-1] = 2, n // 2
            v = self.add(Node([v], lambda a: relay.reshape(a, shape), "reshape", exact=True))
        return v

    def op_conv2d(self):
        relay = _relay()
        v = self._nchw(4)
        if v is None:
            return None
        n, c, h, w = v.shape
        groups = c if (self.coin(0.3) and c > 1) else 1
        o = int(self.rng.integers(1, 4)) * groups
        pad = [int(self.rng.integers(0, 2)) for _ in range(self.choice([2, 4]))]
        ph = pad[0] + pad[2] if len(pad) == 4 else 2 * pad[0]
        pw = pad[1] + pad[3] if len(pad) == 4 else 2 * pad[1]
        kh, kw = int(self.rng.integers(1, h + 1)), int(self.rng.integers(1, w + 1))
        dh = 2 if (self.coin(0.2) and 2 * (kh - 1) + 1 <= h + ph) else 1
        strides = [int(self.rng.integers(1, 3)), int(self.rng.integers(1, 3))]
        wt = self._weight((o, c // groups, kh, kw))
        return Node([v, wt], lambda a, b: relay.nn.conv2d(a, b, strides=strides, padding=pad, dilation=(dh, 1),
                                                          groups=groups), "conv2d" + ("_dw" if groups > 1 else ""))

    def op_conv1d(self):
        relay = _relay()
        v = self._nchw(3)
        if v is None:
            return None
        n, c, w = v.shape
        o = int(self.rng.integers(1, 5))
        k = int(self.rng.integers(1, w + 1))
        wt = self._weight((o, c, k))
        pad = int(self.rng.integers(0, 2))
        return Node([v, wt], lambda a, b: relay.nn.conv1d(a, b, padding=pad), "conv1d")

    def op_pool2d(self):
        relay = _relay()
        v = self._nchw(4)
        if v is None:
            return None
        h, w = v.shape[2:]
        ph, pw = int(self.rng.integers(1, min(h, 3) + 1)), int(self.rng.integers(1, min(w, 3) + 1))
        st = [int(self.rng.integers(1, 3)), int(self.rng.integers(1, 3))]
        pad = [int(self.rng.integers(0, ph)), int(self.rng.integers(0, pw))]
        ceil = self.coin(0.3)
        if self.coin():
            return Node([v], lambda a: relay.nn.max_pool2d(a, (ph, pw), st, padding=pad, ceil_mode=ceil),
                        "max_pool2d", exact=True)
        cip = self.coin()
        return Node([v], lambda a: relay.nn.avg_pool2d(a, (ph, pw), st, padding=pad, ceil_mode=ceil,
                                                       count_include_pad=cip), "avg_pool2d")

    def op_global_pool(self):
        relay = _relay()
        v = self._nchw(4)
        if v is None:
            return None
        k = self.choice(["global_avg_pool2d", "global_max_pool2d", "adaptive_avg_pool2d", "adaptive_max_pool2d"])
        f = getattr(relay.nn, k)
        if k.startswith("adaptive"):
            osz = (int(self.rng.integers(1, v.shape[2] + 1)), int(self.rng.integers(1, v.shape[3] + 1)))
            return Node([v], lambda a: f(a, osz), k, exact="max" in k)
        return Node([v], lambda a: f(a), k, exact="max" in k)

    def op_bias_add(self):
        relay = _relay()
        v = self.pick_float(min_rank=1)
        if v is None:
            return None
        axis = int(self.rng.integers(-v.rank, v.rank))
        b = self._weight((v.shape[axis],))
        return Node([v, b], lambda a, c: relay.nn.bias_add(a, c, axis), "bias_add")

    def op_norm(self):
        relay = _relay()
        v = self.pick_float(min_rank=2)
        if v is None:
            return None
        k = self.choice(["layer_norm", "batch_norm", "instance_norm", "group_norm", "lrn"])
        if k == "layer_norm":
            axis = int(self.rng.integers(-v.rank, v.rank))
            c = v.shape[axis]
            return Node([v, self._weight((c,)), self._weight((c,))],
                        lambda a, g, b: relay.nn.layer_norm(a, g, b, axis=axis), k)
        c = v.shape[1]
        if k == "batch_norm":
            var = self.const_val(np.asarray(self.rng.uniform(0.5, 2, size=(c,)), FLOAT))
            return Node([v, self._weight((c,)), self._weight((c,)), self._weight((c,)), var],
                        lambda a, g, b, m, s: relay.nn.batch_norm(a, g, b, m, s, axis=1)[0], k)
        if k == "instance_norm":
            if v.rank < 3:
                return None
            return Node([v, self._weight((c,)), self._weight((c,))],
                        lambda a, g, b: relay.nn.instance_norm(a, g, b), k)
        if k == "group_norm":
            ng = self.choice([g for g in range(1, c + 1) if c % g == 0])
            return Node([v, self._weight((c,)), self._weight((c,))],
                        lambda a, g, b: relay.nn.group_norm(a, g, b, num_groups=ng), k)
        size = self.choice([1, 3, 5])
        return Node([v], lambda a: relay.nn.lrn(a, size=size, axis=1), k)

    def op_pad(self):
        relay = _relay()
        v = self.pick(self.tensors((FLOAT, INT), min_rank=1))
        if v is None:
            return None
        mode = self.choice(["constant", "constant", "edge", "reflect"])
        widths = []
        for d in v.shape:
            m = d - 1 if mode == "reflect" else 2
            widths.append((int(self.rng.integers(0, m + 1)), int(self.rng.integers(0, m + 1))))
        pv = self.const_val(np.array(self.choice([0, 1, -2]), v.dtype))
        return Node([v, pv], lambda a, p: relay.nn.pad(a, widths, p, pad_mode=mode), "pad_" + mode, exact=True)

    def op_einsum(self):
        relay = _relay()
        v = self.pick_float(min_rank=2, max_rank=2)
        if v is None:
            return None
        i, j = v.shape
        k = int(self.rng.integers(1, 5))
        eq, shape = self.choice([("ij,jk->ik", (j, k)), ("ij,kj->ki", (k, j)), ("ij,ij->j", (i, j)),
                                 ("ij,j->i", (j,)), ("ij->ji", None), ("ij->", None), ("ii->i", None)])
        if shape is None:
            if eq == "ii->i" and i != j:
                return None
            return Node([v], lambda a: relay.einsum([a], eq), "einsum")
        w = self._weight(shape)
        return Node([v, w], lambda a, b: relay.einsum([a, b], eq), "einsum")

    # -- language constructs ---------------------------------------------------
    def op_tuple(self):
        relay = _relay()
        tups = [v for v in self.pool if not v.is_tensor]
        if tups and self.coin(0.7):
            t = self.pick(tups)
            i = self.r(len(t.ty[1]))
            return Node([t], lambda a: relay.TupleGetItem(a, i), "tuple_get_item", exact=True)
        vs = [self.pick(self.tensors()) for _ in range(self.r(3) + 1)]
        if any(v is None for v in vs):
            return None
        return Node(vs, lambda *xs: relay.Tuple(list(xs)), "tuple", exact=True)

    def chain(self, x, side: list, depth: int):
        """A shape-preserving float expression of ``x``: ``depth`` unary ops and
        ops with ``side`` exprs (of x's shape), squashed at the end."""
        relay = _relay()
        e = x
        for _ in range(depth):
            k = self.r(6)
            if k == 0 and side:
                s = self.choice(side)
                e = self.choice([relay.add, relay.multiply, relay.subtract, relay.maximum])(e, s)
            elif k == 1:
                e = relay.multiply(e, relay.const(float(np.float32(self.rng.uniform(-1.5, 1.5)))))
            elif k == 2:
                e = relay.nn.relu(e)
            else:
                e = getattr(relay, self.choice(["tanh", "sigmoid", "sin", "negative", "abs", "atan"]))(e)
        return relay.tanh(e) if self.coin(0.5) else relay.clip(e, -3.0, 3.0)

    def op_if(self):
        relay = _relay()
        conds = self.tensors(BOOL, max_rank=0)
        bools = self.tensors(BOOL, min_rank=1)
        if conds and self.coin(0.5):
            c = self.pick(conds)
        elif bools:
            b = self.pick(bools)
            red = self.choice([relay.any, relay.all])
            c = self.add(Node([b], lambda a: red(a), "any/all", exact=True), let=False)
        else:
            x = self.pick(self.tensors((FLOAT, INT), pred=lambda u: u.exact))
            if x is None:
                return None
            t = float(self.rng.uniform(-1, 1)) if x.dtype == FLOAT else int(self.rng.integers(-2, 3))
            c = self.add(Node([x], lambda a: relay.any(relay.greater(a, relay.const(t, x.dtype))), "any(greater)",
                              exact=True), let=False)
        if c is None or c.rank != 0:
            return None
        v = self.pick_float()
        if v is None:
            return None
        others = [u for u in self.tensors(FLOAT) if u.shape == v.shape and u is not v]
        u = self.pick(others) if others else None
        kind = self.r(3)
        d1, d2 = self.r(3) + 1, self.r(3)
        if kind == 0 and u is not None:
            return Node([c, v, u], _replay(self.rng, lambda cc, a, b: relay.If(
                cc, self.chain(a, [b], d1), self.chain(b, [a], d2))), "if")
        if kind == 1:
            def build(cc, a):   # branches with their own lets
                t = relay.var("t")
                return relay.If(cc, relay.Let(t, relay.exp(relay.tanh(a)), relay.multiply(t, t)),
                                relay.negative(a))
            return Node([c, v], build, "if_let")

        def build2(cc, a):      # a tuple-valued if, projected
            return relay.TupleGetItem(relay.If(cc, relay.Tuple([a, relay.sigmoid(a)]),
                                               relay.Tuple([relay.cos(a), a])), 1)
        return Node([c, v], build2, "if_tuple")

    def op_closure(self):
        relay = _relay()
        v = self.pick_float()
        if v is None:
            return None
        same = [u for u in self.tensors(FLOAT) if u.shape == v.shape]
        cap = self.pick(same) if same and self.coin(0.7) else None
        w = self.pick(same) if same and self.coin(0.5) else None
        depth = self.r(3) + 1
        args = [v] + ([cap] if cap is not None else []) + ([w] if w is not None else [])

        def build(*xs):
            a = xs[0]
            capx = xs[1] if cap is not None else None
            wx = xs[-1] if w is not None else None
            p = relay.var("p", shape=v.shape)
            f = relay.var("f")
            body = self.chain(p, [capx] if capx is not None else [], depth)   # capx: a captured value
            call = relay.Call(f, [a])
            if wx is not None:
                call = relay.add(call, relay.Call(f, [wx]))
            return relay.Let(f, relay.Function([p], body), call)

        # the builder runs twice (placeholders, then real operands): same choices
        return Node(args, _replay(self.rng, build), "closure")

    def op_global_call(self):
        relay = _relay()
        if self.helpers and self.coin(0.4):
            name = self.choice(sorted(self.helpers))
            fn = self.helpers[name]
            args = []
            for p in fn.params:
                s = tuple(int(d) for d in p.type_annotation.shape)
                cands = self.tensors(FLOAT, pred=lambda u, s=s: u.shape == s)
                args.append(self.pick(cands) if cands else self.const_val(self.rand_value(s, FLOAT)))
            gv = self.helper_gv[name]
            return Node(args, lambda *xs: relay.Call(gv, list(xs)), "global_call")
        v = self.pick_float()
        if v is None:
            return None
        name = f"helper{len(self.helpers)}"
        p = relay.var("a", shape=v.shape)
        q = relay.var("b", shape=v.shape)
        two = self.coin(0.5)
        body = self.chain(p, [q] if two else [], self.r(3) + 1)
        if self.coin(0.3):
            body = relay.TupleGetItem(relay.Tuple([body, relay.sum(body)]), 0)
        fn = relay.Function([p, q] if two else [p], body)
        gv = relay.GlobalVar(name)
        self.helpers[name] = fn
        self.helper_gv[name] = gv
        args = [v]
        if two:
            args.append(self.pick(self.tensors(FLOAT, pred=lambda u: u.shape == v.shape)))
        return Node(args, lambda *xs: relay.Call(gv, list(xs)), "global_call_new")

    # -- the program -------------------------------------------------------------
    def make_params(self) -> None:
        relay = _relay()
        n = self.r(3) + 1
        for i in range(n):
            dtype = FLOAT if (self.coin(0.8) or i == 0) else self.choice([INT, BOOL])
            shape = self.rand_shape()
            value = self.rand_value(shape, dtype)
            p = relay.var(f"in{i}", shape=shape, dtype=dtype)
            self.params.append(p)
            self.inputs.append(value)
            self.pool.append(Val(p, ("t", shape, dtype), value, exact=True))

    def generate(self):
        self.make_params()
        tries = 0
        w = np.array([t[0] for t in self.table], dtype=float)
        while len(self.ops_used) < self.n_ops and tries < self.n_ops * 12:
            tries += 1
            _, name, fn = self.table[int(self.rng.choice(len(self.table), p=w / w.sum()))]
            node = fn()
            if node is not None:
                self.add(node)
        return self.finish()

    def finish(self):
        relay = _relay()
        last = self.pool[-1]
        outs = [last]
        unused = [v for v in self.pool if v.is_tensor and v.uses == 0 and v is not last
                  and not any(v.expr is p for p in self.params)]
        self.rng.shuffle(unused)
        outs += unused[:self.r(3)]
        body = outs[0].expr if len(outs) == 1 else relay.Tuple([o.expr for o in outs])
        for var, value in reversed(self.stmts):
            if var is not None:
                body = relay.Let(var, value, body)
        return self._module(relay.Function(self.params, body)), self.inputs


def _broadcasts(a, b) -> bool:
    try:
        np.broadcast_shapes(tuple(a), tuple(b))
        return True
    except ValueError:
        return False


def _tw(x):
    relay = _relay()
    return x.astuple() if isinstance(x, relay.TupleWrapper) else x


def _replay(rng, build):
    """``build`` made deterministic across calls: each call starts from the
    RNG state of the first call and leaves the RNG where the first left it."""
    state = {}

    def wrapped(*xs):
        if "start" not in state:
            state["start"] = rng.bit_generator.state
            out = build(*xs)
            state["end"] = rng.bit_generator.state
            return out
        rng.bit_generator.state = state["start"]
        out = build(*xs)
        rng.bit_generator.state = state["end"]
        return out
    return wrapped


class ShadowMismatch(Exception):
    pass


def _dtype_name(dt) -> str:
    return "bool" if dt == np.bool_ else str(dt)


def _describe(v) -> str:
    if isinstance(v, tuple):
        return "(" + ", ".join(_describe(f) for f in v) + ")"
    a = np.asarray(v)
    return f"{a.dtype}{list(a.shape)}"


def _check_shadow(ty, value, op: str) -> None:
    """The interpreter's value must have the inferred type."""
    if ty[0] == "tup":
        if not isinstance(value, tuple) or len(value) != len(ty[1]):
            raise ShadowMismatch(f"{op}: inferred {ty}, interpreter gave {_describe(value)}")
        for t, v in zip(ty[1], value):
            _check_shadow(t, v, op)
        return
    a = np.asarray(value)
    if tuple(a.shape) != tuple(ty[1]) or _dtype_name(a.dtype) != ty[2]:
        raise ShadowMismatch(f"{op}: inferred {list(ty[1])} {ty[2]}, interpreter gave {list(a.shape)} {a.dtype}")


# ---------------------------------------------------------------------------
# running one program


CONFIGS = {
    "default": "builtin.module(relay-to-iree-input)",
    "no-layout": "builtin.module(relay-to-iree-input{convert-layout=false})",
    "partial-eval": "builtin.module(relay-infer-type,relay-partial-eval,relay-to-iree-input)",
}
VERDICTS = ["pass", "mismatch", "compile_error", "interp_error", "exception", "crash", "timeout"]
GRAD_FINDINGS = ("mismatch", "compile_error", "exception")


class Mismatch(Exception):
    pass


def compare(got, want, what: str) -> None:
    """Raises ``Mismatch`` unless ``got`` (compiled) matches ``want`` (interpreter)."""
    if isinstance(want, tuple) or isinstance(got, tuple):
        if not (isinstance(got, tuple) and isinstance(want, tuple) and len(got) == len(want)):
            raise Mismatch(f"{what}: structure {_describe(got)} vs {_describe(want)}")
        for i, (g, w) in enumerate(zip(got, want)):
            compare(g, w, f"{what}[{i}]")
        return
    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape or g.dtype != w.dtype:
        raise Mismatch(f"{what}: got {g.dtype}{list(g.shape)}, want {w.dtype}{list(w.shape)}")
    if w.dtype.kind == "f":
        atol = ATOL * (1.0 + _maxabs(w))
        ok = np.isclose(g.astype("float64"), w.astype("float64"), rtol=RTOL, atol=atol, equal_nan=True)
        if not ok.all():
            i = tuple(int(k) for k in np.argwhere(~ok)[0])
            raise Mismatch(f"{what}: {int((~ok).sum())} of {w.size} elements differ, e.g. at {i}: "
                           f"got {g[i]!r}, want {w[i]!r} (rtol {RTOL}, atol {atol:.2g})")
    elif not np.array_equal(g, w):
        i = tuple(int(k) for k in np.argwhere(g != w)[0])
        raise Mismatch(f"{what}: {int((g != w).sum())} of {w.size} elements differ, e.g. at {i}: "
                       f"got {g[i]!r}, want {w[i]!r}")


def _loss_function(mod):
    """``fn(params) { sum of the float outputs of main }``, or None."""
    relay = _relay()
    main = mod["main"]
    ty = relay.transform.InferType()(mod)["main"].checked_type.ret_type
    t = relay.var("out")
    if isinstance(ty, relay.TupleType):
        fields = [(relay.TupleGetItem(t, i), f) for i, f in enumerate(ty.fields)]
    else:
        fields = [(t, ty)]
    terms = [relay.sum(e) for e, f in fields if isinstance(f, relay.TensorType) and str(f.dtype) == FLOAT]
    if not terms or not any(str(p.type_annotation.dtype) == FLOAT for p in main.params):
        return None
    loss = terms[0]
    for e in terms[1:]:
        loss = relay.add(loss, e)
    return relay.Function(main.params, relay.Let(t, main.body, loss))


# A gradient refused by a rule that says so (lib/Gradient: "the gradient of `op` is
# implemented for ... only", "no gradient rule for `op`") is a known limitation.
_GRAD_UNSUPPORTED = ("the gradient of `", "the weight gradient of `", "no gradient rule for `")


def run_program(seed: int, index: int, n_ops: int = 12, configs: Sequence[str] = ("default", "no-layout"),
                grad: bool = True, verbose: bool = False, allow=None) -> dict:
    """Generates program ``(seed, index)`` and checks it: a dict with ``verdict``,
    ``detail``, ``text``, ``ops``, ``grad`` (``pass``/``unsupported``/``none``/a
    finding), ``grad_detail`` and ``rejected``."""
    relay = _relay()
    import relay_mlir.compiler as compiler
    res = {"seed": seed, "index": index, "verdict": "pass", "detail": "", "text": "", "ops": [],
           "grad": "none", "rejected": []}
    gen = Generator(seed, index, n_ops=n_ops, verbose=verbose, allow=allow)
    try:
        mod, inputs = gen.generate()
    except ShadowMismatch as e:
        res.update(verdict="interp_error", detail=f"while generating: typing and interpreter disagree: {e}")
        return res
    except Exception as e:  # an interpreter kernel raised on a well-typed node, or a generator bug
        tb = traceback.format_exc()
        res.update(verdict="interp_error" if "interpreter" in tb else "exception",
                   detail=f"while generating: {type(e).__name__}: {e}\n{tb}")
        res["ops"] = gen.ops_used
        return res
    res["ops"] = gen.ops_used
    res["rejected"] = gen.rejected
    res["inputs"] = inputs
    try:
        res["text"] = mod.astext()
    except Exception as e:
        res.update(verdict="exception", detail=f"astext: {type(e).__name__}: {e}")
        return res
    stage = "interpreter"
    try:
        with np.errstate(all="ignore"):
            want = relay.create_executor("debug", mod=mod).evaluate()(*inputs)
        saved = compiler.PIPELINE
        try:
            for cfg in configs:
                stage = f"compile[{cfg}]"
                compiler.PIPELINE = CONFIGS[cfg]
                exe = relay.compile(mod, target="llvm-cpu")
                stage = f"run[{cfg}]"
                got = exe(*inputs)
                compare(got, want, cfg)
        finally:
            compiler.PIPELINE = saved
    except Mismatch as e:
        res.update(verdict="mismatch", detail=str(e))
        return res
    except relay.CompileError as e:
        res.update(verdict="compile_error", detail=f"{stage}: {e}")
        return res
    except Exception as e:
        res.update(verdict="interp_error" if stage == "interpreter" else "exception",
                   detail=f"{stage}: {type(e).__name__}: {e}\n{traceback.format_exc()}")
        return res
    if grad:
        res["grad"] = _check_gradient(mod, inputs, res)
    return res


def _check_gradient(mod, inputs, res) -> str:
    relay = _relay()
    stage = "gradient"
    try:
        loss = _loss_function(mod)
        if loss is None:
            return "none"
        helpers = relay.IRModule()
        for gv in mod.get_global_vars():
            if gv.name_hint != "main":
                helpers[gv] = mod[gv]
        try:
            g = relay.transform.gradient(loss, mod=helpers)
        except relay.CompileError as e:
            msg = str(e)
            if any(k in msg for k in _GRAD_UNSUPPORTED):
                res["grad_detail"] = msg.strip().splitlines()[-1][:300]
                return "unsupported"
            raise
        gmod = relay.IRModule()
        gmod.update(helpers)
        gmod["main"] = g
        stage = "gradient interpreter"
        with np.errstate(all="ignore"):
            want = relay.create_executor("debug", mod=gmod).evaluate()(*inputs)
        if not _finite(want) or _maxabs(want) > 1e4:
            return "none"
        stage = "gradient compile"
        exe = relay.compile(gmod, target="llvm-cpu")
        stage = "gradient run"
        got = exe(*inputs)
        compare(got, want, "gradient")
        return "pass"
    except Mismatch as e:
        res["grad_detail"] = str(e)
        return "mismatch"
    except relay.CompileError as e:
        res["grad_detail"] = f"{stage}: {e}"
        return "compile_error"
    except Exception as e:
        res["grad_detail"] = f"{stage}: {type(e).__name__}: {e}\n{traceback.format_exc()}"
        return "exception"


# ---------------------------------------------------------------------------
# the worker process and the campaign


def _worker_main(conn, opts: dict) -> None:
    os.setsid()   # its own process group: a timeout kills it and the tools it started
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        seed, index = msg
        try:
            r = run_program(seed, index, n_ops=opts["ops"], configs=opts["configs"], grad=opts["grad"],
                            verbose=opts["verbose"], allow=opts.get("allow"))
        except BaseException as e:  # noqa: BLE001 - reported as a finding
            r = {"seed": seed, "index": index, "verdict": "exception", "grad": "none", "ops": [], "text": "",
                 "rejected": [], "detail": f"{type(e).__name__}: {e}\n{traceback.format_exc()}"}
        conn.send(r)


class Worker:
    def __init__(self, opts: dict) -> None:
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, opts), daemon=True)
        self.proc.start()

    def run(self, seed: int, index: int, timeout: float) -> dict:
        base = {"seed": seed, "index": index, "grad": "none", "ops": [], "text": "", "rejected": []}
        self.conn.send((seed, index))
        if not self.conn.poll(timeout):
            self.kill()
            return {**base, "verdict": "timeout", "detail": f"no answer in {timeout:.0f} s"}
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            self.proc.join(5)
            code = self.proc.exitcode
            self.kill()
            return {**base, "verdict": "crash", "detail": f"worker died (exit code {code})"}

    def alive(self) -> bool:
        return self.proc.is_alive()

    def kill(self) -> None:
        import signal
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.join(5)

    def close(self) -> None:
        try:
            self.conn.send(None)
        except (BrokenPipeError, OSError):
            pass
        self.proc.join(10)
        if self.proc.is_alive():
            self.kill()


def is_finding(r: dict) -> bool:
    return r["verdict"] != "pass" or r["grad"] in GRAD_FINDINGS


def campaign(seed: int, indices: Sequence[int], opts: dict, timeout: float = 180.0,
             findings_dir: Optional[str] = None, log=None) -> dict:
    """Runs programs ``(seed, i)``, ``i`` in ``indices``, in a worker process;
    returns the counts, gradient counts, node kinds used and the findings."""
    counts = collections.Counter({v: 0 for v in VERDICTS})
    gcounts = collections.Counter()
    opcount = collections.Counter()
    findings, rejected = [], collections.Counter()
    worker = None
    t0 = time.time()
    for i in indices:
        if worker is None or not worker.alive():
            worker = Worker(opts)
        r = worker.run(seed, i, timeout)
        if r["verdict"] in ("timeout", "crash"):
            worker = None
        counts[r["verdict"]] += 1
        gcounts[r["grad"]] += 1
        opcount.update(set(r.get("ops", [])))
        for op, msg in r.get("rejected", []):
            rejected[(op, msg[:160])] += 1
        if is_finding(r):
            findings.append(r)
            if findings_dir:
                _save_finding(findings_dir, r)
        if log:
            g = "" if r["grad"] in ("none", "pass") else f" grad={r['grad']}"
            line = f"[{seed}:{i}] {r['verdict']}{g} ({len(r.get('ops', []))} nodes)"
            msg = (r.get("detail") or "") if r["verdict"] != "pass" else (r.get("grad_detail") or "")
            if is_finding(r) and msg.strip():
                line += ": " + msg.strip().splitlines()[0][:300]
            log(line)
    if worker is not None:
        worker.close()
    return {"seed": seed, "programs": len(indices), "counts": counts, "grad": gcounts, "ops": opcount,
            "findings": findings, "rejected": rejected, "seconds": time.time() - t0}


def _save_finding(d: str, r: dict) -> None:
    os.makedirs(d, exist_ok=True)
    kind = r["verdict"] if r["verdict"] != "pass" else "grad-" + r["grad"]
    base = os.path.join(d, f"s{r['seed']}_{r['index']}_{kind}")
    with open(base + ".relay", "w") as f:
        f.write(f"// seed {r['seed']} program {r['index']}: {kind}\n")
        for line in (r.get("detail") or "").splitlines() + (r.get("grad_detail") or "").splitlines():
            f.write(f"// {line}\n")
        f.write(f"// reproduce: python fuzz/random_programs.py --seed {r['seed']} --only {r['index']} -v\n")
        f.write(r.get("text") or "")
    if r.get("inputs") is not None:
        np.savez(base + "_inputs.npz", *r["inputs"])


def _git_commit() -> str:
    try:
        return subprocess.check_output(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, text=True).strip()
    except Exception:
        return "unknown"


def summary_table(results: List[dict]) -> str:
    rows = ["| seed | programs | pass | mismatch | compile_error | interp_error | exception | crash | timeout "
            "| gradient: pass / unsupported / finding | seconds |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        c, g = r["counts"], r["grad"]
        gf = sum(g[k] for k in GRAD_FINDINGS)
        rows.append(f"| {r['seed']} | {r['programs']} | {c['pass']} | {c['mismatch']} | {c['compile_error']} | "
                    f"{c['interp_error']} | {c['exception']} | {c['crash']} | {c['timeout']} | "
                    f"{g['pass']} / {g['unsupported']} / {gf} | {r['seconds']:.0f} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, nargs="+", default=[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--only", type=int, help="run one program (index) in this process")
    ap.add_argument("--ops", type=int, default=12, help="nodes per program")
    ap.add_argument("--jobs", type=int, default=1, choices=[1], help="(one worker: the machine is shared)")
    ap.add_argument("--configs", default="default,no-layout",
                    help=f"pipelines to compile with, of {', '.join(CONFIGS)}")
    ap.add_argument("--no-grad", action="store_true")
    ap.add_argument("--timeout", type=float, default=180.0)
    ap.add_argument("--findings-dir", default=os.path.join(HERE, "findings"))
    ap.add_argument("--md", help="append the campaign's counts to this markdown file")
    ap.add_argument("--json", help="write everything to this file")
    ap.add_argument("--print", action="store_true", help="with --only: print the program")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    configs = [c for c in a.configs.split(",") if c]
    for c in configs:
        if c not in CONFIGS:
            ap.error(f"unknown config {c}")
    if a.only is not None:
        r = run_program(a.seed[0], a.only, n_ops=a.ops, configs=configs, grad=not a.no_grad, verbose=a.verbose)
        if a.print or a.verbose:
            print(r["text"])
            print("nodes:", " ".join(r["ops"]))
        print(f"verdict: {r['verdict']}  gradient: {r['grad']}")
        for k in ("detail", "grad_detail"):
            if r.get(k):
                print(f"{k}: {r[k]}")
        return 1 if is_finding(r) else 0
    opts = {"ops": a.ops, "configs": configs, "grad": not a.no_grad, "verbose": a.verbose}
    results = [campaign(s, range(a.start, a.start + a.count), opts, a.timeout, a.findings_dir,
                        log=(lambda m: print(m, flush=True)) if a.verbose else None) for s in a.seed]
    print(summary_table(results))
    ops = collections.Counter()
    rej = collections.Counter()
    for r in results:
        ops.update(r["ops"])
        rej.update(r["rejected"])
    print(f"\nnode kinds used ({len(ops)}; programs containing each): "
          + ", ".join(f"{k} {n}" for k, n in sorted(ops.items())))
    if rej:
        print(f"\nnodes refused by the typing rules and redone: {sum(rej.values())}")
        for (op, msg), n in rej.most_common(15):
            print(f"  {n:4d} {op}: {msg}")
    findings = [f for r in results for f in r["findings"]]
    for f in findings:
        kind = f["verdict"] if f["verdict"] != "pass" else "grad-" + f["grad"]
        msg = (f.get("detail") if f["verdict"] != "pass" else f.get("grad_detail")) or ""
        msg = msg.strip().splitlines()
        print(f"\n[{f['seed']}:{f['index']}] {kind}: {msg[0][:400] if msg else ''}")
    if a.md:
        _write_md(a.md, results, configs, opts, ops, a)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump([{**{k: v for k, v in r.items() if k not in ("findings", "rejected")},
                        "findings": [{k: v for k, v in f.items() if k != "inputs"} for f in r["findings"]]}
                       for r in results], fh, indent=1, default=str)
    return 1 if findings else 0


def _write_md(path: str, results, configs, opts, ops, a) -> None:
    lines = [f"## Run of {time.strftime('%Y-%m-%d')} on {_git_commit()}", "",
             f"`python fuzz/random_programs.py --seed {' '.join(map(str, a.seed))} --count {a.count} "
             f"--ops {a.ops} --configs {','.join(configs)}" + ("" if opts["grad"] else " --no-grad") + "`", "",
             summary_table(results), "",
             f"Node kinds used ({len(ops)}; programs containing each): "
             + ", ".join(f"{k} {n}" for k, n in sorted(ops.items())), ""]
    with open(path, "a") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
