#!/usr/bin/env python
"""IREE flag variants of the zoo, timed by CPU time: usable on a shared machine.

    python bench/iree_flags.py --models resnet18,mobilenet_v2 --variants base,ukernels,pad-into-consumer

Each model of bench/models.py is lowered once by relay-mlir (Relay's optimizer at O3 and
``relay-to-iree-input``, as ``relay.compile``), then compiled by ``iree-compile`` with
relay-mlir's llvm-cpu flags plus each variant's flags, and timed by ``iree-benchmark-module`` on
``local-sync`` (one thread) in interleaved rounds. The figure compared is the CPU time per call
(the benchmark's CPU column, min over rounds), not wall time: one thread's CPU time hardly
moves when other jobs share the cores, so variants can be ranked while the machine is busy
(wall-clock tables stay bench/models.py's, on a quiet machine). It still counts cache and
memory-bandwidth contention, so compare ratios within one run only.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import _protocol as P  # noqa: E402

# variant name -> iree-compile flags added to relay-mlir's llvm-cpu flags
VARIANTS: Dict[str, List[str]] = {
    "base": [],
    "ukernels": ["--iree-llvmcpu-enable-ukernels=all"],
    "O3": ["--iree-opt-level=O3"],
    "aggressive-fusion": ["--iree-dispatch-creation-enable-aggressive-fusion"],
    "no-pad-into-consumer": ["--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops=false"],
    "pad-into-consumer": ["--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops"],
    "pad-into-producer": ["--iree-dispatch-creation-enable-fuse-padding-into-linalg-producer-ops"],
    "pad-handling": ["--iree-flow-enable-pad-handling"],
    "global-data-tiling": ["--iree-dispatch-creation-data-tiling=false", "--iree-global-opt-data-tiling"],
    "no-data-tiling": ["--iree-dispatch-creation-data-tiling=false"],
    "conv-data-tiling": ["--iree-dispatch-creation-experimental-set-data-tiling-ops=matmul",
                         "--iree-dispatch-creation-experimental-set-data-tiling-ops=convolution"],
    "tile-bytes-64k": ["--iree-llvmcpu-matmul-tile-bytes=65536"],
    "tile-bytes-512k": ["--iree-llvmcpu-matmul-tile-bytes=524288"],
    "iree-im2col": ["--iree-global-opt-use-im2col-for-convs"],
    "threads-2": ["--iree-llvmcpu-number-of-threads=2"],
    "threads-4": ["--iree-llvmcpu-number-of-threads=4"],
    "threads-16": ["--iree-llvmcpu-number-of-threads=16"],
    "distribution-16": ["--iree-llvmcpu-distribution-size=16"],
    "distribution-64": ["--iree-llvmcpu-distribution-size=64"],
    "iree-winograd": ["--iree-preprocessing-pass-pipeline=builtin.module(util.func("
                      "iree-linalg-ext-convert-conv2d-to-winograd{replace-all-convs=true}))"],
}


def _tool(name: str) -> str:
    return shutil.which(name) or str(Path(sys.executable).parent / name)


def bench_inputs(model: str, wd: Path) -> List[Path]:
    """The bench inputs of ``model`` (bench/models.py's) as .npy files in ``wd``."""
    import models as M
    files = []
    for i, a in enumerate(P.make_inputs(M.models()[model].inputs)):
        files.append(wd / f"{model}.in{i}.npy")
        np.save(files[-1], a)
    return files


def lower(model: str, wd: Path) -> List[Path]:
    """``model`` lowered to ``wd/<model>.mlir``; its bench inputs as .npy files."""
    import models as M
    from relay_mlir.compiler import lower_to_iree_input
    mod, params = M.models()[model].workload()
    (wd / f"{model}.mlir").write_text(lower_to_iree_input(mod, params=params, opt_level=3))
    return bench_inputs(model, wd)


def cpu_ms(vmfb: Path, inputs: List[Path], threads: int = 0) -> float:
    """Fastest time per call (ms) of 5 repetitions of ``main``: with ``threads`` = 0 the CPU
    time on local-sync (one thread); otherwise the wall time on local-task with that many
    workers (only meaningful on a quiet machine)."""
    device = (["--device=local-sync"] if not threads else
              ["--device=local-task", f"--task_topology_group_count={threads}"])
    out = subprocess.run([_tool("iree-benchmark-module"), f"--module={vmfb}", *device,
                          "--function=main", *[f"--input=@{f}" for f in inputs],
                          "--benchmark_repetitions=5", "--benchmark_min_time=0.3s"],
                         capture_output=True, text=True, check=True).stdout
    times = re.findall(r"^BM_main\S*real_time\s+([\d.]+) ms\s+([\d.]+) ms", out, re.M)
    return min(float(t[1] if not threads else t[0]) for t in times)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="resnet18,mobilenet_v2,vit_tiny,dqn")
    ap.add_argument("--variants", default="base,ukernels,O3,aggressive-fusion",
                    help="comma-separated, from: " + ", ".join(VARIANTS))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workdir", help="keep the lowered programs and .vmfb files here")
    ap.add_argument("--wall-threads", type=int, default=0,
                    help="time the wall clock on local-task with this many workers instead of "
                         "one thread's CPU time (quiet machine only)")
    a = ap.parse_args(argv)
    from relay_mlir.compiler import get_target
    tgt = get_target("llvm-cpu")
    base = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
            *tgt.flags, *tgt.speed_flags]
    variants = a.variants.split(",")
    if "base" not in variants:
        variants.insert(0, "base")
    wd = Path(a.workdir or tempfile.mkdtemp(prefix="iree-flags-"))
    wd.mkdir(parents=True, exist_ok=True)
    runs = {}
    for model in a.models.split(","):
        inputs = lower(model, wd)
        for v in variants:
            vmfb = wd / f"{model}.{v}.vmfb"
            r = subprocess.run([_tool("iree-compile"), str(wd / f"{model}.mlir"), "-o", str(vmfb),
                                *base, *VARIANTS[v]], capture_output=True, text=True)
            if r.returncode:
                print(f"{model} {v}: iree-compile failed: {r.stderr.strip().splitlines()[:1]}")
                continue
            runs[(model, v)] = (vmfb, inputs, [])
    for _ in range(a.rounds):  # interleaved: every variant once per round
        for vmfb, inputs, times in runs.values():
            times.append(cpu_ms(vmfb, inputs, a.wall_threads))
    what = (f"wall ms per call, local-task with {a.wall_threads} workers" if a.wall_threads
            else "CPU ms per call, local-sync")
    print(f"{what}, min of {a.rounds} rounds (x base)\n")
    print("| model | " + " | ".join(variants) + " |")
    print("|---|" + "---:|" * len(variants))
    for model in a.models.split(","):
        b = min(runs[(model, "base")][2]) if (model, "base") in runs else float("nan")
        cells = [f"{min(runs[(model, v)][2]):.3g} ({min(runs[(model, v)][2]) / b:.2f}x)"
                 if (model, v) in runs else "failed" for v in variants]
        print(f"| {model} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("TOPHUB_LOCATION", "NONE")
    sys.exit(main())
