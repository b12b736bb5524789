"""Malformed ONNX models are refused with a clean ``CompileError`` naming the node (issue 13).

One case per class of bug the mutation fuzzer (``fuzz/onnx_mutate.py``)
found: each used to end in a raw ValueError/TypeError/UnicodeDecodeError/
ZeroDivisionError/MemoryError, a hang, or a silently wrapped axis.
"""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto as TP, helper as oh, numpy_helper as nh  # noqa: E402

import relay_mlir as relay  # noqa: E402
from relay_mlir.frontend import from_onnx  # noqa: E402
from relay_mlir.frontend.common import UnexpectedImportError  # noqa: E402


def _model(nodes, inputs, outputs, inits=(), opset=17):
    g = oh.make_graph(nodes, "m", inputs, outputs, initializer=list(inits))
    return oh.make_model(g, opset_imports=[oh.make_opsetid("", opset)])


def _vi(name, shape, t=TP.FLOAT):
    return oh.make_tensor_value_info(name, t, shape)


def _refused(model, *words):
    with pytest.raises(relay.CompileError) as ei:
        from_onnx(model)
    assert not isinstance(ei.value, UnexpectedImportError), str(ei.value)
    msg = str(ei.value)
    for w in words:
        assert w in msg, msg
    return msg


@pytest.mark.parametrize("axis", [99, -3, 2])
def test_softmax_axis_out_of_range_is_refused(axis):
    m = _model([oh.make_node("Softmax", ["x"], ["y"], name="sm", axis=axis)], [_vi("x", [2, 3])],
               [_vi("y", [2, 3])])
    _refused(m, "Softmax node 'sm'", "attribute 'axis'", f"axis {axis} is out of range")


def test_softmax_in_range_negative_axis_still_works():
    m = _model([oh.make_node("Softmax", ["x"], ["y"], name="sm", axis=-2)], [_vi("x", [2, 3])],
               [_vi("y", [2, 3])])
    exe = relay.compile(from_onnx(m))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    e = np.exp(x - x.max(0))
    np.testing.assert_allclose(exe(x), e / e.sum(0), rtol=1e-6)


@pytest.mark.parametrize("op,attrs,shape", [
    ("Concat", {"axis": 5}, [2, 3]), ("Gather", {"axis": -3}, [2, 3]), ("Flatten", {"axis": 4}, [2, 3]),
    ("LayerNormalization", {"axis": 2}, [2, 3]), ("ArgMax", {"axis": 2}, [2, 3]),
])
def test_other_axes_out_of_range_are_refused(op, attrs, shape):
    ins = {"Concat": ["x", "x"], "Gather": ["x", "i"], "LayerNormalization": ["x", "s"]}.get(op, ["x"])
    inits = [nh.from_array(np.array([0], np.int64), "i"), nh.from_array(np.ones(3, np.float32), "s")]
    m = _model([oh.make_node(op, ins, ["y"], name="n0", **attrs)], [_vi("x", shape)], [_vi("y", None)],
               inits)
    _refused(m, f"{op} node 'n0'", "axis", "out of range")


def test_axis_beyond_32_bits_is_refused_before_onnx_shape_inference():
    """onnx.shape_inference (C++) dies of SIGSEGV on LayerNormalization axis = 2^31 (fuzz seed
    20, mutant 1327): such axes are refused before it runs."""
    inits = [nh.from_array(np.ones(3, np.float32), "s")]
    m = _model([oh.make_node("LayerNormalization", ["x", "s"], ["y"], name="ln", axis=2 ** 31)],
               [_vi("x", [2, 3])], [_vi("y", None)], inits)
    _refused(m, "LayerNormalization node 'ln'", "attribute 'axis' = 2147483648 is out of range")


def test_attribute_of_the_wrong_kind_is_refused():
    node = oh.make_node("Softmax", ["x"], ["y"], name="sm")
    node.attribute.extend([oh.make_attribute("axis", 1.5)])
    m = _model([node], [_vi("x", [2, 3])], [_vi("y", [2, 3])])
    _refused(m, "attribute 'axis' is FLOAT", "schema says INT")


def test_attribute_type_field_disagreeing_with_value_is_refused():
    node = oh.make_node("Softmax", ["x"], ["y"], name="sm", axis=1)
    node.attribute[0].floats.extend([1.0])  # an INT that also holds floats
    m = _model([node], [_vi("x", [2, 3])], [_vi("y", [2, 3])])
    _refused(m, "attribute 'axis' says it is INT but holds another kind")


def test_non_utf8_string_attribute_is_refused():
    node = oh.make_node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=2)
    node.attribute.extend([oh.make_attribute("mode", b"\xff\xfe")])
    m = _model([node], [_vi("x", [1, 4, 2, 2])], [_vi("y", [1, 1, 4, 4])])
    _refused(m, "DepthToSpace node 'd2s'", "attribute 'mode' is not a UTF-8 string")


