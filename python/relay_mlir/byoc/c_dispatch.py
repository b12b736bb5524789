"""Route (b): the MLIR that calls a codegen's C function through IREE's custom dispatch.

IREE runs hand-written code as a dispatch of a ``stream.executable`` whose
``hal.executable.objects`` carry an object file for the llvm-cpu target: a shim function of
the executable reads its bindings as memrefs and calls the external function, declared
with ``hal.import.static``, which IREE links statically into the embedded ELF (IREE's
samples/custom_dispatch/cpu/embedded). For an external function ``@f`` this writes

- ``stream.executable @f$c``: the object (a file in relay-mlir's cache named by its content:
  IREE 3.13 crashes on an object embedded as ``data`` without a path, and does not link
  one with a path), one workgroup, a shim that passes each binding's address (the aligned
  pointer plus the memref's offset) as an ``index`` -- a plain C pointer on every 64-bit ABI;
- ``func.func @f``: ``flow.dispatch @f$c::@f$dispatch`` of the inputs, returning the outputs
  (and a scratch tensor of ``workspace_bytes`` when asked for, passed last).
"""
from __future__ import annotations

import hashlib
import os
import platform
import re
import tempfile
from typing import List, Sequence

__all__ = ["c_dispatch", "object_target"]

_ELEMENT_BYTES = {"f64": 8, "i64": 8, "f32": 4, "i32": 4, "f16": 2, "bf16": 2, "i16": 2, "i8": 1}

# IREE's embedded ELF formats by host machine
_FORMATS = {"x86_64": "embedded-elf-x86_64", "amd64": "embedded-elf-x86_64",
            "aarch64": "embedded-elf-arm_64", "arm64": "embedded-elf-arm_64",
            "riscv64": "embedded-elf-riscv_64"}


def object_target() -> str:
    """The generic ``#hal.executable.target`` the host's objects are linked for (IREE picks the
    objects whose target this generalizes)."""
    fmt = _FORMATS.get(platform.machine().lower())
    if fmt is None:
        raise ValueError(f"C kernels are linked for x86_64, aarch64 and riscv64 hosts; this "
                         f"machine is {platform.machine()}")
    return f'#hal.executable.target<"llvm-cpu", "{fmt}">'


def stored_object(obj: bytes) -> str:
    """The path of a file holding ``obj``, named by its content in relay-mlir's cache
    (``$XDG_CACHE_HOME/relay-mlir/objects``), so a lowered program stays compilable later."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(cache, "relay-mlir", "objects")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:  # no writable home: the temporary directory
        folder = os.path.join(tempfile.gettempdir(), "relay-mlir-objects")
        os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, hashlib.sha256(obj).hexdigest()[:32] + ".o")
    if not os.path.isfile(path):
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(obj)
        os.replace(tmp, path)  # atomic: concurrent compiles see a whole file
    return path


def _memref(tensor_type: str) -> str:
    return "memref<" + tensor_type[len("tensor<"):]


def _rank(tensor_type: str) -> int:
    return tensor_type.count("x")


def _element(tensor_type: str) -> str:
    return tensor_type[len("tensor<"):-1].rsplit("x", 1)[-1]


def _pointer(i: int, tensor_type: str) -> List[str]:
    """Lines computing ``%p<i>``, the address of binding ``%b<i>``'s first element."""
    m, r = _memref(tensor_type), _rank(tensor_type)
    groups = f", %sizes{i}:{r}, %strides{i}:{r}" if r else ""
    meta_types = ", ".join(["memref<" + _element(tensor_type) + ">"] + ["index"] * (1 + 2 * r))
    return [
        f"%m{i} = stream.binding.subspan %b{i}[%c0] : !stream.binding -> {m}",
        f"%base{i}, %offset{i}{groups} = memref.extract_strided_metadata %m{i} : {m} -> {meta_types}",
        f"%aligned{i} = memref.extract_aligned_pointer_as_index %m{i} : {m} -> index",
        f"%bytes{i} = arith.muli %offset{i}, %c{_ELEMENT_BYTES[_element(tensor_type)]} : index",
        f"%p{i} = arith.addi %aligned{i}, %bytes{i} : index",
    ]


def _shim(name: str, entry: str, bindings: Sequence[str]) -> str:
    n = len(bindings)
    body = ["%c0 = arith.constant 0 : index"]
    body += [f"%c{k} = arith.constant {k} : index" for k in sorted({_ELEMENT_BYTES[_element(t)]
                                                                     for t in bindings})]
    for i, t in enumerate(bindings):
        body += _pointer(i, t)
    ptrs = ", ".join(f"%p{i}" for i in range(n))
    body += [f"func.call @{entry}({ptrs}) : ({', '.join(['index'] * n)}) -> ()", "return"]
    params = ", ".join(f"%b{i}: !stream.binding" for i in range(n))
    return "\n".join([
        f"func.func private @{entry}({', '.join(['index'] * n)}) attributes {{hal.import.static}}",
        f"func.func @{name}$dispatch({params}) {{",
        *("  " + ln for ln in body),
        "}"])


def c_dispatch(name: str, entry: str, param_types: Sequence[str], result_types: Sequence[str],
               obj: bytes, workspace_bytes: int = 0) -> str:
    """The MLIR defining ``func.func @<name>`` as a dispatch of C function ``entry`` in
    object ``obj`` (static tensor types of the parameters and results, as lowered)."""
    for t in [*param_types, *result_types]:
        if not re.fullmatch(r"tensor<([0-9]+x)*[a-z0-9]+>", t) or _element(t) not in _ELEMENT_BYTES:
            raise ValueError(f"a C kernel takes tensors of static shape and numeric element type; "
                             f"got {t}")
    outs = list(result_types) + ([f"tensor<{workspace_bytes}xi8>"] if workspace_bytes else [])
    objects = (f"hal.executable.objects = #hal.executable.objects<{{{object_target()} = "
               f'[#hal.executable.object<{{path = "{stored_object(obj)}"}}>]}}>')
    c1 = "%c1 = arith.constant 1 : index"
    executable = "\n".join([
        f"stream.executable private @{name}$c attributes {{{objects}}} {{",
        f"  stream.executable.export public @{name}$dispatch workgroups() -> (index, index, index) {{",
        f"    {c1}",
        "    stream.return %c1, %c1, %c1 : index, index, index",
        "  }",
        "  builtin.module {",
        *("    " + ln for ln in _shim(name, entry, [*param_types, *outs]).splitlines()),
        "  }",
        "}"])
    args = ", ".join(f"%arg{i}" for i in range(len(param_types)))
    arg_decls = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(param_types))
    res = result_types[0] if len(result_types) == 1 else "(" + ", ".join(result_types) + ")"
    dispatch_type = f"({', '.join(param_types)}) -> " + (outs[0] if len(outs) == 1 else
                                                          "(" + ", ".join(outs) + ")")
    lhs = "%r" if len(outs) == 1 else f"%r:{len(outs)}"
    rets = ["%r"] if len(outs) == 1 else [f"%r#{i}" for i in range(len(result_types))]
    wrapper = "\n".join([
        f"func.func @{name}({arg_decls}) -> {res} {{",
        f"  {lhs} = flow.dispatch @{name}$c::@{name}$dispatch({args}) : {dispatch_type}",
        f"  return {', '.join(rets)} : {', '.join(result_types)}",
        "}"])
    return executable + "\n" + wrapper
