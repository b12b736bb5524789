"""relay.vm.compile + runtime.vm.VirtualMachine of relay_mlir.tvm against TVM 0.19: a VM script
with a dynamic batch (relay.Any()), changed only in its import lines, gives TVM 0.19's results
(recorded: the same script in the side venv) at batch 1, 3 and 5; tuple results are ADTs
(len, [i]); arguments by position or name; bad arguments are errors naming what main takes.
One compile (module fixture).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

TVM_IMPORTS = "import tvm\nfrom tvm import relay\nfrom tvm.runtime import vm as vm_rt\n"
PORTED_IMPORTS = ("import relay_mlir.tvm as tvm\nfrom relay_mlir.tvm import relay\n"
                  "from relay_mlir.tvm.runtime import vm as vm_rt\n")
VM_SCRIPT = """import json
import numpy as np
{imports}
x = relay.var("x", shape=(relay.Any(), 4))
w = relay.var("w", shape=(3, 4))
y = relay.nn.dense(x, w)
mod = tvm.IRModule.from_expr(relay.Function([x, w], relay.Tuple([relay.nn.relu(y), relay.argmax(y, axis=1)])))
w_np = ((np.arange(12).reshape(3, 4) % 5) - 2).astype("float32")
with tvm.transform.PassContext(opt_level=3):
    exe = relay.vm.compile(mod, target="llvm", params={{"w": w_np}})
vm = vm_rt.VirtualMachine(exe, tvm.cpu())
results = []
for batch in (1, 3, 5):
    xb = (np.arange(batch * 4).reshape(batch, 4) % 7 - 3).astype("float32") / 2
    res = vm.run(xb)
    again = vm.invoke("main", x=tvm.nd.array(xb))
    results.append([len(res), res[0].numpy().tolist(), res[1].dtype, res[1].numpy().tolist(),
                    bool((again[0].numpy() == res[0].numpy()).all())])
