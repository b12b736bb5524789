"""TVM 0.19's Relay text after its passes reads back, with TVM's meaning (issue 31).

The texts below are what TVM 0.19 printed in the side venv (recorded as data): SimplifyInference
of ``nn.layer_norm`` (two-operand ``variance(%x, %mean)``), CombineParallelDense(3) with
``to_batch`` (``stack`` without an axis), ``nn.pad`` with its value as an operand,
ToANormalForm of a ``concatenate`` (of a let-bound tuple variable), and AlterOpLayout under
``tvm.target.Target(...)`` at opt level 3 after CanonicalizeOps: ``llvm`` (untuned x86:
NCHW4c blocks), ``llvm -mcpu=skylake-avx512`` (NCHW16c, then NCHW8c for 8 output channels),
a depthwise conv (``nn.contrib_depthwise_conv2d_NCHWc``, kernel OIHW1i4o) and 6 channels
(NCHW3c: the block is the largest divisor of the channels up to the SIMD width).
``nn.contrib_conv2d_NCHWc`` reads as ``nn.conv2d`` between ``layout_transform``s
(relay_mlir.text_forms); every program's outputs (reference interpreter; one compiled for
llvm-cpu) equal numpy's, rtol 1e-5, atol 1e-5.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.errors import CompileError
from relay_mlir.testing import numpy_ref as ref

from pass_checks import node_counts, outputs

TVM_TEXT = {
    "layer_norm": r"""#[version = "0.0.5"]
def @main(%x: Tensor[(2, 3, 4), float32] /* ty=Tensor[(2, 3, 4), float32] */, %g: Tensor[(4), float32] /* ty=Tensor[(4), float32] */, %b: Tensor[(4), float32] /* ty=Tensor[(4), float32] */) -> Tensor[(2, 3, 4), float32] {
  %0 = mean(%x, axis=[-1], keepdims=True) /* ty=Tensor[(2, 3, 1), float32] */;
  %1 = variance(%x, %0, axis=[-1], keepdims=True) /* ty=Tensor[(2, 3, 1), float32] */;
  %2 = add(%1, 1e-05f /* ty=float32 */) /* ty=Tensor[(2, 3, 1), float32] */;
  %3 = subtract(%x, %0) /* ty=Tensor[(2, 3, 4), float32] */;
  %4 = sqrt(%2) /* ty=Tensor[(2, 3, 1), float32] */;
  %5 = divide(%3, %4) /* ty=Tensor[(2, 3, 4), float32] */;
  %6 = multiply(%5, %g) /* ty=Tensor[(2, 3, 4), float32] */;
  add(%6, %b) /* ty=Tensor[(2, 3, 4), float32] */
}""",
    "dense_to_batch": r"""#[version = "0.0.5"]
def @main(%d: Tensor[(2, 4), float32] /* ty=Tensor[(2, 4), float32] */, %w0: Tensor[(5, 4), float32] /* ty=Tensor[(5, 4), float32] */, %w1: Tensor[(5, 4), float32] /* ty=Tensor[(5, 4), float32] */, %w2: Tensor[(5, 4), float32] /* ty=Tensor[(5, 4), float32] */) -> (Tensor[(2, 5), float32], Tensor[(2, 5), float32], Tensor[(2, 5), float32]) {
  %0 = (%d, %d, %d) /* ty=(Tensor[(2, 4), float32], Tensor[(2, 4), float32], Tensor[(2, 4), float32]) */;
  %1 = (%w0, %w1, %w2) /* ty=(Tensor[(5, 4), float32], Tensor[(5, 4), float32], Tensor[(5, 4), float32]) */;
  %2 = stack(%0) /* ty=Tensor[(3, 2, 4), float32] */;
  %3 = stack(%1) /* ty=Tensor[(3, 5, 4), float32] */;
  %4 = nn.batch_matmul(%2, %3, transpose_b=True) /* ty=Tensor[(3, 2, 5), float32] */;
  %5 = split(%4, indices_or_sections=meta[runtime.BoxInt][0]) /* ty=(Tensor[(1, 2, 5), float32], Tensor[(1, 2, 5), float32], Tensor[(1, 2, 5), float32]) */;
  %6 = %5.0 /* ty=Tensor[(1, 2, 5), float32] */;
  %7 = %5.1 /* ty=Tensor[(1, 2, 5), float32] */;
  %8 = %5.2 /* ty=Tensor[(1, 2, 5), float32] */;
  %9 = squeeze(%6, axis=[0]) /* ty=Tensor[(2, 5), float32] */;
  %10 = squeeze(%7, axis=[0]) /* ty=Tensor[(2, 5), float32] */;
  %11 = squeeze(%8, axis=[0]) /* ty=Tensor[(2, 5), float32] */;
  (%9, %10, %11) /* ty=(Tensor[(2, 5), float32], Tensor[(2, 5), float32], Tensor[(2, 5), float32]) */
}

