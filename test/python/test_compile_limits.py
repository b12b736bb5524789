"""Tensor types too large to exist are refused before lowering, with a located error (issue 13).

iree-compile crashed (SIGSEGV) on a 2^62 dim instead of reporting it.
"""
from __future__ import annotations

import pytest

import relay_mlir as relay


@pytest.mark.parametrize("shape", [(2 ** 62, 2), (2 ** 21, 2 ** 21, 2 ** 21)])
def test_types_whose_element_count_overflows_are_refused_by_the_verifier(shape):
    x = relay.var("x", shape=shape, dtype="float32")
    with pytest.raises(relay.CompileError) as ei:
        relay.compile(relay.IRModule.from_expr(relay.Function([x], relay.nn.relu(x))))
    msg = str(ei.value)
    assert "element count overflows int64" in msg and "'relay.nn.relu' op" in msg, msg
    assert "test_compile_limits.py:" in msg, msg  # located at the builder call


@pytest.mark.parametrize("shape", [(2 ** 41, 2), (2 ** 20, 2 ** 20, 2 ** 4)])
def test_huge_tensor_types_are_refused(shape):
    """Counts that fit int64 but no device: refused before lowering (2^40 bytes)."""
    x = relay.var("x", shape=shape, dtype="float32")
    with pytest.raises(relay.CompileError) as ei:
        relay.compile(relay.IRModule.from_expr(relay.Function([x], relay.nn.relu(x))))
    msg = str(ei.value)
    assert "tensor too large" in msg and "2^40" in msg, msg


def test_relay_text_with_a_huge_result_is_refused():
    with pytest.raises(relay.CompileError) as ei:
        relay.compile("""
func.func @main(%x: tensor<2xf32>) -> !relay.incomplete {
  %0 = relay.reshape %x {newshape = array<i64: 1, 2>} : (tensor<2xf32>) -> !relay.incomplete
  %1 = relay.broadcast_to %0 {shape = array<i64: 4611686018427387904, 2>} : (!relay.incomplete) -> !relay.incomplete
  return %1 : !relay.incomplete
}""")
    msg = str(ei.value)
    assert "4611686018427387904" in msg and "<input>:" in msg, msg


def test_reductions_of_nothing_give_the_identity():
    """sum/prod/max/min/any/all/mean over a 0-sized axis compile (iree-compile 3.13 died of
    SIGFPE on them) and give the identity (mean: NaN, as numpy), compiled vs numpy."""
    import numpy as np

    x = relay.var("x", shape=(2, 0), dtype="float32")
    b = relay.var("b", shape=(2, 0), dtype="bool")
    outs = [relay.sum(x, axis=1), relay.prod(x, axis=1), relay.max(x, axis=1), relay.min(x, axis=1),
            relay.mean(x, axis=1), relay.cast(relay.any(b, axis=1), "float32"),
            relay.cast(relay.all(b, axis=1), "float32")]
    exe = relay.compile(relay.IRModule.from_expr(relay.Function([x, b], relay.Tuple(outs))))
    got = exe.run("main", np.zeros((2, 0), "float32"), np.zeros((2, 0), "bool"))
    want = [np.zeros(2), np.ones(2), np.full(2, -np.inf), np.full(2, np.inf), np.full(2, np.nan),
            np.zeros(2), np.ones(2)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), w.astype("float32"))


def test_a_function_taking_too_many_tensors_is_refused_up_front():
    """20,000 inputs: iree-compile's time grows faster than linearly with a function's
    inputs (it did not finish), so compile() refuses above emit.MAX_ENTRY_TENSORS,
    located at the function, before lowering; tuple parameters count by their fields."""
    from relay_mlir.emit import MAX_ENTRY_TENSORS

    xs = [relay.var(f"x{i}", shape=(2,)) for i in range(20000)]
    body = xs[0]
    for x in xs[1:]:
        body = relay.add(body, x)
    with pytest.raises(relay.CompileError) as ei:
        relay.compile(relay.IRModule.from_expr(relay.Function(xs, body)))
    msg = str(ei.value)
    assert f"@main takes 20000 tensors: at most {MAX_ENTRY_TENSORS} are compiled" in msg, msg
    assert "test_compile_limits.py:" in msg, msg
    t = relay.var("t", relay.TupleType([relay.TensorType((2,), "float32")] * (MAX_ENTRY_TENSORS + 1)))
    with pytest.raises(relay.CompileError, match=f"takes {MAX_ENTRY_TENSORS + 1} tensors"):
        relay.compile(relay.IRModule.from_expr(relay.Function([t], relay.TupleGetItem(t, 0))))


def test_unknown_unregistered_op_is_a_located_compile_error():
    """An op of no registered dialect (the parser allows unregistered ops for IREE's util/hal):
    refused before lowering, where iree-compile crashed (SIGSEGV; found by the MLIR mutation
    fuzzer, seed 15 mutant 56)."""
    text = """func.func @f(%x: tensor<2xf32>) -> index {
  %n = "SAME"(%x) : (tensor<2xf32>) -> index
  return %n : index
}
"""
    with pytest.raises(relay.CompileError) as e:
        relay.compile(text)
    assert "unknown operation 'SAME'" in str(e.value.diagnostics[0])
    assert e.value.diagnostics[0].line == 2
