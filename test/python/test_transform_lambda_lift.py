"""relay.transform.LambdaLift (relay-lambda-lift) against TVM 0.19.

TVM's results were recorded in the side venv (/work/tvmvenv, TVM 0.19): each program parsed
with ``tvm.relay.fromtext``, typed, ``LambdaLift()`` applied; each lifted global summarised as
(has ``Closure=1``, its parameter count, the parameter count of the ``fn`` it returns or None).
Names differ (TVM: ``@lifted_name<hash>``; here ``@main$fn<N>``), so the summaries are sorted.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.expr import Function, GlobalVar
from relay_mlir.transform import LambdaLift

T = "Tensor[(2), float32]"
PROGRAMS = {
    "capture": f"""
def @main(%x: {T}, %b: {T}) -> {T} {{ let %f = fn (%p: {T}) -> {T} {{ add(%p, %b) }}; %f(%x) }}""",
    "nocapture": f"""
def @main(%x: {T}) -> {T} {{ let %f = fn (%p: {T}) -> {T} {{ exp(%p) }}; %f(%x) }}""",
    "curry": f"""
def @main(%a: {T}) -> {T} {{
  let %add = fn (%x: {T}) -> fn ({T}) -> {T} {{ fn (%y: {T}) -> {T} {{ add(%x, %y) }} }};
  %add(%a)(%a)
}}""",
    "recursive": """
def @main(%n: int32) -> int32 {
  let %loop = fn (%i: int32) -> int32 { if (less(%i, %n)) { %loop(add(%i, 1)) } else { %i } };
  %loop(0)
}""",
}
TVM_LIFTED = {  # sorted (Closure=1, params, params of the returned fn)
    "capture": [(True, 1, 1)],
    "nocapture": [(False, 1, None)],
    "curry": [(False, 1, None), (True, 1, 1)],
    "recursive": [(True, 1, 1)],
}
ARGS = {"capture": [np.array([1, 2], "float32"), np.array([0.5, -3], "float32")],
        "nocapture": [np.array([1, 2], "float32")], "curry": [np.array([1, -2], "float32")],
        "recursive": [np.array(7, "int32")]}


def lifted(mod) -> list:
    out = []
    for gv in mod.get_global_vars():
        if gv.name_hint == "main":
            continue
        f = mod[gv]
        inner = len(f.body.params) if isinstance(f.body, Function) else None
        out.append((f.attrs.get("Closure") == 1, len(f.params), inner))
    return sorted(out, key=lambda t: (t[0], t[1], -1 if t[2] is None else t[2]))


def closures_in(fn) -> int:
    from relay_mlir.expr_functor import ExprVisitor

    class V(ExprVisitor):
        n = 0

        def visit_function(self, f):
            V.n += 1
            super().visit_function(f)

    V().visit(fn.body)
    return V.n


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_lambda_lift_as_tvm(name):
    mod = relay.fromtext(PROGRAMS[name])
    out = LambdaLift()(mod)
    assert lifted(out) == TVM_LIFTED[name]
    assert closures_in(out["main"]) == 0
    run = lambda m: np.asarray(relay.create_executor("debug", mod=m).evaluate()(*ARGS[name]))  # noqa: E731
    np.testing.assert_array_equal(run(out), run(mod))


def test_lifted_capture_is_called_with_the_captures():
    """capture: main binds @main$fn0(%b) (TVM: @lifted_name...(%b1)) and calls it on %x;
    compiled, main(x, b) = x + b."""
    out = LambdaLift()(relay.fromtext(PROGRAMS["capture"]))
    main = out["main"]
    call = main.body
    while not (hasattr(call, "op") and isinstance(call.op, GlobalVar)):
        call = call.op if hasattr(call, "op") else call.body
    assert call.op.name_hint == "main$fn0" and call.args[0] is main.params[1]
    x, b = ARGS["capture"]
    got = relay.create_executor("vm", mod=out, target="llvm-cpu").evaluate()(x, b)
    np.testing.assert_allclose(np.asarray(got), x + b, rtol=0)


def test_info():
    p = LambdaLift()
    assert (p.info.name, p.info.opt_level, p.info.required) == ("LambdaLift", 1, ())


def test_function_attributes_survive_a_pass():
    """Function.with_attr's attributes (relay.attrs on func.func) read back after an MLIR pass."""
    mod = relay.fromtext("""
def @g(%x: Tensor[(2), float32], Inline=1, Compiler="ccompiler") -> Tensor[(2), float32] { exp(%x) }
def @main(%a: Tensor[(2), float32]) -> Tensor[(2), float32] { @g(%a) }""")
    out = LambdaLift()(mod)
    assert out["g"].attrs == {"Inline": 1, "Compiler": "ccompiler"} and out["main"].attrs == {}
