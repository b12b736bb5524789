#!/usr/bin/env python
"""Where the time goes: per-dispatch time of IREE modules (IREE's HAL profiler) on one thread
and on the bench's thread count, beside onnxruntime's per-operator time on the same model.

    python bench/models.py --models resnet18 --keep --workdir /tmp/bw     # leaves the .vmfb files
    python bench/profile_dispatches.py /tmp/bw/bench-resnet18-*/ [--runs 20] [--top 12] [--ort]

For every ``*.vmfb`` of the directory: ``iree-benchmark-module`` with
``--device_profiling_mode=host-execution`` on ``local-sync`` (one thread) and on
``local-task`` (``models.THREADS`` workers), then ``iree-profile statistics``. Per dispatch
function: calls per run, the fastest call's time times the calls (the least disturbed by
other load), its share of the one-thread total, the arithmetic rate its name implies
(``matmul_MxNxK``, ``batch_matmul_BxMxNxK``, ``conv_...``: 2 x the product of the sizes
= 2 x multiply-adds) and how much the threads speed it up. The wall time of unprofiled
runs of each driver minus the dispatch total is the time between dispatches (hand-offs,
barriers, the host). ``--ort``: onnxruntime's own profiler on model.onnx (all graph
optimizations, 1 and THREADS intra-op threads): per operator type, the medians of the
kernels over the runs. Inputs are the bench's (``bench/_protocol.make_inputs``).
"""
from __future__ import annotations

import argparse
import collections
import json
import math
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import _protocol as P  # noqa: E402

Profile = Dict[str, Tuple[float, float]]  # dispatch function -> (calls per run, ms per run)


def kind(name: str) -> str:
    n = name.split("_dispatch_", 1)[-1]
    n = re.sub(r"^\d+_", "", n)
    if name.startswith("_encoding"):
        return "copy/transpose/pack"
    for k, pats in (("conv", ("conv",)), ("matmul", ("matmul", "batch_matmul", "mmt4d", "contract", "gemm")),
                    ("pool/reduce", ("pooling", "reduction", "softmax", "argmax")),
                    ("copy/transpose/pack", ("memcpy", "transpose", "pack", "unpack", "pad", "copy", "slice",
                                             "broadcast", "gather", "scatter", "concat"))):
        if any(p in n for p in pats):
            return k
    return "elementwise/other"


def flops(name: str) -> Optional[float]:
    """2 x multiply-adds of a contraction or convolution dispatch, from the sizes in its name
    (our kernels' GEMMs are named ``relay_{f32,vnni}_gemm_MxNxK``; their convolutions name the
    input, not the output, and are left out)."""
    if re.match(r"relay_\w+?_(?:conv|dwconv)_", name):
        return None
    m = re.search(r"_(?:batch_matmul|matmul|conv|gemm)_((?:\d+x)+\d+)_", name)
    return 2.0 * math.prod(int(d) for d in m.group(1).split("x")) if m else None


def _device_args(driver: str, threads: int) -> List[str]:
    if driver == "local-sync":
        return ["--device=local-sync"]
    return ["--device=local-task", f"--task_topology_max_group_count={threads}"]


def _function(vmfb: Path, tool_dir: Path) -> str:
    names = subprocess.run([str(tool_dir / "iree-dump-module"), str(vmfb)], capture_output=True, text=True).stdout
    fns = re.findall(r"^\s*\[\s*\d+\]\s+(\w+)\(", names, re.M) if names else []
    return "main" if "main" in fns or not fns else [f for f in fns if not f.startswith("__")][0]


