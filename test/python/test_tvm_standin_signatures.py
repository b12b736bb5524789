"""relay_mlir.tvm's public functions have TVM 0.19's signatures: parameter names, kinds and simple
defaults, recorded in the side venv with inspect.signature (an object default, e.g. ``device=cpu(0)``
or ``executor=Executor("graph")``, recorded as "<obj>", only needs a default here).
"""
from __future__ import annotations

import inspect

import pytest

import relay_mlir.tvm as tvm
from relay_mlir.tvm import relay
from relay_mlir.tvm.contrib import graph_executor, utils
from relay_mlir.tvm.runtime import vm as vm_rt

# name -> [[parameter, kind, default (if any)], ...] of TVM 0.19 (self left out)
TVM_SIGNATURES = {
    'relay.build': [["ir_mod", "POSITIONAL_OR_KEYWORD"], ["target", "POSITIONAL_OR_KEYWORD", None], ["target_host", "POSITIONAL_OR_KEYWORD", None], ["executor", "POSITIONAL_OR_KEYWORD", "<obj>"], ["runtime", "POSITIONAL_OR_KEYWORD", "<obj>"], ["workspace_memory_pools", "POSITIONAL_OR_KEYWORD", None], ["constant_memory_pools", "POSITIONAL_OR_KEYWORD", None], ["params", "POSITIONAL_OR_KEYWORD", None], ["mod_name", "POSITIONAL_OR_KEYWORD", "default"]],
    'relay.vm.compile': [["mod", "POSITIONAL_OR_KEYWORD"], ["target", "POSITIONAL_OR_KEYWORD", None], ["target_host", "POSITIONAL_OR_KEYWORD", None], ["params", "POSITIONAL_OR_KEYWORD", None]],
    'relay.create_executor': [["kind", "POSITIONAL_OR_KEYWORD", "debug"], ["mod", "POSITIONAL_OR_KEYWORD", None], ["device", "POSITIONAL_OR_KEYWORD", None], ["target", "POSITIONAL_OR_KEYWORD", "llvm"], ["params", "POSITIONAL_OR_KEYWORD", None]],
    'nd.array': [["arr", "POSITIONAL_OR_KEYWORD"], ["device", "POSITIONAL_OR_KEYWORD", "<obj>"], ["mem_scope", "POSITIONAL_OR_KEYWORD", None]],
    'nd.empty': [["shape", "POSITIONAL_OR_KEYWORD"], ["dtype", "POSITIONAL_OR_KEYWORD", "float32"], ["device", "POSITIONAL_OR_KEYWORD", "<obj>"], ["mem_scope", "POSITIONAL_OR_KEYWORD", None]],
    'cpu': [["dev_id", "POSITIONAL_OR_KEYWORD", 0]],
    'cuda': [["dev_id", "POSITIONAL_OR_KEYWORD", 0]],
    'vulkan': [["dev_id", "POSITIONAL_OR_KEYWORD", 0]],
    'device': [["dev_type", "POSITIONAL_OR_KEYWORD"], ["dev_id", "POSITIONAL_OR_KEYWORD", 0]],
    'runtime.load_module': [["path", "POSITIONAL_OR_KEYWORD"], ["fmt", "POSITIONAL_OR_KEYWORD", ""]],
    'ir.register_op_attr': [["op_name", "POSITIONAL_OR_KEYWORD"], ["attr_key", "POSITIONAL_OR_KEYWORD"], ["value", "POSITIONAL_OR_KEYWORD", None], ["level", "POSITIONAL_OR_KEYWORD", 10]],
    'GraphModule.set_input': [["key", "POSITIONAL_OR_KEYWORD", None], ["value", "POSITIONAL_OR_KEYWORD", None], ["params", "VAR_KEYWORD"]],
    'GraphModule.run': [["input_dict", "VAR_KEYWORD"]],
    'GraphModule.get_output': [["index", "POSITIONAL_OR_KEYWORD"], ["out", "POSITIONAL_OR_KEYWORD", None]],
    'GraphModule.get_input': [["index", "POSITIONAL_OR_KEYWORD"], ["out", "POSITIONAL_OR_KEYWORD", None]],
    'GraphModule.get_input_index': [["name", "POSITIONAL_OR_KEYWORD"]],
    'GraphModule.benchmark': [["device", "POSITIONAL_OR_KEYWORD"], ["func_name", "POSITIONAL_OR_KEYWORD", "run"], ["repeat", "POSITIONAL_OR_KEYWORD", 5], ["number", "POSITIONAL_OR_KEYWORD", 5], ["min_repeat_ms", "POSITIONAL_OR_KEYWORD", None], ["limit_zero_time_iterations", "POSITIONAL_OR_KEYWORD", 100], ["end_to_end", "POSITIONAL_OR_KEYWORD", False], ["cooldown_interval_ms", "POSITIONAL_OR_KEYWORD", 0], ["repeats_to_cooldown", "POSITIONAL_OR_KEYWORD", 1], ["kwargs", "VAR_KEYWORD"]],
    'Module.time_evaluator': [["func_name", "POSITIONAL_OR_KEYWORD"], ["dev", "POSITIONAL_OR_KEYWORD"], ["number", "POSITIONAL_OR_KEYWORD", 10], ["repeat", "POSITIONAL_OR_KEYWORD", 1], ["min_repeat_ms", "POSITIONAL_OR_KEYWORD", 0], ["limit_zero_time_iterations", "POSITIONAL_OR_KEYWORD", 100], ["cooldown_interval_ms", "POSITIONAL_OR_KEYWORD", 0], ["repeats_to_cooldown", "POSITIONAL_OR_KEYWORD", 1], ["cache_flush_bytes", "POSITIONAL_OR_KEYWORD", 0], ["f_preproc", "POSITIONAL_OR_KEYWORD", ""]],
    'VirtualMachine.__init__': [["exe", "POSITIONAL_OR_KEYWORD"], ["device", "POSITIONAL_OR_KEYWORD"], ["memory_cfg", "POSITIONAL_OR_KEYWORD", None]],
    'VirtualMachine.run': [["args", "VAR_POSITIONAL"], ["kwargs", "VAR_KEYWORD"]],
    'VirtualMachine.invoke': [["func_name", "POSITIONAL_OR_KEYWORD"], ["args", "VAR_POSITIONAL"], ["kwargs", "VAR_KEYWORD"]],
    'VirtualMachine.set_input': [["func_name", "POSITIONAL_OR_KEYWORD"], ["args", "VAR_POSITIONAL"], ["kwargs", "VAR_KEYWORD"]],
    'VirtualMachine.benchmark': [["device", "POSITIONAL_OR_KEYWORD"], ["args", "VAR_POSITIONAL"], ["func_name", "KEYWORD_ONLY", "main"], ["repeat", "KEYWORD_ONLY", 5], ["number", "KEYWORD_ONLY", 5], ["min_repeat_ms", "KEYWORD_ONLY", None], ["limit_zero_time_iterations", "KEYWORD_ONLY", 100], ["end_to_end", "KEYWORD_ONLY", False], ["cooldown_interval_ms", "KEYWORD_ONLY", 0], ["repeats_to_cooldown", "KEYWORD_ONLY", 1], ["kwargs", "VAR_KEYWORD"]],
    'NDArray.copyto': [["target", "POSITIONAL_OR_KEYWORD"], ["mem_scope", "POSITIONAL_OR_KEYWORD", None]],
    'NDArray.copyfrom': [["source_array", "POSITIONAL_OR_KEYWORD"]],
    'save_param_dict': [["params", "POSITIONAL_OR_KEYWORD"]],
    'load_param_dict': [["param_bytes", "POSITIONAL_OR_KEYWORD"]],
    'testing.assert_allclose': [["actual", "POSITIONAL_OR_KEYWORD"], ["desired", "POSITIONAL_OR_KEYWORD"], ["rtol", "POSITIONAL_OR_KEYWORD", 1e-07], ["atol", "POSITIONAL_OR_KEYWORD", 1e-07]],
    'Target.__init__': [["target", "POSITIONAL_OR_KEYWORD"], ["host", "POSITIONAL_OR_KEYWORD", None]],
    'PassContext.__init__': [["opt_level", "POSITIONAL_OR_KEYWORD", 2], ["required_pass", "POSITIONAL_OR_KEYWORD", None], ["disabled_pass", "POSITIONAL_OR_KEYWORD", None], ["instruments", "POSITIONAL_OR_KEYWORD", None], ["config", "POSITIONAL_OR_KEYWORD", None], ["trace", "POSITIONAL_OR_KEYWORD", None], ["trace_stack", "POSITIONAL_OR_KEYWORD", None], ["make_traceable", "POSITIONAL_OR_KEYWORD", None], ["num_evals", "POSITIONAL_OR_KEYWORD", 0], ["tuning_api_database", "POSITIONAL_OR_KEYWORD", None]],
    'Sequential.__init__': [["passes", "POSITIONAL_OR_KEYWORD", None], ["opt_level", "POSITIONAL_OR_KEYWORD", 0], ["name", "POSITIONAL_OR_KEYWORD", "sequential"], ["required", "POSITIONAL_OR_KEYWORD", None], ["traceable", "POSITIONAL_OR_KEYWORD", False]],
    'runtime.enabled': [["target", "POSITIONAL_OR_KEYWORD"]],
    'utils.tempdir': [["custom_path", "POSITIONAL_OR_KEYWORD", None], ["keep_for_debug", "POSITIONAL_OR_KEYWORD", None]],
    'VirtualMachine.invoke_stateful': [["func_name", "POSITIONAL_OR_KEYWORD"], ["args", "VAR_POSITIONAL"], ["kwargs", "VAR_KEYWORD"]],
    'VirtualMachine.get_outputs': [],
    'VirtualMachine.get_input_index': [["input_name", "POSITIONAL_OR_KEYWORD"], ["func_name", "POSITIONAL_OR_KEYWORD", "main"]],
    'VirtualMachine.set_one_input': [["func_name", "POSITIONAL_OR_KEYWORD"], ["args", "VAR_POSITIONAL"], ["kwargs", "VAR_KEYWORD"]],
    'GraphModule.load_params': [["params_bytes", "POSITIONAL_OR_KEYWORD"]],
    'GraphModule.set_input_zero_copy': [["key", "POSITIONAL_OR_KEYWORD", None], ["value", "POSITIONAL_OR_KEYWORD", None], ["params", "VAR_KEYWORD"]],
    'target.cuda': [["model", "POSITIONAL_OR_KEYWORD", "unknown"], ["arch", "POSITIONAL_OR_KEYWORD", None], ["options", "POSITIONAL_OR_KEYWORD", None]],
    'target.rocm': [["model", "POSITIONAL_OR_KEYWORD", "unknown"], ["options", "POSITIONAL_OR_KEYWORD", None]],
    'relay.build_config': [["opt_level", "POSITIONAL_OR_KEYWORD", 2], ["required_pass", "POSITIONAL_OR_KEYWORD", None], ["disabled_pass", "POSITIONAL_OR_KEYWORD", None], ["trace", "POSITIONAL_OR_KEYWORD", None]],
    'build_module.bind_params_by_name': [["func", "POSITIONAL_OR_KEYWORD"], ["params", "POSITIONAL_OR_KEYWORD"]],
    'relay.optimize': [["mod", "POSITIONAL_OR_KEYWORD"], ["target", "POSITIONAL_OR_KEYWORD", None], ["params", "POSITIONAL_OR_KEYWORD", None]],
}
# relay_mlir.pass_infra implements PassContext's first five parameters (TVM's tracing and tuning
# parameters after them are not part of relay-mlir)
PREFIX_ONLY = {"PassContext.__init__": 5}

