#!/usr/bin/env python
"""Dynamic axes vs static: one model exported twice, run at the same size.

Issue 12's speed question: what does compiling a model once for every batch
size / sequence length cost at a size a static compile would have fixed?
For the benchmark's BERT-style encoder, LSTM language model and ResNet-18
at the benchmark's sizes (bench/models.py: ``--configs bench``) and for the
zoo's CI-small configurations of the same three (``test/python/models/
zoo_cases.py``: ``--configs small``), the ``torch.nn`` twin with the zoo's
seeded weights is exported by ``torch.onnx.export`` twice, with and without
``dynamic_axes``, both are imported with ``relay_mlir.frontend.from_onnx``
and compiled for llvm-cpu, and both run on the same inputs (the static
export's size). Outputs of the two are compared first (they must agree to
1e-5 relative). Timed repetitions are interleaved round-robin (round r: a
burst of static runs, then of dynamic runs) so that load on a shared machine
hits both alike. This is a benchmark, not a test: nothing asserts timings.

    python bench/dynamic.py [--rounds 10] [--budget 0.3] [--configs bench,small]
                            [--models bert_tiny,lstm,resnet18] [--md bench/DYNAMIC.md]
"""
from __future__ import annotations

import argparse
import datetime as _dt
import io
import platform
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "test" / "python" / "models"))
sys.path.insert(0, str(HERE))

import onnx  # noqa: E402
import torch  # noqa: E402

import relay_mlir as relay  # noqa: E402
from relay_mlir.frontend import from_onnx  # noqa: E402
from relay_mlir.runtime import Executable  # noqa: E402
from zoo_cases import cases  # noqa: E402


def _export(module, args, names, outs, dynamic_axes):
    buf = io.BytesIO()
    module.eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, tuple(torch.from_numpy(a) for a in args), buf, dynamo=False,
                          opset_version=17, input_names=list(names), output_names=list(outs),
                          dynamic_axes=dynamic_axes)
    return onnx.load_from_string(buf.getvalue())


def _bert_inputs(rng, b, s):
    ids = rng.integers(0, 100, size=(b, s)).astype("int64")
    types = (np.arange(s)[None, :] >= s // 2).astype("int64").repeat(b, 0)
    return [ids, types, np.ones((b, s), "int64")]


def _axes(name, input_names, output_names):
    """The dynamic axes each model is exported with: batch and sequence for the sequence
    models, batch and image size for CNNs."""
    if name.startswith("resnet"):
        return {input_names[0]: {0: "batch", 2: "h", 3: "w"}, output_names[0]: {0: "batch"}}
    dyn = {n: {0: "batch", 1: "seq"} for n in input_names}
    if name.startswith("bert"):
        dyn.update({output_names[0]: {0: "batch", 1: "seq"}, output_names[1]: {0: "batch"}})
    else:
        dyn.update({n: {0: "batch", 1: "seq"} for n in output_names})
    return dyn


def _models(config, only=None):
    """(name, size label, twin, input names, output names, inputs, dynamic axes) per model:
    the benchmark's models at its sizes (bench/models.py, ``config="bench"``) or the zoo's
    CI-small configurations (``config="small"``)."""
    rng = np.random.default_rng(0)
    out = []
    if config == "bench":
        import _protocol as P
        import models as M
        table = M.models()
        for name in ("bert_tiny", "lstm", "resnet18"):
            if only and name not in only:
                continue
            m = table[name]
            _, params = m.workload()
            names = [s["name"] for s in m.inputs]
            inputs = P.make_inputs(m.inputs)
            size = "x".join(str(d) for d in m.inputs[0]["shape"])
            out.append((name, size, m.twin(params), names, m.outputs, inputs,
                        _axes(name, names, m.outputs)))
        return out
    from relay_mlir.models import torch_models
    zoo = cases()
    small = [("bert_tiny", "batch 1, seq 16", _bert_inputs(rng, 1, 16)),
             ("lstm", "batch 1, seq 16", [rng.integers(0, 50, size=(1, 16)).astype("int64")]),
             ("resnet18", "1x3x32x32", [rng.standard_normal((1, 3, 32, 32)).astype("float32")])]
    for name, size, inputs in small:
        if only and name not in only:
            continue
        case = zoo[name]
        _, params = case.workload()
        twin = case.twin()
        torch_models.load_params(twin, params)
        out.append((name + " (CI-small)", size, twin, case.input_names, case.output_names, inputs,
                    _axes(name, case.input_names, case.output_names)))
    return out


def _bursts(exe, inputs, budget):
    """Runs per burst so that one burst takes about `budget` seconds."""
    t = time.perf_counter()
    exe(*inputs)
    once = max(time.perf_counter() - t, 1e-6)
    return max(1, min(200, int(budget / once)))


def run(rounds: int, budget: float, configs, only=None):
    rows = []
    for config in configs:
        for name, size, twin, in_names, out_names, inputs, dyn in _models(config, only):
            exes = {}
            for kind, axes in (("static", None), ("dynamic", dyn)):
                model = _export(twin, inputs, in_names, out_names, axes)
                t = time.perf_counter()
                exes[kind] = relay.compile(from_onnx(model), target="llvm-cpu")
                print(f"{name} {kind}: compiled in {time.perf_counter() - t:.1f} s", flush=True)
            outs = {}
            for k, e in exes.items():
                r = e(*inputs)
                outs[k] = [np.asarray(o) for o in (r if isinstance(r, (list, tuple)) else [r])]
            for a, b in zip(outs["static"], outs["dynamic"]):
                np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-5 * float(np.abs(a).max() or 1))
            # each compile on each CPU driver it may use (a program with loops: the one
            # compile() picks; local-task is unsafe for them, see compile()), the faster kept
            runs = {}
            for kind, e in exes.items():
                drivers = [e.driver] if e.driver == "local-sync" and kind == "dynamic" \
                    else ["local-task", "local-sync"]
                for d in drivers:
                    runs[(kind, d)] = Executable(e.vmfb, driver=d, target=e.target,
                                                 result_dtypes=e.result_dtypes,
                                                 result_layout=e.result_layout)
            n = {k: _bursts(e, inputs, budget) for k, e in runs.items()}
            times = {k: [] for k in runs}
            for _ in range(rounds):
                for key, exe in runs.items():
                    for _ in range(n[key]):
                        t = time.perf_counter()
                        exe(*inputs)
                        times[key].append(time.perf_counter() - t)
            med, p10, drivers = {}, {}, {}
            for kind in exes:
                best = min((k for k in runs if k[0] == kind), key=lambda k: statistics.median(times[k]))
                med[kind] = statistics.median(times[best]) * 1e3
                p10[kind] = float(np.percentile(times[best], 10)) * 1e3
                drivers[kind] = best[1]
            rows.append((name, size, med, p10, drivers))
            print(f"{name}: static {med['static']:.3f} ms, dynamic {med['dynamic']:.3f} ms "
                  f"({med['dynamic'] / med['static']:.2f}x)", flush=True)
    return rows


