"""relay.transform.Inline (relay-inline) against TVM 0.19.

TVM's results were recorded in the side venv (/work/tvmvenv, TVM 0.19): each program below
parsed with ``tvm.relay.fromtext``, typed, ``relay.transform.Inline()`` applied to a fresh
module, and every remaining global function summarised as {operator: count}. The three
programs TVM crashes on are checked for what TVM means to do (inline, or keep the function)
and against the untransformed program's outputs.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from pass_checks import assert_same_outputs
from relay_mlir.transform import Inline, PassContext, Sequential

T = "Tensor[(2), float32]"
PROGRAMS = {
    "chain": f"""
def @g1(%x: {T}, Inline=1) -> {T} {{ exp(%x) }}
def @g2(%y: {T}, Inline=1) -> {T} {{ negative(@g1(%y)) }}
def @unused(%z: {T}) -> {T} {{ %z }}
def @main(%a: {T}) -> {T} {{ add(@g2(%a), %a) }}""",
    "two_callers": f"""
def @g1(%x: {T}, Inline=1) -> {T} {{ exp(%x) }}
def @h(%x: {T}) -> {T} {{ negative(@g1(%x)) }}
def @main(%a: {T}) -> {T} {{ add(@g1(%a), @h(%a)) }}""",
    "recursive": """
def @r(%i: int32, Inline=1) -> int32 { if (less(%i, 1)) { %i } else { @r(subtract(%i, 1)) } }
def @main(%i: int32) -> int32 { @r(%i) }""",
    "inline_entry": f"""
def @g1(%x: {T}, Inline=1) -> {T} {{ exp(%x) }}
def @main(%a: {T}, Inline=1) -> {T} {{ @g1(%a) }}""",
    "inline0": f"""
def @g1(%x: {T}, Inline=0) -> {T} {{ exp(%x) }}
def @main(%a: {T}) -> {T} {{ @g1(%a) }}""",
    # TVM 0.19 crashes on these three (messages below)
    "twice": f"""
def @g1(%x: {T}, Inline=1) -> {T} {{ exp(%x) }}
def @main(%a: {T}) -> {T} {{ add(@g1(%a), @g1(%a)) }}""",
    "noninline_callee": f"""
def @n(%x: {T}) -> {T} {{ exp(%x) }}
def @g2(%y: {T}, Inline=1) -> {T} {{ negative(@n(%y)) }}
def @main(%a: {T}) -> {T} {{ add(@g2(%a), %a) }}""",
    "value": f"""
