"""Device annotations: ``relay_mlir.annotation`` (``tvm.relay.annotation``) and ``device_copy``.

``on_device(body, device, constrain_result=False)`` says ``body`` runs on ``device``;
``device_copy(data, src_device, dst_device)`` moves a value between devices. TVM 0.19 keeps
them as calls of the operators ``on_device`` and ``device_copy`` with the attributes
``virtual_device``/``constrain_result``/``constrain_body`` and
``src_virtual_device``/``dst_virtual_device``; so does relay-mlir, with devices named by
strings (``"cpu"``, ``"cuda"``, ``"vulkan"``; TVM ``Device`` objects such as ``tvm.cpu()`` are
read by their device type). ``relay.transform.PlanDevices`` (``relay_mlir.devices``) places
every expression and inserts the copies. Outside it, both are their value: the reference
interpreter and a single-target ``compile`` ignore them.

>>> import relay_mlir as relay
>>> x = relay.var("x", shape=(2,))
>>> a = on_device(relay.exp(x), "cuda")
>>> a.op.name, a.attrs["virtual_device"], a.attrs["constrain_result"]
('on_device', 'cuda', False)
>>> device_copy(x, "cpu", "cuda").attrs["dst_virtual_device"]
'cuda'

``compiler_begin(data, compiler)`` marks where a value enters a region that ``compiler`` will
compile, ``compiler_end(data, compiler)`` where it leaves one (BYOC: ``AnnotateTarget`` inserts
them, ``PartitionGraph`` turns each region into an external function; docs/byoc.md). They are
markers, not computations: emission and type inference treat each as its value. Relay's text
format prints and parses them as TVM does (``annotation.compiler_begin(%x, compiler="dnnl")``).

>>> b = compiler_begin(x, "dnnl")
>>> b.op.name, b.attrs["compiler"]
('annotation.compiler_begin', 'dnnl')

TVM 0.19 spells these ``relay.annotation.*`` and ``relay.op.annotation.*`` (one module), and
``device_copy`` also ``relay.device_copy`` and ``relay.op.device_copy``; relay-mlir has every
spelling (``relay_mlir.op.annotation`` re-exports this module's functions).
"""
from __future__ import annotations

from .expr import Call, Expr, Function, Op, TupleWrapper
from .interpreter_ops import KERNELS

__all__ = ["on_device", "device_copy", "device_name", "is_call_of", "VirtualDevice", "ON_DEVICE",
           "DEVICE_COPY", "STOP_FUSION", "CHECKPOINT", "compiler_begin", "compiler_end",
           "function_on_device", "stop_fusion", "checkpoint"]

ON_DEVICE = "on_device"
DEVICE_COPY = "device_copy"
STOP_FUSION = "annotation.stop_fusion"
CHECKPOINT = "annotation.checkpoint"

# TVM's DLDeviceType numbers for the devices IREE has targets for
_DEVICE_TYPES = {1: "cpu", 2: "cuda", 7: "vulkan", 10: "rocm"}
_ALIASES = {"llvm": "cpu", "llvm-cpu": "cpu", "gpu": "cuda", "vulkan-spirv": "vulkan", "hip": "rocm"}


class VirtualDevice(str):
    """A device name that also reads as TVM's ``VirtualDevice``: ``device_type`` (TVM's
    DLDeviceType number, -1 for a device TVM has no number for here), ``virtual_device_id``.

    >>> d = device_name("vulkan"); d == "vulkan", d.device_type
    (True, 7)
    """

    @property
    def device_type(self) -> int:
        return _TYPE_NUMBERS.get(str(self), -1)

    device_type_int = device_type
    virtual_device_id = 0
    target = None


_TYPE_NUMBERS = {name: num for num, name in _DEVICE_TYPES.items()}


def device_name(device: object, what: str = "device") -> VirtualDevice:
    """The device called ``device``: a name (``"cpu"``, ``"vulkan"``; ``"llvm"`` is ``"cpu"``),
    TVM's device type number, or an object with one (``tvm.cpu()``: 1 → ``"cpu"``)."""
    if isinstance(device, str) and device.strip():
        name = device.strip().split()[0].lower()
        return VirtualDevice(_ALIASES.get(name, name))
    kind = device if isinstance(device, int) else getattr(device, "device_type", None)
    if isinstance(kind, int) and kind in _DEVICE_TYPES:
        return VirtualDevice(_DEVICE_TYPES[kind])
    raise TypeError(f"{what}: expected a device name such as 'cpu' or 'vulkan' (or a TVM Device), "
                    f"got {device!r}")


def is_call_of(e: Expr, op_name: str) -> bool:
    """Whether ``e`` is a call of the operator ``op_name`` (``ON_DEVICE``, ``DEVICE_COPY``)."""
    return isinstance(e, Call) and isinstance(e.op, Op) and e.op.name == op_name


def _value(name: str, data: object) -> Expr:
    if isinstance(data, TupleWrapper):
        data = data.astuple()
    if not isinstance(data, Expr):
        raise TypeError(f"{name}: the annotated value must be a relay expression, got {data!r}")
    return data


def _typed_as(call: Call, data: Expr) -> Call:
    call._checked_type = getattr(data, "_checked_type", None)
    return call


