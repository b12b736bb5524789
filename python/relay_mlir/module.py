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

import os
import warnings
import zlib
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple as PyTuple, Union

import numpy as np

from . import expr as E
from .adt import Constructor, TypeData
from .ty import GlobalTypeVar
from .analysis import free_vars
from .emit import EmittedModule, emit_module
from .errors import CompileError
from .printer import astext, type_text
from .visualize import chosen_functions, output_format, render, to_dot

__all__ = ["IRModule", "Module", "free_vars"]


class IRModule:
    """A set of global functions; ``mod["main"]`` is the entry point.

    Functions may call each other (and themselves) through ``GlobalVar``s.
    ``str(mod)`` / ``mod.astext()`` gives Relay's text format, ``mod.mlir()``
    the relay-dialect MLIR (with inferred types once
    ``relay_mlir.transform.InferType()(mod)`` ran).
    """

    def __init__(self, functions: Optional[Mapping[Union[str, E.GlobalVar], E.Function]] = None,
                 type_definitions: Optional[Mapping[Union[str, GlobalTypeVar], TypeData]] = None) -> None:
        self.functions: Dict[E.GlobalVar, E.Function] = {}
        self.type_definitions: Dict[GlobalTypeVar, TypeData] = {}
        self._constructors: Dict[int, Constructor] = {}
        self._emitted = None
        for k, v in (type_definitions or {}).items():
            self[k] = v
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

    def __getitem__(self, key: Union[str, E.GlobalVar, GlobalTypeVar]):
        """The Function of a GlobalVar or name, or the TypeData of a GlobalTypeVar."""
        if isinstance(key, GlobalTypeVar):
            found_type = self._lookup_type(key.name_hint)
            if found_type is None:
                raise KeyError(f"no type definition '{key.name_hint}'")
            return self.type_definitions[found_type]
        found = self.lookup(key)
        if found is None:
            if isinstance(key, str) and self._lookup_type(key) is not None:
                return self.type_definitions[self._lookup_type(key)]
            raise KeyError(f"no global function '{getattr(key, 'name_hint', key)}'")
        return found[1]

    def __setitem__(self, key: Union[str, E.GlobalVar, GlobalTypeVar], func) -> None:
        if isinstance(func, TypeData) or isinstance(key, GlobalTypeVar):
            self._add_type(key, func)
            return
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
        """Adds (or replaces) the type definitions and functions of ``other``."""
        for gtv, data in other.type_definitions.items():
            self[gtv] = data
        for gv, fn in other.functions.items():
            self[gv] = fn

    # -- algebraic data types ---------------------------------------------------------
    def _lookup_type(self, name: str) -> Optional[GlobalTypeVar]:
        for gtv in self.type_definitions:
            if gtv.name_hint == name:
                return gtv
        return None

    def _add_type(self, key: Union[str, GlobalTypeVar], data: TypeData) -> None:
        if not isinstance(data, TypeData):
            raise TypeError(f"a GlobalTypeVar is bound to a TypeData, got {data!r}")
        name = key.name_hint if isinstance(key, GlobalTypeVar) else str(key)
        if name != data.header.name_hint:
            raise ValueError(f"type definition '{data.header.name_hint}' stored under '{name}'")
        old = self._lookup_type(name)
        if old is not None:
            for c in self.type_definitions.pop(old).constructors:
                self._constructors.pop(c.tag, None)
        self.type_definitions[data.header] = data
        # Tags are unique in the module: a byte from the type's name, then the
        # constructor's index (the index is what compiled code stores).
        prefix = zlib.crc32(name.encode()) & 0xFF
        while any((t >> 24) == prefix for t in self._constructors):
            prefix = (prefix + 1) & 0xFF
        for i, c in enumerate(data.constructors):
            c.tag = (prefix << 24) | i
            self._constructors[c.tag] = c
        self._emitted = None

    def get_global_type_var(self, name: str) -> GlobalTypeVar:
        """The GlobalTypeVar of the type definition named ``name``."""
        gtv = self._lookup_type(name)
        if gtv is None:
            raise ValueError(f"Cannot find global type var \"{name}\" in the Module")
        return gtv

    def get_global_type_vars(self) -> List[GlobalTypeVar]:
        """All GlobalTypeVars, in insertion order."""
        return list(self.type_definitions)

    def get_type(self, name: str) -> tuple:
        """``(GlobalTypeVar, *constructors)`` of the type named ``name``, as TVM:
        ``List, Cons, Nil = mod.get_type("List")``."""
        gtv = self.get_global_type_var(name)
        return tuple([gtv] + list(self.type_definitions[gtv].constructors))

    def get_constructor(self, tag: int) -> Constructor:
        """The constructor with tag ``tag``."""
        c = self._constructors.get(int(tag))
        if c is None:
            raise ValueError(f"Cannot find constructor with tag {tag} in the Module")
        return c

    # -- MLIR --------------------------------------------------------------------
    def to_mlir(self, params: Optional[Mapping[str, np.ndarray]] = None,
                infer: bool = True) -> EmittedModule:
        """Emits the module as relay MLIR (an ``emit.EmittedModule``), types inferred by default.

        ``params`` binds parameters of ``main`` by name to constants.
        """
        em = emit_module(self, params)
        if infer:
            em.infer_types()
        return em

    def astext(self, show_meta_data: bool = True) -> str:
        """Relay's text format (as TVM prints it; ``relay_mlir.fromtext`` reads it back)."""
        return astext(self, show_meta_data)

    def visualize(self, path: Union[str, "os.PathLike[str]", None] = None, *, format: Optional[str] = None,
                  params: Optional[Union[Mapping[str, object], Iterable[str]]] = None,
                  functions: Optional[Sequence[str]] = None, infer: bool = True,
                  all_attrs: bool = False) -> str:
        """Draws the module's dataflow with Graphviz; returns the DOT text.

        With ``path`` it also writes the picture: ``.svg``, ``.png`` or ``.pdf``
        (drawn by Graphviz's ``dot``, which must be installed) or ``.dot``/``.gv``
        (the text, no Graphviz needed); ``format`` overrides the extension.
        Operator calls are nodes with their attributes and result types, global
        functions and closures are clusters, so are ``if`` branches and ``match``
        clauses (see ``relay_mlir.visualize``). ``params`` names bound weights
        (a ``get_workload`` params dict works), drawn in grey; ``functions``
        picks the global functions drawn (default: all); ``all_attrs`` shows every
        operator attribute.

        ``infer`` runs type inference first (as ``InferType``) so nodes show
        their types; if the module does not type-check, it is drawn with its
        annotations only, a warning says why and so does the picture's title.

        >>> import relay_mlir as relay
        >>> x = relay.var("x", shape=(2, 3))
        >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.sum(relay.exp(x), axis=1)))
        >>> dot = mod.visualize()        # mod.visualize("mod.svg") draws it
        >>> for line in dot.splitlines():
        ...     if line.strip().startswith(("label=", "n0", "n1", "n2")):
        ...         print(line.strip())                        # doctest: +ELLIPSIS
        label="def @main -> Tensor[(2), float32]"; ...
        n0 [label="%x\\nTensor[(2, 3), float32]", shape=ellipse, ...];
        n1 [label="exp\\nTensor[(2, 3), float32]"];
        n2 [label="sum\\naxis=[1]\\nTensor[(2), float32]", peripheries=2];
        n0 -> n1;
        n1 -> n2;
        """
        fmt = output_format(path, format) if path is not None else None  # fail before the work
        chosen_functions(self, functions)
        note = None
        if infer and not (self._emitted is not None and self._emitted.inferred):
            try:
                self._emitted = self.to_mlir(infer=True)
            except CompileError as e:
                why = e.diagnostics[0].message if e.diagnostics else e.message
                note = f"types not inferred: {why}"
                warnings.warn(f"type inference failed, drawing without inferred types: {why}",
                              stacklevel=2)
        dot = to_dot(self, params=params, functions=functions, all_attrs=all_attrs, note=note)
        if path is not None:
            render(dot, path, fmt)
        return dot

    def mlir(self) -> str:
        """The relay-dialect MLIR: with inferred types after ``InferType``, else with
        ``!relay.incomplete`` where inference has not run."""
        if self._emitted is not None:
            return self._emitted.text()
        return self.to_mlir(infer=False).text()

    def __str__(self) -> str:
        return self.astext()

    def __repr__(self) -> str:
        types = [gtv.name_hint for gtv in self.type_definitions]
        return f"IRModule({[gv.name_hint for gv in self.functions]}" + (f", types={types})" if types else ")")


