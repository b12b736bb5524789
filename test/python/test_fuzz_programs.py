"""CI-sized run of the random-program differential tester (fuzz/random_programs.py).

Random well-typed relay programs (seed 13, and the committed seed list
fuzz/programs_corpus.txt) run through the reference interpreter and
``relay.compile`` (default pipeline and ``convert-layout=false``), and their
gradients too: every program must pass (no mismatch, CompileError,
exception, crash or hang). The campaigns and what they found are in
docs/fuzzing_programs.md. Plus regression tests for the bugs it found.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

import relay_mlir as relay

SCRIPT = ROOT / "fuzz" / "random_programs.py"


def _corpus():
    out = []
    for line in (ROOT / "fuzz" / "programs_corpus.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            seed, index = line.split(":")
            out.append((int(seed), int(index)))
    return out


def _run(tmp_path: Path, args) -> list:
    js = tmp_path / "out.json"
    proc = subprocess.run([sys.executable, str(SCRIPT), *args, "--json", str(js),
                           "--findings-dir", str(tmp_path / "findings"), "--timeout", "120"],
                          capture_output=True, text=True, timeout=600)
    assert js.exists(), proc.stdout + proc.stderr
    return json.loads(js.read_text()), proc


def test_random_programs_agree(tmp_path: Path) -> None:
    """20 programs of 8 nodes (seed 13): interpreter == compiled, both pipelines, and gradients."""
    results, proc = _run(tmp_path, ["--seed", "13", "--count", "20", "--ops", "8"])
    (r,) = results
    counts = r["counts"]
    assert counts["pass"] == 20, (
        f"{proc.stdout}\nreproduce with: python fuzz/random_programs.py --seed 13 --ops 8 --only N -v "
        f"(programs in {tmp_path / 'findings'})")
    assert not r["findings"], proc.stdout
    assert r["grad"].get("pass", 0) > 0          # gradients were compared, not only skipped


@pytest.mark.parametrize("seed,index", _corpus(), ids=[f"{s}:{i}" for s, i in _corpus()])
def test_corpus_program(seed: int, index: int) -> None:
    """The committed seed list (programs that once found a bug or cover rare nodes),
    run in this process."""
    sys.path.insert(0, str(ROOT / "fuzz"))
    import random_programs
    r = random_programs.run_program(seed, index)
    assert not random_programs.is_finding(r), (r["verdict"], r["grad"], r.get("detail"), r.get("grad_detail"),
                                               r["text"])


# -- regressions: bugs the fuzzer found -------------------------------------------------

def _interp_and_compiled(fn, *inputs):
    mod = relay.IRModule.from_expr(fn)
    want = relay.create_executor("debug", mod=mod).evaluate()(*inputs)
    got = relay.compile(mod, target="llvm-cpu")(*inputs)
    return want, got


def test_gather_indices_smaller_than_data_in_other_dims() -> None:
    """Seed 1 program 14: ``gather`` whose indices are smaller than data in a dim
    other than ``axis`` (out[i][j][k] = data[i][idx[i][j][k]][k] over idx's shape)
    made the interpreter raise IndexError (np.take_along_axis needs equal dims)."""
    x = relay.var("x", shape=(4, 5, 3))
    idx = np.array([[[0, 4], [2, 1]], [[3, 3], [0, 1]]], "int32")     # (2, 2, 2)
    data = np.arange(60, dtype="float32").reshape(4, 5, 3)
    want, got = _interp_and_compiled(relay.Function([x], relay.gather(x, 1, relay.const(idx))), data)
    ref = np.array([[[data[i, idx[i, j, k], k] for k in range(2)] for j in range(2)] for i in range(2)])
    np.testing.assert_array_equal(want, ref)
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("op", ["sum", "mean", "max", "min", "prod", "all", "any", "argmax"])
@pytest.mark.parametrize("exclude", [False, True])
def test_reduction_with_empty_axis_list_reduces_every_axis(op: str, exclude: bool) -> None:
    """Seed 1 program 16 (through a gradient program): ``axis=[]`` means every axis
    (Relay's GetReduceAxes, the typing rule and the lowering), ``exclude`` or not;
    the interpreter reduced over none and returned the input's shape."""
    dtype = "bool" if op in ("all", "any") else "float32"
    x = relay.var("x", shape=(3, 4), dtype=dtype)
    data = (np.arange(12).reshape(3, 4) % 5 > 1) if dtype == "bool" else \
        np.linspace(0.5, 2, 12, dtype="float32").reshape(3, 4)
    fn = relay.Function([x], getattr(relay, op)(x, axis=[], keepdims=True, exclude=exclude))
    want, got = _interp_and_compiled(fn, data)
    assert want.shape == got.shape == (1, 1)
    np.testing.assert_allclose(want.astype("float64"), got.astype("float64"), rtol=1e-6)


def test_regression_k3_sum_of_take_of_a_splat():
    """Fuzz finding K3 (seed 2, program 103): IREE 3.13 summed `take(ones, idx)` to 1, not
    len(idx) (a generic ignoring its index input, then a reduction). relay-fold-constants
    now folds indexing ops of splats, and zeros/ones, to splats before lowering."""
    a = relay.var("a", shape=(2,))
    idx = relay.const(np.array([0, 1, 1, 0, 1], "int32"))
    for data in (relay.ones_like(a), relay.ones((2,), "float32")):
        f = relay.Function([a], relay.sum(relay.take(data, idx, axis=0, mode="fast")) + relay.sum(a))
        got = relay.compile(relay.IRModule.from_expr(f), target="llvm-cpu").run("main", np.zeros(2, "float32"))
        assert float(got) == 5.0


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "max", "min", "sum_int", "prod_int", "sum_const"])
def test_regression_reduction_of_a_fill(name):
    """Fuzz finding (seed 3, program 232): IREE 3.13 computes a linalg.reduce of a linalg.fill
    as the fill's value (sum(full(0.7, (3,))) gave 0.7): a silently wrong result. The lowering
    now computes reductions of fills from the value (value * count, value ** count, value)."""
    a = relay.var("a", shape=(), dtype="int32" if name.endswith("_int") else "float32")
    x = relay.var("x", shape=(3, 4))
    filled = (relay.full_like(x, relay.const(0.5)) if name == "sum_const"
              else relay.full(a, shape=(2, 3), dtype=a.type_annotation.dtype))
    op = getattr(relay, name.split("_")[0])
    body = op(filled, axis=1) if name != "sum_const" else op(filled)
    f = relay.Function([a, x], body)
    av = np.array(3 if name.endswith("_int") else 0.7, a.type_annotation.dtype)
    xv = np.arange(12, dtype="float32").reshape(3, 4)
    got = relay.compile(relay.IRModule.from_expr(f), target="llvm-cpu").run("main", av, xv)
    data = np.full((3, 4), 0.5, "float32") if name == "sum_const" else np.full((2, 3), av)
    want = getattr(np, name.split("_")[0])(data, axis=None if name == "sum_const" else 1)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


