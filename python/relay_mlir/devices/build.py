"""``compile(mod, target={"cpu": "llvm-cpu", "vulkan": "vulkan-spirv"})``: one ``.vmfb`` for
several IREE devices (issue 34 §3).

``main`` is planned (``PlanDevices`` with ``make_compilation_config(PassContext.current(),
targets)``), cut into single-device stages (``stages.split_stages``), and the stages are
lowered as one module in which each device is a ``util.global`` device and each stage function
has that device's ``stream.affinity``; iree-compile builds every dispatch for every target
(``--iree-hal-link-executables=false`` keeps one executable per dispatch, so each device's
context can create them). ``MultiDeviceExecutable`` runs it (see its module doc for why the
host moves the values between devices).
"""
from __future__ import annotations

import re
import time
from typing import Callable, Dict, Mapping, Optional, Sequence, Tuple as PyTuple

from ..adt_value import ResultLayout
from ..byoc.external_code import attach_external_code
from ..targets import _KEEP_F64, get_target
from ..errors import CompileError, Diagnostic, diagnostics_from_text
from ..expr import Function, Tuple
from ..module import IRModule
from ..pass_infra import PassContext, _shallow_copy
from .config import make_compilation_config
from .executable import MultiDeviceExecutable
from .plan import PlanDevices
from .inline_lets import inline_lets
from .stages import Stage, constant_results, result_refs, split_stages, stage_function

__all__ = ["compile_for_devices", "device_affinities"]

# the IREE device kind (``#hal.device.alias``) of each backend
_IREE_DEVICE = {"llvm-cpu": "local", "vulkan-spirv": "vulkan", "cuda": "cuda", "rocm": "hip"}


def _planned(source, targets: Mapping) -> PyTuple:
    if isinstance(source, Function):
        source = IRModule.from_expr(source)
    if not isinstance(source, IRModule) or "main" not in source:
        raise TypeError("compile with a target dict takes an IRModule with a 'main' function "
                        f"(or a relay Function), got {type(source).__name__}")
    config = make_compilation_config(PassContext.current(), targets)
    for dev, tgt in config.devices.items():
        if get_target(tgt).backend not in _IREE_DEVICE:
            raise ValueError(f"device '{dev}': target '{tgt}' has no IREE device")
    return PlanDevices(config)(source), config


def _staged_module(planned: IRModule) -> PyTuple[IRModule, list, Function]:
    """The stages as globals of one module (with ``main``'s callees), the stages, and the
    ``main`` they were cut from."""
    main = inline_lets(planned["main"])
    typed = _shallow_copy(planned)
    typed["main"] = main
    typed.to_mlir(infer=True)  # types every expression (in place) for the stage parameters
    stages = split_stages(main)
    out = IRModule()
    for gv, fn in planned.functions.items():
        if gv.name_hint != "main":
            out[gv.name_hint] = fn

    def type_of(e):
        t = getattr(e, "_checked_type", None) or getattr(e, "type_annotation", None)
        if t is None:
            raise CompileError("compiling for several devices: a value crossing stages has no type")
        return t

    for st in stages:
        st.fn = stage_function(st, main, type_of)
        out[st.name] = st.fn
    return out, stages, main


def _layout(main: Function):
    """``main``'s relay parameter and result types (``Executable.result_layout``'s form, for
    callers that read the signature back, e.g. the TVM stand-in's graph executor)."""
    def ty(e):
        return getattr(e, "_checked_type", None) or getattr(e, "type_annotation", None)

    return ResultLayout([ty(p) for p in main.params], ty(main.body), {})


