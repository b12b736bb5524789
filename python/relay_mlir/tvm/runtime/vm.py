"""``tvm.runtime.vm``: ``Executable`` (what ``relay.vm.compile`` returns) and ``VirtualMachine``.

TVM 0.19 ships a VM program with ``exe.mod.export_library(path)``; ``tvm.runtime.load_module
(path)`` gives a module ``VirtualMachine(module, dev)`` runs (``VMExecutableModule`` here; the
file format is ``package``'s, kind ``"vm"``).

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

import os
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from ...adt_value import ADTDef, ResultLayout
from ...runtime import Executable as _IreeExecutable
from ...ty import parse_mlir_type
from .._modules import refused_attribute
from .benchmark import BenchmarkResult, time_calls
from .container import ADT, from_relay_value, to_relay_value
from .device import Device, check_device
from .module import Module
from .package import write_library

__all__ = ["Executable", "VirtualMachine", "VMExecutableModule"]


class Executable:
    """A module compiled for the VM: the IREE executable and ``main``'s run-time parameters.

    ``nesting`` is ``main``'s result structure (``None`` a tensor, a list per tuple), needed
    only when the IREE executable has no relay types of its own (a loaded library)."""

    def __init__(self, exe: _IreeExecutable, params: Sequence[str], target: str,
                 nesting: object = None) -> None:
        self.executable = exe
        self.target = target
        self._params = tuple(params)
        self._nesting = nesting

    def get_function_params(self, func_name: str) -> List[str]:
        """The names of ``main``'s parameters that are not bound to constants."""
        if func_name != "main":
            raise ValueError(f"relay-mlir's VM executables export 'main' only, not '{func_name}'")
        return list(self._params)

    @property
    def mod(self) -> "VMExecutableModule":
        """The runtime module (``exe.mod.export_library(path)``)."""
        return VMExecutableModule(self)

    def result_nesting(self) -> object:
        """``main``'s result structure: ``None`` for a tensor, a list of fields for a tuple."""
        layout = self.executable.result_layout
        if layout is None:
            return self._nesting
        return _nesting(layout.result)

    def run(self, func_name: str, args: Tuple[object, ...]) -> object:
        """``func_name``'s result on relay-mlir values (nested as ``main`` returns it)."""
        out = self.executable.run(func_name, *args)
        if self.executable.result_layout is None and self._nesting is not None:
            flat = iter(out if isinstance(out, tuple) else (out,))
            out = _renest(flat, self._nesting)
        return out

    def __getattr__(self, name: str):
        raise refused_attribute(self, name, ("save", "load_exec", "bytecode", "lib", "move_late_bound_consts"),
                                "there is no VM bytecode: exe.mod.export_library(path) writes the "
                                "program as one file that tvm.runtime.load_module(path) loads")


def _nesting(t: object) -> object:
    from ...ty import TensorType, TupleType

    if isinstance(t, TupleType):
        return [_nesting(f) for f in t.fields]
    if isinstance(t, TensorType):
        return None
    raise ValueError(f"main returns {t}: only tensors and tuples of them have a nesting")


def _renest(flat: Iterator[object], nesting: object) -> object:
    if nesting is None:
        return next(flat)
    return tuple(_renest(flat, n) for n in nesting)


class VMExecutableModule(Module):
    """``exe.mod``: a VM executable as a runtime module, written by ``export_library`` and
    read back by ``tvm.runtime.load_module``."""

    type_key = "VMExecutable"

    def __init__(self, exe: Executable) -> None:
        self.executable = exe

    def export_library(self, file_name: "os.PathLike[str] | str", fcompile=None, addons=None,
                       workspace_dir=None, **kwargs) -> None:
        layout = self.executable.executable.result_layout
        fields = {"params": self.executable.get_function_params("main")}
        if layout is not None:
            fields["result_layout"] = layout_to_json(layout)
        else:
            fields["result_nesting"] = self.executable.result_nesting()
        write_library(file_name, self.executable.executable, "vm", fields)

    @staticmethod
    def from_library(exe: _IreeExecutable, meta: Dict[str, object]) -> "VMExecutableModule":
        params = [str(p) for p in meta["params"]]
        if meta.get("result_layout") is not None:
            exe.result_layout = layout_from_json(meta["result_layout"])
        return VMExecutableModule(Executable(exe, params, exe.target, meta.get("result_nesting")))