def test_regression_k2_dense_of_a_slice():
    """Fuzz finding K2 (seeds 2:27, 2:87): iree-compile rejected nn.dense of a 1-d slice
    (a slice + expand_shape folded into a rank-increasing extract_slice); a vector
    dense now lowers to linalg.matvec."""
    x = relay.var("x", shape=(3,))
    w = relay.const(np.arange(8, dtype="float32").reshape(4, 2))
    f = relay.Function([x], relay.nn.dense(relay.strided_slice(x, [1], [3]), w))
    xv = np.array([5.0, 1.0, 2.0], "float32")
    got = relay.compile(relay.IRModule.from_expr(f), target="llvm-cpu").run("main", xv)
    np.testing.assert_allclose(got, np.arange(8, dtype="float32").reshape(4, 2) @ xv[1:])


def test_regression_large_bool_constant():
    """A bool constant of more than 100 elements printed as hex data that iree-compile 3.13 read
    with another size ("elements hex data size is invalid for provided type"); it is lowered as
    an i8 constant truncated to i1 (found while writing the ONNX NonMaxSuppression converter)."""
    x = relay.var("x", shape=(12, 12), dtype="bool")
    data = np.random.default_rng(0).uniform(size=(12, 12)) < 0.5
    f = relay.Function([x], relay.logical_and(x, relay.const(data)))
    got = relay.compile(relay.IRModule.from_expr(f), target="llvm-cpu").run("main", np.ones((12, 12), bool))
    assert np.asarray(got).dtype == np.bool_
    np.testing.assert_array_equal(np.asarray(got), data)


@pytest.mark.parametrize("op,axis", [("sum", [1, 2]), ("sum", None), ("mean", [0, 2]), ("max", [1]),
                                     ("min", None)])
def test_regression_reductions_of_broadcasts(op, axis):
    """Reductions of broadcasts are computed from the broadcast's source; full reductions run
    the last dim first (IREE 3.13 rejected sum(a * s) for a: (1, 3, 1, 5), s: (5, 1) and the
    gradients of such products: random-program fuzzer, seed 3 programs 56, 574, 758, 783)."""
    x = relay.var("x", shape=(4,))
    a = relay.var("a", shape=(1, 3, 1, 5))
    s = relay.var("s", shape=(5, 1))
    body = relay.Tuple([getattr(relay, op)(relay.broadcast_to(x, (2, 3, 4)), axis=axis),
                        getattr(relay, op)(a * s, axis=None if axis is None else [0])])
    rng = np.random.default_rng(0)
    xv, av, sv = (rng.normal(size=sh).astype("float32") for sh in [(4,), (1, 3, 1, 5), (5, 1)])
    got = relay.compile(relay.IRModule.from_expr(relay.Function([x, a, s], body)), target="llvm-cpu").run(
        "main", xv, av, sv)
    ax = None if axis is None else tuple(axis)
    want = [getattr(np, op)(np.broadcast_to(xv, (2, 3, 4)), axis=ax),
            getattr(np, op)(av * sv, axis=None if axis is None else (0,))]
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-5, atol=1e-5)


