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

``--kind loops`` (issue 29) generates programs of recursive loops instead
(``LoopGenerator``): let-bound and global recursive functions (and
``relay.loops.while_loop``) over 0-d int32/int64/float32/bool state, tuples
of scalars and small tensors, started from the program's inputs; bodies are
``if``s returning tuples (recursion in one or both branches, exits in nested
``if``s), conditions mix comparisons and logic on several state values (the
Relay paper's Fig. 2 among them) and on float state; loops in loops, loops
in a row, closures capturing outer scalars and tensors, bounds from inputs,
state passed back unchanged or the same value in two slots, and non-tail
recursion of depth <= 10. Termination and tameness are by construction and
checked by a numpy simulation of the loop language (see the section
"loops"); no gradients. ``fuzz/reduce_loops.py`` shrinks a failing one.

Usage::

    python fuzz/random_programs.py --seed 0 --count 200
    python fuzz/random_programs.py --seed 0 --only 17 -v --print   # one program
    python fuzz/random_programs.py --seed 0 --count 1000 --md docs/fuzzing_programs.md
    python fuzz/random_programs.py --kind loops --seed 1 --count 1000 --configs default
    python fuzz/random_programs.py --kind loops --seed 0 --only 2 --configs default --print

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
            if d == 0:  # an empty dim (seed 94:431 of pass_fuzz drew a bound from range(0))
                b, e = 0, 0
            elif s > 0:
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
# loops (issue 29): recursive functions over small state (``--kind loops``)
#
# A loop is described in a small expression language (``E``: references,
# constants, ops, tuples, projections, loop calls) that renders to relay and
# is also simulated in numpy. The simulation decides what the generator keeps:
# a loop must exit within its call budget, integers stay far from overflow,
# floats stay small, every float comparison keeps a margin at every iteration
# where it is evaluated. Float updates are contractions (c1 g1(x) + c2 g2(y) +
# terms of ints and constants, |c1| + |c2| <= 0.9, g 1-Lipschitz), so float32
# rounding differences do not grow over the iterations. The interpreter's value
# of each loop node is then compared with the simulation (a disagreement drops
# the node and is listed as "sim disagrees" among the refused nodes).

I64 = "int64"
_INT_LIMIT = {INT: 2 ** 30, I64: 2 ** 60}
_CMP = ["less", "greater", "less_equal", "greater_equal", "equal", "not_equal"]
_FCMP = ["less", "greater", "less_equal", "greater_equal"]
_LIPSCHITZ = ["copy", "tanh", "sin", "atan", "relu", "clip1", "abs", "negative", "sigmoid"]


class LoopReject(Exception):
    """The simulated program leaves the tame region (overflow, a float decision too
    close to its threshold, a large float, a loop with no exit within its budget)."""


def _np(value, dtype) -> np.ndarray:
    return np.asarray(value, dtype=np.bool_ if dtype == BOOL else dtype)


def _hint(name: str) -> str:
    return name.split(".")[-1]


class E:
    """An expression of the loop language; ``ty`` as ``Val.ty``."""
    ty: tuple = None

    def free(self) -> set:
        return set()


class Ref(E):
    def __init__(self, name: str, ty) -> None:
        self.name, self.ty = name, ty

    def free(self):
        return {self.name}

    def relay(self, env):
        return env[self.name]

    def ev(self, env):
        return env[self.name]


class K(E):
    def __init__(self, value, dtype: str) -> None:
        self.value = _np(value, dtype)
        self.ty = ("t", tuple(self.value.shape), dtype)

    def relay(self, env):
        return _relay().const(self.value, dtype=self.ty[2])

    def ev(self, env):
        return self.value


class Proj(E):
    def __init__(self, e: E, i: int) -> None:
        self.e, self.i = e, i
        self.ty = e.ty[1][i]

    def free(self):
        return self.e.free()

    def relay(self, env):
        return _relay().TupleGetItem(self.e.relay(env), self.i)

    def ev(self, env):
        return self.e.ev(env)[self.i]


class Tup(E):
    def __init__(self, es: List[E]) -> None:
        self.es = list(es)
        self.ty = ("tup", [e.ty for e in self.es])

    def free(self):
        return set().union(*[e.free() for e in self.es]) if self.es else set()

    def relay(self, env):
        return _relay().Tuple([e.relay(env) for e in self.es])

    def ev(self, env):
        return tuple(e.ev(env) for e in self.es)


def _bshape(*tys) -> tuple:
    return tuple(np.broadcast_shapes(*[t[1] for t in tys]))


class Op(E):
    ARITH = ("add", "subtract", "multiply", "maximum", "minimum", "floor_mod", "mod", "floor_divide", "divide")
    LOGIC = ("logical_and", "logical_or", "logical_xor")
    UNARY = ("copy", "tanh", "sin", "atan", "sigmoid", "relu", "abs", "negative", "clip1", "logical_not")
    REDUCE = ("sum", "max", "min", "mean", "any", "all")

    def __init__(self, name: str, args: List[E], **attrs) -> None:
        self.name, self.args, self.attrs = name, list(args), attrs
        a = self.args
        if name in self.ARITH:
            assert a[0].ty[2] == a[1].ty[2], (name, a[0].ty, a[1].ty)
            self.ty = ("t", _bshape(a[0].ty, a[1].ty), a[0].ty[2])
        elif name in _CMP or name in self.LOGIC:
            assert a[0].ty[2] == a[1].ty[2], (name, a[0].ty, a[1].ty)
            self.ty = ("t", _bshape(a[0].ty, a[1].ty), BOOL)
        elif name in self.UNARY or name == "clip":
            self.ty = a[0].ty
        elif name == "cast":
            self.ty = ("t", a[0].ty[1], attrs["dtype"])
        elif name == "where":
            assert a[0].ty[2] == BOOL and a[1].ty[2] == a[2].ty[2]
            self.ty = ("t", _bshape(a[0].ty, a[1].ty, a[2].ty), a[1].ty[2])
        elif name in self.REDUCE:
            self.ty = ("t", (), a[0].ty[2])
        else:
            raise ValueError(name)

    def free(self):
        return set().union(*[e.free() for e in self.args])

    def relay(self, env):
        relay = _relay()
        xs = [e.relay(env) for e in self.args]
        n = self.name
        if n == "relu":
            return relay.nn.relu(xs[0])
        if n == "clip":
            return relay.clip(xs[0], self.attrs["lo"], self.attrs["hi"])
        if n == "clip1":
            return relay.clip(xs[0], -1.0, 1.0)
        if n == "cast":
            return relay.cast(xs[0], self.attrs["dtype"])
        return getattr(relay, n)(*xs)

    def ev(self, env):
        vs = [np.asarray(e.ev(env)) for e in self.args]
        with np.errstate(all="ignore"):
            out = _op_eval(self.name, vs, self.attrs, self.ty, [e.ty for e in self.args])
        out = np.asarray(out)
        dt = self.ty[2]
        if dt == FLOAT:
            if not np.all(np.isfinite(out)) or (_maxabs(out) > MAX_MAG and self.name != "cast"):
                raise LoopReject(f"{self.name}: float out of range")
            out = out.astype(FLOAT)
        elif dt in _INT_LIMIT:
            if out.size and np.max(np.abs(out.astype(object))) >= _INT_LIMIT[dt]:
                raise LoopReject(f"{self.name}: {dt} overflow")
            out = out.astype(dt)
        else:
            out = out.astype(np.bool_)
        assert out.shape == self.ty[1], (self.name, out.shape, self.ty)
        return out


def _int_range(name, v, dt) -> None:
    if v.size and np.max(np.abs(v.astype(object))) >= _INT_LIMIT[dt]:
        raise LoopReject(f"{name}: {dt} overflow")


def _op_eval(n, vs, attrs, ty, arg_tys):
    dt = ty[2]
    if n in Op.ARITH and dt in _INT_LIMIT:
        a, b = (v.astype(object) for v in vs)       # exact integers
        if n in ("floor_mod", "mod", "floor_divide", "divide") and np.any(vs[1] == 0):
            raise LoopReject(f"{n}: division by zero")
        f = {"add": lambda: a + b, "subtract": lambda: a - b, "multiply": lambda: a * b,
             "maximum": lambda: np.maximum(a, b), "minimum": lambda: np.minimum(a, b),
             "floor_mod": lambda: a - b * (a // b), "floor_divide": lambda: a // b,
             "divide": lambda: np.vectorize(lambda x, y: abs(x) // abs(y) * (1 if (x >= 0) == (y > 0) else -1),
                                            otypes=[object])(a, b),
             "mod": lambda: np.vectorize(lambda x, y: x - y * (abs(x) // abs(y) * (1 if (x >= 0) == (y > 0)
                                                                                     else -1)),
                                         otypes=[object])(a, b)}[n]
        out = np.asarray(f(), dtype=object)
        _int_range(n, out, dt)
        return out.astype(dt)
    if n in Op.ARITH:
        a, b = vs
        return {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "maximum": np.maximum,
                "minimum": np.minimum}[n](a, b)
    if n in _CMP:
        a, b = vs
        if arg_tys[0][2] == FLOAT:
            x, y = a.astype("float64"), b.astype("float64")
            margin = 1e-3 * (1.0 + max(_maxabs(x), _maxabs(y)))
            if np.any(np.abs(x - y) <= margin):
                raise LoopReject(f"{n}: float decision within {margin:.2g} of its threshold")
        return getattr(np, n)(a, b)
    if n in Op.LOGIC:
        return getattr(np, n)(vs[0], vs[1])
    x = vs[0]
    if n == "logical_not":
        return np.logical_not(x)
    if n in ("copy",):
        return x
    if n in ("negative", "abs"):
        if dt in _INT_LIMIT:
            _int_range(n, x, dt)
        return np.negative(x) if n == "negative" else np.abs(x)
    if n in ("tanh", "sin"):
        return getattr(np, n)(x)
    if n == "atan":
        return np.arctan(x)
    if n == "sigmoid":
        return (1.0 / (1.0 + np.exp(-x))).astype(x.dtype)
    if n == "relu":
        return np.maximum(x, np.zeros((), x.dtype))
    if n == "clip1":
        return np.clip(x, -1.0, 1.0).astype(x.dtype)
    if n == "clip":
        return np.clip(x, attrs["lo"], attrs["hi"]).astype(x.dtype)
    if n == "cast":
        to = attrs["dtype"]
        if x.dtype.kind in "iu":
            if to == FLOAT and x.size and np.max(np.abs(x.astype(object))) >= 2 ** 24:
                raise LoopReject("cast: int not exact in float32")
            if to in _INT_LIMIT:
                _int_range("cast", x, to)
        return x.astype(np.bool_ if to == BOOL else to)
    if n == "where":
        c, a, b = vs
        return np.where(c, a, b)
    if n in ("sum", "mean") and dt in _INT_LIMIT:
        out = np.asarray(np.sum(x.astype(object)), dtype=object)
        _int_range(n, out, dt)
        return out.astype(dt)
    if n == "sum":
        return np.sum(x, dtype=x.dtype)
    if n == "mean":
        return np.mean(x, dtype=x.dtype)
    if n in ("max", "min"):
        return np.max(x) if n == "max" else np.min(x)
    if n in ("any", "all"):
        return np.any(x) if n == "any" else np.all(x)
    raise ValueError(n)


class Call(E):
    """A call of a loop (its initial state ``inits``, rendered in the caller's scope)."""

    def __init__(self, loop: "Loop", inits: List[E]) -> None:
        self.loop, self.inits = loop, list(inits)
        self.ty = loop.ret_ty

    def free(self):
        return set().union(self.loop.free(), *[e.free() for e in self.inits])

    def relay(self, env):
        return self.loop.render_call(env, [e.relay(env) for e in self.inits])

    def ev(self, env):
        return self.loop.run([e.ev(env) for e in self.inits], env)


class Loop:
    """A recursive function over ``slots`` (its state). ``tree`` is its body:
    ``("exit", E)``, ``("rec", [E])`` (a tail call with the next state),
    ``("if", E, then, else)``, ``("let", name, E, tree)``, and
    ``("nontail", [E], name, E)``: ``let name = self(args); E``."""

    def __init__(self, name: str, slots, outer_types: dict, kind: str, max_calls: int,
                 annotate_ret: bool) -> None:
        self.name, self.slots, self.outer_types = name, slots, outer_types
        self.kind = kind            # "let", "global" or "while_loop" (relay.loops.while_loop)
        self.max_calls = max_calls
        self.annotate_ret = annotate_ret
        self.tree = None
        self.ret_ty = None
        self.let_types: Dict[str, object] = {}   # let-bound names in the tree -> annotated type or None
        self.last_calls = 0
        self._fn = self.gv = self.caps = None

    # -- structure ----------------------------------------------------------
    def exprs(self, node=None):
        node = self.tree if node is None else node
        k = node[0]
        if k == "exit":
            return [node[1]]
        if k == "rec":
            return list(node[1])
        if k == "if":
            return [node[1]] + self.exprs(node[2]) + self.exprs(node[3])
        if k == "let":
            return [node[2]] + self.exprs(node[3])
        return list(node[1]) + [node[3]]          # nontail

    def own(self) -> set:
        out = {s for s, _ in self.slots}

        def walk(node):
            if node[0] == "let":
                out.add(node[1])
                walk(node[3])
            elif node[0] == "if":
                walk(node[2])
                walk(node[3])
            elif node[0] == "nontail":
                out.add(node[2])
        walk(self.tree)
        return out

    def free(self) -> set:
        return set().union(*[e.free() for e in self.exprs()]) - self.own()

    def loops(self):
        """The loops called in this loop's body, transitively."""
        out = []
        for e in self.exprs():
            out += _loops_in(e)
        return out

    # -- rendering ----------------------------------------------------------------
    def _render_tree(self, env, callee):
        relay = _relay()

        def rt(node, env):
            k = node[0]
            if k == "exit":
                return node[1].relay(env)
            if k == "rec":
                return callee([e.relay(env) for e in node[1]])
            if k == "if":
                return relay.If(node[1].relay(env), rt(node[2], env), rt(node[3], env))
            if k == "let":
                t = self.let_types.get(node[1])
                v = relay.var(_hint(node[1]), type_annotation=_relay_ty(t) if t is not None else None)
                value = node[2].relay(env)
                env2 = dict(env)
                env2[node[1]] = v
                return relay.Let(v, value, rt(node[3], env2))
            v = relay.var(_hint(node[2]))                        # nontail
            value = callee([e.relay(env) for e in node[1]])
            env2 = dict(env)
            env2[node[2]] = v
            return relay.Let(v, value, node[3].relay(env2))
        return rt(self.tree, env)

    def _params(self):
        relay = _relay()
        return [relay.var(_hint(s), type_annotation=_relay_ty(ty)) for s, ty in self.slots]

    def global_fn(self):
        if self._fn is None:
            relay = _relay()
            self.gv = relay.GlobalVar(self.name)
            self.caps = sorted(self.free())
            params = self._params()
            cparams = [relay.var(_hint(c), type_annotation=_relay_ty(self.outer_types[c])) for c in self.caps]
            env = dict(zip([s for s, _ in self.slots], params))
            env.update(zip(self.caps, cparams))
            body = self._render_tree(env, lambda args: relay.Call(self.gv, list(args) + cparams))
            self._fn = relay.Function(params + cparams, body,
                                      ret_type=_relay_ty(self.ret_ty) if self.annotate_ret else None)
        return self._fn

    def render_call(self, env, inits):
        relay = _relay()
        if self.kind == "global":
            self.global_fn()
            return relay.Call(self.gv, list(inits) + [env[c] for c in self.caps])
        names = [s for s, _ in self.slots]
        if self.kind == "while_loop":
            _, cond, (_, ups), _ = self.tree

            def scope(vs):
                e = dict(env)
                e.update(zip(names, vs))
                return e
            loop = relay.loops.while_loop(lambda *vs: cond.relay(scope(vs)), self._params(),
                                          lambda *vs: [u.relay(scope(vs)) for u in ups])
            return relay.Call(loop, list(inits))
        f = relay.var(_hint(self.name))
        params = self._params()
        env2 = dict(env)
        env2.update(zip(names, params))
        body = self._render_tree(env2, lambda args: relay.Call(f, list(args)))
        fn = relay.Function(params, body, ret_type=_relay_ty(self.ret_ty) if self.annotate_ret else None)
        return relay.Let(f, fn, relay.Call(f, list(inits)))

    # -- simulation -----------------------------------------------------------------
    def run(self, inits, outer_env):
        calls = [0]
        names = [s for s, _ in self.slots]

        def call(vals):
            calls[0] += 1
            if calls[0] > self.max_calls:
                raise LoopReject(f"{self.name}: no exit in {self.max_calls} calls")
            env = dict(outer_env)
            env.update(zip(names, vals))
            node = self.tree
            while True:
                k = node[0]
                if k == "exit":
                    return node[1].ev(env)
                if k == "rec":
                    return call([e.ev(env) for e in node[1]])
                if k == "if":
                    node = node[2] if bool(node[1].ev(env)) else node[3]
                elif k == "let":
                    env = dict(env)
                    env[node[1]] = node[2].ev(env)
                    node = node[3]
                else:
                    r = call([e.ev(env) for e in node[1]])
                    env = dict(env)
                    env[node[2]] = r
                    return node[3].ev(env)
        out = call(list(inits))
        self.last_calls = calls[0]
        return out


def _loops_in(e: E) -> List[Loop]:
    if isinstance(e, Call):
        return [e.loop] + e.loop.loops() + [l for a in e.inits for l in _loops_in(a)]
    if isinstance(e, Op):
        return [l for a in e.args for l in _loops_in(a)]
    if isinstance(e, Tup):
        return [l for a in e.es for l in _loops_in(a)]
    if isinstance(e, Proj):
        return _loops_in(e.e)
    return []


def _S(dtype: str) -> tuple:
    return ("t", (), dtype)


class LoopGenerator(Generator):
    """Programs of recursive loops (issue 29): let-bound and global recursive
    functions over scalars (int32, int64, float32, bool), tuples of scalars and
    small tensors, started from the program's inputs; ``if`` bodies returning
    tuples, recursion in one or both branches, nested exits, conditions mixing
    comparisons and logic on several state values (the Relay paper's Fig. 2
    among them), loops in loops, loops in a row, closures capturing outer
    values, a bound from an input, non-tail recursion of small depth.

    Termination is by construction: a counter slot grows by a constant step
    toward a bound (the random condition is an extra exit); a loop without the
    counter's guard (like Fig. 2) is kept only when the simulation sees it exit
    within its budget on the program's inputs."""

    MAX_ITERS = 40          # outer loops: calls of one invocation (the counter's bound)
    INNER_ITERS = 8

    def __init__(self, seed: int, index: int, n_ops: int = 4, allow: Optional[set] = None,
                 verbose: bool = False) -> None:
        super().__init__(seed, index, n_ops=n_ops, allow=allow, verbose=verbose)
        self.features: List[str] = []
        self._feat: List[str] = []
        self.nloop = 0
        self.nname = 0
        self.fig2 = False
        self.nodes: List[Tuple[int, E]] = []    # (pool index, expression) of each node
        self.outputs: List[int] = []            # pool indices of main's results

    def _table(self):
        return [(10, "loop", self.op_loop), (2, "nontail", self.op_nontail), (3, "proj", self.op_proj),
                (2, "scalar", self.op_scalar)]

    def feat(self, name: str) -> None:
        self._feat.append(name)

    def name(self, hint: str) -> str:
        self.nname += 1
        return f"n{self.nname}.{hint}"

    # -- parameters -----------------------------------------------------------------
    def make_params(self) -> None:
        relay = _relay()
        specs = []
        self.fig2 = self.coin(0.1)
        if self.fig2:
            specs = [(_S(INT), _np(int(self.rng.integers(0, 6)), INT)) for _ in range(3)]
        for _ in range(self.r(3) + 1):
            k = self.r(20)
            if k < 7:
                ty = _S(INT)
            elif k < 10:
                ty = _S(I64)
            elif k < 14:
                ty = _S(FLOAT)
            elif k < 16:
                ty = _S(BOOL)
            else:
                ty = ("t",) + self.choice([((2,), FLOAT), ((3,), FLOAT), ((2, 3), FLOAT), ((3,), INT),
                                           ((2, 2), INT), ((2,), BOOL)])
            dt = ty[2]
            if dt == INT:
                v = self.rng.integers(-3, 9, size=ty[1])
            elif dt == I64:
                v = self.rng.integers(-3, 9, size=ty[1])
                if self.coin(0.3):      # beyond int32: int64 must stay int64
                    v = v + int(self.rng.choice([-1, 1])) * int(self.rng.integers(2 ** 32, 2 ** 34))
            elif dt == FLOAT:
                v = self.rng.uniform(-2, 2, size=ty[1])
            else:
                v = self.rng.random(size=ty[1]) < 0.5
            specs.append((ty, _np(v, dt)))
        for i, (ty, v) in enumerate(specs):
            p = relay.var(f"in{i}", shape=ty[1], dtype=ty[2])
            self.params.append(p)
            self.inputs.append(v)
            self.pool.append(Val(p, ty, v, exact=True))

    # -- scopes and atoms ---------------------------------------------------------------
    # A scope is a list of (name, type, weight): the state, let-bound values and
    # the enclosing scopes' names (captured by a closure, parameters of a global).
    def _atoms(self, sc, pred):
        out = []
        for name, t, w in sc:
            if pred(t):
                out.append((Ref(name, t), w))
            if t[0] == "tup":
                for i, f in enumerate(t[1]):
                    if pred(f):
                        out.append((Proj(Ref(name, t), i), w * 0.7))
        return out

    def atom(self, sc, ty=None, pred=None) -> Optional[E]:
        a = self._atoms(sc, pred or (lambda t: t == ty))
        if not a:
            return None
        w = np.array([x[1] for x in a], float)
        return a[int(self.rng.choice(len(a), p=w / w.sum()))][0]

    def k(self, dt: str, shape=()) -> K:
        if dt == FLOAT:
            return K(np.round(self.rng.uniform(-1.5, 1.5, size=shape), 2), FLOAT)
        if dt == BOOL:
            return K(self.rng.random(size=shape) < 0.5, BOOL)
        return K(self.rng.integers(-3, 13, size=shape), dt)

    def kc(self, value, dt: str) -> K:
        return K(value, dt)

    # -- expressions ---------------------------------------------------------------------
    def g_num(self, sc, dt: str, depth: int) -> E:
        """A scalar int32/int64/float32 expression."""
        leaf = self.atom(sc, _S(dt))
        if depth <= 0 or self.coin(0.3):
            return leaf if leaf is not None and self.coin(0.85) else self.k(dt)
        d = depth - 1
        kk = self.r(9)
        if dt == FLOAT:
            t = self.atom(sc, pred=lambda t: t[0] == "t" and t[2] == FLOAT and len(t[1]) > 0)
            i = self.atom(sc, pred=lambda t: t == _S(INT) or t == _S(I64))
            if kk == 0:
                return Op(self.choice(["tanh", "sin", "atan", "abs", "negative", "sigmoid"]), [self.g_num(sc, dt, d)])
            if kk == 1 and t is not None:
                return Op(self.choice(["mean", "max", "min"]), [t])
            if kk == 2 and i is not None:
                return Op("multiply", [Op("cast", [i], dtype=FLOAT), self.kc(0.25, FLOAT)])
            if kk == 3:
                return Op("multiply", [self.g_num(sc, dt, d), self.k(FLOAT)])
            return Op(self.choice(["add", "subtract", "maximum", "minimum", "multiply"]),
                      [self.g_num(sc, dt, d), self.g_num(sc, dt, d)])
        other = I64 if dt == INT else INT
        if kk == 0:
            return Op("floor_mod", [self.g_num(sc, dt, d), self.kc(int(self.rng.integers(2, 40)), dt)])
        if kk == 1:
            t = self.atom(sc, pred=lambda t: t[0] == "t" and t[2] == dt and len(t[1]) > 0)
            if t is not None:
                return Op(self.choice(["sum", "max", "min"]), [t])
        if kk == 2:
            o = self.atom(sc, pred=lambda t: t == _S(other) or t == _S(BOOL))
            if o is not None:
                if o.ty[2] == other:
                    o = Op("clip", [o], lo=-1000, hi=1000)
                return Op("cast", [o], dtype=dt)
        if kk == 3:
            return Op("where", [self.g_bool(sc, d), self.g_num(sc, dt, d), self.g_num(sc, dt, d)])
        if kk == 4:
            return Op(self.choice(["mod", "floor_divide", "divide"]),
                      [self.g_num(sc, dt, d), self.kc(int(self.rng.integers(1, 7)), dt)])
        return Op(self.choice(["add", "add", "subtract", "multiply", "maximum", "minimum"]),
                  [self.g_num(sc, dt, d), self.g_num(sc, dt, d)])

    def num_dtypes(self, sc) -> List[str]:
        have = [dt for dt in (INT, I64, FLOAT) if self._atoms(sc, lambda t, dt=dt: t == _S(dt))]
        return have or [INT]

    def g_cmp(self, sc, depth: int = 1) -> E:
        dt = self.choice(self.num_dtypes(sc))
        if dt == FLOAT:
            self.feat("float_condition")
        a = self.g_num(sc, dt, depth)
        b = self.k(dt) if self.coin(0.5) else self.g_num(sc, dt, depth)
        if dt == INT or dt == I64:
            b = K(int(self.rng.integers(-4, 40)), dt) if isinstance(b, K) else b
        return Op(self.choice(_FCMP if dt == FLOAT else _CMP), [a, b])

    def g_bool(self, sc, depth: int) -> E:
        """A scalar bool expression: comparisons and logic on several values."""
        if depth <= 0 or self.coin(0.35):
            kk = self.r(10)
            b = self.atom(sc, _S(BOOL))
            if kk < 2 and b is not None:
                return b
            t = self.atom(sc, pred=lambda t: t[0] == "t" and len(t[1]) > 0)
            if kk < 4 and t is not None:
                if t.ty[2] == BOOL:
                    return Op(self.choice(["any", "all"]), [t])
                if t.ty[2] == FLOAT:
                    return Op(self.choice(["less", "greater"]), [Op(self.choice(["mean", "max", "min"]), [t]),
                                                                 self.k(FLOAT)])
                return Op(self.choice(["any", "all"]), [Op(self.choice(["less", "greater", "equal"]),
                                                           [t, K(int(self.rng.integers(-2, 8)), t.ty[2])])])
            return self.g_cmp(sc, 1)
        if self.coin(0.15):
            return Op("logical_not", [self.g_bool(sc, depth - 1)])
        op = self.choice(["logical_and", "logical_or", "logical_xor", "equal", "not_equal"])
        return Op(op, [self.g_bool(sc, depth - 1), self.g_bool(sc, depth - 1)])

    # -- next state -----------------------------------------------------------------------------
    def u_val(self, sc, ty, cur: Optional[E]) -> E:
        """A next value of type ``ty`` for a state whose value is ``cur``."""
        if ty[0] == "tup":
            return Tup([self.u_val(sc, f, Proj(cur, i) if cur is not None else None) for i, f in enumerate(ty[1])])
        if cur is not None and self.coin(0.12):
            self.feat("state_passed_unchanged")
            return cur
        if cur is None:
            cur = self.atom(sc, ty) or self.k(ty[2], ty[1])
        dt, shape = ty[2], ty[1]
        if dt == FLOAT:
            return self.u_float(sc, shape, cur)
        if dt == BOOL:
            return self.u_bool(sc, shape, cur)
        return self.u_int(sc, shape, dt, cur)

    def u_int(self, sc, shape, dt, cur: E) -> E:
        ty = ("t", shape, dt)
        if shape == ():
            kk = self.r(8)
            if kk == 0:
                return Op("add", [cur, K(int(self.choice([-2, -1, 1, 1, 2, 3])), dt)])
            if kk == 1:
                o = self.atom(sc, ty)
                if o is not None:
                    return Op("add", [cur, o])               # Fig. 2's i + j, j + k
            if kk == 2:
                return Op("floor_mod", [Op(self.choice(["add", "multiply", "subtract"]),
                                           [cur, self.g_num(sc, dt, 1)]), K(int(self.rng.integers(2, 50)), dt)])
            if kk == 3:
                lo = int(self.rng.integers(-20, 1))
                return Op("clip", [Op("add", [cur, self.g_num(sc, dt, 1)])], lo=lo,
                          hi=lo + int(self.rng.integers(1, 60)))
            if kk == 4:
                return Op("where", [self.g_bool(sc, 1), Op("add", [cur, K(1, dt)]), self.g_num(sc, dt, 1)])
            if kk == 5:
                return Op(self.choice(["floor_divide", "divide", "mod"]),
                          [Op("add", [cur, self.g_num(sc, dt, 0)]), K(int(self.rng.integers(1, 5)), dt)])
            return self.g_num(sc, dt, 2)
        other = self.atom(sc, ty) if self.coin(0.5) else None
        if other is None:
            other = self.g_num(sc, dt, 1)
        kk = self.r(4)
        if kk == 0:
            return Op("floor_mod", [Op("add", [cur, other]), K(int(self.rng.integers(2, 20)), dt)])
        if kk == 1:
            return Op("clip", [Op("add", [cur, K(int(self.rng.integers(-2, 4)), dt)])], lo=-10, hi=10)
        if kk == 2:
            return Op("where", [self.g_bool(sc, 1), cur,
                                Op("floor_mod", [Op("multiply", [cur, K(2, dt)]), K(7, dt)])])
        return Op(self.choice(["maximum", "minimum"]), [cur, other])

    def _lip(self, e: E) -> E:
        return Op(self.choice(_LIPSCHITZ), [e])

    def u_float(self, sc, shape, cur: E) -> E:
        """A contraction: c1 g1(cur) + c2 g2(other) + (a term of ints, bools or constants)."""
        c1 = float(np.round(self.rng.uniform(0.1, 0.9) * self.choice([-1, 1]), 2))
        e = Op("multiply", [self._lip(cur), K(c1, FLOAT)])
        room = 0.9 - abs(c1)
        if room > 0.05 and self.coin(0.6):
            o = self.atom(sc, pred=lambda t: t[0] == "t" and t[2] == FLOAT and (t[1] == shape or t[1] == ()))
            if o is None or self.coin(0.3):
                t = self.atom(sc, pred=lambda t: t[0] == "t" and t[2] == FLOAT and len(t[1]) > 0)
                if t is not None:
                    o = Op(self.choice(["mean", "max", "min"]), [t])
            if o is not None:
                c2 = float(np.round(self.rng.uniform(-room, room), 2))
                e = Op("add", [e, Op("multiply", [self._lip(o), K(c2, FLOAT)])])
        if self.coin(0.6):
            kk = self.r(4)
            i = self.atom(sc, pred=lambda t: t == _S(INT) or t == _S(I64))
            b = self.atom(sc, _S(BOOL))
            if kk == 0 and i is not None:
                add = Op("multiply", [Op("cast", [Op("clip", [i], lo=-100, hi=100)], dtype=FLOAT), K(0.05, FLOAT)])
            elif kk == 1 and b is not None:
                add = Op("multiply", [Op("cast", [b], dtype=FLOAT), self.k(FLOAT)])
            elif kk == 2:
                add = Op("where", [self.g_bool(sc, 1), self.k(FLOAT), self.k(FLOAT)])
            else:
                add = self.k(FLOAT, shape if self.coin(0.3) else ())
            e = Op("add", [e, add])
        return e

    def u_bool(self, sc, shape, cur: E) -> E:
        if shape == ():
            kk = self.r(5)
            if kk == 0:
                return Op("logical_not", [cur])
            if kk == 1:
                return Op(self.choice(["logical_xor", "logical_and", "logical_or", "not_equal"]),
                          [cur, self.g_bool(sc, 1)])
            return self.g_bool(sc, 2)
        kk = self.r(4)
        if kk == 0:
            return Op("logical_not", [cur])
        if kk == 1:
            return Op("logical_xor", [cur, self.g_bool(sc, 1)])
        t = self.atom(sc, pred=lambda t: t[0] == "t" and t[1] == shape and t[2] in (FLOAT, INT, I64))
        if t is not None:
            c = self.k(FLOAT) if t.ty[2] == FLOAT else K(int(self.rng.integers(-2, 6)), t.ty[2])
            return Op(self.choice(["less", "greater"]), [t, c])
        return Op("logical_or", [cur, self.g_bool(sc, 1)])

    def like(self, sc, ty) -> E:
        """Some value of type ``ty`` (an exit of the same type as another)."""
        if ty[0] == "tup":
            return Tup([self.like(sc, f) for f in ty[1]])
        a = self.atom(sc, ty)
        if a is not None and self.coin(0.6):
            return a
        return self.u_val(sc, ty, a)

    # -- the state's types and initial values -------------------------------------------
    def slot_type(self, sc_out, depth: int):
        have = [t for _, t, _ in sc_out]
        if have and self.coin(0.55):
            t = self.choice(have)
            if t[0] == "t" or len(t[1]) <= 3:
                return t
        k = self.r(20)
        if k < 6:
            return _S(INT)
        if k < 8:
            return _S(I64)
        if k < 12:
            return _S(FLOAT)
        if k < 14:
            return _S(BOOL)
        if k < 16:
            return ("tup", [self.choice([_S(INT), _S(FLOAT), _S(I64), _S(BOOL)]) for _ in range(2)])
        return ("t",) + self.choice([((2,), FLOAT), ((3,), FLOAT), ((2, 3), FLOAT), ((3,), INT), ((2,), BOOL)])

    def init_for(self, sc_out, ty) -> E:
        a = self.atom(sc_out, ty)
        if a is not None and self.coin(0.85):
            return a
        if ty[0] == "tup":
            return Tup([self.init_for(sc_out, f) for f in ty[1]])
        if ty == _S(FLOAT) and self.coin(0.5):
            return Op("tanh", [self.g_num(sc_out, FLOAT, 1)])
        if ty[1] == () and ty[2] in (INT, I64) and self.coin(0.6):
            return Op("clip", [self.g_num(sc_out, ty[2], 1)], lo=-20, hi=20)
        if ty == _S(BOOL) and self.coin(0.6):
            return self.g_bool(sc_out, 1)
        return self.k(ty[2], ty[1])

    # -- a loop -----------------------------------------------------------------------------
    def _slot_names(self, types) -> List[str]:
        hints = {INT: "ijkm", I64: "uvw", FLOAT: "xyz", BOOL: "bcd"}
        used = collections.Counter()
        out = []
        for t in types:
            if t[0] == "tup":
                h = "p"
            elif t[1] != ():
                h = "t"
            else:
                h = hints[t[2]][used[t[2]] % len(hints[t[2]])]
                used[t[2]] += 1
            out.append(self.name(h))
        return out

    def gen_loop(self, sc_out, depth: int, guardless: bool = False, fig2=None) -> Call:
        """A tail-recursive loop called with initial values from ``sc_out``."""
        self.nloop += 1
        outer_types = {n: t for n, t, _ in sc_out}
        kind = "global" if self.coin(0.3) else "let"
        max_iters = self.MAX_ITERS if depth == 0 else self.INNER_ITERS
        if fig2 is not None:
            kind = "let"
        L = Loop(f"loop{self.nloop}" if kind == "global" else self.name("loop"), [], outer_types, kind,
                 max_calls=(50 if guardless else max_iters + 6), annotate_ret=self.coin(0.6))
        if fig2 is not None:
            return self._fig2(L, sc_out, fig2, guardless)
        # the counter: grows by `step` toward `bound` (the guarantee of termination)
        cdt = self.choice([INT, INT, I64])
        step = int(self.choice([1, 1, 1, 2, 3]))
        c0 = self.atom(sc_out, _S(cdt)) if self.coin(0.4) else None
        if c0 is not None:
            self.feat("counter_from_input")
            cinit = Op("clip", [c0], lo=-4, hi=4 if depth == 0 else 2)
        else:
            cinit = K(int(self.rng.integers(-3, 4)), cdt)
        types, inits = [_S(cdt)], [cinit]
        bound_slot = depth == 0 and self.coin(0.2)
        if bound_slot:                                       # a bound passed back unchanged
            types.append(_S(cdt))
            b = self.atom(sc_out, _S(cdt))
            inits.append(Op("add", [Op("clip", [b], lo=0, hi=8), K(int(self.rng.integers(0, 25)), cdt)])
                         if b is not None else K(int(self.rng.integers(0, 30)), cdt))
            if b is not None:
                self.feat("bound_from_input")
        nstate = self.r(4) + 1 if depth == 0 else self.r(2) + 1
        for _ in range(nstate):
            t = self.slot_type(sc_out, depth)
            types.append(t)
            if t[0] == "tup":
                self.feat("tuple_state")
            elif t[1] != ():
                self.feat("tensor_state")
            else:
                self.feat(f"{t[2]}_state")
            inits.append(self.init_for(sc_out, t))
        # the same value for two slots
        pairs = [(a, b) for a in range(1, len(types)) for b in range(a + 1, len(types)) if types[a] == types[b]]
        if pairs and self.coin(0.25):
            a, b = self.choice(pairs)
            inits[b] = inits[a]
            self.feat("same_initial_value_twice")
        names = self._slot_names(types)
        L.slots = list(zip(names, types))
        cnt = Ref(names[0], types[0])
        sc = [(n, t, 3.0) for n, t in L.slots] + [(n, t, 1.0) for n, t, _ in sc_out]
        if bound_slot:
            bound = Ref(names[1], types[1])
        else:
            b = self.atom(sc_out, _S(cdt)) if self.coin(0.3) else None
            hi = max_iters - 4
            if b is not None:                            # captured: a bound computed from an input
                top = min(8, hi // 2)
                bound = Op("add", [Op("clip", [b], lo=0, hi=top), K(int(self.rng.integers(0, hi - top + 1)), cdt)])
                self.feat("bound_from_input")
            else:
                bound = K(int(self.rng.integers(1, hi)), cdt)
        lets = []          # (name, E, annotate) bound before the `if`
        if self.coin(0.25):                             # a value shared by the condition and the update
            dt = self.choice(self.num_dtypes(sc))
            t = self.name("s")
            lets.append((t, self.g_num(sc, dt, 1)))
            sc.append((t, _S(dt), 2.0))
        inner = None
        if depth < 2 and self.coin(0.3 if depth == 0 else 0.08):
            inner = self.gen_loop(sc, depth + 1)
            r = self.name("r")
            lets.append((r, inner))
            sc.append((r, inner.ty, 4.0))
            self.feat("nested_loop")
        cond = self.g_bool(sc, self.choice([1, 2, 2, 3]))
        if self.coin(0.3):
            c = self.name("c")
            lets.append((c, cond))
            cond = Ref(c, _S(BOOL))
            sc.append((c, _S(BOOL), 2.0))
            self.feat("condition_let_bound")

        def updates(sc):
            ups = [Op("add", [cnt, K(step, cdt)])]
            if bound_slot:
                ups.append(bound)
            ups += [self.u_val(sc, t, Ref(n, t)) for n, t in L.slots[len(ups):]]
            pairs = [(a, b) for a in range(1, len(types)) for b in range(a + 1, len(types))
                     if types[a] == types[b] and not (bound_slot and a == 1)]
            if pairs and self.coin(0.15):
                a, b = self.choice(pairs)
                ups[b] = ups[a]
                self.feat("same_next_value_twice")
            if inner is not None:
                self._use(ups, sc, r)
            return ups

        def rec(sc):
            if depth == 0 and self.coin(0.1):             # a loop run only on the way round
                inner2 = self.gen_loop(sc, depth + 1)
                r2 = self.name("r")
                self.feat("nested_loop_in_branch")
                sc2 = sc + [(r2, inner2.ty, 4.0)]
                ups = updates(sc2)
                self._use(ups, sc2, r2)
                L.let_types[r2] = None
                return ("let", r2, inner2, ("rec", ups))
            return ("rec", updates(sc))

        exit1 = self.exit_expr(sc, L.slots, cond if isinstance(cond, Ref) else None)
        ex1 = ("exit", exit1)
        ex2 = ("exit", self.like(sc, exit1.ty)) if self.coin(0.6) else ex1
        guard = Op("less", [cnt, bound]) if self.coin(0.7) else Op("greater", [bound, cnt])
        stop = Op("greater_equal", [cnt, bound])
        if guardless:
            shape = self.choice(["plain", "plain", "both"])
        else:
            shape = self.choice(["and", "and", "or_not", "exit_first", "exit_last", "both", "three"])
        if shape == "plain":
            tree = ("if", cond, rec(sc), ex1)
        elif shape == "and":
            tree = ("if", Op("logical_and", [guard, cond] if self.coin() else [cond, guard]), rec(sc), ex1)
        elif shape == "or_not":
            tree = ("if", Op("logical_or", [stop, Op("logical_not", [cond])]), ex1, rec(sc))
        elif shape == "exit_first":
            tree = ("if", stop, ex1, ("if", cond, rec(sc), ex2))
            self.feat("exit_in_nested_if")
        elif shape == "exit_last":
            tree = ("if", guard, ("if", cond, rec(sc), ex2), ex1)
            self.feat("exit_in_nested_if")
        elif shape == "both" and guardless:
            tree = ("if", cond, rec(sc), ("if", self.g_bool(sc, 2), rec(sc), ex1))
            self.feat("recursion_in_both_branches")
        elif shape == "both":
            tree = ("if", guard, ("if", cond, rec(sc), rec(sc)), ex1)
            self.feat("recursion_in_both_branches")
        else:
            tree = ("if", stop, ex1, ("if", cond, rec(sc), ("if", self.g_bool(sc, 2), rec(sc), ex2)))
            self.feat("recursion_in_both_branches")
            self.feat("exit_in_nested_if")
        for name, e in reversed(lets):
            L.let_types[name] = e.ty if self.coin(0.4) else None
            tree = ("let", name, e, tree)
        L.tree = tree
        L.ret_ty = exit1.ty
        caps = L.free()
        if caps:                                  # closures (parameters of a global)
            self.feat("captures_outer_value")
            if any(outer_types[c][0] == "t" and outer_types[c][1] != () for c in caps):
                self.feat("captures_tensor")
        if guardless:
            self.feat("no_counter_guard")
        if kind == "let" and not lets and shape in ("and", "plain") and tree[2][0] == "rec" \
                and isinstance(exit1, Tup) and [getattr(e, "name", None) for e in exit1.es] == names \
                and self.coin(0.35):
            L.kind = "while_loop"                        # relay.loops.while_loop builds the same
        self.feat(f"{L.kind}_loop")
        if depth > 0:
            self.feat(f"inner_{L.kind}_loop")
        if exit1.ty[0] != "tup":
            self.feat("single_result")
        return Call(L, inits)

    def _use(self, ups, sc, r: str) -> None:
        """Makes an update read the inner loop's result ``r`` (the loop feeds the state)."""
        rty = dict((n, t) for n, t, _ in sc)[r]
        fields = [(Proj(Ref(r, rty), i), f) for i, f in enumerate(rty[1])] if rty[0] == "tup" else [(Ref(r, rty), rty)]
        if any(r in u.free() for u in ups):
            return
        for j in self.rng.permutation(len(ups)):
            if j == 0:
                continue
            for e, t in fields:
                if t == ups[j].ty and t[0] == "t":
                    if t[2] == FLOAT:
                        ups[j] = Op("add", [Op("multiply", [Op("tanh", [e]), K(0.5, FLOAT)]),
                                            Op("multiply", [ups[j], K(0.4, FLOAT)])])
                    elif t[2] in _INT_LIMIT:
                        ups[j] = Op("floor_mod", [Op("add", [e, ups[j]]), K(97, t[2])])
                    else:
                        ups[j] = Op("logical_xor", [e, ups[j]])
                    return

    def exit_expr(self, sc, slots, cond_ref: Optional[E]) -> E:
        refs = [Ref(n, t) for n, t in slots]
        kk = self.r(12)
        if kk < 5:
            return Tup(refs)
        if kk < 8:
            pick = [refs[i] for i in self.rng.permutation(len(refs))[:self.r(len(refs)) + 1]]
            if cond_ref is not None and self.coin(0.6):
                pick.insert(self.r(len(pick) + 1), cond_ref)
                self.feat("condition_returned")
            return Tup(pick)
        if kk == 8:
            return self.choice(refs[1:] or refs)
        if kk == 9 and len(refs) >= 3:
            return Tup([refs[0], Tup(refs[1:3])] + refs[3:])
        return Tup([self.like(sc, t) for t in [self.choice([t for _, t in slots]) for _ in range(self.r(3) + 1)]])

    def _fig2(self, L: Loop, sc_out, ints, guardless: bool) -> Call:
        """The Relay paper's Fig. 2: loop(i, j, k) = if (((i + j < c1) != (j * k < c2)) == (k >= i + j))
        { loop(i + j, j + k, k + 1) } else { (i, j, k) }, (3, 2, 2) -> (9, 7, 4) with c1 = 10, c2 = 100."""
        names = [self.name(h) for h in "ijk"]
        L.slots = [(n, _S(INT)) for n in names]
        i, j, k = (Ref(n, _S(INT)) for n in names)
        c1 = 10 if self.coin(0.5) else int(self.rng.integers(4, 30))
        c2 = 100 if self.coin(0.5) else int(self.rng.integers(20, 200))
        cond = Op("equal", [Op("not_equal", [Op("less", [Op("add", [i, j]), K(c1, INT)]),
                                             Op("less", [Op("multiply", [j, k]), K(c2, INT)])]),
                            Op("greater_equal", [k, Op("add", [i, j])])])
        if not guardless:
            cond = Op("logical_and", [Op("less", [k, K(40, INT)]), cond])
        L.tree = ("if", cond, ("rec", [Op("add", [i, j]), Op("add", [j, k]), Op("add", [k, K(1, INT)])]),
                  ("exit", Tup([i, j, k])))
        L.ret_ty = ("tup", [_S(INT)] * 3)
        L.annotate_ret = True
        self.feat("fig2")
        self.feat("let_loop")
        if guardless:
            self.feat("no_counter_guard")
        return Call(L, ints)

    # -- non-tail recursion ------------------------------------------------------------------
    def gen_nontail(self, sc_out) -> Call:
        """f(n, s) = if n <= 0 then base(s) else g(f(n - 1, s'), n, s) (depth <= 10)."""
        self.nloop += 1
        kind = "global" if self.coin(0.5) else "let"
        L = Loop(f"rec{self.nloop}" if kind == "global" else self.name("rec"), [], {n: t for n, t, _ in sc_out},
                 kind, max_calls=14, annotate_ret=self.coin(0.6))
        ndt = self.choice([INT, I64])
        a = self.atom(sc_out, _S(ndt))
        ninit = Op("clip", [a], lo=0, hi=10) if a is not None else K(int(self.rng.integers(0, 11)), ndt)
        if a is not None:
            self.feat("depth_from_input")
        types = [_S(ndt)] + [self.choice([_S(INT), _S(FLOAT), _S(I64), ("t", (2,), FLOAT)]) for _ in range(self.r(3))]
        names = self._slot_names(types)
        L.slots = list(zip(names, types))
        n = Ref(names[0], types[0])
        sc = [(nm, t, 3.0) for nm, t in L.slots] + [(nm, t, 1.0) for nm, t, _ in sc_out]
        rty = self.choice([_S(INT), _S(FLOAT), ("tup", [_S(INT), _S(FLOAT)]), self.choice(types)])
        base = self.like(sc, rty)
        args = [Op("subtract", [n, K(1, ndt)])] + [self.u_val(sc, t, Ref(nm, t)) for nm, t in L.slots[1:]]
        r = self.name("r")
        sc2 = sc + [(r, rty, 1.0)]
        rr = Ref(r, rty)

        def combine(cur, t):
            if t[0] == "tup":
                return Tup([combine(Proj(cur, i), f) for i, f in enumerate(t[1])])
            if t[2] == FLOAT:
                return self.u_float(sc2, t[1], cur)
            if t[2] == BOOL:
                return Op("logical_xor", [cur, self.g_bool(sc2, 1)])
            if self.coin(0.5):
                return Op("floor_mod", [Op("add", [Op("multiply", [cur, K(int(self.rng.integers(1, 4)), t[2])]),
                                                   self.g_num(sc2, t[2], 1)]),
                                        K(int(self.rng.integers(5, 1000)), t[2])])
            return self.u_int(sc2, t[1], t[2], cur)
        L.tree = ("if", Op(self.choice(["less_equal", "less"]), [n, K(0, ndt)]), ("exit", base),
                  ("nontail", args, r, combine(rr, rty)))
        L.ret_ty = rty
        self.feat("nontail_recursion")
        self.feat(f"{kind}_loop")
        return Call(L, [ninit] + [self.init_for(sc_out, t) for t in types[1:]])

    # -- program-level nodes -------------------------------------------------------------------
    def _outer(self):
        """The pool as a scope: names a0.. for values (later values weigh more)."""
        names, sc = {}, []
        for i, v in enumerate(self.pool):
            nm = f"a{i}"
            names[nm] = v
            sc.append((nm, v.ty, (1.0 + i) * (2.0 if v.uses == 0 else 1.0)))
        return sc, names

    def add_expr(self, e: E, op: str, names: Dict[str, "Val"], let: Optional[bool] = True) -> Optional[Val]:
        relay = _relay()
        fv = sorted(e.free())
        args = [names[n] for n in fv]
        try:
            want = e.ev({n: names[n].value for n in fv})
        except LoopReject as r:
            self.rejected.append((op, f"simulation: {r}"))
            return None
        loops = _loops_in(e)
        added = []
        for L in loops:
            if L.kind == "global" and L.name not in self.helpers:
                self.helpers[L.name] = L.global_fn()
                self.helper_gv[L.name] = L.gv
                added.append(L.name)

        def drop():
            for nm in added:
                del self.helpers[nm]
                del self.helper_gv[nm]

        def build(*xs):
            return e.relay(dict(zip(fv, xs)))
        try:
            ty, value = self.infer_and_eval(args, build)
        except CompileRejected as err:
            drop()
            self.rejected.append((op, str(err)))
            if self.verbose:
                print(f"  rejected {op}: {err}", file=sys.stderr)
            return None
        _check_shadow(ty, value, op)
        try:
            if ty != e.ty:
                raise Mismatch(f"type {ty} vs {e.ty}")
            compare(value, want, "interpreter vs simulation")
        except Mismatch as err:
            drop()
            self.rejected.append((op, f"sim disagrees: {err}"))
            if self.verbose:
                print(f"  sim disagrees {op}: {err}", file=sys.stderr)
            return None
        expr = build(*[a.expr for a in args])
        if let is None:
            let = self.coin(0.35)
        if let:
            v = relay.var(self.fresh("x"), type_annotation=_relay_ty(ty) if self.coin(0.5) else None)
            self.stmts.append((v, expr))
            expr = v
        else:
            self.stmts.append((None, expr))
        for a in args:
            a.uses += 1
        out = Val(expr, ty, value)
        self.nodes.append((len(self.pool), e))       # for fuzz/reduce_loops.py
        self.pool.append(out)
        self.ops_used.append(op)
        return out

    def _commit(self, val: Optional[Val]) -> Optional[Val]:
        if val is not None:
            self.features += self._feat
        self._feat = []
        return val

    def op_loop(self):
        guardless = self.coin(0.2)
        fig2 = None
        if self.fig2:
            self.fig2 = False
            ints = [Ref(f"a{i}", _S(INT)) for i in range(3)]
            fig2 = ints
            guardless = True
        for attempt in range(6):
            self._feat = []
            sc, names = self._outer()
            top = self.gen_loop(sc, 0, guardless=guardless, fig2=fig2)
            L = top.loop
            e = top
            if top.ty[0] == "tup" and self.coin(0.15):
                e = Proj(top, self.r(len(top.ty[1])))
            if any(not n.startswith("a") for n in e.free()):
                raise AssertionError(f"loop leaks names {e.free()}")
            try:
                e.ev({n: names[n].value for n in e.free()})
            except LoopReject as r:
                self.rejected.append((f"{L.kind}_loop", f"simulation: {r}"))
                if "no exit" in str(r) and guardless:
                    guardless = False
                continue
            if L.last_calls <= 2 and attempt < 5 and self.coin(0.6):
                continue                          # prefer loops that go round a few times
            self.feat(f"calls_{_bucket(L.last_calls)}")
            if any(not any(names[n].expr is p for p in self.params) for n in e.free()):
                self.feat("loop_fed_by_earlier_node")
            op = "loop_fig2" if fig2 is not None else f"loop_{L.kind}"
            return self._commit(self.add_expr(e, op, names, let=True))
        self._feat = []
        return None

    def op_nontail(self):
        for attempt in range(4):
            self._feat = []
            sc, names = self._outer()
            e = self.gen_nontail(sc)
            try:
                e.ev({n: names[n].value for n in e.free()})
            except LoopReject as r:
                self.rejected.append(("nontail", f"simulation: {r}"))
                continue
            return self._commit(self.add_expr(e, f"nontail_{e.loop.kind}", names, let=True))
        self._feat = []
        return None

    def op_proj(self):
        sc, names = self._outer()
        tups = [(n, t) for n, t, _ in sc if t[0] == "tup"]
        if not tups:
            return None
        n, t = self.choice(tups)
        self._feat = []
        return self._commit(self.add_expr(Proj(Ref(n, t), self.r(len(t[1]))), "tuple_get_item", names, let=None))

    def op_scalar(self):
        sc, names = self._outer()
        self._feat = []
        kk = self.r(3)
        if kk == 0:
            e = self.g_bool(sc, 2)
        else:
            e = self.g_num(sc, self.choice(self.num_dtypes(sc)), 2)
        return self._commit(self.add_expr(e, "scalar", names, let=None))

    def generate(self):
        self.make_params()
        tries = 0
        w = np.array([t[0] for t in self.table], dtype=float)
        while len(self.ops_used) < self.n_ops and tries < self.n_ops * 8:
            tries += 1
            if not any(o.startswith(("loop", "nontail")) for o in self.ops_used) and tries <= self.n_ops * 4:
                fns = [fn for _, name, fn in self.table if name == "loop"] or [self.table[0][2]]
                fn = fns[0]                        # a program starts with a loop
            else:
                _, name, fn = self.table[int(self.rng.choice(len(self.table), p=w / w.sum()))]
            fn()
        return self.finish()

    def finish(self):
        relay = _relay()
        if len(self.pool) == len(self.params):
            raise RuntimeError("no node could be generated")
        last = self.pool[-1]
        outs = [last]
        unused = [v for v in self.pool if v.uses == 0 and v is not last and not any(v.expr is p for p in self.params)]
        self.rng.shuffle(unused)
        outs += unused[:self.r(3)]
        self.outputs = [next(i for i, v in enumerate(self.pool) if v is o) for o in outs]
        body = outs[0].expr if len(outs) == 1 else relay.Tuple([o.expr for o in outs])
        for var, value in reversed(self.stmts):
            if var is not None:
                body = relay.Let(var, value, body)
        return self._module(relay.Function(self.params, body)), self.inputs


def _bucket(n: int) -> str:
    return "1" if n <= 1 else "2-4" if n <= 4 else "5-15" if n <= 15 else "16+"


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


KINDS = {"ops": (Generator, 12), "loops": (LoopGenerator, 4)}


def run_program(seed: int, index: int, n_ops: Optional[int] = None,
                configs: Sequence[str] = ("default", "no-layout"), grad: bool = True, verbose: bool = False,
                allow=None, kind: str = "ops") -> dict:
    """Generates program ``(seed, index)`` of ``kind`` (``ops``: the op generator;
    ``loops``: recursive loops, no gradient) and checks it: a dict with ``verdict``,
    ``detail``, ``text``, ``ops``, ``features``, ``grad`` (``pass``/``unsupported``/
    ``none``/a finding), ``grad_detail`` and ``rejected``."""
    res = {"seed": seed, "index": index, "verdict": "pass", "detail": "", "text": "", "ops": [],
           "grad": "none", "rejected": [], "kind": kind, "features": []}
    cls, default_ops = KINDS[kind]
    gen = cls(seed, index, n_ops=n_ops or default_ops, verbose=verbose, allow=allow)
    if kind == "loops":
        grad = False
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
    res["features"] = sorted(set(getattr(gen, "features", [])))
    res["rejected"] = gen.rejected
    res["inputs"] = inputs
    try:
        res["text"] = mod.astext()
    except Exception as e:
        res.update(verdict="exception", detail=f"astext: {type(e).__name__}: {e}")
        return res
    verdict, detail = check_module(mod, inputs, configs)
    if verdict != "pass":
        res.update(verdict=verdict, detail=detail)
        return res
    if grad:
        res["grad"] = _check_gradient(mod, inputs, res)
    return res


def check_module(mod, inputs, configs: Sequence[str] = ("default",)) -> Tuple[str, str]:
    """(verdict, detail) of ``mod`` on ``inputs``: the interpreter against
    ``relay.compile`` with each pipeline of ``configs``."""
    relay = _relay()
    import relay_mlir.compiler as compiler
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
        return "mismatch", str(e)
    except relay.CompileError as e:
        return "compile_error", f"{stage}: {e}"
    except Exception as e:
        return ("interp_error" if stage == "interpreter" else "exception",
                f"{stage}: {type(e).__name__}: {e}\n{traceback.format_exc()}")
    return "pass", ""


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
                            verbose=opts["verbose"], allow=opts.get("allow"), kind=opts.get("kind", "ops"))
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
        r.setdefault("kind", opts.get("kind", "ops"))
        r.setdefault("n_ops", opts.get("ops"))
        if r["verdict"] in ("timeout", "crash"):
            worker = None
        counts[r["verdict"]] += 1
        gcounts[r["grad"]] += 1
        opcount.update(set(r.get("ops", [])) | {"+" + f for f in r.get("features", [])})
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
        extra = "" if r.get("kind", "ops") == "ops" else f" --kind {r['kind']}"
        if r.get("n_ops"):
            extra += f" --ops {r['n_ops']}"
        f.write(f"// reproduce: python fuzz/random_programs.py --seed {r['seed']} --only {r['index']}{extra} -v\n")
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
    ap.add_argument("--kind", choices=sorted(KINDS), default="ops",
                    help="ops: the op generator; loops: recursive loops over small state (issue 29)")
    ap.add_argument("--ops", type=int, default=None, help="nodes per program (12; loops: 4)")
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
        r = run_program(a.seed[0], a.only, n_ops=a.ops, configs=configs, grad=not a.no_grad, verbose=a.verbose,
                        kind=a.kind)
        if a.print or a.verbose:
            print(r["text"])
            print("nodes:", " ".join(r["ops"]))
            if r.get("features"):
                print("features:", " ".join(r["features"]))
        print(f"verdict: {r['verdict']}  gradient: {r['grad']}")
        for k in ("detail", "grad_detail"):
            if r.get(k):
                print(f"{k}: {r[k]}")
        return 1 if is_finding(r) else 0
    opts = {"ops": a.ops, "configs": configs, "grad": not a.no_grad and a.kind == "ops", "verbose": a.verbose,
            "kind": a.kind}
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
             f"`python fuzz/random_programs.py" + ("" if a.kind == "ops" else f" --kind {a.kind}")
             + f" --seed {' '.join(map(str, a.seed))} --count {a.count}"
             + (f" --ops {a.ops}" if a.ops else "") + f" --configs {','.join(configs)}"
             + ("" if opts["grad"] or a.kind != "ops" else " --no-grad") + "`", "",
             summary_table(results), "",
             f"Node kinds used ({len(ops)}; programs containing each): "
             + ", ".join(f"{k} {n}" for k, n in sorted(ops.items())), ""]
    with open(path, "a") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
