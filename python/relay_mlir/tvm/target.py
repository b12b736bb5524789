"""``tvm.target.Target``: a compilation target named TVM's way.

TVM 0.19 target strings are a kind followed by options (``"llvm -mcpu=skylake"``,
``"cuda -arch=sm_80"``, ``"vulkan"``); ``Target(...).kind.name`` is the kind;
``with Target(...)`` makes it ``Target.current()``, which ``relay.build`` uses when
given no target. relay-mlir compiles through IREE for four kinds: ``llvm`` (also
``c``) -> ``llvm-cpu``, ``cuda`` (``nvptx``) -> ``cuda``, ``vulkan`` -> ``vulkan-spirv``,
``rocm`` -> ``rocm`` (``iree_target``). Options are kept in ``attrs`` but IREE
chooses its own code generation (``llvm-cpu`` compiles for the host CPU).

    >>> from relay_mlir.tvm.target import Target
    >>> t = Target("llvm -mcpu=skylake")
    >>> t.kind.name, t.attrs["mcpu"], t.iree_target, str(t)
    ('llvm', 'skylake', 'llvm-cpu', 'llvm -mcpu=skylake')
"""
from __future__ import annotations

from typing import Dict, List, Optional, Union

__all__ = ["Target", "TargetKind", "cuda", "rocm", "make_compilation_config"]

#: TVM target kind -> relay-mlir (IREE) target
_KINDS = {"llvm": "llvm-cpu", "c": "llvm-cpu", "cuda": "cuda", "nvptx": "cuda",
          "vulkan": "vulkan-spirv", "rocm": "rocm",
          # relay-mlir's own names are accepted too
          "llvm-cpu": "llvm-cpu", "vulkan-spirv": "vulkan-spirv"}


class TargetKind:
    """``Target.kind``: its ``name``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


class Target:
    """A target: ``kind``, ``attrs`` (options), ``host``, ``iree_target``."""

    _stack: List["Target"] = []

    def __init__(self, target: Union[str, Dict[str, object], "Target"], host: object = None) -> None:
        if isinstance(target, Target):
            self.__dict__.update(target.__dict__)
            if host is not None:
                self.host = Target(host)
            return
        if isinstance(target, dict):
            kind = str(target.get("kind", ""))
            opts = {k: v for k, v in target.items() if k != "kind"}
            text = " ".join([kind] + [f"-{k}={v}" for k, v in opts.items()])
        elif isinstance(target, str):
            text = target.strip()
            words = text.split()
            kind = words[0] if words else ""
            opts = {}
            for w in words[1:]:
                key, _, value = w.lstrip("-").partition("=")
                opts[key] = value if value else True
        else:
            raise ValueError(f"a target is a string such as 'llvm', a dict or a Target, got {target!r}")
        if kind not in _KINDS:
            raise ValueError(f"target kind '{kind}' is not supported by relay-mlir, which compiles "
                             "through IREE for: llvm (CPU), cuda, vulkan, rocm")
        self.kind = TargetKind(kind)
        self.attrs: Dict[str, object] = opts
        self.keys = ["cpu"] if _KINDS[kind] == "llvm-cpu" else [kind.split("-")[0], "gpu"]
        self.host: Optional[Target] = Target(host) if host is not None else None
        self._text = text

    @property
    def iree_target(self) -> str:
        """The relay-mlir target (``relay_mlir.compile``'s ``target``)."""
        return _KINDS[self.kind.name]

    @staticmethod
    def list_kinds() -> List[str]:
        """The target kinds relay-mlir builds for (TVM 0.19 lists all of its own; a script
        checking ``"llvm" in Target.list_kinds()`` works the same)."""
        return list(_KINDS)

    @staticmethod
    def current(allow_none: bool = True) -> Optional["Target"]:
        """The innermost ``with Target(...)``; None (or ValueError) outside any."""
        if Target._stack:
            return Target._stack[-1]
        if not allow_none:
            raise ValueError("no target is set: call relay.build with a target or use 'with Target(...)'")
        return None

    def __enter__(self) -> "Target":
        Target._stack.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        Target._stack.pop()

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return self._text


def as_target(target: Union[str, Dict[str, object], Target, None]) -> Target:
    """``target`` (or, if None, ``Target.current()``) as a Target; TVM 0.19's error when none.

    A dict of one device (``{"cpu": "llvm"}``, TVM's heterogeneous form) is its one target."""
    if target is None:
        cur = Target.current()
        if cur is None:
            raise ValueError("Target is not set in env or passed as argument.")
        return cur
    if isinstance(target, dict) and "kind" not in target:
        if len(target) != 1:
            raise ValueError(f"a target per device ({', '.join(map(str, target))}) is not supported: "
                             "relay-mlir builds for one target; pass it alone")
        target = next(iter(target.values()))
    return Target(target)


def _options(options: object) -> List[str]:
    if options is None:
        return []
    return options.split() if isinstance(options, str) else [str(o) for o in options]


def cuda(model: str = "unknown", arch: Optional[str] = None, options: object = None) -> Target:
    """``tvm.target.cuda(model="unknown", arch=None, options=None)``: a ``cuda`` target."""
    return Target(" ".join(["cuda", f"-model={model}"] + ([f"-arch={arch}"] if arch else [])
                           + _options(options)))


def rocm(model: str = "unknown", options: object = None) -> Target:
    """``tvm.target.rocm(model="unknown", options=None)``: a ``rocm`` target."""
    return Target(" ".join(["rocm", f"-model={model}"] + _options(options)))


def make_compilation_config(ctx: object, targets: object, target_host: object = None):
    """``tvm.target.make_compilation_config(ctx, targets)``: the devices of a heterogeneous
    build, for ``relay.transform.PlanDevices`` (``relay_mlir.devices.config``)."""
    from ..devices.config import make_compilation_config as make

    return make(ctx, targets, target_host)


def __getattr__(name: str):
    raise AttributeError(f"tvm.target.{name} is not part of relay-mlir: its targets are "
                         "Target('llvm') (the host CPU), Target('vulkan'), cuda() and rocm()")
