#!/usr/bin/env python
"""Each nn.conv2d lowering strategy on the convolution shapes of the zoo (bench/STRATEGIES.md).

    python bench/strategies.py [--models resnet18,vgg16,...] [--batch 1] [--rounds 12]
                               [--md bench/STRATEGIES.md]

Every distinct dense convolution (groups = 1) of the models' workloads is compiled alone, as
``convert-layout`` hands it to the lowering (NHWC data, HWIO kernel, a constant weight), once
per strategy that can compute it: ``direct`` (``linalg.conv_2d_nhwc_hwcf``), ``im2col`` (patch
matrix + ``linalg.matmul``) and, for 3x3 kernels at stride 1, ``winograd``, each asked for
with the ``relay.conv_strategy`` attribute (lib/Conversion/RelayToLinalg/Conv.cpp); and once
as the cost rules choose (``auto``). The strategies' calls are interleaved, on one thread
(IREE's ``local-sync``) and on two (``local-task``); the tables give median milliseconds, the
fastest's GFLOP/s (2 x the direct form's multiply-adds) and how far ``auto`` is from the
fastest. Outputs are checked against the direct form (rtol 1e-3 of the largest magnitude:
Winograd F(4x4) rounds differently).
"""
from __future__ import annotations

import argparse
import datetime as _dt
import os
import re
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

STRATEGIES = ["direct", "im2col", "winograd"]
DRIVERS = {"1 thread": "local-sync", "2 threads": "local-task"}
ConvShape = Tuple[Tuple[int, ...], Tuple[int, ...], Tuple[int, ...], Tuple[int, ...], Tuple[int, ...]]


def conv_shapes(model: str) -> List[ConvShape]:
    """(NHWC input, HWIO kernel, strides, padding (top, left, bottom, right), dilation) of each
    dense nn.conv2d of the model's workload, in order of appearance."""
    import models as M

    import relay_mlir as relay
    from relay_mlir.expr import Call
    from relay_mlir.expr_functor import ExprVisitor

    mod, _ = M.models()[model].workload()
    mod = relay.transform.InferType()(mod)
    found: List[ConvShape] = []

    class Convs(ExprVisitor):
        def visit_call(self, call):
            super().visit_call(call)
            if not isinstance(call, Call) or getattr(call.op, "name", "") != "nn.conv2d":
                return
            a = call.attrs
            if int(a.groups) != 1:
                return
            x = tuple(int(d) for d in call.args[0].checked_type.shape)
            w = tuple(int(d) for d in call.args[1].checked_type.shape)
            if a.data_layout == "NCHW":
                x = (x[0], x[2], x[3], x[1])
            if a.kernel_layout == "OIHW":
                w = (w[2], w[3], w[1], w[0])
            pad = tuple(int(p) for p in a.padding)
            pad = pad * 2 if len(pad) == 2 else pad
            found.append((x, w, tuple(int(s) for s in a.strides), pad,
                          tuple(int(d) for d in a.dilation)))

    Convs().visit(mod["main"])
    return found


def macs(shape: ConvShape) -> int:
    (n, h, w, c), (kh, kw, _, f), s, p, d = shape
    oh = (h + p[0] + p[2] - d[0] * (kh - 1) - 1) // s[0] + 1
    ow = (w + p[1] + p[3] - d[1] * (kw - 1) - 1) // s[1] + 1
    return n * oh * ow * f * kh * kw * c


def _source(shape: ConvShape, weight: np.ndarray, strategy: Optional[str]) -> str:
    """The convolution as relay MLIR text (its weight a constant), asking for ``strategy``."""
    import relay_mlir as relay

    x_shape, w_shape, strides, pad, dil = shape
    x = relay.var("x", shape=x_shape)
    fn = relay.Function([x], relay.nn.conv2d(x, relay.const(weight), strides=strides, padding=pad,
                                             dilation=dil, data_layout="NHWC", kernel_layout="HWIO"))
    text = relay.IRModule.from_expr(fn).to_mlir(infer=True).text()
    if strategy:
        text, k = re.subn(r"(relay\.nn\.conv2d [^{]*\{)", rf'\1relay.conv_strategy = "{strategy}", ', text)
        assert k == 1, "one convolution per program"
    return text


def applicable(shape: ConvShape) -> List[str]:
    """The strategies that compute ``shape`` (Winograd: 3x3 kernels at stride 1, no dilation)."""
    _, (kh, kw, _, _), strides, _, dilation = shape
    winograd = (kh, kw) == (3, 3) and strides == (1, 1) and dilation == (1, 1)
    return [s for s in STRATEGIES if s != "winograd" or winograd]


def _auto_strategy(iree_input: str) -> str:
    """The strategy the cost rules chose, from the program handed to IREE: its linalg ops,
    or the names of our own kernels' executables when relay-vnni-matmul took them."""
    if "linalg.batch_matmul" in iree_input or re.search(r"relay_\w+?_batch_gemm_", iree_input):
        return "winograd"
    if "linalg.conv_2d" in iree_input or re.search(r"relay_\w+?_conv_", iree_input):
        return "direct"
    return "im2col"


