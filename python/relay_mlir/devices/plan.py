"""``PlanDevices(config)``: a device for every expression and a ``device_copy`` where values
cross devices — TVM 0.19's ``relay.transform.PlanDevices`` (src/relay/transforms/
device_planner.cc), on first-order programs.

TVM 0.19's rules, mirrored:

- ``on_device(e, d)`` puts ``e`` on ``d``; its result is free to be used elsewhere unless
  ``constrain_result=True`` or it is a function's body or a let-bound value (then it is
  fixed to ``d`` too). ``device_copy(e, s, t)``: ``e`` on ``s``, the copy on ``t``.
- A primitive call, a tuple, a projection and an ``if`` share one device with their operands.
  Constraints are applied from the function's result down (pre-order, arguments left to right);
  an operand already placed on another device keeps its place and that argument edge gets its
  own copy (a value used twice on the other device is copied twice).
- Defaults, in TVM's order: an unplaced result (with everything joined to it) goes to the
  default device, unplaced parameters to the result's device, an annotation's still-free
  result stays on its body's device. Unconstrained neighbours join an annotated device through
  the values they share (``subtract(on_device(exp(add(x, y)), "cuda"), y)`` is all on cuda:
  ``y`` is read on cuda), not through the annotation itself (``add(on_device(x, "cuda"), y)``
  adds on the default device, after copying ``x``).
- Output: ``device_copy(on_device(e, s, constrain_result=True), s, t)`` at each crossing (the
  ``on_device`` is left out around variables), annotations that no longer say anything are
  dropped, and the devices are recorded as TVM does: ``param.virtual_device_`` and
  ``function.virtual_device_`` (read them with ``param_devices`` / ``result_device``).

A device name that no target of ``config`` has is an error naming the function and the
annotation. Higher-order programs (function values, calls of closures) are refused: relay-mlir
places first-order programs only.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

from ..annotation import DEVICE_COPY, ON_DEVICE, device_copy, is_call_of as _is, on_device
from ..interpreter import _children  # the sub-expressions of an expression
from ..byoc.module_pass import FunctionMapPass
from ..errors import CompileError, Diagnostic
from ..expr import Call, Expr, Function, GlobalVar, If, Let, Op, Tuple, TupleGetItem, Var
from .config import CompilationConfig

__all__ = ["PlanDevices", "plan_devices", "param_devices", "result_device"]


class _Domains:
    """Union-find over expressions (variables by identity); a root may hold a device."""

    def __init__(self) -> None:
        self.parent: Dict[int, int] = {}
        self.device: Dict[int, Optional[str]] = {}
        self.keep: List[Expr] = []  # ids stay valid while planning

    def find(self, e: Expr) -> int:
        k = id(e)
        if k not in self.parent:
            self.parent[k] = k
            self.device[k] = None
            self.keep.append(e)
        while self.parent[k] != k:
            self.parent[k] = self.parent[self.parent[k]]
            k = self.parent[k]
        return k

    def of(self, e: Expr) -> Optional[str]:
        return self.device[self.find(e)]

    def bind(self, e: Expr, device: str) -> bool:
        """Puts ``e``'s domain on ``device``; False if it is already on another one."""
        r = self.find(e)
        if self.device[r] not in (None, device):
            return False
        self.device[r] = device
        return True

    def unify(self, a: Expr, b: Expr) -> bool:
        """Joins the domains of ``a`` and ``b``; False (nothing joined) if their devices differ."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return True
        da, db = self.device[ra], self.device[rb]
        if da is not None and db is not None and da != db:
            return False
        self.parent[rb] = ra
        self.device[ra] = da or db
        return True


class _Planner:
    def __init__(self, fn: Function, name: str, config: CompilationConfig) -> None:
        self.fn, self.name, self.config = fn, name, config
        self.dom = _Domains()
        self.fixed: Set[int] = set()       # on_device calls whose result is constrained too
        self.annotations: List[Call] = []  # on_device calls, in visiting order

    def device(self, attr: str, call: Call) -> str:
        """The device ``call`` names in ``attr``; a device without a target is a
        ``CompileError`` located where the annotation was built."""
        where = f"PlanDevices: function '{self.name}': {call.op.name}"
        try:
            return self.config.check(call.attrs[attr], where)
        except ValueError as e:
            span = getattr(call, "span", None)
            loc = (span.filename, span.line, span.col) if span is not None else (None, 0, 0)
            raise CompileError(str(e), [Diagnostic("error", str(e), *loc)]) from None

    def refuse(self, e: Expr, why: str) -> None:
        raise CompileError(f"PlanDevices: function '{self.name}': {why} "
                           f"(relay-mlir places first-order programs only), at {type(e).__name__}")

    # -- phase 0 and 1: constraints, from the result down -------------------------------
    def analyze(self) -> None:
        body = self.fn.body
        if _is(body, ON_DEVICE):
            self.fixed.add(id(body))
        stack, seen = [body], set()
        while stack:
            e = stack.pop()
            if id(e) in seen:
                continue
            seen.add(id(e))
            self.constrain(e)
            stack.extend(reversed(_children(e)))

    def constrain(self, e: Expr) -> None:
        dom = self.dom
        if _is(e, ON_DEVICE):
            dev = self.device("virtual_device", e)
            self.annotations.append(e)
            dom.bind(e.args[0], dev)
            if e.attrs.get("constrain_result") or id(e) in self.fixed:
                dom.bind(e, dev)
        elif _is(e, DEVICE_COPY):
            dom.bind(e.args[0], self.device("src_virtual_device", e))
            dom.bind(e, self.device("dst_virtual_device", e))
        elif isinstance(e, Call):
            if not isinstance(e.op, (Op, GlobalVar)):
                self.refuse(e, "a call of a function value")
            for a in e.args:
                dom.unify(e, a)  # a conflict leaves the edge to a device_copy
        elif isinstance(e, (Tuple, TupleGetItem, If)):
            for a in _children(e):
                dom.unify(e, a)
        elif isinstance(e, Let):
            if _is(e.value, ON_DEVICE):
                self.fixed.add(id(e.value))
            dom.unify(e.var, e.value)
            dom.unify(e, e.body)
        elif isinstance(e, Function):
            self.refuse(e, "a function literal")

    # -- phase 3: defaults -------------------------------------------------------------
    def default(self) -> str:
        """TVM's defaults, in its order: the result (and what is joined to it) on the default
        device, then free parameters on the result's device, then a free annotation result on
        its body's device."""
        result = self.dom.of(self.fn.body) or self.config.default_device
        self.dom.bind(self.fn.body, result)
        for p in self.fn.params:
            if self.dom.of(p) is None:
                self.dom.bind(p, result)
        for a in self.annotations:
            if self.dom.of(a) is None:
                self.dom.bind(a, self.dom.of(a.args[0]) or a.attrs["virtual_device"])
        return result

    def device_of(self, e: Expr, context: str) -> str:
        return self.dom.of(e) or context


