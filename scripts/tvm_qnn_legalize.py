"""Records TVM 0.19's relay.qnn.transform.Legalize results for test/python/test_pass_qnn_legalize.py.

Run in the side venv with TVM 0.19 (not in CI):
    TOPHUB_LOCATION=NONE /work/tvmvenv/bin/python scripts/tvm_qnn_legalize.py \\
        > test/python/test_pass_qnn_legalize_tvm019.json
"""
import json
import os

os.environ["TOPHUB_LOCATION"] = "NONE"
import numpy as np  # noqa: E402
import tvm  # noqa: E402
from tvm import relay  # noqa: E402


def conv(dt, wt, kzp=2):
    x = relay.var("x", shape=(1, 8, 6, 6), dtype=dt)
    w = relay.var("w", shape=(8, 8, 3, 3), dtype=wt)
    return relay.Function([x, w], relay.qnn.op.conv2d(
        x, w, relay.const(1), relay.const(kzp), relay.const(0.5), relay.const(0.25),
        kernel_size=(3, 3), channels=8, padding=(1, 1)))


def dense(dt, wt):
    x = relay.var("x", shape=(2, 8), dtype=dt)
    w = relay.var("w", shape=(4, 8), dtype=wt)
    return relay.Function([x, w], relay.qnn.op.dense(
        x, w, relay.const(1), relay.const(2), relay.const(0.5), relay.const(0.25), units=4))


PER_CHANNEL = np.arange(8, dtype="int32")
CASES = {}
for target in ["llvm", "llvm -mcpu=skylake-avx512"]:
    tag = target.split("=")[-1]
    CASES[f"conv_i8_i8_{tag}"] = (conv("int8", "int8"), target)
    CASES[f"conv_u8_i8_{tag}"] = (conv("uint8", "int8"), target)
    CASES[f"conv_i8_u8_{tag}"] = (conv("int8", "uint8"), target)
    CASES[f"dense_i8_i8_{tag}"] = (dense("int8", "int8"), target)
    CASES[f"dense_u8_i8_{tag}"] = (dense("uint8", "int8"), target)
CASES["conv_per_channel_llvm"] = (conv("int8", "int8", PER_CHANNEL), "llvm")
CASES["conv_i8_i8_no_target"] = (conv("int8", "int8"), None)

out = {"about": "TVM 0.19 (side venv /work/tvmvenv) printed each 'input' module after "
                "InferType and the 'output' of relay.qnn.transform.Legalize() on it under "
                "tvm.target.Target(target) at PassContext(opt_level=3); recorded by "
                "scripts/tvm_qnn_legalize.py", "cases": {}}
for name, (fn, target) in CASES.items():
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(fn))
    with tvm.transform.PassContext(opt_level=3):
        if target is None:
            res = relay.qnn.transform.Legalize()(mod)
        else:
            with tvm.target.Target(target):
                res = relay.qnn.transform.Legalize()(mod)
    out["cases"][name] = {"target": target, "input": mod.astext(), "output": res.astext()}
print(json.dumps(out, indent=1))
