"""relay.transform.FuseOps / DefuseOps (relay_mlir.fuse_ops) against TVM 0.19.

TVM's groups were recorded in the side venv (/work/tvmvenv, TVM 0.19): each net parsed with
``tvm.relay.fromtext``, typed, ``FuseOps()`` applied in ``PassContext(opt_level=L)`` for L in
0-3 (1, 2 and 3 give the same groups), and the operators of each ``Primitive=1`` function
listed (operands first), functions in the order TVM's visitor reaches them.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from pass_checks import assert_same_outputs, node_counts
from relay_mlir.fuse_ops import primitive_groups
from relay_mlir.transform import DefuseOps, FuseOps, PassContext

NETS = {
    "conv": """
def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32],
          %w2: Tensor[(4, 4, 3, 3), float32], %b: Tensor[(4), float32]) {
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]);
  %1 = nn.bias_add(%0, %b);
  %2 = nn.relu(%1);
  %3 = nn.conv2d(%2, %w2, padding=[1, 1, 1, 1]);
  %4 = add(%3, %2);
  %5 = nn.max_pool2d(%4, pool_size=[2, 2], strides=[2, 2]);
  %6 = nn.batch_flatten(%5);
  %7 = sum(%6, axis=[1]);
  %8 = exp(%7);
  (%8, %6)
}""",
    "mlp": """
def @main(%x: Tensor[(2, 8), float32], %w1: Tensor[(16, 8), float32], %b1: Tensor[(16), float32],
          %w2: Tensor[(4, 16), float32], %b2: Tensor[(4), float32]) {
  %0 = nn.dense(%x, %w1, units=16);
  %1 = nn.bias_add(%0, %b1);
  %2 = nn.relu(%1);
  %3 = nn.dense(%2, %w2, units=4);
  %4 = add(%3, %b2);
  %5 = nn.softmax(%4);
  %6 = reshape(%5, newshape=[8]);
  multiply(%6, 2f)
}""",
    "injective": """
def @main(%x: Tensor[(2, 3, 4), float32], %y: Tensor[(4, 3, 2), float32]) {
  %0 = exp(%x);
  %1 = transpose(%0, axes=[2, 1, 0]);
  %2 = add(%1, %y);
  %3 = concatenate((%2, %y), axis=0);
  %4 = mean(%3, axis=[1]);
  %5 = strided_slice(%3, begin=[0], end=[1], strides=[1], axes=[0]);
  %6 = (%4, %5);
  %7 = %6.0;
  %8 = sqrt(%7);
  (%8, %5)
}""",
}
CONTROL = {  # one graph across branches, lets and closures (opaque edges), as TVM's
    "if": """
def @main(%x: Tensor[(2, 3), float32], %c: bool) {
  %0 = exp(%x);
  %1 = if (%c) { %2 = add(%0, 1f); nn.relu(%2) } else { %3 = negative(%0); multiply(%3, %0) };
  sum(%1, axis=[1])
}""",
    "let": """
def @main(%x: Tensor[(2, 3), float32]) {
  let %a = exp(%x);
  let %b = add(%a, 1f);
  %4 = nn.relu(%b);
  multiply(%4, %a)
}""",
    "closure": """
