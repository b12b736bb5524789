"""relay_mlir.tvm's runtime pieces against TVM 0.19: devices, tvm.nd, Target, tvm.transform,
module names (refused parts of TVM, relay submodules shared with relay_mlir), BenchmarkResult.

TVM values below were recorded in the side venv (/work/tvmvenv, TVM 0.19.0) with the same calls.
No IREE compile in this file.
"""
from __future__ import annotations

import doctest
import importlib
import statistics

import numpy as np
import pytest

import relay_mlir
import relay_mlir.tvm as tvm
from relay_mlir.tvm import relay

# tvm.device(name) -> (repr, device_type), recorded from TVM 0.19
TVM_DEVICES = {"cpu": ("cpu(0)", 1), "llvm": ("cpu(0)", 1), "cuda": ("cuda(0)", 2),
               "vulkan": ("vulkan(0)", 7), "rocm": ("rocm(0)", 10)}


@pytest.mark.parametrize("name", sorted(TVM_DEVICES))
def test_device_names_and_codes_are_tvms(name):
    dev = tvm.device(name)
    assert (repr(dev), dev.device_type) == TVM_DEVICES[name]


def test_device_constructors():
    # TVM 0.19: repr(tvm.vulkan(1)) == "vulkan(1)", tvm.device("cpu", 1) == cpu(1)
    assert [repr(d) for d in (tvm.cpu(), tvm.vulkan(1), tvm.cuda(), tvm.device("cpu", 1))] == \
        ["cpu(0)", "vulkan(1)", "cuda(0)", "cpu(1)"]
    assert tvm.cpu(0) == tvm.device("llvm -mcpu=skylake") and tvm.cpu(0) != tvm.cpu(1)
    assert tvm.cpu().exist and tvm.cpu().target == "llvm-cpu" and tvm.vulkan().target == "vulkan-spirv"


@pytest.mark.parametrize("bad, expected", [("opencl", "unknown device 'opencl'"),
                                           (99, "unknown device type 99")])
def test_bad_device_names_what_exists(bad, expected):
    with pytest.raises(ValueError, match=expected):
        tvm.device(bad)


def test_nd_array_attributes_are_tvms():
    a = tvm.nd.array(np.arange(6, dtype="float32").reshape(2, 3))
    assert a.shape == (2, 3) and all(type(d) is int for d in a.shape)
    assert a.dtype == "float32" and isinstance(a.dtype, str) and a.device == tvm.cpu(0)
    np.testing.assert_array_equal(a.numpy(), np.arange(6, dtype="float32").reshape(2, 3))
    a.numpy()[0, 0] = 99  # numpy() is a copy
    assert a.numpy()[0, 0] == 0
    # TVM 0.19: python float / int lists become float64 / int64; a numpy scalar is 0-d
    assert (tvm.nd.array([1.0, 2.0]).dtype, tvm.nd.array([1, 2]).dtype,
            tvm.nd.array(np.float32(3)).shape) == ("float64", "int64", ())
    # TVM 0.19: tvm.nd.empty((2, 3)) is float32 of shape (2, 3)
    e = tvm.nd.empty((2, 3))
    assert (e.dtype, e.shape) == ("float32", (2, 3))


def test_nd_refuses_non_numeric_data():
    with pytest.raises(ValueError, match="tvm.nd.array expects numeric or bool data, got str of dtype <U3"):
        tvm.nd.array("abc")
    with pytest.raises(ValueError, match="tvm.nd.empty: unknown or non-numeric dtype 'flaot32'"):
        tvm.nd.empty((2,), "flaot32")


def test_nd_copyto_and_copyfrom():
    a = tvm.nd.array(np.arange(6, dtype="float32").reshape(2, 3))
    b = tvm.nd.empty((2, 3), "float32")
    assert a.copyto(b) is b  # TVM returns the target NDArray
    np.testing.assert_array_equal(b.numpy(), a.numpy())
    c = a.copyto(tvm.cpu(1))
    assert c.device == tvm.cpu(1) and c is not a
    np.testing.assert_array_equal(c.numpy(), a.numpy())
    b.copyfrom(np.ones((2, 3), "int64"))  # TVM casts a numpy int64 source to float32
    assert b.dtype == "float32" and b.numpy().tolist() == [[1.0] * 3] * 2
    b[:] = np.zeros((2, 3), "float32")
    assert b.numpy().sum() == 0


