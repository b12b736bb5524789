"""``tvm.runtime.executor``: ``AotModule``, TVM 0.19's wrapper of an AOT build's executor,
and ``ExecutorWrapper``, what it shares with ``graph_executor.GraphModule``.

TVM 0.19::

    lib = relay.build(mod, target="llvm", executor=Executor("aot"))
    m = tvm.runtime.executor.AotModule(lib["default"](dev))
    m.set_input("x", x)            # an unknown name: RuntimeError "Could not find 'y' in model's inputs"
    m.run(); y = m.get_output(0).numpy()

``set_input(**params)`` skips names that are not inputs, as the graph executor's (TVM 0.19's
AOT raises ``InternalError: Invalid input name`` there, a bug of its ``set_input``).
``get_input_info()`` gives ``({name: shape}, {name: dtype})`` as TVM's (read from the build's
inputs here, so it works before any input is set).
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple, Union

from .aot_runtime import AotExecutorModule
from .ndarray import NDArray

__all__ = ["AotModule", "ExecutorWrapper"]


class ExecutorWrapper:
    """TVM's Python wrappers of an executor module (``self.module``): the calls
    ``GraphModule`` and ``AotModule`` share."""

    def __init__(self, module) -> None:
        self.module = module

    def set_input(self, key: Union[str, int, None] = None, value: object = None, **params: object) -> None:
        """Sets input ``key`` to ``value``, then each of ``params`` that is an input."""
        if key is not None:
            self.module.set_input(key, value)
        for name, v in params.items():
            if self.module.get_input_index(name) >= 0:
                self.module.set_input(name, v)

    def run(self, **input_dict: object) -> None:
        if input_dict:
            self.set_input(**input_dict)
        self.module.run()

    def get_num_outputs(self) -> int:
        return self.module.get_num_outputs()

    def get_num_inputs(self) -> int:
        return self.module.get_num_inputs()

    def get_input(self, index: Union[str, int], out: Optional[NDArray] = None) -> NDArray:
        return self.module.get_input(index, out)

    def get_input_index(self, name: str) -> int:
        return self.module.get_input_index(name)

    def get_input_info(self) -> Tuple[Dict[str, tuple], Dict[str, str]]:
        return self.module.get_input_info()

    def get_output(self, index: int, out: Optional[NDArray] = None) -> NDArray:
        return self.module.get_output(index, out)


class AotModule(ExecutorWrapper):
    """TVM's wrapper of ``lib["default"](dev)`` for an AOT build."""

    def __init__(self, module: AotExecutorModule) -> None:
        if not isinstance(module, AotExecutorModule):
            raise TypeError("AotModule expects lib['default'](dev) of relay.build(..., "
                            "executor=Executor('aot')), got " + type(module).__name__
                            + " (a graph build runs with graph_executor.GraphModule)")
        super().__init__(module)

    def get_input_name(self, index: int) -> str:
        return self.module.get_input_name(index)
