"""AlterOpLayout (issue 31): TVM 0.19's x86 NCHW{n}c blocking, checked against TVM's output.

test_pass_alter_op_layout_tvm019.json holds modules TVM 0.19 printed (side venv,
scripts/tvm_alter_op_layout.py): each input, and its result after CanonicalizeOps and
AlterOpLayout at opt level 3 under a ``tvm.target.Target``. Each input is read with
``relay.fromtext`` and transformed by relay-mlir under the same target; the result has TVM's
operators (``node_counts``), TVM's ``layout_transform``s and TVM's blocked-convolution
layouts, TVM's pool layouts and reduction axes, and computes what the input computes
(reference interpreter, rtol/atol 1e-5; four modules compiled for llvm-cpu, rtol 1e-4).
test_pass_printed_text_tvm019.json's ``alter_*`` texts (TVM's results for conv + bias + relu
+ conv programs, incl. skylake-avx512 and a depthwise conv) are checked the same way from
programs built here. TVM also packs a dense after a pool (``nn.contrib_dense_pack``), which
relay-mlir's AlterOpLayout does not: the recorded heads end in softmax.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.alter_op_layout import conv_blocks
from relay_mlir.transform import PassContext, Sequential
from relay_mlir.tvm.target import Target
from relay_mlir.x86_target import has_fast_int8, simd_32bit_lanes

from pass_checks import function_pass_counts, node_counts, outputs, random_args, under_target

HERE = Path(__file__).parent
CASES = json.loads((HERE / "test_pass_alter_op_layout_tvm019.json").read_text())["cases"]
PRINTED = json.loads((HERE / "test_pass_printed_text_tvm019.json").read_text())["texts"]
TOL = dict(rtol=1e-5, atol=1e-5)
_BLOCKED = ("nn.contrib_conv2d_NCHWc", "nn.contrib_depthwise_conv2d_NCHWc")


_POOLS = ("nn.max_pool2d", "nn.avg_pool2d", "nn.global_avg_pool2d", "nn.global_max_pool2d",
          "nn.adaptive_avg_pool2d", "nn.adaptive_max_pool2d")
_REDUCTIONS = ("sum", "mean", "max", "min", "prod")


def _structure(mod) -> dict:
    """What a user inspecting the result sees: operator counts, the layout_transforms
    (src, dst), each blocked convolution's layouts, channels and groups, each pool's
    layout and each reduction's axes and keepdims."""
    transforms, convs, pools = [], [], []

    def visit(e):
        if isinstance(e, relay.Call) and isinstance(e.op, relay.Op):
            a = e.attrs
            if e.op.name == "layout_transform":
                transforms.append((a["src_layout"], a["dst_layout"]))
            elif e.op.name in _BLOCKED:
                convs.append((e.op.name, a["data_layout"], a["kernel_layout"], a["out_layout"],
                              a["channels"], a["groups"]))
            elif e.op.name in _POOLS:
                pools.append((e.op.name, a.get("layout") or "NCHW"))
            elif e.op.name in _REDUCTIONS:
                axis = a.get("axis")
                pools.append((e.op.name, str(axis if axis is None else [int(x) for x in axis]),
                              bool(a.get("keepdims")), bool(a.get("exclude"))))
    relay.analysis.post_order_visit(mod["main"], visit)
    return {"ops": node_counts(mod), "layout_transforms": sorted(transforms),
            "convs": sorted(convs), "pools_and_reductions": sorted(pools)}


def _alter(mod, target):
    seq = Sequential([relay.transform.CanonicalizeOps(), relay.transform.AlterOpLayout()])
    return under_target(seq, mod, target)


def _same_values(before, after, seed: int = 0) -> None:
    args = random_args(before, np.random.default_rng(seed))
    for want, got in zip(outputs(before, args), outputs(after, args)):
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, **TOL)


@pytest.mark.parametrize("name", sorted(CASES))
def test_tvm_recorded_cases(name):
    case = CASES[name]
    mod = relay.fromtext(case["input"])
    out = _alter(mod, case["target"])
    assert _structure(out) == _structure(relay.fromtext(case["output"]))
    _same_values(mod, out)


