"""``tvm.runtime.Module`` (functions by name, ``time_evaluator``) and ``load_module``.

TVM 0.19: a runtime module hands out its functions by name (``mod["run"]``,
``mod.get_function("run")``; a missing one is an ``AttributeError``), and
``mod.time_evaluator(func_name, dev, number=10, repeat=1, min_repeat_ms=0, ...)``
returns a function timing it (``BenchmarkResult``, see ``benchmark``).
``load_module(path)`` reads what ``export_library(path)`` wrote (``package``).
"""
from __future__ import annotations

import os
from typing import Callable

from .benchmark import BenchmarkResult, time_calls
from .device import Device

__all__ = ["Module", "load_module"]


class Module:
    """A runtime module: subclasses list their functions in ``_functions``."""

    type_key = "Module"
    _functions: tuple = ()

    def get_function(self, name: str, query_imports: bool = False) -> Callable:
        if name not in self._functions:
            raise AttributeError(f"{type(self).__name__} has no function '{name}' (it has: "
                                 f"{', '.join(self._functions)})")
        return getattr(self, name)

    def __getitem__(self, name: str) -> Callable:
        if not isinstance(name, str):
            raise ValueError(f"a module's functions are looked up by name, got {name!r}")
        return self.get_function(name)

    def time_evaluator(self, func_name: str, dev: Device, number: int = 10, repeat: int = 1,
                       min_repeat_ms: float = 0, limit_zero_time_iterations: int = 100,
                       cooldown_interval_ms: float = 0, repeats_to_cooldown: int = 1,
                       cache_flush_bytes: int = 0, f_preproc: str = "") -> Callable[..., BenchmarkResult]:
        """A function that times ``func_name`` called with its arguments."""
        func = self.get_function(func_name)

        def evaluator(*args: object) -> BenchmarkResult:
            return time_calls(lambda: func(*args), number, repeat, min_repeat_ms,
                              cooldown_interval_ms, repeats_to_cooldown)
        return evaluator


def load_module(path: "os.PathLike[str] | str", fmt: str = "") -> Module:
    """``tvm.runtime.load_module(path)``: the module ``export_library`` wrote to ``path``: a
    graph executor factory (``mod["default"](dev)``) or a VM executable (for
    ``VirtualMachine``). Raises ``ValueError`` naming what was expected for any other file,
    another format version, or a target this process cannot run."""
    from .aot_runtime import AOTExecutorFactoryModule
    from .graph_factory import GraphExecutorFactoryModule
    from .package import read_library
    from .vm import VMExecutableModule

    exe, meta = read_library(path)
    load = GraphExecutorFactoryModule.from_library if meta["kind"] == "graph" else VMExecutableModule.from_library
    if meta.get("executor") == "aot":
        load = AOTExecutorFactoryModule.from_library
    try:
        return load(exe, meta)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"load_module: '{os.fspath(path)}' has incomplete metadata ({e!r})") from None
