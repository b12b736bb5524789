#!/usr/bin/env python
"""TVM 0.19 Relay side of bench/models.py; runs in the side venv (bench/setup_tvm_venv.sh).

    tvm_runner.py compile MODEL.onnx OUT.so INPUTS_JSON   # prints {"compile_s", ..., "compile_peak_mb"}
    tvm_runner.py run     MODEL.onnx OUT.so INPUTS_JSON   # serves the bench/_protocol.py requests

compile: ``relay.frontend.from_onnx`` (static input shapes) ->
``relay.build`` at opt_level=3 for ``llvm -mcpu=<host CPU name>`` (untuned: no
TopHub/AutoTVM logs, TOPHUB_LOCATION=NONE) -> ``export_library``. The CPU is
named explicitly (``tvm.target.codegen.llvm_get_system_cpu()``): TVM 0.19 does
not resolve ``-mcpu=native`` and then generates generic x86-64 code (~6x slower
on ResNet-18 here), which would not be TVM at its best.
run: ``tvm.runtime.load_module`` + graph executor on ``tvm.cpu()``;
TVM_NUM_THREADS sets its thread pool (bench/models.py sets 2).
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("TOPHUB_LOCATION", "NONE")

import _protocol as P  # noqa: E402



def target() -> str:
    """The TVM target for this machine's CPU (see the module docstring)."""
    import tvm

    return "llvm -mcpu=" + tvm.target.codegen.llvm_get_system_cpu()


def compile_model(onnx_path: str, so_path: str, specs: list) -> dict:
    import onnx
    import tvm
    from tvm import relay

    t0 = time.perf_counter()
    model = onnx.load(onnx_path)
    shapes = {s["name"]: tuple(s["shape"]) for s in specs}
    dtypes = {s["name"]: s["dtype"] for s in specs}
    mod, params = relay.frontend.from_onnx(model, shape=shapes, dtype=dtypes, freeze_params=True)
    t1 = time.perf_counter()
    with tvm.transform.PassContext(opt_level=3):
        lib = relay.build(mod, target=target(), params=params)
    lib.export_library(so_path)
    t2 = time.perf_counter()
    return {"compile_s": t2 - t0, "import_s": t1 - t0, "build_s": t2 - t1, "target": target()}


def run_model(so_path: str, specs: list) -> int:
    import tvm
    from tvm.contrib import graph_executor

    inputs = P.make_inputs(specs)
    t0 = time.perf_counter()
    lib = tvm.runtime.load_module(so_path)
    dev = tvm.cpu()
    gm = graph_executor.GraphModule(lib["default"](dev))
    n_out = gm.get_num_outputs()

    def call():
        for s, a in zip(specs, inputs):
            gm.set_input(s["name"], a)
        gm.run()
        return [gm.get_output(i).numpy() for i in range(n_out)]

    return P.serve(call, time.perf_counter() - t0)


def main(argv) -> int:
    mode, onnx_path, so_path, specs = argv[0], argv[1], argv[2], json.loads(argv[3])
    if mode == "run":
        return run_model(so_path, specs)
    try:
        ans = compile_model(onnx_path, so_path, specs)
        ans["compile_peak_mb"] = P.tree_peak_mb()
    except Exception as e:
        ans = {"error": f"{type(e).__name__}: {str(e).strip()[-1500:]}"}
    sys.stdout.write(json.dumps(ans) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