def profile(vmfb: Path, inputs: List[Path], runs: int, tool_dir: Path, driver: str = "local-task",
            threads: int = 2) -> Profile:
    """``{dispatch function: (calls per run, ms per run)}``: each call at the fastest call's time."""
    prof = Path(tempfile.mkdtemp()) / "p.ireeprof"
    cmd = [str(tool_dir / "iree-benchmark-module"), f"--module={vmfb}", f"--function={_function(vmfb, tool_dir)}",
           *_device_args(driver, threads), "--device_profiling_mode=host-execution",
           f"--device_profiling_output={prof}", f"--benchmark_min_time={runs}x"]
    cmd += [f"--input=@{p}" for p in inputs]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    stats = subprocess.run([str(tool_dir / "iree-profile"), "statistics", "--format=jsonl", str(prof)],
                           check=True, capture_output=True, text=True).stdout
    rows = [json.loads(line) for line in stats.splitlines()]
    calls = [r["sample_count"] for r in rows if r.get("event_name") == "execute"]
    n = calls[0] if calls else runs
    out: Profile = {}
    for row in rows:
        name = row.get("function_name")
        # one row per function (local-task also writes one per command-buffer site of it,
        # which would overwrite the function's total with one site's)
        if row.get("row_type") != "host_execution_function" or not name or not row.get("has_timing"):
            continue
        out[name] = (row["sample_count"] / n, row["minimum_duration_ns"] * row["sample_count"] / n / 1e6)
    return out


def wall_ms(vmfb: Path, inputs: List[Path], tool_dir: Path, driver: str, threads: int) -> float:
    """Median wall time of unprofiled calls (``iree-benchmark-module``, 5 repetitions)."""
    cmd = [str(tool_dir / "iree-benchmark-module"), f"--module={vmfb}", f"--function={_function(vmfb, tool_dir)}",
           *_device_args(driver, threads), "--benchmark_min_time=0.3", "--benchmark_repetitions=5",
           "--benchmark_format=json"] + [f"--input=@{p}" for p in inputs]
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    times = [b["real_time"] * {"ms": 1.0, "us": 1e-3, "ns": 1e-6}[b["time_unit"]]
             for b in out["benchmarks"] if b.get("run_type") == "iteration"]
    return float(np.median(times))


def ort_profile(onnx_path: Path, inputs: List[np.ndarray], threads: int, runs: int) -> Tuple[Dict[str, float], float]:
    """onnxruntime at its best: ``({operator type: ms per run}, wall ms)``, medians over ``runs``
    (the wall time from a session without the profiler)."""
    import time

    import onnxruntime as ort

    def session(profiling: bool):
        so = ort.SessionOptions()
        so.intra_op_num_threads, so.inter_op_num_threads = threads, 1
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        if profiling:
            so.enable_profiling = True
            so.profile_file_prefix = str(Path(tempfile.mkdtemp()) / "ort")
        sess = ort.InferenceSession(str(onnx_path), so, providers=["CPUExecutionProvider"])
        feed = {i.name: a for i, a in zip(sess.get_inputs(), inputs)}
        for _ in range(10):
            sess.run(None, feed)
        return sess, feed

    sess, feed = session(False)  # the wall time without the profiler's own cost
    walls = []
    for _ in range(runs):
        t = time.perf_counter()
        sess.run(None, feed)
        walls.append(time.perf_counter() - t)
    sess, feed = session(True)
    for _ in range(runs):
        sess.run(None, feed)
    events = json.loads(Path(sess.end_profiling()).read_text())
    per_node: Dict[str, List[float]] = collections.defaultdict(list)
    op_of: Dict[str, str] = {}
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            per_node[e["name"]].append(e["dur"] / 1e3)
            op_of[e["name"]] = e["args"].get("op_name", "?")
    by_op: Dict[str, float] = collections.Counter()
    for node, durs in per_node.items():
        by_op[op_of[node]] += float(np.median(durs[-runs:]))
    return dict(by_op), float(np.median(walls)) * 1e3


