"""``GraphExecutorFactoryModule``: what ``relay.build`` returns and ``load_module`` loads.

TVM 0.19: ``lib = relay.build(mod, target, params=params)``; ``lib["default"](dev)``
makes a graph executor module for ``graph_executor.GraphModule``;
``lib.get_params()`` gives the constants the build bound (TVM names them ``p0, p1,
...`` after lifting them out of the graph; here they keep the names they were bound
by); ``lib.export_library(path)`` writes one file (see ``package``).

The factory holds one IREE ``Executable`` (the graph's ``main``) and ``GraphSpec``:
the run-time inputs (``main``'s parameters not bound at build time, in order) and the
flattened outputs, each with shape (``None`` for a run-time size) and dtype.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...runtime import Executable
from .._modules import refused_attribute
from .device import Device, check_device
from .module import Module
from .package import write_library
from .ndarray import NDArray

__all__ = ["TensorSpec", "GraphSpec", "GraphExecutorFactoryModule"]


@dataclass(frozen=True)
class TensorSpec:
    """A named tensor of the graph: ``shape`` (``None`` entries: any size) and ``dtype``."""

    name: str
    shape: Tuple[Optional[int], ...]
    dtype: str

    def to_json(self) -> Dict[str, object]:
        return {"name": self.name, "shape": list(self.shape), "dtype": self.dtype}

    @staticmethod
    def from_json(d: Dict[str, object]) -> "TensorSpec":
        return TensorSpec(str(d["name"]), tuple(None if s is None else int(s) for s in d["shape"]),
                          str(d["dtype"]))


@dataclass(frozen=True)
class GraphSpec:
    """The run-time inputs and flattened outputs of a built graph."""

    inputs: Tuple[TensorSpec, ...]
    outputs: Tuple[TensorSpec, ...]
    bound_params: Tuple[str, ...] = ()


def _one_device(dev: object) -> Device:
    if isinstance(dev, (list, tuple)) and len(dev) == 1:
        dev = dev[0]
    if not isinstance(dev, Device):
        raise ValueError(f'lib["default"] expects a Device such as tvm.cpu(0), got {dev!r}')
    return dev


class GraphExecutorFactoryModule(Module):
    """``lib["default"](dev)``, ``get_params()``, ``export_library(path)``."""

    type_key = "GraphExecutorFactory"
    _functions = ("default", "get_params")

    def __init__(self, exe: Executable, spec: GraphSpec, params: Optional[Dict[str, np.ndarray]] = None,
                 ir_mod: object = None, libmod_name: str = "default") -> None:
        self.executable = exe
        self.spec = spec
        self.params = {k: NDArray(np.asarray(v)) for k, v in (params or {}).items()}
        self.ir_mod = ir_mod
        self.libmod_name = libmod_name

    def default(self, *devs: object):
        """A graph executor module running on ``dev`` (which must suit the build target); a
        heterogeneous build takes a device for each of its targets (``lib["default"](tvm.cpu(),
        tvm.vulkan())``, or one list), as TVM's."""
        from .graph_runtime import GraphExecutorModule

        targets = getattr(self.executable, "devices", None)  # a MultiDeviceExecutable's
        if isinstance(targets, dict):
            given = [_one_device(d) for x in devs for d in (x if isinstance(x, (list, tuple)) else [x])]
            missing = sorted(f"{name} ({t})" for name, t in targets.items()
                             if t not in {d.target for d in given})
            if missing:
                raise ValueError(f"this library was built for several devices and needs one for "
                                 f"each: none given for {', '.join(missing)}")
            return GraphExecutorModule(self, given[0])
        if len(devs) != 1:
            raise ValueError(f'lib["default"] takes one device, got {len(devs)}')
        dev = check_device(_one_device(devs[0]), self.executable.target, "this library")
        return GraphExecutorModule(self, dev)

    def get_function(self, name: str, query_imports: bool = False):
        if name == self.libmod_name:
            return self.default
        return super().get_function(name, query_imports)

    def get_params(self) -> Dict[str, NDArray]:
        """The params bound at build time, by name (empty for a loaded library: its
        constants are inside the compiled code)."""
        return dict(self.params)

    def export_library(self, file_name: "os.PathLike[str] | str", fcompile=None, addons=None,
                       workspace_dir=None, **kwargs) -> None:
        """Writes the library as one file (``package``) for ``tvm.runtime.load_module``; a
        heterogeneous build's file holds its one ``.vmfb`` for all devices and its stages."""
        self._export(file_name, {})

    def _export(self, file_name: "os.PathLike[str] | str", extra: Dict[str, object]) -> None:
        write_library(file_name, self.executable, "graph",
                      dict(extra, inputs=[t.to_json() for t in self.spec.inputs],
                           outputs=[t.to_json() for t in self.spec.outputs],
                           bound_params=list(self.spec.bound_params)))

    @staticmethod
    def from_library(exe: Executable, meta: Dict[str, object]) -> "GraphExecutorFactoryModule":
        """The factory of a loaded library (``load_module``)."""
        spec = GraphSpec(tuple(TensorSpec.from_json(t) for t in meta["inputs"]),
                         tuple(TensorSpec.from_json(t) for t in meta["outputs"]),
                         tuple(meta.get("bound_params", ())))
        return GraphExecutorFactoryModule(exe, spec)

    def __iter__(self):
        raise TypeError("relay.build returns a factory module; the legacy unpacking "
                        "'graph, lib, params = relay.build(...)' is not part of relay-mlir (there is "
                        "no graph JSON): use graph_executor.GraphModule(lib['default'](dev))")

    def __getattr__(self, name: str):
        raise refused_attribute(self, name, ("get_graph_json", "get_lib", "get_executor_config"),
                                "there is no graph JSON or separate kernel library: the graph and its "
                                "kernels are one IREE module; export_library(path) and "
                                "tvm.runtime.load_module(path) save and load it")


def flat_outputs(value: object) -> List[np.ndarray]:
    """A result of ``main`` (array or nested tuples) as its flattened list of arrays."""
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in flat_outputs(v)]
    return [np.asarray(value)]


def spec_dims(shape: Sequence[object]) -> Tuple[Optional[int], ...]:
    """A relay shape (ints and ``Any``) as spec dims (``None`` for ``Any``)."""
    return tuple(d if isinstance(d, int) else None for d in shape)