# -- loops (issue 29): recursive functions over scalar, tuple and small-tensor state -----------

# The Relay paper's Fig. 2 loop as TVM 0.19 prints it: a let-bound recursive
# function over three int32 scalars. It compiled but failed at run time in
# IREE ("indirect buffer reference slot 0 is out range ...": IREE 3.13 packed
# the loop-carried tensors into one buffer and lost one) until
# relay-eliminate-recursion boxed the tensors of loops carrying two or more.
FIG2 = """#[version = "0.0.5"]
def @main(%i: int32, %j: int32, %k: int32) -> (int32, int32, int32) {
  let %loop = fn (%i1: int32, %j1: int32, %k1: int32) -> (int32, int32, int32) {
    %0 = add(%i1, %j1);
    %1 = less(%0, 10);
    %2 = multiply(%j1, %k1);
    %3 = less(%2, 100);
    %4 = not_equal(%1, %3);
    %5 = add(%i1, %j1);
    %6 = greater_equal(%k1, %5);
    %7 = equal(%4, %6);
    if (%7) {
      %8 = add(%i1, %j1);
      %9 = add(%j1, %k1);
      %10 = add(%k1, 1);
      %loop(%8, %9, %10)
    } else {
      (%i1, %j1, %k1)
    }
  };
  %loop(%i, %j, %k)
}
"""


def _fig2_reference(i, j, k):
    while ((i + j < 10) != (j * k < 100)) == (k >= i + j):
        i, j, k = i + j, j + k, k + 1
    return i, j, k


def test_regression_issue29_fig2_loop():
    """Issue 29: Fig. 2 compiled with the VM executor (llvm-cpu) gives (9, 7, 4) on (3, 2, 2),
    and agrees with the debug executor on inputs going round 0 to 8 times."""
    mod = relay.fromtext(FIG2)
    vm = relay.create_executor("vm", mod=mod, target="llvm-cpu").evaluate()
    debug = relay.create_executor("debug", mod=mod).evaluate()
    for args, want in [((3, 2, 2), (9, 7, 4)), ((1, 1, 1), (8, 7, 4)), ((4, 4, -3), (8, 8, 5)),
                       ((0, 0, 0), (0, 0, 0)), ((-5, 6, -3), (9, 6, 4))]:
        assert _fig2_reference(*args) == want
        xs = [np.array(v, "int32") for v in args]
        ref, got = debug(*xs), vm(*xs)
        assert tuple(int(x) for x in ref) == want, args
        assert tuple(int(x) for x in got) == want, args
        assert all(np.asarray(x).dtype == np.int32 and np.asarray(x).shape == () for x in got)


def _loop_generator():
    sys.path.insert(0, str(ROOT / "fuzz"))
    import random_programs
    return random_programs


def test_loop_generator_makes_fig2_and_is_deterministic():
    """The loop generator (``--kind loops``) can produce Fig. 2's shape (three int32
    inputs, its condition and updates, the state tuple as the exit), and program
    (seed, i) depends only on (seed, i). Generation only (shadow evaluation), no compile."""
    rp = _loop_generator()
    fig2 = []
    for i in range(40):
        gen = rp.LoopGenerator(0, i)
        mod, inputs = gen.generate()
        text = mod.astext()
        assert rp.LoopGenerator(0, i).generate()[0].astext() == text
        if "fig2" in gen.features:
            fig2.append(text)
    assert fig2, "no Fig. 2 loop in seed 0 programs 0-39"
    body = fig2[0]
    for line in ["less(%0, ", "multiply(%j, %k)", "not_equal(%1, %3)", "greater_equal(%k, %5)",
                 "equal(%4, %6)", "add(%k, 1)", "(%i, %j, %k)"]:
        assert line in body, (line, body)


def test_random_loop_programs_agree(tmp_path: Path) -> None:
    """A smoke run of the loop generator: 8 programs of recursive loops (--kind loops,
    seed 7; let-bound, global and relay.loops.while_loop loops, nested loops, non-tail
    recursion, tuple/tensor/bool/int64 state), interpreter == compiled (default pipeline)."""
    results, proc = _run(tmp_path, ["--kind", "loops", "--seed", "7", "--count", "8", "--configs", "default"])
    (r,) = results
    assert r["counts"]["pass"] == 8, (
        f"{proc.stdout}\nreproduce with: python fuzz/random_programs.py --kind loops --seed 7 --only N -v "
        f"--configs default; reduce with: python fuzz/reduce_loops.py --seed 7 --index N")
    kinds = set(r["ops"])
    for feature in ["+let_loop", "+global_loop", "+nested_loop", "+tuple_state", "+float_condition"]:
        assert feature in kinds, (feature, sorted(kinds))
