"""``relay_mlir.compile``: relay MLIR (or a builder ``IRModule``) to an IREE ``Executable``.

The program is type-inferred and lowered by the ``relay-to-iree-input``
pipeline, printed as MLIR *text* (IREE rejects MLIR 22 bytecode), its large
constants in a parameter archive beside it (``weight_parameters``), and handed
to ``iree.compiler.compile_file``.

Example::

    >>> import numpy as np, relay_mlir as relay
    >>> x = relay.var("x", shape=(2, 2))
    >>> exe = relay.compile(relay.IRModule.from_expr(relay.nn.relu(x)))   # doctest: +SKIP
    >>> exe(np.array([[-1, 2], [3, -4]], "float32"))                       # doctest: +SKIP
    array([[0., 2.],
           [3., 0.]], dtype=float32)
"""
from __future__ import annotations

import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union
import logging

import numpy as np

from ._worker import (client, decode_layout, failed, how_it_died, isolate_default, lower_module, parser_crash,
                      run_request)
from .adt_value import ResultLayout
from .byoc.device_route import place_external_functions
from .devices.build import compile_for_devices
from .byoc.external_code import attach_external_code
from .emit import (check_entry_tensors, check_known_ops, check_tensor_sizes, location_of, new_context,
                   parse_module)
from .errors import CompileError, Diagnostic, diagnostics_from_text
from .expr import Function
from .lowering_request import PIPELINE, lowering_pipeline, main_layout, with_cpu_kernels  # noqa: F401  (compiler's API)
from .module import IRModule

_log = logging.getLogger("relay_mlir")
from .runtime import AUTO_DRIVER, Executable
from . import cpu_kernels, weight_parameters
from .targets import (_DATA_TILING, _GLOBAL_DATA_TILING, _GPU_LOOPS, _KEEP_F64, _RUN_TIME_ROWS,  # noqa: F401
                      TARGETS, Target, get_target)

__all__ = ["Target", "TARGETS", "get_target", "lower_to_iree_input", "compile"]


Source = Union[IRModule, "Function", str, "os.PathLike[str]"]




def _isolate(isolate: Optional[bool]) -> bool:
    return isolate_default() if isolate is None else isolate


def lower_to_iree_input(source: Source, params: Optional[Mapping[str, np.ndarray]] = None,
                        source_name: Optional[str] = None, isolate: Optional[bool] = None,
                        opt_level: Optional[int] = None) -> str:
    """Runs Relay's optimizer (at ``opt_level``, as ``compile``) and ``relay-to-iree-input``
    and returns the lowered MLIR text (with locations).

    ``source`` is an ``IRModule``, MLIR text, or a path to a ``.mlir`` file.
    With ``isolate`` (default; ``RELAY_MLIR_ISOLATE=0`` turns it off) the
    lowering runs in a child process, so a crash in C++ code becomes a
    ``CompileError`` instead of ending the interpreter.
    """
    return _lower_source(source, params, source_name, isolate, opt_level).text()


@dataclass
class Lowered:
    """A program lowered by ``relay-to-iree-input``: the file holding its text (which
    iree-compile reads) and what the compiler needs to know about it, as the process that
    lowered it reported it (``_worker.lowered_facts``)."""

    path: Path
    result_dtypes: Dict[str, List[str]]
    layout: Optional[ResultLayout]
    has_loop: bool
    host_branches: bool
    run_time_sizes: bool
    workdir: Optional[tempfile.TemporaryDirectory] = field(default=None, repr=False)
    parameters: Optional[Path] = None  # the archive of its large constants (weight_parameters)

    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")


def _lower(source: Source, params: Optional[Mapping[str, np.ndarray]] = None,
           source_name: Optional[str] = None, isolate: Optional[bool] = None,
           opt_level: Optional[int] = None
           ) -> Tuple[str, Dict[str, List[str]], Optional[ResultLayout]]:
    """``(lowered text, {function: [result dtype, ...]}, main's ResultLayout)`` (``_lower_source``)."""
    low = _lower_source(source, params, source_name, isolate, opt_level)
    return low.text(), low.result_dtypes, low.layout


