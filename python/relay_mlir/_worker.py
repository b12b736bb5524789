"""Runs relay-mlir's C++ on user input in a child process (``python -m relay_mlir._worker``).

``relay_mlir.compile`` lowers, and the Python passes (``FoldConstant``,
``gradient``, ...) run their pass pipelines, through this worker, so that a
crash or an assertion in C++ code (the MLIR SDK is built with assertions)
becomes a ``CompileError`` instead of killing the caller's interpreter.

The worker stays alive between requests (one per Python process, restarted
after a crash). Protocol: one JSON object per line on stdin, with the module
as ``"text"`` (MLIR text) or ``"input"`` (a file: MLIR text, or bytecode the
caller wrote, ``"bytecode": true``), and what to do (``lower_module``):

- ``checks``: the module is text from a user, which only this process parses:
  give back ``main``'s ``ResultLayout`` and refuse unknown ops, too many entry
  tensors and absurd tensor sizes (``emit.check_*``);
- ``typed``: the caller has inferred the types already (none are inferred here
  unless a pass asks for it);
- ``annotate``: record the public functions' result dtypes
  (``emit.annotate_result_dtypes``);
- ``lowering`` and ``passes``: run Relay's optimizer passes and
  ``relay-to-iree-input`` (``compiler.lowering_pipeline``), or ``pipeline``:
  run that pipeline;
- ``facts``: give back what the compiler needs to know about the lowered
  program (``lowered_facts``: loops, host branches, run-time sizes);
- ``parameters``: move the constants of at least ``parameter_min_bytes`` into a
  parameter archive at that path (``weight_parameters``; the answer's
  ``"parameters"`` says how many moved);
- ``output``: write the result text to that file (iree-compile reads it
  there), else return it as ``"text"``.

While it works, the worker writes ``{"stage": "parsed"}`` once the module is
parsed (and, with ``pass_by_pass``, ``{"stage": "pass <name>"}`` before each
pass: a request sent again after a crash, to name the pass); then one answer line: ``{"ok": true, "text"?, "result_dtypes"?,
"layout"?, "facts"?, "diagnostics": [warnings]}`` or ``{"ok": false,
"message": ..., "diagnostics": [...]}``. A request with ``"parse_only": true``
only parses and verifies (``parse_in_child``: text from users, parsed here
first, so a parser abort cannot end the caller's process).
"""
from __future__ import annotations

import base64
import json
import os
import pickle
import sys
from dataclasses import asdict, dataclass
from typing import Callable, Dict, List, Optional

from .emit import (_cast_type, _ir, annotate_result_dtypes, check_entry_tensors, check_known_ops, check_tensor_sizes,
                   new_context, parse_module, results_incomplete, run_passes)
from .errors import CompileError, Diagnostic, diagnostics_from_text
from .lowering_request import lowering_pipeline, main_layout
from .weight_parameters import move_large_constants


def diag_to_json(d: Diagnostic) -> dict:
    return asdict(d)


def diag_from_json(o: dict) -> Diagnostic:
    notes = [diag_from_json(n) for n in o.get("notes", [])]
    return Diagnostic(o["severity"], o["message"], o.get("file"), o.get("line", 0), o.get("col", 0), notes)


def encode_layout(layout) -> Optional[str]:
    """``main``'s ``ResultLayout`` (relay types, plain Python objects) for the JSON answer."""
    return None if layout is None else base64.b64encode(pickle.dumps(layout)).decode("ascii")


def decode_layout(data: Optional[str]):
    """The ``ResultLayout`` ``encode_layout`` wrote (by this package's own worker process)."""
    return None if data is None else pickle.loads(base64.b64decode(data))


# ---------------------------------------------------------------------------
# worker side
# ---------------------------------------------------------------------------
_LOOP_OPS = frozenset({"cf.cond_br", "scf.while"})
_HOST_BRANCH_OPS = _LOOP_OPS | {"scf.if", "scf.for", "scf.index_switch", "cf.br"}