def @main(%x: Tensor[(2, 3), float32]) {
  %0 = exp(%x);
  %1 = fn (%y: Tensor[(2, 3), float32]) { %5 = add(%y, %0); nn.relu(%5) };
  %2 = %1(%x);
  negative(%2)
}""",
}
TVM_CONTROL_GROUPS = {  # TVM 0.19, FuseOps() in the default context (opt level 2)
    "if": [["sum"], ["add", "nn.relu"], ["exp"], ["negative", "multiply"]],
    "let": [["exp"], ["add"], ["nn.relu", "multiply"]],
    "closure": [["negative"], ["exp", "add", "nn.relu"]],
}
TVM_GROUPS = {  # (opt level 0, opt levels 1-3)
    "conv": ([["exp"], ["sum"], ["nn.batch_flatten"], ["nn.max_pool2d"], ["add"], ["nn.conv2d"],
              ["nn.relu"], ["nn.bias_add"], ["nn.conv2d"]],
             [["exp"], ["sum"], ["nn.batch_flatten"], ["nn.max_pool2d"], ["nn.conv2d", "add"],
              ["nn.conv2d", "nn.bias_add", "nn.relu"]]),
    "mlp": ([["multiply"], ["reshape"], ["nn.softmax"], ["add"], ["nn.dense"], ["nn.relu"],
             ["nn.bias_add"], ["nn.dense"]],
            [["reshape", "multiply"], ["nn.softmax"], ["nn.dense", "add"],
             ["nn.dense", "nn.bias_add", "nn.relu"]]),
    "injective": ([["sqrt"], ["mean"], ["concatenate"], ["add"], ["transpose"], ["exp"],
                   ["strided_slice"]],
                  [["sqrt"], ["mean"], ["exp", "transpose", "add", "concatenate"],
                   ["strided_slice"]]),
}


@pytest.mark.parametrize("level", [0, 1, 2, 3])
@pytest.mark.parametrize("name", sorted(NETS))
def test_fuse_ops_groups_as_tvm(name, level):
    mod = relay.fromtext(NETS[name])
    with PassContext(opt_level=level):
        out = FuseOps()(mod)
    assert primitive_groups(out["main"]) == TVM_GROUPS[name][min(level, 1)]
    assert_same_outputs(mod, out)


@pytest.mark.parametrize("name", sorted(CONTROL))
def test_fuse_ops_across_control_flow_as_tvm(name):
    """exp shared by both branches stays its own group outside the if; exp used only in a
    closure joins the closure's group; a let-bound value is a group's end."""
    mod = relay.fromtext(CONTROL[name])
    out = FuseOps()(mod)
    assert primitive_groups(out["main"]) == TVM_CONTROL_GROUPS[name]
    rng = np.random.default_rng(2)
    for c in ([np.array(True), np.array(False)] if name == "if" else [None]):
        args = [rng.standard_normal((2, 3)).astype("float32")] + ([c] if c is not None else [])
        run = lambda m: np.asarray(relay.create_executor("debug", mod=m).evaluate()(*args))  # noqa: E731
        np.testing.assert_allclose(run(out), run(mod), rtol=1e-6)


# TVM 0.19 with PassContext(opt_level=2, config={"relay.FuseOps.max_depth": d})
TVM_MAX_DEPTH = {
    1: {"conv": TVM_GROUPS["conv"][0], "mlp": TVM_GROUPS["mlp"][0]},
    2: {"conv": [["exp"], ["sum"], ["nn.batch_flatten"], ["nn.max_pool2d"], ["nn.conv2d", "add"],
                 ["nn.relu"], ["nn.conv2d", "nn.bias_add"]],
        "mlp": [["multiply"], ["reshape"], ["nn.softmax"], ["nn.dense", "add"], ["nn.relu"],
                ["nn.dense", "nn.bias_add"]]},
    3: {"conv": TVM_GROUPS["conv"][1], "mlp": TVM_GROUPS["mlp"][1]},
}


@pytest.mark.parametrize("depth", sorted(TVM_MAX_DEPTH))
@pytest.mark.parametrize("name", ["conv", "mlp"])
def test_max_depth_as_tvm(name, depth):
    """relay.FuseOps.max_depth: no fusion makes a group of more nodes. (On the injective net
    TVM differs at depths 2 and 3: its concatenate reads a tuple node, relay-mlir's the
    tensors, so the tuple rules apply in TVM only.)"""
    mod = relay.fromtext(NETS[name])
    with PassContext(opt_level=2, config={"relay.FuseOps.max_depth": depth}):
        assert primitive_groups(FuseOps()(mod)["main"]) == TVM_MAX_DEPTH[depth][name]


def test_fuse_opt_level_overrides_the_context():
    mod = relay.fromtext(NETS["mlp"])
    with PassContext(opt_level=3):
        assert primitive_groups(FuseOps(0)(mod)["main"]) == TVM_GROUPS["mlp"][0]


def test_defuse_ops_restores_the_operators():
    for name, text in NETS.items():
        mod = relay.fromtext(text)
        back = DefuseOps()(FuseOps()(mod))
        assert primitive_groups(back["main"]) == [] and node_counts(back) == node_counts(mod), name


def test_a_fused_module_compiles():
    """The fused MLP compiled on llvm-cpu (its primitive functions called as closures) equals
    numpy's MLP."""
    mod = FuseOps()(relay.fromtext(NETS["mlp"]))
    rng = np.random.default_rng(0)
    x, w1, b1, w2, b2 = (rng.standard_normal(s).astype("float32")
                         for s in [(2, 8), (16, 8), (16,), (4, 16), (4,)])
    h = np.maximum(x @ w1.T + b1, 0) @ w2.T + b2
    e = np.exp(h - h.max(axis=1, keepdims=True))
    want = (e / e.sum(axis=1, keepdims=True)).reshape(8) * 2
    got = relay.compile(mod, target="llvm-cpu")(x, w1, b1, w2, b2)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-6)


def test_infos():
    assert (FuseOps().info.name, FuseOps().info.opt_level, FuseOps().info.required) == \
        ("FuseOps", 0, ("InferType",))
    assert (DefuseOps().info.name, DefuseOps().info.opt_level, DefuseOps().info.required) == \
        ("DefuseOps", 3, ("InferType",))
    with pytest.raises(TypeError, match="fuse_opt_level is an int"):
        FuseOps("2")