print(json.dumps(results))
"""
# `results` of VM_SCRIPT with TVM_IMPORTS, TVM 0.19 (side venv)
TVM_RESULTS = [
    [2, [[4.0, 0.0, 0.0]], "int32", [0], True],
    [2, [[4.0, 0.0, 0.0], [0.0, 0.0, 1.0], [3.0, 0.0, 0.0]], "int32", [0, 2, 0], True],
    [2, [[4.0, 0.0, 0.0], [0.0, 0.0, 1.0], [3.0, 0.0, 0.0], [0.0, 0.5, 8.0], [2.0, 0.0, 0.0]], "int32",
     [0, 2, 0, 2, 0], True]]


@pytest.fixture(scope="module")
def ported():
    """The namespace after running the ported script (its print silenced)."""
    ns: dict = {"print": lambda *a: None}
    exec(VM_SCRIPT.format(imports=PORTED_IMPORTS), ns)
    return ns


def test_script_differs_from_tvms_only_in_imports():
    a = VM_SCRIPT.format(imports=TVM_IMPORTS).splitlines()
    b = VM_SCRIPT.format(imports=PORTED_IMPORTS).splitlines()
    assert len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 3


def test_dynamic_batch_results_are_tvms(ported):
    got = ported["results"]
    assert [[r[0], r[2], r[3], r[4]] for r in got] == [[r[0], r[2], r[3], r[4]] for r in TVM_RESULTS]
    for g, t in zip(got, TVM_RESULTS):
        np.testing.assert_allclose(g[1], t[1], rtol=1e-6)  # dense of 4 halves: exact in float32


def test_results_are_adts_of_ndarrays(ported):
    tvm, vm = ported["tvm"], ported["vm"]
    res = vm.run(np.ones((2, 4), "float32"))
    assert type(res).__name__ == "ADT" and res.tag == 0 and len(res) == 2
    assert all(isinstance(r, tvm.nd.NDArray) for r in res) and res[0].shape == (2, 3)
    assert type(ported["exe"]).__name__ == "Executable"
    assert ported["exe"].get_function_params("main") == ["x"]  # w was bound by params


def test_stateful_calls_and_single_inputs(ported):
    # TVM 0.19: invoke_stateful returns None; get_outputs() lists the tuple's fields as NDArrays;
    # get_input_index('x') 0, unknown -1; set_one_input by name or index
    vm, tvm = ported["vm"], ported["tvm"]
    xb = np.array([[1.0, 0.0, -1.0, 2.0]], "float32")
    vm._inputs.clear()
    vm.set_one_input("main", "x", tvm.nd.array(xb))
    assert vm.invoke_stateful("main") is None
    outs = vm.get_outputs()
    assert len(outs) == 2 and all(isinstance(o, tvm.nd.NDArray) for o in outs)
    np.testing.assert_allclose(outs[0].numpy(), np.maximum(xb @ ported["w_np"].T, 0), rtol=1e-6)
    assert (vm.get_input_index("x"), vm.get_input_index("y")) == (0, -1)
    vm.set_one_input("main", 0, xb * 2)
    np.testing.assert_allclose(vm.invoke("main")[0].numpy(), 2 * outs[0].numpy(), rtol=1e-6)
    with pytest.raises(IndexError, match="main has 1 parameters, no index 3"):
        vm.set_one_input("main", 3, xb)


def test_set_input_then_invoke(ported):
    vm = ported["vm"]
    xb = np.full((1, 4), 0.5, "float32")
    vm.set_input("main", x=xb)
    res = vm.invoke("main")
    np.testing.assert_allclose(res[0].numpy(), np.maximum(xb @ ported["w_np"].T, 0), rtol=1e-6)
    r = vm.benchmark(ported["tvm"].cpu(), xb, number=1, repeat=2)
    assert len(r.results) == 2


@pytest.mark.parametrize("args, kwargs, error, message", [
    ((np.ones((2, 4), "float32"), np.ones((3, 4), "float32")), {}, TypeError,
     r"main takes 1 arguments \(x\), got 2"),
    ((), {"w": np.ones((3, 4), "float32")}, TypeError, r"main has no parameter 'w' \(its parameters: x\)"),
    ((), {}, TypeError, "main: missing arguments x"),
    ((np.ones((2, 4), "float32"),), {"x": np.ones((2, 4), "float32")}, TypeError,
     "argument 'x' given by position and by name"),
    ((np.ones((2, 5), "float32"),), {}, "InputShapeError", "main"),
])
def test_bad_arguments_name_what_main_takes(ported, args, kwargs, error, message):
    import relay_mlir

    vm = ported["vm"]
    vm._inputs.clear()
    err = getattr(relay_mlir, error) if isinstance(error, str) else error
    with pytest.raises(err, match=message):
        vm.run(*args, **kwargs)


def test_vm_checks_device_and_executable(ported):
    from relay_mlir.tvm.runtime import vm as vm_rt

    tvm = ported["tvm"]
    with pytest.raises(ValueError, match=r"built for target llvm-cpu \(a cpu device\) and cannot run on vulkan\(0\)"):
        vm_rt.VirtualMachine(ported["exe"], tvm.vulkan())
    with pytest.raises(TypeError, match="expects the Executable relay.vm.compile returns \\(or the module"):
        vm_rt.VirtualMachine(object(), tvm.cpu())
    with pytest.raises(AttributeError, match="there is no VM bytecode"):
        ported["exe"].save()


LOAD_VM_SCRIPT = """import json, sys
import numpy as np
{imports}
vm = vm_rt.VirtualMachine(tvm.runtime.load_module(sys.argv[1]), tvm.cpu())
xb = (np.arange(12).reshape(3, 4) % 7 - 3).astype("float32") / 2
res = vm.run(xb)
print(json.dumps([len(res), res[0].numpy().tolist(), res[1].dtype, res[1].numpy().tolist()]))
"""


def test_exported_vm_runs_in_a_fresh_process(ported, tmp_path):
    # TVM 0.19: exe.mod.export_library(path); VirtualMachine(tvm.runtime.load_module(path), dev)
    path = str(tmp_path / "vm_lib.so")
    ported["exe"].mod.export_library(path)
    run_dir = tmp_path / "elsewhere"
    run_dir.mkdir()
    r = subprocess.run([sys.executable, "-c", LOAD_VM_SCRIPT.format(imports=PORTED_IMPORTS), path],
                       cwd=str(run_dir), capture_output=True, text=True, timeout=300, env=os.environ.copy())
    assert r.returncode == 0, r.stderr[-3000:]
    assert json.loads(r.stdout) == TVM_RESULTS[1][:4]  # batch 3 of the recorded script


def test_loaded_vm_library_keeps_nested_tuples(tmp_path):
    import relay_mlir.tvm as tvm
    from relay_mlir.tvm import relay
    from relay_mlir.tvm.runtime import vm as vm_rt

    x = relay.var("x", shape=(relay.Any(), 2))
    body = relay.Tuple([x * relay.const(2.0), relay.Tuple([relay.sum(x, axis=1)])])
    exe = relay.vm.compile(tvm.IRModule.from_expr(relay.Function([x], body)), target="llvm")
    exe.mod.export_library(str(tmp_path / "nested.so"))
    lib = tvm.runtime.load_module(str(tmp_path / "nested.so"))
    assert lib.type_key == "VMExecutable"  # as TVM 0.19's loaded module
    res = vm_rt.VirtualMachine(lib, tvm.cpu()).run(np.array([[1, 2], [3, 4], [5, 6]], "float32"))
    # TVM 0.19 on the same program: ADT of 2, its second an ADT of 1
    assert len(res) == 2 and len(res[1]) == 1
    assert res[1][0].numpy().tolist() == [3.0, 7.0, 11.0]
    assert res[0].numpy().tolist() == [[2.0, 4.0], [6.0, 8.0], [10.0, 12.0]]


def test_loaded_vm_library_returns_adt_values(tmp_path):
    # A Prelude List and Option in a tuple: the library keeps main's relay types (the ADTs'
    # constructors included), so the loaded program decodes them as the compiling process does
    import relay_mlir.tvm as tvm
    from relay_mlir.prelude import Prelude
    from relay_mlir.tvm import relay
    from relay_mlir.tvm.runtime import vm as vm_rt

    mod = tvm.IRModule()
    p = Prelude(mod)
    x = relay.var("x", shape=(2,))
    mod["main"] = relay.Function([x], relay.Tuple([p.cons(x, p.cons(x * x, p.nil())), p.some(x)]))
    relay.vm.compile(mod, target="llvm").mod.export_library(str(tmp_path / "adt.so"))
    res = vm_rt.VirtualMachine(tvm.runtime.load_module(str(tmp_path / "adt.so")), tvm.cpu()).run(
        np.array([3, 4], "float32"))
    lst, opt = res
    assert (lst.tag, lst[1].tag, lst[1][1].tag, opt.tag) == (0, 0, 1, 0)  # Cons, Cons, Nil, Some
    assert lst[0].numpy().tolist() == [3.0, 4.0] and lst[1][0].numpy().tolist() == [9.0, 16.0]
    assert opt[0].numpy().tolist() == [3.0, 4.0] and len(lst[1][1]) == 0
