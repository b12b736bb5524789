"""``tvm.runtime``: ``Device``, ``NDArray``, ``Module``, ``load_module``, ``vm``,
``executor`` (``AotModule``), ``container``, ``save_param_dict``/``load_param_dict`` (TVM's params format).

    >>> import relay_mlir.tvm as tvm
    >>> tvm.runtime.device("cpu"), tvm.runtime.ndarray.empty((2,)).dtype
    (cpu(0), 'float32')
"""
from __future__ import annotations

from .device import Device, cpu, cuda, device, enabled, gpu, rocm, vulkan
from .ndarray import NDArray
from . import ndarray, container, vm, executor
from .module import Module, load_module
from .benchmark import BenchmarkResult
from .params import (load_param_dict, load_param_dict_from_file, save_param_dict,
                     save_param_dict_to_file)

__all__ = ["Device", "NDArray", "Module", "BenchmarkResult", "load_module", "ndarray", "container",
           "vm", "executor", "cpu", "cuda", "gpu", "vulkan", "rocm", "device", "enabled", "save_param_dict", "load_param_dict",
           "save_param_dict_to_file", "load_param_dict_from_file"]
