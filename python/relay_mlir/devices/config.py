"""``make_compilation_config(ctx, targets)``: the devices a build may use (TVM 0.19's
``tvm.target.make_compilation_config``, reachable here as ``relay.target``).

``targets`` maps a device name to a target: ``{"cpu": "llvm-cpu", "vulkan": "vulkan-spirv"}``
(TVM's spellings ``"llvm"``, ``"cuda"``, ``"vulkan"`` are accepted), or is one target for
one device. The default device — for what no annotation places — is TVM's
``relay.fallback_device_type`` from ``ctx.config`` (a DLDeviceType number: 1 cpu, 2 cuda,
7 vulkan) when given, else ``"cpu"`` if it is a device, else the first device.

>>> cfg = make_compilation_config(None, {"cpu": "llvm", "vulkan": "vulkan"})
>>> cfg.devices, cfg.default_device
({'cpu': 'llvm-cpu', 'vulkan': 'vulkan-spirv'}, 'cpu')
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Mapping, Optional, Union

from ..annotation import _DEVICE_TYPES, device_name
from ..pass_infra import _register_config
from ..targets import get_target, normalize_target

__all__ = ["CompilationConfig", "make_compilation_config"]

_register_config("relay.fallback_device_type", "int")


@dataclass(frozen=True)
class CompilationConfig:
    """Devices by name with their relay-mlir target names, and the default device."""

    devices: Dict[str, str]
    default_device: str

    def check(self, device: str, where: str) -> str:
        """``device`` if this config has it, else a ValueError naming ``where`` it was asked."""
        if device not in self.devices:
            raise ValueError(f"{where}: device '{device}' has no target (the targets are for "
                             f"{', '.join(sorted(self.devices))})")
        return device


def _target_name(target: object) -> str:
    """The relay-mlir target of ``target`` (TVM 0.19's Target() also refuses an unknown kind)."""
    name = normalize_target(getattr(target, "iree_target", target))  # a tvm.target.Target too
    try:
        return get_target(name).name
    except ValueError as e:
        raise ValueError(f"make_compilation_config: {e}") from None


def make_compilation_config(ctx: object, targets: Union[str, Mapping[object, object]],
                            target_host: object = None) -> CompilationConfig:
    """The devices of ``targets`` (see the module doc); ``target_host`` is accepted for TVM."""
    if isinstance(targets, Mapping):
        if not targets:
            raise ValueError("make_compilation_config: no targets given")
        devices = {device_name(k, "make_compilation_config target key"): _target_name(v)
                   for k, v in targets.items()}
    else:
        name = _target_name(targets)
        devices = {device_name(name, "make_compilation_config"): name}
    fallback = _fallback(ctx)
    if fallback is None:
        fallback = "cpu" if "cpu" in devices else next(iter(devices))
    cfg = CompilationConfig(devices, fallback)
    cfg.check(fallback, "make_compilation_config: relay.fallback_device_type")
    return cfg


def _fallback(ctx: object) -> Optional[str]:
    config = getattr(ctx, "config", None) or {}
    kind = config.get("relay.fallback_device_type") if isinstance(config, Mapping) else None
    if kind is None:
        return None
    if isinstance(kind, str):
        return device_name(kind)
    if int(kind) not in _DEVICE_TYPES:
        raise ValueError(f"relay.fallback_device_type: unknown device type {kind} "
                         f"(known: {_DEVICE_TYPES})")
    return device_name(int(kind))
