"""Records TVM 0.19's FlattenAtrousConv results for test/python/test_pass_flatten_atrous_conv.py.

Run in the side venv with TVM 0.19 (not in CI):
    TOPHUB_LOCATION=NONE /work/tvmvenv/bin/python scripts/tvm_flatten_atrous_conv.py \\
        > test/python/test_pass_flatten_atrous_conv_tvm019.json
"""
import json
import os

os.environ["TOPHUB_LOCATION"] = "NONE"
import tvm  # noqa: E402
from tvm import relay  # noqa: E402


def atrous(shape, block, paddings, crops, layout="NHWC", channels=4):
    x = relay.var("x", shape=shape)
    c = shape[3] if layout == "NHWC" else shape[1]
    w = relay.var("w", shape=(3, 3, c, channels) if layout == "NHWC" else (channels, c, 3, 3))
    y = relay.nn.space_to_batch_nd(x, block, paddings)
    if layout == "NHWC":
        y = relay.nn.conv2d(y, w, channels=channels, kernel_size=(3, 3), data_layout="NHWC",
                            kernel_layout="HWIO")
    else:
        y = relay.nn.space_to_batch_nd(x, block, paddings)  # NCHW: blocks over C, H
        y = relay.nn.conv2d(y, w, channels=channels, kernel_size=(3, 3))
    return relay.Function([x, w], relay.nn.batch_to_space_nd(y, block, crops))


CASES = {
    # TensorFlow's SAME atrous conv (rate 2): pads 2 on each side, no crops
    "same_rate2": atrous((1, 10, 10, 3), [2, 2], [[2, 2], [2, 2]], [[0, 0], [0, 0]]),
    # rate 3 on 9x9 with the extra padding SAME needs, cropped back
    "same_rate3_cropped": atrous((1, 9, 9, 2), [3, 3], [[3, 6], [3, 6]], [[0, 3], [0, 3]]),
    # VALID atrous conv: no padding; TVM still gives the flattened conv SAME padding
    "valid_rate2": atrous((1, 10, 10, 3), [2, 2], [[0, 0], [0, 0]], [[0, 0], [0, 0]]),
}
out = {"about": "TVM 0.19 (side venv /work/tvmvenv) printed each 'input' module after "
                "InferType and the 'output' of FlattenAtrousConv on it (or the error it "
                "raised); recorded by scripts/tvm_flatten_atrous_conv.py", "cases": {}}
for name, fn in CASES.items():
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(fn))
    rec = {"input": mod.astext()}
    try:
        rec["output"] = relay.transform.FlattenAtrousConv()(mod).astext()
    except Exception as e:  # noqa: BLE001 - recorded
        rec["error"] = str(e).strip().splitlines()[-1]
    out["cases"][name] = rec
print(json.dumps(out, indent=1))
