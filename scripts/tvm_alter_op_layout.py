"""Records TVM 0.19's AlterOpLayout results for test/python/test_pass_alter_op_layout.py.

Run in the side venv with TVM 0.19 (not in CI):
    TOPHUB_LOCATION=NONE /work/tvmvenv/bin/python scripts/tvm_alter_op_layout.py \\
        > test/python/test_pass_alter_op_layout_tvm019.json
"""
import json, os
os.environ["TOPHUB_LOCATION"] = "NONE"
import logging; logging.disable(logging.WARNING)
import tvm
from tvm import relay

def conv(x, w, **kw):
    return relay.nn.conv2d(x, w, **kw)

def case_dilated():
    x = relay.var("x", shape=(1, 8, 6, 6)); w = relay.var("w", shape=(8, 8, 3, 3))
    return [x, w], conv(x, w, dilation=(2, 2), channels=8, kernel_size=(3, 3))

def case_scalar_sigmoid():
    x = relay.var("x", shape=(1, 8, 6, 6)); w = relay.var("w", shape=(8, 8, 3, 3))
    return [x, w], relay.sigmoid(conv(x, w, padding=(1, 1), channels=8, kernel_size=(3, 3)) * relay.const(2.0))

def case_add_full():
    x = relay.var("x", shape=(1, 8, 6, 6)); w = relay.var("w", shape=(8, 8, 3, 3)); s = relay.var("s", shape=(1, 8, 6, 6))
    return [x, w, s], relay.add(conv(x, w, padding=(1, 1), channels=8, kernel_size=(3, 3)), s)

def case_softmax():
    x = relay.var("x", shape=(1, 8, 6, 6)); w = relay.var("w", shape=(8, 8, 3, 3))
    return [x, w], relay.nn.softmax(conv(x, w, padding=(1, 1), channels=8, kernel_size=(3, 3)), axis=1)

def case_groups2():
    x = relay.var("x", shape=(1, 8, 6, 6)); w = relay.var("w", shape=(8, 4, 3, 3))
    return [x, w], conv(x, w, groups=2, padding=(1, 1), channels=8, kernel_size=(3, 3))

def case_nhwc():
    x = relay.var("x", shape=(1, 6, 6, 8)); w = relay.var("w", shape=(3, 3, 8, 8))
    return [x, w], conv(x, w, data_layout="NHWC", kernel_layout="HWIO", channels=8, kernel_size=(3, 3))

def case_depth_multiplier2():
    x = relay.var("x", shape=(1, 8, 6, 6)); w = relay.var("w", shape=(16, 1, 3, 3))
    return [x, w], conv(x, w, groups=8, channels=16, kernel_size=(3, 3))

def case_odd_channels():
    x = relay.var("x", shape=(2, 3, 7, 7)); w = relay.var("w", shape=(5, 3, 3, 3))
    return [x, w], conv(x, w, strides=(2, 2), channels=5, kernel_size=(3, 3))

def case_int8():
    x = relay.var("x", shape=(1, 8, 6, 6), dtype="int8"); w = relay.var("w", shape=(8, 8, 3, 3), dtype="int8")
    return [x, w], conv(x, w, out_dtype="int32", channels=8, kernel_size=(3, 3))

def case_avx2_chain():
    x = relay.var("x", shape=(1, 12, 5, 5)); w = relay.var("w", shape=(16, 12, 3, 3)); w2 = relay.var("w2", shape=(16, 16, 3, 3))
    y = relay.nn.relu(conv(x, w, padding=(1, 1), channels=16, kernel_size=(3, 3)))
    return [x, w, w2], conv(y, w2, padding=(1, 1), channels=16, kernel_size=(3, 3))

def case_concat_same_blocks():
    x = relay.var("x", shape=(1, 8, 6, 6)); w = relay.var("w", shape=(8, 8, 3, 3)); w2 = relay.var("w2", shape=(8, 8, 3, 3))
    c = conv(x, w, padding=(1, 1), channels=8, kernel_size=(3, 3))
    return [x, w, w2], relay.concatenate([c, conv(x, w2, padding=(1, 1), channels=8, kernel_size=(3, 3))], axis=1)

def case_concat_with_plain():
    x = relay.var("x", shape=(1, 8, 6, 6)); w = relay.var("w", shape=(8, 8, 3, 3))
    return [x, w], relay.concatenate([conv(x, w, padding=(1, 1), channels=8, kernel_size=(3, 3)), x], axis=1)

def case_concat_other_blocks():
    x = relay.var("x", shape=(1, 8, 6, 6)); w = relay.var("w", shape=(8, 8, 3, 3)); w2 = relay.var("w2", shape=(12, 8, 3, 3))
    c = conv(x, w, padding=(1, 1), channels=8, kernel_size=(3, 3))
    return [x, w, w2], relay.concatenate([c, conv(x, w2, padding=(1, 1), channels=12, kernel_size=(3, 3))], axis=1)

CASES = [("dilated", case_dilated, "llvm"), ("scalar_sigmoid", case_scalar_sigmoid, "llvm"),
         ("add_full", case_add_full, "llvm"), ("softmax", case_softmax, "llvm"),
         ("groups2", case_groups2, "llvm"), ("nhwc", case_nhwc, "llvm"),
         ("depth_multiplier2", case_depth_multiplier2, "llvm"), ("odd_channels", case_odd_channels, "llvm"),
         ("int8", case_int8, "llvm"), ("avx2_chain", case_avx2_chain, "llvm -mcpu=core-avx2"),
         ("concat_same_blocks", case_concat_same_blocks, "llvm"),
         ("concat_with_plain", case_concat_with_plain, "llvm"),
         ("concat_other_blocks", case_concat_other_blocks, "llvm -mcpu=skylake-avx512"),
         ("cuda_unchanged", case_dilated, "cuda"), ("no_target_unchanged", case_dilated, None)]

out = {"about": "TVM 0.19 (side venv /work/tvmvenv, TOPHUB_LOCATION=NONE, untuned) printed each "
                "'input' module, then the module after InferType, CanonicalizeOps and AlterOpLayout "
                "at PassContext(opt_level=3) under tvm.target.Target(target) ('output'); "
                "recorded by scripts/tvm_alter_op_layout.py",
       "cases": {}}
for name, make, target in CASES:
    params, body = make()
    mod = tvm.IRModule.from_expr(relay.Function(params, body))
    mod = relay.transform.InferType()(mod)
    text_in = mod.astext()
    def run(mod):
        with tvm.transform.PassContext(opt_level=3):
            mod = relay.transform.CanonicalizeOps()(mod)
            return relay.transform.AlterOpLayout()(mod)
    if target is None:
        res = run(mod)
    else:
        with tvm.target.Target(target):
            res = run(mod)
    out["cases"][name] = {"target": target, "input": text_in, "output": res.astext()}
print(json.dumps(out, indent=1))
