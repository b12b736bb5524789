"""relay.transform.ToMixedPrecision (relay-to-mixed-precision; docs/passes.md).

Programs built with the TVM-style API (the same definitions were run through TVM 0.19's
ToMixedPrecision in the side venv; what it gave is recorded in ``TVM`` as data: the operators
other than ``cast`` with their result dtypes, and the dtypes of ``main``'s result). Checks:
(a) the operators and dtypes a user sees in ``mod["main"]``, (b) the interpreter's outputs
against the untransformed program (float16: rtol/atol 1e-2; bfloat16: 5e-2 — 11 and 8
significant bits, plus float16 accumulation in dense/conv), (c) TVM's transformed program,
equal except where relay-mlir differs on purpose (a float64 operand of a NEVER op stays
float64; TVM casts it to float32). Constants are converted at compile time here (TVM keeps
``cast`` ops), so the casts are not compared. One program is compiled end to end for llvm-cpu
and for vulkan-spirv.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.errors import CompileError
from relay_mlir.expr import Call, Constant, Op
from relay_mlir.expr_functor import ExprVisitor
from relay_mlir.transform import PassContext, Sequential

from pass_checks import mod_of, outputs

KEEP = "relay.ToMixedPrecision.keep_orig_output_dtype"


def _programs():
    rng = np.random.default_rng(0)

    def C(*shape):
        return relay.const(rng.standard_normal(shape).astype("float32"))

    P = {}
    x = relay.var("x", shape=(1, 3, 8, 8))
    y = relay.nn.conv2d(x, C(4, 3, 3, 3), padding=(1, 1))
    y = relay.nn.relu(relay.nn.bias_add(y, C(4)))
    y = relay.nn.max_pool2d(y, pool_size=(2, 2), strides=(2, 2))
    y = relay.nn.batch_flatten(relay.nn.global_avg_pool2d(y))
    P["conv_net"] = relay.nn.softmax(relay.nn.dense(y, C(5, 4)))
    a, b = relay.var("a", shape=(2, 3)), relay.var("b", shape=(2, 3))
    P["follow_params"] = relay.nn.relu(a) + b
    P["never"] = relay.Tuple([relay.exp(relay.nn.relu(a)), relay.sum(a * b, axis=1), relay.mean(a)])
    P["follow_after_never"] = relay.nn.relu(relay.exp(a)) * b
    P["clip"] = relay.Tuple([relay.clip(a, -1e5, 1e5), relay.clip(a, 0.0, 6.0)])
    P["missing"] = relay.log(relay.abs(a)) + b
    P["tuple_out"] = relay.Tuple([relay.nn.dense(a, b), relay.exp(a)])
    P["zeros"] = relay.zeros((2, 3), "float32") + a
    P["ints"] = relay.cast(relay.argmax(a, axis=1), "float32") + relay.sum(b, axis=1)
    P["batch_matmul"] = relay.nn.batch_matmul(relay.var("p", shape=(2, 3, 4)), relay.var("q", shape=(2, 5, 4)))
    d = relay.var("d", shape=(2, 3), dtype="float64")
    P["float64"] = relay.Tuple([relay.exp(d), relay.nn.dense(d, relay.var("e", shape=(4, 3), dtype="float64")),
                                relay.nn.relu(d)])
    P["mixed_follow"] = relay.nn.dense(a, relay.var("w", shape=(3, 3))) + relay.exp(a)
    P["const_follow"] = a * relay.const(2.0) + C(2, 3)
    return {k: mod_of(v) for k, v in P.items()}


# TVM 0.19's ToMixedPrecision(type) under keep_orig_output_dtype = False/True on _programs(), in
# the side venv: sorted (operator, result dtype) of the calls other than cast in main, and the
# dtypes of main's result.
TVM = {
    ('float16', False): {
        'conv_net': ([('nn.batch_flatten', 'float32'), ('nn.bias_add', 'float16'), ('nn.conv2d', 'float16'), ('nn.dense', 'float16'), ('nn.global_avg_pool2d', 'float32'), ('nn.max_pool2d', 'float16'), ('nn.relu', 'float16'), ('nn.softmax', 'float32')],
            ['float32']),
        'follow_params': ([('add', 'float16'), ('nn.relu', 'float16')],
            ['float16']),
        'never': ([('exp', 'float32'), ('mean', 'float32'), ('multiply', 'float16'), ('nn.relu', 'float16'), ('sum', 'float32')],
            ['float32', 'float32', 'float32']),
        'follow_after_never': ([('exp', 'float32'), ('multiply', 'float32'), ('nn.relu', 'float32')],
            ['float32']),
        'clip': ([('clip', 'float16'), ('clip', 'float32')],
            ['float32', 'float16']),
        'missing': ([('abs', 'float16'), ('add', 'float16'), ('log', 'float16')],
            ['float16']),
        'tuple_out': ([('exp', 'float32'), ('nn.dense', 'float16')],
            ['float16', 'float32']),
        'zeros': ([('add', 'float16'), ('zeros', 'float16')],
            ['float16']),
        'ints': ([('add', 'float32'), ('argmax', 'int32'), ('sum', 'float32')],
            ['float32']),
        'batch_matmul': ([('nn.batch_matmul', 'float16')],
            ['float16']),
        'float64': ([('exp', 'float32'), ('nn.dense', 'float16'), ('nn.relu', 'float16')],
            ['float32', 'float16', 'float16']),
        'mixed_follow': ([('add', 'float32'), ('exp', 'float32'), ('nn.dense', 'float16')],
            ['float32']),
        'const_follow': ([('add', 'float16'), ('multiply', 'float16')],
            ['float16']),
    },
    ('float16', True): {
        'conv_net': ([('nn.batch_flatten', 'float32'), ('nn.bias_add', 'float16'), ('nn.conv2d', 'float16'), ('nn.dense', 'float16'), ('nn.global_avg_pool2d', 'float32'), ('nn.max_pool2d', 'float16'), ('nn.relu', 'float16'), ('nn.softmax', 'float32')],
            ['float32']),
        'follow_params': ([('add', 'float16'), ('nn.relu', 'float16')],
            ['float32']),
        'never': ([('exp', 'float32'), ('mean', 'float32'), ('multiply', 'float16'), ('nn.relu', 'float16'), ('sum', 'float32')],
            ['float32', 'float32', 'float32']),
        'follow_after_never': ([('exp', 'float32'), ('multiply', 'float32'), ('nn.relu', 'float32')],
            ['float32']),
        'clip': ([('clip', 'float16'), ('clip', 'float32')],
            ['float32', 'float32']),
        'missing': ([('abs', 'float16'), ('add', 'float16'), ('log', 'float16')],
            ['float32']),
        'tuple_out': ([('exp', 'float32'), ('nn.dense', 'float16')],
            ['float32', 'float32']),
        'zeros': ([('add', 'float16'), ('zeros', 'float16')],
            ['float32']),
        'ints': ([('add', 'float32'), ('argmax', 'int32'), ('sum', 'float32')],
            ['float32']),
        'batch_matmul': ([('nn.batch_matmul', 'float16')],
            ['float32']),
        'float64': ([('exp', 'float32'), ('nn.dense', 'float16'), ('nn.relu', 'float16')],
            ['float64', 'float64', 'float64']),
        'mixed_follow': ([('add', 'float32'), ('exp', 'float32'), ('nn.dense', 'float16')],
            ['float32']),
        'const_follow': ([('add', 'float16'), ('multiply', 'float16')],
            ['float32']),
    },
    ('bfloat16', False): {
        'conv_net': ([('nn.batch_flatten', 'float32'), ('nn.bias_add', 'bfloat16'), ('nn.conv2d', 'bfloat16'), ('nn.dense', 'bfloat16'), ('nn.global_avg_pool2d', 'float32'), ('nn.max_pool2d', 'bfloat16'), ('nn.relu', 'bfloat16'), ('nn.softmax', 'float32')],
            ['float32']),
        'follow_params': ([('add', 'bfloat16'), ('nn.relu', 'bfloat16')],
            ['bfloat16']),
        'never': ([('exp', 'float32'), ('mean', 'float32'), ('multiply', 'bfloat16'), ('nn.relu', 'bfloat16'), ('sum', 'float32')],
            ['float32', 'float32', 'float32']),
        'follow_after_never': ([('exp', 'float32'), ('multiply', 'float32'), ('nn.relu', 'float32')],
            ['float32']),
        'clip': ([('clip', 'bfloat16'), ('clip', 'bfloat16')],
            ['bfloat16', 'bfloat16']),
        'missing': ([('abs', 'bfloat16'), ('add', 'bfloat16'), ('log', 'bfloat16')],
            ['bfloat16']),
        'tuple_out': ([('exp', 'float32'), ('nn.dense', 'bfloat16')],
            ['bfloat16', 'float32']),
        'zeros': ([('add', 'bfloat16'), ('zeros', 'bfloat16')],
            ['bfloat16']),
        'ints': ([('add', 'float32'), ('argmax', 'int32'), ('sum', 'float32')],
            ['float32']),
        'batch_matmul': ([('nn.batch_matmul', 'bfloat16')],
            ['bfloat16']),
        'float64': ([('exp', 'float32'), ('nn.dense', 'bfloat16'), ('nn.relu', 'bfloat16')],
            ['float32', 'bfloat16', 'bfloat16']),
        'mixed_follow': ([('add', 'float32'), ('exp', 'float32'), ('nn.dense', 'bfloat16')],
            ['float32']),
        'const_follow': ([('add', 'bfloat16'), ('multiply', 'bfloat16')],
            ['bfloat16']),
    },
    ('bfloat16', True): {
        'conv_net': ([('nn.batch_flatten', 'float32'), ('nn.bias_add', 'bfloat16'), ('nn.conv2d', 'bfloat16'), ('nn.dense', 'bfloat16'), ('nn.global_avg_pool2d', 'float32'), ('nn.max_pool2d', 'bfloat16'), ('nn.relu', 'bfloat16'), ('nn.softmax', 'float32')],
            ['float32']),
        'follow_params': ([('add', 'bfloat16'), ('nn.relu', 'bfloat16')],
            ['float32']),
        'never': ([('exp', 'float32'), ('mean', 'float32'), ('multiply', 'bfloat16'), ('nn.relu', 'bfloat16'), ('sum', 'float32')],
            ['float32', 'float32', 'float32']),
        'follow_after_never': ([('exp', 'float32'), ('multiply', 'float32'), ('nn.relu', 'float32')],
            ['float32']),
        'clip': ([('clip', 'bfloat16'), ('clip', 'bfloat16')],
            ['float32', 'float32']),
        'missing': ([('abs', 'bfloat16'), ('add', 'bfloat16'), ('log', 'bfloat16')],
            ['float32']),
        'tuple_out': ([('exp', 'float32'), ('nn.dense', 'bfloat16')],
            ['float32', 'float32']),
        'zeros': ([('add', 'bfloat16'), ('zeros', 'bfloat16')],
            ['float32']),
        'ints': ([('add', 'float32'), ('argmax', 'int32'), ('sum', 'float32')],
            ['float32']),
        'batch_matmul': ([('nn.batch_matmul', 'bfloat16')],
            ['float32']),
        'float64': ([('exp', 'float32'), ('nn.dense', 'bfloat16'), ('nn.relu', 'bfloat16')],
            ['float64', 'float64', 'float64']),
        'mixed_follow': ([('add', 'float32'), ('exp', 'float32'), ('nn.dense', 'bfloat16')],
            ['float32']),
        'const_follow': ([('add', 'bfloat16'), ('multiply', 'bfloat16')],
            ['float32']),
    },
}

# Where relay-mlir differs on purpose: exp of a float64 parameter stays float64 (TVM casts the
# float64 operand of a NEVER op to float32, losing precision nobody asked to lose).
DIFFERS = {"float64": {("exp", "float32"): ("exp", "float64")}}


class _Calls(ExprVisitor):
    def __init__(self):
        super().__init__()
        self.calls = []

    def visit_call(self, call: Call) -> None:
        if isinstance(call.op, Op):
            self.calls.append(call)
        super().visit_call(call)


def calls(mod):
    v = _Calls()
    v.visit(mod["main"])
    return v.calls


def _dtypes(t) -> list:
    return [f for x in t.fields for f in _dtypes(x)] if hasattr(t, "fields") else [t.dtype]


def _is_float(t) -> bool:
    return hasattr(t, "dtype") and t.dtype.startswith(("float", "bfloat"))


def summary(mod):
    """Sorted (operator, result dtype) of main's operator calls, less the casts between float
    types (the pass's own; a program's cast of an integer counts), and main's result dtypes."""
    ops = sorted((c.op.name, c.checked_type.dtype if hasattr(c.checked_type, "dtype") else "tuple")
                 for c in calls(mod) if c.op.name != "cast" or not _is_float(c.args[0].checked_type))
    return ops, _dtypes(mod["main"].body.checked_type)


