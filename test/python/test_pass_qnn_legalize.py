"""relay.qnn.transform.Legalize (issue 31) against TVM 0.19's recorded results.

test_pass_qnn_legalize_tvm019.json (scripts/tvm_qnn_legalize.py) holds the modules TVM 0.19
printed: qnn.conv2d / qnn.dense of int8 and uint8 operands (a per-channel kernel zero point
once), and Legalize's output under ``llvm`` (no sse4.2: int16 ``nn.conv2d``/``nn.dense``),
``llvm -mcpu=skylake-avx512`` (int8 data shifted to uint8) and no target (unchanged). Each
input is read with ``relay.fromtext`` and legalized by relay-mlir under the same target: the
result has TVM's operators, and the same int32 outputs as the input (reference interpreter,
exactly: integer arithmetic).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import relay_mlir as relay

from pass_checks import node_counts, outputs, under_target

CASES = json.loads((Path(__file__).parent / "test_pass_qnn_legalize_tvm019.json")
                   .read_text())["cases"]


def _args(mod, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    out = []
    for p in mod["main"].params:
        t = p.type_annotation
        lo, hi = (-128, 128) if t.dtype == "int8" else (0, 256)
        out.append(rng.integers(lo, hi, [int(d) for d in t.shape]).astype(t.dtype))
    return out


def _legalize(mod, target):
    return under_target(relay.qnn.transform.Legalize(), mod, target)


@pytest.mark.parametrize("name", sorted(CASES))
def test_tvm_recorded_cases(name):
    case = CASES[name]
    mod = relay.fromtext(case["input"])
    out = _legalize(mod, case["target"])
    assert node_counts(out) == node_counts(relay.fromtext(case["output"]))
    args = _args(mod)
    np.testing.assert_array_equal(outputs(out, args)[0], outputs(mod, args)[0])


def test_pass_info():
    p = relay.qnn.transform.Legalize()
    assert (p.info.name, p.info.opt_level, p.info.required) == ("Legalize", 1, ("InferType",))


def test_int16_form_compiles_to_the_same_values():
    mod = relay.fromtext(CASES["conv_i8_i8_llvm"]["input"])
    out = _legalize(mod, "llvm")
    args = _args(mod, seed=3)
    got = relay.compile(out, target="llvm-cpu")(*args)
    np.testing.assert_array_equal(np.asarray(got), outputs(mod, args)[0])