def _wrap(e: Expr, device: str) -> Expr:
    """``e`` marked as on ``device`` (TVM never wraps variables)."""
    return e if isinstance(e, (Var, GlobalVar)) else on_device(e, device, constrain_result=True)


class _Rewriter:
    """Phase 4: the placement written into the program."""

    def __init__(self, planner: _Planner) -> None:
        self.p = planner
        self.memo: Dict[int, Expr] = {}

    def edge(self, child: Expr, dst: str) -> Expr:
        """``child`` rewritten, copied to ``dst`` if it is elsewhere (one copy per edge: an
        annotation read by several users is copied for each, as TVM does)."""
        while _is(child, ON_DEVICE):
            child = child.args[0]
        src = self.p.device_of(child, dst)
        new = self.visit(child, src)
        return new if src == dst else device_copy(_wrap(new, src), src, dst)

    def visit(self, e: Expr, context: str) -> Expr:
        """``e`` rewritten (annotations dropped: the copies and wrappers say it all)."""
        while _is(e, ON_DEVICE):
            e = e.args[0]
        out = self.memo.get(id(e))
        if out is None:
            out = self.memo[id(e)] = self.rewrite(e, self.p.device_of(e, context))
        return out

    def rewrite(self, e: Expr, here: str) -> Expr:
        if _is(e, DEVICE_COPY):
            src = e.attrs["src_virtual_device"]
            arg = self.visit(e.args[0], src)
            return arg if src == here else device_copy(_wrap(arg, src), src, here)
        if isinstance(e, Call):
            new = Call(e.op, [self.edge(a, here) for a in e.args], dict(e.attrs))
            new.span = getattr(e, "span", None)
            return new
        if isinstance(e, Tuple):
            return Tuple([self.edge(f, here) for f in e.fields])
        if isinstance(e, TupleGetItem):
            return TupleGetItem(self.edge(e.tuple_value, here), e.index)
        if isinstance(e, If):
            return If(self.edge(e.cond, here), self.edge(e.true_branch, here),
                      self.edge(e.false_branch, here))
        if isinstance(e, Let):
            vdev = self.p.device_of(e.var, here)
            value = _wrap(self.visit(e.value, vdev), vdev)
            return Let(e.var, value, self.edge(e.body, here))
        return e