def test_einsum_equation_of_invalid_bytes_is_refused_before_shape_inference():
    # ONNX's shape inference loops forever on this one
    node = oh.make_node("Einsum", ["x", "x"], ["y"], name="es")
    node.attribute.extend([oh.make_attribute("equation", b"ij,jk\xe2\x82->ik")])
    m = _model([node], [_vi("x", [2, 2])], [_vi("y", [2, 2])])
    _refused(m, "Einsum node 'es'", "attribute 'equation'", "not an einsum equation")


def test_truncated_initializer_is_refused():
    w = nh.from_array(np.arange(12, dtype=np.float32).reshape(3, 4), "w")
    w.raw_data = w.raw_data[:20]
    m = _model([oh.make_node("MatMul", ["x", "w"], ["y"], name="mm")], [_vi("x", [2, 3])],
               [_vi("y", [2, 4])], [w])
    _refused(m, "initializer 'w'", "raw data has 20 bytes", "need 48")


def test_constant_dims_not_matching_data_is_refused():
    t = nh.from_array(np.arange(6, dtype=np.int64).reshape(2, 3), "c")
    t.ClearField("raw_data")
    t.int64_data.extend([1, 2, 3])  # 3 values for dims [2, 3]
    m = _model([oh.make_node("Constant", [], ["c"], name="k", value=t),
                oh.make_node("Add", ["x", "c"], ["y"], name="add")], [_vi("x", [2, 3], TP.INT64)],
               [_vi("y", [2, 3], TP.INT64)])
    _refused(m, "Constant node 'k'", "attribute 'value'", "holds 3 values in int64_data", "need 6")


def test_empty_clip_bound_is_refused():
    lo = nh.from_array(np.zeros((0,), np.float32), "lo")
    m = _model([oh.make_node("Clip", ["x", "lo"], ["y"], name="clip")], [_vi("x", [3])], [_vi("y", [3])],
               [lo])
    _refused(m, "Clip node 'clip'", "input 1", "must be a scalar")


def test_softmax_of_a_rank0_input_is_refused():
    m = _model([oh.make_node("Softmax", ["x"], ["y"], name="sm")], [_vi("x", [])], [_vi("y", [])])
    _refused(m, "Softmax node 'sm'", "rank-0")


def test_gru_with_sequence_length_zero_is_refused():
    W = nh.from_array(np.ones((1, 6, 3), np.float32), "W")
    R = nh.from_array(np.ones((1, 6, 2), np.float32), "R")
    m = _model([oh.make_node("GRU", ["x", "W", "R"], ["y"], name="gru", hidden_size=2)],
               [_vi("x", [0, 1, 3])], [_vi("y", None)], [W, R])
    _refused(m, "GRU node 'gru'", "sequence length of 0")


@pytest.mark.parametrize("dim", [2 ** 62, 2 ** 41])
def test_hostile_graph_input_dims_are_refused(dim):
    m = _model([oh.make_node("Relu", ["x"], ["y"], name="r")], [_vi("x", [dim, 2])], [_vi("y", [dim, 2])])
    _refused(m, "graph input 'x'", "2^40")


def test_huge_constant_of_shape_is_not_built():
    shape = nh.from_array(np.array([2 ** 20, 2 ** 20], np.int64), "shape")
    m = _model([oh.make_node("ConstantOfShape", ["shape"], ["y"], name="cos")], [], [_vi("y", None)], [shape])
    _refused(m, "ConstantOfShape node 'cos'", "bytes")


def test_opset_newer_than_onnx_knows_is_refused():
    m = _model([oh.make_node("Relu", ["x"], ["y"], name="r")], [_vi("x", [2])], [_vi("y", [2])], opset=99)
    _refused(m, "opset 99")


def test_duplicate_output_names_are_refused():
    m = _model([oh.make_node("Relu", ["x"], ["y"], name="r1"), oh.make_node("Neg", ["x"], ["y"], name="r2")],
               [_vi("x", [2])], [_vi("y", [2])])
    _refused(m, "Neg node 'r2'", "output 'y'")


def test_unexpected_converter_error_is_a_compile_error_naming_the_node(monkeypatch):
    """The last resort: a converter bug still gives a CompileError (counted as an internal error)."""
    from relay_mlir.frontend.onnx_ops import nn

    def broken(n):
        raise ZeroDivisionError("injected")
    monkeypatch.setattr(nn, "_softmax", lambda n, log: broken(n))
    m = _model([oh.make_node("Softmax", ["x"], ["y"], name="sm")], [_vi("x", [2, 3])], [_vi("y", [2, 3])])
    with pytest.raises(UnexpectedImportError) as ei:
        from_onnx(m)
    assert isinstance(ei.value, relay.CompileError)
    assert "Softmax node 'sm'" in str(ei.value) and "ZeroDivisionError" in str(ei.value)
    assert ei.value.cause_type == "ZeroDivisionError"


