"""What ``relay.build(..., executor=Executor("aot"))`` returns: TVM 0.19's AOT executor factory.

TVM 0.19 (checked in the side venv): the build is an ``AOTExecutorFactoryModule``;
``lib["default"](dev)`` makes an AOT executor module that ``tvm.runtime.executor.AotModule``
wraps (``set_input``, ``run``, ``get_output``, ``get_input``, ``get_input_index``,
``get_input_name``, ``get_num_inputs``, ``get_num_outputs``); it has no ``get_input_info``
function, so ``graph_executor.GraphModule`` refuses it ("Module has no function
'get_input_info'"). relay-mlir runs both kinds of build the same way (one IREE function),
so the AOT classes are the graph ones under TVM's AOT names and function lists.
"""
from __future__ import annotations

from typing import Dict

from ...runtime import Executable
from .graph_factory import GraphExecutorFactoryModule
from .graph_runtime import GraphExecutorModule

__all__ = ["AOTExecutorFactoryModule", "AotExecutorModule"]


class AotExecutorModule(GraphExecutorModule):
    """``lib["default"](dev)`` of an AOT build: TVM's AOT executor functions."""

    type_key = "AotExecutor"
    _WHOSE = "model's"
    _functions = ("set_input", "run", "get_output", "get_input", "get_input_index",
                  "get_input_name", "get_num_inputs", "get_num_outputs")

    def get_input_name(self, index: int) -> str:
        return self._spec.inputs[self._input_index(index)].name

    def _input_index(self, index: int) -> int:
        if not 0 <= int(index) < len(self._spec.inputs):
            raise IndexError(f"input index {index} out of range: the model has "
                             f"{len(self._spec.inputs)} inputs")
        return int(index)


class AOTExecutorFactoryModule(GraphExecutorFactoryModule):
    """An AOT build: ``lib["default"](dev)`` is an ``AotExecutorModule``; exported with
    ``"executor": "aot"`` in the library's metadata so ``load_module`` gives this class."""

    type_key = "AotExecutorFactory"  # TVM 0.19's, for a loaded library too

    def default(self, dev: object) -> AotExecutorModule:
        graph = super().default(dev)
        return AotExecutorModule(self, graph.device)

    def export_library(self, file_name, fcompile=None, addons=None, workspace_dir=None, **kwargs) -> None:
        self._export(file_name, {"executor": "aot"})

    @staticmethod
    def from_library(exe: Executable, meta: Dict[str, object]) -> "AOTExecutorFactoryModule":
        graph = GraphExecutorFactoryModule.from_library(exe, meta)
        return AOTExecutorFactoryModule(exe, graph.spec)


def is_aot(module: object) -> bool:
    """Whether ``module`` is an AOT executor module (``GraphModule`` refuses those, as TVM)."""
    return isinstance(module, AotExecutorModule)

