"""The parent <-> child protocol of bench/models.py (stdlib + numpy only: also runs in the TVM venv).

A *run child* loads one compiled model for one system, warms it up and then
answers JSON lines on stdin, one JSON line on stdout each:

* ``{"cmd": "run", "n": k}``          -> ``{"times": [k wall-clock seconds], "cpu": [k CPU seconds]}``
* ``{"cmd": "save", "path": p}``       -> outputs of one call saved to ``p`` (.npz) -> ``{"ok": true}``
* ``{"cmd": "quit"}``                  -> ``{"maxrss_mb": peak RSS of this process}``, then exit.

It first prints ``{"ready": true, "load_s": seconds to load/initialise}``.
Errors are answered as ``{"error": "..."}``. A *compile child* prints one
JSON line with its timings and ``peak_mb`` (``tree_peak_mb()``) and exits.

Peak RSS is the kernel's high-water mark of the process's own address space
(``VmHWM``), not ``ru_maxrss``: Linux carries ``ru_maxrss`` over ``execve``,
so a child started by a big parent would report the parent's size.
"""
from __future__ import annotations

import json
import resource
import sys
import time
import traceback
from typing import Callable, List, Sequence

import numpy as np


def maxrss_mb() -> float:
    """Peak resident set size of this process in MB (VmHWM; ru_maxrss where /proc is missing)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def tree_peak_mb() -> float:
    """The largest peak RSS among this process and the children it has waited for, in MB.

    A child's ``ru_maxrss`` may include this process's size when it was
    started (carried over ``execve``), which is at most our own peak: the
    maximum stays right.
    """
    return max(maxrss_mb(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0)


def send(obj: dict, out=None) -> None:
    out = out or sys.stdout
    out.write(json.dumps(obj) + "\n")
    out.flush()


def make_inputs(specs: Sequence[dict], seed: int = 0) -> List[np.ndarray]:
    """Deterministic inputs for ``[{"name", "shape", "dtype", "high"? | "fill"?}]``.

    N(0,1) floats, integers in [0, high), or every element ``fill``.
    """
    rng = np.random.default_rng(seed)
    out = []
    for s in specs:
        dt = np.dtype(s["dtype"])
        if "fill" in s:
            out.append(np.full(s["shape"], s["fill"], dt))
        elif dt.kind == "f":
            out.append(rng.standard_normal(s["shape"]).astype(dt))
        else:
            out.append(rng.integers(0, int(s.get("high", 2)), size=s["shape"]).astype(dt))
    return out


def serve(call: Callable[[], Sequence[np.ndarray]], load_s: float, warmup: int = 3) -> int:
    """Answers run/save/quit requests for ``call`` (which runs the model once and returns numpy outputs)."""
    # the protocol owns stdout; anything a runtime prints goes to stderr
    proto = sys.stdout
    sys.stdout = sys.stderr
    try:
        for _ in range(warmup):
            call()
    except Exception as e:  # a model that compiles but fails to run
        send({"error": f"warm-up failed: {type(e).__name__}: {e}"}, proto)
        return 1
    send({"ready": True, "load_s": load_s}, proto)
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            if req["cmd"] == "run":
                times, cpu = [], []
                for _ in range(int(req.get("n", 1))):
                    c, t = time.process_time(), time.perf_counter()
                    call()
                    times.append(time.perf_counter() - t)
                    cpu.append(time.process_time() - c)
                send({"times": times, "cpu": cpu}, proto)
            elif req["cmd"] == "save":
                outs = call()
                np.savez(req["path"], **{f"out{i}": np.asarray(o) for i, o in enumerate(outs)})
                send({"ok": True}, proto)
            elif req["cmd"] == "quit":
                send({"maxrss_mb": maxrss_mb()}, proto)
                return 0
            else:
                send({"error": f"unknown command {req['cmd']!r}"}, proto)
        except Exception as e:
            send({"error": f"{type(e).__name__}: {e}", "trace": traceback.format_exc()}, proto)
    return 0