#[metadata]
{
  "root": 1, 
  "nodes": [
    {
      "type_key": ""
    }, 
    {
      "type_key": "Map", 
      "keys": [
        "runtime.BoxInt"
      ], 
      "data": [2]
    }, 
    {
      "type_key": "Array", 
      "data": [3]
    }, 
    {
      "type_key": "runtime.BoxInt", 
      "repr_str": "3"
    }
  ], 
  "b64ndarrays": [], 
  "attrs": {"tvm_version": "0.19.0"}
}""",
    "pad": r"""#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 3, 3), float32] /* ty=Tensor[(1, 2, 3, 3), float32] */) -> Tensor[(1, 2, 4, 6), float32] {
  nn.pad(%x, 0.5f /* ty=float32 */, pad_width=[[0, 0], [0, 0], [1, 0], [1, 2]]) /* ty=Tensor[(1, 2, 4, 6), float32] */
}""",
    "concatenate_anf": r"""#[version = "0.0.5"]
def @main(%t: Tensor[(2, 3), float32] /* ty=Tensor[(2, 3), float32] */) -> Tensor[(4, 3), float32] {
  let %x_0 = exp(%t);
  let %x_1 = (%t, %x_0) /* ty=(Tensor[(2, 3), float32], Tensor[(2, 3), float32]) */;
  let %x_2 = concatenate(%x_1);
  %x_2
}""",
    "alter_llvm": r"""#[version = "0.0.5"]
def @main(%x: Tensor[(1, 8, 5, 5), float32] /* ty=Tensor[(1, 8, 5, 5), float32] */, %w: Tensor[(8, 8, 3, 3), float32] /* ty=Tensor[(8, 8, 3, 3), float32] */, %b: Tensor[(8), float32] /* ty=Tensor[(8), float32] */, %w2: Tensor[(4, 8, 1, 1), float32] /* ty=Tensor[(4, 8, 1, 1), float32] */) -> Tensor[(1, 4, 3, 3), float32] {
  %0 = layout_transform(%x, src_layout="NCHW", dst_layout="NCHW4c") /* ty=Tensor[(1, 2, 5, 5, 4), float32] */;
  %1 = layout_transform(%w, src_layout="OIHW", dst_layout="OIHW4i4o") /* ty=Tensor[(2, 2, 3, 3, 4, 4), float32] */;
  %2 = expand_dims(%b, axis=1, num_newaxis=2) /* ty=Tensor[(8, 1, 1), float32] */;
  %3 = expand_dims(%2, axis=0) /* ty=Tensor[(1, 8, 1, 1), float32] */;
  %4 = nn.contrib_conv2d_NCHWc(%0, %1, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3], data_layout="NCHW4c", kernel_layout="OIHW4i4o", out_layout="NCHW4c") /* ty=Tensor[(1, 2, 5, 5, 4), float32] */;
  %5 = layout_transform(%3, src_layout="NCHW", dst_layout="NCHW4c") /* ty=Tensor[(1, 2, 1, 1, 4), float32] */;
  %6 = add(%4, %5) /* ty=Tensor[(1, 2, 5, 5, 4), float32] */;
  %7 = nn.relu(%6) /* ty=Tensor[(1, 2, 5, 5, 4), float32] */;
  %8 = layout_transform(%w2, src_layout="OIHW", dst_layout="OIHW4i4o") /* ty=Tensor[(1, 2, 1, 1, 4, 4), float32] */;
  %9 = nn.contrib_conv2d_NCHWc(%7, %8, strides=[2, 2], padding=[0, 0, 0, 0], channels=4, kernel_size=[1, 1], data_layout="NCHW4c", kernel_layout="OIHW4i4o", out_layout="NCHW4c") /* ty=Tensor[(1, 1, 3, 3, 4), float32] */;
  layout_transform(%9, src_layout="NCHW4c", dst_layout="NCHW") /* ty=Tensor[(1, 4, 3, 3), float32] */
}""",
    "alter_avx512": r"""#[version = "0.0.5"]
