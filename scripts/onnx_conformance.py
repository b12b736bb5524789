#!/usr/bin/env python3
"""ONNX backend node-test conformance: relay-mlir's importer vs IREE's own ONNX path.

Regenerates the ONNX backend node tests from the installed ``onnx``
(``onnx.backend.test.case.node.collect_testcases()``) into a cache directory
(``~/.cache/relay-mlir/onnx-node-tests/<onnx version>``: ``<test>/model.onnx``
and ``<test>/test_data_set_*/{input,output}_*.pb``; never committed), then for
every test runs

* ours: ``relay_mlir.frontend.from_onnx`` -> ``relay_mlir.compile(llvm-cpu)`` -> run;
* IREE: ``iree-import-onnx`` (its Python entry point) -> ``iree-compile``
  (llvm-cpu, host CPU) -> ``iree.runtime``;

and compares every output with the test's expected outputs using the test's
own tolerances (ONNX's defaults: rtol=1e-3, atol=1e-7; NaNs must match).

Each system runs in worker processes; a test that crashes a worker (signal,
abort) or exceeds ``--timeout`` is recorded as ``crash`` and the worker is
restarted, so one test cannot take the run down.

Outcomes per test and system:

* ``pass``: ran, every output matches (shape, dtype, values);
  dtypes are compared strictly, as the user gets them: no ``view`` or cast
  of a result (relay-mlir's ``Executable`` returns unsigned and bool results
  with their declared dtype; IREE's own runtime returns unsigned integers as
  signed arrays, so such results count as ``wrong`` in the IREE row);
* ``wrong``: ran, some output mismatched;
* ``unsupported``: a clean, located error: the importer's ``UnsupportedError``
  (``phase=import``) or a ``CompileError`` from type inference/lowering/
  ``iree-compile`` (``phase=compile``); for IREE, an import or compile failure;
* ``crash``: anything else: an unexpected exception, a signal, a timeout.

Writes ``docs/onnx-conformance.md`` and ``docs/onnx-conformance.json``.

Usage::

    scripts/onnx_conformance.py                      # everything (long on 2 cores)
    scripts/onnx_conformance.py -k 'conv|pool' --no-iree --md /tmp/x.md --json /tmp/x.json
    scripts/onnx_conformance.py --sample 100 --jobs 2
"""
from __future__ import annotations

import argparse
import collections
import datetime
import json
import os
import platform
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Dict, List, Optional

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "relay-mlir" / "onnx-node-tests"
SYSTEMS = ("ours", "iree")
OUTCOMES = ("pass", "wrong", "unsupported", "crash")
# Both systems: keep f64 as f64 (iree-compile demotes it to f32 by default).
IREE_FLAGS = ["--iree-input-demote-f64-to-f32=false"]


# ---------------------------------------------------------------------------
# test generation
# ---------------------------------------------------------------------------
def generate(cache: Path) -> Path:
    """Writes the node tests of the installed onnx into ``cache/<version>``; returns that dir."""
    import onnx
    from onnx.backend.test.case.node import collect_testcases

    out = cache / onnx.__version__
    stamp = out / ".complete"
    if stamp.exists():
        return out
    out.mkdir(parents=True, exist_ok=True)
    meta = {}
    for case in collect_testcases():
        if case.kind != "node" or case.model is None:
            continue
        d = out / case.name
        d.mkdir(exist_ok=True)
        onnx.save(case.model, str(d / "model.onnx"))
        for k, (inputs, outputs) in enumerate(case.data_sets or []):
            ds = d / f"test_data_set_{k}"
            ds.mkdir(exist_ok=True)
            for kind, values, vis in (("input", inputs, case.model.graph.input),
                                      ("output", outputs, case.model.graph.output)):
                for j, v in enumerate(values):
                    name = vis[j].name if j < len(vis) else ""
                    _save_value(ds / f"{kind}_{j}.pb", v, name, vis[j] if j < len(vis) else None)
        meta[case.name] = {"rtol": case.rtol, "atol": case.atol}
    (out / "tolerances.json").write_text(json.dumps(meta, indent=0))
    stamp.write_text(onnx.__version__)
    return out


