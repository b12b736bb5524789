"""ONNX ``Loop`` and ``Scan``: Relay loops.

Both become what Relay writes a loop as: a self-tail-recursive global function
(``relay-eliminate-recursion`` compiles it to a loop). Its parameters are the
iteration number, the condition, the loop-carried values, the scan outputs so
far and whatever else the body reads (the free variables of the body as
converted, e.g. the graph's inputs); it runs the body's nodes, converted in the
enclosing scope with the body's inputs bound to its parameters, and calls
itself with the next values while the loop goes on:

    loop(i, cond, v..., ys...) =
        if i < trip_count and cond:
            cond', v'..., y... = body(i, cond, v...)
            loop(i + 1, cond', v'..., concat(ys, [y])...)
        else (v..., ys...)

* ``Loop`` (opset 11+): the trip count and the condition are optional run-time
  values; the scan outputs are the body's per-iteration values stacked on a new
  first axis (a loop of 0 iterations gives 0 rows).
* ``Scan``: a trip count of the scan inputs' length along their
  ``scan_input_axes`` (equal, checked at run time when not known at import);
  iteration ``i`` binds the body's scan inputs to slice ``i`` (or ``L-1-i``
  for ``scan_input_directions`` 1), and the scan outputs are stacked along
  ``scan_output_axes``, reversed for ``scan_output_directions`` 1. Scan-8 (a
  batch axis, ``sequence_lens``) is one scan per element of a static batch.

A loop-carried value keeps its rank and dtype; one whose size changes from
one iteration to the next (a sequence growing by a token a step) gets `?`
in the dims that change (the body is converted again with them); otherwise
a body value with run-time dims is checked at run time to have the
parameter's shape (never a reinterpretation). A scan output's per-iteration slice needs a
shape known at import (the empty initial stack is built from it).
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import numpy as np

from .. import expr as E
from ..analysis import free_vars
from ..ty import TupleType
from .onnx_ops import Node
from .onnx_ops._base import _value_type, fmt_shape, relay_type, to_relay_shape
from .onnx_ops._symshape import depend, runtime_check

def _body_graph(node, ctx: Node):
    attrs = {a.name: a for a in node.attribute}
    if "body" not in attrs or not attrs["body"].HasField("g"):
        raise ctx.invalid("attribute 'body' (a graph) is missing")
    g = attrs["body"].g
    if g.sparse_initializer:
        raise ctx.unsupported("sparse initializers in the body")
    return g


def _type_of(ctx: Node, e: E.Expr, what: str) -> Tuple[Tuple[Optional[int], ...], str]:
    t = relay_type(e, ctx.globals)
    if t is None:
        raise ctx.unsupported(f"cannot type {what} (not a tensor, or its type depends on the "
                              "iteration)")
    return t


def _i64(ctx: Node, v: int) -> E.Expr:
    return ctx.constant(np.array(v, np.int64))


def _scalar(ctx: Node, e: E.Expr, dtype: str, what: str) -> E.Expr:
    """``e`` (one element) as a 0-d ``dtype`` tensor."""
    shape, dt = _type_of(ctx, e, what)
    if dt != dtype:
        raise ctx.invalid(f"{what} must be {dtype}, got {dt}")
    if any(d is not None and d != 1 for d in shape):
        raise ctx.invalid(f"{what} must hold one element, got shape {fmt_shape(shape)}")
    return e if len(shape) == 0 else ctx.op("reshape")(e, newshape=[])


def _changed_dims(ctx: Node, nxt: E.Expr, ptype, what: str) -> set:
    """The dims in which the body's next value of a carried value has another static size than
    the parameter (a value growing or shrinking from one iteration to the next); a change of
    rank or dtype is refused."""
    shape, dtype = ptype
    ntype = _type_of(ctx, nxt, what)
    if ntype[1] != dtype or len(ntype[0]) != len(shape):
        raise ctx.unsupported(f"{what} changes type from {dtype}{fmt_shape(shape)} to "
                              f"{ntype[1]}{fmt_shape(ntype[0])} (a loop-carried value keeps its "
                              "rank and dtype)")
    return {k for k, (a, b) in enumerate(zip(ntype[0], shape))
            if a is not None and b is not None and a != b}


def _carry(ctx: Node, nxt: E.Expr, param: E.Var, ptype, what: str) -> E.Expr:
    """``nxt`` passed on as the parameter ``param`` of type ``ptype``: as it is where its type
    is the parameter's or more static (relay-infer-type casts it to a `?` dim), else checked at
    run time to have the parameter's run-time shape (no reinterpretation)."""
    shape, _ = ptype
    ntype = _type_of(ctx, nxt, what)
    if all(b is None or a == b for a, b in zip(ntype[0], shape)):
        return nxt
    want = ctx.op("shape_of")(param, dtype="int64")
    same = ctx.op("all")(ctx.op("equal")(ctx.op("shape_of")(nxt, dtype="int64"), want))
    nxt = depend(ctx, nxt, runtime_check(ctx, same))
    if all(d is not None for d in shape):
        return ctx.op("reshape")(nxt, newshape=list(shape))
    return ctx.op("reshape")(nxt, want)


