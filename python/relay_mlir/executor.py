"""``create_executor``: TVM's ``relay.create_executor`` over this project's backends.

``kind="debug"`` is the reference interpreter (``relay_mlir.interpreter``):
it evaluates the expression tree directly with numpy kernels, needs no type
inference and runs generic programs. ``kind="vm"`` and ``kind="graph"``
(also ``"aot"``) compile the module with ``relay_mlir.compile`` for
``target`` and run it with IREE.

    >>> import numpy as np, relay_mlir as relay
    >>> x = relay.var("x", shape=(2,))
    >>> mod = relay.IRModule.from_expr(relay.Function([x], x * x))
    >>> relay.create_executor("debug", mod=mod).evaluate()(np.array([3, 4], "float32"))
    array([ 9., 16.], dtype=float32)
    >>> relay.create_executor("debug").evaluate(relay.const(2) + relay.const(3))
    array(5, dtype=int32)

``evaluate()`` gives a callable running ``main`` (positional arguments, or
keyword arguments by parameter name); ``evaluate(expr)`` gives a callable for
a ``Function`` (or a ``GlobalVar``), and the value of any other closed
expression. ``device`` is accepted for TVM compatibility; the target decides
where compiled code runs.
"""
from __future__ import annotations

from typing import Any as PyAny, Callable, Dict, Mapping, Optional, Union

import numpy as np

from . import expr as E
from .targets import normalize_target  # noqa: F401  (executor's API)
from .compiler import Target, compile as _compile
from .interpreter import Closure, Interpreter
from .module import IRModule

__all__ = ["create_executor", "Executor", "DebugExecutor", "CompiledExecutor", "normalize_target"]

class Executor:
    """The common interface: ``evaluate(expr=None, binds=None)``."""

    def __init__(self, mod: Optional[IRModule], device: object = None,
                 target: Union[str, Target, None] = "llvm-cpu",
                 params: Optional[Mapping[str, PyAny]] = None) -> None:
        self.mod = mod if mod is not None else IRModule()
        self.device = device
        self.target = normalize_target(target)
        self.params = dict(params or {})

    def evaluate(self, expr: Optional[E.Expr] = None,
                 binds: Optional[Mapping[E.Var, PyAny]] = None) -> PyAny:
        raise NotImplementedError


def _main_callable(params: list, run: Callable, bound: Dict[str, PyAny]) -> Callable:
    """A callable over positional/keyword inputs of ``params`` (names in
    ``bound`` are pre-bound and removed from the positional order)."""
    free = [p for p in params if p.name_hint not in bound]

    def call(*args: PyAny, **kwargs: PyAny) -> PyAny:
        if len(args) > len(free):
            raise TypeError(f"the function takes {len(free)} arguments, got {len(args)}")
        named = dict(bound)
        for p, a in zip(free, args):
            named[p.name_hint] = a
        for k, v in kwargs.items():
            if k not in [p.name_hint for p in params]:
                raise TypeError(f"unexpected argument '{k}'")
            named[k] = v
        missing = [p.name_hint for p in params if p.name_hint not in named]
        if missing:
            raise TypeError(f"missing arguments {missing}")
        return run(*[named[p.name_hint] for p in params])
    return call


class DebugExecutor(Executor):
    """The reference interpreter (``kind="debug"``)."""

    def evaluate(self, expr: Optional[E.Expr] = None,
                 binds: Optional[Mapping[E.Var, PyAny]] = None) -> PyAny:
        interp = Interpreter(self.mod)
        if isinstance(expr, E.TupleWrapper):
            expr = expr.astuple()
        if expr is None:
            if "main" not in self.mod:
                raise ValueError("the module has no 'main' function")
            clo = interp.global_closure(self.mod.get_global_var("main"))
        elif isinstance(expr, E.GlobalVar):
            clo = interp.global_closure(expr)
        else:
            value = interp.evaluate(expr, dict(binds or {}))
            if not isinstance(value, Closure):
                return _fresh(value)
            clo = value
        return _main_callable(clo.fn.params, lambda *a: _fresh(interp.call_closure(clo, a, {})),
                              self.params)


def _fresh(v: PyAny) -> PyAny:
    """Result tensors (and tensors in result tuples) as new arrays: kernels may
    return views of inputs or constants, which the caller must not be able
    to modify through the result. ADT values are returned as they are."""
    if isinstance(v, np.ndarray):
        return np.array(v, copy=True)
    if isinstance(v, tuple):
        return tuple(_fresh(f) for f in v)
    return v


class CompiledExecutor(Executor):
    """``kind="vm"``/``"graph"``: compiled through IREE by ``relay_mlir.compile``."""

    def __init__(self, mod, device=None, target="llvm-cpu", params=None, kind: str = "vm") -> None:
        super().__init__(mod, device, target, params)
        self.kind = kind

    def evaluate(self, expr: Optional[E.Expr] = None,
                 binds: Optional[Mapping[E.Var, PyAny]] = None) -> PyAny:
        if binds:
            raise NotImplementedError("binds with a compiled executor; bind constants in the expression")
        if isinstance(expr, E.TupleWrapper):
            expr = expr.astuple()
        if expr is None:
            mod = self.mod
        elif isinstance(expr, E.GlobalVar):
            mod = IRModule()
            mod.update(self.mod)
            mod["main"] = self.mod[expr]
        else:
            fn = expr if isinstance(expr, E.Function) else E.Function([], expr)
            mod = IRModule()
            mod.update(self.mod)
            mod["main"] = fn
        main = mod["main"]
        params = {k: v for k, v in self.params.items() if k in [p.name_hint for p in main.params]}
        exe = _compile(mod, target=self.target, params=params or None)
        if expr is not None and not isinstance(expr, (E.Function, E.GlobalVar)):
            return exe()
        return _main_callable([p for p in main.params if p.name_hint not in params], exe, {})


def create_executor(kind: str = "debug", mod: Optional[IRModule] = None, device: object = None,
                    target: Union[str, Target, None] = "llvm-cpu",
                    params: Optional[Mapping[str, PyAny]] = None) -> Executor:
    """An executor of ``mod``, as ``tvm.relay.create_executor``.

    ``kind``: ``"debug"`` (the reference interpreter), ``"vm"``, ``"graph"``
    or ``"aot"`` (compiled for ``target``; TVM strings such as ``"llvm"`` map
    to ``"llvm-cpu"``). ``params`` binds parameters of ``main`` by name.
    """
    if kind == "debug":
        return DebugExecutor(mod, device, target, params)
    if kind in ("vm", "graph", "aot"):
        return CompiledExecutor(mod, device, target, params, kind)
    raise ValueError(f"unknown executor kind '{kind}' (debug, vm, graph, aot)")
