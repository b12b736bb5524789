#!/usr/bin/env python3
"""Writes test/data/dyn/<case>.npz: what TVM 0.19 computes for the programs of
test/python/ops/dyn_cases.py (Relay's dyn operators, argwhere, unique: shape arguments known
only at run time), on each of their input sets (``in_<k>_<i>``, results ``out_<k>_<j>``), and
<case>.relay: the program as TVM prints it (after InferType).

Runs in the TVM 0.19 side venv (relay-mlir never depends on TVM)::

    TOPHUB_LOCATION=NONE /path/to/tvm-venv/bin/python scripts/tvm_dyn_expectations.py
"""
from __future__ import annotations

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "test", "data", "dyn")
sys.path.insert(0, os.path.join(HERE, "..", "test", "python", "ops"))


def _numpy(out) -> list:
    return [out.numpy()] if hasattr(out, "numpy") else [o.numpy() for o in out]


def main() -> None:
    import tvm
    from tvm import relay
    from dyn_cases import CASES

    os.makedirs(OUT, exist_ok=True)
    for name, (build, inputs) in CASES.items():
        params, body = build(relay)
        mod = tvm.IRModule.from_expr(relay.Function(params, body))
        with open(os.path.join(OUT, name + ".relay"), "w") as f:
            f.write(relay.transform.InferType()(mod).astext())
        arrays = {}
        try:
            run = relay.create_executor("vm", mod=mod, target="llvm", device=tvm.cpu()).evaluate()
            outs0 = [_numpy(run(*args)) for args in inputs]  # copied at once: TVM reuses the buffers
        except Exception as e:  # noqa: BLE001 - reported: the test checks these against numpy
            print(name, "TVM fails:", str(e).strip().splitlines()[-1][:200])
            continue
        for k, args in enumerate(inputs):
            for i, a in enumerate(args):
                arrays[f"in_{k}_{i}"] = np.asarray(a)
            for j, o in enumerate(outs0[k]):
                arrays[f"out_{k}_{j}"] = o
        np.savez(os.path.join(OUT, name + ".npz"), **arrays)
        print(name, len(inputs), "input sets")


if __name__ == "__main__":
    main()
