"""``compile()``'s hand-over to external code generators: ``attach_external_code``.

After relay-mlir has lowered the whole module (external functions included, so a function
whose codegen declines still runs), each external function whose ``Compiler`` has a
registered codegen (``codegen.register_codegen``) is handed to it (once per compile:
``generate``), as TVM 0.19 hands it to ``relay.ext.<compiler>`` at build time. What the
codegen returns (``codegen.MLIR``, ``CSource``/``ObjectFile``, or None; ``Device`` answers
were dealt with before lowering: ``device_route``) becomes the definition of the function's
symbol in the lowered program:

- relay-mlir's own definition is renamed ``@<f>$relay`` and made private, and the calls
  of its body (``@<f>$body``, the lowering's internal entry) are pointed at ``@<f>``, so the
  unused relay-mlir version is dropped by IREE;
- the codegen's definition of ``@<f>`` (checked with IREE's parser: ``mlir_check``) is
  added to the module.

Every failure (the codegen raises, returns something else, invalid MLIR, C that does not
compile, a C kernel for a non-CPU target) is a ``CompileError`` located at the external
function and naming it and its codegen.
"""
from __future__ import annotations

import os
import re
from typing import List, Sequence, Tuple

from ..errors import CompileError, Diagnostic
from ..expr import Call, Function, GlobalVar
from ..expr_functor import ExprVisitor
from ..module import IRModule
from .c_compiler import compile_c
from .c_dispatch import c_dispatch
from .codegen import MLIR, CSource, Device, ObjectFile, get_codegen
from .generate import Generated, forget, generated
from .mlir_check import checked_ops
from .partition_graph import external_functions
from .signature import signature

__all__ = ["attach_external_code"]


def _lowered_types(lowered: str, name: str) -> Tuple[List[str], List[str]]:
    """The parameter and result types of ``func.func @<name>`` in the lowered program."""
    m = re.search(r"^ *func\.func @" + re.escape(name) + r"\((.*)$", lowered, re.M)
    if m is None:
        raise CompileError(f"internal error: the lowered program has no function @{name}")
    head = m.group(1).split(" attributes {")[0].rstrip(" {")
    args, _, results = head.rpartition(") -> ")
    params = re.findall(r"%arg\d+: ([^\s,)]+(?:<[^>]*>)?)", args)
    results = results.strip()
    outs = re.findall(r"tensor<[^>]*>|[\w.!]+", results[1:-1] if results.startswith("(") else results)
    return params, outs


def _call_count(mod: IRModule, name: str) -> int:
    """How many calls of global ``name`` the module's other functions make."""
    count = [0]

    class _Calls(ExprVisitor):
        def visit_call(self, call: Call) -> None:
            if isinstance(call.op, GlobalVar) and call.op.name_hint == name:
                count[0] += 1
            super().visit_call(call)

    for other, fn in mod.functions.items():
        if other.name_hint != name and isinstance(fn, Function):
            _Calls().visit(fn)
    return count[0]


def _redirect(lowered: str, name: str, relay_calls: int, where: Diagnostic) -> str:
    """Renames relay-mlir's ``@<name>`` to a private ``@<name>$relay`` and points its calls
    (of ``@<name>`` or of its body ``@<name>$body``) at ``@<name>``."""
    lowered, n = re.subn(r"^( *)func\.func @" + re.escape(name) + r"\(",
                         lambda m: f"{m.group(1)}func.func private @{name}$relay(", lowered, flags=re.M)
    if n != 1:
        raise CompileError(f"internal error: @{name} is defined {n} times in the lowered program", [where])
    lowered, calls = re.subn(r"((?:func\.)?call @)" + re.escape(name) + r"(?:\$body)?\(",
                             lambda m: f"{m.group(1)}{name}(", lowered)
    if relay_calls and calls <= 1:  # only @<name>$relay's own call is left
        raise CompileError(f"internal error: the lowering no longer calls external function "
                           f"@{name}, so its codegen's code would not run", [where])
    return lowered


def _c_object(result, what: str, where: Diagnostic, name: str) -> bytes:
    if isinstance(result, CSource):
        if not isinstance(result.code, str):
            raise CompileError(f"{what} returned CSource with {type(result.code).__name__} code; "
                               "expected the C text", [where])
        return compile_c(result.code, name, what, where, result.flags)
    obj = result.object
    if isinstance(obj, (str, os.PathLike)):
        if not os.path.isfile(obj):
            raise CompileError(f"{what} returned ObjectFile '{os.fspath(obj)}', which does not exist",
                               [where])
        with open(obj, "rb") as f:
            obj = f.read()
    if not isinstance(obj, (bytes, bytearray)) or not bytes(obj).startswith(b"\x7fELF"):
        raise CompileError(f"{what} returned an ObjectFile that is not an ELF object", [where])
    return bytes(obj)


