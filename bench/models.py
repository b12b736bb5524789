#!/usr/bin/env python
"""Whole-model benchmark: relay-mlir vs onnxruntime, PyTorch eager, IREE's ONNX importer and TVM Relay.

For every model of the zoo (``relay_mlir.testing``) at batch 1 (``--batch N``: every model's
inputs and workload at batch N; its report goes to RESULTS-batchN.md) with 2 threads:

============== ==================================================================
system         path
============== ==================================================================
relay-mlir     builder API -> relay.compile (llvm-cpu) -> IREE local-task
relay-mlir/onnx torch twin -> ONNX -> relay_mlir.frontend.from_onnx -> relay.compile
iree-onnx      torch twin -> ONNX -> iree-import-onnx -> iree-compile (relay-mlir's CPU flags but padding fusion)
onnxruntime    torch twin -> ONNX -> InferenceSession (intra_op_num_threads=2)
torch          torch twin, eager, torch.set_num_threads(2), inference_mode
tvm            torch twin -> ONNX -> TVM 0.19 relay.frontend.from_onnx, opt_level=3,
               "llvm -mcpu=<host CPU name>" untuned, graph executor (bench/tvm_runner.py in
               the side venv made by bench/setup_tvm_venv.sh; skipped without it)
============== ==================================================================

Every compile runs in a child process (compile time, and the peak RSS of the
largest process of its tree: the child or iree-compile/the lowering worker/...
it waited for). Every system then runs in a
child process of its own that only loads the artifact (its peak RSS is the
"run MB"); the parent interleaves the timed repetitions round-robin across
systems (round r: a burst of runs of system 1, of system 2, ...) so that the
load of a shared machine hits every system alike. Outputs are compared with
PyTorch's (or relay-mlir's) before timing. This is a benchmark, not a test:
nothing asserts timings.

    python bench/models.py [--models resnet_demo,resnet18,...] [--systems ...]
                           [--rounds 12] [--budget 0.4] [--md bench/RESULTS.md]
                           [--png bench/results.png] [--json bench/results.json]

Needs (bench only): onnx, onnxruntime, torch, matplotlib, psutil; the IREE
runtime/compiler that relay-mlir uses.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import _protocol as P  # noqa: E402

THREADS = 2
TVM_VENV = HERE / ".venv-tvm"
ALL_SYSTEMS = ["relay-mlir", "relay-mlir/onnx", "iree-onnx", "onnxruntime", "torch", "tvm"]
COMPILED = {"relay-mlir", "relay-mlir/onnx", "iree-onnx", "tvm"}  # have a compile child
OPSET = 17


# ---------------------------------------------------------------------------
# models
# ---------------------------------------------------------------------------
@dataclass
class Model:
    """A zoo model: its builder workload, its torch twin and its inputs."""

    name: str
    workload: Callable[[], tuple]          # () -> (IRModule, params): the builder path
    twin: Callable[[dict], object]         # params -> torch.nn.Module computing the same function
    inputs: List[dict]                     # [{"name", "shape", "dtype", "high"? | "fill"?}]
    outputs: List[str]
    note: str = ""


_BATCH_ENV = "RELAY_MLIR_BENCH_BATCH"  # the batch of a run (its child processes read it)


def batch() -> int:
    """The batch size of this run (``--batch``; 1 by default)."""
    return int(os.environ.get(_BATCH_ENV, "1"))


def _image(shape) -> List[dict]:
    return [{"name": "data", "shape": [batch(), *shape], "dtype": "float32"}]


def _zoo_twin(make: Callable[[object], object]) -> Callable[[dict], object]:
    def twin(params: dict):
        from relay_mlir.models import torch_models as tm
        net = make(tm)
        tm.load_params(net, params)
        return net.eval()
    return twin


def _demo_twin(params: dict):
    import _twins
    return _twins.demo_resnet(params)


BERT_SEQ, LSTM_SEQ = 64, 32


def models() -> Dict[str, Model]:
    """The benchmarked models (``relay_mlir.testing`` workloads at ``batch()``), in table order."""
    from relay_mlir.models import bert, dqn, lstm, mobilenet_v2, resnet, vgg, vit

    n = batch()
    ids = {"dtype": "int64", "shape": [n, BERT_SEQ]}
    table = [
        Model("resnet_demo", lambda: resnet.get_workload(batch_size=n), _demo_twin, _image((3, 32, 32)), ["prob"],
              "the `relay-mlir demo` CNN, 32×32"),
        Model("resnet18", lambda: resnet.get_workload(batch_size=n, num_layers=18, image_shape=(3, 224, 224)),
              _zoo_twin(lambda tm: tm.ResNet(18)), _image((3, 224, 224)), ["logits"]),
        Model("resnet50", lambda: resnet.get_workload(batch_size=n, num_layers=50, image_shape=(3, 224, 224)),
              _zoo_twin(lambda tm: tm.ResNet(50)), _image((3, 224, 224)), ["logits"]),
        Model("mobilenet_v2", lambda: mobilenet_v2.get_workload(batch_size=n), _zoo_twin(lambda tm: tm.MobileNetV2()),
              _image((3, 224, 224)), ["logits"]),
        Model("vgg16", lambda: vgg.get_workload(batch_size=n, num_layers=16), _zoo_twin(lambda tm: tm.VGG(16)),
              _image((3, 224, 224)), ["logits"]),
        Model("dqn", lambda: dqn.get_workload(batch_size=n), _zoo_twin(lambda tm: tm.DQN()), _image((4, 84, 84)), ["q"]),
        Model("bert_tiny", lambda: bert.get_workload(batch_size=n, seq_len=BERT_SEQ), _zoo_twin(lambda tm: tm.Bert()),
              [dict(ids, name="input_ids", high=1000), dict(ids, name="token_type_ids", high=2),
               dict(ids, name="attention_mask", fill=1)], ["sequence_output", "pooled_output"],
              f"2 layers, hidden 128, sequence {BERT_SEQ}"),
        Model("lstm", lambda: lstm.get_workload(batch_size=n, seq_len=LSTM_SEQ), _zoo_twin(lambda tm: tm.LSTMLanguageModel()),
              [{"name": "input_ids", "shape": [n, LSTM_SEQ], "dtype": "int64", "high": 1000}], ["logits"],
              f"LSTM LM, hidden 128, sequence {LSTM_SEQ}"),
        Model("vit_tiny", lambda: vit.get_workload(batch_size=n), _zoo_twin(lambda tm: tm.ViT()), _image((3, 224, 224)),
              ["logits"], "ViT-Tiny/16, 224×224"),
    ]
    return {m.name: m for m in table}


# ---------------------------------------------------------------------------
# child processes: export, compile, run
# ---------------------------------------------------------------------------
def _cpu_flags() -> List[str]:
    """The llvm-cpu flags relay-mlir compiles with."""
    from relay_mlir.compiler import get_target
    t = get_target("llvm-cpu")
    return list(t.flags) + list(t.speed_flags)


# relay-mlir fuses zero paddings into window ops only with the padded input of its direct
# convolutions behind an optimization barrier (Conv.cpp); IREE's own ONNX path has no such
# barrier: the flag makes its direct convolutions slower and its NCHW depthwise convolutions
# fail to compile (MobileNetV2: "failed to run translation" of 8 dispatches, IREE 3.13)
_NOT_FOR_IREE_ONNX = {"--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops"}


def _iree_onnx_flags() -> List[str]:
    """The flags IREE's ONNX path compiles with: relay-mlir's, less the ones tied to its lowering."""
    return [f for f in _cpu_flags() if f not in _NOT_FOR_IREE_ONNX]


def child_export(model: Model, wd: Path) -> dict:
    """The twin with the builder's weights -> wd/twin.pt (pickled module) and wd/model.onnx."""
    import onnx
    import torch
    from relay_mlir.models import torch_models as tm

    _, params = model.workload()
    net = model.twin(params)
    del params
    torch.save(net, str(wd / "twin.pt"))
    args = [torch.from_numpy(a) for a in P.make_inputs(model.inputs)]
    with torch.no_grad():
        m = tm.export_onnx(net, args, [s["name"] for s in model.inputs], model.outputs, opset=OPSET)
    onnx.save(m, str(wd / "model.onnx"))
    return {"onnx_bytes": (wd / "model.onnx").stat().st_size, "nodes": len(m.graph.node)}