def _amp(mod, dtype="float16", keep=False, mode=2):
    with PassContext(config={KEEP: keep}):
        return relay.transform.ToMixedPrecision(dtype, missing_op_mode=mode)(mod)


def _tvm_expected(name, dtype, keep):
    ops, ret = TVM[(dtype, keep)][name]
    fix = DIFFERS.get(name, {})
    ops = sorted(fix.get(o, o) for o in ops)
    if name == "float64" and not keep:
        ret = ["float64" if (i == 0) else r for i, r in enumerate(ret)]
    return ops, ret


@pytest.mark.parametrize("dtype,keep", list(TVM))
@pytest.mark.parametrize("name", list(TVM[("float16", False)]))
def test_ops_and_dtypes_as_tvm(name, dtype, keep):
    out = _amp(_programs()[name], dtype, keep)
    ops, ret = summary(out)
    want_ops, want_ret = _tvm_expected(name, dtype, keep)
    if name == "ints":   # TVM's data leaves out every cast; this one is the program's
        want_ops = sorted(want_ops + [("cast", "float32")])
    assert ops == want_ops
    assert ret == want_ret


def test_constants_converted_at_compile_time():
    out = _amp(_programs()["conv_net"])
    conv = next(c for c in calls(out) if c.op.name == "nn.conv2d")
    dense = next(c for c in calls(out) if c.op.name == "nn.dense")
    assert isinstance(conv.args[1], Constant) and conv.args[1].data.dtype == np.float16
    assert isinstance(dense.args[1], Constant) and dense.args[1].data.dtype == np.float16
    # the accumulation dtype is the low type, as TVM 0.19 (out_dtype="float16")
    assert str(conv.attrs["out_dtype"]) == "float16" and str(dense.attrs["out_dtype"]) == "float16"
    # the parameter is cast once
    # x -> f16, max_pool2d -> f32 (global_avg_pool2d), batch_flatten -> f16, dense -> f32
    # (softmax); TVM also casts the three constants (7 casts)
    assert [c.op.name for c in calls(out)].count("cast") == 4


