"""Cut a device-planned function into single-device stages (the compiled form of PlanDevices'
placement).

``split_stages(fn)`` takes ``main`` after ``PlanDevices`` and returns ``Stage``s in execution
order: each is a function of the values it reads from earlier stages (or ``main``'s parameters),
run on one device. A value crossing devices (a ``device_copy``) leaves one stage and enters a
later stage of the other device; the ``on_device`` marks are dropped. Stage ``k`` holds the
operations that come after ``k`` crossings on the longest path from the inputs (its level) on
one device, so a stage only reads values of earlier levels or of its own.

>>> import relay_mlir as relay
>>> x = relay.var("x", shape=(2,))
>>> e = relay.device_copy(relay.exp(x), "cpu", "vulkan")
>>> fn = relay.Function([x], relay.log(e)); x.virtual_device_ = "cpu"; fn.virtual_device_ = "vulkan"
>>> [(s.name, s.device, [str(v) for v in s.inputs]) for s in split_stages(fn)]
[('stage0_cpu', 'cpu', ['param:0']), ('stage1_vulkan', 'vulkan', ['node:1'])]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple as PyTuple

from ..annotation import DEVICE_COPY, ON_DEVICE, is_call_of as _is
from ..interpreter import _children
from ..errors import CompileError
from ..expr import Call, Constant, Expr, Function, GlobalVar, If, Op, Tuple, TupleGetItem, Var
from ..ty import TupleType

__all__ = ["Stage", "ValueRef", "split_stages", "result_refs", "constant_results", "stage_function"]


@dataclass(frozen=True)
class ValueRef:
    """A value passed between stages: ``main``'s parameter ``index`` or node ``index``."""

    kind: str  # "param", "node" or "const" (a constant result)
    index: int

    def __str__(self) -> str:
        return f"{self.kind}:{self.index}"


@dataclass
class Stage:
    """``fn`` (parameters = ``inputs``, results = ``outputs``) runs on ``device``."""

    name: str
    device: str
    level: int
    inputs: List[ValueRef] = field(default_factory=list)
    outputs: List[ValueRef] = field(default_factory=list)
    nodes: List[Expr] = field(default_factory=list)
    fn: Optional[Function] = None
    input_sizes: List[int] = field(default_factory=list)   # tensors per input value
    output_sizes: List[int] = field(default_factory=list)  # tensors per output value


def _post_order(body: Expr) -> List[Expr]:
    order, seen, stack = [], set(), [(body, False)]
    while stack:
        e, ready = stack.pop()
        if id(e) in seen:
            continue
        if ready or not _kids(e):
            seen.add(id(e))
            order.append(e)
            continue
        stack.append((e, True))
        stack.extend((k, False) for k in reversed(_kids(e)))
    return order


def _kids(e: Expr) -> List[Expr]:
    if isinstance(e, Call) and not isinstance(e.op, (Op, GlobalVar)):
        raise CompileError("compiling for several devices: main calls a function value; only "
                           "first-order dataflow (operator and global calls, tuples, ifs) is staged")
    if isinstance(e, (Call, Tuple, TupleGetItem)):
        return _children(e)
    if isinstance(e, If):
        return _if_inputs(e)
    if isinstance(e, (Var, Constant, GlobalVar)):
        return []
    raise CompileError(f"compiling for several devices: main contains a {type(e).__name__}; only "
                       "first-order dataflow (operator and global calls, tuples, ifs) is staged")


def _if_inputs(e: If) -> List[Expr]:
    """What an ``if`` reads from outside: an ``if`` is staged whole, on one device, so its
    inputs are the parameters and the copies from other devices it reads (what else it reads
    is computed inside its stage)."""
    found, seen, stack = [], set(), [e.cond, e.true_branch, e.false_branch]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, Var) or _is(x, DEVICE_COPY):
            found.append(x)
        elif isinstance(x, (Call, Tuple, TupleGetItem, If)):
            stack.extend(reversed(_kids(x) if not isinstance(x, If) else
                                  [x.cond, x.true_branch, x.false_branch]))
        elif not isinstance(x, (Constant, GlobalVar)):
            _kids(x)  # refuses what is not staged
    return found