def lowered_facts(ctx, module_op) -> Dict[str, bool]:
    """What ``compile`` needs to know about a lowered program, read from its ops and types:

    - ``has_loop``: it loops (relay-eliminate-recursion's loops are unstructured
      control flow, ``cf.cond_br`` back edges; ``scf.while`` otherwise);
    - ``host_branches``: it has control flow outside its kernels (loops,
      ``scf.if``/``scf.for``/``scf.index_switch``, ``cf.br``), which IREE's VM runs;
    - ``run_time_sizes``: a tensor has a ``?`` dim (an op's result, a block
      argument, or a function's signature).
    """
    ir = _ir()
    names: set = set()
    dynamic: Dict[object, bool] = {}
    found = [False]

    def has_dynamic(t) -> bool:
        if t not in dynamic:
            rt, tt = _cast_type(ir.RankedTensorType, t), _cast_type(ir.TupleType, t)
            dynamic[t] = (not rt.has_static_shape if rt is not None else
                          tt is not None and any(has_dynamic(tt.get_type(i)) for i in range(tt.num_types)))
        return dynamic[t]

    def types_of(op):
        yield from (r.type for r in op.results)
        for region in op.regions:
            for block in region.blocks:
                yield from (a.type for a in block.arguments)
        if op.name == "func.func":
            ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
            yield from ftype.inputs
            yield from ftype.results

    def visit(op):
        op = op.operation
        names.add(op.name)
        if not found[0] and any(has_dynamic(t) for t in types_of(op)):
            found[0] = True
        return ir.WalkResult.ADVANCE

    with ctx:
        module_op.walk(visit, ir.WalkOrder.PRE_ORDER)
    has_loop = bool(names & _LOOP_OPS)
    return {"has_loop": has_loop, "host_branches": bool(names & _HOST_BRANCH_OPS),
            "run_time_sizes": found[0]}


def _parse(ctx, req: dict):
    """The request's module: inline text, a text file (scanned for parser hazards, as every text
    from a user is), or bytecode the caller wrote from a module it built."""
    name = req.get("source_name", "<input>")
    if "input" not in req:
        return parse_module(ctx, req["text"], name)
    if not req.get("bytecode"):
        return parse_module(ctx, None, req["input"], path=req["input"])
    with open(req["input"], "rb") as f:
        data = f.read()
    try:
        return _ir().Module.parse(data, context=ctx)
    except Exception as e:  # our own bytecode: an error here is a bug, reported as one
        raise CompileError(f"could not read the caller's bytecode: {e}") from None


def _check_user_module(ctx, op, what: str):
    """Text from a user, which only this process parses: ``main``'s ``ResultLayout`` (taken
    before inference, as the user wrote ``main``), the checks ``emit.check_*``, and its types
    inferred once (the failure named as the lowering would name it, or as type inference if
    a function's result type is left to it); the tensor sizes are checked on the inferred
    types. Returns the layout."""

    layout, typed = main_layout(ctx, op, inferred=False)
    check_known_ops(ctx, op)
    check_entry_tensors(ctx, op)
    if not typed:
        run_passes(ctx, op, "builtin.module(relay-infer-type)",
                   "type inference" if results_incomplete(ctx, op) else what)
    check_tensor_sizes(ctx, op)
    return layout


def top_level_passes(pipeline: str) -> List[str]:
    """The elements of ``builtin.module(...)``, nested pipelines and options kept whole.

    >>> top_level_passes("builtin.module(a{x=1 y=2},func.func(b,c),d)")
    ['a{x=1 y=2}', 'func.func(b,c)', 'd']
    """
    inner = pipeline[pipeline.index("(") + 1:pipeline.rindex(")")]
    out, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        depth += (ch in "({") - (ch in ")}")
        if ch == "," and depth == 0:
            out.append(inner[start:i])
            start = i + 1
    return [p for p in [*out, inner[start:]] if p]


def _run_pass_by_pass(ctx, op, pipeline: str, what: str, progress: Callable[[str], None]) -> List[Diagnostic]:
    """``pipeline`` (expanded: registered pipelines become their passes) one pass at a time,
    each announced as stage ``pass <name>`` first: after a crash, the stage names the pass."""
    from .passmanager import PassManager  # the MLIR bindings (loaded by new_context)

    with ctx:
        expanded = str(PassManager.parse(pipeline, context=ctx))
    diags: List[Diagnostic] = []
    for p in top_level_passes(expanded):
        progress(f"pass {p.split('{')[0]}")
        diags += run_passes(ctx, op, f"builtin.module({p})", what)
    return diags


