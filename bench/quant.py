#!/usr/bin/env python
"""int8 benchmark: zoo models quantized by onnxruntime, relay-mlir vs onnxruntime and TVM 0.19.

For each zoo model (bench/models.py's export of its torch twin to ONNX) and each
activation type, ``onnxruntime.quantization.quantize_static`` makes a QDQ model
(per-channel int8 weights; calibration on seeded random inputs):

============ =====================================================================
variant      activations x weights
============ =====================================================================
u8s8         uint8 x int8: onnxruntime's best on a CPU with AVX-512 VNNI (vpdpbusd)
s8s8         int8 x int8
============ =====================================================================

Systems (batch 1, 2 threads, the protocol and child processes of bench/models.py;
timed repetitions interleaved round-robin across systems):

================= ==================================================================
relay-mlir int8   quantized ONNX -> relay_mlir.frontend.from_onnx -> relay.compile
relay-mlir f32    the float ONNX model, same path
onnxruntime int8  quantized ONNX, InferenceSession (ORT_ENABLE_ALL fuses the QDQ groups)
onnxruntime f32   the float ONNX model
tvm int8          quantized ONNX -> TVM 0.19 from_onnx -> relay.build (if it imports it)
================= ==================================================================

The f32 systems are timed with the u8s8 row only (their model does not change).
Accuracy: on ``--accuracy-inputs`` seeded inputs, the max |Δ| of output 0 and the
share of rows whose arg-max agrees, each against onnxruntime int8 of the same variant.

    python bench/quant.py [--models resnet18,mobilenet_v2,bert_tiny] [--variants u8s8,s8s8]
                          [--rounds 12] [--md bench/QUANT.md] [--keep --workdir DIR]

Needs (bench only): onnx, onnxruntime, torch; TVM 0.19 in a side venv (``--tvm-python``).
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import _protocol as P  # noqa: E402
import models as M  # noqa: E402

MODELS = ["resnet18", "mobilenet_v2", "bert_tiny"]
VARIANTS = {"u8s8": "QUInt8", "s8s8": "QInt8"}  # activation QuantType; weights are QInt8
# system -> (bench/models.py system that runs it, which model file: "int8" or "f32")
SYSTEMS = {"relay-mlir int8": ("relay-mlir/onnx", "int8"), "relay-mlir f32": ("relay-mlir/onnx", "f32"),
           "onnxruntime int8": ("onnxruntime", "int8"), "onnxruntime f32": ("onnxruntime", "f32"),
           "tvm int8": ("tvm", "int8")}
CALIBRATION_BATCHES = 8


# ---------------------------------------------------------------------------
# children
# ---------------------------------------------------------------------------
def child_quantize(model: M.Model, wd: Path, variant: str) -> dict:
    """``wd``/f32/model.onnx quantized (QDQ, per-channel) as ``variant`` into ``wd``/``variant``/model.onnx."""
    f32, out = wd / "f32", wd / variant
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.batches = iter([{s["name"]: a for s, a in zip(model.inputs, P.make_inputs(model.inputs, seed=1000 + i))}
                                 for i in range(CALIBRATION_BATCHES)])

        def get_next(self):
            return next(self.batches, None)

    quantize_static(str(f32 / "model.onnx"), str(out / "model.onnx"), Reader(), quant_format=QuantFormat.QDQ,
                    per_channel=True, activation_type=getattr(QuantType, VARIANTS[variant]),
                    weight_type=QuantType.QInt8)
    return {"onnx_bytes": (out / "model.onnx").stat().st_size}


def child_accuracy(model: M.Model, int8: Path, n: int) -> dict:
    """relay-mlir int8 vs onnxruntime int8 on ``n`` seeded inputs: max |Δ| and arg-max agreement."""
    import iree.runtime as rt
    import onnxruntime as ort

    ctx = rt.SystemContext(config=rt.Config("local-task"))
    vm = rt.VmModule.mmap(ctx.instance, str(int8 / "relay-mlir-onnx.vmfb"))
    ctx.add_vm_module(vm)
    fn = ctx.modules[vm.name]["main"]
    sess = ort.InferenceSession(str(int8 / "model.onnx"), providers=["CPUExecutionProvider"])
    diff, agree, rows = 0.0, 0, 0
    for i in range(n):
        xs = P.make_inputs(model.inputs, seed=i)
        ours = fn(*xs)
        ours = np.asarray((ours[0] if isinstance(ours, (tuple, list)) else ours).to_host(), np.float64)
        ref = np.asarray(sess.run(None, {s.name: a for s, a in zip(sess.get_inputs(), xs)})[0], np.float64)
        diff = max(diff, float(np.max(np.abs(ours - ref))))
        a, b = ours.reshape(-1, ours.shape[-1]), ref.reshape(-1, ref.shape[-1])
        agree += int(np.sum(a.argmax(-1) == b.argmax(-1)))
        rows += a.shape[0]
    return {"max_abs_diff": diff, "top1_agree": agree / max(rows, 1), "rows": rows}


def _child(argv: List[str]) -> int:
    mode, name, wd, arg = argv[0][len("--child-"):], argv[1], Path(argv[2]), argv[3]
    model = M.models()[name]
    try:
        ans = child_quantize(model, wd, arg) if mode == "quantize" else child_accuracy(model, wd, int(arg))
    except Exception as e:  # reported, not raised: the table shows it
        ans = {"error": f"{type(e).__name__}: {str(e).strip()[:1500]}"}
    sys.stdout.write(json.dumps(ans) + "\n")
    return 0


# ---------------------------------------------------------------------------
# parent side
# ---------------------------------------------------------------------------
def _me(*args) -> List[str]:
    return [sys.executable, str(Path(__file__).resolve()), *map(str, args)]


def _prepare(name: str, variants: Sequence[str], wd: Path, args, log) -> Dict[str, Optional[str]]:
    """wd/f32/model.onnx (the export) and wd/<variant>/model.onnx; the error of each that failed."""
    (wd / "f32").mkdir()
    ans, err = M.run_oneshot(M._child_cmd("-", "export", name, wd / "f32"), args.timeout)
    if ans is None or "error" in ans:
        why = (ans or {}).get("error") or M._short_error(err)
        return {v: f"ONNX export failed: {why}" for v in ["f32", *variants]}
    errors: Dict[str, Optional[str]] = {"f32": None}
    for v in variants:
        (wd / v).mkdir()
        ans, err = M.run_oneshot(_me("--child-quantize", name, wd, v), args.timeout)
        errors[v] = None if ans and "error" not in ans else \
            f"quantize_static failed: {(ans or {}).get('error') or M._short_error(err)}"
        log(f"  quantized {v}: {errors[v] or 'ok'}")
    return errors


def bench_row(name: str, variant: str, systems: Sequence[str], wd: Path, errors: dict, args, log) -> dict:
    """One table row: ``systems`` on ``name`` quantized as ``variant`` (f32 systems on the float model)."""
    res: dict = {"model": name, "variant": variant, "systems": {s: {} for s in systems}}
    dirs = {s: wd / (variant if SYSTEMS[s][1] == "int8" else "f32") for s in systems}
    kids: Dict[str, M.RunChild] = {}
    for s in systems:
        runner, which = SYSTEMS[s]
        r = res["systems"][s]
        err = errors[variant if which == "int8" else "f32"]
        if err:
            r["error"] = err
            continue
        if runner in M.COMPILED:
            if runner == "tvm" and not M._tvm_python():
                r["error"] = "TVM venv missing (--tvm-python)"
                continue
            log(f"  compile {s} ...")
            ans, err = M.run_oneshot(M._child_cmd(runner, "compile", name, dirs[s]), args.timeout)
            if ans is None or "error" in ans:
                r["error"] = (ans or {}).get("error") or M._short_error(err)
                log(f"  compile {s} failed: {r['error'][:300]}")
                continue
            r.update(ans)
        k = M.RunChild(runner, name, dirs[s])
        if "error" in k.ready:
            r["error"] = "run: " + M._short_error(k.ready["error"])
            k.quit()
            continue
        kids[s] = k
        r["load_s"] = k.ready["load_s"]
    if "relay-mlir int8" in kids and "onnxruntime int8" in kids:
        ans, _ = M.run_oneshot(_me("--child-accuracy", name, wd / variant, args.accuracy_inputs), args.timeout)
        res["accuracy"] = ans
    M.time_interleaved(kids, res, args)
    return res


def _cell(r: dict, best: Optional[float], key: str = "median_ms") -> str:
    if r is None:
        return ""
    if r.get(key):
        return f"{r[key]:.3g} ({r[key] / best:.2f}×)"
    return "fails" if r.get("error") else "—"


def table(results: List[dict], systems: Sequence[str]) -> str:
    """Markdown: latency (× onnxruntime int8 of the row), int8 speed-up over f32, accuracy."""
    lines = []
    for key, what in (("median_ms", "Median"), ("p10_ms", "10th-percentile")):
        lines += [f"### {what} latency, ms (× onnxruntime int8 of the row)", "",
                  "| model | variant | " + " | ".join(systems) + " |", "|---|---|" + "---:|" * len(systems)]
        for res in results:
            ref = (res["systems"].get("onnxruntime int8") or {}).get(key)
            cells = [_cell(res["systems"].get(s), ref or float("nan"), key) for s in systems]
            lines.append(f"| {res['model']} | {res['variant']} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += ["### int8 speed-up over float32 (median f32 / median int8, f32 from the u8s8 row)", "",
              "| model | variant | relay-mlir | onnxruntime |", "|---|---|---:|---:|"]
    f32 = {(r["model"], s): r["systems"][s]["median_ms"] for r in results
           for s in ("relay-mlir f32", "onnxruntime f32") if (r["systems"].get(s) or {}).get("median_ms")}
    for res in results:
        cells = []
        for eng in ("relay-mlir", "onnxruntime"):
            q, f = (res["systems"].get(f"{eng} int8") or {}).get("median_ms"), f32.get((res["model"], f"{eng} f32"))
            cells.append(f"{f / q:.2f}×" if q and f else "—")
        lines.append(f"| {res['model']} | {res['variant']} | " + " | ".join(cells) + " |")
    lines += ["", "### Accuracy of relay-mlir int8 vs onnxruntime int8 (output 0, seeded inputs)", "",
              "| model | variant | inputs | max abs diff | top-1 agreement (rows) |", "|---|---|---:|---:|---:|"]
    for res in results:
        a = res.get("accuracy") or {}
        if "max_abs_diff" in a:
            lines.append(f"| {res['model']} | {res['variant']} | {a.get('inputs', '')} | {a['max_abs_diff']:.3g} | "
                         f"{100 * a['top1_agree']:.1f}% ({a['rows']}) |")
        else:
            lines.append(f"| {res['model']} | {res['variant']} | | {a.get('error', 'not run')[:200]} | |")
    slow = [(r["model"], r["variant"], s, v["speed_flags_refused"]) for r in results
            for s, v in r["systems"].items() if v.get("speed_flags_refused")]
    if slow:
        lines += ["", "### Compiled without the target's first speed flags (iree-compile refused them)", ""]
        lines += [f"- {m} {v} / {s}: {' '.join(e[0].replace('|', '/').split())[:300]}" for m, v, s, e in slow]
    errs = [(r["model"], r["variant"], s, v["error"]) for r in results for s, v in r["systems"].items()
            if v.get("error")]
    if errs:
        lines += ["", "### Failures", ""]
        lines += [f"- {m} {v} / {s}: {' '.join(e.replace('|', '/').split())[:400]}" for m, v, s, e in errs]
    return "\n".join(lines)


BEGIN, END = "<!-- quant.py:begin -->", "<!-- quant.py:end -->"


def write_markdown(path: Path, results: List[dict], systems: Sequence[str], meta: dict) -> None:
    loads = [tuple(r["loadavg"]) for r in results if r.get("loadavg")]
    body = [BEGIN, "", f"Generated by `python bench/quant.py` on {meta['date']} at commit {meta['commit']}.  ",
            f"Machine: {meta['machine']}.  ",
            "Versions: " + ", ".join(f"{k} {v}" for k, v in meta["versions"].items()) + ".  ",
            f"Batch 1, {M.THREADS} threads per system, {meta['rounds']} interleaved rounds; 1-min load average "
            "during the timed rounds: " + (f"{min(lo for lo, _ in loads):.1f}–{max(hi for _, hi in loads):.1f}"
                                           if loads else "n/a") + ".", "", table(results, systems), "", END]
    text = "\n".join(body)
    old = path.read_text() if path.exists() else "# int8 benchmark\n\n"
    if BEGIN in old and END in old:
        text = old[:old.index(BEGIN)] + text + old[old.index(END) + len(END):]
    else:
        text = old.rstrip() + "\n\n" + text + "\n"
    path.write_text(text)


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("--child-quantize", "--child-accuracy"):
        return _child(argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--systems", default=",".join(SYSTEMS))
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--budget", type=float, default=0.4, help="seconds per burst of one system")
    ap.add_argument("--max-burst", type=int, default=20)
    ap.add_argument("--timeout", type=float, default=1200, help="seconds per child (compile, quantize)")
    ap.add_argument("--accuracy-inputs", type=int, default=16)
    ap.add_argument("--tvm-python", default=None, help="TVM 0.19 venv's python (default bench/.venv-tvm)")
    ap.add_argument("--md", default=str(HERE / "QUANT.md"))
    ap.add_argument("--json", default=None)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--keep", action="store_true", help="keep the artifacts (for bench/profile_dispatches.py)")
    ap.add_argument("--nice", type=int, default=-5)
    args = ap.parse_args(argv)
    if args.tvm_python:
        M.TVM_VENV = Path(args.tvm_python).absolute().parent.parent  # not resolved: a venv's python is a link
    try:
        os.nice(args.nice)
    except OSError:
        pass
    variants = [v for v in args.variants.split(",") if v]
    systems = [s for s in args.systems.split(",") if s]
    bad = [s for s in systems if s not in SYSTEMS] + [v for v in variants if v not in VARIANTS]
    if bad:
        ap.error(f"unknown system/variant {bad}; systems: {list(SYSTEMS)}, variants: {list(VARIANTS)}")

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    import subprocess
    commit = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    meta = {"date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "commit": commit,
            "machine": M.machine_line(), "versions": M.versions(), "rounds": args.rounds}
    results = []
    for name in args.models.split(","):
        log(f"{name}:")
        wd = Path(tempfile.mkdtemp(prefix=f"quant-{name}-", dir=args.workdir))
        errors = _prepare(name, variants, wd, args, log)
        for i, v in enumerate(variants):
            row = [s for s in systems if i == 0 or SYSTEMS[s][1] == "int8"]
            res = bench_row(name, v, row, wd, errors, args, log)
            if res.get("accuracy"):
                res["accuracy"]["inputs"] = args.accuracy_inputs
            res["workdir"] = str(wd) if args.keep else None
            results.append(res)
            for s, r in res["systems"].items():
                log(f"  {v} {s:18s} " + (f"{r['median_ms']:9.3f} ms" if r.get("median_ms") else r.get("error", "")[:200]))
            write_markdown(Path(args.md), results, systems, meta)
            if args.json:
                Path(args.json).write_text(json.dumps({"meta": meta, "results": results}, indent=1))
        if not args.keep:
            shutil.rmtree(wd, ignore_errors=True)
    print(table(results, systems))
    return 0


if __name__ == "__main__":
    sys.exit(main())