def on_device(body: Expr, device: object, constrain_result: bool = False,
              constrain_body: bool = True) -> Call:
    """``body`` placed on ``device`` (TVM 0.19's ``relay.annotation.on_device``).

    With ``constrain_result=False`` (the default) only ``body`` is constrained: its users may
    be elsewhere, and ``PlanDevices`` copies the value to them. With ``True`` the result is
    on ``device`` too.
    """
    body = _value("on_device", body)
    dev = device_name(device, "on_device")
    attrs = {"virtual_device": dev, "constrain_result": bool(constrain_result),
             "constrain_body": bool(constrain_body)}
    return _typed_as(Call(Op.get(ON_DEVICE), [body], attrs), body)


def device_copy(data: Expr, src_device: object, dst_device: object) -> Call:
    """``data`` (on ``src_device``) copied to ``dst_device`` (TVM 0.19's ``relay.device_copy``)."""
    data = _value("device_copy", data)
    attrs = {"src_virtual_device": device_name(src_device, "device_copy source"),
             "dst_virtual_device": device_name(dst_device, "device_copy destination")}
    return _typed_as(Call(Op.get(DEVICE_COPY), [data], attrs), data)


def on_device_text_form(data: Expr, virtual_device: object, constrain_result: bool = False,
                        constrain_body: bool = True) -> Call:
    """``on_device(%x, virtual_device="cuda", constrain_result=.., constrain_body=..)``: the
    form relay-mlir's text printer writes, read back by the parser."""
    return on_device(data, virtual_device, constrain_result, constrain_body)


def device_copy_text_form(data: Expr, src_virtual_device: object, dst_virtual_device: object) -> Call:
    """``device_copy(%x, src_virtual_device="cpu", dst_virtual_device="cuda")`` (the printed form)."""
    return device_copy(data, src_virtual_device, dst_virtual_device)


def _annotate(name: str, data: Expr, compiler: str) -> Call:
    data = _value(name, data)
    if not isinstance(compiler, str) or not compiler:
        raise TypeError(f"{name}: the compiler must be a non-empty string, got {compiler!r}")
    return _typed_as(Call(Op.get(name), [data], {"compiler": compiler}), data)


def compiler_begin(data: Expr, compiler: str) -> Call:
    """``data`` entering a region of ``compiler`` (``annotation.compiler_begin``)."""
    return _annotate("annotation.compiler_begin", data, compiler)


def compiler_end(data: Expr, compiler: str) -> Call:
    """``data`` leaving a region of ``compiler`` (``annotation.compiler_end``)."""
    return _annotate("annotation.compiler_end", data, compiler)


def stop_fusion(data: Expr) -> Call:
    """``annotation.stop_fusion(data)`` (TVM 0.19's): in TVM a fusion boundary for FuseOps. IREE
    forms relay-mlir's dispatches, so here it is a marker that is its value (interpreter,
    type inference and lowering alike)."""
    data = _value("stop_fusion", data)
    return _typed_as(Call(Op.get(STOP_FUSION), [data], {}), data)


#: relay.quantize's own operators (TVM 0.19 prints them in its annotate/calibrate stages); not
#: dialect operators: relay_mlir.quantize (hints.py) realizes or simulates them away
SIMULATED_QUANTIZE = "relay.op.annotation.simulated_quantize"
CAST_HINT = "annotation.cast_hint"


def simulated_quantize(data: Expr, dom_scale: Expr, clip_min: Expr, clip_max: Expr, kind: int,
                       sign: bool = True, rounding: str = "round") -> Call:
    """relay.quantize's quantization point ``relay.op.annotation.simulated_quantize``."""
    return Call(Op.get(SIMULATED_QUANTIZE), [data, dom_scale, clip_min, clip_max],
                {"kind": kind, "sign": sign, "rounding": rounding})


def cast_hint(data: Expr, dtype: str) -> Call:
    """relay.quantize's ``annotation.cast_hint(data, dtype)`` ("store this in ``dtype``")."""
    return Call(Op.get(CAST_HINT), [data], {"dtype": dtype})


def checkpoint(data: Expr) -> Call:
    """``annotation.checkpoint(data)`` (TVM 0.19's): in TVM a rematerialization hint for the
    gradient pass; here a marker that is its value."""
    data = _value("checkpoint", data)
    return _typed_as(Call(Op.get(CHECKPOINT), [data], {}), data)


def function_on_device(function: Function, param_devices: object, result_device: object) -> Function:
    """TVM 0.19's ``relay.annotation.function_on_device`` exists but cannot run: it calls
    ``_make.FunctionOnDevice``, which TVM 0.19 no longer has (AttributeError). relay-mlir says
    so, with what to write instead."""
    raise NotImplementedError(
        "function_on_device: TVM 0.19 removed FunctionOnDevice (its function_on_device raises "
        "AttributeError); place the parameters and the result with on_device(param, device) and "
        "on_device(body, device, constrain_result=True) instead")


def _register_identity_kernels() -> None:
    """The reference interpreter evaluates both as their value (one address space)."""
    for name in (ON_DEVICE, DEVICE_COPY, STOP_FUSION, CHECKPOINT):
        KERNELS.setdefault(name, lambda args, attrs: args[0])


_register_identity_kernels()
