#!/usr/bin/env python3
"""Differential fuzzing of relay_mlir.transform's passes (issue 31).

Every pass class of ``relay_mlir.transform`` (discovered from the module: a
``Pass`` subclass registered with ``_register_pass`` that can be built with no
arguments; ``InferType`` excluded) plus a few argument variants
(``VARIANTS``) runs on random well-typed programs, and the reference
interpreter (``create_executor("debug")``) must give the same outputs before
and after it. No compilation: the interpreter only.

Programs come from fuzz/random_programs.py's ``Generator`` (its node kinds,
its shadow evaluation keeping values finite and small, its operands made
safe) extended by ``PassGenerator`` with the patterns the passes look for:

  conv_scale    conv2d followed by per-channel multiply/add/bias_add/relu
                chains (and input scaled per channel before the conv), now and
                then a pool or spatial reduction after (AlterOpLayout)
  par_conv2d    2-4 conv2d branches reading one value, alike or not, with
                alike or different followers (CombineParallelConv2D)
  par_dense     2-4 dense branches of one value (CombineParallelDense)
  par_bmm       2-4 batch_matmul(transpose_b) branches of one value
  dup           a node built twice (EliminateCommonSubexpr)
  dead_let      let-bound values never used, pure and impure (refs)
  pad_consumer  nn.pad (zero / -inf / other values, spatial or not) before
                conv1d/conv2d/avg_pool2d/max_pool2d (FoldExplicitPadding)
  div_const     division by float / int constants (DivToMul)
  cast_chain    cast chains and widened casts read by several ops
                (CanonicalizeCast, SimplifyExpr)
  clip_cast     clip (bounds in or beyond the dtype's range) then 0-3 casts
                and a cast back (SimplifyExpr, SimplifyExprPostAlterOp)
  norm          batch_norm (all fields), layer/instance/group_norm,
                l2_normalize, dropout (SimplifyInference)
  const_fold    constant subtrees, x*ones, x+zeros, full/ones/zeros
                (FoldConstant)
  dyn_const     dyn.* ops with constant shape arguments (DynamicToStatic)
  unused_global a global function main does not call (RemoveUnusedFunctions)
  simplify      reshape/transpose chains, identity ops, x/sqrt(y), x+x,
                *_like (SimplifyExpr)
  bias_add      nn.bias_add on any axis (CanonicalizeOps)
  fast_math     exp/tanh/erf/softmax (FastMath)
  atrous        space_to_batch_nd + NHWC conv2d + batch_to_space_nd (FlattenAtrousConv)

Program ``i`` of seed ``S`` depends only on ``(S, i)`` and this code; every
pass sees the same program. For each (program, pass):

  pass          the pass ran, its result type-checks with main's type
                unchanged, and the interpreter's outputs agree (ints/bools
                exactly, floats within the pass's tolerance, ``TOLERANCE``;
                NaN matches NaN and inf the same inf)
  mismatch      outputs differ (or the transformed program fails to run)
  pass_error    the pass raised
  verify_error  the result does not type-check / verify (``to_mlir``), or
                main's type changed
  interp_error  the original program did not run (generator or interpreter:
                not counted against the pass)
  timeout       no answer within ``--timeout`` seconds

``changed`` counts the programs the pass altered (its result's MLIR differs
from the input's). Findings are shrunk (the program cut at the earliest
node that still fails the same way, then unused lets dropped one by one)
and written to ``fuzz/pass_findings/`` as JSON (seed, index, pass, verdict,
detail, reduced and original Relay text, inputs).

Usage::

    python fuzz/pass_fuzz.py --seed 0 --count 1000 [--pass FoldConstant ...]
    python fuzz/pass_fuzz.py --seed 0 --only 17 --pass SimplifyExpr -v --print
    python fuzz/pass_fuzz.py --seed 31 --count 1000 --md docs/fuzzing_programs.md --json /tmp/p.json

Exit status 1 if any (program, pass) is a mismatch, pass_error,
verify_error or timeout.
"""
from __future__ import annotations

import argparse
import collections
import json
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import time
import traceback
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import random_programs as rp  # noqa: E402
from random_programs import BOOL, FLOAT, INT, Node, Val, _relay  # noqa: E402

VERDICTS = ["pass", "mismatch", "pass_error", "verify_error", "interp_error", "timeout"]
FINDINGS = ("mismatch", "pass_error", "verify_error", "timeout")

# (rtol, atol factor): floats agree if |got - want| <= atol * (1 + max|want|) + rtol * |want|.
DEFAULT_TOL = (1e-4, 1e-4)
TOLERANCE = {
    # approximations of exp/tanh/erf (TVM's fast_* kernels): ~1e-5 relative, amplified by
    # what follows them in a program
    "FastMath": (2e-3, 2e-3),
    # float16 arithmetic: 11-bit mantissas, accumulation in float32 for conv/dense
    "ToMixedPrecision": (3e-2, 3e-2),
}
# passes that may change main's result dtypes (compared after casting to the original's)
DTYPE_MAY_CHANGE = {"ToMixedPrecision"}

# argument variants run as passes of their own (name -> (class name, kwargs))
VARIANTS = {
    "DeadCodeElimination(inline_once=True)": ("DeadCodeElimination", {"inline_once": True}),
    "CombineParallelConv2D(min_num_branches=2)": ("CombineParallelConv2D", {"min_num_branches": 2}),
    "CombineParallelDense(min_num_branches=2)": ("CombineParallelDense", {"min_num_branches": 2}),
    "CombineParallelDense(min_num_branches=2, to_batch=False)":
        ("CombineParallelDense", {"min_num_branches": 2, "to_batch": False}),
    "CombineParallelBatchMatmul(min_num_branches=2)": ("CombineParallelBatchMatmul", {"min_num_branches": 2}),
    "ConvertLayout(NHWC)": ("ConvertLayout", {"desired_layouts": {"nn.conv2d": ["NHWC", "default"]}}),
    "EtaExpand(expand_global_var=True)": ("EtaExpand", {"expand_global_var": True}),
    "AlterOpLayout(llvm)": ("AlterOpLayout", {}),
    "AlterOpLayout(llvm -mcpu=skylake-avx512)": ("AlterOpLayout", {}),
    # MLIR passes after it: the blocked convs go out as their definition and come back
    "AlterOpLayout(llvm)+FoldConstant+SimplifyExpr":
        ("__seq__", {"members": ["AlterOpLayout", "FoldConstant", "SimplifyExpr"]}),
}
# variants run under a current tvm.target.Target (AlterOpLayout asks it for the SIMD lanes)
VARIANT_TARGETS = {"AlterOpLayout(llvm)": "llvm",
                   "AlterOpLayout(llvm -mcpu=skylake-avx512)": "llvm -mcpu=skylake-avx512",
                   "AlterOpLayout(llvm)+FoldConstant+SimplifyExpr": "llvm"}


def discover_passes() -> Dict[str, Tuple[str, dict]]:
    """{name: (class name in relay_mlir.transform, kwargs)}: every registered pass class of
    the module that can be built without arguments (not InferType) and every function of
    the module named like a pass that returns one when called without arguments
    (``FoldScaleAxis``), then the variants of those present."""
    import relay_mlir.transform as T
    from relay_mlir import pass_infra
    registered = set(pass_infra._PASSES.values())
    out = {}
    for name in sorted(dir(T)):
        obj = getattr(T, name, None)
        if name == "InferType" or not name[:1].isupper():
            continue
        if isinstance(obj, type):
            if not (issubclass(obj, T.Pass) and obj in registered):
                continue
            try:
                obj()
            except (TypeError, ValueError):  # needs arguments (EtaExpand: a flag)
                continue
        elif callable(obj) and getattr(obj, "__module__", None) == T.__name__:
            # a function building a pass (FoldScaleAxis() is a Sequential, as in TVM)
            try:
                if not isinstance(obj(), T.Pass):
                    continue
            except Exception:  # noqa: BLE001 - needs arguments, or is not a pass factory
                continue
        else:
            continue
        out[name] = (name, {})
    for v, (cls, kw) in VARIANTS.items():
        if cls in out or isinstance(getattr(T, cls, None), type) or \
                (cls == "__seq__" and all(m in out for m in kw["members"])):  # some need arguments
            out[v] = (cls, kw)
    return out


SEQUENTIAL = "Sequential(all)"
# the order of the passes in SEQUENTIAL (TVM's build pipeline order where it has them; passes
# not listed follow, by name)
SEQ_ORDER = ["SimplifyInference", "DynamicToStatic", "FoldConstant", "SimplifyExpr", "DivToMul",
             "FoldExplicitPadding", "CanonicalizeOps", "CanonicalizeCast", "EliminateCommonSubexpr",
             "BackwardFoldScaleAxis", "ForwardFoldScaleAxis", "FoldScaleAxis", "CombineParallelConv2D",
             "CombineParallelDense", "CombineParallelBatchMatmul", "FastMath", "DeadCodeElimination"]