def layout_to_json(layout: ResultLayout) -> Dict[str, object]:
    """``main``'s relay types (parameters, result, the ADTs they use) as JSON: types as their
    MLIR text, each ADT as its type parameters and constructors' field types."""
    return {"params": [t.to_mlir() for t in layout.params], "result": layout.result.to_mlir(),
            "adts": {name: {"type_params": d.type_params,
                            "constructors": [[c, [f.to_mlir() for f in fields]] for c, fields in d.constructors]}
                     for name, d in layout.adts.items()}}


def layout_from_json(d: Dict[str, object]) -> ResultLayout:
    """The inverse of ``layout_to_json``."""
    adts = {name: ADTDef(name, a["type_params"], [(c, [parse_mlir_type(f) for f in fields])
                                                   for c, fields in a["constructors"]])
            for name, a in d["adts"].items()}
    return ResultLayout([parse_mlir_type(t) for t in d["params"]], parse_mlir_type(d["result"]), adts)


class VirtualMachine:
    """Runs an ``Executable`` on a device (whose kind must be the target's)."""

    def __init__(self, exe: Executable, device: Device, memory_cfg: object = None) -> None:
        if isinstance(exe, VMExecutableModule):
            exe = exe.executable
        if not isinstance(exe, Executable):
            raise TypeError(f"VirtualMachine expects the Executable relay.vm.compile returns (or "
                            f"the module load_module gives for it), got {type(exe).__name__}")
        devs = device if isinstance(device, (list, tuple)) else [device]
        if not devs or not all(isinstance(d, Device) for d in devs):
            raise TypeError(f"VirtualMachine expects a Device such as tvm.cpu(), got {device!r}")
        self._exec = exe
        self.device = check_device(devs[0], exe.target, "the executable")
        self._inputs: Dict[str, Dict[str, object]] = {}
        self._outputs: List[object] = []

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
        return {n: to_relay_value(v) for n, v in values.items()}

    def set_input(self, func_name: str, *args: object, **kwargs: object) -> None:
        """Stores the arguments of ``func_name`` for a later ``invoke(func_name)``."""
        values = self._arguments(func_name, args, kwargs)
        missing = [n for n in self._exec.get_function_params(func_name) if n not in values]
        if missing:
            raise TypeError(f"{func_name}: missing arguments {', '.join(missing)}")
        self._inputs[func_name] = values

    def set_one_input(self, func_name: str, *args: object, **kwargs: object) -> None:
        """Stores one argument: ``(name or index, value)`` or ``name=value``."""
        if len(args) + len(kwargs) * 2 != 2:
            raise TypeError("set_one_input takes (func_name, name or index, value) or (func_name, name=value)")
        key, value = args if args else next(iter(kwargs.items()))
        names = self._exec.get_function_params(func_name)
        if not isinstance(key, str):
            if not 0 <= int(key) < len(names):
                raise IndexError(f"{func_name} has {len(names)} parameters, no index {key}")
            key = names[int(key)]
        self._inputs.setdefault(func_name, {}).update(self._arguments(func_name, (), {key: value}))

    def get_input_index(self, input_name: str, func_name: str = "main") -> int:
        """The position of parameter ``input_name`` of ``func_name``, or -1."""
        names = self._exec.get_function_params(func_name)
        return names.index(input_name) if input_name in names else -1

    def invoke(self, func_name: str, *args: object, **kwargs: object) -> object:
        """Runs ``func_name`` on these arguments (or the ones ``set_input`` stored)."""
        if args or kwargs or func_name not in self._inputs:
            self.set_input(func_name, *args, **kwargs)
        stored = self._inputs[func_name]
        names = self._exec.get_function_params(func_name)
        missing = [n for n in names if n not in stored]
        if missing:
            raise TypeError(f"{func_name}: missing arguments {', '.join(missing)}")
        return from_relay_value(self._exec.run(func_name, tuple(stored[n] for n in names)))

    def invoke_stateful(self, func_name: str, *args: object, **kwargs: object) -> None:
        """Runs ``func_name`` and keeps its outputs for ``get_outputs`` (returns None, as TVM)."""
        result = self.invoke(func_name, *args, **kwargs)
        self._outputs = list(result) if isinstance(result, ADT) else [result]

    def get_outputs(self) -> List[object]:
        """The outputs of the last ``invoke_stateful``: the result's fields (or the result)."""
        return list(self._outputs)

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
