"""Relay's Prelude: ``List``, ``Option``, ``Tree`` and the functions over them.

As in TVM 0.19, ``Prelude(mod)`` adds the definitions to ``mod`` in place::

    >>> import relay_mlir as relay
    >>> from relay_mlir.prelude import Prelude
    >>> mod = relay.IRModule()
    >>> p = Prelude(mod)
    >>> List, Cons, Nil = p.mod.get_type("List")
    >>> [c.name_hint for c in (Cons, Nil)]
    ['Cons', 'Nil']
    >>> p.mod.get_global_var("foldl").name_hint
    'foldl'

The definitions follow the semantics of TVM's ``prelude.rly`` (names, type
parameters, argument orders), written here with the builder API. Every
function is generic; ``relay-monomorphize`` specialises the ones a program
uses.
"""
from __future__ import annotations

from typing import Callable, Optional

from .adt import (Clause, Constructor, Match, PatternConstructor, PatternTuple, PatternVar,
                  PatternWildcard, TypeData)
from .expr import Function, GlobalVar, If, Let, Tuple, TupleGetItem, Var, const
from .module import IRModule
from .op.tensor import add, equal, subtract
from .ty import FuncType, GlobalTypeVar, TensorType, TupleType, TypeVar

__all__ = ["Prelude"]

GLOBAL_DEFS = ["id", "compose", "flip", "hd", "tl", "nth", "update", "map", "foldl", "foldr",
               "foldr1", "concat", "filter", "zip", "rev", "map_accuml", "map_accumr", "unfoldl",
               "unfoldr", "sum", "length", "tmap", "size", "iterate"]


def _i32() -> TensorType:
    return TensorType((), "int32")