def measure(shape: ConvShape, rounds: int) -> dict:
    """{"auto": chosen strategy, "ms": {driver label: {strategy: median ms}}, "error": {...}}."""
    import relay_mlir as relay
    from relay_mlir.errors import CompileError
    from relay_mlir.runtime import Executable

    rng = np.random.default_rng(0)
    weight = (rng.standard_normal(shape[1]) / np.sqrt(np.prod(shape[1][:3]))).astype(np.float32)
    x = rng.standard_normal(shape[0]).astype(np.float32)
    exes: Dict[Tuple[str, str], Executable] = {}
    out: dict = {"ms": {k: {} for k in DRIVERS}, "error": {}}
    for strategy in applicable(shape) + ["auto"]:
        try:
            exe = relay.compile(_source(shape, weight, None if strategy == "auto" else strategy),
                                target="llvm-cpu")
        except CompileError as e:
            out["error"][strategy] = str(e).splitlines()[0][:120]
            continue
        if strategy == "auto":
            out["auto"] = _auto_strategy(exe.iree_input or "")
            continue
        for label, driver in DRIVERS.items():
            exes[(label, strategy)] = Executable(exe.vmfb, driver=driver, result_dtypes=exe.result_dtypes)
    ref = np.asarray(exes[("1 thread", "direct")](x))
    for key, exe in exes.items():
        got = np.asarray(exe(x))
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-3 * float(np.abs(ref).max()),
                                   err_msg=f"{key} of {shape}")
    start = time.perf_counter()
    exes[("1 thread", "direct")](x)
    calls = max(2, min(100, int(0.01 / (time.perf_counter() - start))))
    times: Dict[Tuple[str, str], List[float]] = {k: [] for k in exes}
    for _ in range(rounds):
        for key, exe in exes.items():
            for _ in range(calls):
                t = time.perf_counter()
                exe(x)
                times[key].append(time.perf_counter() - t)
    for (label, strategy), ts in times.items():
        out["ms"][label][strategy] = float(np.median(ts)) * 1e3
    return out


def _describe(shape: ConvShape) -> str:
    (n, h, w, c), (kh, kw, _, f), s, p, d = shape
    text = f"{n}x{h}x{w}x{c} -> {f}, {kh}x{kw}"
    if s != (1, 1):
        text += f"/{s[0]}" if s[0] == s[1] else f"/{s[0]}x{s[1]}"
    if any(p):
        text += f" pad {p[0]}" if len(set(p)) == 1 else f" pad {','.join(map(str, p))}"
    if d != (1, 1):
        text += f" dil {d[0]}"
    return text


def table(rows: List[dict], label: str) -> str:
    lines = ["| convolution (NHWC, kernel) | models | MMAC | " + " | ".join(STRATEGIES)
             + " | fastest GFLOP/s | auto | auto / fastest |",
             "|---|---|---:|" + "---:|" * len(STRATEGIES) + "---:|---|---:|"]
    for r in rows:
        ms = r["ms"][label]
        best = min(ms, key=ms.get)
        cells = [(f"**{ms[s]:.3f}**" if s == best else f"{ms[s]:.3f}") if s in ms else "—"
                 for s in STRATEGIES]
        auto = r.get("auto", "—")
        ratio = f"{ms[auto] / ms[best]:.2f}x" if auto in ms else "—"
        gflops = 2 * r["macs"] / (ms[best] * 1e-3) / 1e9
        lines.append(f"| {r['name']} | {', '.join(r['models'])} | {r['macs'] / 1e6:.1f} | "
                     + " | ".join(cells) + f" | {gflops:.0f} | {auto} | {ratio} |")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", default="resnet_demo,resnet18,resnet50,vgg16,mobilenet_v2,dqn,vit_tiny")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--rounds", type=int, default=12)
    p.add_argument("--md", default=str(HERE / "STRATEGIES.md"))
    args = p.parse_args(argv)
    os.environ["RELAY_MLIR_BENCH_BATCH"] = str(args.batch)
    import models as M

    shapes: Dict[ConvShape, List[str]] = {}
    for model in args.models.split(","):
        for s in conv_shapes(model):
            users = shapes.setdefault(s, [])
            if model not in users:
                users.append(model)
    rows = []
    started = _dt.datetime.now(_dt.timezone.utc)
    for i, (shape, users) in enumerate(shapes.items()):
        print(f"[{i + 1}/{len(shapes)}] {_describe(shape)} ({', '.join(users)})", flush=True)
        r = measure(shape, args.rounds)
        r.update(name=_describe(shape), models=users, macs=macs(shape))
        print("   ", {k: {s: round(v, 4) for s, v in d.items()} for k, d in r["ms"].items()},
              "auto:", r.get("auto"), flush=True)
        rows.append(r)
    load = os.getloadavg()[0]
    commit = os.popen(f"git -C {HERE} rev-parse --short HEAD").read().strip()
    head = [
        "# nn.conv2d strategies on the zoo's convolutions", "",
        f"Generated by `python bench/strategies.py --batch {args.batch}` at {commit} on "
        f"{started:%Y-%m-%d %H:%M} UTC. {M.machine_line()}. 1-min load average at the end: "
        f"{load:.1f}. Each dense convolution alone (NHWC, constant HWIO weight), each strategy "
        "asked for with `relay.conv_strategy`; `auto` is what the cost rules in "
        "lib/Conversion/RelayToLinalg/Conv.cpp choose. Median ms of interleaved calls "
        f"({args.rounds} rounds); the fastest in bold; GFLOP/s = 2 x multiply-adds of the "
        "direct form / the fastest's time. A convolution alone is not the convolution in its "
        "model (there its consumers fuse into it, and its neighbours share the caches): "
        "bench/PARTIAL.md says where the two disagree.", "",
    ]
    body = []
    for label in DRIVERS:
        body += [f"## Batch {args.batch}, {label}", "", table(rows, label), ""]
    errors = [f"- {r['name']}: {s}: {e}" for r in rows for s, e in r["error"].items()]
    if errors:
        body += ["Strategies that failed to compile:", ""] + errors + [""]
    Path(args.md).write_text("\n".join(head + body))
    print("wrote", args.md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
