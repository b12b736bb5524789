"""Type inference through the C++ relations, and CompileError cases in Python."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir import CompileError, FuncType, TensorType, TupleType


def T(*shape, dtype="float32"):
    return TensorType(shape, dtype)


def _line_of(marker: str) -> int:
    src, start = inspect.getsourcelines(inspect.currentframe().f_back.f_code)
    for i, line in enumerate(src):
        if marker in line:
            return start + i
    raise AssertionError(marker)


def test_closure_tuple_if_program():
    x = relay.var("x", shape=(4, 3))
    c = relay.var("c", shape=(), dtype="bool")
    y = relay.var("y")                      # closure parameter, type left to inference
    scale = relay.Function([y], y * x)      # captures x
    f = relay.var("f")
    t = relay.Tuple([x, relay.sum(x, axis=0)])
    branch = relay.If(c, f(relay.TupleGetItem(t, 0)), relay.negative(x))
    body = relay.Let(f, scale, relay.Tuple([branch, relay.TupleGetItem(t, 1)]))
    main = relay.Function([x, c], body)
    mod = relay.transform.InferType()(relay.IRModule.from_expr(main))

    assert y.checked_type == T(4, 3)
    assert scale.checked_type == FuncType([T(4, 3)], T(4, 3))
    assert f.checked_type == FuncType([T(4, 3)], T(4, 3))
    assert t.checked_type == TupleType([T(4, 3), T(3)])
    assert branch.checked_type == T(4, 3)
    assert c.checked_type == T(dtype="bool")
    assert main.checked_type == FuncType([T(4, 3), T(dtype="bool")], TupleType([T(4, 3), T(3)]))
    text = mod.mlir()
    assert "relay.fn" in text and "relay.if" in text and "relay.tuple" in text
    assert "!relay.incomplete" not in text
    assert "tuple<tensor<4x3xf32>, tensor<3xf32>>" in text


def test_uninferred_text_has_incomplete_types():
    x = relay.var("x", shape=(2,))
    text = relay.IRModule.from_expr(relay.exp(x)).mlir()
    assert "func.func @main" in text and "!relay.incomplete" in text


def test_operator_result_types():
    x = relay.var("x", shape=(1, 3, 32, 32))
    w = relay.var("w", shape=(8, 3, 3, 3))
    conv = relay.nn.conv2d(x, w, strides=(2, 2), padding=(1, 1))
    pool = relay.nn.max_pool2d(conv, pool_size=(2, 2), strides=(2, 2))
    bn = relay.nn.batch_norm(pool, *(relay.var(n, shape=(8,)) for n in "gbmv"))
    flat = relay.nn.batch_flatten(relay.nn.global_avg_pool2d(bn[0]))
    dyn = relay.var("d", shape=(relay.Any(), 5))
    red = relay.sum(dyn, axis=1, keepdims=True)
    relay.transform.InferType()(relay.IRModule.from_expr(relay.Tuple([flat, red])))
    assert conv.checked_type == T(1, 8, 16, 16)
    assert pool.checked_type == T(1, 8, 8, 8)
    assert bn.astuple().checked_type == TupleType([T(1, 8, 8, 8), T(8), T(8)])
    assert flat.checked_type == T(1, 8)
    assert red.checked_type == T(relay.Any(), 1)


def test_global_functions_and_recursion():
    mod = relay.IRModule()
    loop = relay.GlobalVar("loop")
    x = relay.var("x", shape=(2,))
    c = relay.var("c", shape=(), dtype="bool")
    mod[loop] = relay.Function([x, c], relay.If(c, x, loop(relay.negative(x), c)))
    sq = relay.GlobalVar("square")
    s = relay.var("s")
    mod[sq] = relay.Function([s], s * s)
    a = relay.var("a", shape=(2,))
    g = relay.var("g")
    mod["main"] = relay.Function([a], relay.Let(g, sq, g(loop(a, relay.const(True)))))
    relay.transform.InferType()(mod)
    assert mod[loop].checked_type == FuncType([T(2), T(dtype="bool")], T(2))
    assert mod[sq].checked_type == FuncType([T(2)], T(2))
    assert mod["main"].body.checked_type == T(2)
    text = mod.mlir()
    assert "func.call @loop" in text and "relay.global_fn @square" in text


# -- errors ----------------------------------------------------------------
def test_shape_mismatch_is_located():
    a = relay.var("a", shape=(2, 3))
    b = relay.var("b", shape=(4,))
    bad = relay.add(a, b)  # MARK-shape
    with pytest.raises(CompileError) as ei:
        relay.transform.InferType()(relay.IRModule.from_expr(bad))
    d = ei.value.diagnostics[0]
    assert d.severity == "error"
    assert (d.file, d.line) == (__file__, _line_of("MARK-shape"))
    assert f"{__file__}:{d.line}:" in str(ei.value)


def test_wrong_dtype():
    a = relay.var("a", shape=(3,), dtype="float32")
    b = relay.var("b", shape=(3,), dtype="int32")
    with pytest.raises(CompileError) as ei:
        relay.compile(relay.IRModule.from_expr(a + b))
    assert ei.value.diagnostics and ei.value.diagnostics[0].file == __file__


def test_unknown_operator():
    x = relay.var("x", shape=(3,))
    call = relay.Call(relay.op.get("nn.frobnicate"), [x])
    with pytest.raises(CompileError, match="frobnicate") as ei:
        relay.compile(relay.IRModule.from_expr(call))
    assert ei.value.diagnostics[0].file == __file__


def test_free_variable():
    x = relay.var("x", shape=(3,))
    with pytest.raises(CompileError, match="free variable 'x'"):
        relay.compile(relay.IRModule.from_expr(relay.Function([], relay.exp(x))))


def test_bad_mlir_text():
    with pytest.raises(CompileError) as ei:
        relay.compile("func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %y : tensor<2xf32>\n}",
                      source_name="bad.mlir")
    d = ei.value.diagnostics[0]
    assert (d.file, d.line) == ("bad.mlir", 2)


def test_type_error_in_text_is_located():
    text = """func.func @main(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> !relay.incomplete {
  %0 = relay.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> !relay.incomplete
  return %0 : !relay.incomplete
}
"""
    with pytest.raises(CompileError) as ei:
        relay.compile(text, source_name="mismatch.mlir")
    d = ei.value.diagnostics[0]
    assert (d.file, d.line, d.severity) == ("mismatch.mlir", 2, "error")


def test_compile_text_and_run():
    text = """func.func @main(%x: tensor<2x2xf32>) -> !relay.incomplete {
  %0 = relay.nn.relu %x : (tensor<2x2xf32>) -> !relay.incomplete
  %1 = relay.sum %0 {axis = array<i64: 1>} : (!relay.incomplete) -> !relay.incomplete
  return %1 : !relay.incomplete
}
"""
    exe = relay.compile(text)
    x = np.array([[-1, 2], [3, 4]], "float32")
    np.testing.assert_allclose(exe(x), [2, 7], rtol=1e-6)
    assert exe.compile_time_s > 0


def test_if_program_runs_both_branches():
    x = relay.var("x", shape=(3,))
    c = relay.var("c", shape=(), dtype="bool")
    exe = relay.compile(relay.IRModule.from_expr(relay.Function([x, c], relay.If(c, x * x, -x))))
    v = np.array([1, 2, 3], "float32")
    np.testing.assert_array_equal(exe(v, np.array(True)), v * v)
    np.testing.assert_array_equal(exe(v, np.array(False)), -v)


def test_closures_compile_and_run():
    """A closure capturing a parameter: lambda-lifted, defunctionalised, compiled."""
    x = relay.var("x", shape=(2,))
    y = relay.var("y")
    f = relay.Function([y], y * x)
    exe = relay.compile(relay.IRModule.from_expr(relay.Function([x], f(x))))
    a = np.array([1.5, -2.0], "float32")
    np.testing.assert_array_equal(exe(a), a * a)
