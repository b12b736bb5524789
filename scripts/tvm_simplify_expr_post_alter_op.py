"""Records TVM 0.19's SimplifyExprPostAlterOp results for
test/python/test_pass_simplify_expr_post_alter_op.py.

Run in the side venv with TVM 0.19 (not in CI):
    TOPHUB_LOCATION=NONE /work/tvmvenv/bin/python scripts/tvm_simplify_expr_post_alter_op.py \\
        > test/python/test_pass_simplify_expr_post_alter_op_tvm019.json
"""
import json, os
os.environ["TOPHUB_LOCATION"] = "NONE"
import logging; logging.disable(logging.WARNING)
import tvm
from tvm import relay

FLT_MAX = 3.4028234663852886e38


def cases():
    x, y = relay.var("x", shape=(2, 3)), relay.var("y", shape=(1, 4, 2, 2))
    i = relay.var("i", shape=(4,), dtype="int32")
    f = relay.var("f", shape=(4,))
    u8 = relay.var("u8", shape=(4,), dtype="uint8")
    i8 = relay.var("i8", shape=(4,), dtype="int8")

    def clip_casts(v, lo, hi, *dtypes):
        e = relay.clip(v, lo, hi)
        for d in dtypes:
            e = relay.cast(e, d)
        return e
    return {
        # the rewrites TVM applies
        "identities": ((relay.ones((2, 3), "float32") * (x + relay.zeros_like(x)) - relay.const(0.0))
                       / relay.const(1.0)),
        "reshapes": relay.reshape(relay.reshape(x, (3, 2)), (6,)),
        "same_casts": relay.Tuple([relay.cast(x, "float32"), relay.cast_like(x, x)]),
        "widening_casts": relay.cast(relay.cast(x, "float64"), "float16"),
        "cast_like_after_widening": relay.cast_like(relay.cast(i8, "int32"), f),
        "clip_int_u8_i32": clip_casts(i, 0.0, 255.0, "uint8", "int32"),
        "clip_float_u8_i32": clip_casts(f, 0.0, 255.0, "uint8", "int32"),
        "clip_u8_noop": relay.clip(u8, 0.0, 255.0),
        "clip_i8_wide": relay.clip(i8, -200.0, 300.0),
        # what it leaves
        "clip_int_1000_u8_i32": clip_casts(i, 0.0, 1000.0, "uint8", "int32"),
        "narrowing_casts": relay.cast(relay.cast(x, "float16"), "float32"),
        "transposes": relay.transpose(relay.transpose(x, (1, 0)), (1, 0)),
        "layout_transforms": relay.layout_transform(relay.layout_transform(y, "NCHW", "NCHW2c"),
                                                    "NCHW2c", "NCHW"),
        "add_self": x + x,
        "rsqrt": x / relay.sqrt(x),
        "zeros_like": relay.zeros_like(x),
        "clip_clips": relay.clip(x, -1.0, 1.0),
        # where TVM changes the result (the test checks relay-mlir keeps these)
        "tvm_wrong_clip_float_u8_f32": clip_casts(f, 0.0, 255.0, "uint8", "float32"),
        "tvm_wrong_clip_flt_max": relay.clip(f, -FLT_MAX, FLT_MAX),
        "tvm_wrong_clip_int_f32_i32": clip_casts(i, 0.0, 2.0e7, "float32", "int32"),
        "tvm_wrong_int8_uint8_int32": relay.cast(relay.cast(i8, "uint8"), "int32"),
    }


P = tvm.get_global_func("relay._transform.SimplifyExprPostAlterOp")()
out = {"about": "TVM 0.19 (side venv /work/tvmvenv) printed each 'input' module (after "
                "InferType) and the module after relay._transform.SimplifyExprPostAlterOp() "
                "('output'); PassInfo " + json.dumps([P.info.name, P.info.opt_level,
                                                      list(P.info.required)])
                + "; recorded by scripts/tvm_simplify_expr_post_alter_op.py",
       "cases": {}}
for name, body in cases().items():
    mod = tvm.IRModule.from_expr(relay.Function(relay.analysis.free_vars(body), body))
    mod = relay.transform.InferType()(mod)
    out["cases"][name] = {"input": mod.astext(), "output": P(mod).astext()}
print(json.dumps(out, indent=1))