def with_sequential(table: dict) -> dict:
    """``table`` plus SEQUENTIAL: one Sequential (opt level 4 context) of every pass of
    ``table`` that is not a variant, in SEQ_ORDER; not those that change main's types on
    purpose (``DTYPE_MAY_CHANGE``: ToMixedPrecision, fuzzed alone with its tolerance)."""
    members = [n for n in table if "(" not in n and n != SEQUENTIAL and n not in DTYPE_MAY_CHANGE]
    members.sort(key=lambda n: (SEQ_ORDER.index(n) if n in SEQ_ORDER else len(SEQ_ORDER), n))
    return {**table, SEQUENTIAL: ("__seq__", {"members": members})}


def make_pass(name: str, table: Optional[dict] = None):
    """A callable running pass ``name`` on a module, in a PassContext of opt level 4 (a
    pass called directly always runs; the members of a Sequential such as FoldScaleAxis()
    run if the context's opt level allows)."""
    import relay_mlir.transform as T
    table = table or discover_passes()
    cls, kw = table[name]
    if cls == "__seq__":
        p = T.Sequential([_pass_object(m, table) for m in kw["members"]], opt_level=0, name=SEQUENTIAL)
    else:
        p = getattr(T, cls)(**kw)

    def run(mod):
        from relay_mlir.tvm.target import Target
        with T.PassContext(opt_level=4):
            if name not in VARIANT_TARGETS:
                return p(mod)
            with Target(VARIANT_TARGETS[name]):
                return p(mod)
    return run


def _pass_object(name: str, table: dict):
    import relay_mlir.transform as T
    cls, kw = table[name]
    return getattr(T, cls)(**kw)


def _base_name(name: str) -> str:
    return name.split("(")[0]


# ---------------------------------------------------------------------------
# the generator: random_programs.Generator plus the passes' patterns


def _c(value, dtype=FLOAT):
    return _relay().const(np.asarray(value, dtype))


