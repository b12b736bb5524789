"""refacc, the reference accelerator (issue 34, route (b) end to end): its pattern table cuts a
small CNN into refacc functions, its codegen turns them into C built with the system C compiler
and linked into IREE's CPU executable, and the partitioned module gives the unpartitioned
module's results on llvm-cpu (float32, rtol 1e-5, atol 1e-5: the C kernels accumulate in a
different order than IREE's code).
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.byoc.refacc import partition_for_refacc, refacc_codegen

_RNG = np.random.default_rng(7)


def _const(*shape):
    return relay.const(_RNG.standard_normal(shape).astype("float32") * 0.5)


def _network():
    """conv+bias+relu -> conv(stride 2)+bias+relu -> reshape -> dense -> add(skip) -> tanh, and
    sigmoid(dense): the dense+add region has two outputs."""
    x, skip = relay.var("x", shape=(1, 3, 8, 8)), relay.var("skip", shape=(1, 5))
    h = relay.nn.relu(relay.nn.bias_add(relay.nn.conv2d(x, _const(4, 3, 3, 3), padding=(1, 1)),
                                        _const(4)))
    h = relay.nn.relu(relay.nn.bias_add(
        relay.nn.conv2d(h, _const(6, 4, 3, 3), strides=(2, 2), padding=(1, 0, 0, 1)), _const(6)))
    h = relay.reshape(h, newshape=(1, 96))
    d = relay.nn.dense(h, _const(5, 96))
    out = relay.Tuple([relay.tanh(relay.add(d, skip)), relay.sigmoid(d)])
    return relay.IRModule.from_expr(relay.Function([x, skip], out))


@pytest.fixture(scope="module")
def modules():
    mod = _network()
    return mod, partition_for_refacc(mod)


def test_partition_gives_refacc_functions(modules):
    _, part = modules
    comps = {}
    for gv, fn in relay.byoc.external_functions(part):
        assert fn.attrs["Compiler"] == "refacc"
        found = []

        class Composites(relay.ExprVisitor):
            def visit_function(self, f):
                if "Composite" in f.attrs:
                    found.append(f.attrs["Composite"])
                super().visit_function(f)
        Composites().visit(fn.body)
        comps[gv.name_hint] = sorted(found)
    # both convolutions in one region; dense + add in another (the reshape is relay-mlir's),
    # returning both the sum and the dense result (sigmoid reads it)
    assert sorted(comps.values()) == [["refacc.add", "refacc.dense"],
                                      ["refacc.conv2d_bias_relu", "refacc.conv2d_bias_relu"]]
    outputs = sorted(len(fn.body.fields) if isinstance(fn.body, relay.Tuple) else 1
                     for _, fn in relay.byoc.external_functions(part))
    assert outputs == [1, 2]


def test_codegen_uses_a_workspace_for_intermediates(modules):
    _, part = modules
    srcs = {gv.name_hint: refacc_codegen(fn) for gv, fn in relay.byoc.external_functions(part)}
    conv = next(s for name, s in srcs.items() if "refacc_conv2d_bias_relu(" in s.code.split("void ")[-1])
    assert conv.workspace_bytes == 4 * 8 * 8 * 4  # the first conv's 1x4x8x8 float32 result
    assert all(s.entry in s.code for s in srcs.values())


def test_refacc_module_matches_the_unpartitioned_module(modules):
    mod, part = modules
    x = _RNG.standard_normal((1, 3, 8, 8)).astype("float32")
    skip = _RNG.standard_normal((1, 5)).astype("float32")
    exe = relay.compile(part, target="llvm-cpu")
    assert exe.iree_input.count("hal.import.static") == 2  # both refacc functions are C kernels
    want = relay.compile(mod, target="llvm-cpu")(x, skip)
    got = exe(x, skip)
    for g, w in zip(got, want):
        assert w.std() > 0.05  # tanh, sigmoid outputs that vary: not saturated
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def test_checks_leave_what_refacc_cannot_run_to_relay_mlir():
    a, b = relay.var("a", shape=(2, 3)), relay.var("b", shape=(3,))           # broadcasting add
    d = relay.var("d", shape=(2, 3), dtype="float64")
    w = relay.var("w", shape=(4, 3), dtype="float64")                          # float64 dense
    mod = relay.IRModule.from_expr(relay.Function([a, b, d, w], relay.Tuple([a + b, relay.nn.dense(d, w)])))
    assert relay.byoc.external_functions(partition_for_refacc(mod)) == []