def device_affinities(text: str, stages: Sequence[Stage], devices: Dict[str, str],
                      default: str) -> str:
    """The lowered module ``text`` with a device global per device (each falling back to the
    others, so a context with one device loads it) and each stage's ``stream.affinity``."""
    lines = text.splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("module"))
    kinds = {dev: _IREE_DEVICE[get_target(t).backend] for dev, t in devices.items()}
    globals_ = []
    for dev, kind in kinds.items():
        order = [kind] + [k for d, k in kinds.items() if d != dev and k != kind]
        sel = ", ".join(f'#hal.device.alias<"{k}"> : !hal.device' for k in order)
        globals_.append(f"  util.global private @{dev} = #hal.device.select<[{sel}]> : !hal.device")
    lines[head + 1:head + 1] = globals_
    # functions that are no stage (the ones stages call) on the default device
    affinity = f"stream.affinity.default = #hal.device.affinity<@{default}>"
    if lines[head] == "module {":
        lines[head] = f"module attributes {{{affinity}}} {{"
    elif lines[head].startswith("module attributes {"):
        lines[head] = lines[head].replace("module attributes {", f"module attributes {{{affinity}, ", 1)
    for st in stages:
        aff = f"stream.affinity = #hal.device.affinity<@{st.device}>"
        pat = re.compile(rf"^(\s*func\.func (?:public )?@{re.escape(st.name)}\()")
        for i, ln in enumerate(lines):
            if pat.match(ln):
                if " attributes {" in ln:
                    lines[i] = ln.replace(" attributes {", f" attributes {{{aff}, ", 1)
                else:
                    lines[i] = ln[:ln.rindex(" {")] + f" attributes {{{aff}}} {{"
                break
        else:
            raise CompileError(f"compiling for several devices: stage '{st.name}' is missing "
                               "from the lowered module")
    return "\n".join(lines) + "\n"


def _flags(devices: Dict[str, str], extra_args: Sequence[str]) -> list:
    targets = [get_target(t) for t in devices.values()]
    flags = ["--iree-hal-link-executables=false"]
    if any(t.backend == "llvm-cpu" for t in targets):
        flags.append("--iree-hal-local-target-device-backends=llvm-cpu")
    keep_f64 = all(all(f in t.flags for f in _KEEP_F64) for t in targets)
    for t in targets:
        flags += [f for f in t.flags if f not in flags and (keep_f64 or f not in _KEEP_F64)]
    return flags + list(extra_args)


def compile_for_devices(source, targets: Mapping, params: Optional[Mapping] = None,
                        extra_args: Sequence[str] = (), opt_level: Optional[int] = None, *,
                        lower: Callable[..., str]) -> MultiDeviceExecutable:
    """One ``.vmfb`` running ``main`` on the devices of ``targets`` (see the module doc).
    ``lower`` is ``compiler.lower_to_iree_input`` (passed in: ``compile`` calls this module
    for a target dict, so it sits below the compiler)."""
    if params:
        raise ValueError("compile with a target dict: bind params into the module first "
                         "(relay.build_module.bind_params_by_name)")
    t0 = time.perf_counter()
    planned, config = _planned(source, targets)
    staged, stages, main = _staged_module(planned)
    text = lower(staged, opt_level=opt_level)
    text = attach_external_code(staged, text, config.devices[config.default_device],  # route (a)
                                placed=True)
    text = device_affinities(text, stages, config.devices, config.default_device)
    import iree.compiler as ic
    from iree.compiler.tools.binaries import CompilerToolError

    try:
        vmfb = ic.compile_str(text, extra_args=_flags(config.devices, extra_args))
    except CompilerToolError as e:
        diags = diagnostics_from_text(str(e)) or [Diagnostic("error", str(e).strip()[:2000])]
        raise CompileError(f"iree-compile failed for devices {config.devices}", diags) from None
    exe = MultiDeviceExecutable(
        bytes(vmfb), stages, result_refs(main), isinstance(main.body, Tuple), len(main.params),
        config.devices, {d: get_target(t).driver for d, t in config.devices.items()},
        constant_results(main))
    exe.result_layout = _layout(main)
    exe.iree_input = text
    exe.compile_time_s = time.perf_counter() - t0
    return exe