def _save_value(path: Path, value, name: str, vi) -> None:
    import numpy as np
    import onnx
    from onnx import numpy_helper
    if isinstance(value, (onnx.TensorProto, onnx.SequenceProto, onnx.OptionalProto, onnx.MapProto)):
        v = type(value)()
        v.CopyFrom(value)
        if not v.name:
            v.name = name
        path.write_bytes(v.SerializeToString())
    elif isinstance(value, np.ndarray) or np.isscalar(value):
        t = numpy_helper.from_array(np.asarray(value), name)
        path.write_bytes(t.SerializeToString())
    elif isinstance(value, list):
        seq = numpy_helper.from_list([np.asarray(v) for v in value], name)
        path.write_bytes(seq.SerializeToString())
    elif value is None:
        opt = onnx.OptionalProto()
        opt.name = name
        path.write_bytes(opt.SerializeToString())
    else:  # maps, optionals of tensors, ...: stored with the model's helpers when possible
        try:
            opt = numpy_helper.from_optional(value, name)
            path.write_bytes(opt.SerializeToString())
        except Exception:
            path.write_bytes(b"")


def load_case(d: Path):
    """(model, [(inputs, outputs)]) with numpy arrays; None entries for non-tensor values."""
    import onnx
    from onnx import numpy_helper
    model = onnx.load(str(d / "model.onnx"))
    sets = []
    for ds in sorted(d.glob("test_data_set_*")):
        ins, outs = [], []
        for kind, acc in (("input", ins), ("output", outs)):
            files = sorted(ds.glob(f"{kind}_*.pb"), key=lambda p: int(p.stem.split("_")[1]))
            for f in files:
                t = onnx.TensorProto()
                try:
                    t.ParseFromString(f.read_bytes())
                    acc.append(numpy_helper.to_array(t))
                except Exception:
                    acc.append(None)
        sets.append((ins, outs))
    return model, sets


def tensor_only(model) -> bool:
    """All graph inputs and outputs are tensors of numeric/bool element types."""
    from onnx import TensorProto
    bad = {TensorProto.STRING, TensorProto.UNDEFINED}
    for vi in list(model.graph.input) + list(model.graph.output):
        if vi.type.WhichOneof("value") != "tensor_type":
            return False
        if vi.type.tensor_type.elem_type in bad:
            return False
    return True


