"""ONNX importer: patterns of models exported with dynamic axes on dims unknown at import time
(Gather/Slice with negative constant indices, Expand of an input with ``?`` dims, Trilu,
GatherElements, DepthToSpace/SpaceToDepth, MaxPool/AveragePool with ceil_mode, the If torch
emits around ``squeeze``, If on a run-time condition). Each model is compiled once and run at several sizes (one of them
1) against onnxruntime; run-time values that make the op invalid are RelayRuntimeErrors.

Tolerances: data movement (gathers, slices, broadcasts, masks) is exact (rtol=atol=0);
average pooling divides a window sum by a window count as onnxruntime does in another order
(rtol=1e-6, atol=1e-6); the transformer layer: rtol=1e-4, atol=1e-5."""
from __future__ import annotations

import io
import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper as oh  # noqa: E402

import relay_mlir as relay  # noqa: E402
from relay_mlir.frontend import from_onnx  # noqa: E402
from ort_runner import OrtRunner  # noqa: E402

F32, I64 = TensorProto.FLOAT, TensorProto.INT64
_RNG = np.random.default_rng(0)
_INT64_MAX = np.iinfo(np.int64).max


def _model(nodes, inputs, outputs, opset=17, inits=()):
    g = oh.make_graph(nodes, "g", [oh.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                      [oh.make_tensor_value_info(n, t, s) for n, t, s in outputs], initializer=list(inits))
    return oh.make_model(g, opset_imports=[oh.make_opsetid("", opset)], ir_version=8)


def _i64(name, v):
    return oh.make_tensor(name, I64, [len(v)], list(v))


def _f32(*shape):
    return _RNG.standard_normal(shape).astype(np.float32)


# -- 1. Gather with negative constant indices (torch o[:, -1]) --------------------------------
def test_gather_negative_index_runtime_dim() -> None:
    m = _model([oh.make_node("Gather", ["x", "i"], ["y"], axis=1),
                oh.make_node("Gather", ["x", "j"], ["z"], axis=1)],
               [("x", F32, ["b", "t", 3])], [("y", F32, None), ("z", F32, None)],
               inits=[oh.make_tensor("i", I64, [], [-1]), _i64("j", [0, -1])])
    r = OrtRunner(m)
    for b, t in [(1, 1), (2, 5), (3, 9)]:
        r.check(_f32(b, t, 3))
    r.fails(_f32(2, 0, 3))  # index -1 into an empty dim


def test_gather_constant_index_beyond_runtime_dim_is_an_error() -> None:
    m = _model([oh.make_node("Gather", ["x", "i"], ["y"], axis=0)], [("x", F32, ["n", 2])],
               [("y", F32, None)], inits=[_i64("i", [2, -3])])
    r = OrtRunner(m)
    for n in (3, 4):
        r.check(_f32(n, 2))
    r.fails(_f32(2, 2))
    r.fails(_f32(1, 2))


def test_gather_runtime_indices_out_of_range_is_an_error() -> None:
    # token ids into an embedding table (static dim) and positions into a run-time dim, int64
    # and int32, negative ones from the end: an index outside [-dim, dim) is onnxruntime's
    # error, never a clamped or wrapped row
    m = _model([oh.make_node("Gather", ["w", "ids"], ["e"], axis=0),
                oh.make_node("Gather", ["x", "pos"], ["y"], axis=1)],
               [("w", F32, [5, 3]), ("ids", I64, ["b", "t"]), ("x", F32, ["b", "n", 2]),
                ("pos", TensorProto.INT32, ["k"])],
               [("e", F32, None), ("y", F32, None)])
    r = OrtRunner(m)
    w = _f32(5, 3)
    ids = np.array([[0, 4, -5, -1]], np.int64)
    r.check(w, ids, _f32(1, 3, 2), np.array([2, -3, 0], np.int32))
    r.check(w, np.array([[3], [-2]], np.int64), _f32(2, 6, 2), np.array([-1, 5], np.int32))
    for bad in (5, -6, 1 << 40):
        r.fails(w, np.array([[1, bad]], np.int64), _f32(1, 3, 2), np.array([0], np.int32))
    for bad in (3, -4):
        r.fails(w, ids, _f32(1, 3, 2), np.array([bad], np.int32))


def test_gather_nd_runtime_indices_out_of_range_is_an_error() -> None:
    m = _model([oh.make_node("GatherND", ["x", "i"], ["y"])],
               [("x", F32, [4, 3, 2]), ("i", I64, ["k", 2])], [("y", F32, None)])
    r = OrtRunner(m)
    x = _f32(4, 3, 2)
    r.check(x, np.array([[0, 2], [-4, -1], [3, 0]], np.int64))
    for bad in ([[4, 0]], [[0, 3]], [[-5, 0]], [[1, -4]]):
        r.fails(x, np.array(bad, np.int64))


def test_gather_nd_runtime_data_dims() -> None:
    # torch's x[mask] / masked_select: NonZero -> Transpose -> GatherND over data whose
    # indexed dims are only known at run time (a zero-row selection included)
    m = _model([oh.make_node("Greater", ["x", "zero"], ["m"]),
                oh.make_node("NonZero", ["m"], ["nz"]),
                oh.make_node("Transpose", ["nz"], ["i"], perm=[1, 0]),
                oh.make_node("GatherND", ["x", "i"], ["y"])],
               [("x", F32, ["b", "s"])], [("y", F32, None)],
               inits=[oh.make_tensor("zero", F32, [], [0.0])])
    r = OrtRunner(m)
    for b, s in [(1, 1), (3, 7), (2, 12)]:
        r.check(_f32(b, s))
    r.check(-np.abs(_f32(2, 3)))
    m = _model([oh.make_node("GatherND", ["x", "i"], ["y"])],
               [("x", F32, ["n", "c", 2]), ("i", I64, ["k", 2])], [("y", F32, None)])
    r = OrtRunner(m)
    r.check(_f32(4, 3, 2), np.array([[0, 2], [-4, -1], [3, 0]], np.int64))
    r.check(_f32(1, 1, 2), np.array([[0, 0], [-1, -1]], np.int64))
    for bad in ([[4, 0]], [[0, 3]], [[-5, 0]], [[1, -4]]):
        r.fails(_f32(4, 3, 2), np.array(bad, np.int64))


def test_scatter_runtime_indices_out_of_range_is_an_error() -> None:
    m = _model([oh.make_node("ScatterElements", ["x", "i", "u"], ["y"], axis=1),
                oh.make_node("ScatterND", ["x", "j", "v"], ["z"])],
               [("x", F32, [2, 4]), ("i", I64, [2, "k"]), ("u", F32, [2, "k"]),
                ("j", I64, ["n", 2]), ("v", F32, ["n"])], [("y", F32, None), ("z", F32, None)])
    r = OrtRunner(m)
    x = _f32(2, 4)
    ok_i, ok_j = np.array([[0, -1], [3, -4]], np.int64), np.array([[1, -1], [-2, 2]], np.int64)
    r.check(x, ok_i, _f32(2, 2), ok_j, _f32(2))
    for bad in ([[0, 4], [1, 2]], [[0, 1], [-5, 2]]):
        r.fails(x, np.array(bad, np.int64), _f32(2, 2), ok_j, _f32(2))
    for bad in ([[2, 0]], [[0, 4]], [[-3, 0]]):
        r.fails(x, ok_i, _f32(2, 2), np.array(bad, np.int64), _f32(1))


# -- 2. Slice with negative bounds/steps on a run-time dim -----------------------------------
def test_slice_negative_bounds_runtime_dim() -> None:
    m = _model([oh.make_node("Slice", ["x", "s1", "e1", "a1"], ["y1"]),            # x[:, 1:-1, 0:3]
                oh.make_node("Slice", ["x", "s2", "e2", "a2", "p2"], ["y2"]),      # x[:, ::-1]
                oh.make_node("Slice", ["x", "s3", "e3", "a2", "p3"], ["y3"]),      # x[:, -2:0:-2]
                oh.make_node("Slice", ["x", "s4", "e4", "a2"], ["y4"])],           # x[:, -3:] (clamped)
               [("x", F32, ["b", "t", 4])], [(f"y{k}", F32, None) for k in range(1, 5)],
               inits=[_i64("s1", [1, 0]), _i64("e1", [-1, 3]), _i64("a1", [1, 2]),
                      _i64("s2", [-1]), _i64("e2", [-_INT64_MAX]), _i64("a2", [1]), _i64("p2", [-1]),
                      _i64("s3", [-2]), _i64("e3", [0]), _i64("p3", [-2]),
                      _i64("s4", [-3]), _i64("e4", [_INT64_MAX])])
    r = OrtRunner(m)
    for b, t in [(1, 1), (2, 2), (1, 5), (3, 8)]:
        r.check(_f32(b, t, 4))


# -- 3. Expand of an input with ? dims ----------------------------------------------------------
def test_expand_runtime_input_dims() -> None:
    m = _model([oh.make_node("Expand", ["x", "s"], ["y"]),     # bidirectional: [b, c, t] vs [2, 1, 3, 1]
                oh.make_node("Expand", ["m", "h"], ["z"])],    # the attention mask [b, 1, 1, T] -> [b, 2, 1, T]
               [("x", F32, ["b", "c", "t"]), ("m", F32, ["b", 1, 1, "T"])],
               [("y", F32, None), ("z", F32, None)],
               inits=[_i64("s", [2, 1, 3, 1]), _i64("h", [1, 2, 1, 1])])
    r = OrtRunner(m)
    for b, c, t in [(1, 1, 1), (2, 3, 4), (3, 1, 5)]:
        r.check(_f32(b, c, t), _f32(b, 1, 1, t))
    r.fails(_f32(2, 2, 4), _f32(2, 1, 1, 4))  # c = 2: neither 1 nor 3


def _export(module, example, names, dynamic_axes):
    torch = pytest.importorskip("torch")
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, tuple(torch.from_numpy(e) for e in example), buf, dynamo=False,
                          opset_version=17, input_names=names, dynamic_axes=dynamic_axes)
    return onnx.load_from_string(buf.getvalue())


