"""relay.build + graph_executor.GraphModule + create_executor("graph") of relay_mlir.tvm, against
TVM 0.19's behaviour (recorded in the side venv with the same calls; noted per test) and numpy.

Two graphs are compiled for the whole file (module fixtures): y = (dense(x, w) + b, relu(x)) with
``w`` bound at build time, and the same graph with every parameter a run-time input.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir.tvm as tvm
from relay_mlir.tvm import relay
from relay_mlir.tvm.contrib import graph_executor

X = np.array([[0.5, -1.0, 2.0]], "float32")
W = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.25]], "float32")
B = np.array([[0.1, -0.2]], "float32")
TOL = dict(rtol=1e-5, atol=1e-6)  # float32 dense of 3 terms


def _mod():
    x, w, b = relay.var("x", shape=(1, 3)), relay.var("w", shape=(2, 3)), relay.var("b", shape=(1, 2))
    f = relay.Function([x, w, b], relay.Tuple([relay.nn.dense(x, w) + b, relay.nn.relu(x)]))
    return tvm.IRModule.from_expr(f)


def _ref(x=X, w=W, b=B):
    return [x @ w.T + b, np.maximum(x, 0)]


@pytest.fixture(scope="module")
def bound_lib():
    with tvm.transform.PassContext(opt_level=3, disabled_pass=["NoSuchPass", "AlterOpLayout"]):
        return relay.build(_mod(), "llvm", params={"w": tvm.nd.array(W), "unused": np.zeros(1)})


def test_factory_and_params(bound_lib):
    assert type(bound_lib).__name__ == "GraphExecutorFactoryModule"
    params = bound_lib.get_params()
    # TVM 0.19 names the lifted constant 'p0'; here a bound param keeps its name ('unused' is
    # not a parameter of main and is ignored, as TVM's bind_params_by_name does)
    assert list(params) == ["w"] and isinstance(params["w"], tvm.nd.NDArray)
    np.testing.assert_array_equal(params["w"].numpy(), W)
    with pytest.raises(AttributeError, match="get_graph_json is not part of relay-mlir: there is no graph JSON"):
        bound_lib.get_graph_json()
    with pytest.raises(TypeError, match="the legacy unpacking 'graph, lib, params = relay.build"):
        graph, lib, params = bound_lib


def test_graph_module_runs_and_matches_numpy(bound_lib):
    m = graph_executor.GraphModule(bound_lib["default"](tvm.cpu(0)))
    # TVM 0.19 on this graph: 2 outputs; get_input_index x 0, b 1, w (bound) -1, unknown -1
    assert m.get_num_outputs() == 2 and isinstance(m.get_num_outputs(), int)
    assert [m.get_input_index(n) for n in ("x", "b", "w", "zz")] == [0, 1, -1, -1]
    # TVM counts the lifted constant p0 as a third input; relay-mlir's constants are in the code
    assert m.get_num_inputs() == 2
    m.set_input("x", X)
    m.set_input(b=tvm.nd.array(B), w=np.zeros((2, 3), "float32"), zz=1)  # non-inputs skipped
    m.run()
    out = m.get_output(0)
    assert isinstance(out, tvm.nd.NDArray) and out.shape == (1, 2) and out.dtype == "float32"
    for i, ref in enumerate(_ref()):
        np.testing.assert_allclose(m.get_output(np.int64(i)).numpy(), ref, **TOL)
    # TVM 0.19: get_output(i) is the executor's buffer, overwritten by the next run
    m.run(x=np.zeros((1, 3), "float32"))
    np.testing.assert_allclose(out.numpy(), _ref(x=np.zeros((1, 3), "float32"))[0], **TOL)
    # ... and get_output(i, out) copies into out and returns it
    into = tvm.nd.empty((1, 2))
    assert m.get_output(0, into) is into
    np.testing.assert_allclose(into.numpy(), out.numpy())
    shapes, dtypes = m.get_input_info()
    assert shapes == {"x": (1, 3), "b": (1, 2)} and dtypes == {"x": "float32", "b": "float32"}


@pytest.fixture(scope="module")
def free_lib():
    from relay_mlir.tvm.relay.backend import Executor, Runtime

    # TVM 0.19 scripts that spell out the executor and runtime
    return relay.build(_mod(), target=tvm.target.Target("llvm"), executor=Executor("graph", {"link-params": True}),
                       runtime=Runtime("cpp"))


def test_unbound_params_are_inputs_swapped_without_rebuilding(free_lib):
    m = graph_executor.GraphModule(free_lib["default"](tvm.cpu()))
    assert [m.get_input_index(n) for n in ("x", "w", "b")] == [0, 1, 2]
    m.set_input(**{"w": W, "b": B})
    m.run(x=X)
    np.testing.assert_allclose(m.get_output(0).numpy(), _ref()[0], **TOL)
    w2 = W * 2 - 1
    m.set_input(w=w2)
    m.run()
    np.testing.assert_allclose(m.get_output(0).numpy(), _ref(w=w2)[0], **TOL)
    assert free_lib.get_params() == {}
    # TVM 0.19's deployment idiom: params saved with save_param_dict, loaded into the module
    m.load_params(relay.save_param_dict({"w": W, "b": B, "not_an_input": np.zeros(1)}))
    m.run()
    np.testing.assert_allclose(m.get_output(0).numpy(), _ref()[0], **TOL)
    m.set_input_zero_copy("x", np.zeros((1, 3), "float32"))
    m.run()
    np.testing.assert_allclose(m.get_output(0).numpy(), _ref(x=np.zeros((1, 3), "float32"))[0], **TOL)


@pytest.mark.parametrize("key, value, error, message", [
    ("zz", X, RuntimeError, "Could not find 'zz' in graph's inputs; the inputs are: x, b"),
    ("w", W, RuntimeError, "Could not find 'w' in graph's inputs"),  # bound at build time
    ("x", np.ones((1, 4), "float32"), ValueError, r"graph input 'x' expects shape \(1, 3\), got \(1, 4\)"),
    ("x", np.ones((3,), "float32"), ValueError, r"expects shape \(1, 3\), got \(3,\)"),
    ("x", np.ones((1, 3), "int32") > 0, None, None),  # bool -> float32, as TVM casts numpy
    ("x", np.ones((1, 3), "float64"), None, None),  # float64 -> float32, as TVM
    # TVM 0.19 copies an int32 NDArray's bytes into the float32 input (1e-45 values); here an error
    ("x", tvm.nd.array(np.ones((1, 3), "int32")), ValueError, "expects dtype float32, got an NDArray of dtype int32"),
    ("x", np.ones((1, 3), "complex64"), ValueError, "expects dtype float32, got complex64"),
    (5, X, IndexError, "input index 5 out of range: the graph has 2 inputs"),
])
def test_set_input_errors_name_what_was_expected(bound_lib, key, value, error, message):
    m = graph_executor.GraphModule(bound_lib["default"](tvm.cpu()))
    if error is None:
        m.set_input(key, value)
        np.testing.assert_array_equal(m.get_input(key).numpy(), np.asarray(value, "float32"))
    else:
        with pytest.raises(error, match=message):
            m.set_input(key, value)


def test_run_and_output_errors(bound_lib):
    m = graph_executor.GraphModule(bound_lib["default"](tvm.cpu()))
    m.set_input("x", X)
    with pytest.raises(ValueError, match=r"graph inputs not set: b \(set_input"):
        m.run()
    with pytest.raises(IndexError, match="output index 2 out of range: the graph has 2 outputs"):
        m.get_output(2)
    with pytest.raises(ValueError, match="built for target llvm-cpu .* cannot run on vulkan"):
        bound_lib["default"](tvm.vulkan(0))
    with pytest.raises(ValueError, match='expects a Device such as tvm.cpu'):
        bound_lib["default"]("cpu")
    with pytest.raises(AttributeError, match="GraphModule.debug_get_output is not part of relay-mlir"):
        m.debug_get_output(0, tvm.nd.empty((1,)))
    with pytest.raises(TypeError, match='GraphModule expects the module lib\\["default"\\]'):
        graph_executor.GraphModule(bound_lib)


def test_benchmark_and_time_evaluator(bound_lib):
    m = graph_executor.GraphModule(bound_lib["default"](tvm.cpu()))
    r = m.benchmark(tvm.cpu(), number=2, repeat=3, x=X, b=B)  # kwargs set inputs first, as TVM
    assert len(r.results) == 3 and all(t > 0 for t in r.results)
    assert r.min <= r.median <= r.max and r.min <= r.mean <= r.max
    np.testing.assert_allclose(m.get_output(0).numpy(), _ref()[0], **TOL)
    t = m.module.time_evaluator("run", tvm.cpu(), number=2, repeat=2)()
    assert len(t.results) == 2
    with pytest.raises(AttributeError, match="has no function 'nope'"):
        m.module.time_evaluator("nope", tvm.cpu())


def test_build_needs_a_target():
    # TVM 0.19: ValueError("Target is not set in env or passed as argument.")
    with pytest.raises(ValueError, match="Target is not set in env or passed as argument"):
        relay.build(_mod())
    with pytest.raises(ValueError, match="expected an IRModule"):
        relay.build("not a module", "llvm")
    with pytest.raises(ValueError, match="target kind 'metal' is not supported"):
        relay.build(_mod(), "metal")
    from relay_mlir.tvm.relay.backend import Executor, Runtime
    assert Runtime("crt").name == "crt"  # Executor("aot") builds: test_tvm_heldout_scripts
    with pytest.raises(ValueError, match='Executor "foo" is not defined'):  # TVM 0.19's message
        Executor("foo")
    # TVM 0.19 binds a (3, 3) w to the (2, 3) parameter as it is and builds another program
    with pytest.raises(ValueError, match=r"param 'w' expects shape \(2, 3\), got \(3, 3\)"):
        relay.build(_mod(), "llvm", params={"w": np.ones((3, 3), "float32")})
    with pytest.raises(ValueError, match="param 'w' expects dtype float32, got an NDArray of dtype int32"):
        relay.vm.compile(_mod(), "llvm", params={"w": tvm.nd.array(np.ones((2, 3), "int32"))})


def test_build_runs_relays_optimizer_at_the_contexts_level():
    from relay_mlir.pass_infra import PassInstrument

    class Seen(PassInstrument):
        def __init__(self):
            self.names = []

        def run_before_pass(self, mod, info):
            self.names.append(info.name)

    x = relay.var("x", shape=(2,))
    mod = tvm.IRModule.from_expr(relay.Function([x], x * relay.const(2.0) + relay.const(1.0)))
    seen = Seen()
    # TVM 0.19's relay.build sequence at opt level 1: FoldConstant (2) and
    # EliminateCommonSubexpr (3) do not run, SimplifyInference (0) does
    with tvm.transform.PassContext(opt_level=1, instruments=[seen]), tvm.target.Target("llvm"):
        lib = relay.build(mod)
    assert "SimplifyInference" in seen.names and "FoldConstant" not in seen.names
    assert "EliminateCommonSubexpr" not in seen.names
    m = graph_executor.GraphModule(lib["default"](tvm.cpu()))
    m.run(x=np.array([1, 2], "float32"))
    np.testing.assert_array_equal(m.get_output(0).numpy(), [3, 5])


def test_create_executor_graph_gives_a_list_of_ndarrays():
    # TVM 0.19: evaluate()(...) of a tuple-valued main is a list of NDArrays (by position or name)
    ex = relay.create_executor("graph", mod=_mod(), device=tvm.cpu(0), target="llvm",
                               params={"w": tvm.nd.array(W)}).evaluate()
    for res in (ex(X, tvm.nd.array(B)), ex(x=X, b=B)):
        assert isinstance(res, list) and all(isinstance(r, tvm.nd.NDArray) for r in res)
        for got, ref in zip(res, _ref()):
            np.testing.assert_allclose(got.numpy(), ref, **TOL)


def test_create_executor_debug_gives_tvm_values():
    x = relay.var("x", shape=(2,))
    mod = tvm.IRModule.from_expr(relay.Function([x], relay.Tuple([x + x, x * x])))
    res = relay.create_executor("debug", mod=mod).evaluate()(tvm.nd.array(np.array([1, 3], "float32")))
    assert len(res) == 2 and res.tag == 0
    np.testing.assert_array_equal(res[1].numpy(), [1, 9])


def test_graph_executor_takes_any_dims_at_any_size():
    # TVM 0.19's graph executor refuses relay.Any() dims; relay-mlir's runs them (docs/porting-from-tvm.md)
    x = relay.var("x", shape=(relay.Any(), 3))
    lib = relay.build(tvm.IRModule.from_expr(relay.Function([x], relay.sum(x, axis=1))), "llvm")
    m = graph_executor.GraphModule(lib["default"](tvm.cpu()))
    assert m.get_input_info()[0] == {"x": (None, 3)}
    for n in (1, 4):
        xs = np.arange(3 * n, dtype="float32").reshape(n, 3)
        m.run(x=xs)
        np.testing.assert_allclose(m.get_output(0).numpy(), xs.sum(axis=1), **TOL)
    with pytest.raises(ValueError, match=r"expects shape \(\?, 3\), got \(2, 2\)"):
        m.set_input("x", np.zeros((2, 2), "float32"))


def test_create_executor_vm_gives_an_adt():
    # TVM 0.19: the VM executor returns a tuple result as an ADT of NDArrays
    ex = relay.create_executor("vm", mod=_mod(), device=tvm.cpu(0), target="llvm").evaluate()
    res = ex(X, W, b=tvm.nd.array(B))
    assert type(res).__name__ == "ADT" and len(res) == 2
    for got, ref in zip(res, _ref()):
        np.testing.assert_allclose(got.numpy(), ref, **TOL)
