"""``Executable``: a compiled ``.vmfb`` and the IREE runtime calls to run it.

Example::

    >>> import numpy as np, relay_mlir as relay
    >>> x = relay.var("x", shape=(2,))
    >>> exe = relay.compile(relay.IRModule.from_expr(relay.negative(x)))   # doctest: +SKIP
    >>> exe(np.array([1, 2], "float32"))                                   # doctest: +SKIP
    array([-1., -2.], dtype=float32)
    >>> exe.save("neg.vmfb")     # runs with: iree-run-module --module=neg.vmfb ...  # doctest: +SKIP
"""
from __future__ import annotations

import os
import statistics
import time
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .adt_value import ResultLayout
from .errors import RelayRuntimeError

__all__ = ["Executable", "to_numpy"]

_CONFIGS: Dict[str, object] = {}


def _config(driver: str):
    """One runtime ``Config`` (device) per driver for the whole process."""
    import iree.runtime as rt

    cfg = _CONFIGS.get(driver)
    if cfg is None:
        cfg = _CONFIGS[driver] = rt.Config(driver)
    return cfg


def to_numpy(device, arr) -> np.ndarray:
    """Copies an IREE ``DeviceArray`` to a numpy array.

    Devices whose memory the host cannot import (lavapipe Vulkan: host
    pointer alignment 4096) go through a host-visible staging buffer filled
    by a queue copy.
    """
    import iree.runtime as rt

    if not isinstance(arr, rt.DeviceArray):
        return np.asarray(arr)
    try:
        return np.array(arr.to_host(), copy=True)
    except Exception:
        pass
    bv = arr._buffer_view
    n = bv.byte_length
    staging = device.allocator.allocate_buffer(
        memory_type=rt.MemoryType.HOST_LOCAL | rt.MemoryType.DEVICE_VISIBLE,
        allowed_usage=rt.BufferUsage.TRANSFER_TARGET | rt.BufferUsage.MAPPING,
        allocation_size=max(n, 1))
    if n:
        sem = device.create_semaphore(0)
        device.queue_copy(bv.get_buffer(), staging, [], [(sem, 1)])
        sem.wait(1)
    shape = tuple(bv.shape)
    mapped = staging.map()
    out = np.array(mapped.asarray(shape, np.dtype(arr.dtype)), copy=True)
    return out


def _tensor_to_numpy(device, value) -> np.ndarray:
    """A ``DeviceArray`` result or a ``HalBufferView`` read from a list, as numpy."""
    import iree.runtime as rt

    if isinstance(value, rt.HalBufferView):
        value = rt.DeviceArray(device, value, implicit_host_transfer=True)
    return to_numpy(device, value)


def _raw_to_python(device, value):
    """A result without relay type information: a list stays a ``VmVariantList``."""
    import iree.runtime as rt

    if isinstance(value, rt.VmRef) and value.isinstance(rt.VmVariantList):
        return value.deref(rt.VmVariantList)
    return to_numpy(device, value)


class Executable:
    """A compiled module; call it like a function: ``exe(*numpy_arrays)``.

    Attributes: ``vmfb`` (bytes), ``target``, ``driver``, ``compile_time_s``.
    A single result is returned as a numpy array, several (a tuple-valued
    ``main``) as a tuple of arrays. An ADT value ``main`` returns comes back
    as a ``relay_mlir.adt_value.ADT`` (``.tag``, ``.constructor``,
    ``.fields``) and a reference as a ``RefValue``: ``compile`` records
    ``main``'s relay types in ``result_layout``. Without them (an executable
    ``load``-ed from a ``.vmfb``) such a value is the raw
    ``iree.runtime.VmVariantList`` ``[tag, fields...]``. ``main`` also takes
    ``ADT``/``RefValue`` arguments for its ADT and reference parameters.
    """

    def __init__(self, vmfb: bytes, driver: str = "local-task", target: Optional[str] = None,
                 result_layout: Optional[ResultLayout] = None) -> None:
        self.vmfb = vmfb
        self.driver = driver
        self.target = target or driver
        self.result_layout = result_layout
        self.compile_time_s = 0.0
        self.lower_time_s = 0.0
        self.iree_time_s = 0.0
        self.iree_input: Optional[str] = None
        self._ctx = None
        self._module_name: Optional[str] = None

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"], driver: str = "local-task") -> "Executable":
        """Loads a ``.vmfb`` written by ``save`` (or ``iree-compile``)."""
        with open(path, "rb") as f:
            return cls(f.read(), driver=driver)

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the ``.vmfb``; ``iree-run-module --module=PATH --function=main`` runs it."""
        with open(path, "wb") as f:
            f.write(self.vmfb)

    def _load(self):
        if self._ctx is None:
            import iree.runtime as rt

            cfg = _config(self.driver)
            ctx = rt.SystemContext(config=cfg)
            vm_module = rt.VmModule.copy_buffer(ctx.instance, self.vmfb)
            ctx.add_vm_module(vm_module)
            self._module_name = vm_module.name
            self._ctx = ctx
        return self._ctx

    @property
    def device(self):
        """The IREE HAL device the module runs on."""
        return self._load().config.device

    def run(self, function: str, *inputs: object) -> Union[np.ndarray, Tuple[np.ndarray, ...], None]:
        """Runs exported ``function`` on numpy inputs."""
        ctx = self._load()
        fn = ctx.modules[self._module_name][function]
        layout = self.result_layout if function == "main" else None
        args = layout.encode_inputs(inputs) if layout is not None else None
        if args is None:
            args = [np.asarray(a, order="C") for a in inputs]  # (ascontiguousarray makes 0-d 1-d)
        try:
            res = fn(*args)
        except RuntimeError as e:
            # the program stopped itself (util.status.check_ok / cf.assert of the
            # lowering: an incomplete match, a run-time shape that does not fit)
            msg = str(e)
            if "relay." in msg:
                raise RelayRuntimeError(msg.replace("Error invoking function: ", "").strip()) from None
            raise
        dev = ctx.config.device
        if res is None:
            return None
        if layout is not None:
            return layout.decode(res, lambda v: _tensor_to_numpy(dev, v))
        if isinstance(res, (tuple, list)):
            return tuple(_raw_to_python(dev, r) for r in res)
        return _raw_to_python(dev, res)

    def __call__(self, *inputs: object) -> Union[np.ndarray, Tuple[np.ndarray, ...], None]:
        """Runs ``main``: ``exe(x, y)`` -> numpy array (or tuple of arrays)."""
        return self.run("main", *inputs)

    def benchmark(self, *inputs: object, runs: int = 10, warmup: int = 1) -> List[float]:
        """Wall-clock seconds of ``runs`` calls of ``main`` (results copied to host)."""
        for _ in range(warmup):
            self(*inputs)
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            self(*inputs)
            times.append(time.perf_counter() - t)
        return times

    def median_latency_s(self, *inputs: object, runs: int = 10) -> float:
        """Median wall-clock seconds of one call of ``main``."""
        return statistics.median(self.benchmark(*inputs, runs=runs))

    def __repr__(self) -> str:
        return f"Executable(target={self.target!r}, {len(self.vmfb)} bytes)"