def _declared_slice(ctx: Node, s: E.Expr, shape, vi, k: int):
    """A scan output slice whose inferred shape has run-time dims, given the static shape the
    body declares for it (checked at run time: a slice of another shape is an error)."""
    decl = _value_type(vi)
    want = decl[0] if decl is not None else None
    if want is None or len(want) != len(shape) or any(d is None for d in want) or any(
            a is not None and a != b for a, b in zip(shape, want)):
        raise ctx.unsupported(f"scan output {k} has a slice of shape {fmt_shape(shape)} "
                              "(run-time dims in a scan output's slice are not supported)")
    same = ctx.op("all")(ctx.op("equal")(ctx.op("shape_of")(s, dtype="int64"),
                                         ctx.constant(np.array(want, np.int64))))
    s = depend(ctx, s, runtime_check(ctx, same))
    return ctx.op("reshape")(s, newshape=list(want)), tuple(want)


def _run(imp, idx: int, node, ctx: Node, g, *, trip: Optional[E.Expr], cond0: Optional[E.Expr],
         inits: Sequence[E.Expr], bind, n_carried_out: int, has_cond_out: bool):
    """The recursive loop; returns (final carried values, stacked scan outputs).

    ``bind(i, cond, carried, trip)`` gives the expressions bound to the body's inputs; the body's
    outputs are [cond_out] if ``has_cond_out``, then ``n_carried_out`` carried values, then
    the scan outputs' slices."""
    kind = node.op_type.lower()
    bound_vars: List[Tuple[E.Var, E.Expr]] = []
    if trip is not None:  # computed once, before the loop
        tv = E.var("trip_count", shape=(), dtype="int64")
        bound_vars.append((tv, trip))
        trip = tv
    i = E.var("i", shape=(), dtype="int64")
    cond = E.var("cond", shape=(), dtype="bool")
    ptypes = [_type_of(ctx, v, f"loop-carried value {j}") for j, v in enumerate(inits)]
    n_out = (1 if has_cond_out else 0) + n_carried_out
    mark = len(ctx.globals)
    for attempt in (0, 1):
        carried = [E.var(f"v{j}", shape=to_relay_shape(t[0]), dtype=t[1])
                   for j, t in enumerate(ptypes)]
        bound = bind(i, cond, carried, trip)
        if len(bound) != len(g.input):
            raise ctx.invalid(f"the body has {len(g.input)} inputs, the {node.op_type} gives it "
                              f"{len(bound)}")
        binds = []
        for vi, e in zip(g.input, bound):
            t = relay_type(e, ctx.globals)
            binds.append((vi.name, e, (t[0], t[1]) if t is not None else None))
        outs, _ = imp._branch_results(idx, "body", g, ctx, bind=binds)
        if len(outs) < n_out:
            raise ctx.invalid(f"the body has {len(outs)} outputs, at least {n_out} expected")
        outs = [ctx.constant(o) if isinstance(o, np.ndarray) else getattr(o, "expr", o)
                for o in outs]
        changed = [_changed_dims(ctx, o, t, f"loop-carried value {j}")
                   for j, (o, t) in enumerate(zip(outs[n_out - n_carried_out:n_out], ptypes))]
        if not any(changed):
            break
        if attempt == 1:
            j = next(j for j, c in enumerate(changed) if c)
            raise ctx.unsupported(f"loop-carried value {j} changes size in dims {sorted(changed[j])} "
                                  "even as a run-time size")
        # a value that changes size from one iteration to the next: its parameter gets `?` in
        # those dims and the body is converted again (what the first try built is dropped)
        ptypes = [(tuple(None if k in c else d for k, d in enumerate(t[0])), t[1])
                  for t, c in zip(ptypes, changed)]
        del ctx.globals[mark:]
    cond_next = _scalar(ctx, outs[0], "bool", "the body's condition output") if has_cond_out \
        else cond
    nxt = [_carry(ctx, o, p, t, f"loop-carried value {j}")
           for j, (o, p, t) in enumerate(zip(outs[n_out - n_carried_out:n_out], carried, ptypes))]
    slices = outs[n_out:]
    stacks, stack_inits = [], []
    for k, s in enumerate(slices):
        shape, dtype = _type_of(ctx, s, f"scan output {k}")
        if any(d is None for d in shape):
            s, shape = _declared_slice(ctx, s, shape, g.output[n_out + k], k)
            slices[k] = s
        stacks.append(E.var(f"ys{k}", shape=to_relay_shape((None,) + shape), dtype=dtype))
        stack_inits.append(ctx.constant(np.zeros((0,) + shape, dtype)))
    grown = [ctx.op("concatenate")([y, ctx.op("expand_dims")(s, 0)], axis=0)
             for y, s in zip(stacks, slices)]
    more = cond if trip is None else ctx.op("logical_and")(ctx.op("less")(i, trip), cond)
    own = [i, cond] + carried + stacks
    step = [ctx.op("add")(i, _i64(ctx, 1)), cond_next] + nxt + grown
    extra = [v for v in free_vars(E.Tuple(step + [more])) if all(v is not o for o in own)]
    gv = ctx.new_global(f"{kind}_body")
    ret = TupleType([v.type_annotation for v in carried + stacks])
    body = E.If(more, E.Call(gv, step + extra), E.Tuple(carried + stacks))
    ctx.add_global(gv, E.Function(own + extra, body, ret, attrs={"private": 1}))
    start = cond0 if cond0 is not None else ctx.constant(np.array(True))
    res: E.Expr = E.Call(gv, [_i64(ctx, 0), start] + list(inits) + stack_inits + extra)
    for v, value in reversed(bound_vars):
        res = E.Let(v, value, res)
    got = [E.TupleGetItem(res, j) for j in range(len(carried) + len(stacks))]
    return got[:len(carried)], got[len(carried):]