def @g1(%x: {T}, Inline=1) -> {T} {{ exp(%x) }}
def @main(%a: {T}) -> {T} {{ let %f = @g1; %f(%a) }}""",
}

# TVM 0.19's Inline: the global functions left, each {operator: count}
TVM_INLINE = {
    "chain": {"main": {"add": 1, "exp": 1, "negative": 1}, "unused": {}},
    "two_callers": {"h": {"exp": 1, "negative": 1}, "main": {"add": 1, "exp": 1}},
    "recursive": {"main": {}, "r": {"less": 1, "subtract": 1}},
    "inline_entry": {"main": {"exp": 1}},
    "inline0": {"g1": {"exp": 1}, "main": {}},
}
TVM_CRASHES = {
    "twice": "Check failed: (it != end()) is false: Cannot find global function g1 to remove!",
    "noninline_callee": "Check failed: cgn->GetRefCount() == 0U (1 vs. 0) : g2 is marked as "
                        "inline but not inlined.",
    "value": "Check failed: func->params.size() == args.size() (1 vs. 0)",
}
# relay-mlir on those: inlined at both calls; @g2 inlined (its call of @n stays);
# @g1 kept for the value that refers to it
OURS = {
    "twice": {"main": {"add": 1, "exp": 2}},
    "noninline_callee": {"main": {"add": 1, "negative": 1}, "n": {"exp": 1}},
    "value": {"g1": {"exp": 1}, "main": {}},
}


def summary(mod) -> dict:
    """{global function: {operator: count}} (as recorded from TVM)."""
    from pass_checks import _NodeCounter

    out = {}
    for gv in sorted(mod.get_global_vars(), key=lambda g: g.name_hint):
        v = _NodeCounter()
        v.visit(mod[gv])
        out[gv.name_hint] = dict(sorted(v.count.items()))
    return out


def numeric_args(mod) -> list:
    p = mod["main"].params[0].type_annotation
    if p.dtype == "int32":
        return [np.array(3, "int32")]
    return [np.array([0.5, -1.25], "float32")]


@pytest.mark.parametrize("name", sorted(TVM_INLINE))
def test_inline_as_tvm(name):
    mod = relay.fromtext(PROGRAMS[name])
    out = Inline()(mod)
    assert summary(out) == TVM_INLINE[name]
    assert_same_outputs(mod, out) if name != "recursive" else _same_on(mod, out)


@pytest.mark.parametrize("name", sorted(TVM_CRASHES))
def test_inline_where_tvm_crashes(name):
    mod = relay.fromtext(PROGRAMS[name])
    out = Inline()(mod)
    assert summary(out) == OURS[name]
    _same_on(mod, out)


def _same_on(mod, out) -> None:
    args = numeric_args(mod)
    run = lambda m: relay.create_executor("debug", mod=m).evaluate()(*args)  # noqa: E731
    np.testing.assert_allclose(np.asarray(run(out)), np.asarray(run(mod)), rtol=0, atol=0)


def test_inline_numbers_against_numpy():
    """chain: main(a) = -exp(a) + a after inlining, compiled on llvm-cpu."""
    out = Inline()(relay.fromtext(PROGRAMS["chain"]))
    a = np.array([0.5, -1.25], "float32")
    got = relay.create_executor("vm", mod=out, target="llvm-cpu").evaluate()(a)
    np.testing.assert_allclose(np.asarray(got), -np.exp(a) + a, rtol=1e-6)


def test_inline_info_and_sequential():
    """PassInfo "InlineGlobals", opt level 1 (TVM 0.19's): a Sequential at opt level 0 skips it."""
    p = Inline()
    assert (p.info.name, p.info.opt_level, p.info.required) == ("InlineGlobals", 1, ())
    mod = relay.fromtext(PROGRAMS["chain"])
    with PassContext(opt_level=0):
        assert "g1" in summary(Sequential([p])(mod))
    with PassContext(opt_level=1):
        assert "g1" not in summary(Sequential([p])(mod))


def test_with_attr_round_trips():
    """Function.with_attr as in TVM: a copy with the attribute; module functions keep their
    attributes through a pass (the Inline=1 function of a module that Inline leaves alone)."""
    x = relay.var("x", shape=(2,))
    f = relay.Function([x], relay.exp(x))
    g = f.with_attr("Inline", 1)
    assert f.attrs == {} and g.attrs == {"Inline": 1}
    assert g.with_attr({"Compiler": "ccompiler"}).attrs == {"Inline": 1, "Compiler": "ccompiler"}
    out = Inline()(relay.fromtext(PROGRAMS["recursive"]))
    assert out["r"].attrs == {"Inline": 1}
    with pytest.raises(TypeError, match="a str key and an int or str value"):
        f.with_attr("Inline", 1.5)


def test_functions_with_attributes_compile():
    """A module whose functions carry attributes (relay.attrs on func.func) compiles on
    llvm-cpu, inlined or not: chain(a) = -exp(a) + a both ways."""
    mod = relay.fromtext(PROGRAMS["chain"])
    a = np.array([0.5, -1.25], "float32")
    for m in (mod, Inline()(mod)):
        np.testing.assert_allclose(np.asarray(relay.compile(m, target="llvm-cpu")(a)),
                                   -np.exp(a) + a, rtol=1e-6)
