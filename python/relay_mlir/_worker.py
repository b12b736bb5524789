"""Runs an MLIR pass pipeline in a child process (``python -m relay_mlir._worker``).

``relay_mlir.compile`` lowers through this worker so that a crash or an
assertion in C++ code (the MLIR SDK is built with assertions) becomes a
``CompileError`` instead of killing the caller's interpreter.

The worker stays alive between requests (one per Python process, restarted
after a crash). Protocol: one JSON object per line on stdin
``{"text", "source_name", "pipeline", "what", "trace_passes", "annotate"}``
(``annotate``: record the public functions' result dtypes first,
``emit.annotate_result_dtypes``, and refuse absurdly large tensor types,
``emit.check_tensor_sizes``); one JSON object per line on stdout,
``{"ok": true, "text": ..., "result_dtypes": {...}}`` or
``{"ok": false, "message": ..., "diagnostics": [...]}``. A request with
``"parse_only": true`` only parses and verifies (``parse_in_child``: text from
users is parsed here first, so a parser abort cannot end the caller's
process).
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict
from typing import List

from .emit import annotate_result_dtypes, check_tensor_sizes, new_context, parse_module, run_passes
from .errors import CompileError, Diagnostic, diagnostics_from_text


def diag_to_json(d: Diagnostic) -> dict:
    return asdict(d)


def diag_from_json(o: dict) -> Diagnostic:
    notes = [diag_from_json(n) for n in o.get("notes", [])]
    return Diagnostic(o["severity"], o["message"], o.get("file"), o.get("line", 0), o.get("col", 0), notes)


def run_request(req: dict) -> dict:
    try:
        ctx = new_context()
        holder = parse_module(ctx, req["text"], req.get("source_name", "<input>"))
        if req.get("parse_only"):
            return {"ok": True}
        op = holder.operation
        dtypes = {}
        if req.get("annotate"):
            dtypes = annotate_result_dtypes(ctx, op)
            check_tensor_sizes(ctx, op)
        run_passes(ctx, op, req["pipeline"], req.get("what", "pass pipeline"),
                   trace_passes=bool(req.get("trace_passes")))
        with ctx:
            return {"ok": True, "text": op.get_asm(enable_debug_info=True), "result_dtypes": dtypes}
    except CompileError as e:
        return {"ok": False, "message": e.message, "diagnostics": [diag_to_json(d) for d in e.diagnostics]}


def main() -> int:
    """One JSON request per line on stdin, one JSON answer per line on stdout."""
    for line in sys.stdin:
        if not line.strip():
            continue
        out = run_request(json.loads(line))
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())


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

    def request(self, req: dict):
        """``(answer or None, returncode, stderr)``; None means the worker died."""
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._start()
            proc = self._proc
            start = os.fstat(self._stderr.fileno()).st_size  # this request's part of stderr
            try:
                proc.stdin.write(json.dumps(req) + "\n")
                proc.stdin.flush()
                line = proc.stdout.readline()
            except (BrokenPipeError, OSError):
                line = ""
            if line:
                try:
                    return json.loads(line), 0, ""
                except json.JSONDecodeError:
                    pass
            rc = proc.wait()
            self._stderr.seek(start)
            err = self._stderr.read()
            self._proc = None
            return None, rc, err

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


def _parser_errors(text: str, source_name: str) -> List[Diagnostic]:
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


def parse_in_child(text: str, source_name: str) -> None:
    """Parses and verifies ``text`` in the worker first: raises the parser's
    ``CompileError``, or a ``CompileError`` with the diagnostics it printed
    before dying if MLIR's parser aborted (a crash there would otherwise end
    the caller's interpreter; known hazards are refused before parsing,
    relay/Utils/ParserHazards.h)."""
    out, rc, err = client().request({"text": text, "source_name": source_name, "parse_only": True})
    if out is None:
        how = f"signal {-rc}" if rc < 0 else f"exit status {rc}"
        raise CompileError(f"MLIR's parser crashed on this text ({how}) after reporting the errors below",
                           _parser_errors(text, source_name))
    if not out["ok"]:
        raise CompileError(out["message"], [diag_from_json(d) for d in out["diagnostics"]])


def client() -> WorkerClient:
    """The process-wide worker client (closed at exit)."""
    global _CLIENT
    if _CLIENT is None:
        import atexit
        _CLIENT = WorkerClient()
        atexit.register(_CLIENT.close)
    return _CLIENT
