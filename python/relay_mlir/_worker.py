"""Runs an MLIR pass pipeline in a child process (``python -m relay_mlir._worker``).

``relay_mlir.compile`` lowers through this worker so that a crash or an
assertion in C++ code (the MLIR SDK is built with assertions) becomes a
``CompileError`` instead of killing the caller's interpreter.

Protocol: one JSON object on stdin ``{"text", "source_name", "pipeline",
"what"}``; one JSON object on stdout, ``{"ok": true, "text": ...}`` or
``{"ok": false, "message": ..., "diagnostics": [...]}``.
"""
from __future__ import annotations

import json
import sys
from dataclasses import asdict
from typing import List

from .errors import CompileError, Diagnostic


def diag_to_json(d: Diagnostic) -> dict:
    return asdict(d)


def diag_from_json(o: dict) -> Diagnostic:
    notes = [diag_from_json(n) for n in o.get("notes", [])]
    return Diagnostic(o["severity"], o["message"], o.get("file"), o.get("line", 0), o.get("col", 0), notes)


def run_request(req: dict) -> dict:
    from .emit import new_context, parse_module, run_passes

    try:
        ctx = new_context()
        holder = parse_module(ctx, req["text"], req.get("source_name", "<input>"))
        op = holder.operation
        run_passes(ctx, op, req["pipeline"], req.get("what", "pass pipeline"),
                   trace_passes=bool(req.get("trace_passes")))
        with ctx:
            return {"ok": True, "text": op.get_asm(enable_debug_info=True)}
    except CompileError as e:
        return {"ok": False, "message": e.message, "diagnostics": [diag_to_json(d) for d in e.diagnostics]}


def main() -> int:
    req = json.loads(sys.stdin.read())
    out = run_request(req)
    sys.stdout.write(json.dumps(out))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