def lower_module(ctx, op, req: dict, progress: Callable[[str], None] = lambda stage: None) -> dict:
    """Runs ``req`` (see the module docstring) on the parsed module ``op``: the worker's work,
    also run in the caller when isolation is off (``RELAY_MLIR_ISOLATE=0``). With
    ``"pass_by_pass"`` (after a crash) each pass is announced to ``progress`` first."""
    out: dict = {"ok": True}
    typed = bool(req.get("typed"))
    if req.get("checks"):
        out["layout"] = encode_layout(_check_user_module(ctx, op, req.get("what", "pass pipeline")))
        typed = True
    if req.get("annotate"):
        if not typed and results_incomplete(ctx, op):
            run_passes(ctx, op, "builtin.module(relay-infer-type)", "type inference")
            typed = True
        out["result_dtypes"] = annotate_result_dtypes(ctx, op)
    pipeline = req.get("pipeline")
    if "lowering" in req:
        pipeline = lowering_pipeline(req["lowering"], req.get("passes", ()), typed)
    if pipeline:
        what = req.get("what", "pass pipeline")
        diags = (_run_pass_by_pass(ctx, op, pipeline, what, progress) if req.get("pass_by_pass")
                 else run_passes(ctx, op, pipeline, what))
        out["diagnostics"] = [diag_to_json(d) for d in diags]
    if req.get("facts"):
        out["facts"] = lowered_facts(ctx, op)
    if req.get("parameters"):
        out["parameters"] = move_large_constants(ctx, op, req["parameters"], req["parameter_min_bytes"])
    with ctx:
        if req.get("output"):
            with open(req["output"], "wb") as f:
                f.write(op.get_asm(enable_debug_info=True, binary=True))
        elif pipeline:
            out["text"] = op.get_asm(enable_debug_info=True)
    return out


def run_request(req: dict, progress: Callable[[str], None] = lambda stage: None) -> dict:
    """The answer to one request (``progress`` is told each stage reached)."""
    try:
        ctx = new_context()
        holder = _parse(ctx, req)
        progress("parsed")
        if req.get("parse_only"):
            return {"ok": True}
        return lower_module(ctx, holder.operation, req, progress)
    except CompileError as e:
        return {"ok": False, "message": e.message, "diagnostics": [diag_to_json(d) for d in e.diagnostics]}
    except Exception as e:  # a bug in relay-mlir's Python: reported, the worker lives on
        return {"ok": False, "message": f"internal error in relay-mlir's worker: {type(e).__name__}: {e}",
                "diagnostics": []}


def main() -> int:
    """One JSON request per line on stdin; stage lines and one JSON answer per line on stdout."""
    def say(obj: dict) -> None:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        if line.strip():
            say(run_request(json.loads(line), lambda stage: say({"stage": stage})))
    return 0


if __name__ == "__main__":
    sys.exit(main())


# ---------------------------------------------------------------------------
# caller side
# ---------------------------------------------------------------------------
@dataclass
class Reply:
    """A worker's answer (None if it died), its exit status, its stderr from this request, and
    the last stage it reported (None: it died before parsing the module)."""

    answer: Optional[dict]
    returncode: int
    stderr: str
    stage: Optional[str]