def _check_attrs(node, ctx: Node, allowed: Sequence[str]) -> None:
    extra = [a.name for a in node.attribute if a.name not in allowed]
    if extra:
        raise ctx.unsupported(f"attributes {', '.join(extra)} not supported")


def convert_loop(imp, idx: int, node, ctx: Node) -> list:
    """ONNX ``Loop``: inputs (M, cond, v_initial...), outputs (v_final..., scan_outputs...)."""
    if ctx.opset < 11:
        raise ctx.unsupported("Loop before opset 11 is not supported")
    _check_attrs(node, ctx, ("body",))
    g = _body_graph(node, ctx)
    n_carried = len(node.input) - 2
    if n_carried < 0:
        raise ctx.invalid("Loop needs the inputs M and cond (either may be empty)")
    if len(g.input) != n_carried + 2:
        raise ctx.invalid(f"the body has {len(g.input)} inputs, {n_carried + 2} expected "
                          "(iteration number, condition, the loop-carried values)")
    trip = _scalar(ctx, ctx.expr(0), "int64", "the trip count M") if ctx.has(0) else None
    cond0 = _scalar(ctx, ctx.expr(1), "bool", "the condition") if ctx.has(1) else None
    inits = [ctx.expr(2 + j) for j in range(n_carried)]
    for j, e in enumerate(inits):
        if isinstance(e, E.TupleWrapper) or relay_type(e, ctx.globals) is None:
            raise ctx.unsupported(f"loop-carried value {j} is not a tensor (sequences and "
                                  "optionals are not supported)")

    def shaped(e: E.Expr, vi, dtype: str) -> E.Expr:
        decl = vi.type.tensor_type.shape.dim if vi.type.HasField("tensor_type") and \
            vi.type.tensor_type.HasField("shape") else None
        if decl is not None and len(decl) == 1:
            return ctx.op("reshape")(e, newshape=[1])
        return e

    def bind(i, cond, carried, trip):
        return [shaped(i, g.input[0], "int64"), shaped(cond, g.input[1], "bool")] + carried

    finals, stacks = _run(imp, idx, node, ctx, g, trip=trip, cond0=cond0, inits=inits,
                          bind=bind, n_carried_out=n_carried, has_cond_out=True)
    return finals + stacks


