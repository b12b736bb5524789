"""Route (c): external functions whose codegen answers ``Device(target)`` run on that IREE device.

``compile()`` calls ``place_external_functions(source, target)`` before anything else. When a
codegen answers ``codegen.Device("vulkan")`` for its function, the calls of that function in
``main`` are placed on that device (``devices.offload_calls``: ``on_device`` around each call,
``main``'s result on the device of the requested target) and the target becomes a target dict
with both devices (``{"cpu": "llvm-cpu", "vulkan": "vulkan-spirv"}``), so ``compile`` builds
one ``.vmfb`` for the two IREE devices (docs/byoc.md section 7) in which relay-mlir lowers
the external function for its device. Code of routes (a) and (b) cannot join such a
multi-device build yet: asking for both is a located error.
"""
from __future__ import annotations

from typing import Mapping

from ..annotation import device_name
from ..devices.config import make_compilation_config
from ..devices.offload import offload_calls
from ..errors import CompileError
from ..module import IRModule
from .codegen import Device, get_codegen
from .generate import forget, generated
from .partition_graph import external_functions

__all__ = ["place_external_functions"]


def _device_name(target) -> str:
    return device_name(getattr(target, "name", target))


def _device(answer) -> str:
    try:
        return _device_name(answer.result.target)
    except TypeError as e:
        raise CompileError(f"{answer.what} returned {answer.result!r}: {e}", [answer.where]) from None


def place_external_functions(source, target):
    """``(source, target)`` for ``compile``: unchanged unless a codegen answers ``Device``;
    then ``source`` with those functions' calls placed on their devices and ``target`` a
    target dict that has the devices."""
    if not isinstance(source, IRModule) or not any(
            get_codegen(fn.attrs["Compiler"]) for _, fn in external_functions(source)):
        return source, target
    answers = generated(source)
    several = isinstance(target, Mapping)
    placed = {a.name: _device(a) for a in answers if isinstance(a.result, Device)}
    if not placed and not several:
        return source, target  # the answers are kept for compile's code step
    forget(source)  # a multi-device build: no code step
    code = [a for a in answers if a.result is not None and not isinstance(a.result, Device)]
    if code:
        why = "another codegen asked for a device" if placed else "the target is a target dict"
        raise CompileError(f"{code[0].what} returned code, and {why}: relay-mlir cannot yet "
                           "combine a codegen's code with a multi-device build", [code[0].where])
    if not placed:
        return source, target

    if several:
        targets = dict(target)
    else:
        targets = {_device_name(target): getattr(target, "name", target)}
    for a in answers:
        if isinstance(a.result, Device):
            targets.setdefault(placed[a.name], a.result.target)
    rest = make_compilation_config(None, targets).default_device if several else _device_name(target)
    return offload_calls(source, placed, rest), targets
