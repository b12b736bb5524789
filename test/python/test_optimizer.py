"""Relay's optimizer inside compile() (relay_mlir.optimizer, issue 31): relay.build's pass
sequence, filtered by the PassContext as a Sequential filters it.

TVM 0.19 facts (recorded in the side venv with a PassInstrument around relay.build of a
conv2d + relu program, target llvm): the passes that ran, in order, at each opt level (the
ones relay-mlir leaves out, ToBasicBlockNormalForm and AlterOpLayout, are in optimizer.MISSING
and left out here; FoldScaleAxis's members are listed in its place, qnn.Legalize's QnnLegalize
in its place (its QnnCanonicalize is relay-mlir's lowering of the qnn ops); FlattenAtrousConv,
opt level 0, runs at every level):
"""
from __future__ import annotations

import contextlib

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir import optimizer
from relay_mlir.transform import PassContext, PassInstrument
from relay_mlir.tvm.target import Target

from pass_checks import node_counts

TVM_BUILD_PASSES = {
    0: ["SimplifyInference", "SimplifyExpr", "FlattenAtrousConv", "SimplifyExprPostAlterOp"],
    1: ["RemoveUnusedFunctions", "QnnLegalize", "Legalize", "SimplifyInference", "SimplifyExpr",
        "FlattenAtrousConv", "SimplifyExprPostAlterOp"],
    2: ["RemoveUnusedFunctions", "QnnLegalize", "Legalize", "SimplifyInference", "FoldConstant", "FoldConstant",
        "SimplifyExpr", "FlattenAtrousConv", "SimplifyExprPostAlterOp", "FoldConstant"],
    3: ["RemoveUnusedFunctions", "QnnLegalize", "Legalize", "SimplifyInference", "EliminateCommonSubexpr",
        "FoldConstant", "BackwardFoldScaleAxis",
        "ForwardFoldScaleAxis", "FoldConstant", "SimplifyExpr", "CanonicalizeCast",
        "CanonicalizeOps", "FlattenAtrousConv", "SimplifyExprPostAlterOp", "FoldConstant"],
    4: ["RemoveUnusedFunctions", "QnnLegalize", "Legalize", "SimplifyInference", "EliminateCommonSubexpr",
        "CombineParallelConv2d",
        "CombineParallelDense", "CombineParallelBatchMatmul", "FoldConstant",
        "BackwardFoldScaleAxis", "ForwardFoldScaleAxis", "FoldConstant", "SimplifyExpr",
        "CanonicalizeCast", "CanonicalizeOps", "FlattenAtrousConv", "SimplifyExprPostAlterOp",
        "FastMath",
        "FoldConstant"],
}
MLIR_NAME = {"RemoveUnusedFunctions": "relay-remove-unused-functions", "Legalize": "relay-legalize",
             "SimplifyInference": "relay-simplify-inference", "SimplifyExpr": "relay-simplify-expr",
             "FoldConstant": "relay-fold-constants",
             "EliminateCommonSubexpr": "relay-eliminate-common-subexpr",
             "BackwardFoldScaleAxis": "relay-backward-fold-scale-axis",
             "ForwardFoldScaleAxis": "relay-forward-fold-scale-axis",
             "CanonicalizeCast": "relay-canonicalize-cast", "CanonicalizeOps": "relay-canonicalize-ops",
             "CombineParallelConv2d": "relay-combine-parallel-conv2d",
             "CombineParallelDense": "relay-combine-parallel-dense",
             "CombineParallelBatchMatmul": "relay-combine-parallel-batch-matmul",
             "FastMath": "relay-fast-math",
             "SimplifyExprPostAlterOp": "relay-simplify-expr-post-alter-op",
             "FlattenAtrousConv": "relay-flatten-atrous-conv", "QnnLegalize": "relay-qnn-legalize"}


def _names(elements):
    return [e.split(",")[1].split("{")[0] for e in elements]


@pytest.mark.parametrize("level", sorted(TVM_BUILD_PASSES))
def test_the_passes_run_at_each_level_are_relay_builds(level):
    with Target("llvm"):  # relay.build's target: qnn.Legalize's x86 rewrite runs
        got = _names(optimizer.pipeline_elements(PassContext(opt_level=level)))
    assert got == [MLIR_NAME[n] for n in TVM_BUILD_PASSES[level]]
    # without a CPU target qnn.Legalize rewrites nothing (TVM's generic function): no pass
    got = _names(optimizer.pipeline_elements(PassContext(opt_level=level)))
    assert got == [MLIR_NAME[n] for n in TVM_BUILD_PASSES[level] if n != "QnnLegalize"]


