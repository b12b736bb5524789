"""``tvm.runtime.Device`` and ``tvm.cpu`` / ``tvm.cuda`` / ``tvm.vulkan`` / ``tvm.rocm`` / ``tvm.device``.

TVM 0.19: a device is ``(device_type, device_id)`` with TVM's DLPack codes (cpu 1,
cuda 2, vulkan 7, rocm 10); ``repr`` and ``str`` are ``cpu(0)``;
``tvm.device("llvm")`` is ``cpu(0)`` (target names are accepted as device names);
``tvm.device("cpu", 1)`` is ``cpu(1)``. Here a device also names the IREE runtime
driver that runs code on it and the compiler target that code is built for::

    >>> import relay_mlir.tvm as tvm
    >>> tvm.cpu(0), tvm.vulkan(1), tvm.device("llvm"), tvm.device("cuda", 2)
    (cpu(0), vulkan(1), cpu(0), cuda(2))
    >>> tvm.cpu().target, tvm.vulkan().target
    ('llvm-cpu', 'vulkan-spirv')
"""
from __future__ import annotations

from typing import Dict, Tuple, Union

__all__ = ["Device", "cpu", "cuda", "gpu", "vulkan", "rocm", "device", "enabled", "check_device"]

#: device_type code -> (TVM's name, relay-mlir target, IREE driver)
_KINDS: Dict[int, Tuple[str, str, str]] = {
    1: ("cpu", "llvm-cpu", "local-task"),
    2: ("cuda", "cuda", "cuda"),
    7: ("vulkan", "vulkan-spirv", "vulkan"),
    10: ("rocm", "rocm", "hip"),
}
#: names tvm.device accepts (TVM's device and target names) -> device_type code
_NAMES = {"cpu": 1, "llvm": 1, "c": 1, "stackvm": 1, "llvm-cpu": 1, "cuda": 2, "gpu": 2,
          "nvptx": 2, "vulkan": 7, "vulkan-spirv": 7, "rocm": 10, "hip": 10}


class Device:
    """A device: ``device_type`` (TVM's code), ``device_id``; ``exist`` says whether this
    process's IREE runtime has the device's driver."""

    def __init__(self, device_type: int, device_id: int = 0) -> None:
        if device_type not in _KINDS:
            raise ValueError(f"unknown device type {device_type!r}: relay-mlir runs on "
                             + ", ".join(f"{n} ({c})" for c, (n, _, _) in _KINDS.items()))
        if not isinstance(device_id, int) or isinstance(device_id, bool) or device_id < 0:
            raise ValueError(f"device id must be a non-negative int, got {device_id!r}")
        self.device_type = device_type
        self.device_id = device_id

    @property
    def kind(self) -> str:
        """TVM's name of the device kind: ``cpu``, ``cuda``, ``vulkan``, ``rocm``."""
        return _KINDS[self.device_type][0]

    @property
    def target(self) -> str:
        """The relay-mlir compiler target of code that runs here."""
        return _KINDS[self.device_type][1]

    @property
    def driver(self) -> str:
        """The IREE runtime driver."""
        return _KINDS[self.device_type][2]

    @property
    def exist(self) -> bool:
        if self.device_type == 1:
            return True
        import iree.runtime as rt

        return self.driver in rt.query_available_drivers()

    def sync(self) -> None:
        """Waits for the device: every relay-mlir call returns with its results on the host,
        so there is nothing to wait for."""

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Device) and other.device_type == self.device_type
                and other.device_id == self.device_id)

    def __hash__(self) -> int:
        return hash((self.device_type, self.device_id))

    def __repr__(self) -> str:
        return f"{self.kind}({self.device_id})"


def device(dev_type: Union[str, int], dev_id: int = 0) -> Device:
    """``tvm.device(dev_type, dev_id=0)``: a device by TVM name (``"cpu"``, ``"llvm"``,
    ``"cuda"``, ``"vulkan"``, ``"rocm"``; a target string's first word counts) or code."""
    if isinstance(dev_type, str):
        word = dev_type.strip().split()[0] if dev_type.strip() else ""
        if word not in _NAMES:
            raise ValueError(f"unknown device '{dev_type}': expected one of {', '.join(sorted(_NAMES))}")
        return Device(_NAMES[word], dev_id)
    return Device(dev_type, dev_id)


def cpu(dev_id: int = 0) -> Device:
    return Device(1, dev_id)


def cuda(dev_id: int = 0) -> Device:
    return Device(2, dev_id)


def gpu(dev_id: int = 0) -> Device:
    """TVM's deprecated alias of ``cuda``."""
    return Device(2, dev_id)


def vulkan(dev_id: int = 0) -> Device:
    return Device(7, dev_id)


def rocm(dev_id: int = 0) -> Device:
    return Device(10, dev_id)


def enabled(target: str) -> bool:
    """``tvm.runtime.enabled(target)``: whether this process can run code for ``target`` (a
    device or target name): relay-mlir supports its kind and IREE's runtime has its driver."""
    word = target.strip().split()[0] if isinstance(target, str) and target.strip() else ""
    return word in _NAMES and Device(_NAMES[word]).exist


def check_device(dev: Device, target: str, what: str) -> Device:
    """``dev`` if code built for relay-mlir target ``target`` runs on it, else a ``ValueError``
    naming the device it needs."""
    if dev.target != target:
        want = next(n for n, t, _ in _KINDS.values() if t == target)
        raise ValueError(f"{what} was built for target {target} (a {want} device) and cannot "
                         f"run on {dev}: pass tvm.{want}(), or build it for target "
                         f"'{dev.kind if dev.kind != 'cpu' else 'llvm'}'")
    return dev
