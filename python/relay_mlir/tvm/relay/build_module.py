"""``relay.build`` and ``relay.create_executor``, TVM 0.19's way.

``build(ir_mod, target=None, target_host=None, executor=..., runtime=...,
workspace_memory_pools=None, constant_memory_pools=None, params=None,
mod_name="default")`` optimizes and compiles ``main`` inside the current
``PassContext`` (its opt level — 2 outside any, as TVM — and its
``required_pass``/``disabled_pass``; names of passes relay-mlir does not have are
accepted) and returns a ``GraphExecutorFactoryModule``. ``params`` (numpy arrays or
NDArrays; names that are not parameters of ``main`` are ignored, as TVM's
``bind_params_by_name``) become constants; the other parameters stay run-time inputs.
A param must fit its parameter's type as ``set_input`` values must (TVM 0.19 binds one
of another shape as it is and builds another program; here a ``ValueError``).
``target`` is a string, a ``Target``, a dict of devices' targets, or None for
``Target.current()``: a dict of two or more (``{"cpu": "llvm", "vulkan": "vulkan"}``,
TVM's heterogeneous build) places ``main`` by its ``on_device`` annotations
(``relay_mlir.devices``: PlanDevices, one ``.vmfb`` for both IREE devices), and
``lib["default"](tvm.cpu(), tvm.vulkan())`` runs it; ``target_host`` and ``runtime`` are accepted and have no effect
(IREE's runtime is both executor and runtime); ``executor=Executor("aot")`` gives TVM's
``AOTExecutorFactoryModule`` (run with ``tvm.runtime.executor.AotModule``), else the graph
executor factory.

``create_executor(kind="debug", mod=None, device=None, target="llvm", params=None)``:
``evaluate()`` gives a function taking NDArrays or numpy arrays (by position or
parameter name) and returning NDArrays; a tuple result is a list for ``"graph"``
and ``"aot"`` and an ``ADT`` for ``"vm"`` and ``"debug"``, as in TVM.
"""
from __future__ import annotations

from typing import Dict, Mapping, Optional, Tuple

import numpy as np

from ...compiler import compile as _compile
from ...executor import create_executor as _create_executor
from ...expr import Function
from ...module import IRModule
from ...pass_infra import PassContext
from ...ty import TensorType, TupleType
from ..runtime.aot_runtime import AOTExecutorFactoryModule
from ..runtime.container import from_relay_value, to_relay_value
from ..runtime.graph_factory import (GraphExecutorFactoryModule, GraphSpec, TensorSpec, flat_outputs,
                                     spec_dims)
from ..runtime.ndarray import NDArray
from .bind_params import bind_params_by_name, param_value  # noqa: F401  (TVM's place for it)
from ..target import Target, as_target

__all__ = ["build", "build_config", "create_executor", "optimize", "prepare", "bind_params_by_name"]


def prepare(ir_mod: object, target: object, params: Optional[Mapping[str, object]]
            ) -> Tuple[IRModule, Target, Dict[str, np.ndarray]]:
    """``(module, target, params of main as numpy)`` for ``build`` and ``vm.compile``."""
    if isinstance(ir_mod, Function):
        ir_mod = IRModule.from_expr(ir_mod)
    if not isinstance(ir_mod, IRModule):
        raise ValueError(f"expected an IRModule (or a relay Function), got {type(ir_mod).__name__}")
    if "main" not in ir_mod:
        raise ValueError("the module has no 'main' function to build")
    tgt = as_target(target)
    bound = {}
    for p in ir_mod["main"].params:
        if p.name_hint in (params or {}):
            bound[p.name_hint] = param_value(p, params[p.name_hint])
    return ir_mod, tgt, bound


def _tensor(t: object, what: str) -> TensorType:
    if not isinstance(t, TensorType):
        raise ValueError(f"relay.build's graph executor takes and returns tensors (and tuples "
                         f"of them); {what} has type {t}: use relay.vm.compile instead")
    return t


def _flat(t: object):
    return [f for x in t.fields for f in _flat(x)] if isinstance(t, TupleType) else [t]


def _graph_spec(mod: IRModule, bound: Mapping[str, np.ndarray], exe) -> GraphSpec:
    """Inputs and flattened outputs from the types ``compile`` recorded for ``main``."""
    layout = exe.result_layout
    names = [p.name_hint for p in mod["main"].params if p.name_hint not in bound]
    if layout is None or len(layout.params) != len(names):
        raise ValueError("relay.build: main's signature could not be read back after compiling")
    inputs = [TensorSpec(n, spec_dims(_tensor(t, f"input '{n}'").shape), t.dtype)
              for n, t in zip(names, layout.params)]
    outs = [_tensor(t, f"output {i}") for i, t in enumerate(_flat(layout.result))]
    return GraphSpec(tuple(inputs), tuple(TensorSpec(f"output{i}", spec_dims(t.shape), t.dtype)
                                          for i, t in enumerate(outs)), tuple(bound))


