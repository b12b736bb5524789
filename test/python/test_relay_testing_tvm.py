"""relay_mlir.testing workloads against TVM 0.19's relay.testing.

TVM's side comes from scripts/tvm_testing_workloads.py (TVM 0.19 side venv), recorded in
test/data/relay_testing/workloads.json: for every case (each workload at its default
arguments, resnet at 18/34/50 layers, CIFAR sizes, NHWC, float16, other batch sizes...)
``main``'s parameters (names and types in order), the params (names, shapes, dtypes in
order, and the float64 sum and absolute sum of each: the same numpy draws give the same
values), the operator histogram of ``main`` and every operator call's result type in post
order (so strides, paddings, channels and pools agree too). Three workloads (mlp, dqn, a CIFAR-size
ResNet-18) are compiled for llvm-cpu with their params and compared with TVM's graph
executor output on the same input (``<case>.npz``), rtol 1e-4, atol 1e-6.
"""
from __future__ import annotations

import importlib
import inspect
import json
from pathlib import Path

import numpy as np
import pytest

import relay_mlir
from relay_mlir import testing
from relay_mlir.expr import Op
from relay_mlir.expr_functor import ExprVisitor
from relay_mlir.ty import TupleType

DATA = Path(__file__).resolve().parent.parent / "data" / "relay_testing"
TVM = json.loads((DATA / "workloads.json").read_text())
RUN = sorted(p.stem for p in DATA.glob("*.npz"))


def _type_repr(t):
    if isinstance(t, TupleType):
        return {"tuple": [_type_repr(f) for f in t.fields]}
    return {"shape": [int(d) for d in t.shape], "dtype": str(t.dtype)}


def _type_str(t):
    if isinstance(t, TupleType):
        return "(" + ",".join(_type_str(f) for f in t.fields) + ")"
    return "x".join(str(int(d)) for d in t.shape) + ":" + str(t.dtype)


class _CallSequence(ExprVisitor):
    """``"<op> <result type>"`` of every operator call, arguments before users."""

    def __init__(self) -> None:
        super().__init__()
        self.seq = []

    def visit_call(self, call):
        super().visit_call(call)
        if isinstance(call.op, Op):
            self.seq.append(f"{call.op.name} {_type_str(call.checked_type)}")


def _workload(case):
    want = TVM[case]
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in want["kwargs"].items()}
    return importlib.import_module(f"relay_mlir.testing.{want['module']}").get_workload(**kwargs)


@pytest.mark.parametrize("case", sorted(TVM))
def test_workload_is_tvms(case):
    """Same main signature, params (order, shapes, dtypes, values' sums) and op histogram."""
    want = TVM[case]
    mod, params = _workload(case)
    main = mod["main"]
    assert [[p.name_hint, _type_repr(p.checked_type)] for p in main.params] == want["main_params"]
    assert [[k, list(v.shape), v.dtype] for k, v in params.items()] == [w[:3] for w in want["params"]]
    got_sums = np.array([[v.numpy().astype("float64").sum(), np.abs(v.numpy().astype("float64")).sum()]
                         for v in params.values()])
    np.testing.assert_allclose(got_sums, np.array([w[3:] for w in want["params"]]), rtol=1e-9, atol=1e-9)
    assert dict(sorted(testing.count_ops(main).items())) == want["ops"]
    calls = _CallSequence()
    calls.visit(main)
    assert calls.seq == want["calls"]


@pytest.mark.parametrize("case", RUN)
def test_workload_runs_like_tvm(case):
    """Compiled for llvm-cpu with its params (the NDArrays as they are): TVM's graph-executor
    output on the same input."""
    ref = np.load(DATA / f"{case}.npz")
    mod, params = _workload(case)
    exe = relay_mlir.compile(mod, target="llvm-cpu", params=params)
    np.testing.assert_allclose(np.asarray(exe(ref["data"])), ref["output"], rtol=1e-4, atol=1e-6)


SIGNATURES = json.loads((DATA / "signatures.json").read_text())


@pytest.mark.parametrize("qualname", sorted(SIGNATURES))
def test_signature_is_tvms(qualname):
    """Parameter names, kinds and defaults equal TVM 0.19's (type annotations aside)."""
    module, _, name = qualname.rpartition(".")
    fn = getattr(importlib.import_module("relay_mlir.testing" + ("." + module if module else "")), name)
    sig = inspect.signature(fn)
    plain = sig.replace(parameters=[p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()],
                        return_annotation=inspect.Signature.empty)
    assert str(plain) == SIGNATURES[qualname]
