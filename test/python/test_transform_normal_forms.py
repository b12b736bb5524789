"""relay.transform.ToANormalForm / ToBasicBlockNormalForm / ToGraphNormalForm against TVM 0.19.

TVM's results were recorded in the side venv (/work/tvmvenv, TVM 0.19): each program parsed
with ``tvm.relay.fromtext``, typed, the pass applied (ToGraphNormalForm to the program's
ToANormalForm), and the lets of main counted (closures and branches included).
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.expr import Call, If, Let
from relay_mlir.normal_form import count_lets
from relay_mlir.transform import (PassContext, Sequential, ToANormalForm, ToBasicBlockNormalForm,
                                  ToGraphNormalForm)

T = "Tensor[(2), float32]"
PROGRAMS = {
    "dag": f"def @main(%x: {T}, %c: bool) -> {T} {{ %0 = add(%x, 1f); %1 = exp(%0); multiply(%1, %1) }}",
    "if": f"""def @main(%x: {T}, %c: bool) -> {T} {{
  %0 = exp(%x); if (%c) {{ add(%0, %0) }} else {{ %1 = negative(%x); multiply(%1, %0) }} }}""",
    "if_then_use": f"""def @main(%x: {T}, %c: bool) -> {T} {{
  %0 = exp(%x); %1 = if (%c) {{ %0 }} else {{ negative(%0) }}; add(%1, %0) }}""",
    "closure": f"""def @main(%x: {T}, %c: bool) -> ({T}, {T}) {{
  %0 = exp(%x); %1 = fn (%y: {T}) -> {T} {{ add(%y, %0) }}; (%1(%x), %0) }}""",
    "lets": f"def @main(%x: {T}, %c: bool) -> {T} {{ let %a = exp(%x); let %b = add(%a, %a); %b }}",
}
# TVM 0.19's let counts: (ToANormalForm, ToGraphNormalForm of that, ToBasicBlockNormalForm)
TVM_LETS = {"dag": (4, 0, 0), "if": (5, 0, 1), "if_then_use": (4, 0, 1), "closure": (5, 0, 1),
            "lets": (4, 0, 2)}
# TVM binds a function's final let variable twice more (let %x_54 = %b; let %x_55 = %x_54)
OURS_ANF = {**{k: v[0] for k, v in TVM_LETS.items()}, "lets": 2}


def run(mod, x, c):
    out = relay.create_executor("debug", mod=mod).evaluate()(x, c)
    return [np.asarray(o) for o in out] if isinstance(out, (list, tuple)) else [np.asarray(out)]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_normal_forms_as_tvm(name):
    mod = relay.fromtext(PROGRAMS[name])
    anf = ToANormalForm()(mod)
    gnf = ToGraphNormalForm()(anf)
    bbnf = ToBasicBlockNormalForm()(mod)
    assert (count_lets(anf["main"]), count_lets(gnf["main"]), count_lets(bbnf["main"])) == \
        (OURS_ANF[name],) + TVM_LETS[name][1:]
    x = np.array([0.5, -1.25], "float32")
    for c in (np.array(True), np.array(False)):
        want = run(mod, x, c)
        for form in (anf, gnf, bbnf):
            for got, w in zip(run(form, x, c), want):
                np.testing.assert_array_equal(got, w)


def test_basic_block_form_binds_the_shared_value_before_the_if():
    """TVM 0.19: ``let %x_23 = exp(%x); if (%c) { add(%x_23, %x_23) } else { ... }``."""
    body = ToBasicBlockNormalForm()(relay.fromtext(PROGRAMS["if"]))["main"].body
    assert isinstance(body, Let) and body.value.op.name == "exp" and isinstance(body.body, If)
    then = body.body.true_branch
    assert isinstance(then, Call) and then.args[0] is body.var and then.args[1] is body.var


def test_a_normal_form_binds_inside_branches_and_closures():
    """TVM 0.19 (closure): exp at the top; the closure's add inside its body, bound there."""
    main = ToANormalForm()(relay.fromtext(PROGRAMS["closure"]))["main"]
    first = main.body
    assert isinstance(first, Let) and first.value.op.name == "exp"
    fn = first.body.value
    assert isinstance(fn, relay.Function) and isinstance(fn.body, Let) and fn.body.value.op.name == "add"


def test_graph_form_keeps_effects():
    """A reference write's let stays, and the program still reads 2x. TVM 0.19 (the program
    built with its Python API: its parser has no reference syntax) drops the unused write:
    ``%0 = ref(%x); ref_read(%0)``, which returns [1, 2] instead of [2, 4] for x = [1, 2]."""
    mod = relay.fromtext(f"""def @main(%x: {T}) -> {T} {{
  let %r = ref(%x); let %w = (%r := multiply(%x, 2f)); let %v = add(%x, %x); %r^ }}""")
    out = ToGraphNormalForm()(mod)
    assert count_lets(out["main"]) == 2
    x = np.array([1, 2], "float32")
    got = relay.create_executor("debug", mod=out).evaluate()(x)
    np.testing.assert_array_equal(np.asarray(got), 2 * x)


def test_infos_and_kinds():
    from relay_mlir.transform import FunctionPass, ModulePass

    for p, name, kind in ((ToANormalForm(), "ToANormalForm", ModulePass),
                          (ToBasicBlockNormalForm(), "ToBasicBlockNormalForm", ModulePass),
                          (ToGraphNormalForm(), "ToGraphNormalForm", FunctionPass)):
        assert (p.info.name, p.info.opt_level, p.info.required) == (name, 1, ())
        assert isinstance(p, kind)
    mod = relay.fromtext(PROGRAMS["dag"])
    with PassContext(opt_level=0):
        assert count_lets(Sequential([ToANormalForm()])(mod)["main"]) == 0
