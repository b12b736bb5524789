"""ONNX LSTM, GRU and RNN against onnxruntime.

Each compiled model holds many nodes (one per variant) so that few compiles
cover: every direction, both layouts (onnxruntime's CPU kernels lack layout 1,
so it runs the layout-0 twin of the model on transposed inputs), opsets 7
and 22, weights as initializers and as run-time inputs, all optional inputs
(B, sequence_lens, initial_h, initial_c, P), sequence_lens masking with
varying lengths (as a run-time input, with a zero length, and as a constant),
clip, every ONNX activation with activation_alpha/beta, input_forget,
linear_before_reset and omitted outputs. float32, compared with onnxruntime
at rtol=1e-5, atol=1e-6.
"""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper as oh, numpy_helper  # noqa: E402

import relay_mlir as relay  # noqa: E402
from relay_mlir.frontend import UnsupportedError, from_onnx  # noqa: E402

RTOL, ATOL = 1e-5, 1e-6
T, BATCH, IN, HID = 3, 3, 5, 4
GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}

# per direction: (activations, alphas, betas); two sets so bidirectional nodes
# consume a concatenated alpha/beta list. Together they use all 11 activations.
ACTS = {
    "LSTM": [(["HardSigmoid", "ScaledTanh", "Softsign"], [0.3, 0.9], [0.55, 1.1]),
             (["Sigmoid", "Elu", "Affine"], [0.7, 0.5], [0.1])],
    "GRU": [(["HardSigmoid", "LeakyRelu"], [0.25, 0.05], [0.45]),
            (["Sigmoid", "Softplus"], [], [])],
    "RNN": [(["Relu"], [], []),
            (["ThresholdedRelu"], [0.1], [])],
}


# layout 0 -> layout 1 of X / initial states, and of Y
_TO_L1 = {"x": (1, 0, 2), "state": (1, 0, 2), "y": (2, 0, 1, 3), "other": None}