@pytest.mark.parametrize("source, message", [
    (np.zeros((3, 2), "float32"), r"expects shape \(2, 3\), got \(3, 2\)"),
    (np.full((2, 3), 1.5), None),  # float64 -> float32: cast, as TVM
    (tvm.nd.array(np.ones((2, 3), "int32")), "expects dtype float32, got an NDArray of dtype int32"),
    (np.ones((2, 3), "float32") > 0, None),
    ("text", "expects dtype float32, got <U4"),
])
def test_copyfrom_checks(source, message):
    b = tvm.nd.empty((2, 3), "float32")
    if message is None:
        b.copyfrom(source)
        np.testing.assert_array_equal(b.numpy(), np.asarray(source, "float32"))
    else:
        with pytest.raises(ValueError, match=message):
            b.copyfrom(source)


def test_copyfrom_refuses_float_into_int():
    # TVM 0.19 silently truncates; here it names the dtypes
    b = tvm.nd.empty((2,), "int32")
    with pytest.raises(ValueError, match="expects dtype int32, got float64"):
        b.copyfrom(np.array([1.5, 2.5]))


def test_target_strings():
    t = tvm.target.Target("llvm -mcpu=skylake")
    assert (t.kind.name, t.attrs["mcpu"], t.iree_target) == ("llvm", "skylake", "llvm-cpu")
    assert tvm.target.Target("vulkan").iree_target == "vulkan-spirv"
    assert tvm.target.Target({"kind": "cuda", "arch": "sm_80"}).iree_target == "cuda"
    assert tvm.target.Target.current() is None  # TVM 0.19: None outside any `with Target`
    with tvm.target.Target("llvm") as t:
        assert tvm.target.Target.current() is t
    with pytest.raises(ValueError, match="target kind 'opencl' is not supported by relay-mlir"):
        tvm.target.Target("opencl")
    # TVM 0.19's helpers (relay quick start: target = tvm.target.cuda())
    t = tvm.target.cuda(arch="sm_80")
    assert (t.kind.name, t.attrs["arch"], t.iree_target) == ("cuda", "sm_80", "cuda")
    assert tvm.target.rocm().kind.name == "rocm"
    with pytest.raises(AttributeError, match="tvm.target.arm_cpu is not part of relay-mlir"):
        tvm.target.arm_cpu
    # TVM 0.19: "llvm" in Target.list_kinds() (a held-out script's check); here the kinds it builds for
    assert {"llvm", "cuda", "vulkan", "rocm"} <= set(tvm.target.Target.list_kinds())


def test_transform_is_relay_mlirs_pass_infrastructure():
    from relay_mlir import pass_infra

    assert tvm.transform.PassContext is pass_infra.PassContext
    assert tvm.transform.Sequential is pass_infra.Sequential
    assert tvm.transform.PassContext.current().opt_level == 2  # TVM 0.19's default context
    assert tvm.IRModule is relay_mlir.IRModule and tvm.ir.IRModule is relay_mlir.IRModule
    assert tvm.instrument.PassInstrument is pass_infra.PassInstrument


def test_build_config_is_a_pass_context():
    # TVM 0.19: relay.build_config(opt_level=2, ...) warns and returns a PassContext
    with pytest.warns(DeprecationWarning, match="relay.build_config will be deprecated"):
        ctx = relay.build_config(opt_level=3, disabled_pass=["FoldConstant"])
    assert isinstance(ctx, tvm.transform.PassContext)
    assert ctx.opt_level == 3 and "FoldConstant" in ctx.disabled_pass


def test_bind_params_by_name_is_tvms():
    from relay_mlir.tvm.relay.build_module import bind_params_by_name

    x, w = relay.var("x", shape=(1, 3)), relay.var("w", shape=(2, 3))
    f = relay.Function([x, w], relay.nn.dense(x, w) + relay.const(1.0))
    wv = np.array([[1, 2, 3], [4, 5, 6]], "float32")
    # TVM 0.19: w becomes a constant, 'zz' (not a parameter) is ignored, x stays
    g = bind_params_by_name(f, {"w": tvm.nd.array(wv), "zz": np.ones(1)})
    assert [p.name_hint for p in g.params] == ["x"]
    xv = np.array([[1, 0, -1]], "float32")
    run = relay.create_executor("debug", mod=tvm.IRModule.from_expr(g)).evaluate()
    np.testing.assert_array_equal(run(xv).numpy(), xv @ wv.T + 1)  # small integers: exact
    assert bind_params_by_name(f, {}) is f
    # TVM 0.19: "Multiple args in the function have name x"
    x2 = relay.var("x", shape=(1, 3))
    with pytest.raises(ValueError, match="Multiple args in the function have name x"):
        bind_params_by_name(relay.Function([x, x2], x + x2), {"x": xv})
    # TVM 0.19 binds a (3, 3) value to the (2, 3) parameter as it is; here it is refused
    with pytest.raises(ValueError, match=r"param 'w' expects shape \(2, 3\), got \(3, 3\)"):
        bind_params_by_name(f, {"w": np.ones((3, 3), "float32")})