def test_disabled_and_required_passes():
    ctx = PassContext(opt_level=3, disabled_pass=["FoldScaleAxis", "EliminateCommonSubexpr"],
                      required_pass=["FastMath"])
    got = [e.split(",")[1] for e in optimizer.pipeline_elements(ctx)]
    assert "relay-eliminate-common-subexpr" not in got and "relay-fast-math" in got
    assert got.count("relay-fold-constants") == 2  # FoldScaleAxis's own FoldConstant went with it
    assert not any("fold-scale-axis" in g for g in got)


def _conv_bn():
    rng = np.random.default_rng(0)
    x = relay.var("x", shape=(1, 3, 8, 8))
    w = relay.const(rng.standard_normal((4, 3, 3, 3)).astype("float32"))
    gamma, beta, mean = (relay.const(rng.standard_normal(4).astype("float32")) for _ in range(3))
    var = relay.const(rng.uniform(0.5, 2, 4).astype("float32"))
    y = relay.nn.batch_norm(relay.nn.conv2d(x, w, padding=(1, 1)), gamma, beta, mean, var)[0]
    return relay.IRModule.from_expr(relay.Function([x], relay.nn.relu(y))), rng.standard_normal((1, 3, 8, 8)).astype("float32")


def test_optimize_folds_batch_norm_into_the_convolution_at_o3_only():
    mod, _ = _conv_bn()
    o1 = node_counts(optimizer.optimize(mod, opt_level=1))
    o3 = node_counts(optimizer.optimize(mod, opt_level=3))
    assert o1.get("multiply") and "nn.batch_norm" not in o1, o1  # SimplifyInference (level 0)
    assert "multiply" not in o3 and o3.get("nn.conv2d") == 1, o3  # the scale is in the weights