class _Graph:
    """Nodes with their inputs and outputs; values are drawn in layout 0.

    ``model(twin=False)`` is the model as written (layout-1 nodes take
    batch-major X and states); ``model(twin=True)`` is the same model with
    every node in layout 0 (onnxruntime's CPU kernels do not implement
    layout 1), whose feeds and outputs are the transposes.
    """

    def __init__(self, rng, t: int = T) -> None:
        self.rng, self.t = rng, t
        self.nodes = []     # (op, inputs, outputs, attrs, layout)
        self.values = []    # (name, array in layout 0, kind, layout, runtime)
        self.outs = []      # (name, shape in layout 0, kind, layout)
        self.xs = {}

    def _value(self, name, arr, kind="other", layout=0, runtime=True):
        self.values.append((name, arr, kind, layout, runtime))
        return name

    def x(self, layout):
        if layout not in self.xs:
            arr = self.rng.standard_normal((self.t, BATCH, IN)).astype(np.float32)
            self.xs[layout] = self._value(f"X{layout}", arr, "x", layout)
        return self.xs[layout]

    def node(self, op, tag, direction="forward", layout=0, runtime=False, bias=False, seq=None,
             init_h=False, init_c=False, peep=False, outputs=(True, True, True), **attrs):
        """Adds one node; ``seq`` is None or ("runtime"|"const", lengths)."""
        rng, g, nd = self.rng, GATES[op], 2 if direction == "bidirectional" else 1
        s = 1 / np.sqrt(HID)
        st = (nd, BATCH, HID)
        val = self._value

        def rand(shape, scale):
            return (rng.standard_normal(shape) * scale).astype(np.float32)
        ins = [self.x(layout),
               val(f"{tag}_W", rand((nd, g * HID, IN), s), runtime=runtime),
               val(f"{tag}_R", rand((nd, g * HID, HID), s), runtime=runtime),
               val(f"{tag}_B", rand((nd, 2 * g * HID), 0.5), runtime=runtime) if bias else "",
               val(f"{tag}_L", np.array(seq[1], np.int32), runtime=seq[0] == "runtime") if seq else "",
               val(f"{tag}_h0", rng.standard_normal(st).astype(np.float32), "state", layout, runtime)
               if init_h else ""]
        if op == "LSTM":
            ins.append(val(f"{tag}_c0", rng.standard_normal(st).astype(np.float32), "state", layout, runtime)
                       if init_c else "")
            ins.append(val(f"{tag}_P", rand((nd, 3 * HID), 0.5), runtime=runtime) if peep else "")
        while ins[-1] == "":
            ins.pop()
        outs = []
        for k, suffix in enumerate(("Y", "Y_h", "Y_c")[:3 if op == "LSTM" else 2]):
            if outputs[k]:
                outs.append(f"{tag}_{suffix}")
                self.outs.append((outs[-1], (self.t, nd, BATCH, HID) if k == 0 else st,
                                  "y" if k == 0 else "state", layout))
            else:
                outs.append("")
        while outs[-1] == "":
            outs.pop()
        attrs.update(name=tag, direction=direction, hidden_size=HID)
        self.nodes.append((op, ins, outs, attrs, layout))

    @staticmethod
    def _l(arr_or_shape, kind, layout, twin):
        perm = _TO_L1[kind]
        if twin or layout == 0 or perm is None:
            return arr_or_shape
        if isinstance(arr_or_shape, np.ndarray):
            return np.ascontiguousarray(arr_or_shape.transpose(perm))
        return tuple(arr_or_shape[p] for p in perm)

    def model(self, opset, twin=False, dyn_batch=False, dyn_seq=False):
        """``(model, feeds)``; ``dyn_batch``/``dyn_seq``: X has a symbolic batch/sequence dim."""
        nodes = [oh.make_node(op, ins, outs, **attrs, **({"layout": 1} if layout and not twin else {}))
                 for op, ins, outs, attrs, layout in self.nodes]
        inputs, inits, feeds = [], [], {}
        for name, arr, kind, layout, runtime in self.values:
            arr = self._l(arr, kind, layout, twin)
            if runtime:
                t = TensorProto.INT32 if arr.dtype == np.int32 else TensorProto.FLOAT
                shape = list(arr.shape)
                if dyn_batch and kind == "x":
                    shape[1 if layout == 0 or twin else 0] = "batch"
                if dyn_seq and kind == "x":
                    shape[0 if layout == 0 or twin else 1] = "seq"
                inputs.append(oh.make_tensor_value_info(name, t, shape))
                feeds[name] = arr
            else:
                inits.append(numpy_helper.from_array(arr, name))
        outputs = [oh.make_tensor_value_info(name, TensorProto.FLOAT,
                                             list(self._l(shape, kind, layout, twin)))
                   for name, shape, kind, layout in self.outs]
        g = oh.make_graph(nodes, "rnn", inputs, outputs, initializer=inits)
        m = oh.make_model(g, opset_imports=[oh.make_opsetid("", opset)])
        m.ir_version = 8
        onnx.checker.check_model(m)
        return m, feeds

    def check(self, opset, dyn_batch=False):
        """Ours on the model vs onnxruntime on its layout-0 twin."""
        ref, ref_feeds = self.model(opset, twin=True)
        sess = ort.InferenceSession(ref.SerializeToString(), providers=["CPUExecutionProvider"])
        want = dict(zip([o.name for o in ref.graph.output], sess.run(None, ref_feeds)))
        model, feeds = self.model(opset, dyn_batch=dyn_batch)
        exe = relay.compile(from_onnx(model), target="llvm-cpu")
        got = exe(*[feeds[i.name] for i in model.graph.input])
        got = got if isinstance(got, tuple) else (got,)
        assert len(got) == len(self.outs)
        for (name, _, kind, layout), gv in zip(self.outs, got):
            wv = self._l(want[name], kind, layout, False)
            gv = np.asarray(gv)
            assert gv.shape == wv.shape, (name, gv.shape, wv.shape)
            np.testing.assert_allclose(gv, wv, rtol=RTOL, atol=ATOL, err_msg=name)
        return want


    def check_lengths(self, opset, lengths):
        """The model with a symbolic sequence length, compiled once, run with X cut to each of
        ``lengths`` steps (run-time sequence_lens capped at the length) vs onnxruntime."""
        model, _ = self.model(opset, dyn_seq=True, dyn_batch=True)
        exe = relay.compile(from_onnx(model), target="llvm-cpu")
        ref_full, _ = self.model(opset, twin=True)
        ref, _ = self.model(opset, twin=True, dyn_seq=True, dyn_batch=True)
        sess = ort.InferenceSession(ref.SerializeToString(), providers=["CPUExecutionProvider"])
        del ref_full
        for t in lengths:
            feeds = {}
            for name, arr, kind, layout, runtime in self.values:
                if not runtime:
                    continue
                if kind == "x":
                    arr = arr[:t]
                elif arr.dtype == np.int32:  # sequence_lens
                    arr = np.minimum(arr, t).astype(np.int32)
                feeds[name] = arr
            want = dict(zip([o.name for o in ref.graph.output],
                            sess.run(None, {k: self._l(v, kind_of(self, k), layout_of(self, k), True)
                                            for k, v in feeds.items()})))
            got = exe(*[self._l(feeds[i.name], kind_of(self, i.name), layout_of(self, i.name), False)
                        for i in model.graph.input])
            got = got if isinstance(got, tuple) else (got,)
            for (name, _, kind, layout), gv in zip(self.outs, got):
                wv = self._l(want[name], kind, layout, False)
                gv = np.asarray(gv)
                assert gv.shape == wv.shape, (t, name, gv.shape, wv.shape)
                np.testing.assert_allclose(gv, wv, rtol=RTOL, atol=ATOL, err_msg=f"{name} at {t} steps")


