"""relay.transform.PartialEvaluate against TVM 0.19.

TVM's results were recorded in the side venv (/work/tvmvenv, TVM 0.19): each program parsed
with ``tvm.relay.fromtext``, typed, ``PartialEvaluate()`` then ``DeadCodeElimination()``
applied (TVM's result is let-bound A-normal form; DCE drops its dead lets), and the operators
left in main counted (lets not counted: relay-mlir's result is in graph form).
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from pass_checks import node_counts
from relay_mlir.expr import Call, Constant, GlobalVar
from relay_mlir.transform import PartialEvaluate

T = "Tensor[(2), float32]"
PROGRAMS = {
    "closure_const": f"""
def @main(%x: {T}) -> {T} {{
  let %f = fn (%p: {T}, %q: {T}) -> {T} {{ add(%p, %q) }};
  %f(%x, %f(ones(shape=[2], dtype="float32"), ones(shape=[2], dtype="float32")))
}}""",
    "if_const": f"""
def @main(%x: {T}) -> {T} {{ if (less(1, 2)) {{ exp(%x) }} else {{ negative(%x) }} }}""",
    "global": f"""
def @sq(%y: {T}) -> {T} {{ multiply(%y, %y) }}
def @main(%x: {T}) -> {T} {{ add(@sq(%x), @sq(full(3f, shape=[2], dtype="float32"))) }}""",
}
TVM_MAIN_OPS = {"closure_const": {"add": 1}, "if_const": {"exp": 1},
                "global": {"add": 1, "multiply": 1}}
TVM_GLOBALS = {"closure_const": ["main"], "if_const": ["main"], "global": ["main", "sq"]}
NUMPY = {"closure_const": lambda x: x + 2, "if_const": np.exp, "global": lambda x: x * x + 9}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_partial_evaluate_as_tvm(name):
    mod = relay.fromtext(PROGRAMS[name])
    out = PartialEvaluate()(mod)
    assert node_counts(out) == TVM_MAIN_OPS[name]
    assert sorted(g.name_hint for g in out.get_global_vars()) == TVM_GLOBALS[name]
    x = np.array([0.5, -1.25], "float32")
    for m in (mod, out):
        got = relay.create_executor("debug", mod=m).evaluate()(x)
        np.testing.assert_allclose(np.asarray(got), NUMPY[name](x), rtol=1e-6)


def test_static_constant_is_folded():
    """closure_const: the inner call on constants is computed (TVM: meta[relay.Constant][0],
    [2, 2]); what is added to x is a constant."""
    out = PartialEvaluate()(relay.fromtext(PROGRAMS["closure_const"]))
    const = [a for a in out["main"].body.args if isinstance(a, Constant)]
    assert len(const) == 1 and const[0].data.tolist() == [2.0, 2.0]


def test_recursive_call_stays_unlike_tvm():
    """TVM 0.19 runs @fact(5) at compile time (main becomes 120); relay-mlir keeps the call of a
    recursive function, with the same result."""
    mod = relay.fromtext("""
def @fact(%n: int32) -> int32 { if (less(%n, 1)) { 1 } else { multiply(%n, @fact(subtract(%n, 1))) } }
def @main() -> int32 { @fact(5) }""")
    out = PartialEvaluate()(mod)
    body = out["main"].body
    assert isinstance(body, Call) and isinstance(body.op, GlobalVar) and body.op.name_hint == "fact"
    assert int(relay.create_executor("debug", mod=out).evaluate()()) == 120


def test_info():
    p = PartialEvaluate()
    assert (p.info.name, p.info.opt_level, p.info.required) == ("PartialEval", 1, ())