Module = IRModule


def _expr_astext(self: E.Expr, show_meta_data: bool = True) -> str:
    """Relay text of this expression (TVM's ``Expr.astext``)."""
    return astext(self, show_meta_data)


def _expr_str(self: E.Expr) -> str:
    """``str(expr)`` / ``print(expr)``: the text as TVM prints an expression — without the
    version line and meta data, its free variables declared first
    (``free_var %x: Tensor[(2), float32];``)."""
    if isinstance(self, (E.Op, E.GlobalVar)):  # TVM prints these as their repr
        return repr(self)
    body = astext(self, show_meta_data=False).split("\n", 1)[1]
    body = body.split("\n/* For debugging purposes", 1)[0].rstrip("\n")
    if isinstance(self, E.Function):
        return body
    free = [f"free_var %{v.name_hint}: {type_text(v.type_annotation)};"
            if v.type_annotation is not None else f"free_var %{v.name_hint};"
            for v in free_vars(self)]
    return "\n".join(free + [body])


# ``Expr.astext()``/``TupleWrapper.astext()`` and ``str(expr)`` need the printer, which is
# layered above expr.py, so this layer adds them.
E.Expr.astext = _expr_astext  # type: ignore[attr-defined]
E.TupleWrapper.astext = _expr_astext  # type: ignore[attr-defined]
E.Expr.__str__ = _expr_str  # type: ignore[method-assign]