class PassGenerator(rp.Generator):
    """random_programs' op generator with the patterns of the passes added (weights: about
    half of the nodes are patterns)."""

    def __init__(self, seed: int, index: int, n_ops: int = 10, allow: Optional[set] = None,
                 verbose: bool = False) -> None:
        super().__init__(seed, index, n_ops=n_ops, allow=allow, verbose=verbose)
        self.stmt_vals: List[Tuple[int, Val]] = []    # (index in stmts, the Val it made)

    def make_params(self) -> None:
        """random_programs' parameters, their float values made float16-exact: an input is an
        exact value (rounding, comparisons and the other discontinuous ops may read it at any
        distance from their discontinuities), and ToMixedPrecision casts parameters to float16,
        which must not move them (seed 92:975: round(-1.4997413) is -1, of its float16 cast -2)."""
        self._f16_exact_inputs = True
        try:
            super().make_params()
        finally:
            self._f16_exact_inputs = False

    def rand_value(self, shape, dtype, lo=-2.0, hi=2.0) -> np.ndarray:
        v = super().rand_value(shape, dtype, lo, hi)
        if dtype == FLOAT and getattr(self, "_f16_exact_inputs", False):
            v = v.astype(np.float16).astype(FLOAT)
        return v

    def op_global_call(self):
        """random_programs' global function call; every other new function (helper0,
        helper2, ...) is marked Inline=1 for Inline (no random choice: the programs'
        operators and values stay those of the seed)."""
        node = super().op_global_call()
        name = f"helper{len(self.helpers) - 1}"
        if node is not None and node.op == "global_call_new" and len(self.helpers) % 2 == 1:
            self.helpers[name] = self.helpers[name].with_attr("Inline", 1)
        return node

    def _table(self):
        base = [(w, name, fn) for (w, name, fn) in super()._table()]
        return base + [
            (7, "conv_scale", self.pat_conv_scale),
            (6, "par_conv2d", self.pat_par_conv2d),
            (6, "par_dense", self.pat_par_dense),
            (5, "par_bmm", self.pat_par_bmm),
            (8, "dup", self.pat_dup),
            (6, "dead_let", self.pat_dead_let),
            (7, "pad_consumer", self.pat_pad_consumer),
            (5, "div_const", self.pat_div_const),
            (6, "cast_chain", self.pat_cast_chain),
            (5, "clip_cast", self.pat_clip_cast),
            (6, "norm2", self.pat_norm),
            (6, "const_fold", self.pat_const_fold),
            (6, "dyn_const", self.pat_dyn_const),
            (7, "simplify", self.pat_simplify),
            (3, "bias_add2", self.op_bias_add),
            (3, "fast_math", self.pat_fast_math),
            (4, "int_simplify", self.pat_int_simplify),
            (4, "cse_branches", self.pat_cse_branches),
            (3, "const_struct", self.pat_const_struct),
            (2, "unused_global", self.pat_unused_global),
            (4, "atrous", self.pat_atrous),
        ]

    def infer_and_eval(self, args, build):
        try:
            return super().infer_and_eval(args, build)
        except TypeError as e:     # a `?` dim in the inferred type: the node is redone
            raise rp.CompileRejected(f"not a static type: {e}")

    def add(self, node: Node, let: Optional[bool] = None) -> Optional[Val]:
        out = super().add(node, let)
        if out is not None:
            self.stmt_vals.append((len(self.stmts) - 1, out))
        return out

    # -- helpers --------------------------------------------------------------------
    def ri(self, lo: int, hi: int) -> int:
        """An int in [lo, hi]."""
        return int(self.rng.integers(lo, hi + 1))

    def cval(self, shape, lo=-1.0, hi=1.0, positive=False) -> Val:
        v = self.rng.uniform(lo, hi, size=shape)
        if positive:
            v = np.abs(v) + 0.25
        return self.const_val(np.asarray(v, FLOAT))

    def follower(self, n_ch: int, rank: int, axis: int, kinds: Sequence[str]):
        """One elementwise step after a branch with ``n_ch`` channels on ``axis``: (op,
        constant Val or None)."""
        k = self.choice(list(kinds))
        if k == "relu":
            return ("relu", None)
        shape = [1] * rank
        shape[axis] = n_ch
        shape = shape[axis:] if self.coin(0.6) else shape        # (C,1,1) or (1,C,1,1)
        if k == "scalar_mul":
            return ("multiply", self.const_val(np.asarray(self.rng.uniform(0.5, 1.5), FLOAT)))
        return (k, self.cval(tuple(shape), positive=self.coin(0.7)))

    @staticmethod
    def apply_follower(e, f, c, axis: int = 1):
        relay = _relay()
        if f == "relu":
            return relay.nn.relu(e)
        if f == "bias_add":
            return relay.nn.bias_add(e, c, axis)
        return getattr(relay, f)(e, c)

    def _branches_node(self, outs: List[Val], combine: str, axis: int = 1) -> Optional[Node]:
        relay = _relay()
        if combine == "tuple" or len({o.shape for o in outs}) > 1 and combine != "concat":
            return Node(outs, lambda *xs: relay.Tuple(list(xs)), "tuple", exact=True)
        if combine == "concat":
            try:
                return Node(outs, lambda *xs: relay.concatenate(list(xs), axis=axis), "concatenate", exact=True)
            except Exception:
                return None
        return Node(outs, lambda *xs: _sum(xs), "add_n")

    # -- patterns -----------------------------------------------------------------
    def pat_conv_scale(self):
        relay = _relay()
        v = self._nchw(4)
        if v is None:
            return None
        n, c, h, w = v.shape
        if self.coin(0.5):         # input scaled per channel (forward folding)
            s = self.cval(self.choice([(c, 1, 1), (1, c, 1, 1), ()]), positive=self.coin(0.8))
            v = self.add(Node([v, s], lambda a, b: relay.multiply(a, b), "in_scale"), let=False)
            if v is None:
                return None
            if self.coin(0.4):
                v = self.add(Node([v], lambda a: relay.nn.relu(a), "relu", exact=True), let=False)
            elif self.coin(0.3):
                v = self.add(Node([v, self.cval((c, 1, 1))], lambda a, b: relay.add(a, b), "in_scale_add"), let=False)
            if v is None:
                return None
        o = self.ri(1, 4)
        kh, kw = self.ri(1, min(h, 3)), self.ri(1, min(w, 3))
        pad = [self.ri(0, 1), self.ri(0, 1)]
        groups = c if (self.coin(0.15) and c > 1) else 1
        if groups > 1:
            o = c
        wt = self._weight((o, c // groups, kh, kw))
        conv = self.add(Node([v, wt], lambda a, b: relay.nn.conv2d(a, b, padding=pad, groups=groups), "conv2d"),
                        let=self.coin(0.2))
        if conv is None:
            return None
        e = conv
        for _ in range(self.ri(1, 3)):
            f, cst = self.follower(o, 4, 1, ["multiply", "multiply", "add", "relu", "bias_add", "scalar_mul"])
            if f == "bias_add":
                cst = self.cval((o,))
            args = [e] + ([cst] if cst is not None else [])
            e = self.add(Node(args, lambda *xs, f=f: self.apply_follower(xs[0], f, xs[1] if len(xs) > 1 else None),
                              "conv_" + f), let=self.coin(0.15))
            if e is None:
                return None
        if self.coin(0.4):  # a pool or a reduction of the result (AlterOpLayout: blocked too)
            self.add(self.conv_pool(e), let=self.coin(0.15))
        return None

    def conv_pool(self, v: Val) -> Node:
        """A pool or spatial reduction of an NCHW value (a conv's result)."""
        relay = _relay()
        h, w = v.shape[2:]
        win = (min(2, h), min(2, w))
        k = self.choice(["max_pool2d", "avg_pool2d", "global_avg_pool2d", "global_max_pool2d",
                         "adaptive_avg_pool2d", "mean", "sum", "max", "mean_nokeep", "sum_exclude"])
        axis = self.choice([[2, 3], [3], [-2, -1], [1], [1, 2, 3], [0]])
        keep = self.coin()
        make = {
            "max_pool2d": lambda a: relay.nn.max_pool2d(a, win, win),
            "avg_pool2d": lambda a: relay.nn.avg_pool2d(a, win, (1, 1), padding=(1, 1)),
            "global_avg_pool2d": lambda a: relay.nn.global_avg_pool2d(a),
            "global_max_pool2d": lambda a: relay.nn.global_max_pool2d(a),
            "adaptive_avg_pool2d": lambda a: relay.nn.adaptive_avg_pool2d(a, (max(1, h // 2), w)),
            "mean": lambda a: relay.mean(a, axis=axis, keepdims=True),
            "sum": lambda a: relay.sum(a, axis=axis, keepdims=True),
            "max": lambda a: relay.max(a, axis=axis, keepdims=True),
            "mean_nokeep": lambda a: relay.mean(a, axis=axis),
            "sum_exclude": lambda a: relay.sum(a, axis=axis, exclude=True, keepdims=keep),
        }[k]
        return Node([v], make, "conv_" + k, exact=k in ("max_pool2d", "global_max_pool2d", "max"))

    def pat_par_conv2d(self):
        relay = _relay()
        v = self._nchw(4)
        if v is None:
            return None
        nhwc = self.coin(0.25)
        if nhwc:
            n, h, w, c = v.shape
        else:
            n, c, h, w = v.shape
        ax = 3 if nhwc else 1
        nb = self.ri(2, 4)
        kh, kw = self.ri(1, min(h, 3)), self.ri(1, min(w, 3))
        pad = [self.ri(0, 1), self.ri(0, 1)]
        strides = [self.ri(1, 2), 1]
        dil = [2, 1] if (self.coin(0.2) and 2 * (kh - 1) + 1 <= h + 2 * pad[0]) else [1, 1]
        lay = dict(data_layout="NHWC", kernel_layout="HWIO") if nhwc else {}
        alike = self.coin(0.7)
        chain = [self.choice(["relu", "add", "multiply", "scalar_mul", "bias_add"]) for _ in range(self.r(3))]
        outs = []
        for i in range(nb):
            o = self.ri(1, 4)
            bkh, bkw, bpad = (kh, kw, pad) if alike or self.coin(0.5) else (self.ri(1, min(h, 3)), kw, [0, 0])
            wt = self._weight((bkh, bkw, c, o) if nhwc else (o, c, bkh, bkw))
            bdil = dil if bkh == kh else [1, 1]
            e = self.add(Node([v, wt], lambda a, b, bpad=bpad, bdil=bdil: relay.nn.conv2d(
                a, b, strides=strides, padding=bpad, dilation=bdil, **lay), "par_conv2d" + ("_nhwc" if nhwc else "")),
                let=self.coin(0.2))
            if e is None:
                return None
            steps = chain if alike else [self.choice(["relu", "add", "multiply"]) for _ in range(self.r(3))]
            for f in steps:
                f, cst = self.follower(o, 4, ax, [f])
                if f == "bias_add":
                    cst = self.cval((o,))
                args = [e] + ([cst] if cst is not None else [])
                e = self.add(Node(args, lambda *xs, f=f: self.apply_follower(xs[0], f, xs[1] if len(xs) > 1 else None,
                                                                             ax), "par_" + f), let=False)
                if e is None:
                    return None
            outs.append(e)
        return self._branches_node(outs, self.choice(["tuple", "concat", "concat", "add"]), axis=ax)

    def pat_par_dense(self):
        relay = _relay()
        v = self.pick_float(min_rank=2, max_rank=2)
        if v is None:
            v = self.pick_float(min_rank=1)
            if v is None:
                return None
            n = int(np.prod(v.shape))
            v = self.add(Node([v], lambda a: relay.reshape(a, (1, n) if n < 4 or n % 2 else (2, n // 2)),
                              "reshape", exact=True))
            if v is None:
                return None
        m, k = v.shape
        if self.coin(0.3):         # data scaled along its last axis (ForwardFoldScaleAxis into dense)
            v = self.add(Node([v, self.cval((k,), positive=self.coin(0.8))], lambda a, b: relay.multiply(a, b),
                              "in_scale_dense"), let=False)
            if v is None:
                return None
        nb = self.ri(1, 4)
        same = self.coin(0.6)
        units = self.ri(1, 4)
        chain = [self.choice(["relu", "add", "multiply", "scalar_mul"]) for _ in range(self.r(3))]
        outs = []
        for i in range(nb):
            u = units if same else self.ri(1, 4)
            wt = self._weight((u, k))
            e = self.add(Node([v, wt], lambda a, b: relay.nn.dense(a, b), "par_dense"), let=self.coin(0.2))
            if e is None:
                return None
            for f in chain:
                if f in ("add", "multiply"):
                    shape = self.choice([(u,), (1, u), (m, u), ()])
                    cst = self.cval(shape) if shape else self.cval(())
                    e = self.add(Node([e, cst], lambda a, b, f=f: getattr(relay, f)(a, b), "par_" + f), let=False)
                else:
                    f2, cst = self.follower(u, 2, 1, [f])
                    args = [e] + ([cst] if cst is not None else [])
                    e = self.add(Node(args, lambda *xs, f2=f2: self.apply_follower(
                        xs[0], f2, xs[1] if len(xs) > 1 else None), "par_" + f2), let=False)
                if e is None:
                    return None
            outs.append(e)
        return self._branches_node(outs, self.choice(["tuple", "concat", "add"]))

    def pat_par_bmm(self):
        relay = _relay()
        v = self.pick_float(min_rank=3, max_rank=3)
        if v is None:
            v = self._nchw(3)
            if v is None:
                return None
        b, m, k = v.shape
        nb = self.ri(2, 4)
        chain = [self.choice(["relu", "add", "multiply"]) for _ in range(self.r(3))]
        tb = self.coin(0.85)
        outs = []
        for i in range(nb):
            u = self.ri(1, 4)
            wt = self._weight((b if self.coin(0.85) else 1, u, k) if tb else (b, k, u))
            e = self.add(Node([v, wt], lambda a, y: relay.nn.batch_matmul(a, y, transpose_b=tb), "par_bmm"),
                         let=self.coin(0.2))
            if e is None:
                return None
            for f in chain:
                if f == "relu":
                    e = self.add(Node([e], lambda a: relay.nn.relu(a), "par_relu", exact=True), let=False)
                else:
                    shape = self.choice([(u,), (1, 1, u), (b, m, u), (1, m, u)])
                    cst = self.cval(shape)
                    e = self.add(Node([e, cst], lambda a, c_, f=f: getattr(relay, f)(a, c_), "par_" + f), let=False)
                if e is None:
                    return None
            outs.append(e)
        return self._branches_node(outs, self.choice(["tuple", "concat", "add"]))

    def pat_dup(self):
        base = rp.Generator._table(self)
        w = np.array([t[0] for t in base], dtype=float)
        node = None
        for _ in range(6):
            _, name, fn = base[int(self.rng.choice(len(base), p=w / w.sum()))]
            node = fn()
            if node is not None:
                break
        if node is None:
            return None
        a = self.add(node)
        if a is None:
            return None
        b = self.add(Node(list(node.args), node.build, node.op + "_dup", node.exact))
        if b is None:
            return None
        relay = _relay()
        if a.is_tensor and a.dtype == FLOAT and self.coin(0.7):
            return Node([a, b], lambda x, y: relay.subtract(relay.add(x, y), relay.multiply(y, _c(0.5))), "dup_use")
        return Node([a, b], lambda x, y: relay.Tuple([x, y]), "tuple", exact=True)

    def pat_dead_let(self):
        relay = _relay()
        v = self.pick(self.tensors())
        if v is None:
            return None
        k = self.r(4)
        if k == 0:
            # a let-bound value nobody reads: dropped from the pool
            node = Node([v], lambda a: relay.copy(a) if v.dtype != FLOAT else relay.exp(relay.tanh(a)), "dead")
            d = self.add(node, let=True)
            if d is not None:
                self.pool.remove(d)
            return None
        if k == 1:
            # a dead let nested in an expression
            def build(a):
                t = relay.var("dead")
                return relay.Let(t, relay.negative(a) if v.dtype != BOOL else relay.logical_not(a),
                                 relay.Tuple([a]))
            return Node([v], lambda a: relay.TupleGetItem(build(a), 0), "dead_nested", exact=True)
        if k == 2:
            # reference writes: the unused let of a write is not dead
            u = self.pick(self.tensors(v.dtype, pred=lambda x: x.shape == v.shape))

            def build(a, b):
                r, d = relay.var("r"), relay.var("d")
                return relay.Let(r, relay.RefCreate(a), relay.Let(d, relay.RefWrite(r, b), relay.RefRead(r)))
            return Node([v, u], build, "ref_write_dead_let", exact=True)
        # a dead closure and a dead ref creation

        def build3(a):
            f, r, p = relay.var("f"), relay.var("r"), relay.var("p")
            return relay.Let(f, relay.Function([p], p), relay.Let(r, relay.RefCreate(a), a))
        return Node([v], build3, "dead_fn_ref", exact=True)

    def pat_pad_consumer(self):
        relay = _relay()
        rank = 3 if self.coin(0.2) else 4
        v = self._nchw(rank)
        if v is None:
            return None
        consumer = "conv1d" if rank == 3 else self.choice(["conv2d", "conv2d", "avg_pool2d", "max_pool2d"])
        nhwc = rank == 4 and self.coin(0.25)
        spatial = list(range(1, rank - 1)) if nhwc else list(range(2, rank))
        chan = rank - 1 if nhwc else 1
        widths = [(0, 0)] * rank
        for d in spatial:
            widths[d] = (self.ri(0, 2), self.ri(0, 2))
        if self.coin(0.15):
            widths[chan] = (self.ri(0, 1), self.ri(0, 1))          # a channel pad: must not fold
        if consumer == "max_pool2d":
            pv = self.choice([-np.inf, -np.inf, float(np.finfo(np.float32).min), 0.0])
        else:
            pv = self.choice([0.0, 0.0, 0.0, 1.0, -0.5])
        pval = self.const_val(np.asarray(pv, FLOAT))
        mode = "constant" if self.coin(0.9) else "edge"
        lay = (spatial, chan, nhwc)
        if self.coin(0.2):
            # a pad of a pad (they fold in turn)
            w2 = [(0, 0)] * rank
            for d in spatial:
                w2[d] = (self.ri(0, 1), self.ri(0, 1))
            shape = tuple(x + a + b for x, (a, b) in zip(v.shape, widths))
            shape = tuple(x + a + b for x, (a, b) in zip(shape, w2))
            return self._consumer(v, consumer, lay, pre=(shape, lambda a, b: relay.nn.pad(
                relay.nn.pad(a, widths, b, pad_mode=mode), w2, b), [v, pval]))
        p = self.add(Node([v, pval], lambda a, b: relay.nn.pad(a, widths, b, pad_mode=mode), "pad_" + mode,
                          exact=True), let=self.coin(0.2))
        if p is None:
            # a -inf pad value makes the pad's value non-finite: build pad and consumer together
            shape = tuple(x + a + b for x, (a, b) in zip(v.shape, widths))
            return self._consumer(v, consumer, lay, pre=(shape, lambda a, b: relay.nn.pad(a, widths, b, pad_mode=mode),
                                                         [v, pval]))
        return self._consumer(p, consumer, lay)

    def _consumer(self, p: Val, consumer: str, lay, pre=None) -> Optional[Node]:
        relay = _relay()
        spatial, chan, nhwc = lay
        shape = p.shape if pre is None else pre[0]
        f = pre[1] if pre is not None else (lambda a, *r: a)
        c = shape[chan]
        sp = [shape[d] for d in spatial]
        own = [self.ri(0, 1) for _ in sp] if self.coin(0.4) else [0 for _ in sp]
        args = [p] if pre is None else pre[2]
        if consumer in ("conv2d", "conv1d"):
            o = self.ri(1, 3)
            ks = [self.ri(1, min(d, 3)) for d in sp]
            st = [self.ri(1, 2) for _ in sp]
            if consumer == "conv1d":
                wt = self._weight((o, c) + tuple(ks))
                return Node(args + [wt], lambda *xs: relay.nn.conv1d(f(*xs[:-1]), xs[-1], padding=own[0],
                                                                     strides=st[0]), "pad+conv1d")
            wt = self._weight(tuple(ks) + (c, o) if nhwc else (o, c) + tuple(ks))
            kw = dict(data_layout="NHWC", kernel_layout="HWIO") if nhwc else {}
            return Node(args + [wt], lambda *xs: relay.nn.conv2d(f(*xs[:-1]), xs[-1], padding=own, strides=st, **kw),
                        "pad+conv2d" + ("_nhwc" if nhwc else ""))
        ks = [self.ri(1, min(d, 3)) for d in sp]
        own = [min(o, k - 1) for o, k in zip(own, ks)]
        st = [self.ri(1, 2) for _ in sp]
        ceil = self.coin(0.3)
        layout = "NHWC" if nhwc else "NCHW"
        if consumer == "max_pool2d":
            return Node(args, lambda *xs: relay.nn.max_pool2d(f(*xs), ks, st, padding=own, ceil_mode=ceil,
                                                              layout=layout), "pad+max_pool2d", exact=True)
        cip = self.coin()
        return Node(args, lambda *xs: relay.nn.avg_pool2d(f(*xs), ks, st, padding=own, count_include_pad=cip,
                                                          ceil_mode=ceil, layout=layout), "pad+avg_pool2d")

    def pat_atrous(self):
        """space_to_batch_nd, an NHWC conv2d, batch_to_space_nd (FlattenAtrousConv): SAME- and
        VALID-like paddings, crops within them and (sometimes) beyond, a conv padding of its
        own or a pad value of 0.5 now and then (those must stay)."""
        relay = _relay()
        v = self._nchw(4)
        if v is None:
            return None
        _, c, h, w = v.shape
        block, ks, pads, crops = [self.ri(1, 3), self.ri(1, 3)], [self.ri(1, 3), self.ri(1, 3)], [], []
        own = [1, 1] if self.coin(0.1) else [0, 0]
        for d, b, k, o in zip((h, w), block, ks, own):
            before = self.ri(0, 3)
            after = (-(d + before)) % b
            while (d + before + after) // b + 2 * o < k:
                after += b
            full = (d + before + after) // b * b + 2 * o * b - (k - 1) * b
            c0 = self.ri(0, min(before + (1 if self.coin(0.1) else 0), full - 1))
            c1 = self.ri(0, min(after, full - 1 - c0))
            pads.append([before, after])
            crops.append([c0, c1])
        pv = 0.5 if self.coin(0.1) else 0.0
        wt = self._weight((ks[0], ks[1], c, self.ri(1, 3)))
        return Node([v, wt], lambda a, k: relay.nn.batch_to_space_nd(relay.nn.conv2d(
            relay.nn.space_to_batch_nd(relay.transpose(a, [0, 2, 3, 1]), block, pads, pad_value=pv),
            k, padding=own, data_layout="NHWC", kernel_layout="HWIO"), block, crops), "atrous")

    def pat_div_const(self):
        relay = _relay()
        v = self.pick(self.tensors((FLOAT, INT)))
        if v is None:
            return None
        r = self.r(v.rank + 1)
        shape = v.shape[v.rank - r:] if self.coin(0.6) else ()
        if v.dtype == INT:
            c = np.asarray(self.rng.integers(1, 5, size=shape), INT) * self.choice([1, -1])
            return Node([v, self.const_val(c)], lambda a, b: relay.divide(a, b), "int_div_const", exact=True)
        mag = self.rng.uniform(0.25, 4.0, size=shape) * np.where(self.rng.random(size=shape) < 0.3, -1, 1)
        if self.coin(0.2):
            mag = np.full(shape, self.choice([1.0, 2.0, 0.5, 3.0]))
        c = self.const_val(np.asarray(mag, FLOAT))
        return Node([v, c], lambda a, b: relay.divide(a, b), "div_const")

    def pat_cast_chain(self):
        relay = _relay()
        v = self.pick(self.tensors((FLOAT, INT, BOOL)))
        if v is None:
            return None
        if v.dtype == FLOAT:
            wide = self.choice(["float64", "float64", "float16"])
            back = FLOAT
        elif v.dtype == INT:
            wide = self.choice(["int64", "float64", "float32"])
            back = self.choice([INT, FLOAT])
        else:
            wide = self.choice(["int32", "int64", "float32", "uint8"])
            back = self.choice([INT, FLOAT])
        kind = self.r(3)
        k = float(self.choice([2.0, 0.5, 3.0]))

        def build(a):
            c = relay.cast(a, wide)
            if kind == 0:    # several elementwise readers of one widening cast
                e = relay.add(relay.multiply(c, relay.const(np.asarray(k, wide))), relay.maximum(c, c))
                return relay.cast(relay.subtract(e, c), back)
            if kind == 1:    # a chain of casts
                return relay.cast(relay.cast(c, self_mid), back)
            return relay.cast(relay.add(c, relay.cast(a, wide)), back)      # two equal casts
        self_mid = self.choice(["float64", "int64", "float32", wide])
        if kind == 1 and v.dtype == FLOAT and self_mid in ("int64",):
            if not self.robust(v, lambda x: x - np.trunc(x)):
                return None
        return Node([v], build, f"cast_chain{kind}", exact=v.dtype != FLOAT or (wide == "float64" and kind != 1))

    def pat_clip_cast(self):
        """clip, then casts through narrower and wider dtypes, and back to the data's dtype
        (SimplifyClip / SimplifyClipAndConsecutiveCast: which casts change no value)."""
        relay = _relay()
        v = self.pick(self.tensors((FLOAT, INT)))
        if v is None:
            return None
        lo, hi = self.choice([(0.0, 255.0), (-100.0, 100.0), (0.0, 1000.0), (-3.5, 7.25),
                              (0.0, 1.0), (-1e10, 1e10), (-float("inf"), float("inf")),
                              (-2147483648.0, 2147483647.0)])
        chain = [self.choice(["int8", "uint8", "int16", "int32", "int64", "float16", "float32",
                              "float64", "bool"]) for _ in range(self.r(4))]
        ranges = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767),
                  "int32": (-2 ** 31, 2 ** 31 - 1), "float16": (-65504, 65504)}

        def holds(d):  # d holds every clipped value (truncated for an int d)
            r = ranges.get(d)
            return r is None or (r[0] <= np.trunc(lo) and np.trunc(hi) <= r[1])
        # a value out of a narrow dtype's range wraps (int) or is undefined (float -> int)
        chain = [d if holds(d) else self.choice(["int64", "float32", "float64"]) for d in chain]
        if v.dtype == FLOAT and any(d.startswith(("int", "uint")) for d in chain) and \
                not (-1e9 < lo and hi < 1e9):
            lo, hi = -100.0, 100.0  # float -> int64 of 1e10 holds, of inf is undefined
        if v.dtype == FLOAT and any(d.startswith(("int", "uint")) for d in chain) and \
                not self.robust(v, lambda x: x - np.trunc(x)):
            return None  # a value near an integer: float32 noise could change its truncation

        def build(a):
            e = relay.clip(a, lo, hi)
            for d in chain:
                e = relay.cast(e, d)
            return relay.cast(e, v.dtype)
        return Node([v], build, f"clip_cast{len(chain)}", exact=v.dtype != FLOAT or not chain)

    def pat_norm(self):
        relay = _relay()
        v = self.pick_float(min_rank=2)
        if v is None:
            v = self._nchw(4)
            if v is None:
                return None
        c = v.shape[1]
        k = self.choice(["bn_all", "bn0", "layer_norm", "dropout", "dropout_tuple", "instance_norm", "group_norm",
                         "l2_normalize"])
        if k in ("bn_all", "bn0"):
            var = self.const_val(np.asarray(self.rng.uniform(0.5, 2, size=(c,)), FLOAT))
            args = [v, self._weight((c,)), self._weight((c,)), self._weight((c,)), var]
            center, scale = self.coin(0.8), self.coin(0.8)
            eps = float(self.choice([1e-5, 1e-3]))
            if k == "bn0":
                return Node(args, lambda a, g, b, m, s: relay.nn.batch_norm(
                    a, g, b, m, s, axis=1, epsilon=eps, center=center, scale=scale)[0], "batch_norm0")
            return Node(args, lambda a, g, b, m, s: relay.nn.batch_norm(
                a, g, b, m, s, axis=1, epsilon=eps, center=center, scale=scale).astuple(), "batch_norm_tuple")
        if k == "layer_norm":
            axis = int(self.rng.integers(-v.rank, v.rank))
            d = v.shape[axis]
            center, scale = self.coin(0.8), self.coin(0.8)
            return Node([v, self._weight((d,)), self._weight((d,))],
                        lambda a, g, b: relay.nn.layer_norm(a, g, b, axis=axis, center=center, scale=scale),
                        "layer_norm")
        if k == "dropout":
            return Node([v], lambda a: relay.nn.dropout(a, 0.5), "dropout", exact=True)
        if k == "dropout_tuple":
            return Node([v], lambda a: relay.nn.dropout_raw(a, 0.5)
                        if hasattr(relay.nn, "dropout_raw") else relay.Tuple([relay.nn.dropout(a, 0.5)]),
                        "dropout_tuple", exact=True)
        if k == "instance_norm":
            if v.rank < 3:
                return None
            return Node([v, self._weight((c,)), self._weight((c,))],
                        lambda a, g, b: relay.nn.instance_norm(a, g, b), "instance_norm")
        if k == "group_norm":
            ng = self.choice([g for g in range(1, c + 1) if c % g == 0])
            return Node([v, self._weight((c,)), self._weight((c,))],
                        lambda a, g, b: relay.nn.group_norm(a, g, b, num_groups=ng), "group_norm")
        ax = self._axes(v.rank) or [v.rank - 1]
        return Node([v], lambda a: relay.nn.l2_normalize(a, 1e-6, ax), "l2_normalize")

    def pat_const_fold(self):
        relay = _relay()
        v = self.pick_float()
        if v is None:
            return None
        shape = v.shape
        k = self.r(8)
        a = np.asarray(self.rng.uniform(-1, 1, size=shape), FLOAT)
        b = np.asarray(self.rng.uniform(0.5, 1.5, size=shape[-1:] if shape else ()), FLOAT)

        def build(x):
            if k == 0:
                return relay.add(x, relay.multiply(relay.const(a), relay.const(b)))
            if k == 1:
                return relay.multiply(x, relay.ones(shape, FLOAT))
            if k == 2:
                return relay.add(relay.zeros(shape, FLOAT), x)
            if k == 3:
                return relay.multiply(x, relay.full(relay.const(1.5), shape, FLOAT))
            if k == 4:    # a constant through shape ops
                t = relay.reshape(relay.const(a), (-1,))
                return relay.add(x, relay.reshape(relay.negative(t), shape))
            if k == 5:
                return relay.add(x, relay.sum(relay.exp(relay.const(b))))
            if k == 6:
                return relay.where(relay.const(np.asarray(a > 0)), x, relay.ones_like(x))
            return relay.subtract(x, relay.cast(relay.cast(relay.const(b * 3), INT), FLOAT))
        return Node([v], build, f"const_fold{k}")

    def pat_dyn_const(self):
        relay = _relay()
        from relay_mlir.op import dyn
        v = self.pick(self.tensors((FLOAT, INT), min_rank=1))
        if v is None:
            return None
        shape = v.shape
        k = self.r(7)
        i64 = lambda xs: relay.const(np.asarray(xs, "int64"))   # noqa: E731
        if k == 0:
            n = int(np.prod(shape))
            ns = [n] if self.coin() else [1, n]
            if self.coin(0.3):
                ns = [-1]
            return Node([v], lambda a: dyn.reshape(a, i64(ns)), "dyn.reshape", exact=True)
        if k == 1:
            to = (self.ri(1, 3),) + tuple(shape)
            return Node([v], lambda a: dyn.broadcast_to(a, i64(to)), "dyn.broadcast_to", exact=True)
        if k == 2:
            reps = [self.ri(1, 2) for _ in shape]
            return Node([v], lambda a: dyn.tile(a, i64(reps)), "dyn.tile", exact=True)
        if k == 3:
            begin = [self.r(d) for d in shape]
            end = [self.ri(b + 1, d) for b, d in zip(begin, shape)]
            out = [e - b for b, e in zip(begin, end)]      # its type has `?` dims: made static by a reshape
            return Node([v], lambda a: relay.reshape(dyn.strided_slice(a, i64(begin), i64(end)), out),
                        "dyn.strided_slice", exact=True)
        if k == 4:
            w = [[self.r(2), self.r(2)] for _ in shape]
            pv = self.const_val(np.asarray(0, v.dtype))
            return Node([v, pv], lambda a, p: dyn.pad(a, i64(w), p), "dyn.pad", exact=True)
        if k == 5:
            to = list(shape)
            f = self.choice([dyn.zeros, dyn.ones])
            return Node([v], lambda a: relay.add(a, f(i64(to), v.dtype)), "dyn.zeros/ones", exact=True)
        to = list(shape)
        fv = self.const_val(np.asarray(2, v.dtype))
        return Node([v, fv], lambda a, c: relay.multiply(a, dyn.full(c, i64(to), v.dtype)), "dyn.full", exact=True)

    def pat_simplify(self):
        relay = _relay()
        v = self.pick_float()
        if v is None:
            return None
        shape, rank = v.shape, v.rank
        k = self.r(11)
        if k == 0 and rank >= 1:
            n = int(np.prod(shape))
            to = (1, n) if self.coin() else (n, 1)
            return Node([v], lambda a: relay.reshape(relay.reshape(a, (n,)), to), "reshape_reshape", exact=True)
        if k == 1 and rank >= 2:
            p1 = list(self.rng.permutation(rank))
            p2 = list(self.rng.permutation(rank))
            return Node([v], lambda a: relay.transpose(relay.transpose(a, p1), p2), "transpose2", exact=True)
        if k == 2 and rank >= 1:
            return Node([v], lambda a: relay.transpose(a, list(range(rank))), "transpose_id", exact=True)
        if k == 3:
            z = self.choice(["zeros", "zero_scalar", "ones"])

            def b3(a):
                if z == "zeros":
                    return relay.add(a, relay.zeros(shape, FLOAT))
                if z == "zero_scalar":
                    return relay.subtract(a, relay.const(0.0))
                return relay.divide(a, relay.ones(shape, FLOAT))
            return Node([v], b3, "identity_arith", exact=True)
        if k == 4:
            u = self.pick(self.tensors(FLOAT, pred=lambda x: rp._broadcasts(x.shape, shape)))
            d = self.positive(u, 0.5) if u is not None else None
            if d is None:
                return None
            return Node([v, d], lambda a, b: relay.divide(a, relay.sqrt(b)), "div_sqrt")
        if k == 5:
            return Node([v], lambda a: relay.add(a, a), "x+x", exact=True)
        if k == 6:
            return Node([v], lambda a: relay.add(relay.zeros_like(a), relay.multiply(a, relay.ones_like(a))),
                        "like_ops", exact=True)
        if k == 7:
            return Node([v], lambda a: relay.cast(relay.cast_like(a, a), FLOAT), "same_cast", exact=True)
        if k == 8:
            return Node([v], lambda a: relay.multiply(a, relay.const(1.0)), "x*1", exact=True)
        if k == 9:
            u = self.pick(self.tensors(FLOAT, pred=lambda x: rp._broadcasts(x.shape, shape)))
            if u is None:
                return None
            return Node([v, u], lambda a, b: relay.add(relay.multiply(a, relay.ones(u.shape, FLOAT)), b),
                        "ones_operand")
        if rank >= 1:
            return Node([v], lambda a: relay.reshape(relay.transpose(relay.reshape(a, (-1,)), [0]), shape),
                        "reshape_transpose", exact=True)
        return None

    def pat_int_simplify(self):
        """SimplifyExpr/CSE/FoldConstant on integer and bool values (exact)."""
        relay = _relay()
        v = self.pick(self.tensors((INT, BOOL)))
        if v is None:
            return None
        shape, rank = v.shape, v.rank
        k = self.r(8)
        if v.dtype == BOOL or k == 0:
            mid = self.choice(["int8", "int16", "int64", "uint8", "float32", "float64", INT])
            to = self.choice([INT, "int64", FLOAT])
            return Node([v], lambda a: relay.cast(relay.cast(a, mid), to), "int_cast_cast", exact=True)
        if k == 1:
            return Node([v], lambda a: relay.add(a, a), "int_x+x", exact=True)
        if k == 2:
            return Node([v], lambda a: relay.multiply(relay.add(a, relay.zeros(shape, INT)), relay.ones(shape, INT)),
                        "int_identity", exact=True)
        if k == 3 and rank >= 2:
            p1 = list(self.rng.permutation(rank))
            p2 = list(self.rng.permutation(rank))
            return Node([v], lambda a: relay.transpose(relay.transpose(a, p1), p2), "int_transpose2", exact=True)
        if k == 4 and rank >= 1:
            n = int(np.prod(shape))
            return Node([v], lambda a: relay.reshape(relay.reshape(a, (n, 1)), (1, n)), "int_reshape2", exact=True)
        if k == 5:
            d = int(self.choice([1, 2, 3, -2]))
            return Node([v], lambda a: relay.divide(a, relay.const(d)), "int_div_scalar", exact=True)
        if k == 6:
            return Node([v], lambda a: relay.add(relay.cast(relay.cast(a, "int64"), INT),
                                                 relay.cast(relay.cast(a, "int64"), INT)), "int_widen_twice",
                        exact=True)
        return Node([v], lambda a: relay.subtract(relay.multiply(a, relay.const(2)), relay.add(a, a)),
                    "int_zero", exact=True)

    def pat_cse_branches(self):
        """Equal computations in if branches, in a closure and outside, and projections of one
        tuple (EliminateCommonSubexpr hoists / merges them)."""
        relay = _relay()
        v = self.pick_float()
        if v is None:
            return None
        k = self.r(4)
        if k == 0 or k == 1:
            x = self.pick(self.tensors((FLOAT, INT), pred=lambda u: u.exact))
            if x is None:
                return None
            t = float(self.rng.uniform(-1, 1)) if x.dtype == FLOAT else int(self.rng.integers(-2, 3))
            c = self.add(Node([x], lambda a: relay.any(relay.greater(a, relay.const(t, x.dtype))), "any(greater)",
                              exact=True), let=False)
            if c is None:
                return None
            if k == 0:
                return Node([c, v], lambda cc, a: relay.add(relay.If(cc, relay.tanh(a), relay.negative(relay.tanh(a))),
                                                            relay.tanh(a)), "cse_if")
            return Node([c, v], lambda cc, a: relay.If(cc, relay.Tuple([relay.sigmoid(a), relay.sigmoid(a)]),
                                                       relay.Tuple([a, relay.sigmoid(a)])).astuple()
                        if hasattr(relay.If, "astuple") else relay.If(
                            cc, relay.Tuple([relay.sigmoid(a), relay.sigmoid(a)]), relay.Tuple([a, relay.sigmoid(a)])),
                        "cse_if_tuple")
        if k == 2:
            def build(a):
                f, p = relay.var("f"), relay.var("p", shape=v.shape)
                return relay.Let(f, relay.Function([p], relay.add(relay.exp(relay.tanh(a)), p)),
                                 relay.add(relay.Call(f, [a]), relay.exp(relay.tanh(a))))
            return Node([v], build, "cse_closure")
        if v.rank == 0:
            return None
        axis = self.r(v.rank)
        n = v.shape[axis]

        def build3(a):
            t = relay.split(a, 1 if n == 1 else [1], axis=axis).astuple()
            return relay.add(relay.TupleGetItem(t, 0), relay.TupleGetItem(t, 0))
        return Node([v], build3, "cse_tuple_get_item", exact=True)

    def pat_unused_global(self):
        """A new global function that main does not call (RemoveUnusedFunctions drops it;
        a later global_call may still call it), beside a relu of a float value."""
        relay = _relay()
        v = self.pick_float()
        if v is None:
            return None
        name = f"helper{len(self.helpers)}"
        p = relay.var("a", shape=v.shape)
        self.helpers[name] = relay.Function([p], self.chain(p, [], self.r(3) + 1))
        self.helper_gv[name] = relay.GlobalVar(name)
        return Node([v], lambda a: relay.nn.relu(a), "unused_global", exact=True)

    def pat_const_struct(self):
        """Constant tuples, projections, concatenations, splits and ifs on constant conditions
        (FoldConstant)."""
        relay = _relay()
        v = self.pick_float(min_rank=1)
        if v is None:
            return None
        shape = v.shape
        a = np.asarray(self.rng.uniform(-1, 1, size=shape), FLOAT)
        b = np.asarray(self.rng.uniform(-1, 1, size=shape), FLOAT)
        k = self.r(4)
        cond = bool(self.coin())

        def build(x):
            if k == 0:
                t = relay.Tuple([relay.const(a), relay.const(b)])
                return relay.add(x, relay.TupleGetItem(t, 1))
            if k == 1:
                cat = relay.concatenate([relay.const(a), relay.const(b)], axis=0)
                parts = relay.split(cat, 2, axis=0).astuple()
                return relay.multiply(x, relay.TupleGetItem(parts, 0))
            if k == 2:
                return relay.add(x, relay.If(relay.const(cond), relay.const(a), relay.const(b)))
            return relay.subtract(x, relay.nn.relu(relay.subtract(relay.const(a), relay.const(b))))
        return Node([v], build, f"const_struct{k}")

    def pat_fast_math(self):
        relay = _relay()
        v = self.pick_float()
        if v is None:
            return None
        v = self.bounded(v, 3.0)
        if v is None:
            return None
        k = self.choice(["exp", "tanh", "erf", "softmax"])
        if k == "softmax":
            if v.rank == 0:
                return None
            return Node([v], lambda a: relay.nn.softmax(a, axis=-1), "softmax")
        f = getattr(relay, k)
        return Node([v], lambda a: f(a), k)

    # -- the program ---------------------------------------------------------------
    def build_cut(self, k: int, drop=frozenset()):
        """main returning the value of statement ``stmt_vals[k]`` (statements after it
        dropped, and the let statements in ``drop``)."""
        relay = _relay()
        si, val = self.stmt_vals[k]
        body = val.expr
        for j in range(si, -1, -1):
            var, value = self.stmts[j]
            if var is not None and j not in drop:
                body = relay.Let(var, value, body)
        return self._module(relay.Function(self.params, body))


def _sum(xs):
    relay = _relay()
    e = xs[0]
    for x in xs[1:]:
        e = relay.add(e, x)
    return e


# ---------------------------------------------------------------------------
# checking one pass on one program


def _flat(v) -> list:
    if isinstance(v, (tuple, list)):
        return [x for f in v for x in _flat(f)]
    return [v]


def compare(got, want, rtol: float, atol: float, cast: bool = False) -> Optional[str]:
    """None if ``got`` matches ``want`` (structure, shapes, dtypes, values), else why not."""
    if isinstance(want, (tuple, list)) or isinstance(got, (tuple, list)):
        if not (isinstance(got, (tuple, list)) and isinstance(want, (tuple, list)) and len(got) == len(want)):
            return f"structure {rp._describe(got)} vs {rp._describe(want)}"
        for i, (g, w) in enumerate(zip(got, want)):
            why = compare(g, w, rtol, atol, cast)
            if why:
                return f"[{i}]: {why}"
        return None
    g, w = np.asarray(got), np.asarray(want)
    if cast and g.dtype != w.dtype and g.shape == w.shape:
        g = g.astype(w.dtype)
    if g.shape != w.shape or g.dtype != w.dtype:
        return f"got {g.dtype}{list(g.shape)}, want {w.dtype}{list(w.shape)}"
    if w.dtype.kind in "fc":
        with np.errstate(all="ignore"):
            return _compare_floats(g, w, rtol, atol)
    if not np.array_equal(g, w):
        i = tuple(int(k) for k in np.argwhere(g != w)[0])
        return f"{int((g != w).sum())} of {w.size} elements differ, e.g. at {i}: got {g[i]!r}, want {w[i]!r}"
    return None


def _compare_floats(g, w, rtol: float, atol: float) -> Optional[str]:
    """Finite elements within ``atol * (1 + max|finite want|) + rtol * |want|``; NaN where
    ``want`` has NaN, the same infinity where it has one."""
    g64, w64 = g.astype("float64"), w.astype("float64")
    fin = np.isfinite(w64)
    a = atol * (1.0 + (float(np.max(np.abs(w64[fin]))) if fin.any() else 0.0))
    same_nonfinite = (np.isnan(g64) & np.isnan(w64)) | (np.isinf(w64) & (g64 == w64))
    close = np.isfinite(g64) & fin & (np.abs(g64 - w64) <= a + rtol * np.abs(w64))
    ok = same_nonfinite | close
    if ok.all():
        return None
    i = tuple(int(k) for k in np.argwhere(~ok)[0])
    return (f"{int((~ok).sum())} of {w.size} elements differ, e.g. at {i}: got {g[i]!r}, want {w[i]!r} "
            f"(rtol {rtol}, atol {a:.2g})")


def _run(mod, inputs):
    relay = _relay()
    with np.errstate(all="ignore"):
        return relay.create_executor("debug", mod=mod).evaluate()(*inputs)


def _main_type(mod):
    relay = _relay()
    m = relay.transform.InferType()(mod)
    t = m["main"].checked_type
    return [str(p) for p in t.arg_types], t.ret_type


def _shapes_of(t):
    relay = _relay()
    if isinstance(t, relay.TupleType):
        return ("tup", [_shapes_of(f) for f in t.fields])
    if isinstance(t, relay.TensorType):
        return ("t", [int(d) if isinstance(d, int) else str(d) for d in t.shape])
    return str(t)


def _identity_mlir(mod) -> str:
    """``mod``'s MLIR after the round trip every pass makes (typed MLIR, read back into
    expressions: lets become graph nodes), with no pass: what "changed" compares with."""
    from relay_mlir.autodiff import _run_passes
    return _run_passes(mod.to_mlir(infer=True).text(), "relay-infer-type", "identity",
                       types_of=mod).to_mlir(infer=True).text()


def check_pass(mod, inputs, want, name: str, table: dict, before_mlir: Optional[str] = None) -> dict:
    """{verdict, detail, changed} of pass ``name`` on ``mod`` (whose outputs on ``inputs``
    are ``want``)."""
    relay = _relay()
    base = _base_name(name)
    rtol, atol = TOLERANCE.get(base, DEFAULT_TOL)
    res = {"verdict": "pass", "detail": "", "changed": False}
    try:
        p = make_pass(name, table)
        after = p(mod)
    except Exception as e:  # noqa: BLE001 - the finding
        res.update(verdict="pass_error", detail=f"{type(e).__name__}: {e}\n{traceback.format_exc()}")
        return res
    try:
        if not isinstance(after, relay.IRModule):
            raise TypeError(f"the pass returned {type(after).__name__}")
        after_mlir = after.to_mlir(infer=True).text()
        args_b, ret_b = _main_type(mod)
        args_a, ret_a = _main_type(after)
        if args_a != args_b:
            raise TypeError(f"main's parameter types changed: {args_b} -> {args_a}")
        if base in DTYPE_MAY_CHANGE:
            if _shapes_of(ret_a) != _shapes_of(ret_b):
                raise TypeError(f"main's result shapes changed: {ret_b} -> {ret_a}")
        elif str(ret_a) != str(ret_b):
            raise TypeError(f"main's result type changed: {ret_b} -> {ret_a}")
    except Exception as e:  # noqa: BLE001
        res.update(verdict="verify_error", detail=f"{type(e).__name__}: {e}")
        return res
    if before_mlir is None:
        before_mlir = _identity_mlir(mod)
    res["changed"] = after_mlir != before_mlir
    try:
        got = _run(after, inputs)
    except Exception as e:  # noqa: BLE001
        res.update(verdict="mismatch", detail=f"the transformed program fails to run: {type(e).__name__}: {e}")
        return res
    why = compare(got, want, rtol, atol, cast=base in DTYPE_MAY_CHANGE)
    if why:
        res.update(verdict="mismatch", detail=why)
    return res


class Program:
    """Program (seed, index): the generator, module, inputs and reference outputs."""

    def __init__(self, seed: int, index: int, n_ops: int = 10, verbose: bool = False) -> None:
        self.seed, self.index = seed, index
        self.error = None
        self.gen = PassGenerator(seed, index, n_ops=n_ops, verbose=verbose)
        try:
            self.mod, self.inputs = self.gen.generate()
            self.text = self.mod.astext()
            self.want = _run(self.mod, self.inputs)
            self.mlir = _identity_mlir(self.mod)
        except Exception as e:  # noqa: BLE001 - not counted against the passes
            self.error = f"{type(e).__name__}: {e}\n{traceback.format_exc()}"
            self.mod = None
            self.text = getattr(self, "text", "")

    def check(self, name: str, table: dict) -> dict:
        if self.error is not None:
            return {"verdict": "interp_error", "detail": self.error, "changed": False}
        return check_pass(self.mod, self.inputs, self.want, name, table, self.mlir)

    def reduce(self, name: str, verdict: str, table: dict, budget: float = 60.0) -> Tuple[str, object]:
        """(Relay text, module) of the smallest cut of the program found that still gives
        ``verdict`` under pass ``name``."""
        t0 = time.time()

        def fails(mod) -> bool:
            try:
                want = _run(mod, self.inputs)
                rp._maxabs(want)
            except Exception:  # noqa: BLE001 - not a valid candidate
                return False
            return check_pass(mod, self.inputs, want, name, table)["verdict"] == verdict

        best = self.mod
        best_k = None
        for k in range(len(self.gen.stmt_vals)):
            if time.time() - t0 > budget:
                break
            try:
                m = self.gen.build_cut(k)
            except Exception:  # noqa: BLE001
                continue
            if fails(m):
                best, best_k = m, k
                break
        if best_k is not None:
            drop = set()
            si = self.gen.stmt_vals[best_k][0]
            for j in range(si - 1, -1, -1):
                if time.time() - t0 > budget:
                    break
                if self.gen.stmts[j][0] is None:
                    continue
                try:
                    m = self.gen.build_cut(best_k, frozenset(drop | {j}))
                    _relay().transform.InferType()(m)
                except Exception:  # noqa: BLE001 - the let is used
                    continue
                if fails(m):
                    drop.add(j)
                    best = m
        return best.astext(), best


def _json_inputs(inputs) -> list:
    return [{"dtype": str(a.dtype), "shape": list(a.shape),
             "data": [None if not np.isfinite(x) else float(x) for x in a.astype("float64").ravel()]
             if a.dtype.kind == "f" else a.astype("int64").ravel().tolist()} for a in inputs]


def save_finding(d: str, prog: Program, name: str, r: dict, table: dict, reduce: bool = True) -> str:
    os.makedirs(d, exist_ok=True)
    reduced = prog.text
    if reduce and prog.mod is not None and r["verdict"] != "timeout":
        try:
            reduced, _ = prog.reduce(name, r["verdict"], table)
        except Exception as e:  # noqa: BLE001
            reduced = f"// reduction failed: {type(e).__name__}: {e}\n" + prog.text
    safe = "".join(ch if ch.isalnum() else "_" for ch in name).strip("_")
    path = os.path.join(d, f"s{prog.seed}_{prog.index}_{safe}_{r['verdict']}.json")
    doc = {"seed": prog.seed, "index": prog.index, "pass": name, "verdict": r["verdict"],
           "detail": (r.get("detail") or "")[:4000],
           "reproduce": f"python fuzz/pass_fuzz.py --seed {prog.seed} --only {prog.index} --pass '{name}' -v",
           "reduced": reduced, "program": prog.text,
           "inputs": _json_inputs(prog.inputs) if prog.mod is not None else None}
    with open(path, "w") as fh:
        json.dump(doc, fh, indent=1)
    return path


# ---------------------------------------------------------------------------
# the worker and the campaign


def _exit_with_parent(parent: int) -> None:
    """The worker (its own session, so a timeout can kill its group) exits when the
    campaign does."""
    import threading

    def watch():
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)
    threading.Thread(target=watch, daemon=True).start()


def _worker_main(conn, opts: dict) -> None:
    parent = os.getppid()
    os.setsid()
    _exit_with_parent(parent)
    table = opts["table"]
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        seed, index, names = msg
        try:
            prog = Program(seed, index, n_ops=opts["ops"])
        except BaseException as e:  # noqa: BLE001
            for n in names:
                conn.send((n, {"verdict": "interp_error", "detail": f"{type(e).__name__}: {e}", "changed": False},
                           None))
            continue
        for n in names:
            r = prog.check(n, table)
            path = None
            if r["verdict"] in FINDINGS and opts.get("findings_dir"):
                try:
                    path = save_finding(opts["findings_dir"], prog, n, r, table, reduce=opts.get("reduce", True))
                except Exception as e:  # noqa: BLE001
                    r["detail"] += f"\n(saving the finding failed: {type(e).__name__}: {e})"
            r["ops"] = prog.gen.ops_used
            conn.send((n, r, path))


class Worker:
    def __init__(self, opts: dict) -> None:
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, opts), daemon=True)
        self.proc.start()

    def kill(self) -> None:
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


def campaign(seed: int, indices: Sequence[int], names: Sequence[str], opts: dict, timeout: float = 60.0,
             log=None) -> dict:
    """Runs every pass of ``names`` on programs ``(seed, i)``; returns per-pass counts."""
    counts = {n: collections.Counter({v: 0 for v in VERDICTS}) for n in names}
    changed = collections.Counter()
    ops = collections.Counter()
    findings = []
    worker = None
    t0 = time.time()
    for i in indices:
        todo = list(names)
        seen_ops = False
        while todo:
            if worker is None or not worker.proc.is_alive():
                worker = Worker(opts)
            worker.conn.send((seed, i, todo))
            while todo:
                n = todo[0]
                if not worker.conn.poll(timeout):
                    r, path = {"verdict": "timeout", "detail": f"no answer in {timeout:.0f} s", "changed": False}, None
                    worker.kill()
                    worker = None
                else:
                    try:
                        n2, r, path = worker.conn.recv()
                    except (EOFError, OSError):
                        r, path = {"verdict": "pass_error", "changed": False,
                                   "detail": f"the worker died (exit code {worker.proc.exitcode})"}, None
                        worker.kill()
                        worker = None
                todo.pop(0)
                counts[n][r["verdict"]] += 1
                if r.get("changed"):
                    changed[n] += 1
                if not seen_ops and r.get("ops"):
                    ops.update(set(r["ops"]))
                    seen_ops = True
                if r["verdict"] in FINDINGS:
                    findings.append({"seed": seed, "index": i, "pass": n, "verdict": r["verdict"],
                                     "detail": r.get("detail", ""), "file": path})
                if log and (r["verdict"] != "pass" or opts.get("verbose")):
                    msg = (r.get("detail") or "").strip().splitlines()
                    log(f"[{seed}:{i}] {n}: {r['verdict']}" + (f": {msg[0][:300]}" if msg else ""))
                if worker is None:
                    break
        done = i - indices[0] + 1
        if log and opts.get("progress") and done % opts["progress"] == 0:
            bad = sum(c[v] for c in counts.values() for v in FINDINGS)
            log(f"[{seed}] {done} programs, {time.time() - t0:.0f} s, {bad} findings")
    if worker is not None:
        worker.close()
    return {"seed": seed, "programs": len(indices), "counts": counts, "changed": changed, "ops": ops,
            "findings": findings, "seconds": time.time() - t0}


def summary_table(results: List[dict], names: Sequence[str]) -> str:
    rows = ["| pass | programs | changed | pass | mismatch | pass_error | verify_error | interp_error | timeout |",
            "|---|---|---|---|---|---|---|---|---|"]
    for n in names:
        c = collections.Counter()
        ch = 0
        progs = 0
        for r in results:
            c.update(r["counts"][n])
            ch += r["changed"][n]
            progs += r["programs"]
        rows.append(f"| {n} | {progs} | {ch} | {c['pass']} | {c['mismatch']} | {c['pass_error']} | "
                    f"{c['verify_error']} | {c['interp_error']} | {c['timeout']} |")
    return "\n".join(rows)


def _git_commit() -> str:
    try:
        return subprocess.check_output(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, text=True).strip()
    except Exception:  # noqa: BLE001
        return "unknown"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pass", dest="passes", action="append", default=None,
                    help="a pass (class name in relay_mlir.transform, or a variant); repeatable; default all")
    ap.add_argument("--list", action="store_true", help="list the passes found and exit")
    ap.add_argument("--seed", type=int, nargs="+", default=[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--only", type=int, help="run one program (index) in this process")
    ap.add_argument("--ops", type=int, default=10, help="nodes per program")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per (program, pass)")
    ap.add_argument("--findings-dir", default=os.path.join(HERE, "pass_findings"))
    ap.add_argument("--no-reduce", action="store_true", help="save findings without shrinking them")
    ap.add_argument("--md", help="append the counts to this markdown file")
    ap.add_argument("--json", help="write the counts and findings to this file")
    ap.add_argument("--print", action="store_true", help="with --only: print the program (and reduced findings)")
    ap.add_argument("--progress", type=int, default=0, help="print a line every N programs")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    table = discover_passes()
    table = with_sequential(table)
    if a.list:
        print("\n".join(table))
        return 0
    names = a.passes or list(table)
    for n in names:
        if n not in table:
            ap.error(f"unknown pass {n!r} (known: {', '.join(table)})")
    if a.only is not None:
        prog = Program(a.seed[0], a.only, n_ops=a.ops, verbose=a.verbose)
        if a.print or a.verbose:
            print(prog.text)
            print("nodes:", " ".join(prog.gen.ops_used))
        bad = 0
        for n in names:
            r = prog.check(n, table)
            print(f"{n}: {r['verdict']}" + (" (changed)" if r.get("changed") else ""))
            if r["verdict"] != "pass" and (a.verbose or r["verdict"] in FINDINGS):
                print("  " + (r.get("detail") or "").replace("\n", "\n  "))
            if r["verdict"] in FINDINGS:
                bad += 1
                if a.print and prog.mod is not None:
                    text, _ = prog.reduce(n, r["verdict"], table)
                    print("reduced:\n" + text)
        return 1 if bad else 0
    opts = {"table": table, "ops": a.ops, "findings_dir": a.findings_dir, "reduce": not a.no_reduce,
            "verbose": a.verbose, "progress": a.progress}
    results = [campaign(s, range(a.start, a.start + a.count), names, opts, a.timeout,
                        log=lambda m: print(m, flush=True)) for s in a.seed]
    print(summary_table(results, names))
    ops = collections.Counter()
    for r in results:
        ops.update(r["ops"])
    print(f"\nnode kinds used ({len(ops)}; programs containing each): "
          + ", ".join(f"{k} {n}" for k, n in sorted(ops.items())))
    findings = [f for r in results for f in r["findings"]]
    for f in findings:
        msg = (f.get("detail") or "").strip().splitlines()
        print(f"[{f['seed']}:{f['index']}] {f['pass']}: {f['verdict']}: {msg[0][:300] if msg else ''}")
    secs = sum(r["seconds"] for r in results)
    if a.md:
        lines = [f"### Run of {time.strftime('%Y-%m-%d')} on {_git_commit()}", "",
                 f"`python fuzz/pass_fuzz.py --seed {' '.join(map(str, a.seed))} --count {a.count}"
                 + (f" --start {a.start}" if a.start else "") + f" --ops {a.ops}"
                 + "".join(f" --pass '{n}'" for n in (a.passes or [])) + f"` ({secs:.0f} s)", "",
                 summary_table(results, names), ""]
        with open(a.md, "a") as fh:
            fh.write("\n".join(lines) + "\n")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"commit": _git_commit(), "passes": names, "seconds": secs,
                       "results": [{"seed": r["seed"], "programs": r["programs"], "seconds": r["seconds"],
                                    "counts": {n: dict(c) for n, c in r["counts"].items()},
                                    "changed": dict(r["changed"]), "ops": dict(r["ops"]),
                                    "findings": r["findings"]} for r in results]}, fh, indent=1)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