def _conv_bias_relu_conv(c: int, out2: int, depthwise: bool = False):
    """The programs behind test_pass_printed_text_tvm019.json's alter_* texts."""
    x, b = relay.var("x", shape=(1, c, 5, 5)), relay.var("b", shape=(c,))
    w = relay.var("w", shape=(c, 1 if depthwise else c, 3, 3))
    w2 = relay.var("w2", shape=(out2, c, 1, 1))
    y = relay.nn.conv2d(x, w, padding=(1, 1), channels=c, kernel_size=(3, 3),
                        groups=c if depthwise else 1)
    y = relay.nn.relu(relay.nn.bias_add(y, b))
    y = relay.nn.conv2d(y, w2, strides=(2, 2), channels=out2, kernel_size=(1, 1))
    return relay.IRModule.from_expr(relay.Function([x, w, b, w2], y))


@pytest.mark.parametrize("name,program,target", [
    ("alter_llvm", (8, 4), "llvm"),
    ("alter_avx512", (16, 8), "llvm -mcpu=skylake-avx512"),
    ("alter_depthwise", (8, 4, True), "llvm"),
    ("alter_6_channels", (6, 3), "llvm"),
])
def test_tvm_printed_programs(name, program, target):
    mod = _conv_bias_relu_conv(*program)
    out = _alter(mod, target)
    assert _structure(out) == _structure(relay.fromtext(PRINTED[name]))
    _same_values(mod, out, seed=1)


def test_pass_info_and_opt_level():
    skipped, ran = function_pass_counts(relay.transform.AlterOpLayout(),
                                        _conv_bias_relu_conv(8, 4), "AlterOpLayout", 3)
    assert skipped == ran  # no Target: nothing to alter
    with Target("llvm"):
        skipped, ran = function_pass_counts(relay.transform.AlterOpLayout(),
                                            _conv_bias_relu_conv(8, 4), "AlterOpLayout", 3)
    assert "nn.contrib_conv2d_NCHWc" not in skipped and ran["nn.contrib_conv2d_NCHWc"] == 2


@pytest.mark.parametrize("target,lanes", [
    ("llvm", 4), ("llvm -mcpu=haswell", 8), ("llvm -mcpu=znver4", 16),
    ("llvm -mattr=+avx2", 8), ("llvm -mattr=+avx512f", 4), ("llvm -mattr=+avx512f,+avx512bw", 16),
])
def test_simd_lanes_of_targets(target, lanes):
    # TVM 0.19's get_simd_32bit_lanes() under each target, measured in the side venv
    assert simd_32bit_lanes(Target(target)) == lanes


@pytest.mark.parametrize("target,fast", [
    ("llvm", False), ("llvm -mcpu=core2", False), ("llvm -mcpu=nehalem", True),
    ("llvm -mcpu=skylake-avx512", True), ("llvm -mattr=+avx2", True), ("llvm -mattr=+sse4.2", True),
])
def test_fast_int8_of_targets(target, fast):
    # TVM 0.19's is_fast_int8_on_intel() under each target, measured in the side venv
    assert has_fast_int8(Target(target)) == fast


def test_blocks_are_tvms_fallback_tiles():
    # (in, out, lanes) -> (ic, oc): TVM's _fallback_schedule loops, worked by hand
    assert conv_blocks(12, 16, 8) == (6, 8)
    assert conv_blocks(3, 5, 4) == (1, 1)
    assert conv_blocks(16, 8, 16) == (8, 8)
    assert conv_blocks(7, 14, 16) == (7, 14)


def test_unknown_cpu_is_a_clear_error():
    with Target("llvm -mcpu=pentium-mmx-9000"), pytest.raises(ValueError, match="unknown -mcpu"):
        relay.transform.AlterOpLayout()(_conv_bias_relu_conv(8, 4))


def test_altered_module_compiles_to_the_same_values():
    mod = _conv_bias_relu_conv(8, 4)
    out = _alter(mod, "llvm")
    args = random_args(mod, np.random.default_rng(2))
    got = relay.compile(out, target="llvm-cpu")(*args)
    np.testing.assert_allclose(np.asarray(got), outputs(mod, args)[0], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", ["resnet_stem", "pools_reductions", "reductions_channels"])
def test_blocked_pools_compile_to_the_same_values(name):
    # the blocked pools and reductions lowered through IREE (llvm-cpu), against the
    # reference interpreter on the unaltered module (rtol 1e-4; atol 1e-6 of the largest
    # output: the stem's sums of 147 products reach 300, float32 rounds them to ~3e-5)
    mod = relay.fromtext(CASES[name]["input"])
    out = _alter(mod, CASES[name]["target"])
    args = random_args(mod, np.random.default_rng(3))
    got = relay.compile(out, target="llvm-cpu")(*args)
    got = got if isinstance(got, (list, tuple)) else [got]
    for g, want in zip(got, outputs(mod, args)):
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-4, atol=1e-6 * np.abs(want).max())


