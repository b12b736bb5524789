"""Helpers shared by test_qnn.py (interpreter) and test_qnn_lowering.py (compiled):
TVM 0.19's recorded results (qnn_tvm_results.json, written by record_qnn_tvm.py)
and the cases of qnn_cases.py as relay_mlir functions."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import relay_mlir as relay
from qnn_cases import call, inputs, params

RECORDED = json.loads((Path(__file__).parent / "qnn_tvm_results.json").read_text())


def recorded(name: str) -> np.ndarray:
    r = RECORDED[name]
    return np.array(r["values"], dtype=r["dtype"]).reshape(r["shape"])


def case_function(name: str) -> relay.Function:
    """The case as a function of its tensor inputs (parameters are constants)."""
    xs = [relay.var(f"t{i}", shape=x.shape, dtype=str(x.dtype)) for i, x in enumerate(inputs(name))]
    cs = [relay.const(p) for p in params(name)]
    return relay.Function(xs, call(relay.qnn.op, name, xs, cs))


def assert_bit_exact(got, want: np.ndarray) -> None:
    """Same dtype, shape and every value (tolerance 0)."""
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype,
                                                                 want.shape)
    bad = np.flatnonzero(got.reshape(-1) != want.reshape(-1))
    assert bad.size == 0, (f"{bad.size} of {want.size} differ; first at {bad[0]}: "
                           f"got {got.reshape(-1)[bad[0]]}, TVM {want.reshape(-1)[bad[0]]}")