def _post_order(body: Expr) -> List[Expr]:
    """The sub-expressions of ``body``, each after its operands (iteratively: deep programs
    do not meet Python's recursion limit)."""
    order, seen, stack = [], set(), [(body, False)]
    while stack:
        e, ready = stack.pop()
        if ready:
            order.append(e)
        elif id(e) not in seen:
            seen.add(id(e))
            stack.append((e, True))
            stack.extend((k, False) for k in reversed(_children(e)))
    return order


def plan_devices(fn: Function, config: CompilationConfig, name: str = "main") -> Function:
    """``fn`` with its devices planned (see the module doc)."""
    planner = _Planner(fn, name, config)
    planner.analyze()
    result = planner.default()
    rewriter = _Rewriter(planner)
    for e in _post_order(fn.body):  # operands first, so the rewrite below never nests deeply
        rewriter.visit(e, result)
    body = rewriter.edge(fn.body, result)
    out = Function(fn.params, body, fn.ret_type, fn.type_params, fn.attrs)
    out.span = getattr(fn, "span", None)
    for p in fn.params:
        p.virtual_device_ = planner.device_of(p, result)
    out.virtual_device_ = result
    out.param_virtual_devices = [p.virtual_device_ for p in fn.params]
    return out


def param_devices(fn: Function) -> List[str]:
    """The devices ``PlanDevices`` gave ``fn``'s parameters."""
    return list(getattr(fn, "param_virtual_devices", None) or
                [getattr(p, "virtual_device_", None) for p in fn.params])


def result_device(fn: Function) -> Optional[str]:
    """The device ``PlanDevices`` gave ``fn``'s result."""
    return getattr(fn, "virtual_device_", None)


class _PlanDevices(FunctionMapPass):
    def __init__(self, config: CompilationConfig) -> None:
        super().__init__("PlanDevices")
        if not isinstance(config, CompilationConfig):
            raise TypeError("PlanDevices: expected the CompilationConfig of "
                            f"relay.target.make_compilation_config, got {config!r}")
        self.config = config

    def transform(self, fn: Function, name: str) -> Function:
        return plan_devices(fn, self.config, name)


def PlanDevices(config: CompilationConfig) -> _PlanDevices:  # noqa: N802 (TVM's name)
    """TVM's ``relay.transform.PlanDevices(config)`` (a module pass)."""
    return _PlanDevices(config)