def @main(%x: Tensor[(1, 16, 5, 5), float32] /* ty=Tensor[(1, 16, 5, 5), float32] */, %w: Tensor[(16, 16, 3, 3), float32] /* ty=Tensor[(16, 16, 3, 3), float32] */, %b: Tensor[(16), float32] /* ty=Tensor[(16), float32] */, %w2: Tensor[(8, 16, 1, 1), float32] /* ty=Tensor[(8, 16, 1, 1), float32] */) -> Tensor[(1, 8, 3, 3), float32] {
  %0 = layout_transform(%x, src_layout="NCHW", dst_layout="NCHW16c") /* ty=Tensor[(1, 1, 5, 5, 16), float32] */;
  %1 = layout_transform(%w, src_layout="OIHW", dst_layout="OIHW16i16o") /* ty=Tensor[(1, 1, 3, 3, 16, 16), float32] */;
  %2 = expand_dims(%b, axis=1, num_newaxis=2) /* ty=Tensor[(16, 1, 1), float32] */;
  %3 = expand_dims(%2, axis=0) /* ty=Tensor[(1, 16, 1, 1), float32] */;
  %4 = nn.contrib_conv2d_NCHWc(%0, %1, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3], data_layout="NCHW16c", kernel_layout="OIHW16i16o", out_layout="NCHW16c") /* ty=Tensor[(1, 1, 5, 5, 16), float32] */;
  %5 = layout_transform(%3, src_layout="NCHW", dst_layout="NCHW16c") /* ty=Tensor[(1, 1, 1, 1, 16), float32] */;
  %6 = add(%4, %5) /* ty=Tensor[(1, 1, 5, 5, 16), float32] */;
  %7 = nn.relu(%6) /* ty=Tensor[(1, 1, 5, 5, 16), float32] */;
  %8 = layout_transform(%7, src_layout="NCHW16c", dst_layout="NCHW8c") /* ty=Tensor[(1, 2, 5, 5, 8), float32] */;
  %9 = layout_transform(%w2, src_layout="OIHW", dst_layout="OIHW8i8o") /* ty=Tensor[(1, 2, 1, 1, 8, 8), float32] */;
  %10 = nn.contrib_conv2d_NCHWc(%8, %9, strides=[2, 2], padding=[0, 0, 0, 0], channels=8, kernel_size=[1, 1], data_layout="NCHW8c", kernel_layout="OIHW8i8o", out_layout="NCHW8c") /* ty=Tensor[(1, 1, 3, 3, 8), float32] */;
  layout_transform(%10, src_layout="NCHW8c", dst_layout="NCHW") /* ty=Tensor[(1, 8, 3, 3), float32] */
}""",
    "alter_depthwise": r"""#[version = "0.0.5"]