def child_compile(system: str, model: Model, wd: Path) -> dict:
    """Compiles ``model`` for ``system`` into ``wd``; returns timings (seconds).

    The clock starts with the model in hand, as the ONNX paths start from model.onnx on disk:
    for the builder path after ``model.workload()``, whose time is the making of the seeded
    random weights (VGG-16's 138M: 5.7 s of numpy), not compile work (the import of
    relay_mlir is)."""
    t0 = time.perf_counter()
    if system in ("relay-mlir", "relay-mlir/onnx"):
        import relay_mlir as relay
        if system == "relay-mlir":
            w0 = time.perf_counter()
            mod, params = model.workload()
            t0 += time.perf_counter() - w0  # the clock stopped while the weights were made
        else:
            from relay_mlir.frontend import from_onnx
            mod, params = from_onnx(str(wd / "model.onnx")), None
        t1 = time.perf_counter()
        opt_level, disabled = _optimizer_settings()
        with relay.transform.PassContext(opt_level=opt_level, disabled_pass=disabled):
            exe = relay.compile(mod, target="llvm-cpu", params=params)
        exe.save(str(wd / f"{_slug(system)}.vmfb"))
        from relay_mlir._worker import client
        client().close()  # waited for: its peak RSS counts
        return {"compile_s": time.perf_counter() - t0, "import_s": t1 - t0,
                "lower_s": exe.lower_time_s, "iree_s": exe.iree_time_s,
                "speed_flags_refused": exe.speed_flags_refused}
    if system == "iree-onnx":
        import iree.compiler as ic
        mlir = wd / "iree_onnx.mlir"
        tool = shutil.which("iree-import-onnx") or str(Path(sys.executable).parent / "iree-import-onnx")
        r = subprocess.run([tool, str(wd / "model.onnx"), "-o", str(mlir), "--opset-version", str(OPSET)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"iree-import-onnx failed: {r.stderr.strip()[-2000:]}")
        t1 = time.perf_counter()
        vmfb = ic.compile_file(str(mlir), target_backends=["llvm-cpu"], extra_args=_iree_onnx_flags())
        (wd / "iree-onnx.vmfb").write_bytes(vmfb)
        t2 = time.perf_counter()
        return {"compile_s": t2 - t0, "import_s": t1 - t0, "iree_s": t2 - t1}
    raise ValueError(system)


# Relay's optimizer settings for the relay-mlir systems (--opt-level, --disabled-pass), passed
# from the parent to its compile children through the environment
_OPT_ENV, _DISABLED_ENV = "RELAY_MLIR_BENCH_OPT_LEVEL", "RELAY_MLIR_BENCH_DISABLED_PASS"


def _optimizer_settings() -> Tuple[int, List[str]]:
    """(opt level, disabled PassInfo names) relay.compile runs under (default 3, none: relay.build's)."""
    disabled = [n for n in os.environ.get(_DISABLED_ENV, "").split(",") if n]
    return int(os.environ.get(_OPT_ENV, "3")), disabled


def _slug(system: str) -> str:
    return system.replace("/", "-")


def _iree_call(vmfb: Path, inputs: List[np.ndarray]) -> Callable[[], List[np.ndarray]]:
    """One call of the module's main with ``inputs``, on the faster of IREE's CPU drivers
    (``local-task`` with THREADS workers, or ``local-sync``), chosen as relay-mlir's
    ``driver="auto"`` chooses (relay_mlir.runtime.choose_cpu_driver); both IREE systems get it."""
    import iree.runtime as rt
    from relay_mlir.runtime import CPU_DRIVERS, choose_cpu_driver
    rt.flags.parse_flags(f"--task_topology_max_group_count={THREADS}")
    calls = {}
    for driver in CPU_DRIVERS:
        ctx = rt.SystemContext(config=rt.Config(driver))
        vm = rt.VmModule.mmap(ctx.instance, str(vmfb))
        ctx.add_vm_module(vm)
        names = [n for n in vm.function_names if not n.startswith("__") and not n.endswith("$async")]
        fn = ctx.modules[vm.name]["main" if "main" in names else names[0]]

        def call(fn=fn, ctx=ctx):
            res = fn(*inputs)
            res = res if isinstance(res, (tuple, list)) else (res,)
            return [np.array(r.to_host(), copy=True) if hasattr(r, "to_host") else np.asarray(r) for r in res]
        calls[driver] = call
    driver, medians = choose_cpu_driver(calls)
    print(f"{vmfb.name}: {driver} ({', '.join(f'{d} {m * 1e3:.3f} ms' for d, m in medians.items())})",
          file=sys.stderr)
    return calls[driver]


def child_run(system: str, model: Model, wd: Path) -> int:
    """Loads ``model``'s artifact for ``system`` and serves timing requests (see _protocol)."""
    inputs = P.make_inputs(model.inputs)
    t0 = time.perf_counter()
    if system in ("relay-mlir", "relay-mlir/onnx", "iree-onnx"):
        call = _iree_call(wd / f"{_slug(system)}.vmfb", inputs)
    elif system == "onnxruntime":
        import onnxruntime as ort
        so = ort.SessionOptions()
        so.intra_op_num_threads, so.inter_op_num_threads = THREADS, 1
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        sess = ort.InferenceSession(str(wd / "model.onnx"), so, providers=["CPUExecutionProvider"])
        feed = {i.name: a for i, a in zip(sess.get_inputs(), inputs)}

        def call():
            return sess.run(None, feed)
    elif system == "torch":
        import torch
        torch.set_num_threads(THREADS)
        net = torch.load(str(wd / "twin.pt"), weights_only=False).eval()
        targs = [torch.from_numpy(a) for a in inputs]

        def call():
            with torch.inference_mode():
                res = net(*targs)
            res = res if isinstance(res, (tuple, list)) else (res,)
            return [r.numpy() for r in res]
    else:
        raise ValueError(system)
    return P.serve(call, time.perf_counter() - t0)


# ---------------------------------------------------------------------------
# parent side
# ---------------------------------------------------------------------------
def _env() -> dict:
    env = dict(os.environ)
    for v in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "TVM_NUM_THREADS"):
        env[v] = str(THREADS)
    env["TOPHUB_LOCATION"] = "NONE"
    return env