def test_optimize_binds_and_folds():
    # TVM 0.19 on this module at opt level 3: main keeps only x, w * 2 is one constant, params {}
    x, w = relay.var("x", shape=(1, 3)), relay.var("w", shape=(2, 3))
    mod = tvm.IRModule.from_expr(relay.Function([x, w], relay.nn.dense(x, w * relay.const(2.0))))
    wv = np.array([[1, 2, 3], [4, 5, 6]], "float32")
    with tvm.transform.PassContext(opt_level=3):
        opt, params = relay.optimize(mod, "llvm", params={"w": wv})
    assert params == {} and [p.name_hint for p in opt["main"].params] == ["x"]
    assert "multiply" not in opt.astext()
    xv = np.array([[1, 0, -1]], "float32")
    out = relay.create_executor("debug", mod=opt).evaluate()(xv)
    np.testing.assert_array_equal(out.numpy(), xv @ (2 * wv).T)  # small integers: exact


def test_relay_is_the_builder_api_plus_tvm_names():
    for name in relay_mlir.__all__:
        if name not in ("compile", "create_executor"):
            assert getattr(relay, name) is getattr(relay_mlir, name), name
    assert relay.create_executor is not relay_mlir.create_executor
    assert callable(relay.build) and callable(relay.vm.compile)
    assert relay.build_module.create_executor is relay.create_executor  # TVM's tutorials use both
    assert relay.testing is relay_mlir.testing
    from relay_mlir.tvm.relay import testing
    assert testing is relay_mlir.testing
    import relay_mlir.tvm.relay.transform as t
    import relay_mlir.tvm.relay.testing.programs as p
    assert t is relay_mlir.transform and p is importlib.import_module("relay_mlir.testing.programs")
    assert p.__spec__.name == "relay_mlir.testing.programs"  # the alias keeps the module's spec
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        relay.no_such_name


def test_tvm_import_lines_of_the_issue():
    ns: dict = {}
    exec("import relay_mlir.tvm as tvm\n"
         "from relay_mlir.tvm import relay\n"
         "from relay_mlir.tvm.contrib import graph_executor\n"
         "from relay_mlir.tvm.runtime import vm as vm_rt\n"
         "from relay_mlir.tvm.relay import testing\n", ns)
    assert ns["graph_executor"].GraphModule and ns["vm_rt"].VirtualMachine


@pytest.mark.parametrize("name, says", [
    ("te", "Express the computation with relay ops"), ("topi", "relay ops"), ("tir", "relay ops"),
    ("autotvm", "nothing to tune"), ("auto_scheduler", "nothing to tune"),
    ("meta_schedule", "nothing to tune"), ("rpc", "export_library"), ("micro", "export_library"),
    ("relax", "Relay only")])
def test_refused_parts_say_what_to_use(name, says):
    with pytest.raises(AttributeError, match=f"tvm.{name} is not part of relay-mlir: .*{says}"):
        getattr(tvm, name)
    with pytest.raises(ImportError, match=f"tvm.{name} is not part of relay-mlir: .*{says}"):
        importlib.import_module(f"relay_mlir.tvm.{name}")
    with pytest.raises(ImportError, match=f"tvm.{name} is not part of relay-mlir"):
        exec(f"from relay_mlir.tvm import {name}", {})


def test_refused_contrib_modules():
    with pytest.raises(ImportError, match="tvm.contrib.cblas is not part of relay-mlir: relay-mlir "
                                          "provides tvm.contrib.graph_executor and tvm.contrib.utils"):
        importlib.import_module("relay_mlir.tvm.contrib.cblas")
    with pytest.raises(AttributeError, match="tvm.contrib.debugger is not part of relay-mlir"):
        tvm.contrib.debugger
    with pytest.raises(AttributeError, match="there is no graph JSON"):
        from relay_mlir.tvm.contrib import graph_executor
        graph_executor.create