def kind_of(g, name):
    return next(kind for n, _, kind, _, _ in g.values if n == name)


def layout_of(g, name):
    return next(layout for n, _, _, layout, _ in g.values if n == name)


def _acts(op, direction):
    sets = ACTS[op] if direction == "bidirectional" else [ACTS[op][direction == "reverse"]]
    kw = dict(activations=sum((s[0] for s in sets), []))
    alphas, betas = sum((s[1] for s in sets), []), sum((s[2] for s in sets), [])
    if alphas:
        kw["activation_alpha"] = alphas
    if betas:
        kw["activation_beta"] = betas
    return kw


@pytest.mark.parametrize("op", ["LSTM", "GRU", "RNN"])
def test_rnn_matches_onnxruntime(op):
    g = _Graph(np.random.default_rng(list(GATES).index(op)))
    bi = "bidirectional"
    g.node(op, "plain", bi, runtime=True)
    # every optional input; lengths vary (one sequence is empty) and are a run-time input
    g.node(op, "full_fwd", "forward", bias=True, seq=("runtime", [T, 2, 0]), init_h=True, init_c=True,
           peep=True)
    g.node(op, "full_bi", bi, runtime=True, bias=True, seq=("runtime", [1, T, 0]), init_h=True,
           init_c=True, peep=True)
    # every activation (alpha/beta lists of both directions), clip, constant sequence_lens
    g.node(op, "acts", bi, bias=True, seq=("const", [1, T, 2]), init_h=True, clip=0.8, **_acts(op, bi))
    if op == "LSTM":
        g.node(op, "coupled", "reverse", runtime=True, bias=True, init_c=True, peep=True, input_forget=1,
               outputs=(False, True, True))
        g.node(op, "only_c", "forward", bias=True, seq=("const", [2, 1, T]), outputs=(False, False, True))
    elif op == "GRU":
        g.node(op, "lbr", "reverse", runtime=True, bias=True, init_h=True, seq=("runtime", [2, T, 1]),
               linear_before_reset=1, outputs=(True, False))
        g.node(op, "lbr_nobias", "forward", linear_before_reset=1, outputs=(False, True))
    else:
        g.node(op, "only_h", "reverse", runtime=True, bias=True, init_h=True, outputs=(False, True))
    # layout 1 (batch-major X, states and Y)
    g.node(op, "batchwise_bi", bi, layout=1, bias=True, seq=("runtime", [2, 0, T]), init_h=True,
           init_c=True, peep=True)
    want = g.check(opset=22)
    # the masked steps really are zero, and the rest is not
    y = want["full_fwd_Y"]
    assert np.all(y[2:, :, 1] == 0) and np.all(y[:, :, 2] == 0) and np.abs(y[:2, :, 1]).min() > 0


def test_rnn_opset7_dynamic_batch():
    """The converters from opset 7 on (no layout attribute yet), X with a symbolic batch dim."""
    g = _Graph(np.random.default_rng(5), t=2)
    g.node("GRU", "gru", "bidirectional", bias=True, seq=("runtime", [2, 1, 2]), init_h=True)
    g.node("LSTM", "lstm", "reverse", runtime=True, peep=True, outputs=(False, True, True))
    g.node("RNN", "rnn", "forward", init_h=True, activations=["Sigmoid"])
    g.check(opset=7, dyn_batch=True)