@pytest.mark.parametrize("attrs,expected", [
    (dict(data_layout="NHWC4c"), "data_layout must be NCHW<n>c"),
    (dict(kernel_layout="OIHW4o4i"), "kernel_layout must be OIHW<n>i<m>o"),
    (dict(out_layout="NC4HWc"), "out_layout must be NCHW<n>c"),
])
def test_blocked_conv_builder_names_bad_layouts(attrs, expected):
    x, w = relay.var("x", shape=(1, 2, 5, 5, 4)), relay.var("w", shape=(2, 2, 3, 3, 4, 4))
    kw = dict(data_layout="NCHW4c", kernel_layout="OIHW4i4o", out_layout="NCHW4c")
    kw.update(attrs)
    with pytest.raises(ValueError, match=expected):
        relay.nn.contrib_conv2d_nchwc(x, w, **kw)


def test_blocked_conv_shapes_are_checked_by_type_inference():
    x, w = relay.var("x", shape=(1, 2, 5, 5, 4)), relay.var("w", shape=(2, 3, 3, 3, 4, 4))
    y = relay.nn.contrib_conv2d_nchwc(x, w, data_layout="NCHW4c", kernel_layout="OIHW4i4o")
    with pytest.raises(relay.CompileError, match="input channels 8"):
        relay.transform.InferType()(relay.IRModule.from_expr(y))


def test_channel_broadcast_between_blocked_values_runs_in_nchw():
    # fuzz finding s35:404 (pass_fuzz.py): conv outputs of 4 and of 1 channel multiplied; the
    # 1-channel one cannot be blocked by 4, so the multiply takes both in NCHW
    x = relay.var("x", shape=(1, 2, 4, 4))
    w4, w1 = relay.var("w4", shape=(4, 2, 1, 1)), relay.var("w1", shape=(1, 2, 1, 1))
    y = relay.multiply(relay.nn.relu(relay.nn.conv2d(x, w4)), relay.ceil(relay.nn.conv2d(x, w1)))
    mod = relay.IRModule.from_expr(relay.Function([x, w4, w1], y))
    out = _alter(mod, "llvm")
    body = out["main"].body
    assert body.op.name == "multiply" and all(a.op.name == "layout_transform" for a in body.args)
    _same_values(mod, out)


@pytest.mark.parametrize("axis,blocked", [(-3, True), (1, True), (-4, False), (0, False)])
def test_concatenate_of_blocked_values_only_on_the_channels(axis, blocked):
    # fuzz finding s43:81 (pass_fuzz.py): concatenate(axis=-4) of two blocked conv outputs was
    # taken for the channel axis (it is N in NCHW) and joined the blocks on C: a type error
    x, w = relay.var("x", shape=(2, 3, 3, 3)), relay.var("w", shape=(4, 3, 3, 3))
    c = relay.nn.relu(relay.nn.conv2d(x, w, padding=(1, 1)))
    mod = relay.IRModule.from_expr(relay.Function([x, w], relay.concatenate([c, c * relay.const(2.0)], axis=axis)))
    out = _alter(mod, "llvm")
    body = out["main"].body
    assert (body.op.name == "layout_transform") == blocked, body.op.name
    _same_values(mod, out)


def test_blocked_convs_survive_an_mlir_pass_after_alter_op_layout():
    # FoldConstant and SimplifyExpr run in MLIR: the blocked convs go out as the dialect's
    # relay.nn.contrib_conv2d_NCHWc and come back as the same operators, with the same values
    mod = _conv_bias_relu_conv(8, 4)
    with Target("llvm"), PassContext(opt_level=3):
        seq = Sequential([relay.transform.CanonicalizeOps(), relay.transform.AlterOpLayout(),
                          relay.transform.FoldConstant(), relay.transform.SimplifyExpr()])
        out = seq(mod)
    assert _structure(out) == _structure(relay.fromtext(PRINTED["alter_llvm"]))
    _same_values(mod, out)