class WorkerClient:
    """Parent side: a lazily started, reusable worker process."""

    def __init__(self) -> None:
        import threading
        self._proc = None
        self._lock = threading.Lock()
        self._stderr = None

    def _start(self):
        import subprocess
        import tempfile

        pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ)
        env["PYTHONPATH"] = pkg_parent + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self._stderr = tempfile.TemporaryFile(mode="w+")
        self._proc = subprocess.Popen([sys.executable, "-m", "relay_mlir._worker"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=self._stderr, text=True, env=env)

    def _answer(self, proc):
        """``(answer or None, last stage)`` read from ``proc``'s stdout."""
        stage = None
        while True:
            try:
                line = proc.stdout.readline()
            except OSError:
                line = ""
            if not line:
                return None, stage
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                return None, stage
            if set(obj) == {"stage"}:
                stage = obj["stage"]
                continue
            return obj, stage

    def request(self, req: dict) -> Reply:
        """Sends ``req`` to the worker (started if needed) and waits for its answer."""
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._start()
            proc = self._proc
            start = os.fstat(self._stderr.fileno()).st_size  # this request's part of stderr
            try:
                proc.stdin.write(json.dumps(req) + "\n")
                proc.stdin.flush()
                answer, stage = self._answer(proc)
            except (BrokenPipeError, OSError):
                answer, stage = None, None
            if answer is not None:
                return Reply(answer, 0, "", stage)
            rc = proc.wait()
            self._stderr.seek(start)
            err = self._stderr.read()
            self._proc = None
            return Reply(None, rc, err, stage)

    def close(self) -> None:
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                try:
                    self._proc.stdin.close()
                    self._proc.wait(timeout=10)
                except Exception:
                    self._proc.kill()
            self._proc = None


_CLIENT: "WorkerClient | None" = None


def isolate_default() -> bool:
    """Whether to parse and lower in this worker (``RELAY_MLIR_ISOLATE``, on by default)."""
    return os.environ.get("RELAY_MLIR_ISOLATE", "1") not in ("0", "false", "no")


def how_it_died(reply: Reply) -> str:
    return f"signal {-reply.returncode}" if reply.returncode < 0 else f"exit status {reply.returncode}"


def failed(answer: dict) -> CompileError:
    """The ``CompileError`` a worker's ``{"ok": false, ...}`` answer reports."""
    return CompileError(answer["message"], [diag_from_json(d) for d in answer["diagnostics"]])


def parser_errors(text: str, source_name: str) -> List[Diagnostic]:
    """The errors MLIR's parser reports on ``text`` before it aborts (the
    bindings keep a parse's diagnostics until it returns, so they die with the
    worker): ``relay-mlir-opt`` prints them on stderr as they come."""
    import subprocess

    from ._tools import tool_path
    try:
        proc = subprocess.run([str(tool_path("relay-mlir-opt")), "-", "-o", "/dev/null"], input=text,
                              capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError):
        return []
    diags = diagnostics_from_text(proc.stderr)
    for d in diags:
        for x in [d, *d.notes]:
            if x.file == "<stdin>":
                x.file = source_name
    return diags


def parser_crash(text: str, source_name: str, reply: Reply) -> CompileError:
    """The ``CompileError`` for a worker that died parsing ``text``."""
    return CompileError(f"MLIR's parser crashed on this text ({how_it_died(reply)}) after reporting "
                        "the errors below", parser_errors(text, source_name))


def parse_in_child(text: str, source_name: str) -> None:
    """Parses and verifies ``text`` in the worker first: raises the parser's
    ``CompileError``, or a ``CompileError`` with the diagnostics it printed
    before dying if MLIR's parser aborted (a crash there would otherwise end
    the caller's interpreter; known hazards are refused before parsing,
    relay/Utils/ParserHazards.h)."""
    reply = client().request({"text": text, "source_name": source_name, "parse_only": True})
    if reply.answer is None:
        raise parser_crash(text, source_name, reply)
    if not reply.answer["ok"]:
        raise failed(reply.answer)


def run_pipeline(text: str, pipeline: str, what: str) -> "tuple[str, List[Diagnostic]]":
    """``(text after pipeline, its warnings)``: a pass pipeline run on relay MLIR text that
    relay-mlir printed, in the worker (in this process if isolation is off). A crash in
    the worker is a ``CompileError`` naming the pipeline."""
    req = {"text": text, "source_name": f"<{what}>", "pipeline": pipeline, "what": what}
    if isolate_default():
        reply = client().request(req)
        if reply.answer is None:
            raise CompileError(f"{what} crashed ({how_it_died(reply)}): an internal compiler error "
                               f"in the pass pipeline {pipeline}")
        answer = reply.answer
    else:
        answer = run_request(req)
    if not answer["ok"]:
        raise failed(answer)
    return answer["text"], [diag_from_json(d) for d in answer.get("diagnostics", [])]


def client() -> WorkerClient:
    """The process-wide worker client (closed at exit)."""
    global _CLIENT
    if _CLIENT is None:
        import atexit
        _CLIENT = WorkerClient()
        atexit.register(_CLIENT.close)
    return _CLIENT
