"""Records TVM 0.19's results of the qnn cases (qnn_cases.py) into qnn_tvm_results.json.

Also records PROGRAM_TEXT (TVM's own text of a quantized program) run on
program_inputs(), as "program".

Run with the side venv (TVM 0.19 with Relay), from this directory:
    TOPHUB_LOCATION=NONE /work/tvmvenv/bin/python record_qnn_tvm.py
Each case is built with ``tvm.relay.qnn.op.<op>``, compiled by
``relay.build`` for llvm (opt_level 3) and run by the graph executor.
"""
import json
import sys
from pathlib import Path

import numpy as np
import tvm
from tvm import relay
from tvm.contrib import graph_executor

sys.path.insert(0, str(Path(__file__).parent))
from qnn_cases import CASES, PROGRAM_TEXT, call, inputs, params, program_inputs  # noqa: E402


def run(name: str) -> np.ndarray:
    xs = inputs(name)
    vs = [relay.var(f"t{i}", shape=x.shape, dtype=str(x.dtype)) for i, x in enumerate(xs)]
    cs = [relay.const(p) for p in params(name)]
    y = call(relay.qnn.op, name, vs, cs)
    mod = tvm.IRModule.from_expr(relay.Function(vs, y))
    with tvm.transform.PassContext(opt_level=3):
        lib = relay.build(mod, target="llvm")
    m = graph_executor.GraphModule(lib["default"](tvm.cpu()))
    for i, x in enumerate(xs):
        m.set_input(f"t{i}", x)
    m.run()
    return m.get_output(0).numpy()


def run_program() -> np.ndarray:
    mod = tvm.relay.fromtext(PROGRAM_TEXT)
    with tvm.transform.PassContext(opt_level=3):
        lib = relay.build(mod, target="llvm")
    m = graph_executor.GraphModule(lib["default"](tvm.cpu()))
    x, w = program_inputs()
    m.set_input("x", x)
    m.set_input("w", w)
    m.run()
    return m.get_output(0).numpy()


def main() -> None:
    out = {}
    for name in CASES:
        y = run(name)
        out[name] = {"dtype": str(y.dtype), "shape": list(y.shape),
                     "values": [float(v) if y.dtype.kind == "f" else int(v) for v in y.reshape(-1)]}
        print(name, y.dtype, y.shape)
    y = run_program()
    out["program"] = {"dtype": str(y.dtype), "shape": list(y.shape), "values": [float(v) for v in y.reshape(-1)]}
    (Path(__file__).parent / "qnn_tvm_results.json").write_text(json.dumps(out, indent=0) + "\n")


if __name__ == "__main__":
    main()