def test_matmul_of_a_rank0_operand_is_refused():
    m = _model([oh.make_node("MatMul", ["x", "w"], ["y"], name="mm")], [_vi("x", []), _vi("w", [2, 3])],
               [_vi("y", None)])
    _refused(m, "MatMul node 'mm'", "rank 1 or more")


def test_trilu_of_a_rank1_input_is_refused():
    m = _model([oh.make_node("Trilu", ["x"], ["y"], name="t")], [_vi("x", [4])], [_vi("y", [4])], opset=14)
    _refused(m, "Trilu node 't'", "rank 2 or more")


def test_pool_window_attribute_of_the_wrong_length_is_refused():
    node = oh.make_node("MaxPool", ["x"], ["y"], name="mp", kernel_shape=[2, 2], dilations=[1])
    m = _model([node], [_vi("x", [1, 1, 4, 4])], [_vi("y", None)])
    _refused(m, "MaxPool node 'mp'", "attribute 'dilations' [1] has 1 entries for 2 spatial dims")


def test_argmax_over_a_zero_size_axis_is_refused():
    # (iree-compile crashes with SIGFPE on it)
    m = _model([oh.make_node("ArgMax", ["x"], ["y"], name="am", axis=1)], [_vi("x", [2, 0])],
               [_vi("y", None, TP.INT64)])
    _refused(m, "ArgMax node 'am'", "size 0")


def test_topk_k_larger_than_the_axis_is_refused():
    k = nh.from_array(np.array([5], np.int64), "k")
    m = _model([oh.make_node("TopK", ["x", "k"], ["v", "i"], name="tk")], [_vi("x", [2, 3])],
               [_vi("v", None), _vi("i", None, TP.INT64)], [k])
    _refused(m, "TopK node 'tk'", "k=5 is out of range")


def test_cumsum_of_a_rank0_input_is_refused():
    m = _model([oh.make_node("CumSum", ["x", "axis"], ["y"], name="cs")],
               [_vi("x", []), _vi("axis", [], TP.INT32)], [_vi("y", [])])
    _refused(m, "CumSum node 'cs'", "rank-0")


def test_missing_required_input_is_refused():
    W = nh.from_array(np.ones((1, 1, 2, 2), np.float32), "W")
    m = _model([oh.make_node("ConvTranspose", ["", "W"], ["y"], name="ct")], [], [_vi("y", None)], [W])
    _refused(m, "ConvTranspose node 'ct'", "required input 0 ('X') is missing")


def test_too_many_inputs_are_refused():
    m = _model([oh.make_node("Relu", ["x", "x"], ["y"], name="r")], [_vi("x", [2])], [_vi("y", [2])])
    _refused(m, "Relu node 'r'", "2 inputs given", "at most 1")


def test_input_element_type_outside_the_schema_is_refused():
    # CumSum's axis must be int32/int64 (a uint32 axis raised OverflowError building -1)
    m = _model([oh.make_node("CumSum", ["x", "axis"], ["y"], name="cs")],
               [_vi("x", [2, 3]), _vi("axis", [], TP.UINT32)], [_vi("y", [2, 3])], opset=14)
    _refused(m, "CumSum node 'cs'", "input 1 ('axis') has element type uint32", "int32, int64")


def test_blocksize_zero_is_refused():
    m = _model([oh.make_node("SpaceToDepth", ["x"], ["y"], name="s2d", blocksize=0)], [_vi("x", [1, 1, 4, 4])],
               [_vi("y", None)])
    _refused(m, "SpaceToDepth node 's2d'", "'blocksize'=0")


def test_split_num_outputs_not_matching_outputs_is_refused():
    m = _model([oh.make_node("Split", ["x"], ["a", "b"], name="sp", axis=0, num_outputs=-99)], [_vi("x", [4])],
               [_vi("a", None), _vi("b", None)], opset=18)
    _refused(m, "Split node 'sp'", "'num_outputs'=-99")


def test_slice_starts_not_1d_is_refused():
    starts = nh.from_array(np.zeros((1, 1), np.int64), "starts")
    ends = nh.from_array(np.ones((1,), np.int64), "ends")
    m = _model([oh.make_node("Slice", ["x", "starts", "ends"], ["y"], name="sl")], [_vi("x", [4])],
               [_vi("y", None)], [starts, ends])
    _refused(m, "Slice node 'sl'", "input 1 (starts) must be a 1-D integer tensor")