class Prelude:
    """The Prelude's types and functions, loaded into ``mod`` (a new module if None).

    Attributes as TVM's: ``mod``; ``l``/``cons``/``nil`` (also ``List``,
    ``Cons``, ``Nil``), ``optional``/``some``/``none``, ``tree``/``rose``; and
    one ``GlobalVar`` per function (``p.map``, ``p.foldl``, ...).
    """

    def __init__(self, mod: Optional[IRModule] = None) -> None:
        if mod is None:
            mod = IRModule()
        self.mod = mod
        self.load_prelude()

    # -- TVM's lookup helpers -------------------------------------------------------
    def get_name(self, canonical: str, dtype: str) -> str:
        if canonical == "tensor_t":
            return f"tensor_{dtype}_t"
        return f"{canonical}_{dtype}"

    def get_global_var(self, canonical: str, dtype: Optional[str] = None) -> GlobalVar:
        """The GlobalVar of a Prelude function (``dtype`` is for tensor arrays, which we lack)."""
        name = canonical if dtype is None else self.get_name(canonical, dtype)
        return self.mod.get_global_var(name)

    def get_type(self, canonical: str, dtype: Optional[str] = None) -> GlobalTypeVar:
        name = canonical if dtype is None else self.get_name(canonical, dtype)
        return self.mod.get_global_type_var(name)

    def get_ctor(self, ty_name: str, canonical: str, dtype: Optional[str] = None) -> Constructor:
        name = canonical if dtype is None else self.get_name(canonical, dtype)
        for ctor in self.mod.get_type(self.get_type(ty_name, dtype).name_hint)[1:]:
            if ctor.name_hint == name:
                return ctor
        raise Exception(f"could not find {name}")

    # -- loading -------------------------------------------------------------------------
    def load_prelude(self) -> None:
        """Adds the Prelude's types and functions to ``self.mod`` (once)."""
        if "List" not in [g.name_hint for g in self.mod.get_global_type_vars()]:
            self._define_types()
            self._gvs = {name: GlobalVar(name) for name in GLOBAL_DEFS}
            for name in GLOBAL_DEFS:
                self.mod[self._gvs[name]] = getattr(self, "_def_" + name)()
        self.l, self.cons, self.nil = self.mod.get_type("List")
        self.optional, self.some, self.none = self.mod.get_type("Option")
        self.tree, self.rose = self.mod.get_type("Tree")
        self.List, self.Cons, self.Nil = self.l, self.cons, self.nil
        self.Option, self.Some, self.None_ = self.optional, self.some, self.none
        self.Tree, self.Rose = self.tree, self.rose
        for name in GLOBAL_DEFS:
            setattr(self, name, self.mod.get_global_var(name))

    def _define_types(self) -> None:
        List = GlobalTypeVar("List")
        a = TypeVar("A")
        self.mod[List] = TypeData(List, [a], [Constructor("Cons", [a, List(a)], List),
                                              Constructor("Nil", [], List)])
        Option = GlobalTypeVar("Option")
        a = TypeVar("A")
        self.mod[Option] = TypeData(Option, [a], [Constructor("Some", [a], Option),
                                                  Constructor("None", [], Option)])
        Tree = GlobalTypeVar("Tree")
        a = TypeVar("A")
        self.mod[Tree] = TypeData(Tree, [a], [Constructor("Rose", [a, List(Tree(a))], Tree)])
        self.l, self.cons, self.nil = self.mod.get_type("List")
        self.optional, self.some, self.none = self.mod.get_type("Option")
        self.tree, self.rose = self.mod.get_type("Tree")

    def _g(self, name: str) -> GlobalVar:
        return self._gvs[name]

    # -- the functions (semantics of TVM's prelude.rly) -----------------------------
    def _def_id(self) -> Function:
        a = TypeVar("A")
        x = Var("x", a)
        return Function([x], x, a, [a])

    def _def_compose(self) -> Function:
        a, b, c = TypeVar("A"), TypeVar("B"), TypeVar("C")
        f, g = Var("f", FuncType([b], c)), Var("g", FuncType([a], b))
        x = Var("x", a)
        return Function([f, g], Function([x], f(g(x)), c), FuncType([a], c), [a, b, c])

    def _def_flip(self) -> Function:
        a, b, c = TypeVar("A"), TypeVar("B"), TypeVar("C")
        f = Var("f", FuncType([a, b], c))
        x, y = Var("b", b), Var("a", a)
        return Function([f], Function([x, y], f(y, x), c), FuncType([b, a], c), [a, b, c])

    def _def_hd(self) -> Function:
        a = TypeVar("A")
        xs, x = Var("xs", self.l(a)), Var("x")
        m = Match(xs, [Clause(PatternConstructor(self.cons, [PatternVar(x), PatternWildcard()]), x)],
                  complete=False)
        return Function([xs], m, a, [a])

    def _def_tl(self) -> Function:
        a = TypeVar("A")
        xs, rest = Var("xs", self.l(a)), Var("rest")
        m = Match(xs, [Clause(PatternConstructor(self.cons, [PatternWildcard(), PatternVar(rest)]),
                              rest)], complete=False)
        return Function([xs], m, self.l(a), [a])

    def _def_nth(self) -> Function:
        a = TypeVar("A")
        xs, n = Var("xs", self.l(a)), Var("n", _i32())
        body = If(equal(n, const(0)), self._g("hd")(xs),
                  self._g("nth")(self._g("tl")(xs), subtract(n, const(1))))
        return Function([xs, n], body, a, [a])

    def _def_update(self) -> Function:
        a = TypeVar("A")
        xs, n, v = Var("xs", self.l(a)), Var("n", _i32()), Var("v", a)
        hd, tl = self._g("hd"), self._g("tl")
        body = If(equal(n, const(0)), self.cons(v, tl(xs)),
                  self.cons(hd(xs), self._g("update")(tl(xs), subtract(n, const(1)), v)))
        return Function([xs, n, v], body, self.l(a), [a])

    def _list_match(self, xs: Var, on_cons: Callable[[Var, Var], object], on_nil) -> Match:
        x, rest = Var("x"), Var("rest")
        return Match(xs, [
            Clause(PatternConstructor(self.cons, [PatternVar(x), PatternVar(rest)]), on_cons(x, rest)),
            Clause(PatternConstructor(self.nil), on_nil)])

    def _def_map(self) -> Function:
        a, b = TypeVar("A"), TypeVar("B")
        f, xs = Var("f", FuncType([a], b)), Var("xs", self.l(a))
        body = self._list_match(xs, lambda x, rest: self.cons(f(x), self._g("map")(f, rest)),
                                self.nil())
        return Function([f, xs], body, self.l(b), [a, b])

    def _def_foldl(self) -> Function:
        a, b = TypeVar("A"), TypeVar("B")
        f, acc, xs = Var("f", FuncType([a, b], a)), Var("acc", a), Var("xs", self.l(b))
        body = self._list_match(xs, lambda x, rest: self._g("foldl")(f, f(acc, x), rest), acc)
        return Function([f, acc, xs], body, a, [a, b])

    def _def_foldr(self) -> Function:
        a, b = TypeVar("A"), TypeVar("B")
        f, acc, xs = Var("f", FuncType([a, b], b)), Var("acc", b), Var("xs", self.l(a))
        body = self._list_match(xs, lambda x, rest: f(x, self._g("foldr")(f, acc, rest)), acc)
        return Function([f, acc, xs], body, b, [a, b])

    def _def_foldr1(self) -> Function:
        a = TypeVar("A")
        f, xs = Var("f", FuncType([a, a], a)), Var("xs", self.l(a))
        x1, x2, rest = Var("x"), Var("x"), Var("rest")
        body = Match(xs, [
            Clause(PatternConstructor(self.cons, [PatternVar(x1), PatternConstructor(self.nil)]), x1),
            Clause(PatternConstructor(self.cons, [PatternVar(x2), PatternVar(rest)]),
                   f(x2, self._g("foldr1")(f, rest)))], complete=False)
        return Function([f, xs], body, a, [a])

    def _def_sum(self) -> Function:
        xs = Var("xs", self.l(_i32()))
        x, y = Var("x", _i32()), Var("y", _i32())
        add_f = Var("add_f")
        body = Let(add_f, Function([x, y], add(x, y), _i32()),
                   self._g("foldl")(add_f, const(0), xs))
        return Function([xs], body, _i32())  # annotated as in prelude.rly (TVM infers globals in any order)

    def _def_concat(self) -> Function:
        a = TypeVar("A")
        xs, ys = Var("xs", self.l(a)), Var("ys", self.l(a))
        return Function([xs, ys], self._g("foldr")(self.cons, ys, xs), self.l(a), [a])

    def _def_filter(self) -> Function:
        a = TypeVar("A")
        f, xs = Var("f", FuncType([a], TensorType((), "bool"))), Var("xs", self.l(a))
        flt = self._g("filter")
        body = self._list_match(
            xs, lambda x, rest: If(f(x), self.cons(x, flt(f, rest)), flt(f, rest)), self.nil())
        return Function([f, xs], body, self.l(a), [a])

    def _def_zip(self) -> Function:
        a, b = TypeVar("A"), TypeVar("B")
        xs, ys = Var("xs", self.l(a)), Var("ys", self.l(b))
        x, xr, y, yr = Var("x"), Var("x_rest"), Var("y"), Var("y_rest")
        both = PatternTuple([PatternConstructor(self.cons, [PatternVar(x), PatternVar(xr)]),
                             PatternConstructor(self.cons, [PatternVar(y), PatternVar(yr)])])
        body = Match(Tuple([xs, ys]), [
            Clause(both, self.cons(Tuple([x, y]), self._g("zip")(xr, yr))),
            Clause(PatternWildcard(), self.nil())])
        return Function([xs, ys], body, self.l(TupleType([a, b])), [a, b])

    def _def_rev(self) -> Function:
        a = TypeVar("A")
        xs = Var("xs", self.l(a))
        return Function([xs], self._g("foldl")(self._g("flip")(self.cons), self.nil(), xs),
                        self.l(a), [a])

    def _accum(self, name: str, left: bool) -> Function:
        a, b, c = TypeVar("A"), TypeVar("B"), TypeVar("C")
        f = Var("f", FuncType([a, b], TupleType([a, c])))
        init, xs = Var("init", a), Var("xs", self.l(b))
        acc_t = TupleType([a, self.l(c)])
        acc, x, f_out = Var("acc", acc_t), Var("x", b), Var("f_out")
        step = Let(f_out, f(TupleGetItem(acc, 0), x),
                   Tuple([TupleGetItem(f_out, 0), self.cons(TupleGetItem(f_out, 1), TupleGetItem(acc, 1))]))
        updater = Function([acc, x] if left else [x, acc], step, acc_t)
        fold = self._g("foldl" if left else "foldr")
        return Function([f, init, xs], fold(updater, Tuple([init, self.nil()]), xs), acc_t, [a, b, c])

    def _def_map_accuml(self) -> Function:
        return self._accum("map_accuml", left=True)

    def _def_map_accumr(self) -> Function:
        return self._accum("map_accumr", left=False)

    def _def_unfoldr(self) -> Function:
        a, b = TypeVar("A"), TypeVar("B")
        f = Var("f", FuncType([a], self.optional(TupleType([a, b]))))
        seed, val = Var("seed", a), Var("val")
        body = Match(f(seed), [
            Clause(PatternConstructor(self.some, [PatternVar(val)]),
                   self.cons(TupleGetItem(val, 1), self._g("unfoldr")(f, TupleGetItem(val, 0)))),
            Clause(PatternConstructor(self.none), self.nil())])
        return Function([f, seed], body, self.l(b), [a, b])

    def _def_unfoldl(self) -> Function:
        a, b = TypeVar("A"), TypeVar("B")
        f = Var("f", FuncType([a], self.optional(TupleType([a, b]))))
        seed = Var("seed", a)
        return Function([f, seed], self._g("rev")(self._g("unfoldr")(f, seed)), self.l(b), [a, b])

    def _def_length(self) -> Function:
        a = TypeVar("A")
        xs = Var("xs", self.l(a))
        body = self._list_match(xs, lambda x, rest: add(const(1), self._g("length")(rest)), const(0))
        return Function([xs], body, _i32(), [a])

    def _def_tmap(self) -> Function:
        a, b = TypeVar("A"), TypeVar("B")
        f, t = Var("f", FuncType([a], b)), Var("t", self.tree(a))
        v, subs, tt, list_f = Var("v"), Var("sub_trees"), Var("tt", self.tree(a)), Var("list_f")
        body = Match(t, [Clause(
            PatternConstructor(self.rose, [PatternVar(v), PatternVar(subs)]),
            Let(list_f, Function([tt], self._g("tmap")(f, tt), self.tree(b)),
                self.rose(f(v), self._g("map")(list_f, subs))))])
        return Function([f, t], body, self.tree(b), [a, b])

    def _def_size(self) -> Function:
        a = TypeVar("A")
        t, subs = Var("t", self.tree(a)), Var("sub_trees")
        body = Match(t, [Clause(
            PatternConstructor(self.rose, [PatternWildcard(), PatternVar(subs)]),
            add(const(1), self._g("sum")(self._g("map")(self._g("size"), subs))))])
        return Function([t], body, _i32(), [a])

    def _def_iterate(self) -> Function:
        a = TypeVar("A")
        f, n = Var("f", FuncType([a], a)), Var("n", _i32())
        body = If(equal(n, const(0)), self._g("id"),
                  self._g("compose")(f, self._g("iterate")(f, subtract(n, const(1)))))
        return Function([f, n], body, FuncType([a], a), [a])