@pytest.mark.parametrize("level", [0, 3, 4])
def test_compile_optimizes_and_keeps_the_outputs(level):
    mod, xs = _conv_bn()
    want = relay.create_executor("debug", mod=mod).evaluate()(xs)
    exe = relay.compile(mod, target="llvm-cpu", opt_level=level)
    np.testing.assert_allclose(exe(xs), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("level", [0, 3])
def test_compile_flattens_atrous_convolutions_at_every_level(level):
    # FlattenAtrousConv (opt level 0) runs after CanonicalizeOps, as in relay.build
    x, w = relay.var("x", shape=(1, 10, 10, 3)), relay.var("w", shape=(3, 3, 3, 4))
    y = relay.nn.space_to_batch_nd(x, [2, 2], [[2, 2], [2, 2]])
    y = relay.nn.conv2d(y, w, data_layout="NHWC", kernel_layout="HWIO")
    y = relay.nn.batch_to_space_nd(y, [2, 2], [[0, 0], [0, 0]])
    mod = relay.IRModule.from_expr(relay.Function([x, w], y))
    assert node_counts(optimizer.optimize(mod, opt_level=level)) == {"nn.conv2d": 1}
    rng = np.random.default_rng(1)
    args = [rng.standard_normal((1, 10, 10, 3)).astype("float32"),
            rng.standard_normal((3, 3, 3, 4)).astype("float32")]
    want = relay.create_executor("debug", mod=mod).evaluate()(*args)
    got = relay.compile(mod, target="llvm-cpu", opt_level=level)(*args)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_compile_uses_the_current_context_and_3_outside_any():
    assert optimizer.context_for(None).opt_level == 3
    with PassContext(opt_level=1) as ctx:
        assert optimizer.context_for(None) is ctx
        assert optimizer.context_for(2).opt_level == 2
    with PassContext(opt_level=3, disabled_pass=["FoldConstant"]):
        assert optimizer.context_for(0).disabled_pass == ("FoldConstant",)


def test_instruments_see_each_pass_compile_runs():
    seen = []

    class Record(PassInstrument):
        def run_before_pass(self, mod, info):
            seen.append(info.name)

    mod, xs = _conv_bn()
    want = relay.create_executor("debug", mod=mod).evaluate()(xs)
    with PassContext(opt_level=3, instruments=[Record()]):
        exe = relay.compile(mod, target="llvm-cpu")
    np.testing.assert_allclose(exe(xs), want, rtol=1e-5, atol=1e-5)
    ran = [n for n in seen if n not in ("InferType", "FoldScaleAxis", "qnn.Legalize", "RelayOptimizer")]
    assert ran == TVM_BUILD_PASSES[3], seen


@pytest.mark.parametrize("target,qnn", [(None, "none"), ("llvm", "int16"),
                                        ("llvm -mcpu=skylake-avx512", "fast-int8")])
@pytest.mark.parametrize("level", sorted(TVM_BUILD_PASSES))
def test_relay_mlir_opt_pipeline_runs_the_same_passes(level, target, qnn):
    import subprocess

    from conftest import cli_command

    out = subprocess.run(cli_command("relay-mlir-opt") + [
        "-", f"--pass-pipeline=builtin.module(relay-opt-pipeline{{opt-level={level} "
        f"qnn-legalize={qnn}}})", "--dump-pass-pipeline", "-o", "/dev/null"],
        input="module {}\n", capture_output=True, text=True, check=True)
    dumped = [ln.strip().rstrip(",") for ln in out.stderr.splitlines()
              if ln.strip().startswith("relay-") and not ln.strip().startswith("relay-infer-type")]
    with Target(target) if target else contextlib.nullcontext():
        python = [e.split(",", 1)[1] for e in optimizer.pipeline_elements(PassContext(opt_level=level))]
    want = [MLIR_NAME[n] for n in TVM_BUILD_PASSES[level] if target or n != "QnnLegalize"]
    assert [d.split("{")[0] for d in dumped] == [p.split("{")[0] for p in python] == want
    qnn_passes = [d for d in dumped + python if d.startswith("relay-qnn-legalize")]
    fast = "true" if qnn == "fast-int8" else "false"
    assert qnn_passes == ([f"relay-qnn-legalize{{fast-int8={fast}}}"] * 2 if target and level else [])


def _qnn_conv():
    x = relay.var("x", shape=(1, 8, 6, 6), dtype="int8")
    w = relay.var("w", shape=(4, 8, 3, 3), dtype="int8")
    y = relay.qnn.op.conv2d(x, w, relay.const(3), relay.const(-2), relay.const(0.5),
                            relay.const(0.25), kernel_size=(3, 3), channels=4, padding=(1, 1))
    rng = np.random.default_rng(4)
    args = [rng.integers(-128, 128, (1, 8, 6, 6)).astype("int8"),
            rng.integers(-128, 128, (4, 8, 3, 3)).astype("int8")]
    return relay.IRModule.from_expr(relay.Function([x, w], y)), args


@pytest.mark.parametrize("target,conv", [("llvm", "int16"), ("llvm -mcpu=skylake-avx512", "uint8")])
def test_compile_runs_qnn_legalize_under_a_cpu_target_with_the_same_values(target, conv):
    # relay.build's qnn.Legalize (TVM's x86 rewrite) runs under a CPU tvm Target, as in TVM;
    # the int32 results are the same bit for bit (and TVM 0.19's on llvm, measured)
    mod, args = _qnn_conv()
    assert "qnn.conv2d" in node_counts(optimizer.optimize(mod, 3))
    plain = relay.compile(mod, target="llvm-cpu")(*args)
    with Target(target):
        counts = node_counts(optimizer.optimize(mod, 3))
        legalized = relay.compile(mod, target="llvm-cpu")(*args)
    if conv == "int16":
        assert "qnn.conv2d" not in counts and counts.get("nn.conv2d") == 1, counts
    else:  # int8 data shifted to uint8: still a qnn.conv2d
        assert counts.get("qnn.conv2d") == 1 and counts.get("cast"), counts
    np.testing.assert_array_equal(np.asarray(legalized), np.asarray(plain))
    with Target(target), PassContext(opt_level=3, disabled_pass=["qnn.Legalize"]):
        assert "relay-qnn-legalize" not in ",".join(optimizer.pipeline_elements(PassContext.current()))


def test_passes_through_mlir_keep_variable_names():
    # TVM's passes keep the names of parameters (graph_executor's set_input("data") after
    # relay.optimize / FoldConstant depends on it); passes that run as MLIR read the names back
    # from the block arguments' locations.
    x, w = relay.var("data", shape=(1, 4)), relay.var("weight", shape=(3, 4))
    y = relay.var("inner", shape=(1, 3))
    inner = relay.Function([y], relay.nn.relu(y))
    mod = relay.IRModule.from_expr(relay.Function([x, w], relay.Call(inner, [relay.nn.dense(x, w)])))
    for out in (optimizer.optimize(mod, 3), relay.transform.FoldConstant()(mod),
                relay.transform.EliminateCommonSubexpr()(mod), relay.transform.DeadCodeElimination()(mod)):
        assert [p.name_hint for p in out["main"].params] == ["data", "weight"]
        assert "%inner" in out.astext() or "fn (" not in out.astext()