def convert_scan(imp, idx: int, node, ctx: Node) -> list:
    """ONNX ``Scan``: inputs (initial states..., scan inputs...), outputs (final states...,
    scan outputs...). Scan-8 has a leading ``sequence_lens`` input and a batch axis 0 on every
    input and output: one scan per batch element (a static batch), stacked."""
    g = _body_graph(node, ctx)
    ctx.ignore("body")
    v8 = ctx.opset < 9
    first = 1 if v8 else 0
    m = int(ctx.attr("num_scan_inputs"))
    n_state = len(node.input) - first - m
    if m < 1 or n_state < 0:
        raise ctx.invalid(f"num_scan_inputs={m} with {len(node.input)} inputs")
    k_out = len(node.output) - n_state
    if k_out < 0:
        raise ctx.invalid(f"{len(node.output)} outputs for {n_state} states")
    if v8:
        in_axes, out_axes = [0] * m, [0] * k_out
        in_dirs, out_dirs = list(ctx.attr("directions", [0] * m)), [0] * k_out
    else:
        in_axes = list(ctx.attr("scan_input_axes", [0] * m))
        in_dirs = list(ctx.attr("scan_input_directions", [0] * m))
        out_axes = list(ctx.attr("scan_output_axes", [0] * k_out))
        out_dirs = list(ctx.attr("scan_output_directions", [0] * k_out))
    if len(in_axes) != m or len(in_dirs) != m or len(out_axes) != k_out or len(out_dirs) != k_out:
        raise ctx.invalid("scan_input_axes/directions need one entry per scan input and "
                          "scan_output_axes/directions one per scan output")
    if any(d not in (0, 1) for d in in_dirs + out_dirs):
        raise ctx.invalid("scan directions must be 0 (forward) or 1 (reverse)")
    if len(g.input) != n_state + m:
        raise ctx.invalid(f"the body has {len(g.input)} inputs, {n_state + m} expected")
    _check_attrs(node, ctx, ("body", "num_scan_inputs", "directions") if v8 else
                 ("body", "num_scan_inputs", "scan_input_axes", "scan_input_directions",
                  "scan_output_axes", "scan_output_directions"))
    inits = [ctx.expr(first + j) for j in range(n_state)]
    xs = [ctx.expr(first + n_state + j) for j in range(m)]
    scan = (imp, idx, node, ctx, g, in_axes, in_dirs, out_axes, out_dirs)
    if not v8:
        finals, outs = _scan(*scan, inits, xs)
        return finals + outs
    # Scan-8: the batch axis 0 of every input and output
    batch = _type_of(ctx, (inits + xs)[0], "input 1")[0][0]
    if batch is None:
        raise ctx.unsupported("Scan-8 with a batch size known only at run time")
    if ctx.has(0):
        lens = ctx.opt_const(0, "sequence_lens")
        length = _type_of(ctx, xs[0], "scan input 0")[0][1]
        if lens is None or length is None or np.any(lens.reshape(-1) != length):
            raise ctx.unsupported("Scan-8 with sequence_lens other than the full length known "
                                  "at import")
    per = []
    for b in range(batch):
        row = [ctx.op("take")(v, _i64(ctx, b), axis=0) for v in inits + xs]
        finals, outs = _scan(*scan, row[:n_state], row[n_state:])
        per.append(finals + outs)
    return [ctx.op("stack")([p[j] for p in per], axis=0) for j in range(len(per[0]))]


def _scan(imp, idx, node, ctx: Node, g, in_axes, in_dirs, out_axes, out_dirs, inits, xs):
    """One Scan (opset 9's semantics) over ``inits`` and ``xs``: (final states, outputs)."""
    axes, lengths = [], []
    for j, x in enumerate(xs):
        shape, _ = _type_of(ctx, x, f"scan input {j}")
        axes.append(ctx.check_axis(int(in_axes[j]), len(shape), f"scan_input_axes[{j}]"))
        d = shape[axes[-1]]
        lengths.append(d if d is not None else
                       ctx.op("take")(ctx.op("shape_of")(x, dtype="int64"), _i64(ctx, axes[-1]),
                                      axis=0))
    static = [d for d in lengths if isinstance(d, int)]
    if len(set(static)) > 1:
        raise ctx.invalid(f"the scan inputs have different lengths {static}")
    length = _i64(ctx, static[0]) if static else lengths[0]
    dynamic = [d for d in lengths if not isinstance(d, int)]
    if dynamic and (static or len(dynamic) > 1):
        ok = None
        for d in dynamic:
            eq = ctx.op("equal")(d, length)
            ok = eq if ok is None else ctx.op("logical_and")(ok, eq)
        length = depend(ctx, length, runtime_check(ctx, ok))

    def bind(i, cond, carried, trip):
        last = ctx.op("subtract")(trip, _i64(ctx, 1))
        return carried + [ctx.op("take")(x, ctx.op("subtract")(last, i) if in_dirs[j] else i,
                                         axis=axes[j])
                          for j, x in enumerate(xs)]

    finals, stacks = _run(imp, idx, node, ctx, g, trip=length, cond0=None, inits=inits,
                          bind=bind, n_carried_out=len(inits), has_cond_out=False)
    outs = []
    for k, y in enumerate(stacks):
        if out_dirs[k]:
            y = ctx.op("reverse")(y, axis=0)
        rank = len(_type_of(ctx, y, f"scan output {k}")[0])
        a = ctx.check_axis(int(out_axes[k]), rank, f"scan_output_axes[{k}]")
        if a != 0:
            perm = list(range(1, rank))
            perm.insert(a, 0)
            y = ctx.op("transpose")(y, perm)
        outs.append(y)
    return finals, outs
