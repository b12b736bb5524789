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

def case_resnet_stem():
    # ResNet's stem: 7x7/2 conv, relu, 3x3/2 max pool, then a 3x3 conv
    x = relay.var("x", shape=(1, 3, 32, 32)); w = relay.var("w", shape=(16, 3, 7, 7)); w2 = relay.var("w2", shape=(16, 16, 3, 3))
    y = relay.nn.relu(conv(x, w, strides=(2, 2), padding=(3, 3), channels=16, kernel_size=(7, 7)))
    y = relay.nn.max_pool2d(y, pool_size=(3, 3), strides=(2, 2), padding=(1, 1))
    return [x, w, w2], relay.nn.relu(conv(y, w2, padding=(1, 1), channels=16, kernel_size=(3, 3)))

# (a classifier's head: TVM 0.19 also packs a dense after these, nn.contrib_dense_pack with
# NC{n}n weights, which relay-mlir's AlterOpLayout does not do: softmax stands for it)
def case_global_pool_head():
    x = relay.var("x", shape=(1, 8, 6, 6)); w = relay.var("w", shape=(16, 8, 3, 3))
    y = relay.nn.global_avg_pool2d(relay.nn.relu(conv(x, w, padding=(1, 1), channels=16, kernel_size=(3, 3))))
    return [x, w], relay.nn.softmax(relay.nn.batch_flatten(y))

def case_mean_head():
    x = relay.var("x", shape=(1, 8, 6, 6)); w = relay.var("w", shape=(16, 8, 3, 3))
    y = relay.mean(relay.nn.relu(conv(x, w, padding=(1, 1), channels=16, kernel_size=(3, 3))), axis=[2, 3])
    return [x, w], relay.nn.softmax(y)

def case_pools_reductions():
    # avg pool, adaptive avg / max pool, global max pool, sum/max keepdims, mean over W only
    x = relay.var("x", shape=(1, 8, 8, 8)); w = relay.var("w", shape=(8, 8, 3, 3))
    c = conv(x, w, padding=(1, 1), channels=8, kernel_size=(3, 3))
    return [x, w], relay.Tuple([relay.nn.avg_pool2d(c, pool_size=(2, 2), strides=(2, 2), count_include_pad=True),
                                relay.nn.adaptive_avg_pool2d(c, output_size=(3, 3)),
                                relay.nn.adaptive_max_pool2d(c, output_size=(2, 2)),
                                relay.nn.global_max_pool2d(c),
                                relay.sum(c, axis=[2, 3], keepdims=True),
                                relay.max(c, axis=[-1], keepdims=True),
                                relay.mean(c, axis=[3])])

def case_reductions_channels():
    # reductions over C (TVM: its block too, axis [1, 4]), N, with exclude, no axis
    x = relay.var("x", shape=(1, 8, 6, 6)); w = relay.var("w", shape=(8, 8, 3, 3))
    c = conv(x, w, padding=(1, 1), channels=8, kernel_size=(3, 3))
    return [x, w], relay.Tuple([relay.mean(c, axis=[1], keepdims=True), relay.mean(c, axis=[1]),
                                relay.sum(c, axis=[1, 2, 3], keepdims=True), relay.sum(c),
                                relay.max(c, axis=[0], keepdims=True),
                                relay.sum(c, axis=[1], exclude=True, keepdims=True)])

def case_pool_nhwc_unchanged():
    # a pool in NHWC after a blocked conv: the conv's result goes back to NCHW, then transposed
    x = relay.var("x", shape=(1, 8, 6, 6)); w = relay.var("w", shape=(8, 8, 3, 3))
    c = relay.transpose(conv(x, w, padding=(1, 1), channels=8, kernel_size=(3, 3)), (0, 2, 3, 1))
    return [x, w], relay.nn.max_pool2d(c, pool_size=(2, 2), layout="NHWC")

CASES = [("resnet_stem", case_resnet_stem, "llvm"), ("global_pool_head", case_global_pool_head, "llvm"),
         ("mean_head", case_mean_head, "llvm"), ("pools_reductions", case_pools_reductions, "llvm"),
         ("pool_nhwc_unchanged", case_pool_nhwc_unchanged, "llvm"),
         ("reductions_channels", case_reductions_channels, "llvm"),
         ("resnet_stem_avx512", case_resnet_stem, "llvm -mcpu=skylake-avx512"),
("dilated", case_dilated, "llvm"), ("scalar_sigmoid", case_scalar_sigmoid, "llvm"),
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
