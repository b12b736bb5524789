"""Route (c): external functions whose codegen answers ``Device(target)`` run on that IREE device.

``compile()`` calls ``place_external_functions(source, target)`` before anything else. When a
codegen answers ``codegen.Device("vulkan")`` for its function, the calls of that function in
``main`` are placed on that device (``devices.offload_calls``: ``on_device`` around each call,
``main``'s result on the device of the requested target) and the target becomes a target dict
with both devices (``{"cpu": "llvm-cpu", "vulkan": "vulkan-spirv"}``), so ``compile`` builds
one ``.vmfb`` for the two IREE devices (docs/byoc.md section 7) in which relay-mlir lowers
the external function for its device. MLIR of route (a) joins such a build (the multi-device
build's code step, ``compile_for_devices``, attaches it; it is compiled for every device). A C
kernel of route (b) cannot: IREE 3.13 compiles every dispatch of a multi-device module for
every device (each device global falls back to the others, docs/byoc.md section 7), and the
C dispatch has no GPU form; asking for both is a located error.
"""
from __future__ import annotations

from typing import Mapping

from ..annotation import device_name
from ..devices.config import make_compilation_config
from ..devices.offload import offload_calls
from ..errors import CompileError
from ..module import IRModule
from .codegen import CSource, Device, ObjectFile, get_codegen
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
    c_code = [a for a in answers if isinstance(a.result, (CSource, ObjectFile))]
    if c_code:
        forget(source)
        why = "another codegen asked for a device" if placed else "the target is a target dict"
        raise CompileError(f"{c_code[0].what} returned a C kernel, and {why}: a C kernel cannot "
                           "join a multi-device build (IREE 3.13 compiles each dispatch of such a "
                           "module for every device, and C runs on the CPU only); return MLIR, or "
                           "build for llvm-cpu alone", [c_code[0].where])
    # the answers stay kept for the multi-device build's code step (attach_external_code)
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
