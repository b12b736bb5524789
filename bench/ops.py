#!/usr/bin/env python
"""Operator benchmark: relay-mlir (IREE llvm-cpu) vs numpy vs PyTorch CPU.

Times the heaviest operators -- conv2d (NCHW, NHWC), dense, batch_matmul, softmax,
layer_norm -- and, with ``--models``, whole networks with and without
relay-convert-layout. Every implementation of every case is timed in one
process, repetitions interleaved (case by case, implementation by
implementation, round after round), and the median reported with its ratio
to relay-mlir. Timings on a shared machine are noisy: compare the ratios of
one run, not absolute numbers across runs.

    python bench/ops.py [--reps 15] [--threads 2] [--models] [--md bench/OPS.md]

PyTorch is optional (``pip install torch``); it is never a dependency of
relay-mlir. Ops that do not exist yet in the dialect are skipped.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

_THREADS = "2"
for _i, _a in enumerate(sys.argv):
    if _a == "--threads" and _i + 1 < len(sys.argv):
        _THREADS = sys.argv[_i + 1]
    elif _a.startswith("--threads="):
        _THREADS = _a.split("=", 1)[1]
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, _THREADS)

import numpy as np  # noqa: E402

import relay_mlir as relay  # noqa: E402
from relay_mlir import compiler as _compiler  # noqa: E402

NO_LAYOUT = "builtin.module(relay-to-iree-input{convert-layout=false})"


@contextmanager
def pipeline(text: Optional[str]):
    """Lowers with another ``relay-to-iree-input`` pipeline string (None: the default)."""
    old = _compiler.PIPELINE
    if text:
        _compiler.PIPELINE = text
    try:
        yield
    finally:
        _compiler.PIPELINE = old


# ---------------------------------------------------------------------------
# numpy references
# ---------------------------------------------------------------------------

def np_conv2d_nchw(x, w, pad):
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    o, i, kh, kw = w.shape
    win = np.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(2, 3))  # N C OH OW KH KW
    return np.einsum("ncpqhw,ochw->nopq", win, w, optimize=True)


def np_conv2d_nhwc(x, w, pad):
    x = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    kh, kw, i, o = w.shape
    win = np.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(1, 2))  # N OH OW C KH KW
    return np.einsum("npqchw,hwco->npqo", win, w, optimize=True)


def np_softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def np_layer_norm(x, g, b, eps=1e-5):
    m = x.mean(axis=-1, keepdims=True)
    v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

@dataclass
class Case:
    name: str
    shape_text: str
    mlir: str                      # relay MLIR of @main
    inputs: List[np.ndarray]
    numpy: Callable
    torch: Optional[Callable] = None   # takes torch tensors
    pipeline: Optional[str] = None     # relay-to-iree-input variant
    impls: Dict[str, Callable[[], object]] = field(default_factory=dict)
    ref: Optional[np.ndarray] = None


def _t(shape, dt="f32"):
    return "tensor<" + "x".join(str(d) for d in shape) + "x" + dt + ">"


def _fn(args: Sequence[Tuple[str, tuple]], body: str, result: tuple) -> str:
    params = ", ".join(f"%{n}: {_t(s)}" for n, s in args)
    return (f"func.func @main({params}) -> {_t(result)} {{\n  {body}\n"
            f"  return %y : {_t(result)}\n}}\n")


def make_cases(rng) -> List[Case]:
    f32 = lambda *s: rng.standard_normal(s).astype("float32")  # noqa: E731
    cases: List[Case] = []

    # conv2d: a ResNet stage-2 3x3 convolution, 64 -> 64 channels, 56x56.
    n, c, h, w, o, k = 1, 64, 56, 56, 64, 3
    x, wt = f32(n, c, h, w), f32(o, c, k, k) * 0.05
    body = (f"%y = relay.nn.conv2d %x, %w {{padding = array<i64: 1, 1>}} : "
            f"({_t((n, c, h, w))}, {_t((o, c, k, k))}) -> !relay.incomplete")
    mlir = _fn([("x", (n, c, h, w)), ("w", (o, c, k, k))], body, (n, o, h, w)).replace(
        f"-> {_t((n, o, h, w))} {{", "-> !relay.incomplete {").replace(
        f"return %y : {_t((n, o, h, w))}", "return %y : !relay.incomplete")
    conv_nchw_torch = lambda X, W: _torch().nn.functional.conv2d(X, W, padding=1)  # noqa: E731
    # (the weight is an argument: relay-convert-layout leaves this conv NCHW)
    cases.append(Case("conv2d NCHW", "1x64x56x56 * 64x64x3x3", mlir, [x, wt],
                      lambda X, W: np_conv2d_nchw(X, W, 1), conv_nchw_torch))
    xh, wh = np.ascontiguousarray(x.transpose(0, 2, 3, 1)), np.ascontiguousarray(wt.transpose(2, 3, 1, 0))
    body = (f"%y = relay.nn.conv2d %x, %w {{padding = array<i64: 1, 1>, data_layout = \"NHWC\", "
            f"kernel_layout = \"HWIO\"}} : ({_t(xh.shape)}, {_t(wh.shape)}) -> {_t((n, h, w, o))}")
    cases.append(Case("conv2d NHWC", "1x56x56x64 * 3x3x64x64", _fn([("x", xh.shape), ("w", wh.shape)], body,
                                                                   (n, h, w, o)),
                      [xh, wh], lambda X, W: np_conv2d_nhwc(X, W, 1),
                      # torch has no NHWC conv op: channels_last memory format is its NHWC
                      lambda X, W: _torch().nn.functional.conv2d(
                          X.permute(0, 3, 1, 2), W.permute(3, 2, 0, 1), padding=1).permute(0, 2, 3, 1)))

    # dense: a transformer MLP projection, 128 tokens, 768 -> 3072.
    m, kk, u = 128, 768, 3072
    a, b = f32(m, kk), f32(u, kk) * 0.05
    body = f"%y = relay.nn.dense %x, %w : ({_t((m, kk))}, {_t((u, kk))}) -> {_t((m, u))}"
    cases.append(Case("dense", f"{m}x{kk} * ({u}x{kk})T", _fn([("x", (m, kk)), ("w", (u, kk))], body, (m, u)),
                      [a, b], lambda X, W: X @ W.T, lambda X, W: _torch().nn.functional.linear(X, W)))

    # batch_matmul: attention scores, 12 heads x 128 x 64 (x · yᵀ).
    bb, mm, kk2 = 12, 128, 64
    p, q = f32(bb, mm, kk2), f32(bb, mm, kk2)
    body = (f"%y = relay.nn.batch_matmul %x, %w : ({_t((bb, mm, kk2))}, {_t((bb, mm, kk2))}) "
            f"-> {_t((bb, mm, mm))}")
    cases.append(Case("batch_matmul", f"{bb}x{mm}x{kk2} * ({bb}x{mm}x{kk2})T",
                      _fn([("x", (bb, mm, kk2)), ("w", (bb, mm, kk2))], body, (bb, mm, mm)),
                      [p, q], lambda X, Y: X @ Y.transpose(0, 2, 1),
                      lambda X, Y: _torch().bmm(X, Y.transpose(1, 2))))

    # softmax: attention probabilities 12 x 128 x 128 along the last axis.
    s = f32(12, 128, 128)
    body = f"%y = relay.nn.softmax %x {{axis = -1 : i64}} : ({_t(s.shape)}) -> {_t(s.shape)}"
    cases.append(Case("softmax", "12x128x128, axis -1", _fn([("x", s.shape)], body, s.shape), [s],
                      np_softmax, lambda X: _torch().softmax(X, dim=-1)))

    # layer_norm: 128 tokens x 768.
    ln, g, be = f32(128, 768), f32(768), f32(768)
    body = (f"%y = relay.nn.layer_norm %x, %g, %b {{axis = -1 : i64}} : "
            f"({_t(ln.shape)}, {_t(g.shape)}, {_t(be.shape)}) -> {_t(ln.shape)}")
    cases.append(Case("layer_norm", "128x768, axis -1",
                      _fn([("x", ln.shape), ("g", g.shape), ("b", be.shape)], body, ln.shape),
                      [ln, g, be], np_layer_norm,
                      lambda X, G, B: _torch().nn.functional.layer_norm(X, (768,), G, B)))
    return cases


_TORCH = None


def _torch():
    global _TORCH
    if _TORCH is None:
        import torch
        torch.set_num_threads(int(_THREADS))
        _TORCH = torch
    return _TORCH


def _have_torch() -> bool:
    try:
        _torch()
        return True
    except ImportError:
        return False


def iree_callable(exe, inputs: Sequence[np.ndarray]) -> Callable[[], np.ndarray]:
    """``main`` on inputs already on the device; the result is copied to the host."""
    import iree.runtime as rt

    ctx = exe._load()
    fn = ctx.modules[exe._module_name]["main"]
    dev = ctx.config.device
    args = [rt.asdevicearray(dev, a) for a in inputs]
    return lambda: np.asarray(fn(*args).to_host())


# ---------------------------------------------------------------------------
# Networks (--models)
# ---------------------------------------------------------------------------

def resnet18(image: int = 224):
    """ResNet-18 of the model zoo (``relay_mlir.models.resnet``), batch 1, NCHW."""
    from relay_mlir.models import resnet
    mod, params = resnet.get_workload(num_layers=18, image_shape=(3, image, image))
    return mod, params, (1, 3, image, image)


def mobilenet_v2(image: int = 224):
    """MobileNetV2 of the model zoo (depthwise convolutions), batch 1, NCHW."""
    from relay_mlir.models import mobilenet_v2 as mnv2
    mod, params = mnv2.get_workload(image_shape=(3, image, image))
    return mod, params, (1, 3, image, image)


def demo_resnet():
    from relay_mlir.models import resnet
    mod, params = resnet.get_workload(batch_size=1, image_shape=(3, 32, 32))
    return mod, params, (1, 3, 32, 32)


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------

def _time(f: Callable[[], object], min_s: float = 0.02) -> float:
    """Seconds per call: one call, or the mean of a few if one is very short."""
    t = time.perf_counter()
    f()
    dt = time.perf_counter() - t
    if dt >= min_s:
        return dt
    k = max(1, min(50, int(min_s / max(dt, 1e-6))))
    t = time.perf_counter()
    for _ in range(k):
        f()
    return (time.perf_counter() - t) / k


def interleaved(entries: List[Tuple[str, str, Callable[[], object]]], reps: int) -> Dict[Tuple[str, str], float]:
    """Median seconds of each (case, impl), rounds interleaved."""
    for _, _, f in entries:  # warm-up
        f()
    times: Dict[Tuple[str, str], List[float]] = {(c, i): [] for c, i, _ in entries}
    for r in range(reps):
        order = entries if r % 2 == 0 else list(reversed(entries))
        for c, i, f in order:
            times[(c, i)].append(_time(f))
    return {k: statistics.median(v) for k, v in times.items()}


def run_ops(reps: int, flags: Sequence[str]) -> Tuple[List[str], str]:
    rng = np.random.default_rng(0)
    cases = make_cases(rng)
    torch_ok = _have_torch()
    entries = []
    kept: List[Case] = []
    for case in cases:
        try:
            with pipeline(case.pipeline):
                exe = relay.compile(case.mlir, extra_args=list(flags))
        except Exception as e:  # an op that does not exist (yet) or does not lower
            print(f"skip {case.name}: {str(e).splitlines()[0][:120]}", file=sys.stderr)
            continue
        run = iree_callable(exe, case.inputs)
        got = run()
        case.ref = case.numpy(*case.inputs)
        err = float(np.max(np.abs(got - case.ref)) / (np.max(np.abs(case.ref)) + 1e-30))
        print(f"{case.name}: compiled, max rel err vs numpy {err:.1e}", file=sys.stderr)
        case.impls["relay-mlir"] = run
        case.impls["numpy"] = (lambda c=case: c.numpy(*c.inputs))
        if torch_ok and case.torch is not None:
            torch = _torch()
            targs = [torch.from_numpy(a) for a in case.inputs]
            case.impls["torch"] = (lambda c=case, a=targs: c.torch(*a))
        kept.append(case)
        for impl, f in case.impls.items():
            entries.append((case.name, impl, f))
    med = interleaved(entries, reps)
    impls = ["relay-mlir", "numpy"] + (["torch"] if torch_ok else [])
    lines = ["| op | shape | " + " | ".join(f"{i} ms" for i in impls) + " | "
             + " | ".join(f"{i} / relay-mlir" for i in impls[1:]) + " |",
             "|---|---|" + "---:|" * (2 * len(impls) - 1)]
    for case in kept:
        ms = [med.get((case.name, i)) for i in impls]
        cells = [f"{m * 1e3:.2f}" if m is not None else "-" for m in ms]
        ratios = [f"{m / ms[0]:.2f}x" if m is not None else "-" for m in ms[1:]]
        lines.append(f"| {case.name} | {case.shape_text} | " + " | ".join(cells) + " | "
                     + " | ".join(ratios) + " |")
    return lines, ""


def run_models(reps: int, flags: Sequence[str], which: Sequence[str], image: int) -> List[str]:
    builders = {"demo-resnet": demo_resnet, "resnet18": resnet18, "mobilenet_v2": mobilenet_v2}
    entries = []
    rows = []
    for name in which:
        mod, params, shape = builders[name]() if name == "demo-resnet" else builders[name](image)
        x = np.random.default_rng(1).standard_normal(shape).astype("float32")
        outs = {}
        for variant, pipe in (("NCHW as is", NO_LAYOUT), ("convert-layout NHWC", None)):
            t = time.perf_counter()
            with pipeline(pipe):
                exe = relay.compile(mod, params=params, extra_args=list(flags))
            ct = time.perf_counter() - t
            run = iree_callable(exe, [x])
            outs[variant] = run()
            entries.append((name, variant, run))
            rows.append((name, variant, ct))
            print(f"{name} / {variant}: compiled in {ct:.1f} s", file=sys.stderr)
        a, b = outs.values()
        print(f"{name}: max |diff| between variants {np.max(np.abs(a - b)):.2e}", file=sys.stderr)
    med = interleaved(entries, reps)
    lines = ["| model | variant | compile s | run ms | speed-up |", "|---|---|---:|---:|---:|"]
    for name, variant, ct in rows:
        base = med[(name, "NCHW as is")]
        lines.append(f"| {name} | {variant} | {ct:.1f} | {med[(name, variant)] * 1e3:.2f} | "
                     f"{base / med[(name, variant)]:.2f}x |")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--threads", type=int, default=int(_THREADS),
                    help="IREE task workers, torch and BLAS threads (default 2)")
    ap.add_argument("--models", nargs="*", default=None,
                    help="also time networks (demo-resnet, resnet18, mobilenet_v2) NCHW vs "
                         "convert-layout")
    ap.add_argument("--image", type=int, default=224, help="image size of resnet18/mobilenet_v2")
    ap.add_argument("--no-ops", action="store_true", help="skip the operator table")
    ap.add_argument("--flag", action="append", default=[], help="extra iree-compile flag")
    ap.add_argument("--md", help="write the tables to this Markdown file")
    args = ap.parse_args(argv)

    import iree.runtime as rt
    rt.flags.parse_flags(f"--task_topology_group_count={args.threads}")

    out = []
    if not args.no_ops:
        lines, _ = run_ops(args.reps, args.flag)
        out += lines
        print("\n".join(lines), flush=True)
    if args.models is not None:
        out += [""] + run_models(args.reps, args.flag, args.models or ["demo-resnet", "resnet18", "mobilenet_v2"],
                                 args.image)
    text = "\n".join(out)
    if args.models is not None:
        print("\n".join(out[out.index(""):]) if "" in out else text)
    if args.md:
        with open(args.md, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
