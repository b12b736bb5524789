"""TVM 0.19's Relay text after its passes reads back, with TVM's meaning (issue 31).

The texts in test_pass_printed_text_tvm019.json are what TVM 0.19 printed in the side venv:
SimplifyInference of ``nn.layer_norm`` (two-operand ``variance(%x, %mean)``), CombineParallelDense(3) with
``to_batch`` (``stack`` without an axis), ``nn.pad`` with its value as an operand,
ToANormalForm of a ``concatenate`` (of a let-bound tuple variable), FuseOps (primitive
functions with ``relay.reshape_only=1``), FastMath (``nn.fast_softmax``, read as
``nn.softmax``), and AlterOpLayout under
``tvm.target.Target(...)`` at opt level 3 after CanonicalizeOps: ``llvm`` (untuned x86:
NCHW4c blocks), ``llvm -mcpu=skylake-avx512`` (NCHW16c, then NCHW8c for 8 output channels),
a depthwise conv (``nn.contrib_depthwise_conv2d_NCHWc``, kernel OIHW1i4o) and 6 channels
(NCHW3c: the block is the largest divisor of the channels up to the SIMD width).
``nn.contrib_conv2d_NCHWc`` reads as that operator (the dialect's, issue 31; relay-mlir's own
AlterOpLayout is test_pass_alter_op_layout.py); every program's outputs (reference interpreter; one compiled for
llvm-cpu) equal numpy's, rtol 1e-5, atol 1e-5.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.errors import CompileError
from relay_mlir.testing import numpy_ref as ref

from pass_checks import node_counts, outputs

# TVM 0.19's printed programs, recorded in the side venv (the file says how)
TVM_TEXT = json.loads((Path(__file__).parent / "test_pass_printed_text_tvm019.json").read_text())["texts"]


TOL = dict(rtol=1e-5, atol=1e-5)


def _args(mod, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1, 1, [int(d) for d in p.type_annotation.shape]).astype("float32")
            for p in mod["main"].params]


def _layout_transforms(mod) -> set:
    found = set()

    def visit(e):
        if isinstance(e, relay.Call) and getattr(e.op, "name", None) == "layout_transform":
            found.add((e.attrs["src_layout"], e.attrs["dst_layout"]))
    relay.analysis.post_order_visit(mod["main"], visit)
    return found


def test_layer_norm_after_simplify_inference():
    mod = relay.fromtext(TVM_TEXT["layer_norm"])
    assert node_counts(mod) == {"add": 2, "divide": 1, "mean": 1, "multiply": 1, "sqrt": 1,
                                "subtract": 1, "variance": 1}
    x, g, b = _args(mod)
    mu = x.mean(-1, keepdims=True)
    want = (x - mu) / np.sqrt(((x - mu) ** 2).mean(-1, keepdims=True) + 1e-5) * g + b
    np.testing.assert_allclose(outputs(mod, [x, g, b])[0], want, **TOL)


def test_stack_without_axis_after_combine_parallel_dense():
    mod = relay.fromtext(TVM_TEXT["dense_to_batch"])
    counts = node_counts(mod)
    assert counts["stack"] == 2 and counts["nn.batch_matmul"] == 1 and "nn.dense" not in counts
    d, *ws = _args(mod)
    for got, w in zip(outputs(mod, [d, *ws]), ws):
        np.testing.assert_allclose(got, d @ w.T, **TOL)


def test_pad_value_operand():
    mod = relay.fromtext(TVM_TEXT["pad"])
    (x,) = _args(mod)
    want = np.pad(x, ((0, 0), (0, 0), (1, 0), (1, 2)), constant_values=0.5)
    np.testing.assert_allclose(outputs(mod, [x])[0], want, **TOL)
    again = relay.fromtext(mod.astext())  # relay-mlir prints pad_width flattened
    np.testing.assert_allclose(outputs(again, [x])[0], want, **TOL)


def test_concatenate_of_a_let_bound_tuple():
    mod = relay.fromtext(TVM_TEXT["concatenate_anf"])
    (t,) = _args(mod)
    np.testing.assert_allclose(outputs(mod, [t])[0], np.concatenate([t, np.exp(t)], 0), **TOL)


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_fuse_ops_primitive_functions_with_dotted_attributes():
    mod = relay.fromtext(TVM_TEXT["fuse_ops"])  # fn (..., Primitive=1, relay.reshape_only=1)
    fns = []
    relay.analysis.post_order_visit(mod["main"], lambda e: fns.append(e) if isinstance(e, relay.Function) else None)
    attrs = [dict(f.attrs or {}) for f in fns if f is not mod["main"]]
    assert len(attrs) == 3 and all(a.get("Primitive") == 1 for a in attrs)
    assert sum(a.get("relay.reshape_only") == 1 for a in attrs) == 1
    x, w = _args(mod)
    want = _softmax(np.maximum(ref.conv2d(x, w, padding=(1, 1)), 0).reshape(1, -1))
    np.testing.assert_allclose(outputs(mod, [x, w])[0], want, **TOL)


def test_fast_math_fast_softmax():
    mod = relay.fromtext(TVM_TEXT["fast_math"])
    assert node_counts(mod) == {"fast_exp": 1, "fast_tanh": 1, "multiply": 1, "nn.softmax": 1}
    (a,) = _args(mod)
    np.testing.assert_allclose(outputs(mod, [a])[0], _softmax(np.exp(a) * np.tanh(a)), **TOL)


def _conv_chain(x, w, b, w2, groups: int = 1) -> np.ndarray:
    y = ref.conv2d(x, w, padding=(1, 1), groups=groups) + b.reshape(1, -1, 1, 1)
    return ref.conv2d(np.maximum(y, 0), w2, strides=(2, 2))


# TVM's layout_transforms (src, dst) in each AlterOpLayout result
ALTERED = {
    "alter_llvm": {("NCHW", "NCHW4c"), ("OIHW", "OIHW4i4o"), ("NCHW4c", "NCHW")},
    "alter_avx512": {("NCHW", "NCHW16c"), ("OIHW", "OIHW16i16o"), ("NCHW16c", "NCHW8c"),
                     ("OIHW", "OIHW8i8o"), ("NCHW8c", "NCHW")},
    "alter_depthwise": {("NCHW", "NCHW4c"), ("OIHW", "OIHW1i4o"), ("OIHW", "OIHW4i4o"),
                        ("NCHW4c", "NCHW")},
    "alter_6_channels": {("NCHW", "NCHW3c"), ("OIHW", "OIHW3i3o"), ("NCHW3c", "NCHW")},
}


@pytest.mark.parametrize("name", sorted(ALTERED))
def test_alter_op_layout_programs(name):
    mod = relay.fromtext(TVM_TEXT[name])
    assert ALTERED[name] <= _layout_transforms(mod)
    args = _args(mod)
    groups = args[0].shape[1] if name == "alter_depthwise" else 1
    np.testing.assert_allclose(outputs(mod, args)[0], _conv_chain(*args, groups=groups), **TOL)


def test_alter_op_layout_program_compiled():
    mod = relay.fromtext(TVM_TEXT["alter_llvm"])
    args = _args(mod, seed=1)
    got = relay.compile(mod, target="llvm-cpu")(*args)
    np.testing.assert_allclose(np.asarray(got), _conv_chain(*args), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("old,new,expected", [
    ('kernel_layout="OIHW4i4o"', 'kernel_layout="OIHW4o4i"', "OIHW<n>i<m>o"),
    ('data_layout="NCHW4c", kernel', 'data_layout="NHWC4c", kernel', "NCHW<n>c"),
])
def test_nchwc_layouts_other_than_tvms_are_errors(old, new, expected):
    text = TVM_TEXT["alter_llvm"].replace(old, new, 1)
    with pytest.raises(CompileError, match=expected):
        relay.fromtext(text)


def test_tuple_operand_that_is_not_a_tuple():
    text = ('#[version = "0.0.5"]\n'
            "def @main(%t: Tensor[(2, 3), float32]) { let %u = exp(%t); concatenate(%u) }")
    with pytest.raises(CompileError, match="concatenate.*takes a tuple"):
        relay.fromtext(text)