def _lower_source(source: Source, params: Optional[Mapping[str, np.ndarray]] = None,
                  source_name: Optional[str] = None, isolate: Optional[bool] = None,
                  opt_level: Optional[int] = None, parameters: bool = False,
                  kernels: str = "none") -> Lowered:
    """``source`` lowered (see ``lower_to_iree_input``) after Relay's optimizer at ``opt_level``
    (``optimizer.context_for``: None is the current PassContext's, or 3 outside any); with
    ``parameters``, its large constants moved to a parameter archive (``weight_parameters``);
    with our own CPU ``kernels`` (``cpu_kernels.for_target``) where they apply.

    An ``IRModule`` is emitted and typed here (its typing rules run as it is
    built) and crosses to the worker as bytecode; MLIR text from a user (or
    a file) goes to the worker as it is, which parses it once and checks it.
    Either way the worker does not infer types the caller inferred."""
    from . import optimizer

    if isinstance(source, Function):
        source = IRModule.from_expr(source)  # as relay.build does with a bare function
    opt_ctx = optimizer.context_for(opt_level)
    if opt_ctx.instruments and isinstance(source, IRModule):
        source = optimizer.optimizer()(source)  # pass by pass, for the instruments to see
        passes = []
    else:
        passes = optimizer.pipeline_elements(opt_ctx)
    if not isinstance(source, (IRModule, str, os.PathLike)):
        raise TypeError("expected an IRModule, a relay Function, MLIR text or a path to a .mlir "
                        f"file, got {type(source).__name__}")
    if isinstance(source, IRModule):
        em = source.to_mlir(params=params, infer=True)  # types inferred (and checked) here
        layout, _ = main_layout(em.ctx, em.operation, inferred=True)
        return lower_parsed_module(em.ctx, em.operation, isolate, passes, typed=True, layout=layout,
                                   parameters=parameters, kernels=kernels)
    if params:
        raise ValueError("params can only be bound when compiling an IRModule")
    req = {"source_name": source_name or "<input>", "checks": True}
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        if not os.path.isfile(path):
            raise CompileError(f"cannot read '{path}'")
        req.update(input=path, source_name=path)
    else:
        req["text"] = source
    return _lower_request(req, passes, isolate, parameters=parameters, kernels=kernels)


def lower_parsed(ctx, op, isolate: Optional[bool] = None, passes: Sequence[str] = ()):
    """Lowers a parsed (or emitted) relay module: ``(text, {function: [result dtype, ...]})``,
    running the relay passes ``passes`` (pipeline elements: Relay's optimizer) first
    (``lower_parsed_module``)."""
    low = lower_parsed_module(ctx, op, isolate, passes)
    return low.text(), low.result_dtypes


def lower_parsed_module(ctx, op, isolate: Optional[bool] = None, passes: Sequence[str] = (),
                        typed: bool = False, layout: Optional[ResultLayout] = None,
                        parameters: bool = False, kernels: str = "none") -> Lowered:
    """Lowers a parsed (or emitted) relay module, ``typed`` if its types are inferred already.

    The public functions' result dtypes are recorded first (in their
    ``iree.reflection``, ``emit.annotate_result_dtypes``): lowering makes
    integers signless, and ``Executable`` gives results back with these dtypes.
    Tensor types too large to exist are refused (``emit.check_tensor_sizes``), and
    so are public functions taking more tensors than iree-compile handles in
    reasonable time (``emit.check_entry_tensors``): here, before the module
    crosses to the worker (whose bytecode reader would refuse a type whose element
    count overflows int64 before a check could name the op).
    """
    check_known_ops(ctx, op)
    check_entry_tensors(ctx, op)
    check_tensor_sizes(ctx, op)
    req = {"typed": typed, "source_name": "<input>"}
    if not _isolate(isolate):
        return _lower_request(req, passes, isolate, (ctx, op), layout, parameters=parameters,
                              kernels=kernels)
    with ctx:
        work = tempfile.TemporaryDirectory(prefix="relay-mlir-")
        req.update(input=os.path.join(work.name, "input.mlirbc"), bytecode=True)
        with open(req["input"], "wb") as f:
            op.write_bytecode(f)
    return _lower_request(req, passes, isolate, (ctx, op), layout, work, parameters, kernels)


def _lower_request(req: dict, passes: Sequence[str], isolate: Optional[bool], parsed=None,
                   layout: Optional[ResultLayout] = None, work=None, parameters: bool = False,
                   kernels: str = "none") -> Lowered:
    """Runs the lowering request ``req`` (``_worker.lower_module``) in the worker, or on the
    caller's ``parsed`` ``(ctx, op)`` in this process if isolation is off; the lowered text
    goes to a file in ``work`` (a new temporary directory if None), and with ``parameters``
    its large constants to the archive ``weights.irpa`` beside it."""

    work = work or tempfile.TemporaryDirectory(prefix="relay-mlir-")
    req.update(lowering=with_cpu_kernels(PIPELINE, kernels), passes=list(passes),
               what="lowering to IREE input", annotate=True,
               facts=True, output=os.path.join(work.name, "iree_input.mlir"))
    if parameters:
        req.update(parameters=os.path.join(work.name, "weights.irpa"),
                   parameter_min_bytes=weight_parameters.MIN_BYTES)
    if not _isolate(isolate):
        answer = lower_module(*parsed, req) if parsed is not None else run_request(req)
    else:
        reply = client().request(req)
        if reply.answer is None:
            raise _worker_crash(req, reply, parsed)
        answer = reply.answer
    if not answer["ok"]:
        raise failed(answer)
    if "layout" in answer:
        layout = decode_layout(answer["layout"])
    return Lowered(Path(req["output"]), answer.get("result_dtypes") or {}, layout, workdir=work,
                   parameters=Path(req["parameters"]) if answer.get("parameters") else None,
                   **answer["facts"])