def _close(before, after, tol):
    for b, a in zip(before, after):
        assert a.shape == b.shape
        np.testing.assert_allclose(a.astype("float64"), b.astype("float64"), rtol=tol, atol=tol)


TOL = {"float16": 1e-2, "bfloat16": 5e-2}


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", ["conv_net", "follow_params", "never", "tuple_out", "batch_matmul",
                                  "mixed_follow", "const_follow", "zeros", "clip"])
def test_outputs_close_to_float32(name, dtype):
    mod = _programs()[name]
    rng = np.random.default_rng(1)
    args = [rng.uniform(-1, 1, [int(d) for d in p.type_annotation.shape]).astype(p.type_annotation.dtype)
            for p in mod["main"].params]
    out = _amp(mod, dtype, keep=True)
    got = outputs(out, args)
    assert [g.dtype for g in got] == [w.dtype for w in outputs(mod, args)]   # kept
    _close(outputs(mod, args), got, TOL[dtype])


def test_pass_info_and_sequential():
    p = relay.transform.ToMixedPrecision()
    assert (p.info.name, p.info.opt_level, p.info.required) == ("ToMixedPrecision", 0, ())
    mod = _programs()["follow_params"]
    with PassContext(opt_level=0, config={KEEP: False}), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = Sequential([p])(mod)
    assert _dtypes(out["main"].body.checked_type) == ["float16"]
    with PassContext(disabled_pass=["ToMixedPrecision"]):
        assert _dtypes(Sequential([p])(mod)["main"].body.checked_type) == ["float32"]