class _Placement:
    """Device and level of every node of the planned body."""

    def __init__(self, fn: Function) -> None:
        self.fn = fn
        self.result = getattr(fn, "virtual_device_", None)
        devices = getattr(fn, "param_virtual_devices", None) or [
            getattr(p, "virtual_device_", None) for p in fn.params]
        self.param_index = {id(p): i for i, p in enumerate(fn.params)}
        self.device: Dict[int, Optional[str]] = {id(p): d for p, d in zip(fn.params, devices)}
        self.level: Dict[int, int] = {id(p): 0 for p in fn.params}

    def place(self, e: Expr) -> None:
        kids = _kids(e)
        if isinstance(e, Var) and id(e) not in self.device:
            raise CompileError(f"compiling for several devices: '{e.name_hint}' is not a "
                               "parameter of main")
        if isinstance(e, (Var, Constant, GlobalVar)):
            self.device.setdefault(id(e), None)
            self.level.setdefault(id(e), 0)
            return
        if _is(e, DEVICE_COPY):
            self.device[id(e)] = e.attrs["dst_virtual_device"]
            self.level[id(e)] = self.level[id(kids[0])] + 1
            return
        dev = e.attrs["virtual_device"] if _is(e, ON_DEVICE) else next(
            (self.device[id(k)] for k in kids if self.device[id(k)] is not None), None)
        self.device[id(e)] = dev
        self.level[id(e)] = max((self.level[id(k)] for k in kids), default=0)


def result_refs(fn: Function) -> List[ValueRef]:
    """``main``'s results as values (the fields of a result tuple); a constant result is
    ``ValueRef("const", node index)`` (no stage computes it: see ``constant_results``)."""
    order = _post_order(fn.body)
    index = {id(e): i for i, e in enumerate(order)}
    parts = list(fn.body.fields) if isinstance(fn.body, Tuple) else [fn.body]
    refs = []
    for p in parts:
        p = _strip(p)
        kind = "param" if isinstance(p, Var) else "const" if isinstance(p, Constant) else "node"
        refs.append(ValueRef("param", fn.params.index(p)) if kind == "param"
                    else ValueRef(kind, index[id(p)]))
    return refs


def constant_results(fn: Function) -> Dict[ValueRef, object]:
    """The constants among ``main``'s results, by their ``ValueRef``."""
    order = _post_order(fn.body)
    return {r: order[r.index].data for r in result_refs(fn) if r.kind == "const"}


def split_stages(fn: Function) -> List[Stage]:
    """The stages of a ``PlanDevices`` result (see the module doc)."""
    order = _post_order(fn.body)
    where = _Placement(fn)
    for e in order:
        where.place(e)
    default = where.result or "cpu"
    index = {id(e): i for i, e in enumerate(order)}
    stages: Dict[PyTuple[int, str], Stage] = {}
    home: Dict[int, Stage] = {}
    for e in order:
        if isinstance(e, (Var, Constant, GlobalVar)) or _is(e, DEVICE_COPY):
            continue
        if e is fn.body and isinstance(e, Tuple):
            continue  # a result tuple: its fields are the results
        key = (where.level[id(e)], where.device[id(e)] or default)
        st = stages.get(key)
        if st is None:
            st = stages[key] = Stage(f"stage{len(stages)}_{key[1]}", key[1], key[0])
        st.nodes.append(e)
        home[id(e)] = st

    def ref(e: Expr) -> ValueRef:
        while _is(e, DEVICE_COPY):
            e = e.args[0]
        if isinstance(e, Var):
            return ValueRef("param", where.param_index[id(e)])
        return ValueRef("node", index[id(e)])

    for st in stages.values():
        for e in st.nodes:
            for k in _kids(e):
                if isinstance(k, (Constant, GlobalVar)) or (id(k) in home and home[id(k)] is st):
                    continue
                r = ref(k)
                if r not in st.inputs:
                    st.inputs.append(r)
                src = home.get(id(k.args[0] if _is(k, DEVICE_COPY) else k))
                if src is not None and r not in src.outputs:
                    src.outputs.append(r)
    _mark_result(fn.body, home, ref)
    ordered = sorted(stages.values(), key=lambda s: (s.level, s.device != default, s.device))
    for i, st in enumerate(ordered):
        st.name = f"stage{i}_{st.device}"
    return ordered