def test_missing_required_input_is_refused_before_shape_inference():
    # ONNX's shape inference crashes the interpreter (SIGSEGV) on this one
    m = _model([oh.make_node("EyeLike", [""], ["y"], name="eye", k=1)], [_vi("x", [4, 5])], [_vi("y", [4, 5])])
    _refused(m, "EyeLike node 'eye'", "required input 0 ('input') is missing")


def test_resize_with_an_unknown_coordinate_mode_is_refused():
    """ONNX fuzz seed 20, mutant 5049: coordinate_transformation_mode b'ij,jk' reached the
    coordinate code as a raw ValueError."""
    inits = [nh.from_array(np.array([], np.float32), "roi"), nh.from_array(np.array([1, 1, 2, 2], np.float32), "sc")]
    m = _model([oh.make_node("Resize", ["x", "roi", "sc"], ["y"], name="rs", mode="linear",
                             coordinate_transformation_mode="ij,jk")],
               [_vi("x", [1, 1, 2, 2])], [_vi("y", None)], inits, opset=19)
    _refused(m, "Resize node 'rs'", "coordinate_transformation_mode", "expected one of")


def test_reshape_copying_a_dim_the_input_lacks_is_refused():
    """ONNX fuzz seed 20, mutant 22285: a Reshape shape entry 0 ("copy the input dim") beyond the
    input's rank was an IndexError inside the converter."""
    inits = [nh.from_array(np.array([0, 0, 0], np.int64), "s")]
    m = _model([oh.make_node("Reshape", ["x", "s"], ["y"], name="rs")], [_vi("x", [2, 3])],
               [_vi("y", None)], inits)
    _refused(m, "Reshape node 'rs'", "shape entry 2 is 0")


def test_undefined_input_and_negative_dim_are_refused_before_shape_inference():
    """onnx.shape_inference (C++) dies of SIGSEGV on an EyeLike whose input is defined nowhere
    and on a GatherND with a negative graph-input dim (ONNX fuzz seed 20, mutants 27787 and
    14828): both are refused before it runs."""
    m = _model([oh.make_node("EyeLike", ["nowhere"], ["y"], name="eye")], [_vi("x", [3, 3])], [_vi("y", None)])
    _refused(m, "EyeLike node 'eye'", "input 'nowhere' is produced by no earlier node")
    m = _model([oh.make_node("GatherND", ["x", "i"], ["y"], name="g")],
               [_vi("x", [2, 2]), _vi("i", [-7, 2], TP.INT64)], [_vi("y", None)])
    _refused(m, "value 'i' has a negative dim (-7)")


def test_group_norm_of_a_rank_1_input_is_refused():
    """ONNX fuzz seed 20, mutant 26621: GroupNormalization of a rank-1 input was an IndexError."""
    inits = [nh.from_array(np.ones(2, np.float32), "s"), nh.from_array(np.zeros(2, np.float32), "b")]
    m = _model([oh.make_node("GroupNormalization", ["x", "s", "b"], ["y"], name="gn", num_groups=2)],
               [_vi("x", [4])], [_vi("y", None)], inits, opset=21)
    _refused(m, "GroupNormalization node 'gn'", "needs rank >= 2")


def test_pad_of_a_scalar_with_run_time_axes_is_refused():
    """ONNX fuzz seed 20, mutant 44463: Pad of a rank-0 input with axes known only at run time
    was a ValueError (a concatenate of no per-dim pads)."""
    m = _model([oh.make_node("Pad", ["x", "p", "", "a"], ["y"], name="pad")],
               [_vi("x", []), _vi("p", [2], TP.INT64), _vi("a", [1], TP.INT64)], [_vi("y", None)], opset=19)
    _refused(m, "Pad node 'pad'", "no axis to pad")


def _if_node(then_out, else_out):
    then_g = oh.make_graph([oh.make_node("Neg", ["x"], ["a"])], "t", [], [then_out])
    else_g = oh.make_graph([oh.make_node("Abs", ["x"], ["b"])], "e", [], [else_out])
    return oh.make_node("If", ["p"], ["y"], then_branch=then_g, else_branch=else_g)


@pytest.mark.parametrize("cond,words", [
    (_vi("p", [], TP.FLOAT), ["If", "bool", "float32"]),
    (_vi("p", [2], TP.BOOL), ["If", "one element", "[2]"]),
])
def test_if_condition_of_the_wrong_type_or_size_is_refused(cond, words):
    m = _model([_if_node(_vi("a", [3]), _vi("b", [3]))], [_vi("x", [3]), cond], [_vi("y", [3])])
    _refused(m, *words)


def test_graph_output_that_is_not_a_tensor_is_refused():
    seq = oh.make_tensor_sequence_value_info("s", TP.FLOAT, [3])
    m = _model([oh.make_node("SequenceConstruct", ["x"], ["s"])], [_vi("x", [3])], [seq])
    _refused(m, "graph output 's'", "not a tensor", "sequence_type")