def test_missing_op_modes():
    # TVM 0.19: log and abs are on no list: mode 0 fails ("Missing ops were found!"), mode 1 logs
    # a warning per operator, mode 2 is silent; they follow their inputs.
    mod = _programs()["missing"]
    with pytest.raises(CompileError, match="operator 'abs' is on no mixed precision list"):
        relay.transform.ToMixedPrecision(missing_op_mode=0)(mod)
    with pytest.warns(UserWarning) as record:
        out = relay.transform.ToMixedPrecision()(mod)
    assert sorted(str(w.message).split("operator ")[1] for w in record) == [
        "'abs' is on no mixed precision list (1 use); it follows its inputs",
        "'log' is on no mixed precision list (1 use); it follows its inputs"]
    assert summary(out)[1] == ["float16"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        relay.transform.ToMixedPrecision(missing_op_mode=2)(mod)
    # TVM: ValueError "Missing op mode is either 0, 1, or 2"; an int8 type is refused too.
    with pytest.raises(ValueError, match="missing_op_mode is 0, 1 or 2"):
        relay.transform.ToMixedPrecision(missing_op_mode=3)
    with pytest.raises(ValueError, match="mixed_precision_type"):
        relay.transform.ToMixedPrecision("int8")


def test_keep_orig_output_dtype_config():
    mod = _programs()["tuple_out"]
    assert _dtypes(_amp(mod, keep=False)["main"].body.checked_type) == ["float16", "float32"]
    assert _dtypes(_amp(mod, keep=True)["main"].body.checked_type) == ["float32", "float32"]
    with pytest.raises(TypeError):
        PassContext(config={KEEP: "yes"})


@pytest.mark.parametrize("other", ["closure", "exp"])
def test_branches_and_closures_keep_their_types(other):
    # TVM 0.19 (side venv): if (c) relu(a) else f(a) becomes a float16 if whose closure f returns
    # float16; if (c) relu(a) else exp(a) fails its type check (float16 vs float32 branches).
    # Here branches yield, and closures return, the types they had.
    a, c = relay.var("a", shape=(2, 3)), relay.var("c", shape=(), dtype="bool")
    p = relay.var("p", shape=(2, 3))
    f = relay.Function([p], relay.nn.relu(p) * p)
    second = f(a) if other == "closure" else relay.exp(a)
    mod = relay.IRModule.from_expr(relay.Function([a, c], relay.If(c, relay.nn.relu(a), second)))
    out = _amp(mod)
    assert _dtypes(out["main"].body.checked_type) == ["float32"]
    assert ("nn.relu", "float16") in summary(out)[0]
    xs = np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)
    for flag in (True, False):
        _close(outputs(mod, [xs, np.array(flag)]), outputs(out, [xs, np.array(flag)]), 1e-2)


