"""The graph executor module ``lib["default"](dev)`` makes (TVM's ``GraphExecutor``).

TVM 0.19's functions, which ``graph_executor.GraphModule`` calls:

- ``set_input(key, value)``: ``key`` a name or index; an unknown name raises a
  ``RuntimeError`` (here ``UnknownInputError``, also a ``KeyError``, listing the
  inputs); the value is copied in (shape and dtype checked as ``NDArray.copyfrom``:
  ``ValueError`` naming the expected ones).
- ``run()``: runs the graph. (TVM runs with whatever the input buffers hold; here
  an input never set is an error naming it.)
- ``get_output(i, out=None)``: output ``i`` as the executor's own NDArray, which the
  next ``run`` overwrites; with ``out`` a copy into ``out``.
- ``get_input(key, out=None)``, ``get_input_index(name)`` (-1 if unknown),
  ``get_num_inputs()``, ``get_num_outputs()``, ``get_input_info()`` (shape and dtype
  dicts by input name).
"""
from __future__ import annotations

import numbers
from typing import Dict, List, Optional, Tuple, Union

import numpy as np

from .device import Device
from .module import Module
from .ndarray import NDArray, coerce

__all__ = ["GraphExecutorModule", "UnknownInputError"]


class UnknownInputError(KeyError, RuntimeError):
    """A name that is not one of the graph's inputs (TVM raises a ``RuntimeError``)."""

    def __str__(self) -> str:
        return str(self.args[0])


class GraphExecutorModule(Module):
    """A built graph bound to a device, with its input and output buffers."""

    type_key = "GraphExecutor"
    _WHOSE = "graph's"  # in TVM's message for an unknown input name
    _functions = ("set_input", "run", "get_output", "get_input", "get_input_index",
                  "get_num_inputs", "get_num_outputs", "get_input_info")

    def __init__(self, factory, dev: Device) -> None:
        self.factory = factory
        self.device = dev
        self._spec = factory.spec
        self._inputs: Dict[str, Optional[NDArray]] = {t.name: None for t in self._spec.inputs}
        self._outputs: List[NDArray] = [
            NDArray(np.zeros(t.shape, t.dtype), dev) if None not in t.shape else NDArray(np.zeros(0, t.dtype), dev)
            for t in self._spec.outputs]

    def _input_name(self, key: Union[str, int]) -> str:
        names = [t.name for t in self._spec.inputs]
        if isinstance(key, numbers.Integral) and not isinstance(key, bool):
            key = int(key)
            if not 0 <= key < len(names):
                raise IndexError(f"input index {key} out of range: the graph has {len(names)} inputs")
            return names[key]
        if key not in self._inputs:
            raise UnknownInputError(f"Could not find '{key}' in {self._WHOSE} inputs; the inputs are: "
                           f"{', '.join(names) or '(none)'}")
        return key

    def set_input(self, key: Union[str, int], value: object) -> None:
        name = self._input_name(key)
        t = self._spec.inputs[[s.name for s in self._spec.inputs].index(name)]
        arr = coerce(value, t.shape, t.dtype, f"graph input '{name}'")
        self._inputs[name] = NDArray(np.array(arr, copy=True), self.device)

    def get_input_index(self, name: str) -> int:
        names = [t.name for t in self._spec.inputs]
        return names.index(name) if name in names else -1

    def get_num_inputs(self) -> int:
        return len(self._spec.inputs)

    def get_num_outputs(self) -> int:
        return len(self._spec.outputs)

    def get_input_info(self) -> Tuple[Dict[str, Tuple[Optional[int], ...]], Dict[str, str]]:
        return ({t.name: t.shape for t in self._spec.inputs}, {t.name: t.dtype for t in self._spec.inputs})

    def get_input(self, key: Union[str, int], out: Optional[NDArray] = None) -> NDArray:
        name = self._input_name(key)
        value = self._inputs[name]
        if value is None:
            raise ValueError(f"graph input '{name}' has not been set")
        return value.copyto(out) if out is not None else value

    def run(self) -> None:
        from .graph_factory import flat_outputs

        missing = [n for n, v in self._inputs.items() if v is None]
        if missing:
            raise ValueError(f"graph inputs not set: {', '.join(missing)} (set_input(name, value) "
                             "before run())")
        result = self.factory.executable(*[self._inputs[t.name]._data for t in self._spec.inputs])
        for buf, arr in zip(self._outputs, flat_outputs(result)):
            buf._data = arr  # the same NDArray object sees each run's value, as in TVM

    def get_output(self, index: int, out: Optional[NDArray] = None) -> NDArray:
        if not isinstance(index, numbers.Integral) or not 0 <= index < len(self._outputs):
            raise IndexError(f"output index {index!r} out of range: the graph has "
                             f"{len(self._outputs)} outputs")
        buf = self._outputs[int(index)]
        return buf.copyto(out) if out is not None else buf
