"""``tvm.contrib.graph_executor``: ``GraphModule`` over ``lib["default"](dev)``.

TVM 0.19::

    gmod = graph_executor.GraphModule(lib["default"](dev))
    gmod.set_input("data", x)          # an unknown name raises
    gmod.set_input(**params)           # names that are not inputs are skipped
    gmod.run()                         # or gmod.run(data=x)
    y = gmod.get_output(0).numpy()
    gmod.benchmark(dev, number=10, repeat=3)  # BenchmarkResult (.results/.mean/...)

``set_input(**params)`` skips what is not an input, so params bound at build time
are ignored and params left unbound stay run-time inputs that can be swapped
without building again. ``create(graph_json, lib, dev)`` is refused: relay-mlir has
no graph JSON (see ``__getattr__``).
"""
from __future__ import annotations

from typing import Optional, Union

from .._modules import refused_attribute
from ..runtime.aot_runtime import is_aot
from ..runtime.benchmark import BenchmarkResult, time_calls
from ..runtime.device import Device
from ..runtime.executor import ExecutorWrapper
from ..runtime.graph_runtime import GraphExecutorModule
from ..runtime.params import load_param_dict

__all__ = ["GraphModule"]


class GraphModule(ExecutorWrapper):
    """TVM's wrapper of a graph executor module (``self.module``)."""

    def __init__(self, module: GraphExecutorModule) -> None:
        if not isinstance(module, GraphExecutorModule):
            raise TypeError('GraphModule expects the module lib["default"](dev) returns, got '
                            f"{type(module).__name__}")
        if is_aot(module):  # TVM 0.19: "Module has no function 'get_input_info'"
            raise AttributeError("Module has no function 'get_input_info': this is an AOT build "
                                 "(Executor('aot')); run it with tvm.runtime.executor.AotModule")
        super().__init__(module)

    def set_input_zero_copy(self, key: Union[str, int, None] = None, value: object = None,
                            **params: object) -> None:
        """``set_input``: relay-mlir copies inputs at every call anyway (IREE moves them to
        the device), so there is no copy to save."""
        self.set_input(key, value, **params)

    def load_params(self, params_bytes: bytes) -> None:
        """Sets the inputs named in ``params_bytes`` (``save_param_dict``'s format, TVM's);
        names that are not inputs are skipped, as TVM skips them."""
        self.set_input(**load_param_dict(params_bytes))

    def benchmark(self, device: Device, func_name: str = "run", repeat: int = 5, number: int = 5,
                  min_repeat_ms: Optional[float] = None, limit_zero_time_iterations: int = 100,
                  end_to_end: bool = False, cooldown_interval_ms: float = 0,
                  repeats_to_cooldown: int = 1, **kwargs: object) -> BenchmarkResult:
        """Times ``func_name`` (``run``) after setting ``kwargs`` as inputs: ``repeat`` means
        of ``number`` calls, in seconds. Every run copies inputs in and results out, so
        ``end_to_end`` changes nothing."""
        if kwargs:
            self.set_input(**kwargs)
        func = self.module.get_function(func_name)
        return time_calls(func, number, repeat, min_repeat_ms, cooldown_interval_ms, repeats_to_cooldown)

    def __getitem__(self, key: str):
        return self.module[key]

    def __getattr__(self, name: str):
        raise refused_attribute(self, name, ("debug_get_output", "share_params", "set_output_zero_copy"),
                                "relay-mlir's graph is one compiled IREE function: there are no "
                                "per-node outputs or shared parameter buffers; use "
                                "relay.create_executor('debug') to look at intermediate values")


def __getattr__(name: str):
    if name in ("create", "GraphExecutor"):
        raise AttributeError(f"graph_executor.{name} is not part of relay-mlir: there is no graph "
                             "JSON; build with relay.build and use GraphModule(lib['default'](dev))")
    raise AttributeError(f"module 'relay_mlir.tvm.contrib.graph_executor' has no attribute '{name}'")
