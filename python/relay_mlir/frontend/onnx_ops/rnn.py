"""ONNX recurrent layers: LSTM, GRU and RNN, unrolled over the static sequence length.

Each direction projects every time step at once (``dense(X, W) + Wb + Rb``),
then per step adds ``dense(H, R)``, splits the gates (ONNX orders: LSTM
``iofc``, GRU ``zrh``) and applies the cell equations of the ONNX spec.
``sequence_lens`` masks the steps past a sequence's length: the state stops
updating (so ``Y_h``/``Y_c`` are the states at the last valid step; the
reverse direction starts at ``length - 1``), ``Y`` is zero there, and a
zero-length sequence gives zero final states (onnxruntime's behaviour).

Semantics follow onnxruntime where the spec leaves room:

* ``clip`` bounds every gate pre-activation (not the cell state before ``h``);
* ``activation_alpha``/``activation_beta`` are consumed in order by the
  activations that take them (onnxruntime's rule); a list with values left
  over, or an ``Affine``/``ScaledTanh``/``ThresholdedRelu`` without explicit
  parameters (onnxruntime's defaults differ from the ONNX operators'), is
  rejected as ambiguous;
* ``input_forget`` couples the forget gate to the input gate: ``f = 1 - i``.

Rejected (``UnsupportedError``): a dynamic sequence length, element types
other than float32 (float64 tanh does not compile for llvm-cpu yet and
onnxruntime has no float64 LSTM to check against), constant
``sequence_lens`` outside ``[0, seq_length]``. Run-time ``sequence_lens``
are not range-checked: a length above ``seq_length`` runs every step.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np

from ... import expr as E
from ...analysis import free_vars
from ...ty import TupleType
from ._base import Node, fmt_shape, register, relay_type, to_relay_shape
from ._symshape import Dim, elems_expr, runtime_check

# gates per cell, default activations per direction
_GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}
_DEFAULT_ACTS = {"LSTM": ["Sigmoid", "Tanh", "Tanh"], "GRU": ["Sigmoid", "Tanh"], "RNN": ["Tanh"]}

# lower-case name -> (takes alpha, takes beta, default alpha, default beta); a None
# default means the parameter must be given (onnxruntime and ONNX disagree on it)
_ACTS = {
    "relu": (False, False, None, None),
    "tanh": (False, False, None, None),
    "sigmoid": (False, False, None, None),
    "softsign": (False, False, None, None),
    "softplus": (False, False, None, None),
    "leakyrelu": (True, False, 0.01, None),
    "thresholdedrelu": (True, False, None, None),
    "elu": (True, False, 1.0, None),
    "hardsigmoid": (True, True, 0.2, 0.5),
    "affine": (True, True, None, None),
    "scaledtanh": (True, True, None, None),
}


class _Act:
    """One activation function with its parameters."""

    def __init__(self, name: str, alpha: Optional[float], beta: Optional[float]) -> None:
        self.name, self.alpha, self.beta = name, alpha, beta

    def __call__(self, n: Node, x):
        k = self.name.lower()
        s = n.scalar
        if k == "sigmoid":
            return n.op("sigmoid")(x)
        if k == "tanh":
            return n.op("tanh")(x)
        if k == "relu":
            return n.op("maximum")(x, s(0.0))
        if k == "leakyrelu":
            return n.op("add")(n.op("maximum")(x, s(0.0)),
                               n.op("multiply")(s(self.alpha), n.op("minimum")(x, s(0.0))))
        if k == "thresholdedrelu":
            return n.op("where")(n.op("greater")(x, s(self.alpha)), x, s(0.0))
        if k == "elu":
            neg = n.op("subtract")(n.op("exp")(n.op("minimum")(x, s(0.0))), s(1.0))
            return n.op("add")(n.op("maximum")(x, s(0.0)), n.op("multiply")(s(self.alpha), neg))
        if k == "hardsigmoid":
            y = n.op("add")(n.op("multiply")(s(self.alpha), x), s(self.beta))
            return n.op("minimum")(n.op("maximum")(y, s(0.0)), s(1.0))
        if k == "affine":
            return n.op("add")(n.op("multiply")(s(self.alpha), x), s(self.beta))
        if k == "scaledtanh":
            return n.op("multiply")(s(self.alpha), n.op("tanh")(n.op("multiply")(s(self.beta), x)))
        if k == "softsign":
            return n.op("divide")(x, n.op("add")(n.op("abs")(x), s(1.0)))
        if k == "softplus":
            return n.op("log")(n.op("add")(n.op("exp")(x), s(1.0)))
        raise n.unsupported(f"activation {self.name}")  # pragma: no cover - checked in _activations


def _activations(n: Node, per_dir: int, num_dir: int) -> List[List[_Act]]:
    names = n.attr("activations", None)
    if names is None:  # (an empty list is rejected below, as onnxruntime does)
        names = _DEFAULT_ACTS[n.op_type] * num_dir
    if len(names) != per_dir * num_dir:
        raise n.unsupported(f"{len(names)} activations given; {n.op_type} with {num_dir} "
                            f"direction(s) needs {per_dir * num_dir}")
    alphas = [float(a) for a in n.attr("activation_alpha", [])]
    betas = [float(b) for b in n.attr("activation_beta", [])]
    used = {"alpha": 0, "beta": 0}

    def take(name: str, kind: str, values: List[float], default):
        """The next activation_<kind> value (used in order), else the default."""
        if used[kind] < len(values):
            used[kind] += 1
            return values[used[kind] - 1]
        if default is None:
            raise n.unsupported(f"activation {name} without an explicit activation_{kind} "
                                "(its default differs between onnxruntime and the ONNX operator)")
        return default

    acts = []
    for name in names:
        spec = _ACTS.get(name.lower())
        if spec is None:
            raise n.unsupported(f"activation '{name}' is not supported "
                                f"(supported: {', '.join(sorted(_ACTS))})")
        takes_a, takes_b, da, db = spec
        alpha = take(name, "alpha", alphas, da) if takes_a else None
        beta = take(name, "beta", betas, db) if takes_b else None
        acts.append(_Act(name, alpha, beta))
    ai, bi = used["alpha"], used["beta"]
    if ai < len(alphas) or bi < len(betas):
        raise n.unsupported("activation_alpha/activation_beta have more values than the activations "
                            "that take parameters (ambiguous: positional or consumed in order)")
    return [acts[d * per_dir:(d + 1) * per_dir] for d in range(num_dir)]


class _Inputs:
    """Per-direction slices of the weights, biases and initial states."""

    def __init__(self, n: Node, num_dir: int, layout: int) -> None:
        self.n, self.num_dir, self.layout = n, num_dir, layout

    def part(self, i: int, d: int, lo: Optional[int] = None, hi: Optional[int] = None,
             dir_axis: int = 0):
        """Input ``i`` at direction ``d`` (removing ``dir_axis``), rows ``lo:hi`` of the axis after it."""
        n = self.n
        if n.is_const(i):
            a = np.take(n.const(i), d, axis=dir_axis)
            if lo is not None:
                a = a[lo:hi]
            return n.constant(np.ascontiguousarray(a))
        x = n.expr(i)
        begin, end, axes = [d], [d + 1], [dir_axis]
        if lo is not None:
            begin, end, axes = [d, lo], [d + 1, hi], [dir_axis, dir_axis + 1]
        x = n.op("strided_slice")(x, begin=begin, end=end, axes=axes)
        return n.op("squeeze")(x, axis=[dir_axis])

    def bias(self, d: int, lo: int, hi: int, gh: int, with_r: bool = True):
        """``Wb[lo:hi] (+ Rb[lo:hi])`` of direction ``d``, or None without B."""
        n = self.n
        if not n.has(3):
            return None
        if n.is_const(3):
            b = n.const(3)[d]
            v = b[lo:hi] + b[gh + lo:gh + hi] if with_r else b[lo:hi]
            return n.constant(np.ascontiguousarray(v))
        wb = self.part(3, d, lo, hi)
        return n.op("add")(wb, self.part(3, d, gh + lo, gh + hi)) if with_r else wb

    def rbias(self, d: int, lo: int, hi: int, gh: int):
        n = self.n
        return self.part(3, d, gh + lo, gh + hi) if n.has(3) else None

    def state(self, i: int, d: int):
        if not self.n.has(i):
            return None
        return self.part(i, d, dir_axis=0 if self.layout == 0 else 1)


def _check_shape(n: Node, i: int, want: Tuple, what: str) -> None:
    if not n.has(i):
        return
    s = n.shape(i)
    if s is None or len(s) != len(want) or any(a is not None and b is not None and a != b
                                               for a, b in zip(s, want)):
        raise n.unsupported(f"{what} has shape {fmt_shape(s)}, expected {fmt_shape(want)}")


def _rnn_common(n: Node):
    kind = n.op_type
    G = _GATES[kind]
    dt = n.dtype(0)
    if dt != "float32":
        # float64: iree-compile fails to link f64 tanh on llvm-cpu, and onnxruntime
        # (the reference) has no float64 LSTM; 16-bit floats: no reference either
        raise n.unsupported(f"element type {dt} (only float32 is supported)")
    direction = n.expect("direction", "forward", "reverse", "bidirectional", default="forward")
    num_dir = 2 if direction == "bidirectional" else 1
    layout = int(n.expect("layout", 0, 1, default=0))
    xs = n.shape(0)
    if xs is None or len(xs) != 3:
        raise n.unsupported(f"X must be 3-D, got {fmt_shape(xs)}")
    T, B, I = (xs[0], xs[1], xs[2]) if layout == 0 else (xs[1], xs[0], xs[2])
    if T == 0:
        raise n.unsupported("a sequence length of 0 (an empty sequence) is not supported")
    rs = n.shape(2)
    if rs is None or len(rs) != 3:
        raise n.unsupported(f"R must be 3-D, got {fmt_shape(rs)}")
    hs = n.attr("hidden_size", None)
    if rs[2] is None and hs is None:
        raise n.unsupported(f"the hidden size is unknown (no hidden_size, R of shape {fmt_shape(rs)})")
    H = int(rs[2]) if rs[2] is not None else int(hs)
    if hs is not None and int(hs) != H:
        raise n.unsupported(f"hidden_size={hs} does not match R of shape {fmt_shape(rs)}")
    _check_shape(n, 1, (num_dir, G * H, I), "W")
    _check_shape(n, 2, (num_dir, G * H, H), "R")
    _check_shape(n, 3, (num_dir, 2 * G * H), "B")
    _check_shape(n, 4, (B,), "sequence_lens")
    st = (num_dir, B, H) if layout == 0 else (B, num_dir, H)
    _check_shape(n, 5, st, "initial_h")
    if kind == "LSTM":
        _check_shape(n, 6, st, "initial_c")
        _check_shape(n, 7, (num_dir, 3 * H), "P")
    elif len(n) > 6 and any(n.has(i) for i in range(6, len(n))):
        raise n.unsupported(f"{kind} takes at most 6 inputs")
    clip = n.attr("clip", None)
    clip = None if clip is None else float(clip)
    if clip is not None and not clip > 0:
        raise n.unsupported(f"clip={clip} (must be positive)")
    acts = _activations(n, len(_DEFAULT_ACTS[kind]), num_dir)
    return dict(G=G, direction=direction, num_dir=num_dir, layout=layout, T=None if T is None else int(T),
                H=H, clip=clip, acts=acts, B=B)


class _Mask:
    """Which batch entries are still running at step t (None: all of them)."""

    def __init__(self, n: Node, T: int) -> None:
        self.n, self.T = n, T
        self.const: Optional[np.ndarray] = None
        self.expr = None
        self.may_be_empty = False
        if not n.has(4):
            return
        if n.dtype(4) not in ("int32", "int64"):
            raise n.unsupported(f"sequence_lens of type {n.dtype(4)}")
        if n.is_const(4):
            lens = n.const(4).astype(np.int64).reshape(-1)
            if (lens < 0).any() or (lens > T).any():
                raise n.unsupported(f"sequence_lens {lens.tolist()} outside [0, {T}]")
            if (lens == T).all():
                return
            self.const = lens
            self.may_be_empty = bool((lens == 0).any())
        else:
            self.expr = n.expr(4)
            self.may_be_empty = True

    def at(self, t):
        """[B, 1] bool mask of step t (an int, or a 0-d int64 expression), or None when every
        entry runs."""
        n = self.n
        if not isinstance(t, int):
            if self.const is None and self.expr is None:
                return None
            lens = n.constant(self.const) if self.const is not None else self.expr
            if self.const is None and n.dtype(4) != "int64":
                lens = n.op("cast")(lens, "int64")
            return n.op("expand_dims")(n.op("less")(t, lens), 1)
        if self.const is not None:
            m = t < self.const
            if m.all():
                return None
            return n.constant(m.reshape(-1, 1))
        if self.expr is not None:
            tt = n.constant(np.array(t, dtype=n.dtype(4)))
            return n.op("expand_dims")(n.op("less")(tt, self.expr), 1)
        return None

    def nonempty(self):
        """[B, 1] bool: entries with a positive length (None if all are)."""
        n = self.n
        if not self.may_be_empty:
            return None
        if self.const is not None:
            return n.constant((self.const > 0).reshape(-1, 1))
        zero = n.constant(np.array(0, dtype=n.dtype(4)))
        return n.op("expand_dims")(n.op("less")(zero, self.expr), 1)


class _RuntimeSteps:
    """The [B, k] slice at a run-time step ``t`` (0-d int64) of a [T, B, k] / [B, T, k] projection."""

    def __init__(self, n: Node, proj, time_axis: int, units: int) -> None:
        self.n, self.proj, self.time_axis = n, proj, time_axis
        self.var = None

    def __getitem__(self, t):
        if self.var is None:  # a parameter of the loop function, computed once before the loop
            self.var = _typed_var(self.n, f"proj{len(self.n.rnn_bindings)}", self.proj)
            self.n.rnn_bindings.append((self.var, self.proj))
        step = self.n.op("take")(self.var, t, axis=self.time_axis, mode="clip")
        ref = getattr(self.n, "rnn_batch", None)
        # the step drops the time axis of the typed variable (``t`` is 0-d)
        rank = len(self.var.type_annotation.shape) - 1
        return step if ref is None else _with_dims(self.n, step, {0: ref}, rank)


def _typed_var(n: Node, name: str, value):
    """A variable of ``value``'s Relay type (the loop functions' parameters must have the exact
    types of their arguments)."""
    t = relay_type(value, n.globals)
    if t is None:  # pragma: no cover - the values are tensors the importer built
        raise n.unsupported(f"cannot type the loop value '{name}'")
    return E.var(name, shape=to_relay_shape(t[0]), dtype=t[1])


def _with_dims(n: Node, v, dims, rank: Optional[int] = None):
    """``v`` with its dims ``{axis: (tensor, axis of it) or 0-d int64 size}`` made those of other
    tensors or sizes (one
    ``dyn.reshape`` per dim: its element-count check is the equality check). Inside a loop
    the parameters' run-time sizes are unrelated as far as the compiler sees; rebound to one
    parameter's, the ops combining them need no run-time broadcast (docs/design.md). ``rank``:
    ``v``'s, when the caller knows it (typing ``v`` infers the whole expression: once per step
    of a loop body, the importer's time grew with the square of the body's size)."""
    if rank is None:
        rank = len(relay_type(v, n.globals)[0])
    for axis, ref in dims.items():
        if isinstance(ref, tuple):  # (tensor, axis of it)
            src, src_axis = ref
            size = n.op("take")(n.op("shape_of")(src, dtype="int64"),
                                n.constant(np.array([src_axis], np.int64)), axis=0)
        else:                       # a 0-d int64 size
            size = n.op("reshape")(ref, [1])
        shape = n.op("shape_of")(v, dtype="int64")
        entries = [size if i == axis else n.op("take")(shape, n.constant(np.array([i], np.int64)), axis=0)
                   for i in range(rank)]
        v = n.op("reshape")(v, n.op("concatenate")(entries, axis=0), allowzero=True)
    return v


def _like(n: Node, v, param):
    """``v`` with the type of the loop parameter ``param`` (a dyn.reshape to its run-time shape:
    the element count is checked at run time, the static dims come from ``param``'s type)."""
    return n.op("reshape")(v, n.op("shape_of")(param, dtype="int64"))


def _time_steps(n: Node, proj, T: Optional[int], time_axis: int, units: int):
    """The per-step [B, k] slices of a [T, B, k] / [B, T, k] projection."""
    if T is None:
        return _RuntimeSteps(n, proj, time_axis, units)
    if T == 1:
        return [n.op("squeeze")(proj, axis=[time_axis])]
    parts = n.op("split")(proj, T, axis=time_axis)
    return [n.op("squeeze")(parts[t], axis=[time_axis]) for t in range(T)]


def _keep(n: Node, m, new, old):
    """``new`` where the mask runs, else ``old`` (zero state when None)."""
    if m is None:
        return new
    return n.op("where")(m, new, old if old is not None else n.scalar(0.0))


#: Steps per iteration of the loop over a run-time sequence length: an iteration costs the
#: host ~15 us in IREE 3.13 (a command buffer recorded and run, the carried states boxed),
#: more than a step's kernels. An iteration runs the most steps of _UNROLLS that remain,
#: else _UNROLL_LAST steps with those past the end masked (computed and discarded). Each is
#: a multiple of _UNROLL_LAST (the outputs' rows are T rounded up to it). The LSTM LM of
#: bench/DYNAMIC.md (hidden 128, batch 1), ms at 1 / 20 / 32 / 64 steps: 8 steps an
#: iteration, all masked, 0.133 / 0.285 / 0.344 / 0.683; (16), 4: 0.118 / 0.258 / 0.326 /
#: 0.617; (32, 8), 4: 0.114 / 0.264 / 0.302 / 0.577 (static at 32: 0.25), but iree-compile
#: time grows faster than the code: a model of four bidirectional/forward GRUs compiled in
#: 196 s with (32, 8), 59 s with (16).
_UNROLLS = (16,)
_UNROLL_LAST = 4


class _LoopSetup:
    """What the directions of a run-time-length loop share: the number of steps ``T`` and the
    output padding ``pad`` (0-d int64 variables bound before the loop, with the input ``xs``,
    in ``n.rnn_bindings``), the zero outputs ``y0`` [T_pad, B, H], a zero state ``zeros_bh``."""

    def __init__(self, n: Node, c) -> None:
        self.n, self.H = n, c["H"]
        self.time_axis = 0 if c["layout"] == 0 else 1
        self.batch_axis = 1 - self.time_axis
        self.x = x = n.expr(0)
        xs = n.shape(0)
        self.b_dim = xs[self.batch_axis] if xs[self.batch_axis] is not None else Dim(x, self.batch_axis)
        i64 = self.i64
        n.rnn_bindings = []
        T_val = n.op("reshape")(elems_expr(n, [Dim(x, self.time_axis)], "int64"), [])
        T_val = n.op("add")(T_val, runtime_check(n, n.op("greater_equal")(T_val, i64(1))))  # T >= 1
        self.T = E.var("T", shape=(), dtype="int64")
        n.rnn_bindings.append((self.T, T_val))
        self.zeros_bh = n.op("zeros")(self.bh_shape(), "float32")
        # the outputs: [T_pad, B, H], T rounded up to _UNROLL_LAST steps; an iteration writes its
        # steps' rows at once (forward: step t at row t; reverse: at row t + pad, so that the last
        # iteration's rows, like the first's, are in range)
        T_pad = n.op("multiply")(n.op("divide")(n.op("add")(T_val, i64(_UNROLL_LAST - 1)),
                                                i64(_UNROLL_LAST)), i64(_UNROLL_LAST))
        self.pad = E.var("pad", shape=(), dtype="int64")
        n.rnn_bindings.append((self.pad, n.op("subtract")(T_pad, T_val)))
        self.y0 = n.op("zeros")(n.op("concatenate")([n.op("reshape")(T_pad, [1]), self.bh_shape()],
                                                    axis=0), "float32")
        # the input, a loop parameter no iteration changes, for its batch size: a branch on it
        # (the few-row dense's) is the same in every iteration (relay-unswitch-loops decides it
        # once, before the loop)
        self.xs = _typed_var(n, "xs", x)
        n.rnn_bindings.append((self.xs, x))

    def i64(self, v):
        return self.n.constant(np.array(v, np.int64))

    def bh_shape(self):
        return elems_expr(self.n, [self.b_dim, self.H], "int64")


class _DirectionLoop:
    """One direction's loop over the step index t: 0 .. T-1 (forward) or T-1 .. 0 (reverse), a
    self-tail-recursive global function carrying (t, states, y); the carried values have their
    initial values' types, and keep them (_like). Masking a step past the end is a select, a
    dispatch a step in IREE: whole iterations have none."""

    def __init__(self, n: Node, s: _LoopSetup, step, mask: _Mask, init, reverse: bool) -> None:
        self.n, self.s, self.step, self.mask, self.reverse = n, s, step, mask, reverse
        self.t = E.var("t", shape=(), dtype="int64")
        self.s_v = [_typed_var(n, f"s{j}", v) for j, v in enumerate(init)]
        self.y_v = _typed_var(n, "y", s.y0)
        batch = (s.xs, s.batch_axis)   # the body sees one batch size (the input's)
        n.rnn_batch = batch
        self.states = [_with_dims(n, st, {0: batch}) for st in self.s_v]
        self.y_in = _with_dims(n, self.y_v, {1: batch})

    def one(self, t, states):
        """(next states, this step's output) after step ``t``."""
        n = self.n
        new = self.step(t, list(states))
        m = self.mask.at(t)
        return [_keep(n, m, a, b) for a, b in zip(new, states)], _keep(n, m, new[0], None)

    def iteration(self, unroll: int, masked: bool):
        """The recursive call's arguments after ``unroll`` steps from step t (which runs)."""
        n, s, t, i64 = self.n, self.s, self.t, self.s.i64
        nxt, hs = self.states, []
        for j in range(unroll):
            t_j = n.op("subtract" if self.reverse else "add")(t, i64(j)) if j else t
            after, h = self.one(t_j, nxt)
            hs.append(h)
            if masked and j:
                runs = n.op("greater_equal")(t_j, i64(0)) if self.reverse else n.op("less")(t_j, s.T)
                after = [n.op("where")(runs, a, b) for a, b in zip(after, nxt)]
            nxt = after
        # the iteration's outputs, [unroll, B, H], written to y at once (an in-place
        # update; a write per step would be an operand per step of one dispatch, and IREE
        # allows a dispatch 64 push constants)
        if self.reverse:   # steps t .. t-unroll+1 at rows t+pad-unroll+1 .. t+pad
            hs.reverse()
            first_row = n.op("add")(t, n.op("subtract")(s.pad, i64(unroll - 1)))
        else:              # steps t .. t+unroll-1 at rows t .. t+unroll-1
            first_row = t
        begin = n.op("reshape")(first_row, [1])
        y_new = n.op("strided_set")(self.y_in, n.op("stack")(hs, axis=0), begin,
                                    n.op("add")(begin, i64([unroll])), i64([1]))
        t_next = n.op("subtract" if self.reverse else "add")(t, i64(unroll))
        return [t_next] + [_like(n, v, p) for v, p in zip(nxt, self.s_v)] + [_like(n, y_new, self.y_v)]

    def remain(self, k: int):
        """Whether steps t .. t +- (k-1) exist."""
        n, i64 = self.n, self.s.i64
        if self.reverse:
            return n.op("greater_equal")(self.t, i64(k - 1))
        return n.op("less_equal")(self.t, n.op("subtract")(self.s.T, i64(k)))

    def function(self, gv):
        """The loop function: the widest iteration whose steps remain, else the last one masked."""
        branches = [(self.remain(k), self.iteration(k, masked=False)) for k in _UNROLLS]
        branches.append((self.remain(1), self.iteration(_UNROLL_LAST, masked=True)))
        own = [self.t] + self.s_v + [self.y_v]
        extra = [v for v in free_vars(E.Tuple([e for c, args in branches for e in [c] + args]))
                 if all(v is not o for o in own)]
        body = E.Tuple(list(self.s_v) + [self.y_v])   # no step remains
        for cond, args in reversed(branches):
            body = E.If(cond, E.Call(gv, args + extra), body)
        ret = TupleType([v.type_annotation for v in self.s_v] + [self.y_v.type_annotation])
        return E.Function(own + extra, body, ret, attrs={"private": 1}), extra


def _loop_direction(n: Node, cell, n_state: int, c, ins: _Inputs, mask: _Mask, s: _LoopSetup, d: int):
    """(y [T, B, H], final states) of direction ``d``, run by a loop function over the steps."""
    reverse = c["direction"] == "reverse" or d == 1
    step = cell(n, c, ins, d, s.x, s.time_axis)
    init = [ins.state(5, d)] + ([ins.state(6, d)] if n_state == 2 else [])
    init = [st if st is not None else s.zeros_bh for st in init]
    if n_state == 2 and init[0] is init[1]:
        # two zero states: two different values (a -0.0 fill), which iree-compile cannot
        # merge: its VM loses one of two loop arguments given the same buffer
        init[1] = n.op("full")(n.constant(np.array(-0.0, np.float32)), s.bh_shape(), "float32")
    loop = _DirectionLoop(n, s, step, mask, init, reverse)
    gv = n.new_global(f"{n.op_type.lower()}_steps")
    fn, extra = loop.function(gv)
    n.add_global(gv, fn)
    t0 = n.op("subtract")(s.T, s.i64(1)) if reverse else s.i64(0)
    res = E.Call(gv, [t0] + init + [s.y0] + extra)
    first = s.pad if reverse else s.i64(0)   # y's rows of steps 0 .. T-1
    begin = n.op("reshape")(first, [1])
    y_rows = n.op("strided_slice")(E.TupleGetItem(res, n_state), begin,
                                   n.op("add")(begin, n.op("reshape")(s.T, [1])))
    res = E.Tuple([E.TupleGetItem(res, j) for j in range(n_state)] + [y_rows])
    for v, value in reversed(n.rnn_bindings):
        res = E.Let(v, value, res)
    out = [E.TupleGetItem(res, j) for j in range(n_state + 1)]
    ne = mask.nonempty()
    n.rnn_bindings = n.rnn_bindings[:3]  # T, pad and xs are shared by the directions
    return out[n_state], [_keep(n, ne, st, None) for st in out[:n_state]]


def _run_loop(n: Node, cell, n_state: int, c):
    """A sequence length known only at run time: each direction is a self-tail-recursive global
    function over the steps (compiled to a loop), carrying the step index, the states and the
    outputs so far; what the steps read (the input projections, the number of steps,
    ...) are its parameters, computed once before the loop.

    A sequence length of 0 is a run-time error."""
    layout, num_dir = c["layout"], c["num_dir"]
    ins = _Inputs(n, num_dir, layout)
    mask = _Mask(n, 1 << 62)
    s = _LoopSetup(n, c)
    ys, finals = [], []
    for d in range(num_dir):
        y, final = _loop_direction(n, cell, n_state, c, ins, mask, s, d)
        ys.append(y)
        finals.append(final)
    outs = []
    if n.wants_output(0):   # ys[d]: [T, B, H]
        if layout == 0:     # [T, D, B, H]
            outs.append(n.op("stack")(ys, axis=1))
        else:               # [B, T, D, H]
            outs.append(n.op("transpose")(n.op("stack")(ys, axis=1), [2, 0, 1, 3]))
    else:
        outs.append(None)
    return outs + _final_states(n, finals, n_state, num_dir, layout)


def _final_states(n: Node, finals, n_state: int, num_dir: int, layout: int):
    """Outputs Y_h (and Y_c): the directions' final states stacked, or None when not wanted."""
    return [n.op("stack")([finals[d][j] for d in range(num_dir)], axis=0 if layout == 0 else 1)
            if n.wants_output(1 + j) else None for j in range(n_state)]


def _run(n: Node, cell, n_state: int):
    """Unrolls ``cell`` over time for each direction; returns the ONNX outputs."""
    c = _rnn_common(n)
    if c["T"] is None:
        return _run_loop(n, cell, n_state, c)
    T, layout, num_dir = c["T"], c["layout"], c["num_dir"]
    ins = _Inputs(n, num_dir, layout)
    mask = _Mask(n, T)
    time_axis = 0 if layout == 0 else 1
    x = n.expr(0)
    ys: List[List] = []      # [direction][t] -> [B, H]
    finals: List[List] = []  # [direction][state] -> [B, H]
    for d in range(num_dir):
        reverse = c["direction"] == "reverse" or d == 1
        step = cell(n, c, ins, d, x, time_axis)
        state = [ins.state(5, d)] + ([ins.state(6, d)] if n_state == 2 else [])
        y = [None] * T
        for t in (range(T - 1, -1, -1) if reverse else range(T)):
            new = step(t, state)
            m = mask.at(t)
            y[t] = _keep(n, m, new[0], None)
            state = [_keep(n, m, a, b) for a, b in zip(new, state)]
        ys.append(y)
        ne = mask.nonempty()
        finals.append([_keep(n, ne, s, None) for s in state])
    outs = []
    if n.wants_output(0):
        if layout == 0:   # [T, D, B, H]
            per_t = [n.op("stack")([ys[d][t] for d in range(num_dir)], axis=0) for t in range(T)]
            outs.append(n.op("stack")(per_t, axis=0))
        else:             # [B, T, D, H]
            per_t = [n.op("stack")([ys[d][t] for d in range(num_dir)], axis=1) for t in range(T)]
            outs.append(n.op("stack")(per_t, axis=1))
    else:
        outs.append(None)
    return outs + _final_states(n, finals, n_state, num_dir, layout)


def _project(n: Node, c, ins: _Inputs, d: int, x, time_axis: int, lo: int, hi: int, with_r: bool = True):
    """Per-step ``X_t · W[lo:hi]ᵀ + bias`` of direction ``d``."""
    w = ins.part(1, d, lo, hi) if (lo, hi) != (0, c["G"] * c["H"]) else ins.part(1, d)
    p = n.op("nn.dense")(x, w, units=hi - lo)
    b = ins.bias(d, lo, hi, c["G"] * c["H"], with_r)
    if b is not None:
        p = n.op("add")(p, b)
    return _time_steps(n, p, c["T"], time_axis, hi - lo)


def _clip(n: Node, c, x):
    if c["clip"] is None:
        return x
    return n.op("clip")(x, -c["clip"], c["clip"])


def _recur(n: Node, h, r, units: int):
    return n.op("nn.dense")(h, r, units=units)


def _lstm_cell(n: Node, c, ins: _Inputs, d: int, x, time_axis: int):
    H = c["H"]
    f_act, g_act, h_act = c["acts"][d]
    xp = _project(n, c, ins, d, x, time_axis, 0, 4 * H)
    r = ins.part(2, d)
    peep = None
    if n.has(7):
        peep = [ins.part(7, d, k * H, (k + 1) * H) for k in range(3)]   # i, o, f
    input_forget = bool(n.attr("input_forget", 0))

    def step(t, state):
        h, cs = state
        gates = xp[t] if h is None else n.op("add")(xp[t], _recur(n, h, r, 4 * H))
        parts = n.op("split")(gates, 4, axis=1)
        gi, go, gf, gc = parts[0], parts[1], parts[2], parts[3]
        if peep is not None and cs is not None:
            gi = n.op("add")(gi, n.op("multiply")(peep[0], cs))
            gf = n.op("add")(gf, n.op("multiply")(peep[2], cs))
        i = f_act(n, _clip(n, c, gi))
        if input_forget:
            f = n.op("subtract")(n.scalar(1.0), i)
        else:
            f = f_act(n, _clip(n, c, gf))
        g = g_act(n, _clip(n, c, gc))
        ig = n.op("multiply")(i, g)
        c_new = ig if cs is None else n.op("add")(n.op("multiply")(f, cs), ig)
        if peep is not None:
            go = n.op("add")(go, n.op("multiply")(peep[1], c_new))
        o = f_act(n, _clip(n, c, go))
        h_new = n.op("multiply")(o, h_act(n, c_new))
        return [h_new, c_new]
    return step


def _gru_cell(n: Node, c, ins: _Inputs, d: int, x, time_axis: int):
    H = c["H"]
    f_act, g_act = c["acts"][d]
    lbr = bool(n.attr("linear_before_reset", 0))
    xzr = _project(n, c, ins, d, x, time_axis, 0, 2 * H)
    xh = _project(n, c, ins, d, x, time_axis, 2 * H, 3 * H, with_r=not lbr)
    r_zr = ins.part(2, d, 0, 2 * H)
    r_h = ins.part(2, d, 2 * H, 3 * H)
    rb_h = ins.rbias(d, 2 * H, 3 * H, 3 * H) if lbr else None

    def step(t, state):
        (h,) = state
        zr = xzr[t] if h is None else n.op("add")(xzr[t], _recur(n, h, r_zr, 2 * H))
        parts = n.op("split")(zr, 2, axis=1)
        z = f_act(n, _clip(n, c, parts[0]))
        rg = f_act(n, _clip(n, c, parts[1]))
        if h is None:   # a zero state: every recurrent term is zero (or R's bias)
            pre = xh[t]
            if lbr and rb_h is not None:
                pre = n.op("add")(pre, n.op("multiply")(rg, rb_h))
        elif lbr:
            rh = _recur(n, h, r_h, H)
            if rb_h is not None:
                rh = n.op("add")(rh, rb_h)
            pre = n.op("add")(xh[t], n.op("multiply")(rg, rh))
        else:
            pre = n.op("add")(xh[t], _recur(n, n.op("multiply")(rg, h), r_h, H))
        hh = g_act(n, _clip(n, c, pre))
        zh = n.op("subtract")(n.scalar(1.0), z)
        h_new = n.op("multiply")(zh, hh)
        if h is not None:
            h_new = n.op("add")(h_new, n.op("multiply")(z, h))
        return [h_new]
    return step


def _rnn_cell(n: Node, c, ins: _Inputs, d: int, x, time_axis: int):
    H = c["H"]
    (f_act,) = c["acts"][d]
    xp = _project(n, c, ins, d, x, time_axis, 0, H)
    r = ins.part(2, d)

    def step(t, state):
        (h,) = state
        pre = xp[t] if h is None else n.op("add")(xp[t], _recur(n, h, r, H))
        return [f_act(n, _clip(n, c, pre))]
    return step


@register("LSTM", since=7)
def _lstm(n: Node):
    return _run(n, _lstm_cell, 2)


@register("GRU", since=7)
def _gru(n: Node):
    return _run(n, _gru_cell, 1)


@register("RNN", since=7)
def _rnn(n: Node):
    return _run(n, _rnn_cell, 1)