def _snake(op: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", op).lower()


def op_of(name: str, model) -> str:
    """The operator a node test is about (from its name and its nodes)."""
    ops = [n.op_type for n in model.graph.node]
    stem = name[len("test_"):] if name.startswith("test_") else name
    flat = stem.replace("_", "")
    best, best_len = None, 0
    for op in set(ops):
        for cand in (_snake(op), op.lower()):
            if (stem.startswith(cand) or flat.startswith(cand.replace("_", ""))) and len(cand) > best_len:
                best, best_len = op, len(cand)
    return best or (ops[-1] if ops else "?")


# ---------------------------------------------------------------------------
# comparing
# ---------------------------------------------------------------------------
def compare(got, want, rtol: float, atol: float) -> Optional[str]:
    """None if ``got`` matches ``want``, else why not."""
    import numpy as np
    got = np.asarray(got)
    want = np.asarray(want)
    if got.dtype != want.dtype:  # strict: no reinterpretation (see the module docstring)
        return f"dtype {got.dtype} != expected {want.dtype}"
    if got.shape != want.shape:
        return f"shape {got.shape} != expected {want.shape}"
    if want.dtype.kind == "V" and want.dtype.name.startswith(("bfloat16", "float8", "float4")):
        # ml_dtypes floats are not numpy kind "f": compare their values as float32
        # (else NaN == NaN fails and the tolerances are ignored)
        got, want = got.astype(np.float32), want.astype(np.float32)
    if want.dtype.kind in "fc":
        nan_g, nan_w = np.isnan(got), np.isnan(want)
        if (nan_g != nan_w).any():
            return f"NaN at {int((nan_g != nan_w).sum())} positions differs"
        ok = np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
        if not ok.all():
            g = got.astype(np.float64)
            w = want.astype(np.float64)
            with np.errstate(invalid="ignore"):
                err = np.nanmax(np.abs(g - w)[~ok])
            return f"{int((~ok).sum())}/{ok.size} elements differ (max abs err {err:.3g})"
        return None
    if not np.array_equal(got, want):
        return f"{int((got != want).sum())}/{want.size} elements differ"
    return None


def check_outputs(results, sets, rtol, atol):
    for k, (res, (_, want)) in enumerate(zip(results, sets)):
        if not isinstance(res, (tuple, list)):
            res = [res]
        if len(res) != len(want):
            return f"data set {k}: {len(res)} outputs, expected {len(want)}"
        for j, (g, w) in enumerate(zip(res, want)):
            why = compare(g, w, rtol, atol)
            if why:
                return f"data set {k}, output {j}: {why}"
    return None


# ---------------------------------------------------------------------------
# running one test (inside a worker)
# ---------------------------------------------------------------------------
def _first_line(e: BaseException, limit: int = 300) -> str:
    s = str(e).strip().splitlines()
    msg = s[0] if s else type(e).__name__
    if len(s) > 1:
        # keep the first located diagnostic, it says what failed where
        for line in s[1:]:
            if "error" in line:
                msg += " | " + line.strip()
                break
    return msg[:limit]


def run_ours(d: Path, rtol: float, atol: float) -> dict:
    import relay_mlir as relay
    from relay_mlir.frontend import UnsupportedError, from_onnx
    model, sets = load_case(d)
    t0 = time.perf_counter()
    try:
        mod = from_onnx(model)
    except UnsupportedError as e:
        return {"status": "unsupported", "phase": "import", "detail": _first_line(e)}
    try:
        exe = relay.compile(mod, target="llvm-cpu", extra_args=IREE_FLAGS)
    except relay.CompileError as e:
        # a located "not supported" from the lowering is a clean refusal; any other
        # compile error (type inference rejecting what we built, iree-compile
        # verifier errors) is a bug: counted as a crash
        clean = "not supported" in str(e)
        return {"status": "unsupported" if clean else "crash",
                "phase": "compile" if clean else "compile-error", "detail": _first_line(e)}
    t1 = time.perf_counter()
    results = [exe(*ins) for ins, _ in sets]
    why = check_outputs(results, sets, rtol, atol)
    out = {"status": "wrong" if why else "pass", "compile_s": round(t1 - t0, 3)}
    if why:
        out["detail"] = why
    return out


_IREE_CFG = {}


def run_iree(d: Path, rtol: float, atol: float, tmp: Path) -> dict:
    import iree.compiler as ic
    import iree.runtime as rt
    from iree.compiler.tools.binaries import CompilerToolError
    from iree.compiler.tools.import_onnx.__main__ import main as import_main, parse_arguments
    model, sets = load_case(d)
    t0 = time.perf_counter()
    mlir = tmp / "iree_input.mlir"
    try:
        import contextlib
        import io
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            import_main(parse_arguments([str(d / "model.onnx"), "-o", str(mlir)]))
    except BaseException as e:  # noqa: BLE001 - the importer raises many kinds
        if isinstance(e, (KeyboardInterrupt,)):
            raise
        return {"status": "unsupported", "phase": "import", "detail": _first_line(e)}
    try:
        vmfb = ic.compile_file(str(mlir), target_backends=["llvm-cpu"],
                               extra_args=["--iree-llvmcpu-target-cpu=host"] + IREE_FLAGS)
    except CompilerToolError as e:
        msg = str(e)
        m = re.search(r"error: (.*)", msg)
        return {"status": "unsupported", "phase": "compile",
                "detail": (m.group(1) if m else msg.strip().splitlines()[0])[:300]}
    t1 = time.perf_counter()
    cfg = _IREE_CFG.get("cfg") or _IREE_CFG.setdefault("cfg", rt.Config("local-task"))
    ctx = rt.SystemContext(config=cfg)
    vm = rt.VmModule.copy_buffer(ctx.instance, vmfb)
    ctx.add_vm_module(vm)
    names = [f for f in vm.function_names if not f.startswith("__")]
    fn = ctx.modules[vm.name][names[0] if len(names) == 1 else model.graph.name]
    results = []
    for ins, _ in sets:
        res = fn(*ins)
        if isinstance(res, (list, tuple)):
            results.append([np_(r) for r in res])
        else:
            results.append(np_(res))
    why = check_outputs(results, sets, rtol, atol)
    out = {"status": "wrong" if why else "pass", "compile_s": round(t1 - t0, 3)}
    if why:
        out["detail"] = why
    return out


def np_(r):
    import numpy as np
    return np.array(r.to_host(), copy=True) if hasattr(r, "to_host") else np.asarray(r)


def worker_main(system: str) -> None:
    """Reads test dirs (JSON lines) on stdin, writes one JSON result per line."""
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # anything else printed goes to stderr
    sys.stdout = sys.stderr
    import tempfile
    tmp = Path(tempfile.mkdtemp(prefix="onnx-conf-"))
    for line in sys.stdin:
        req = json.loads(line)
        d = Path(req["dir"])
        t = time.perf_counter()
        try:
            if system == "ours":
                res = run_ours(d, req["rtol"], req["atol"])
            else:
                res = run_iree(d, req["rtol"], req["atol"], tmp)
        except Exception as e:  # an unexpected exception is a crash
            res = {"status": "crash", "phase": "exception",
                   "detail": f"{type(e).__name__}: {_first_line(e)}",
                   "trace": traceback.format_exc()[-1500:]}
        res["time_s"] = round(time.perf_counter() - t, 3)
        out.write(json.dumps(res) + "\n")
    shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------
# the driver: worker pool with per-test timeouts
# ---------------------------------------------------------------------------
class Worker:
    def __init__(self, system: str, env: dict) -> None:
        self.system, self.env = system, env
        self.proc = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", self.system],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1, env=self.env, start_new_session=True)

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()

    def run(self, req: dict, timeout: float) -> dict:
        if self.proc.poll() is not None:
            self.start()
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            self.start()
            return {"status": "crash", "phase": "worker", "detail": "worker died before the test"}
        t0 = time.perf_counter()
        fd = self.proc.stdout
        r, _, _ = select.select([fd], [], [], timeout)
        if not r:
            self.kill()
            self.start()
            return {"status": "crash", "phase": "timeout", "detail": f"timeout after {timeout:.0f} s",
                    "time_s": round(time.perf_counter() - t0, 1)}
        line = fd.readline()
        if not line:
            rc = self.proc.wait()
            self.kill()
            self.start()
            how = f"signal {-rc} ({signal.Signals(-rc).name})" if rc < 0 else f"exit status {rc}"
            return {"status": "crash", "phase": "process", "detail": f"worker died: {how}",
                    "time_s": round(time.perf_counter() - t0, 1)}
        return json.loads(line)


def run_all(tests: List[dict], systems: List[str], jobs: int, timeout: float, env: dict,
            progress: bool = True, journal: Optional[Path] = None, shuffle: bool = False) -> None:
    """Runs every (test, system) not already in ``journal`` (JSON lines, appended as results arrive)."""
    import threading
    lock = threading.Lock()
    done_before = {}
    if journal is not None and journal.exists():
        for line in journal.read_text().splitlines():
            try:
                r = json.loads(line)
            except ValueError:
                continue
            done_before[(r["name"], r["system"])] = r["result"]
    jf = open(journal, "a") if journal is not None else None
    queue = []
    if shuffle:  # a random order: an interrupted run has measured a random sample
        tests = list(tests)
        random.Random(1).shuffle(tests)
    for t in tests:
        for s in systems:
            if (t["name"], s) in done_before:
                t[s] = done_before[(t["name"], s)]
            else:
                queue.append((t, s))
    done = [0]
    total = len(queue)
    t_start = time.time()

    def loop(system_order: List[str]) -> None:
        workers: Dict[str, Worker] = {}
        try:
            while True:
                with lock:
                    if not queue:
                        return
                    # prefer the systems in this thread's order
                    idx = next((i for i, (_, s) in enumerate(queue) if s == system_order[0]), 0)
                    t, s = queue.pop(idx)
                if s not in workers:
                    workers[s] = Worker(s, env)
                res = workers[s].run({"dir": t["dir"], "rtol": t["rtol"], "atol": t["atol"]}, timeout)
                with lock:
                    t[s] = res
                    if jf is not None:
                        jf.write(json.dumps({"name": t["name"], "system": s, "result": res}) + "\n")
                        jf.flush()
                    done[0] += 1
                    if progress and (done[0] % 25 == 0 or done[0] == total):
                        el = time.time() - t_start
                        print(f"[{done[0]}/{total}] {el:.0f}s", file=sys.stderr, flush=True)
        finally:
            for w in workers.values():
                w.kill()

    threads = []
    for j in range(jobs):
        order = systems[j % len(systems):] + systems[:j % len(systems)]
        th = threading.Thread(target=loop, args=(order,))
        th.start()
        threads.append(th)
    for th in threads:
        th.join()
    if jf is not None:
        jf.close()


# ---------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------
def summarize(tests: List[dict], systems: List[str], pred=lambda t: True) -> Dict[str, Dict[str, int]]:
    out = {}
    for s in systems:
        c = collections.Counter(t[s]["status"] for t in tests if pred(t) and s in t)
        out[s] = {k: c.get(k, 0) for k in OUTCOMES}
        out[s]["total"] = sum(out[s][k] for k in OUTCOMES)
    return out


def write_report(tests: List[dict], systems: List[str], md: Path, js: Path, meta: dict) -> None:
    systems = [s for s in systems if any(s in t for t in tests)]
    tensor = summarize(tests, systems, lambda t: t["tensor_only"])
    allt = summarize(tests, systems)
    common = [t for t in tests if all(s in t for s in systems)]
    partial = len(common) < len(tests)
    tensor_common = summarize(common, systems, lambda t: t["tensor_only"])
    phases = {s: collections.Counter(t[s].get("phase", "?") for t in tests
                                     if s in t and t[s]["status"] == "unsupported") for s in systems}
    by_op: Dict[str, Dict[str, collections.Counter]] = collections.defaultdict(
        lambda: {s: collections.Counter() for s in systems})
    for t in tests:
        for s in systems:
            if s in t:
                by_op[t["op"]][s][t[s]["status"]] += 1
    data = {"meta": meta, "summary": {"tensor_only": tensor, "all": allt,
                                      "tensor_only_common": tensor_common, "n_common": len(common)},
            "unsupported_phases": {s: dict(phases[s]) for s in systems},
            "tests": tests}
    for t in tests:  # keep the committed report small: no tracebacks
        for s in systems:
            if s in t:
                t[s].pop("trace", None)
    js.parent.mkdir(parents=True, exist_ok=True)
    js.write_text(json.dumps(data, separators=(",", ":")) + "\n")

    names = {"ours": "relay-mlir (from_onnx → relay → linalg → IREE)",
             "iree": "IREE (iree-import-onnx → torch → IREE)"}
    L = []
    L.append("# ONNX backend node-test conformance\n")
    L.append("Generated by `scripts/onnx_conformance.py` (do not edit by hand). "
             f"{meta['date']}, onnx {meta['onnx']} (opset ≤ {meta['max_opset']}), "
             f"IREE {meta.get('iree', '?')}, target llvm-cpu (host), {meta['machine']}.\n")
    L.append(f"{meta['n_tests']} node tests regenerated from the installed `onnx` "
             "(`onnx.backend.test.case.node.collect_testcases()`), "
             f"{meta['n_tensor_only']} of them tensor-only (every graph input and output a numeric/bool "
             "tensor; the rest use sequences, optionals, maps or strings)."
             + (f" Selection: `{meta['selection']}`." if meta.get("selection") else "") + "\n")
    L.append("Each test is imported, compiled and run on every data set of the test; outputs are compared "
             "with the expected outputs using the test's own tolerances (ONNX's defaults rtol=1e-3, "
             "atol=1e-7 unless the test states others), NaNs must match, dtypes and shapes must be equal. "
             f"Per-test timeout {meta['timeout']} s; tests run in worker processes that are restarted "
             "after a crash."
             + "".join(f" The {s} results were measured on {d} (`--reuse`)." for s, d in meta.get("reused", {}).items())
             + "\n")
    L.append("Outcomes: **pass**; **wrong** (ran, mismatched); **unsupported** (a clean refusal: "
             "our importer's `UnsupportedError` naming op type, node and opset, or the lowering's "
             "located \"not supported\" error; for IREE, any import or compile failure); "
             "**crash** (anything else: for us also any other compile error, e.g. type inference "
             "rejecting the imported program or an iree-compile verifier error; unexpected "
             "exceptions, signals, timeouts).\n")
    L.append("Reproduce with `scripts/onnx_conformance.py` (tests are regenerated into "
             "`~/.cache/relay-mlir/onnx-node-tests/<onnx version>`; `-k REGEX`, `--sample N`, "
             "`--systems ours`, `--journal FILE` to resume). Both systems compile with "
             f"`{' '.join(IREE_FLAGS)}` (f64 stays f64) for llvm-cpu with `--iree-llvmcpu-target-cpu=host`; "
             "dtypes are compared strictly, as each system returns them (no reinterpretation: the "
             "IREE runtime returns unsigned results as signed arrays, so those count as wrong for IREE).\n")
    L.append("Shape-like inputs fed as run-time graph inputs (Reshape's shape, Expand's shape, Tile's "
             "repeats, ConstantOfShape, Range, Split's sizes, OneHot's depth, TopK's k) are used as "
             "run-time values (dyn.* operators, checked at run time); inputs that decide the rank "
             "(Squeeze/Unsqueeze and Reduce* axes) take the result shape from the model's declared "
             "output type and are checked at run time to give it; otherwise the test is "
             "`unsupported` (never a guess).\n")
    if meta.get("note"):
        L.append(meta["note"] + "\n")
    tables = [("Tensor-only tests", tensor), ("All tests", allt)]
    if partial:
        n_tc = sum(1 for t in common if t["tensor_only"])
        tables.insert(0, (f"Tensor-only tests measured by both systems ({n_tc} tests, "
                          "a random sample: the IREE run went through the tests in random order and "
                          "was stopped for time)", tensor_common))
        L.append("Not every system measured every test (see the `tests` column): the first table "
                 "compares both on the same tests; the others give each system's results on all "
                 "tests it ran.\n")
    for title, summ in tables:
        L.append(f"## {title}\n")
        L.append("| system | tests | pass | wrong | unsupported | crash | pass rate |")
        L.append("|---|---:|---:|---:|---:|---:|---:|")
        for s in systems:
            c = summ[s]
            rate = 100.0 * c["pass"] / c["total"] if c["total"] else 0.0
            L.append(f"| {names[s]} | {c['total']} | {c['pass']} | {c['wrong']} | {c['unsupported']} | "
                     f"{c['crash']} | {rate:.1f}% |")
        L.append("")
    L.append("Unsupported, by phase: " + "; ".join(
        f"{s}: " + ", ".join(f"{k} {v}" for k, v in sorted(phases[s].items())) for s in systems) + ".\n")
    for s in systems:
        bad = [t for t in tests if s in t and t[s]["status"] in ("wrong", "crash")]
        L.append(f"## {s}: wrong and crash ({len(bad)})\n")
        if not bad:
            L.append("None.\n")
            continue
        L.append("| test | outcome | detail |")
        L.append("|---|---|---|")
        for t in bad:
            det = str(t[s].get("detail", "")).replace("|", "\\|").replace("\n", " ")[:200]
            L.append(f"| {t['name']} | {t[s]['status']} | {det} |")
        L.append("")
    L.append("## Per operator\n")
    L.append("Passes per operator under test (a test's operator is the node type its name is about; "
             "`_expanded` tests count for the operator whose function body they expand).\n")
    L.append("| operator | tests | " + " | ".join(f"{s} pass" for s in systems) + " | " +
             " | ".join(f"{s} other" for s in systems) + " |")
    L.append("|---|---:|" + "---:|" * (2 * len(systems)))
    for op in sorted(by_op):
        n = sum(by_op[op][systems[0]].values())
        cells = [str(by_op[op][s]["pass"]) for s in systems]
        other = []
        for s in systems:
            c = by_op[op][s]
            other.append(", ".join(f"{k} {c[k]}" for k in ("wrong", "unsupported", "crash") if c[k]) or "")
        L.append(f"| {op} | {n} | " + " | ".join(cells) + " | " + " | ".join(other) + " |")
    L.append("")
    md.parent.mkdir(parents=True, exist_ok=True)
    md.write_text("\n".join(L) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where the node tests are generated")
    ap.add_argument("-k", "--filter", default=None, help="regex on test names")
    ap.add_argument("--sample", type=int, default=0, help="a deterministic random sample of N tests")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds per test and system")
    ap.add_argument("--no-iree", action="store_true", help="skip IREE's own ONNX path")
    ap.add_argument("--systems", default=None, help="comma-separated subset of: ours,iree")
    ap.add_argument("--md", type=Path, default=ROOT / "docs" / "onnx-conformance.md")
    ap.add_argument("--json", type=Path, default=ROOT / "docs" / "onnx-conformance.json")
    ap.add_argument("--reuse", type=Path, default=None,
                    help="take the results of systems not run now from this earlier JSON report "
                         "(same onnx and IREE versions); the report says so")
    ap.add_argument("--journal", type=Path, default=None,
                    help="append results here as they arrive and skip tests already in it (resume)")
    ap.add_argument("--shuffle", action="store_true", help="run tests in a random order")
    ap.add_argument("--report-only", action="store_true",
                    help="only write the report from --journal, over the tests every system has results for")
    ap.add_argument("--note", default="", help="a paragraph added to the report (e.g. the build measured)")
    ap.add_argument("--worker", choices=SYSTEMS, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker_main(args.worker)
        return 0

    import onnx
    t0 = time.time()
    root = generate(args.cache)
    tols = json.loads((root / "tolerances.json").read_text())
    names = sorted(tols)
    selection = []
    if args.filter:
        rx = re.compile(args.filter)
        names = [n for n in names if rx.search(n)]
        selection.append(f"-k {args.filter}")
    if args.sample and args.sample < len(names):
        names = sorted(random.Random(0).sample(names, args.sample))
        selection.append(f"--sample {args.sample}")
    tests = []
    for name in names:
        m = onnx.load(str(root / name / "model.onnx"))
        tests.append({"name": name, "dir": str(root / name), "op": op_of(name, m),
                      "expanded": "_expanded" in name, "tensor_only": tensor_only(m),
                      "rtol": tols[name]["rtol"], "atol": tols[name]["atol"]})
    systems = ["ours"] + ([] if args.no_iree else ["iree"])
    if args.systems:
        systems = [s for s in args.systems.split(",") if s in SYSTEMS]
    env = dict(os.environ)
    print(f"{len(tests)} tests x {len(systems)} systems, {args.jobs} jobs", file=sys.stderr)
    if args.report_only:
        if not args.journal:
            raise SystemExit("--report-only needs --journal")
        prev = {}
        for line in args.journal.read_text().splitlines():
            r = json.loads(line)
            prev[(r["name"], r["system"])] = r["result"]
        for t in tests:
            for s in systems:
                if (t["name"], s) in prev:
                    t[s] = prev[(t["name"], s)]
        tests = [t for t in tests if any(s in t for s in systems)]
    else:
        run_all(tests, systems, args.jobs, args.timeout, env, journal=args.journal, shuffle=args.shuffle)
    reused = {}
    if args.reuse:
        old = json.loads(args.reuse.read_text())
        if old["meta"]["onnx"] != onnx.__version__:
            raise SystemExit(f"--reuse: {args.reuse} is for onnx {old['meta']['onnx']}")
        prev = {t["name"]: t for t in old["tests"]}
        for s in SYSTEMS:
            if s in systems:
                continue
            if all(t["name"] in prev and s in prev[t["name"]] for t in tests):
                for t in tests:
                    t[s] = prev[t["name"]][s]
                systems.append(s)
                reused[s] = old["meta"].get(f"date_{s}", old["meta"]["date"])
    try:
        import iree.compiler
        iree_version = getattr(iree.compiler, "__version__", None) or _pkg_version("iree-base-compiler")
    except Exception:
        iree_version = "?"
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "onnx": onnx.__version__, "max_opset": onnx.defs.onnx_opset_version(),
            "iree": iree_version, "machine": f"{platform.machine()}, {os.cpu_count()} cores",
            "n_tests": len(tols), "n_tensor_only": None, "timeout": args.timeout,
            "selection": " ".join(selection), "wall_s": round(time.time() - t0),
            "reused": reused, "note": args.note}
    for s in systems:
        meta[f"date_{s}"] = reused.get(s, meta["date"])
    meta["n_tensor_only"] = sum(1 for t in tests if t["tensor_only"])
    if selection:
        meta["n_tests"] = len(tests)
    for t in tests:
        t.pop("dir", None)
    write_report(tests, systems, args.md, args.json, meta)
    summ = summarize(tests, systems, lambda t: t["tensor_only"])
    for s in systems:
        print(f"{s:5s} tensor-only: {summ[s]}", file=sys.stderr)
    return 0


def _pkg_version(name: str) -> str:
    from importlib.metadata import version
    return version(name)


if __name__ == "__main__":
    sys.exit(main())