def _c_route(result, name: str, types: Tuple[List[str], List[str]], target: str, what: str,
             where: Diagnostic) -> str:
    if target != "llvm-cpu":
        raise CompileError(f"{what} returned a C kernel, which runs on the CPU only: compile for "
                           f"target 'llvm-cpu' (got '{target}')", [where])
    entry = result.entry or name
    if not re.fullmatch(r"[A-Za-z_]\w*", entry):
        raise CompileError(f"{what}: the C entry point must be a C identifier, got {entry!r}", [where])
    if not isinstance(result.workspace_bytes, int) or result.workspace_bytes < 0:
        raise CompileError(f"{what}: workspace_bytes must be a non-negative int, got "
                           f"{result.workspace_bytes!r}", [where])
    obj = _c_object(result, what, where, name)
    if b"\0" + entry.encode() + b"\0" not in obj:
        raise CompileError(f"{what}: the object file does not define the entry point '{entry}'", [where])
    try:
        return c_dispatch(name, entry, types[0], types[1], obj, result.workspace_bytes)
    except ValueError as e:
        raise CompileError(f"{what}: {e}", [where]) from None


def _definition(result, name: str, types, target: str, what: str,
                where: Diagnostic) -> Tuple[str, List[str]]:
    """The MLIR defining ``@<name>`` for codegen ``result`` and the symbols it defines."""
    expected = f"({', '.join(types[0])}) -> " + (types[1][0] if len(types[1]) == 1
                                                 else "(" + ", ".join(types[1]) + ")")
    if isinstance(result, (str, MLIR)):
        return checked_ops(result if isinstance(result, str) else result.text, name, expected, what, where)
    if isinstance(result, (CSource, ObjectFile)):
        text = _c_route(result, name, types, target, what, where)
        return checked_ops(text, name, expected, what, where)
    if isinstance(result, Device):  # compile() offloads these first (device_route)
        raise CompileError(f"{what} asked to run the function on IREE device '{result.target}', "
                           "which only relay_mlir.compile does (device_route)", [where])
    raise CompileError(f"{what} returned {type(result).__name__}; expected relay_mlir.byoc.MLIR, "
                       "CSource, ObjectFile, Device or None", [where])


def _insert(lowered: str, pieces: Sequence[str]) -> str:
    """``lowered`` with ``pieces`` added at the end of its top-level module."""
    close = [m.start() for m in re.finditer(r"^\}", lowered, re.M)]
    if not close:
        raise CompileError("internal error: the lowered program has no top-level module")
    at = close[-1]
    return lowered[:at] + "".join(p.rstrip() + "\n" for p in pieces) + lowered[at:]


def attach_external_code(source, lowered, target: str, placed: bool = False):
    """``lowered`` (relay-mlir's lowering of ``source``: its text, or ``compiler.Lowered``,
    whose file is rewritten) with each external function that a registered codegen takes
    defined by that codegen's code, for IREE target ``target``. Sources other than an
    ``IRModule`` (MLIR text) are left as they are. ``placed``: the build is a multi-device one
    in which ``Device`` answers were placed already (``device_route``)."""
    if not isinstance(source, IRModule) or not any(
            get_codegen(fn.attrs["Compiler"]) for _, fn in external_functions(source)):
        return lowered
    try:
        answers = generated(source)
    finally:
        forget(source)
    if isinstance(lowered, str):
        return _attach(source, answers, lowered, target, placed)
    lowered.path.write_text(_attach(source, answers, lowered.text(), target, placed), encoding="utf-8")
    return lowered


def _attach(source: IRModule, answers: List[Generated], lowered: str, target: str,
            placed: bool) -> str:
    pieces: List[str] = []
    owner = {}  # top-level symbol -> the external function whose codegen defined it
    for g in answers:
        if g.result is None or (placed and isinstance(g.result, Device)):
            continue  # declined, or placed on its device (device_route): relay-mlir's lowering stays
        name, what, where = g.name, g.what, g.where
        types = _lowered_types(lowered, name)
        sig = signature(g.fn)
        if [p.mlir_type for p in sig.params] != types[0]:
            raise CompileError(f"internal error: @{name}'s lowered parameters {types[0]} differ "
                               f"from its signature {sig.mlir_type}", [where])
        text, symbols = _definition(g.result, name, types, target, what, where)
        for s in symbols:
            if s in owner or (s != name and re.search(r"@" + re.escape(s) + r"\(", lowered)):
                raise CompileError(f"{what} defines @{s}, which {owner.get(s, 'the program')} "
                                   "also defines: prefix a codegen's symbols with the global symbol",
                                   [where])
            owner[s] = f"the codegen for '{name}'"
        lowered = _redirect(lowered, name, _call_count(source, name), where)
        pieces.append(text)
    return _insert(lowered, pieces) if pieces else lowered