def _crash_diagnostics(stderr: str, ctx, op, crashed_pass: Optional[str] = None) -> List[Diagnostic]:
    """Locates a C++ crash at the first op of the kind named in a stack dump, if any."""
    import re

    kinds = re.findall(r"mlir::relay::(\w+?)Op\b", stderr)
    # relay ops in program order (MLIR's walk is iterative, in C++)
    ops: list = []

    def record(o):
        if o.name.startswith("relay."):
            ops.append(o)
        return ir.WalkResult.ADVANCE

    from . import ir  # the MLIR bindings, already loaded: ctx is a relay_mlir.ir.Context
    with ctx:
        op.walk(record, ir.WalkOrder.PRE_ORDER)
    diags: List[Diagnostic] = []
    if kinds:
        want = kinds[0].lower()
        found = [o for o in ops
                 if o.name[len("relay."):].replace("nn.", "").replace("_", "").replace(".", "") == want]
        if found:
            with ctx:
                f, line, col = location_of(found[0].location)
            diags.append(Diagnostic("error", f"internal compiler error while lowering "
                                    f"'{found[0].name}' (the C++ conversion crashed)", f, line, col))
    if not diags:
        where = f"pass '{crashed_pass}'" if crashed_pass else "the relay-to-iree-input pipeline"
        kinds_seen: Dict[str, object] = {}
        for o in ops:
            if o.name not in ("relay.constant", "relay.yield"):
                kinds_seen.setdefault(o.name, o)
        with ctx:
            # a single kind of relay op: point at its first use
            f, line, col = location_of((next(iter(kinds_seen.values())) if len(kinds_seen) == 1
                                        else op).location)
        msg = f"internal compiler error: {where} crashed"
        if kinds_seen:
            msg += f" (relay ops in the module: {', '.join(sorted(kinds_seen))})"
        diags.append(Diagnostic("error", msg, f, line, col))
    return diags


def _worker_crash(req: dict, reply, parsed) -> CompileError:
    """The ``CompileError`` for a worker that died on the lowering request ``req``: while
    parsing user text (the parser's errors, from relay-mlir-opt), or in a pass (run again
    pass by pass, the last stage the worker reported naming the pass; ``_crash_diagnostics``
    locates the op from the stack dump)."""
    if reply.stage is None and "text" in req:
        return parser_crash(req["text"], req["source_name"], reply)
    if reply.stage is None and not req.get("bytecode"):
        with open(req["input"], "rb") as f:
            return parser_crash(f.read().decode("utf-8", errors="replace"), req["source_name"], reply)
    again = client().request(dict(req, pass_by_pass=True))
    stage = again.stage or ""
    crashed = stage[len("pass "):] if again.answer is None and stage.startswith("pass ") else None
    if parsed is None:  # user text the worker parsed without crashing: parsed here to locate
        ctx = new_context()
        keep = parse_module(ctx, req.get("text"), req["source_name"],
                            path=None if "text" in req else req["input"])
        parsed = (ctx, keep.operation)
    return CompileError(f"lowering to IREE input crashed ({how_it_died(reply)})",
                        _crash_diagnostics(again.stderr, *parsed, crashed))


@dataclass
class IreeOutput:
    """What iree-compile made of a lowered program: the module, the speed flags it was
    compiled with (the target's first set, a fallback set, or none), and why each set tried
    before them failed (the first error line each: a program that compiles only on a
    fallback runs slower, which bench/ reports instead of hiding)."""
    vmfb: bytes
    speed_flags: List[str]
    refused: List[str] = field(default_factory=list)