OURS = {
    "relay.build": relay.build, "relay.build_config": relay.build_config, "relay.optimize": relay.optimize,
    "build_module.bind_params_by_name": relay.build_module.bind_params_by_name, "relay.vm.compile": relay.vm.compile,
    "relay.create_executor": relay.create_executor, "nd.array": tvm.nd.array, "nd.empty": tvm.nd.empty,
    "cpu": tvm.cpu, "cuda": tvm.cuda, "vulkan": tvm.vulkan, "device": tvm.device,
    "runtime.load_module": tvm.runtime.load_module, "ir.register_op_attr": tvm.ir.register_op_attr,
    "GraphModule.set_input": graph_executor.GraphModule.set_input,
    "GraphModule.run": graph_executor.GraphModule.run,
    "GraphModule.get_output": graph_executor.GraphModule.get_output,
    "GraphModule.get_input": graph_executor.GraphModule.get_input,
    "GraphModule.get_input_index": graph_executor.GraphModule.get_input_index,
    "GraphModule.benchmark": graph_executor.GraphModule.benchmark,
    "GraphModule.load_params": graph_executor.GraphModule.load_params,
    "GraphModule.set_input_zero_copy": graph_executor.GraphModule.set_input_zero_copy,
    "Module.time_evaluator": tvm.runtime.Module.time_evaluator,
    "VirtualMachine.__init__": vm_rt.VirtualMachine.__init__, "VirtualMachine.run": vm_rt.VirtualMachine.run,
    "VirtualMachine.invoke": vm_rt.VirtualMachine.invoke,
    "VirtualMachine.set_input": vm_rt.VirtualMachine.set_input,
    "VirtualMachine.benchmark": vm_rt.VirtualMachine.benchmark,
    "VirtualMachine.invoke_stateful": vm_rt.VirtualMachine.invoke_stateful,
    "VirtualMachine.get_outputs": vm_rt.VirtualMachine.get_outputs,
    "VirtualMachine.get_input_index": vm_rt.VirtualMachine.get_input_index,
    "VirtualMachine.set_one_input": vm_rt.VirtualMachine.set_one_input,
    "NDArray.copyto": tvm.nd.NDArray.copyto, "NDArray.copyfrom": tvm.nd.NDArray.copyfrom,
    "save_param_dict": tvm.runtime.save_param_dict, "load_param_dict": tvm.runtime.load_param_dict,
    "testing.assert_allclose": tvm.testing.assert_allclose, "Target.__init__": tvm.target.Target.__init__,
    "PassContext.__init__": tvm.transform.PassContext.__init__,
    "Sequential.__init__": tvm.transform.Sequential.__init__, "runtime.enabled": tvm.runtime.enabled,
    "utils.tempdir": utils.tempdir, "target.cuda": tvm.target.cuda, "target.rocm": tvm.target.rocm,
}


def _signature(f):
    out = []
    for p in inspect.signature(f).parameters.values():
        if p.name == "self":
            continue
        if p.default is inspect.Parameter.empty:
            out.append([p.name, p.kind.name])
        else:
            simple = isinstance(p.default, (int, float, str, bool, type(None)))
            out.append([p.name, p.kind.name, p.default if simple else "<obj>"])
    return out


def _same(ours, theirs):
    """Same name and kind; same default, except that TVM's object default (``<obj>``) only needs
    a default here (e.g. ``executor=None`` for TVM's ``Executor("graph")``)."""
    if ours[:2] != theirs[:2] or len(ours) != len(theirs):
        return False
    return len(theirs) == 2 or theirs[2] == "<obj>" or ours[2] == theirs[2]


@pytest.mark.parametrize("name", sorted(TVM_SIGNATURES))
def test_signature_is_tvms(name):
    ours, theirs = _signature(OURS[name]), TVM_SIGNATURES[name]
    if name in PREFIX_ONLY:
        ours, theirs = ours[:PREFIX_ONLY[name]], theirs[:PREFIX_ONLY[name]]
    assert len(ours) == len(theirs) and all(_same(a, b) for a, b in zip(ours, theirs)), (ours, theirs)
