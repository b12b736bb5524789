"""``relay_mlir.compile``: relay MLIR (or a builder ``IRModule``) to an IREE ``Executable``.

The program is type-inferred and lowered by the ``relay-to-iree-input``
pipeline, printed as MLIR *text* (IREE rejects MLIR 22 bytecode) and handed
to ``iree.compiler.compile_str``.

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
import time
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ._worker import client, diag_from_json, isolate_default, parse_in_child
from .adt_value import ResultLayout, adt_defs_from_mlir
from .byoc.device_route import place_external_functions
from .byoc.external_code import attach_external_code
from .emit import (annotate_result_dtypes, check_entry_tensors, check_known_ops, check_tensor_sizes, location_of,
                   new_context, parse_module, run_passes)
from .errors import CompileError, Diagnostic, diagnostics_from_text
from .expr import Function
from .module import IRModule
from .runtime import Executable
from .ty import IncompleteType, RefType, TupleType, Type, TypeCall, from_mlir

__all__ = ["Target", "TARGETS", "get_target", "lower_to_iree_input", "compile"]


@dataclass(frozen=True)
class Target:
    """An IREE target: compiler backend, runtime driver and extra compiler flags."""

    name: str
    backend: str
    driver: str
    flags: List[str] = field(default_factory=list)
    #: Flags that only make the code faster. IREE 3.13 rejects some valid
    #: programs with them (data tiling fails on i1 tensors that meet a
    #: matmul, "linalg.pack op expected padding_value has 'i8' but got
    #: 'i1'"), so a failed compile is retried with `fallback_speed_flags`,
    #: then without any.
    speed_flags: List[str] = field(default_factory=list)
    #: Alternatives to `speed_flags`, tried in order when a compile with
    #: them fails.
    fallback_speed_flags: List[List[str]] = field(default_factory=list)
    #: Speed flags added for programs with run-time sizes (a `?` dim).
    run_time_size_flags: List[str] = field(default_factory=list)
    #: Flags for programs with loops (`_has_loop`).
    loop_flags: List[str] = field(default_factory=list)


# iree-compile demotes f64 to f32 by default, which would silently change a
# program's result dtype; targets with f64 support keep it.
_KEEP_F64 = ["--iree-input-demote-f64-to-f32=false"]

# Data tiling (packed matmul operands, weights packed once at compile time)
# is off by default in IREE 3.13; with it the matmuls we emit (dense,
# batch_matmul, im2col convolutions) run 1.6-3x faster on llvm-cpu
# (ResNet-18: 93 -> 60 ms, bench/RESULTS.md).
_DATA_TILING = ["--iree-dispatch-creation-data-tiling"]
# The same, started in global optimization: slightly slower on static
# programs, but it compiles the dynamic-shape attention that the
# dispatch-creation path rejects (a transposed, collapsed batch_matmul
# operand with a run-time batch: "'affine.delinearize_index' op no basis
# element may be statically non-positive"); on BERT with dynamic axes it
# halves the matmuls' time against no data tiling (bench/DYNAMIC.md).
_GLOBAL_DATA_TILING = ["--iree-global-opt-data-tiling"]
# IREE 3.13 picks a data-tiled matmul's workgroup tiles for its row count,
# taking a `?` row count as 1024 rows: at the default tile budget (256 KiB)
# the 64-row matmuls of BERT-tiny at batch 1, sequence 64 are one workgroup,
# one thread. Half the budget splits them: BERT-tiny with dynamic axes 0.72
# -> 0.61 ms at 1x64 on 2 threads; ResNet-18, the LSTM LM and large matmuls
# unchanged (bench/DYNAMIC.md, session 13).
_RUN_TIME_ROWS = ["--iree-llvmcpu-matmul-tile-bytes=131072"]
# IREE 3.13's reusable (indirect) command buffers race in a loop on Vulkan
# (lavapipe): a loop adding an input to its one carried tensor 1000 times
# gave 1002-1187 additions' worth, varying run to run
# (test_recursion.py::test_non_tail_recursion_on_vulkan). Programs with loops
# record their command buffers directly on the GPU targets.
_GPU_LOOPS = ["--iree-hal-indirect-command-buffers=false"]

TARGETS = {
    "llvm-cpu": Target("llvm-cpu", "llvm-cpu", "local-task",
                       ["--iree-llvmcpu-target-cpu=host", *_KEEP_F64], _DATA_TILING,
                       [_GLOBAL_DATA_TILING], _RUN_TIME_ROWS),
    "vulkan-spirv": Target("vulkan-spirv", "vulkan-spirv", "vulkan", [], loop_flags=_GPU_LOOPS),
    "cuda": Target("cuda", "cuda", "cuda", [*_KEEP_F64], loop_flags=_GPU_LOOPS),
    "rocm": Target("rocm", "rocm", "hip", ["--iree-rocm-target=gfx942", *_KEEP_F64],
                   loop_flags=_GPU_LOOPS),
}
_ALIASES = {"cpu": "llvm-cpu", "llvm": "llvm-cpu", "vulkan": "vulkan-spirv", "hip": "rocm"}


def get_target(name: Union[str, Target]) -> Target:
    """The ``Target`` called ``name`` (``llvm-cpu``, ``vulkan-spirv``, ``cuda``, ``rocm``).

    >>> get_target("vulkan").driver
    'vulkan'
    """
    if isinstance(name, Target):
        return name
    key = _ALIASES.get(name, name)
    if key not in TARGETS:
        raise ValueError(f"unknown target '{name}' (choose from {', '.join(TARGETS)})")
    return TARGETS[key]


Source = Union[IRModule, "Function", str, "os.PathLike[str]"]


PIPELINE = "builtin.module(relay-to-iree-input)"


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
    return _lower(source, params, source_name, isolate, opt_level)[0]


def _lower(source: Source, params: Optional[Mapping[str, np.ndarray]] = None,
           source_name: Optional[str] = None, isolate: Optional[bool] = None,
           opt_level: Optional[int] = None
           ) -> Tuple[str, Dict[str, List[str]], Optional[ResultLayout]]:
    """``(lowered text, {function: [result dtype, ...]}, main's ResultLayout)``
    (see ``lower_to_iree_input``), after Relay's optimizer at ``opt_level``
    (``optimizer.context_for``: None is the current PassContext's, or 3 outside any)."""
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
        ctx, op, keep = em.ctx, em.operation, em
    else:
        if params:
            raise ValueError("params can only be bound when compiling an IRModule")
        ctx = new_context()
        if isinstance(source, os.PathLike):
            path = os.fspath(source)
            if not os.path.isfile(path):
                raise CompileError(f"cannot read '{path}'")
            if _isolate(isolate):
                with open(path, "rb") as f:
                    parse_in_child(f.read().decode("utf-8", errors="replace"), path)
            keep = parse_module(ctx, None, path, path=path)
        else:
            if _isolate(isolate):
                parse_in_child(source, source_name or "<input>")
            keep = parse_module(ctx, source, source_name or "<input>")
        op = keep.operation
    layout = _main_layout(ctx, op, inferred=isinstance(source, IRModule))
    text, dtypes = lower_parsed(ctx, op, isolate, passes)
    return text, dtypes, layout


def lower_parsed(ctx, op, isolate: Optional[bool] = None, passes: Sequence[str] = ()):
    """Lowers a parsed (or emitted) relay module: ``(text, {function: [result dtype, ...]})``,
    running the relay passes ``passes`` (pipeline elements: Relay's optimizer) first.

    The public functions' result dtypes are recorded first (in their
    ``iree.reflection``, ``emit.annotate_result_dtypes``): lowering makes
    integers signless, and ``Executable`` gives results back with these dtypes.
    Tensor types too large to exist are refused (``emit.check_tensor_sizes``), and
    so are public functions taking more tensors than iree-compile handles in
    reasonable time (``emit.check_entry_tensors``).
    """
    if isolate is None:
        isolate = isolate_default()
    pipeline = _with_passes(PIPELINE, passes)
    check_known_ops(ctx, op)
    check_entry_tensors(ctx, op)
    if not isolate:
        dtypes = annotate_result_dtypes(ctx, op)
        check_tensor_sizes(ctx, op)
        run_passes(ctx, op, pipeline, "lowering to IREE input")
        with ctx:
            return op.get_asm(enable_debug_info=True), dtypes
    # here too: the worker's parser refuses a type whose element count
    # overflows int64 before its own size check could name the op
    check_tensor_sizes(ctx, op)
    with ctx:
        text = op.get_asm(enable_debug_info=True)
    return _lower_in_child(text, ctx, op, pipeline)


def _with_passes(pipeline: str, passes: Sequence[str]) -> str:
    """``pipeline`` (``builtin.module(...)``) with ``passes`` run first."""
    head = "builtin.module("
    if not passes:
        return pipeline
    assert pipeline.startswith(head), pipeline
    return head + ",".join(passes) + "," + pipeline[len(head):]


def _has(t: Type, kinds) -> bool:
    """True if ``t`` is or contains (in tuples, ADT arguments, references) one of ``kinds``."""
    if isinstance(t, kinds):
        return True
    parts = (t.fields if isinstance(t, TupleType) else t.args if isinstance(t, TypeCall)
             else [t.value] if isinstance(t, RefType) else [])
    return any(_has(p, kinds) for p in parts)


def _main_layout(ctx, op, inferred: bool) -> Optional[ResultLayout]:
    """``main``'s relay parameter and result types (to nest tuple results, give them their
    relay dtypes and decode ADT values and references).

    A ``main`` whose signature is left to inference in a module with ADTs or
    references is inferred here (in process, as ``IRModule.to_mlir`` does),
    so the executable knows which constructor each returned tag names.
    """
    from . import ir

    def signature():
        with ctx:
            for o in op.regions[0].blocks[0].operations:
                o = o.operation
                if o.name == "func.func" and ir.StringAttr(o.attributes["sym_name"]).value == "main":
                    ftype = ir.FunctionType(ir.TypeAttr(o.attributes["function_type"]).value)
                    res = [from_mlir(t) for t in ftype.results]
                    return ([from_mlir(t) for t in ftype.inputs],
                            res[0] if len(res) == 1 else TupleType(res))
        return None

    sig = signature()
    if sig is None:
        return None
    kinds = (TypeCall, RefType)
    if not any(_has(t, kinds) for t in [*sig[0], sig[1]]):
        if inferred or not any(_has(t, IncompleteType) for t in [*sig[0], sig[1]]):
            # tensors and tuples only: the layout nests tuple results and gives
            # each result its relay dtype
            return ResultLayout(sig[0], sig[1], {})
        found = []

        def look(o):
            if o.name in ("relay.adt", "relay.ref_new"):
                found.append(o)
                return ir.WalkResult.INTERRUPT
            return ir.WalkResult.ADVANCE

        with ctx:
            op.walk(look, ir.WalkOrder.PRE_ORDER)
        if not found:
            return None
        run_passes(ctx, op, "builtin.module(relay-infer-type)", "type inference")
        sig = signature()
        if not any(_has(t, kinds) for t in [*sig[0], sig[1]]):
            return None
    with ctx:
        adts = adt_defs_from_mlir(op)
    return ResultLayout(sig[0], sig[1], adts)


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


def _lower_in_child(text: str, ctx, op, pipeline: str):
    """``(lowered text, result dtypes)`` from the worker process."""
    import re

    req = {"text": text, "source_name": "<input>", "pipeline": pipeline, "what": "lowering to IREE input",
           "annotate": True}
    out, rc, _ = client().request(req)
    if out is None:
        how = f"signal {-rc}" if rc < 0 else f"exit status {rc}"
        # run again printing pass headers, to name the pass that crashed
        _, _, trace = client().request(dict(req, trace_passes=True))
        passes = re.findall(r"IR Dump Before (\S+)", trace)
        raise CompileError(f"lowering to IREE input crashed ({how})",
                           _crash_diagnostics(trace, ctx, op, passes[-1] if passes else None))
    if not out["ok"]:
        raise CompileError(out["message"], [diag_from_json(d) for d in out["diagnostics"]])
    return out["text"], out.get("result_dtypes") or {}


def _has_run_time_sizes(iree_input: str) -> bool:
    """Whether the lowered program has a tensor with a `?` dim."""
    return re.search(r"tensor<[0-9x]*\?x", iree_input) is not None


def _iree_compile(text: str, target: Target, extra_args: Sequence[str]) -> bytes:
    from iree.compiler.tools.binaries import CompilerToolError

    args = list(target.flags) + (target.loop_flags if _has_loop(text) else []) + list(extra_args)
    sized = target.run_time_size_flags if _has_run_time_sizes(text) else []
    run = _compile_via_vm if _branches_on_host(text) and not _names_phase(extra_args) else _compile
    for speed in [target.speed_flags, *target.fallback_speed_flags]:
        if not speed:
            continue
        speed = [*speed, *sized]
        try:
            return run(text, target, args + list(speed))
        except CompilerToolError:
            pass  # retried without them below; that error is the one reported
    try:
        return run(text, target, args)
    except CompilerToolError as e:
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
            raise CompileError(f"iree-compile crashed ({sig}) for target {target.name}: an internal "
                               "compiler error in IREE", diags) from None
        if not diags:
            lines = [ln for ln in msg.strip().splitlines()
                     if ln.strip() and not ln.startswith(("Error invoking", "Error code", "Diagnostics"))]
            diags = [Diagnostic("error", lines[0] if lines else "iree-compile failed")]
        raise CompileError(f"iree-compile failed for target {target.name}", diags) from None


def _compile(text, target: Target, args: Sequence[str]) -> bytes:
    import iree.compiler as ic

    return ic.compile_str(text, target_backends=[target.backend], extra_args=list(args))


def _compile_via_vm(text: str, target: Target, args: Sequence[str]) -> bytes:
    """iree-compile in two steps, fixing IREE's VM module in between: its
    branches must move one register width (vm_branch_widths)."""
    from .vm_branch_widths import fix_vm_module

    vm_module = _compile(text, target, [*args, "--compile-to=vm", "--emit-mlir-bytecode"])
    fixed, _, left = fix_vm_module(bytes(vm_module))
    if left:
        raise CompileError(f"iree-compile for target {target.name}: {left} block(s) of IREE's VM "
                           "module are entered both by branches and by other operations with "
                           "32- and 64-bit values mixed, which IREE 3.13 moves wrongly")
    return _compile(fixed, target, [*args, "--compile-from=vm"])


def _branches_on_host(iree_input: str) -> bool:
    """Whether the lowered program has control flow outside its kernels (the
    host code IREE's VM runs): loops, and ifs that join values."""
    return _has_loop(iree_input) or re.search(r"\bscf\.(if|for|index_switch)\b|\bcf\.br\b",
                                              iree_input) is not None


def _names_phase(extra_args: Sequence[str]) -> bool:
    return any(a.startswith(("--compile-to", "--compile-from", "--output-format"))
               for a in extra_args)


def _has_loop(iree_input: str) -> bool:
    """Whether the lowered program loops (relay-eliminate-recursion's loops are
    unstructured control flow, `cf.cond_br` back edges; `scf.while` otherwise)."""
    return "cf.cond_br" in iree_input or "scf.while" in iree_input


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
      driver: the IREE driver to run on; by default the target's
        (``local-task`` for llvm-cpu), except that a program with loops
        (recursion made iterative: Relay's loops, training loops) runs on
        ``local-sync``: its steps are small dispatches whose hand-off to the
        task pool costs more than they do (bench/LANGUAGE.md), and on IREE
        3.13's local-task such loops (a device-computed condition read by the
        host each iteration) fail intermittently, with "transient buffer has
        not been committed" or wrong values (docs/autodiff.md).
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
    ... func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
    ...   %y = relay.exp %x : (tensor<3xf32>) -> !relay.incomplete
    ...   return %y : !relay.incomplete
    ... }''')                                                   # doctest: +SKIP
    >>> exe(np.zeros(3, "float32"))                             # doctest: +SKIP
    array([1., 1., 1.], dtype=float32)
    """
    source, target = place_external_functions(source, target)  # BYOC codegens' devices
    if isinstance(target, Mapping):  # several devices: relay_mlir.devices (docs/byoc.md)
        from .devices.build import compile_for_devices
        return compile_for_devices(source, target, params, extra_args, opt_level)
    tgt = get_target(target)
    t0 = time.perf_counter()
    text, dtypes, layout = _lower(source, params=params, source_name=source_name,
                                  opt_level=opt_level)
    text = attach_external_code(source, text, tgt.name)  # BYOC codegens (docs/byoc.md)
    t1 = time.perf_counter()
    vmfb = _iree_compile(text, tgt, extra_args)
    t2 = time.perf_counter()
    if driver is None:
        driver = tgt.driver
        if driver == "local-task" and _has_loop(text):
            driver = "local-sync"
    exe = Executable(bytes(vmfb), driver=driver, target=tgt.name, result_dtypes=dtypes,
                     result_layout=layout)
    exe.compile_time_s = t2 - t0
    exe.lower_time_s = t1 - t0
    exe.iree_time_s = t2 - t1
    exe.iree_input = text
    return exe