def test_tvm_error_catches_relay_mlirs_errors():
    for err in (relay_mlir.CompileError("c"), relay_mlir.RelayRuntimeError("r"),
                relay_mlir.InputShapeError("s")):
        with pytest.raises(tvm.TVMError):
            raise err
    assert not isinstance(ValueError("v"), tvm.TVMError)


def test_tempdir():
    from relay_mlir.tvm.contrib import utils
    import os

    d = utils.tempdir()
    path = d.relpath("lib.so")
    with open(path, "w") as f:
        f.write("x")
    assert d.listdir() == ["lib.so"]
    root = d.temp_dir
    del d
    assert not os.path.exists(root)


def test_register_op_attr_forwards_or_names_issue_34():
    from relay_mlir import op

    if getattr(op, "register_op_attr", None) is None:
        with pytest.raises(NotImplementedError, match="issue 34"):
            tvm.ir.register_op_attr("nn.relu", "target.mine")
    else:  # another helper added relay_mlir.op.register_op_attr: it must be what tvm.ir calls
        assert callable(tvm.ir.register_op_attr)


def test_benchmark_result_statistics():
    from relay_mlir.tvm.runtime.benchmark import BenchmarkResult, time_calls

    r = BenchmarkResult([0.003, 0.001, 0.002, 0.006])
    assert r.results == (0.003, 0.001, 0.002, 0.006)
    assert (r.mean, r.median, r.min, r.max) == (0.003, 0.0025, 0.001, 0.006)
    assert r.std == pytest.approx(statistics.pstdev(r.results))  # numpy's std: population
    assert "mean (ms)" in str(r) and "3.0000" in str(r)
    calls = []
    r = time_calls(lambda: calls.append(1), number=4, repeat=3)
    assert len(r.results) == 3 and len(calls) == 12
    with pytest.raises(ValueError, match="number must be a positive int, got 0"):
        time_calls(lambda: None, number=0, repeat=1)


# relay.save_param_dict({"w": arange(6, float32).reshape(2, 3)}) in TVM 0.19, as hex
TVM_PARAMS_W = ("b79c04054f8de5f7000000000000000001000000000000000100000000000000770100000000000000"
                "3fa1b496f0405edd000000000000000001000000000000000200000002200100020000000000000003"
                "000000000000001800000000000000000000000000803f0000004000004040000080400000a040")
# tvm.runtime.save_param_dict({"w": (as above), "bias": int64 [1, -2], "flag": bool [True, False]})
TVM_PARAMS_3 = ("b79c04054f8de5f700000000000000000300000000000000040000000000000062696173040000000000"
                "0000666c616701000000000000007703000000000000003fa1b496f0405edd00000000000000000100"
                "0000000000000100000000400100020000000000000010000000000000000100000000000000feffff"
                "ffffffffff3fa1b496f0405edd00000000000000000100000000000000010000000101010002000000"
                "00000000020000000000000001003fa1b496f0405edd0000000000000000010000000000000002000000"
                "02200100020000000000000003000000000000001800000000000000000000000000803f0000004000"
                "004040000080400000a040")
W6 = np.arange(6, dtype="float32").reshape(2, 3)


def test_save_param_dict_writes_tvms_bytes():
    assert relay.save_param_dict({"w": W6}) == bytearray.fromhex(TVM_PARAMS_W)
    three = {"w": tvm.nd.array(W6), "bias": tvm.nd.array(np.array([1, -2], "int64")),
             "flag": np.array([True, False])}
    assert tvm.runtime.save_param_dict(three) == bytearray.fromhex(TVM_PARAMS_3)


def test_load_param_dict_reads_tvms_bytes(tmp_path):
    loaded = tvm.runtime.load_param_dict(bytes.fromhex(TVM_PARAMS_3))
    assert sorted(loaded) == ["bias", "flag", "w"]
    assert all(isinstance(v, tvm.nd.NDArray) for v in loaded.values())
    assert (loaded["bias"].dtype, loaded["bias"].numpy().tolist()) == ("int64", [1, -2])
    assert (loaded["flag"].dtype, loaded["flag"].numpy().tolist()) == ("bool", [True, False])
    np.testing.assert_array_equal(loaded["w"].numpy(), W6)
    path = tmp_path / "params.bin"
    tvm.runtime.save_param_dict_to_file(loaded, str(path))
    assert path.read_bytes() == bytes.fromhex(TVM_PARAMS_3)
    assert sorted(tvm.runtime.load_param_dict_from_file(str(path))) == ["bias", "flag", "w"]
    with pytest.raises(ValueError, match="wrong magic number"):
        relay.load_param_dict(b"\0" * 32)
    with pytest.raises(ValueError, match="param 'w': .* claims 24 bytes, holds 14"):
        relay.load_param_dict(bytes.fromhex(TVM_PARAMS_3)[:-10])
    with pytest.raises(ValueError, match="truncated or malformed"):
        relay.load_param_dict(bytes.fromhex(TVM_PARAMS_3)[:30])