def render(rows, rounds: int) -> str:
    import iree.runtime  # noqa: F401  (version below)
    from importlib.metadata import version
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    try:
        import os
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    lines = [
        "# Dynamic axes vs static compile (same model, same size)",
        "",
        f"Generated by `python bench/dynamic.py` on {now}; {platform.processor() or platform.machine()}, "
        f"{__import__('os').cpu_count()} cores; iree {version('iree-base-runtime')}, torch {torch.__version__}, "
        f"onnx {onnx.__version__}. {rounds} interleaved rounds; 1-min load average at the end: {load:.1f}.",
        "",
        "Each model's twin exported twice (`dynamic_axes` or not), imported by `from_onnx`,",
        "compiled for llvm-cpu and run at the static export's size; each compile is timed on both",
        "CPU drivers (local-task with 2 threads, local-sync) and the faster counts, except that a",
        "program with loops runs on local-sync only (what `compile()` picks: local-task is unsafe",
        "for such loops in IREE 3.13); outputs agree to 1e-5 relative before timing.",
        "",
        "| model | size | static median ms | dynamic median ms | dynamic / static | static p10 | dynamic p10 "
        "| faster driver (static, dynamic) |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for name, size, med, p10, drivers in rows:
        lines.append(f"| {name} | {size} | {med['static']:.3f} | {med['dynamic']:.3f} | "
                     f"**{med['dynamic'] / med['static']:.2f}x** | {p10['static']:.3f} | {p10['dynamic']:.3f} "
                     f"| {drivers['static']}, {drivers['dynamic']} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--budget", type=float, default=0.3, help="seconds per burst of one variant")
    ap.add_argument("--md", default=str(HERE / "DYNAMIC.md"))
    ap.add_argument("--configs", default="bench,small",
                    help="bench (bench/models.py's models and sizes), small (the zoo's CI-small twins)")
    ap.add_argument("--models", default="", help="comma-separated subset (default: all)")
    args = ap.parse_args(argv)
    rows = run(args.rounds, args.budget, args.configs.split(","),
               [m for m in args.models.split(",") if m])
    table = render(rows, args.rounds)
    md = Path(args.md)
    notes = ""
    if md.exists():  # keep the hand-written analysis below the generated table
        text = md.read_text()
        marker = "<!-- analysis -->"
        if marker in text:
            notes = "\n" + text[text.index(marker):]
    md.write_text(table + notes)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