def _iree_compile(source: Union[str, Lowered], target: Target, extra_args: Sequence[str]) -> IreeOutput:
    """iree-compile of a lowered program (a ``Lowered``, or its text: then its facts are
    read by parsing it in the worker)."""
    from iree.compiler.tools.binaries import CompilerToolError

    low = source if isinstance(source, Lowered) else _lowered_from_text(source)
    args = list(target.flags) + (target.loop_flags if low.has_loop else []) + list(extra_args)
    if low.parameters is not None:  # its large constants, imported back into the program
        args += weight_parameters.import_flags(str(low.parameters))
    sized = target.run_time_size_flags if low.run_time_sizes else []
    run = _compile_via_vm if low.host_branches and not _names_phase(extra_args) else _compile
    refused: List[str] = []
    for speed in [target.speed_flags, *target.fallback_speed_flags]:
        if not speed:
            continue
        speed = [*speed, *sized]
        try:
            return IreeOutput(run(low.path, target, args + list(speed)), speed, refused)
        except CompilerToolError as e:  # retried without them below; that error is the one reported
            refused.append(_first_error_line(str(e)))
            _log.info("iree-compile refused %s: %s", " ".join(speed), refused[-1])
    try:
        return IreeOutput(run(low.path, target, args), [], refused)
    except CompilerToolError as e:
        raise _iree_compile_error(e, target) from None


def _first_error_line(message: str) -> str:
    """The first ``error:`` line of iree-compile's output (its target description cut)."""
    lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
    line = next((ln for ln in lines if "error:" in ln), None) or next(
        (ln for ln in lines if not ln.startswith(("Error invoking", "Error code", "Diagnostics"))), "")
    return line.split(" for backend #hal")[0][:300]


def _lowered_from_text(text: str) -> Lowered:
    """A ``Lowered`` for lowered MLIR ``text`` (e.g. the CLI's), its facts from the worker."""
    work = tempfile.TemporaryDirectory(prefix="relay-mlir-")
    path = Path(work.name) / "iree_input.mlir"
    path.write_text(text, encoding="utf-8")
    req = {"input": str(path), "facts": True}
    if _isolate(None):
        reply = client().request(req)
        if reply.answer is None:
            raise CompileError(f"reading the lowered program crashed ({how_it_died(reply)})")
        answer = reply.answer
    else:
        answer = run_request(req)
    if not answer["ok"]:
        raise failed(answer)
    return Lowered(path, {}, None, workdir=work, **answer["facts"])


def _iree_compile_error(e, target: Target) -> CompileError:
    """The ``CompileError`` for iree-compile's last failure ``e`` (a ``CompilerToolError``)."""
    import signal

    msg = str(e)
    diags = diagnostics_from_text(msg)
    m = re.search(r"^Error code: (-?\d+)", msg, re.M)
    code = int(m.group(1)) if m else None
    if code is not None and code < 0:  # killed by a signal: a crash inside IREE
        try:
            sig = signal.Signals(-code).name
        except ValueError:
            sig = f"signal {-code}"
        return CompileError(f"iree-compile crashed ({sig}) for target {target.name}: an internal "
                            "compiler error in IREE", diags)
    if not diags:
        lines = [ln for ln in msg.strip().splitlines()
                 if ln.strip() and not ln.startswith(("Error invoking", "Error code", "Diagnostics"))]
        diags = [Diagnostic("error", lines[0] if lines else "iree-compile failed")]
    return CompileError(f"iree-compile failed for target {target.name}", diags)


def _compile(src: Union[str, bytes, Path], target: Target, args: Sequence[str]) -> bytes:
    """One iree-compile run on MLIR text or bytecode, or on the file ``src``. Its output goes
    to a file read once (through a pipe, VGG-16's 553 MB came in 64 KiB chunks, joined:
    twice the module in memory)."""
    import iree.compiler as ic

    with tempfile.TemporaryDirectory(prefix="relay-mlir-") as work:
        out = os.path.join(work, "module.vmfb")
        kw = dict(target_backends=[target.backend], extra_args=list(args), output_file=out)
        if isinstance(src, Path):
            ic.compile_file(str(src), **kw)
        else:
            ic.compile_str(src, **kw)
        return Path(out).read_bytes()


def _compile_via_vm(src: Union[str, bytes, Path], target: Target, args: Sequence[str]) -> bytes:
    """iree-compile in two steps, fixing IREE's VM module in between: its
    branches must move one register width (vm_branch_widths)."""
    from .vm_branch_widths import fix_vm_module

    vm_module = _compile(src, target, [*args, "--compile-to=vm", "--emit-mlir-bytecode"])
    fixed, _, left = fix_vm_module(bytes(vm_module))
    if left:
        raise CompileError(f"iree-compile for target {target.name}: {left} block(s) of IREE's VM "
                           "module are entered both by branches and by other operations with "
                           "32- and 64-bit values mixed, which IREE 3.13 moves wrongly")
    return _compile(fixed, target, [*args, "--compile-from=vm"])


