#!/usr/bin/env python
"""Differential fuzz of relay.qnn.op programs against TVM 0.19 (a dev tool, not a test).

    python scripts/qnn_fuzz_vs_tvm.py --seeds 0:40 [--extra] --workdir /tmp/qf \
        --tvm-python /work/tvmvenv/bin/python        # with relay-mlir's environment

Each seed is a TVM-API script of six random qnn ops (quantize, dequantize, requantize with
both roundings and per channel, conv2d direct/depthwise/grouped/per-channel/padded/strided/
dilated, dense, add/mul/subtract with broadcasting, concatenate, batch_matmul, avg_pool2d;
``--extra``: sigmoid, tanh, erf, hardswish, leaky_relu, softmax, NHWC conv2d,
conv2d_transpose) on seeded inputs, built by ``relay.build`` and run by the graph executor:
once in TVM 0.19 (the side venv), once with ``relay_mlir.tvm``'s imports. Integer outputs
must be equal; the op of every difference is printed. Session 29: 70 programs (420 ops) found
qnn.softmax's older form and IREE's shifted padded 1x1 convolutions (docs/history.md).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

PORT = {"import tvm\n": "import relay_mlir.tvm as tvm\n",
        "from tvm import relay\n": "from relay_mlir.tvm import relay\n",
        "from tvm.contrib import graph_executor\n": "from relay_mlir.tvm.contrib import graph_executor\n"}

UNARY = ["sigmoid", "tanh", "exp", "sqrt", "rsqrt", "erf", "log", "abs", "hardswish"]
EXTRA = ["sigmoid", "tanh", "leaky_relu", "softmax", "conv2d_nhwc", "conv2d_transpose", "hardswish", "erf"]


def gen(seed: int, extra: bool) -> str:
    """The TVM 0.19 script of program ``seed`` (six random qnn ops; ``extra``: the unary,
    softmax, NHWC and transposed-convolution ops too); it saves its results to ``OUT``."""
    r = np.random.default_rng(seed)
    L = ["import numpy as np", "import tvm", "from tvm import relay", "from tvm.contrib import graph_executor",
         f"rng = np.random.default_rng({seed})", "outs = []", "inputs = {}",
         "def C(v, dt='float32'): return relay.const(np.array(v, dt))",
         "def inp(name, shape, dt):",
         "    lo, hi = {'int8': (-128, 127), 'uint8': (0, 255), 'int32': (-3000, 3000), 'float32': (-4, 4)}[dt]",
         "    a = rng.uniform(lo, hi, shape).astype(dt) if dt == 'float32' else rng.integers(lo, hi + 1, shape).astype(dt)",
         "    inputs[name] = a",
         "    return relay.var(name, shape=shape, dtype=dt)"]
    def sc(): return float(np.float32(np.exp(r.uniform(-6, 0))))
    def zp(dt): return int(r.integers(-128, 128)) if dt == "int8" else int(r.integers(0, 256))
    def qdt(): return str(r.choice(["int8", "uint8"]))
    k = 0
    for _ in range(6):
        op = r.choice(["quantize", "dequantize", "requantize", "requantize_pc", "conv2d", "dense", "add", "mul",
                       "subtract", "concatenate", "batch_matmul", "avg_pool2d", "conv2d_pc", "dense_pc"]
                      + (EXTRA if extra else []))
        k += 1
        n = f"x{k}"
        if op == "quantize":
            dt = qdt(); shp = [int(v) for v in r.integers(1, 6, 3)]
            L.append(f"outs.append(relay.qnn.op.quantize(inp('{n}', {shp}, 'float32'), C({sc()}), C({zp(dt)}, 'int32'), out_dtype='{dt}'))")
        elif op == "dequantize":
            dt = qdt(); shp = [int(v) for v in r.integers(1, 6, 3)]
            L.append(f"outs.append(relay.qnn.op.dequantize(inp('{n}', {shp}, '{dt}'), C({sc()}), C({zp(dt)}, 'int32')))")
        elif op in ("requantize", "requantize_pc"):
            idt = str(r.choice(["int8", "uint8", "int32"])); odt = qdt(); shp = [int(v) for v in r.integers(1, 6, 3)]
            rnd = str(r.choice(["UPWARD", "TONEAREST"]))
            izp = 0 if idt == "int32" else zp(idt)
            if op == "requantize_pc":
                c = shp[1]; isc = [sc() for _ in range(c)]
                L.append(f"outs.append(relay.qnn.op.requantize(inp('{n}', {shp}, '{idt}'), C({isc}), C({izp}, 'int32'), C({sc()}), C({zp(odt)}, 'int32'), axis=1, rounding='{rnd}', out_dtype='{odt}'))")
            else:
                L.append(f"outs.append(relay.qnn.op.requantize(inp('{n}', {shp}, '{idt}'), C({sc()}), C({izp}, 'int32'), C({sc()}), C({zp(odt)}, 'int32'), rounding='{rnd}', out_dtype='{odt}'))")
        elif op in ("conv2d", "conv2d_pc"):
            dt = qdt(); wdt = str(r.choice(["int8", "uint8"])) if dt == "uint8" else "int8"
            cin = int(r.integers(1, 6)); g = int(r.choice([1, cin])) if cin > 1 else 1
            cout = g * int(r.integers(1, 4)); kh, kw = int(r.integers(1, 4)), int(r.integers(1, 4))
            h, w = int(r.integers(kh, 10)), int(r.integers(kw, 10))
            st = [int(r.integers(1, 3)), int(r.integers(1, 3))]; pd = [int(r.integers(0, 2)) for _ in range(4)]
            dil = [1, 1] if r.random() < 0.7 else [int(r.integers(1, 3)), 1]
            if (h + pd[0] + pd[2] - (kh - 1) * dil[0] - 1) < 0: dil = [1, 1]
            ksc = [sc() for _ in range(cout)] if op == "conv2d_pc" else sc()
            kzp = 0 if wdt == "int8" else zp(wdt)
            L.append(f"w{k} = relay.const(rng.integers({-128 if wdt == 'int8' else 0}, {128 if wdt == 'int8' else 256}, ({cout}, {cin // g}, {kh}, {kw})).astype('{wdt}'))")
            L.append(f"outs.append(relay.qnn.op.conv2d(inp('{n}', [1, {cin}, {h}, {w}], '{dt}'), w{k}, C({zp(dt)}, 'int32'), C({kzp}, 'int32'), C({sc()}), C({ksc}), kernel_size=({kh}, {kw}), channels={cout}, strides={tuple(st)}, padding={tuple(pd)}, dilation={tuple(dil)}, groups={g}))")
        elif op in ("dense", "dense_pc"):
            dt = qdt(); wdt = "int8" if dt == "int8" else str(r.choice(["int8", "uint8"]))
            m, kk, u = int(r.integers(1, 5)), int(r.integers(1, 20)), int(r.integers(1, 9))
            ksc = [sc() for _ in range(u)] if op == "dense_pc" else sc()
            kzp = 0 if wdt == "int8" else zp(wdt)
            L.append(f"w{k} = relay.const(rng.integers({-128 if wdt == 'int8' else 0}, {128 if wdt == 'int8' else 256}, ({u}, {kk})).astype('{wdt}'))")
            L.append(f"outs.append(relay.qnn.op.dense(inp('{n}', [{m}, {kk}], '{dt}'), w{k}, C({zp(dt)}, 'int32'), C({kzp}, 'int32'), C({sc()}), C({ksc}), units={u}))")
        elif op in ("add", "mul", "subtract"):
            dt = qdt(); shp = [int(v) for v in r.integers(1, 5, 3)]
            shp2 = [s if r.random() < 0.7 else 1 for s in shp]
            L.append(f"outs.append(relay.qnn.op.{op}(inp('{n}', {shp}, '{dt}'), inp('{n}b', {shp2}, '{dt}'), C({sc()}), C({zp(dt)}, 'int32'), C({sc()}), C({zp(dt)}, 'int32'), C({sc()}), C({zp(dt)}, 'int32')))")
        elif op == "concatenate":
            dt = qdt(); shp = [2, 3]; nin = int(r.integers(2, 4))
            ins = ", ".join(f"inp('{n}_{i}', {shp}, '{dt}')" for i in range(nin))
            scs = ", ".join(f"C({sc()})" for i in range(nin)); zps = ", ".join(f"C({zp(dt)}, 'int32')" for i in range(nin))
            L.append(f"outs.append(relay.qnn.op.concatenate([{ins}], [{scs}], [{zps}], C({sc()}), C({zp(dt)}, 'int32'), axis={int(r.integers(0, 2))}))")
        elif op == "batch_matmul":
            dt = qdt(); b, m, nn_, kk = [int(v) for v in r.integers(1, 6, 4)]
            L.append(f"outs.append(relay.qnn.op.batch_matmul(inp('{n}', [{b}, {m}, {kk}], '{dt}'), inp('{n}b', [{b}, {nn_}, {kk}], '{dt}'), C({zp(dt)}, 'int32'), C({zp(dt)}, 'int32'), C({sc()}), C({sc()})))")
        elif op in UNARY:
            dt = qdt(); shp = [int(v) for v in r.integers(1, 5, 3)]
            L.append(f"outs.append(relay.qnn.op.{op}(inp('{n}', {shp}, '{dt}'), C({sc()}), C({zp(dt)}, 'int32'), C({sc()}), C({zp(dt)}, 'int32')))")
        elif op == "leaky_relu":
            dt = qdt(); shp = [int(v) for v in r.integers(1, 5, 3)]
            L.append(f"outs.append(relay.qnn.op.leaky_relu(inp('{n}', {shp}, '{dt}'), {float(r.uniform(0, 0.5))}, C({sc()}), C({zp(dt)}, 'int32'), C({sc()}), C({zp(dt)}, 'int32')))")
        elif op == "softmax":
            dt = "int8"; shp = [int(v) for v in r.integers(1, 5, 2)]
            L.append(f"outs.append(relay.qnn.op.softmax(inp('{n}', {shp}, '{dt}'), C({sc()}), C({zp(dt)}, 'int32'), C(1.0 / 256), C(-128, 'int32')))")
        elif op == "conv2d_nhwc":
            dt = qdt(); cin = int(r.integers(1, 6)); cout = int(r.integers(1, 6)); kh, kw = int(r.integers(1, 4)), int(r.integers(1, 4))
            h, w = int(r.integers(kh, 9)), int(r.integers(kw, 9)); st = (int(r.integers(1, 3)), int(r.integers(1, 3)))
            pd = tuple(int(r.integers(0, 2)) for _ in range(4))
            L.append(f"w{k} = relay.const(rng.integers(-128, 128, ({kh}, {kw}, {cin}, {cout})).astype('int8'))")
            L.append(f"outs.append(relay.qnn.op.conv2d(inp('{n}', [1, {h}, {w}, {cin}], '{dt}'), w{k}, C({zp(dt)}, 'int32'), C(0, 'int32'), C({sc()}), C({sc()}), kernel_size=({kh}, {kw}), channels={cout}, strides={st}, padding={pd}, data_layout='NHWC', kernel_layout='HWIO'))")
        elif op == "conv2d_transpose":
            dt = qdt(); cin = int(r.integers(1, 5)); cout = int(r.integers(1, 5)); kh, kw = int(r.integers(1, 4)), int(r.integers(1, 4))
            h, w = int(r.integers(1, 6)), int(r.integers(1, 6)); st = (int(r.integers(1, 3)), int(r.integers(1, 3)))
            pd = (0, 0, 0, 0) if min(kh, kw) == 1 else tuple(int(r.integers(0, 2)) for _ in range(4))
            L.append(f"w{k} = relay.const(rng.integers(-128, 128, ({cin}, {cout}, {kh}, {kw})).astype('int8'))")
            L.append(f"outs.append(relay.qnn.op.conv2d_transpose(inp('{n}', [1, {cin}, {h}, {w}], '{dt}'), w{k}, C({zp(dt)}, 'int32'), C(0, 'int32'), C({sc()}), C({sc()}), kernel_size=({kh}, {kw}), channels={cout}, strides={st}, padding={pd}, out_dtype='int32'))")
        elif op == "avg_pool2d":
            dt = qdt(); h, w, c = [int(v) for v in r.integers(2, 7, 3)]
            ps = (int(r.integers(1, min(h, 3) + 1)), int(r.integers(1, min(w, 3) + 1)))
            cip = bool(r.random() < 0.5); ceil = bool(r.random() < 0.3)
            pd = (int(r.integers(0, 2)), int(r.integers(0, 2))) if min(ps) > 1 else (0, 0)
            L.append(f"outs.append(relay.qnn.op.avg_pool2d(inp('{n}', [1, {h}, {w}, {c}], '{dt}'), C({sc()}), C({zp(dt)}, 'int32'), C({sc()}), C({zp(dt)}, 'int32'), pool_size={ps}, strides=(1, 1), padding={pd}, dilation=(1, 1), ceil_mode={ceil}, count_include_pad={cip}, layout='NHWC'))")
    L += ["f = relay.Function(relay.analysis.free_vars(relay.Tuple(outs)), relay.Tuple(outs))",
          "mod = tvm.IRModule.from_expr(f)",
          "with tvm.transform.PassContext(opt_level=3):",
          "    lib = relay.build(mod, target='llvm')",
          "m = graph_executor.GraphModule(lib['default'](tvm.cpu()))",
          "for k_, v_ in inputs.items(): m.set_input(k_, v_)",
          "m.run()",
          "results = [m.get_output(i).numpy() for i in range(m.get_num_outputs())]",
          "np.savez(OUT, *results)"]
    return "\n".join(L) + "\n"


def ops_of(script: str):
    return [line.split("relay.qnn.op.")[1].split("(")[0] for line in script.splitlines()
            if line.startswith("outs.append")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="0:20", help="first:last (exclusive)")
    ap.add_argument("--extra", action="store_true", help="also the unary, softmax, NHWC and transposed ops")
    ap.add_argument("--workdir", default="/tmp/qnn_fuzz")
    ap.add_argument("--tvm-python", default="/work/tvmvenv/bin/python")
    args = ap.parse_args()
    lo, hi = (int(v) for v in args.seeds.split(":"))
    wd = Path(args.workdir)
    wd.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, TOPHUB_LOCATION="NONE")
    bad = 0
    for seed in range(lo, hi):
        script = gen(seed, args.extra)
        ours = "".join(PORT.get(line, line) for line in script.splitlines(keepends=True))
        for name, text, py in (("tvm", script, args.tvm_python), ("ours", ours, sys.executable)):
            path = wd / f"{name}{seed}.py"
            path.write_text(f"OUT = {str(wd / f'{name}{seed}.npz')!r}\n" + text)
            subprocess.run([py, str(path)], env=env, capture_output=True, text=True)
        t, o = wd / f"tvm{seed}.npz", wd / f"ours{seed}.npz"
        if not t.exists():
            continue  # TVM refused the program
        if not o.exists():
            print(seed, "relay-mlir failed", wd / f"ours{seed}.py")
            bad += 1
            continue
        A, B = np.load(t), np.load(o)
        for i, (k, op) in enumerate(zip(A.files, ops_of(script))):
            x, y = A[k], B[k]
            if x.shape != y.shape or x.dtype != y.dtype or \
                    np.abs(x.astype(np.float64) - y.astype(np.float64)).max(initial=0) > \
                    (1e-5 * max(1.0, float(np.abs(x).max(initial=0))) if x.dtype.kind == "f" else 0):
                print(seed, i, op, "differs", wd / f"tvm{seed}.py")
                bad += 1
    print("differences:", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