# A Vulkan target whose SPIR-V environment has Float16 and 16-bit storage (lavapipe has both).
VULKAN_F16 = ["--iree-vulkan-target=valhall4"]


def _net(with_dense: bool):
    """conv2d, relu, max_pool2d (float16 after the pass), then dense (float16) and softmax
    (float32), or global_avg_pool2d and softmax (both float32)."""
    rng = np.random.default_rng(2)
    x = relay.var("x", shape=(1, 3, 8, 8))
    y = relay.nn.relu(relay.nn.conv2d(x, relay.const(rng.uniform(-1, 1, (4, 3, 3, 3)).astype("float32")),
                                      padding=(1, 1)))
    y = relay.nn.max_pool2d(y, pool_size=(2, 2), strides=(2, 2))
    if with_dense:
        y = relay.nn.dense(relay.nn.batch_flatten(y), relay.const(rng.uniform(-1, 1, (10, 64)).astype("float32")))
    else:
        y = relay.nn.batch_flatten(relay.nn.global_avg_pool2d(y))
    return mod_of(relay.nn.softmax(y)), rng.uniform(-1, 1, (1, 3, 8, 8)).astype("float32")


def _need_vulkan():
    from conftest import vulkan_device_reason
    reason = vulkan_device_reason()
    if reason:
        pytest.skip(reason)


def test_compiled_llvm_cpu():
    mod, xs = _net(with_dense=True)
    out = relay.transform.ToMixedPrecision()(mod)
    assert summary(out)[0] == [("nn.batch_flatten", "float16"), ("nn.conv2d", "float16"),
                               ("nn.dense", "float16"), ("nn.max_pool2d", "float16"),
                               ("nn.relu", "float16"), ("nn.softmax", "float32")]
    got = np.asarray(relay.create_executor("vm", mod=out, target="llvm-cpu").evaluate()(xs))
    assert got.dtype == np.float32 and got.shape == (1, 10)
    np.testing.assert_allclose(got, outputs(mod, [xs])[0], rtol=2e-2, atol=2e-3)
    np.testing.assert_allclose(got, outputs(out, [xs])[0], rtol=1e-2, atol=1e-3)


def _conv_relu_pool():
    rng = np.random.default_rng(2)
    x = relay.var("x", shape=(1, 3, 8, 8))
    y = relay.nn.relu(relay.nn.conv2d(x, relay.const(rng.uniform(-1, 1, (4, 3, 3, 3)).astype("float32")),
                                      padding=(1, 1)))
    return mod_of(relay.nn.max_pool2d(y, pool_size=(2, 2), strides=(2, 2))), \
        rng.uniform(-1, 1, (1, 3, 8, 8)).astype("float32")