def build(ir_mod, target=None, target_host=None, executor=None, runtime=None,
          workspace_memory_pools=None, constant_memory_pools=None, params=None,
          mod_name: str = "default") -> GraphExecutorFactoryModule:
    """Compiles ``main`` for the graph executor (see the module docstring)."""
    devices = _device_targets(target)
    if devices is not None:  # heterogeneous: one module for several IREE devices
        mod, _, bound = prepare(ir_mod, next(iter(devices.values())), params)
        built = _with_main(mod, bind_params_by_name(mod["main"], bound)) if bound else mod
        exe = _compile(built, target={d: t.iree_target for d, t in devices.items()},
                       opt_level=PassContext.current().opt_level)
    else:
        mod, tgt, bound = prepare(ir_mod, target, params)
        exe = _compile(mod, target=tgt.iree_target, params=bound or None,
                       opt_level=PassContext.current().opt_level)
    spec = _graph_spec(mod, bound, exe)
    factory = AOTExecutorFactoryModule if getattr(executor, "name", "graph") == "aot" else GraphExecutorFactoryModule
    return factory(exe, spec, bound, ir_mod=mod, libmod_name=mod_name)


def _device_targets(target: object) -> Optional[Dict[str, Target]]:
    """``{device name: Target}`` for TVM's heterogeneous target dict of two or more devices
    (``{"cpu": "llvm", "vulkan": "vulkan"}``; keys may be device names, TVM device-type
    numbers or devices), else None."""
    if not isinstance(target, dict) or "kind" in target or len(target) < 2:
        return None
    from ...annotation import device_name

    return {str(device_name(k, "relay.build target key")): as_target(v) for k, v in target.items()}


def optimize(mod, target=None, params=None) -> Tuple[IRModule, Dict[str, object]]:
    """TVM 0.19's ``relay.optimize(mod, target=None, params=None)`` -> ``(mod, params)``: ``main``
    with ``params`` bound, after relay.build's optimizer at the current context's opt level.
    TVM's result is also fused into primitive functions and its params are ``{}``; here the
    module is not fused (IREE fuses when it compiles) and params are ``{}`` too."""
    from ...optimizer import optimize as _optimize

    mod, _, bound = prepare(mod, target if target is not None else "llvm", params)
    if bound:
        mod = _with_main(mod, bind_params_by_name(mod["main"], bound))
    names = [p.name_hint for p in mod["main"].params]
    out = _optimize(mod, PassContext.current().opt_level)
    # relay_mlir.optimizer.optimize's round trip through MLIR names main's parameters x0, x1, ...;
    # they are new Vars, named back here as TVM keeps them
    if len(out["main"].params) == len(names):
        for p, name in zip(out["main"].params, names):
            p.name_hint = name
    return out, {}


def _with_main(mod: IRModule, main: Function) -> IRModule:
    out = IRModule()
    out.update(mod)
    out["main"] = main
    return out


def build_config(opt_level: int = 2, required_pass=None, disabled_pass=None, trace=None) -> PassContext:
    """TVM 0.19's deprecated ``relay.build_config``: a ``PassContext`` (with TVM's
    ``DeprecationWarning``); ``trace`` is ignored."""
    import warnings

    warnings.warn("relay.build_config will be deprecated. Please use tvm.transform.PassContext "
                  "directly", DeprecationWarning, stacklevel=2)
    return PassContext(opt_level=opt_level, required_pass=required_pass, disabled_pass=disabled_pass)


class _TvmExecutor:
    """An executor whose ``evaluate`` takes and returns TVM's values."""

    def __init__(self, inner, kind: str) -> None:
        self._inner = inner
        self.kind = kind
        self.mod = inner.mod

    def _result(self, value: object) -> object:
        if self.kind in ("graph", "aot") and isinstance(value, (tuple, list)):
            return [NDArray(a) for a in flat_outputs(value)]
        return from_relay_value(value)

    def evaluate(self, expr=None, binds=None):
        out = self._inner.evaluate(expr, binds)
        if not callable(out):
            return self._result(out)

        def run(*args, **kwargs):
            return self._result(out(*[to_relay_value(a) for a in args],
                                    **{k: to_relay_value(v) for k, v in kwargs.items()}))
        return run


def create_executor(kind: str = "debug", mod: Optional[IRModule] = None, device=None,
                    target="llvm", params: Optional[Mapping[str, object]] = None) -> _TvmExecutor:
    """TVM's ``relay.create_executor`` (see the module docstring)."""
    tgt = target.iree_target if isinstance(target, Target) else Target(target or "llvm").iree_target
    numpy_params = {k: to_relay_value(v) for k, v in (params or {}).items()}
    return _TvmExecutor(_create_executor(kind, mod, device, tgt, numpy_params), kind)