@pytest.mark.parametrize("op", ["LSTM", "GRU", "RNN"])
def test_rnn_dynamic_sequence_length(op):
    """A sequence length known only at run time: each direction is a loop (a self-tail-recursive
    global function); compiled once, run with 1, 2 and 3 steps (and two batch sizes' worth of
    masking via run-time sequence_lens)."""
    g = _Graph(np.random.default_rng(10 + list(GATES).index(op)))
    g.node(op, "bi", "bidirectional", runtime=True, bias=True, init_h=True, init_c=True, peep=True)
    g.node(op, "rev", "reverse", bias=True, seq=("runtime", [T, 2, 1]), init_h=True)
    g.node(op, "fwd", "forward", seq=("runtime", [1, T, 0]), clip=0.8, **_acts(op, "forward"))
    g.node(op, "batchwise", "bidirectional", layout=1, bias=True, init_h=True)
    g.check_lengths(opset=22, lengths=[1, 2, T])


@pytest.mark.parametrize("op", ["LSTM", "GRU"])
def test_rnn_long_dynamic_sequence(op):
    """The loop over a run-time length takes 16 steps an iteration while 16 remain, then 4
    with the steps past the end masked: lengths that end in each kind, both directions,
    run-time sequence_lens shorter than the length."""
    long = 45
    g = _Graph(np.random.default_rng(20 + list(GATES).index(op)), t=long)
    g.node(op, "bi", "bidirectional", runtime=True, bias=True, init_h=True, init_c=True,
           seq=("runtime", [long, 19, 1]))
    g.node(op, "rev", "reverse", bias=True, init_h=True)
    g.check_lengths(opset=22, lengths=[1, 7, 16, 20, 32, 33, long])


# ---------------------------------------------------------------------------
# rejected models: UnsupportedError naming op type, node and opset
# ---------------------------------------------------------------------------
def _single(op="LSTM", xshape=(T, BATCH, IN), dtype=TensorProto.FLOAT, extra_inputs=(), hidden_size=HID,
            **attrs):
    g = GATES[op]
    W = numpy_helper.from_array(np.zeros((1, g * HID, IN), np.float32), "W")
    R = numpy_helper.from_array(np.zeros((1, g * HID, HID), np.float32), "R")
    inits = [W, R] + [numpy_helper.from_array(v, k) for k, v in extra_inputs]
    ins = ["X", "W", "R"] + [k for k, _ in extra_inputs]
    node = oh.make_node(op, ins, ["Y"], name="the_rnn", hidden_size=hidden_size, **attrs)
    graph = oh.make_graph([node], "g", [oh.make_tensor_value_info("X", dtype, list(xshape))],
                          [oh.make_tensor_value_info("Y", dtype, None)], initializer=inits)
    m = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 14)])
    m.ir_version = 8
    return m


@pytest.mark.parametrize("case,kwargs,words", [
    ("affine_default", dict(op="RNN", activations=["Affine"]), "activation_alpha"),
    ("thresholded_default", dict(op="RNN", activations=["ThresholdedRelu"]), "activation_alpha"),
    ("scaledtanh_no_beta", dict(op="RNN", activations=["ScaledTanh"], activation_alpha=[1.0]),
     "activation_beta"),
    ("leftover_alpha", dict(op="GRU", activations=["Sigmoid", "Tanh"], activation_alpha=[0.5]),
     "ambiguous"),
    ("activation_count", dict(op="GRU", activations=["Sigmoid", "Tanh", "Tanh"]),
     "activations"),
    ("unknown_activation", dict(op="RNN", activations=["Gelu"]), "Gelu"),
    ("float16", dict(dtype=TensorProto.FLOAT16), "float16"),
    ("float64", dict(op="GRU", dtype=TensorProto.DOUBLE), "float64"),
    ("seq_len_range", dict(extra_inputs=[("B", np.zeros((1, 8 * HID), np.float32)),
                                         ("L", np.array([1, 2, T + 1], np.int32))]), "sequence_lens"),
    ("hidden_size_mismatch", dict(op="RNN", hidden_size=HID + 1), "hidden_size"),
])
def test_rnn_unsupported(case, kwargs, words):
    m = _single(**kwargs)
    with pytest.raises(UnsupportedError) as e:
        from_onnx(m)
    msg = str(e.value)
    op = kwargs.get("op", "LSTM")
    assert f"ONNX {op} node 'the_rnn' (opset 14)" in msg and words in msg, msg