def test_compiled_vulkan_spirv():
    # conv2d, relu, max_pool2d in float16, the result cast back (keep_orig_output_dtype). What
    # else float16 meets on vulkan-spirv here is wrong: the default target
    # (test_vulkan_default_target_float16), nn.dense (test_vulkan_float16_dense), and this net
    # followed by global_avg_pool2d (test_vulkan_float16_net).
    _need_vulkan()
    mod, xs = _conv_relu_pool()
    with PassContext(config={KEEP: True}):
        out = relay.transform.ToMixedPrecision()(mod)
    assert summary(out) == ([("nn.conv2d", "float16"), ("nn.max_pool2d", "float16"), ("nn.relu", "float16")],
                            ["float32"])
    exe = relay.compile(out, target="vulkan-spirv", extra_args=VULKAN_F16)
    assert exe.driver == "vulkan"
    got = np.asarray(exe(xs))
    assert got.dtype == np.float32 and got.shape == (1, 4, 4, 4)
    np.testing.assert_allclose(got, outputs(mod, [xs])[0], rtol=1e-2, atol=1e-2)
    np.testing.assert_allclose(got, outputs(out, [xs])[0], rtol=1e-2, atol=1e-2)


@pytest.mark.xfail(strict=True, reason="float16 conv2d/relu/max_pool2d, then global_avg_pool2d and "
                   "softmax in float32, is wrong on vulkan-spirv (lavapipe; up to 0.094 off in "
                   "softmax outputs of 0.16-0.39); llvm-cpu is right")
def test_vulkan_float16_net():
    _need_vulkan()
    mod, xs = _net(with_dense=False)
    out = relay.transform.ToMixedPrecision()(mod)
    assert summary(out)[0] == [("nn.batch_flatten", "float32"), ("nn.conv2d", "float16"),
                               ("nn.global_avg_pool2d", "float32"), ("nn.max_pool2d", "float16"),
                               ("nn.relu", "float16"), ("nn.softmax", "float32")]
    got = np.asarray(relay.compile(out, target="vulkan-spirv", extra_args=VULKAN_F16)(xs))
    np.testing.assert_allclose(got, outputs(mod, [xs])[0], rtol=2e-2, atol=2e-3)


@pytest.mark.xfail(strict=True, reason="vulkan-spirv's default target computes float16 tensors "
                   "wrongly on lavapipe (x + x is off by up to 0.92 on [-1, 1]); with "
                   "--iree-vulkan-target=valhall4 or rdna3 the result is exact. IREE 3.13 alone "
                   "(a linalg.generic x + x through iree-compile/iree-run-module) does the same")
def test_vulkan_default_target_float16():
    _need_vulkan()
    x = relay.var("x", shape=(2, 8), dtype="float16")
    mod = relay.IRModule.from_expr(relay.Function([x], x + x))
    xs = np.random.default_rng(0).uniform(-1, 1, (2, 8)).astype("float16")
    np.testing.assert_array_equal(np.asarray(relay.compile(mod, target="vulkan-spirv")(xs)), xs + xs)


@pytest.mark.xfail(strict=True, reason="float16 nn.dense with 64 inputs is wrong on vulkan-spirv "
                   "(lavapipe) even with a float16 target: up to 5.2 off (K=8: 9e-4; rdna3/ampere "
                   "alike; bfloat16 and out_dtype=float32 too). IREE 3.13 alone: a 1x64 by 64x10 "
                   "float16 linalg.matmul of ones and halves gives 16, not 32")
def test_vulkan_float16_dense():
    _need_vulkan()
    v, w = relay.var("v", shape=(1, 64), dtype="float16"), relay.var("w", shape=(10, 64), dtype="float16")
    mod = relay.IRModule.from_expr(relay.Function([v, w], relay.nn.dense(v, w)))
    rng = np.random.default_rng(2)
    args = [rng.uniform(-1, 1, (1, 64)).astype("float16"), rng.uniform(-1, 1, (10, 64)).astype("float16")]
    got = np.asarray(relay.compile(mod, target="vulkan-spirv", extra_args=VULKAN_F16)(*args)).astype("float64")
    np.testing.assert_allclose(got, args[0].astype("float64") @ args[1].astype("float64").T, atol=2e-2)