def @main(%x: Tensor[(1, 8, 5, 5), float32] /* ty=Tensor[(1, 8, 5, 5), float32] */, %w: Tensor[(8, 1, 3, 3), float32] /* ty=Tensor[(8, 1, 3, 3), float32] */, %b: Tensor[(8), float32] /* ty=Tensor[(8), float32] */, %w2: Tensor[(4, 8, 1, 1), float32] /* ty=Tensor[(4, 8, 1, 1), float32] */) -> Tensor[(1, 4, 3, 3), float32] {
  %0 = layout_transform(%x, src_layout="NCHW", dst_layout="NCHW4c") /* ty=Tensor[(1, 2, 5, 5, 4), float32] */;
  %1 = layout_transform(%w, src_layout="OIHW", dst_layout="OIHW1i4o") /* ty=Tensor[(2, 1, 3, 3, 1, 4), float32] */;
  %2 = expand_dims(%b, axis=1, num_newaxis=2) /* ty=Tensor[(8, 1, 1), float32] */;
  %3 = expand_dims(%2, axis=0) /* ty=Tensor[(1, 8, 1, 1), float32] */;
  %4 = nn.contrib_depthwise_conv2d_NCHWc(%0, %1, padding=[1, 1, 1, 1], groups=8, channels=8, kernel_size=[3, 3], data_layout="NCHW4c", kernel_layout="OIHW1i4o", out_layout="NCHW4c") /* ty=Tensor[(1, 2, 5, 5, 4), float32] */;
  %5 = layout_transform(%3, src_layout="NCHW", dst_layout="NCHW4c") /* ty=Tensor[(1, 2, 1, 1, 4), float32] */;
  %6 = add(%4, %5) /* ty=Tensor[(1, 2, 5, 5, 4), float32] */;
  %7 = nn.relu(%6) /* ty=Tensor[(1, 2, 5, 5, 4), float32] */;
  %8 = layout_transform(%w2, src_layout="OIHW", dst_layout="OIHW4i4o") /* ty=Tensor[(1, 2, 1, 1, 4, 4), float32] */;
  %9 = nn.contrib_conv2d_NCHWc(%7, %8, strides=[2, 2], padding=[0, 0, 0, 0], channels=4, kernel_size=[1, 1], data_layout="NCHW4c", kernel_layout="OIHW4i4o", out_layout="NCHW4c") /* ty=Tensor[(1, 1, 3, 3, 4), float32] */;
  layout_transform(%9, src_layout="NCHW4c", dst_layout="NCHW") /* ty=Tensor[(1, 4, 3, 3), float32] */
}""",
    "alter_6_channels": r"""#[version = "0.0.5"]
def @main(%x: Tensor[(1, 6, 5, 5), float32] /* ty=Tensor[(1, 6, 5, 5), float32] */, %w: Tensor[(6, 6, 3, 3), float32] /* ty=Tensor[(6, 6, 3, 3), float32] */, %b: Tensor[(6), float32] /* ty=Tensor[(6), float32] */, %w2: Tensor[(3, 6, 1, 1), float32] /* ty=Tensor[(3, 6, 1, 1), float32] */) -> Tensor[(1, 3, 3, 3), float32] {
  %0 = layout_transform(%x, src_layout="NCHW", dst_layout="NCHW3c") /* ty=Tensor[(1, 2, 5, 5, 3), float32] */;
  %1 = layout_transform(%w, src_layout="OIHW", dst_layout="OIHW3i3o") /* ty=Tensor[(2, 2, 3, 3, 3, 3), float32] */;
  %2 = expand_dims(%b, axis=1, num_newaxis=2) /* ty=Tensor[(6, 1, 1), float32] */;
  %3 = expand_dims(%2, axis=0) /* ty=Tensor[(1, 6, 1, 1), float32] */;
  %4 = nn.contrib_conv2d_NCHWc(%0, %1, padding=[1, 1, 1, 1], channels=6, kernel_size=[3, 3], data_layout="NCHW3c", kernel_layout="OIHW3i3o", out_layout="NCHW3c") /* ty=Tensor[(1, 2, 5, 5, 3), float32] */;
  %5 = layout_transform(%3, src_layout="NCHW", dst_layout="NCHW3c") /* ty=Tensor[(1, 2, 1, 1, 3), float32] */;
  %6 = add(%4, %5) /* ty=Tensor[(1, 2, 5, 5, 3), float32] */;
  %7 = nn.relu(%6) /* ty=Tensor[(1, 2, 5, 5, 3), float32] */;
  %8 = layout_transform(%w2, src_layout="OIHW", dst_layout="OIHW3i3o") /* ty=Tensor[(1, 2, 1, 1, 3, 3), float32] */;
  %9 = nn.contrib_conv2d_NCHWc(%7, %8, strides=[2, 2], padding=[0, 0, 0, 0], channels=3, kernel_size=[1, 1], data_layout="NCHW3c", kernel_layout="OIHW3i3o", out_layout="NCHW3c") /* ty=Tensor[(1, 1, 3, 3, 3), float32] */;
  layout_transform(%9, src_layout="NCHW3c", dst_layout="NCHW") /* ty=Tensor[(1, 3, 3, 3), float32] */
}""",
}


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


def test_alter_op_layout_says_why_it_is_left_out():
    with pytest.raises(AttributeError, match="AlterOpLayout is left out on purpose.*optimizer.md"):
        relay.transform.AlterOpLayout()
