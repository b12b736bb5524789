"""Issue 35 item 2, one data path: what ``relay.compile`` does, each step once (docs/design.md,
"Data path").

- types are inferred once per compile (the caller's typing is not repeated by the lowering);
- the module crosses to the worker once (an ``IRModule`` as bytecode, user text as it is) and
  comes back once (a file iree-compile reads), with the facts the compiler needs (loops, host
  branches, run-time sizes) as structured fields, not read from the text;
- the Python passes' pass pipelines run in the worker too: a C++ crash there is a
  ``CompileError``, not the end of the caller.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir import _worker, compiler, emit, lowering_request, optimizer
from relay_mlir.errors import CompileError
from conftest import PARSER_ABORTING_MLIR


def _relu_module() -> relay.IRModule:
    x = relay.var("x", shape=(2, 3))
    return relay.IRModule.from_expr(relay.Function([x], relay.nn.relu(x) * relay.const(2.0)))


def _loop_module() -> relay.IRModule:
    """A self tail call, which relay-eliminate-recursion makes a loop."""
    mod = relay.IRModule()
    loop = relay.GlobalVar("loop")
    x = relay.var("x", shape=(2,))
    n = relay.var("n", shape=(), dtype="int32")
    mod[loop] = relay.Function([x, n], relay.If(relay.equal(n, relay.const(0)), x,
                                                loop(relay.negative(x), n - relay.const(1))))
    a = relay.var("a", shape=(2,))
    mod["main"] = relay.Function([a], loop(a, relay.const(5)))
    return mod


def _if_module() -> relay.IRModule:
    c = relay.var("c", shape=(), dtype="bool")
    x = relay.var("x", shape=(3,))
    return relay.IRModule.from_expr(relay.Function([c, x], relay.If(c, relay.exp(x), relay.negative(x))))


def _any_module() -> relay.IRModule:
    x = relay.var("x", shape=(relay.Any(), 4))
    return relay.IRModule.from_expr(relay.Function([x], relay.sigmoid(x)))


_USER_TEXT = """
func.func @main(%x: tensor<3xf32>) -> !relay.incomplete {
  %y = relay.exp %x : (tensor<3xf32>) -> !relay.incomplete
  return %y : !relay.incomplete
}"""


# -- the pipeline: the caller's typing is not repeated --------------------------------------
def test_lowering_pipeline_skips_the_callers_typing() -> None:
    lower = "builtin.module(relay-to-iree-input{convert-layout=false})"
    # no optimizer pass: relay-to-iree-input's own relay-infer-type is off
    assert (compiler.lowering_pipeline(lower, [], typed=True)
            == "builtin.module(relay-to-iree-input{convert-layout=false infer-type=false})")
    # optimizer passes: the first one's relay-infer-type is dropped; relay-to-iree-input
    # re-types the last pass's output (as after every pass)
    passes = ["relay-infer-type,relay-fold-constants", "relay-infer-type,relay-simplify-expr"]
    assert compiler.lowering_pipeline(compiler.PIPELINE, passes, typed=True) == (
        "builtin.module(relay-fold-constants,relay-infer-type,relay-simplify-expr,relay-to-iree-input)")
    # a module nobody typed yet keeps every relay-infer-type
    assert compiler.lowering_pipeline(compiler.PIPELINE, passes, typed=False) == (
        "builtin.module(" + ",".join(passes) + ",relay-to-iree-input)")


def _count_inference(monkeypatch, capfd, lower) -> int:
    """How many times relay-infer-type runs while ``lower()`` runs in this process (pass
    headers printed by every pass pipeline, in the caller's and the worker's code)."""
    monkeypatch.setenv("RELAY_MLIR_ISOLATE", "0")
    real = emit.run_passes

    def traced(ctx, op, pipeline, what, trace_passes=False):
        return real(ctx, op, pipeline, what, trace_passes=True)

    for module in (emit, _worker, lowering_request):
        monkeypatch.setattr(module, "run_passes", traced)
    capfd.readouterr()
    lower()
    return capfd.readouterr().err.count("IR Dump Before RelayInferType")


_NO_OPTIMIZER = dict(opt_level=0, disabled_pass=["SimplifyInference", "SimplifyExpr",
                                                 "FlattenAtrousConv", "SimplifyExprPostAlterOp"])


@pytest.mark.parametrize("source", [_relu_module, lambda: _USER_TEXT], ids=["irmodule", "text"])
def test_types_are_inferred_once(monkeypatch, capfd, source) -> None:
    def lower():
        with relay.transform.PassContext(**_NO_OPTIMIZER):
            assert optimizer.pipeline_elements(optimizer.context_for(None)) == []
            relay.lower_to_iree_input(source())

    assert _count_inference(monkeypatch, capfd, lower) == 1


def test_optimizer_passes_are_each_retyped_once(monkeypatch, capfd) -> None:
    """At opt level 0 (SimplifyInference, SimplifyExpr, FlattenAtrousConv,
    SimplifyExprPostAlterOp): the caller's typing, then each pass's output typed once (before
    the next pass, and first in relay-to-iree-input)."""
    passes = optimizer.pipeline_elements(optimizer.context_for(0))
    assert len(passes) == 4
    n = _count_inference(monkeypatch, capfd, lambda: relay.lower_to_iree_input(_relu_module(), opt_level=0))
    assert n == 1 + len(passes)


# -- facts about the lowered program, as structured data ------------------------------------
@pytest.mark.parametrize("make, loop, branches, sizes", [
    (_relu_module, False, False, False),
    (_loop_module, True, True, False),
    (_if_module, False, True, False),
    (_any_module, False, False, True),
])
def test_lowered_facts(make, loop, branches, sizes) -> None:
    low = compiler._lower_source(make(), opt_level=0)
    assert (low.has_loop, low.host_branches, low.run_time_sizes) == (loop, branches, sizes)
    # what the lowered text shows agrees (the ops and `?` dims the facts name)
    text = low.text()
    assert ("cf.cond_br" in text or "scf.while" in text) == loop
    assert ("?x" in text) == sizes


# -- one crossing each way ------------------------------------------------------------------
@pytest.fixture(scope="module")
def compiled_with_requests():
    """A compile of an IRModule and of user text, the worker requests each sent, and what
    iree-compile was given."""
    sent, given = [], []
    real_request, real_compile = _worker.WorkerClient.request, compiler._compile

    def request(self, req):
        sent.append(dict(req))
        return real_request(self, req)

    def compile_(src, target, args):
        given.append(src)
        return real_compile(src, target, args)

    mp = pytest.MonkeyPatch()
    mp.setattr(_worker.WorkerClient, "request", request)
    mp.setattr(compiler, "_compile", compile_)
    try:
        out = {}
        for name, source in (("module", _relu_module()), ("text", _USER_TEXT)):
            sent.clear()
            given.clear()
            exe = relay.compile(source)
            out[name] = (exe, list(sent), list(given))
        return out
    finally:
        mp.undo()


def test_an_irmodule_crosses_once_as_bytecode(compiled_with_requests) -> None:
    exe, sent, given = compiled_with_requests["module"]
    assert len(sent) == 1
    req = sent[0]
    assert req["bytecode"] and "text" not in req and req["typed"]
    assert all(str(g) == req["output"] for g in given)  # iree-compile reads the worker's file
    x = np.array([[-1, 2, 3], [4, -5, 0.5]], "float32")
    np.testing.assert_allclose(exe(x), np.maximum(x, 0) * 2, rtol=1e-6)
    assert "linalg" in exe.iree_input


def test_user_text_crosses_once_and_is_parsed_once(compiled_with_requests) -> None:
    exe, sent, given = compiled_with_requests["text"]
    assert len(sent) == 1  # parsed, checked and lowered in one request
    assert sent[0]["checks"] and sent[0]["text"] == _USER_TEXT
    x = np.array([0.0, 1.0, -2.0], "float32")
    np.testing.assert_allclose(exe(x), np.exp(x), rtol=1e-6)


# -- the Python passes run their C++ in the worker ------------------------------------------
def test_python_pass_runs_in_the_worker(monkeypatch) -> None:
    sent = []
    real = _worker.WorkerClient.request

    def request(self, req):
        sent.append(req)
        return real(self, req)

    monkeypatch.setattr(_worker.WorkerClient, "request", request)
    x = relay.var("x", shape=(2,))
    c = relay.add(relay.const(np.array([1.0, 2.0], "float32")), relay.const(3.0))
    mod = relay.transform.FoldConstant()(relay.IRModule.from_expr(relay.Function([x], x * c)))
    assert [r["pipeline"] for r in sent] == ["builtin.module(relay-infer-type,relay-fold-constants)"]
    out = relay.create_executor("debug", mod=mod).evaluate()(np.array([2.0, -1.0], "float32"))
    np.testing.assert_allclose(out, [8.0, -5.0])


# PARSER_ABORTING_MLIR (conftest) makes the parser abort; here inside a Python pass's round
# trip, so the worker dies.


def test_a_crash_in_a_python_pass_pipeline_is_a_compile_error() -> None:
    with pytest.raises(CompileError) as ei:
        _worker.run_pipeline(PARSER_ABORTING_MLIR, "builtin.module(relay-fold-constants)", "FoldConstant")
    assert "FoldConstant crashed" in ei.value.message and "relay-fold-constants" in ei.value.message
    # this process lives on, and so does the next request's worker
    text, _ = _worker.run_pipeline("func.func @g(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                                   "  return %a : tensor<2xf32>\n}", "builtin.module(canonicalize)", "canon")
    assert "func.func @g" in text


def test_pass_by_pass_names_each_pass_as_a_stage() -> None:
    """After a crash the request is sent again pass by pass (``pass_by_pass``): each pass of
    the expanded pipeline is announced before it runs, so the last stage names the one that
    crashed. Here nothing crashes: every pass is announced, in order, and the result is the
    same as the pipeline's in one run."""
    text = "func.func @g(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}"
    req = {"text": text, "lowering": compiler.PIPELINE, "passes": [], "typed": False, "facts": True}
    stages: list = []
    by_pass = _worker.run_request(dict(req, pass_by_pass=True), stages.append)
    whole = _worker.run_request(req)
    assert by_pass["ok"] and by_pass["text"] == whole["text"]
    passes = [s[len("pass "):] for s in stages[1:]]
    assert stages[0] == "parsed" and passes[:3] == ["relay-infer-type", "relay-monomorphize", "relay-gradient"]
    assert passes[-1] == "relay-check-no-recursion" and "convert-relay-to-linalg" in passes
    assert _worker.top_level_passes("builtin.module(a{x=1 y=2},func.func(b,c),d)") == [
        "a{x=1 y=2}", "func.func(b,c)", "d"]