def _tvm_python() -> Optional[str]:
    py = TVM_VENV / "bin" / "python"
    return str(py) if py.exists() else None


def _child_cmd(system: str, mode: str, model: str, wd: Path) -> List[str]:
    if system == "tvm":
        return [_tvm_python(), str(HERE / "tvm_runner.py"), mode, str(wd / "model.onnx"),
                str(wd / "tvm.so"), json.dumps(models()[model].inputs)]
    return [sys.executable, str(Path(__file__).resolve()), f"--child-{mode}", system, model, str(wd)]


def _last_json(text: str) -> Optional[dict]:
    for line in reversed(text.strip().splitlines()):
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            continue
    return None


def run_oneshot(cmd: List[str], timeout: float) -> Tuple[Optional[dict], str]:
    """Runs an export/compile child: ``(its JSON answer or None, stderr tail)``."""
    with tempfile.TemporaryFile("w+") as err:
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=err, text=True, env=_env(), timeout=timeout)
            out, rc = p.stdout, p.returncode
        except subprocess.TimeoutExpired as e:
            out, rc = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout"
        err.seek(0)
        tail = err.read()[-3000:]
    ans = _last_json(out)
    if ans is None:
        tail = f"exit status {rc}\n" + tail
    return ans, tail


class RunChild:
    """A run child of one system (see _protocol)."""

    def __init__(self, system: str, model: str, wd: Path) -> None:
        self.system = system
        self.err = tempfile.TemporaryFile("w+")
        self.p = subprocess.Popen(_child_cmd(system, "run", model, wd), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.err, text=True, env=_env())
        self.ready = self._read()

    def _read(self) -> dict:
        line = self.p.stdout.readline()
        if not line:
            self.p.wait()
            self.err.seek(0)
            return {"error": f"exited ({self.p.returncode}): {self.err.read()[-2000:]}"}
        return json.loads(line)

    def ask(self, req: dict) -> dict:
        try:
            self.p.stdin.write(json.dumps(req) + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            return {"error": "child is gone"}
        return self._read()

    def quit(self) -> float:
        ans = self.ask({"cmd": "quit"})
        try:
            self.p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.p.kill()
        return float(ans.get("maxrss_mb", float("nan")))


def _short_error(text: str) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    keep = [ln for ln in lines if "error" in ln.lower()] or lines
    return (keep[0] if keep else "failed")[:240]


# Idle time before each burst of the interleaved timing (see time_interleaved).
SETTLE_S = 0.05


def time_interleaved(kids: Dict[str, "RunChild"], res: dict, args) -> None:
    """Times the loaded ``kids`` in interleaved rounds, quits them, and fills ``res["systems"][s]``
    (median/p10/p90 ms, runs, CPU ms, run peak MB) and ``res["loadavg"]``."""
    # interleaved timing: bursts sized from a first estimate so each system gets ~budget s per round
    burst: Dict[str, int] = {}
    for s, k in kids.items():
        t = k.ask({"cmd": "run", "n": 2}).get("times", [1.0])
        burst[s] = int(max(1, min(args.max_burst, round(args.budget / max(min(t), 1e-6)))))
    times: Dict[str, List[float]] = {s: [] for s in kids}
    cpu: Dict[str, List[float]] = {s: [] for s in kids}
    load = []
    for rnd in range(args.rounds):
        order = list(kids) if rnd % 2 == 0 else list(reversed(list(kids)))
        for s in order:
            # each burst starts on an idle machine: onnxruntime's pool threads spin on after
            # a run (its default, part of its latency), and a burst of another system started
            # at once shared the two cores with them (quantized MobileNetV2 after onnxruntime
            # f32: 3.07 ms against 2.27 ms after relay-mlir f32, session 37)
            time.sleep(SETTLE_S)
            ans = kids[s].ask({"cmd": "run", "n": burst[s]})
            times[s] += ans.get("times", [])
            cpu[s] += ans.get("cpu", [])
        load.append(os.getloadavg()[0])
    for s, k in kids.items():
        r = res["systems"][s]
        r["run_peak_mb"] = k.quit()
        if times[s]:
            ts = sorted(times[s])
            r["median_ms"] = statistics.median(ts) * 1e3
            r["p10_ms"] = ts[len(ts) // 10] * 1e3
            r["p90_ms"] = ts[(len(ts) * 9) // 10] * 1e3
            r["runs"] = len(ts)
            r["cpu_ms"] = statistics.median(cpu[s]) * 1e3  # CPU time of the process per run (all threads)
    res["loadavg"] = [min(load), max(load)] if load else None


def bench_model(name: str, systems: Sequence[str], args, log) -> dict:
    model = models()[name]
    res: dict = {"model": name, "note": model.note, "inputs": model.inputs, "systems": {}}
    wd = Path(tempfile.mkdtemp(prefix=f"bench-{name}-", dir=args.workdir))
    for s in systems:
        res["systems"][s] = {}
    if any(s != "relay-mlir" for s in systems):
        ans, err = run_oneshot([sys.executable, str(Path(__file__).resolve()), "--child-export", "-", name,
                                      str(wd)], args.timeout)
        if ans is None or "error" in ans:
            why = (ans or {}).get("error") or _short_error(err)
            log(f"  export failed: {why}")
            for s in systems:
                if s != "relay-mlir":
                    res["systems"][s]["error"] = f"ONNX export failed: {why}"
        else:
            res["onnx"] = ans
    # compile, one system after the other
    for s in systems:
        r = res["systems"][s]
        if "error" in r or s not in COMPILED:
            continue
        if s == "tvm" and not _tvm_python():
            r["error"] = "TVM venv missing (bench/setup_tvm_venv.sh)"
            continue
        log(f"  compile {s} ...")
        ans, err = run_oneshot(_child_cmd(s, "compile", name, wd), args.timeout)
        if ans is None or "error" in ans:
            r["error"] = (ans or {}).get("error") or _short_error(err)
            log(f"  compile {s} failed: {r['error']}")
            continue
        r.update(ans)
        log(f"  compile {s}: {ans['compile_s']:.1f} s, peak {ans['compile_peak_mb']:.0f} MB")
    # load every runnable system
    kids: Dict[str, RunChild] = {}
    for s in systems:
        r = res["systems"][s]
        if "error" in r:
            continue
        k = RunChild(s, name, wd)
        if "error" in k.ready:
            r["error"] = "run: " + _short_error(k.ready["error"])
            log(f"  {s} failed to load/run: {r['error']}")
            k.quit()
            continue
        kids[s] = k
        if s == "onnxruntime":
            r["compile_s"] = k.ready["load_s"]  # session creation (graph optimisation)
        r["load_s"] = k.ready["load_s"]
    # cross-check outputs against torch (or relay-mlir)
    outs: Dict[str, List[np.ndarray]] = {}
    for s, k in kids.items():
        path = wd / f"out-{_slug(s)}.npz"
        ans = k.ask({"cmd": "save", "path": str(path)})
        if ans.get("ok"):
            with np.load(path) as z:
                outs[s] = [z[f"out{i}"] for i in range(len(z.files))]
    ref = "torch" if "torch" in outs else next(iter(outs), None)
    for s, o in outs.items():
        a, b = o[0].astype(np.float64), outs[ref][0].astype(np.float64)
        if a.shape == b.shape:
            res["systems"][s]["max_abs_diff"] = float(np.max(np.abs(a - b))) if a.size else 0.0
        else:
            res["systems"][s]["max_abs_diff"] = f"shape {a.shape} vs {b.shape}"
    res["reference"] = ref
    time_interleaved(kids, res, args)
    if not args.keep:
        shutil.rmtree(wd, ignore_errors=True)
    else:
        res["workdir"] = str(wd)
    return res


# ---------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------
def machine_line() -> str:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    flags = ""
    try:
        with open("/proc/cpuinfo") as f:
            txt = f.read()
        flags = "AVX-512" if "avx512f" in txt else ("AVX2" if "avx2" in txt else "")
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 ** 30
    return f"{cpu} ({flags}), {os.cpu_count()} cores, {mem:.0f} GB, {platform.system()} {platform.release()}"


def versions() -> Dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for dist, key in (("iree-base-compiler", "iree"), ("onnxruntime", "onnxruntime"), ("torch", "torch"),
                      ("onnx", "onnx")):
        try:
            out[key] = version(dist)
        except PackageNotFoundError:
            pass
    py = _tvm_python()
    if py:
        r = subprocess.run([py, "-c", "import tvm; print(tvm.__version__)"], capture_output=True, text=True,
                           env=_env())
        if r.returncode == 0:
            out["tvm"] = r.stdout.strip()
    return out


def _fmt(v, spec=".2f", missing="—"):
    return missing if v is None or (isinstance(v, float) and v != v) else format(v, spec)


def table(results: List[dict], systems: Sequence[str]) -> str:
    """Markdown: latency ms (ratio to the fastest peer), compile s, peak MB per model and system."""
    lines = []
    head = "| model | " + " | ".join(systems) + " |"
    lines += ["### Median latency, ms (× the fastest system of the row)", "", head,
              "|---|" + "---:|" * len(systems)]
    for res in results:
        meds = {s: r.get("median_ms") for s, r in res["systems"].items() if r.get("median_ms")}
        best = min(meds.values()) if meds else None
        cells = []
        for s in systems:
            r = res["systems"].get(s)
            if r is None:
                cells.append("")
            elif r.get("median_ms"):
                m = r["median_ms"]
                mark = "**" if m == best else ""
                cells.append(f"{mark}{m:.3g}{mark} ({m / best:.2f}×)")
            else:
                cells.append("fails" if r.get("error") else "—")
        lines.append(f"| {res['model']} | " + " | ".join(cells) + " |")
    lines += ["", "### 10th-percentile latency, ms (× the fastest of the row): the runs least disturbed by "
              "other load", "", head, "|---|" + "---:|" * len(systems)]
    for res in results:
        fast = {s: r.get("p10_ms") for s, r in res["systems"].items() if r.get("p10_ms")}
        best = min(fast.values()) if fast else None
        cells = []
        for s in systems:
            r = res["systems"].get(s)
            if r is None:
                cells.append("")
            elif r.get("p10_ms"):
                cells.append(f"{r['p10_ms']:.3g} ({r['p10_ms'] / best:.2f}×)")
            else:
                cells.append("fails" if r.get("error") else "—")
        lines.append(f"| {res['model']} | " + " | ".join(cells) + " |")
    lines += ["", "### CPU time per run, ms (all threads of the run process; a runtime that spin-waits counts "
              "its spinning)", "", head, "|---|" + "---:|" * len(systems)]
    for res in results:
        cells = []
        for s in systems:
            r = res["systems"].get(s)
            cells.append("" if r is None else _fmt(r.get("cpu_ms"), ".3g", "fails" if r.get("error") else "—"))
        lines.append(f"| {res['model']} | " + " | ".join(cells) + " |")
    lines += ["", "### Compile time, s (run-process load time for onnxruntime: session creation)", "", head,
              "|---|" + "---:|" * len(systems)]
    for res in results:
        cells = []
        for s in systems:
            r = res["systems"].get(s)
            cells.append("" if r is None else _fmt(r.get("compile_s"), ".1f", "fails" if r.get("error") else "—"))
        lines.append(f"| {res['model']} | " + " | ".join(cells) + " |")
    lines += ["", "### Peak RSS, MB: run process / compile (largest process of the compile tree)", "", head,
              "|---|" + "---:|" * len(systems)]
    for res in results:
        cells = []
        for s in systems:
            r = res["systems"].get(s)
            if r is None:
                cells.append("")
            elif r.get("run_peak_mb"):
                c = r.get("compile_peak_mb")
                cells.append(f"{r['run_peak_mb']:.0f}" + (f" / {c:.0f}" if c else ""))
            else:
                cells.append("fails" if r.get("error") else "—")
        lines.append(f"| {res['model']} | " + " | ".join(cells) + " |")
    lines += ["", "### Output check: max |Δ| of output 0 vs the reference system", "",
              "| model | reference | " + " | ".join(systems) + " |", "|---|---|" + "---:|" * len(systems)]
    for res in results:
        cells = []
        for s in systems:
            r = res["systems"].get(s) or {}
            d = r.get("max_abs_diff")
            cells.append(d if isinstance(d, str) else _fmt(d, ".1e", ""))
        lines.append(f"| {res['model']} | {res.get('reference') or '—'} | " + " | ".join(cells) + " |")
    slow = [(res["model"], s, r["speed_flags_refused"]) for res in results
            for s, r in res["systems"].items() if r.get("speed_flags_refused")]
    if slow:
        lines += ["", "### Compiled without the target's first speed flags (iree-compile refused them)", ""]
        lines += [f"- {m} / {s}: {' '.join(e[0].replace('|', '/').split())[:300]}" for m, s, e in slow]
    errs = [(res["model"], s, r["error"]) for res in results for s, r in res["systems"].items() if r.get("error")]
    if errs:
        lines += ["", "### Failures", ""]
        lines += [f"- {m} / {s}: {' '.join(e.replace('|', '/').split())[:400]}" for m, s, e in errs]
    return "\n".join(lines)


BEGIN, END = "<!-- models.py:begin -->", "<!-- models.py:end -->"


def write_markdown(path: Path, results: List[dict], systems: Sequence[str], meta: dict) -> None:
    loads = [tuple(r["loadavg"]) for r in results if r.get("loadavg")]
    body = [BEGIN, "",
            f"Generated by `python bench/models.py` on {meta['date']}.  ",
            f"Machine: {meta['machine']}.  ",
            "Versions: " + ", ".join(f"{k} {v}" for k, v in meta["versions"].items()) + ".  ",
            f"Batch {meta.get('batch', 1)}, {THREADS} threads per system, {meta['rounds']} interleaved rounds; "
            f"1-min load average during the timed rounds: "
            + (f"{min(l for l, _ in loads):.1f}–{max(h for _, h in loads):.1f}" if loads else "n/a")
            + f" (the machine has {os.cpu_count()} cores; other jobs were running).  ",
            f"relay-mlir's Relay optimizer: opt level {meta.get('relay_opt_level', 3)}"
            + (f", disabled {meta['relay_disabled_pass']}" if meta.get("relay_disabled_pass") else "") + ".",
            "", table(results, systems), "", f"![latency chart]({meta.get('chart', 'results.png')})", "", END]
    text = "\n".join(body)
    if path.exists():
        old = path.read_text()
        if BEGIN in old and END in old:
            text = old[:old.index(BEGIN)] + text + old[old.index(END) + len(END):]
        else:
            text = old.rstrip() + "\n\n" + text + "\n"
    else:
        text = "# Whole-model benchmark\n\n" + text + "\n"
    path.write_text(text)


def write_png(path: Path, results: List[dict], systems: Sequence[str], meta: dict) -> None:
    """Two panels, median and 10th-percentile latency, each as a ratio to the row's fastest system."""
    try:
        import matplotlib
    except ImportError:  # the tables are written already; the plot is optional
        print(f"matplotlib is not installed: {path} not drawn (pip install matplotlib)")
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker  # noqa: F401

    rows = [r for r in results if any(v.get("median_ms") for v in r["systems"].values())]
    if not rows:
        return
    fig, axes = plt.subplots(2, 1, figsize=(max(7, 1.5 * len(rows) + 3), 8.5))
    width = 0.8 / len(systems)
    colors = plt.get_cmap("tab10")
    for ax, key, what in zip(axes, ("median_ms", "p10_ms"),
                             ("median latency", "10th-percentile latency (least disturbed runs)")):
        for j, s in enumerate(systems):
            xs, ys = [], []
            for i, res in enumerate(rows):
                vals = [v[key] for v in res["systems"].values() if v.get(key)]
                r = res["systems"].get(s) or {}
                x = i + (j - (len(systems) - 1) / 2) * width
                if r.get(key):
                    xs.append(x)
                    ys.append(r[key] / min(vals))
                elif r.get("error"):
                    ax.annotate("fails", (x, 0.65), ha="center", va="bottom", fontsize=6, rotation=90,
                                color=colors(j))
            bars = ax.bar(xs, [y - 0.6 for y in ys], width, bottom=0.6, label=s, color=colors(j))
            for bar, y in zip(bars, ys):
                ax.annotate(f"{y:.1f}" if y < 100 else f"{y:.0f}", (bar.get_x() + bar.get_width() / 2, y),
                            ha="center", va="bottom", fontsize=6)
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels([f"{r['model']}\n(best {min(v[key] for v in r['systems'].values() if v.get(key)):.3g} ms)"
                            for r in rows], fontsize=8)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_ylabel(f"{what.split(' (')[0]} / fastest", fontsize=9)
        ax.set_yscale("log", base=2)
        ax.set_ylim(bottom=0.6)
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}×"))
        ax.set_title(f"{what}, batch {meta.get('batch', 1)}, {THREADS} threads — {meta['date']} (lower is better)", fontsize=9)
    axes[0].legend(fontsize=8, ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("--child-export", "--child-compile", "--child-run"):
        mode, system, name, wd = argv[0][len("--child-"):], argv[1], argv[2], Path(argv[3])
        model = models()[name]
        if mode == "run":
            return child_run(system, model, wd)
        try:
            ans = child_export(model, wd) if mode == "export" else child_compile(system, model, wd)
            ans["compile_peak_mb"] = P.tree_peak_mb()
        except Exception as e:  # reported, not raised: one failing system does not stop the table
            ans = {"error": f"{type(e).__name__}: {str(e).strip()[:1500]}"}
        sys.stdout.write(json.dumps(ans) + "\n")
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", help="comma-separated (default: every model that exists)")
    ap.add_argument("--systems", default=",".join(ALL_SYSTEMS))
    ap.add_argument("--rounds", type=int, default=12, help="interleaved rounds (default 12)")
    ap.add_argument("--budget", type=float, default=0.4, help="seconds per burst of one system (default 0.4)")
    ap.add_argument("--max-burst", type=int, default=20)
    ap.add_argument("--timeout", type=float, default=1200, help="seconds per compile (default 1200)")
    ap.add_argument("--batch", type=int, default=1, help="batch size of every model (default 1)")
    ap.add_argument("--md", help="report (default bench/RESULTS.md; RESULTS-batchN.md at --batch N)")
    ap.add_argument("--png", help="chart (default bench/results.png; results-batchN.png)")
    ap.add_argument("--json", help="raw results (default bench/results.json; results-batchN.json)")
    ap.add_argument("--workdir", default=None, help="where artifacts go (default: a temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the artifacts (vmfb, onnx, tvm .so)")
    ap.add_argument("--from-json", metavar="RESULTS.json", help="only re-render the report of an earlier run")
    ap.add_argument("--opt-level", type=int, default=3, choices=range(5),
                    help="Relay optimizer level for the relay-mlir systems (default 3, as relay.build)")
    ap.add_argument("--disabled-pass", default="",
                    help="comma-separated PassInfo names the relay-mlir systems' optimizer skips "
                         "(e.g. FoldScaleAxis,CombineParallelConv2d)")
    ap.add_argument("--nice", type=int, default=-5, help="niceness increment for the run (default -5, if allowed)")
    args = ap.parse_args(argv)
    if args.batch < 1:
        ap.error("--batch must be at least 1")
    tag = "" if args.batch == 1 else f"-batch{args.batch}"
    args.md = args.md or str(HERE / f"RESULTS{tag}.md")
    args.png = args.png or str(HERE / f"results{tag}.png")
    args.json = args.json or str(HERE / f"results{tag}.json")
    os.environ[_OPT_ENV], os.environ[_DISABLED_ENV] = str(args.opt_level), args.disabled_pass
    os.environ[_BATCH_ENV] = str(args.batch)
    try:
        os.nice(args.nice)
    except OSError:
        pass
    if args.from_json:  # re-render the report of an earlier run
        data = json.loads(Path(args.from_json).read_text())
        results = data["results"]
        systems = [s for s in ALL_SYSTEMS if any(s in r["systems"] for r in results)]
        write_markdown(Path(args.md), results, systems, data["meta"])
        write_png(Path(args.png), results, systems, data["meta"])
        print(table(results, systems))
        return 0
    available = models()
    names = args.models.split(",") if args.models else list(available)
    unknown = [n for n in names if n not in available]
    if unknown:
        ap.error(f"unknown model(s) {', '.join(unknown)}; available: {', '.join(available)}")
    systems = [s for s in args.systems.split(",") if s]
    if args.workdir:
        os.makedirs(args.workdir, exist_ok=True)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    meta = {"date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": machine_line(), "versions": versions(), "rounds": args.rounds,
            "threads": THREADS, "flags": _cpu_flags(), "iree_onnx_flags": _iree_onnx_flags(),
            "relay_opt_level": args.opt_level, "relay_disabled_pass": args.disabled_pass,
            "batch": args.batch, "chart": Path(args.png).name}
    log(f"machine: {meta['machine']}; load average {os.getloadavg()}")
    results = []
    for n in names:
        log(f"{n}:")
        res = bench_model(n, systems, args, log)
        results.append(res)
        for s, r in res["systems"].items():
            if r.get("median_ms"):
                log(f"  {s:16s} {r['median_ms']:9.3f} ms  (run peak {r['run_peak_mb']:.0f} MB)")
        # written after every model: a long run leaves usable partial results
        Path(args.json).write_text(json.dumps({"meta": meta, "results": results}, indent=1))
        write_markdown(Path(args.md), results, systems, meta)
        write_png(Path(args.png), results, systems, meta)
    print(table(results, systems))
    return 0


if __name__ == "__main__":
    sys.exit(main())
