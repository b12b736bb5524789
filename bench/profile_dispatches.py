#!/usr/bin/env python
"""Per-dispatch time of IREE modules (relay-mlir vs iree-import-onnx), from IREE's HAL profiler.

    python bench/models.py --models resnet18 --keep --workdir /tmp/bw     # leaves the .vmfb files
    python bench/profile_dispatches.py /tmp/bw/bench-resnet18-*/ [--runs 5] [--top 12]

For every ``*.vmfb`` of the directory: ``iree-benchmark-module`` (local-task,
2 workers) with ``--device_profiling_mode=host-execution``, then
``iree-profile statistics``; prints the dispatches grouped by kind (conv,
matmul, pooling/reduction, elementwise, copy/transpose) and the top
dispatches, so the two compilers' dispatch graphs can be compared. Inputs
are the bench's (``bench/_protocol.make_inputs`` of the model's specs).
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import _protocol as P  # noqa: E402



def kind(name: str) -> str:
    n = name.split("_dispatch_", 1)[-1]
    n = re.sub(r"^\d+_", "", n)
    for k, pats in (("conv", ("conv",)), ("matmul", ("matmul", "batch_matmul", "mmt4d", "contract")),
                    ("pool/reduce", ("pooling", "reduction", "softmax", "argmax")),
                    ("copy/transpose/pack", ("memcpy", "transpose", "pack", "unpack", "pad", "copy", "slice",
                                             "broadcast", "gather", "scatter", "concat"))):
        if any(p in n for p in pats):
            return k
    return "elementwise/other"


def profile(vmfb: Path, inputs: List[Path], runs: int, tool_dir: Path) -> Dict[str, Tuple[float, float]]:
    """``{dispatch name: (count per run, ms per run)}``: each dispatch's fastest time over the runs."""
    prof = Path(tempfile.mkdtemp()) / "p.ireeprof"
    cmd = [str(tool_dir / "iree-benchmark-module"), f"--module={vmfb}", "--device=local-task",
           "--task_topology_max_group_count=2", "--device_profiling_mode=host-execution",
           f"--device_profiling_output={prof}", f"--benchmark_min_time={runs}x"]
    cmd += [f"--input=@{p}" for p in inputs]
    names = subprocess.run([str(tool_dir / "iree-dump-module"), str(vmfb)], capture_output=True, text=True).stdout
    fns = re.findall(r"^\s*\[\s*\d+\]\s+(\w+)\(", names, re.M) if names else []
    fn = "main" if "main" in fns or not fns else [f for f in fns if not f.startswith("__")][0]
    subprocess.run(cmd + [f"--function={fn}"], check=True, capture_output=True, text=True)
    stats = subprocess.run([str(tool_dir / "iree-profile"), "statistics", "--format=jsonl", str(prof)],
                           check=True, capture_output=True, text=True).stdout
    out: Dict[str, Tuple[int, float]] = {}
    for line in stats.splitlines():
        row = json.loads(line)
        name = row.get("function_name")
        # one row per function (local-task also writes one per command-buffer site of it,
        # which would overwrite the function's total with one site's)
        if row.get("row_type") != "host_execution_function" or not name or not row.get("has_timing"):
            continue
        # the fastest of the runs: the least disturbed by other load on the machine
        out[name] = (row["sample_count"] / runs, row["minimum_duration_ns"] * row["sample_count"] / runs / 1e6)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("workdir", help="a bench/models.py --keep directory (model.onnx, *.vmfb)")
    ap.add_argument("--model", help="zoo model name (default: from the directory name)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args(argv)
    wd = Path(args.workdir)
    name = args.model or re.sub(r"^bench-|-[^-]+$", "", wd.name)
    import models
    spec = models.models()[name]
    ins = []
    for s, a in zip(spec.inputs, P.make_inputs(spec.inputs)):
        p = wd / f"in-{s['name']}.npy"
        np.save(p, a)
        ins.append(p)
    tool_dir = Path(sys.executable).parent
    result = {}
    for vmfb in sorted(wd.glob("*.vmfb")):
        result[vmfb.stem] = profile(vmfb, ins, args.runs, tool_dir)
    systems = list(result)
    print(f"## {name}: dispatch wall time per run (ms; fastest of {args.runs} runs per dispatch)\n")
    print("| kind | " + " | ".join(f"{s} (n)" for s in systems) + " |")
    print("|---|" + "---:|" * len(systems))
    kinds = sorted({kind(d) for r in result.values() for d in r})
    for k in kinds:
        cells = []
        for s in systems:
            ds = [(c, ms) for d, (c, ms) in result[s].items() if kind(d) == k]
            cells.append(f"{sum(ms for _, ms in ds):.2f} ({sum(c for c, _ in ds):g})")
        print(f"| {k} | " + " | ".join(cells) + " |")
    cells = [f"{sum(ms for _, ms in r.values()):.2f} ({sum(c for c, _ in r.values()):g})" for r in result.values()]
    print("| **total** | " + " | ".join(cells) + " |")
    for s in systems:
        print(f"\n### {s}: top {args.top} dispatches\n")
        for d, (c, ms) in sorted(result[s].items(), key=lambda kv: -kv[1][1])[:args.top]:
            print(f"- {ms:8.2f} ms  ×{c:g}  {d}")
    (wd / "profile.json").write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
