"""Tensor types too large to exist are refused before lowering, with a located error (issue 13).

iree-compile crashed (SIGSEGV) on a 2^62 dim instead of reporting it.
"""
from __future__ import annotations

import pytest

import relay_mlir as relay


@pytest.mark.parametrize("shape", [(2 ** 62, 2), (2 ** 21, 2 ** 21, 2 ** 21)])
def test_huge_tensor_types_are_refused(shape):
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
