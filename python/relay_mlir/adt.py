"""Algebraic data types and pattern matching, as ``tvm.relay.adt``.

``TypeData`` defines a type (``mod[List] = TypeData(List, [a], [cons, nil])``),
a ``Constructor`` builds its values (``cons(x, nil())``), ``Match`` takes
them apart with ``Clause``s of patterns::

    >>> import relay_mlir as relay
    >>> from relay_mlir.adt import *
    >>> List = relay.GlobalTypeVar("List")
    >>> a = relay.TypeVar("a")
    >>> Cons = Constructor("Cons", [a, List(a)], List)
    >>> Nil = Constructor("Nil", [], List)
    >>> mod = relay.IRModule()
    >>> mod[List] = TypeData(List, [a], [Cons, Nil])
    >>> Cons.tag != Nil.tag
    True
    >>> x, rest = relay.var("x"), relay.var("rest")
    >>> l = relay.var("l", List(relay.TensorType([2])))
    >>> head = Match(l, [Clause(PatternConstructor(Cons, [PatternVar(x), PatternWildcard()]), x)],
    ...              complete=False)
"""
from __future__ import annotations

from typing import List, Optional, Sequence

from .expr import Call, Expr, Var
from .ty import GlobalTypeVar, Type, TypeVar

__all__ = ["Constructor", "TypeData", "Pattern", "PatternWildcard", "PatternVar",
           "PatternConstructor", "PatternTuple", "Clause", "Match"]


class Constructor(Expr):
    """``relay.Constructor(name_hint, inputs, belong_to)``: a constructor of an ADT.

    Calling it builds a value: ``Cons(x, xs)``; a nullary one is called too,
    ``Nil()``. Used uncalled it is a function value. ``tag`` is assigned when
    its ``TypeData`` is added to a module (unique within that module).
    """

    def __init__(self, name_hint: str, inputs: Sequence[Type], belong_to: GlobalTypeVar) -> None:
        super().__init__()
        if not isinstance(belong_to, GlobalTypeVar):
            raise TypeError(f"Constructor '{name_hint}': belong_to must be a GlobalTypeVar, "
                            f"got {belong_to!r}")
        for t in inputs:
            if not isinstance(t, Type):
                raise TypeError(f"Constructor '{name_hint}': field types must be relay types, got {t!r}")
        self.name_hint = name_hint
        self.inputs = list(inputs)
        self.belong_to = belong_to
        self.tag = -1
        self.span = None  # a definition, not an occurrence

    def __call__(self, *args: Expr) -> Call:
        return Call(self, list(args))

    def __repr__(self) -> str:
        return f"Constructor({self.name_hint!r})"


class TypeData:
    """``relay.TypeData(header, type_vars, constructors)``: an ADT definition."""

    def __init__(self, header: GlobalTypeVar, type_vars: Sequence[TypeVar],
                 constructors: Sequence[Constructor]) -> None:
        if not isinstance(header, GlobalTypeVar):
            raise TypeError(f"TypeData header must be a GlobalTypeVar, got {header!r}")
        for tv in type_vars:
            if not isinstance(tv, TypeVar):
                raise TypeError(f"TypeData '{header.name_hint}': type_vars must be TypeVars, got {tv!r}")
        for c in constructors:
            if not isinstance(c, Constructor):
                raise TypeError(f"TypeData '{header.name_hint}': constructors must be Constructors, "
                                f"got {c!r}")
            if c.belong_to != header:
                raise ValueError(f"constructor '{c.name_hint}' belongs to '{c.belong_to.name_hint}', "
                                 f"not '{header.name_hint}'")
        self.header = header
        self.type_vars = list(type_vars)
        self.constructors = list(constructors)

    def __repr__(self) -> str:
        return f"TypeData({self.header.name_hint!r}, {[c.name_hint for c in self.constructors]})"


class Pattern:
    """Base class of patterns."""


class PatternWildcard(Pattern):
    """``_``: matches anything, binds nothing."""

    def __repr__(self) -> str:
        return "PatternWildcard()"


class PatternVar(Pattern):
    """Matches anything and binds it to ``var``."""

    def __init__(self, var: Var) -> None:
        if not isinstance(var, Var):
            raise TypeError(f"PatternVar binds a Var, got {var!r}")
        self.var = var

    def __repr__(self) -> str:
        return f"PatternVar({self.var.name_hint!r})"


class PatternConstructor(Pattern):
    """Matches values built by ``constructor`` whose fields match ``patterns``."""

    def __init__(self, constructor: Constructor, patterns: Optional[Sequence[Pattern]] = None) -> None:
        if not isinstance(constructor, Constructor):
            raise TypeError(f"PatternConstructor needs a Constructor, got {constructor!r}")
        self.constructor = constructor
        self.patterns = list(patterns or [])
        for p in self.patterns:
            if not isinstance(p, Pattern):
                raise TypeError(f"sub-pattern must be a Pattern, got {p!r}")
        if len(self.patterns) != len(constructor.inputs):
            raise ValueError(f"pattern for '{constructor.name_hint}' has {len(self.patterns)} "
                             f"sub-patterns, the constructor has {len(constructor.inputs)} fields")

    def __repr__(self) -> str:
        return f"PatternConstructor({self.constructor.name_hint!r}, {self.patterns!r})"


class PatternTuple(Pattern):
    """Matches a tuple whose fields match ``patterns``."""

    def __init__(self, patterns: Optional[Sequence[Pattern]] = None) -> None:
        self.patterns = list(patterns or [])
        for p in self.patterns:
            if not isinstance(p, Pattern):
                raise TypeError(f"sub-pattern must be a Pattern, got {p!r}")

    def __repr__(self) -> str:
        return f"PatternTuple({self.patterns!r})"


class Clause:
    """``relay.Clause(lhs, rhs)``: if ``lhs`` matches, the match's value is ``rhs``."""

    def __init__(self, lhs: Pattern, rhs: Expr) -> None:
        if not isinstance(lhs, Pattern):
            raise TypeError(f"Clause lhs must be a Pattern, got {lhs!r}")
        if not isinstance(rhs, Expr):
            rhs = getattr(rhs, "astuple", lambda: rhs)()
        if not isinstance(rhs, Expr):
            raise TypeError(f"Clause rhs must be an expression, got {rhs!r}")
        self.lhs = lhs
        self.rhs = rhs

    def __repr__(self) -> str:
        return f"Clause({self.lhs!r}, ...)"


class Match(Expr):
    """``relay.Match(data, clauses, complete=True)``: the first clause whose pattern matches.

    ``complete=False`` is Relay's ``match?`` (no exhaustiveness check). A value
    no clause matches is a run-time error.
    """

    def __init__(self, data: Expr, clauses: Sequence[Clause], complete: bool = True) -> None:
        super().__init__()
        if not isinstance(data, Expr):
            data = getattr(data, "astuple", lambda: data)()
        if not isinstance(data, Expr):
            raise TypeError(f"Match data must be an expression, got {data!r}")
        for c in clauses:
            if not isinstance(c, Clause):
                raise TypeError(f"Match clauses must be Clauses, got {c!r}")
        self.data = data
        self.clauses = list(clauses)
        self.complete = bool(complete)


def pattern_vars(p: Pattern) -> List[Var]:
    """The variables ``p`` binds, depth-first, left to right (the order of a clause's block arguments)."""
    out: List[Var] = []
    stack = [p]
    while stack:
        cur = stack.pop()
        if isinstance(cur, PatternVar):
            out.append(cur.var)
        elif isinstance(cur, (PatternConstructor, PatternTuple)):
            stack.extend(reversed(cur.patterns))
    return out