def test_testing_assert_allclose_is_tvms():
    tvm.testing.assert_allclose(tvm.nd.array(np.array([1.0, 2.0])), [1.0, 2.0 + 1e-7])
    # TVM 0.19 compares shapes first: (2, 1) vs (2,) fails although numpy would broadcast
    with pytest.raises(AssertionError, match=r"shapes differ: actual \(2, 1\), desired \(2,\)"):
        tvm.testing.assert_allclose(np.ones((2, 1)), np.ones(2))
    with pytest.raises(AssertionError, match="Not equal to tolerance rtol=1e-07, atol=1e-07"):
        tvm.testing.assert_allclose([1.0], [1.001])
    with pytest.raises(AttributeError, match="tvm.testing.parametrize_targets is not part of relay-mlir"):
        tvm.testing.parametrize_targets


def test_runtime_enabled():
    import iree.runtime as rt

    assert tvm.runtime.enabled("llvm") and tvm.runtime.enabled("cpu")
    assert tvm.runtime.enabled("vulkan") == ("vulkan" in rt.query_available_drivers())
    assert not tvm.runtime.enabled("opencl") and not tvm.runtime.enabled("")


TVM_MODULES = ["relay_mlir.tvm", "relay_mlir.tvm._modules", "relay_mlir.tvm.target",
               "relay_mlir.tvm.transform", "relay_mlir.tvm.relay", "relay_mlir.tvm.runtime",
               "relay_mlir.tvm.runtime.device", "relay_mlir.tvm.runtime.ndarray",
               "relay_mlir.tvm.runtime.container", "relay_mlir.tvm.runtime.package",
               "relay_mlir.tvm.contrib.utils", "relay_mlir.tvm.runtime.params", "relay_mlir.tvm.testing",
               "relay_mlir.tvm.relay.bind_params", "relay_mlir.tvm.relay.backend"]


@pytest.mark.parametrize("name", TVM_MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0


def test_ir_structural_equal():
    # TVM 0.19 (side venv), the same calls: True, False, True, True, False; assert -> ValueError

    x, y = relay.var("x", shape=(1, 4)), relay.var("x", shape=(1, 4))
    m1 = tvm.IRModule.from_expr(relay.Function([x], relay.exp(x)))
    m2 = tvm.IRModule.from_expr(relay.Function([y], relay.exp(y)))
    m3 = tvm.IRModule.from_expr(relay.Function([y], relay.log(y)))
    got = [tvm.ir.structural_equal(m1["main"], m1["main"]), tvm.ir.structural_equal(relay.exp(x), relay.exp(y)),
           tvm.ir.structural_equal(relay.exp(x), relay.exp(y), map_free_vars=True),
           tvm.ir.structural_equal(m1, m2), tvm.ir.structural_equal(m1, m3)]
    assert got == [True, False, True, True, False]
    tvm.ir.assert_structural_equal(m1, m2)
    with pytest.raises(ValueError, match="StructuralEqual check failed"):
        tvm.ir.assert_structural_equal(m1, m3)


def test_infer_type_annotates_untyped_params():
    # TVM 0.19 (side venv), the same calls: an untyped weight's type_annotation is None in the
    # given function and TensorType([2, 3], float32) in InferType's (and create_workload's) copy
    from relay_mlir.tvm.relay import testing

    d, w = relay.var("data", shape=(1, 3)), relay.var("fc_weight")
    func = relay.Function([d, w], relay.nn.dense(d, w, units=2))
    typed = relay.transform.InferType()(tvm.IRModule.from_expr(func))["main"]
    mod, params = testing.create_workload(func)
    for f in (typed, mod["main"]):
        t = f.params[1].type_annotation
        assert [int(x) for x in t.shape] == [2, 3] and t.dtype == "float32"
        assert f.params[1].name_hint == "fc_weight"
    assert func.params[1].type_annotation is None and params["fc_weight"].shape == (2, 3)
