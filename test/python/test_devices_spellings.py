"""TVM 0.19's public spellings of the device annotations (issue 34 §3), and their Relay text.

SPELLINGS lists, as recorded from TVM 0.19 (``hasattr`` on each dotted path in the side venv),
where TVM has ``on_device``, ``device_copy``, ``compiler_begin/end`` and ``function_on_device``;
each must exist in relay-mlir and be the one implementation (no second copy to drift).
"""
import pytest

import relay_mlir as relay
from relay_mlir import annotation

# dotted path under `relay` -> the relay_mlir.annotation function it must be (TVM 0.19 has all)
SPELLINGS = {
    "device_copy": "device_copy", "op.device_copy": "device_copy",
    "op.tensor.device_copy": "device_copy",
    "annotation.on_device": "on_device", "op.annotation.on_device": "on_device",
    "op.annotation.annotation.on_device": "on_device",
    "annotation.compiler_begin": "compiler_begin", "op.annotation.compiler_begin": "compiler_begin",
    "annotation.compiler_end": "compiler_end", "op.annotation.compiler_end": "compiler_end",
    "annotation.function_on_device": "function_on_device",
    "op.annotation.function_on_device": "function_on_device",
    "annotation.stop_fusion": "stop_fusion", "op.annotation.stop_fusion": "stop_fusion",
    "annotation.checkpoint": "checkpoint", "op.annotation.checkpoint": "checkpoint",
}
# and where TVM 0.19 has none (AttributeError there); relay_mlir.annotation also defines
# device_copy, so relay.annotation.device_copy is an extra spelling TVM lacks
ABSENT = ["on_device", "op.on_device"]


def _resolve(path):
    obj = relay
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("path", sorted(SPELLINGS))
def test_tvm_spelling_exists(path):
    assert _resolve(path) is getattr(annotation, SPELLINGS[path])


@pytest.mark.parametrize("path", ABSENT)
def test_spellings_tvm_lacks_are_absent(path):
    with pytest.raises(AttributeError):
        _resolve(path)


def test_function_on_device_says_what_to_write():
    """TVM 0.19's function_on_device raises AttributeError (_make.FunctionOnDevice is gone)."""
    x = relay.var("x", shape=(2,))
    with pytest.raises(NotImplementedError, match="on_device\\(param, device\\)"):
        relay.annotation.function_on_device(relay.Function([x], x), ["cpu"], "cpu")


def test_annotations_round_trip_through_text():
    x, y = relay.var("x", shape=(2, 3)), relay.var("y", shape=(2, 3))
    body = relay.multiply(relay.add(relay.annotation.on_device(x, "cuda", constrain_result=True), y),
                          relay.op.device_copy(y, "cpu", "cuda"))
    text = relay.IRModule.from_expr(relay.Function([x, y], body)).astext()
    assert 'on_device(%x, virtual_device="cuda", constrain_result=True' in text
    assert 'device_copy(%y, src_virtual_device="cpu", dst_virtual_device="cuda")' in text
    back = relay.fromtext(text, source_name="m.relay")
    assert back.astext() == text
    copy = back["main"].body.args[1]
    assert (copy.op.name, copy.attrs["dst_virtual_device"]) == ("device_copy", "cuda")


def test_bad_device_in_text_is_a_located_error():
    text = "def @main(%x: Tensor[(2), float32]) {\n  on_device(%x, virtual_device=3.5)\n}"
    with pytest.raises(relay.CompileError) as err:
        relay.fromtext(text, source_name="m.relay")
    assert "m.relay:2:3" in str(err.value) and "on_device" in str(err.value)


def test_stop_fusion_and_checkpoint_are_their_value():
    """TVM 0.19 prints them as below; here they are markers that are their value (IREE forms
    the dispatches; no gradient rematerialization reads checkpoint)."""
    import numpy as np

    x = relay.var("x", shape=(2,))
    body = relay.annotation.checkpoint(relay.annotation.stop_fusion(relay.exp(x)))
    mod = relay.IRModule.from_expr(relay.Function([x], body))
    text = mod.astext()
    assert "%1 = annotation.stop_fusion(%0);\n  annotation.checkpoint(%1)" in text  # TVM's text
    assert relay.fromtext(text).astext() == text
    v = np.array([0.0, 1.0], "float32")
    np.testing.assert_allclose(relay.create_executor("debug", mod=mod).evaluate()(v), np.exp(v),
                               rtol=1e-6)
    lowered = mod.to_mlir(infer=True).text()
    assert "stop_fusion" not in lowered and "relay.exp" in lowered