def test_expand_torch_repeat() -> None:
    torch = pytest.importorskip("torch")

    class M(torch.nn.Module):
        def forward(self, x):
            return x.repeat(1, 2, 1)
    r = OrtRunner(_export(M(), [_f32(2, 3, 4)], ["x"], {"x": {0: "b", 2: "t"}}))
    for b, t in [(1, 1), (2, 4), (3, 7)]:
        r.check(_f32(b, 3, t))


def test_transformer_key_padding_mask_imports() -> None:
    # nn.TransformerEncoderLayer with src_key_padding_mask: the mask's Expand has a ? batch dim.
    # (The export keeps the traced sequence length in the mask; the batch is dynamic.) The
    # attention adds the reshaped mask, a ? dim that is 1 at run time, to the scores: a run-time
    # broadcast. Compiled once, and the reference interpreter too.
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True).eval()

    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = layer

        def forward(self, x, lengths):
            mask = torch.arange(x.shape[1])[None, :] >= lengths[:, None]
            return self.layer(x, src_key_padding_mask=mask)
    m = _export(M(), [_f32(2, 6, 16), np.array([6, 3])], ["x", "lengths"],
                {"x": {0: "b", 1: "t"}, "lengths": {0: "b"}})
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    mod = from_onnx(m)
    run = relay.create_executor("debug", mod=mod).evaluate()
    exe = relay.compile(mod, target="llvm-cpu")
    for lengths in ([4], [6, 2], [1, 5, 6]):
        x, ln = _f32(len(lengths), 6, 16), np.array(lengths, np.int64)
        want = sess.run(None, {"x": x, "lengths": ln})[0]
        np.testing.assert_allclose(np.asarray(run(x, ln)), want, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(np.asarray(exe(x, ln)), want, rtol=1e-4, atol=1e-5)


# -- 4. Trilu on run-time dims ---------------------------------------------------------------------
def test_trilu_runtime_dims() -> None:
    m = _model([oh.make_node("Trilu", ["x", "k"], ["u"], upper=1),
                oh.make_node("Trilu", ["x", "km"], ["l"], upper=0),
                oh.make_node("Trilu", ["x"], ["u0"])],
               [("x", F32, ["b", "m", "n"])], [("u", F32, None), ("l", F32, None), ("u0", F32, None)],
               inits=[oh.make_tensor("k", I64, [], [1]), oh.make_tensor("km", I64, [], [-1])])
    r = OrtRunner(m)
    for shape in [(1, 1, 1), (2, 3, 3), (1, 3, 5), (2, 4, 2)]:
        r.check(_f32(*shape))


def test_trilu_runtime_dims_and_k() -> None:
    m = _model([oh.make_node("Trilu", ["x", "k"], ["y"], upper=1)],
               [("x", F32, ["m", "n"]), ("k", I64, [])], [("y", F32, None)])
    r = OrtRunner(m)
    for shape, k in [((1, 1), 0), ((3, 4), -1), ((5, 2), 2)]:
        r.check(_f32(*shape), np.array(k, np.int64))


# -- 5. GatherElements with run-time dims --------------------------------------------------------
def test_gather_elements_runtime_dims() -> None:
    m = _model([oh.make_node("GatherElements", ["x", "i"], ["y"], axis=1)],
               [("x", F32, ["b", "n"]), ("i", I64, ["c", "k"])], [("y", F32, None)])
    r = OrtRunner(m)
    for b, n, k in [(1, 1, 1), (2, 5, 3), (3, 9, 12)]:
        r.check(_f32(b, n), _RNG.integers(-n, n, (b, k)).astype(np.int64))
    r.fails(_f32(2, 3), np.array([[0, 3], [1, 2]], np.int64))    # 3 is out of range
    r.fails(_f32(2, 3), np.array([[0, -4], [1, 2]], np.int64))   # so is -4
    r.fails(_f32(2, 3), np.zeros((3, 2), np.int64))               # indices dim 0 above the data's


# -- 6. DepthToSpace / SpaceToDepth with run-time batch/H/W ----------------------------------------
def test_depth_to_space_runtime_dims() -> None:
    m = _model([oh.make_node("DepthToSpace", ["x"], ["d"], blocksize=2, mode="DCR"),
                oh.make_node("DepthToSpace", ["x"], ["c"], blocksize=2, mode="CRD")],
               [("x", F32, ["b", 8, "h", "w"])], [("d", F32, None), ("c", F32, None)])
    r = OrtRunner(m)
    for b, h, w in [(1, 1, 1), (2, 3, 5), (1, 4, 2)]:
        r.check(_f32(b, 8, h, w))


def test_space_to_depth_runtime_dims() -> None:
    m = _model([oh.make_node("SpaceToDepth", ["x"], ["y"], blocksize=2)],
               [("x", F32, ["b", 3, "h", "w"])], [("y", F32, None)])
    r = OrtRunner(m)
    for b, h, w in [(1, 2, 2), (2, 4, 6), (3, 6, 2)]:
        r.check(_f32(b, 3, h, w))
    r.fails(_f32(1, 3, 3, 4))  # H = 3 is not a multiple of 2


# -- 7. MaxPool / AveragePool with ceil_mode on run-time spatial dims ------------------------------
def test_pool_ceil_mode_runtime_dims() -> None:
    kw = dict(kernel_shape=[3, 2], strides=[2, 2], ceil_mode=1)
    m = _model([oh.make_node("MaxPool", ["x"], ["mx"], pads=[1, 0, 1, 1], **kw),
                oh.make_node("AveragePool", ["x"], ["a0"], pads=[1, 0, 1, 1], **kw),
                oh.make_node("AveragePool", ["x"], ["a1"], pads=[1, 0, 1, 1], count_include_pad=1, **kw),
                oh.make_node("MaxPool", ["x"], ["m1"], kernel_shape=[2, 2], strides=[3, 1], ceil_mode=1,
                             dilations=[1, 2])],
               [("x", F32, ["b", 2, "h", "w"])], [(o, F32, None) for o in ("mx", "a0", "a1", "m1")])
    r = OrtRunner(m)
    for b, h, w in [(1, 2, 3), (2, 4, 5), (1, 7, 8), (2, 8, 3)]:
        r.check(_f32(b, 2, h, w), rtol=1e-6, atol=1e-6)


def test_pool_ceil_mode_1d_runtime_length() -> None:
    m = _model([oh.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2], strides=[2], ceil_mode=1),
                oh.make_node("AveragePool", ["x"], ["z"], kernel_shape=[3], strides=[2], ceil_mode=1)],
               [("x", F32, ["b", 2, "t"])], [("y", F32, None), ("z", F32, None)])
    r = OrtRunner(m)
    for b, t in [(1, 3), (2, 7), (1, 8)]:
        r.check(_f32(b, 2, t), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("h,w", [(7, 8), (8, 3), (5, 5)])
def test_pool_ceil_mode_static_dims_with_partial_windows(h, w) -> None:
    """The same pools on static dims whose last ceil-mode window is partial (torchvision's
    GoogLeNet and SqueezeNet export such MaxPools): floor mode over the input padded past the
    end, averages scaled by onnxruntime's counts (until session 29 a refusal)."""
    kw = dict(kernel_shape=[3, 2], strides=[2, 2], ceil_mode=1)
    m = _model([oh.make_node("MaxPool", ["x"], ["mx"], pads=[1, 0, 1, 1], **kw),
                oh.make_node("AveragePool", ["x"], ["a0"], pads=[1, 0, 1, 1], **kw),
                oh.make_node("AveragePool", ["x"], ["a1"], pads=[1, 0, 1, 1], count_include_pad=1, **kw),
                oh.make_node("MaxPool", ["x"], ["m1"], kernel_shape=[2, 2], strides=[3, 1], ceil_mode=1,
                             dilations=[1, 2]),
                oh.make_node("MaxPool", ["x"], ["m3"], kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)],
               [("x", F32, [2, 2, h, w])], [(o, F32, None) for o in ("mx", "a0", "a1", "m1", "m3")])
    OrtRunner(m).check(_f32(2, 2, h, w), rtol=1e-6, atol=1e-6)


# -- 8. The If torch emits for squeeze() of a dim it cannot prove is 1 ------------------------------
def test_if_from_squeeze_with_known_condition() -> None:
    torch = pytest.importorskip("torch")

    class M(torch.nn.Module):
        def forward(self, x):
            return torch.nn.functional.pad(x.unsqueeze(1), (2, 1, 0, 0), mode="replicate").squeeze(1)
    m = _export(M(), [_f32(2, 3, 5)], ["x"], {"x": {0: "b", 2: "t"}})
    assert "If" in {n.op_type for n in m.graph.node}
    r = OrtRunner(m)
    for b, t in [(1, 1), (2, 5), (3, 4)]:
        r.check(_f32(b, 3, t))


# An If on a condition known only at run time: Relay's If (scf.if); each branch's nodes are
# computed in that branch only, so a branch that would fail (squeeze of a dim that is not 1)
# is harmless when not taken; branch outputs that use outer values and their own initializers
def test_if_with_runtime_condition() -> None:
    then_g = oh.make_graph([oh.make_node("Mul", ["x", "two"], ["t0"]),
                            oh.make_node("ReduceSum", ["t0"], ["t1"], keepdims=0)], "then", [],
                           [oh.make_tensor_value_info("t0", F32, ["n", 4]),
                            oh.make_tensor_value_info("t1", F32, [])],
                           [oh.make_tensor("two", F32, [], [2.0])])
    else_g = oh.make_graph([oh.make_node("Neg", ["x"], ["e0"]),
                            oh.make_node("ReduceMax", ["x"], ["e1"], keepdims=0)], "else", [],
                           [oh.make_tensor_value_info("e0", F32, ["n", 4]),
                            oh.make_tensor_value_info("e1", F32, [])])
    m = _model([oh.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
                oh.make_node("Greater", ["s", "zero"], ["c"]),
                oh.make_node("If", ["c"], ["y", "z"], then_branch=then_g, else_branch=else_g)],
               [("x", F32, ["n", 4])], [("y", F32, None), ("z", F32, None)],
               inits=[oh.make_tensor("zero", F32, [], [0.0])])
    r = OrtRunner(m)
    text = relay.compiler.lower_to_iree_input(r.mod)
    assert "scf.if" in (text if isinstance(text, str) else text[0])
    for n, sign in [(1, 1.0), (3, -1.0), (2, 1.0), (4, -1.0)]:
        r.check((sign * np.abs(_f32(n, 4))).astype(np.float32), rtol=1e-6, atol=1e-6)


def test_if_runtime_branch_not_taken_cannot_fail() -> None:
    then_g = oh.make_graph([oh.make_node("Squeeze", ["x", "ax"], ["t0"])], "then", [],
                           [oh.make_tensor_value_info("t0", F32, [4])], [_i64("ax", [0])])
    else_g = oh.make_graph([oh.make_node("ReduceSum", ["x", "ax2"], ["e0"], keepdims=0)], "else", [],
                           [oh.make_tensor_value_info("e0", F32, [4])], [_i64("ax2", [0])])
    m = _model([oh.make_node("Shape", ["x"], ["sh"]),
                oh.make_node("Gather", ["sh", "i0"], ["n"], axis=0),
                oh.make_node("Equal", ["n", "one"], ["c"]),
                oh.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
               [("x", F32, ["n", 4])], [("y", F32, None)],
               inits=[oh.make_tensor("i0", I64, [], [0]), oh.make_tensor("one", I64, [], [1])])
    r = OrtRunner(m)
    for n in (1, 3, 2):
        r.check(_f32(n, 4), rtol=1e-6, atol=1e-6)


def test_if_runtime_branches_of_different_shapes_are_unsupported() -> None:
    from relay_mlir.frontend import UnsupportedError
    then_g = oh.make_graph([oh.make_node("Neg", ["x"], ["a"])], "t", [], [oh.make_tensor_value_info("a", F32, [3])])
    else_g = oh.make_graph([oh.make_node("Concat", ["x", "x"], ["c"], axis=0)], "e", [],
                           [oh.make_tensor_value_info("c", F32, [6])])
    m = _model([oh.make_node("If", ["p"], ["y"], then_branch=then_g, else_branch=else_g)],
               [("x", F32, [3]), ("p", TensorProto.BOOL, [])], [("y", F32, None)])
    with pytest.raises(UnsupportedError, match="one type"):
        from_onnx(m)


# -- Inputs sharing a dim_param --------------------------------------------------------------------
def test_inputs_sharing_a_dim_name_get_one_size() -> None:
    # ONNX: dims with the same dim_param are equal. The importer gives the later input the first
    # one's size (a checked dyn.reshape), so ops combining them need no run-time broadcast
    # (the lowered program has no broadcast check); sizes that differ are a run-time error.
    m = _model([oh.make_node("Add", ["x", "m"], ["s"]), oh.make_node("Mul", ["s", "w"], ["y"])],
               [("x", F32, ["batch", "seq"]), ("m", F32, ["batch", "seq"]), ("w", F32, ["seq"])],
               [("y", F32, None)])
    r = OrtRunner(m)
    text = relay.compiler.lower_to_iree_input(r.mod)
    text = text if isinstance(text, str) else text[0]
    assert "do not broadcast" not in text
    for b, t in [(1, 1), (2, 5), (3, 4)]:
        r.check(_f32(b, t), _f32(b, t), _f32(t))
    r.fails(_f32(2, 5), _f32(3, 5), _f32(5), ort_fails=False)  # (onnxruntime does not check names)
    r.fails(_f32(2, 5), _f32(2, 4), _f32(5))
