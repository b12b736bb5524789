"""The one-file format of ``export_library`` / ``tvm.runtime.load_module``.

TVM 0.19's ``export_library(path)`` writes a shared library that ``load_module``
reads in another process. relay-mlir's compiled code is an IREE ``.vmfb``; the
library file is that ``.vmfb`` with what the executors need appended::

    [.vmfb bytes][metadata: UTF-8 JSON][u64 little endian: JSON byte length][b"RMTVMLIB"]

The ``.vmfb`` comes first and unchanged, so ``iree-run-module --module=PATH
--function=main`` runs the file as it is (IREE ignores the bytes after its archive),
except that iree-run-module loads a file named ``*.so`` as a system library: copy
or name it ``*.vmfb`` for that tool.
The metadata (``format_version`` 1) holds ``kind`` (``"graph"`` or ``"vm"``), ``target`` (the
relay-mlir target: ``llvm-cpu``, ``vulkan-spirv``, ``cuda``, ``rocm``), ``driver``,
``inputs`` (run-time inputs in order: ``name``, ``shape`` with ``null`` for a
run-time size, ``dtype``), ``outputs`` (flattened: ``shape``, ``dtype``),
``bound_params`` (names of the params bound into the code at build time) and
``result_dtypes`` (the relay dtypes of the results); a heterogeneous build's library has
``target`` ``"multi-device"`` and ``multi_device`` (``MultiDeviceExecutable.describe()``: its
devices with their targets and drivers, its stages, results and constant results) instead of
``driver`` and ``result_dtypes``; a VM library has ``params`` (``main``'s
run-time parameter names) and ``result_nesting`` (``main``'s result: ``null`` for a tensor,
a list of its fields' nestings for a tuple) instead of inputs and outputs.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "lib.so")
    >>> write_package(path, b"vmfb", {"kind": "graph", "target": "llvm-cpu"})
    >>> read_package(path)[0], read_package(path)[1]["format_version"]
    (b'vmfb', 1)
"""
from __future__ import annotations

import json
import os
import struct
from typing import Dict, Tuple

__all__ = ["FORMAT_VERSION", "MULTI_DEVICE", "MAGIC", "KINDS", "write_package", "read_package", "write_library",
           "read_library"]

FORMAT_VERSION = 1
#: the ``target`` of a heterogeneous build's library (its devices and stages: ``multi_device``)
MULTI_DEVICE = "multi-device"
MAGIC = b"RMTVMLIB"
#: what a library holds: a graph executor factory (``relay.build``) or a VM executable
#: (``relay.vm.compile``)
KINDS = ("graph", "vm")
_TAIL = struct.Struct("<Q8s")


class LibraryNotFoundError(FileNotFoundError, ValueError):
    """``load_module`` of a path with no file: TVM 0.19 raises ``ValueError`` ("cannot find
    file"); this is also the ``FileNotFoundError`` Python code expects."""


def write_package(path: "os.PathLike[str] | str", vmfb: bytes, meta: Dict[str, object]) -> None:
    """Writes ``vmfb`` and ``meta`` (plus the format version) to ``path``."""
    text = json.dumps(dict(meta, format_version=FORMAT_VERSION), sort_keys=True).encode("utf-8")
    with open(path, "wb") as f:
        f.write(bytes(vmfb))
        f.write(text)
        f.write(_TAIL.pack(len(text), MAGIC))


def read_package(path: "os.PathLike[str] | str") -> Tuple[bytes, Dict[str, object]]:
    """``(vmfb, metadata)`` of a file ``write_package`` wrote; ``ValueError`` naming what
    was expected for anything else (a TVM ``.so``, a bare ``.vmfb``, a truncated file,
    another format version)."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise LibraryNotFoundError(f"load_module: cannot find file '{path}'")
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < _TAIL.size or data[-len(MAGIC):] != MAGIC:
        raise ValueError(f"load_module: '{path}' is not a library written by relay_mlir.tvm's "
                         "export_library (it does not end with b'RMTVMLIB'); a TVM .so cannot be "
                         "loaded: build the model again with relay_mlir.tvm.relay.build")
    size, _ = _TAIL.unpack(data[-_TAIL.size:])
    start = len(data) - _TAIL.size - size
    if start < 0:
        raise ValueError(f"load_module: '{path}' is truncated (its metadata claims {size} bytes)")
    try:
        meta = json.loads(data[start:len(data) - _TAIL.size].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"load_module: '{path}' has unreadable metadata: {e}") from None
    version = meta.get("format_version") if isinstance(meta, dict) else None
    if version != FORMAT_VERSION:
        raise ValueError(f"load_module: '{path}' has library format version {version!r}; this "
                         f"relay-mlir reads version {FORMAT_VERSION}: export it again with this "
                         "version's export_library")
    return data[:start], meta


def write_library(path: "os.PathLike[str] | str", exe, kind: str, fields: Dict[str, object]) -> None:
    """Writes relay-mlir ``Executable`` ``exe`` as a library of ``kind`` with metadata ``fields``
    (a ``MultiDeviceExecutable``: its ``describe()`` as ``multi_device``)."""
    assert kind in KINDS, kind
    if hasattr(exe, "describe"):
        meta = dict(fields, kind=kind, target=MULTI_DEVICE, multi_device=exe.describe())
    else:
        meta = dict(fields, kind=kind, target=exe.target, driver=exe.requested_driver,
                    result_dtypes=exe.result_dtypes)
    write_package(path, exe.vmfb, meta)


def _read_multi_device(path: str, vmfb: bytes, meta: Dict[str, object], have: list):
    """The ``MultiDeviceExecutable`` of a heterogeneous build's library (every device's driver
    must be in this process)."""
    from ...devices.executable import MultiDeviceExecutable

    desc = meta["multi_device"]
    missing = sorted(f"{d} ({drv})" for d, drv in desc["drivers"].items() if drv not in have)
    if missing:
        raise ValueError(f"load_module: '{path}' was built for devices {desc['devices']}; this "
                         f"process has no IREE driver for {', '.join(missing)} (it has: {', '.join(have)})")
    return MultiDeviceExecutable.restore(vmfb, desc)


def read_library(path: "os.PathLike[str] | str"):
    """``(Executable, metadata)`` of a library file, checked: its kind, a target this relay-mlir
    knows and whose IREE driver this process has (``ValueError`` naming them otherwise)."""
    import iree.runtime as rt

    from ...compiler import TARGETS
    from ...runtime import AUTO_DRIVER, CPU_DRIVERS, Executable

    vmfb, meta = read_package(path)
    path = os.fspath(path)
    if meta.get("kind") not in KINDS:
        raise ValueError(f"load_module: '{path}' holds a {meta.get('kind')!r} module; this "
                         f"relay-mlir loads {' and '.join(KINDS)} libraries")
    target, driver = meta.get("target"), meta.get("driver")
    if target == MULTI_DEVICE:
        return _read_multi_device(path, vmfb, meta, rt.query_available_drivers()), meta
    if target not in TARGETS:
        raise ValueError(f"load_module: '{path}' was built for target {target!r}, which this "
                         f"relay-mlir does not know (it knows {', '.join(TARGETS)})")
    have = rt.query_available_drivers()
    if driver not in have and not (driver == AUTO_DRIVER and set(CPU_DRIVERS) <= set(have)):
        raise ValueError(f"load_module: '{path}' was built for target {target}, whose IREE "
                         f"driver {driver!r} this process does not have (it has: {', '.join(have)})")
    exe = Executable(vmfb, driver=str(driver), target=str(target),
                     result_dtypes=meta.get("result_dtypes") or {})
    return exe, meta
