"""``tvm.runtime.vm``: ``Executable`` (what ``relay.vm.compile`` returns) and ``VirtualMachine``.

TVM 0.19::

    exe = relay.vm.compile(mod, target="llvm", params=params)
    vm = vm_rt.VirtualMachine(exe, tvm.cpu())
    out = vm.run(x)                     # = vm.invoke("main", x); by name: vm.run(data=x)
    vm.set_input("main", x); vm.invoke("main")

A tensor result is an ``NDArray``; a tuple (or ADT) result an ``ADT`` (``len``,
``[i]``, ``.tag``) of them. ``relay.Any()`` dims take any size at each call. Wrong
arguments are errors naming what ``main`` expects: the count here, shapes and dtypes
from the compiled code's own check (``relay_mlir.InputShapeError``).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from ...runtime import Executable as _IreeExecutable
from .._modules import refused_attribute
from .benchmark import BenchmarkResult, time_calls
from .container import from_relay_value, to_relay_value
from .device import Device

__all__ = ["Executable", "VirtualMachine"]


class Executable:
    """A module compiled for the VM: the IREE executable and ``main``'s run-time parameters."""

    def __init__(self, exe: _IreeExecutable, params: Sequence[str], target: str) -> None:
        self.executable = exe
        self.target = target
        self._params = tuple(params)

    def get_function_params(self, func_name: str) -> List[str]:
        """The names of ``main``'s parameters that are not bound to constants."""
        if func_name != "main":
            raise ValueError(f"relay-mlir's VM executables export 'main' only, not '{func_name}'")
        return list(self._params)

    def __getattr__(self, name: str):
        raise refused_attribute(self, name, ("save", "load_exec", "bytecode", "lib", "move_late_bound_consts"),
                                "there is no VM bytecode; to ship a model, build it with relay.build "
                                "and write it with export_library")


class VirtualMachine:
    """Runs an ``Executable`` on a device (whose kind must be the target's)."""

    def __init__(self, exe: Executable, device: Device, memory_cfg: object = None) -> None:
        if not isinstance(exe, Executable):
            raise TypeError(f"VirtualMachine expects the Executable relay.vm.compile returns, "
                            f"got {type(exe).__name__}")
        devs = device if isinstance(device, (list, tuple)) else [device]
        if not devs or not all(isinstance(d, Device) for d in devs):
            raise TypeError(f"VirtualMachine expects a Device such as tvm.cpu(), got {device!r}")
        if devs[0].target != exe.target:
            raise ValueError(f"the executable was compiled for target {exe.target} and cannot "
                             f"run on {devs[0]}")
        self._exec = exe
        self.device = devs[0]
        self._inputs: Dict[str, Tuple[object, ...]] = {}

    def _arguments(self, func_name: str, args: Tuple[object, ...], kwargs: Dict[str, object]):
        names = self._exec.get_function_params(func_name)
        unknown = [k for k in kwargs if k not in names]
        if unknown:
            raise TypeError(f"{func_name} has no parameter {', '.join(map(repr, unknown))} "
                            f"(its parameters: {', '.join(names) or 'none'})")
        if len(args) > len(names):
            raise TypeError(f"{func_name} takes {len(names)} arguments ({', '.join(names)}), "
                            f"got {len(args)}")
        values = dict(zip(names, args))
        for k, v in kwargs.items():
            if k in values:
                raise TypeError(f"{func_name}: argument '{k}' given by position and by name")
            values[k] = v
        missing = [n for n in names if n not in values]
        if missing:
            raise TypeError(f"{func_name}: missing arguments {', '.join(missing)}")
        return tuple(to_relay_value(values[n]) for n in names)

    def set_input(self, func_name: str, *args: object, **kwargs: object) -> None:
        """Stores the arguments of ``func_name`` for a later ``invoke(func_name)``."""
        self._inputs[func_name] = self._arguments(func_name, args, kwargs)

    def invoke(self, func_name: str, *args: object, **kwargs: object) -> object:
        """Runs ``func_name`` on these arguments (or the ones ``set_input`` stored)."""
        if args or kwargs or func_name not in self._inputs:
            self.set_input(func_name, *args, **kwargs)
        return from_relay_value(self._exec.executable.run(func_name, *self._inputs[func_name]))

    def run(self, *args: object, **kwargs: object) -> object:
        return self.invoke("main", *args, **kwargs)

    def benchmark(self, device: Device, *args: object, func_name: str = "main", repeat: int = 5,
                  number: int = 5, min_repeat_ms: Optional[float] = None,
                  limit_zero_time_iterations: int = 100, end_to_end: bool = False,
                  cooldown_interval_ms: float = 0, repeats_to_cooldown: int = 1,
                  **kwargs: object) -> BenchmarkResult:
        """Times ``invoke(func_name)`` on these arguments (seconds per call, per repeat)."""
        if args or kwargs:
            self.set_input(func_name, *args, **kwargs)
        return time_calls(lambda: self.invoke(func_name), number, repeat, min_repeat_ms,
                          cooldown_interval_ms, repeats_to_cooldown)
