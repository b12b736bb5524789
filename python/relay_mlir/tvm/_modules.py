"""How TVM's module names resolve under ``relay_mlir.tvm``: one import hook for both
the parts relay-mlir refuses and the Relay submodules it shares with ``relay_mlir``.

- Refused parts of TVM (``REFUSED``: te, topi, tir, autotvm, auto_scheduler,
  meta_schedule, rpc, micro, relax, ...) raise ``ImportError`` when imported
  (``import relay_mlir.tvm.te``) and ``AttributeError`` when read
  (``tvm.te``), with a message saying what to use instead (``refusal``).
- ``relay_mlir.tvm.relay.X`` is ``relay_mlir.X`` (the same module object: ``testing``,
  ``transform``, ``analysis``, ``nn``, ``prelude``, ...) unless ``relay_mlir/tvm/relay``
  has its own ``X`` (``frontend``, ``build_module``, ``vm``): TVM-shaped APIs where
  relay-mlir's own differ.

    >>> import relay_mlir, relay_mlir.tvm.relay.transform as t
    >>> t is relay_mlir.transform
    True
    >>> import relay_mlir.tvm.te
    Traceback (most recent call last):
    ...
    ImportError: tvm.te is not part of relay-mlir: ...
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from typing import Optional

__all__ = ["REFUSED", "refusal", "refused_attribute", "install"]

_KERNELS = ("relay-mlir writes no kernels by hand: Relay operators are lowered through linalg "
            "and IREE generates the code. Express the computation with relay ops "
            "(relay_mlir.tvm.relay) and build it with relay.build")
_TUNING = ("IREE chooses tiling and vectorization itself, so there is nothing to tune: drop the "
           "tuning and its ApplyHistoryBest/dispatch contexts; relay.build works without them")
_DEVICES = ("relay-mlir deploys with export_library: one file that IREE's runtime loads "
            "(tvm.runtime.load_module in Python, or iree-run-module) on the target machine")

#: first name under tvm -> why it is refused and what to use instead
REFUSED = {
    "te": _KERNELS, "topi": _KERNELS, "tir": _KERNELS, "script": _KERNELS, "arith": _KERNELS,
    "lower": _KERNELS, "driver": _KERNELS,
    "build": "it compiles TE/TIR kernels; " + _KERNELS,
    "autotvm": _TUNING, "auto_scheduler": _TUNING, "meta_schedule": _TUNING, "dlight": _TUNING,
    "rpc": _DEVICES, "micro": _DEVICES, "hexagon": _DEVICES,
    "relax": "Relax is TVM's successor IR; relay-mlir is Relay only (relay_mlir.tvm.relay)",
}
#: the parts of tvm.contrib relay-mlir provides
CONTRIB = ("graph_executor", "utils")
_CONTRIB_WHY = ("relay-mlir provides tvm.contrib.graph_executor and tvm.contrib.utils only: "
                "kernels come from IREE (no external libraries such as cblas/cudnn to link), "
                "export_library writes one file (no cc/tar/ndk toolchains), and the reference "
                "interpreter (relay.create_executor('debug')) takes the graph debugger's place")

_HERE = os.path.dirname(os.path.abspath(__file__))


def refusal(dotted: str) -> Optional[str]:
    """The message for ``tvm.<dotted>`` if relay-mlir refuses it, else None."""
    parts = dotted.split(".")
    if parts[0] in REFUSED:
        return f"tvm.{parts[0]} is not part of relay-mlir: {REFUSED[parts[0]]}"
    if parts[0] == "contrib" and len(parts) > 1 and parts[1] not in CONTRIB:
        return f"tvm.contrib.{parts[1]} is not part of relay-mlir: {_CONTRIB_WHY}"
    return None


def refused_attribute(owner: object, name: str, refused: tuple, why: str) -> AttributeError:
    """The ``AttributeError`` for ``owner.name``: saying why (``why``) if TVM has ``name``
    there (``refused``) and relay-mlir refuses it, else Python's usual message."""
    cls = type(owner).__name__
    if name in refused:
        return AttributeError(f"{cls}.{name} is not part of relay-mlir: {why}")
    return AttributeError(f"'{cls}' object has no attribute '{name}'")


def _own_relay_module(name: str) -> bool:
    base = os.path.join(_HERE, "relay", name)
    return name == "frontend" or os.path.isfile(base + ".py") or os.path.isdir(base)


class _Alias(importlib.abc.Loader):
    """Loads an alias as the module it names (keeping that module's own ``__spec__``)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._spec = None

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self._spec = module.__spec__
        return module

    def exec_module(self, module) -> None:
        module.__spec__ = self._spec


class _Finder(importlib.abc.MetaPathFinder):
    PREFIX = __name__.rsplit(".", 1)[0] + "."  # "relay_mlir.tvm."
    RELAY = PREFIX + "relay."

    def find_spec(self, fullname, path, target=None):
        if not fullname.startswith(self.PREFIX):
            return None
        why = refusal(fullname[len(self.PREFIX):])
        if why is not None:
            raise ImportError(why, name=fullname)
        if fullname.startswith(self.RELAY):
            rest = fullname[len(self.RELAY):]
            if _own_relay_module(rest.split(".")[0]):
                return None
            real = self.PREFIX.split(".")[0] + "." + rest
            if real not in sys.modules and importlib.util.find_spec(real) is None:
                return None
            return importlib.machinery.ModuleSpec(fullname, _Alias(real))
        return None


def install() -> None:
    """Puts the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
