"""nn.space_to_batch_nd / nn.batch_to_space_nd (issue 31): TVM 0.19's semantics.

The reference is the element formula (TVM's topi, TensorFlow's definition), written here
with numpy slicing: ``out[(i1*b2 + i2)*N + n, y1, y2, ...] = padded[n, y1*b1 + i1,
y2*b2 + i2, ...]`` (checked against TVM 0.19's outputs in the side venv for a (2, 5, 6, 3)
input, block [2, 3], paddings [[1, 0], [0, 3]], pad_value 0.5: equal). Outputs of the
reference interpreter and of one llvm-cpu compile (the dialect operators' lowering) are compared
exactly (data movement), the batch_to_space_nd of an ``exp`` of it to
rtol 1e-6 (``exp``'s rounding).
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay

from pass_checks import outputs


def _space_to_batch_ref(x, block, paddings, pad_value=0.0):
    p = np.pad(x, [(0, 0)] + [tuple(q) for q in paddings] + [(0, 0)] * (x.ndim - 1 - len(block)),
               constant_values=pad_value)
    parts = []
    for offsets in np.ndindex(*block):
        index = (slice(None),) + tuple(slice(o, None, b) for o, b in zip(offsets, block))
        parts.append(p[index])
    return np.concatenate(parts, axis=0)  # block offsets major, then the batch


def _batch_to_space_ref(x, block, crops):
    n = x.shape[0] // int(np.prod(block))
    full = [n] + [s * b for s, b in zip(x.shape[1:], block)] + list(x.shape[1 + len(block):])
    out = np.zeros(full, x.dtype)
    for k, offsets in enumerate(np.ndindex(*block)):
        index = (slice(None),) + tuple(slice(o, None, b) for o, b in zip(offsets, block))
        out[index] = x[k * n:(k + 1) * n]
    crop = (slice(None),) + tuple(slice(c0, s - c1) for (c0, c1), s in zip(crops, full[1:]))
    return out[crop]


CASES = [  # (shape, block, paddings, crops, pad_value)
    ((2, 5, 6, 3), [2, 3], [[1, 0], [0, 3]], [[1, 0], [0, 3]], 0.5),
    ((1, 4, 4, 2), [2, 2], [[0, 0], [0, 0]], [[0, 0], [0, 0]], 0.0),
    ((3, 6, 2), [3], [[0, 3]], [[0, 3]], -1.0),
]


@pytest.fixture(scope="module")
def roundtrip():
    """One module per case: (space_to_batch_nd, batch_to_space_nd of exp of it)."""
    mods = []
    for shape, block, pads, crops, value in CASES:
        x = relay.var("x", shape=shape)
        s = relay.nn.space_to_batch_nd(x, block, pads, pad_value=value)
        b = relay.nn.batch_to_space_nd(relay.exp(s), block, crops)
        mods.append(relay.IRModule.from_expr(relay.Function([x], relay.Tuple([s, b]))))
    return mods


@pytest.mark.parametrize("case", range(len(CASES)))
def test_interpreter_matches_the_formula(roundtrip, case):
    shape, block, pads, crops, value = CASES[case]
    x = np.random.default_rng(case).standard_normal(shape).astype("float32")
    s, b = outputs(roundtrip[case], [x])
    want = _space_to_batch_ref(x, block, pads, value)
    np.testing.assert_array_equal(s, want)
    np.testing.assert_allclose(b, _batch_to_space_ref(np.exp(want), block, crops), rtol=1e-6)
    mod = relay.transform.InferType()(roundtrip[case])
    assert [int(d) for d in mod["main"].body.fields[0].checked_type.shape] == list(want.shape)


def test_compiled_matches_the_formula(roundtrip):
    # the dialect ops' lowering (lib/Conversion/RelayToLinalg/NNSpaceBatch.cpp; more cases,
    # int8 and a 3-D block, in ops/test_nn.py)
    shape, block, pads, crops, value = CASES[0]
    x = np.random.default_rng(7).standard_normal(shape).astype("float32")
    s, b = relay.compile(roundtrip[0], target="llvm-cpu")(x)
    want = _space_to_batch_ref(x, block, pads, value)
    np.testing.assert_array_equal(np.asarray(s), want)
    np.testing.assert_allclose(np.asarray(b), _batch_to_space_ref(np.exp(want), block, crops),
                               rtol=1e-6)


def test_emitted_as_the_dialect_operators(roundtrip):
    from relay_mlir.emit import emit_module
    text = emit_module(roundtrip[0]).text()
    assert "relay.nn.space_to_batch_nd" in text and "relay.nn.batch_to_space_nd" in text
    assert "paddings = array<i64: 1, 0, 0, 3>" in text and "crops = array<i64: 1, 0, 0, 3>" in text


def test_text_round_trip():
    x = relay.var("x", shape=(1, 4, 4, 2))
    y = relay.nn.batch_to_space_nd(relay.nn.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]]),
                                   [2, 2], [[0, 0], [1, 1]])
    mod = relay.IRModule.from_expr(relay.Function([x], y))
    again = relay.fromtext(mod.astext())
    assert again["main"].body.attrs["crops"] == [[0, 0], [1, 1]]
    a = np.arange(32, dtype="float32").reshape(1, 4, 4, 2)
    np.testing.assert_array_equal(outputs(again, [a])[0], a[:, :, 1:3])


@pytest.mark.parametrize("make,expected", [
    (lambda x: relay.nn.space_to_batch_nd(x, [2, 2], [[0, 0]]), "paddings must be 2 .before, after. pairs"),
    (lambda x: relay.nn.space_to_batch_nd(x, [0, 2], [[0, 0], [0, 0]]), "block_shape must be"),
    (lambda x: relay.nn.batch_to_space_nd(x, [2, 2], [[0, -1], [0, 0]]), "crops must be 2"),
])
def test_bad_attributes_are_named(make, expected):
    with pytest.raises(ValueError, match=expected):
        make(relay.var("x", shape=(4, 4, 4, 2)))


@pytest.mark.parametrize("make,expected", [
    (lambda x: relay.nn.space_to_batch_nd(x, [3, 2], [[0, 0], [0, 0]]), "not a multiple of block_shape"),
    (lambda x: relay.nn.batch_to_space_nd(x, [3, 2], [[0, 0], [0, 0]]), "batch 4 is not a multiple"),
])
def test_shapes_that_do_not_divide_are_errors(make, expected):
    x = relay.var("x", shape=(4, 4, 4, 2))
    mod = relay.IRModule.from_expr(relay.Function([x], make(x)))
    with pytest.raises(ValueError, match=expected):  # the interpreter's kernel
        outputs(mod, [np.zeros((4, 4, 4, 2), "float32")])
    with pytest.raises(relay.CompileError, match=expected):  # the typing rule (NNSpaceBatch.cpp)
        relay.transform.InferType()(mod)
