"""CI-sized run of the pass fuzzer (fuzz/pass_fuzz.py, issue 31).

Every pass of relay_mlir.transform (discovered from the module, so passes added later are
covered when they land) and its variants runs on 20 random programs (seed 31, 8 nodes,
with the patterns the passes look for); the reference interpreter's outputs before and
after must agree and the result must type-check with main's type unchanged. Plus the
regression cases of the findings fixed (docs/fuzzing_programs.md, "Passes (issue 31)").
"""
from __future__ import annotations

import functools
import sys

import numpy as np
import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "fuzz"))
import pass_fuzz  # noqa: E402

import relay_mlir as relay  # noqa: E402

SEED, COUNT, OPS = 31, 20, 8
TABLE = pass_fuzz.with_sequential(pass_fuzz.discover_passes())


@functools.lru_cache(maxsize=None)
def _programs():
    return [pass_fuzz.Program(SEED, 10_000 + i, n_ops=OPS) for i in range(COUNT)]


def test_programs_are_deterministic_and_cover_the_patterns() -> None:
    progs = _programs()
    again = pass_fuzz.Program(SEED, 10_000, n_ops=OPS)
    assert again.text == progs[0].text
    assert all(p.error is None for p in progs), [p.error for p in progs if p.error][:1]
    used = {op for p in progs for op in p.gen.ops_used}
    for pattern in ("par_", "pad", "div_const", "cast_chain", "dup"):
        assert any(op.startswith(pattern) for op in used), (pattern, sorted(used))


def test_the_passes_are_discovered() -> None:
    for name in ("FoldConstant", "SimplifyExpr", "DeadCodeElimination", "CombineParallelConv2D",
                 "CombineParallelDense(min_num_branches=2, to_batch=False)"):
        assert name in TABLE
    assert "InferType" not in TABLE


@pytest.mark.parametrize("name", list(TABLE))
def test_pass_agrees_with_the_interpreter(name: str) -> None:
    bad = []
    for prog in _programs():
        r = prog.check(name, TABLE)
        if r["verdict"] in pass_fuzz.FINDINGS:
            bad.append(f"{SEED}:{prog.index} {r['verdict']}: {r['detail'][:500]}")
    assert not bad, ("reproduce with python fuzz/pass_fuzz.py --seed 31 --ops 8 --only N "
                     f"--pass '{name}' -v --print\n" + "\n".join(bad))


def test_compare_handles_nan_inf_and_dtypes() -> None:
    nan, inf = np.float32("nan"), np.float32("inf")
    a = np.array([1.0, nan, inf, -inf], "float32")
    assert pass_fuzz.compare(a.copy(), a, 1e-4, 1e-4) is None
    assert pass_fuzz.compare(np.array([1.0, nan, inf, inf], "float32"), a, 1e-4, 1e-4)
    assert pass_fuzz.compare(np.array([1.0, 0.0, inf, -inf], "float32"), a, 1e-4, 1e-4)
    assert pass_fuzz.compare(np.array([1, 2]), np.array([1, 3]), 1, 1)            # ints exact
    assert pass_fuzz.compare(np.array([1.0], "float16"), np.array([1.0], "float32"), 1e-4, 1e-4)
    assert pass_fuzz.compare(np.array([1.0], "float16"), np.array([1.0], "float32"), 1e-4, 1e-4, cast=True) is None


def test_a_wrong_pass_is_a_mismatch() -> None:
    """The checker's own check: a pass that changes a value is reported."""
    x = relay.var("x", shape=(3,))
    mod = relay.IRModule.from_expr(relay.Function([x], relay.exp(x)))
    inputs = [np.array([0.0, 1.0, 2.0], "float32")]
    want = pass_fuzz._run(mod, inputs)

    @relay.transform.function_pass(opt_level=0, name="Wrong")
    def wrong(func, mod, ctx):
        return relay.Function(func.params, relay.exp(relay.multiply(func.params[0], relay.const(1.001))))

    table = {"Wrong": ("Wrong", {})}
    orig = pass_fuzz.make_pass
    try:
        pass_fuzz.make_pass = lambda name, t=None: wrong
        r = pass_fuzz.check_pass(mod, inputs, want, "Wrong", table)
    finally:
        pass_fuzz.make_pass = orig
    assert r["verdict"] == "mismatch", r


def test_findings_are_reduced_and_saved(tmp_path) -> None:
    """A pass that is wrong on every program with an exp gives a finding whose reduced
    program is a cut of the original that still has it."""
    from relay_mlir.expr_functor import ExprMutator

    class ExpToSinh(ExprMutator):
        def visit_call(self, call):
            new = super().visit_call(call)
            if getattr(new.op, "name", None) == "exp":
                return relay.sinh(new.args[0])
            return new

    @relay.transform.function_pass(opt_level=0, name="ExpToSinh")
    def wrong(func, mod, ctx):
        return ExpToSinh().visit(func)

    table = {"ExpToSinh": ("ExpToSinh", {})}
    orig = pass_fuzz.make_pass
    pass_fuzz.make_pass = lambda name, t=None: wrong
    try:
        for i in range(40):
            prog = pass_fuzz.Program(SEED, 20_000 + i, n_ops=OPS)
            if prog.error is None and " exp(" in prog.text:
                r = prog.check("ExpToSinh", table)
                if r["verdict"] == "mismatch":
                    break
        else:
            pytest.skip("no program with a live exp")
        path = pass_fuzz.save_finding(str(tmp_path), prog, "ExpToSinh", r, table)
    finally:
        pass_fuzz.make_pass = orig
    import json
    doc = json.loads(open(path).read())
    assert (doc["seed"], doc["index"], doc["pass"], doc["verdict"]) == (SEED, prog.index, "ExpToSinh", "mismatch")
    assert "exp(" in doc["reduced"] and len(doc["reduced"]) <= len(doc["program"])
    assert len(doc["inputs"]) == len(prog.inputs)
