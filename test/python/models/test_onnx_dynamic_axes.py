"""Models exported with dynamic axes: imported and compiled ONCE, run at several sizes.

The zoo's BERT-style encoder, LSTM language model and ResNet-18
(``zoo_cases.py``, the zoo's seeded weights in their ``torch.nn`` twins) are
exported by
``torch.onnx.export(..., dynamic_axes=...)`` with symbolic batch and sequence
dims. The exports compute shapes at run time (``Shape -> Gather -> Unsqueeze
-> Concat -> Reshape``, ``Range`` over the sequence length,
``ConstantOfShape`` initial LSTM states, LSTM over a run-time number of
steps); the importer keeps that arithmetic in the program
(``frontend/onnx_ops/_symshape.py``), static where it can. Each model is
compiled once for llvm-cpu and run at three or more sizes including batch 1
and sequence length 1 (ResNet-18: batch, height and width), against
onnxruntime on the same export.

Tolerance: ``rtol=1e-4`` and ``atol=1e-4 * max|reference|`` (the zoo's).
Measured (llvm-cpu): max|err| / max|ref| <= 1.4e-6 (BERT), 1.6e-7 (LSTM LM),
6e-7 (ResNet-18).
"""
from __future__ import annotations

import io
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install 'relay-mlir[torch]')")
ort = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
onnx = pytest.importorskip("onnx")

import relay_mlir as relay  # noqa: E402
from relay_mlir.frontend import from_onnx  # noqa: E402
from zoo_cases import assert_close, cases  # noqa: E402

CASES = cases()


def _export(module, args, names, outs, dyn):
    buf = io.BytesIO()
    module.eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, tuple(args), buf, dynamo=False, opset_version=17,
                          input_names=names, output_names=outs, dynamic_axes=dyn)
    m = onnx.load_from_string(buf.getvalue())
    m.ir_version = 10
    return m


def _twin(name):
    from relay_mlir.models import torch_models
    case = CASES[name]
    _, params = case.workload()
    twin = case.twin()
    torch_models.load_params(twin, params)
    return case, twin


def _bert_inputs(rng, b, s):
    ids = rng.integers(0, 100, size=(b, s)).astype("int64")
    types = (np.arange(s)[None, :] >= s // 2).astype("int64").repeat(b, 0)
    mask = np.ones((b, s), "int64")
    if b > 1 and s > 2:
        mask[-1, -2:] = 0  # a padded sequence
    return [ids, types, mask]


class _Dynamic:
    """One export with dynamic axes, its compiled module (compiled once) and onnxruntime."""

    def __init__(self, name: str) -> None:
        case, twin = _twin(name)
        self.case = case
        rng = np.random.default_rng(3)
        if name == "bert_tiny":
            example = _bert_inputs(rng, 2, 8)
            dyn = {n: {0: "batch", 1: "seq"} for n in case.input_names}
            dyn.update({"sequence_output": {0: "batch", 1: "seq"}, "pooled_output": {0: "batch"}})
        else:
            example = [rng.integers(0, 50, size=(2, 6)).astype("int64")]
            dyn = {"input_ids": {0: "batch", 1: "seq"}, "logits": {0: "batch", 1: "seq"}}
        self.model = _export(twin, [torch.from_numpy(a) for a in example], list(case.input_names),
                             list(case.output_names), dyn)
        self.mod = from_onnx(self.model)
        self.exe = relay.compile(self.mod, target="llvm-cpu")
        self.sess = ort.InferenceSession(self.model.SerializeToString(), providers=["CPUExecutionProvider"])

    def check(self, inputs, what: str):
        want = self.sess.run(None, dict(zip([i.name for i in self.sess.get_inputs()], inputs)))
        got = self.exe(*inputs)
        return assert_close(got, want, self.case.rtol, self.case.atol, what)


@pytest.fixture(scope="module")
def bert():
    return _Dynamic("bert_tiny")


@pytest.fixture(scope="module")
def lstm():
    return _Dynamic("lstm")


def test_bert_dynamic_axes_compiled_once(bert):
    main = bert.mod["main"]
    assert all(len(p.type_annotation.shape) == 2 and not any(isinstance(d, int) for d in p.type_annotation.shape)
               for p in main.params), [p.type_annotation for p in main.params]  # batch and seq are ?
    rng = np.random.default_rng(11)
    for b, s in [(1, 1), (2, 8), (3, 5), (1, 16)]:
        bert.check(_bert_inputs(rng, b, s), f"BERT batch {b} seq {s}")


def test_lstm_dynamic_axes_compiled_once(lstm):
    rng = np.random.default_rng(12)
    for b, s in [(1, 1), (2, 6), (3, 9)]:
        lstm.check([rng.integers(0, 50, size=(b, s)).astype("int64")], f"LSTM LM batch {b} seq {s}")


def test_cnn_dynamic_batch_and_image_size_compiled_once():
    """ResNet-18 (zoo) exported with dynamic batch, height and width."""
    case, twin = _twin("resnet18")
    x = case.inputs(np.random.default_rng(5))[0]
    dyn = {"data": {0: "batch", 2: "h", 3: "w"}, case.output_names[0]: {0: "batch"}}
    m = _export(twin, [torch.from_numpy(x)], ["data"], list(case.output_names), dyn)
    exe = relay.compile(from_onnx(m), target="llvm-cpu")
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(6)
    for shape in [(1, 3, 32, 32), (3, 3, 32, 32), (2, 3, 40, 48)]:
        xi = rng.standard_normal(shape).astype(np.float32)
        assert_close(exe(xi), sess.run(None, {"data": xi}), case.rtol, case.atol, f"ResNet-18 {shape}")


def test_static_axes_import_has_no_dynamic_ops():
    """The same model exported with static axes imports without shape arithmetic at run time:
    every shape is folded at import time, as before."""
    case, twin = _twin("bert_tiny")
    rng = np.random.default_rng(4)
    example = _bert_inputs(rng, 2, 8)
    m = _export(twin, [torch.from_numpy(a) for a in example], list(case.input_names),
                list(case.output_names), None)
    text = from_onnx(m).astext()
    for op in ("shape_of", "dyn.", "arange"):
        assert op not in text, op


def test_runtime_shape_mismatch_fails_loudly():
    """A shape computed at run time that does not fit the data is a run-time error from the
    compiled module (the declared output shape is never trusted): Reshape to the shape of
    another input, whose element count differs."""
    import onnx.helper as oh
    from onnx import TensorProto
    g = oh.make_graph(
        [oh.make_node("Shape", ["like"], ["s"]), oh.make_node("Reshape", ["x", "s"], ["y"])], "g",
        [oh.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 4]),
         oh.make_tensor_value_info("like", TensorProto.FLOAT, ["a", "b"])],
        [oh.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b"])])
    m = oh.make_model(g, opset_imports=[oh.make_opsetid("", 17)])
    exe = relay.compile(from_onnx(m), target="llvm-cpu")
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    np.testing.assert_array_equal(exe(x, np.zeros((4, 2), np.float32)), x.reshape(4, 2))
    np.testing.assert_array_equal(exe(x, np.zeros((8, 1), np.float32)), x.reshape(8, 1))
    with pytest.raises(relay.RelayRuntimeError, match="relay.dyn.reshape"):
        exe(x, np.zeros((3, 3), np.float32))
