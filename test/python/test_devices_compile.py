"""One .vmfb for two IREE devices (issue 34 §3): compile(mod, target={"cpu": ..., "vulkan": ...})
and create_executor with a target dict, run here on local-task + Vulkan (lavapipe) and compared
with numpy (float32, rtol 1e-5). One module-scoped compile of a four-stage program."""
import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.devices.stages import split_stages

TARGETS = {"cpu": "llvm-cpu", "vulkan": "vulkan-spirv"}
on = relay.annotation.on_device


def _four_stage():
    """exp(x + y) on vulkan, minus y on cpu, times the exp back on vulkan and split there (a
    tuple crossing devices), the halves added or subtracted (an if) on cpu; a constant result."""
    x, y = relay.var("x", shape=(2, 3)), relay.var("y", shape=(2, 3))
    p = relay.var("p", shape=(), dtype="bool")
    a = on(relay.exp(relay.add(x, y)), "vulkan")
    c = on(relay.subtract(a, y), "cpu")
    d = on(relay.multiply(relay.device_copy(c, "cpu", "vulkan"), a), "vulkan")
    s = on(relay.split(d, 2, axis=0).astuple(), "vulkan")
    h0, h1 = relay.TupleGetItem(s, 0), relay.TupleGetItem(s, 1)
    e = on(relay.If(p, relay.add(h0, h1), relay.subtract(h0, h1)), "cpu")
    out = relay.Tuple([c, d, e, relay.const(np.float32(3.0))])
    return relay.IRModule.from_expr(relay.Function([x, y, p], out))


@pytest.fixture(scope="module")
def exe():
    return relay.compile(_four_stage(), target=TARGETS)


def test_runs_on_both_devices_and_matches_numpy(exe):
    x = np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)
    y = np.full((2, 3), 0.5, "float32")
    for p in (True, False):
        c, d, e, three = exe(x, y, np.array(p))
        a = np.exp(x + y)
        np.testing.assert_allclose(c, a - y, rtol=1e-5)
        np.testing.assert_allclose(d, (a - y) * a, rtol=1e-5)
        np.testing.assert_allclose(e, d[:1] + d[1:] if p else d[:1] - d[1:], rtol=1e-5)
        assert three == np.float32(3.0)


def test_signature_recorded(exe):
    layout = exe.result_layout
    assert [str(t) for t in layout.params] == [str(relay.TensorType((2, 3)))] * 2 + [
        str(relay.TensorType((), "bool"))]
    assert len(layout.result.fields) == 4


def test_stages_and_their_devices(exe):
    assert exe.stages == [("stage0_vulkan", "vulkan"), ("stage1_cpu", "cpu"),
                          ("stage2_vulkan", "vulkan"), ("stage3_cpu", "cpu")]
    # each stage ran in a context holding only its device
    assert "vulkan" in repr(exe.executable("vulkan").device)
    assert "local" in repr(exe.executable("cpu").device)


def test_one_module_with_both_devices(exe):
    assert b"embedded-elf-x86_64" in exe.vmfb and b"vulkan-spirv-fb" in exe.vmfb
    text = exe.iree_input
    assert "util.global private @cpu = #hal.device.select" in text
    assert "util.global private @vulkan = #hal.device.select" in text
    assert text.count("stream.affinity = #hal.device.affinity<@vulkan>") == 2
    assert text.count("stream.affinity = #hal.device.affinity<@cpu>") == 2


def test_offloaded_external_function_through_create_executor():
    """A BYOC region of kind (c): the external function runs on vulkan, main's rest on cpu."""
    from relay_mlir.devices.offload import offload_calls

    x, y = relay.var("x", shape=(4,)), relay.var("y", shape=(4,))
    mod = relay.IRModule()
    ext = relay.GlobalVar("tvmgen_default_myacc_main_0")
    mod[ext] = relay.Function([x], relay.exp(x), attrs={
        "Compiler": "myacc", "global_symbol": ext.name_hint, "Primitive": 1, "Inline": 1})
    mod["main"] = relay.Function([y], relay.negative(relay.Call(ext, [y])))
    mod = offload_calls(mod, {ext.name_hint: "vulkan"})
    cfg = relay.target.make_compilation_config(None, TARGETS)
    stages = split_stages(relay.transform.PlanDevices(cfg)(mod)["main"])
    names = [(s.device, [getattr(n.op, "name_hint", None) or n.op.name for n in s.nodes])
             for s in stages]  # the region on vulkan, negative on cpu
    assert names == [("vulkan", [ext.name_hint, "on_device"]), ("cpu", ["negative"])]
    run = relay.create_executor("vm", mod=mod, target={"cpu": "llvm", "vulkan": "vulkan"})
    f = run.evaluate()
    v = np.arange(4, dtype="float32")
    np.testing.assert_allclose(f(v), -np.exp(v), rtol=1e-5)


def test_offload_of_an_unknown_global():
    from relay_mlir.devices.offload import offload_calls

    x = relay.var("x", shape=(4,))
    with pytest.raises(ValueError, match="offload_calls: no global function nope in the module"):
        offload_calls(relay.IRModule.from_expr(relay.Function([x], x)), {"nope": "vulkan"})


def test_device_without_target_is_an_error():
    x = relay.var("x", shape=(4,))
    f = relay.Function([x], on(relay.exp(x), "cuda"))
    with pytest.raises(relay.CompileError, match=r"function 'main': on_device: device 'cuda' has "
                                                 r"no target \(the targets are for cpu, vulkan\)"):
        relay.compile(relay.IRModule.from_expr(f), target=TARGETS)


def test_wrong_number_of_inputs(exe):
    with pytest.raises(relay.InputShapeError, match="main takes 3 inputs, 1 were given"):
        exe(np.zeros((2, 3), "float32"))


def test_run_main_only(exe):
    x = np.zeros((2, 3), "float32")
    p = np.array(True)
    np.testing.assert_allclose(exe.run("main", x, x, p)[0], np.ones((2, 3)), rtol=1e-6)  # exp(0) - 0
    with pytest.raises(ValueError, match="a multi-device executable runs 'main'"):
        exe.run("stage0_vulkan", x, x, p)
