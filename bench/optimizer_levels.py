#!/usr/bin/env python
"""Relay's optimizer on the zoo: opt levels O0-O3 and O3 minus each pass (bench/OPTIMIZER.md).

    python bench/optimizer_levels.py --models resnet18,mobilenet_v2,bert_tiny,dqn --md bench/OPTIMIZER.md

For each model of bench/models.py and each setting, the model is lowered by relay-mlir inside
``PassContext(opt_level=N, disabled_pass=[...])`` (as ``relay.compile`` runs relay.build's
sequence, relay_mlir/optimizer.py), compiled by ``iree-compile`` with relay-mlir's llvm-cpu
flags, and timed as bench/iree_flags.py times (one thread's CPU time per call on local-sync,
min over interleaved rounds: rankable on a shared machine; ratios within a row only). Settings
whose lowered program is the same text as another's share its executable and time: the table
says "= Ox" for them, i.e. the passes left out changed nothing IREE receives. Compile time is
the lowering (optimizer + relay-to-iree-input) plus iree-compile, in seconds.
"""
from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import iree_flags as F  # noqa: E402


def settings() -> List[Tuple[str, int, List[str]]]:
    """(label, opt level, disabled passes): O0-O3, then O3 without each optimization that runs
    at O3 (RemoveUnusedFunctions, qnn.Legalize and Legalize are not optimizations: left in)."""
    from relay_mlir.optimizer import optimizer
    out = [(f"O{n}", n, []) for n in range(4)]
    seen = {"RemoveUnusedFunctions", "qnn.Legalize", "Legalize"}
    for p in optimizer().passes:
        name = p.info.name
        if p.info.opt_level <= 3 and name not in seen:
            seen.add(name)
            out.append((f"O3 - {name}", 3, [name]))
    return out


def lower(model: str, level: int, disabled: List[str], wd: Path) -> Tuple[Path, float]:
    """The lowered program of ``model`` under the setting, in ``wd`` by content; lowering seconds."""
    import models as M
    import relay_mlir as relay
    from relay_mlir.compiler import lower_to_iree_input
    mod, params = M.models()[model].workload()
    t0 = time.perf_counter()
    with relay.transform.PassContext(opt_level=level, disabled_pass=disabled):
        text = lower_to_iree_input(mod, params=params, opt_level=level)
    seconds = time.perf_counter() - t0
    path = wd / f"{model}-{hashlib.sha1(text.encode()).hexdigest()[:12]}.mlir"
    path.write_text(text)
    return path, seconds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="resnet18,mobilenet_v2,bert_tiny,dqn")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--md", help="write the tables here")
    ap.add_argument("--workdir")
    a = ap.parse_args(argv)
    from relay_mlir.compiler import get_target
    tgt = get_target("llvm-cpu")
    flags = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
             *tgt.flags, *tgt.speed_flags]
    wd = Path(a.workdir or tempfile.mkdtemp(prefix="opt-levels-"))
    wd.mkdir(parents=True, exist_ok=True)
    models, sets = a.models.split(","), settings()
    prog: Dict[Tuple[str, str], Path] = {}
    compile_s: Dict[Tuple[str, str], float] = {}
    vmfbs: Dict[Path, Tuple[Path, float]] = {}
    for model in models:
        inputs = F.bench_inputs(model, wd)
        for label, level, disabled in sets:
            mlir, lower_s = lower(model, level, disabled, wd)
            if mlir not in vmfbs:
                t0 = time.perf_counter()
                vmfb = mlir.with_suffix(".vmfb")
                subprocess.run([F._tool("iree-compile"), str(mlir), "-o", str(vmfb), *flags], check=True,
                               capture_output=True)
                vmfbs[mlir] = (vmfb, time.perf_counter() - t0)
            prog[(model, label)] = mlir
            compile_s[(model, label)] = lower_s + vmfbs[mlir][1]
            print(f"{model} {label}: {mlir.name}", flush=True)
        for mlir in {prog[(model, s[0])] for s in sets}:
            vmfbs[mlir] = (vmfbs[mlir][0], vmfbs[mlir][1], inputs, [])
    timed = [v for v in vmfbs.values() if len(v) == 4]
    for _ in range(a.rounds):
        for vmfb, _, inputs, times in timed:
            times.append(F.cpu_ms(vmfb, inputs))
    lines = _tables(models, sets, prog, compile_s, vmfbs)
    print("\n".join(lines))
    if a.md:
        Path(a.md).write_text("\n".join(lines) + "\n")
    return 0


def _tables(models, sets, prog, compile_s, vmfbs) -> List[str]:
    labels = [s[0] for s in sets]
    head = ["| model | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels)]
    run, comp = list(head), list(head)
    for model in models:
        o3 = min(vmfbs[prog[(model, "O3")]][3])
        first = {}
        cells = []
        for label in labels:
            mlir = prog[(model, label)]
            t = min(vmfbs[mlir][3])
            same = first.setdefault(mlir, label)
            cells.append(f"{t:.3g} ({t / o3:.2f}x)" + ("" if same == label else f" = {same}"))
        run.append(f"| {model} | " + " | ".join(cells) + " |")
        comp.append(f"| {model} | " + " | ".join(f"{compile_s[(model, lb)]:.1f}" for lb in labels) + " |")
    return ["### CPU ms per call (one thread, local-sync; x O3)", "", *run, "",
            "### Compile s (lowering incl. the optimizer + iree-compile)", "", *comp]


if __name__ == "__main__":
    sys.exit(main())
