"""The language half of the builder API (TVM 0.19 names): ADTs, match, refs, type vars,
ScopeBuilder, the Prelude; emission to the relay dialect and type inference."""
import pytest

import relay_mlir as relay
from relay_mlir import (Clause, Constructor, Match, PatternConstructor, PatternTuple, PatternVar,
                        PatternWildcard, TypeData)
from relay_mlir.prelude import Prelude

T = relay.TensorType


def _list_module():
    mod = relay.IRModule()
    List = relay.GlobalTypeVar("List")
    a = relay.TypeVar("a")
    Cons = Constructor("Cons", [a, List(a)], List)
    Nil = Constructor("Nil", [], List)
    mod[List] = TypeData(List, [a], [Cons, Nil])
    return mod, List, Cons, Nil


def test_type_definitions_and_constructor_tags():
    mod, List, Cons, Nil = _list_module()
    Opt = relay.GlobalTypeVar("Opt")
    b = relay.TypeVar("b")
    Some, Nothing = Constructor("Some", [b], Opt), Constructor("Nothing", [], Opt)
    mod[Opt] = TypeData(Opt, [b], [Some, Nothing])
    tags = [Cons.tag, Nil.tag, Some.tag, Nothing.tag]
    assert len(set(tags)) == 4 and all(t >= 0 for t in tags)
    assert mod.get_constructor(Nil.tag) is Nil and mod.get_constructor(Some.tag) is Some
    assert mod.get_type("List") == (List, Cons, Nil)
    assert mod.get_global_type_var("Opt") is Opt
    assert mod[Opt].constructors == [Some, Nothing]
    with pytest.raises(ValueError, match="Cannot find global type var"):
        mod.get_global_type_var("Tree")
    with pytest.raises(ValueError, match="belongs to"):
        TypeData(Opt, [b], [Cons])
    with pytest.raises(ValueError, match="2 fields"):
        PatternConstructor(Cons, [PatternVar(relay.var("x"))])


def test_adt_program_types():
    mod, List, Cons, Nil = _list_module()
    x = relay.var("x", shape=(2,))
    h, t = relay.var("h"), relay.var("t")
    lst = Cons(x, Cons(x, Nil()))
    m = Match(lst, [Clause(PatternConstructor(Cons, [PatternVar(h), PatternVar(t)]), h),
                    Clause(PatternWildcard(), x)])
    mod["main"] = relay.Function([x], m)
    relay.transform.InferType()(mod)
    assert m.checked_type == T((2,))
    assert h.checked_type == T((2,))
    assert t.checked_type == List(T((2,)))
    assert lst.checked_type == List(T((2,)))
    text = mod.mlir()
    assert "relay.adt @List" in text and "relay.match" in text and "relay.construct @List::@Cons" in text


def test_tuple_patterns_and_refs():
    x = relay.var("x", shape=(3,))
    a, b = relay.var("a"), relay.var("b")
    r = relay.RefCreate(x)
    w = relay.RefWrite(r, relay.exp(x))
    read = relay.RefRead(r)
    m = Match(relay.Tuple([x, read]), [Clause(PatternTuple([PatternVar(a), PatternVar(b)]), a + b)])
    body = relay.Let(relay.var("u"), w, m)
    mod = relay.IRModule.from_expr(relay.Function([x], body))
    relay.transform.InferType()(mod)
    assert r.checked_type == relay.RefType(T((3,)))
    assert w.checked_type == relay.TupleType([])
    assert read.checked_type == T((3,)) and b.checked_type == T((3,))
    assert m.checked_type == T((3,))


def test_constructor_not_in_module_is_located():
    List = relay.GlobalTypeVar("List")
    a = relay.TypeVar("a")
    Cons, Nil = Constructor("Cons", [a, List(a)], List), Constructor("Nil", [], List)
    mod = relay.IRModule.from_expr(relay.Function([], Nil()))
    with pytest.raises(relay.CompileError) as info:
        mod.to_mlir()
    assert "not defined in this module" in str(info.value)


def test_match_type_mismatch_is_an_error():
    mod, List, Cons, Nil = _list_module()
    x = relay.var("x", shape=(2,))
    y = relay.var("y", shape=(3,))
    h = relay.var("h")
    m = Match(Cons(x, Nil()), [Clause(PatternConstructor(Cons, [PatternVar(h), PatternWildcard()]), h),
                               Clause(PatternWildcard(), y)])
    mod["main"] = relay.Function([x, y], m)
    with pytest.raises(relay.CompileError, match="type mismatch"):
        relay.transform.InferType()(mod)


def test_scope_builder_matches_tvm_usage():
    sb = relay.ScopeBuilder()
    x = relay.var("x", shape=(2,))
    c = relay.var("c", relay.scalar_type("bool"))
    y = sb.let("y", relay.exp(x))
    z = sb.let(("z", T((2,))), y * y)
    with sb.if_scope(c):
        sb.ret(z)
    with sb.else_scope():
        sb.ret(relay.negative(z))
    f = relay.Function([x, c], sb.get())
    mod = relay.transform.InferType()(relay.IRModule.from_expr(f))
    assert mod["main"].body.checked_type == T((2,))
    assert z.type_annotation == T((2,))
    sb2 = relay.ScopeBuilder()
    with pytest.raises(RuntimeError, match="before ret"):
        sb2.get()


def test_prelude_names_as_tvm():
    mod = relay.IRModule()
    p = Prelude(mod)
    assert p.mod is mod
    List, Cons, Nil = mod.get_type("List")
    assert (p.l, p.cons, p.nil) == (List, Cons, Nil)
    assert [c.name_hint for c in mod.get_type("Option")[1:]] == ["Some", "None"]
    assert [c.name_hint for c in mod.get_type("Tree")[1:]] == ["Rose"]
    for name in ["id", "compose", "flip", "hd", "tl", "nth", "update", "map", "foldl", "foldr",
                 "foldr1", "concat", "filter", "zip", "rev", "map_accuml", "map_accumr", "unfoldl",
                 "unfoldr", "sum", "length", "tmap", "size", "iterate"]:
        gv = mod.get_global_var(name)
        assert getattr(p, name) is gv
    assert [tp.name_hint for tp in mod["map"].type_params] == ["A", "B"]
    # loading twice keeps one copy
    Prelude(mod)
    assert len(mod.get_global_type_vars()) == 3


def test_generic_functions_emit_type_params_and_instances():
    mod = relay.IRModule()
    a = relay.TypeVar("a")
    ident = relay.GlobalVar("ident")
    v = relay.var("v", a)
    mod[ident] = relay.Function([v], v, a, [a])
    x = relay.var("x", shape=(2,))
    mod["main"] = relay.Function([x], relay.Tuple([ident(x), ident(relay.const(1))]))
    text = mod.mlir()
    assert 'relay.type_params = ["a"]' in text
    assert text.count("relay.global_fn @ident") == 2  # generic callees are instantiated per use
    with pytest.raises(TypeError, match="type_params must be TypeVars"):
        relay.Function([v], v, None, ["a"])
