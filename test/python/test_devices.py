"""Heterogeneous devices (issue 34 §3): on_device/device_copy, PlanDevices against TVM 0.19's
plans (recorded by test_devices_programs.py as test_devices_tvm019.json), bad input."""
import json
import os
import sys

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.devices.plan import param_devices, result_device

import test_devices_programs as programs

_HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(_HERE, "test_devices_tvm019.json")) as _f:
    TVM = json.load(_f)["plans"]


def _config(**kw):
    ctx = relay.transform.PassContext(config={"relay.fallback_device_type": 1})
    return relay.target.make_compilation_config(ctx, {"cpu": "llvm", "cuda": "cuda"}, **kw)


def _plan(fn):
    mod = relay.IRModule.from_expr(fn)
    return relay.transform.PlanDevices(_config())(mod)["main"]


@pytest.mark.parametrize("name", sorted(n for n, p in TVM.items() if "tvm_error" not in p))
def test_plan_matches_tvm(name):
    planned = _plan(programs.cases(relay)[name])
    assert programs.dump(relay, planned) == TVM[name]


def test_let_tvm_refuses_is_planned():
    """TVM 0.19 refuses a let-bound cuda value read on cpu ("Function parameters and result
    VirtualDevices do not match those of call"); relay-mlir copies it once and runs it."""
    assert TVM["let"]["tvm_error"].startswith("TVMError: Function parameters and result")
    fn = programs.cases(relay)["let"]
    got = programs.dump(relay, _plan(fn))
    assert got["body"] == ["%0 = exp(%x)", "%1 = on_device[cuda,1](%0)",
                           "%2 = device_copy[cuda->cpu](%v)", "%3 = subtract(%2, %y)",
                           "%4 = let %v = %1 in %3"]
    assert (got["params"], got["result"]) == (["cuda", "cpu"], "cpu")
    x = np.array([[1, 2], [3, 4]], "float32") / 4
    y = np.ones((2, 2), "float32")
    run = relay.create_executor("debug", mod=relay.IRModule.from_expr(_plan(fn))).evaluate()
    np.testing.assert_allclose(run(x, y), np.exp(x) - y, rtol=1e-6)


def test_recorded_plans_cover_the_rules():
    copies = {n: sum("device_copy" in line for line in p.get("body", [])) for n, p in TVM.items()}
    del copies["let"]  # TVM refuses it (test_let_tvm_refuses_is_planned)
    assert copies == {"constrained_result": 0, "cross_edges": 2, "explicit_copy": 1, "if": 2,
                      "join_neighbours": 0, "param_annotated": 1, "tuple": 1, "two_sources": 2,
                      "unconstrained": 0, "used_twice": 2}


def test_devices_recorded_on_the_function():
    planned = _plan(programs.cases(relay)["cross_edges"])
    assert param_devices(planned) == ["cuda", "cpu"] and result_device(planned) == "cpu"
    assert [p.virtual_device_ for p in planned.params] == ["cuda", "cpu"]


def test_planned_module_runs_in_the_interpreter():
    fn = programs.cases(relay)["cross_edges"]
    planned = relay.IRModule.from_expr(_plan(fn))
    x = np.array([[1, 2], [3, 4]], "float32")
    y = np.array([[0.5, -1], [2, 0]], "float32")
    got = relay.create_executor("debug", mod=planned).evaluate()(x, y)
    np.testing.assert_allclose(got, np.exp(x + y) - y, rtol=1e-6)


def test_config():
    cfg = relay.target.make_compilation_config(None, {"cpu": "llvm-cpu", "vulkan": "vulkan-spirv"})
    assert cfg.devices == {"cpu": "llvm-cpu", "vulkan": "vulkan-spirv"}
    assert cfg.default_device == "cpu"
    ctx = relay.transform.PassContext(config={"relay.fallback_device_type": 7})
    assert relay.target.make_compilation_config(
        ctx, {"cpu": "llvm", "vulkan": "vulkan"}).default_device == "vulkan"


def test_unknown_device_is_a_located_error():
    x = relay.var("x", shape=(2,))
    line = sys._getframe().f_lineno + 1
    fn = relay.Function([x], relay.annotation.on_device(relay.exp(x), "vulkan"))
    with pytest.raises(relay.CompileError, match=r"function 'main': on_device: device 'vulkan' "
                                                 r"has no target \(the targets are for cpu, cuda\)") as err:
        _plan(fn)
    d = err.value.diagnostics[0]
    assert (os.path.basename(d.file), d.line) == ("test_devices.py", line)


def test_bad_arguments():
    x = relay.var("x", shape=(2,))
    with pytest.raises(TypeError, match="on_device: expected a device name"):
        relay.annotation.on_device(x, 3.5)
    with pytest.raises(TypeError, match="device_copy: the annotated value must be a relay"):
        relay.device_copy(np.zeros(2), "cpu", "cuda")
    with pytest.raises(TypeError, match="PlanDevices: expected the CompilationConfig"):
        relay.transform.PlanDevices({"cpu": "llvm"})


