"""``IRModule``: named global functions, like ``tvm.IRModule``.

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(2,))
    >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.negative(x)))
    >>> sq = relay.GlobalVar("square")
    >>> y = relay.var("y", shape=(2,))
    >>> mod[sq] = relay.Function([y], y * y)
    >>> [gv.name_hint for gv in mod.get_global_vars()]
    ['main', 'square']
"""
from __future__ import annotations

from typing import Dict, List, Mapping, Optional, Tuple as PyTuple, Union

import numpy as np

from . import expr as E

__all__ = ["IRModule", "Module", "free_vars"]


def free_vars(expr: E.Expr) -> List[E.Var]:
    """Variables used in ``expr`` but bound by no enclosing Function/Let, in order of use.

    >>> import relay_mlir as relay
    >>> a, b = relay.var("a"), relay.var("b")
    >>> [v.name_hint for v in free_vars(a * b + a)]
    ['a', 'b']
    """
    out: List[E.Var] = []
    seen = set()

    def go(e, bound: frozenset, visited: set) -> None:
        if isinstance(e, E.TupleWrapper):
            e = e.astuple()
        key = (id(e), bound)
        if key in visited:
            return
        visited.add(key)
        if isinstance(e, E.Var):
            if id(e) not in bound and id(e) not in seen:
                seen.add(id(e))
                out.append(e)
        elif isinstance(e, E.Call):
            if not isinstance(e.op, (E.Op, E.GlobalVar)):
                go(e.op, bound, visited)
            for a in e.args:
                go(a, bound, visited)
        elif isinstance(e, E.Tuple):
            for f in e.fields:
                go(f, bound, visited)
        elif isinstance(e, E.TupleGetItem):
            go(e.tuple_value, bound, visited)
        elif isinstance(e, E.If):
            for x in (e.cond, e.true_branch, e.false_branch):
                go(x, bound, visited)
        elif isinstance(e, E.Let):
            go(e.value, bound, visited)
            go(e.body, bound | {id(e.var)}, visited)
        elif isinstance(e, E.Function):
            go(e.body, bound | {id(p) for p in e.params}, visited)

    go(expr, frozenset(), set())
    return out


class IRModule:
    """A set of global functions; ``mod["main"]`` is the entry point.

    Functions may call each other (and themselves) through ``GlobalVar``s.
    ``str(mod)`` / ``mod.astext()`` gives the MLIR (with inferred types once
    ``relay_mlir.transform.InferType()(mod)`` ran).
    """

    def __init__(self, functions: Optional[Mapping[Union[str, E.GlobalVar], E.Function]] = None,
                 type_definitions: Optional[dict] = None) -> None:
        self.functions: Dict[E.GlobalVar, E.Function] = {}
        self._emitted = None
        if type_definitions:
            raise NotImplementedError("type definitions (ADTs) are not supported by the Python builder yet")
        for k, v in (functions or {}).items():
            self[k] = v

    @staticmethod
    def from_expr(expr: E.Expr, functions: Optional[Mapping] = None,
                  type_defs: Optional[dict] = None) -> "IRModule":
        """A module whose ``main`` is ``expr`` (wrapped in a Function of its free vars if needed).

        >>> import relay_mlir as relay
        >>> x = relay.var("x", shape=(3,))
        >>> relay.IRModule.from_expr(relay.exp(x))["main"].params[0].name_hint
        'x'
        """
        if isinstance(expr, E.TupleWrapper):
            expr = expr.astuple()
        mod = IRModule(functions, type_defs)
        if not isinstance(expr, E.Function):
            expr = E.Function(free_vars(expr), expr)
        mod["main"] = expr
        return mod

    # -- mapping ----------------------------------------------------------------
    def lookup(self, key: Union[str, E.GlobalVar]) -> Optional[PyTuple[E.GlobalVar, E.Function]]:
        """``(GlobalVar, Function)`` for a name or GlobalVar (matched by name), or None."""
        if isinstance(key, E.GlobalVar) and key in self.functions:
            return key, self.functions[key]
        name = key.name_hint if isinstance(key, E.GlobalVar) else key
        for gv, fn in self.functions.items():
            if gv.name_hint == name:
                return gv, fn
        return None

    def __getitem__(self, key: Union[str, E.GlobalVar]) -> E.Function:
        found = self.lookup(key)
        if found is None:
            raise KeyError(f"no global function '{getattr(key, 'name_hint', key)}'")
        return found[1]

    def __setitem__(self, key: Union[str, E.GlobalVar], func: E.Expr) -> None:
        if isinstance(func, E.TupleWrapper):
            func = func.astuple()
        if not isinstance(func, E.Function):
            func = E.Function(free_vars(func), func)
        found = self.lookup(key)
        if found is not None:
            gv = found[0]
        else:
            gv = key if isinstance(key, E.GlobalVar) else E.GlobalVar(key)
        self.functions[gv] = func
        self._emitted = None

    def __contains__(self, key: Union[str, E.GlobalVar]) -> bool:
        return self.lookup(key) is not None

    def __len__(self) -> int:
        return len(self.functions)

    def get_global_var(self, name: str) -> E.GlobalVar:
        """The GlobalVar named ``name``."""
        found = self.lookup(name)
        if found is None:
            raise ValueError(f"Cannot find global var \"{name}\" in the Module")
        return found[0]

    def get_global_vars(self) -> List[E.GlobalVar]:
        """All GlobalVars, in insertion order."""
        return list(self.functions)

    def update(self, other: "IRModule") -> None:
        """Adds (or replaces) the functions of ``other``."""
        for gv, fn in other.functions.items():
            self[gv] = fn

    # -- MLIR --------------------------------------------------------------------
    def to_mlir(self, params: Optional[Mapping[str, np.ndarray]] = None, infer: bool = True):
        """Emits the module as relay MLIR (an ``emit.EmittedModule``), types inferred by default.

        ``params`` binds parameters of ``main`` by name to constants.
        """
        from .emit import emit_module
        em = emit_module(self, params)
        if infer:
            em.infer_types()
        return em

    def astext(self, show_meta_data: bool = True) -> str:
        """The MLIR text: with inferred types after ``InferType``, else with ``!relay.incomplete``."""
        if self._emitted is not None:
            return self._emitted.text()
        return self.to_mlir(infer=False).text()

    def __str__(self) -> str:
        return self.astext()

    def __repr__(self) -> str:
        return f"IRModule({[gv.name_hint for gv in self.functions]})"


Module = IRModule