def _names_phase(extra_args: Sequence[str]) -> bool:
    return any(a.startswith(("--compile-to", "--compile-from", "--output-format"))
               for a in extra_args)


def default_driver(target: Target, low: Lowered) -> str:
    """The driver ``compile`` runs ``target``'s code on (see its ``driver``). Programs with
    run-time sizes stay on local-task: "auto" would time the first call's sizes only, and
    later calls may be of any size."""
    if target.driver != "local-task":
        return target.driver
    if low.has_loop:
        return "local-sync"
    return "local-task" if low.run_time_sizes else AUTO_DRIVER


def compile(source: Source, target: Union[str, Target] = "llvm-cpu",  # noqa: A001
            params: Optional[Mapping[str, np.ndarray]] = None,
            extra_args: Sequence[str] = (), source_name: Optional[str] = None,
            driver: Optional[str] = None, opt_level: Optional[int] = None) -> Executable:
    """Compiles a relay program for ``target`` and returns an ``Executable``.

    Args:
      source: an ``IRModule`` built with the Python API (or a bare
        ``Function``, compiled as ``main``), relay MLIR text, or a path
        (``pathlib.Path``) to a ``.mlir`` file.
      target: ``"llvm-cpu"`` (host CPU), ``"vulkan-spirv"``, ``"cuda"`` or
        ``"rocm"`` (gfx942).
      params: binds parameters of ``main`` by name to numpy constants.
      extra_args: more ``iree-compile`` flags.
      driver: the IREE driver to run on; by default the target's; for
        llvm-cpu ``"auto"`` (``Executable``: the first call measures
        ``local-task``, a worker per core, against ``local-sync``, the
        calling thread, and keeps the faster), except that a program with loops
        (recursion made iterative: Relay's loops, training loops) runs on
        ``local-sync``: its steps are small dispatches whose hand-off to the
        task pool costs more than they do (bench/LANGUAGE.md), and on IREE
        3.13's local-task such loops (a device-computed condition read by the
        host each iteration) fail intermittently, with "transient buffer has
        not been committed" or wrong values (docs/autodiff.md); a program
        with run-time sizes stays on ``local-task`` (``default_driver``).
      opt_level: Relay's optimizer runs first, as ``relay.build`` runs it
        (``relay_mlir.optimizer``: SimplifyInference, EliminateCommonSubexpr,
        CombineParallel*, FoldConstant, FoldScaleAxis, SimplifyExpr,
        CanonicalizeCast, CanonicalizeOps, FastMath, FoldConstant, each if
        the context enables it) under the current ``PassContext`` at this
        opt level; by default the context's inside ``with PassContext(...)``,
        else 3. Its ``required_pass``/``disabled_pass`` apply.

    Raises ``CompileError`` (with located diagnostics) on any failure.

    >>> import numpy as np, relay_mlir as relay
    >>> exe = relay.compile('''
    ... func.func @main(%x: tensor<3xf32>) -> !relay.incomplete {
    ...   %y = relay.exp %x : (tensor<3xf32>) -> !relay.incomplete
    ...   return %y : !relay.incomplete
    ... }''')                                                   # doctest: +SKIP
    >>> exe(np.zeros(3, "float32"))                             # doctest: +SKIP
    array([1., 1., 1.], dtype=float32)
    """
    source, target = place_external_functions(source, target)  # BYOC codegens' devices
    if isinstance(target, Mapping):  # several devices: relay_mlir.devices (docs/byoc.md)
        return compile_for_devices(source, target, params, extra_args, opt_level,
                                   lower=lower_to_iree_input)
    tgt = get_target(target)
    t0 = time.perf_counter()
    low = _lower_source(source, params=params, source_name=source_name, opt_level=opt_level,
                        parameters=True, kernels=cpu_kernels.for_target(tgt.name, extra_args))
    low = attach_external_code(source, low, tgt.name)  # BYOC codegens (docs/byoc.md)
    t1 = time.perf_counter()
    out = _iree_compile(low, tgt, extra_args)
    t2 = time.perf_counter()
    if driver is None:
        driver = default_driver(tgt, low)
    exe = Executable(bytes(out.vmfb), driver=driver, target=tgt.name, result_dtypes=low.result_dtypes,
                     result_layout=low.layout)
    exe.speed_flags, exe.speed_flags_refused = out.speed_flags, out.refused
    exe.compile_time_s = t2 - t0
    exe.lower_time_s = t1 - t0
    exe.iree_time_s = t2 - t1
    exe.iree_input = low.text()
    low.workdir.cleanup()
    return exe