def report(name: str, system: str, sync: Profile, task: Profile, walls: Tuple[float, float],
           threads: int, top: int) -> List[str]:
    total_s = sum(ms for _, ms in sync.values())
    total_t = sum(ms for _, ms in task.values())
    lines = [f"### {name}, {system}: {sum(c for c, _ in sync.values()):g} dispatches per run", "",
             f"| | 1 thread | {threads} threads |", "|---|---:|---:|",
             f"| wall time (unprofiled, median) | {walls[0]:.3f} ms | {walls[1]:.3f} ms |",
             f"| dispatches (fastest call each) | {total_s:.3f} ms | {total_t:.3f} ms |",
             f"| between dispatches (wall - dispatches) | {walls[0] - total_s:.3f} ms | {walls[1] - total_t:.3f} ms |"]
    for k in sorted({kind(d) for d in sync}):
        s = sum(ms for d, (_, ms) in sync.items() if kind(d) == k)
        t = sum(ms for d, (_, ms) in task.items() if kind(d) == k)
        n = sum(c for d, (c, _) in sync.items() if kind(d) == k)
        lines.append(f"| {k} ({n:g}) | {s:.3f} ms | {t:.3f} ms |")
    lines += ["", f"| dispatch | calls | 1 thread ms | share | GFLOP/s | {threads} threads ms | speed-up |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for d, (c, ms) in sorted(sync.items(), key=lambda kv: -kv[1][1])[:top]:
        f = flops(d)
        rate = f"{f * c / (ms * 1e-3) / 1e9:.0f}" if f and ms else ""
        tms = task.get(d, (0.0, 0.0))[1]
        lines.append(f"| `{d.split('_dispatch_')[-1] if '_dispatch_' in d else d}` | {c:g} | {ms:.3f} | "
                     f"{ms / total_s:.0%} | {rate} | {tms:.3f} | {ms / tms if tms else 0:.2f}x |")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("workdir", help="a bench/models.py --keep directory (model.onnx, *.vmfb)")
    ap.add_argument("--model", help="zoo model name (default: from the directory name)")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--ort", action="store_true", help="also onnxruntime's per-operator profile")
    args = ap.parse_args(argv)
    wd = Path(args.workdir)
    name = args.model or re.sub(r"^bench-|-[^-]+$", "", wd.name)
    import models
    spec = models.models()[name]
    arrays = P.make_inputs(spec.inputs)
    ins = []
    for s, a in zip(spec.inputs, arrays):
        p = wd / f"in-{s['name']}.npy"
        np.save(p, a)
        ins.append(p)
    tool_dir = Path(sys.executable).parent
    threads = models.THREADS
    lines: List[str] = []
    result = {}
    for vmfb in sorted(wd.glob("*.vmfb")):
        sync = profile(vmfb, ins, args.runs, tool_dir, "local-sync", threads)
        task = profile(vmfb, ins, args.runs, tool_dir, "local-task", threads)
        walls = (wall_ms(vmfb, ins, tool_dir, "local-sync", threads),
                 wall_ms(vmfb, ins, tool_dir, "local-task", threads))
        result[vmfb.stem] = {"local-sync": sync, "local-task": task, "wall_ms": walls}
        lines += report(name, vmfb.stem, sync, task, walls, threads, args.top) + [""]
    if args.ort and (wd / "model.onnx").exists():
        one, wall1 = ort_profile(wd / "model.onnx", arrays, 1, args.runs * 5)
        many, wall2 = ort_profile(wd / "model.onnx", arrays, threads, args.runs * 5)
        result["onnxruntime"] = {"1": one, str(threads): many, "wall_ms": (wall1, wall2)}
        lines += [f"### {name}, onnxruntime (its profiler; kernel medians)", "",
                  f"| operator | 1 thread ms | {threads} threads ms |", "|---|---:|---:|",
                  f"| wall time (unprofiled, median) | {wall1:.3f} | {wall2:.3f} |",
                  f"| kernels | {sum(one.values()):.3f} | {sum(many.values()):.3f} |"]
        for op in sorted(one, key=lambda o: -one[o]):
            lines.append(f"| {op} | {one[op]:.3f} | {many.get(op, 0.0):.3f} |")
        lines.append("")
    print("\n".join(lines))
    (wd / "profile.json").write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
