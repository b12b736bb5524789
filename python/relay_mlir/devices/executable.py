"""``MultiDeviceExecutable``: one ``.vmfb`` whose stages run on several IREE devices.

The module declares one IREE device per relay device; each stage function carries its
device's affinity. IREE 3.13's Python runtime cannot put a Vulkan device in one device group
with another device ("Vulkan queue frontier already assigned"), and its runtime moves data
between a local and a Vulkan device only if their memory is shared (measured: docs/byoc.md).
So the module is loaded once per device, in a context holding only that device (each device
global falls back to the device present, and every dispatch is compiled for every target), a
stage is run in its device's context, and the host carries the values that cross devices —
each ``device_copy`` is a download from one device and an upload to the other.
"""
from __future__ import annotations

import base64
import io
from typing import Dict, List, Sequence, Tuple as PyTuple, Union

import numpy as np

from ..errors import InputShapeError
from ..runtime import Executable
from .stages import Stage, ValueRef

__all__ = ["MultiDeviceExecutable"]


def _ref(text: str) -> ValueRef:
    kind, _, index = text.partition(":")
    return ValueRef(kind, int(index))


def _array_text(a: np.ndarray) -> str:
    buf = io.BytesIO()
    np.save(buf, np.asarray(a), allow_pickle=False)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _text_array(text: str) -> np.ndarray:
    return np.load(io.BytesIO(base64.b64decode(text)), allow_pickle=False)


def _tensors(x: object) -> tuple:
    if isinstance(x, (tuple, list)):
        return tuple(a for f in x for a in _tensors(f))
    return (np.asarray(x),)


class MultiDeviceExecutable:
    """Call it like ``Executable``: ``exe(*numpy_arrays)`` runs ``main``'s stages in order.

    Attributes: ``vmfb`` (bytes), ``devices`` (``{device: target}``), ``stages``
    (``[(name, device)]``), ``iree_input`` (the MLIR handed to iree-compile).
    """

    def __init__(self, vmfb: bytes, stages: Sequence[Stage], results: Sequence[ValueRef],
                 tuple_result: bool, n_params: int, devices: Dict[str, str],
                 drivers: Dict[str, str], constants: Dict[ValueRef, object] = None) -> None:
        self.vmfb = vmfb
        self._stages = [(s.name, s.device, list(s.inputs), list(zip(s.outputs, s.output_sizes)))
                        for s in stages]
        self._results = list(results)
        self._constants = {r: (np.asarray(v),) for r, v in (constants or {}).items()}
        self._tuple_result = tuple_result
        self._n_params = n_params
        self.devices = dict(devices)
        self.drivers = dict(drivers)
        self._exes: Dict[str, Executable] = {}
        self.iree_input = None
        self.result_layout = None  # main's relay types (set by compile_for_devices)
        self.compile_time_s = 0.0

    @property
    def stages(self) -> List[PyTuple[str, str]]:
        return [(name, dev) for name, dev, _, _ in self._stages]

    def executable(self, device: str) -> Executable:
        """The module loaded in a context of ``device`` alone."""
        exe = self._exes.get(device)
        if exe is None:
            exe = self._exes[device] = Executable(self.vmfb, driver=self.drivers[device],
                                                  target=self.devices[device])
        return exe

    def __call__(self, *inputs: object) -> Union[np.ndarray, PyTuple[np.ndarray, ...]]:
        if len(inputs) != self._n_params:
            raise InputShapeError(f"main takes {self._n_params} inputs, {len(inputs)} were given")
        # every value as its tensors (a tuple-typed value: its fields, flattened)
        env = {ValueRef("param", i): _tensors(x) for i, x in enumerate(inputs)}
        env.update(self._constants)
        for name, device, ins, outs in self._stages:
            got = self.executable(device).run(name, *[a for r in ins for a in env[r]])
            got = list(got) if isinstance(got, tuple) else [got]
            for ref, size in outs:
                env[ref], got = tuple(got[:size]), got[size:]
        res = tuple(env[r][0] if len(env[r]) == 1 else env[r] for r in self._results)
        return res if self._tuple_result else res[0]

    def run(self, function: str, *inputs: object):
        """``Executable.run``'s form: only ``main`` (the stages are its parts)."""
        if function != "main":
            raise ValueError(f"a multi-device executable runs 'main' (its stages: "
                             f"{', '.join(n for n, _ in self.stages)}), not '{function}'")
        return self(*inputs)

    # timing as Executable's (they only call ``self(*inputs)``)
    benchmark = Executable.benchmark
    median_latency_s = Executable.median_latency_s

    def save(self, path) -> None:
        """Writes the ``.vmfb`` (``iree-dump-module`` lists both devices' executables)."""
        with open(path, "wb") as f:
            f.write(self.vmfb)

    def describe(self) -> Dict[str, object]:
        """Everything but the ``.vmfb`` as JSON values (what ``export_library`` stores and
        ``restore`` reads back): the stages with their inputs and outputs, the results, the
        constant results (``.npy`` in base64), and the devices with their targets and drivers."""
        return {"stages": [[name, dev, [str(r) for r in ins], [[str(r), n] for r, n in outs]]
                           for name, dev, ins, outs in self._stages],
                "results": [str(r) for r in self._results],
                "constants": {str(r): _array_text(v[0]) for r, v in self._constants.items()},
                "tuple_result": self._tuple_result, "n_params": self._n_params,
                "devices": self.devices, "drivers": self.drivers}

    @classmethod
    def restore(cls, vmfb: bytes, desc: Dict[str, object]) -> "MultiDeviceExecutable":
        """The executable ``describe`` described (``KeyError``/``ValueError`` if incomplete)."""
        stages = [Stage(name, dev, 0, [_ref(r) for r in ins], [_ref(r) for r, _ in outs],
                        output_sizes=[int(n) for _, n in outs])
                  for name, dev, ins, outs in desc["stages"]]
        constants = {_ref(r): _text_array(v) for r, v in desc["constants"].items()}
        return cls(vmfb, stages, [_ref(r) for r in desc["results"]], bool(desc["tuple_result"]),
                   int(desc["n_params"]), dict(desc["devices"]), dict(desc["drivers"]), constants)

    def __repr__(self) -> str:
        return (f"MultiDeviceExecutable(devices={self.devices!r}, stages={self.stages!r}, "
                f"{len(self.vmfb)} bytes)")