def test_through_the_tvm_standin():
    """TVM 0.19's spelling: tvm.target.make_compilation_config, tvm.cpu(), attrs read as
    VirtualDevices (device_type 1 = cpu, 7 = vulkan)."""
    from relay_mlir import tvm
    from relay_mlir.tvm import relay as trelay

    ctx = tvm.transform.PassContext(config={"relay.fallback_device_type": 1})
    config = tvm.target.make_compilation_config(ctx, {"cpu": "llvm", "vulkan": "vulkan"})
    x, y = trelay.var("x", shape=(2, 2)), trelay.var("y", shape=(2, 2))
    b = trelay.annotation.on_device(trelay.exp(trelay.add(x, y)), "vulkan")
    body = trelay.annotation.on_device(trelay.subtract(b, y), tvm.cpu())
    mod = trelay.transform.InferType()(tvm.IRModule.from_expr(trelay.Function([x, y], body)))
    copies = []
    trelay.analysis.post_order_visit(
        trelay.transform.PlanDevices(config)(mod)["main"],
        lambda e: copies.append(e) if isinstance(e, trelay.Call) and e.op.name == "device_copy"
        else None)
    assert [(c.attrs.src_virtual_device.device_type, c.attrs.dst_virtual_device.device_type)
            for c in copies] == [(1, 7), (7, 1)]


def test_let_program_stages():
    """A planned main with a let is cut into stages with the let-bound value inlined."""
    from relay_mlir.devices.inline_lets import inline_lets
    from relay_mlir.devices.stages import split_stages

    cfg = relay.target.make_compilation_config(None, {"cpu": "llvm", "vulkan": "vulkan"})
    x, y, v = (relay.var(n, shape=(2, 2)) for n in "xyv")
    on = relay.annotation.on_device
    fn = relay.Function([x, y], relay.Let(v, on(relay.exp(x), "vulkan"), on(relay.subtract(v, y), "cpu")))
    planned = relay.transform.PlanDevices(cfg)(relay.IRModule.from_expr(fn))["main"]
    stages = split_stages(inline_lets(planned))
    assert [(s.name, [str(r) for r in s.inputs], [str(r) for r in s.outputs]) for s in stages] == [
        ("stage0_vulkan", ["param:0"], ["node:2"]), ("stage1_cpu", ["node:2", "param:1"], ["node:5"])]


@pytest.mark.parametrize("name", ["relay_mlir.annotation", "relay_mlir.devices.config",
                                  "relay_mlir.devices.stages", "relay_mlir.devices.offload"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_deep_program():
    """2000 operators in a chain: planning is iterative (no recursion limit)."""
    x = relay.var("x", shape=(2,))
    e = x
    for _ in range(2000):
        e = relay.negative(e)
    fn = relay.Function([x], relay.annotation.on_device(relay.exp(e), "cuda"))
    planned = _plan(fn)
    assert param_devices(planned) == ["cuda"] and result_device(planned) == "cuda"


def test_long_let_chain_is_inlined_iteratively():
    """An ANF main of 1500 lets is staged (let-bound values inlined without recursion)."""
    from relay_mlir.devices.inline_lets import inline_lets
    from relay_mlir.devices.stages import split_stages

    x = relay.var("x", shape=(2,))
    body, vars_ = x, []
    for i in range(1500):
        vars_.append((relay.var(f"v{i}", shape=(2,)), relay.negative(body)))
        body = vars_[-1][0]
    for v, value in reversed(vars_):
        body = relay.Let(v, value, body)
    fn = relay.Function([x], body)
    fn.virtual_device_, x.virtual_device_ = "cpu", "cpu"
    stages = split_stages(inline_lets(fn))
    assert [(s.device, len(s.nodes)) for s in stages] == [("cpu", 1500)]


@pytest.mark.parametrize("head", ["module {", "module attributes {foo = 1} {"])
def test_device_affinities_text(head):
    """The lowered module gets one select-with-fallback device global per device, the default
    affinity, and each stage function its device's affinity (with or without attributes)."""
    from relay_mlir.devices.build import device_affinities
    from relay_mlir.devices.stages import Stage

    text = (f"{head}\n  func.func @stage0_cpu(%a: tensor<2xf32>) -> tensor<2xf32> {{\n"
            "    return %a : tensor<2xf32>\n  }\n"
            "  func.func @stage1_vulkan(%a: tensor<2xf32>) -> tensor<2xf32> attributes {x = 1} {\n"
            "    return %a : tensor<2xf32>\n  }\n}\n")
    out = device_affinities(text, [Stage("stage0_cpu", "cpu", 0), Stage("stage1_vulkan", "vulkan", 1)],
                            {"cpu": "llvm-cpu", "vulkan": "vulkan-spirv"}, "cpu").splitlines()
    assert out[0].startswith("module attributes {stream.affinity.default = "
                             "#hal.device.affinity<@cpu>")
    assert out[1] == ('  util.global private @cpu = #hal.device.select<[#hal.device.alias<"local"> '
                      ': !hal.device, #hal.device.alias<"vulkan"> : !hal.device]> : !hal.device')
    assert out[2].startswith('  util.global private @vulkan = #hal.device.select<[#hal.device.alias<"vulkan">')
    assert out[3].endswith("attributes {stream.affinity = #hal.device.affinity<@cpu>} {")
    assert out[6].endswith("attributes {stream.affinity = #hal.device.affinity<@vulkan>, x = 1} {")