def _strip(e: Expr) -> Expr:
    while _is(e, DEVICE_COPY):
        e = e.args[0]
    return e


def _mark_result(body: Expr, home, ref) -> None:
    """``main``'s result: the fields of a result tuple (or the value) are stage outputs."""
    parts = list(body.fields) if isinstance(body, Tuple) else [body]
    for p in parts:
        st = home.get(id(_strip(p)))
        r = ref(p)
        if st is not None and r not in st.outputs:
            st.outputs.append(r)


def _flat(expr: Expr, t) -> PyTuple[List[Expr], List[object]]:
    """The tensors of a value of type ``t`` (a tuple's fields, depth first) as projections of
    ``expr``, with their types: values cross stages as flat tensors (IREE's ABI)."""
    if not isinstance(t, TupleType):
        return [expr], [t]
    exprs, types = [], []
    for i, ft in enumerate(t.fields):
        e, ty = _flat(TupleGetItem(expr, i), ft)
        exprs += e
        types += ty
    return exprs, types


def _unflat(params: List[Var], t) -> Expr:
    """The value of type ``t`` rebuilt from its flat tensors (consumed from ``params``)."""
    if not isinstance(t, TupleType):
        return params.pop(0)
    return Tuple([_unflat(params, ft) for ft in t.fields])


def stage_function(st: Stage, fn: Function, type_of) -> Function:
    """``st`` as a relay function: its inputs become parameters typed by ``type_of(expr)``
    (a tuple-typed input one parameter per tensor), ``on_device`` marks are dropped, its
    outputs' tensors are the result (a tuple if several). Sets ``st.input_sizes`` /
    ``st.output_sizes``: how many tensors each input / output value is."""
    order = _post_order(fn.body)
    by_ref = {ValueRef("node", i): e for i, e in enumerate(order)}
    by_ref.update({ValueRef("param", i): p for i, p in enumerate(fn.params)})
    params, new = [], {}
    st.input_sizes, st.output_sizes = [], []
    for r in st.inputs:
        src = by_ref[r]
        name = src.name_hint if isinstance(src, Var) else f"v{r.index}"
        types = _flat(src, type_of(src))[1]
        vs = [Var(name if len(types) == 1 else f"{name}_{k}", t) for k, t in enumerate(types)]
        params += vs
        st.input_sizes.append(len(vs))
        new[id(src)] = _unflat(list(vs), type_of(src))

    def get(e: Expr) -> Expr:
        e = _strip(e)
        if id(e) in new:
            return new[id(e)]
        if isinstance(e, (Constant, GlobalVar)):
            return e
        raise CompileError(f"{st.name}: a value of another stage is not among its inputs")

    def rebuild(e: Expr) -> Expr:
        """``e`` with the stage's values (an ``if``'s branches are rebuilt whole)."""
        e = _strip(e) if not _is(e, ON_DEVICE) else e
        if id(e) in new or isinstance(e, (Constant, GlobalVar, Var)):
            return get(e)
        if _is(e, ON_DEVICE):
            out = rebuild(e.args[0])
        elif isinstance(e, Call):
            out = Call(e.op, [rebuild(a) for a in e.args], dict(e.attrs))
        elif isinstance(e, Tuple):
            out = Tuple([rebuild(f) for f in e.fields])
        elif isinstance(e, If):
            out = If(rebuild(e.cond), rebuild(e.true_branch), rebuild(e.false_branch))
        else:
            out = TupleGetItem(rebuild(e.tuple_value), e.index)
        new[id(e)] = out
        return out

    for e in st.nodes:
        rebuild(e)
    outs = []
    for r in st.outputs:
        tensors = _flat(get(by_ref[r]), type_of(_strip(by_ref[r])))[0]
        outs += tensors
        st.output_sizes.append(len(tensors))
    return Function(params, outs[0] if len(outs) == 1 else Tuple(outs))
